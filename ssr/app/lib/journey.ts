// The merchant's journey in the browser: its words (shared/content/journey.json)
// and where a signed-in merchant's next step is.
import journey from "@omnibus/shared/content/journey.json";

export { journey };
export { CHOOSE_PLAN_PATH, MERCHANT_HOME_PATH, registerTarget } from "./next-step";

/** Fills {name} placeholders. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** The words for a ?error=<code> of journey.json; unknown codes show nothing. */
export function journeyMessage(code: string | null): string | null {
  if (!code) return null;
  const messages = journey.messages as Record<string, string>;
  return Object.hasOwn(messages, code) ? messages[code] : null;
}

/** The store's name to show the merchant: as typed, else its subdomain. */
export function storeLabel(overview: { storeName: string; storeTitle?: string }): string {
  return overview.storeTitle || overview.storeName;
}
