import { useLocation } from "react-router";
import navigation from "@omnibus/shared/content/navigation.json";
import type { ThemePreference } from "~/lib/constants";
import { THEME_ENDPOINT, useTheme } from "~/lib/theme";

const OPTIONS: { value: ThemePreference; icon: React.ReactNode }[] = [
  {
    value: "system",
    icon: <path d="M3 5h18v11H3zM8 20h8M12 16v4" />,
  },
  {
    value: "light",
    icon: (
      <>
        <circle cx="12" cy="12" r="4" />
        <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
      </>
    ),
  },
  {
    value: "dark",
    icon: <path d="M20 14.5A8 8 0 1 1 9.5 4a6.5 6.5 0 0 0 10.5 10.5z" />,
  },
];

/**
 * Three toggle buttons (System, Light, Dark); the pressed one is the stored
 * preference. Without JavaScript they submit a form to the edge, which sets
 * the theme cookie and sends the browser back to this page, rendered in that
 * theme (lib/theme.ts); with it, the document's theme script answers a click
 * at once (themeScript), before and after React hydrates: nothing here
 * handles it, so the switcher can be static markup.
 */
export function ThemeSwitcher({ className = "" }: { className?: string }) {
  const { preference } = useTheme();
  const { pathname, search } = useLocation();
  const labels = navigation.theme;
  return (
    <form method="post" action={THEME_ENDPOINT} className={`flex ${className}`}>
      {/* Where the edge sends the browser back to after a post without JavaScript: this page. */}
      <input type="hidden" name="back" value={pathname + search} />
      <div
        role="group"
        aria-label={labels.label}
        className="inline-flex items-center gap-0.5 rounded-full border border-current/20 p-0.5"
      >
        {OPTIONS.map(({ value, icon }) => (
          <button
            key={value}
            type="submit"
            name="theme"
            value={value}
            aria-pressed={preference === value}
            title={labels[value]}
            className="grid size-8 place-items-center rounded-full opacity-70 transition hover:opacity-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 aria-pressed:bg-current/15 aria-pressed:opacity-100"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="size-4"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
            >
              {icon}
            </svg>
            <span className="sr-only">{labels[value]}</span>
          </button>
        ))}
      </div>
    </form>
  );
}
