# The spread of each row over several results CSVs: min, median, max of its GB/s and
# (max - min) / median. With csv.awk:
#   awk -f scripts/lib/csv.awk -f scripts/results/results-spread.awk RUN...
{
    r = field("row")
    if (!(r in seen)) { seen[r] = 1; order[++n] = r }
    v[r] = v[r] " " field("gbs")
}
END {
    for (k = 1; k <= n; k++) {
        r = order[k]; m = split(v[r], a, " ")
        lo = a[1]; hi = a[1]
        for (i = 2; i <= m; i++) { if (a[i] + 0 < lo + 0) lo = a[i]; if (a[i] + 0 > hi + 0) hi = a[i] }
        med = median(v[r])
        printf "%-20s %9.1f %9.1f %9.1f %6.2f%%  (%d values)\n", r, lo, med, hi, 100 * (hi - lo) / med, m
    }
}
