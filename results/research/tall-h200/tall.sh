#!/bin/sh
# Rebuilds tall.csv from the logs of vector-call.sh and clock-call.sh: each build's % of the copy
# at each shape (the GPU-any-shape row's last column), its two turns (vector-call.sh) or rounds,
# before and after the load (clock-call.sh), and their mean. The solution's build (0.17.4's
# panels) is named solution, the other by its patch. Run here: sh tall.sh > tall.csv
echo "gpu,file,rows,cols,build,first,second,mean"
for f in h200-vector-time.txt h200-clock-time.txt; do
    awk -v g=h200 -v f="$f" '
        /^== load/ { b = ""; next }
        /^== / { b = ""; for (i = 2; i <= NF; i++) {
                     if ($i ~ /\/transpose$/) { b = $i; sub(/\/transpose$/, "", b); sub(/.*\//, "", b) }
                     if ($i == "--rows") r = $(i + 1); if ($i == "--cols") c = $(i + 1) }
                 if (b == "step7") b = "solution" }
        /^GPU-any-shape/ && b != "" { p = $NF == "yes" ? $(NF - 1) : $NF; sub(/%$/, "", p)
                 k = r "," c "," b; if (!(k in first)) { first[k] = p; order[++n] = k } else second[k] = p }
        END { for (i = 1; i <= n; i++) { k = order[i]
                  printf "%s,%s,%s,%s,%s,%.2f\n", g, f, k, first[k], second[k], (first[k] + second[k]) / 2 } }' "$f"
done
