// The site's own client entry (hydrateRoot in a transition, StrictMode).
import "../../../ssr/app/entry.client";
