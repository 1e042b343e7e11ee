#!/bin/bash
# What holds the tall panel back on the H200, if not the L2 (line-call.sh)? Nsight Compute's
# sections of warp states (why a warp did not issue), speed of light, memory workload and
# occupancy, one launch each (--clock-control none): the tall panel of the solution and of
# line-stores.patch at 18262435 x 10 and of the solution at 92214058 x 11, the harness's copy
# kernel at 18262435 x 10, and, for a kernel that reaches the copy, step 7's windows at
# 22912 x 22912 (TK_WAY=0, one band, the way its launch keeps there in the sweep of 0.18.0).
# The builds as for line-call.sh (.devrun/t0182, .devrun/commit). Where the GPU is:
# OUT=DIR bash results/research/tall-lines/stall-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t0182 V="line-stores"
call_begin stall
S="--section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section Occupancy --metrics smsp__inst_executed.sum"
prof() {   # prof ENV KERNEL_REGEX BUILD ROWS COLS
    [ $((SECONDS - t0)) -lt 520 ] || { echo "stopped before $3 at $4 x $5"; return; }
    echo "== $1 ncu --clock-control none $S -k regex:$2 --launch-count 1 $3/transpose --rows $4 --cols $5 --no-cpu --reps 1 --warmup 0 ($(date -u +%T))"
    env $1 timeout 120 ncu --clock-control none $S -k regex:"$2" --launch-count 1 "$3/transpose" --rows "$4" --cols "$5" --no-cpu --reps 1 --warmup 0 2>&1 | grep -vE "^transpose-kit|^copy|^GPU|^note|^==PROF==|^ *$"
}
sol=$T/solution/step7 line=$T/v/line-stores
{
    prof "" panel_tall $sol 18262435 10
    prof "" panel_tall $line 18262435 10
    prof "" tk_copy_kernel $sol 18262435 10
    prof "" panel_tall $sol 92214058 11
    prof TK_WAY=0 transpose_kernel $sol 22912 22912
    echo "elapsed $((SECONDS - t0)) s"
} >"$O/ncu.txt" 2>&1
tail -2 "$O/device.txt"; call_clocks
grep -E "^==|Duration|Stall|stall|Warp Cycles Per Issued|Issued Warp|Achieved Occupancy|DRAM Throughput|L2 Cache Throughput|Memory Throughput|elapsed|stopped" "$O/ncu.txt" | cut -c1-160
