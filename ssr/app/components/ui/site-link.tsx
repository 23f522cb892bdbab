import type { ReactNode } from "react";
import { Link, useRouteLoaderData } from "react-router";
import { registerTarget } from "~/lib/next-step";
import { isExternal } from "~/lib/site";

export interface SiteLinkProps {
  /** A path of the site (a named route), or an external URL. */
  to?: string;
  /** An external URL (content links carry either `to` or `url`). */
  url?: string;
  className?: string;
  children: ReactNode;
  "aria-label"?: string;
}

/** A content link: client-side navigation for the site's own paths, an ordinary link for external ones. */
export function SiteLink({ to, url, className, children, ...rest }: SiteLinkProps) {
  const root = useRouteLoaderData("root") as { account?: { isLoggedIn: boolean; omnicustomerStatus: string } | null } | undefined;
  // 'Get Started' and 'Create Store' lead a signed-in merchant to the next step, not to a silent redirect.
  const href = to === "/register" && !url ? registerTarget(root?.account) : (url ?? to ?? "/");
  if (isExternal(href)) {
    return (
      <a href={href} className={className} {...rest}>
        {children}
      </a>
    );
  }
  return (
    <Link to={href} className={className} {...rest}>
      {children}
    </Link>
  );
}

/** Shared call-to-action looks, so every 'Get Started' and 'Schedule Demo' matches. */
export const buttonStyles = {
  primary:
    "inline-flex items-center justify-center gap-2 rounded-full bg-brand-600 px-6 py-3 text-base font-semibold text-white shadow-sm shadow-brand-600/30 transition hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 dark:bg-brand-500 dark:hover:bg-brand-600",
  secondary:
    "inline-flex items-center justify-center gap-2 rounded-full bg-white px-6 py-3 text-base font-semibold text-gray-900 ring-1 ring-gray-300 transition hover:ring-gray-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 dark:bg-white/5 dark:text-white dark:ring-white/20 dark:hover:ring-white/40",
} as const;
