# One line a shape from a time.txt of halves-call.sh: the solution's windows and the variants
# as % of the copy (the faster of cudaMemcpy and the copy kernel, round by round), and the
# reads alone and the writes alone over the copy kernel's reads and writes alone (median
# times), and each kernel's two halves together over the whole (win's, the copy kernel's);
# from h200-halves-3 on, win128 and its reads alone too.
# awk -f halves.awk h200-halves-1-time.txt
/^== / { shape = $4 " x " $6; order[++n] = shape }
/^(win|win-async|win-regs|win-fast|win128) / { pct[shape, $1] = $6 }
/^async-read \/ copy-read/ {
    line = $0
    gsub(/;/, "", line)
    m = split(line, w, " ")
    for (i = 1; i <= m; i++) if (w[i] ~ /^[0-9.]+$/) r[shape, ++k[shape]] = w[i]
}
END {
    w128 = k[order[1]] >= 7   # the calls since win128 (halves-3 on)
    printf "| rows x cols | win | win-async | win-fast | win-regs | win-read / copy-read | win-write / copy-write | async-read / copy-read | fast-read / copy-read | (win-read + win-write) / win | (copy-read + copy-write) / copy |%s\n",
           w128 ? " win128 | w128-read / copy-read |" : ""
    printf "|---|---|---|---|---|---|---|---|---|---|---|%s\n", w128 ? "---|---|" : ""
    for (j = 1; j <= n; j++) {
        s = order[j]
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |", s, pct[s, "win"], pct[s, "win-async"],
               pct[s, "win-fast"], pct[s, "win-regs"], r[s, 3], r[s, 4], r[s, 1], r[s, 2], r[s, 5], r[s, 6]
        if (w128) printf " %s | %s |", pct[s, "win128"], r[s, 7]
        printf "\n"
    }
}
