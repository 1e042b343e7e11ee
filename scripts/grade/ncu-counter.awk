# The grader's counter from ncu's raw page of one launch: with -v spec=METRIC or
# spec=NUMERATOR/DENOMINATOR, prints the value (a ratio for two), whole above 1000, else to
# one decimal; exits 1 when the launch lacks the metric or the denominator is 0.
#   awk -v spec=... -f scripts/lib/ncu-raw.awk -f scripts/grade/ncu-counter.awk RAW
END {
    k = split(spec, p, "/")
    x = num(p[1])
    if (x == "" || x == "n/a") exit 1
    if (k == 2) {
        d = num(p[2])
        if (d == "" || d + 0 <= 0) exit 1
        x = x / d
    }
    printf (x >= 1000 ? "%.0f\n" : "%.1f\n"), x
}
