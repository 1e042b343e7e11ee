#!/usr/bin/env bash
# The grader behind `make check`: judges a student's step folder (or a copy of one) by what
# its program does, never by its source text.
#
#   scripts/grade/grade.sh DIR                 (make check in DIR runs this on DIR)
#   scripts/grade/grade.sh --checks-only DIR   stops after the checks: no timing, no counters
#   TK_GRADE_LOCK=FILE scripts/grade/grade.sh DIR   for grades run at once (the kit's tests): their
#                                              checks share the GPU, each timing takes it alone
#   TK_GRADE_COUNTS=DIR                        keeps the solution's counter in DIR, read once for
#                                              each build of it (grades of one step in one run)
#   TK_GRADE_AT_ONCE=N                         shapes run N at a time (1 to 4, default 4; 1 where the
#                                              GPU takes one process at a time or a step runs across
#                                              GPUs, and then the sanitizers one after another)
#
# 1. builds DIR/transpose.cu against this kit and asks the program which step it is
#    (./transpose --describe);
# 2. runs it on every shape of scripts/grade/shapes.txt, all in one process, then each shape whose
#    output was not exact in a process of its own, four at a time: each output must be
#    exact (where a launch times several ways, step 7's block orders and windows, the harness
#    checks each way's output, and one not exact is the way whose output is checked and
#    explained). A wrong output is explained from where its values came from, a failed call
#    from that call;
# 3. runs compute-sanitizer's memcheck, racecheck and synccheck on it at the step's shapes
#    (the three at once; all the shapes in one process, then, unless clean, one by one);
# 4. where Nsight Compute may read the GPU's counters, reads the counter the step is about
#    beside the solution's, and judges it where the step has a rule;
# 5. times it beside the same step's solution in this run, at the step's shapes: it must
#    reach the step's share of the solution's GB/s.
# Each step's numbers (its share, counter, rule and shapes) are the table of steps,
# scripts/lib/steps.txt; what each step is about, and the words for each finding,
# scripts/grade/grade-words.sh. The last line says what was graded.
# Exit status: 0 passed; 1 failed; 2 bad arguments; 3 no usable GPU (nothing was graded).
set -u
. "$(dirname "$0")/../lib/lib.sh"
unset TK_WAY   # a way forced for the tests (common/README.md) must not reach a run here
# shellcheck source=scripts/grade/grade-words.sh
. "$(dirname "$0")/grade-words.sh"
KIT=$(cd "$(dirname "$0")/../.." && pwd)
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}   # across GPUs: NVLink multicast off

checks_only=0
case ${1:-} in --checks-only) checks_only=1; shift ;; esac
case ${1:-} in -h|--help) usage; exit 0 ;; -*) refuse "unknown option '$1'" ;; esac
[ $# = 1 ] || refuse "it takes one folder"
[ -f "$1/transpose.cu" ] || refuse "no $1/transpose.cu"
"$KIT/scripts/lib/steps.sh" >/dev/null || exit 4   # the table of steps: its message says what is wrong
dir=$(cd "$1" && pwd)
bin=$dir/transpose
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=()

# closing: the last line, then exit.
closing() {
    if [ ${#failed[@]} = 0 ]; then
        echo "graded $step: passed"; exit 0
    fi
    echo "graded $step: failed (${failed[*]})"; exit 1
}

# gpu_lock shared|exclusive: with TK_GRADE_LOCK=FILE (set where grades run at once, as the
# kit's tests run them), the build and the checks share the GPU with other grades and the
# counter and the speed take it alone, so that nothing else runs on it while a kernel is
# timed. Without it, nothing.
gpu_lock() {
    [ -n "${TK_GRADE_LOCK:-}" ] || return 0
    if [ -z "${lock_fd:-}" ]; then
        exec {lock_fd}>>"$TK_GRADE_LOCK" ||
            { echo "grade: cannot open the lock TK_GRADE_LOCK=$TK_GRADE_LOCK" >&2; exit 4; }
    fi
    flock -u "$lock_fd"   # a shared lock let go before the exclusive one is asked for
    flock "--$1" "$lock_fd" || { echo "grade: flock --$1 $TK_GRADE_LOCK failed" >&2; exit 4; }
}
gpu_lock shared

step=${dir##*/}
if ! make -s -C "$dir" COMMON="$KIT/common" >"$tmp/build" 2>&1; then
    echo "FAIL build:"; cat "$tmp/build"; failed+=(build); closing
fi
echo "PASS build"

# step_table STEP: the step's numbers from the table of steps (scripts/lib/steps.txt), read in one
# call: share, gpus, rule ("most F", "least F" or empty), counter, count_at, and speed_at and
# san_at (shapes, space-separated); fails for a step the table does not have.
step_table() {
    local row name value
    row=$("$KIT/scripts/lib/steps.sh" --row "$1" 2>/dev/null) || return 1
    while IFS=$'\t' read -r name value; do
        case $name in
        share|gpus|rule|counter|count_at|speed_at|san_at) printf -v "$name" '%s' "$value" ;;
        esac
    done <<<"$row"
    rule=${rule/:/ }
}

# The program says which step it is, and its row; the kit must have that step's solution.
read -r step row todo < <(described "$bin")
if [ -z "$step" ] || ! step_table "$step" || ! step_words "$step" || [ ! -d "$KIT/solution/$step" ]; then
    echo "grade: $bin --describe did not name a step of the kit ('$("$bin" --describe 2>&1)')" >&2
    exit 2
fi
hint="see Hint 1 in $step/README.md"
echo "grade: $dir is $step"
[ "$todo" = open ] &&
    echo "note: it still calls tk_unfinished(), so ./transpose reports its TODO($step) work as open"

# 2. Shapes, four at a time on one GPU (one at a time across GPUs, whose ranks take every GPU,
# and where a GPU takes one process at a time), reported in order. The harness's "pattern:" lines are kept, to be explained once the
# sanitizers have run: a race explains any wrong output, and then nothing more is said of it.
run_at() {   # run_at OUT SIZE-ARGS...: one run at the grader's settings, its output in OUT
    local out=$1; shift
    timeout 120 "$bin" "$@" --no-cpu --reps 1 --warmup 0 >"$out" 2>&1 </dev/null
}
run_shape() {   # run_shape K ROWS COLS: the run's output in $tmp/run.K, its status in $tmp/rc.K
    run_at "$tmp/run.$1" --rows "$2" --cols "$3"
    echo $? >"$tmp/rc.$1"
}
# Several at once only where the GPU takes several processes (compute mode Default) and the
# step runs on one GPU; TK_GRADE_AT_ONCE=N lowers it where grades already run side by side.
at_once=${TK_GRADE_AT_ONCE:-4}
[[ $at_once =~ ^[1-4]$ ]] || at_once=4
[ "$at_once" -gt 1 ] && { [ "$gpus" -gt 1 ] || ! gpus_shared; } && at_once=1   # asked only if it matters
mapfile -t shapes < <(grep -v '^#' "$KIT/scripts/grade/shapes.txt")
# First every shape in one process (--shapes --keep-going: one CUDA context for all, where a
# process a shape costs one each), on one GPU; it says of each shape whether its output was
# exact. The shapes it found exact pass; every other shape runs in a process of its own, so
# that every finding comes from a run of its shape alone, as a student would run it. That
# first run is also the question whether there is a GPU here (exit 3: none; across GPUs,
# where it is not run, a run of one small shape asks).
: >"$tmp/shapes.run"
batch_rc=3
if [ "$gpus" = 1 ]; then
    run_at "$tmp/shapes.run" --shapes "$(IFS=,; echo "${shapes[*]}")" --keep-going
    batch_rc=$?
fi
if { [ "$batch_rc" = 3 ] || [ "$batch_rc" = 6 ]; } && no_gpu "$bin"; then
    if [ "$NO_GPU_STATUS" = 6 ]; then
        echo "nothing was graded: $NO_GPU_SAID: $NO_GPU_WHY. It builds; update the driver, or build with an older toolkit, then run make check again."
    else
        echo "nothing was graded: $NO_GPU_SAID: $NO_GPU_WHY. It builds; run make check on a GPU node."
    fi
    exit "$NO_GPU_STATUS"
fi
started=0
for k in "${!shapes[@]}"; do
    shape=${shapes[$k]}
    if grep -qx "shapes: ${shape%x*} x ${shape#*x} exact" "$tmp/shapes.run"; then
        echo 0 >"$tmp/rc.$k"; : >"$tmp/run.$k"; continue
    fi
    [ "$started" -ge "$at_once" ] && wait -n   # each wait -n takes one finished run
    started=$((started + 1))
    run_shape "$k" "${shape%x*}" "${shape#*x}" &
done
wait
shapes_failed=0
: >"$tmp/patterns"
: >"$tmp/shapes"   # "ROWS COLS STATUS" of each shape
for k in "${!shapes[@]}"; do
    shape=${shapes[$k]} run=$tmp/run.$k
    rows=${shape%x*} cols=${shape#*x} rc=$(cat "$tmp/rc.$k")
    echo "$rows $cols $rc" >>"$tmp/shapes"
    [ "$rc" = 0 ] && { echo "PASS $rows x $cols"; continue; }
    shapes_failed=1
    case $rc in
        1) echo "FAIL $rows x $cols: $(grep -m1 ': WRONG' "$run" | sed 's/^[^:]*: WRONG: //')"
           grep -m1 'first at' "$run"
           grep -m1 'no element was written' "$run"
           grep '^  evidence: ' "$run" | head -n 2
           grep '^  pattern: ' "$run" | sed "s/^/$rows $cols/" >>"$tmp/patterns"
           way_words "$run" ;;
        4) echo "FAIL $rows x $cols: a CUDA call failed"
           explain_call "$run" ;;
        124) echo "FAIL $rows x $cols: it did not finish in 2 minutes (across GPUs: a send and its receive whose counts differ wait for ever)" ;;
        5) echo "FAIL $rows x $cols: not run yet: $(grep -m1 'not run yet' "$run" | sed 's/^[^:]*: not run yet: //')"
           ;;
        *) echo "FAIL $rows x $cols: exit status $rc"; tail -n 3 "$run" ;;
    esac
done
[ "$shapes_failed" = 1 ] && failed+=(shapes)

# 2b. Two shapes past 2^31 elements, each alone on the GPU, where its memory and the host's
# hold them (two matrices of 8.0 GiB): an index computed in an int wraps there, and at no
# smaller shape. 46341 x 46341 is odd both ways (the scalar paths, windows shifted off their
# sectors); 46402 x 46402 even (the float2 paths of steps 6 and 7). Run only where every
# smaller shape passed (else those say more); TK_GRADE_LARGE=0 leaves them out (the kit's
# tests, but for the ones about them).
LARGE_SHAPES="46341x46341 46402x46402"   # 2147488281 and 2153145604 elements, past 2^31 - 1
if [ "${TK_GRADE_LARGE:-1}" = 0 ]; then
    :
elif [ "$gpus" -gt 1 ]; then
    echo "note: no shape past 2^31 elements is run for a step across GPUs"
elif [ "$shapes_failed" = 1 ]; then
    echo "note: ${LARGE_SHAPES//x/ x } (past 2^31 elements) not run: the shapes above must pass first"
else
    for shape in $LARGE_SHAPES; do
        lr=${shape%x*} lc=${shape#*x} large="${shape/x/ x }"
        gpu_lock exclusive
        run_at "$tmp/large" --rows "$lr" --cols "$lc"
        rc=$?
        gpu_lock shared
        # What says the machine could not hold it: the harness's checks, an allocation that
        # failed all the same (another process took the memory meanwhile), a kill for memory.
        fit=$(grep -m1 -E 'needs two (device|host) matrices|cannot allocate|the device has .* MiB free' "$tmp/large" | sed 's/^[^:]*: //')
        [ "$rc" = 137 ] && fit="killed (exit 137): the host's memory, or its share of it, may be too small"
        case $rc in
        0) echo "PASS $large (past 2^31 elements)"; continue ;;
        4|137) if [ -n "$fit" ]; then
               echo "note: $large (past 2^31 elements) not checked: this machine cannot hold it: $fit"; continue
           fi
           echo "FAIL $large (past 2^31 elements): a CUDA call failed"
           explain_call "$tmp/large"
           int_wrap_words "$tmp/large" "$lr" "$lc" ;;
        1) echo "FAIL $large (past 2^31 elements): $(grep -m1 ': WRONG' "$tmp/large" | sed 's/^[^:]*: WRONG: //')"
           grep -m1 'first at' "$tmp/large"
           int_wrap_words "$tmp/large" "$lr" "$lc" ;;
        124) echo "FAIL $large (past 2^31 elements): it did not finish in 2 minutes" ;;
        *) echo "FAIL $large (past 2^31 elements): exit status $rc"; tail -n 3 "$tmp/large" ;;
        esac
        failed+=(large)
        break
    done
fi

# 3. compute-sanitizer: the three tools at once (one after another where the shapes run one at a
# time), each on all the step's small odd shapes in one process (--keep-going: whether each
# output is exact or not) and, unless that was clean at every shape, at each shape alone
# until one finds something, reported in turn; a finding is put in the step's terms.
sanitizer_run() {   # sanitizer_run SIZE-ARGS...: $tool on the program, into $log, status in rc; clean?
    timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 99 "$bin" "$@" --no-cpu --reps 1 \
        --warmup 0 >"$log" 2>&1 </dev/null
    rc=$?
    grep -Eq '(ERROR SUMMARY|RACECHECK SUMMARY): 0 (errors|hazards)' "$log"
}
sanitize() {   # sanitize TOOL: its lines to stdout; $tmp/race.TOOL when its finding is a race
    local tool=$1 shape rc log race=0
    log=$tmp/san.$tool
    if sanitizer_run --shapes "${san_at// /,}" --keep-going && [ "$rc" -le 1 ] &&
       [ "$(grep -Ec '^shapes: [0-9]+ x [0-9]+ (not )?exact$' "$log")" = "$(wc -w <<<"$san_at")" ]; then
        echo "PASS compute-sanitizer --tool $tool"   # every shape ran, and nothing was found
        return
    fi
    for shape in $san_at; do
        sanitizer_run --rows "${shape%x*}" --cols "${shape#*x}" && [ "$rc" != 99 ] && continue
        echo "FAIL compute-sanitizer --tool $tool at ${shape/x/ x }:"
        grep -v 'COMPUTE-SANITIZER' "$log" | grep -E '^========= [A-Z]' | awk '!seen[$0]++' | head -n 2 |
            sed 's/^========= /  /'
        if [ "$rc" = 124 ]; then echo "  it did not finish in 5 minutes"
        else explain_finding "$tool" "$log"; fi
        [ "$race" = 1 ] && : >"$tmp/race.$tool"
        return
    done
    echo "PASS compute-sanitizer --tool $tool"
}
race=0
if [ "$gpus" -gt 1 ]; then
    echo "note: compute-sanitizer is not run on a step across GPUs (each rank is a process of its own)"
elif command -v compute-sanitizer >/dev/null; then
    tools=(memcheck racecheck synccheck)
    for tool in "${tools[@]}"; do
        if [ "$at_once" -gt 1 ]; then sanitize "$tool" >"$tmp/said.$tool" &
        else sanitize "$tool" >"$tmp/said.$tool"; fi
    done
    wait
    for tool in "${tools[@]}"; do
        cat "$tmp/said.$tool"
        grep -q '^FAIL' "$tmp/said.$tool" && failed+=("$tool")
        [ -f "$tmp/race.$tool" ] && race=1
    done
else
    echo "note: compute-sanitizer is not on the PATH: no memcheck, racecheck or synccheck"
fi

# What the shapes show together. Where every square passed and only rectangles failed, rows
# and cols are exchanged somewhere: a square cannot tell them apart.
if [ "$race" = 0 ]; then
    awk '$1 == $2 { sq++; if ($3 != 0) sqbad++ } $1 != $2 { re++; if ($3 != 0) rebad++ }
         END { if (sq && !sqbad && rebad >= 2)
                   printf "what the shapes show: all %d squares passed and %d of the %d rectangles failed: somewhere rows and cols are exchanged (in a guard, the grid or an index): a square cannot tell them apart\n", sq, rebad, re }' "$tmp/shapes"
fi
# What the wrong values show: each pattern once, with the first shape that showed it and at
# how many of the wrong shapes it was seen: a pattern seen at every one fits all the evidence.
if [ -s "$tmp/patterns" ] && [ "$race" = 0 ]; then
    wrong=$(awk '$3 == 1' "$tmp/shapes" | wc -l)
    awk '!seen[$4]++' "$tmp/patterns" | while read -r r c line; do
        name=$(echo "$line" | awk '{ print $2 }')
        seen=$(awk -v n="$name" '$4 == n && !s[$1 " " $2]++ { k++ } END { print k + 0 }' "$tmp/patterns")
        if [ "$seen" = "$wrong" ] && [ "$wrong" -gt 1 ]; then at="at each of the $wrong wrong shapes"
        else at="$r x $c; at $seen of the $wrong wrong shapes"; [ "$wrong" = 1 ] && at="$r x $c"; fi
        echo "what the wrong values show ($at): $(explain_pattern "$step" "$line")"
    done
fi

# 4 and 5 judge the counter and the speed, which mean something only for an exact, clean kernel.
if [ ${#failed[@]} -gt 0 ]; then
    echo "speed not measured: the checks above must pass first"
    closing
fi
if [ "$checks_only" = 1 ]; then
    echo "graded $step: passed the checks (--checks-only: counter and speed not measured)"
    exit 0
fi
gpu_lock exclusive
sol=$KIT/solution/$step
make -s -C "$sol" >/dev/null 2>&1 || { echo "grade: cannot build $sol" >&2; exit 4; }
read -r _ sol_row _ < <(described "$sol/transpose")

# 4. The step's counter, yours and the solution's, where ncu may read them; read before the
# speed, so that a slow kernel's verdict can quote it.
counter_line=""
count() {   # count BIN: the counter (numerator / denominator) of the step's first kernel
    local m=${counter//\// } raw=$tmp/ncu
    ncu --clock-control none --metrics "${m// /,}" --launch-count 1 --csv --page raw \
        --print-units base "$1" --rows "${count_at%x*}" --cols "${count_at#*x}" --no-cpu \
        --no-flush --reps 1 --warmup 0 >"$raw" 2>&1
    grep -q ERR_NVGPUCTRPERM "$raw" && return 3
    awk -v spec="$counter" -f "$KIT/scripts/lib/ncu-raw.awk" -f "$KIT/scripts/grade/ncu-counter.awk" "$raw"
}
# The solution's counter, read once for each build of it where TK_GRADE_COUNTS=DIR names a
# folder to keep it in: the kit's tests, which grade several files of a step in one run.
solution_count() {
    local kept
    [ -n "${TK_GRADE_COUNTS:-}" ] || { count "$sol/transpose"; return; }
    kept=$TK_GRADE_COUNTS/$step.$(cksum <"$sol/transpose" | cut -d' ' -f1)
    [ -s "$kept" ] && { cat "$kept"; return 0; }
    count "$sol/transpose" >"$kept.$$" && mv "$kept.$$" "$kept" && cat "$kept"
}
if [ -z "$counter" ]; then
    echo "note: this step has no counter: across GPUs each rank is a process of its own; graded by speed"
elif ! command -v ncu >/dev/null; then
    echo "note: ncu (Nsight Compute) is not on the PATH: no counters; graded by speed alone"
elif c_mine=$(count "$bin"); rc=$?; [ "$rc" = 3 ]; then
    echo "note: counters not permitted here (ERR_NVGPUCTRPERM: an administrator must allow them); graded by speed alone"
elif [ "$rc" != 0 ] || ! c_ref=$(solution_count); then
    echo "note: ncu could not read $label here; graded by speed alone"
else
    counter_line="$label: yours $c_mine, the solution's $c_ref"
    where="ncu, one launch at ${count_at/x/ x }"
    if [ -z "$rule" ]; then
        echo "counter: $counter_line ($where)"
    else
        read -r how factor <<<"$rule"
        if [ "$how" = most ]; then what="at most $factor times the solution's passes"
        else what="at least $factor times the solution's passes"; fi
        if awk -v a="$c_mine" -v b="$c_ref" -v h="$how" -v f="$factor" \
               'BEGIN { exit !(h == "most" ? a <= f * b : a >= f * b) }'; then
            echo "PASS counter: $counter_line ($where; $what)"
        else
            echo "FAIL counter: $counter_line ($where; $what):"
            echo "  $missing; $hint"
            failed+=(counter)
        fi
    fi
fi

# 5. Speed, beside the solution in this run, at each of the step's shapes.
gbs() {   # gbs CSV ROW: that row's GB/s in a run's CSV
    awk -v cols=gbs -v row="$2" -v first=1 -f "$KIT/scripts/lib/csv.awk" -f "$KIT/scripts/lib/csv-select.awk" "$1"
}
slow=0
# A GPU another process uses times nothing of the student's kernel alone (a shared node): the
# speed is not judged, and that is said. A MIG slice is the student's own: judged, said.
others=$(gpu_others)
if grep -q '^pid ' <<<"$others"; then
    echo "note: speed not judged: other processes are on this GPU ($(grep '^pid ' <<<"$others" | paste -sd ';' - | sed 's/;/; /g')): its timing would be theirs as much as your kernel's; grade on a GPU of your own (scripts/INSTRUCTORS.md, \"A room sharing GPUs\")"
    speed_at=""
fi
grep '^MIG: ' <<<"$others" | sed 's/^MIG: /note: /'
for shape in $speed_at; do
    size=(--rows "${shape%x*}" --cols "${shape#*x}")
    "$sol/transpose" --csv --no-cpu "${size[@]}" >"$tmp/ref.csv" 2>"$tmp/ref.err"
    "$bin" --csv --no-cpu "${size[@]}" >"$tmp/mine.csv" 2>"$tmp/mine.err"
    mine=$(gbs "$tmp/mine.csv" "$row") ref=$(gbs "$tmp/ref.csv" "$sol_row")
    # A shape the host's memory (or the job's share of it) cannot hold: said, not failed.
    held=$(host_refusal "$tmp/ref.err" "$tmp/mine.err")
    if [ -n "$held" ]; then
        echo "note: speed not judged at ${shape/x/ x }: this machine cannot hold it: $held"
        continue
    fi
    # A row this machine cannot run (across GPUs: stage (c) without a symmetric window) is
    # skipped by the solution too, which says why: nothing to judge there, and it is said.
    skipped=$(grep -m1 "^$sol_row: skipped: " "$tmp/ref.err")
    if [ -z "$mine" ] && [ -z "$ref" ] && [ -n "$skipped" ]; then
        echo "note: speed not judged at ${shape/x/ x }: the solution skips the row here too ($skipped)"
        continue
    fi
    if [ -z "$mine" ] || [ -z "$ref" ]; then
        echo "FAIL speed: no GB/s at ${shape/x/ x } (yours: '${mine:-none}', the solution's: '${ref:-none}')"
        slow=1; continue
    fi
    pct=$(awk -v a="$mine" -v b="$ref" 'BEGIN { printf "%.0f", 100 * a / b }')
    if [ "$pct" -ge "$share" ]; then
        echo "PASS speed: your kernel runs at $pct% of the solution ($mine against $ref GB/s, ${shape/x/ x }; $share% passes)"
    else
        echo "FAIL speed: your kernel runs at $pct% of the solution ($mine against $ref GB/s, ${shape/x/ x }; $share% passes):"
        echo "  $missing${counter_line:+ ($counter_line)}; $hint"
        slow=1
    fi
done
[ "$slow" = 1 ] && failed+=(speed)
closing
