// Cards in a grid: a title, a text and an optional link. Content pages use it
// for their item lists.
import { SiteLink } from "./site-link";

export interface CardItem {
  title: string;
  text: string;
  link?: { label: string; to?: string; url?: string };
}

export function CardGrid({ items, headingLevel: Heading = "h3", columns = 3 }: { items: CardItem[]; headingLevel?: "h2" | "h3"; columns?: 2 | 3 }) {
  return (
    <ul className={`grid gap-6 sm:grid-cols-2 ${columns === 3 ? "lg:grid-cols-3" : ""}`}>
      {items.map((item) => (
        <li key={item.title} className="flex flex-col rounded-2xl border border-gray-200 p-6 dark:border-gray-800">
          <Heading className="text-lg font-semibold">{item.title}</Heading>
          <p className="mt-2 flex-1 text-gray-600 dark:text-gray-400">{item.text}</p>
          {item.link && (
            <SiteLink to={item.link.to} url={item.link.url} className="mt-4 text-sm font-semibold text-brand-600 hover:underline dark:text-brand-400">
              {item.link.label} <span aria-hidden="true">→</span>
            </SiteLink>
          )}
        </li>
      ))}
    </ul>
  );
}
