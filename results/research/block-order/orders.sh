#!/bin/sh
# Rebuilds orders.csv from the lever logs of this folder (../lever-rows.awk).
# Run here: sh orders.sh > orders.csv
echo "gpu,file,rows,cols,variant,pct_copy"
for f in h100-plain.txt h100-strips.txt h100-sizes.txt h100-h0.txt h100-tall-lines.txt h200-order.txt h200-h0.txt \
         h100-measured.txt h200-measured.txt h200-copies.txt h200-r128.txt h100-halo-levers.txt \
         h100-many-bands.txt h100-step7-six.txt h200-six.txt; do
    awk -v g="${f%%-*}" -v f="$f" -f ../lever-rows.awk "$f"
done
