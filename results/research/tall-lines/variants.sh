#!/bin/bash
# The builds that "The tall panel's stores on whole lines" compares, laid out in DIR by
# ../variants.sh (no GPU; git): the tree of b21bd6a (0.18.2, where the patch applies) and
# line-stores.patch. Read by cpu.sh; for line-call.sh make DIR .devrun/t0182 and carry it.
# bash variants.sh DIR
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../variants.sh" "${1:?usage: variants.sh DIR}" b21bd6a "$here" line-stores occupancy occupancy-lines async async-lines eight eight-lines eight-lines-u4
