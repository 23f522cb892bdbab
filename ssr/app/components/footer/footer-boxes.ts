// The footer's boxes around its parts: the catalogue's whole footer
// (footer.tsx) and the layouts' (footer-island.tsx) render the same elements.
// Their own module, so the layouts' first load carries these strings and not
// the footer's chunk.
export const FOOTER_CLASS = "border-t border-gray-200 bg-gray-50 text-gray-600 dark:border-white/10 dark:bg-gray-900/40 dark:text-gray-300";
export const FOOTER_BODY_CLASS = "mx-auto max-w-7xl px-4 pt-14 pb-10 sm:px-6";
export const FOOTER_TOP_CLASS = "grid grid-cols-1 gap-10 lg:grid-cols-[1fr_1.1fr] lg:gap-16";
