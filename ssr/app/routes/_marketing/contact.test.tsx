// The contact-form pages as a visitor meets them: labelled fields from the
// shared content, inline validation, the fetch submission with its loading,
// success and error states, and a post made without JavaScript: the outcome it
// was redirected back with, or the page the edge answered a refusal with.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, createRoutesStub, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import contact from "@omnibus/shared/content/contact.json";
import type { FormState } from "~/lib/form-state";
import * as ContactRoute from "./contact";

afterEach(cleanup);

/** The page at url; refusedForm: what the root loader read from the edge (lib/form-state.server.ts). */
function renderAt(url: string, refusedForm: FormState | null = null) {
  const Stub = createRoutesStub([
    {
      id: "root",
      loader: () => ({ refusedForm }),
      HydrateFallback: () => null,
      children: Object.keys(contact.pages).map((id) => ({ id, path: `/${id}`, Component: ContactRoute.default, loader: ContactRoute.loader as never, handle: ContactRoute.handle })),
    },
  ]);
  return render(<Stub initialEntries={[url]} />);
}

const form = () => screen.getByRole("button", { name: contact.submitLabel }).closest("form")!;

function fill(values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    fireEvent.change(screen.getByLabelText(new RegExp(label)), { target: { value } });
  }
}

const validContactUs = {
  "Your name": "Lakshmi R.",
  "Work email": "lakshmi@kaverihandlooms.in",
  "How can we help|What would you like": "We run two stores and sell on a marketplace.",
};

describe("contact pages", () => {
  it("shows each page's own copy and only its fields, all labelled", async () => {
    renderAt("/contact-us");
    expect((await screen.findByRole("heading", { level: 1 })).textContent).toBe(contact.pages["contact-us"].heading);
    for (const label of ["Your name", "Work email", "Business or store name", "Phone", contact.pages["contact-us"].messageLabel]) {
      expect(screen.getByLabelText(new RegExp(label))).toBeTruthy();
    }
    cleanup();

    renderAt("/custom-logo");
    expect((await screen.findByRole("heading", { level: 1 })).textContent).toBe(contact.pages["custom-logo"].heading);
    expect(screen.queryByLabelText(/Phone/)).toBeNull();
    expect(screen.getByLabelText(new RegExp(contact.pages["custom-logo"].messageLabel))).toBeTruthy();
  });

  it("is an ordinary form posting to its page, so it works without JavaScript", async () => {
    renderAt("/data-entry");
    await screen.findByRole("heading", { level: 1 });
    const f = form();
    expect(f.getAttribute("method")).toBe("post");
    expect(f.getAttribute("action")).toBe("/data-entry");
    expect((f.elements.namedItem("topic") as HTMLInputElement).value).toBe("data-entry");
    const email = screen.getByLabelText(/Work email/) as HTMLInputElement;
    expect(email.type).toBe("email");
    expect(email.required).toBe(true);
    expect((screen.getByLabelText(/Phone/) as HTMLInputElement).required).toBe(false);
  });

  it("renders the outcome the edge redirected back with", async () => {
    renderAt("/custom-website?outcome=sent");
    expect((await screen.findByRole("status")).textContent).toBe(contact.outcomes.sent);
  });

  it("shows a refused post again: every value and every field's error, the first invalid field focused", async () => {
    renderAt("/contact-us", {
      form: "contact",
      values: { name: "Lakshmi", email: "lakshmi@", company: "Kaveri <b>Handlooms</b>", message: "Two stores,\none inventory." },
      errors: { email: "invalid", phone: "invalid" },
      error: null,
    });
    await screen.findByRole("heading", { level: 1 });
    const email = screen.getByLabelText(/Work email/) as HTMLInputElement;
    expect(email.value).toBe("lakshmi@");
    expect(email.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(email.getAttribute("aria-describedby")!)!.textContent).toBe(contact.fields.email.error);
    expect(document.activeElement).toBe(email);
    expect(screen.getByLabelText(/Phone/).getAttribute("aria-invalid")).toBe("true");
    expect((screen.getByLabelText(/Your name/) as HTMLInputElement).value).toBe("Lakshmi");
    expect((screen.getByLabelText(/Your name/) as HTMLInputElement).getAttribute("aria-invalid")).toBeNull();
    expect((screen.getByLabelText(/Business or store name/) as HTMLInputElement).value).toBe("Kaveri <b>Handlooms</b>");
    expect((screen.getByLabelText(new RegExp(contact.pages["contact-us"].messageLabel)) as HTMLTextAreaElement).value).toBe("Two stores,\none inventory.");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("shows a refused post's own error by its code, and nothing for a code it does not know", async () => {
    renderAt("/career", { form: "contact", values: { name: "Meera" }, errors: {}, error: "rate-limited" });
    expect((await screen.findByRole("alert")).textContent).toBe(contact.outcomes["rate-limited"]);
    expect((screen.getByLabelText(/Your name/) as HTMLInputElement).value).toBe("Meera");
    cleanup();

    renderAt("/career", { form: "contact", values: {}, errors: {}, error: "<b>hacked</b>" });
    await screen.findByRole("heading", { level: 1 });
    expect(screen.queryByRole("alert")).toBeNull();
    expect(document.body.textContent).not.toContain("hacked");
    cleanup();

    // Another form's state is not this form's.
    renderAt("/career", { form: "newsletter", values: { name: "Meera" }, errors: { name: "invalid" }, error: null });
    await screen.findByRole("heading", { level: 1 });
    expect((screen.getByLabelText(/Your name/) as HTMLInputElement).value).toBe("");
  });

  it("ignores outcome codes it does not know instead of echoing them", async () => {
    renderAt("/contact-us?outcome=%3Cb%3Ehacked%3C%2Fb%3E");
    await screen.findByRole("heading", { level: 1 });
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.queryByRole("status")).toBeNull();
    expect(document.body.textContent).not.toContain("hacked");
  });

  it("validates inline and sends nothing while a field is wrong", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    renderAt("/contact-us");
    await screen.findByRole("heading", { level: 1 });
    await waitFor(() => expect(form().noValidate).toBe(true)); // hydrated: our checks replace the browser's

    const email = screen.getByLabelText(/Work email/);
    fireEvent.change(email, { target: { value: "lakshmi@" } });
    fireEvent.blur(email);
    expect(screen.getByText(contact.fields.email.error)).toBeTruthy();
    expect(email.getAttribute("aria-describedby")).toBe("contact-email-error");

    fireEvent.click(screen.getByRole("button", { name: contact.submitLabel }));
    expect(screen.getByText(contact.fields.name.error)).toBeTruthy();
    expect(screen.getByText(contact.fields.message.error)).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText(/Your name/));
    expect(fetch).not.toHaveBeenCalled();

    // Fixing a field clears its message as the visitor types.
    fireEvent.change(email, { target: { value: "lakshmi@kaverihandlooms.in" } });
    expect(screen.queryByText(contact.fields.email.error)).toBeNull();
    vi.unstubAllGlobals();
  });

  it("sends JSON with fetch, shows the loading state, then the success message", async () => {
    let answer!: (r: Response) => void;
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal("fetch", fetch);
    renderAt("/general-enquiry");
    await screen.findByRole("heading", { level: 1 });
    fill({ "Your name": "Arjun", "Work email": "arjun@example.in", "Your question": "Do you support GST e-invoicing?" });
    fireEvent.click(screen.getByRole("button", { name: contact.submitLabel }));

    const sending = await screen.findByRole("button", { name: contact.sendingLabel });
    expect((sending as HTMLButtonElement).disabled).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/v1/omnibus/contact-us");
    expect(JSON.parse(String(init.body))).toEqual({
      topic: "general-enquiry",
      name: "Arjun",
      email: "arjun@example.in",
      company: "",
      message: "Do you support GST e-invoicing?",
    });

    answer(new Response(JSON.stringify({ data: { sent: true } }), { status: 201 }));
    expect((await screen.findByRole("status")).textContent).toBe(contact.outcomes.sent);
    expect((screen.getByLabelText(/Your name/) as HTMLInputElement).value).toBe("");
    expect(screen.getByRole("button", { name: contact.submitLabel })).toBeTruthy();
    vi.unstubAllGlobals();
  });

  it("shows the edge's errorDetail when it refuses, and claims nothing", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(JSON.stringify({ errorDetail: contact.outcomes.unavailable }), { status: 503 })),
    );
    renderAt("/contact-us");
    await screen.findByRole("heading", { level: 1 });
    fill(validContactUs);
    fireEvent.click(screen.getByRole("button", { name: contact.submitLabel }));
    expect((await screen.findByRole("alert")).textContent).toBe(contact.outcomes.unavailable);
    expect(screen.queryByRole("status")).toBeNull();
    // The visitor's text is kept so they can try again.
    expect((screen.getByLabelText(/Your name/) as HTMLInputElement).value).toBe("Lakshmi R.");
    vi.unstubAllGlobals();
  });

  it("puts a field error from the edge under that field", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(JSON.stringify({ errorDetail: "Please enter a valid email address, like you@yourstore.com.", field: "email" }), { status: 400 })),
    );
    renderAt("/contact-us");
    await screen.findByRole("heading", { level: 1 });
    fill(validContactUs);
    fireEvent.click(screen.getByRole("button", { name: contact.submitLabel }));
    const error = await screen.findByText("Please enter a valid email address, like you@yourstore.com.");
    expect(error.id).toBe("contact-email-error");
    vi.unstubAllGlobals();
  });

  it("says so when the network fails", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    renderAt("/career");
    await screen.findByRole("heading", { level: 1 });
    fill({ "Your name": "Meera", "Work email": "meera@example.in", "About you": "Frontend engineer, five years of React." });
    fireEvent.click(screen.getByRole("button", { name: contact.submitLabel }));
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText(contact.outcomes.unavailable)).toBeTruthy();
    vi.unstubAllGlobals();
  });
});

describe("a tap on Send that is the page's first touch of the form", () => {
  // React hydrates the form's boundary at that tap and replays it; the
  // browser's own checks (the server's markup has them, for visitors without
  // JavaScript) must already be off by then, or they stop the submit and the
  // visitor gets the browser's bubble instead of the page's messages.
  it("gets the page's inline errors, not the browser's checks", async () => {
    const url = "http://localhost/data-entry";
    const routes = () => [
      {
        id: "root",
        HydrateFallback: () => null,
        children: [{ id: "data-entry", path: "/data-entry", Component: ContactRoute.default, handle: ContactRoute.handle }],
      },
    ];
    const hydrationData = { loaderData: { root: { refusedForm: null }, "data-entry": ContactRoute.loader({ request: new Request(url) } as never) } };
    const router = () => createMemoryRouter(routes(), { initialEntries: ["/data-entry"], hydrationData });
    const container = document.body.appendChild(document.createElement("div"));
    container.innerHTML = renderToString(<RouterProvider router={router()} />);
    let submitted = false;
    container.querySelector("form")!.addEventListener("submit", () => (submitted = true));

    const root = hydrateRoot(container, <RouterProvider router={router()} />);
    try {
      // Before React has had a task of its own: the tap itself hydrates the form.
      within(container).getByRole("button", { name: contact.submitLabel }).click();
      expect(submitted).toBe(true);
      await waitFor(() => expect(within(container).getByText(contact.fields.name.error)).toBeTruthy());
      expect(document.activeElement).toBe(within(container).getByLabelText(/Your name/));
    } finally {
      act(() => root.unmount());
      container.remove();
    }
  });
});
