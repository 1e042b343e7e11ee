# The binaries as a user meets them: --help, bad arguments, the no-GPU path (forced with
# CUDA_VISIBLE_DEVICES= so that it runs on GPU machines too), CSV, make run, TODO markers.

for d in $STEP_DIRS; do
    expect "$d: --help prints the usage" 0 '^usage: .*transpose' "$d/transpose" --help
done

# Every binary shares the parser (unit-tested); check that each one refuses bad input.
for d in $STEP_DIRS; do
    expect "$d: -n 0 exits 2 with a message and the usage" 2 'too small' "$d/transpose" -n 0
done
# The exit statuses: --help prints them from the one table in common/options.c; the
# harness's README (common/README.md) lists the same, word for word.
solution/step1/transpose --help | sed -n 's/^  \([0-9]\)  /\1 /p' >"$TK_BUILD/exits.help"
sed -n 's/^- `\([0-9]\)` /\1 /p' common/README.md >"$TK_BUILD/exits.readme"
if [ "$(wc -l <"$TK_BUILD/exits.help")" -ge 6 ] && cmp -s "$TK_BUILD/exits.help" "$TK_BUILD/exits.readme"; then
    pass "common/README.md lists the exit statuses exactly as --help prints them"
else
    diff "$TK_BUILD/exits.help" "$TK_BUILD/exits.readme" >"$LAST_OUT"
    fail "common/README.md lists the exit statuses exactly as --help prints them" "they differ"
fi

expect "an unknown flag exits 2 and names it" 2 "unknown option '--fast'" \
    solution/step1/transpose --fast
expect "a size overflowing size_t exits 2" 2 'overflows size_t' \
    solution/step1/transpose --rows 8589934592 --cols 8589934592
expect "a missing value exits 2" 2 'needs a value' solution/step1/transpose --reps

for d in $STEP_DIRS; do
    expect "$d: without a GPU, CPU row checked, GPU rows skipped, exit 3" 3 \
        '^CPU\+OMP .* yes' env CUDA_VISIBLE_DEVICES= "$d/transpose" --rows 33 --cols 65
    judge "$d: says why the GPU rows are skipped" 3 \
        '^GPU rows skipped: (no CUDA-capable GPU|no NVIDIA driver|the NVIDIA driver)'
    n=${d##*step}
    if [ "$d" = "step$n" ]; then
        judge "$d: the untouched starter says its TODOs are open, without a GPU too" 3 \
            "^step$n is unfinished: its TODO\\(step$n\\) comments in transpose.cu are still open"
    elif grep -q 'is unfinished' "$LAST_OUT"; then
        fail "$d: the solution does not call itself unfinished" "it does"
    else
        pass "$d: the solution does not call itself unfinished"
    fi
done

# --describe: what the grader asks. The step and row come from the program; the starters say
# their TODOs are open, the solutions that they are done. No GPU is needed.
for d in $STEP_DIRS; do
    n=${d##*step}
    todo=done
    [ "$d" = "step$n" ] && todo=open
    row=$(scripts/steps.sh --field rows "step$n" | tail -n 1)   # the table's last row is the one described
    expect "$d: --describe says step$n, its row and todo=$todo" 0 "^step=step$n row=$row todo=$todo\$" \
        env CUDA_VISIBLE_DEVICES= "$d/transpose" --describe
done

expect "scripts/bench without a GPU: CPU row checked, exit 3 with the reason" 3 \
    '^GPU rows skipped: ' env CUDA_VISIBLE_DEVICES= scripts/bench/levers --rows 33 --cols 65

expect "scripts/library without a GPU: CPU row checked, exit 3 with the reason" 3 \
    '^GPU rows skipped: ' env CUDA_VISIBLE_DEVICES= scripts/library/library --rows 33 --cols 65
expect "scripts/library --describe names the library row" 0 '^step=library row=cublasSgeam todo=done$' \
    scripts/library/library --describe
expect "too many rows for the grid exit 2 with the limit" 2 'rows: at most 2097120' \
    solution/step1/transpose --rows 2097121 --cols 1
expect "a size the host cannot hold exits 4, saying how much it needs and has" 4 \
    'needs two host matrices of .* GiB; this machine has .* GiB of memory' \
    env CUDA_VISIBLE_DEVICES= solution/step1/transpose --rows 2097120 --cols 2147483392
expect "large.sh refuses an unknown argument before any work, exit 2" 2 "unknown argument '--fast'" \
    scripts/large.sh --fast
expect "large.sh without a GPU says nothing was run, exit 3" 3 'nothing was run' \
    env CUDA_VISIBLE_DEVICES= scripts/large.sh 1

expect "--csv without a GPU: header and a checked CPU row" 3 \
    '^step1,CPU\+OMP,"none",.*,33,65,' env CUDA_VISIBLE_DEVICES= solution/step1/transpose \
    --csv --rows 33 --cols 65
env CUDA_VISIBLE_DEVICES= solution/step1/transpose --csv -n 8 2>/dev/null | head -n 1 >"$LAST_OUT"
if grep -q '^step,row,device,cc,peak_gbs,rows,cols,reps,ms_median' "$LAST_OUT"; then
    pass "--csv: stdout starts with the CSV header"
else
    fail "--csv: stdout starts with the CSV header" "header missing"
fi

expect "make run without a GPU builds, runs the CPU row and explains" 0 'No usable GPU here' \
    env CUDA_VISIBLE_DEVICES= make run ARGS="-n 256"

# Starters carry their step's TODO markers and no other step's; solutions carry none.
for n in $STEP_NUMS; do
    count=$(grep -c "TODO(step$n)" "step$n/transpose.cu")
    others=$(grep -o 'TODO(step[0-9])' "step$n/transpose.cu" | grep -vc "TODO(step$n)")
    if [ "$count" -ge 1 ] && [ "$others" = 0 ]; then
        pass "step$n/transpose.cu holds $count TODO(step$n) markers and no others"
    else
        fail "step$n/transpose.cu holds TODO(step$n) markers and no others" \
            "$count markers, $others from other steps"
    fi
done
if grep -l 'TODO' solution/step*/transpose.cu >"$LAST_OUT"; then
    fail "no solution holds a TODO" "found in the files listed"
else
    pass "no solution holds a TODO"
fi
