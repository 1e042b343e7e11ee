#!/bin/bash
# Does the tall panel gain from writing each warp's 32 floats on one 128-byte line?
# line-stores.patch over 0.18.2's solution/step7/panels.cuh: run c of the output starts
# (c rows) % 32 floats past a line, so its floats are rotated among the threads (thread j writes
# float j - s, the first s threads its last s floats) and every warp's store but the one that
# wraps lies on one line; the stride, the staging and the launch are unchanged. Exact on
# tests/panels-cpu at 400 shapes of three seeds, and under ASan and UBSan: cpu.sh, cpu.txt.
# Timed interleaved (solution, patch, twice), median of 10 each, at the H200 sweep's ten tall
# shapes of 1 to 40 columns (at two of them, 27 and 40 columns, the launch keeps its windows)
# and two of the H100 sweep's; then compute-sanitizer's memcheck and racecheck on the patch at
# small tall shapes (a last block of fewer than 32 rows among them), and Nsight Compute at
# 18262435 x 10 and 92214058 x 11 (the stores' L2 requests and sectors, all the L2's sectors, the instructions, the L2's throughput broken down).
# The builds: make them here first, in .devrun/t0182 (ignored; carried):
# bash results/research/tall-lines/variants.sh .devrun/t0182; and .devrun/commit:
# git rev-parse --short HEAD > .devrun/commit. Then, where the GPU is:
# OUT=DIR bash results/research/tall-lines/line-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t0182 V="line-stores"
call_begin line
call_time "18262435x10 92214058x11 353948970x3 11754751x6 5869126x16 21208700x7 55073492x1 60670744x2 2129413x40 9900238x27 5386045x28 9543220x13" 330
call_sanitize $T/v/line-stores "5003x1 70001x3 9001x7 40961x16 100003x40 4099x48 1000013x5"
call_ncu smsp__inst_executed.sum,gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors.sum,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed \
    "18262435x10 92214058x11" 520
call_summary
