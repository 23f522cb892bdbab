import type { LandingContent } from "./types";
import { SectionHeading } from "./section-heading";

/** AI-written copy and goal-based advertising automation (SPEC §1). */
export function AiSection({ ai }: { ai: LandingContent["ai"] }) {
  return (
    <section id={ai.id} aria-labelledby="ai-title" className="relative isolate overflow-hidden bg-gray-950 py-20 text-white sm:py-28">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(50rem_30rem_at_15%_0%,rgba(116,71,250,0.45),transparent),radial-gradient(40rem_25rem_at_100%_100%,rgba(20,184,166,0.25),transparent)]"
      />
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <SectionHeading titleId="ai-title" eyebrow={ai.eyebrow} title={ai.title} text={ai.text} onDark />

        <div className="mt-14 grid grid-cols-1 gap-8 lg:grid-cols-2">
          <div className="rounded-3xl bg-white/5 p-6 ring-1 ring-white/10 sm:p-8">
            <h3 className="text-xl font-semibold">{ai.writing.title}</h3>
            <dl className="mt-6 space-y-5">
              {ai.writing.items.map((item) => (
                <div key={item.title}>
                  <dt className="font-semibold text-brand-200">{item.title}</dt>
                  <dd className="mt-1 text-sm leading-6 text-gray-300">{item.text}</dd>
                </div>
              ))}
            </dl>
            {/* A sample of what the writer produces. */}
            <figure className="mt-8 rounded-2xl bg-gray-900 p-5 ring-1 ring-white/10">
              <figcaption className="flex items-center justify-between gap-4 text-xs">
                <span className="inline-flex flex-none items-center gap-1.5 rounded-full bg-brand-500/20 px-2.5 py-1 font-semibold whitespace-nowrap text-brand-200">
                  <span aria-hidden="true">✦</span> {ai.sample.label}
                </span>
                <span className="min-w-0 truncate text-gray-400">{ai.sample.product}</span>
              </figcaption>
              <blockquote className="mt-4 text-sm leading-6 text-gray-200">{ai.sample.text}</blockquote>
            </figure>
          </div>

          <div className="rounded-3xl bg-white/5 p-6 ring-1 ring-white/10 sm:p-8">
            <h3 className="text-xl font-semibold">{ai.ads.title}</h3>
            <p className="mt-2 text-sm leading-6 text-gray-300">{ai.ads.text}</p>
            <ol className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2">
              {ai.ads.items.map((item, i) => (
                <li key={item.title} className="rounded-2xl bg-gray-900 p-5 ring-1 ring-white/10">
                  <span aria-hidden="true" className="font-mono text-xs text-accent-400">
                    {String(i + 1).padStart(2, "0")}
                  </span>
                  <p className="mt-2 font-semibold">{item.title}</p>
                  <p className="mt-1 text-sm leading-6 text-gray-300">{item.text}</p>
                </li>
              ))}
            </ol>
          </div>
        </div>
      </div>
    </section>
  );
}
