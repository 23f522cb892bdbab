// The footer is below the fold on every page, and almost none of it moves.
// The layouts render it with its parts' server markup kept as it is, so a
// first visit neither hydrates them nor loads their code (staticPart,
// lib/island.tsx); the newsletter box, which moves, is an island of its own,
// hydrated as it nears the viewport or at the visitor's first interaction.
// Its code is the footer's chunk: a client navigation to a page with a footer
// loads it for every part.
//
// The link lists (half the footer's elements) are the box the browser leaves
// undrawn until it nears the viewport (data-island, theme.css). Not the whole
// footer: Chromium draws any undrawn box that holds a form field, wherever it
// is, in the first frame that meets it, so a footer box around the newsletter
// form was styled and laid out on every page load, 134 elements at
// DOMContentLoaded even at the end of a long page (docs/performance.md).
import { island, staticPart } from "~/lib/island";
import { FOOTER_BODY_CLASS, FOOTER_CLASS, FOOTER_TOP_CLASS } from "./footer-boxes";

const load = () => import("./footer");
const Cta = staticPart(load, "FooterCtaPart");
const About = staticPart(load, "FooterAbout");
const Links = staticPart<{ navLabel?: string }>(load, "FooterLinks", { island: true });
const Newsletter = island<{ id: string }>(load, "NewsletterBox", undefined, { drawn: true });

export function Footer({ showCta = true }: { showCta?: boolean }) {
  return (
    <footer className={FOOTER_CLASS}>
      {showCta && <Cta />}
      <div className={FOOTER_BODY_CLASS}>
        <div className={FOOTER_TOP_CLASS}>
          <About />
          <Newsletter id="newsletter" />
        </div>
        <Links />
      </div>
    </footer>
  );
}
