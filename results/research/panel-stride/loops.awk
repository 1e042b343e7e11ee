# The loops of one kernel in `cuobjdump -sass` output: each backward branch, its target and
# its length in instructions (the target to the branch, both counted). KERNEL: a part of the
# mangled name (awk -v kernel=panel_wideILi512 -f loops.awk listing.sass). Any awk.
function hex(s,    v, i) { v = 0; for (i = 1; i <= length(s); i++) v = 16 * v + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
/Function : / { on = index($0, kernel) > 0; n = 0; next }
on && match($0, /\/\*[0-9a-f]+\*\/ +[^ ]/) {
    a = substr($0, RSTART + 2); sub(/\*\/.*/, "", a)
    addr[++n] = hex(a)
    if (match($0, /BRA [^;]*0x[0-9a-f]+ *;/)) {
        t = substr($0, RSTART, RLENGTH); sub(/.*0x/, "", t); sub(/ *;.*/, "", t); t = hex(t)
        if (t < addr[n]) {
            len = 0
            for (i = 1; i <= n; i++) if (addr[i] >= t) len++
            printf "  loop %x..%x: %d instructions\n", t, addr[n], len
        }
    }
}
