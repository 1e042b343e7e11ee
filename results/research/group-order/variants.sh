#!/bin/bash
# The builds the calls of this folder compare, laid out in DIR by ../variants.sh (no GPU; git):
# the tree of 65cb5f9 (0.18.1) and, for order-call.sh, g.patch (TK_G=N in the environment sets
# the bands at a time of the ways that run 8) and serp.patch (the same, and every other group
# of bands runs its blocks from the bottom up); for carry-call.sh, carry.patch (TK_K=N: a
# block writes N windows down its band, one after another, and keeps the rows above each
# window after the first from those it staged last, where each block of the solution stages
# them again from the L2); for r256-call.sh, r256.patch (way 4 writes windows of 256 rows,
# 64 columns wide, 8 bands at a time, where the solution's writes 32 x 128; every way's tile
# in dynamic shared memory). All four in .devrun/t65cb; carry the DIR. bash variants.sh DIR
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../variants.sh" "${1:?usage: variants.sh DIR}" 65cb5f9 "$here" g serp carry r256
