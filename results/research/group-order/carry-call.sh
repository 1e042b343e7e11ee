#!/bin/bash
# H200: windows that keep the rows above them (carry.patch) at the shapes whose output rows
# start off a sector (rows not a multiple of 8), where each window of the solution stages 7
# rows above its own again from the L2 (HALO): 135 rows staged for 128 written in the ways of
# 128 rows, 71 for 64 in the others. The counters (results/research/l2-fabric/) put the
# kernel's time in step with the L2 sectors it handles; these rows are about 2.7% of them in
# 128-row windows. Question: does a block that writes K windows down its band, keeping the 7
# rows, cut the time? Each shape, in two turns: the solution, then the patch with TK_K=4 and
# TK_K=16, each launch keeping its fastest way as the solution's does; median of 10 each; then
# memcheck and racecheck on the patch (TK_K=3) at small shapes, each way checked.
# The builds: bash results/research/group-order/variants.sh .devrun/t65cb (here, no GPU), and
# git rev-parse --short HEAD > .devrun/commit. Then, where the GPU is (carry .devrun):
# OUT=DIR bash results/research/group-order/carry-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t65cb V="carry"
call_begin carry
call_turns "63684x63683 28787x28783 16383x16385 48289x11256 55903x55903 12425x12429 8191x8192 8192x8192" 400 \
    "TK_NONE=1 $T/solution/step7" "TK_K=4 $T/v/carry" "TK_K=16 $T/v/carry"
export TK_K=3
call_sanitize $T/v/carry "1001x1003 513x1025 777x64 1030x4099"
tail -2 "$O/device.txt"; call_clocks
awk -f "$(dirname "$0")/order.awk" "$O/time.txt"
grep -E "elapsed" "$O/time.txt"; grep -vE "^== " "$O/sanitizer.txt" | sort | uniq -c
