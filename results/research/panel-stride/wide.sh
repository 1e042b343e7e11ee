#!/bin/sh
# Rebuilds wide.csv from the logs of index-call.sh and stage-call.sh (../turns.awk): each
# build's % of the copy at each shape, its two turns and their mean. The solution's build is
# named solution (0.17.3's panels), the others by their patch. Run here: sh wide.sh > wide.csv
exec awk -v g=h200 -f ../turns.awk h200-index-time.txt h200-stage-time.txt
