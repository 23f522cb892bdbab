// The one button: a link (to / url) or a <button>, in three styles and three
// sizes, with disabled and busy states. Every call to action uses it.
import { SiteLink } from "./site-link";

export type ButtonVariant = "primary" | "secondary" | "ghost";
export type ButtonSize = "sm" | "md" | "lg";

const BASE =
  "inline-flex items-center justify-center gap-2 rounded-full font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:cursor-not-allowed disabled:opacity-60 aria-busy:cursor-wait";
const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-brand-600 text-white shadow-sm shadow-brand-600/30 hover:bg-brand-700 dark:bg-brand-500 dark:hover:bg-brand-600",
  secondary: "bg-white text-gray-900 ring-1 ring-gray-300 hover:ring-gray-400 dark:bg-white/5 dark:text-white dark:ring-white/20 dark:hover:ring-white/40",
  ghost: "text-brand-700 hover:bg-brand-50 dark:text-brand-300 dark:hover:bg-white/10",
};
const SIZES: Record<ButtonSize, string> = {
  sm: "px-3.5 py-1.5 text-sm",
  md: "px-5 py-2.5 text-sm",
  lg: "px-6 py-3 text-base",
};

export interface ButtonProps {
  label: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** A site path: the button is a link. */
  to?: string;
  /** An external URL: the button is a link. */
  url?: string;
  disabled?: boolean;
  /** Shows a spinner and `busyLabel`, and refuses clicks. */
  busy?: boolean;
  busyLabel?: string;
  type?: "button" | "submit";
  onClick?: () => void;
  className?: string;
}

export function buttonClass(variant: ButtonVariant = "primary", size: ButtonSize = "lg") {
  return `${BASE} ${VARIANTS[variant]} ${SIZES[size]}`;
}

export function Button({ label, variant = "primary", size = "lg", to, url, disabled, busy, busyLabel, type = "button", onClick, className = "" }: ButtonProps) {
  const classes = `${buttonClass(variant, size)} ${className}`;
  if (to || url) {
    return (
      <SiteLink to={to} url={url} className={classes}>
        {label}
      </SiteLink>
    );
  }
  return (
    <button type={type} disabled={disabled || busy} aria-busy={busy || undefined} onClick={onClick} className={classes}>
      {busy && <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-current/30 border-t-current" />}
      {busy ? (busyLabel ?? label) : label}
    </button>
  );
}
