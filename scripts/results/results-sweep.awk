# The size-sweep table from a sweep CSV (scripts/results/results.sh --sweep writes it): one line a
# shape, one column a row of the sweep (GB/s and its % of the copy measured in the same run),
# and the copy ceiling (median of the shape's copy rows). Shapes whose class is fits-l2 (both
# matrices fit in twice the L2, so the copy is no yardstick) come last, set apart. Then, over
# the other shapes, the worst of the last step's row: its % of the copy, and its margin over
# the library row (step "library").
# With csv.awk: awk -f scripts/lib/csv.awk -f scripts/results/results-sweep.awk SWEEP.csv
{
    key = field("rows") " x " field("cols")
    if (!(key in mib)) {
        k[++n] = key; mib[key] = field("size_mib"); cls[key] = field("class")
        if (cls[key] == "") cls[key] = "fixed"
        if (field("seed") != "" && field("seed") != seed_seen) seeds = seeds " " (seed_seen = field("seed"))
    }
    if (field("commit") != "" && !(field("commit") in commit_seen)) {   # older sweeps: none
        commit_seen[field("commit")] = 1; commits = commits " " field("commit")
    }
    r = field("row")
    if (r == "copy ceiling") { copy[key] = copy[key] " " field("gbs"); next }
    if (!(r in is_row)) { is_row[r] = 1; rname[++nr] = r; rstep[nr] = field("step") }
    cell[key, r] = field("gbs") " (" field("pct_copy") "%)"
    pct[key, r] = field("pct_copy")
    if (field("step") == "library") lib = r
    n_step = substr(field("step"), 5) + 0   # stepN: N, compared as a number (step10 after step9)
    if (field("step") != "library" && n_step > last_n) { last_n = n_step; last_step = field("step"); last = r }
}
END {
    header()
    for (i = 1; i <= n; i++) if (cls[k[i]] != "fits-l2") line(k[i])
    for (i = 1; i <= n; i++) if (cls[k[i]] == "fits-l2") { if (!apart++) apart_note(); line(k[i]) }
    if (seeds != "") printf "generated shapes from seed%s (scripts/results/shapes-gen.awk)\n", seeds
    if (commits != "") printf "the kit at commit%s\n", commits
    worst()
}
function header(    j) {
    printf "%-20s %-8s %9s", "size", "class", "MiB each"
    for (j = 1; j <= nr; j++) printf " %19s", rname[j]
    printf " %10s\n", "copy GB/s"
}
function line(key,    j) {
    printf "%-20s %-8s %9s", key, cls[key], mib[key]
    for (j = 1; j <= nr; j++) printf " %19s", ((key, rname[j]) in cell) ? cell[key, rname[j]] : "-"
    printf " %10s\n", copy[key] == "" ? "-" : sprintf("%.1f", median(copy[key]))
}
function apart_note() {
    print "set apart: both matrices fit in twice the L2, so neither the copy nor the kernels need reach"
    print "device memory inside the timing; the copy is no yardstick there and these are not counted:"
}
# The worst shape for the last step (lowest % of the copy), how many fall under 90%, and
# where it is furthest behind (or least ahead of) the library row; then against every other
# row of the same runs (the plain-tile row, the other steps): on how many shapes one is ahead
# of it by more than 0.5 point (the run-to-run spread), and its least margin over any.
function worst(    i, j, key, p, m, wp, wk, mk, mm, under, counted, behind, am, ak, ar, over, o) {
    if (last == "") return
    wp = 1e9; mm = 1e9; am = 1e9
    for (i = 1; i <= n; i++) {
        key = k[i]
        if (cls[key] == "fits-l2" || !((key, last) in pct)) continue
        p = pct[key, last] + 0; counted++
        if (p < wp) { wp = p; wk = key }
        if (p < 90) under++
        o = 0
        for (j = 1; j <= nr; j++) {
            if (rname[j] == last || !((key, rname[j]) in pct)) continue
            m = p - pct[key, rname[j]]
            if (m < am) { am = m; ak = key; ar = rname[j] }
            if (m < -0.5) o = 1
        }
        over += o
        if (lib != "" && (key, lib) in pct) {
            m = p - pct[key, lib]
            if (m < mm) { mm = m; mk = key }
            if (m < 0) behind++
        }
    }
    if (!counted) return
    printf "%s (%s) over %d shapes beyond the L2: worst %.1f%% of the copy at %s; %d under 90%%",
           last, last_step, counted, wp, wk, under
    if (mk != "")
        printf "; behind %s on %d, its least margin %+.1f points at %s", lib, behind, mm, mk
    printf "\n"
    if (ar != "")
        printf "%s against every other row: behind one by more than 0.5 point on %d of %d shapes; its least margin %+.1f points, over %s at %s\n",
               last, over, counted, am, ar, ak
}
