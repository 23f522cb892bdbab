#!/usr/bin/env bash
# bench/restart.sh: throughput and latency of the edge's cache hit on `/`
# while the edge restarts by socket takeover (SIGHUP: a successor inherits
# the listening socket, decision 0056), against the same load with no
# restart. wrk keeps its connections alive throughout; any socket error or
# answer other than 2xx/3xx is a dropped request and is printed in the row.
# Prints two rows of bench/RESULTS.md's table, then one line of errors;
# make bench (bench/run.sh) appends them to RESULTS.md.
#
# Knobs: BENCH_RESTART_DURATION (default 12s; the SIGHUP comes after a
# third of it), BENCH_CONNECTIONS (default 32), BENCH_THREADS (default 2).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
EDGE_BIN=$ROOT/edge/bin/edge
SSR_DIR=${SSR_DIR:-$ROOT/ssr}
DURATION=${BENCH_RESTART_DURATION:-12s}
CONNS=${BENCH_CONNECTIONS:-32}
THREADS=${BENCH_THREADS:-2}
die() { echo "bench/restart.sh: $*" >&2; exit 1; }
command -v wrk >/dev/null || die "needs wrk (apt-get install wrk)"
[ -x "$EDGE_BIN" ] || die "no edge binary at $EDGE_BIN (run make build)"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=$(free_port); RPORT=$(free_port)
TMP=$(mktemp -d /tmp/omnibus-restart.XXXXXX)
cleanup() {
  local pid
  pid=$(cat "$TMP/edge.pid" 2>/dev/null || true)
  for p in ${EDGE_PID:-} $pid; do kill -TERM "$p" 2>/dev/null || true; done
  for p in ${EDGE_PID:-} $pid; do
    for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$p" 2>/dev/null || true
  done
  rm -rf "$TMP"
}
trap cleanup EXIT

OMNIBUS_ENV=development LISTEN_ADDR=127.0.0.1:$PORT RENDERER_PORT=$RPORT DATA_DIR=$TMP/data \
  SSR_DIR=$SSR_DIR PUBLIC_URL=http://127.0.0.1:$PORT METRICS_ADDR= PID_FILE=$TMP/edge.pid LOG_LEVEL=warn \
  "$EDGE_BIN" >"$TMP/edge.log" 2>&1 &
EDGE_PID=$!
ready() { [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/readyz")" = 200 ]; }
for i in $(seq 600); do
  ready && [ -s "$TMP/edge.pid" ] && break
  [ "$i" = 600 ] && { tail -20 "$TMP/edge.log" >&2; die "the edge was not ready in 60s"; }
  sleep 0.1
done
URL=http://127.0.0.1:$PORT/
curl -s -o /dev/null -H 'Accept-Encoding: br' "$URL"; curl -s -o /dev/null -H 'Accept-Encoding: br' "$URL"

ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n *= 1; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'; }
measure() { # measure NAME: one wrk run; prints "rps p50 p99 errors"
  local out
  out=$(wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --timeout 10s --latency -H 'Accept-Encoding: br' "$URL")
  echo "$out" >"$TMP/wrk-$1.txt"
  printf '%s %s %s %s\n' "$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' <<<"$out")" \
    "$(ms "$(awk '$1 == "50%" { print $2 }' <<<"$out")")" "$(ms "$(awk '$1 == "99%" { print $2 }' <<<"$out")")" \
    "$(grep -E 'Non-2xx|Socket errors' <<<"$out" | tr -s ' ' | paste -sd';' - || true)"
}
read -r B_RPS B_P50 B_P99 B_ERR < <(measure steady)
OLD=$(cat "$TMP/edge.pid")
secs=${DURATION%s}
( sleep $((secs / 3)); kill -HUP "$OLD" ) &
read -r T_RPS T_P50 T_P99 T_ERR < <(measure takeover)
wait
NEW=$(cat "$TMP/edge.pid")
[ "$NEW" != "$OLD" ] || die "no successor took over (see $TMP/edge.log)"
printf '| %-44s | %10s | %8s | %8s |\n' "(m0) edge, cache hit, no restart" "$B_RPS" "$B_P50" "$B_P99"
printf '| %-44s | %10s | %8s | %8s |\n' "(m) edge, cache hit, socket-takeover restart" "$T_RPS" "$T_P50" "$T_P99"
echo "Row (m): the edge hands its socket to a successor (SIGHUP) a third into the run; dropped requests: ${T_ERR:-none} (row m0: ${B_ERR:-none})."
