#!/bin/bash
# H200: Nsight Compute (--clock-control none, one launch each) at 63684 x 63683, the worst
# shape of the sweep of 0.18.0, in 128 rows in 8 bands (TK_WAY=3, the way its launch keeps)
# and the orders and the window chains that order-call.sh and carry-call.sh timed: 8 bands top
# down (g.patch, TK_G=8: the solution's order), serpentine (serp.patch), 32 bands and one band
# at a time (TK_G=32, TK_G=1), and 4 windows a block (carry.patch, TK_K=4). Question: do the
# DRAM reads past the matrix's once fall with the groups' edges (fewer edges, or each next
# group starting where the last ended), and what do the chained windows change in the L2's
# sectors and the issuing? Summary: awk -f ../l2-fabric/sectors.awk on the ncu.txt, and its
# dram__bytes lines. The builds as in order-call.sh's header (variants.sh .devrun/t65cb).
# Where the GPU is (carry .devrun): OUT=DIR bash results/research/group-order/ncu-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t65cb V="g serp carry"
call_begin ncu
F=lts__t_sectors_srcunit_ltcfabric   # the fabric's sectors (gh100)
. results/research/l2-fabric/prof.sh   # M (with F) and prof
{
echo "M=$M"
prof transpose_kernel "TK_WAY=3 TK_G=8" $T/v/g/transpose 63684 63683
prof transpose_kernel "TK_WAY=3 TK_G=8" $T/v/serp/transpose 63684 63683
prof transpose_kernel "TK_WAY=3 TK_G=32" $T/v/g/transpose 63684 63683
prof transpose_kernel "TK_WAY=3 TK_G=1" $T/v/g/transpose 63684 63683
prof transpose_kernel "TK_WAY=3 TK_K=4" $T/v/carry/transpose 63684 63683
echo "elapsed $((SECONDS - t0)) s"
} >"$O/ncu.txt" 2>&1
tail -2 "$O/device.txt"; call_clocks
awk -f results/research/l2-fabric/sectors.awk "$O/ncu.txt"
grep -E "^==|dram__bytes|elapsed|rror" "$O/ncu.txt" | sed 's/  */ /g' | cut -c1-150
