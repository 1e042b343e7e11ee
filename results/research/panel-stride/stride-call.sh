#!/bin/bash
# The panels' stride (panel_stride, committed) against the stride W + 1 (.devrun/base7: solution/step7 at 80be54d)
# .devrun/base7 (ignored): mkdir -p /tmp/b7 .devrun && git archive 80be54d solution/step7 | tar -x -C /tmp/b7 && mv /tmp/b7/solution/step7 .devrun/base7; .devrun/commit: git rev-parse --short HEAD > .devrun/commit
# bash .devrun/stride.sh  (~250 s): exact at edge shapes, memcheck, one process a shape a build twice, ncu bank conflicts
set -u
cd "$(dirname "$0")"; while [ ! -f common/common.mk ] && [ "$PWD" != / ]; do cd ..; done   # the kit, from .devrun/ or from here
O=$OUT/stride; mkdir -p "$O"; t0=$SECONDS
{ date -u; echo "kit $(cat .devrun/commit); base: solution/step7 of 80be54d (.devrun/base7)"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; } >"$O/device.txt" 2>&1
(make -C solution/step7 SM=90 && make -C .devrun/base7 SM=90) >"$O/build.txt" 2>&1 || { tail "$O/build.txt"; exit 1; }
EDGE=13x1000,9x777,17x999,45x1001,69x333,85x4097,109x1001,13x33,1x77,3x100001,11x70001,13x1001,9000x11,100003x13,2001x40,70000x33,129x40,33x1
echo "== solution/step7/transpose --shapes $EDGE --no-cpu --reps 2 --warmup 1" >"$O/edge.txt"
timeout 40 solution/step7/transpose --shapes $EDGE --no-cpu --reps 2 --warmup 1 >>"$O/edge.txt" 2>&1; echo "exit $?" >>"$O/edge.txt"
echo "== compute-sanitizer --tool memcheck solution/step7/transpose --shapes 13x1001,9x777,11x70001,100003x13,45x1001 --no-cpu --reps 1 --warmup 0" >>"$O/edge.txt"
timeout 60 compute-sanitizer --tool memcheck solution/step7/transpose --shapes 13x1001,9x777,11x70001,100003x13,45x1001 --no-cpu --reps 1 --warmup 0 2>&1 | grep -E "ERROR SUMMARY|not exact|exact" >>"$O/edge.txt"
S=${SHAPES:-13x13158019,9x28796372,17x9000011,45x44231124,69x44013014,85x1815063,109x19593121,14x33472135,10x7133871,92214058x11,18262435x10,2129413x40}
for s in ${S//,/ }; do
  for b in .devrun/base7 solution/step7 .devrun/base7 solution/step7; do
    echo "== $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 ($(date -u +%T))"
    timeout 40 $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 2>&1 | grep -E "^transpose-kit|GPU-any|copy ceiling|WRONG|rror"
  done
done >"$O/time.txt" 2>&1
echo "elapsed $((SECONDS - t0)) s" >>"$O/time.txt"
M=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
for s in 13x13158019 9x28796372; do for b in .devrun/base7 solution/step7; do
  [ $((SECONDS - t0)) -lt ${NCU_BY:-480} ] || break 2
  echo "== ncu --clock-control none --metrics $M -k regex:panel --launch-count 1 $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0"
  timeout 60 ncu --clock-control none --metrics $M -k regex:panel --launch-count 1 $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0 2>&1 | grep -E "^  [a-z_]+|panel_"
done; done >"$O/ncu.txt" 2>&1
cat "$O/device.txt"; grep -cE "exact" "$O/edge.txt"; grep -E "not exact|WRONG|rror|SUMMARY|exit" "$O/edge.txt"
awk '/^==/{b=$2; s=$4"x"$6} /GPU-any/{for(i=NF;i>0;i--) if($i~/%$/){p=$i;break}; print s, b, p}' "$O/time.txt" | paste - - - - | awk '{print $1, "base", $3, $9, "stride", $6, $12}'; grep -E "elapsed|WRONG|rror" "$O/time.txt"
grep -E "^==|bank|wavefronts|inst_exec|duration|dram__|mio|short" "$O/ncu.txt" | sed 's/  */ /g' | cut -c1-160
