#!/usr/bin/env bash
# Prints what scripts/lib/steps.txt, the kit's table of steps, says; a table line it does not
# understand is refused, naming the line and why, and nothing is printed.
#   scripts/lib/steps.sh                      every step's number in order (1 2 3 ...), one a line
#   scripts/lib/steps.sh --one-gpu            the steps that run on one GPU
#   scripts/lib/steps.sh --across             the steps that run across GPUs (gpus above 1)
#   scripts/lib/steps.sh --field NAME stepN   one column of one step (the columns: steps.txt); a
#                                             list one item a line, nothing for -
#   scripts/lib/steps.sh --row stepN          every column of one step, one a line: NAME, a tab,
#                                             the value (a list space-separated, nothing for -)
#   STEPS_TABLE=FILE scripts/lib/steps.sh     reads FILE instead (the tests' broken copies)
# Exit status: 0; 2 bad arguments, or a step the table does not have; 4 a malformed table.
set -u
. "$(dirname "$0")/lib.sh"
COLUMNS="step rows gpus share rule count_at speed_at san_at counter"   # as the header names them
want=all field=- step=-
case ${1:-} in
    "") [ $# = 0 ] || refuse "unknown argument ''" ;;
    -h|--help) usage; exit 0 ;;
    --one-gpu|--across) [ $# = 1 ] || refuse "$1 takes no value"; want=${1#--} ;;
    --field)
        [ $# = 3 ] || refuse "--field takes a column and a step, as in --field share step4"
        [[ " $COLUMNS " == *" $2 "* ]] || refuse "--field: no column '$2' (the columns: $COLUMNS)"
        [[ $3 =~ ^step[0-9]+$ ]] || refuse "--field: '$3' is not a step folder (stepN)"
        want=field field=$2 step=$3 ;;
    --row)
        [ $# = 2 ] || refuse "--row takes a step, as in --row step4"
        [[ $2 =~ ^step[0-9]+$ ]] || refuse "--row: '$2' is not a step folder (stepN)"
        want=row step=$2 ;;
    *) refuse "unknown argument '$1'" ;;
esac
table=$(from_start "${STEPS_TABLE:-$(dirname "$0")/steps.txt}")
[ -r "$table" ] || { echo "steps: cannot read the table '$table'" >&2; exit 4; }

awk -v columns="$COLUMNS" -v want="$want" -v field="$field" -v step="$step" '
function bad(why) {
    printf "steps: %s line %d: %s\n  | %s\n", FILENAME, FNR, why, $0 >"/dev/stderr"
    broken = 1; exit
}
function shape(s) { return s ~ /^[1-9][0-9]*x[1-9][0-9]*$/ }
function shapes(list,   a, n, i) {   # a non-empty comma-separated list of shapes
    n = split(list, a, ",")
    for (i = 1; i <= n; i++) if (!shape(a[i])) return 0
    return n > 0 && list !~ /,$/
}
function rows(list,   a, n, i) {     # a non-empty comma-separated list of row names
    n = split(list, a, ",")
    for (i = 1; i <= n; i++) if (a[i] !~ /^[A-Za-z][A-Za-z0-9+-]*$/) return 0
    return n > 0 && list !~ /,$/
}
BEGIN { ncol = split(columns, name, " ") }
/^#/ || NF == 0 { next }
!header {
    $1 = $1
    if ($0 != columns) bad("the header must name the columns: " columns)
    header = 1; next
}
{
    if (NF != ncol) bad(NF " columns, not " ncol " (" columns ")")
    for (i = 1; i <= ncol; i++) v[name[i]] = $i
    if (v["step"] !~ /^step[1-9][0-9]*$/) bad("step \"" v["step"] "\": a folder stepN, N from 1")
    n = substr(v["step"], 5) + 0
    if (n <= last) bad(v["step"] " after step" last ": each step once, in order")
    last = n
    if (!rows(v["rows"])) bad("rows \"" v["rows"] "\": row names, comma-separated (GPU-1D,GPU-2D)")
    if (v["gpus"] !~ /^[1-9][0-9]*$/) bad("gpus \"" v["gpus"] "\": a whole number from 1")
    if (v["share"] !~ /^([1-9][0-9]?|100)$/) bad("share \"" v["share"] "\": a whole % from 1 to 100")
    if (v["rule"] !~ /^(-|(most|least):[0-9]+(\.[0-9]+)?)$/)
        bad("rule \"" v["rule"] "\": most:F, least:F or -")
    if (v["counter"] !~ /^(-|[a-z0-9_.]+(\/[a-z0-9_.]+)?)$/)
        bad("counter \"" v["counter"] "\": an Nsight Compute metric, an optional /metric, or -")
    if (v["counter"] != "-" && !shape(v["count_at"]))
        bad("count_at \"" v["count_at"] "\": the shape (ROWSxCOLS) the counter is read at")
    if (v["counter"] == "-" && (v["count_at"] != "-" || v["rule"] != "-"))
        bad("count_at \"" v["count_at"] "\", rule \"" v["rule"] "\": without a counter both are -")
    if (!shapes(v["speed_at"])) bad("speed_at \"" v["speed_at"] "\": shapes, comma-separated (8192x8192,12345x6789)")
    if (v["san_at"] != "-" && !shapes(v["san_at"])) bad("san_at \"" v["san_at"] "\": shapes, comma-separated (97x161), or -")
    if (v["gpus"] > 1 && (v["counter"] != "-" || v["san_at"] != "-"))
        bad("a step across GPUs (gpus " v["gpus"] ") has counter - and san_at -: each rank is a process of its own")
    if (v["gpus"] == 1 && v["san_at"] == "-") bad("a step on one GPU names the shapes its sanitizers run at (san_at)")
    if (want == "all" || want == "one-gpu" && v["gpus"] == 1 || want == "across" && v["gpus"] > 1)
        out = out n "\n"
    if (want == "field" && v["step"] == step) { found = 1; if (v[field] != "-") out = v[field] }
    if (want == "row" && v["step"] == step) {
        found = 1
        for (i = 1; i <= ncol; i++) {
            s = v[name[i]] == "-" ? "" : v[name[i]]; gsub(/,/, " ", s)
            out = out name[i] "\t" s "\n"
        }
    }
}
END {
    if (broken) exit 4
    if (!header) { printf "steps: %s: no header line (%s)\n", FILENAME, columns >"/dev/stderr"; exit 4 }
    if (!last) { printf "steps: %s: no steps\n", FILENAME >"/dev/stderr"; exit 4 }
    if ((want == "field" || want == "row") && !found) { printf "steps: no %s in %s\n", step, FILENAME >"/dev/stderr"; exit 2 }
    if (want == "field") { gsub(/,/, "\n", out); if (out != "") print out } else printf "%s", out
}' "$table"
