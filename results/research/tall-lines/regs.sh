#!/bin/bash
# Each build's tall panel kernels as ptxas sees them for sm_90 (registers a thread, spills), from the
# builds laid out in DIR by variants.sh. No GPU; nvcc. bash regs.sh DIR > regs.txt
set -u
dir=$(cd "${1:?usage: regs.sh DIR}" && pwd) here=$(cd "$(dirname "$0")" && pwd)
nvcc --version | tail -1
for v in solution/step7 $(cd "$dir/v" && ls); do
    [ "$v" = solution/step7 ] && src=$dir/$v || src=$dir/v/$v
    (cd "$src" && nvcc -arch=sm_90 -O3 -lineinfo -I"$dir/common" -Xptxas -v -c transpose.cu -o /dev/null 2>&1) |
        awk -v label="${v#solution/}" -f "$here/regs.awk"
done
