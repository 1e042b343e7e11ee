#!/bin/bash
# H200: the order of the groups of column bands at the window shapes whose rows start off a
# sector, where the sweep of 0.18.0 (results/h200-sweep-305782686-6d2ffbb.csv) left step 7 under 90%.
# Question: does a group of 8 bands read again from DRAM the sector it shares with the next
# group (the next group meets it a whole pass down the matrix later: at 63684 rows about
# 130 MB, more than the L2), and do more bands at a time, or every other group run from the
# bottom up (serp.patch), cut the time? Each shape, in two turns: the solution in the way its
# launch keeps; then 128 rows in 8 bands forced (TK_WAY=3) with TK_G=8, 16 and 32 bands at a
# time, in order top down (g.patch) and serpentine (serp.patch); median of 10 each. Then
# Nsight Compute's DRAM bytes at 63684 x 63683 for the serpentine order and 16 bands.
# The builds: bash results/research/group-order/variants.sh .devrun/t65cb (here, no GPU), and
# git rev-parse --short HEAD > .devrun/commit. Then, where the GPU is (carry .devrun):
# OUT=DIR bash results/research/group-order/order-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t65cb V="g serp"
call_begin order
C=("TK_NONE=1 $T/solution/step7")
for g in 8 16 32; do for v in g serp; do C+=("TK_WAY=3 TK_G=$g $T/v/$v"); done; done
call_turns "63684x63683 55903x55903 28787x28783 16383x16385 46299x46306 22912x22912" 420 "${C[@]}"
F=lts__t_sectors_srcunit_ltcfabric   # the fabric's sectors (gh100)
. results/research/l2-fabric/prof.sh   # M (with F) and prof
{
echo "M=$M"
[ $((SECONDS - t0)) -lt 470 ] && prof transpose_kernel "TK_WAY=3 TK_G=8" $T/v/serp/transpose 63684 63683
[ $((SECONDS - t0)) -lt 500 ] && prof transpose_kernel "TK_WAY=3 TK_G=16" $T/v/g/transpose 63684 63683
echo "elapsed $((SECONDS - t0)) s"
} >"$O/ncu.txt" 2>&1
tail -2 "$O/device.txt"; call_clocks
awk -f "$(dirname "$0")/order.awk" "$O/time.txt"
grep -E "^==|dram__bytes|duration|elapsed|rror" "$O/ncu.txt" | sed 's/  */ /g' | cut -c1-150
