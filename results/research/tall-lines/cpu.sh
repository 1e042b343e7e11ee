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
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../cpu-lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bash "$here/variants.sh" "$tmp/src" || exit 1
cpu_runs "$tmp/src" solution line-stores async async-lines eight eight-lines eight-lines-u4 || exit 1
