#!/bin/bash
# The builds ways-call.sh compares, laid out in DIR by ../variants.sh (no GPU; git): the tree
# of 788cb91 (0.17.5, where the patch applies) and eight-ways.patch. For ways-call.sh make DIR
# .devrun/t0175 and carry it. bash variants.sh DIR
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../variants.sh" "${1:?usage: variants.sh DIR}" 788cb91 "$here" eight-ways
