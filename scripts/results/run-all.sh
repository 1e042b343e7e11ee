#!/usr/bin/env bash
# Runs every solution step once, in order, with the arguments given (default size otherwise).
# The first step also prints the CPU+OMP row; the others skip it (--no-cpu). A step across
# GPUs on a machine with one GPU says so and is skipped; so is one the build left out (no
# NCCL: the top Makefile's note).
# Exit status: 0 when every step ran and checked; 3 when there is no usable GPU and 6 when the
# driver is older than the build's CUDA (each explained, after the CPU row), as make results,
# make large and make check; otherwise the first failing step's status (./transpose --help).
set -u
cd "$(dirname "$0")/../.." || exit 4

across=" $(scripts/lib/steps.sh --across | tr '\n' ' ')"
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}   # NVLink multicast off
. scripts/lib/lib.sh
others=$(gpu_others)
if [ -n "$others" ]; then
    echo "note: this GPU is not this run's alone; the GB/s below are shared with:"
    echo "$others" | sed 's/^/  /'
    echo
fi
for n in $(scripts/lib/steps.sh); do
    bin=solution/step$n/transpose
    if [ ! -x "$bin" ] && [[ $across == *" $n "* ]] && [ "$(have_nccl)" != 1 ]; then
        echo "(step$n skipped: it runs across GPUs through NCCL 2.28 or newer, which the build did not find)"; echo; continue
    fi
    [ -x "$bin" ] || { echo "run-all: $bin is not built: run make first" >&2; exit 4; }
    echo "== step$n =="
    if [ "$n" = 1 ]; then "$bin" "$@"; else "$bin" --no-cpu "$@"; fi
    rc=$?
    if [ "$rc" = 3 ] && [[ $across == *" $n "* ]]; then
        echo "(step$n skipped: it runs across GPUs; the line above says why)"; echo; continue
    fi
    if [ "$rc" = 3 ]; then
        echo
        echo "No usable GPU here (the line above says why): every step is built and the CPU"
        echo "row ran; run 'make run' on a machine with an NVIDIA GPU to see the GPU rows."
        exit 3
    fi
    if [ "$rc" = 6 ]; then
        echo
        echo "The NVIDIA driver is too old for this build (the line above says which CUDA each"
        echo "has): update the driver, or build the kit with an older CUDA toolkit, then run"
        echo "'make run' again."
        exit 6
    fi
    [ "$rc" = 0 ] || exit "$rc"
    echo
done
