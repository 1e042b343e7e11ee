# The time.txt of order-call.sh, carry-call.sh or r256-call.sh as a table: each shape, each
# build (the solution as "solution") and its TK_WAY, TK_G or TK_K, the % of the copy in each
# turn and their mean, and the median ms of the last.
# awk -f order.awk time.txt
/^== / {
    b = $0; sub(/\/transpose .*/, "", b); sub(/.*\//, "", b)
    k = b == "step7" ? "solution" : b
    for (i = 2; i <= NF && $i ~ /^TK_/; i++)
        if ($i !~ /^TK_NONE/) k = k " " tolower(substr($i, 4))
    for (i = 1; i <= NF; i++) { if ($i == "--rows") r = $(i + 1); if ($i == "--cols") c = $(i + 1) }
    s = r " x " c
    if (!(s in seen)) { seen[s]; order[++ns] = s }
    if (!((s, k) in has)) { has[s, k]; keys[s, ++nk[s]] = k }
}
/^GPU-any-shape/ { p = $(NF - 1); sub(/%/, "", p); pct[s, k] = pct[s, k] " " p; sum[s, k] += p; n[s, k]++; ms[s, k] = $2 }
/WRONG|rror/ { print "!! " s " " k ": " $0 }
END {
    for (i = 1; i <= ns; i++) {
        s = order[i]
        for (j = 1; j <= nk[s]; j++) {
            k = keys[s, j]
            if (n[s, k]) printf "%-14s %-16s %5.1f%%  (%s )  %s ms\n", s, k, sum[s, k] / n[s, k], pct[s, k], ms[s, k]
        }
    }
}
