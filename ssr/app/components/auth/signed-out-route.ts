import { redirectIfSignedIn } from "./api";

// What /login and /register share as routes: they are for a visitor who is
// not signed in. The edge redirects a signed-in visitor before the page
// renders; a client-side navigation here runs the same check through the API.
// The (empty) server loader keeps the page server-rendered: a route with only
// a clientLoader would render its hydration fallback instead. Once the check
// lets the visitor in, the clientLoader asks for that loader's data
// (/login.data, /register.data): the request by which the edge counts the
// page view (docs/analytics.md; a redirected visitor's is not one).
export const signedOutLoader = () => null;
export async function signedOutClientLoader<T>({ serverLoader }: { serverLoader: () => Promise<T> }) {
  await redirectIfSignedIn();
  return serverLoader();
}
