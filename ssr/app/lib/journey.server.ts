// Server-only: a signed-in merchant's own data for the journey pages. The
// edge resolves the session and sends what the page's route names in
// shared/routes.json edgeData, in the journey headers of shared/http.json
// (base64url JSON; edge/internal/billing PageData), on the page request it
// proxies. The renderer never calls the edge: no header, no data (signed
// out, or not the visitor's own). Only the edge reaches the renderer and it
// removes any copy a visitor sends, so the headers are trusted; anything
// unreadable counts as absent.
import { MERCHANT_HEADER, ORDER_HEADER, PAYMENT_HEADER } from "~/lib/http-names";
import { log } from "~/lib/log.server";

export interface JourneyOrder {
  id: string;
  product: "plan" | "petpawlor";
  itemId: string;
  name: string;
  quantity: number;
  subtotalPaise: number;
  gstPaise: number;
  totalPaise: number;
  currency: string;
  status: "pending" | "paid";
  paymentUrl?: string;
}

/** The signed-in merchant's store, status and plan ("merchant" in edgeData). */
export interface MerchantOverview {
  name: string;
  /** The store's subdomain (unique). */
  storeName: string;
  /** The store name as typed ('' for accounts made before it was kept). */
  storeTitle?: string;
  email?: string;
  emailVerified?: boolean;
  omnicustomerStatus: string;
  /** The newest paid plan's name ('' before one is paid). */
  plan: string;
  /** The newest plan order awaiting payment. */
  pendingPlanOrder?: JourneyOrder;
  adminConsoleUrl: string;
  paymentsTestMode: boolean;
}

/** A test-mode payment of the visitor's ("payment" in edgeData). */
export interface TestPayment {
  order: JourneyOrder;
  session: string;
  cancelUrl: string;
}

/** The JSON object in header, or null (absent or unreadable). */
function pageData<T>(request: Request, header: string): T | null {
  const raw = request.headers.get(header);
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    return value && typeof value === "object" ? (value as T) : null;
  } catch {
    log.warn(`${header}: not base64url JSON; the page renders without it`);
    return null;
  }
}

/** The signed-in merchant's overview, or null (signed out). */
export function merchantOverview(request: Request): MerchantOverview | null {
  return pageData<MerchantOverview>(request, MERCHANT_HEADER);
}

/** The order ?order= names when the signed-in visitor owns it, else null. */
export function journeyOrder(request: Request): JourneyOrder | null {
  return pageData<JourneyOrder>(request, ORDER_HEADER);
}

/** The test-mode payment ?session= names when the signed-in visitor owns it, else null. */
export function testPayment(request: Request): TestPayment | null {
  return pageData<TestPayment>(request, PAYMENT_HEADER);
}
