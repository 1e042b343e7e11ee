#!/bin/sh
# Rebuilds ways.csv from the logs of ways-call.sh and ways2-call.sh (../turns.awk): each
# build's % of the copy at each shape, in its two turns, and their mean. The solution's build
# is named solution, the others by their patch. Run here: sh ways.sh > ways.csv
exec awk -v g=h200 -f ../turns.awk h200-ways-time.txt h200-ways2-time.txt
