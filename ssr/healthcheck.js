// The renderer image's health probe (Docker HEALTHCHECK, compose, the
// Kubernetes startup and liveness probes): GET /__renderer/health on
// loopback at PORT, exit 0 on a 200, 1 otherwise (within 3 s).
//
//   node healthcheck.js
const port = Number(process.env.PORT ?? 3001);
try {
  const res = await fetch(`http://127.0.0.1:${port}/__renderer/health`, { signal: AbortSignal.timeout(3000) });
  if (!res.ok) throw new Error(`status ${res.status}`);
  process.exit(0);
} catch (err) {
  console.error(`renderer healthcheck: unhealthy: ${err.message}`);
  process.exit(1);
}
