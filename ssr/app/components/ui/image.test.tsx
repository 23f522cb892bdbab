import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { PLACEHOLDER_IMAGE } from "~/lib/constants";
import { Image } from "./image";

afterEach(cleanup);

describe("Image", () => {
  it("is lazy, with its size, and offers its srcset until it fails", () => {
    const set = "/a-800.webp 800w, /a-1600.webp 1600w";
    render(<Image src="/a-1600.webp" srcSet={set} sizes="100vw" alt="A" width={320} height={200} />);
    const img = screen.getByRole("img", { name: "A" });
    expect(img.getAttribute("loading")).toBe("lazy");
    expect(img.getAttribute("width")).toBe("320");
    expect(img.getAttribute("height")).toBe("200");
    expect(img.getAttribute("srcset")).toBe(set);
    fireEvent.error(img);
    // The placeholder, not another width of the broken file.
    expect(img.getAttribute("srcset")).toBeNull();
    expect(img.getAttribute("src")).toBe(PLACEHOLDER_IMAGE);
  });

  it("is replaced by the placeholder of the same size when it fails to load", () => {
    render(<Image src="/missing.png" alt="Shop front" width={640} height={400} />);
    const img = screen.getByRole("img", { name: "Shop front" });
    fireEvent.error(img);
    expect(img.getAttribute("src")).toBe(PLACEHOLDER_IMAGE);
    expect(img.getAttribute("width")).toBe("640");
    expect(img.getAttribute("height")).toBe("400");
    expect(img.getAttribute("alt")).toBe("Shop front");
  });

  it("catches a failure that happened before hydration", () => {
    // A broken image: complete, with no pixels.
    Object.defineProperty(HTMLImageElement.prototype, "complete", { configurable: true, get: () => true });
    try {
      render(<Image src="/broken.png" alt="Broken" width={100} height={50} />);
      expect(screen.getByRole("img", { name: "Broken" }).getAttribute("src")).toBe(PLACEHOLDER_IMAGE);
    } finally {
      delete (HTMLImageElement.prototype as { complete?: boolean }).complete;
    }
  });

  it("uses the dark source in dark mode and the light one otherwise (CSS switch on the dark class)", () => {
    const { container } = render(<Image src="/light.svg" darkSrc="/dark.svg" alt="Console" width={640} height={400} />);
    const light = container.querySelector('img[data-theme-variant="light"]');
    const dark = container.querySelector('img[data-theme-variant="dark"]');
    expect(light?.getAttribute("src")).toBe("/light.svg");
    expect(dark?.getAttribute("src")).toBe("/dark.svg");
    // Tailwind's dark: variant is bound to html.dark: the light image hides and the dark one shows.
    expect(light?.className.split(" ")).toContain("dark:hidden");
    expect(dark?.className.split(" ")).toEqual(expect.arrayContaining(["hidden", "dark:block"]));
  });

  it("falls back per variant: a broken dark source gets the placeholder, the light one stays", () => {
    const { container } = render(<Image src="/light.svg" darkSrc="/dark-missing.svg" alt="Console" width={640} height={400} />);
    fireEvent.error(container.querySelector('img[data-theme-variant="dark"]')!);
    expect(container.querySelector('img[data-theme-variant="dark"]')?.getAttribute("src")).toBe(PLACEHOLDER_IMAGE);
    expect(container.querySelector('img[data-theme-variant="light"]')?.getAttribute("src")).toBe("/light.svg");
  });
});
