import { LoginForm } from "~/components/auth/login-form";
import { redirectIfSignedIn } from "~/components/auth/api";
import { routeMeta } from "~/lib/meta";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;

// The edge redirects a signed-in visitor before the page renders; a
// client-side navigation here runs the same check through the API. The
// (empty) server loader keeps the page server-rendered: a route with only a
// clientLoader would render its hydration fallback instead.
export const loader = () => null;
export const clientLoader = redirectIfSignedIn;

export default function LoginPage() {
  return <LoginForm />;
}
