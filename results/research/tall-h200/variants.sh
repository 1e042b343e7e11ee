#!/bin/bash
# The builds that "The tall panel on the H200, again" compares, laid out in DIR by
# ../variants.sh (no GPU; git): the tree of 5fadd0f (0.17.4, where the patch applies) and
# vector-stores.patch. Read by cpu.sh; for vector-call.sh make DIR .devrun/t0174 and carry it.
# bash variants.sh DIR
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../variants.sh" "${1:?usage: variants.sh DIR}" 5fadd0f "$here" vector-stores
