#!/bin/bash
# The builds pairs-call.sh compares, laid out in DIR by ../variants.sh (no GPU; git): the
# tree of 57a98ad (0.19.1) and pairs.patch: where cols is odd, the windows of 64 x 64 (ways
# 0, 1, 2 and 5) load float2 pairs a row, a row that starts on an odd float from the float
# before it, every load into registers first (oddcols.cu's oddr), where the solution loads a
# float at a time. In .devrun/t57a9; carry the DIR. bash variants.sh DIR
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../variants.sh" "${1:?usage: variants.sh DIR}" 57a98ad "$here" pairs
