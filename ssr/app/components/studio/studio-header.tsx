// The studio's own navigation: the list, a new item, the insights, and for
// an admin the staff and the audit log; who is signed in. (The edge decides
// who is an admin and sends those pages' data to admins only: the links
// are hidden from others, the pages refused to them.)
import { Link } from "react-router";

export function StudioHeader({ member, current, admin = false }: { member: string; current: "list" | "new" | "item" | "members" | "audit"; admin?: boolean }) {
  const link = "rounded-md px-3 py-1.5 text-sm font-medium hover:bg-gray-100 dark:hover:bg-white/10";
  return (
    <header className="border-b border-gray-200 dark:border-gray-800">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-2 px-4 py-3 sm:px-6">
        <p className="mr-auto text-lg font-semibold">Studio</p>
        <nav aria-label="Studio" className="flex flex-wrap gap-1">
          <Link to="/staff" className={link} aria-current={current === "list" ? "page" : undefined}>
            Everything
          </Link>
          <Link to="/staff/new" className={link} aria-current={current === "new" ? "page" : undefined}>
            New
          </Link>
          <a href="/staff/insights" className={link}>
            Insights
          </a>
          {admin && (
            <>
              <Link to="/staff/members" className={link} aria-current={current === "members" ? "page" : undefined}>
                Staff
              </Link>
              <Link to="/staff/audit" className={link} aria-current={current === "audit" ? "page" : undefined}>
                Audit log
              </Link>
            </>
          )}
        </nav>
        <p className="w-full text-xs text-gray-600 sm:w-auto dark:text-gray-400">Signed in as {member}</p>
      </div>
    </header>
  );
}

/** A sentence the page must show: refused, failed, or done. */
export function Notice({ tone, children }: { tone: "error" | "ok" | "info"; children: React.ReactNode }) {
  const colours = {
    error: "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100",
    ok: "border-green-300 bg-green-50 text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-100",
    info: "border-gray-300 bg-gray-50 text-gray-900 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-100",
  }[tone];
  return (
    <p role={tone === "error" ? "alert" : "status"} className={`mt-4 rounded-md border px-4 py-3 text-sm ${colours}`}>
      {children}
    </p>
  );
}
