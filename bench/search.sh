#!/usr/bin/env bash
# Site search's rows of make bench (bench/run.sh runs it with its edge;
# alone: bash bench/search.sh, with EDGE_URL=http://… for the flood rows).
#   (s1) search on today's content and (s2) on a 10,000-article fixture: p50
#        and p99 of a search computed (no result cache), from the edge's Go
#        benchmark (edge/internal/search BenchmarkSearch); goal p99 ≤ 20 ms.
#   (s3) with EDGE_URL: the cache hit of / alone, then (s4) the same while a
#        second client sends /search with a new random query each time at a
#        fixed rate (BENCH_SEARCH_RATE, default 200/s; bench/search-flood.lua):
#        the hit must not slow down (s4/s3 ≥ 0.9).
# Prints markdown rows: | row | requests/s | p50 (ms) | p99 (ms) |.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export GOTOOLCHAIN=auto
DURATION=${BENCH_DURATION:-18s}
CONNS=${BENCH_CONNECTIONS:-16}
RATE=${BENCH_SEARCH_RATE:-200}
say() { printf '\033[1m%s\033[0m\n' "$*" >&2; }

say "(s1, s2) search p50/p99: go test -bench Search ./internal/search (builds a 10,000-article fixture first)..."
out=$(cd "$ROOT/edge" && go test ./internal/search -run '^$' -bench '^BenchmarkSearch$' -benchtime 2000x 2>&1) || { echo "$out" >&2; exit 1; }
fig() { awk -v name="$1" -v unit="$2" '$1 ~ name { for (i = 2; i <= NF; i++) if ($i == unit) printf "%.2f", $(i-1) }' <<<"$out"; }
printf '| %-44s | %10s | %8s | %8s |\n' "(s1) search, today's content (computed)" "-" "$(fig 'today' p50-ms)" "$(fig 'today' p99-ms)"
printf '| %-44s | %10s | %8s | %8s |\n' "(s2) search, 10,000 articles (computed)" "-" "$(fig '10000-articles' p50-ms)" "$(fig '10000-articles' p99-ms)"
NOTE="Rows (s1) and (s2): CPU per search $(fig 'today' cpu-ms/op) ms (today) and $(fig '10000-articles' cpu-ms/op) ms (10,000 articles); load average $(cut -d' ' -f1-3 /proc/loadavg) when measured (the p99 of a busy machine is its scheduler's). Goal: p99 ≤ 20 ms at 10,000 articles."

[ -n "${EDGE_URL:-}" ] || { echo; echo "$NOTE"; exit 0; }
command -v wrk >/dev/null || { echo "bench/search.sh: wrk is needed for the flood rows" >&2; exit 1; }
ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n *= 1; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'; }
hit() {
  local o
  o=$(wrk -t1 -c"$CONNS" -d"$DURATION" --latency -H 'Accept-Encoding: br' "$EDGE_URL/")
  printf '%s %s %s' "$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' <<<"$o")" "$(ms "$(awk '$1 == "50%" { print $2 }' <<<"$o")")" "$(ms "$(awk '$1 == "99%" { print $2 }' <<<"$o")")"
}
curl -s -o /dev/null "$EDGE_URL/"; curl -s -o /dev/null "$EDGE_URL/"
say "(s3) $EDGE_URL/ alone, $DURATION..."
read -r a_rps a_p50 a_p99 <<<"$(hit)"
say "(s4) $EDGE_URL/ while /search is flooded with random queries at $RATE/s..."
FLOOD_CONNS=4
FLOOD_DELAY_MS=$(( FLOOD_CONNS * 1000 / RATE )); [ "$FLOOD_DELAY_MS" -ge 1 ] || FLOOD_DELAY_MS=1
FLOOD_OUT=$(mktemp)
FLOOD_DELAY_MS=$FLOOD_DELAY_MS wrk -t1 -c$FLOOD_CONNS -d$(( ${DURATION%s} + 2 ))s -s "$ROOT/bench/search-flood.lua" "$EDGE_URL/" >"$FLOOD_OUT" &
FLOOD=$!
read -r b_rps b_p50 b_p99 <<<"$(hit)"
wait "$FLOOD" || true
printf '| %-44s | %10s | %8s | %8s |\n' "(s3) edge, cache hit of /, alone" "$a_rps" "$a_p50" "$a_p99"
printf '| %-44s | %10s | %8s | %8s |\n' "(s4) the same during a random-query flood" "$b_rps" "$b_p50" "$b_p99"
echo
echo "$NOTE"
echo
echo "Row (s4): the flood's answers: $(awk '/^search-flood-status/ { printf "%s%s × %s", (n++ ? ", " : ""), $3, $2 }' "$FLOOD_OUT") (429: the per-client limit; every query new),"
echo "$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$FLOOD_OUT")/s of the ${RATE}/s asked: an allowed search is a render of the /search page (private, never in the page cache), a refused one the kept too-many-searches page (no render)."
echo "s4/s3 (cache hits/s during the flood vs alone): $(awk -v x="$b_rps" -v y="$a_rps" 'BEGIN { printf "%.3f", x / y }') (target ≥ 0.9)."
rm -f "$FLOOD_OUT"
