// React Router asks the edge for the routes of the links it sees marked
// data-discover; laterDiscovery keeps that mark off until the visitor shows
// a sign of going somewhere, so a first visit that only reads asks nothing.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BOOT } from "./deferred-scripts.server";
import { laterDiscovery } from "./later-discovery";

type Listener = (state: { navigation: { state: string } }) => void;
const w = window as unknown as {
  __laterDiscovery?: boolean;
  __reactRouterDataRouter?: { subscribe: (fn: Listener) => () => void };
  __reactRouterManifest?: { routes: Record<string, object> };
};

const marked = () => document.querySelectorAll("[data-discover]").length;
const microtask = () => new Promise<void>((resolve) => queueMicrotask(resolve));

beforeEach(() => {
  document.body.innerHTML =
    '<nav><a href="/features" data-discover="true">Features</a><a href="/pricing" data-discover="true">Pricing</a></nav>' +
    '<form action="/api/v1/newsletter" data-discover="true"></form><a href="https://calendly.com/x">Demo</a>';
});

afterEach(() => {
  // The sign the test gave released it; a release removes its listeners.
  document.body.dispatchEvent(new Event("pointerover", { bubbles: true }));
  for (const key of ["__laterDiscovery", "__reactRouterDataRouter", "__reactRouterManifest"] as const) Reflect.deleteProperty(window, key);
});

describe("route discovery waits for the visitor", () => {
  it("is part of BOOT, which runs before React Router's scripts", () => {
    expect(BOOT).toContain('"a[data-discover],form[data-discover]"');
  });

  it("takes the mark off every link and form React Router made, and off those the document brings later", async () => {
    laterDiscovery();
    expect(marked()).toBe(0);
    document.body.insertAdjacentHTML("beforeend", '<a href="/help" data-discover="true">Help</a>');
    await microtask();
    expect(marked()).toBe(0);
  });

  for (const sign of ["pointerover", "pointerdown", "touchstart", "keydown", "focusin"]) {
    it(`gives the marks back at the visitor's first ${sign}, and React Router's watcher sees them`, async () => {
      laterDiscovery();
      const seen: string[] = [];
      new MutationObserver((records) => records.forEach((r) => seen.push((r.target as Element).getAttribute("href") ?? "form"))).observe(document.body, {
        subtree: true,
        attributes: true,
        attributeFilter: ["data-discover"],
      });
      document.querySelector("nav a")!.dispatchEvent(new Event(sign, { bubbles: true }));
      expect(marked()).toBe(3);
      await microtask();
      expect(seen.sort()).toEqual(["/features", "/pricing", "form"]);
      // Links the document brings after the sign keep their mark.
      document.body.insertAdjacentHTML("beforeend", '<a href="/help" data-discover="true">Help</a>');
      await microtask();
      expect(marked()).toBe(4);
    });
  }

  it("waits for the routes to arrive before looking again, and stops listening then", () => {
    const listeners: Listener[] = [];
    w.__reactRouterManifest = { routes: { root: {}, home: {} } };
    w.__reactRouterDataRouter = {
      subscribe: (fn) => {
        listeners.push(fn);
        return () => listeners.splice(listeners.indexOf(fn), 1);
      },
    };
    laterDiscovery();
    document.body.dispatchEvent(new Event("pointerover", { bubbles: true }));
    expect(listeners).toHaveLength(1);
    listeners[0]({ navigation: { state: "idle" } }); // a state change that brought no route
    expect(listeners).toHaveLength(1);
    w.__reactRouterManifest.routes.features = {};
    listeners[0]({ navigation: { state: "loading" } }); // a navigation under way: not yet
    expect(listeners).toHaveLength(1);
    listeners[0]({ navigation: { state: "idle" } });
    expect(listeners).toHaveLength(0);
  });

  // An anonymous visitor's page hydrates at this same sign (lib/boot.ts): React Router makes
  // its router after the release, and the link under the pointer must still look again.
  it("when the page hydrates after the sign, watches the router React Router makes then", () => {
    const listeners: Listener[] = [];
    w.__reactRouterManifest = { routes: { root: {}, home: {} } };
    laterDiscovery();
    document.body.dispatchEvent(new Event("pointerover", { bubbles: true }));
    expect(listeners).toHaveLength(0);
    const router = {
      subscribe: (fn: Listener) => {
        listeners.push(fn);
        return () => listeners.splice(listeners.indexOf(fn), 1);
      },
    };
    w.__reactRouterDataRouter = router;
    expect(w.__reactRouterDataRouter).toBe(router);
    expect(listeners).toHaveLength(1);
    w.__reactRouterManifest.routes.features = {};
    listeners[0]({ navigation: { state: "idle" } });
    expect(listeners).toHaveLength(0);
  });

  it("leaves a page the installed app's worker controls as it is: offline, its routes could not be asked for later", () => {
    Object.defineProperty(navigator, "serviceWorker", { value: { controller: {} }, configurable: true });
    try {
      laterDiscovery();
      expect(marked()).toBe(3);
    } finally {
      Reflect.deleteProperty(navigator, "serviceWorker");
    }
  });

  it("runs once per page, however often BOOT's text runs", () => {
    laterDiscovery();
    document.body.dispatchEvent(new Event("pointerover", { bubbles: true }));
    laterDiscovery();
    expect(marked()).toBe(3);
  });
});
