#!/bin/bash
# eight.patch beside the solution at a family of tall shapes drawn before the call, seen by no
# earlier run: columns uniform over 1 to 48 (the tall panel's), a matrix of 256 MiB to 4 GiB,
# log-uniform (mawk 1.3.4 here, seed 528113:
#   awk -v seed=528113 'BEGIN { srand(seed); for (i = 0; i < 12; i++) { c = 1 + int(rand() * 48);
#       mib = 256 * 2 ^ (rand() * 4); printf "%dx%d ", int(mib * 262144 / c), c } }'
# ). Interleaved (each build in turn, twice), median of 10 each. The builds as for
# line-call.sh (.devrun/t0182, .devrun/commit). Where the GPU is:
# OUT=DIR bash results/research/tall-lines/family-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t0182 V="eight"
call_begin family
rm -f "$O/build-eight.txt"   # fewer files to bring back (build.txt is the solution's)
call_time "$(awk -v seed=528113 'BEGIN { srand(seed); for (i = 0; i < 12; i++) { c = 1 + int(rand() * 48);
    mib = 256 * 2 ^ (rand() * 4); printf "%dx%d ", int(mib * 262144 / c), c } }')" 250
call_summary
