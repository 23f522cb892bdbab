// The journey pages' loaders read the signed-in merchant's data from the
// headers the edge attaches (shared/http.json, route edgeData) and never make
// a request of their own: fetch throws here, as a renderer with no way to
// the edge would. Signed out (no headers), they show nobody's data.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import names from "@omnibus/shared/http.json";
import type { JourneyOrder, MerchantOverview } from "~/lib/journey.server";
import * as ChoosePlan from "./choose-plan";
import * as MerchantHome from "./merchant-home";
import * as TestPayment from "./test-payment";
import * as Contact from "../_marketing/contact";
import * as ContentPage from "../_marketing/page";

const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

const order: JourneyOrder = {
  id: "0b6f6c8e-9a51-4a57-9c1a-1f1d7d3f0a11",
  product: "plan",
  itemId: "growth",
  name: "Growth",
  quantity: 1,
  subtotalPaise: 1798800,
  gstPaise: 323784,
  totalPaise: 2122584,
  currency: "INR",
  status: "pending",
  paymentUrl: "/api/v1/license/payment/show-payment-page/0b6f6c8e-9a51-4a57-9c1a-1f1d7d3f0a11",
};
const overview: MerchantOverview = {
  name: "Mira",
  storeName: "miras-pet-shop",
  storeTitle: "Mira’s Pet Shop",
  email: "mira@example.com",
  emailVerified: false,
  omnicustomerStatus: "pending_initial_license_payment",
  plan: "",
  pendingPlanOrder: order,
  adminConsoleUrl: "https://admin.test",
  paymentsTestMode: true,
};

function request(path: string, headers: Record<string, unknown> = {}) {
  const h = new Headers();
  for (const [k, v] of Object.entries(headers)) h.set(k, encode(v));
  return new Request(`http://127.0.0.1:3001${path}`, { headers: h });
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const load = async (mod: { loader: (args: any) => unknown }, req: Request) => {
  try {
    return (await mod.loader({ request: req, params: {}, context: {} })) as Record<string, unknown>;
  } catch (thrown) {
    return { thrown };
  }
};

describe("journey pages read the edge's headers, never the edge", () => {
  const asked: string[] = [];
  beforeEach(() => {
    asked.length = 0;
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: unknown) => {
        asked.push(String(url));
        throw new Error("the renderer has no way to the edge");
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    expect(asked, "requests the loaders made").toEqual([]);
  });

  it("/choose-plan shows the store and the plan order awaiting payment", async () => {
    const data = await load(ChoosePlan, request("/choose-plan", { [names.merchantHeader]: overview }));
    expect(data).toEqual({ storeName: "Mira’s Pet Shop", pending: order, needsStore: false });
  });

  it("/landing-page shows the merchant and the order just paid", async () => {
    const paid = { ...order, status: "paid", paymentUrl: undefined };
    const active = { ...overview, omnicustomerStatus: "active", plan: "Growth", pendingPlanOrder: undefined };
    const data = await load(MerchantHome, request(`/landing-page?order=${order.id}`, { [names.merchantHeader]: active, [names.orderHeader]: paid }));
    expect(data.overview).toMatchObject({ storeTitle: "Mira’s Pet Shop", plan: "Growth" });
    expect(data.order).toMatchObject({ id: order.id, status: "paid" });
    expect(data.justPaid).toBe(true);
  });

  it("/test-payment shows the visitor's own test-mode payment, and is a 404 without it", async () => {
    const session = "tm_abc";
    const data = await load(TestPayment, request(`/test-payment?session=${session}`, { [names.paymentHeader]: { order, session, cancelUrl: "/choose-plan" } }));
    expect(data).toEqual({ order, session, cancelUrl: "/choose-plan" });
    const other = await load(TestPayment, request(`/test-payment?session=tm_other`, { [names.paymentHeader]: { order, session, cancelUrl: "/choose-plan" } }));
    expect((other.thrown as { init?: { status?: number } })?.init?.status).toBe(404);
    const none = await load(TestPayment, request(`/test-payment?session=${session}`));
    expect((none.thrown as { init?: { status?: number } })?.init?.status).toBe(404);
  });

  it("/contact-us welcomes a merchant in onboarding with their store and address", async () => {
    const data = await load(Contact, request("/contact-us", { [names.merchantHeader]: overview }));
    expect(data.welcome).toEqual({ storeName: "Mira’s Pet Shop", pending: true, email: "mira@example.com", emailVerified: false });
  });

  it("/petpawlor-order-complete shows the buyer's order", async () => {
    const bought = { ...order, product: "petpawlor", itemId: "petpawlor", name: "PetPawlor licence", quantity: 2, status: "paid" };
    const data = await load(ContentPage, request(`/petpawlor-order-complete?order=${order.id}`, { [names.orderHeader]: bought }));
    expect(data.order).toEqual(bought);
  });

  it("signed out (no headers), the pages show nobody's data", async () => {
    expect((await load(MerchantHome, request(`/landing-page?order=${order.id}`))).overview).toBeNull();
    expect((await load(Contact, request("/contact-us"))).welcome).toBeNull();
    expect((await load(ContentPage, request(`/petpawlor-order-complete?order=${order.id}`))).order).toBeNull();
    const redirected = (await load(ChoosePlan, request("/choose-plan"))).thrown as Response;
    expect(redirected.headers.get("Location")).toBe("/register");
  });
});
