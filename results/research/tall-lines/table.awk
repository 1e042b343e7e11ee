# A call's time.txt (call-lib.sh's call_time) as a table: each shape, each build, the % of the
# copy of its two turns and their mean, and the way the launch kept in its last turn (the
# note's last words; "untimed" where the launch takes the panel without timing it).
# awk -f table.awk h200-async-time.txt > h200-async-table.txt
/^== / { b = $2; sub(/\/transpose$/, "", b); sub(/.*\//, "", b); if (b == "step7") b = "solution"
         s = $4 " x " $6; if (!(s in seen)) { seen[s] = 1; shapes[++ns] = s }
         if (!((s, b) in nb)) { builds[s, ++bn[s]] = b; nb[s, b] = 0 } }
/^GPU-any-shape/ { for (i = NF; i > 0; i--) if ($i ~ /%$/) { p = $i; sub(/%$/, "", p); break }
                   pct[s, b, ++nb[s, b]] = p; kept[s, b] = "untimed" }
/^note: .* took the fastest/ { k = $0; sub(/.*: /, "", k); gsub(/ /, "_", k); kept[s, b] = k }
END {
    printf "%-14s %-16s %6s %6s %6s  %s\n", "rows x cols", "build", "turn1", "turn2", "mean", "kept"
    for (i = 1; i <= ns; i++) for (j = 1; j <= bn[shapes[i]]; j++) {
        s = shapes[i]; b = builds[s, j]
        printf "%-14s %-16s %6.1f %6.1f %6.1f  %s\n", s, b, pct[s, b, 1], pct[s, b, 2], (pct[s, b, 1] + pct[s, b, 2]) / 2, kept[s, b]
    }
}
