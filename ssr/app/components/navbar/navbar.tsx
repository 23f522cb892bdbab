import { lazy, Suspense, useEffect, useRef } from "react";
import { Link, useLocation } from "react-router";
import navigation from "@omnibus/shared/content/navigation.json";
import { useSignedIn } from "~/components/auth/signed-in";
import { ThemeSwitcher } from "~/components/theme-switcher";
import { StaticMarkup } from "~/lib/static-markup";

export type NavbarVariant = "default" | "inverted" | "minimal";

const BAR: Record<NavbarVariant, string> = {
  default: "border-b border-gray-200 bg-white/90 text-gray-900 backdrop-blur dark:border-gray-800 dark:bg-gray-950/90 dark:text-gray-100",
  // A dark bar on a light page.
  inverted: "bg-gray-950 text-white dark:border-b dark:border-gray-800",
  minimal: "text-gray-900 dark:text-gray-100",
};

type NavItem = { label: string; to: string; current?: string[] };

/** Whether `pathname` is `prefix` or below it (whole segments: /help matches /help/category/x, not /helpful). */
export function isCurrent(link: NavItem, pathname: string): boolean {
  return (link.current ?? [link.to]).some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** A navigation link marked aria-current="page" where it is the current section. */
function NavItemLink({ link, className }: { link: NavItem; className: string }) {
  const { pathname } = useLocation();
  return (
    <Link to={link.to} prefetch="intent" aria-current={isCurrent(link, pathname) ? "page" : undefined} className={className}>
      {link.label}
    </Link>
  );
}

/**
 * Top navigation. `minimal` shows the brand and the theme switcher only. On
 * small screens the links move into a disclosure (<details>), which works
 * with the keyboard, screen readers, and without JavaScript.
 */
export function Navbar({ variant = "default", label = navigation.menu.label, sticky = true }: { variant?: NavbarVariant; label?: string; sticky?: boolean }) {
  return (
    <header data-nav={variant} className={`${sticky ? "sticky top-0 z-40" : "relative"} ${BAR[variant]}`}>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-2 focus:rounded focus:bg-brand-600 focus:px-3 focus:py-2 focus:text-white"
      >
        {navigation.skipLink}
      </a>
      <nav aria-label={label} className="mx-auto flex h-16 max-w-7xl items-center gap-6 px-4 sm:px-6">
        <Link to={navigation.brand.to} prefetch="intent" className="flex items-center gap-2 text-lg font-bold tracking-tight">
          {/* The brand mark site.json's logo names, not imported here: the header is in every page's first chunk. */}
          <img src="/favicon.webp" alt="" width={28} height={28} />
          {navigation.brand.label}
        </Link>
        {/* The theme buttons are answered by the document's theme script, not React (lib/theme.ts):
            React does not walk them as it hydrates, and a tap waits for no hydration. */}
        {variant === "minimal" ? (
          <StaticMarkup className="ml-auto">
            <ThemeSwitcher />
          </StaticMarkup>
        ) : (
          <>
            <ul className="hidden items-center gap-6 text-sm font-medium lg:flex">
              {navigation.links.map((link) => (
                <li key={link.to}>
                  <NavItemLink link={link} className="opacity-80 transition hover:opacity-100 aria-[current=page]:opacity-100 aria-[current=page]:underline underline-offset-8" />
                </li>
              ))}
            </ul>
            <div className="ml-auto flex items-center gap-3">
              <StaticMarkup>
                <ThemeSwitcher />
              </StaticMarkup>
              <div className="hidden items-center gap-3 whitespace-nowrap lg:flex">
                <AccountLinks />
              </div>
              {/* Hydrated with the page, not on its own: a tap on a part still waiting
                  for hydration makes React hydrate it in the tap's own task first. */}
              <MobileMenu />
            </div>
          </>
        )}
      </nav>
      {/* The end of the page's own bar (the catalogue's examples are not sticky): a document that
          arrives in pieces paints nothing before it is in (root.tsx, rel=expect). */}
      {sticky && <span id="nav-end" />}
    </header>
  );
}

// Only signed-in visitors see it: anonymous ones never download its chunk.
const SignOutButton = lazy(() => import("~/components/auth/sign-out").then((m) => ({ default: m.SignOutButton })));

function AccountLinks() {
  if (useSignedIn())
    return (
      <Suspense fallback={null}>
        <SignOutButton />
      </Suspense>
    );
  return (
    <>
      <Link to={navigation.signIn.to} prefetch="intent" className="text-sm font-medium opacity-80 hover:opacity-100">
        {navigation.signIn.label}
      </Link>
      <Link
        to={navigation.getStarted.to}
        prefetch="intent"
        className="rounded-full bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm transition hover:bg-brand-500"
      >
        {navigation.getStarted.label}
      </Link>
    </>
  );
}

function MobileMenu() {
  const details = useRef<HTMLDetailsElement>(null);
  const { key } = useLocation();

  // Close the menu once a link in it has navigated (not as it mounts: the
  // menu hydrates on its own, and the visitor may have opened it by then).
  const shownAt = useRef(key);
  useEffect(() => {
    if (shownAt.current === key) return;
    shownAt.current = key;
    if (details.current) details.current.open = false;
  }, [key]);

  // While it is open, a tap or click anywhere outside it closes it.
  useEffect(() => {
    const menu = details.current;
    if (!menu) return;
    const onOutside = (event: PointerEvent) => {
      if (menu.open && !menu.contains(event.target as Node)) menu.open = false;
    };
    // While it is open, Escape closes it (wherever the focus is) and Tab
    // keeps the focus inside it, cycling through what it shows: the page
    // behind is covered.
    const onKey = (event: KeyboardEvent) => {
      if (!menu.open) return;
      const summary = menu.firstElementChild as HTMLElement;
      if (event.key === "Escape") {
        menu.open = false;
        summary.focus();
      } else if (event.key === "Tab") {
        const shown = [...menu.querySelectorAll<HTMLElement>("summary,a[href],button")].filter((el) => el.getClientRects().length);
        const at = shown.indexOf(document.activeElement as HTMLElement);
        event.preventDefault();
        shown[at < 0 ? 0 : (at + (event.shiftKey ? shown.length - 1 : 1)) % shown.length].focus();
      }
    };
    document.addEventListener("pointerdown", onOutside);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onOutside);
      document.removeEventListener("keydown", onKey);
    };
  }, []);

  return (
    <details ref={details} className="group lg:hidden">
      <summary className="grid size-10 cursor-pointer list-none place-items-center rounded-md [&::-webkit-details-marker]:hidden">
        <span className="sr-only">{navigation.menu.open}</span>
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path className="group-open:hidden" d="M4 7h16M4 12h16M4 17h16" />
          <path className="hidden group-open:block" d="M6 6l12 12M18 6L6 18" />
        </svg>
      </summary>
      <div className="absolute inset-x-0 top-16 border-b border-gray-200 bg-white px-4 pb-6 pt-2 text-gray-900 shadow-lg dark:border-gray-800 dark:bg-gray-950 dark:text-gray-100">
        <ul className="flex flex-col text-base font-medium">
          {navigation.links.map((link) => (
            <li key={link.to}>
              <NavItemLink link={link} className="block py-3 aria-[current=page]:text-brand-600" />
            </li>
          ))}
        </ul>
        <div className="mt-4 flex items-center gap-4">
          <AccountLinks />
        </div>
      </div>
    </details>
  );
}
