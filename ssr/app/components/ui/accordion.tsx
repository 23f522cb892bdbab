// Questions and answers that open one at a time on demand, on native
// <details>/<summary>: keyboard, screen readers and no-JavaScript for free.
// `exclusive` gives them one name, so opening one closes the others.
import { useId } from "react";

export interface FaqItem {
  /** The item's stable anchor (the page's URL with #<id> links to it). */
  id?: string;
  question: string;
  answer: string;
}

export function Accordion({ items, exclusive = false }: { items: FaqItem[]; exclusive?: boolean }) {
  const name = useId();
  return (
    <div className="divide-y divide-gray-200 border-y border-gray-200 dark:divide-white/10 dark:border-white/10">
      {items.map((item) => (
        <details key={item.question} id={item.id} name={exclusive ? name : undefined} className="group py-2">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-md py-3 text-lg font-semibold text-gray-900 focus-visible:outline-2 focus-visible:outline-brand-500 dark:text-white [&::-webkit-details-marker]:hidden">
            {item.question}
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5 flex-none transition group-open:rotate-180" fill="currentColor">
              <path fillRule="evenodd" d="M5.2 7.2a.75.75 0 0 1 1.06 0L10 10.94l3.74-3.74a.75.75 0 1 1 1.06 1.06l-4.27 4.27a.75.75 0 0 1-1.06 0L5.2 8.26a.75.75 0 0 1 0-1.06z" />
            </svg>
          </summary>
          <p className="pb-4 text-gray-600 dark:text-gray-400">{item.answer}</p>
        </details>
      ))}
    </div>
  );
}
