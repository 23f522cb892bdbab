// The light side of Google sign-in: what every page that may show the button
// imports. It reads the configured client id from the root loader and, only
// when there is one, loads the button (google-signin.tsx with
// @react-oauth/google) as its own chunk. Without GOOGLE_CLIENT_ID that chunk
// is never requested. The server render waits for the chunk, so the HTML
// carries the button (a link to the redirect flow that works without
// JavaScript); in the browser React keeps that markup until the chunk is
// there and hydrates it then, without a mismatch.
import { lazy, Suspense, type ComponentProps } from "react";
import { useRouteLoaderData } from "react-router";

/** The client id from the root loader ("" when Google sign-in is off). */
export function useGoogleClientId(): string {
  const root = useRouteLoaderData("root") as { googleClientId?: string } | undefined;
  return root?.googleClientId ?? "";
}

const Button = lazy(() => import("./google-signin").then((m) => ({ default: m.GoogleSignIn })));

type Props = { className?: string; variant?: "code" | "credential" };

export function GoogleSignIn(props: Props) {
  if (!useGoogleClientId()) return null;
  return (
    <Suspense fallback={null}>
      <Button {...props} />
    </Suspense>
  );
}

const Section = lazy(() => import("~/components/landing/google-section").then((m) => ({ default: m.GoogleSection })));

/** The landing page's Google section (components/landing/google-section.tsx), only when configured. */
export function GoogleSection(props: ComponentProps<typeof Section>) {
  if (!useGoogleClientId()) return null;
  return (
    <Suspense fallback={null}>
      <Section {...props} />
    </Suspense>
  );
}
