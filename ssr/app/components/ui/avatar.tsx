// A person's picture, or their initials on a brand tint when there is none.
import { Image } from "./image";

export type AvatarSize = "sm" | "md" | "lg";
const SIZES: Record<AvatarSize, { box: string; px: number; text: string }> = {
  sm: { box: "size-8", px: 32, text: "text-xs" },
  md: { box: "size-12", px: 48, text: "text-sm" },
  lg: { box: "size-16", px: 64, text: "text-lg" },
};

export interface AvatarProps {
  name: string;
  /** A picture; without it the initials show. */
  image?: string;
  size?: AvatarSize;
}

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? parts[parts.length - 1][0] : "")).toUpperCase();
}

export function Avatar({ name, image, size = "md" }: AvatarProps) {
  const s = SIZES[size];
  if (image) {
    return <Image src={image} alt={name} width={s.px} height={s.px} className={`${s.box} flex-none rounded-full object-cover ring-2 ring-white dark:ring-gray-900`} />;
  }
  return (
    <span
      role="img"
      aria-label={name}
      className={`${s.box} ${s.text} grid flex-none place-items-center rounded-full bg-brand-100 font-semibold text-brand-800 ring-2 ring-white dark:bg-brand-400/20 dark:text-brand-200 dark:ring-gray-900`}
    >
      {initials(name)}
    </span>
  );
}

/** Overlapping avatars with an optional "+N" for the people not shown. */
export function AvatarGroup({ people, max = 4, size = "md" }: { people: { name: string; image?: string }[]; max?: number; size?: AvatarSize }) {
  const shown = people.slice(0, max);
  const rest = people.length - shown.length;
  return (
    <ul className="flex -space-x-3">
      {shown.map((p) => (
        <li key={p.name}>
          <Avatar name={p.name} image={p.image} size={size} />
        </li>
      ))}
      {rest > 0 && (
        <li className={`${SIZES[size].box} ${SIZES[size].text} grid place-items-center rounded-full bg-gray-200 font-semibold text-gray-800 ring-2 ring-white dark:bg-gray-800 dark:text-gray-100 dark:ring-gray-900`}>
          +{rest}
        </li>
      )}
    </ul>
  );
}
