// Server-only: the Google OAuth client id the browser needs (GOOGLE_CLIENT_ID,
// the same variable the edge reads; the renderer inherits the edge's
// environment). Empty when Google sign-in is off: the button hides itself.
export function googleClientId(env: NodeJS.ProcessEnv = process.env): string {
  return env.GOOGLE_CLIENT_ID?.trim() ?? "";
}

/**
 * True when the OpenID provider is not Google's (GOOGLE_ISSUER_URL set to
 * another issuer: the local provider `make run` starts): the button is then
 * a plain link to the edge's redirect flow, and Google's script, which only
 * talks to Google, is never loaded.
 */
export function googleRedirectOnly(env: NodeJS.ProcessEnv = process.env): boolean {
  const issuer = env.GOOGLE_ISSUER_URL?.trim().replace(/\/+$/, "") ?? "";
  return issuer !== "" && issuer !== "https://accounts.google.com";
}
