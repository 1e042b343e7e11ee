#!/bin/bash
# The builds the calls of this folder compare, laid out in DIR by ../variants.sh (no GPU; git).
# ways-call.sh: the tree of 788cb91 (0.17.5) and eight-ways.patch, in .devrun/t0175.
# ways2-call.sh: the tree of 4878435 (the launch keeps the way of least median time),
# tall-way.patch and eight-ways.patch, in .devrun/t4878 (say "2" after DIR). Carry the DIR.
# bash variants.sh DIR [2]
here=$(cd "$(dirname "$0")" && pwd)
if [ "${2:-}" = 2 ]; then
    exec bash "$here/../variants.sh" "${1:?usage: variants.sh DIR [2]}" 4878435 "$here" tall-way eight-ways
fi
exec bash "$here/../variants.sh" "${1:?usage: variants.sh DIR [2]}" 788cb91 "$here" eight-ways
