# The size-sweep table from a sweep CSV (scripts/results.sh --sweep writes it): one line a
# shape, one column a row of the sweep (GB/s and its % of the copy measured in the same run),
# and the copy ceiling (median of the shape's copy rows).
# With csv.awk: awk -f scripts/csv.awk -f scripts/results-sweep.awk SWEEP.csv
{
    key = field("rows") " x " field("cols")
    if (!(key in mib)) { k[++n] = key; mib[key] = field("size_mib") }
    r = field("row")
    if (r == "copy ceiling") { copy[key] = copy[key] " " field("gbs"); next }
    if (!(r in is_row)) { is_row[r] = 1; rname[++nr] = r }
    cell[key, r] = field("gbs") " (" field("pct_copy") "%)"
}
END {
    printf "%-16s %9s", "size", "MiB each"
    for (j = 1; j <= nr; j++) printf " %19s", rname[j]
    printf " %10s\n", "copy GB/s"
    for (i = 1; i <= n; i++) {
        printf "%-16s %9s", k[i], mib[k[i]]
        for (j = 1; j <= nr; j++) printf " %19s", ((k[i], rname[j]) in cell) ? cell[k[i], rname[j]] : "-"
        printf " %10s\n", copy[k[i]] == "" ? "-" : sprintf("%.1f", median(copy[k[i]]))
    }
}
