// Server-only: the one-time message a page shows on arrival when the edge
// sent the visitor there with ?notice=<code> (a password reset lands with
// ?notice=passwordChanged). Only codes listed in shared/routes.json's
// queryValues reach the page, and only their words from auth.json are shown:
// the address never puts text of its own on the page.
import auth from "@omnibus/shared/content/auth.json";
import table from "@omnibus/shared/routes.json";

const CODES: readonly string[] = table.queryValues.notice;

export function noticeFrom(request: Request): string | null {
  const code = new URL(request.url).searchParams.get("notice");
  if (!code || !CODES.includes(code) || !Object.hasOwn(auth.messages, code)) return null;
  return auth.messages[code as keyof typeof auth.messages];
}
