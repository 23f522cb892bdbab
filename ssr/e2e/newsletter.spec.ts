// The newsletter box end to end (SPEC §4 states, §5 validation, §8 errors):
// with JavaScript it posts JSON and shows the outcome in place; without, the
// form posts to the same endpoint and the page it comes back to shows it.
import { expect, test, type Page } from "@playwright/test";
import newsletter from "@omnibus/shared/content/newsletter.json" with { type: "json" };
import { waitForHydration, waitForIsland } from "./helpers";

const API = "**/api/v1/news-letter/subscribe";
const unique = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function openBox(page: Page, path = "/") {
  await page.goto(path);
  await waitForHydration(page);
  const box = page.locator("#newsletter");
  await box.scrollIntoViewIfNeeded();
  // A form sent before the footer's island hydrates is posted without JavaScript
  // (the server's path, which page.route cannot answer).
  await waitForIsland(box);
  return {
    box,
    email: box.getByLabel(newsletter.label),
    submit: box.locator("button[type=submit]"),
    form: box.locator("form"),
  };
}

test("idle → loading (button disabled, form busy) → 'Subscribed!'", async ({ page }) => {
  const { box, email, submit, form } = await openBox(page);
  await expect(submit).toHaveText(newsletter.button);
  await expect(form).toHaveAttribute("aria-busy", "false");

  // Hold the request until the loading state has been seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let sent: { body: unknown; contentType: string | undefined } | undefined;
  await page.route(API, async (route) => {
    sent = { body: route.request().postDataJSON(), contentType: route.request().headers()["content-type"] };
    await held;
    await route.continue();
  });

  const address = unique("loading");
  await email.fill(address);
  await submit.click();
  await expect(submit).toBeDisabled();
  await expect(submit).toHaveText(newsletter.loading);
  await expect(form).toHaveAttribute("aria-busy", "true");
  release();

  await expect(box.getByText(newsletter.messages.subscribed)).toBeVisible();
  await expect(submit).toBeEnabled();
  await expect(form).toHaveAttribute("aria-busy", "false");
  expect(sent).toEqual({ body: { emailaddress: address }, contentType: "application/json" });
  // Still on the same page: no document load.
  await expect(page).toHaveURL("/");
  // The field clears after 'Subscribed!'.
  await expect(email).toHaveValue("");
});

test("'not-an-email' is refused in the browser with the edge's rule, before any request", async ({ page }) => {
  const { box, email, submit } = await openBox(page);
  let requests = 0;
  page.on("request", (request) => request.url().includes("/news-letter/") && requests++);
  await email.fill("not-an-email");
  await submit.click();
  await expect(box.getByRole("alert")).toContainText(newsletter.messages.invalid);
  expect(requests).toBe(0);
  await expect(email).toHaveValue("not-an-email");
});

test("a blank address is refused in the browser without a request", async ({ page }) => {
  const { box, email, submit } = await openBox(page);
  let requests = 0;
  page.on("request", (request) => request.url().includes("/news-letter/") && requests++);
  await email.fill("   ");
  await submit.click();
  await expect(box.getByRole("alert")).toContainText(newsletter.messages.empty);
  expect(requests).toBe(0);
});

test("the server's errorDetail shows in a banner that closes", async ({ page }) => {
  // The page refuses a malformed address itself; this one passes the shared
  // rule and is refused by the server.
  await page.route(API, (route) => route.fulfill({ status: 400, contentType: "application/json", body: JSON.stringify({ errorDetail: newsletter.messages.invalid }) }));
  const { box, email, submit } = await openBox(page);
  await email.fill(unique("refused"));
  await submit.click();
  const banner = box.getByRole("alert");
  await expect(banner).toContainText(newsletter.messages.invalid);
  await expect(submit).toBeEnabled();

  await banner.getByRole("button", { name: newsletter.close }).click();
  await expect(box.getByRole("alert")).toHaveCount(0);
});

test("a failed request shows whatever errorDetail the server sends, and loading stops", async ({ page }) => {
  await page.route(API, (route) =>
    route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ errorDetail: "Subscriptions are paused for maintenance." }) }),
  );
  const { box, email, submit } = await openBox(page);
  await email.fill(unique("down"));
  await submit.click();
  await expect(box.getByRole("alert")).toContainText("Subscriptions are paused for maintenance.");
  await expect(submit).toBeEnabled();
  await expect(box.getByText(newsletter.messages.subscribed)).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the form posts, comes back to the same page at the newsletter box and shows 'Subscribed!'", async ({ page }) => {
    await page.goto("/features");
    const box = page.locator("#newsletter");
    await box.getByLabel(newsletter.label).fill(unique("nojs"));
    await box.getByRole("button", { name: newsletter.button }).click();
    await expect(page).toHaveURL(/\/features\?newsletter=subscribed#newsletter$/);
    await expect(page.locator("#newsletter")).toContainText(newsletter.messages.subscribed);
  });

  test("a blank address comes back with the same message the script shows", async ({ page }) => {
    await page.goto("/contact-us");
    const box = page.locator("#newsletter");
    await box.getByRole("button", { name: newsletter.button }).click();
    await expect(page).toHaveURL(/\/contact-us#newsletter$/);
    await expect(page.locator("#newsletter").getByRole("alert")).toContainText(newsletter.messages.empty);
  });

  test("an address the edge refuses comes back in the field, at the same address", async ({ page }) => {
    await page.goto("/blog");
    const box = page.locator("#newsletter");
    await box.getByLabel(newsletter.label).fill("ada@localhost");
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      box.getByRole("button", { name: newsletter.button }).click(),
    ]);
    expect(response.status()).toBe(400);
    await expect(page).toHaveURL(/\/blog#newsletter$/);
    await expect(page.locator("#newsletter").getByLabel(newsletter.label)).toHaveValue("ada@localhost");
    await expect(page.locator("#newsletter").getByRole("alert")).toContainText(newsletter.messages.invalid);
  });
});

test("the outcome in the address is rendered by the server, and closing the banner drops it from the address", async ({ page, request }) => {
  // The banner's text in the server's HTML (the hydration data carries every message, so look at the markup).
  const bannerText = async (path: string) =>
    /data-newsletter="error"[^>]*><p[^>]*>([^<]*)<\/p>/.exec(await (await request.get(path)).text())?.[1];
  expect(await bannerText("/?newsletter=error&reason=invalid")).toBe(newsletter.messages.invalid);
  expect(await bannerText("/help-centre?newsletter=error&reason=rateLimited")).toBe(newsletter.messages.rateLimited);
  // An unknown reason is not echoed: the generic message stands in.
  expect(await bannerText("/?newsletter=error&reason=%3Cb%3Ecall%20us%3C%2Fb%3E")).toBe(newsletter.messages.unavailable);
  expect(await bannerText("/")).toBeUndefined();

  await page.goto("/?newsletter=error&reason=invalid#newsletter");
  await waitForHydration(page);
  await waitForIsland(page.locator("#newsletter"));
  const banner = page.locator("#newsletter").getByRole("alert");
  await expect(banner).toContainText(newsletter.messages.invalid);
  await banner.getByRole("button", { name: newsletter.close }).click();
  await expect(banner).toHaveCount(0);
  await expect(page).toHaveURL("/#newsletter");
});
