#!/bin/bash
# 0.17.4's panels (solution/step7 of 5fadd0f) and vector-stores.patch (variants.sh), run on the
# CPU by tests/panels-cpu (built by its build.sh, as test 2 builds it) at 400 panel shapes of
# each of three seeds, then the same built with ASan and UBSan (the emulator's float4 is aligned
# to 16 bytes as CUDA's is, so a misaligned one is UBSan's finding). Each run's lines: the
# transpose, float for float; stage_rows alone; the stride's bank count, which the patch fails
# by design (its strides must leave rows's remainder by 4), and the exit status.
# No GPU. bash cpu.sh > vector-cpu.txt
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../cpu-lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bash "$here/variants.sh" "$tmp/src" || exit 1
cpu_runs "$tmp/src" solution vector-stores || exit 1
