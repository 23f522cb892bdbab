// Server-only: the Google OAuth client id the browser needs (GOOGLE_CLIENT_ID,
// the same variable the edge reads; the edge passes it on to the renderer,
// see renderer.InheritedEnv). Empty when Google sign-in is off: the button
// hides itself.
export function googleClientId(env: NodeJS.ProcessEnv = process.env): string {
  return env.GOOGLE_CLIENT_ID?.trim() ?? "";
}

/**
 * GOOGLE_REDIRECT_ONLY=1 (set by `make run` with its local OpenID provider):
 * the button is a plain link to the edge's redirect flow and Google's script,
 * which only talks to Google, is never loaded.
 */
export function googleRedirectOnly(env: NodeJS.ProcessEnv = process.env): boolean {
  return ["1", "true"].includes(env.GOOGLE_REDIRECT_ONLY?.trim().toLowerCase() ?? "");
}
