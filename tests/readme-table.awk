# With scripts/csv.awk: awk -v column=N -f scripts/csv.awk -f tests/readme-table.awk RUN.csv README.md
# prints every row of the README's results table whose column N (split on "|", so the first
# column is 2) differs from the run's GB/s for that row, or names a row the run lacks.
nfile == 1 { r = field("row"); if (r != "copy ceiling") g[r] = field("gbs"); next }
/^\| (CPU\+OMP|GPU-|cublasSgeam)/ {
    split($0, c, "|"); r = c[2]; gsub(/^ +| +$/, "", r); sub(/ \(.*/, "", r)
    v = c[column]; gsub(/ /, "", v)
    if (r in g && v != g[r]) print r ": README " v ", CSV " g[r]
    else if (!(r in g) && v != "-") print r ": README " v ", the CSV has no such row"
}
