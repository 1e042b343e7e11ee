# Step 7's six ways against seven (the six and 128 x 64 windows one band at a time), from a
# log of seven-call.sh: awk -f ways.awk h200-seven-time.txt
# One line a shape: % of the copy (the median of 10, each beside its copy ceiling) of
# step7-six and step7-seven in the same run, the difference, and the way step7-seven kept (the
# harness notes one variant's ways a shape, the last's).
/^== LEVERS/ { for (i = 1; i <= NF; i++) { if ($i == "--rows") r = $(i + 1); if ($i == "--cols") c = $(i + 1) }; kept = "" }
/^step7-six / { six = $(NF - 1) }
/^step7-seven / { seven = $(NF - 1) }
/^note:/ { kept = $0; sub(/.*: /, "", kept) }
/^exit/ {
    a = six; b = seven; sub(/%/, "", a); sub(/%/, "", b)
    printf "%-16s six %6s seven %6s %+5.1f   seven kept: %s\n", r " x " c, six, seven, b - a, kept
}
