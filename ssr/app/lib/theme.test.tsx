import { act, cleanup, render as renderDom, screen } from "@testing-library/react";
import type { ReactElement } from "react";
import { createRoutesStub } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ThemeSwitcher } from "~/components/theme-switcher";
import { THEME_STORAGE_KEY } from "./constants";
import { THEME_COOKIE } from "./http-names";
import { cookieTheme, readPreference, resolveTheme, themeScript } from "./theme";

/** Renders inside a router, as every page does (the switcher reads the location for its form). */
function render(element: ReactElement) {
  const Stub = createRoutesStub([{ path: "/", Component: () => element }]);
  return renderDom(<Stub initialEntries={["/"]} />);
}

function emulateSystemDark(dark: boolean) {
  vi.stubGlobal(
    "matchMedia",
    vi.fn((query: string) => ({
      matches: dark && query === "(prefers-color-scheme: dark)",
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    })),
  );
}

beforeEach(() => {
  localStorage.clear();
  document.cookie = `${THEME_COOKIE}=; path=/; max-age=0`;
  document.documentElement.className = "";
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const CASES: [string | null, boolean, "light" | "dark"][] = [
  [null, false, "light"],
  [null, true, "dark"],
  ["system", false, "light"],
  ["system", true, "dark"],
  ["light", true, "light"],
  ["light", false, "light"],
  ["dark", false, "dark"],
  ["dark", true, "dark"],
  ["bogus", true, "dark"],
];

describe("resolveTheme", () => {
  it.each(CASES)("preference %s, system dark %s → %s", (preference, prefersDark, expected) => {
    expect(resolveTheme(preference, prefersDark)).toBe(expected);
  });
});

/** The frame after the first paint, and the task after it: when the script reads localStorage. */
const afterFirstFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => setTimeout(resolve))));

describe("the blocking theme script", () => {
  it.each(CASES)("cookie %s, system dark %s → %s", (preference, prefersDark, expected) => {
    if (preference !== null) document.cookie = `${THEME_COOKIE}=${preference}; path=/`;
    emulateSystemDark(prefersDark);
    new Function(themeScript)();
    expect(document.documentElement.classList.contains("dark")).toBe(expected === "dark");
  });

  it.each(CASES)("stored preference %s without a cookie, system dark %s → %s after the first frame", async (preference, prefersDark, expected) => {
    if (preference !== null) localStorage.setItem(THEME_STORAGE_KEY, preference);
    emulateSystemDark(prefersDark);
    new Function(themeScript)();
    await afterFirstFrame();
    expect(document.documentElement.classList.contains("dark")).toBe(expected === "dark");
  });

  // A first visit has neither cookie nor stored preference: opening the
  // origin's storage (1-12 ms) would delay its first paint for nothing.
  it("touches no localStorage before the first paint, and writes back the cookie a stored choice lacks", async () => {
    const getItem = vi.spyOn(Storage.prototype, "getItem");
    const listen = vi.spyOn(window, "addEventListener");
    const storageListeners = () => listen.mock.calls.filter(([type]) => type === "storage").length;
    localStorage.setItem(THEME_STORAGE_KEY, "dark");
    emulateSystemDark(false);
    new Function(themeScript)();
    expect(getItem).not.toHaveBeenCalled();
    expect(storageListeners(), "a storage listener opens the storage too").toBe(0);
    expect(document.documentElement.classList.contains("dark"), "the system's theme until then").toBe(false);
    await afterFirstFrame();
    expect(getItem).toHaveBeenCalled();
    expect(storageListeners(), "another tab's choice is followed from then on").toBe(1);
    expect(document.documentElement.classList.contains("dark")).toBe(true);
    expect(cookieTheme(document.cookie), "the next page is rendered dark").toBe("dark");
  });

  it("does not throw when storage is blocked", async () => {
    vi.spyOn(Storage.prototype, "getItem").mockImplementation(() => {
      throw new Error("SecurityError");
    });
    emulateSystemDark(true);
    expect(() => new Function(themeScript)()).not.toThrow();
    await afterFirstFrame();
    expect(document.documentElement.classList.contains("dark")).toBe(true);
  });
});

describe("ThemeSwitcher", () => {
  // The document's inline theme script answers the buttons' clicks, as on every page.
  beforeAll(() => new Function(themeScript)());

  // React listens on the document; seeing a press on a page it is still hydrating, it would
  // finish the hydration in the press's own task before the page could darken.
  it("answers a press on its buttons before the document hears of it; a press elsewhere goes on as usual", () => {
    emulateSystemDark(false);
    localStorage.setItem(THEME_STORAGE_KEY, "light");
    render(<ThemeSwitcher />);
    const heard: string[] = [];
    const listen = (e: Event) => heard.push(e.type);
    const kinds = ["pointerdown", "mousedown", "touchstart", "keydown", "pointerup", "click"];
    for (const k of kinds) document.addEventListener(k, listen, true);
    try {
      const dark = screen.getByRole("button", { name: "Dark" });
      for (const k of kinds.slice(0, 5)) dark.dispatchEvent(new Event(k, { bubbles: true }));
      act(() => dark.click());
      expect(heard).toEqual([]);
      expect(document.documentElement.classList.contains("dark")).toBe(true);
      document.body.dispatchEvent(new Event("pointerdown", { bubbles: true }));
      expect(heard).toEqual(["pointerdown"]);
    } finally {
      for (const k of kinds) document.removeEventListener(k, listen, true);
    }
  });

  it("shows the stored preference as pressed and stores a new choice, setting the dark class", () => {
    emulateSystemDark(false);
    localStorage.setItem(THEME_STORAGE_KEY, "light");
    render(<ThemeSwitcher />);
    expect(screen.getByRole("button", { name: "Light" }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByRole("button", { name: "System" }).getAttribute("aria-pressed")).toBe("false");

    act(() => screen.getByRole("button", { name: "Dark" }).click());
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
    expect(document.documentElement.classList.contains("dark")).toBe(true);
    expect(screen.getByRole("button", { name: "Dark" }).getAttribute("aria-pressed")).toBe("true");

    act(() => screen.getByRole("button", { name: "System" }).click());
    expect(readPreference()).toBe("system");
    expect(document.documentElement.classList.contains("dark")).toBe(false);
  });

  it("is a form posting to the edge without JavaScript, and with it sets the cookie the server renders from", () => {
    emulateSystemDark(false);
    render(<ThemeSwitcher />);
    const dark = screen.getByRole("button", { name: "Dark" }) as HTMLButtonElement;
    expect(dark.type).toBe("submit");
    expect(dark.form?.getAttribute("action")).toBe("/api/v1/theme");
    expect(dark.form?.method).toBe("post");
    expect([dark.name, dark.value]).toEqual(["theme", "dark"]);
    act(() => dark.click());
    expect(cookieTheme(document.cookie)).toBe("dark");
    act(() => screen.getByRole("button", { name: "System" }).click());
    expect(cookieTheme(document.cookie)).toBe(null);
  });
});

describe("the theme cookie", () => {
  it("is read as light or dark only; anything else is system", () => {
    expect(cookieTheme(`a=1; ${THEME_COOKIE}=dark; b=2`)).toBe("dark");
    expect(cookieTheme(`${THEME_COOKIE}=light`)).toBe("light");
    expect(cookieTheme(`${THEME_COOKIE}=purple`)).toBe(null);
    expect(cookieTheme(`x${THEME_COOKIE}=dark`)).toBe(null);
    expect(cookieTheme(null)).toBe(null);
  });

  it("wins over localStorage in the blocking script, which also takes a server's dark class off", () => {
    emulateSystemDark(false);
    localStorage.setItem(THEME_STORAGE_KEY, "light");
    document.cookie = `${THEME_COOKIE}=dark; path=/`;
    new Function(themeScript)();
    expect(document.documentElement.classList.contains("dark")).toBe(true);
    document.cookie = `${THEME_COOKIE}=light; path=/`;
    new Function(themeScript)();
    expect(document.documentElement.classList.contains("dark")).toBe(false);
  });
});
