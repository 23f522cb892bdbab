// The floor of `make lighthouse`: a bare React Router 7 page with the site's
// framework set-up (framework mode, SSR, the site's entry.server/entry.client),
// built on its own and served by the same edge binary. Not part of the site.
import type { Config } from "@react-router/dev/config";

export default { ssr: true, appDirectory: "app", buildDirectory: "build" } satisfies Config;
