import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// The same client target as ssr/vite.config.ts; no Tailwind, no PWA, no site code.
export default defineConfig({ plugins: [reactRouter()], build: { target: "es2022" } });
