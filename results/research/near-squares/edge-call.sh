#!/bin/bash
# H200: edge.patch beside the solution, each forced to one band at a time (TK_WAY=0) and to
# 128 rows in 8 bands (TK_WAY=3, the way the solution keeps at the largest near-squares), at
# six window shapes with a halo that the H200's sweep of 0.20.0 left under 90%. Question: the
# near-squares read about 3% more than their matrix from DRAM in 8 bands and 15.7% more in one
# band (../../../step7/RESEARCH.md, "The near-squares' extra reads"): are those the sectors two
# bands share, read again a pass apart, and does keeping them in the L2 buy time? Each shape
# in one turn, median of 10 each (the patch's policy is a thread's, but the machine code gives
# each warp one: variants.sh); then Nsight Compute (DRAM bytes, time) on the four at
# 28787 x 28783, and memcheck and racecheck on the patch at two small shapes. The builds: bash
# results/research/near-squares/variants.sh .devrun/tdbf (here, no GPU), and
# git rev-parse --short HEAD > .devrun/commit. Then, where the GPU is (carry .devrun):
# OUT=DIR bash results/research/near-squares/edge-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/tdbf V="edge"
call_begin edge
TURNS=1 call_turns "63684x63683 28787x28783 55903x55903 59660x59662 46299x46306 12425x12429" 330 \
    "TK_WAY=0 $T/solution/step7" "TK_WAY=0 $T/v/edge" "TK_WAY=3 $T/solution/step7" "TK_WAY=3 $T/v/edge"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
for w in 0 3; do for b in $T/solution/step7 $T/v/edge; do
    echo "== TK_WAY=$w ncu --clock-control none --metrics $M -k regex:transpose_kernel --launch-count 1 $b/transpose --rows 28787 --cols 28783 --no-cpu --reps 1 --warmup 0"
    TK_WAY=$w timeout 90 ncu --clock-control none --metrics "$M" -k regex:transpose_kernel --launch-count 1 "$b/transpose" --rows 28787 --cols 28783 --no-cpu --reps 1 --warmup 0 2>&1 | grep -E "^ +[a-z0-9_]+__|transpose_kernel|WRONG|rror"
done; done >"$O/ncu.txt" 2>&1
TK_WAY=0 call_sanitize $T/v/edge "1001x1003 1030x4099"
call_build_logs
tail -2 "$O/device.txt"; call_clocks
awk -f "$(dirname "$0")/../group-order/order.awk" "$O/time.txt"
grep -E "elapsed" "$O/time.txt"; grep -vE "^== " "$O/sanitizer.txt" | sort | uniq -c
grep -E "^==|__" "$O/ncu.txt" | sed 's/  */ /g' | cut -c1-150
