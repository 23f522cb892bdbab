// The footer is below the fold on every page: its code (and the site-wide
// copy it shows) loads when it comes near the viewport or the visitor first
// interacts, not with the page (lib/island.tsx). The server renders it whole.
import { island } from "~/lib/island";

export const Footer = island<{ showCta?: boolean }>(() => import("./footer"), "Footer");
