#!/bin/bash
# Do fewer instructions make the wide panel faster? The solution's panel_wide beside four
# candidates, each a patch over solution/step7/panels.cuh (this folder):
#   stepped-index.patch: the store loop steps the panel index by P instead of multiplying;
#   store-stepped.patch: that, and no division in the store loop (row and column stepped too);
#   stage-stepped.patch: that, and the staging loop's row and pointer stepped (no shifts, no
#     64-bit multiply), one loop for W <= NT and one for W > NT;
#   tail-apart.patch: that, and the stretch's last float4 stored apart, so that the other
#     loads need no test. All exact on tests/panels-cpu at 400 shapes of three seeds.
# Timed interleaved (base, the four, twice) at wide shapes of the H200 sweep under or near 90%,
# median of 10 each; then Nsight Compute's instruction count and time at 67 x 2537362 and 10 x 7133871.
# The builds come from 0.17.3's tree with each patch: make them here first, in .devrun/t0173
# (ignored; carried): bash results/research/panel-stride/variants.sh .devrun/t0173; and
# .devrun/commit: git rev-parse --short HEAD > .devrun/commit. Then, where the GPU is:
# OUT=DIR bash results/research/panel-stride/index-call.sh
# (the committed logs, run before 0.17.4, name 0.17.3's solution solution/step7: it was the tree's then)
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t0173 V="stepped-index store-stepped stage-stepped tail-apart"
call_begin index
call_time "67x2537362 70x9005916 112x819817 112x3694038 103x843720 85x1815063 99x7284220 68x23637393 10x7133871 14x33472135 3x58672669" 100000
call_ncu smsp__inst_executed.sum,gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed \
    "67x2537362 10x7133871" 420
call_summary
