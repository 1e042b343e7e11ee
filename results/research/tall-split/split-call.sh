#!/bin/bash
# Which of eight.patch's three changes makes its gain: the solution of b21bd6a beside unroll1,
# two, two-u1, eight-u4 and eight (variants.sh), interleaved (each build in turn, twice), median of 10
# each, at five of tall-lines' shapes: the sweep's tall panels of 3, 10, 11 and 16 columns,
# four of the five under 90% where eight.patch gained, and 1 column, where it lost. The builds as variants.sh lays
# them out (.devrun/t0182, .devrun/commit). Where the GPU is:
# OUT=DIR bash results/research/tall-split/split-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t0182 V="unroll1 two two-u1 eight-u4 eight"
call_begin split
call_build_logs
call_time "353948970x3 18262435x10 92214058x11 5869126x16 55073492x1" 320
call_summary
