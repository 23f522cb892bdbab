// The one feature-block component (SPEC §3 feature item; §9: at most 6 items
// and 4 columns by default). The landing page asks for 3 columns and 8 items;
// the /blocks/features demo shows the defaults.
import { Link } from "react-router";
import { FeatureIcon } from "./feature-icons";

export interface FeatureItem {
  icon: string;
  title: string;
  /** SPEC §3 names it text or content. */
  text?: string;
  content?: string;
  /** A palette name: sky, indigo, emerald, rose, amber, violet, fuchsia, orange, teal. */
  color: string;
  link?: string;
}

export const FEATURE_GRID_DEFAULTS = { limit: 6, columns: 4 } as const;

// Whole class names, so Tailwind finds them in the source.
const COLORS: Record<string, string> = {
  sky: "bg-sky-100 text-sky-700 dark:bg-sky-400/15 dark:text-sky-300",
  indigo: "bg-indigo-100 text-indigo-700 dark:bg-indigo-400/15 dark:text-indigo-300",
  emerald: "bg-emerald-100 text-emerald-700 dark:bg-emerald-400/15 dark:text-emerald-300",
  rose: "bg-rose-100 text-rose-700 dark:bg-rose-400/15 dark:text-rose-300",
  amber: "bg-amber-100 text-amber-800 dark:bg-amber-400/15 dark:text-amber-300",
  violet: "bg-violet-100 text-violet-700 dark:bg-violet-400/15 dark:text-violet-300",
  fuchsia: "bg-fuchsia-100 text-fuchsia-700 dark:bg-fuchsia-400/15 dark:text-fuchsia-300",
  orange: "bg-orange-100 text-orange-700 dark:bg-orange-400/15 dark:text-orange-300",
  teal: "bg-teal-100 text-teal-700 dark:bg-teal-400/15 dark:text-teal-300",
};
const DEFAULT_COLOR = "bg-brand-100 text-brand-700 dark:bg-brand-400/15 dark:text-brand-300";

const COLUMNS: Record<number, string> = {
  1: "",
  2: "sm:grid-cols-2",
  3: "sm:grid-cols-2 lg:grid-cols-3",
  4: "sm:grid-cols-2 lg:grid-cols-4",
};

// The last card of a row left short spans the columns left over, so no row
// ends in a hole (SPEC's 8 landing cards in 3 columns left one).
// Two columns from sm, the given number from lg; whole class names for Tailwind.
const SM_SPAN = "sm:col-span-2";
const LG_SPAN: Record<number, string> = { 1: "lg:col-span-1", 2: "lg:col-span-2", 3: "lg:col-span-3" };

/** The span classes of the last of n cards in a grid of `columns` columns at lg (2 at sm). */
export function lastCardSpan(n: number, columns: number): string {
  if (columns < 2) return "";
  const classes: string[] = [];
  if (n % 2 === 1) classes.push(SM_SPAN);
  const left = n % columns;
  if (left > 0) classes.push(LG_SPAN[columns - left + 1]);
  else if (n % 2 === 1) classes.push(LG_SPAN[1]);
  return classes.join(" ");
}

export interface FeatureGridProps {
  items: readonly FeatureItem[];
  /** At most this many items are shown (default 6). */
  limit?: number;
  /** Columns on wide screens, 1 to 4 (default 4). */
  columns?: number;
  /** Heading level of each item's title, to fit the page's outline. */
  headingLevel?: "h2" | "h3";
  className?: string;
}

export function FeatureGrid({
  items,
  limit = FEATURE_GRID_DEFAULTS.limit,
  columns = FEATURE_GRID_DEFAULTS.columns,
  headingLevel: Heading = "h3",
  className = "",
}: FeatureGridProps) {
  const n = Math.min(Math.max(Math.round(columns), 1), 4);
  const cols = COLUMNS[n];
  const shown = items.slice(0, Math.max(limit, 0));
  const span = lastCardSpan(shown.length, n);
  return (
    <ul data-feature-grid data-columns={columns} className={`grid gap-6 ${cols} ${className}`}>
      {shown.map((item, i) => (
        <li
          key={item.title}
          className={`${i === shown.length - 1 ? span : ""} group relative flex flex-col rounded-2xl bg-white p-6 ring-1 has-[a:focus-visible]:ring-2 has-[a:focus-visible]:ring-brand-500 ring-gray-200 transition hover:-translate-y-0.5 hover:shadow-lg hover:shadow-gray-200/60 dark:bg-white/[0.03] dark:ring-white/10 dark:hover:shadow-black/30`}
        >
          <span className={`grid size-11 place-items-center rounded-xl ${COLORS[item.color] ?? DEFAULT_COLOR}`}>
            <FeatureIcon name={item.icon} />
          </span>
          <Heading className="mt-5 text-base font-semibold text-gray-900 dark:text-white">
            {item.link ? (
              <Link to={item.link} className="after:absolute after:inset-0 after:rounded-2xl focus-visible:outline-none">
                {item.title}
              </Link>
            ) : (
              item.title
            )}
          </Heading>
          <p className="mt-2 text-sm leading-6 text-gray-600 dark:text-gray-300">{item.text ?? item.content}</p>
        </li>
      ))}
    </ul>
  );
}
