// Server-only: the Google OAuth client id the browser needs (GOOGLE_CLIENT_ID,
// the same variable the edge reads; the edge passes it on to the renderer,
// see renderer.InheritedEnv). Empty when Google sign-in is off: the button
// hides itself.
export function googleClientId(env: NodeJS.ProcessEnv = process.env): string {
  return env.GOOGLE_CLIENT_ID?.trim() ?? "";
}
