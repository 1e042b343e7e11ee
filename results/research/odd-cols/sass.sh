#!/bin/bash
# The order of the global loads, shared stores and the barrier in the machine code of four of
# oddcols.cu's kernels at 63744 x 63743 (rows a multiple of 8, cols odd): the solution's
# kernel in ways 3 and 0 (a float a load: win-3, win-0) and the float2 pairs with their
# stores in turn (odd2-3) and with every load into registers first (oddr-0). No GPU: nvcc for
# sm_90, then cuobjdump -sass (any CUDA 12 or 13 one reads the sm_90 code).
# CUOBJDUMP=... bash sass.sh > oddcols-sass.txt
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bash "$here/../halves/build.sh" ../odd-cols/oddcols "$tmp/oddcols"
"${CUOBJDUMP:-cuobjdump}" -sass "$tmp/oddcols" > "$tmp/sass.txt"
echo "# $(nvcc --version | tail -1); $("${CUOBJDUMP:-cuobjdump}" --version | tail -1)"
for v in "win-3 _Z16transpose_kernelILi64ELi128ELi512ELi0ELi1ELi0EEviiPKfPf" \
         "odd2-3 _Z16transpose_kernelILi64ELi128ELi512ELi0ELi2ELi1EEviiPKfPf" \
         "win-0 _Z16transpose_kernelILi64ELi64ELi512ELi0ELi1ELi0EEviiPKfPf" \
         "oddr-0 _Z16transpose_kernelILi64ELi64ELi512ELi0ELi2ELi2EEviiPKfPf"; do
    f=${v#* }
    grep -q "Function : $f\$" "$tmp/sass.txt" || { echo "no $f in the build" >&2; exit 1; }
    echo "== ${v%% *} ($f): runs of like instructions, in order"
    awk -v f="$f" '/Function :/ { on = ($3 == f) } on && /(LDG|STS|BAR)/' "$tmp/sass.txt" |
        grep -oE "(LDG|STS|BAR)[A-Z0-9._]*" | uniq -c
done
