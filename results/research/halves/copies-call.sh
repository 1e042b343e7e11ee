#!/bin/bash
# H200: how near kernels come to cudaMemcpy's device-to-device copy (copies.cu's header), at
# the floats of 63684 x 63683 (the sweep's worst near-square), 46299 x 46306, 28787 x 28783,
# 22912 x 22912 and 8192 x 8192 (each rounded down to a multiple of 4). Question: is the
# sweep's ceiling on the H200 one that a kernel reaches? Where the GPU is (carry .devrun):
# OUT=DIR bash results/research/halves/copies-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
call_device copies
bash results/research/halves/build.sh copies /tmp/copies >"$O/build.txt" 2>&1 || { cat "$O/build.txt"; exit 1; }
{
for s in 63684x63683 46299x46306 28787x28783 22912x22912 8192x8192; do
    n=$(( ${s%x*} * ${s#*x} / 4 * 4 ))
    echo "== /tmp/copies --floats $n --reps 15 ($s; $(date -u +%T))"
    timeout 120 /tmp/copies --floats $n --reps 15 2>&1
    echo "rc=$?"
done
echo "elapsed $((SECONDS - t0)) s"
} >"$O/time.txt" 2>&1
call_clocks
cat "$O/time.txt"
