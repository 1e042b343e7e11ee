#!/bin/bash
# The builds the calls of this folder compare, laid out in DIR by ../variants.sh (no GPU; git):
# the tree of dbf32a7 (0.20.2) and wide.patch, three more ways, which the launch times as the
# solution's ten (TK_WAY=K forces the shape's K-th): windows 128 columns wide and 64 rows, one
# band at a time (10; the benchmark's step7-seven of 2026-11-28, ../../../step7/RESEARCH.md,
# "The H200's L2"), and windows of 128 x 128 in blocks of 1024 threads, one band and 8 bands
# at a time (11, 12). Their tile, 69,660 bytes with the halo, lies in dynamic shared memory;
# every other way's tile stays static. And edge.patch: the solution's ways, but where a row's
# sector shared by two column bands is read a pass down the matrix apart (the last band of a
# group of bands at a time, then the first of the next), the first loads it to be evicted
# last from the L2 and the second to be evicted first (PTX createpolicy, sm_80 on); its sm_90
# machine code holds a load's policy in a uniform register, one for the whole warp, so a
# warp's loads took one thread's policy (../../../step7/RESEARCH.md says what that tested). And
# p128.patch and p256.patch: the window kernel's loads ask the L2 to fetch the 128-byte line
# or the 256 bytes around them (PTX ld's prefetch size), beside asm.patch, the same loads in
# PTX with none (the control). Carry the DIR. bash variants.sh DIR
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../variants.sh" "${1:?usage: variants.sh DIR}" dbf32a7 "$here" wide edge asm p128 p256
