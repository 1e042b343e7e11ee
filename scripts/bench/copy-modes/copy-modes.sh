#!/bin/bash
# The copy-mode probe with the GPU's state beside it: SM and memory clocks, power, temperature
# and the throttle reasons sampled every 100 ms by nvidia-smi while ./copy-modes runs, and,
# where nsys is installed, whether cudaMemcpy's device-to-device copy ran on a copy engine or
# as a kernel. Writes DIR/probe-*.txt and DIR/smi-*.csv.
#   scripts/bench/copy-modes/copy-modes.sh DIR "ROWSxCOLS ..." ROUNDS [REALLOC]
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?DIR} shapes=${2:?shapes} rounds=${3:?rounds} realloc=${4:-0}
mkdir -p "$dir"
make -s -C "$here" || exit
for s in $shapes; do
    r=${s%x*} c=${s#*x}
    nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,temperature.memory,clocks_event_reasons.active \
        --format=csv -lms 100 > "$dir/smi-$s.csv" 2>&1 & smi=$!
    "$here/copy-modes" "$r" "$c" "$rounds" "$realloc" > "$dir/probe-$s.txt"; rc=$?
    kill $smi 2>/dev/null; wait $smi 2>/dev/null
    [ $rc -eq 0 ] || { echo "copy-modes: $s failed ($rc)" >&2; exit $rc; }
done
if command -v nsys >/dev/null; then
    s=${shapes%% *}
    nsys profile -o "$dir/nsys-$s" --force-overwrite true "$here/copy-modes" "${s%x*}" "${s#*x}" 5 > /dev/null 2>&1 &&
        nsys stats -r cuda_gpu_kern_sum,cuda_gpu_mem_time_sum "$dir/nsys-$s.nsys-rep" > "$dir/nsys-$s.txt" 2>&1
    rm -f "$dir/nsys-$s.nsys-rep" "$dir/nsys-$s.sqlite"
else
    echo "nsys: not installed" > "$dir/nsys.txt"
fi
