#!/bin/bash
# Is the tall panel held back by its occupancy? Under Nsight Compute (stall-call.sh) its 40
# registers a thread leave room for 6 blocks of 256 threads a multiprocessor (75% occupancy)
# and its warps wait on their loads 60% of the time. occupancy.patch over 0.18.2's
# solution/step7/panels.cuh asks the compiler for 8 blocks (__launch_bounds__(NT, 2048 / NT):
# 32 registers, 16 bytes spilled); occupancy-lines.patch does the same over line-stores.patch.
# Timed interleaved (the solution and the three patches, twice), median of 10 each, at the
# shapes of line-call.sh; compute-sanitizer's memcheck and racecheck on occupancy at small tall
# shapes; Nsight Compute's occupancy and warp states on occupancy at 18262435 x 10 and
# 92214058 x 11. The builds as for line-call.sh (.devrun/t0182, .devrun/commit). Where the
# GPU is: OUT=DIR bash results/research/tall-lines/occupancy-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t0182 V="occupancy line-stores occupancy-lines"
call_begin occupancy
call_time "18262435x10 92214058x11 353948970x3 11754751x6 5869126x16 21208700x7 55073492x1 60670744x2 2129413x40 9900238x27 5386045x28 9543220x13" 400
call_sanitize $T/v/occupancy "5003x1 70001x3 9001x7 40961x16 100003x40 4099x48 1000013x5"
B=$T/v/occupancy call_ncu smsp__inst_executed.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem \
    "18262435x10 92214058x11" 540
call_summary
