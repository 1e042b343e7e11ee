#!/bin/bash
# The copy-mode probe with the GPU's state beside it: SM and memory clocks, power, temperature
# and the throttle reasons sampled every 100 ms by nvidia-smi while ./copy-modes runs, and,
# where nsys is installed, whether cudaMemcpy's device-to-device copy ran on a copy engine or
# as a kernel. Writes DIR/probe-*.txt and DIR/smi-*.csv. Exit status: 0; 2 for bad arguments;
# 3 (no usable GPU) or 6 (a driver older than the build's CUDA), said as the steps say it; 4
# when the build fails; otherwise the probe's.
#   scripts/bench/copy-modes/copy-modes.sh DIR "ROWSxCOLS ..." ROUNDS [REALLOC]
set -u
usage() { echo "usage: $0 DIR \"ROWSxCOLS ...\" ROUNDS [REALLOC] (copy-modes.cu says what it shows)"; }
[ "${1:-}" = -h ] || [ "${1:-}" = --help ] && { usage; exit 0; }
[ $# -ge 3 ] && [ $# -le 4 ] || { usage >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
dir=$1 shapes=$2 rounds=$3 realloc=${4:-0}
for s in $shapes; do
    [[ $s =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]] || { echo "copy-modes: '$s' is not ROWSxCOLS" >&2; exit 2; }
done
[[ -n $shapes && $rounds =~ ^[1-9][0-9]*$ && $realloc =~ ^[0-9]+$ ]] ||
    { echo "copy-modes: give one shape or more, ROUNDS of 1 or more and REALLOC of 0 or more" >&2; exit 2; }
mkdir -p "$dir"
make -s -C "$here" || { echo "copy-modes: the build failed (above)" >&2; exit 4; }
for s in $shapes; do
    r=${s%x*} c=${s#*x}
    if command -v nvidia-smi >/dev/null; then
        nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,temperature.memory,clocks_event_reasons.active \
            --format=csv -lms 100 > "$dir/smi-$s.csv" 2>&1 & smi=$!
    else
        echo "nvidia-smi: not installed" > "$dir/smi-$s.csv"; smi=
    fi
    "$here/copy-modes" "$r" "$c" "$rounds" "$realloc" > "$dir/probe-$s.txt"; rc=$?
    [ -z "$smi" ] || { kill "$smi" 2>/dev/null; wait "$smi" 2>/dev/null; }
    [ $rc -eq 3 ] || [ $rc -eq 6 ] && exit $rc   # no usable GPU: the probe said why
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
