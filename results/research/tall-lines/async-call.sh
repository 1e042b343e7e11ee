#!/bin/bash
# The tall panel's loads in flight without registers: async.patch over 0.18.2's
# solution/step7/panels.cuh stages the stretch a float an asynchronous copy (as the wide panel
# stages its runs), 32 registers a thread and none spilled; async-lines.patch does the same over
# line-stores.patch. Timed interleaved beside the solution and the three patches of
# occupancy-call.sh (six builds, twice), median of 10 each, at line-call.sh's shapes;
# compute-sanitizer's memcheck and racecheck on both new patches at small tall shapes; Nsight
# Compute on every build at 353948970 x 3 and 18262435 x 10 (time, DRAM bytes, L2 sectors and
# write requests, instructions, registers, occupancy and what limits it, the stall on loads).
# The builds as for line-call.sh (.devrun/t0182, .devrun/commit; regs.sh gives each build's
# registers and spills, regs.txt). Where the GPU is:
# OUT=DIR bash results/research/tall-lines/async-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t0182 V="async async-lines occupancy occupancy-lines line-stores"
call_begin async
call_build_logs
call_time "353948970x3 18262435x10 92214058x11 11754751x6 5869126x16 21208700x7 55073492x1 60670744x2 2129413x40 9900238x27 5386045x28 9543220x13" 330
call_sanitize "$T/v/async $T/v/async-lines" "5003x1 70001x3 9001x7 40961x16 100003x40 4099x48 1000013x5"
call_ncu gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors.sum,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio \
    "353948970x3 18262435x10" 560
call_summary
