#!/bin/sh
# Rebuilds tall.csv from the logs of vector-call.sh and clock-call.sh (../turns.awk): each
# build's % of the copy at each shape, its two turns (vector-call.sh) or rounds, before and
# after the load (clock-call.sh), and their mean. The solution's build (0.17.4's panels) is
# named solution, the other by its patch. Run here: sh tall.sh > tall.csv
exec awk -v g=h200 -f ../turns.awk h200-vector-time.txt h200-clock-time.txt
