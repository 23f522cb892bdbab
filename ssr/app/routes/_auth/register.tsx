import { RegisterForm } from "~/components/auth/register-form";
import { redirectIfSignedIn } from "~/components/auth/api";
import { routeMeta } from "~/lib/meta";
import routeCopy from "virtual:route-copy";
import type { Route } from "./+types/register";

export const handle = { routeCopy };
export const meta = routeMeta;

// The edge redirects a signed-in visitor before the page renders; a
// client-side navigation here runs the same check through the API. The
// (empty) server loader keeps the page server-rendered: a route with only a
// clientLoader would render its hydration fallback instead. Once the check
// lets the visitor in, the clientLoader asks for that loader's data
// (/register.data): the request by which the edge counts the page view (docs/analytics.md;
// a redirected visitor's is not one).
export const loader = () => null;
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  await redirectIfSignedIn();
  return serverLoader();
}

export default function RegisterPage() {
  return <RegisterForm />;
}
