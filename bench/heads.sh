#!/usr/bin/env bash
# bench/heads.sh EDGE_URL: the bytes of the response head (status line and
# headers, as curl receives them) of each kind of answer the edge gives, as a
# Markdown table (static answers ≤ 400 bytes; pages keep every
# security header). make bench (bench/run.sh) calls it; it runs on its own
# against any edge.
set -euo pipefail
EDGE_URL=${1:?usage: heads.sh EDGE_URL}
UA="Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"
html=$(curl -s -H 'Accept-Encoding: identity' "$EDGE_URL/")
first() { grep -oE "$1" <<<"$html" | head -1 || true; }
JS=$(first '/assets/[^"'"'"' )&]+\.js')
CSS=$(first '/assets/[^"'"'"' )&]+\.css')
PIC=$(first '/images/[^"'"'"' )&]+\.(webp|png|jpg|avif)')
head_bytes() { curl -s -o /dev/null -D - -H 'Accept-Encoding: gzip, deflate, br, zstd' -H "User-Agent: $UA" "$EDGE_URL$1" | wc -c; }
echo "| Answer | Path | Head bytes | Target |"
echo "|---|---|---:|---|"
row() {
  local what=$1 path=$2 target=$3 n
  [ -n "$path" ] || { echo "| $what | (none found on /) | n/a | $target |"; return; }
  n=$(head_bytes "$path")
  echo "| $what | \`$path\` | $n | $target |"
}
row "script (asset)" "$JS" "≤ 400"
row "stylesheet (asset)" "$CSS" "≤ 400"
row "picture" "$PIC" "≤ 400"
row "web manifest" /manifest.webmanifest "≤ 400"
row "icon" /icons/icon-192.png "≤ 400"
row "favicon" /favicon.webp "≤ 400"
row "page, cached" / "every security header"
row "page, streamed" /login "every security header"
