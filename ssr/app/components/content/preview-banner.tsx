/**
 * The banner across a page opened through a share-preview link: the draft is
 * shown as it will look when published, and says it is not (the edge sends
 * the page with noindex and no-store).
 */
export function PreviewBanner({ preview, label, expiresLabel }: { preview?: { expiresAt: string }; label: string; expiresLabel: string }) {
  if (!preview) return null;
  const until = preview.expiresAt.slice(0, 16).replace("T", " ");
  return (
    <div role="status" className="border-b border-amber-300 bg-amber-100 px-4 py-3 text-center text-sm font-semibold text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      {label}
      <span className="ml-2 font-normal">
        {expiresLabel} {until} UTC
      </span>
    </div>
  );
}
