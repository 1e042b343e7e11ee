#!/bin/bash
# Lays out the builds a research folder compares, in DIR (no GPU; git): DIR/common and
# DIR/solution/step7, the tree of COMMIT (where the patches apply), and DIR/v/NAME for each
# NAME.patch of PATCHES (a folder): that step7 with the patch applied (transpose.cu, Makefile
# and the headers beside them), so that make builds each as it builds the solution. Each
# folder's own variants.sh names its commit and patches.
# bash variants.sh DIR COMMIT PATCHES NAME...
set -eu
kit=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:?usage: variants.sh DIR COMMIT PATCHES NAME...} commit=${2:?} patches=$(cd "${3:?}" && pwd); shift 3
rm -rf "$dir" && mkdir -p "$dir"
(cd "$kit" && git archive "$commit" solution/step7 common) | tar -x -C "$dir"
for v in "$@"; do
    mkdir -p "$dir/v/$v"
    cp "$dir"/solution/step7/{transpose.cu,Makefile,*.cuh} "$dir/v/$v/"
    (cd "$dir/v/$v" && patch -s -p3 < "$patches/$v.patch")
done
