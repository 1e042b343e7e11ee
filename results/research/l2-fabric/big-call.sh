#!/bin/bash
# H200: the counters of fabric-call.sh at the near-squares of more than 8 GiB a matrix that the
# sweep of 0.18.0 left under 85% (results/h200-sweep-305782686-6d2ffbb.csv), each in the way its launch
# kept there (the notes in results/h200-sweep-305782686-6d2ffbb-copy.txt: 128 rows in 8 bands, way 3),
# beside the harness's copy kernel at the worst of them and step 7 at 22912 x 22912, the
# near-square whose rows all start on a sector (cols a multiple of 8; one band, way 0).
# Question: does DRAM carry more than the two matrices (reads or writes over rows x cols x 4
# bytes each), or only the L2? Summary: awk -f sectors.awk h200-big-ncu.txt, and the dram__bytes
# lines of the same file. Run where the GPU is, from the kit: OUT=DIR bash THIS
set -u
cd "$(dirname "$0")"; while [ ! -f common/common.mk ] && [ "$PWD" != / ]; do cd ..; done
O=$OUT/big; mkdir -p "$O"; t0=$SECONDS
{ date -u; echo "kit $(cat .devrun/commit)"; nvidia-smi --query-gpu=name,uuid,serial,memory.total,driver_version --format=csv; ncu --version | tail -1; } >"$O/device.txt" 2>&1
make -C solution/step7 SM=90 >"$O/build.txt" 2>&1 || { tail -30 "$O/build.txt"; exit 1; }
F=lts__t_sectors_srcunit_ltcfabric   # the fabric's sectors: gh100 has it (h200-fabric-fabric-metrics.txt)
. results/research/l2-fabric/prof.sh   # M (with F) and prof
echo "M=$M" >"$O/ncu.txt"
{
prof transpose_kernel TK_WAY=3 solution/step7/transpose 63684 63683
prof tk_copy_kernel TK_WAY=3 solution/step7/transpose 63684 63683
prof transpose_kernel TK_WAY=0 solution/step7/transpose 22912 22912
prof transpose_kernel TK_WAY=3 solution/step7/transpose 55903 55903
} >>"$O/ncu.txt" 2>&1
echo "elapsed $((SECONDS - t0)) s" >>"$O/ncu.txt"
awk -f results/research/l2-fabric/sectors.awk "$O/ncu.txt"
grep -E "^==|dram__bytes|elapsed|rror" "$O/ncu.txt" | sed 's/  */ /g' | cut -c1-120
