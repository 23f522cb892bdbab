// Sign in with Google (SPEC §7), through @react-oauth/google:
//
//  - variant "code" (default): our button opens Google's popup for an
//    authorisation code (flow 'auth-code', ux popup, scopes email profile
//    openid); the code is posted to the edge, which exchanges it;
//  - variant "credential": Google's own GoogleLogin button returns an ID
//    token; its credential response is posted as is.
//
// Both post to /api/v1/oaccount/signin/google with credentials; on failure
// the server's errorDetail shows and signingIn stops. The popup failing to
// open ("prompt not displayed") or closed early ("skipped") shows a message;
// Google's script failing to load logs 'Error while loading plugin'.
// Without JavaScript the button is a link to the edge's redirect flow.
// Nothing renders when no client id is configured. Pages import it through
// google-button.tsx, which loads this module (its own chunk) only when needed.
import { GoogleLogin, GoogleOAuthProvider, useGoogleLogin, useGoogleOAuth, type CredentialResponse } from "@react-oauth/google";
import { useState } from "react";
import { useRouteLoaderData } from "react-router";
import auth from "@omnibus/shared/content/auth.json";
import { api, API, goOn, type SignInStatus } from "./api";
import { FormAlert, useHydrated } from "./form-parts";
import { useGoogleClientId } from "./google-client-id";

export const GOOGLE_SCOPES = "email profile openid";

/** True when the provider is a local OpenID provider, not Google: redirect flow only, no Google script. */
function useGoogleRedirectOnly(): boolean {
  const root = useRouteLoaderData("root") as { googleRedirectOnly?: boolean } | undefined;
  return root?.googleRedirectOnly ?? false;
}

const buttonClass =
  "inline-flex items-center gap-3 rounded-full bg-white px-5 py-2.5 text-sm font-semibold text-gray-800 shadow-sm ring-1 ring-gray-300 transition hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 aria-busy:cursor-wait aria-busy:opacity-70 dark:ring-white/20";

type Props = { className?: string; variant?: "code" | "credential" };

/** className defaults to the landing page's alignment (right-aligned from sm up). */
export function GoogleSignIn({ className = "sm:items-end", variant = "code" }: Props) {
  const clientId = useGoogleClientId();
  const redirectOnly = useGoogleRedirectOnly();
  if (!clientId) return null;
  if (redirectOnly) {
    return (
      <div className={`flex flex-col items-center gap-3 ${className}`} data-google="redirect">
        <a href={API.googleRedirect} data-google-signin="redirect" className={buttonClass}>
          <GoogleMark />
          {auth.google.button}
        </a>
      </div>
    );
  }
  return (
    <GoogleOAuthProvider clientId={clientId} onScriptLoadError={() => console.error("Error while loading plugin")}>
      <GoogleSignInInner className={className} variant={variant} />
    </GoogleOAuthProvider>
  );
}

function GoogleSignInInner({ className, variant }: Required<Props>) {
  const hydrated = useHydrated();
  const { scriptLoadedSuccessfully } = useGoogleOAuth();
  const [signingIn, setSigningIn] = useState(false);
  const [errorDetail, setErrorDetail] = useState<string | null>(null);

  function failed(message: string) {
    setErrorDetail(message);
    setSigningIn(false);
  }

  async function signIn(payload: { code: string } | CredentialResponse) {
    setSigningIn(true);
    setErrorDetail(null);
    try {
      const { data } = await api<{ data: SignInStatus }>(API.google, payload);
      goOn(data);
    } catch (error) {
      failed((error as Error).message);
    }
  }

  const requestCode = useGoogleLogin({
    flow: "auth-code",
    ux_mode: "popup",
    scope: GOOGLE_SCOPES,
    overrideScope: true,
    onSuccess: ({ code }) => void signIn({ code }),
    onError: () => failed(auth.messages.googleFailed),
    onNonOAuthError: ({ type }) => failed(type === "popup_closed" ? auth.messages.googlePromptSkipped : auth.messages.googlePromptNotDisplayed),
  });

  const fallback = (
    <a
      href={API.googleRedirect}
      data-google-signin={variant}
      aria-busy={signingIn}
      onClick={(event) => {
        // Until Google's script is here, the link's redirect flow does the job.
        if (variant !== "code" || !scriptLoadedSuccessfully) return;
        event.preventDefault();
        if (signingIn) return;
        setErrorDetail(null);
        setSigningIn(true);
        requestCode();
      }}
      className={buttonClass}
    >
      <GoogleMark />
      {signingIn ? auth.google.signingIn : auth.google.button}
    </a>
  );

  return (
    <div className={`flex flex-col items-center gap-3 ${className}`} data-google={variant}>
      {variant === "credential" && hydrated ? (
        <div aria-busy={signingIn} data-google-signin="credential">
          <GoogleLogin
            onSuccess={(response) => void signIn(response)}
            onError={() => failed(auth.messages.googleFailed)}
            text="signin_with"
            shape="pill"
          />
          {signingIn && <p className="mt-2 text-center text-sm text-gray-600 dark:text-gray-400">{auth.google.signingIn}</p>}
        </div>
      ) : (
        fallback
      )}
      <FormAlert message={errorDetail} />
    </div>
  );
}

function GoogleMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 48 48" className="size-5">
      <path fill="#FFC107" d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z" />
      <path fill="#FF3D00" d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z" />
      <path fill="#4CAF50" d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z" />
      <path fill="#1976D2" d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z" />
    </svg>
  );
}
