# The table of steps (scripts/lib/steps.txt) is true of the kit: its folders, their Makefiles, what
# the solutions say of themselves and the grader's words. Each check is proven able to fail on
# a copy of the table made untrue, and steps.sh, the Makefile and the grader refuse a malformed
# one. No GPU needed.

# untrue [TABLE]: each way TABLE (the kit's by default) is untrue of the kit, one a line.
untrue() {
    local table=${1:-} nums n d r row rows gpus counter label
    steps_field() { STEPS_TABLE=$table scripts/lib/steps.sh --field "$1" "step$2"; }
    nums=$(STEPS_TABLE=$table scripts/lib/steps.sh 2>&1) || { echo "steps.sh refused the table: $nums"; return; }
    for d in step*/ solution/step*/; do   # every step folder is the table's
        d=${d%/} n=${d##*step}
        [ -f "$d/transpose.cu" ] && ! echo "$nums" | grep -qx "$n" && echo "$d is not in the table"
    done
    for n in $nums; do
        for d in "step$n" "solution/step$n"; do
            [ -f "$d/transpose.cu" ] || echo "step$n: no $d/transpose.cu"
        done
        label=$(. scripts/grade/grade-words.sh; step_words "step$n" && echo "+$label")
        counter=$(steps_field counter "$n")
        if [ -z "$label" ]; then echo "step$n: scripts/grade/grade-words.sh has no words for it"
        elif [ "$label" = + ] && [ -n "$counter" ]; then echo "step$n: a counter, but no label for it in grade-words.sh"
        elif [ "$label" != + ] && [ -z "$counter" ]; then echo "step$n: a label in grade-words.sh, but no counter"
        fi
        [ -f "solution/step$n/transpose.cu" ] || continue
        gpus=$(steps_field gpus "$n")
        for d in "step$n" "solution/step$n"; do   # across GPUs: exactly the ranks' harness
            if grep -Eq '^RANKS[[:space:]]*:?=[[:space:]]*yes' "$d/Makefile" 2>/dev/null; then
                [ "$gpus" -gt 1 ] || echo "step$n: gpus $gpus, but $d/Makefile builds common/ranks/"
            else
                [ "$gpus" = 1 ] || echo "step$n: gpus $gpus, but $d/Makefile does not build common/ranks/"
            fi
        done
        rows=$(steps_field rows "$n")
        for r in $rows; do
            grep -qF "\"$r\"" "solution/step$n/transpose.cu" || echo "step$n: no row \"$r\" in solution/step$n/transpose.cu"
        done
        # across GPUs, the other way too: every row the solution times is the table's
        for r in $(sed -n 's/.*tk_ranks_time[a-z_]*([^,]*, *"\([^"]*\)".*/\1/p' "solution/step$n/transpose.cu"); do
            echo "$rows" | grep -qxF "$r" ||
                echo "step$n: solution/step$n/transpose.cu times row \"$r\", which the table does not list"
        done
        if [[ " $STEP_NUMS " == *" $n "* ]]; then   # built (tests/test_1_build.sh)
            row=$(described solution/step$n/transpose | cut -d' ' -f2)
            [ "$row" = "$(echo "$rows" | tail -n 1)" ] ||
                echo "step$n: --describe names row=$row, the table's last row is $(echo "$rows" | tail -n 1)"
        fi
    done
}

untrue >"$LAST_OUT"
[ -s "$LAST_OUT" ] && fail "the table of steps is true of the kit" "see above" ||
    pass "the table of steps is true of the kit: folders, Makefiles, rows, the grader's words"
for n in $ACROSS_NUMS; do
    [[ " $STEP_NUMS " == *" $n "* ]] ||
        skip "the table of steps: step$n's --describe row" "not built: no NCCL 2.28 or newer here (nccl.h, nccl_device.h)"
done

# wrong NAME SED PATTERN: the table changed by SED (still well-formed) is found untrue, with a
# line matching PATTERN.
wrong() {
    local copy=$TK_BUILD/steps-wrong.txt
    sed "$2" scripts/lib/steps.txt >"$copy"
    untrue "$copy" >"$LAST_OUT"
    if cmp -s scripts/lib/steps.txt "$copy"; then fail "the table of steps: $1 is found untrue" "the change did nothing"
    elif grep -Eq -- "$3" "$LAST_OUT"; then pass "the table of steps: $1 is found untrue"
    else fail "the table of steps: $1 is found untrue" "no line matches /$3/"; fi
}
step11='/^step10 / { p; s/^step10 /step11 / }'   # a step11 line, as step10's
wrong "a step without a starter" "$step11" '^step11: no step11/transpose.cu$'
wrong "a step without a solution" "$step11" '^step11: no solution/step11/transpose.cu$'
wrong "a step the grader has no words for" "$step11" '^step11: scripts/grade/grade-words.sh has no words'
wrong "a solution folder left out" '/^step4 /d' '^solution/step4 is not in the table$'
wrong "a starter folder left out" '/^step4 /d' '^step4 is not in the table$'
wrong "a step across GPUs without the ranks' harness" 's/^step7 .*/step7 GPU-any-shape 2 90 - - 8192x8192 - -/' \
    '^step7: gpus 2, but solution/step7/Makefile does not build common/ranks/$'
wrong "a step with the ranks' harness on one GPU" \
    's/^step8 .*/step8 GPU-alltoall 1 90 - - 8192x8192 97x161 -/' \
    '^step8: gpus 1, but solution/step8/Makefile builds common/ranks/$'
wrong "a row the solution does not describe" 's/^\(step2 *\)GPU-2D /\1GPU-2d /' \
    '^step2: --describe names row=GPU-2D, the table.s last row is GPU-2d$'
wrong "a row the solution does not time" 's/^\(step9 *GPU-alltoall\),/\1,GPU-all-to-all,/' '^step9: no row "GPU-all-to-all" in'
wrong "a row the solution times, left out" 's/^\(step10 *GPU-alltoall,\)GPU-alltoall-pipelined,/\1/' \
    '^step10: solution/step10/transpose.cu times row "GPU-alltoall-pipelined", which the table does not list$'
wrong "a counter the grader has no label for" \
    's/^step8 .*/step8 GPU-alltoall 1 90 - 8192x8192 8192x8192 97x161 gpu__time_duration.sum/' \
    '^step8: a counter, but no label'
wrong "a label without a counter" 's/^step5 .*/step5 GPU-multi-element 1 90 - - 8192x8192 97x161 -/' \
    '^step5: a label in grade-words.sh, but no counter$'

# The readers refuse a malformed table, naming the line and why, and print nothing else.
# broken NAME SED PATTERN: steps.sh refuses the table changed by SED, exit 4, with PATTERN.
broken() {
    local copy=$TK_BUILD/steps-broken.txt
    sed "$2" scripts/lib/steps.txt >"$copy"
    run_cmd env STEPS_TABLE="$copy" scripts/lib/steps.sh
    if grep -qx '[0-9][0-9]*' "$LAST_OUT"; then fail "steps.sh refuses $1" "it printed step numbers"
    else judge "steps.sh refuses $1" 4 "^steps: .*steps-broken.txt line [0-9]+: $3"; fi
}
broken "a share that is not a number" 's/^\(step4 .*\) 90 /\1 9O /' 'share "9O"'
broken "a missing column" 's/^step3 .*/step3 GPU-shared 1 90 most:1.5 8192x8192 8192x8192 97x161/' '8 columns, not 9'
broken "a step twice" 's/^step6 /step5 /' 'step5 after step5: each step once, in order'
broken "a rule it does not know" 's/most:3 /most3  /' 'rule "most3"'
broken "a counter on a step across GPUs" \
    's/^step8 .*/step8 GPU-alltoall 2 90 - 8192x8192 8192x8192 - gpu__time_duration.sum/' \
    'a step across GPUs \(gpus 2\) has counter - and san_at -'
broken "sanitizer shapes on a step across GPUs" \
    's/^step8 .*/step8 GPU-alltoall 2 90 - - 8192x8192 97x161 -/' \
    'a step across GPUs \(gpus 2\) has counter - and san_at -'
broken "a one-GPU step without sanitizer shapes" 's/^step5 .*/step5 GPU-multi-element 1 90 - 8192x8192 8192x8192 - gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed/' \
    'a step on one GPU names the shapes its sanitizers run at'
broken "a shape that is not ROWSxCOLS" 's/8192x8192,12345x6789/8192x8192,12345/' 'speed_at "8192x8192,12345"'
broken "a header it does not know" 's/^step *rows/step row/' 'the header must name the columns'
cp scripts/lib/steps.txt "$TK_BUILD/steps-broken.txt" && sed -i 's/^\(step4 .*\) 90 /\1 9O /' "$TK_BUILD/steps-broken.txt"
expect "make stops on a malformed table of steps" 2 'cannot read the table of steps' \
    env STEPS_TABLE="$TK_BUILD/steps-broken.txt" make -n
expect "the grader stops on a malformed table of steps, exit 4" 4 'share "9O"' \
    env STEPS_TABLE="$TK_BUILD/steps-broken.txt" scripts/grade/grade.sh step4

# The readers read it: the Makefile builds the table's steps (with NCCL; else those on one GPU).
want=$(if [ "$HAVE_NCCL" = 1 ]; then scripts/lib/steps.sh; else scripts/lib/steps.sh --one-gpu; fi | sed 's/^/step/' | tr '\n' ' ')
got=$(make -s --no-print-directory --eval 'tk-steps: ; @echo $(STEPS)' tk-steps)
[ "$got " = "$want" ] && pass "the top Makefile builds the table's steps ($got)" ||
    fail "the top Makefile builds the table's steps" "it builds '$got', the table says '$want'"
expect "steps.sh --field: a list one item a line" 0 '^12345x6789$' scripts/lib/steps.sh --field speed_at step7
judge "steps.sh --field: a list one item a line" 0 '^8192x8192$'
run_cmd scripts/lib/steps.sh --field counter step8
[ "$RC" = 0 ] && [ ! -s "$LAST_OUT" ] && pass "steps.sh --field: nothing for -" ||
    fail "steps.sh --field: nothing for -" "exit $RC"
expect "steps.sh --field: a step the table does not have, exit 2" 2 '^steps: no step99 in' \
    scripts/lib/steps.sh --field share step99
expect "steps.sh --field: a column the table does not have, exit 2" 2 "no column 'speed'" \
    scripts/lib/steps.sh --field speed step1
expect "steps.sh --row: every column of a step, a list space-separated" 0 \
    $'^speed_at\t8192x8192 12345x6789$' scripts/lib/steps.sh --row step7
run_cmd scripts/lib/steps.sh --row step8
grep -qx $'counter\t' "$LAST_OUT" && [ "$(wc -l <"$LAST_OUT")" = 9 ] &&
    pass "steps.sh --row step8: nine columns, its counter nothing" ||
    fail "steps.sh --row step8: nine columns, its counter nothing" "see above"
expect "steps.sh --row: a step the table does not have, exit 2" 2 '^steps: no step99 in' \
    scripts/lib/steps.sh --row step99
