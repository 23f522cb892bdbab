// A one-time message at the top of a page, announced to screen readers: what
// just happened on the way here (lib/notice.server.ts chooses the words).
export function Notice({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <div role="status" data-notice className="border-b border-emerald-200 bg-emerald-50 dark:border-emerald-900 dark:bg-emerald-950/40">
      <p className="mx-auto max-w-7xl px-4 py-3 text-sm font-medium text-emerald-900 sm:px-6 dark:text-emerald-100">{text}</p>
    </div>
  );
}
