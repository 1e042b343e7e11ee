#!/bin/bash
# The builds that "The tall panel: its stores, its registers and its copies" (step7/RESEARCH.md)
# compares, laid out in DIR by ../variants.sh (no GPU; git): the tree of b21bd6a (0.18.2, where
# the patches apply) and its eight patches. Read by cpu.sh and regs.sh; for the *-call.sh make
# DIR .devrun/t0182 and carry it.
# bash variants.sh DIR
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../variants.sh" "${1:?usage: variants.sh DIR}" b21bd6a "$here" line-stores occupancy occupancy-lines async async-lines eight eight-lines eight-lines-u4
