#!/usr/bin/env bash
# figures.sh KIT PAGE...: holds every figure a page of the kit quotes (GB/s, % of copy or peak,
# ms, points, ratios, counts) to the committed file it comes from (results/*, profiles/*.txt),
# as KIT's tests/figures.txt says, and finds each measured-looking figure of the pages that no
# line of it holds (a number with %, GB/s, ms, µs, points, million, -fold or x after it).
# Paths are relative to KIT. Prints one line a problem, "PAGE:LINE: figure|unsourced: ..." or
# "tests/figures.txt:LINE: ..." (tests/figures.awk), and exits 1 when there is any; 0 when all
# hold; 2 on bad arguments.
set -u
awk=$(cd "$(dirname "$0")" && pwd)/figures.awk
[ $# -ge 2 ] || { echo "usage: tests/figures.sh KIT PAGE..." >&2; exit 2; }
kit=$1; shift
[ -r "$kit/tests/figures.txt" ] || { echo "figures: no tests/figures.txt in $kit" >&2; exit 2; }
for f in "$@"; do [ -r "$kit/$f" ] || { echo "figures: no $f in $kit" >&2; exit 2; }; done
awk -v kit="$kit" -v docs="$*" -f "$awk" "$kit/tests/figures.txt"
