/** The eyebrow, title and lead of a landing-page section; the title labels the section (titleId). */
export function SectionHeading({
  titleId,
  eyebrow,
  title,
  text,
  centered = false,
  onDark = false,
}: {
  titleId: string;
  eyebrow: string;
  title: string;
  text?: string;
  centered?: boolean;
  /** On the always-dark AI section: lighter eyebrow and lead. */
  onDark?: boolean;
}) {
  return (
    <div className={centered ? "mx-auto max-w-3xl text-center" : "max-w-3xl"}>
      <p className={`text-sm font-semibold tracking-wide uppercase ${onDark ? "text-accent-400" : "text-brand-700 dark:text-brand-300"}`}>{eyebrow}</p>
      <h2 id={titleId} className={`mt-3 text-3xl font-bold tracking-tight text-balance sm:text-5xl ${onDark ? "" : "text-gray-950 dark:text-white"}`}>
        {title}
      </h2>
      {text && <p className={`mt-6 text-lg leading-8 ${onDark ? "text-gray-300" : "text-gray-600 dark:text-gray-300"}`}>{text}</p>}
    </div>
  );
}
