# Reads Nsight Compute's raw page of one kernel launch (ncu --page raw --csv --print-units
# base): its first three lines that begin with a quote are the metric names, their units and
# their values. Other lines (the profiled program's own output, ==PROF== notes) are skipped;
# only the first file is read. Load it before a program: awk -f scripts/lib/ncu-raw.awk -f PROG.
# Gives col[NAME] (the metric's column), unit[i], val[i] and num(NAME). Plain POSIX awk.

# Splits a line of ncu's CSV (every field quoted) into a[1..n].
function csv(line, a,    n) {
    sub(/\r$/, "", line)
    line = substr(line, 2, length(line) - 2)
    n = split(line, a, /","/)
    return n
}

# A metric's value as a plain number, "" when the launch has no such metric.
function num(name,    v) {
    if (!(name in col)) return ""
    v = val[col[name]]
    gsub(/,/, "", v)                  # thousands separators
    return v
}

NR == FNR && /^"/ && nraw < 3 {
    nraw++
    if (nraw == 1) { n = csv($0, names); for (i = 1; i <= n; i++) col[names[i]] = i }
    else if (nraw == 2) csv($0, unit)
    else csv($0, val)
    next
}
