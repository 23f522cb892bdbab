// Customer logos (SPEC §3 logo item; §9: at most 8 by default, the hero shows 5).
import { Image } from "~/components/ui/image";
import type { LogoItem } from "./types";

export const LOGO_STRIP_DEFAULT_LIMIT = 8;

export interface LogoStripProps {
  logos: readonly LogoItem[];
  /** Intrinsic size of every logo file. */
  width: number;
  height: number;
  limit?: number;
  title?: string;
  className?: string;
}

export function LogoStrip({ logos, width, height, limit = LOGO_STRIP_DEFAULT_LIMIT, title, className = "" }: LogoStripProps) {
  return (
    <div className={className}>
      {title && <p className="text-center text-sm font-semibold text-gray-600 dark:text-gray-300">{title}</p>}
      <ul data-logo-strip className="mt-6 flex flex-wrap items-center justify-center gap-x-8 gap-y-6 sm:gap-x-12">
        {logos.slice(0, limit).map((logo) => (
          <li key={logo.id}>
            <Image
              src={logo.logo}
              alt={logo.name}
              width={width}
              height={height}
              // One ink colour in the files: inverted to light ink in the dark theme.
              className="h-9 w-auto opacity-75 transition hover:opacity-100 sm:h-10 dark:invert"
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
