# The time.txt of odd-call.sh as a table: each shape, each variant's % of the copy (the median
# of its run-by-run ratios to the faster copy). awk -f odd.awk time.txt
/^== / { for (i = 1; i <= NF; i++) { if ($i == "--rows") r = $(i + 1); if ($i == "--cols") c = $(i + 1) }; s = r " x " c; order[++ns] = s }
/^(win|odd2|oddr|allr)-[0-9] / { p = $NF; sub(/%/, "", p); v[s, $1] = p; if (!($1 in seen)) { seen[$1]; names[++nv] = $1 } }
/differ/ { print "!! " s ": " $0 }
END {
    printf "| rows x cols |"; for (j = 1; j <= nv; j++) printf " %s |", names[j]; printf "\n|---|"
    for (j = 1; j <= nv; j++) printf "---|"; printf "\n"
    for (i = 1; i <= ns; i++) {
        printf "| %s |", order[i]
        for (j = 1; j <= nv; j++) printf " %s |", ((order[i], names[j]) in v) ? v[order[i], names[j]] "%" : "-"
        printf "\n"
    }
}
