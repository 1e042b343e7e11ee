#!/bin/sh
# Rebuilds wide.csv from the logs of index-call.sh and stage-call.sh: each build's % of the copy
# at each shape (the GPU-any-shape row's last column), its two turns and their mean. The
# solution's build is named solution (0.17.3's panels), the others by their patch.
# Run here: sh wide.sh > wide.csv
echo "gpu,file,rows,cols,build,first,second,mean"
for f in h200-index-time.txt h200-stage-time.txt; do
    awk -v g=h200 -v f="$f" '
        /^== / { b = $2; sub(/\/transpose$/, "", b); sub(/.*\//, "", b); if (b == "step7") b = "solution"
                 r = $4; c = $6 }
        /^GPU-any-shape/ { p = $NF == "yes" ? $(NF - 1) : $NF; sub(/%$/, "", p)
                 k = r "," c "," b; if (!(k in first)) { first[k] = p; order[++n] = k } else second[k] = p }
        END { for (i = 1; i <= n; i++) { k = order[i]
                  printf "%s,%s,%s,%s,%s,%.2f\n", g, f, k, first[k], second[k], (first[k] + second[k]) / 2 } }' "$f"
done
