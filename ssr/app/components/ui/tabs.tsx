// Tabs (WAI-ARIA tabs pattern): arrow keys, Home and End move between tabs,
// only the selected tab is in the tab order. Without JavaScript every panel
// shows one after another under its own heading, so nothing is hidden. When
// scripts start, the tabs keep the height the panels had (what follows does
// not move up: a layout shift of 0.07 on a phone).
import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { useHydrated } from "~/components/auth/form-parts";

export interface TabItem {
  label: string;
  text: string[];
}

export function Tabs({ tabs, label }: { tabs: TabItem[]; label: string }) {
  const base = useId();
  const hydrated = useHydrated();
  const [selected, setSelected] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const stack = useRef<HTMLDivElement>(null);
  const [reserved, setReserved] = useState<number>();
  // The server's markup (every panel) is on screen until the first effect: its height, read before the tabs replace it.
  useLayoutEffect(() => {
    if (stack.current) setReserved(stack.current.offsetHeight);
  }, []);

  function onKeyDown(event: KeyboardEvent) {
    const last = tabs.length - 1;
    const next = { ArrowRight: selected === last ? 0 : selected + 1, ArrowLeft: selected === 0 ? last : selected - 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    setSelected(next);
    buttons.current[next]?.focus();
  }

  if (!hydrated) {
    return (
      <div ref={stack} className="space-y-6">
        {tabs.map((tab) => (
          <section key={tab.label}>
            <h3 className="font-semibold text-gray-900 dark:text-white">{tab.label}</h3>
            {tab.text.map((p) => (
              <p key={p} className="mt-2 text-gray-600 dark:text-gray-400">
                {p}
              </p>
            ))}
          </section>
        ))}
      </div>
    );
  }
  return (
    <div style={reserved ? { minHeight: reserved } : undefined}>
      <div role="tablist" aria-label={label} onKeyDown={onKeyDown} className="flex gap-1 overflow-x-auto border-b border-gray-200 dark:border-white/10">
        {tabs.map((tab, i) => (
          <button
            key={tab.label}
            ref={(el) => {
              buttons.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${i}`}
            aria-selected={i === selected}
            aria-controls={`${base}-panel-${i}`}
            tabIndex={i === selected ? 0 : -1}
            onClick={() => setSelected(i)}
            className="-mb-px border-b-2 border-transparent px-4 py-2.5 text-sm font-medium whitespace-nowrap text-gray-600 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-brand-500 aria-selected:border-brand-600 aria-selected:text-brand-700 dark:text-gray-400 dark:hover:text-white dark:aria-selected:border-brand-400 dark:aria-selected:text-brand-300"
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab, i) => (
        <div key={tab.label} role="tabpanel" id={`${base}-panel-${i}`} aria-labelledby={`${base}-tab-${i}`} hidden={i !== selected} tabIndex={0} className="pt-5 focus-visible:outline-2 focus-visible:outline-brand-500">
          {tab.text.map((p) => (
            <p key={p} className="mt-2 text-gray-600 first:mt-0 dark:text-gray-400">
              {p}
            </p>
          ))}
        </div>
      ))}
    </div>
  );
}
