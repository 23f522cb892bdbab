// The sign-in pages as a visitor meets them (jsdom, fetch stubbed): the
// redirect rules of SPEC §4, inline validation, the server's errorDetail and
// the signingIn indicator, the store-name check, the Google button's presence.
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import auth from "@omnibus/shared/content/auth.json";
import { browser, destinationFor, messageFor, redirectIfSignedIn } from "./api";
import { LoginForm } from "./login-form";
import { RegisterForm } from "./register-form";
import { GoogleSignIn } from "./google-button";
import { signInStatus } from "./session.server";
import { ACCOUNT_HEADER, FORM_STATE_HEADER } from "~/lib/http-names";
import type { FormState } from "~/lib/form-state";
import { refusedForm } from "~/lib/form-state.server";
import { SignOutButton } from "./sign-out";
import { log } from "~/lib/log.server";
import { slugify, validateRegister } from "./validation";
import { handle as loginHandle } from "~/routes/_auth/login";
import { handle as registerHandle } from "~/routes/_auth/register";

afterEach(cleanup);

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

/** The page at url, under a root loader giving googleClientId and refusedForm (what the edge sent: lib/form-state.server.ts). */
function renderPage(Page: () => React.ReactNode, url: string, googleClientId = "", refusedForm: FormState | null = null) {
  const Stub = createRoutesStub([
    {
      id: "root",
      loader: () => ({ googleClientId, refusedForm }),
      HydrateFallback: () => null,
      children: [
        { id: "login", path: "/login", Component: Page, handle: loginHandle },
        { id: "register", path: "/register", Component: Page, handle: registerHandle },
        { path: "/contact-us", Component: () => <h1>Contact us</h1> },
      ],
    },
  ]);
  return render(<Stub initialEntries={[url]} />);
}

describe("redirect rules (SPEC §4)", () => {
  it("sends signed-in visitors by status, nobody else", () => {
    expect(destinationFor({ isLoggedIn: false, omnicustomerStatus: "" })).toBeNull();
    expect(destinationFor({ isLoggedIn: true, omnicustomerStatus: "account_created" })).toEqual({ to: "/contact-us", fullLoad: false });
    expect(destinationFor({ isLoggedIn: true, omnicustomerStatus: "pending_initial_license_payment" })).toEqual({ to: "/contact-us", fullLoad: false });
    // The edge's /contact-us address keeps its one-time notice; any other address is not followed during onboarding.
    expect(destinationFor({ isLoggedIn: true, omnicustomerStatus: "account_created", redirectTo: "/contact-us?notice=passwordChanged" })).toEqual({ to: "/contact-us?notice=passwordChanged", fullLoad: false });
    expect(destinationFor({ isLoggedIn: true, omnicustomerStatus: "account_created", redirectTo: "/contact-usx" })).toEqual({ to: "/contact-us", fullLoad: false });
    expect(destinationFor({ isLoggedIn: true, omnicustomerStatus: "active" })).toEqual({ to: "/landing-page", fullLoad: true });
    expect(destinationFor({ isLoggedIn: true, omnicustomerStatus: "active", redirectTo: "https://app.example/x" })).toEqual({ to: "https://app.example/x", fullLoad: true });
    expect(destinationFor({ isLoggedIn: true, omnicustomerStatus: "active", redirectTo: "//evil.example" })).toEqual({ to: "/landing-page", fullLoad: true });
  });

  it("checks the status before /login or /register opens", async () => {
    const fetch = vi.spyOn(globalThis, "fetch");
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => {});

    fetch.mockResolvedValueOnce(json(200, { data: { isLoggedIn: false, omnicustomerStatus: "" } }));
    await expect(redirectIfSignedIn()).resolves.toBeNull();
    expect(fetch.mock.calls[0][0]).toBe("/api/v1/oaccount/isloggedin");
    expect(fetch.mock.calls[0][1]?.credentials).toBe("include");

    fetch.mockResolvedValueOnce(json(200, { data: { isLoggedIn: true, omnicustomerStatus: "account_created" } }));
    const thrown = await redirectIfSignedIn().catch((e: unknown) => e);
    expect(thrown instanceof Response && thrown.status === 302 && thrown.headers.get("Location")).toBe("/contact-us");

    fetch.mockResolvedValueOnce(json(200, { data: { isLoggedIn: true, omnicustomerStatus: "active", redirectTo: "/landing-page" } }));
    void redirectIfSignedIn();
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/landing-page"));
  });

  it("logs and does not redirect when the status cannot be read", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => {});
    vi.spyOn(globalThis, "fetch").mockRejectedValueOnce(new TypeError("network down"));
    await expect(redirectIfSignedIn()).resolves.toBeNull();
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(json(503, { errorDetail: "down" }));
    await expect(redirectIfSignedIn()).resolves.toBeNull();
    expect(error).toHaveBeenCalledTimes(2);
    expect(assign).not.toHaveBeenCalled();
  });

  it("shows only known error codes from a no-JavaScript post", () => {
    expect(messageFor("invalidCredentials")).toBe(auth.messages.invalidCredentials);
    expect(messageFor("<img src=x onerror=alert(1)>")).toBeNull();
    expect(messageFor("constructor")).toBeNull();
  });
});

describe("login page", () => {
  it("is a labelled form posting to its page, so it works without JavaScript", async () => {
    renderPage(LoginForm, "/login?error=googleFailed");
    const email = (await screen.findByLabelText(auth.login.email)) as HTMLInputElement;
    const form = email.closest("form")!;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("action")).toBe("/login");
    expect(email.name).toBe("email");
    expect((screen.getByLabelText(auth.login.password) as HTMLInputElement).name).toBe("password");
    // The Google flow's error comes back in the address.
    expect(screen.getByRole("alert").textContent).toBe(auth.messages.googleFailed);
  });

  // Which values come back is the edge's to decide (a sign-in's password never does: accounts' tests).
  it("shows a refused post again: what the edge sent back and its error", async () => {
    renderPage(LoginForm, "/login", "", { form: "login", values: { email: "ana@example.com" }, errors: {}, error: "invalidCredentials" });
    const email = (await screen.findByLabelText(auth.login.email)) as HTMLInputElement;
    expect(email.value).toBe("ana@example.com");
    expect((screen.getByLabelText(auth.login.password) as HTMLInputElement).value).toBe("");
    expect(screen.getByRole("alert").textContent).toBe(auth.messages.invalidCredentials);
  });

  it("validates inline before any request", async () => {
    const fetch = vi.spyOn(globalThis, "fetch");
    renderPage(LoginForm, "/login");
    const button = await screen.findByRole("button", { name: auth.login.submit });
    // Scripted validation replaces the browser's once hydrated.
    await waitFor(() => expect(button.closest("form")!.noValidate).toBe(true));
    fireEvent.click(button);
    expect(await screen.findByText(auth.messages.emailRequired)).toBeTruthy();
    expect(screen.getByText(auth.messages.passwordRequired)).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("shows the server's errorDetail and resets signingIn", async () => {
    let answer!: (r: Response) => void;
    const fetch = vi.spyOn(globalThis, "fetch").mockReturnValueOnce(new Promise((r) => (answer = r)));
    renderPage(LoginForm, "/login");
    fireEvent.change(await screen.findByLabelText(auth.login.email), { target: { value: "ana@example.com" } });
    fireEvent.change(screen.getByLabelText(auth.login.password), { target: { value: "wrong wrong" } });
    fireEvent.click(screen.getByRole("button", { name: auth.login.submit }));
    expect(await screen.findByRole("button", { name: auth.login.submitting })).toBeTruthy();
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe("/api/v1/oaccount/login");
    expect(init?.credentials).toBe("include");
    expect(JSON.parse(String(init?.body))).toEqual({ email: "ana@example.com", password: "wrong wrong" });
    answer(json(401, { errorDetail: "Incorrect email address or password." }));
    expect((await screen.findByRole("alert")).textContent).toBe("Incorrect email address or password.");
    expect(screen.getByRole("button", { name: auth.login.submit })).toBeTruthy();
  });

  it("goes on by a full page load after signing in", async () => {
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => {});
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(json(200, { data: { isLoggedIn: true, omnicustomerStatus: "account_created", redirectTo: "/contact-us" } }));
    renderPage(LoginForm, "/login");
    fireEvent.change(await screen.findByLabelText(auth.login.email), { target: { value: "ana@example.com" } });
    fireEvent.change(screen.getByLabelText(auth.login.password), { target: { value: "correct horse" } });
    fireEvent.click(screen.getByRole("button", { name: auth.login.submit }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/contact-us"));
  });
});

describe("register page", () => {
  it("checks the store name once typing pauses", async () => {
    const fetch = vi.spyOn(globalThis, "fetch").mockImplementation(async (url) =>
      String(url).includes("name=taken-shop")
        ? json(200, { data: { name: "taken-shop", available: false, message: auth.messages.storeNameTaken } })
        : json(200, { data: { name: "my-shop", available: true, message: auth.messages.storeNameAvailable } }),
    );
    renderPage(RegisterForm, "/register");
    const store = await screen.findByLabelText(auth.register.storeName);
    fireEvent.change(store, { target: { value: "M" } });
    fireEvent.change(store, { target: { value: "My Sh" } });
    fireEvent.change(store, { target: { value: "My Shop!" } });
    expect(await screen.findByText(new RegExp(auth.messages.storeNameAvailable))).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1); // debounced: one check for the last value
    expect(fetch.mock.calls[0][0]).toBe("/api/v1/onboarding/check-omnidomain-availability?name=my-shop");

    fireEvent.change(store, { target: { value: "Taken Shop" } });
    fireEvent.blur(store);
    expect(await screen.findByText(auth.messages.storeNameTaken)).toBeTruthy();
  });

  it("shows a refused post again with every field's error until the field changes, the first focused", async () => {
    renderPage(RegisterForm, "/register", "", {
      form: "register",
      values: { name: "Ana", email: "ana@example", storeName: "www" },
      errors: { email: "emailInvalid", password: "passwordCommon", storeName: "storeNameReserved" },
      error: null,
    });
    const email = (await screen.findByLabelText(auth.register.email)) as HTMLInputElement;
    const form = email.closest("form")!;
    expect(form.getAttribute("action")).toBe("/register");
    expect(email.value).toBe("ana@example");
    expect(document.activeElement).toBe(email);
    expect((screen.getByLabelText(auth.register.name) as HTMLInputElement).value).toBe("Ana");
    expect((screen.getByLabelText(auth.register.storeName) as HTMLInputElement).value).toBe("www");
    const password = screen.getByLabelText(auth.register.password) as HTMLInputElement;
    expect(password.value).toBe("");
    for (const [input, message] of [
      [email, auth.messages.emailInvalid],
      [password, auth.messages.passwordCommon],
      [screen.getByLabelText(auth.register.storeName), auth.messages.storeNameReserved],
    ] as const) {
      expect(input.getAttribute("aria-invalid")).toBe("true");
      expect(input.getAttribute("aria-describedby")).toContain(`${input.id}-error`);
      expect(document.getElementById(`${input.id}-error`)!.textContent).toBe(message);
    }
    expect(screen.getByLabelText(auth.register.name).getAttribute("aria-invalid")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
    fireEvent.change(password, { target: { value: "a long and fine secret" } });
    expect(screen.queryByText(auth.messages.passwordCommon)).toBeNull();
  });

  it("shows every refusal of the server next to its field at once, keeping what was typed, the password too", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async (url) =>
      String(url).includes("check-omnidomain-availability")
        ? json(200, { data: { name: "anas-saris", available: true, message: auth.messages.storeNameAvailable } })
        : json(409, {
            errorDetail: auth.messages.emailTaken,
            field: "email",
            fieldErrors: { email: auth.messages.emailTaken, storeName: auth.messages.storeNameTaken },
          }),
    );
    renderPage(RegisterForm, "/register");
    const typed = { name: "Ana Lima", email: "ana@example.com", password: "correct horse battery", storeName: "Ana's Saris" };
    fireEvent.change(await screen.findByLabelText(auth.register.name), { target: { value: typed.name } });
    fireEvent.change(screen.getByLabelText(auth.register.email), { target: { value: typed.email } });
    fireEvent.change(screen.getByLabelText(auth.register.password), { target: { value: typed.password } });
    fireEvent.change(screen.getByLabelText(auth.register.storeName), { target: { value: typed.storeName } });
    fireEvent.click(screen.getByRole("button", { name: auth.register.submit }));
    const email = screen.getByLabelText(auth.register.email) as HTMLInputElement;
    await waitFor(() => expect(document.getElementById(`${email.id}-error`)?.textContent).toBe(auth.messages.emailTaken));
    const store = screen.getByLabelText(auth.register.storeName) as HTMLInputElement;
    expect(document.getElementById(`${store.id}-error`)!.textContent).toBe(auth.messages.storeNameTaken);
    expect(document.activeElement).toBe(email);
    expect(screen.queryByRole("alert")).toBeNull(); // the words are next to the fields, not said twice
    expect((screen.getByLabelText(auth.register.password) as HTMLInputElement).value).toBe(typed.password);
    expect(store.value).toBe(typed.storeName);
  });

  it("uses the edge's rules and words", () => {
    expect(slugify("  My Store!! 2 ")).toBe("my-store-2");
    expect(validateRegister({ name: "", email: "x", password: "short", storeName: "a!" })).toEqual({
      name: auth.messages.nameRequired,
      email: auth.messages.emailInvalid,
      password: auth.messages.passwordTooShort,
      storeName: auth.messages.storeNameTooShort,
    });
  });
});

describe("Google sign-in button", () => {
  it("hides itself when no client id is configured", async () => {
    renderPage(() => <GoogleSignIn />, "/login", "");
    // Every effect has run once act has flushed: the button would be in by then.
    await act(async () => {});
    expect(screen.queryByText(auth.google.button)).toBeNull();
  });

  it("is a link to the no-JavaScript redirect flow until Google's script is loaded", async () => {
    renderPage(() => <GoogleSignIn />, "/login", "client-123");
    const link = (await screen.findByText(auth.google.button)).closest("a")!;
    expect(link.getAttribute("href")).toBe("/api/v1/oaccount/sso-redirect/google");
    // The provider adds Google's script from an effect, which may run after the first paint.
    await waitFor(() => expect(document.querySelector('script[src="https://accounts.google.com/gsi/client"]')).toBeTruthy());
  });
});

describe("a refused form post in the root loader", () => {
  const req = (state: unknown) =>
    new Request("http://127.0.0.1:8080/register", { headers: { [FORM_STATE_HEADER]: Buffer.from(JSON.stringify(state)).toString("base64url") } });

  it("reads the state the edge sends, strings only", () => {
    expect(refusedForm(new Request("http://127.0.0.1:8080/register"))).toBeNull();
    expect(refusedForm(req({ form: "register", values: { name: "Ana ☕", storeName: 7 }, errors: { email: "emailTaken" }, error: "busy" }))).toEqual({
      form: "register",
      values: { name: "Ana ☕" },
      errors: { email: "emailTaken" },
      error: "busy",
    });
    expect(refusedForm(req({ form: "payroll", values: {} }))).toBeNull();
    expect(refusedForm(new Request("http://x/", { headers: { [FORM_STATE_HEADER]: "not base64 json" } }))).toBeNull();
  });
});

describe("session in the root loader", () => {
  const req = (headers: Record<string, string> = {}) => new Request("http://127.0.0.1:8080/", { headers });

  it("reads the state the edge resolved from the account header, without calling back", () => {
    const fetch = vi.spyOn(globalThis, "fetch");
    expect(signInStatus(req())).toBeNull();
    // A session cookie alone means nothing: the edge found no session for it.
    expect(signInStatus(req({ cookie: "omnibus_session=tok" }))).toBeNull();
    expect(signInStatus(req({ [ACCOUNT_HEADER]: '{"isLoggedIn":true,"omnicustomerStatus":"active"}' }))).toEqual({
      isLoggedIn: true,
      omnicustomerStatus: "active",
    });
    expect(fetch).not.toHaveBeenCalled();
  });

  it("turns the edge's reclaimed notice into auth.json's words, and nothing else into words", () => {
    const reclaimed = signInStatus(req({ [ACCOUNT_HEADER]: '{"isLoggedIn":true,"omnicustomerStatus":"account_created","notice":"reclaimed"}' }));
    expect(reclaimed?.notice).toMatch(/Google confirmed this e-mail address is yours/);
    expect(signInStatus(req({ [ACCOUNT_HEADER]: '{"isLoggedIn":true,"omnicustomerStatus":"active","notice":"<b>hi</b>"}' }))?.notice).toBeUndefined();
    expect(signInStatus(req({ [ACCOUNT_HEADER]: '{"isLoggedIn":true,"omnicustomerStatus":"active","notice":"constructor"}' }))?.notice).toBeUndefined();
  });

  it("counts a malformed header as signed out", () => {
    const error = vi.spyOn(log, "warn").mockImplementation(() => {});
    expect(signInStatus(req({ [ACCOUNT_HEADER]: "{not json" }))).toBeNull();
    expect(signInStatus(req({ [ACCOUNT_HEADER]: '{"isLoggedIn":false}' }))).toBeNull();
    expect(error).toHaveBeenCalledTimes(1);
  });

  it("feeds the root loader", async () => {
    const { loader } = await import("~/root");
    const data = await loader({ request: req({ [ACCOUNT_HEADER]: '{"isLoggedIn":true,"omnicustomerStatus":"account_created"}' }) } as never);
    expect(data.account).toEqual({ isLoggedIn: true, omnicustomerStatus: "account_created" });
  });

  it("gives a signed-in visitor a sign-out form that works without JavaScript", async () => {
    const Stub = createRoutesStub([
      { id: "root", loader: () => ({ account: { isLoggedIn: true, omnicustomerStatus: "active" } }), HydrateFallback: () => null, children: [{ path: "/", Component: () => <SignOutButton /> }] },
    ]);
    render(<Stub initialEntries={["/"]} />);
    const form = (await screen.findByRole("button", { name: auth.signOut.button })).closest("form")!;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("action")).toBe("/api/v1/oaccount/logout");
  });
});
