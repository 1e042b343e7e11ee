# Test helpers, sourced by tests/run.sh: counters, outcomes and command runners.
# Every test ends in exactly one of pass, fail or skip.

PASSED=0 FAILED=0 SKIPPED=0
TK_ROOT=$(pwd)
TK_BUILD=$TK_ROOT/tests/build           # scratch space, removed by make clean
mkdir -p "$TK_BUILD"
LAST_OUT=$TK_BUILD/last.out             # output of the last run_cmd

# The steps, from the table of steps (scripts/lib/steps.txt): 1 2 3 ... and their starter and
# solution folders. The steps across GPUs need NCCL to build: without it (common/nccl.mk) they
# are left out, and tests/test_1_build.sh says so. Without a table there is nothing to test.
# shellcheck source=scripts/lib/lib.sh
. scripts/lib/lib.sh
scripts/lib/steps.sh >/dev/null || { echo "tests: the table of steps is broken (above); nothing tested" >&2; exit 1; }
HAVE_NCCL=$(have_nccl)
ACROSS_NUMS=$(scripts/lib/steps.sh --across | tr '\n' ' ')
if [ "$HAVE_NCCL" = 1 ]; then STEP_NUMS=$(scripts/lib/steps.sh | tr '\n' ' ')
else STEP_NUMS=$(scripts/lib/steps.sh --one-gpu | tr '\n' ' '); fi
STEP_DIRS=$(for n in $STEP_NUMS; do printf 'step%s ' "$n"; done
            for n in $STEP_NUMS; do printf 'solution/step%s ' "$n"; done)

# took: " [Ns]" after a test whose last run_cmd took 5 seconds or more.
took() { [ "${LAST_SECS:-0}" -ge 5 ] && printf ' [%ss]' "$LAST_SECS"; LAST_SECS=0; }
pass() { PASSED=$((PASSED + 1)); echo "PASS $1$(took)"; }
skip() { SKIPPED=$((SKIPPED + 1)); echo "SKIP $1: $2"; }
fail() {
    FAILED=$((FAILED + 1)); echo "FAIL $1: $2$(took)"
    [ -s "$LAST_OUT" ] && sed 's/^/    | /' "$LAST_OUT" | tail -n 15
    return 0
}

# run_cmd CMD...: runs CMD with stdout and stderr into $LAST_OUT; sets RC.
run_cmd() { local t0=$SECONDS; "$@" >"$LAST_OUT" 2>&1; RC=$?; LAST_SECS=$((SECONDS - t0)); }

# judge NAME CODE PATTERN...: the last run_cmd must have exited CODE and printed, for each
# PATTERN (an extended regex; '' for none), a line matching it.
judge() {
    local name=$1 code=$2 pattern; shift 2
    if [ "$RC" != "$code" ]; then
        fail "$name" "exit status $RC, expected $code"; return
    fi
    for pattern in "$@"; do
        if [ -n "$pattern" ] && ! grep -Eq -- "$pattern" "$LAST_OUT"; then
            fail "$name" "no line matches /$pattern/"; return
        fi
    done
    pass "$name"
}

# expect NAME CODE GREP_PATTERN CMD...: runs CMD, then judge NAME CODE GREP_PATTERN.
expect() {
    local name=$1 code=$2 pattern=$3; shift 3
    run_cmd "$@"
    judge "$name" "$code" "$pattern"
}

# kit_pages GLOB...: the pages the globs match that are the kit's own: the files at its root
# and in its folders (the steps, solution/, common/, scripts/, results/, profiles/, tests/),
# found by glob, so new pages too. A student's copy of a step beside the steps (mywork/, as
# the README has it) is not one, tracked by git or not.
kit_pages() {
    local f top
    for f in "$@"; do
        [ -f "$f" ] || continue
        top=${f%%/*}
        [ "$top" = "$f" ] || [[ $top =~ ^(step[0-9]+|solution|common|scripts|results|profiles|tests)$ ]] || continue
        echo "$f"
    done
}

# GPU present? scripts/lib/lib.sh's no_gpu asks the step 1 solution. A broken GPU run counts as present:
# it must fail the GPU tests, not skip them.
gpu_probe() {
    [ -n "${GPU_STATE:-}" ] && return
    if no_gpu "$TK_ROOT/solution/step1/transpose"; then
        GPU_STATE=absent GPU_WHY="$NO_GPU_SAID: $NO_GPU_WHY"
    else
        GPU_STATE=present
    fi
}

# gpu_test NAME: true when the GPU tests should run; otherwise records NAME as skipped.
gpu_test() {
    gpu_probe
    [ "$GPU_STATE" = present ] && return 0
    skip "$1" "${GPU_WHY:-no GPU: see solution/step1/transpose}"
    return 1
}

# memory_skip NAME: where the last run_cmd refused its shape for memory (exit 4, "needs two
# host|device matrices"), records NAME as skipped in the refusal's words, and is true.
memory_skip() {
    local held
    held=$(memory_refusal "$LAST_OUT")
    [ "$RC" = 4 ] && [ -n "$held" ] || return 1
    skip "$1" "$held"
}

# gpu_count: the GPUs nvidia-smi lists (0 without it), asked once.
GPU_COUNT=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
gpu_count() { echo "$GPU_COUNT"; }

# enough_gpus N: true unless step N runs across GPUs and this machine has fewer than it needs;
# NEED: the GPUs it needs (the table's gpus; 1 for a step on one GPU).
declare -A GPUS_OF   # the table's gpus of each step across GPUs, read once
for n in $ACROSS_NUMS; do GPUS_OF[$n]=$(scripts/lib/steps.sh --field gpus "step$n"); done
enough_gpus() {
    NEED=1
    [[ " $ACROSS_NUMS " == *" $1 "* ]] || return 0
    NEED=${GPUS_OF[$1]}
    [ "$GPU_COUNT" -ge "$NEED" ]
}

# across_test NAME N: like gpu_test, and for a step N across GPUs also the GPUs it needs;
# otherwise records NAME as skipped, saying why.
across_test() {
    gpu_test "$1" || return 1
    enough_gpus "$2" && return 0
    skip "$1" "step $2 runs across $NEED GPUs or more; this machine has $GPU_COUNT"
    return 1
}

# grade_into DIR [--checks-only] [large]: the grader's words and status, kept in DIR (grade.txt,
# grade.rc), and how long it took (grade.secs); exported, for grades run side by side through
# xargs. With large the grader also runs its shape past 2^31 elements (TK_GRADE_LARGE=1),
# which the kit's tests leave out of every other grade (tests/run.sh): 16 GiB and seconds each.
grade_into() {
    local t0=$SECONDS dir=$1 a opt="" large=0
    shift
    for a in "$@"; do case $a in --checks-only) opt=$a ;; large) large=1 ;; esac; done
    TK_GRADE_LARGE=$large scripts/grade/grade.sh ${opt:+"$opt"} "$dir" >"$dir/grade.txt" 2>&1
    echo $? >"$dir/grade.rc"
    echo $((SECONDS - t0)) >"$dir/grade.secs"
}
export -f grade_into

# judge_grade NAME DIR CODE PATTERN...: judge NAME CODE PATTERN... on the grade kept in DIR.
judge_grade() {
    local name=$1 dir=$2 code=$3; shift 3
    LAST_OUT=$dir/grade.txt
    RC=$(cat "$dir/grade.rc" 2>/dev/null || echo none)
    judge "$name" "$code" "$@"
    LAST_OUT=$TK_BUILD/last.out
}

summary() {
    echo
    echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
    [ "$FAILED" = 0 ]
}
