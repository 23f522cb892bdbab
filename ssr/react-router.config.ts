import type { Config } from "@react-router/dev/config";

export default {
  // Server-side rendering on: every page's text is in the HTML before any script runs.
  ssr: true,
  appDirectory: "app",
  buildDirectory: "build",
} satisfies Config;
