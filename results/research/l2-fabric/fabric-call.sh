#!/bin/bash
# H200: what the L2's throughput is made of (ncu breakdown) for step 7's windows and panels at shapes
# under 90% of the copy, beside the harness's copy kernel and the plain tile at 8192 x 8192.
set -u
cd "$(dirname "$0")"; while [ ! -f common/common.mk ] && [ "$PWD" != / ]; do cd ..; done   # the kit, from .devrun/ or from here
O=$OUT/fabric; mkdir -p "$O"; t0=$SECONDS
{ date -u; echo "kit $(cat .devrun/commit) (working tree: bench levers only)"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; ncu --version | tail -1; } >"$O/device.txt" 2>&1
(make -C solution/step7 SM=90 && make -C scripts/baseline SM=90) >"$O/build.txt" 2>&1 || { tail -30 "$O/build.txt"; exit 1; }
ncu --query-metrics --chip gh100 2>&1 | grep -iE "fabric" >"$O/fabric-metrics.txt"
F=$(grep -oE "^lts__t_sectors_srcunit_ltcfabric\b" "$O/fabric-metrics.txt" | head -1)
. results/research/l2-fabric/prof.sh   # M (with F) and prof
echo "M=$M" >"$O/ncu.txt"
{
prof tk_copy_kernel TK_WAY=0 solution/step7/transpose 8192 8192
prof transpose_kernel TK_WAY=0 solution/step7/transpose 8192 8192
prof plain TK_NONE=1 scripts/baseline/plain-tile 8192 8192
prof transpose_kernel TK_WAY=0 solution/step7/transpose 8192 8190
prof transpose_kernel TK_WAY=0 solution/step7/transpose 8191 8192
prof transpose_kernel TK_WAY=3 solution/step7/transpose 28787 28783
prof transpose_kernel TK_WAY=0 solution/step7/transpose 806744 381
prof transpose_kernel TK_WAY=0 solution/step7/transpose 3037383 98
prof panel TK_NONE=1 solution/step7/transpose 67 2537362
prof panel TK_NONE=1 solution/step7/transpose 112 17218567
prof panel TK_NONE=1 solution/step7/transpose 2129413 40
prof panel TK_NONE=1 solution/step7/transpose 18262435 10
prof tk_copy_kernel TK_WAY=0 solution/step7/transpose 2129413 40
} >>"$O/ncu.txt" 2>&1
echo "elapsed $((SECONDS - t0)) s" >>"$O/ncu.txt"
cat "$O/fabric-metrics.txt" | head -20
grep -E "^==|\)x\(|ltcfabric|lts__t_sectors|lts__t_tag|lts__xbar|lts__d_sectors\.|dram__|duration|issue_active|l1tex__thr|inst_exec|elapsed|rror" "$O/ncu.txt" | sed 's/  */ /g' | cut -c1-110
