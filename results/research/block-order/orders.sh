#!/bin/sh
# Rebuilds orders.csv from the lever logs of this folder: every kernel row of each run's first
# table (the kit's timing: median, % of the copy measured beside it), not the back-to-back one.
# Run here: sh orders.sh > orders.csv
echo "gpu,file,rows,cols,variant,pct_copy"
for f in h100-plain.txt h100-strips.txt h100-sizes.txt h100-h0.txt h100-tall-lines.txt h200-order.txt h200-h0.txt \
         h100-measured.txt h200-measured.txt h200-copies.txt h200-r128.txt; do
    awk -v g="${f%%-*}" -v f="$f" '
        /^== / { s = $0; sub(/.*--rows /, "", s); r = s; sub(/ .*/, "", r)
                 c = s; sub(/.*--cols /, "", c); sub(/ .*/, "", c); bb = 0 }
        /^The same variants/ { bb = 1 }
        !bb && / yes$/ && !/^copy ceiling/ { n = split($0, a, " +"); p = a[n - 1]; sub(/%$/, "", p)
                                            print g "," f "," r "," c "," a[1] "," p }' "$f"
done
