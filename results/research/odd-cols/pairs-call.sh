#!/bin/bash
# H200: the solution with pairs.patch (variants.sh) beside the solution, each launch keeping
# its fastest way, at the window shapes with cols odd of the sweep of 0.19.0 (the eight under
# 90% and two more), in two turns, median of 10 each; then memcheck and racecheck on the
# patch at small shapes with cols odd (every way runs at a shape's first launch). The first
# call (h200-pairs-1) ran a first pairs.patch whose launch bounds gave the solution's own
# kernels a minimum of one block (`ODD ? 2048 / THREADS : 1`), which changed their machine
# code; the patch as committed gives them none (`: 0`), and their sm_90 code is the
# solution's, function by function (cuobjdump).
# The builds: bash results/research/odd-cols/variants.sh .devrun/t57a9 (here, no GPU), and
# git rev-parse --short HEAD > .devrun/commit. Then, where the GPU is (carry .devrun):
# OUT=DIR bash results/research/odd-cols/pairs-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t57a9 V="pairs"
call_begin pairs
call_turns "63684x63683 55903x55903 28787x28783 16383x16385 18808x192869 12425x12429 12345x6789 806744x381 8192x8191 6789x12345" 420 \
    "TK_NONE=1 $T/solution/step7" "TK_NONE=1 $T/v/pairs"
call_sanitize $T/v/pairs "1001x1003 513x1025 777x65 64x999 9x4099"
call_build_logs
tail -2 "$O/device.txt"; call_clocks
awk -f "$(dirname "$0")/../group-order/order.awk" "$O/time.txt"
grep -E "elapsed" "$O/time.txt"; grep -vE "^== " "$O/sanitizer.txt" | sort | uniq -c
grep -E "^note" "$O/time.txt" | sed -E 's/.*at ([0-9]+ x [0-9]+) .*: ([^:]*)$/\1: \2/' | sort | uniq -c
