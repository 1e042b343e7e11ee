#!/bin/bash
# The stepped staging (index-call.sh's stage-stepped.patch, 0.8 to 3.3 points up at every wide
# shape there) at the rest of the H200 sweep's wide shapes under 90%, 7 to 11 GiB a matrix, and
# at four wide shapes of 1 to 39 rows (1 and 6 rows: panels with W > NT, the staging's second
# loop); beside it stage-and-index.patch: the same staging with stepped-index.patch's store loop
# (index-call.sh's store-stepped, the store loop without its division, was no faster than
# stepped-index). Interleaved, twice, median of 10 each. Then compute-sanitizer's memcheck and
# racecheck on stage-and-index at small wide shapes of both loops.
# The builds come from 0.17.3's tree with each patch: make them here first, in .devrun/t0173
# (ignored; carried): bash results/research/panel-stride/variants.sh .devrun/t0173; and
# .devrun/commit: git rev-parse --short HEAD > .devrun/commit. Then, where the GPU is:
# OUT=DIR bash results/research/panel-stride/stage-call.sh
# (the committed logs, run before 0.17.4, name 0.17.3's solution solution/step7: it was the tree's then)
set -u
cd "$(dirname "$0")"; while [ ! -f common/common.mk ] && [ "$PWD" != / ]; do cd ..; done   # the kit
O=${OUT:?set OUT to a folder for the logs}/stage; mkdir -p "$O"; t0=$SECONDS
V="stage-stepped stage-and-index"
T=.devrun/t0173; for v in $V; do [ -f $T/v/$v/panels.cuh ] || { echo "no $T/v/$v: see this script's header"; exit 1; }; done
{ date -u; echo "kit $(cat .devrun/commit)"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; } >"$O/device.txt" 2>&1
make -C $T/solution/step7 SM=90 >"$O/build.txt" 2>&1 || { tail "$O/build.txt"; exit 1; }
for v in $V; do make -C $T/v/$v SM=90 >"$O/build-$v.txt" 2>&1 & done; wait
for v in $V; do [ -x $T/v/$v/transpose ] || { tail "$O/build-$v.txt"; exit 1; }; done
B="$T/solution/step7"; for v in $V; do B="$B $T/v/$v"; done
for s in ${SHAPES:-69x44013014 94x28694626 109x19593121 112x17218567 74x31663346 6x73449945 39x8769301 1x400000003 16x25000001}; do
  for b in $B $B; do
    [ $((SECONDS - t0)) -lt ${TIME_BY:-420} ] || break 2
    echo "== $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 ($(date -u +%T))"
    timeout 60 $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 2>&1 | grep -E "^transpose-kit|GPU-any|copy ceiling|WRONG|rror"
  done
done >"$O/time.txt" 2>&1
echo "elapsed $((SECONDS - t0)) s" >>"$O/time.txt"
for s in 1x5003 3x70001 16x40961 17x9000 67x100003 112x4097; do for tool in memcheck racecheck; do
  echo "== compute-sanitizer --tool $tool $T/v/stage-and-index/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0"
  timeout 60 compute-sanitizer --tool $tool $T/v/stage-and-index/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|GPU-any|WRONG|rror"
done; done >"$O/sanitizer.txt" 2>&1
echo "elapsed $((SECONDS - t0)) s" >>"$O/sanitizer.txt"
tail -2 "$O/device.txt"
awk '/^==/{b=$2; sub(/\/transpose$/, "", b); sub(/.*\//, "", b); s=$4"x"$6} /GPU-any/{for(i=NF;i>0;i--) if($i~/%$/){p=$i;break}; r[s]=r[s] " " b "=" p} END{for(s in r) print s r[s]}' "$O/time.txt"
grep -E "elapsed|WRONG|rror" "$O/time.txt"; grep -vE "^==" "$O/sanitizer.txt" | sort | uniq -c
