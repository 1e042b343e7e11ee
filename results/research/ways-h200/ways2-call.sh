#!/bin/bash
# The two ways of ways-call.sh apart, with the launch keeping the way of least median time
# (4878435): the solution (six ways), tall-way.patch (the tall panel as a seventh way, timed
# beside the windows at a tall panel shape of 4 to 48 columns whose rows fit an int) and
# eight-ways.patch (that and 128 x 64 windows in one band), interleaved (each build in turn,
# twice), median of 10 each. The shapes: the H200 sweep of 0.17.4's shapes under 90% that the
# patches can change but those of 8 GiB and more, 8192 x 8192, and a family of ten tall panel
# shapes drawn before the call, not seen by any earlier run: columns uniform over 4 to 48, a
# matrix of 256 MiB to 4 GiB, log-uniform (mawk 1.3.4 here, seed 112846:
#   awk -v seed=112846 'BEGIN { srand(seed); for (i = 0; i < 10; i++) { c = 4 + int(rand() * 45);
#       mib = 256 * 2 ^ (rand() * 4); printf "%dx%d ", int(mib * 262144 / c), c } }'
# ). Then compute-sanitizer on tall-way.patch at small shapes, where its launch times all its
# ways (each checked). The builds: bash results/research/ways-h200/variants.sh .devrun/t4878 2
# and git rev-parse --short HEAD > .devrun/commit, here; then, where the GPU is:
# OUT=DIR bash results/research/ways-h200/ways2-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t4878 V="tall-way eight-ways"
call_begin ways2
call_time "6095276x35 28746097x7 4826577x21 4137680x36 3689229x26 18159294x6 23368606x25 11049698x11 36092106x22 34961354x13 2129413x40 9900238x27 11754751x6 5869126x16 18262435x10 92214058x11 28787x28783 16383x16385 12425x12429 12345x6789 3037383x98 806744x381 8192x8192" 400
call_sanitize $T/v/tall-way "100003x40 9001x7 4099x48 20001x4"
call_summary
