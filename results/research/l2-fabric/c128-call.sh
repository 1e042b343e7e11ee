#!/bin/bash
# H200: 128-column windows (64 and 128 rows) beside step7-six at near-squares; what the L2's throughput is made of.
set -u
cd "$(dirname "$0")"; while [ ! -f common/common.mk ] && [ "$PWD" != / ]; do cd ..; done   # the kit, from .devrun/ or from here
O=$OUT/c128; mkdir -p "$O"; t0=$SECONDS
{ date -u; echo "kit $(cat .devrun/commit) + levers win-c128-* (working tree)"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; ncu --version | tail -1; } >"$O/device.txt" 2>&1
(make -C solution/step7 SM=90 && make -C scripts/bench SM=90 levers) >"$O/build.txt" 2>&1 || { tail -30 "$O/build.txt"; exit 1; }
L=win-c128,step7-six
for s in 8192x8191 8191x8191 12345x6789 16383x16385 28787x28783 55903x55903 63684x63683; do
  [ $((SECONDS - t0)) -lt ${TIME_BY:-330} ] || break
  echo "== LEVERS=$L scripts/bench/levers --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 ($(date -u +%T))"
  LEVERS=$L timeout 120 scripts/bench/levers --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 2>&1; echo "exit $?"
done >"$O/time.txt" 2>&1
B=breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,breakdown:dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
for s in 8192x8192 8192x8191; do
  echo "== TK_WAY=0 ncu --clock-control none --metrics $B -k regex:transpose_kernel --launch-count 1 solution/step7/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0 ($(date -u +%T))"
  TK_WAY=0 timeout 90 ncu --clock-control none --metrics $B -k regex:transpose_kernel --launch-count 1 solution/step7/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0 2>&1 | grep -E "^ +[a-z0-9_]+__|transpose_kernel|rror"
done >"$O/ncu.txt" 2>&1
echo "elapsed $((SECONDS - t0)) s" >>"$O/time.txt"
awk '/^== LEVERS/{s=$5" x "$7} /^(win|step7)/{print s, $1, $(NF-1)} /^note:/{print s, $0} /^exit|elapsed/' "$O/time.txt" | cut -c1-300
sed 's/  */ /g' "$O/ncu.txt" | cut -c1-120
