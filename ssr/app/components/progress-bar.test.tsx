import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { createRoutesStub, Link, Outlet } from "react-router";
import { afterEach, expect, it } from "vitest";
import { ProgressBar } from "./progress-bar";

afterEach(cleanup);

it("shows the bar only while a client navigation is under way, after a short grace period", async () => {
  let finish: (value: null) => void = () => {};
  const Stub = createRoutesStub([
    {
      Component: () => (
        <>
          <ProgressBar />
          <Outlet />
        </>
      ),
      children: [
        { path: "/", Component: () => <Link to="/slow">Slow page</Link> },
        { path: "/slow", loader: () => new Promise<null>((resolve) => (finish = resolve)), Component: () => <h1>Slow page done</h1> },
      ],
    },
  ]);
  const { container } = render(<Stub initialEntries={["/"]} />);
  const bar = () => container.querySelector('[aria-hidden="true"]')!;
  expect(bar().hasAttribute("data-visible")).toBe(false);

  act(() => screen.getByRole("link", { name: "Slow page" }).click());
  // Not at once: quick navigations never flash the bar.
  expect(bar().hasAttribute("data-visible")).toBe(false);
  await waitFor(() => expect(bar().hasAttribute("data-visible")).toBe(true));

  await act(async () => finish(null));
  await screen.findByRole("heading", { name: "Slow page done" });
  expect(bar().hasAttribute("data-visible")).toBe(false);
});
