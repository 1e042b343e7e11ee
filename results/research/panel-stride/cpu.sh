#!/bin/bash
# 0.17.3's panels (solution/step7 of 8c45be6) and each patch of variants.sh, run on the CPU by
# tests/panels-cpu (built by its build.sh, as test 2 builds it) at 400 panel shapes of each of
# three seeds. No GPU. bash cpu.sh > wide-cpu.txt
set -eu
here=$(cd "$(dirname "$0")" && pwd); kit=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bash "$here/variants.sh" "$tmp/src"
for v in solution stepped-index store-stepped stage-stepped tail-apart stage-and-index; do
    src=$tmp/src/v/$v/panels.cuh; [ "$v" = solution ] && src=$tmp/src/solution/step7/panels.cuh
    bash "$kit/tests/panels-cpu/build.sh" "$src" "$tmp/$v"
    echo "== $v"
    for seed in 20261127 1 777; do "$tmp/$v/panels-cpu" $seed 400 | head -1; done
done
