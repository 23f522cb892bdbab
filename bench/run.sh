#!/usr/bin/env bash
# make bench: the landing page / on loopback, measured with wrk:
#   (a) nginx serving the same answer from a file (the edge's cached brotli HTML
#       and the headers of its cache hit)
#   (b) the edge from its cache (warm, Accept-Encoding: br)
#   (c) the renderer alone (its own port, a browser User-Agent: streamed render)
#       rendering an order page under a new order number each time (bench/miss.lua)
#   (d) the edge on a forced miss: the same requests (bench/miss.lua)
#   (e) for reference, Go's bare net/http with the same answer (bench/gofloor)
#   (f) the edge from its cache while a second client sends made-up session
#       cookies and junk queries (bench/hostile.lua): both halves are hits
#   (g) the edge from its cache while a second client floods it for 30 s with
#       random paths, letter cases and parameter values (bench/flood.lua) at a
#       fixed rate (BENCH_FLOOD_RATE, default 1000/s); afterwards every route
#       warmed before it must still be a hit
#   (h) the edge from its cache while one client from 40 addresses holds
#       idle keep-alive, slowloris and slow-reading connections, more than
#       the edge has slots (bench/connflood.py), and fresh visitors' waits
#   (j) a signed-in visitor's / (session lookup, the sign-in status's cached copy)
#       against (k) the anonymous /login (never cached), alternating
#   (l) the cache hit of / with a flood of landings mixed in, every other
#       request under a new utm_campaign from a new Referer host
#       (bench/landings.lua), against (l0) the same on the same edge built
#       without visit counting (-tags analytics_nocount), alternating: what
#       counting costs a cache hit (at most 3%)
#   (s1-s4) site search: p50/p99 on today's content and on 10,000 articles,
#       and the cache hit of / during a flood of random queries (bench/search.sh)
#   (m0), (m) the cache hit of / without and during a socket-takeover restart
#       (bench/restart.sh)
# and, from the edge's Go benchmark, how soon a page is served again after
# each of 10 crashes of the active renderer child (the warm standby);
# then publishing's section (bench/publishing.sh, the edge's Go benchmarks
# on the local PostgreSQL): a publish and a scheduled publish until three
# edges serve them as hits, and the content pages at 10,000 articles.
# It prints requests/s, p50 and p99 for each, the ratios b/a, d/c and b/c,
# the edge's resident memory after the run, the page's weight and the
# first-load JavaScript of every page type, and writes
# the same table to bench/RESULTS.md. About two minutes in all.
#
# Knobs: BENCH_DURATION (per row, default 18s), BENCH_WARMUP (default 3s;
# both in whole seconds),
# BENCH_CONNECTIONS (rows a, b; default 32), BENCH_RENDER_CONNECTIONS (rows c,
# d; default 8), BENCH_THREADS (default 2), BENCH_PAIRS (runs of rows b and
# e, alternating; default 3).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
EDGE_BIN=$ROOT/edge/bin/edge
SSR_DIR=${SSR_DIR:-$ROOT/ssr}
DURATION=${BENCH_DURATION:-18s}
WARMUP=${BENCH_WARMUP:-3s}
CONNS=${BENCH_CONNECTIONS:-32}               # rows a and b (answers from memory or a file)
RENDER_CONNS=${BENCH_RENDER_CONNECTIONS:-8}  # rows c and d (every request is a render)
THREADS=${BENCH_THREADS:-2}
PAIRS=${BENCH_PAIRS:-3}                      # runs of rows b and e, alternating
CHROME_UA="Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"

say() { printf '\033[1m%s\033[0m\n' "$*" >&2; }
die() { echo "bench: $*" >&2; exit 1; }

# --- tools: Debian's wrk and nginx-light, installed when missing and root ----
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v curl >/dev/null || missing+=(curl)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    say "Installing ${missing[*]} from Debian's packages..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    die "needs ${missing[*]}: sudo apt-get install -y ${missing[*]}"
  fi
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$EDGE_BIN" ] || die "no edge binary at $EDGE_BIN (run make build)"
[ -f "$SSR_DIR/build/server/index.js" ] || die "no renderer build (run make build)"

# --- temporary ports, files and processes, all cleaned up on exit -----------
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null ||
  echo $((20000 + RANDOM % 20000)); }
EDGE_PORT=$(free_port); RENDERER_PORT=$(free_port); NGINX_PORT=$(free_port); FLOOR_PORT=$(free_port)
TMP=$(mktemp -d /tmp/omnibus-bench.XXXXXX)
EDGE_PID=""; NGINX_PID=""; FLOOR_PID=""; COUNT_PID=""; NOCOUNT_PID=""
cleanup() {
  local pid
  for pid in $FLOOR_PID $NGINX_PID $EDGE_PID $COUNT_PID $NOCOUNT_PID; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in $FLOOR_PID $NGINX_PID $EDGE_PID $COUNT_PID $NOCOUNT_PID; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)

# The Go collector's settings of the deployed edge (deploy/k8s/base), for the
# edge and for row (e): both Go servers run as production runs them.
deployed() {
  awk -v n="$1" '$0 ~ "- name: " n "$" { getline; sub(/.*value: */, ""); gsub(/"/, ""); print; exit }' \
    "$ROOT/deploy/k8s/base/deployment.yaml"
}
export GOGC GOMEMLIMIT
GOGC=$(deployed GOGC) GOMEMLIMIT=$(deployed GOMEMLIMIT)
[ -n "$GOGC" ] && [ -n "$GOMEMLIMIT" ] || die "GOGC and GOMEMLIMIT not found in deploy/k8s/base/deployment.yaml"

# --- the edge (with its renderer child) on SQLite in a temp dir -------------
say "Starting the edge on 127.0.0.1:$EDGE_PORT (renderer on $RENDERER_PORT; GOGC=$GOGC GOMEMLIMIT=$GOMEMLIMIT)..."
OMNIBUS_ENV=development LISTEN_ADDR=127.0.0.1:$EDGE_PORT RENDERER_PORT=$RENDERER_PORT DATA_DIR=$TMP/data \
  SSR_DIR=$SSR_DIR PUBLIC_URL=http://127.0.0.1:$EDGE_PORT \
  "$EDGE_BIN" >"$TMP/edge.log" 2>&1 &
EDGE_PID=$!
for i in $(seq 600); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$EDGE_PORT/readyz")" = 200 ] && break
  kill -0 "$EDGE_PID" 2>/dev/null || { tail -20 "$TMP/edge.log" >&2; die "the edge exited"; }
  [ "$i" = 600 ] && { tail -20 "$TMP/edge.log" >&2; die "the edge was not ready in 60s"; }
  sleep 0.1
done
EDGE_URL=http://127.0.0.1:$EDGE_PORT
RENDERER_URL=http://127.0.0.1:$RENDERER_PORT

# --- the cache's warm-up of every cacheable page (CACHE_WARM), before any row ------
say "Waiting for the page cache's warm-up..."
for i in $(seq 1200); do
  grep -q 'cache: warming done' "$TMP/edge.log" && break
  [ "$i" = 1200 ] && die "the cache's warm-up did not end in 120s"
  sleep 0.1
done
WARM_LINE=$(grep -m1 'cache: warming done' "$TMP/edge.log")
WARM_MS=$(grep -oE 'ms=[0-9]+' <<<"$WARM_LINE" | cut -d= -f2)
WARM_PAGES=$(grep -oE 'pages=[0-9]+' <<<"$WARM_LINE" | cut -d= -f2)
# The head of each kind of answer, before the load.
HEADS=$("$ROOT/bench/heads.sh" "$EDGE_URL")

# --- warm the cache and keep the bytes it serves ------------------------------
mkdir -p "$TMP/html"
curl -s -o /dev/null -H 'Accept-Encoding: br' "$EDGE_URL/"
hdrs=$(curl -s -D - -o "$TMP/html/index.html.br" -H 'Accept-Encoding: br' -H "User-Agent: $CHROME_UA" "$EDGE_URL/")
grep -qi '^x-cache: HIT' <<<"$hdrs" || { echo "$hdrs" >&2; die "the landing page is not a cache hit on the second request"; }
grep -qi '^content-encoding: br' <<<"$hdrs" || die "the cached landing page was not served with brotli"
curl -s -o "$TMP/html/index.html" "$EDGE_URL/"
# The hit's headers, for rows (a) and (e) to send the same answer.
tr -d '\r' <<<"$hdrs" | sed '/^$/d' >"$TMP/hit-headers"
grep -q '\$' "$TMP/hit-headers" && die "a header of the hit holds a \$, which nginx would read as a variable"
NGINX_HEADERS=$(tail -n +2 "$TMP/hit-headers" |
  grep -viE '^(date|content-type|content-length|connection|keep-alive):' |
  sed -E 's/\\/\\\\/g; s/"/\\"/g; s/^([^:]+): ?(.*)$/      add_header \1 "\2" always;/')

# --- nginx serving the same brotli bytes from a file --------------------------
mkdir -p "$TMP/nginx"
sed -e "s|@USER@|$(id -un)|; s|@GROUP@|$(id -gn)|; s|@TMP@|$TMP|g; s|@PORT@|$NGINX_PORT|" \
  "$ROOT/bench/nginx.conf.template" |
  NGINX_HEADERS=$NGINX_HEADERS awk '$1 == "@HEADERS@" { print ENVIRON["NGINX_HEADERS"]; next } { print }' >"$TMP/nginx.conf"
chmod 755 "$TMP"
"$NGINX" -p "$TMP" -c "$TMP/nginx.conf" -e "$TMP/nginx-error.log" &
NGINX_PID=$!
for i in $(seq 100); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$NGINX_PORT/")" = 200 ] && break
  [ "$i" = 100 ] && { cat "$TMP/nginx-error.log" >&2; die "nginx did not start"; }
  sleep 0.1
done
cmp -s "$TMP/html/index.html.br" <(curl -s -H 'Accept-Encoding: br' "http://127.0.0.1:$NGINX_PORT/") ||
  die "nginx does not serve the edge's bytes"

# --- Go's bare net/http with the same bytes (row e, for reference) -------------
(cd "$ROOT/bench/gofloor" && GOWORK=off go build -o "$TMP/gofloor" .)
"$TMP/gofloor" "127.0.0.1:$FLOOR_PORT" "$TMP/html/index.html.br" "$TMP/hit-headers" &
FLOOR_PID=$!
for i in $(seq 100); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$FLOOR_PORT/")" = 200 ] && break
  [ "$i" = 100 ] && die "gofloor did not start"
  sleep 0.1
done

# --- wrk -----------------------------------------------------------------------
# ms converts wrk's latency ("850.00us", "1.20ms", "2.01s") to milliseconds.
ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n *= 1; else if (v ~ /m$/) n *= 60000; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'; }

# run NAME CONNECTIONS URL [wrk args...]: warm up, measure, keep rps/p50/p99
# in R_<name>.
run() {
  local name=$1 conns=$2 url=$3; shift 3
  say "($name) $url: ${WARMUP} warm-up, ${DURATION} measured, $conns connections..."
  wrk -t"$THREADS" -c"$conns" -d"$WARMUP" --timeout 10s "$@" "$url" >/dev/null
  local out
  out=$(wrk -t"$THREADS" -c"$conns" -d"$DURATION" --timeout 10s --latency "$@" "$url")
  echo "$out" >"$TMP/wrk-$name.txt"
  if grep -qE 'Non-2xx|Socket errors' <<<"$out"; then
    echo "$out" >&2
    # SOFT=1 (row h): errors are a figure of the row, not the end of the run.
    [ -n "${SOFT:-}" ] || die "($name) answered errors or timed out"
    printf -v "ERRORS_$name" '%s' "$(grep -E 'Non-2xx|Socket errors' <<<"$out" | tr -s ' ' | paste -sd';' -)"
  fi
  local rps p50 p99
  rps=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' <<<"$out")
  p50=$(ms "$(awk '$1 == "50%" { print $2 }' <<<"$out")")
  p99=$(ms "$(awk '$1 == "99%" { print $2 }' <<<"$out")")
  printf -v "R_$name" '%s %s %s' "$rps" "$p50" "$p99"
}

BR=(-H 'Accept-Encoding: br')
run a "$CONNS" "http://127.0.0.1:$NGINX_PORT/" "${BR[@]}"
# b and e alternate, PAIRS times each, and the table keeps each one's median
# run (by requests/s): a shared machine drifts by more than their difference
# between rows measured a minute apart.
for i in $(seq "$PAIRS"); do
  run "b$i" "$CONNS" "$EDGE_URL/" "${BR[@]}"
  run "e$i" "$CONNS" "http://127.0.0.1:$FLOOR_PORT/" "${BR[@]}"
done
# median NAME: R_NAME := the median of R_NAME1..R_NAMEn by requests/s.
median() {
  local name=$1 v
  v=$(for i in $(seq "$PAIRS"); do eval echo "\$R_$name$i"; done | sort -n -k1,1 | sed -n "$(( (PAIRS + 1) / 2 ))p")
  printf -v "R_$name" '%s' "$v"
  eval "RUNS_$name=\"$(for i in $(seq "$PAIRS"); do eval echo "\$R_$name$i" | cut -d' ' -f1; done | paste -sd/ -)\""
}
median b
median e
EDGE_RSS_HITS=$(awk '/^VmRSS:/ { print $2 }' "/proc/$EDGE_PID/status")
run c "$RENDER_CONNS" "$RENDERER_URL/" "${BR[@]}" -H "User-Agent: $CHROME_UA" -s "$ROOT/bench/miss.lua"
run d "$RENDER_CONNS" "$EDGE_URL/" "${BR[@]}" -H "User-Agent: $CHROME_UA" -s "$ROOT/bench/miss.lua"
# (j) a signed-in visitor's / against (k) the uncached /login, in turns (issue
# 31.5): a merchant registered here; the session cookie makes every request a
# session lookup and the page cache's copy for the merchant's sign-in status
# (decision 0034; before it, a cache bypass and a complete streamed render).
REG_HEAD=$(curl -s -D - -o /dev/null -H 'Content-Type: application/json' -H 'Sec-Fetch-Site: same-origin' \
  --data '{"name":"Bench","email":"bench@example.com","password":"correct horse battery","storeName":"Bench Shop"}' "$EDGE_URL/api/v1/oaccount/register")
SESSION=$(tr -d '\r' <<<"$REG_HEAD" | awk 'tolower($1) == "set-cookie:" && $2 ~ /^omnibus_session=/ { sub(/;.*/, "", $2); print $2; exit }')
[ -n "$SESSION" ] || { echo "$REG_HEAD" >&2; die "no session cookie from registering the bench merchant"; }
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: $SESSION" "$EDGE_URL/login")" = 302 ] || die "the bench merchant's cookie is not signed in"
for i in $(seq "$PAIRS"); do
  run "j$i" "$RENDER_CONNS" "$EDGE_URL/" "${BR[@]}" -H "User-Agent: $CHROME_UA" -H "Cookie: $SESSION"
  run "k$i" "$RENDER_CONNS" "$EDGE_URL/login" "${BR[@]}" -H "User-Agent: $CHROME_UA"
done
median j
median k

# (f): half the connections ask for / cleanly, half send bench/hostile.lua's
# requests at the same time; the row is the two together.
say "(f) $EDGE_URL/ with a hostile second client: ${WARMUP} warm-up, ${DURATION} measured, $CONNS connections in all..."
HALF=$(( CONNS / 2 > 0 ? CONNS / 2 : 1 ))
HOSTILE_DURATION=$(( ${DURATION%s} + ${WARMUP%s} + 1 ))s  # the warm-up and the measured run of the clean half
wrk -t1 -c"$HALF" -d"$HOSTILE_DURATION" --timeout 10s -s "$ROOT/bench/hostile.lua" "${BR[@]}" "$EDGE_URL/" >"$TMP/wrk-f-hostile.txt" &
HOSTILE_WRK=$!
run f "$HALF" "$EDGE_URL/" "${BR[@]}"
wait "$HOSTILE_WRK" || die "(f) the hostile client failed"
HOSTILE_RPS=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$TMP/wrk-f-hostile.txt")
read -r HOSTILE_MISSES HOSTILE_TOTAL < <(awk '/^hostile-not-hit/ { print $2, $4 }' "$TMP/wrk-f-hostile.txt")
grep -qE 'Non-2xx|Socket errors' "$TMP/wrk-f-hostile.txt" && { cat "$TMP/wrk-f-hostile.txt" >&2; die "(f) the hostile client got errors"; }
F_TOTAL=$(( $(awk '{ print $1 }' <<<"$R_f") + HOSTILE_RPS ))

# (g): every cached route warmed (twice: the second visit earns its place),
# then half the connections ask for / cleanly while half flood the cache
# (bench/flood.lua) for BENCH_FLOOD_DURATION (default 30s); then every warmed
# route must still be a hit.
mapfile -t WARM < <(node -e '
  const t = require(process.argv[1]);
  for (const r of t.routes) if (r.cache !== "private" && !r.path.includes(":")) console.log(r.path);' "$ROOT/shared/routes.json")
for p in "${WARM[@]}" "${WARM[@]}"; do curl -s -o /dev/null "$EDGE_URL$p"; done
FLOOD_SECS=${BENCH_FLOOD_DURATION:-30}
FLOOD_SECS=${FLOOD_SECS%s}
[ "$FLOOD_SECS" -ge $(( ${DURATION%s} + ${WARMUP%s} + 1 )) ] || FLOOD_SECS=$(( ${DURATION%s} + ${WARMUP%s} + 1 ))
run g0 "$HALF" "$EDGE_URL/" "${BR[@]}"  # the clean half alone: what (g) keeps a share of
say "(g) $EDGE_URL/ while a second client floods the cache for ${FLOOD_SECS}s at ${BENCH_FLOOD_RATE:-1000} requests/s..."
FLOOD_RATE=${BENCH_FLOOD_RATE:-1000}
FLOOD_DELAY_MS=$(( HALF * 1000 / FLOOD_RATE )); [ "$FLOOD_DELAY_MS" -ge 1 ] || FLOOD_DELAY_MS=1
FLOOD_DELAY_MS=$FLOOD_DELAY_MS wrk -t1 -c"$HALF" -d"${FLOOD_SECS}s" --timeout 10s -s "$ROOT/bench/flood.lua" "${BR[@]}" "$EDGE_URL/" >"$TMP/wrk-g-flood.txt" &
FLOOD_WRK=$!
run g "$HALF" "$EDGE_URL/" "${BR[@]}"
wait "$FLOOD_WRK" || die "(g) the flooding client failed"
FLOOD_RPS=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$TMP/wrk-g-flood.txt")
FLOOD_LOST=0
for p in "${WARM[@]}"; do
  [ "$(curl -s -o /dev/null -D - "$EDGE_URL$p" | tr -d '\r' | awk -F': ' 'tolower($1) == "x-cache" { print $2 }')" = HIT ] || FLOOD_LOST=$((FLOOD_LOST + 1))
done
[ "$FLOOD_LOST" = 0 ] || say "(g) $FLOOD_LOST of ${#WARM[@]} warmed routes are no longer cache hits after the flood"

# (s1-s4): site search, p50/p99 of a search on today's content and on 10,000
# articles (the Go benchmark), and the cache hit of / during a flood of random
# search queries (bench/search.sh, its own rows and notes).
SEARCH_ROWS=$(EDGE_URL=$EDGE_URL BENCH_DURATION=$DURATION BENCH_CONNECTIONS=$HALF bash "$ROOT/bench/search.sh")

# (h): the connection flood. One client from 40 loopback
# addresses (direct peers: 127.0.0.1, where wrk runs, is exempt from the
# per-client cap like a trusted proxy) holds 100 idle keep-alive, 10
# slowloris and 10 slow-reading connections each: 4,800, more than the
# edge's MAX_CONNECTIONS (4,096 by default). The clean half asks for / as in
# (g0) meanwhile, and 20 fresh visitors each open a new connection.
CF_ADDRS=${BENCH_CONNFLOOD_ADDRESSES:-40}
say "(h) $EDGE_URL/ while one client holds $(( CF_ADDRS * 120 )) idle, slowloris and slow-reading connections..."
python3 "$ROOT/bench/connflood.py" 127.0.0.1 "$EDGE_PORT" "$CF_ADDRS" 100 10 10 >"$TMP/connflood.txt" 2>&1 &
CF_PID=$!
for i in $(seq 200); do
  held=$(ss -Htn state established "( dport = :$EDGE_PORT and src 127.0.1.0/24 )" | wc -l)
  [ "$held" -ge $(( CF_ADDRS * 100 )) ] && break
  kill -0 "$CF_PID" 2>/dev/null || { cat "$TMP/connflood.txt" >&2; die "(h) the flooding client exited"; }
  sleep 0.1
done
CF_HELD_START=$(ss -Htn state established "( dport = :$EDGE_PORT and src 127.0.1.0/24 )" | wc -l)
SOFT=1 run h "$HALF" "$EDGE_URL/" "${BR[@]}"
FRESH_MAX=0; FRESH_FAILED=0
for i in $(seq 20); do
  t=$(curl -s -o /dev/null -m 10 -w '%{http_code} %{time_total}' -H 'Accept-Encoding: br' "$EDGE_URL/") || true
  if [ "${t%% *}" != 200 ]; then FRESH_FAILED=$((FRESH_FAILED + 1)); continue; fi
  FRESH_MAX=$(awk -v a="$FRESH_MAX" -v b="${t#* }" 'BEGIN { print (b * 1000 > a ? sprintf("%.0f", b * 1000) : a) }')
done
kill -TERM "$CF_PID" 2>/dev/null; wait "$CF_PID" 2>/dev/null || true
CF_LINE=$(grep -m1 '^connflood' "$TMP/connflood.txt" || echo "connflood (no report)")

# --- renderer crash recovery: the edge's Go benchmark, 10 crashes of the active child
say "Renderer crash recovery: 10 crashes (BenchmarkRendererTakeover)..."
TAKEOVER_MS=$(cd "$ROOT/edge" && go test -run '^$' -bench BenchmarkRendererTakeover -benchtime=10x ./internal/edgetest/ 2>&1 |
  awk '/ms-p100/ { for (i = 1; i < NF; i++) if ($(i + 1) == "ms-p100") print $i }')
[ -n "$TAKEOVER_MS" ] || die "the renderer takeover benchmark did not report"

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
EDGE_RSS=$(rss_kb "$EDGE_PID")
RENDERER_PID=$(ps -o pid= --ppid "$EDGE_PID" | head -1 | tr -d ' ')
RENDERER_RSS=$([ -n "$RENDERER_PID" ] && rss_kb "$RENDERER_PID" || echo 0)

# (l) and (l0): two more edges, fresh and alike but for visit counting, both
# built here from this tree (the second with -tags analytics_nocount,
# edge/internal/analytics/count_off.go), each on its own SQLite; / warmed on
# each, then the same requests (bench/landings.lua) to one and the other in
# turn, PAIRS times, the medians kept as for (b) and (e).
say "(l, l0) building the edge with and without visit counting..."
(cd "$ROOT/edge" && go build -o "$TMP/edge-count" ./cmd/edge && go build -tags analytics_nocount -o "$TMP/edge-nocount" ./cmd/edge)
# start_edge BINARY NAME: an edge like the first (no page warm-up: / is warmed
# below), ready; its address in URL_<NAME>, its process id in PID_<NAME>.
start_edge() {
  local bin=$1 name=$2 port rport pid
  port=$(free_port); rport=$(free_port)
  OMNIBUS_ENV=development LISTEN_ADDR=127.0.0.1:$port RENDERER_PORT=$rport DATA_DIR=$TMP/data-$name CACHE_WARM=0 \
    SSR_DIR=$SSR_DIR PUBLIC_URL=http://127.0.0.1:$port "$bin" >"$TMP/edge-$name.log" 2>&1 &
  pid=$!
  printf -v "PID_$name" '%s' "$pid"
  printf -v "URL_$name" '%s' "http://127.0.0.1:$port"
  for i in $(seq 600); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")" = 200 ] && break
    kill -0 "$pid" 2>/dev/null || { tail -20 "$TMP/edge-$name.log" >&2; die "($name) the edge exited"; }
    [ "$i" = 600 ] && { tail -20 "$TMP/edge-$name.log" >&2; die "($name) the edge was not ready in 60s"; }
    sleep 0.1
  done
  curl -s -o /dev/null -H 'Accept-Encoding: br' "http://127.0.0.1:$port/"
  curl -s -o /dev/null -D - -H 'Accept-Encoding: br' -H "User-Agent: $CHROME_UA" "http://127.0.0.1:$port/?utm_campaign=warm" |
    tr -d '\r' | grep -qi '^x-cache: HIT' || die "($name) / with utm tags is not a cache hit"
}
start_edge "$TMP/edge-count" count; COUNT_PID=$PID_count
start_edge "$TMP/edge-nocount" nocount; NOCOUNT_PID=$PID_nocount
# Which edge goes first alternates: on this machine the first run of a pair
# measured about 2% slower whichever edge it was (l/l0 0.952 and 0.964 with
# counting first, 0.987 and 0.988 with it second, 2026-11-26), so a fixed
# order charged that to counting.
for i in $(seq "$PAIRS"); do
  if [ $((i % 2)) = 1 ]; then
    run "l$i" "$CONNS" "$URL_count/" "${BR[@]}" -H "User-Agent: $CHROME_UA" -s "$ROOT/bench/landings.lua"
    run "l0$i" "$CONNS" "$URL_nocount/" "${BR[@]}" -H "User-Agent: $CHROME_UA" -s "$ROOT/bench/landings.lua"
  else
    run "l0$i" "$CONNS" "$URL_nocount/" "${BR[@]}" -H "User-Agent: $CHROME_UA" -s "$ROOT/bench/landings.lua"
    run "l$i" "$CONNS" "$URL_count/" "${BR[@]}" -H "User-Agent: $CHROME_UA" -s "$ROOT/bench/landings.lua"
  fi
done
median l
median l0
# What the counting edge stored (its last counts are written as it stops):
# the day's campaigns and referring hosts held at the cap, 200 each and "other".
kill -TERM "$COUNT_PID" "$NOCOUNT_PID" 2>/dev/null || true; wait "$COUNT_PID" "$NOCOUNT_PID" 2>/dev/null || true
COUNT_ROWS=$(python3 -c '
import sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
r = lambda k: db.execute("SELECT count(*), coalesce(sum(count), 0) FROM analytics_counts WHERE kind = ?", (k,)).fetchone()
c, h, v = r("campaign"), r("referrer"), r("view")
print(f"{c[0]} campaign rows ({c[1]} landings), {h[0]} referrer rows ({h[1]} landings), {v[1]} page views")' "$TMP/data-count/omnibus.db" 2>/dev/null || echo "not read")

# --- the page's weight ----------------------------------------------------------
html=$TMP/html/index.html
size() { stat -c %s "$1"; }
# asset_sizes URL...: total raw bytes and total brotli bytes as served by the edge.
asset_sizes() {
  local raw=0 br=0 u r b enc
  for u in "$@"; do
    r=$(curl -s -o /dev/null -w '%{size_download}' "$EDGE_URL$u")
    read -r b enc < <(curl -s -o /dev/null -w '%{size_download} %header{content-encoding}\n' -H 'Accept-Encoding: br' "$EDGE_URL$u")
    [ "$enc" = br ] || echo "$u" >>"$TMP/not-brotli"
    raw=$((raw + r)); br=$((br + b))
  done
  echo "$raw $br"
}
mapfile -t CSS < <(grep -oE '<link[^>]*rel="stylesheet"[^>]*>' "$html" | grep -oE 'href="[^"]+"' | cut -d'"' -f2 | grep '^/' | sort -u)
# First-load JavaScript: every script the document loads itself (modulepreload
# links, module script src and the inline entry's imports, also where they
# are listed HTML-escaped in the deferred loader's data-preload attribute,
# hence no '&' in a name); lazy routes are only named in the manifest.
mapfile -t JS < <(grep -oE '/assets/[^"'"'"' )&]+\.js' "$html" | sort -u)
read -r CSS_RAW CSS_BR < <(asset_sizes "${CSS[@]}")
read -r JS_RAW JS_BR < <(asset_sizes "${JS[@]}")

# --- the table ----------------------------------------------------------------------
kb() { awk -v b="$1" 'BEGIN { printf "%.1f KB", b / 1024 }'; }
# Three decimals: the check reads the printed figure, and 0.896 must not pass a 0.9 target as 0.90.
ratio() { awk -v x="$1" -v y="$2" 'BEGIN { if (y > 0) printf "%.3f", x / y; else print "n/a" }'; }
field() { local v="R_$1"; awk -v i="$2" '{ print $i }' <<<"${!v}"; }
row() { printf '| %-44s | %10s | %8s | %8s |\n' "$1" "$(field "$2" 1)" "$(field "$2" 2)" "$(field "$2" 3)"; }
check() { awk -v v="$1" -v t="$2" 'BEGIN { print (v != "n/a" && v + 0 >= t ? "meets" : "MISSES") " the target ≥ " t }'; }
BA=$(ratio "$(field b 1)" "$(field a 1)")
DC=$(ratio "$(field d 1)" "$(field c 1)")
BC=$(ratio "$(field b 1)" "$(field c 1)")
EA=$(ratio "$(field e 1)" "$(field a 1)")
BE=$(ratio "$(field b 1)" "$(field e 1)")
FB=$(ratio "$F_TOTAL" "$(field b 1)")
# The clean half during the flood against the same connections alone.
GG=$(ratio "$(field g 1)" "$(field g0 1)")
JK=$(ratio "$(field j 1)" "$(field k 1)")
JK99=$(ratio "$(field j 3)" "$(field k 3)")
at_most() { awk -v v="$1" -v t="$2" 'BEGIN { print (v != "n/a" && v + 0 <= t ? "meets" : "MISSES") " the target ≤ " t }'; }
SIGNED_IN_JSON=$(printf '{"signedIn": [%s, %s, %s], "anonymous": [%s, %s, %s]}' "$(field j 1)" "$(field j 2)" "$(field j 3)" "$(field k 1)" "$(field k 2)" "$(field k 3)")
HG=$(ratio "$(field h 1)" "$(field g0 1)")
LL0=$(ratio "$(field l 1)" "$(field l0 1)")

# This run's figures for the side-by-side report (bench/side-by-side.mjs).
# SIGNED_IN_JSON: the signed-in row's figures when a step above measured them
# ({"signedIn": [rps, p50, p99], "anonymous": [rps, p50, p99]}); empty: not measured.
HEADS_JSON=$(awk -F' [|] ' '/^[|] / && $2 ~ /^`/ { gsub(/^[|] /, "", $1); printf "%s{\"answer\":\"%s\",\"bytes\":%s}", (n++ ? "," : ""), $1, $3 }' <<<"$HEADS")
printf '{"dc":"%s","d":%s,"c":%s,"warmMs":%s,"warmPages":%s,"heads":[%s]%s}\n' "$DC" "$(field d 1)" "$(field c 1)" "${WARM_MS:-0}" "${WARM_PAGES:-0}" \
  "$HEADS_JSON" "${SIGNED_IN_JSON:+,\"signedIn\":$SIGNED_IN_JSON}" >"$TMP/figures.json"

{
  echo "# Benchmark results: the landing page \`/\`"
  echo
  echo "Measured by \`make bench\` (bench/run.sh) on $(date -u '+%Y-%m-%d %H:%M UTC'): $(nproc) CPUs ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)), loopback,"
  echo "wrk $THREADS threads, $CONNS connections for rows a and b and $RENDER_CONNS for rows c and d, $WARMUP warm-up then $DURATION per row;"
  echo "load average before the run: $LOAD_BEFORE; at its end: $(cut -d' ' -f1-3 /proc/loadavg) (the machine is shared: read the rows against it)."
  echo "Absolute figures vary by machine; the ratios are the point (every row shares the machine with wrk itself)."
  echo "Rows (a) and (e) send the edge's cache-hit answer: its brotli bytes and its $(( $(wc -l <"$TMP/hit-headers") - 1 )) response headers."
  echo "The edge and row (e) run with the deployed Go collector settings: GOGC=$GOGC GOMEMLIMIT=$GOMEMLIMIT (deploy/k8s/base)."
  echo
  echo "| Row                                          |  Requests/s | p50 (ms) | p99 (ms) |"
  echo "|----------------------------------------------|------------:|---------:|---------:|"
  row "(a) nginx, the same answer from a file" a
  row "(b) edge, cache hit (brotli)" b
  row "(c) renderer alone (browser, streamed)" c
  row "(d) edge, forced miss (query varies)" d
  row "(e) reference: Go net/http, same answer" e
  row "(f) edge, cache hit, clean half of (f)" f
  row "(g0) edge, cache hit, the clean half of (g) alone" g0
  row "(g) edge, cache hit, clean half during a flood" g
  row "(h) edge, cache hit, clean half, connection flood" h
  row "(j) edge, signed-in / (session, status copy)" j
  row "(k) edge, /login (anonymous, never cached)" k
  row "(l) edge, cache hit, a flood of landings mixed in" l
  row "(l0) the same, the edge built without counting" l0
  echo
  echo "Site search (bench/search.sh):"
  echo
  echo "| Row                                          |  Requests/s | p50 (ms) | p99 (ms) |"
  echo "|----------------------------------------------|------------:|---------:|---------:|"
  echo "$SEARCH_ROWS"
  echo
  echo "Row (f): $CONNS connections, half asking for \`/\` cleanly (the figures above), half sending made-up session cookies and"
  echo "junk queries (bench/hostile.lua, $HOSTILE_RPS requests/s, $HOSTILE_MISSES of $HOSTILE_TOTAL answers not cache hits)."
  echo "Cache hits per second, both halves together: $F_TOTAL, against $(field b 1) in the clean row (b)."
  echo
  echo "Row (g): $HALF clean connections asking for \`/\` while $HALF more flood the cache for ${FLOOD_SECS}s with random paths, letter cases and"
  echo "parameter values (bench/flood.lua, at a fixed $FLOOD_RPS requests/s: BENCH_FLOOD_RATE); afterwards $(( ${#WARM[@]} - FLOOD_LOST )) of ${#WARM[@]} warmed routes were still cache hits."
  echo "The flood runs at a fixed rate: at full speed its wrk and the edge's answers to it took the CPU the clean half would use on a"
  echo "2-CPU machine, and g/g0 read 0.54-1.00 from run to run (how the scheduler split two cores, not what the flood did to the cache)."
  echo
  echo "Row (h): $HALF clean connections asking for \`/\` while one client from $CF_ADDRS addresses (127.0.1.x) holds 100 idle keep-alive,"
  echo "10 slowloris and 10 slow-reading connections each (bench/connflood.py; $CF_HELD_START established when the row began; at the end: ${CF_LINE#connflood })."
  echo "Then 20 fresh visitors, each on a new connection: $(( 20 - FRESH_FAILED )) of 20 answered, the slowest in $FRESH_MAX ms.${ERRORS_h:+ Errors of the clean half: $ERRORS_h.}"
  echo
  echo "| Ratio | Measured | Target |"
  echo "|---|---:|---|"
  echo "| b/a (cache hit vs static file) | $BA | $(check "$BA" 0.8) |"
  echo "| d/c (miss through the edge vs renderer alone) | $DC | $(check "$DC" 0.9) |"
  echo "| b/c (cache hit vs rendering) | $BC | $(check "$BC" 20) |"
  echo "| e/a (reference: Go's net/http floor vs nginx) | $EA | the best b/a any Go server here could reach |"
  echo "| f/b (hits/s with a hostile second client vs clean) | $FB | $(check "$FB" 0.9) |"
  echo "| g/g0 (clean hits/s during a 30 s cache flood at ${FLOOD_RATE}/s vs alone) | $GG | $(check "$GG" 0.9) |"
  echo "| h/g0 (clean hits/s while one client holds more connections than there are slots vs alone) | $HG | $(check "$HG" 0.9) |"
  echo "| b/e (the edge's hit path vs that floor) | $BE | $(check "$BE" 0.9) |"
  echo "| j/k (signed-in / vs /login, requests/s) | $JK | $(check "$JK" 0.9) |"
  echo "| j/k p99 (signed-in / vs /login) | $JK99 | $(at_most "$JK99" 2) |"
  echo "| l/l0 (cache hits with a flood of new campaigns and referrers, visit counting vs none) | $LL0 | $(check "$LL0" 0.97) |"
  echo
  echo "Rows (b) and (e) are the medians of $PAIRS alternating runs each (requests/s: b $RUNS_b, e $RUNS_e); so are rows (j) and (k) (j $RUNS_j, k $RUNS_k)"
  echo "and rows (l) and (l0) (l $RUNS_l, l0 $RUNS_l0)."
  echo
  echo "Rows (l) and (l0): $CONNS connections asking for \`/\`, every other request a landing under a new utm_campaign from a new Referer host"
  echo "(bench/landings.lua), on two fresh edges alike but for visit counting (the second built with -tags analytics_nocount)."
  echo "What the counting edge stored: $COUNT_ROWS."
  echo
  echo "Page cache warm-up at start (CACHE_WARM): $WARM_PAGES cacheable pages rendered and stored in $WARM_MS ms, one at a time (before warming at start: none; each page's first visitor waited for its render)."
  echo
  echo "Response head of each kind of answer (bench/heads.sh; before static answers were made lean, a static answer carried the page's whole header set: 1,097-1,176 bytes on \`make run\`):"
  echo
  echo "$HEADS"
  echo
  echo "Renderer crash recovery (BenchmarkRendererTakeover, 10 kills of the active child, an uncached page each time): served again within $TAKEOVER_MS ms (p100; target < 2000)."
  echo
  mb() { awk -v k="$1" 'BEGIN { printf "%.0f MB", k / 1024 }'; }
  echo "Resident memory (VmRSS) of the edge: $(mb "$EDGE_RSS_HITS") after the cache-hit row, $(mb "$EDGE_RSS") after the whole run;"
  echo "row (d) filled the cache (CACHE_MAX_BYTES, default 64 MiB) with distinct keys, and the Go heap keeps garbage-collection headroom"
  echo "above that (GOMEMLIMIT caps the whole process). The renderer: $(mb "$RENDERER_RSS")."
  echo
  echo "The page-speed figures side by side with the earlier ones (bench/side-by-side.mjs; first visits from the last \`make lighthouse\`):"
  echo
  node "$ROOT/bench/side-by-side.mjs" "$TMP/figures.json"
  echo
  echo "| Page weight of \`/\` | Raw | Brotli |"
  echo "|---|---:|---:|"
  echo "| HTML | $(kb "$(size "$html")") | $(kb "$(size "$TMP/html/index.html.br")") |"
  echo "| CSS (${#CSS[@]} file(s)) | $(kb "$CSS_RAW") | $(kb "$CSS_BR") |"
  echo "| First-load JavaScript (${#JS[@]} files) | $(kb "$JS_RAW") | $(kb "$JS_BR") |"
  if [ -s "$TMP/not-brotli" ]; then
    echo
    echo "Not served with brotli (counted at their raw size in the brotli column): $(sort -u "$TMP/not-brotli" | sed 's/.*/`&`/' | paste -sd, - | sed 's/,/, /g')."
  fi
  echo
  echo "First-load JavaScript of each page type (scripts/first-load.mjs: the client build's route manifest, brotli as served; the budget is ssr/perf-budget.json):"
  echo
  node "$SSR_DIR/scripts/first-load.mjs" "$SSR_DIR/build/client"
  echo
  echo "Rows (c) and (d) render the same page, an order's confirmation under a new order number each time (bench/miss.lua: /petpawlor-order-complete?order=<uuid>, 84 KB):"
  echo "row (d) is a true miss (a cache key never seen before: the edge asks the renderer for the complete document, compresses it in the one encoding"
  echo "asked for, brotli, and stores it, then answers); row (c) is the renderer streaming it to a browser. Until 2026-11-25 both rows asked for \`/\`"
  echo "and row (d) varied ?reason=, a value the edge now drops: its 'misses' were hits, and d/c read 144."
} | tee "$ROOT/bench/RESULTS.md"

# Rows (m0) and (m): the cache hit while the edge restarts by socket
# takeover, against the same load without a restart (bench/restart.sh, its
# own edge).
{
  echo
  echo "A restart under load (bench/restart.sh: wrk keeps $CONNS connections alive, the edge hands its socket to a successor):"
  echo
  echo "| Row                                          |  Requests/s | p50 (ms) | p99 (ms) |"
  echo "|----------------------------------------------|------------:|---------:|---------:|"
  BENCH_CONNECTIONS=$CONNS BENCH_THREADS=$THREADS bash "$ROOT/bench/restart.sh"
} | tee -a "$ROOT/bench/RESULTS.md"

# Publishing: three edges on the local PostgreSQL (TEST_DATABASE_URL),
# the edge's Go benchmarks (bench/publishing.sh, its own notes).
bash "$ROOT/bench/publishing.sh" | tee -a "$ROOT/bench/RESULTS.md"
