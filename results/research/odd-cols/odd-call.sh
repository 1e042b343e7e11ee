#!/bin/bash
# H200: step 7's windows where cols is odd, with float2 loads a row (oddcols.cu's header)
# beside the solution's float loads, in ways 0 and 3, at the window shapes with cols odd that
# the sweep of 0.19.0 left under 90%, at 63744 x 63743 and 22912 x 22911 (../streams/
# align-call.sh), and at 63744 x 63746 and 63744 x 63744 (rows off a sector with float2 loads,
# and on one); then memcheck and racecheck on the new loads at small shapes, and Nsight Compute
# at 63744 x 63743. The first call (h200-odd-1) ran the variants up to odd2-3 (oddr came after
# it), with SAN="odd2-0 odd2-3" NCU="win-3 odd2-3"; the third (h200-odd-3), with oddr-1,
# oddr-5 and allr-0, ran SHAPES="59660x59662 65477x65478 46299x46306 34264x34258 63744x63746
# 63684x63683 28787x28783 18808x192869 806744x381 3037383x98 12345x6789" SAN="oddr-1 allr-0"
# NCU="win-0 allr-0" at 59660 x 59662 (NCU_SHAPE).
# Where the GPU is (carry .devrun):
# OUT=DIR bash results/research/odd-cols/odd-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
call_device odd
bash results/research/halves/build.sh ../odd-cols/oddcols /tmp/oddcols >"$O/build.txt" 2>&1 || { cat "$O/build.txt"; exit 1; }
{
for s in ${SHAPES:-63744x63743 63744x63746 63744x63744 63684x63683 55903x55903 28787x28783 22912x22911 22911x22911 16383x16385 12425x12429 12345x6789 18808x192869 806744x381}; do
    [ $((SECONDS - t0)) -lt 330 ] || break
    echo "== /tmp/oddcols --rows ${s%x*} --cols ${s#*x} --reps 10 ($(date -u +%T))"
    timeout 90 /tmp/oddcols --rows "${s%x*}" --cols "${s#*x}" --reps 10 2>&1
    echo "rc=$?"
done
echo "elapsed $((SECONDS - t0)) s"
} >"$O/time.txt" 2>&1
{
for v in ${SAN:-oddr-0 oddr-3}; do for s in 1001x1003 1000x1001 999x65 64x999 7x3 1x129; do for tool in memcheck racecheck; do
    echo "== compute-sanitizer --tool $tool /tmp/oddcols --rows ${s%x*} --cols ${s#*x} --only $v"
    timeout 60 compute-sanitizer --tool $tool /tmp/oddcols --rows "${s%x*}" --cols "${s#*x}" --only $v 2>&1 | grep -E "SUMMARY|ran once|rror"
done; done; done
} >"$O/sanitizer.txt" 2>&1
M=gpu__time_duration.sum,smsp__inst_executed.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_elapsed
{
echo "M=$M"
for v in ${NCU:-win-0 oddr-0 win-3 oddr-3}; do
    s=${NCU_SHAPE:-63744x63743}
    echo "== ncu --clock-control none --metrics \$M -k regex:transpose /tmp/oddcols --rows ${s%x*} --cols ${s#*x} --only $v ($(date -u +%T))"
    timeout 120 ncu --clock-control none --metrics "$M" -k regex:transpose /tmp/oddcols --rows "${s%x*}" --cols "${s#*x}" --only "$v" 2>&1 | grep -E "^ +[a-z0-9_]+__|transpose_kernel|rror|ran once"
done
echo "elapsed $((SECONDS - t0)) s"
} >"$O/ncu.txt" 2>&1
call_clocks
grep -vE "^== " "$O/sanitizer.txt" | sort | uniq -c
grep -E "^==|^(win|odd|memcpy|copy)|differ|exact|rc=|elapsed" "$O/time.txt"
sed 's/  */ /g' "$O/ncu.txt" | cut -c1-160
