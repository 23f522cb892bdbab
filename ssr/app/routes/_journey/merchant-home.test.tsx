// What the merchant home says must match where the merchant stands: a plan
// chosen and awaiting payment is not "choose a plan", and the page right
// after the first payment greets a new merchant, not a returning one.
import { cleanup, configure, render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import journey from "@omnibus/shared/content/journey.json";
import type { JourneyOrder, MerchantOverview } from "~/lib/journey.server";
import MerchantHomePage from "./merchant-home";

afterEach(cleanup);
configure({ asyncUtilTimeout: 10_000 });

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
const base: MerchantOverview = {
  name: "Mira",
  storeName: "miras-pet-shop",
  storeTitle: "Mira’s Pet Shop",
  omnicustomerStatus: "account_created",
  plan: "",
  adminConsoleUrl: "https://admin.test",
  paymentsTestMode: true,
};

async function show(data: { overview: MerchantOverview; justPaid: boolean; order: JourneyOrder | null }) {
  const Stub = createRoutesStub([{ id: "landing-page", path: "/landing-page", loader: () => data, Component: MerchantHomePage }]);
  render(<Stub initialEntries={["/landing-page"]} />);
  return (await screen.findByRole("heading", { level: 1 })).textContent;
}

describe("merchant home", () => {
  it("asks a merchant without a plan to choose one", async () => {
    await show({ overview: base, justPaid: false, order: null });
    expect(screen.getByRole("status").textContent).toBe(journey.home.onboarding);
    expect(screen.getByRole("link", { name: journey.home.choosePlan })).toBeTruthy();
  });

  it("tells a merchant whose chosen plan awaits payment to complete it, naming the plan", async () => {
    await show({ overview: { ...base, omnicustomerStatus: "pending_initial_license_payment", pendingPlanOrder: order }, justPaid: false, order: null });
    expect(screen.getByRole("status").textContent).toBe(journey.home.awaitingPayment.replace("{plan}", "Growth"));
    expect(screen.getByRole("link", { name: journey.home.payPlan })).toBeTruthy();
  });

  it("welcomes (not welcomes back) a merchant right after the first plan payment", async () => {
    const paid: JourneyOrder = { ...order, status: "paid" };
    const heading = await show({ overview: { ...base, omnicustomerStatus: "active", plan: "Growth" }, justPaid: true, order: paid });
    expect(heading).toBe("Welcome to Mira’s Pet Shop");
  });

  it("welcomes back a returning merchant", async () => {
    const heading = await show({ overview: { ...base, omnicustomerStatus: "active", plan: "Growth" }, justPaid: false, order: null });
    expect(heading).toBe("Welcome back to Mira’s Pet Shop");
  });
});
