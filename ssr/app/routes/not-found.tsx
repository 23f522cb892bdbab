import { data, Link } from "react-router";
import { routeMeta } from "~/lib/meta";

export const meta = routeMeta;

/** Any path outside the route table: the page answers with HTTP status 404. */
export function loader() {
  return data(null, { status: 404 });
}

export default function NotFoundPage() {
  return (
    <section className="mx-auto flex max-w-xl flex-1 flex-col justify-center px-6 py-24 text-center">
      <p className="text-sm font-semibold text-brand-600 dark:text-brand-400">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">Page not found</h1>
      <p className="mt-4 text-gray-600 dark:text-gray-400">This page does not exist. It may have moved, or the address may be mistyped.</p>
      <Link to="/" className="mt-8 font-semibold text-brand-600 hover:underline dark:text-brand-400">
        Back to the home page
      </Link>
    </section>
  );
}
