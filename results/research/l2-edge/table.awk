# The probe's runs (probe-call.sh's time.txt, one or more) as a table: for each of step 6,
# step 7 (its trials choosing) and step 7 forced to each way, the runs, and their % of the
# copy: least, median, most; then the ways step 7's trials kept.
#   awk -f table.awk h200-probe-1-time.txt h200-probe-2-time.txt > h200-probe-table.txt
/^== / { r = $2 == "TK_NONE=1" ? $3 : $3 " " $2 }
/^GPU-/ { for (i = NF; i > 0; i--) if ($i ~ /%$/) { v[r, ++n[r]] = $i + 0; break } }
/^note: .*took the fastest/ { k = $0; sub(/.*: /, "", k); kept[k]++ }
/^note: .*as TK_WAY=/ { k = $0; sub(/.* took /, "", k); sub(/, as TK_WAY=.*/, "", k); name[r] = k }
function median(r,   a, i, j, t, m) {
    m = n[r]
    for (i = 1; i <= m; i++) a[i] = v[r, i]
    for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    lo = a[1]; hi = a[m]
    return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
}
END {
    print "| run | runs | least | median | most |"
    print "|---|---|---|---|---|"
    split("step6,step7,step7 TK_WAY=0,step7 TK_WAY=1,step7 TK_WAY=2,step7 TK_WAY=3,step7 TK_WAY=4,step7 TK_WAY=5", order, ",")
    for (o = 1; o in order; o++) {
        r = order[o]
        if (!n[r]) continue
        med = median(r)
        printf "| %s%s | %d | %.1f%% | %.2f%% | %.1f%% |\n", r, r in name ? " (" name[r] ")" : "", n[r], lo, med, hi
    }
    for (o = 1; o in order; o++)   # the ways in their order, by the names the forced runs gave
        if ((order[o] in name) && (name[order[o]] in kept))
            printf "step 7's trials kept %s: %d of %d\n", name[order[o]], kept[name[order[o]]], n["step7"]
}
