#!/usr/bin/env bash
# The grader proven on mistakes nobody picked: single-edit mutants of every one-GPU solution
# (solution/stepN/transpose.cu), one at each site where an operator of
# tests/mutants/operators.txt matches, each a description in tests/mistakes/'s format.
#
#   tests/mutants.sh [--out DIR]     writes the mutants' descriptions to DIR/desc/ and their
#                                    list to DIR/mutants.txt; prints the counts by step and
#                                    operator
#   tests/mutants.sh --list          prints the list only, one line a mutant:
#                                    ID STEP OPERATOR CATEGORY LINE
#   tests/mutants.sh --build [--out DIR]
#                                    also builds every mutant as the grader does, all cores at
#                                    once, each in DIR/m/ID/; no GPU needed. Says how long a
#                                    build takes and which mutants do not compile
#   tests/mutants.sh --run [--jobs N] [--out DIR]
#                                    builds every mutant and grades each with
#                                    scripts/grade/grade.sh --checks-only, N at a time (default: the
#                                    cores / 2, at most 8: the GPU is shared; 1 where it takes
#                                    one process at a time), while the rest
#                                    build; writes DIR/mutants.csv and DIR/summary.txt
#   tests/mutants.sh --steps 1,2,3 ...  only the mutants of those steps (with any of the above):
#                                    a run in parts, each well inside one call of a GPU machine
#   tests/mutants.sh --limit S ...   (with --run) grades for S seconds at most: mutants not
#                                    graded by then are reported as ungraded (no verdict), so
#                                    that a run on a machine lent for a while still reports
#   tests/mutants.sh --ids FILE ...  only the mutants FILE lists (one ID a line, in the order
#                                    they are to be graded), as a part that finishes or re-grades
#                                    an earlier one
#   tests/mutants.sh --summary CSV...   the summary of the parts' CSVs together (no GPU needed):
#                                    where a mutant is in several, its last graded row counts
#
# DIR is tests/build/mutants unless given (make clean removes it). A mutant is killed when it
# does not compile or the grader fails it; when it passes the checks it is equivalent if
# tests/mutants/equivalent.txt lists it (with the reason it cannot change any output), and a
# survivor otherwise. A killed mutant's grade is read into categories with the table of
# tests/mutants/categories.txt; it is matched when its operator's category is among them.
# Exit status: 0 done (--run: no survivor and every grade ended in a verdict); 1 survivors,
# or grades that ended in none; 2 bad arguments; 3 no usable GPU (--run: nothing was graded);
# 4 the kit itself failed (a generator error, solution/step1 does not build).
set -u
. "$(dirname "$0")/../scripts/lib/lib.sh"
CSV_HEADER="id,step,operator,category,verdict,checks,explained,match,line,findings,build_s,grade_s"
# ids_of FILE: the first word of every line of a table FILE that is neither blank nor a
# comment, one a line: the IDs of equivalent.txt or of an --ids file, the operators' names.
ids_of() { awk '!/^[ \t]*(#|$)/ { print $1 }' "$1"; }
mode=write out="" jobs="" only="" limit="" idfile=""
while [ $# -gt 0 ]; do
    case $1 in
    -h|--help) usage; exit 0 ;;
    --list) mode=list ;;
    --build) mode=build ;;
    --run) mode=run ;;
    --out) [ $# -ge 2 ] || refuse "--out takes a folder"; out=$(from_start "$2"); shift ;;
    --jobs) [ $# -ge 2 ] || refuse "--jobs takes a number"; jobs=$2; shift ;;
    --limit) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]{0,5}$ ]] || refuse "--limit takes seconds: 1 to 999999"
             limit=$2; shift ;;
    --steps) [ $# -ge 2 ] && [[ $2 =~ ^[0-9]+(,[0-9]+)*$ ]] || refuse "--steps takes step numbers: 1,2,3"
             only=" ${2//,/ } "; shift ;;
    --ids) [ $# -ge 2 ] && [ -f "$2" ] || refuse "--ids takes a file of mutant IDs, one a line"
           idfile=$(from_start "$2"); shift ;;
    --summary) mode=summary; shift; break ;;
    *) refuse "unknown argument '$1'" ;;
    esac
    shift
done
if [ "$mode" = summary ]; then   # the CSVs of a run made in parts, summed up
    [ $# -ge 1 ] || refuse "--summary takes the CSVs of the parts"
    for f in "$@"; do
        [ "$(head -n 1 "$(from_start "$f")" 2>/dev/null)" = "$CSV_HEADER" ] ||
            { echo "mutants: $f is not a CSV of tests/mutants.sh --run" >&2; exit 2; }
    done
    # One row a mutant, in the order first seen: its last row with a verdict (killed, survived,
    # equivalent), else its last row that is not ungraded (a timeout, an error), else ungraded.
    # A survivor that tests/mutants/equivalent.txt lists now (after its run) counts as
    # equivalent, and the summary says how many were re-read so.
    merged=$(mktemp) || exit 4
    trap 'rm -f "$merged" "$merged".*' EXIT
    ids_of "$(dirname "$0")/mutants/equivalent.txt" >"$merged.equiv"
    awk -F, -v OFS=, -v list="$merged.equiv" -v note="$merged.note" '
             BEGIN { while ((getline id <list) > 0) eq[id] = 1 }
             FNR == 1 { if (NR == 1) print; next }
             !($1 in row) { order[++n] = $1 }
             !($1 in row) || $5 ~ /^(killed|survived|equivalent)$/ ||
                 ($5 != "ungraded" && verdict[$1] !~ /^(killed|survived|equivalent)$/) {
                 row[$1] = $0; verdict[$1] = $5 }
             END { for (i = 1; i <= n; i++) {
                       $0 = row[order[i]]
                       if ($5 == "survived" && ($1 in eq)) { $5 = "equivalent"; reread++ }
                       print }
                   if (reread) printf "%d survivor(s) of the runs, listed in tests/mutants/equivalent.txt since, counted as equivalent\n", reread >note }' "$@" >"$merged" || exit 4
    awk -F, -v wall=0 -v builders=0 -v jobs=0 -f "$(dirname "$0")/mutants/summary.awk" "$merged" || exit 4
    [ -f "$merged.note" ] && cat "$merged.note"
    exit 0
fi
[ $# = 0 ] || refuse "unknown argument '$1'"
[ -n "$jobs" ] && [ "$mode" != run ] && refuse "--jobs goes with --run"
[ -n "$limit" ] && [ "$mode" != run ] && refuse "--limit goes with --run"
[ -n "$out" ] && [ "$mode" = list ] && refuse "--list writes nothing: no --out"
if [ -n "$jobs" ]; then
    [[ $jobs =~ ^[1-8]$ ]] || refuse "--jobs takes 1 to 8 (the GPU is shared)"
else
    jobs=$(( $(nproc) / 2 )); [ "$jobs" -lt 1 ] && jobs=1; [ "$jobs" -gt 8 ] && jobs=8
    gpus_shared || jobs=1   # a GPU that takes one process at a time
fi
cd "$(dirname "$0")/.." || exit 4
KIT=$(pwd)
MUT=$KIT/tests/mutants
out=${out:-$KIT/tests/build/mutants}
export LC_ALL=C KIT OUT=$out GRADE_LIMIT=240   # a grade's limit in seconds: it takes ~10-20
export TK_GRADE_AT_ONCE=2   # grades run side by side: each runs its shapes two at a time

# generate DIR: every mutant's description in DIR, one line a mutant on stdout.
generate() {
    local dir=$1 n
    rm -rf "$dir" && mkdir -p "$dir" || return 1
    for n in $(scripts/lib/steps.sh --one-gpu); do
        [ -z "$only" ] || [[ $only == *" $n "* ]] || continue
        awk -v base="solution/step$n" -v dir="$dir" -f "$MUT/mutate.awk" "$MUT/operators.txt" \
            "solution/step$n/transpose.cu" >"$dir/.list" || return 1
        awk -v step="step$n" '{ print $1, step, $2, $3, $4 }' "$dir/.list"
    done
    rm -f "$dir/.list"
}
# chosen: the generated list, kept to the IDs of --ids FILE (in its order) where it is given;
# an ID the generator does not make is refused.
chosen() {
    [ -n "$idfile" ] || { cat; return; }
    awk -v ids=<(ids_of "$idfile") '
         BEGIN { while ((getline id <ids) > 0) if (!(id in seen)) { seen[id]; want[++n] = id } }
         { line[$1] = $0 }
         END { for (i = 1; i <= n; i++) {
                   if (!(want[i] in line)) { print "mutants: --ids: no mutant " want[i] > "/dev/stderr"; bad = 1; continue }
                   print line[want[i]] }
               exit bad }'
}

if [ "$mode" = list ]; then
    tmp=$(mktemp -d) || exit 4
    trap 'rm -rf "$tmp"' EXIT
    generate "$tmp/d" >"$tmp/all" || exit 4
    chosen <"$tmp/all" || exit 2
    exit 0
fi

# --run needs a GPU: asked first, as the grader asks, before anything is built.
if [ "$mode" = run ]; then
    make -s -C solution/step1 >/dev/null 2>&1 || { echo "mutants: solution/step1 does not build" >&2; exit 4; }
    if no_gpu solution/step1/transpose; then
        echo "nothing was graded: $NO_GPU_SAID: $NO_GPU_WHY. tests/mutants.sh --build builds the mutants without one."
        exit "$NO_GPU_STATUS"
    fi
    # Grades side by side share the GPU for their checks and take it alone for the shapes past
    # 2^31 elements (16 GiB of the GPU's memory and of the host's each): the grader's lock.
    if [ -z "${TK_GRADE_LOCK:-}" ]; then   # one of its own, on this machine's disk, removed at the end
        TK_GRADE_LOCK=$(mktemp /tmp/tk-mutants-lock.XXXXXX) && export TK_GRADE_LOCK && trap 'rm -f "$TK_GRADE_LOCK"' EXIT
    fi
fi

mkdir -p "$out" || exit 4
generate "$out/desc" >"$out/all.txt" || { echo "mutants: the generator failed" >&2; exit 4; }
chosen <"$out/all.txt" >"$out/mutants.txt" || exit 2
total=$(wc -l <"$out/mutants.txt")
echo "$total mutants of $(cut -d' ' -f2 "$out/mutants.txt" | sort -u | wc -l) steps, by step and operator:"
awk -v ops="$(ids_of "$MUT/operators.txt" | tr '\n' ' ')" -f - "$out/mutants.txt" <<'EOF'
{ n[$3, $2]++; per_step[$2]++; per_op[$3]++; if (!($2 in seen)) { seen[$2] = 1; steps[++ns] = $2 } }
END {
    no = split(ops, op, " ")
    printf "%-16s", "operator"; for (s = 1; s <= ns; s++) printf "%7s", steps[s]; printf "%7s\n", "all"
    for (o = 1; o <= no; o++) {
        printf "%-16s", op[o]
        for (s = 1; s <= ns; s++) printf "%7d", n[op[o], steps[s]]
        printf "%7d\n", per_op[op[o]]
    }
    printf "%-16s", "all"; for (s = 1; s <= ns; s++) printf "%7d", per_step[steps[s]]; printf "%7d\n", NR
}
EOF
[ "$mode" = write ] && { echo "descriptions: $out/desc/"; exit 0; }

# Each mutant in a folder of its own: the base's Makefile and the mutated file.
rm -rf "$out/m" && mkdir -p "$out/m"
while read -r id step _; do
    d=$out/m/$id
    edited_folder "$out/desc/$id.txt" "solution/$step" "$d" ||
        { echo "mutants: $id does not apply to solution/$step" >&2; exit 4; }
done <"$out/mutants.txt"

elapsed() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", b - a }'; }
# build_one DIR: builds DIR as the grader does; DIR/build.s (seconds: wall, then CPU, user
# and system), then DIR/build.rc, written whole.
build_one() {
    local d=$1 rc TIMEFORMAT='%R %U %S'
    { time make -s -C "$d" COMMON="$KIT/common" >"$d/build.log" 2>&1; } 2>"$d/build.time"
    rc=$?
    awk '{ printf "%.1f %.1f\n", $1, $2 + $3 }' "$d/build.time" >"$d/build.s" && rm -f "$d/build.time"
    echo "$rc" >"$d/build.rc.part" && mv "$d/build.rc.part" "$d/build.rc"
}
# grade_one DIR: once DIR is built (the builds run meanwhile), the grader's checks on it:
# DIR/grade.txt, grade.rc, grade.s; its last line on stdout.
grade_one() {
    local d=$1 t0
    while [ ! -f "$d/build.rc" ] && [ ! -f "$OUT/builds.done" ]; do sleep 0.2; done
    [ "$(cat "$d/build.rc" 2>/dev/null)" = 0 ] || return 0
    t0=$EPOCHREALTIME
    mkdir -p "$d/tmp"
    # An offset made int (index-int) shows only past 2^31 elements: its grade runs that shape.
    local large=0
    [[ ${d##*/} == *-index-int-* ]] && large=1
    TMPDIR=$d/tmp TK_GRADE_LARGE=$large timeout -k 10 "$GRADE_LIMIT" "$KIT/scripts/grade/grade.sh" --checks-only "$d" >"$d/grade.txt" 2>&1
    echo $? >"$d/grade.rc"
    elapsed "$t0" >"$d/grade.s"
    rm -rf "$d/tmp"
    echo "${d##*/}: $(tail -n 1 "$d/grade.txt")"
}
export -f elapsed build_one grade_one

t0=$EPOCHREALTIME
rm -f "$out/builds.done"
ids() { cut -d' ' -f1 "$out/mutants.txt" | sed "s|^|$out/m/|"; }
if [ "$mode" = build ]; then
    echo "building $total mutants, $(nproc) at a time"
    ids | xargs -P "$(nproc)" -n 1 bash -c 'build_one "$1"' _
    wall=$(elapsed "$t0")
    failed=$(for d in $(ids); do [ "$(cat "$d/build.rc")" = 0 ] || echo "${d##*/}"; done)
    cat "$out"/m/*/build.s | awk -v n="$total" -v wall="$wall" -v cores="$(nproc)" '
        { w += $1; c += $2 }
        END { printf "built in %.0f s on %d cores, %.2f s a mutant; one build took %.1f s (%.1f s of CPU) on average\n", wall, cores, wall / n, w / n, c / n }'
    echo "do not compile: $(echo "$failed" | grep -c .)${failed:+ ($(echo "$failed" | tr '\n' ' '))}"
    exit 0
fi

# The builds run on the cores the graders leave, far ahead of them (a build takes a few
# seconds, a grade ten or more).
builders=$(( $(nproc) - jobs )); [ "$builders" -lt 1 ] && builders=1
echo "building $total mutants, $builders at a time, and grading them, $jobs at a time"
( ids | xargs -P "$builders" -n 1 bash -c 'build_one "$1"' _; touch "$out/builds.done" ) &
if [ -n "$limit" ]; then   # the grades under way at the limit are stopped: ungraded
    timeout -k 10 "$limit" xargs -P "$jobs" -n 1 bash -c 'grade_one "$1"' _ < <(ids)
else
    ids | xargs -P "$jobs" -n 1 bash -c 'grade_one "$1"' _
fi
wait
wall=$(elapsed "$t0")

# The report: one CSV line a mutant, then the summary.
equivalent=$(ids_of "$MUT/equivalent.txt")
csv=$out/mutants.csv
echo "$CSV_HEADER" >"$csv"
while read -r id step op cat line; do
    d=$out/m/$id checks="" explained="-" findings="" match="-" grade_s=""
    if [ ! -f "$d/build.rc" ] || { [ "$(cat "$d/build.rc")" = 0 ] && [ ! -f "$d/grade.s" ]; }; then
        verdict=ungraded   # --limit reached before its build or its grade ended
        echo "$id,$step,$op,$cat,$verdict,,-,-,$line,,,"; continue
    elif [ "$(cat "$d/build.rc")" != 0 ]; then
        verdict=killed checks=build explained=build findings=build
    else
        rc=$(cat "$d/grade.rc") grade_s=$(cat "$d/grade.s")
        last=$(tail -n 1 "$d/grade.txt")
        case $rc:$last in
        0:"graded $step: passed the checks"*)
            verdict=survived
            grep -qx -- "$id" <<<"$equivalent" && verdict=equivalent ;;
        1:"graded $step: failed ("*")")
            verdict=killed checks=${last#*failed (}; checks=${checks%)}
            IFS='|' read -r explained findings < <(awk -f "$MUT/explained.awk" "$MUT/categories.txt" "$d/grade.txt")
            [ "$explained" = - ] && explained=none   # killed, in words the table does not know
            match=no; [[ " $explained " == *" $cat "* ]] && match=yes ;;
        124:*|137:*) verdict=timeout ;;
        *) verdict=error ;;
        esac
    fi
    echo "$id,$step,$op,$cat,$verdict,$checks,$explained,$match,$line,$findings,$(cut -d' ' -f1 "$d/build.s"),$grade_s"
done <"$out/mutants.txt" >>"$csv"

{
    awk -F, -v wall="$wall" -v builders="$builders" -v jobs="$jobs" -f "$MUT/summary.awk" "$csv"
    # Survivors and every other mutant without a verdict, each with its edit.
    awk -F, '$5 == "survived" || $5 == "timeout" || $5 == "error" { print $1, $2, $5, $3, $9 }' "$csv" |
    while read -r id step verdict op line; do
        echo "$verdict: $id ($op, line $line)"
        diff "solution/$step/transpose.cu" "$out/m/$id/transpose.cu" | sed -n 's/^< /    - /p; s/^> /    + /p'
    done
    for id in $equivalent; do
        v=$(awk -F, -v id="$id" '$1 == id { print $5 }' "$csv")
        # a run of some steps holds only their mutants, and one of some ids only those: an id
        # of another step, or not asked for, is no stale entry
        id_step=${id%%-*}; id_step=${id_step#step}
        [ -z "$v" ] && [ -z "$idfile" ] && { [ -z "$only" ] || [[ $only == *" $id_step "* ]]; } &&
            echo "listed in tests/mutants/equivalent.txt but no mutant has this id: $id"
        [ "$v" = killed ] && echo "listed in tests/mutants/equivalent.txt but killed: $id (take it off the list)"
    done
} >"$out/summary.txt"
cat "$out/summary.txt"
echo "report: $csv and $out/summary.txt"
awk -F, 'NR > 1 && ($5 == "survived" || $5 == "timeout" || $5 == "error" || $5 == "ungraded") { bad = 1 } END { exit bad }' "$csv"
