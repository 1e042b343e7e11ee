#!/bin/bash
# Which architectures hold 2048 threads a multiprocessor, as ptxas knows them (SM_THREADS in
# solution/step7/panels.cuh): a kernel asking __launch_bounds__ for 8 blocks of 256 threads, and
# one for 6, built for each architecture named with the nvcc first on the PATH; ptxas warns
# "out of range" for a request past what a multiprocessor holds. No GPU. sm-threads.txt holds:
#   bash results/research/tall-split/sm-threads.sh 75 80 86 87 88 89 90 100 103 110 120 121
#   ../shared/tools/older-toolkit/hidden13.sh /tmp/cuda124 bash results/research/tall-split/sm-threads.sh 50 52 53 60 61 62 70 72 75 80 86 87 89 90
set -u
dir=$(mktemp -d) && trap 'rm -rf "$dir"' EXIT
printf '%s\n' '__global__ void __launch_bounds__(256, 8) eight(float *p) { p[threadIdx.x] = 1.f; }' \
    '__global__ void __launch_bounds__(256, 6) six(float *p) { p[threadIdx.x] = 1.f; }' >"$dir/probe.cu"
nvcc --version | tail -1
for sm in "$@"; do
    w=$(nvcc -arch=sm_$sm -c "$dir/probe.cu" -o "$dir/probe.o" 2>&1 | grep 'out of range' | sed -E 's/.*entry _Z[0-9]+([a-z]+)Pf.*/\1/' | tr '\n' ' ')
    case "$w" in
        '') echo "sm_$sm: 8 blocks of 256 accepted: 2048 threads or more" ;;
        'eight ') echo "sm_$sm: 8 blocks out of range, 6 accepted: 1536 to 2047 threads" ;;
        *) echo "sm_$sm: out of range for: $w(under 1536 threads)" ;;
    esac
done
