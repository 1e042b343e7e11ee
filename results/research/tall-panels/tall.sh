#!/bin/sh
# Rebuilds tall.csv from the lever logs of this folder: every kernel row of each run's first
# table (the kit's timing: median, % of the copy measured beside it), not the back-to-back
# one; for step7-orders and step7-ways, the way its launch kept (the note under the rows: a
# run keeps one note, the last, and step7-ways' names five ways).
# Run here: sh tall.sh > tall.csv
echo "gpu,file,rows,cols,variant,pct_copy,kept"
for f in h100-levers-b.txt h100-levers-c.txt h100-levers-e.txt h100-levers-f.txt h100-levers-g.txt h100-ways.txt h200-ways.txt; do
    awk -v g="${f%%-*}" -v f="$f" '
        /^== / { s = $0; sub(/.*--rows /, "", s); r = s; sub(/ .*/, "", r)
                 c = s; sub(/.*--cols /, "", c); sub(/ .*/, "", c); bb = 0 }
        /^The same variants/ { bb = 1 }
        /^note: at .* the launch took the fastest/ { k = $0; sub(/.*: /, "", k); gsub(/ /, "_", k)
                                                     kept[r "," c, /128 rows in 8 bands/ ? "step7-ways" : "step7-orders"] = k }
        !bb && / yes$/ && !/^copy ceiling/ { n = split($0, a, " +"); p = a[n - 1]; sub(/%$/, "", p)
                                            row[++m] = g "," f "," r "," c "," a[1] "," p; key[m] = r "," c; v[m] = a[1] }
        END { for (i = 1; i <= m; i++) print row[i] "," kept[key[i], v[i]] }' "$f"
done
