// The /features loader's data: the platform's feature list from the edge
// (GET /api/v1/platform-features → {data: [...]}), or, when the edge does not
// answer in time or answers badly, the same list from shared/content/features.json.
// The page never fails because of this call.
import content from "../../../shared/content/features.json";
import { errorMessage, log, requestIdHeaders } from "./log.server";

export interface Feature {
  icon: string;
  title: string;
  text: string;
  color: string;
  link: string;
}

/** Long enough for a healthy edge on loopback, well under the stream timeout (5 s). */
const API_TIMEOUT_MS = 2_500;

function isFeature(value: unknown): value is Feature {
  if (typeof value !== "object" || value === null) return false;
  const item = value as Record<string, unknown>;
  return ["icon", "title", "text", "color", "link"].every((key) => typeof item[key] === "string");
}

export async function loadPlatformFeatures(apiUrl = process.env.API_URL ?? "http://127.0.0.1:8080"): Promise<Feature[]> {
  try {
    const response = await fetch(`${apiUrl.replace(/\/+$/, "")}/api/v1/platform-features`, {
      headers: { accept: "application/json", ...requestIdHeaders() },
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`status ${response.status}`);
    const body = (await response.json()) as { data?: unknown };
    if (!Array.isArray(body.data) || !body.data.every(isFeature)) throw new Error("unexpected body");
    return body.data;
  } catch (error) {
    log.warn(`platform-features: using shared content (${errorMessage(error)})`);
    return content.features;
  }
}
