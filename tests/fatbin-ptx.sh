#!/usr/bin/env bash
# fatbin-ptx.sh BIN: the architectures whose PTX BIN embeds, one a line (compute_75), sorted;
# exit 1 where BIN cannot be read. Asks cuobjdump --list-ptx where the toolkit has it (on PATH
# or beside nvcc); otherwise reads the fatbin headers of BIN's .nv_fatbin section itself
# (readelf and od): each fatbin is a 16-byte header (magic 0xBA55ED50, its header size at
# byte 6, the size of its entries at byte 8), then entries whose header gives the kind
# (1 = PTX, 2 = ELF) at byte 0, its own size at byte 4, the payload's size at byte 8 and the
# architecture at byte 28.
bin=$1
[ -r "$bin" ] || { echo "fatbin-ptx: cannot read '$bin'" >&2; exit 1; }
dump=$(command -v cuobjdump || echo "$(dirname "$(command -v nvcc 2>/dev/null || echo .)")/cuobjdump")
if [ -x "$dump" ] && [ -z "${FATBIN_PTX_READER:-}" ]; then   # FATBIN_PTX_READER=1: the reader
    "$dump" --list-ptx "$bin" | sed -n 's/^PTX file .*\.sm_\([0-9]*[a-z]*\)\.ptx$/compute_\1/p' | sort -u
    exit "${PIPESTATUS[0]}"
fi
read -r off size < <(readelf -SW "$bin" 2>/dev/null |
    awk '{ for (i = 1; i <= NF; i++) if ($i == ".nv_fatbin") { print $(i + 3), $(i + 4); exit } }')
[ -n "$size" ] || exit 0   # no device code at all
od -An -v -tu1 -j $((16#$off)) -N $((16#$size)) "$bin" | awk '
    { for (i = 1; i <= NF; i++) b[n++] = $i }
    function u(at, len,   v, k) { v = 0; for (k = len - 1; k >= 0; k--) v = v * 256 + b[at + k]; return v }
    END {
        p = 0
        while (p + 16 <= n) {
            if (u(p, 4) != 3126193488) { p += 8; continue }   # padding between fatbins
            q = p + u(p + 6, 2); end = q + u(p + 8, 8)
            for (; q < end && q + 32 <= n; q += u(q + 4, 4) + u(q + 8, 8))
                if (u(q, 2) == 1) print "compute_" u(q + 28, 4)
            p = end
        }
    }' | sort -u
