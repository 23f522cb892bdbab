import { cardLinks } from "~/components/auth/form-parts";
import { RegisterForm } from "~/components/auth/register-form";
import { signedOutClientLoader, signedOutLoader } from "~/components/auth/api";
import { routeMeta } from "~/lib/meta";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;
export const links = cardLinks;

// For visitors not signed in: components/auth/api.ts (signedOutLoader) says why
// there are both loaders.
export const loader = signedOutLoader;
export const clientLoader = signedOutClientLoader;

export default function RegisterPage() {
  return <RegisterForm />;
}
