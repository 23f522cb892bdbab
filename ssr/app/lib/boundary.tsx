// A part of the page that hydrates on its own (docs/decisions/0054-hydrate-only-what-moves.md).
//
// React hydrates a page's Suspense boundaries after the rest, each in a pass
// of its own at a low priority, and gives the browser back its thread
// between them; a click or key on a part still waiting hydrates that part
// first and then replays the event. So the interactive parts of a page (the
// forms, the newsletter box) each sit in one: no single task hydrates them
// all, and the part the visitor touches answers first. (Not the navigation
// bar's theme buttons and menu: a tap should not wait even for that, decision
// 0063.) Nothing inside suspends when rendered in the browser, so the
// fallback is never shown; the server's markup stands until then.
import { Suspense, type ReactNode } from "react";

export function Boundary({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}
