#!/bin/bash
# The kit's solution/step7 as the tall panel was adopted (two kernels, 8 blocks, store loops
# not unrolled): compute-sanitizer's memcheck and racecheck at small tall shapes of 1 to 48
# columns (each kernel, a last block of fewer rows, a stretch off a float4), before the H200
# sweep runs it. Its device.txt and clocks.csv were not brought back (a call brings back at
# most 8 files, and the sweep's part 1 and 2 shared the call: OUT/check/ kept sanitizer.txt
# alone); the sweep's logs/h200-sweep-305782686-110fe3d-call1-device.txt names that machine.
# Where the GPU is: OUT=DIR bash results/research/tall-split/check-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
call_device check
make -C solution/step7 SM=90 >"$O/build.txt" 2>&1 || { tail "$O/build.txt"; exit 1; }
call_sanitize solution/step7 "5003x1 70001x2 70001x3 9001x4 9001x7 40961x16 100003x40 4099x48 1000013x5 777777x11"
call_summary
