// Figures with their labels (counters): the success story and company pages.
export interface Stat {
  value: string;
  label: string;
}

export function Stats({ stats, tone = "plain" }: { stats: Stat[]; tone?: "plain" | "card" }) {
  return (
    <dl className={`grid gap-6 ${stats.length >= 4 ? "sm:grid-cols-2 lg:grid-cols-4" : "sm:grid-cols-3"}`}>
      {stats.map((stat) => (
        <div
          key={stat.label}
          className={`flex flex-col-reverse gap-1 ${tone === "card" ? "rounded-2xl bg-gray-50 p-6 ring-1 ring-gray-200 dark:bg-white/5 dark:ring-white/10" : ""}`}
        >
          <dt className="text-sm text-gray-600 dark:text-gray-400">{stat.label}</dt>
          <dd className="text-3xl font-bold tracking-tight text-gray-900 tabular-nums dark:text-white">{stat.value}</dd>
        </div>
      ))}
    </dl>
  );
}
