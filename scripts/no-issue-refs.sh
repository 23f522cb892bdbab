#!/usr/bin/env bash
# make lint: the repository explains itself. A comment, test name, file name or
# JSON comment that points at a tracker's number ("issue" and a number) tells a
# newcomer nothing, as the tracker is not part of the repository: say why in
# words instead (a decision note's number, docs/decisions/NNNN-*.md, may stay).
# docs/performance.md is the one exception: its history quotes the goals it
# was measured against.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "no-issue-refs: not a git work tree, skipped" >&2
  exit 0
fi
pattern='issue [0-9]'
found=0
# File contents of every tracked file (binary files skipped).
if git grep -nIi -e "$pattern" -- ':!docs/performance.md'; then found=1; fi
# File names.
if git ls-files | grep -iE 'issue_?[0-9]'; then found=1; fi
if [ "$found" = 1 ]; then
  echo "no-issue-refs: the lines above point at an issue number; say why in words instead" >&2
  exit 1
fi
