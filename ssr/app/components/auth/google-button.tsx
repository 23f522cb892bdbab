// The light side of Google sign-in: what every page that may show the button
// imports. It reads the configured client id from the root loader and, only
// when there is one, loads the button (google-signin.tsx with
// @react-oauth/google) as its own chunk. Without GOOGLE_CLIENT_ID that chunk
// is never requested. The server render waits for the chunk, so the HTML
// carries the button (a link to the redirect flow that works without
// JavaScript); in the browser React keeps that markup until the chunk is
// there and hydrates it then, without a mismatch.
//
// Each lazy boundary is memoised on its props: React throws away server
// markup that is still waiting for its chunk when the boundary gets an
// update, and shows the fallback (nothing) until the chunk arrives. The
// sign-in form re-renders as the visitor types, and when it re-rendered as it
// hydrated the button vanished and came back, shifting the card (CLS 0.06).
import { lazy, memo, Suspense, type ComponentProps, type ComponentType } from "react";
import { useGoogleClientId } from "./google-client-id";
import { island } from "~/lib/island";

export { useGoogleClientId };

/** A lazily loaded component in its own Suspense boundary, memoised on its props (see above). */
function lazyBoundary<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  const Lazy = lazy(load);
  return memo(function LazyBoundary(props: P) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  });
}

type Props = { className?: string; variant?: "code" | "credential" };

const Button = lazyBoundary<Props>(() => import("./google-signin").then((m) => ({ default: m.GoogleSignIn })));

export function GoogleSignIn(props: Props) {
  if (!useGoogleClientId()) return null;
  return <Button {...props} />;
}

type SectionProps = ComponentProps<typeof import("~/components/landing/google-section").GoogleSection>;

// Below the hero on every screen: an island (lib/island.tsx), so neither it nor
// the button's code (google-signin, and the sign-in client it imports) is
// fetched before the section nears the viewport or the visitor's first
// interaction. Until then its server markup is a link to the redirect flow.
const Section = memo(island<SectionProps>(() => import("~/components/landing/google-section"), "GoogleSection"));

/** The landing page's Google section (components/landing/google-section.tsx), only when configured. */
export function GoogleSection(props: SectionProps) {
  if (!useGoogleClientId()) return null;
  return <Section {...props} />;
}
