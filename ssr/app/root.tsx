import { lazy, Suspense } from "react";
import { Links, Meta, Outlet, useRouteError, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import { googleClientId, googleRedirectOnly } from "~/components/auth/google-config.server";
import { signInStatus } from "~/components/auth/session.server";
import { ProgressBar } from "~/components/progress-bar";
import { PwaPrompt } from "~/components/pwa/pwa-prompt";
import { layoutFor } from "~/layouts";
import { DEFAULT_PUBLIC_URL, DEFAULT_THEME, LOCALE, type ThemePreference } from "~/lib/constants";
import { isDemoRoute, pageMeta } from "~/lib/meta";
import { siteSettings, twitterSite } from "~/lib/site.server";
import { refusedForm } from "~/lib/form-state.server";
import { useRouteEntry } from "~/lib/route-entry";
import { requestTheme, themeScript } from "~/lib/theme";
import { HashScroll } from "~/lib/use-hash-scroll";
import { useOfflineReload } from "~/lib/offline";
import { useNonce } from "~/lib/nonce";
import { CriticalStyle, ServerBodyEnd, ServerHead } from "~/lib/critical-css";
import { DeepLinkStylesheet, DeferredScripts } from "~/lib/deferred-scripts";
import stylesheet from "./app.css?url";

export const links: Route.LinksFunction = () => [
  // The tab icon is the header's brand mark, one file the page fetches once
  // (favicon.png beside it was a second request on every first
  // visit). WebP tab icons: Chromium, Firefox, Safari 14+.
  { rel: "icon", href: "/favicon.webp", type: "image/webp" },
  // No manifest link in the document: Chromium fetches a linked manifest and
  // its 192 px icon on every page load to judge installability (8.3 KB of a
  // first visit). components/pwa adds it at the visitor's first interaction.
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
  // No paint of half a navigation bar: a document that arrives in pieces first
  // paints once the empty element ending the bar is in (navbar.tsx).
  { rel: "expect", href: "#nav-end", blocking: "render" },
];

/** The canonical origin comes from the server, so the client renders the same links after hydration. */
export async function loader({ request }: Route.LoaderArgs) {
  return {
    publicUrl: (process.env.PUBLIC_URL || DEFAULT_PUBLIC_URL).replace(/\/+$/, ""),
    // The configured support e-mail, phone and demo link; the footer's copy they fill is in lib/site.ts.
    settings: siteSettings(),
    // Google sign-in's public client id ("" hides the button): components/auth.
    googleClientId: googleClientId(),
    // GOOGLE_REDIRECT_ONLY (make run's local OpenID provider): the button is a plain redirect link, no Google script.
    googleRedirectOnly: googleRedirectOnly(),
    // The signed-in visitor's status (null when signed out), resolved by the edge (account header).
    account: signInStatus(request),
    // A refused form post without JavaScript that this page answers (the edge's header): lib/form-state.ts.
    refusedForm: refusedForm(request),
    // The theme cookie's preference (system when none): the dark class on <html> without JavaScript.
    theme: requestTheme(request),
    // The site's X account for twitter:site (lib/meta.ts).
    twitterSite: twitterSite(),
  };
}

// The origin never changes during a visit: no /_root.data request on navigation.
export const shouldRevalidate = () => false;

// Pages export their own meta (lib/meta.ts routeMeta); this one serves the error page.
export const meta: Route.MetaFunction = ({ loaderData, location, error }) =>
  pageMeta({
    title: error ? "Something went wrong — Omnibus" : "Omnibus",
    description: "Omnibus: sell everywhere from one AI-powered commerce platform.",
    publicUrl: loaderData?.publicUrl ?? DEFAULT_PUBLIC_URL,
    twitterSite: loaderData?.twitterSite,
    pathname: location.pathname,
    noindex: Boolean(error),
  });

/**
 * The demo pages show the catalogue's components, which only the full
 * stylesheet draws: deferred after the first paint as on other pages, it
 * restyled them as it arrived (layout shifts of 0.02-0.16 on a phone). There
 * the first paint waits for it (one cached 11 KB file). Rendered by the
 * server only, so no page's client code carries it (React skips the extra
 * <head> element when it hydrates); the catalogue's index keeps the deferred
 * one (app/critical.css covers it).
 */
function DemoStylesheet({ href }: { href: string }) {
  return isDemoRoute(useRouteEntry().module) ? <link rel="stylesheet" href={href} /> : null;
}

/** The HTML document around every page and the error page. */
export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce(); // the edge's CSP nonce (server only: browsers hide it)
  // The theme cookie's choice: the server writes the dark class itself, so the page is right without JavaScript.
  const rootData = useRouteLoaderData("root") as { theme?: ThemePreference; account?: unknown } | undefined;
  const theme = rootData?.theme ?? DEFAULT_THEME;
  return (
    // The theme script sets class="dark" (or takes it off) before hydration: that attribute alone may differ.
    <html lang={LOCALE} className={theme === "dark" ? "dark" : undefined} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#6428ef" />
        {/* Parser-blocking, in <head>: the dark class is set before any of <body> can paint, and the
            theme buttons answer from then on. Its text is the server's only: React leaves an element's
            inner HTML as it is when it hydrates, so the browser's bundle need not carry it. */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? themeScript : "" }} />
        {/* The first view's CSS, inline: the first paint waits for no stylesheet (lib/critical-css.tsx). */}
        <CriticalStyle />
        {/* A link to a #section: the whole stylesheet before the first paint (lib/deferred-scripts.tsx). */}
        <DeepLinkStylesheet href={stylesheet} />
        {/* A component demo page: the whole stylesheet before the first paint (server only). */}
        {import.meta.env.SSR && <DemoStylesheet href={stylesheet} />}
        <Meta />
        <Links />
        {/* Preview image, og:type, feed links: written by the server only (lib/seo.server.tsx). */}
        <ServerHead />
      </head>
      <body>
        {children}
        {/* React Router's scripts and the whole stylesheet (cached for every later page), fetched
            once the first paint is on screen; without JavaScript the stylesheet still applies.
            An anonymous visitor's page hydrates at their first sign: it works as plain HTML until
            then. A signed-in one's (the studio, the merchant's pages) as soon as it has painted. */}
        <DeferredScripts stylesheet={stylesheet} start={rootData?.account ? "paint" : "sign"} />
        {/* The page's JSON-LD, server only (lib/seo.server.tsx). */}
        <ServerBodyEnd />
      </body>
    </html>
  );
}

/** Every page is wrapped in the layout its route-table entry names. */
export default function App({ loaderData }: Route.ComponentProps) {
  const entry = useRouteEntry();
  const PageLayout = layoutFor(entry.layout);
  const notice = loaderData?.account?.notice;
  return (
    <>
      <ProgressBar />
      <HashScroll />
      {notice && (
        <p role="status" data-notice className="bg-amber-50 px-4 py-3 text-center text-sm text-amber-900">
          {notice}
        </p>
      )}
      <PageLayout>
        <Outlet />
      </PageLayout>
      <PwaPrompt />
    </>
  );
}

// The error page is its own chunk: no page's first view needs its code.
const ErrorPage = lazy(() => import("~/components/error-page").then((m) => ({ default: m.ErrorPage })));

export function ErrorBoundary() {
  const error = useRouteError();
  useOfflineReload(error);
  return (
    <Suspense fallback={null}>
      <ErrorPage error={error} />
    </Suspense>
  );
}
