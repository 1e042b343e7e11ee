#!/bin/bash
# 0.17.3's panels (solution/step7 of 8c45be6) with each patch of index-call.sh and stage-call.sh,
# run on the CPU by tests/panels-cpu (the build of tests/test_2_unit.sh's panels_cpu) at 400
# panel shapes of each of three seeds. No GPU. bash cpu.sh > wide-cpu.txt
set -eu
here=$(cd "$(dirname "$0")" && pwd); kit=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for v in solution stepped-index store-stepped stage-stepped tail-apart stage-and-index; do
    mkdir -p "$tmp/$v"
    (cd "$kit" && git archive 8c45be6 solution/step7/panels.cuh) | tar -x -C "$tmp/$v"
    [ "$v" = solution ] || (cd "$tmp/$v" && patch -s -p1 < "$here/$v.patch")
    sed -E 's/([A-Za-z_]+<[0-9]+>)<<<([^,]+), ([^,]+), ([^,]+), [^>]*>>>\((.*)\);/tk_emu_launch(\2, \3, \4, [\&] { \1(\5); });/' \
        "$tmp/$v/solution/step7/panels.cuh" > "$tmp/$v/panels-host.h"
    "${CXX:-g++}" -std=c++17 -O2 -Wall -Wextra -Werror -Wno-unknown-pragmas -Wno-unused-parameter \
        -I"$tmp/$v" -I"$kit/tests/panels-cpu" "$kit/tests/panels-cpu/panels-cpu.cpp" -o "$tmp/$v/panels-cpu"
    echo "== $v"
    for seed in 20261127 1 777; do "$tmp/$v/panels-cpu" $seed 400 | head -1; done
done
