import { isRouteErrorResponse } from "react-router";
import { MinimalLayout } from "~/layouts/minimal";

/** The root error boundary's page (root.tsx): not found, or something went wrong. */
export function ErrorPage({ error }: { error: unknown }) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <MinimalLayout>
      <section className="mx-auto flex max-w-xl flex-1 flex-col justify-center px-6 py-24 text-center">
        <p className="text-sm font-semibold text-brand-600 dark:text-brand-400">
          {isRouteErrorResponse(error) ? error.status : 500}
        </p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
          {notFound ? "Page not found" : "Something went wrong"}
        </h1>
        <p className="mt-4 text-gray-600 dark:text-gray-400">
          {notFound
            ? "We could not find what you were looking for."
            : "Sorry, this page could not be shown. Please try again in a moment."}
        </p>
        <a href="/" className="mt-8 font-semibold text-brand-600 hover:underline dark:text-brand-400">
          Back to the home page
        </a>
      </section>
    </MinimalLayout>
  );
}
