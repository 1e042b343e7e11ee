#!/bin/bash
# H200: is it the size or the rows' alignment that keeps step 7 under 90% at the sweep's worst
# near-squares? The solution (solution/step7, as committed) at 63684 x 63683 (the sweep's
# worst) beside 63744 x 63744 (rows a whole number of sectors, 996 windows of 64 each way) and
# the two with one side one less, and the same four around 22912 x 22912 (96.9% in the sweep
# of 0.19.0), in two turns, median of 10 each, % of the copy in the same run.
# Where the GPU is (carry .devrun):
# OUT=DIR bash results/research/streams/align-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
call_device align
make -C solution/step7 SM=90 >"$O/build.txt" 2>&1 || { tail "$O/build.txt"; exit 1; }
call_turns "63744x63744 63744x63743 63743x63744 63684x63683 22912x22912 22912x22911 22911x22912 22911x22911" 420 "TK_SOLUTION=1 solution/step7"
call_summary
grep -E "^==|GPU-any|copy ceiling|note" "$O/time.txt" | cut -c1-200
