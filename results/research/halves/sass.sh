#!/bin/bash
# The order of the global loads, shared stores and the barrier in the machine code of three of
# halves.cu's kernels at 63684 x 63683 (rows off 8, cols odd: the template <64, 128, 512, 7, 1>):
# the solution's transpose_kernel, win-async (MODE 3) and win-fast (MODE 6). No GPU: nvcc for
# sm_90, then cuobjdump -sass (any CUDA 12 or 13 one reads the sm_90 code).
# CUOBJDUMP=... bash sass.sh > halves-sass.txt
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bash "$here/build.sh" halves "$tmp/halves"
"${CUOBJDUMP:-cuobjdump}" -sass "$tmp/halves" > "$tmp/sass.txt"
echo "# $(nvcc --version | tail -1); $("${CUOBJDUMP:-cuobjdump}" --version | tail -1)"
for f in _Z16transpose_kernelILi64ELi128ELi512ELi7ELi1EEviiPKfPf \
         _Z10win_kernelILi64ELi128ELi512ELi7ELi1ELi3EEviiPKfPfPi \
         _Z10win_kernelILi64ELi128ELi512ELi7ELi1ELi6EEviiPKfPfPi; do
    echo "== $f: runs of like instructions, in order"
    awk -v f="$f" '/Function :/ { on = ($3 == f) } on && /(LDG|LDGSTS|STS|BAR)/' "$tmp/sass.txt" |
        grep -oE "(LDGSTS|LDGDEPBAR|DEPBAR|LDG|STS|BAR)[A-Z0-9._]*" | uniq -c
done
