#!/bin/bash
# The builds that "The tall panel's stores, a float4 at a time" compares, laid out in DIR (no
# GPU; git): DIR/common and DIR/solution/step7, the tree of 5fadd0f (0.17.4, where the patch
# applies), and DIR/v/NAME for each patch NAME.patch of this folder: that step7 with the patch
# applied (transpose.cu, Makefile, panels.cuh), so that make builds each as it builds the
# solution. For vector-call.sh make DIR .devrun/t0174 and carry it. bash variants.sh DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd); kit=$(cd "$here/../../.." && pwd); dir=${1:?usage: variants.sh DIR}
rm -rf "$dir" && mkdir -p "$dir"
(cd "$kit" && git archive 5fadd0f solution/step7 common) | tar -x -C "$dir"
for v in vector-stores; do
    mkdir -p "$dir/v/$v"
    cp "$dir"/solution/step7/{transpose.cu,Makefile,panels.cuh} "$dir/v/$v/"
    (cd "$dir/v/$v" && patch -s -p3 < "$here/$v.patch")
done
