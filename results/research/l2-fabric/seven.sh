#!/bin/sh
# Rebuilds seven.csv from seven-call.sh's log (../lever-rows.awk), with the way each measuring
# variant kept (the log keeps one note a shape, step7-seven's). Run here: sh seven.sh > seven.csv
echo "gpu,file,rows,cols,variant,pct_copy,kept"
awk -v g=h200 -v f=h200-seven-time.txt -v kept=1 -f ../lever-rows.awk h200-seven-time.txt
