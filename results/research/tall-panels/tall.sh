#!/bin/sh
# Rebuilds tall.csv from the lever logs of this folder (../lever-rows.awk), with the way each
# measuring variant kept. Run here: sh tall.sh > tall.csv
echo "gpu,file,rows,cols,variant,pct_copy,kept"
for f in h100-levers-b.txt h100-levers-c.txt h100-levers-e.txt h100-levers-f.txt h100-levers-g.txt h100-ways.txt h200-ways.txt; do
    awk -v g="${f%%-*}" -v f="$f" -v kept=1 -f ../lever-rows.awk "$f"
done
