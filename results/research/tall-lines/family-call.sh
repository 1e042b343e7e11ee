#!/bin/bash
# eight.patch beside the solution at a family of tall shapes seen by no earlier run: columns
# uniform over 1 to 48 (the tall panel's), a matrix of 256 MiB to 4 GiB, log-uniform, seed
# 528113, set before the call. The call drew them on the GPU machine (its mawk 1.3.4 20240123)
# with
#   awk -v seed=528113 'BEGIN { srand(seed); for (i = 0; i < 12; i++) { c = 1 + int(rand() * 48);
#       mib = 256 * 2 ^ (rand() * 4); printf "%dx%d ", int(mib * 262144 / c), c } }'
# and another mawk (1.3.4 20200120 draws other shapes) would draw others, so the twelve it drew
# are listed here, as h200-family-time.txt has them. Interleaved (each build in turn, twice),
# median of 10 each. The builds as for line-call.sh (.devrun/t0182, .devrun/commit). Where the
# GPU is: OUT=DIR bash results/research/tall-lines/family-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t0182 V="eight"
call_begin family
rm -f "$O/build-eight.txt"   # fewer files to bring back (build.txt is the solution's)
call_time "6195733x11 4385688x21 15570233x9 32417173x30 13059578x6 2982431x29 13545942x33 21246390x41 1997161x38 20711087x34 27984746x16 72244200x14" 250
call_summary
