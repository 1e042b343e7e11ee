#!/bin/bash
# H200: why input rows off a sector cost step 7's windows more than on the H100.
# ncu on step 7's way 0 (64 x 64 windows, one band at a time) at 256 MiB shapes differing only in
# row alignment, and on the 128-column window lever; then timing of the levers beside step7-six.
set -u
cd "$(dirname "$0")"; while [ ! -f common/common.mk ] && [ "$PWD" != / ]; do cd ..; done   # the kit, from .devrun/ or from here
O=$OUT/odd200; mkdir -p "$O"; t0=$SECONDS
{ date -u; echo "kit $(cat .devrun/commit) + levers win-c128-* (working tree)"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; ncu --version | tail -1; } >"$O/device.txt" 2>&1
(make -C solution/step7 SM=90 && make -C scripts/bench SM=90 levers) >"$O/build.txt" 2>&1 || { tail -30 "$O/build.txt"; exit 1; }
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_elapsed,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,sm__warps_active.avg.pct_of_peak_sustained_active
for s in 8192x8192 8192x8190 8192x8191 8191x8192; do
  echo "== TK_WAY=0 ncu --clock-control none --metrics \$M -k regex:transpose_kernel --launch-count 1 solution/step7/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0 ($(date -u +%T))"
  TK_WAY=0 timeout 90 ncu --clock-control none --metrics $M -k regex:transpose_kernel --launch-count 1 solution/step7/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0 2>&1 | grep -E "^ +[a-z0-9_]+__|transpose_kernel|rror"
done >"$O/ncu.txt" 2>&1
for s in 8192x8190 8192x8191; do for v in win-c128-r64-l2-s2-b8-g1 win-c64-r64-l2-s2-b16-g1-a2; do
  echo "== LEVERS=$v ncu --clock-control none --metrics \$M -k regex:window_kernel --launch-count 1 scripts/bench/levers --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0 ($(date -u +%T))"
  LEVERS=$v timeout 90 ncu --clock-control none --metrics $M -k regex:window_kernel --launch-count 1 scripts/bench/levers --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0 2>&1 | grep -E "^ +[a-z0-9_]+__|window_kernel|rror"
done; done >>"$O/ncu.txt" 2>&1
echo "ncu done $((SECONDS - t0)) s" >"$O/time.txt"
L=win-c64-r64-l2-s2-b16-g1,win-c64-r64-l2-s2-b16-g1-a2,win-c128-r64-l2-s2-b8-g1,win-c128-r64-l2-s2-b8-g8,win-c128-r64-l2-s2-b8-g1-a2,step7-six
for s in 8192x8192 8192x8190 8192x8191 16383x16385 28787x28783 55903x55903; do
  [ $((SECONDS - t0)) -lt ${TIME_BY:-420} ] || break
  echo "== LEVERS=$L scripts/bench/levers --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 ($(date -u +%T))"
  LEVERS=$L timeout 120 scripts/bench/levers --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 2>&1; echo "exit $?"
done >>"$O/time.txt" 2>&1
echo "elapsed $((SECONDS - t0)) s" >>"$O/time.txt"
grep -E "^==|duration|bytes_|lts__t_|l1tex__t_|inst_exec|throughput|issue_active|stalled|warps_active|rror" "$O/ncu.txt" | sed 's/  */ /g' | cut -c1-110
grep -E "^==|^win|^step7|^copy ceiling \(|note:|elapsed|exit|WRONG" "$O/time.txt" | cut -c1-120
