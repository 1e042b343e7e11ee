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

# 2. The corpus: each mistake applies to its base file and builds; the grader's verdicts are
# proven on a GPU below. Builds run in parallel, one folder each.
corpus=$TK_BUILD/mistakes
rm -rf "$corpus" && mkdir -p "$corpus"
mistakes=$(cd tests/mistakes && ls ./*.txt | sed 's|^\./||; s|\.txt$||')
count=$(echo "$mistakes" | wc -l)
[ "$count" -ge 14 ] && pass "the corpus holds $count mistakes (at least 14)" ||
    fail "the corpus holds at least 14 mistakes" "$count"
for m in $mistakes; do
    base=$(sed -n 's/^base: //p' "tests/mistakes/$m.txt")
    mkdir -p "$corpus/$m" && cp "$base/Makefile" "$corpus/$m/"
    awk -f tests/mistake.awk "tests/mistakes/$m.txt" "$base/transpose.cu" >"$corpus/$m/transpose.cu" ||
        : >"$corpus/$m/transpose.cu"
done
for n in $STEP_NUMS; do
    rm -rf "$corpus/solution-step$n" && cp -r "solution/step$n" "$corpus/solution-step$n"
    rm -f "$corpus/solution-step$n/transpose"
done
find "$corpus" -mindepth 1 -maxdepth 1 -type d -print0 | xargs -0 -P "$(nproc)" -I{} sh -c \
    'make -s -C {} COMMON="$0/common" >{}/build.log 2>&1 || echo failed >{}/build.failed' "$TK_ROOT"
for m in $mistakes; do
    verdict=$(sed -n 's/^verdict: //p' "tests/mistakes/$m.txt")
    if [ ! -s "$corpus/$m/transpose.cu" ]; then fail "mistake $m applies to its base" "see mistake.awk's message"
    elif [ "$verdict" = build ]; then
        [ -f "$corpus/$m/build.failed" ] && pass "mistake $m applies to its base and fails to build, as meant" ||
            fail "mistake $m fails to build, as meant" "it built"
    elif [ -f "$corpus/$m/build.failed" ]; then LAST_OUT=$corpus/$m/build.log; fail "mistake $m builds" "make failed"
    else pass "mistake $m applies to its base and builds"; fi
    LAST_OUT=$TK_BUILD/last.out
    for key in mistake base verdict says; do
        grep -q "^$key: ." "tests/mistakes/$m.txt" || fail "mistake $m names its $key" "no '$key:' line"
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

# 3. The grader on every mistake (its verdict among the failed checks, its words) and on every
# solution (passed, speed measured beside itself): on a GPU, except the build verdict, which
# needs none.
for m in $mistakes; do
    name="grade: mistake $m fails with its verdict and message"
    verdict=$(sed -n 's/^verdict: //p' "tests/mistakes/$m.txt")
    says=$(sed -n 's/^says: //p' "tests/mistakes/$m.txt")
    if [ "$verdict" = build ]; then   # no GPU needed, no program to ask: it names the folder
        run_cmd scripts/grade.sh "$corpus/$m"
        judge "$name" 1 "^graded $m: failed \\(build\\)\$" "$says"; continue
    fi
    gpu_test "$name" || continue
    [ -f "$corpus/$m/build.failed" ] && { fail "$name" "it did not build"; continue; }
    step=$("$corpus/$m/transpose" --describe | sed -n 's/^step=\([^ ]*\) .*/\1/p')
    run_cmd scripts/grade.sh "$corpus/$m"
    cp "$LAST_OUT" "$corpus/$m/grade.txt"   # what the grader said, kept for reading
    judge "$name" 1 "^graded $step: failed \\((.* )?$verdict( .*)?\\)\$" "$says"
done
for n in $STEP_NUMS; do
    name="grade: a copy of solution step$n passes, timed beside the solution"
    gpu_test "$name" || continue
    run_cmd scripts/grade.sh "$corpus/solution-step$n"
    cp "$LAST_OUT" "$corpus/solution-step$n/grade.txt"
    judge "$name" 0 "^graded step$n: passed\$" '^PASS speed: your kernel runs at [0-9]+% of the solution' \
        '^PASS compute-sanitizer --tool synccheck'
done
