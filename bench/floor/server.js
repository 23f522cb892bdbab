// The floor's renderer: ssr/server.js's production path for this build, on the
// port the edge gives it (PORT), with the health check the edge waits for.
import { createRequestHandler } from "@react-router/express";
import express from "express";

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", "loopback");
app.get("/__renderer/health", (_req, res) => res.set("Cache-Control", "no-store").json({ status: "ok" }));
app.use(createRequestHandler({ build: await import("./build/server/index.js"), mode: "production" }));
const server = app.listen(Number(process.env.PORT ?? 3001), "127.0.0.1");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
