# The exercise: every starter differs from its solution only where a TODO asks, no TODO
# holds a line of the solution, and the grader gives every mistake in tests/mistakes/ its
# verdict and its words (on a GPU; skipped without one), and passes every solution.

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
sed '/^    CUDA_CHECK(cudaFree(d_in));/a\    int unused = 0;' solution/step2/transpose.cu >"$planted"
expect "exercise-diff: code the solution adds outside every TODO fails" 1 'not asked for by a TODO' \
    tests/exercise-diff.sh step2/transpose.cu "$planted" step2

# 2. The corpus: each mistake (tests/mistakes/) and honest variant (tests/variants/) applies
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
for m in $mistakes $variants; do
    base=$(sed -n 's/^base: //p' "$(desc "$m")")
    mkdir -p "$corpus/$m" && cp "$base/Makefile" "$corpus/$m/"
    awk -f tests/mistake.awk "$(desc "$m")" "$base/transpose.cu" >"$corpus/$m/transpose.cu" ||
        : >"$corpus/$m/transpose.cu"
done
for n in $STEP_NUMS; do
    rm -rf "$corpus/solution-step$n" && cp -r "solution/step$n" "$corpus/solution-step$n"
    rm -f "$corpus/solution-step$n/transpose"
done
find "$corpus" -mindepth 1 -maxdepth 1 -type d -print0 | xargs -0 -P "$(nproc)" -I{} sh -c \
    'make -s -C {} COMMON="$0/common" >{}/build.log 2>&1 || echo failed >{}/build.failed' "$TK_ROOT"
for m in $mistakes $variants; do
    verdict=$(sed -n 's/^verdict: //p' "$(desc "$m")")
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
for n in $STEP_NUMS; do   # by the step the built program says it is (or its base, unbuilt)
    have=$(for m in $mistakes; do
               "$corpus/$m/transpose" --describe 2>/dev/null ||
                   sed -n 's/^base: .*\(step[0-9]*\)$/step=\1 /p' "tests/mistakes/$m.txt"
           done | grep -c "^step=step$n ")
    [ "$have" -ge 2 ] && pass "the corpus holds $have mistakes on step $n" ||
        fail "the corpus holds at least two mistakes on step $n" "$have"
done

# Without a GPU the grader builds, says which step, and ends with one line: nothing graded.
expect "grade without a GPU: builds, names the step, one closing line that nothing was graded" 3 \
    '^nothing was graded: no usable GPU here' env CUDA_VISIBLE_DEVICES= scripts/grade.sh "$corpus/step4-step3-renamed"
judge "grade learns the step from the program, not the folder or source text" 3 "is step4\$"
[ "$(tail -n 1 "$LAST_OUT" | cut -c1-18)" = "nothing was graded" ] &&
    pass "grade without a GPU: 'nothing was graded' is the last line" ||
    fail "grade without a GPU: 'nothing was graded' is the last line" "last: $(tail -n 1 "$LAST_OUT")"

# 3. The grader on every mistake (its verdict among the failed checks, and each of its words)
# and on every solution and honest variant (passed, speed measured beside the solution): on a
# GPU, except the build verdict, which needs none. Mistakes meant to fail a check (shapes, a
# sanitizer) are graded four at a time with --checks-only, which times nothing; the rest one
# at a time, so that no other work shares the GPU while the grader times and profiles.
# judge_grade NAME DIR CODE PATTERN...: judges the grade kept in DIR (grade.txt, grade.rc).
judge_grade() {
    local name=$1 dir=$2 code=$3; shift 3
    LAST_OUT=$dir/grade.txt
    # shellcheck disable=SC2034  # judge (tests/lib.sh) reads RC
    RC=$(cat "$dir/grade.rc" 2>/dev/null || echo none)
    judge "$name" "$code" "$@"
    LAST_OUT=$TK_BUILD/last.out
}
says() { sed -n 's/^says: //p' "$1"; }   # says FILE: the words a description asks for
grade_into() {   # grade_into DIR [--checks-only]: the grader's words and status, kept in DIR
    scripts/grade.sh ${2:+"$2"} "$1" >"$1/grade.txt" 2>&1
    echo $? >"$1/grade.rc"
}
checked=() timed=()
for m in $mistakes; do
    verdict=$(sed -n 's/^verdict: //p' "tests/mistakes/$m.txt")
    case $verdict in
        build)
            grade_into "$corpus/$m"   # no GPU needed, no program to ask: it names the folder
            mapfile -t words < <(says "tests/mistakes/$m.txt")
            judge_grade "grade: mistake $m fails with its verdict and message" "$corpus/$m" 1 \
                "^graded $m: failed \\(build\\)\$" "${words[@]}" ;;
        shapes|memcheck|racecheck|synccheck) checked+=("$m") ;;
        *) timed+=("$m") ;;
    esac
done
gpu_probe
if [ "$GPU_STATE" = present ]; then
    export -f grade_into
    printf '%s\n' "${checked[@]}" | xargs -P 4 -I{} bash -c 'grade_into "$0/{}" --checks-only' "$corpus"
fi
described_step() { "$1/transpose" --describe 2>/dev/null | sed -n 's/^step=\([^ ]*\) .*/\1/p'; }
for m in "${checked[@]}" "${timed[@]}"; do
    name="grade: mistake $m fails with its verdict and message"
    step=$(described_step "$corpus/$m")
    across_test "$name" "${step#step}" || continue
    [[ " ${timed[*]} " == *" $m "* ]] && grade_into "$corpus/$m"
    verdict=$(sed -n 's/^verdict: //p' "tests/mistakes/$m.txt")
    mapfile -t words < <(says "tests/mistakes/$m.txt")
    judge_grade "$name" "$corpus/$m" 1 "^graded $step: failed \\((.* )?$verdict( .*)?\\)\$" "${words[@]}"
done
for v in $variants; do
    name="grade: variant $v passes, timed beside the solution"
    step=$(described_step "$corpus/$v")
    across_test "$name" "${step#step}" || continue
    grade_into "$corpus/$v"
    mapfile -t words < <(says "tests/variants/$v.txt")
    judge_grade "$name" "$corpus/$v" 0 "^graded $step: passed\$" "${words[@]}"
done
for n in $STEP_NUMS; do
    name="grade: a copy of solution step$n passes, timed beside the solution"
    across_test "$name" "$n" || continue
    grade_into "$corpus/solution-step$n"
    clean='^PASS compute-sanitizer --tool synccheck'   # across GPUs: no sanitizer, said so
    [[ " $ACROSS_NUMS " == *" $n "* ]] && clean='^note: compute-sanitizer is not run on a step across GPUs'
    judge_grade "$name" "$corpus/solution-step$n" 0 "^graded step$n: passed\$" \
        '^PASS speed: your kernel runs at [0-9]+% of the solution' "$clean"
done
