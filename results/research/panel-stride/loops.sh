#!/bin/bash
# The loops of panel_wide<512> in the sm_90 machine code of 0.17.3's solution/step7 (commit
# 8c45be6) and of it with each patch (variants.sh): needs nvcc and a cuobjdump (CUOBJDUMP=PATH
# where the toolkit has none: wide-loops.txt was made with nvcc 13.0 and a CUDA 12.4 cuobjdump,
# as its first line says). No GPU. bash loops.sh > wide-loops.txt
set -eu
command -v "${CUOBJDUMP:-cuobjdump}" >/dev/null || { echo "loops.sh: no cuobjdump (set CUOBJDUMP)" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bash "$here/variants.sh" "$tmp"
echo "# panel_wide<512>'s loops: nvcc $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p') -cubin -O3 -arch=sm_90, $("${CUOBJDUMP:-cuobjdump}" --version | sed -n 's/.*release \([0-9.]*\).*/cuobjdump \1/p') -sass; awk -f loops.awk"
for d in "$tmp/solution/step7" "$tmp"/v/stepped-index "$tmp"/v/store-stepped "$tmp"/v/stage-stepped \
         "$tmp"/v/tail-apart "$tmp"/v/stage-and-index; do
    (cd "$d" && nvcc -cubin -O3 -arch=sm_90 -I../../common transpose.cu -o t.cubin &&
        "${CUOBJDUMP:-cuobjdump}" -sass t.cubin > t.sass)
    v=${d##*/}; [ "$v" = step7 ] && v=solution
    echo "== $v"
    awk -v kernel=panel_wideILi512 -f "$here/loops.awk" "$d/t.sass"
done
