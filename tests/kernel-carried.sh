#!/usr/bin/env bash
# kernel-carried.sh CARRIER SOURCE: checks that CARRIER (a step across GPUs, starter or
# solution) carries SOURCE's kernel unchanged (steps 8 to 10: "Step 7's kernel, unchanged").
#
# The kernel of a file is the run of lines from its first line that starts with `#define`
# down to the closing brace of transpose_kernel: the first line starting with `}` after the
# line that defines it, the first line whose code (comments aside) holds `transpose_kernel(`
# (launches write `transpose_kernel<...><<<` or `transpose_kernel<<<`) and which is, or follows,
# a line whose code holds `__global__`. So it holds the kernel's constants, its device helpers
# and the kernel template itself, wherever they stand in the file. The two runs must be equal
# byte for byte, comments and blank lines included.
# Prints each difference, named by its line in both files, and exits 1; exits 1 too, saying
# why, where a file has no such kernel; prints nothing and exits 0 when the kernel is carried
# unchanged; exits 2 on a bad command line or a file it cannot read.
set -u
[ $# = 2 ] || { echo "usage: tests/kernel-carried.sh CARRIER SOURCE" >&2; exit 2; }
carrier=$1 source=$2
for f in "$carrier" "$source"; do
    [ -r "$f" ] || { echo "kernel-carried: cannot read $f" >&2; exit 2; }
done
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# kernel FILE OUT: FILE's kernel as "LINE<tab>TEXT" into OUT; says why and fails without one.
kernel() {
    awk -v file="$1" -v out="$2" -f "$(dirname "$0")/code-of.awk" -f /dev/fd/3 "$1" 3<<'AWK'
        { code = code_of($0) }
        !from && /^#define/ { from = FNR }
        !from { next }
        { kept[FNR] = $0 }
        !global && code ~ /__global__/ { global = FNR }
        global && !def && code ~ /transpose_kernel[ \t]*\(/ { def = FNR; next }
        def && /^}/ { to = FNR; exit }
        END {
            if (!from) why = "no line starts with #define"
            else if (!def) why = "no __global__ transpose_kernel( defined after its first #define (line " from ")"
            else if (!to) why = "transpose_kernel (line " def ") has no closing brace at the start of a line"
            if (why != "") { printf "%s: no kernel found: %s\n", file, why; exit 1 }
            for (l = from; l <= to; l++) print l "\t" kept[l] >out
        }
AWK
}
bad=0
kernel "$source" "$tmp/source.num" || bad=1
kernel "$carrier" "$tmp/carrier.num" || bad=1
[ "$bad" = 0 ] || exit 1

cut -f 2- "$tmp/source.num" >"$tmp/source.txt"
cut -f 2- "$tmp/carrier.num" >"$tmp/carrier.txt"
diff "$tmp/source.txt" "$tmp/carrier.txt" >"$tmp/diff"
awk -v old="$source" -v new="$carrier" -f "$(dirname "$0")/numbered-diff.awk" \
    "$tmp/source.num" "$tmp/carrier.num" "$tmp/diff" >"$tmp/breaches"
[ -s "$tmp/breaches" ] && { cat "$tmp/breaches"; exit 1; }
exit 0
