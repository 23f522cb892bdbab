// BOOT's start (lib/boot.ts): the chunks are preloaded once the page has
// painted, and React Router's client, with the full stylesheet, starts at an
// anonymous visitor's first sign, after the frame that answers it. A visitor
// who only reads never pays for hydration; a tap paints before it begins.
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { BOOT } from "./deferred-scripts.server";

/**
 * A document with BOOT after the inert module script; jsdom draws no paint, so BOOT starts at once.
 * jsdom fetches no stylesheet: with `stylesheet: "loads"` a linked one reports its load a task later
 * (as a cached one does), with "waits" the test reports it itself.
 */
function page(start: "sign" | "paint", worker = false, stylesheet: "loads" | "waits" = "loads") {
  const dom = new JSDOM(
    `<!DOCTYPE html><html><head></head><body><a href="/features">Features</a>` +
      `<script type="text/x-module" data-preload='["/assets/a.js","/assets/b.js"]' data-stylesheet="/assets/app.css" data-start="${start}">import "/assets/a.js";</script>` +
      `<script>${BOOT}</script></body></html>`,
    {
      runScripts: "dangerously",
      pretendToBeVisual: true, // requestAnimationFrame
      url: "https://example.test/",
      beforeParse: (window) => {
        if (worker) Object.defineProperty(window.navigator, "serviceWorker", { value: { controller: {} } });
      },
    },
  );
  const head = dom.window.document.head;
  if (stylesheet === "loads") {
    new dom.window.MutationObserver(() => {
      for (const link of head.querySelectorAll('link[rel="stylesheet"]:not([data-loading])')) {
        link.setAttribute("data-loading", "");
        dom.window.setTimeout(() => link.dispatchEvent(new dom.window.Event("load")), 0);
      }
    }).observe(head, { childList: true });
  }
  const added = () => ({
    preloads: head.querySelectorAll('link[rel="modulepreload"]').length,
    stylesheet: head.querySelectorAll('link[rel="stylesheet"]').length,
    module: head.querySelectorAll('script[type="module"]').length,
  });
  // BOOT's steps each wait for a frame and a task: ours, queued after them, end after BOOT's.
  const frame = () => new Promise((resolve) => dom.window.requestAnimationFrame(() => dom.window.setTimeout(resolve, 0)));
  const frames = async (n = 3) => {
    for (let i = 0; i < n; i++) await frame();
  };
  const fire = (type: string, init: object = {}) => {
    const Event = type.startsWith("pointer") ? dom.window.MouseEvent : dom.window.Event;
    const event = new Event(type, { bubbles: true, ...init });
    if ("pointerType" in init) Object.defineProperty(event, "pointerType", { value: (init as { pointerType: string }).pointerType });
    dom.window.document.querySelector("a")!.dispatchEvent(event);
  };
  return { dom, added, frames, fire };
}

/** An anonymous visitor's page (with head, added to its <head>) after a mouse came over it; the test reports the full stylesheet's load or error. */
async function mouseCame(head = "") {
  const { dom, added, frames, fire } = page("sign", false, "waits");
  const doc = dom.window.document;
  doc.head.insertAdjacentHTML("afterbegin", head);
  await frames();
  fire("pointerover", { pointerType: "mouse" });
  await frames();
  const stylesheet = (event: "load" | "error") => doc.querySelector('link[rel="stylesheet"]')!.dispatchEvent(new dom.window.Event(event));
  return { doc, added, frames, stylesheet };
}

describe("BOOT's start", () => {
  it("for a visitor who only reads: the chunks are preloaded, and neither the stylesheet nor React Router's client comes", async () => {
    const { added, frames } = page("sign");
    await frames(5);
    expect(added()).toEqual({ preloads: 2, stylesheet: 0, module: 0 });
  });

  it("at a mouse coming over the page: the stylesheet, then React Router's client, after the frame", async () => {
    const { added, frames, fire } = page("sign");
    await frames();
    fire("pointerover", { pointerType: "mouse" });
    expect(added().module).toBe(0);
    await frames();
    expect(added()).toEqual({ preloads: 2, stylesheet: 1, module: 1 });
  });

  // The inline CSS holds only the rules of the page's own markup: React's first
  // render after hydration (a client navigation, an island's new state) may draw
  // classes that only the full stylesheet has.
  it("starts React Router's client only once the full stylesheet has loaded", async () => {
    const { stylesheet, added, frames } = await mouseCame();
    expect(added(), "while the stylesheet loads").toEqual({ preloads: 2, stylesheet: 1, module: 0 });
    stylesheet("load");
    await frames();
    expect(added().module).toBe(1);
  });

  it("starts React Router's client when the full stylesheet fails too (offline, say): the page still hydrates", async () => {
    const { stylesheet, added, frames } = await mouseCame();
    stylesheet("error");
    await frames();
    expect(added().module).toBe(1);
  });

  it("switches the inline CSS off once the full stylesheet, which holds the same rules, has loaded: later restyles match one set", async () => {
    const { doc, stylesheet, added } = await mouseCame("<style data-critical>a{color:red}</style>");
    expect(added().stylesheet).toBe(1);
    const inline = doc.querySelector<HTMLStyleElement>("style[data-critical]")!;
    expect(inline.sheet!.disabled || inline.media === "not all", "while the stylesheet loads").toBe(false);
    stylesheet("load");
    // Still in the document (React may be hydrating <head>), applying nowhere.
    expect(doc.querySelector("style[data-critical]")).toBe(inline);
    expect(inline.media).toBe("not all");
  });

  it("switches the inline CSS off too where the server linked the full stylesheet itself (a #fragment's page, a demo)", async () => {
    const { doc, stylesheet, added } = await mouseCame('<style data-critical>a{color:red}</style><link rel="stylesheet" href="/assets/app.css">');
    expect(added().stylesheet, "no second link").toBe(1);
    stylesheet("load");
    expect(doc.querySelector<HTMLStyleElement>("style[data-critical]")!.media).toBe("not all");
  });

  it("at a tap: only once the finger is lifted and that frame is drawn, so the tap paints first", async () => {
    const { added, frames, fire } = page("sign");
    await frames();
    fire("pointerover", { pointerType: "touch" });
    fire("pointerdown", { pointerType: "touch" });
    fire("touchstart");
    await frames();
    expect(added().module, "while the finger is down").toBe(0);
    fire("pointerup", { pointerType: "touch" });
    fire("click");
    await frames();
    expect(added()).toEqual({ preloads: 2, stylesheet: 1, module: 1 });
  });

  for (const sign of ["keydown", "focusin", "scroll", "wheel"]) {
    it(`at a ${sign}`, async () => {
      const { added, frames, fire } = page("sign");
      await frames();
      fire(sign);
      if (sign === "keydown") fire("keyup");
      await frames();
      expect(added().module).toBe(1);
    });
  }

  // A slow phone spends tens of milliseconds on each insertion; done in one
  // task, the three blocked a tap for up to 240 ms. Each leaves the browser a
  // turn before the next, in the order the page needs them.
  // A help article preloads fifteen chunks: inserted in one task, 34-52 ms on a
  // slow phone right after the first paint, the page's one long task there.
  it("for a signed-in visitor: at once after the paint, each preload, the stylesheet and the client (once the stylesheet is in) each in a task of its own, the start not waiting for every preload", async () => {
    const { dom, added } = page("paint");
    const turn = () => new Promise((resolve) => dom.window.setTimeout(resolve, 0));
    expect(added()).toEqual({ preloads: 1, stylesheet: 0, module: 0 });
    await turn(); // the second preload's task, then the start's
    expect(added()).toEqual({ preloads: 2, stylesheet: 1, module: 0 });
    await turn(); // the stylesheet's load
    expect(added()).toEqual({ preloads: 2, stylesheet: 1, module: 0 });
    await turn();
    expect(added()).toEqual({ preloads: 2, stylesheet: 1, module: 1 });
  });

  it("on a page the installed app's worker controls: at once, as it may be used offline", async () => {
    const { added, frames } = page("sign", true);
    await frames();
    expect(added()).toEqual({ preloads: 2, stylesheet: 1, module: 1 });
  });
});
