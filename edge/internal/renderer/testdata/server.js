// A stand-in for ssr/server.js: listens where the supervisor says and
// reports the environment and arguments it was started with.
import http from "node:http";

const server = http.createServer((req, res) => {
  res.setHeader("Content-Type", "application/json");
  res.end(JSON.stringify({
    pid: process.pid,
    args: process.argv.slice(2),
    env: process.env,
  }));
});
server.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
