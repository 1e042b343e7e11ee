#!/bin/bash
# Does the tall panel gain from storing its runs a float4 at a time? vector-stores.patch over
# 0.17.4's solution/step7/panels.cuh: the panel's stride P leaves rows's remainder by 4, so that
# a run and its column of the panel begin equally far past a float4; each run's whole float4s
# are read (LDS.128) and written (STG.128) whole, its head and tail (4 to 7 floats) one at a
# time. Exact on tests/panels-cpu at 400 shapes of three seeds, and under ASan and UBSan (a
# float4 there needs 16-byte alignment): cpu.sh, vector-cpu.txt. Timed interleaved (solution, patch, twice), median of
# 10 each, at the H200 sweep's ten tall panel shapes, 2129412 x 40 (rows a multiple of 4: the
# stride the patch allows puts 5 lanes on a bank at a time in the staging, against 2) and the
# H100 sweep's 5386045 x 28 (3 against 2); then compute-sanitizer's memcheck and racecheck on
# the patch at small tall shapes, and Nsight Compute at 2129413 x 40 and 92214058 x 11.
# The builds: make them here first, in .devrun/t0174 (ignored; carried):
# bash results/research/tall-h200/variants.sh .devrun/t0174; and .devrun/commit:
# git rev-parse --short HEAD > .devrun/commit. Then, where the GPU is:
# OUT=DIR bash results/research/tall-h200/vector-call.sh
set -u
cd "$(dirname "$0")"; while [ ! -f common/common.mk ] && [ "$PWD" != / ]; do cd ..; done   # the kit
O=${OUT:?set OUT to a folder for the logs}/vector; mkdir -p "$O"; t0=$SECONDS
V="vector-stores"
T=.devrun/t0174; for v in $V; do [ -f $T/v/$v/panels.cuh ] || { echo "no $T/v/$v: see this script's header"; exit 1; }; done
{ date -u; echo "kit $(cat .devrun/commit)"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; } >"$O/device.txt" 2>&1
make -C $T/solution/step7 SM=90 >"$O/build.txt" 2>&1 & for v in $V; do make -C $T/v/$v SM=90 >"$O/build-$v.txt" 2>&1 & done; wait
[ -x $T/solution/step7/transpose ] || { tail "$O/build.txt"; exit 1; }
for v in $V; do [ -x $T/v/$v/transpose ] || { tail "$O/build-$v.txt"; exit 1; }; done
B="$T/solution/step7"; for v in $V; do B="$B $T/v/$v"; done
for s in ${SHAPES:-2129413x40 92214058x11 18262435x10 11754751x6 353948970x3 5869126x16 9900238x27 21208700x7 55073492x1 60670744x2 2129412x40 5386045x28}; do
  for b in $B $B; do
    [ $((SECONDS - t0)) -lt ${TIME_BY:-330} ] || break 2
    echo "== $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 ($(date -u +%T))"
    timeout 60 $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 2>&1 | grep -E "^transpose-kit|GPU-any|copy ceiling|WRONG|rror"
  done
done >"$O/time.txt" 2>&1
echo "elapsed $((SECONDS - t0)) s" >>"$O/time.txt"
for s in 5003x1 70001x3 9001x7 40961x16 100003x40 100002x40 4099x48; do for tool in memcheck racecheck; do
  echo "== compute-sanitizer --tool $tool $T/v/vector-stores/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0"
  timeout 60 compute-sanitizer --tool $tool $T/v/vector-stores/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|GPU-any|WRONG|rror"
done; done >"$O/sanitizer.txt" 2>&1
echo "elapsed $((SECONDS - t0)) s" >>"$O/sanitizer.txt"
M=smsp__inst_executed.sum,gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum
for s in 2129413x40 92214058x11; do for b in $B; do
  [ $((SECONDS - t0)) -lt ${NCU_BY:-520} ] || break 2
  echo "== ncu --clock-control none --metrics $M -k regex:panel --launch-count 1 $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0"
  timeout 60 ncu --clock-control none --metrics $M -k regex:panel --launch-count 1 $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0 2>&1 | grep -E "^ +[a-z0-9_]+__|panel_"
done; done >"$O/ncu.txt" 2>&1
echo "elapsed $((SECONDS - t0)) s" >>"$O/ncu.txt"
tail -2 "$O/device.txt"
awk '/^==/{b=$2; sub(/\/transpose$/, "", b); sub(/.*\//, "", b); s=$4"x"$6} /GPU-any/{for(i=NF;i>0;i--) if($i~/%$/){p=$i;break}; r[s]=r[s] " " b "=" p} END{for(s in r) print s r[s]}' "$O/time.txt"
grep -E "elapsed|WRONG|rror" "$O/time.txt"; grep -vE "^==" "$O/sanitizer.txt" | sort | uniq -c
grep -E "^==|inst_exec|duration|issue_active|dram__|lts__|elapsed" "$O/ncu.txt" | sed 's/  */ /g' | cut -c1-150
