# Generated shapes for the size sweep (scripts/results/results.sh --sweep): shapes nobody
# picked, the same on every machine for the same seed.
#   awk -v seed=S -v count=N -v mem_mib=M -v l2_mib=L -f scripts/results/shapes-gen.awk
# prints "ROWS COLS CLASS" lines: N shapes whose two matrices do not fit in twice the L2
# (the claim is made on those), then the shapes drawn on the way that did fit ("fits-l2":
# reported apart). Classes, in turn:
#   any        rows drawn on a log scale over the whole range, 1 up to the matrix's floats,
#              the matrix at least 256 MiB; rows and cols mod 8 go through every residue
#   skinny     one side 1 .. 64 (log scale), the other long enough for 256 MiB to 1 GiB,
#              tall and wide in turn (a tall one has millions of rows)
#   square     a square or near-square (each side within 8 of the other): every third of
#              them 8 to 16 GiB a matrix where the memory holds two, the others up to 8 GiB
#   shortwide  65 to 112 rows, the columns for 256 MiB up to the largest matrix
# Every shape fits: two matrices and the harness's scratch (twice the L2) within mem_mib, a
# matrix at most 16 GiB. Nothing else bounds a side, not the kit's own limits: a shape the kit
# refuses is one the sweep shows refused. The random numbers are MINSTD (exact in awk's
# doubles), not rand(), whose sequence differs between awks.
BEGIN {
    if (seed !~ /^[0-9]+$/ || seed + 0 < 1 || count !~ /^[0-9]+$/ || mem_mib !~ /^[0-9]+$/ ||
        l2_mib !~ /^[0-9]+$/) {
        print "shapes-gen.awk: needs -v seed=S (1 or more) count=N mem_mib=M l2_mib=L" > "/dev/stderr"
        exit 2
    }
    x = seed % 2147483647; if (x == 0) x = 1
    MIB = 1048576; GIB = 1024 * MIB
    MIN_BYTES = 256 * MIB; MAX_BYTES = 16 * GIB
    cap = (mem_mib - 2 * l2_mib) * MIB / 2 * 0.95   # a matrix, with room to spare
    if (cap < MAX_BYTES) MAX_BYTES = cap
    if (MAX_BYTES < MIN_BYTES) { print "shapes-gen.awk: too little memory" > "/dev/stderr"; exit 2 }
    n = 0; apart = 0; k = 0
    while (n < count && k < 100 * count) {
        cls = k % 4 == 0 ? "any" : k % 4 == 1 ? "skinny" : k % 4 == 2 ? "square" : "shortwide"
        if (cls == "any") any_shape(int(k / 4))
        else if (cls == "skinny") skinny_shape(int(k / 4))
        else if (cls == "square") square_shape(int(k / 4))
        else shortwide_shape()
        k++
        if (R < 1 || C < 1) continue
        bytes = R * C * 4
        if (bytes > MAX_BYTES) continue
        if ((R, C) in seen) continue
        seen[R, C] = 1
        if (bytes <= l2_mib * MIB) { fits[++apart] = sprintf("%.0f %.0f fits-l2", R, C); continue }
        printf "%.0f %.0f %s\n", R, C, cls
        n++
    }
    for (i = 1; i <= apart; i++) print fits[i]
}
function next_unit() { x = (48271 * x) % 2147483647; return x / 2147483647 }
function log_between(lo, hi) { return exp(log(lo) + next_unit() * (log(hi) - log(lo))) }
# with_residue(V, RES): V moved to the nearest number at least 1 that is RES mod 8
function with_residue(v, res,    w) {
    w = int(v / 8) * 8 + res
    if (w < 1) w += 8
    return w
}
# any: the matrix's size on a log scale, then its rows on a log scale over 1 .. its floats;
# residue i mod 8 for rows, 3i + 5 mod 8 for cols (every residue each side)
function any_shape(i,    bytes, elems) {
    bytes = log_between(MIN_BYTES, MAX_BYTES); elems = bytes / 4
    R = with_residue(int(log_between(1, elems)), i % 8)
    C = with_residue(int(elems / R), (3 * i + 5) % 8)
}
# skinny: a short side 1 .. 64, the long side for 256 MiB to 1 GiB, tall and wide in turn
function skinny_shape(i,    s, long) {
    s = int(log_between(1, 65)); if (s > 64) s = 64
    long = int(log_between(MIN_BYTES, 4 * MIN_BYTES) / 4 / s)
    if (i % 2 == 0) { R = long; C = s }
    else { R = s; C = long }
}
# square: a side on a log scale from 8192 up to 8 GiB a matrix, or, every third time and
# where the memory holds it, from 8 to 16 GiB; the other side within 8 of it
function square_shape(i,    lo, hi, side) {
    lo = 8192; hi = sqrt((MAX_BYTES < 8 * GIB ? MAX_BYTES : 8 * GIB) / 4)
    if (i % 3 == 2 && MAX_BYTES > 8 * GIB) { lo = hi; hi = sqrt(MAX_BYTES / 4) }
    side = int(log_between(lo, hi))
    R = side; C = side + int(next_unit() * 17) - 8
    if (next_unit() < 0.25) C = R   # a square, now and then
}
# shortwide: 65 to 112 rows, the columns for 256 MiB up to the largest matrix (log scale)
function shortwide_shape() {
    R = 65 + int(next_unit() * 48)
    C = int(log_between(MIN_BYTES, MAX_BYTES) / 4 / R)
}
