import { Link } from "react-router";
import notFound from "@omnibus/shared/content/not-found.json";

/** The 404 page's body: the unknown-path page and unknown articles both show it. */
export function NotFound({ text = notFound.text, to = "/", backLabel = notFound.backLabel }: { text?: string; to?: string; backLabel?: string }) {
  return (
    <section className="mx-auto flex max-w-xl flex-1 flex-col justify-center px-6 py-24 text-center">
      <p className="text-sm font-semibold text-brand-600 dark:text-brand-400">{notFound.code}</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">{notFound.title}</h1>
      <p className="mt-4 text-gray-600 dark:text-gray-400">{text}</p>
      <Link to={to} className="mt-8 font-semibold text-brand-600 hover:underline dark:text-brand-400">
        {backLabel}
      </Link>
    </section>
  );
}
