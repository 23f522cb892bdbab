#!/usr/bin/env bash
# Publishing's section of make bench (bench/run.sh appends it to
# bench/RESULTS.md; alone: bash bench/publishing.sh prints it). From the
# edge's Go benchmarks (edge/internal/studio/bench_test.go), on the local
# PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test):
#   (p1) a publish on one of three edges of one PostgreSQL until all three
#        answer the new text as a cache hit: p50/p95 over 20 publishes
#        (BENCH_PUBLISHES); target p95 ≤ 1 s.
#   (p2) a scheduled publish (1.5 s ahead) until all three answer it as a
#        hit, measured from its time: p50/p95 over 5 (BENCH_SCHEDULES);
#        target p95 ≤ 1 s.
#   (p3) the blog index, a help category page, the feed and the sitemap
#        through the edge at 10,000 articles against today's content;
#        target ≤ 2× each.
# Prints markdown.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export GOTOOLCHAIN=auto
export TEST_DATABASE_URL=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}
PUBLISHES=${BENCH_PUBLISHES:-20}
SCHEDULES=${BENCH_SCHEDULES:-5}
say() { printf '\033[1m%s\033[0m\n' "$*" >&2; }

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
bench() { # bench REGEX TIMES: the benchmark's output lines
  local out
  out=$(cd "$ROOT/edge" && go test ./internal/studio -run '^$' -bench "$1" -benchtime "$2" 2>&1) || { echo "$out" >&2; exit 1; }
  grep '^Benchmark' <<<"$out"
}
# fig LINES NAME UNIT: the figure of UNIT on the line whose name matches NAME.
fig() { awk -v name="$2" -v unit="$3" '$1 ~ name { for (i = 2; i <= NF; i++) if ($i == unit) printf "%.0f", $(i-1) }' <<<"$1"; }
figf() { awk -v name="$2" -v unit="$3" '$1 ~ name { for (i = 2; i <= NF; i++) if ($i == unit) printf "%.1f", $(i-1) }' <<<"$1"; }
verdict() { awk -v v="$1" -v t="$2" -v what="$3" 'BEGIN { if (v == "") print "no figure"; else if (v + 0 <= t + 0) print "meets the target " what; else print "MISSES the target " what }'; }

say "(p1) $PUBLISHES publishes on one of three edges until all three serve them as hits..."
P1=$(bench '^BenchmarkPublishServedEverywhere$' "${PUBLISHES}x")
say "(p2) $SCHEDULES scheduled publishes until all three edges serve them as hits..."
P2=$(bench '^BenchmarkScheduledPublishServedEverywhere$' "${SCHEDULES}x")
say "(p3) content pages on today's content and on 10,000 articles..."
P3=$(bench '^BenchmarkContentPages$' 10x)
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

echo
echo "## Publishing"
echo
echo "Measured by bench/publishing.sh (edge/internal/studio/bench_test.go) on $(date -u '+%Y-%m-%d %H:%M') UTC against the local PostgreSQL;"
echo "load average before: $LOAD_BEFORE, after: $LOAD_AFTER ($(nproc) CPUs). Each edge is the whole edge in-process (edgetest) with the"
echo "stand-in renderer of the studio's tests, which draws the content the edge attaches: the figures are the edge's side (reading"
echo "the content, purging, warming, building the sitemap and feeds), not React's render."
echo
echo "| Figure | p50 (ms) | p95 (ms) | Target |"
echo "|---|---:|---:|---|"
echo "| (p1) publish → the new text a cache hit on all 3 edges ($PUBLISHES publishes) | $(fig "$P1" . site-p50-ms) | $(fig "$P1" . site-p95-ms) | $(verdict "$(fig "$P1" . site-p95-ms)" 1000 "p95 ≤ 1000") |"
echo "| (p1) the publish's answer (waits for every edge's warm-up, at most 3 s) | $(fig "$P1" . answer-p50-ms) | $(fig "$P1" . answer-p95-ms) | - |"
echo "| (p2) scheduled publish: its time → a hit on all 3 edges ($SCHEDULES schedules) | $(fig "$P2" . after-time-p50-ms) | $(fig "$P2" . after-time-p95-ms) | $(verdict "$(fig "$P2" . after-time-p95-ms)" 1000 "p95 ≤ 1000") |"
echo
echo "Row (p1): each edge asked for the article every 2 ms from the moment the publish is sent; the figure is when the last of the"
echo "three first answered X-Cache: HIT with the new text. Row (p2): the scheduler looks for due items every $(fig "$P2" . scheduler-interval-ms) ms on the"
echo "edge holding its lease (content.SchedulerInterval), so a schedule fires at most that late; the rest is the purge and re-warm."
echo
echo "| Page (page cache off: every request renders) | Today (ms, p50) | 10,000 articles (ms, p50) | Ratio | Target |"
echo "|---|---:|---:|---:|---|"
for p in "blog-:the blog index \`/blog\` (its first page of 24)" "help-category-:a help category page (its first page of 50)" "feed-:the feed \`/rss.xml\`, first request after a change" "feed-again-:the feed, the next request (built and compressed once)" "sitemap-:the sitemap, first request after a change" "sitemap-again-:the sitemap, the next request (built and compressed once)"; do
  key=${p%%:*} label=${p#*:}
  a=$(figf "$P3" 'today' "${key}p50-ms") z=$(figf "$P3" '10000-articles' "${key}p50-ms")
  r=$(awk -v a="$a" -v z="$z" 'BEGIN { if (a > 0) printf "%.1f", z / a }')
  echo "| $label | $a | $z | ${r}× | $(verdict "$r" 2 "≤ 2×") |"
done
a=$(figf "$P3" 'today' "refresh-p50-ms") z=$(figf "$P3" '10000-articles' "refresh-p50-ms")
echo "| (not a target) an edge's reload after one article changed (Content.Refresh) | $a | $z | $(awk -v a="$a" -v z="$z" 'BEGIN { if (a > 0) printf "%.1f", z / a }')× | - |"
echo
echo "Rows (p3): one edge, \`CACHE_MAX_BYTES=0\`; 10,000 published articles inserted straight into the content tables (a third blog"
echo "posts, the rest help articles over today's categories), median of 10 rounds each. Before the feed and before the sitemap"
echo "each round changes one article's published revision and reloads the store (a Refresh that finds no change rebuilds"
echo "nothing), so those rows are the first request after a change. That reload has already built the feeds and the sitemap"
echo "and compressed them (gzip and brotli), as a publish's does before it answers: a crawler waits"
echo "for no build, and the build's time is in the reload's row. Past 50,000 URLs the sitemap is an index of sitemaps"
echo "(edge/internal/seo TestASitemapPastItsLimitBecomesAnIndex)."
echo
echo "Where the time goes (decision 0064): the store keeps the live set in memory; a change reads every item's id, state and"
echo "published revision (narrow rows), then the fields of only the items whose revision moved, and sorts again only the changed"
echo "type's list. A list page is one page of its list (the blog 24, a help category 50, older ones at ?page=N), the feeds read"
echo "their 50 newest articles' HTML in one query, and the sitemap is written straight into a buffer. What is left grows with the"
echo "site by nature: the sitemap lists every URL (about 1.3 MB at 10,000), and the reload still reads one narrow row per item."
