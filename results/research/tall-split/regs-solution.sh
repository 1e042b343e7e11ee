#!/bin/bash
# The solution's two tall panel kernels as ptxas sees them (registers a thread, spills) for each
# architecture named, with the nvcc first on the PATH. No GPU. regs-solution.txt holds two runs:
#   bash results/research/tall-split/regs-solution.sh 75 80 86 87 88 89 90 100 103 110 120 121
#   ../shared/tools/older-toolkit/hidden13.sh /tmp/cuda124 bash results/research/tall-split/regs-solution.sh 70 72 75 80 86 87 89 90
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../../solution/step7" || exit 1
nvcc --version | tail -1
for sm in "$@"; do
    nvcc -arch=sm_$sm -O3 -I../../common -Xptxas -v -c transpose.cu -o /dev/null 2>&1 |
        awk -v label=sm_$sm -f "$here/../tall-lines/regs.awk"
done
