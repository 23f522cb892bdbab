// Lazy hydration of below-the-fold parts of a page ("islands"), so their code
// is not part of the first load (issue 14). The server renders an island like
// any component (its HTML is in the document, and works without JavaScript:
// links are links, forms post). In the browser React hydrates everything
// else at once and keeps the island's server HTML as it is until its code is
// loaded, which starts when the island comes near the viewport or the visitor
// first interacts with the page (a click, a key, a touch), whichever is first;
// it then hydrates without a mismatch. An island first rendered after that
// interaction (a client-side navigation) loads its code at once. (React
// hydrates a Suspense boundary after the first commit, so "hydrated" cannot be
// told from a commit: the first interaction marks it.) The browser, too,
// leaves an island undrawn until it nears the viewport (content-visibility in
// theme.css).
import { lazy, Suspense, useRef, type ComponentType } from "react";

let hydrated = false;
const pending = new Set<() => void>();

/** Resolves every island still waiting (the visitor is about to use the page). */
function releaseAll() {
  hydrated = true;
  for (const release of pending) release();
  pending.clear();
}

if (typeof window !== "undefined") {
  for (const type of ["pointerdown", "keydown", "touchstart"]) {
    window.addEventListener(type, releaseAll, { once: true, passive: true, capture: true });
  }
}

/**
 * island(() => import("./footer"), "Footer") is a component rendering the
 * module's export `name` as an island; a wrapping <div data-island> (rendered
 * on both sides, so it matches) is what the browser watches for visibility.
 */
export function island<P extends object>(load: () => Promise<Record<string, unknown>>, name: string, className?: string): ComponentType<P> {
  let release: (() => void) | undefined;
  let ready = false;
  const visible = new Promise<void>((resolve) => {
    release = () => {
      ready = true;
      resolve();
    };
  });
  const Lazy = lazy(async () => {
    // Server render, or rendered after hydration: no reason to wait.
    if (typeof window === "undefined" || hydrated) release!();
    else pending.add(release!);
    await visible;
    return { default: (await load())[name] as ComponentType<P> };
  });

  function Island(props: P) {
    const observed = useRef(false);
    return (
      <div
        data-island={name}
        className={className}
        ref={(el) => {
          if (!el || observed.current || ready || typeof IntersectionObserver === "undefined") return;
          observed.current = true;
          const io = new IntersectionObserver(
            (entries) => {
              if (entries.some((entry) => entry.isIntersecting)) {
                io.disconnect();
                release!();
              }
            },
            { rootMargin: "200px" },
          );
          io.observe(el);
          return () => io.disconnect();
        }}
      >
        <Suspense fallback={null}>
          <Lazy {...props} />
        </Suspense>
      </div>
    );
  }
  Island.displayName = `Island(${name})`;
  return Island;
}
