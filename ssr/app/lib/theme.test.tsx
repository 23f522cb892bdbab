import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ThemeSwitcher } from "~/components/theme-switcher";
import { THEME_STORAGE_KEY } from "./constants";
import { readPreference, resolveTheme, themeScript } from "./theme";

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

describe("the blocking theme script", () => {
  it.each(CASES)("preference %s, system dark %s → %s", (preference, prefersDark, expected) => {
    if (preference !== null) localStorage.setItem(THEME_STORAGE_KEY, preference);
    emulateSystemDark(prefersDark);
    new Function(themeScript)();
    expect(document.documentElement.classList.contains("dark")).toBe(expected === "dark");
  });

  it("does not throw when storage is blocked", () => {
    vi.spyOn(Storage.prototype, "getItem").mockImplementation(() => {
      throw new Error("SecurityError");
    });
    emulateSystemDark(true);
    expect(() => new Function(themeScript)()).not.toThrow();
  });
});

describe("ThemeSwitcher", () => {
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
});
