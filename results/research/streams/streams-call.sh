#!/bin/bash
# H200: does a copy slow down when the bytes in flight lie apart in memory (streams.cu's
# header)? Times streams.cu's variants at 2 and 8 GiB a buffer, then Nsight Compute on five of
# them at 2 GiB, with the memory partitions' (FBPA's) DRAM sectors, summed. Each call ran the
# variants streams.cu had then: h200-streams-1 the first 13, -2 the first 22 (both listed the
# DRAM counters Nsight Compute has for the GPU, none of which counts a DRAM page's opening,
# and ran it on in-order, r-scat-256, r-scat-2K and w-scat-256, without the partitions'
# counts), -3 the first 28 (Nsight Compute on in-order, r-scat-4K, r-in-32M, r-band-256-p996
# and r-band-256-p358), -4 all 30 (as below).
# Where the GPU is (carry .devrun):
# OUT=DIR bash results/research/streams/streams-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
call_device streams
bash results/research/halves/build.sh ../streams/streams /tmp/streams >"$O/build.txt" 2>&1 || { cat "$O/build.txt"; exit 1; }
{
for n in 536870912 2147483648; do
    echo "== /tmp/streams --floats $n --reps 15 ($(date -u +%T))"
    timeout 200 /tmp/streams --floats $n --reps 15 2>&1
    echo "rc=$?"
done
echo "elapsed $((SECONDS - t0)) s"
} >"$O/time.txt" 2>&1
M=fbpa__dram_read_sectors.sum,fbpa__dram_write_sectors.sum,gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.sum,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed
{
echo "M=$M"
for v in in-order r-scat-4K r-band-256-p996 rw-band-256 rw-band-2K; do
    [ $((SECONDS - t0)) -lt 300 ] || break
    echo "== ncu --clock-control none --metrics \$M --print-metric-instances values -k moved_copy /tmp/streams --floats 536870912 --only $v ($(date -u +%T))"
    timeout 90 ncu --clock-control none --metrics "$M" --print-metric-instances values -k moved_copy /tmp/streams --floats 536870912 --only "$v" 2>&1 | grep -E "^ +[a-z0-9_]+__|moved_copy|rror|ran once"
done
echo "elapsed $((SECONDS - t0)) s"
} >"$O/ncu.txt" 2>&1
call_clocks
cat "$O/time.txt"
sed 's/  */ /g' "$O/ncu.txt" | cut -c1-200
