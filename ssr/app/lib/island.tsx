// Lazy hydration of below-the-fold parts of a page ("islands"), so their code
// is not part of the first load. The server renders an island like
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
//
// A history step (back, forward, a #fragment) before that first interaction
// is an urgent update of React Router's location: React cannot wait for a
// waiting island's code then, so it drops the island's server HTML and shows
// its Suspense fallback. The fallback is therefore a copy of that HTML, kept
// as the island hydrated: the page looks the same, a #fragment inside an
// island is still there to scroll to, and the island's own render replaces
// the copy once its code is in.
import { lazy, Suspense, useEffect, useRef, type ComponentType, type RefObject } from "react";
import { afterFirstInteraction } from "./near-images";
import { StaticMarkup } from "./static-markup";

let hydrated = false;
const pending = new Set<() => void>();

/** Resolves every island still waiting (the visitor is about to use the page). */
function releaseAll() {
  hydrated = true;
  for (const release of pending) release();
  pending.clear();
}

// The first interaction: a click, a key, a touch (lib/near-images.ts, the one rule).
if (typeof window !== "undefined") afterFirstInteraction(releaseAll);

/**
 * On the server, the module's export once loaded (the server loads every
 * island's module as it starts): rendered directly, an island does not
 * suspend, so the document carries it in place instead of a placeholder, a
 * hidden copy and a script that swaps them. Undefined in the browser, and on
 * the server until the module is in (the first render after a start suspends
 * as before).
 */
function serverComponent<P>(load: () => Promise<Record<string, unknown>>, name: string): () => ComponentType<P> | undefined {
  let component: ComponentType<P> | undefined;
  if (typeof window === "undefined") void load().then((m) => (component = m[name] as ComponentType<P>));
  return () => component;
}

/**
 * island(() => import("./footer"), "Footer") is a component rendering the
 * module's export `name` as an island; a wrapping <div data-island> (rendered
 * on both sides, so it matches) is what the browser watches for visibility,
 * and what theme.css leaves undrawn until it nears the viewport. One that is
 * `drawn` with the page is marked data-island-part instead, and loads as the
 * island around it nears (or as it nears itself, if none): an island inside
 * another, whose box keeps it undrawn already, or one holding form fields,
 * which Chromium draws wherever they are, and with them every undrawn box
 * around them (the footer's newsletter box).
 */
export function island<P extends object>(
  load: () => Promise<Record<string, unknown>>,
  name: string,
  className?: string,
  { drawn = false }: { drawn?: boolean } = {},
): ComponentType<P> {
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
  const loaded = serverComponent<P>(load, name);

  function Island(props: P) {
    const Component = loaded() ?? Lazy;
    const wrapper = useRef<HTMLDivElement>(null);
    const serverHtml = useRef<string | undefined>(undefined);
    // Once, after hydration (an effect, not a ref callback: React calls an
    // inline ref's cleanup on every re-render, which stopped the watching
    // when a history step re-rendered the page).
    useEffect(() => {
      const el = wrapper.current;
      if (!el || ready) return;
      serverHtml.current = el.innerHTML;
      if (typeof IntersectionObserver === "undefined") return;
      const io = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) {
            io.disconnect();
            release!();
          }
        },
        { rootMargin: "200px" },
      );
      // A part drawn with the page loads as the island around it nears, if there is one.
      io.observe((drawn && el.parentElement?.closest("[data-island]")) || el);
      return () => io.disconnect();
    }, []);
    return (
      <div {...{ [drawn ? "data-island-part" : "data-island"]: name }} className={className} ref={wrapper}>
        <Suspense fallback={<ServerCopy html={serverHtml} />}>
          <Component {...props} />
        </Suspense>
      </div>
    );
  }
  Island.displayName = `Island(${name})`;
  return Island;
}

/**
 * The island's server HTML as it was when the page hydrated (nothing on the
 * server, nor for an island first rendered in the browser). It reads the ref
 * when React shows the fallback, not when the island rendered: the island's
 * own render was during hydration, before the copy was taken.
 */
function ServerCopy({ html }: { html: RefObject<string | undefined> }) {
  return html.current ? <div style={{ display: "contents" }} dangerouslySetInnerHTML={{ __html: html.current }} /> : null;
}

/**
 * staticPart(() => import("./footer"), "FooterLinks") is a component whose
 * server markup the browser keeps as it is, without its code
 * (lib/static-markup.tsx): hydration neither walks it nor loads the module.
 * Rendered in the browser (a client navigation), it loads the module and
 * renders the export `name`, showing nothing until it is in. `island` marks
 * it data-island, drawn only as it nears the viewport (theme.css).
 */
export function staticPart<P extends object>(load: () => Promise<Record<string, unknown>>, name: string, { island = false }: { island?: boolean } = {}): ComponentType<P> {
  const Lazy = lazy(async () => ({ default: (await load())[name] as ComponentType<P> }));
  const loaded = serverComponent<P>(load, name);
  function StaticPart(props: P) {
    const Component = loaded();
    return (
      <StaticMarkup {...(island ? { "data-island": name } : { "data-part": name })}>
        {/* The browser renders these children only after hydration (a client render). */}
        {Component ? (
          <Component {...props} />
        ) : (
          <Suspense fallback={null}>
            <Lazy {...props} />
          </Suspense>
        )}
      </StaticMarkup>
    );
  }
  StaticPart.displayName = `StaticPart(${name})`;
  return StaticPart;
}
