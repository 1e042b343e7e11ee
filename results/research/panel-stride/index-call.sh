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
cd "$(dirname "$0")"; while [ ! -f common/common.mk ] && [ "$PWD" != / ]; do cd ..; done   # the kit
O=${OUT:?set OUT to a folder for the logs}/index; mkdir -p "$O"; t0=$SECONDS
V="stepped-index store-stepped stage-stepped tail-apart"
T=.devrun/t0173; for v in $V; do [ -f $T/v/$v/panels.cuh ] || { echo "no $T/v/$v: see this script's header"; exit 1; }; done
{ date -u; echo "kit $(cat .devrun/commit)"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; } >"$O/device.txt" 2>&1
make -C $T/solution/step7 SM=90 >"$O/build.txt" 2>&1 || { tail "$O/build.txt"; exit 1; }
for v in $V; do make -C $T/v/$v SM=90 >"$O/build-$v.txt" 2>&1 & done; wait
for v in $V; do [ -x $T/v/$v/transpose ] || { tail "$O/build-$v.txt"; exit 1; }; done
B="$T/solution/step7"; for v in $V; do B="$B $T/v/$v"; done
for s in ${SHAPES:-67x2537362 70x9005916 112x819817 112x3694038 103x843720 85x1815063 99x7284220 68x23637393 10x7133871 14x33472135 3x58672669}; do
  for b in $B $B; do
    echo "== $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 ($(date -u +%T))"
    timeout 60 $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 2>&1 | grep -E "^transpose-kit|GPU-any|copy ceiling|WRONG|rror"
  done
done >"$O/time.txt" 2>&1
echo "elapsed $((SECONDS - t0)) s" >>"$O/time.txt"
M=smsp__inst_executed.sum,gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed
for s in 67x2537362 10x7133871; do for b in $B; do
  [ $((SECONDS - t0)) -lt ${NCU_BY:-420} ] || break 2
  echo "== ncu --clock-control none --metrics $M -k regex:panel --launch-count 1 $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0"
  timeout 60 ncu --clock-control none --metrics $M -k regex:panel --launch-count 1 $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0 2>&1 | grep -E "^ +[a-z0-9_]+__|panel_"
done; done >"$O/ncu.txt" 2>&1
echo "elapsed $((SECONDS - t0)) s" >>"$O/ncu.txt"
tail -2 "$O/device.txt"
awk '/^==/{b=$2; sub(/\/transpose$/, "", b); sub(/.*\//, "", b); s=$4"x"$6} /GPU-any/{for(i=NF;i>0;i--) if($i~/%$/){p=$i;break}; r[s]=r[s] " " b "=" p} END{for(s in r) print s r[s]}' "$O/time.txt"
grep -E "elapsed|WRONG|rror" "$O/time.txt"; grep -E "^==|inst_exec|duration|issue_active|elapsed" "$O/ncu.txt" | sed 's/  */ /g' | cut -c1-150
