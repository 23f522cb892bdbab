// A stand-in for ssr/server.js: listens where the supervisor says and
// reports the environment and arguments it was started with.
import http from "node:http";

// Like ssr/server.js on SIGTERM: every answer from then on ends its
// keep-alive connection, so a request in flight at the signal does not keep
// the process alive for Node's keep-alive timeout after server.close().
let closing = false;
const server = http.createServer((req, res) => {
  if (closing) res.setHeader("Connection", "close");
  res.setHeader("Content-Type", "application/json");
  res.end(JSON.stringify({
    pid: process.pid,
    args: process.argv.slice(2),
    env: process.env,
  }));
});
server.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1");
process.on("SIGTERM", () => {
  closing = true;
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});
