#!/bin/bash
# Two more ways among those step 7's launch times at a shape's first launch (eight-ways.patch
# over 0.17.5's solution/step7/transpose.cu): windows 128 columns wide and 64 rows, one band
# (way 6, the lever benchmark's win-c128-r64-l2-s2-b8-g1: step7/RESEARCH.md, "The H200's L2"),
# and, at a tall panel shape of 4 to 48 columns whose rows fit an int, the tall panel itself
# (way 7): there the windows are timed beside it, where until now the panel was taken
# untimed. Timed interleaved (solution, patch, twice), median of 10 each, at the shapes of
# the H200 sweep of 0.17.4 (seed 305782686) under 90% that the patch can change (tall panels
# of 4 columns or more, windows) but those of 8 GiB and more, and at 8192 x 8192; then
# compute-sanitizer's memcheck and racecheck on the patch at small shapes, where its launch
# times all its ways (each checked).
# The builds: make them here first, in .devrun/t0175 (ignored; carried):
# bash results/research/ways-h200/variants.sh .devrun/t0175; and .devrun/commit:
# git rev-parse --short HEAD > .devrun/commit. Then, where the GPU is:
# OUT=DIR bash results/research/ways-h200/ways-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t0175 V="eight-ways"
call_begin ways
call_time "2129413x40 11754751x6 5869126x16 18262435x10 21208700x7 9900238x27 92214058x11 806744x381 28787x28783 16383x16385 12425x12429 3037383x98 12345x6789 8192x8192" 440
call_sanitize $T/v/eight-ways "100003x40 9001x7 4099x48 20001x4 1001x8191 513x1025"
call_summary
