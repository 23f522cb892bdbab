import type { MouseEvent } from "react";
import { useNavigate } from "react-router";

// Typography for HTML rendered from Markdown (no plugin: literal classes, so Tailwind generates them).
const PROSE = [
  "max-w-none text-lg leading-8 text-gray-700 dark:text-gray-300",
  "[&_h2]:mt-12 [&_h2]:scroll-mt-24 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:tracking-tight [&_h2]:text-gray-900 dark:[&_h2]:text-white",
  "[&_h3]:mt-8 [&_h3]:scroll-mt-24 [&_h3]:text-xl [&_h3]:font-semibold [&_h3]:text-gray-900 dark:[&_h3]:text-white",
  "[&_p]:mt-5 [&_ul]:mt-5 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:mt-5 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:mt-2",
  "[&_a]:font-medium [&_a]:text-brand-600 [&_a]:underline [&_a]:underline-offset-2 dark:[&_a]:text-brand-400",
  "[&_strong]:font-semibold [&_strong]:text-gray-900 dark:[&_strong]:text-white",
  "[&_code]:rounded [&_code]:bg-gray-100 [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:text-base dark:[&_code]:bg-white/10",
  "[&_.table-scroll]:mt-6 [&_.table-scroll]:overflow-x-auto [&_table]:w-full [&_table]:min-w-xl [&_table]:text-left [&_table]:text-sm sm:[&_table]:text-base [&_th]:border-b [&_th]:border-gray-300 [&_th]:py-2 [&_th]:pr-4 dark:[&_th]:border-white/20",
  // Images of the studio's uploads: a <picture> with width and height (no shift), as wide as the column.
  "[&_picture]:mt-6 [&_picture]:block [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-lg",
  "[&_td]:border-b [&_td]:border-gray-200 [&_td]:py-2 [&_td]:pr-4 [&_td]:align-top dark:[&_td]:border-white/10",
].join(" ");

/**
 * HTML rendered on the server from our own Markdown. Links to the site's own
 * pages navigate client-side like every other link once scripts have loaded.
 */
export function Prose({ html, className = "" }: { html: string; className?: string }) {
  const navigate = useNavigate();
  function onClick(event: MouseEvent<HTMLDivElement>) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element).closest?.("a");
    const href = anchor?.getAttribute("href");
    if (!anchor || !href || anchor.target || !href.startsWith("/") || href.startsWith("//")) return;
    event.preventDefault();
    navigate(href);
  }
  return (
    // The click handler only upgrades ordinary links (keyboard activation of a
    // link is a click too); every link works without it.
    <div className={`${PROSE} ${className}`} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
