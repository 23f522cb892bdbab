// Quotes from merchants, with who said them.
import { Avatar } from "./avatar";

export interface Testimonial {
  quote: string;
  name: string;
  role: string;
  image?: string;
}

export function Testimonials({ items, layout = "grid" }: { items: Testimonial[]; layout?: "grid" | "single" }) {
  if (layout === "single") {
    const [t] = items;
    return (
      <figure className="mx-auto max-w-3xl text-center">
        <blockquote className="text-2xl leading-9 font-semibold tracking-tight text-balance text-gray-900 dark:text-white">
          <p>“{t.quote}”</p>
        </blockquote>
        <figcaption className="mt-8 flex items-center justify-center gap-4 text-left">
          <Avatar name={t.name} image={t.image} />
          <span>
            <span className="block font-semibold text-gray-900 dark:text-white">{t.name}</span>
            <span className="block text-sm text-gray-600 dark:text-gray-400">{t.role}</span>
          </span>
        </figcaption>
      </figure>
    );
  }
  return (
    <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
      {items.map((t) => (
        <li key={t.name}>
          <figure className="flex h-full flex-col rounded-2xl bg-white p-6 ring-1 ring-gray-200 dark:bg-white/5 dark:ring-white/10">
            <blockquote className="flex-1 text-gray-700 dark:text-gray-300">
              <p>“{t.quote}”</p>
            </blockquote>
            <figcaption className="mt-6 flex items-center gap-3">
              <Avatar name={t.name} image={t.image} size="sm" />
              <span className="text-sm">
                <span className="block font-semibold text-gray-900 dark:text-white">{t.name}</span>
                <span className="block text-gray-600 dark:text-gray-400">{t.role}</span>
              </span>
            </figcaption>
          </figure>
        </li>
      ))}
    </ul>
  );
}
