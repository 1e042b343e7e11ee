#!/bin/bash
# H200: wide.patch's three ways beside the solution at the window shapes with a halo that the
# H200's sweep of 0.20.0 left under 90% (and 8191 x 8192, whose input rows start on a sector).
# A block of 64 columns reads a row's 64 floats; where the row starts off a sector they touch
# 9 sectors, not 8, and the halo stages 7 rows more: 135 for 128 in way 3, the way the
# solution keeps at the largest near-squares. Windows 128 columns wide touch 17 sectors for
# 16, and 128 x 128 windows stage 135 rows for 128: about 6% fewer L2 read sectors than way 3
# (../../../step7/RESEARCH.md, "The H200's L2": the L2's fabric is its busiest part). Each
# shape in one turn (the turns of group-order/ differed by 0.3 point at most): the solution
# as its launch picks, then the patch forced to each new way (TK_WAY=6, 7, 8: the shape's
# seventh to ninth way, 10 to 12 of the patch); median of 10 each. Then memcheck and
# racecheck on the new ways at two small shapes. The builds: bash
# results/research/near-squares/variants.sh .devrun/tdbf (here, no GPU), and
# git rev-parse --short HEAD > .devrun/commit. Then, where the GPU is (carry .devrun):
# OUT=DIR bash results/research/near-squares/wide-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/tdbf V="wide"
call_begin wide
TURNS=1 call_turns "63684x63683 28787x28783 12425x12429 48289x11256 59660x59662 46299x46306 55903x55903 8191x8192" 380 \
    "TK_NONE=1 $T/solution/step7" "TK_WAY=6 $T/v/wide" "TK_WAY=7 $T/v/wide" "TK_WAY=8 $T/v/wide"
for w in 6 7 8; do
    TK_WAY=$w call_sanitize $T/v/wide "1001x1003 1030x4099"
    { echo "== TK_WAY=$w for each run below"; cat "$O/sanitizer.txt"; } >>"$O/sanitizer-ways.txt"
done
mv "$O/sanitizer-ways.txt" "$O/sanitizer.txt"
call_build_logs
tail -2 "$O/device.txt"; call_clocks
awk -f "$(dirname "$0")/../group-order/order.awk" "$O/time.txt"
grep -E "elapsed" "$O/time.txt"; grep -vE "^== " "$O/sanitizer.txt" | sort | uniq -c
