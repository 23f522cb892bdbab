// Server-only: a studio page's data, which the edge sends on the page request
// in the studio header of shared/http.json (base64url JSON,
// edge/internal/studiopages), and only for a staff member. No header: the
// page is the site's 404, so the studio's existence is not revealed.
import { data } from "react-router";
import { STUDIO_HEADER } from "~/lib/http-names";
import type { StudioData } from "~/lib/studio";

export function studioData(request: Request): StudioData {
  const raw = request.headers.get(STUDIO_HEADER);
  let value: StudioData | null = null;
  if (raw) {
    try {
      value = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as StudioData;
    } catch {
      value = null;
    }
  }
  if (!value || typeof value.member !== "string") throw data(null, { status: 404 });
  return value;
}

/** A studio page is one member's: never stored by a cache, never indexed. */
export const studioHeaders = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow" };
