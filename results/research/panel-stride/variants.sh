#!/bin/bash
# The builds that "Fewer instructions in the wide panel" compares, laid out in DIR (no GPU; git):
# DIR/common and DIR/solution/step7, the tree of 8c45be6 (0.17.3, where the patches apply), and
# DIR/v/NAME for each patch NAME.patch of this folder below: that step7 with the patch applied
# (transpose.cu, Makefile, panels.cuh), so that make builds each as it builds the solution.
# Read by loops.sh and cpu.sh; for index-call.sh and stage-call.sh make DIR .devrun/t0173 and
# carry it. bash variants.sh DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd); kit=$(cd "$here/../../.." && pwd); dir=${1:?usage: variants.sh DIR}
rm -rf "$dir" && mkdir -p "$dir"
(cd "$kit" && git archive 8c45be6 solution/step7 common) | tar -x -C "$dir"
for v in stepped-index store-stepped stage-stepped tail-apart stage-and-index; do
    mkdir -p "$dir/v/$v"
    cp "$dir"/solution/step7/{transpose.cu,Makefile,panels.cuh} "$dir/v/$v/"
    (cd "$dir/v/$v" && patch -s -p3 < "$here/$v.patch")
done
