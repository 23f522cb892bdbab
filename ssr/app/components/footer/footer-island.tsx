// The footer is below the fold on every page, and almost none of it moves.
// The layouts render its box, drawn as it nears the viewport (data-island,
// theme.css); inside, the call to action, the contacts and the links keep the
// server's markup as it is, so a first visit neither hydrates them nor loads
// their code (staticPart, lib/island.tsx); the newsletter box, which moves,
// is an island of its own, hydrated as it nears the viewport or at the
// visitor's first interaction. Its code is the footer's chunk: a client
// navigation to a page with a footer loads it for every part.
import { island, staticPart } from "~/lib/island";
import { FOOTER_BODY_CLASS, FOOTER_CLASS, FOOTER_TOP_CLASS } from "./footer-boxes";

const load = () => import("./footer");
const Cta = staticPart(load, "FooterCtaPart");
const About = staticPart(load, "FooterAbout");
const Links = staticPart<{ navLabel?: string }>(load, "FooterLinks");
const Newsletter = island<{ id: string }>(load, "NewsletterBox", undefined, { nested: true });

export function Footer({ showCta = true }: { showCta?: boolean }) {
  return (
    <div data-island="Footer">
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
    </div>
  );
}
