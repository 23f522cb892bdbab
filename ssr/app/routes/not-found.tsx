import { data } from "react-router";
import { NotFound } from "~/components/content/not-found";
import { routeMeta } from "~/lib/meta";

export const meta = routeMeta;

/** Any path outside the route table: the page answers with HTTP status 404. */
export function loader() {
  return data(null, { status: 404 });
}

export default function NotFoundPage() {
  return <NotFound />;
}
