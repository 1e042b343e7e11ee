#!/bin/bash
# The builds that "Fewer instructions in the wide panel" compares, laid out in DIR by
# ../variants.sh (no GPU; git): the tree of 8c45be6 (0.17.3, where the patches apply) and each
# patch of this folder below. Read by loops.sh and cpu.sh; for index-call.sh and stage-call.sh
# make DIR .devrun/t0173 and carry it. bash variants.sh DIR
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../variants.sh" "${1:?usage: variants.sh DIR}" 8c45be6 "$here" \
    stepped-index store-stepped stage-stepped tail-apart stage-and-index
