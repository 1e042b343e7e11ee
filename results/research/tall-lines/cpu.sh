#!/bin/bash
# 0.18.2's panels (solution/step7 of b21bd6a) and the patches that change the tall panel's code
# (all but occupancy and occupancy-lines, which change only its launch bounds), run on the
# CPU by tests/panels-cpu (built by its build.sh, as test 2 builds it) at 400 panel shapes of
# each of three seeds, then the same built with ASan and UBSan (the emulator's float4 is aligned
# to 16 bytes as CUDA's is, so a misaligned one is UBSan's finding). Each run's lines: the
# transpose, float for float; stage_rows alone; the stride's bank count (the patches leave the
# stride as it is), and the exit status.
# No GPU. bash cpu.sh > cpu.txt
set -u
here=$(cd "$(dirname "$0")" && pwd); kit=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bash "$here/variants.sh" "$tmp/src" || exit 1
for v in solution line-stores async async-lines eight eight-lines eight-lines-u4; do
    src=$tmp/src/v/$v/panels.cuh; [ "$v" = solution ] && src=$tmp/src/solution/step7/panels.cuh
    for build in plain sanitized; do
        flags=""; [ $build = sanitized ] && flags="-fsanitize=address,undefined -fno-sanitize-recover=all -g"
        CXXFLAGS=$flags bash "$kit/tests/panels-cpu/build.sh" "$src" "$tmp/$v-$build" || exit 1
        echo "== $v, $build${flags:+ ($flags)}"
        for seed in 20261127 1 777; do "$tmp/$v-$build/panels-cpu" $seed 400 2>&1; echo "exit $?"; done
    done
done
