#!/bin/sh
# Rebuilds tall.csv from the logs of vector-call.sh and clock-call.sh: each build's % of the copy
# at each shape (the GPU-any-shape row's % copy column, the one before its check), its two turns
# (vector-call.sh) or rounds, before and after the load (clock-call.sh), and their mean. The
# solution's build (0.17.4's panels) is named solution, the other by its patch. A run whose
# check is not "yes", or a shape without its second turn, stops it (exit 1): a mean of one.
# Run here: sh tall.sh > tall.csv
echo "gpu,file,rows,cols,build,first,second,mean"
for f in h200-vector-time.txt h200-clock-time.txt; do
    awk -v g=h200 -v f="$f" '
        /^== load/ { b = ""; next }
        /^== / { b = ""; for (i = 2; i <= NF; i++) {
                     if ($i ~ /\/transpose$/) { b = $i; sub(/\/transpose$/, "", b); sub(/.*\//, "", b) }
                     if ($i == "--rows") r = $(i + 1); if ($i == "--cols") c = $(i + 1) }
                 if (b == "step7") b = "solution" }
        /^GPU-any-shape/ && b != "" { if ($NF != "yes") { print f ": a run not exact: " $0 > "/dev/stderr"; bad = 1; exit 1 }
                 p = $(NF - 1); sub(/%$/, "", p)
                 k = r "," c "," b; if (!(k in first)) { first[k] = p; order[++n] = k } else second[k] = p }
        END { if (bad) exit 1
              for (i = 1; i <= n; i++) { k = order[i]
                  if (second[k] == "") { print f ": one turn only at " k > "/dev/stderr"; exit 1 }
                  printf "%s,%s,%s,%s,%s,%.2f\n", g, f, k, first[k], second[k], (first[k] + second[k]) / 2 } }' "$f" || exit 1
done
