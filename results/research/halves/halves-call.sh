#!/bin/bash
# H200: step 7's window kernel (way 3, 128 rows in 8 bands) at the 13 window shapes its sweep of
# 0.19.0 left under 90% and three more, its reads alone and its writes alone beside the copy
# kernel's, and the same kernel with its loads as asynchronous copies, all into registers
# first, without checks in the blocks inside the matrix, or in windows 128 columns wide
# (halves.cu's header); then Nsight Compute on each at 63684 x 63683 and on a cudaMemcpy
# at 8192 x 8192 (is the sweep's ceiling a kernel?), and memcheck and racecheck on three of the
# variants at four small shapes. Question: is the time step 7 loses to the
# copy in its reads, its writes, or neither alone; and do more loads in flight, or fewer
# instructions a load, win it back?
# Where the GPU is (carry .devrun):
# OUT=DIR bash results/research/halves/halves-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
call_device halves
bash results/research/halves/build.sh halves /tmp/halves >"$O/build.txt" 2>&1 || { cat "$O/build.txt"; exit 1; }
{
for s in 63684x63683 55903x55903 59660x59662 65477x65478 46299x46306 34264x34258 28787x28783 12425x12429 16383x16385 18808x192869 12345x6789 806744x381 3037383x98 22912x22912 8192x8192 8192x8190; do
    echo "== /tmp/halves --rows ${s%x*} --cols ${s#*x} --reps 15 ($(date -u +%T))"
    timeout 120 /tmp/halves --rows "${s%x*}" --cols "${s#*x}" --reps 15 2>&1
    echo "rc=$?"
done
echo "elapsed $((SECONDS - t0)) s"
} >"$O/time.txt" 2>&1
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors.sum,lts__t_sectors_srcunit_ltcfabric.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_elapsed
{
echo "M=$M"
echo "== ncu --clock-control none --metrics gpu__time_duration.sum /tmp/halves --rows 8192 --cols 8192 --only memcpy (every kernel it launches)"
timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum /tmp/halves --rows 8192 --cols 8192 --only memcpy 2>&1 | grep -E "\(.*\)x\(|__|ran once|No kernels|rror"
for v in copy win copy-read win-read copy-write win-write win-async async-read win-fast fast-read win128 w128-read; do
    [ $((SECONDS - t0)) -lt 420 ] || break   # (the calls h200-halves-1 and -2 ran all but win128 and w128-read)
    echo "== ncu --clock-control none --metrics \$M -k regex:_kernel --launch-skip 1 --launch-count 1 /tmp/halves --rows 63684 --cols 63683 --only $v ($(date -u +%T))"
    timeout 120 ncu --clock-control none --metrics "$M" -k regex:_kernel --launch-skip 1 --launch-count 1 /tmp/halves --rows 63684 --cols 63683 --only "$v" 2>&1 | grep -E "^ +[a-z0-9_]+__|_kernel|rror|ran once"
done
echo "elapsed $((SECONDS - t0)) s"
} >"$O/ncu.txt" 2>&1
{
for v in win-async win-fast win128; do for s in 1001x1003 1000x1002 999x64 64x999; do for tool in memcheck racecheck; do
    echo "== compute-sanitizer --tool $tool /tmp/halves --rows ${s%x*} --cols ${s#*x} --only $v"
    timeout 60 compute-sanitizer --tool $tool /tmp/halves --rows "${s%x*}" --cols "${s#*x}" --only $v 2>&1 | grep -E "SUMMARY|ran once|rror"
done; done; done
} >"$O/sanitizer.txt" 2>&1
call_clocks
grep -vE "^== " "$O/sanitizer.txt" | sort | uniq -c
grep -E "^==|differ|^(memcpy|copy|win)|%|/|rc=|elapsed" "$O/time.txt"
grep -E "^==|__|elapsed|No kernels|rror" "$O/ncu.txt" | sed 's/  */ /g' | cut -c1-160
