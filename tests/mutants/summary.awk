# The summary of a mutant run, from its CSV (tests/mutants.sh --run writes both):
#   awk -F, -v wall=SECONDS -v builders=N -v jobs=N -f tests/mutants/summary.awk DIR/mutants.csv
# The verdicts, then the explanation match rate by step, by operator and by category: of the
# mutants the grader's checks killed, those whose grade named their operator's category.
# Mutants killed by the build are left out of the rate: the build names no category.

NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
    n++
    step = $col["step"]; op = $col["operator"]; cat = $col["category"]; v = $col["verdict"]
    verdicts[v]++
    if (v == "killed" && $col["checks"] == "build") built_dead++
    add("step", step); add("operator", op); add("category", cat)
    bs += $col["build_s"]; if ($col["grade_s"] != "") { gs += $col["grade_s"]; graded++ }
}
# add KIND KEY: one mutant of KIND KEY (a step, an operator, a category), counted.
function add(kind, key) {
    if (!((kind, key) in all)) { keys[kind, ++nk[kind]] = key }
    all[kind, key]++
    if (v == "killed" && $col["checks"] != "build") {
        killed[kind, key]++
        if ($col["match"] == "yes") matched[kind, key]++
    }
    if (v == "killed" && $col["checks"] == "build") dead[kind, key]++
    if (v == "survived") survived[kind, key]++
    if (v == "equivalent") equivalent[kind, key]++
}
function pct(a, b) { return b ? sprintf("%3.0f%%", 100 * a / b) : "   -" }
function table(kind,   k, key, m, t, a, d, s, e) {
    printf "  %-16s %7s %7s %7s %7s %7s %9s\n", "by " kind, "mutants", "build", "checks", "survive", "equiv", "matched"
    for (k = 1; k <= nk[kind]; k++) {
        key = keys[kind, k]
        printf "  %-16s %7d %7d %7d %7d %7d %4d %s\n", key, all[kind, key], dead[kind, key], \
            killed[kind, key], survived[kind, key], equivalent[kind, key], matched[kind, key], \
            pct(matched[kind, key], killed[kind, key])
        a += all[kind, key]; d += dead[kind, key]; t += killed[kind, key]
        s += survived[kind, key]; e += equivalent[kind, key]; m += matched[kind, key]
    }
    printf "  %-16s %7d %7d %7d %7d %7d %4d %s\n", "all", a, d, t, s, e, m, pct(m, t)
}
END {
    printf "%d mutants: killed %d (%d by the build, %d by the checks), survived %d, equivalent %d", \
        n, verdicts["killed"], built_dead, verdicts["killed"] - built_dead, verdicts["survived"], \
        verdicts["equivalent"]
    if (verdicts["ungraded"])
        printf ", not graded before the run's --limit %d", verdicts["ungraded"]
    if (verdicts["timeout"] + verdicts["error"])
        printf ", no verdict %d (timeout %d, error %d)", verdicts["timeout"] + verdicts["error"], \
            verdicts["timeout"], verdicts["error"]
    printf "\n"
    printf "killed by the build, killed by the checks, survived, equivalent; matched: of those the checks\n"
    printf "killed, the ones whose grade names the operator's category (the explanation match rate)\n"
    table("step"); table("operator"); table("category")
    if (wall > 0) printf "time: %.0f s in all (%d builds and %d grades at once); ", wall, builders, jobs
    else printf "time (runs in parts): "
    printf "a build %.1f s, a grade %.1f s on average\n", \
        n - verdicts["ungraded"] ? bs / (n - verdicts["ungraded"]) : 0, graded ? gs / graded : 0
}
