import { Link } from "react-router";

/** "← Back to …" above an article or a list, to the page one level up. */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <p className="text-sm">
      <Link to={to} className="font-semibold text-brand-600 hover:underline dark:text-brand-400">
        <span aria-hidden="true">← </span>
        {label}
      </Link>
    </p>
  );
}
