// The demo pages (block.tsx, advanced.tsx, blog-demo.tsx) show the
// catalogue's components, which only the full stylesheet draws: deferred
// after the first paint as on other pages, it restyled them as it arrived
// (layout shifts of 0.02-0.16 on a phone, issue 31.6). Here it is linked in
// <head> and the first paint waits for it (one cached 11 KB file); the
// catalogue's index keeps the deferred one (app/critical.css covers it).
import stylesheet from "~/app.css?url";

export const demoLinks = () => [{ rel: "stylesheet", href: stylesheet }];
