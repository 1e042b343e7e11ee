#!/bin/bash
# Does the tall panel gain from storing its runs a float4 at a time? vector-stores.patch over
# 0.17.4's solution/step7/panels.cuh: the panel's stride P leaves rows's remainder by 4, so that
# a run and its column of the panel begin equally far past a float4; each run's whole float4s
# are read (LDS.128) and written (STG.128) whole, its head and tail (4 to 7 floats) one at a
# time. Exact on tests/panels-cpu at 400 shapes of three seeds, and under ASan and UBSan (a
# float4 there needs 16-byte alignment): cpu.sh, vector-cpu.txt. Timed interleaved (solution, patch, twice), median of
# 10 each, at the H200 sweep's ten tall panel shapes, 2129412 x 40 (rows a multiple of 4: the
# stride the patch allows puts 5 lanes on a bank at a time in the staging, against 2) and the
# H100 sweep's 5386045 x 28 (3 against 2); then compute-sanitizer's memcheck and racecheck on
# the patch at small tall shapes, and Nsight Compute at 2129413 x 40 and 92214058 x 11.
# The builds: make them here first, in .devrun/t0174 (ignored; carried):
# bash results/research/tall-h200/variants.sh .devrun/t0174; and .devrun/commit:
# git rev-parse --short HEAD > .devrun/commit. Then, where the GPU is:
# OUT=DIR bash results/research/tall-h200/vector-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t0174 V="vector-stores"
call_begin vector
call_time "2129413x40 92214058x11 18262435x10 11754751x6 353948970x3 5869126x16 9900238x27 21208700x7 55073492x1 60670744x2 2129412x40 5386045x28" 330
call_sanitize $T/v/vector-stores "5003x1 70001x3 9001x7 40961x16 100003x40 100002x40 4099x48"
call_ncu smsp__inst_executed.sum,gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum \
    "2129413x40 92214058x11" 520
call_summary
