// Server-only: what the merchant's journey pages read from the edge's
// billing API (edge/internal/billing), asked with the visitor's own cookie.
// Only a request that carries the session cookie makes a call.
import { SESSION_COOKIE } from "~/lib/http-names";

const API_TIMEOUT_MS = 3_000;

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

/** GET /api/v1/licenses/current: the signed-in merchant's store, status and orders. */
export interface MerchantOverview {
  name: string;
  /** The store's subdomain (unique). */
  storeName: string;
  /** The store name as typed ('' for accounts made before it was kept). */
  storeTitle?: string;
  email?: string;
  emailVerified?: boolean;
  omnicustomerStatus: string;
  plan: string;
  orders: JourneyOrder[];
  adminConsoleUrl: string;
  paymentsTestMode: boolean;
}

function signedInCookie(request: Request): string | null {
  const cookie = request.headers.get("cookie") ?? "";
  return cookie.split(/;\s*/).some((c) => c.startsWith(`${SESSION_COOKIE}=`)) ? cookie : null;
}

/** GET an API path with the visitor's cookie: its status and `data`, or status 0 when unreachable. */
export async function edgeGet<T>(request: Request, path: string, apiUrl = process.env.API_URL ?? "http://127.0.0.1:8080"): Promise<{ status: number; data: T | null }> {
  const cookie = signedInCookie(request);
  if (!cookie) return { status: 401, data: null };
  try {
    const res = await fetch(`${apiUrl.replace(/\/+$/, "")}${path}`, {
      headers: { accept: "application/json", cookie },
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
    });
    const body = (await res.json().catch(() => null)) as { data?: T } | null;
    return { status: res.status, data: res.ok ? (body?.data ?? null) : null };
  } catch (error) {
    console.error(`${path}: ${error instanceof Error ? error.message : error}`);
    return { status: 0, data: null };
  }
}

/** The signed-in merchant's overview, or null (signed out, or the edge did not answer). */
export async function merchantOverview(request: Request): Promise<MerchantOverview | null> {
  return (await edgeGet<MerchantOverview>(request, "/api/v1/licenses/current")).data;
}
