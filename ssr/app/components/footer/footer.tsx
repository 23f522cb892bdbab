// Minimal site footer. The landing-page work replaces its content with the
// full footer of SPEC §2 (link columns, socials, newsletter, address).
import { Link } from "react-router";
import { routeById } from "../../../../shared/route-table";

const POLICY_IDS = ["terms-of-use", "privacy-policy", "cookie-policy", "disclaimer"];

export function Footer() {
  return (
    <footer className="border-t border-gray-200 py-10 text-sm text-gray-600 dark:border-gray-800 dark:text-gray-400">
      <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>© 2022-2023 Omnibus</p>
        <ul className="flex flex-wrap gap-x-6 gap-y-2">
          {POLICY_IDS.map((id) => {
            const entry = routeById(id);
            if (!entry || !("path" in entry)) return null;
            return (
              <li key={id}>
                <Link to={entry.path} className="hover:text-gray-900 dark:hover:text-white">
                  {entry.title.split(" — ")[0]}
                </Link>
              </li>
            );
          })}
        </ul>
      </div>
    </footer>
  );
}
