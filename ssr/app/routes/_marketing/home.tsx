// Placeholder landing page: the landing-page work replaces its sections.
import { Link } from "react-router";
import { Image } from "~/components/ui/image";
import { routeMeta } from "~/lib/meta";
import { headingOf, useRouteEntry } from "~/lib/route-entry";

export const meta = routeMeta;

const SECTIONS = [
  { id: "features", title: "Everything you need to sell", text: "Shipping, fulfilment, discounts, content and dashboards in one console." },
  { id: "ai", title: "AI that writes for you", text: "Product descriptions and social posts, written in seconds." },
  { id: "reasons", title: "Three reasons merchants switch", text: "One system, every channel, uptime above 99.99%." },
];

export default function HomePage() {
  const entry = useRouteEntry();
  return (
    <>
      <section className="mx-auto grid min-h-[80vh] max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 lg:grid-cols-2">
        <div>
          <h1 className="text-4xl font-bold tracking-tight text-balance sm:text-6xl">{headingOf(entry)}</h1>
          <p className="mt-6 text-lg text-gray-600 dark:text-gray-400">{entry.description}</p>
          <div className="mt-8 flex flex-wrap gap-4">
            <Link to="/register" className="rounded-full bg-brand-600 px-6 py-3 font-semibold text-white hover:bg-brand-500">
              Get Started
            </Link>
            <Link to="/features" className="rounded-full px-6 py-3 font-semibold ring-1 ring-current/20 hover:ring-current/40">
              See all features
            </Link>
            <Link to="#reasons" className="px-2 py-3 font-semibold text-brand-600 dark:text-brand-400">
              Why Omnibus?
            </Link>
          </div>
        </div>
        <Image
          src="/images/app/dashboard-light.svg"
          darkSrc="/images/app/dashboard-dark.svg"
          alt="The Omnibus admin console"
          width={640}
          height={400}
          priority
          className="h-auto w-full rounded-xl shadow-xl ring-1 ring-black/5"
        />
      </section>
      {SECTIONS.map((section) => (
        <section key={section.id} id={section.id} className="mx-auto min-h-[70vh] max-w-7xl px-4 py-24 sm:px-6">
          <h2 className="text-3xl font-bold tracking-tight">{section.title}</h2>
          <p className="mt-4 text-lg text-gray-600 dark:text-gray-400">{section.text}</p>
        </section>
      ))}
    </>
  );
}
