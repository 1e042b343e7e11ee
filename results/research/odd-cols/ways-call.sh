#!/bin/bash
# H200: the solution with the pairs as three more ways (solution/step7/pairs.cuh, in the kit's
# own tree) beside the solution before them (c993071, laid out in .devrun/tc993), each launch
# keeping its fastest way, in two turns, median of 10 each: at 12 shapes whose rows are a
# multiple of 8 and cols odd, drawn before the call (below), the three such window shapes of
# the H200's sweep of 0.19.0, and two shapes the pairs do not run at (rows not a multiple of
# 8), whose launch is unchanged; then memcheck and racecheck on the new build at three small
# shapes of the pairs (every way runs, checked, at a shape's first launch).
# The draw (mawk, here, before the call): 12 shapes of 256 MiB to 8 GiB a matrix and rows /
# cols of 1/2000 to 2000, both log-uniform, rows rounded down to a multiple of 8 and cols up
# to odd, the panels' shapes (rows <= 112 or cols <= 48) drawn again:
#   awk -v seed=20261129 'BEGIN { srand(seed); n = 0; while (n < 12) {
#     mib = exp(log(256) + rand() * (log(8192) - log(256)))
#     asp = exp(log(1/2000) + rand() * (log(2000) - log(1/2000)))
#     floats = mib * 262144; rows = int(sqrt(floats * asp) / 8) * 8; if (rows < 8) continue
#     cols = int(floats / rows); if (cols % 2 == 0) cols++
#     if (rows <= 112 || cols <= 48) continue; printf "%dx%d ", rows, cols; n++ } }'
# Here first (no GPU): rm -rf .devrun/tc993 && mkdir -p .devrun/tc993 &&
#   git archive c993071 solution/step7 common | tar -x -C .devrun/tc993
#   git rev-parse --short HEAD > .devrun/commit   (the tree the call copies; carry .devrun)
# Then, where the GPU is: OUT=DIR bash results/research/odd-cols/ways-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/tc993 V=""
call_begin ways
make -C solution/step7 SM=90 >>"$O/build.txt" 2>&1 || { tail "$O/build.txt"; exit 1; }
drawn="782984x573 159736x793 215944x395 664x731705 20024x46413 648x111057 69256x12019 206200x3099 584x1143679 259560x619 1288x72157 82784x1121"
call_turns "$drawn 806744x381 18808x192869 8192x8191 63684x63683 12345x6789" 420 \
    "TK_BEFORE=c993071 $T/solution/step7" "TK_NONE=1 solution/step7"
call_sanitize solution/step7 "120x577 1000x63 4096x47"
call_summary
awk -f "$(dirname "$0")/../group-order/order.awk" "$O/time.txt"
grep -E "^note" "$O/time.txt" | sed -E 's/.*at ([0-9]+ x [0-9]+) .*: ([^:]*)$/\1: \2/' | sort | uniq -c
