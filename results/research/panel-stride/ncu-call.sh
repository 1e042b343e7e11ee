#!/bin/bash
# Bank conflicts of the wide panel, stride W + 1 (.devrun/base7) against panel_stride (solution/step7)
# .devrun/base7 (ignored): mkdir -p /tmp/b7 .devrun && git archive 80be54d solution/step7 | tar -x -C /tmp/b7 && mv /tmp/b7/solution/step7 .devrun/base7; .devrun/commit: git rev-parse --short HEAD > .devrun/commit
set -u
cd "$(dirname "$0")"; while [ ! -f common/common.mk ] && [ "$PWD" != / ]; do cd ..; done   # the kit, from .devrun/ or from here
O=$OUT/ncustride; mkdir -p "$O"
{ date -u; echo "kit $(cat .devrun/commit); base: solution/step7 of 80be54d (.devrun/base7)"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; ncu --version | tail -1; } >"$O/device.txt" 2>&1
(make -C solution/step7 SM=90 && make -C .devrun/base7 SM=90) >"$O/build.txt" 2>&1 || { tail "$O/build.txt"; exit 1; }
M=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
for s in 13x13158019 9x28796372; do for b in .devrun/base7 solution/step7; do
  echo "== ncu --clock-control none --metrics $M -k regex:panel --launch-count 1 $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0"
  timeout 60 ncu --clock-control none --metrics $M -k regex:panel --launch-count 1 $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0 2>&1 | grep -E "^ +[a-z0-9_]+__|panel_"
done; done >"$O/ncu.txt" 2>&1
cat "$O/device.txt"; sed 's/  */ /g' "$O/ncu.txt" | cut -c1-140
