# The size-sweep table from a sweep CSV (scripts/results.sh --sweep writes it).
# With csv.awk: awk -f scripts/csv.awk -f scripts/results-sweep.awk SWEEP.csv
{
    key = field("rows") " x " field("cols")
    if (field("row") == "copy ceiling") { copy[key] = field("gbs"); next }
    k[++n] = key; mib[key] = field("size_mib"); g[key] = field("gbs"); row = field("row")
}
END {
    printf "%-14s %10s %12s %12s %8s\n", "size", "MiB each", row " GB/s", "copy GB/s", "% copy"
    for (i = 1; i <= n; i++)
        printf "%-14s %10s %12s %12s %7.1f%%\n", k[i], mib[k[i]], g[k[i]], copy[k[i]], 100 * g[k[i]] / copy[k[i]]
}
