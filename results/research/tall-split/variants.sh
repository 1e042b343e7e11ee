#!/bin/bash
# The builds that "Which change makes the tall panel's gain" (step7/RESEARCH.md) compares, laid out in DIR
# by ../variants.sh (no GPU; git): the tree of b21bd6a (0.18.2, where the patches apply) and
# five patches of its tall panel, each one part of tall-lines/eight.patch (linked here):
#   unroll1   the store loops one step at a time (#pragma unroll 1), one kernel, no block count
#   two       two kernels (below 4 columns and from 4), store loops unrolled, no block count
#   two-u1    two kernels, store loops one step at a time, no block count
#   eight-u4  two kernels, 8 blocks of 256 threads asked for, store loops unrolled
#   eight     all three (tall-lines/eight.patch)
# Registers and spills for sm_90: regs.txt (bash ../tall-lines/regs.sh DIR > regs.txt). For
# split-call.sh make DIR .devrun/t0182 and carry it.
# bash variants.sh DIR
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../variants.sh" "${1:?usage: variants.sh DIR}" b21bd6a "$here" unroll1 two two-u1 eight-u4 eight
