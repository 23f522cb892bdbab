// Icons of the feature items (shared/content/features.json `icon`), drawn as
// 24×24 strokes so they take the text colour. An unknown name gets a dot.
const PATHS: Record<string, string> = {
  truck: "M3 6h11v10H3zM14 10h4l3 3v3h-7M7.5 18.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zM17.5 18.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3z",
  "layout-dashboard": "M4 4h7v9H4zM13 4h7v5h-7zM13 11h7v9h-7zM4 15h7v5H4z",
  "package-check": "M12 3 4 7v10l8 4 8-4V7zM4 7l8 4 8-4M12 11v10M9 14.5l2 2 4-4",
  "ticket-percent": "M3 8a2 2 0 0 0 0 4v0a2 2 0 0 1 0 4v2h18v-2a2 2 0 0 1 0-4 2 2 0 0 1 0-4V6H3zM9 15l6-6M9.5 9.5h.01M14.5 14.5h.01",
  "file-text": "M6 3h8l4 4v14H6zM14 3v4h4M9 12h6M9 16h6M9 8h2",
  "bar-chart": "M4 20V10M10 20V4M16 20v-7M22 20H2",
  sparkles: "M12 3l1.8 5.2L19 10l-5.2 1.8L12 17l-1.8-5.2L5 10l5.2-1.8zM19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8zM5 3l.6 1.4L7 5l-1.4.6L5 7l-.6-1.4L3 5l1.4-.6z",
  megaphone: "M3 10v4h4l8 5V5L7 10zM18 9a4 4 0 0 1 0 6M7 14l1.5 6h3L10 14",
  activity: "M3 12h4l3-8 4 16 3-8h4",
};

export function FeatureIcon({ name, className = "size-6" }: { name: string; className?: string }) {
  const d = PATHS[name];
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
      {d ? <path d={d} /> : <circle cx="12" cy="12" r="3" />}
    </svg>
  );
}

export const FEATURE_ICON_NAMES = Object.keys(PATHS);

/** Every icon with its name: the catalogue's icon sheet. */
export function FeatureIconSheet({ names = FEATURE_ICON_NAMES }: { names?: string[] }) {
  return (
    <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5">
      {names.map((name) => (
        <li key={name} className="flex flex-col items-center gap-2 rounded-xl p-4 text-center ring-1 ring-gray-200 dark:ring-white/10">
          <FeatureIcon name={name} className="size-8 text-brand-700 dark:text-brand-300" />
          <code className="text-xs text-gray-700 dark:text-gray-300">{name}</code>
        </li>
      ))}
    </ul>
  );
}
