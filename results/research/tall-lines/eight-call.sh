#!/bin/bash
# The tall panel with 8 blocks a multiprocessor and nothing spilled. occupancy-call.sh's builds
# spilled registers to reach 32 a thread; eight.patch over 0.18.2's solution/step7/panels.cuh
# makes the tall panel two kernels (below 4 columns and from 4, each with registers of its
# own), asks each for 8 blocks of 256 threads (__launch_bounds__(NT, 2048 / NT)), and writes a
# run's floats one step of the loop at a time (#pragma unroll 1): 32 registers, none spilled
# (regs.txt). eight-lines.patch does the same with line-stores.patch's stores; eight-lines-u4
# keeps the narrow kernel's unrolled store loop (12 bytes spilled there). Timed interleaved
# beside the solution and occupancy-lines.patch (five builds, twice), median of 10 each, at
# line-call.sh's shapes; compute-sanitizer's memcheck and racecheck on the three new builds at
# small tall shapes; Nsight Compute on every build at 353948970 x 3 and 18262435 x 10, as in
# async-call.sh. The builds as for line-call.sh (.devrun/t0182, .devrun/commit). Where the
# GPU is: OUT=DIR bash results/research/tall-lines/eight-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t0182 V="occupancy-lines eight eight-lines eight-lines-u4"
call_begin eight
call_build_logs
call_time "353948970x3 18262435x10 92214058x11 11754751x6 5869126x16 21208700x7 55073492x1 60670744x2 2129413x40 9900238x27 5386045x28 9543220x13" 330
call_sanitize "$T/v/eight $T/v/eight-lines $T/v/eight-lines-u4" "5003x1 70001x3 9001x7 40961x16 100003x40 4099x48 1000013x5"
call_ncu gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors.sum,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio \
    "353948970x3 18262435x10" 560
call_summary
