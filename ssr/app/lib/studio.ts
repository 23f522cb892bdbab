// The studio's shapes (docs/studio-api.md, the content store's contract) and
// its one client of the JSON API under /api/v1/staff. The page's data comes
// with the page request (lib/studio.server.ts); the browser only saves here.

export interface Revision {
  id: number;
  number: number;
  slug: string;
  fields: Record<string, string>;
  body: string;
  html?: string;
  author: string;
  note: string;
  createdAt: string;
}

export type State = "draft" | "scheduled" | "published" | "unpublished";

export interface Item {
  id: number;
  type: string;
  slug: string;
  state: State;
  changed: boolean;
  scheduledAt: string | null;
  publishedAt: string | null;
  path: string;
  revision: Revision | null;
  publishedRevisionId: number | null;
  pendingRepository: Revision | null;
  updatedAt: string;
}

export interface FieldSpec {
  name: string;
  required: boolean;
  kind: "text" | "textarea" | "date" | "category" | "status" | "path" | "number";
}

export interface TypeSpec {
  type: string;
  fields: FieldSpec[];
  body: boolean;
}

export interface Preview {
  id: number;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  url?: string;
}

export interface Diff {
  from: Revision;
  to: Revision;
  fields: { name: string; from: string; to: string }[];
  body: { op: "equal" | "insert" | "delete"; text: string }[];
}

export type StaffRole = "viewer" | "editor" | "publisher" | "admin";

/** A staff member as the staff page lists them (docs/staff-api.md, GET /api/v1/staff/members). */
export interface StaffMember {
  accountId: number;
  email: string;
  role: StaffRole;
  grantedBy: string;
  grantedAt: string;
  reason: string;
  totpAllowed: boolean;
  passkeys: number;
}

/** One record of the audit log (docs/staff-api.md, GET /api/v1/staff/audit). */
export interface AuditEntry {
  id: number;
  at: string;
  actorId: number;
  actor: string;
  action: string;
  itemType: string;
  itemId: string;
  revision: number;
  detail: string;
  clientIp: string;
}

/** What the edge sends a studio page (edge/internal/studiopages). */
export interface StudioData {
  member: string;
  types: TypeSpec[];
  list?: { filter: { Type: string; State: string; Author: string; Query: string }; items: Item[]; next?: string; views: Record<string, number> };
  item?: Item;
  revisions?: Revision[];
  previews?: Preview[];
  diff?: Diff;
  views?: number;
  /** The member is an admin: the staff and audit pages are theirs. */
  admin?: boolean;
  /** /staff/members, an admin's only. */
  members?: { members: StaffMember[]; roles: StaffRole[] };
  /** /staff/audit, an admin's only: one page, newest first, under the query's filter. */
  audit?: { filter: Record<string, string>; entries: AuditEntry[]; next?: number; errors?: Record<string, string>; actions: string[] };
  error?: string;
}

export const TYPE_LABELS: Record<string, string> = {
  blog: "Blog article",
  help: "Help article",
  "help-category": "Help category",
  policy: "Policy page",
  "campaign-link": "Campaign link",
  redirect: "Redirect",
};

export const STATE_LABELS: Record<State, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  published: "Published",
  unpublished: "Unpublished",
};

export const FIELD_LABELS: Record<string, string> = {
  title: "Title",
  description: "Description",
  date: "Date",
  updated: "Last updated",
  category: "Category",
  position: "Position",
  target: "Goes to",
  status: "Status (301, 302 or 410)",
  utmSource: "utm_source",
  utmMedium: "utm_medium",
  utmCampaign: "utm_campaign",
};

/** An answer of the studio API: its data, or why not (status, words, field messages, the current item of a 409). */
export type Answer<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; error: string; fieldErrors: Record<string, string>; current?: Item; reauthenticate?: boolean };

/** Calls the studio API with JSON; never throws (a network failure is status 0). */
export async function api<T>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
  let res: Response;
  try {
    res = await fetch(`/api/v1/staff${path}`, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    return { ok: false, status: 0, error: "The studio cannot reach the server. Nothing was saved; your text is still here.", fieldErrors: {} };
  }
  const json = (await res.json().catch(() => ({}))) as { data?: T; errorDetail?: string; fieldErrors?: Record<string, string>; current?: Item; reauthenticate?: boolean };
  if (res.ok) return { ok: true, data: json.data as T };
  return {
    ok: false,
    status: res.status,
    error: json.errorDetail ?? `The server answered ${res.status}.`,
    fieldErrors: json.fieldErrors ?? {},
    current: json.current,
    reauthenticate: json.reauthenticate === true,
  };
}

/** A time as staff read it (UTC, to the minute). */
export function when(iso: string | null | undefined): string {
  if (!iso) return "";
  return iso.replace("T", " ").slice(0, 16) + " UTC";
}

export function thousands(n: number): string {
  return n.toLocaleString("en-US");
}
