// Small labels: categories, statuses, filters.
export type TagColor = "gray" | "brand" | "green" | "amber" | "red";
const COLORS: Record<TagColor, string> = {
  gray: "bg-gray-100 text-gray-800 ring-gray-300 dark:bg-white/10 dark:text-gray-200 dark:ring-white/20",
  brand: "bg-brand-50 text-brand-800 ring-brand-200 dark:bg-brand-400/15 dark:text-brand-200 dark:ring-brand-400/30",
  green: "bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-400/15 dark:text-emerald-200 dark:ring-emerald-400/30",
  amber: "bg-amber-50 text-amber-900 ring-amber-200 dark:bg-amber-400/15 dark:text-amber-200 dark:ring-amber-400/30",
  red: "bg-red-50 text-red-800 ring-red-200 dark:bg-red-400/15 dark:text-red-200 dark:ring-red-400/30",
};

export interface TagItem {
  label: string;
  color?: TagColor;
  /** A site path: the tag is a link. */
  to?: string;
}

export function Tag({ label, color = "gray", to }: TagItem) {
  const classes = `inline-flex items-center rounded-full px-2.5 py-1 text-xs font-medium ring-1 ring-inset ${COLORS[color]}`;
  return to ? (
    <a href={to} className={`${classes} hover:underline`}>
      {label}
    </a>
  ) : (
    <span className={classes}>{label}</span>
  );
}

export function TagList({ tags, label }: { tags: TagItem[]; label?: string }) {
  return (
    <ul aria-label={label} className="flex flex-wrap gap-2">
      {tags.map((tag) => (
        <li key={tag.label}>
          <Tag {...tag} />
        </li>
      ))}
    </ul>
  );
}
