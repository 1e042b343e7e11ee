#!/bin/sh
# Rebuilds tall.csv from the lever logs of this folder: every kernel row of each run's first
# table (the kit's timing: median, % of the copy measured beside it), not the back-to-back
# one; for step7-orders, the order its launch kept (the note under its rows).
# Run here: sh tall.sh > tall.csv
echo "gpu,file,rows,cols,variant,pct_copy,kept"
for f in h100-levers-b.txt h100-levers-c.txt; do
    awk -v g="${f%%-*}" -v f="$f" '
        /^== / { s = $0; sub(/.*--rows /, "", s); r = s; sub(/ .*/, "", r)
                 c = s; sub(/.*--cols /, "", c); sub(/ .*/, "", c); bb = 0 }
        /^The same variants/ { bb = 1 }
        /^note: at .* the launch took the fastest/ { k = $0; sub(/.*: /, "", k); gsub(/ /, "_", k); kept[r "," c] = k }
        !bb && / yes$/ && !/^copy ceiling/ { n = split($0, a, " +"); p = a[n - 1]; sub(/%$/, "", p)
                                            row[++m] = g "," f "," r "," c "," a[1] "," p; key[m] = r "," c; v[m] = a[1] }
        END { for (i = 1; i <= m; i++) print row[i] "," (v[i] == "step7-orders" ? kept[key[i]] : "") }' "$f"
done
