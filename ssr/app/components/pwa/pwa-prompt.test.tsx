// The prompt's Reload: the page loads again once the waiting version has
// taken over, whether or not a worker controlled the page, and never stays dead.
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import pwa from "@omnibus/shared/content/pwa.json";
import { nearImages } from "~/lib/near-images";
import { PWA_RELOAD_FALLBACK_MS } from "./register";

/**
 * A service worker as the browser runs it: a waiting version that, told to
 * skip waiting, activates; pages the old version controlled are handed to it
 * on the way (workbox's 'controlling'), a page no worker controls is not.
 */
class FakeWorker extends EventTarget {
  state: ServiceWorkerState = "installed";
  constructor(private readonly onActivating: () => void, private readonly activates: boolean) {
    super();
  }
  postMessage(data: { type: string }) {
    if (data.type !== "SKIP_WAITING" || !this.activates) return;
    queueMicrotask(() => {
      this.state = "activating";
      this.dispatchEvent(new Event("statechange"));
      this.onActivating();
      this.state = "activated";
      this.dispatchEvent(new Event("statechange"));
    });
  }
}

let waiting: FakeWorker;
let controlled: boolean;

// workbox-window's Workbox, as register.ts uses it: events, register() and
// messageSkipWaiting(), which posts to the registration's waiting worker.
const fake = vi.hoisted(() => ({ wb: undefined as EventTarget | undefined }));
vi.mock("workbox-window", () => ({
  Workbox: class extends EventTarget {
    constructor() {
      super();
      fake.wb = this;
    }
    async register() {}
    messageSkipWaiting() {
      waiting.postMessage({ type: "SKIP_WAITING" });
    }
  },
}));

const reload = vi.fn();
const realLocation = window.location;

function setUp({ pageControlled, activates = true }: { pageControlled: boolean; activates?: boolean }) {
  controlled = pageControlled;
  waiting = new FakeWorker(() => controlled && fake.wb!.dispatchEvent(new Event("controlling")), activates);
  Object.defineProperty(navigator, "serviceWorker", {
    configurable: true,
    value: { getRegistration: async () => ({ waiting }) },
  });
}

beforeEach(() => {
  Object.defineProperty(window, "location", { configurable: true, value: { ...realLocation, reload } });
  // A fresh page: no interaction yet (lib/near-images.ts keeps its state on window).
  Reflect.deleteProperty(window, "__nearImages");
  nearImages(); // as the document's BOOT script does
  document.head.querySelector('link[rel="manifest"]')?.remove();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  reload.mockReset();
  fake.wb = undefined;
  Object.defineProperty(window, "location", { configurable: true, value: realLocation });
  Reflect.deleteProperty(navigator, "serviceWorker");
});

async function clickReload() {
  const { PwaPrompt } = await import("./pwa-prompt");
  render(<PwaPrompt enabled />);
  // The worker registers at the visitor's first interaction.
  await act(async () => window.dispatchEvent(new Event("pointerdown")));
  // A new version installed and waiting: the prompt asks.
  await vi.waitFor(() => expect(fake.wb).toBeDefined());
  await act(async () => fake.wb!.dispatchEvent(new Event("waiting")));
  const button = await screen.findByRole("button", { name: pwa.prompt.reload });
  await act(async () => button.click());
}

it("reloads once the new version has taken over a page it controlled", async () => {
  setUp({ pageControlled: true });
  await clickReload();
  await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  expect(waiting.state).toBe("activated");
});

it("reloads once the new version is active on a page no worker controls (a hard reload while another tab holds the old version)", async () => {
  setUp({ pageControlled: false });
  await clickReload();
  await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
});

it("reloads anyway when the new version never takes over, after a few seconds", async () => {
  setUp({ pageControlled: true, activates: false });
  vi.useFakeTimers({ shouldAdvanceTime: true });
  await clickReload();
  await act(async () => vi.advanceTimersByTime(PWA_RELOAD_FALLBACK_MS / 2));
  expect(reload).not.toHaveBeenCalled();
  await act(async () => vi.advanceTimersByTime(PWA_RELOAD_FALLBACK_MS / 2));
  expect(reload).toHaveBeenCalledTimes(1);
});

// A visitor who only looks fetches neither the manifest (and the
// icon Chromium fetches with it) nor the worker that precaches the whole shell.
it("links the manifest and registers the worker at the first interaction, not before", async () => {
  setUp({ pageControlled: false });
  const { PwaPrompt } = await import("./pwa-prompt");
  vi.useFakeTimers({ shouldAdvanceTime: true });
  render(<PwaPrompt enabled />);
  // Every timer the prompt set (an idle callback's fallback too) fires and every
  // promise settles: the dynamic import of register.ts had it started (it did at once before).
  await act(async () => {
    await import("./register");
    await vi.runAllTimersAsync();
  });
  vi.useRealTimers();
  expect(fake.wb).toBeUndefined();
  expect(document.head.querySelector('link[rel="manifest"]')).toBeNull();

  await act(async () => window.dispatchEvent(new KeyboardEvent("keydown", { key: "Tab" })));
  await vi.waitFor(() => expect(fake.wb).toBeDefined());
  expect(document.head.querySelector('link[rel="manifest"]')?.getAttribute("href")).toBe("/manifest.webmanifest");
});
