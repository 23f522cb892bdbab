import { cleanup, configure, fireEvent, render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import newsletter from "@omnibus/shared/content/newsletter.json";
import { siteSettings } from "~/lib/site.server";
import type { FormState } from "~/lib/form-state";
import { NewsletterBox } from "./newsletter-box";
import { handle } from "~/routes/_marketing/features";

afterEach(cleanup);
// The route stub's loader and first render can take seconds on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

/** The box on a page at url (in the default layout, as the footer shows it); refusedForm: what the root loader read from the edge. */
async function renderBox(url = "/", refusedForm: FormState | null = null) {
  const Stub = createRoutesStub([
    { id: "root", loader: () => ({ settings: siteSettings(), refusedForm }), children: [{ id: "features", path: "*", Component: NewsletterBox, handle }] },
  ]);
  render(<Stub initialEntries={[url]} />);
  await screen.findByRole("heading", { name: newsletter.title });
  return {
    email: screen.getByLabelText(newsletter.label) as HTMLInputElement,
    submit: screen.getByRole("button", { name: newsletter.button }),
  };
}

describe("NewsletterBox", () => {
  it("is an ordinary form posting to its page, so it works without JavaScript", async () => {
    await renderBox("/features?tab=ai&newsletter=subscribed");
    const form = screen.getByRole("button", { name: newsletter.button }).closest("form")!;
    expect(form.getAttribute("method")).toBe("post");
    // This page, without the previous outcome; marked, for a page with a form of its own.
    expect(form.getAttribute("action")).toBe("/features?tab=ai#newsletter");
    expect((form.elements.namedItem("form") as HTMLInputElement).value).toBe("newsletter");
    expect((form.elements.namedItem("emailaddress") as HTMLInputElement).type).toBe("email");
  });

  it("shows a refused post again: the address and why", async () => {
    await renderBox("/features", { form: "newsletter", values: { emailaddress: "ada@example" }, errors: { emailaddress: "invalid" }, error: null });
    expect(screen.getByRole("alert").textContent).toContain(newsletter.messages.invalid);
    expect((screen.getByLabelText(newsletter.label) as HTMLInputElement).value).toBe("ada@example");
    cleanup();
    await renderBox("/features", { form: "newsletter", values: { emailaddress: "ada@example.com" }, errors: {}, error: "rateLimited" });
    expect(screen.getByRole("alert").textContent).toContain(newsletter.messages.rateLimited);
  });

  it("shows the outcome the edge redirected back with, and that the confirmation e-mail must still be opened", async () => {
    await renderBox("/?newsletter=subscribed");
    expect(screen.getByText("Subscribed!")).toBeTruthy();
    expect(screen.getByText(newsletter.checkInbox)).toBeTruthy();
    cleanup();
    // The mailed confirmation link lands here: the visitor is told it worked, and asked for nothing more.
    await renderBox("/?newsletter=confirmed");
    expect(screen.getByText(newsletter.messages.confirmed)).toBeTruthy();
    expect(screen.queryByText(newsletter.checkInbox)).toBeNull();
    cleanup();
    await renderBox("/?newsletter=error&reason=empty");
    expect(screen.getByRole("alert").textContent).toContain("Please provide an email address");
  });

  it("refuses a blank address without a request", async () => {
    const fetcher = vi.spyOn(globalThis, "fetch");
    const { email, submit } = await renderBox();
    fireEvent.change(email, { target: { value: "  " } });
    fireEvent.click(submit);
    expect((await screen.findByRole("alert")).textContent).toContain("Please provide an email address");
    expect(fetcher).not.toHaveBeenCalled();
  });

  it("goes loading, then 'Subscribed!'; the banner closes", async () => {
    let answer!: (r: Response) => void;
    vi.spyOn(globalThis, "fetch").mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { email, submit } = await renderBox();
    fireEvent.change(email, { target: { value: "ada@example.com" } });
    fireEvent.click(submit);
    const busy = await screen.findByRole("button", { name: newsletter.loading });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(busy.closest("form")!.getAttribute("aria-busy")).toBe("true");

    answer(new Response(JSON.stringify({ data: { subscribed: true } }), { status: 200 }));
    expect(await screen.findByText("Subscribed!")).toBeTruthy();
    expect((screen.getByRole("button", { name: newsletter.button }) as HTMLButtonElement).disabled).toBe(false);
    // The field clears after 'Subscribed!'.
    expect(email.value).toBe("");
    fireEvent.click(screen.getByRole("button", { name: newsletter.close }));
    expect(screen.queryByText("Subscribed!")).toBeNull();
  });

  it("refuses 'not-an-email' with the edge's rule before any request", async () => {
    const fetcher = vi.spyOn(globalThis, "fetch");
    const { email, submit } = await renderBox();
    for (const bad of ["not-an-email", "a,b@x.in"]) {
      fireEvent.change(email, { target: { value: bad } });
      fireEvent.click(submit);
      expect((await screen.findByRole("alert")).textContent).toContain(newsletter.messages.invalid);
    }
    expect(fetcher).not.toHaveBeenCalled();
    expect(email.value).toBe("a,b@x.in"); // kept, so it can be corrected
  });

  it("shows the server's errorDetail in a closable banner", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(JSON.stringify({ errorDetail: "Please enter a valid value" }), { status: 400 }));
    const { email, submit } = await renderBox();
    fireEvent.change(email, { target: { value: "ada@example.com" } });
    fireEvent.click(submit);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Please enter a valid value");
    fireEvent.click(screen.getByRole("button", { name: newsletter.close }));
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
