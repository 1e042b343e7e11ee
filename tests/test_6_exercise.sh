# The exercise: every starter differs from its solution only where a TODO asks, no TODO
# holds a line of the solution; every starter is the previous step's solution plus its TODOs
# (code line for line), and a step across GPUs carries the last one-GPU step's kernel
# unchanged; the grader gives each mistake in tests/mistakes/ its verdict and its words (on
# a GPU, a fixed sample of them unless TK_CORPUS=all; skipped without one), and passes every
# solution.

# 1. The diff is the exercise, for every step; the check itself can fail.
for n in $STEP_NUMS; do
    expect "step$n: the starter differs from the solution only where a TODO(step$n) asks" 0 '' \
        tests/exercise-diff.sh "step$n/transpose.cu" "solution/step$n/transpose.cu" "step$n"
done
planted=$TK_BUILD/planted.cu
sed 's/where the order of/where the ordering of/' step3/transpose.cu >"$planted"
expect "exercise-diff: a comment rewrite no TODO asks for fails" 1 'not asked for by a TODO' \
    tests/exercise-diff.sh "$planted" solution/step3/transpose.cu step3
sed 's|before and after. \*/|before and after: __shared__ float tile[TILE][TILE + 1]; */|' \
    step4/transpose.cu >"$planted"
expect "exercise-diff: a TODO that holds the solution's line fails" 1 'a TODO holds the solution line' \
    tests/exercise-diff.sh "$planted" solution/step4/transpose.cu step4
sed '/^        CUDA_CHECK(cudaFree(d_in));/a\        int unused = 0;' solution/step2/transpose.cu >"$planted"
expect "exercise-diff: code the solution adds outside every TODO fails" 1 'not asked for by a TODO' \
    tests/exercise-diff.sh step2/transpose.cu "$planted" step2
# Code beyond the exercise (marked BEYOND(stepN): step 7's panels, block order and grid) is the
# starter's, as the solution has it: a starter that leaves it to the student fails, even where
# a TODO's paragraph holds the place (the starter before the code beyond was supplied did).
awk -v step=step7 -f tests/code-of.awk -f tests/beyond.awk solution/step7/transpose.cu | cut -f 1 >"$TK_BUILD/beyond.lines"
awk 'NR == FNR { drop[$1] = 1; next } !(FNR in drop)' "$TK_BUILD/beyond.lines" solution/step7/transpose.cu >"$planted"
expect "exercise-diff: code beyond the exercise that the starter leaves to the student fails" 1 \
    "^solution/step7/transpose.cu line $(head -n 1 "$TK_BUILD/beyond.lines"), in the region marked BEYOND\\(step7\\) at its line [0-9]+, is not in " \
    tests/exercise-diff.sh "$planted" solution/step7/transpose.cu step7
sed 's|int g = gridDim.x / ny;|int g = gridDim.y;|' step7/transpose.cu >"$planted"
expect "exercise-diff: code beyond the exercise that the starter holds otherwise fails" 1 \
    'in the region marked BEYOND\(step7\) at its line [0-9]+, is changed in solution/step7/transpose.cu' \
    tests/exercise-diff.sh "$planted" solution/step7/transpose.cu step7

# 2. Repetition by design, for every step: text checks on the source, so they need neither a
# GPU nor NCCL and cover every step folder. Each starter N whose step N-1 is of its kind (on
# one GPU, or across GPUs) is solution N-1 plus step N's TODOs, code line for line
# (tests/starter-is-previous.sh says what is compared: code beyond the exercise, marked
# BEYOND(stepN), is the solution's, supplied as it is, with its headers): steps 2 to 7, and
# 9 and 10, today. The first step across GPUs (step 8) is a different program from the
# one-GPU steps: every step across GPUs, starter and solution, carries the last one-GPU
# step's kernel unchanged (tests/kernel-carried.sh), and its headers (step 7's panels.cuh;
# not its pairs.cuh, which step 7's launch alone times) byte for byte. The checks can fail, naming the line.
prev='' last_one=''
for n in $(scripts/lib/steps.sh); do
    kind=one; [[ " $ACROSS_NUMS " == *" $n "* ]] && kind=across
    if [ -n "$prev" ] && [ "$kind" = "$prev_kind" ]; then
        expect "step$n: the starter is solution/step$prev plus its TODOs, code line for line" 0 '' \
            tests/starter-is-previous.sh "step$n/transpose.cu" "solution/step$prev/transpose.cu" \
            "step$n" "solution/step$n/transpose.cu"
    fi
    if [ "$kind" = one ]; then   # the headers of the code beyond the exercise: the starter's too
        for h in "solution/step$n"/*.cuh; do
            [ -f "$h" ] || continue
            expect "step$n: supplies ${h#solution/step"$n"/} of solution/step$n unchanged" 0 '' cmp "$h" "step$n/${h##*/}"
        done
    fi
    if [ "$kind" = across ] && [ -n "$last_one" ]; then
        for f in "step$n" "solution/step$n"; do
            expect "$f: carries solution/step$last_one's kernel unchanged, comments included" 0 '' \
                tests/kernel-carried.sh "$f/transpose.cu" "solution/step$last_one/transpose.cu"
            for h in "solution/step$last_one"/*.cuh; do   # its paths beyond the exercise too
                [ -f "$h" ] || continue
                [ "${h##*/}" = pairs.cuh ] && continue   # step 7's launch alone times the pairs
                expect "$f: carries ${h#solution/step"$last_one"/} of solution/step$last_one unchanged" 0 '' \
                    cmp "$h" "$f/${h##*/}"
            done
        done
    fi
    [ "$kind" = one ] && last_one=$n
    prev=$n prev_kind=$kind
done
lineof() { grep -nF -- "$2" "$1" | head -n 1 | cut -d: -f1; }   # lineof FILE TEXT
planted=$TK_BUILD/planted.cu
sed 's/in\[(size_t)r \* cols + c\]/in[(size_t)c * cols + r]/' step3/transpose.cu >"$planted"
expect "starter-is-previous: a changed index fails, naming the line in both files" 1 \
    "line $(lineof "$planted" 'in[(size_t)c * cols + r]') differs from solution/step2/transpose.cu line $(lineof solution/step2/transpose.cu 'in[(size_t)r * cols + c]'):" \
    tests/starter-is-previous.sh "$planted" solution/step2/transpose.cu step3 solution/step3/transpose.cu
sed '/^        CUDA_CHECK(cudaFree(d_in));/a\        int unused = 0;' step4/transpose.cu >"$planted"
expect "starter-is-previous: a line added outside every TODO fails, naming it" 1 \
    "line $(lineof "$planted" 'int unused = 0;') is not in solution/step3/transpose.cu: int unused = 0;\$" \
    tests/starter-is-previous.sh "$planted" solution/step3/transpose.cu step4 solution/step4/transpose.cu
sed '/^    __syncthreads();/d' step4/transpose.cu >"$planted"
expect "starter-is-previous: a line removed fails, naming it" 1 \
    "solution/step3/transpose.cu line $(lineof solution/step3/transpose.cu '__syncthreads();') is missing from .*: __syncthreads\\(\\);" \
    tests/starter-is-previous.sh "$planted" solution/step3/transpose.cu step4 solution/step4/transpose.cu
sed 's/"GPU-multi-element"/"GPU-no-conflicts"/' step5/transpose.cu >"$planted"
expect "starter-is-previous: a starter printing the previous step's row fails" 1 \
    "line $(lineof "$planted" 'tk_begin(') names row 'GPU-no-conflicts' in tk_begin, not its solution's 'GPU-multi-element'" \
    tests/starter-is-previous.sh "$planted" solution/step4/transpose.cu step5 solution/step5/transpose.cu
sed '/^    tk_unfinished();/d' step6/transpose.cu >"$planted"
expect "starter-is-previous: a starter without tk_unfinished() fails" 1 'holds 0 tk_unfinished\(\) calls, not one' \
    tests/starter-is-previous.sh "$planted" solution/step5/transpose.cu step6 solution/step6/transpose.cu
sed 's|int g = gridDim.x / ny;|int g = gridDim.y;|' step7/transpose.cu >"$planted"
expect "starter-is-previous: code beyond the exercise that differs from the solution's fails, naming the line" 1 \
    "line $(lineof "$planted" 'int g = gridDim.y;'), marked BEYOND\\(step7\\), differs from solution/step7/transpose.cu line $(lineof solution/step7/transpose.cu 'int g = gridDim.x / ny;'):" \
    tests/starter-is-previous.sh "$planted" solution/step6/transpose.cu step7 solution/step7/transpose.cu
sed 's|^    dim3 block(BLOCKX, BLOCKY);|&   /* BEYOND(step7) */|' step7/transpose.cu >"$planted"
expect "starter-is-previous: a mark BEYOND does not hide the previous solution's code" 1 \
    "line $(lineof "$planted" 'dim3 block(BLOCKX, BLOCKY);'), marked BEYOND\\(step7\\), is not in solution/step7/transpose.cu" \
    tests/starter-is-previous.sh "$planted" solution/step6/transpose.cu step7 solution/step7/transpose.cu
# A line marked BEYOND alone stands in the place of one line of the previous solution (step
# 7's launch, long sides where step 6's were int), not of two.
awk -v at="$(lineof step7/transpose.cu 'long rows, long cols)   /* BEYOND(step7) */')" 'NR != at + 1' \
    step7/transpose.cu >"$planted"
expect "starter-is-previous: a line marked BEYOND stands for one line of the previous solution, not two" 1 \
    "differs from solution/step6/transpose.cu line [0-9]+: .\\{. there" \
    tests/starter-is-previous.sh "$planted" solution/step6/transpose.cu step7 solution/step7/transpose.cu
# ... and only where it widens that line (int to long), not where it changes its code: a bound
# dropped from a guard and marked, in the starter and a copy of the solution alike, fails.
sed 's|^            if (r0 + r < rows \&\& c0 + c < cols)$|            if (r0 + r < rows)   /* BEYOND(step7) */|' \
    step7/transpose.cu >"$planted"
{ cat solution/step7/transpose.cu; echo '            if (r0 + r < rows)   /* BEYOND(step7) */'; } >"$TK_BUILD/planted-solution.cu"
expect "starter-is-previous: a line marked BEYOND that changes, not widens, the previous line fails" 1 \
    "differs from solution/step6/transpose.cu line $(lineof solution/step6/transpose.cu 'if (r0 + r < rows && c0 + c < cols)'):" \
    tests/starter-is-previous.sh "$planted" solution/step6/transpose.cu step7 "$TK_BUILD/planted-solution.cu"
if [ -n "$ACROSS_NUMS" ]; then
    n=${ACROSS_NUMS%% *} kernel_src=solution/step$last_one/transpose.cu
    sed 's|return (c % 8) \* (rows % 8) % 8;|return (c * rows) % 8;|' "step$n/transpose.cu" >"$planted"
    expect "kernel-carried: a changed kernel line fails, naming the line in both files" 1 \
        "line $(lineof "$planted" 'return (c * rows) % 8;') differs from $kernel_src line $(lineof "$kernel_src" 'return (c % 8) * (rows % 8) % 8;'):" \
        tests/kernel-carried.sh "$planted" "$kernel_src"
    sed 's|/\* staged as rows i .. \*/|/* staged as rows i on */|' "solution/step$n/transpose.cu" >"$planted"
    expect "kernel-carried: a changed comment inside the kernel fails" 1 \
        "line $(lineof "$planted" 'staged as rows i on') differs from $kernel_src line" \
        tests/kernel-carried.sh "$planted" "$kernel_src"
    sed 's/^transpose_kernel(/transpose_kernel_v2(/' "step$n/transpose.cu" >"$planted"
    expect "kernel-carried: a file without transpose_kernel fails, saying so" 1 \
        'no kernel found: no __global__ transpose_kernel\( defined after its first #define' \
        tests/kernel-carried.sh "$planted" "$kernel_src"
fi

# 3. The corpus: each mistake (tests/mistakes/) and honest variant (tests/variants/) applies
# to its base file and builds; the grader's verdicts are proven on a GPU below. Builds run in
# parallel, one folder each.
corpus=$TK_BUILD/mistakes
rm -rf "$corpus" && mkdir -p "$corpus"
# listed DIR: the descriptions in tests/DIR, but for steps left out of the build (no NCCL).
listed() {
    local f n
    for f in tests/"$1"/*.txt; do
        n=$(sed -n 's/^base: .*step\([0-9]*\)$/\1/p' "$f")
        [[ " $STEP_NUMS " == *" $n "* ]] && basename "$f" .txt
    done
}
mistakes=$(listed mistakes) variants=$(listed variants)
count=$(echo "$mistakes" | wc -l)
[ "$count" -ge 24 ] && pass "the corpus holds $count mistakes (at least 24)" ||
    fail "the corpus holds at least 24 mistakes" "$count"
desc() { [ -f "tests/mistakes/$1.txt" ] && echo "tests/mistakes/$1.txt" || echo "tests/variants/$1.txt"; }
declare -A base_of=() verdict_of=()   # each description's base and verdict, read once
for m in $mistakes $variants; do
    base_of[$m]=$(sed -n 's/^base: //p' "$(desc "$m")")
    verdict_of[$m]=$(sed -n 's/^verdict: //p' "$(desc "$m")")
    edited_folder "$(desc "$m")" "${base_of[$m]}" "$corpus/$m" || : >"$corpus/$m/transpose.cu"
done
# large_of[NAME]: graded with the shape past 2^31 elements: each mistake of that verdict and
# the solution of its step.
declare -A large_of=()
for m in $mistakes; do
    [ "${verdict_of[$m]}" = large ] && large_of[$m]=1 large_of[solution-${base_of[$m]##*/}]=1
done
for n in $STEP_NUMS; do
    rm -rf "$corpus/solution-step$n" && cp -r "solution/step$n" "$corpus/solution-step$n"
    rm -f "$corpus/solution-step$n/transpose"
done
find "$corpus" -mindepth 1 -maxdepth 1 -type d -print0 | xargs -0 -P "$(nproc)" -I{} sh -c \
    'make -s -C {} COMMON="$0/common" >{}/build.log 2>&1 || echo failed >{}/build.failed' "$TK_ROOT"
for m in $mistakes $variants; do
    verdict=${verdict_of[$m]}
    if [ ! -s "$corpus/$m/transpose.cu" ]; then fail "$m applies to its base" "see mistake.awk's message"
    elif [ "$verdict" = build ]; then
        [ -f "$corpus/$m/build.failed" ] && pass "mistake $m applies to its base and fails to build, as meant" ||
            fail "mistake $m fails to build, as meant" "it built"
    elif [ -f "$corpus/$m/build.failed" ]; then LAST_OUT=$corpus/$m/build.log; fail "$m builds" "make failed"
    else pass "$m applies to its base and builds"; fi
    LAST_OUT=$TK_BUILD/last.out
    keys="mistake base verdict says"
    [ -f "tests/variants/$m.txt" ] && keys="variant base says"
    for key in $keys; do
        grep -q "^$key: ." "$(desc "$m")" || fail "$m names its $key" "no '$key:' line"
    done
done
# Each corpus folder's step, as its program says it is (asked once; empty where it did not build).
declare -A step_of
for d in "$corpus"/*/; do
    d=${d%/}; step_of[${d##*/}]=$(described "$d/transpose" | cut -d' ' -f1)
done
for n in $STEP_NUMS; do   # by the step the built program says it is (or its base, unbuilt)
    have=$(for m in $mistakes; do
               step=${step_of[$m]}
               [ -n "$step" ] || step=$(sed -n 's/^base: .*\(step[0-9]*\)$/\1/p' "tests/mistakes/$m.txt")
               echo "$step"
           done | grep -cx "step$n")
    [ "$have" -ge 2 ] && pass "the corpus holds $have mistakes on step $n" ||
        fail "the corpus holds at least two mistakes on step $n" "$have"
done

# The GPU lock that lets grades run at once (TK_GRADE_LOCK): a grade waits while another holds
# the GPU alone, here a holder that keeps it 3 seconds after saying it has it; without the
# lock's variable the same grade does not wait: the holder then keeps the lock until the grade
# has returned (30 seconds at most), so the check can fail and does not hang on timing.
lock=$(mktemp /tmp/tk-lock.XXXXXX)
held_grade() {   # held_grade SECONDS ENV-ARGS...: grades while the holder has the lock; WAITED=yes|no
    local hold=$1 holder; shift
    rm -f "$lock".ready "$lock".released "$lock".done
    flock -x "$lock" sh -c 'touch "$0.ready"; i=0
        while [ $i -lt "$1" ] && [ ! -e "$0.done" ]; do sleep 0.1; i=$((i + 1)); done
        touch "$0.released"' "$lock" $((hold * 10)) &
    holder=$!
    for _ in $(seq 100); do [ -e "$lock.ready" ] && break; sleep 0.1; done
    run_cmd env "$@" CUDA_VISIBLE_DEVICES= scripts/grade/grade.sh "$corpus/step4-step3-renamed"
    WAITED=no; [ -e "$lock.released" ] && WAITED=yes
    touch "$lock.done"; wait "$holder"
}
held_grade 3 TK_GRADE_LOCK="$lock"
[ "$RC" = 3 ] && [ "$WAITED" = yes ] && pass "grade waits while another grade holds the GPU alone (TK_GRADE_LOCK)" ||
    fail "grade waits while another grade holds the GPU alone (TK_GRADE_LOCK)" "exit $RC, waited: $WAITED"
held_grade 30 -u TK_GRADE_LOCK
[ "$RC" = 3 ] && [ "$WAITED" = no ] && pass "lock check: without TK_GRADE_LOCK the same grade does not wait" ||
    fail "lock check: without TK_GRADE_LOCK the same grade does not wait" "exit $RC, waited: $WAITED"
# That grade, the plain one, without a GPU: it builds, says which step, and ends with one line:
# nothing graded.
judge "grade without a GPU: builds, names the step, one closing line that nothing was graded" 3 \
    '^nothing was graded: no usable GPU here'
judge "grade learns the step from the program, not the folder or source text" 3 "is step4\$"
[ "$(tail -n 1 "$LAST_OUT" | cut -c1-18)" = "nothing was graded" ] &&
    pass "grade without a GPU: 'nothing was graded' is the last line" ||
    fail "grade without a GPU: 'nothing was graded' is the last line" "last: $(tail -n 1 "$LAST_OUT")"
expect "grade: a lock it cannot open is said, exit 4" 4 '^grade: cannot open the lock TK_GRADE_LOCK=' \
    env TK_GRADE_LOCK=/nonexistent/dir/lock CUDA_VISIBLE_DEVICES= scripts/grade/grade.sh "$corpus/step4-step3-renamed"
rm -f "$lock" "$lock".ready "$lock".released "$lock".done

# 4. The grader on every mistake (its verdict among the failed checks, and each of its words)
# and on every solution and honest variant (passed, speed measured beside the solution): on a
# GPU, except the build verdict, which needs none. Every grade runs at once, eight at a time
# where the GPU takes several processes: their builds and checks share the GPU, and each
# grade's counter and speed take it alone (TK_GRADE_LOCK, scripts/grade/grade.sh), so no kernel is
# timed beside another grade's work.
# Mistakes meant to fail a check (shapes, a sanitizer) are graded with --checks-only, which
# times nothing. A step across GPUs on a machine with too few is not graded (skipped below).
says() { sed -n 's/^says: //p' "$1"; }   # says FILE: the words a description asks for
# make test grades a sample of the corpus on the GPU, the same every time: each step's first
# mistake (by name) and the first variant, then the first mistake of each verdict not yet
# among them. TK_CORPUS=all grades every file (scripts/INSTRUCTORS.md: minutes more).
# sample NAMES...: those of NAMES that make test grades, one a line.
sample() {
    local m kind verdict
    declare -A seen=()
    [ "${TK_CORPUS:-}" = all ] && { printf '%s\n' "$@"; return; }
    for m in "$@"; do   # the first mistake of each step, the first variant
        kind=variant
        [ -f "tests/mistakes/$m.txt" ] && kind=${base_of[$m]##*/}
        [ -n "${seen[$kind]:-}" ] && continue
        seen[$kind]=1 seen[$m]=1
        seen[verdict ${verdict_of[$m]}]=1
    done
    for m in "$@"; do   # then the first of each verdict not yet among them, and every large one
        verdict=${verdict_of[$m]}
        [ -n "$verdict" ] && [ -z "${seen[verdict $verdict]:-}" ] && seen[verdict $verdict]=1 seen[$m]=1
        [ "$verdict" = large ] && seen[$m]=1
    done
    for m in "$@"; do [ -n "${seen[$m]:-}" ] && echo "$m"; done
}
# shellcheck disable=SC2086  # lists of names
mapfile -t graded < <(sample $mistakes $variants)
in_sample() { [[ " ${graded[*]} " == *" $1 "* ]]; }
checked=() timed=()
for m in $mistakes; do
    verdict=${verdict_of[$m]}
    case $verdict in
        build)
            grade_into "$corpus/$m"   # no GPU needed, no program to ask: it names the folder
            mapfile -t words < <(says "tests/mistakes/$m.txt")
            judge_grade "grade: mistake $m fails with its verdict and message" "$corpus/$m" 1 \
                "^graded $m: failed \\(build\\)\$" "${words[@]}" ;;
        *) in_sample "$m" || continue ;;&
        shapes|memcheck|racecheck|synccheck|large) checked+=("$m") ;;
        *) timed+=("$m") ;;
    esac
done
sampled_variants=$(for v in $variants; do in_sample "$v" && echo "$v"; done)
all=$(echo $mistakes $variants | wc -w)
if [ "${TK_CORPUS:-}" = all ]; then echo "the corpus: every one of its $all files is graded on a GPU (TK_CORPUS=all)"
else echo "the corpus: make test grades a sample of ${#graded[@]} of its $all files on a GPU (TK_CORPUS=all: every one)"; fi
gradable() { local step=${step_of[$1]}; enough_gpus "${step#step}"; }   # gradable NAME: here?
gpu_probe
if [ "$GPU_STATE" = present ]; then
    # The lock on this machine's own disk (flock over NFS may not let a shared lock go first),
    # one for this run: a grade left over from an interrupted run holds no lock of this one.
    # The solution's counter is read once for each step (TK_GRADE_COUNTS), not once a grade.
    export TK_GRADE_LOCK TK_GRADE_AT_ONCE=2 TK_GRADE_COUNTS=$TK_BUILD/counts
    TK_GRADE_LOCK=$(mktemp /tmp/tk-grade-lock.XXXXXX)
    rm -rf "$TK_GRADE_COUNTS" && mkdir -p "$TK_GRADE_COUNTS"
    at_once=1; gpus_shared && at_once=8   # side by side where the GPU takes several processes
    # A mistake of the shape past 2^31 elements, and the solutions of their steps, are graded
    # with it (large): the mistake fails there, the solution passes there.
    for m in "${checked[@]}"; do
        gradable "$m" && echo "$m --checks-only${large_of[$m]:+ large}"
    done >"$TK_BUILD/grades.txt"
    # shellcheck disable=SC2046,SC2086  # lists of names, of step numbers
    for m in "${timed[@]}" $sampled_variants $(printf 'solution-step%s ' $STEP_NUMS); do
        gradable "$m" && echo "$m${large_of[$m]:+ large}"
    done >>"$TK_BUILD/grades.txt"
    xargs -P "$at_once" -L 1 bash -c 'grade_into "$0/$1" "${@:2}"' "$corpus" <"$TK_BUILD/grades.txt"
    rm -f "$TK_GRADE_LOCK"
    unset TK_GRADE_LOCK TK_GRADE_AT_ONCE TK_GRADE_COUNTS
fi
for m in "${checked[@]}" "${timed[@]}"; do
    name="grade: mistake $m fails with its verdict and message"
    step=${step_of[$m]}
    across_test "$name" "${step#step}" || continue
    verdict=${verdict_of[$m]}
    if [ "$verdict" = large ] && grep -q 'not checked: this machine cannot hold it' "$corpus/$m/grade.txt" 2>/dev/null; then
        skip "$name" "this machine cannot hold a shape past 2^31 elements (the grade says so)"; continue
    fi
    mapfile -t words < <(says "tests/mistakes/$m.txt")
    judge_grade "$name" "$corpus/$m" 1 "^graded $step: failed \\((.* )?$verdict( .*)?\\)\$" "${words[@]}"
done
for v in $sampled_variants; do
    name="grade: variant $v passes, timed beside the solution"
    step=${step_of[$v]}
    across_test "$name" "${step#step}" || continue
    mapfile -t words < <(says "tests/variants/$v.txt")
    judge_grade "$name" "$corpus/$v" 0 "^graded $step: passed\$" "${words[@]}"
done
for n in $STEP_NUMS; do
    name="grade: a copy of solution step$n passes, timed beside the solution"
    across_test "$name" "$n" || continue
    clean='^PASS compute-sanitizer --tool synccheck'   # across GPUs: no sanitizer, said so
    [[ " $ACROSS_NUMS " == *" $n "* ]] && clean='^note: compute-sanitizer is not run on a step across GPUs'
    large='' ; [ -n "${large_of[solution-step$n]:-}" ] && large='^(PASS|note:) 46402 x 46402 \(past 2\^31 elements\)'
    judge_grade "$name" "$corpus/solution-step$n" 0 "^graded step$n: passed\$" \
        '^PASS speed: your kernel runs at [0-9]+% of the solution' "$clean" "$large"
done
