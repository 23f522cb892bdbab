// Grey placeholder cards while content streams in (aria-busy, labelled).
export function CardSkeleton({ count = 6, label }: { count?: number; label: string }) {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true" aria-label={label}>
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className="animate-pulse rounded-2xl border border-gray-200 p-6 dark:border-gray-800">
          <span className="block size-11 rounded-xl bg-gray-200 dark:bg-gray-800" />
          <span className="mt-5 block h-5 w-2/3 rounded bg-gray-200 dark:bg-gray-800" />
          <span className="mt-3 block h-4 w-full rounded bg-gray-100 dark:bg-gray-900" />
          <span className="mt-2 block h-4 w-5/6 rounded bg-gray-100 dark:bg-gray-900" />
        </li>
      ))}
    </ul>
  );
}
