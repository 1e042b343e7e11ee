#!/usr/bin/env bash
# Checks what the kit needs to build: nvcc, a C compiler with OpenMP, GNU Make; and NCCL,
# which only the steps across GPUs need (without it they are left out of the build).
# Prints what is missing and how to get it; exit status 1 when something the core needs is.
. "$(dirname "$0")/lib/lib.sh"
case ${1:-} in
    "") ;;
    -h|--help) usage; exit 0 ;;
    *) refuse "unknown argument '$1'" ;;
esac
missing=0
need() { echo "missing: $1" >&2; missing=1; }

command -v nvcc >/dev/null ||
    need "nvcc (the CUDA toolkit: https://developer.nvidia.com/cuda-downloads, or 'module load cuda' on a cluster; put its bin/ on PATH)"
command -v make >/dev/null || need "GNU Make (apt-get install make)"
if command -v gcc >/dev/null; then
    echo 'int main(void){return 0;}' | gcc -fopenmp -x c - -o /dev/null 2>/dev/null ||
        need "OpenMP for gcc (libgomp: apt-get install gcc, or your cluster's gcc module)"
else
    need "gcc, the host compiler nvcc uses (apt-get install gcc)"
fi
# NCCL, where the build looks for it (common/nccl.mk).
[ "$(have_nccl)" = 1 ] ||
    echo "note: no NCCL 2.28 or newer (nccl.h with nccl_device.h): the steps across GPUs are left out; install NVIDIA's libnccl-dev or your cluster's nccl module to build them" >&2
exit $missing
