import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { createRoutesStub, Link, Outlet, useNavigate } from "react-router";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { HASH_SCROLL_DELAY_MS } from "./constants";
import { HashScroll } from "./use-hash-scroll";

const scrolled: { id: string; at: number; behavior?: ScrollBehavior }[] = [];

beforeEach(() => {
  scrolled.length = 0;
  Element.prototype.scrollIntoView = vi.fn(function (this: Element, options?: ScrollIntoViewOptions | boolean) {
    scrolled.push({ id: this.id, at: performance.now(), behavior: typeof options === "object" ? options.behavior : undefined });
  });
  window.scrollTo = vi.fn() as typeof window.scrollTo;
});
afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

function Root() {
  return (
    <>
      <HashScroll />
      <Outlet />
    </>
  );
}

/** A page whose #late section appears only when asked (like deferred, streamed content). */
function Landing() {
  const [late, setLate] = useState(false);
  return (
    <>
      <section id="features">Features</section>
      <button onClick={() => setLate(true)}>Show late section</button>
      {late && <section id="late">Late</section>}
    </>
  );
}

function stub(initial: string) {
  const Stub = createRoutesStub([
    {
      Component: Root,
      children: [
        { path: "/", Component: Landing },
        {
          path: "/other",
          Component: () => (
            <>
              <Link to="/#features">To features</Link>
              <Link to="/#late">To late</Link>
            </>
          ),
        },
      ],
    },
  ]);
  return render(<Stub initialEntries={[initial]} />);
}

it("scrolls smoothly to the anchor at once on the first page shown", async () => {
  stub("/#features");
  await waitFor(() => expect(scrolled).toEqual([expect.objectContaining({ id: "features", behavior: "smooth" })]));
});

it("waits HASH_SCROLL_DELAY_MS before scrolling after a client navigation", async () => {
  stub("/other");
  const clickedAt = performance.now();
  act(() => screen.getByRole("link", { name: "To features" }).click());
  await waitFor(() => expect(scrolled.map((s) => s.id)).toEqual(["features"]), { timeout: 2_000 });
  expect(scrolled[0].at - clickedAt).toBeGreaterThanOrEqual(HASH_SCROLL_DELAY_MS - 1);
  expect(scrolled[0].behavior).toBe("smooth");
});

it("scrolls to an anchor that appears after the delay (streamed content)", async () => {
  stub("/other");
  vi.useFakeTimers({ shouldAdvanceTime: true });
  act(() => screen.getByRole("link", { name: "To late" }).click());
  await screen.findByText("Features");
  // Past the delay: the hook has looked for the anchor and not found it.
  await act(async () => vi.advanceTimersByTime(HASH_SCROLL_DELAY_MS + 100));
  vi.useRealTimers();
  expect(scrolled).toEqual([]);
  act(() => screen.getByRole("button", { name: "Show late section" }).click());
  await waitFor(() => expect(scrolled.map((s) => s.id)).toEqual(["late"]));
});

it("scrolls a client navigation without a hash to the top", async () => {
  const Stub = createRoutesStub([
    {
      Component: Root,
      children: [
        { path: "/", Component: () => <Link to="/next">Next</Link> },
        { path: "/next", Component: () => <h1>Next page</h1> },
      ],
    },
  ]);
  render(<Stub initialEntries={["/"]} />);
  expect(window.scrollTo).not.toHaveBeenCalled(); // the first page keeps the browser's own position
  act(() => screen.getByRole("link", { name: "Next" }).click());
  await screen.findByRole("heading", { name: "Next page" });
  expect(window.scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0 }));
});

it("back returns to where the visitor was, even when no scroll event reached the page (it scrolled before hydration's effects ran)", async () => {
  function Back() {
    const navigate = useNavigate();
    return <button onClick={() => navigate(-1)}>Back</button>;
  }
  const Stub = createRoutesStub([
    {
      Component: Root,
      children: [
        { path: "/", Component: () => <Link to="/next">Next</Link> },
        { path: "/next", Component: Back },
      ],
    },
  ]);
  render(<Stub initialEntries={["/"]} />);
  Object.defineProperty(window, "scrollY", { value: 600, configurable: true }); // no scroll event dispatched
  act(() => screen.getByRole("link", { name: "Next" }).click());
  await screen.findByRole("button", { name: "Back" });
  Object.defineProperty(window, "scrollY", { value: 0, configurable: true });
  vi.mocked(window.scrollTo).mockClear();
  act(() => screen.getByRole("button", { name: "Back" }).click());
  await screen.findByRole("link", { name: "Next" });
  expect(window.scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 600 }));
});
