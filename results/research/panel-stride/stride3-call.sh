#!/bin/bash
# Is the 10- and 14-row loss of the counted stride the stride, or the instructions of a stride passed at run time?
# .devrun/base7 (ignored): mkdir -p /tmp/b7 .devrun && git archive 80be54d solution/step7 | tar -x -C /tmp/b7 && mv /tmp/b7/solution/step7 .devrun/base7; .devrun/commit: git rev-parse --short HEAD > .devrun/commit
# base7: 0.16.0 (.devrun/base7: solution/step7 of 80be54d, W + 1 worked out in the kernel from W); w1rt: the solution with panel_stride
# forced to W + 1 (test 2's mutant), its stride still a kernel argument; the solution. bash .devrun/stride3.sh (~70 s on an H100)
set -u
cd "$(dirname "$0")"; while [ ! -f common/common.mk ] && [ "$PWD" != / ]; do cd ..; done   # the kit, from .devrun/ or from here
O=$OUT/stride3; mkdir -p "$O"; t0=$SECONDS
rm -rf .devrun/w1rt && mkdir -p .devrun/w1rt && cp solution/step7/transpose.cu solution/step7/Makefile .devrun/w1rt/ && \
  sed 's/P <= span + 8; P++/P <= span + 1; P++/' solution/step7/panels.cuh > .devrun/w1rt/panels.cuh
{ date -u; echo "kit $(cat .devrun/commit); base7: solution/step7 of 80be54d; w1rt: the solution, panel_stride forced to W + 1"; diff solution/step7/panels.cuh .devrun/w1rt/panels.cuh; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; } >"$O/device.txt" 2>&1
(make -C solution/step7 SM=90 && make -C .devrun/base7 SM=90 && make -C .devrun/w1rt SM=90) >"$O/build.txt" 2>&1 || { tail "$O/build.txt"; exit 1; }
for s in ${SHAPES:-10x7133871 14x33472135 13x13158019 3x58672669}; do
  for b in .devrun/base7 .devrun/w1rt solution/step7 .devrun/base7 .devrun/w1rt solution/step7; do
    echo "== $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 ($(date -u +%T))"
    timeout 40 $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 2>&1 | grep -E "^transpose-kit|GPU-any|copy ceiling|WRONG|rror"
  done
done >"$O/time.txt" 2>&1
M=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
for s in 10x7133871 13x13158019; do for b in .devrun/base7 .devrun/w1rt solution/step7; do
  [ $((SECONDS - t0)) -lt ${NCU_BY:-400} ] || break 2
  echo "== ncu --clock-control none --metrics $M -k regex:panel --launch-count 1 $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0"
  timeout 60 ncu --clock-control none --metrics $M -k regex:panel --launch-count 1 $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0 2>&1 | grep -E "^ +[a-z0-9_]+__|panel_"
done; done >"$O/ncu.txt" 2>&1
echo "elapsed $((SECONDS - t0)) s" >>"$O/time.txt"
cat "$O/device.txt" | tail -2
awk '/^==/{b=$2; s=$4"x"$6} /GPU-any/{for(i=NF;i>0;i--) if($i~/%$/){p=$i;break}; print s, b, p}' "$O/time.txt" | paste - - - - - - | awk '{print $1, "base", $3, $12, "w1rt", $6, $15, "stride", $9, $18}'
grep -E "elapsed|WRONG|rror" "$O/time.txt"; grep -E "^==|inst_exec|wavefronts|duration|issue_active|stalled" "$O/ncu.txt" | sed 's/  */ /g' | cut -c1-150
