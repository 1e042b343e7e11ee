# With scripts/lib/csv.awk: awk -v column=N -f scripts/lib/csv.awk -f tests/readme-table.awk RUN.csv results/README.md
# prints every row of the reference table in results/README.md whose column N (split on "|",
# so the first column is 2) differs from the run's GB/s for that row, names a row the run
# lacks, and names every row of the run the table lacks (so a table that moved or lost a row
# fails too).
nfile == 1 { r = field("row"); if (r != "copy ceiling") g[r] = field("gbs"); next }
/^\| (CPU\+OMP|GPU-|cublasSgeam)/ {
    split($0, c, "|"); r = c[2]; gsub(/^ +| +$/, "", r); sub(/ \(.*/, "", r); seen[r] = 1
    v = c[column]; gsub(/ /, "", v)
    if (r in g && v != g[r]) print r ": table " v ", CSV " g[r]
    else if (!(r in g) && v != "-") print r ": table " v ", the CSV has no such row"
}
END { for (r in g) if (!(r in seen)) print r ": the CSV has it, the table in " FILENAME " does not" }
