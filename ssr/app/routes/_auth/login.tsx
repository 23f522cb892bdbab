import { PlaceholderPage } from "~/components/placeholder-page";
import { routeMeta } from "~/lib/meta";

export const meta = routeMeta;

export default function LoginPage() {
  return <PlaceholderPage />;
}
