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
expect "--shapes with a malformed shape exits 2, naming it" 2 "'8by8' is not a shape ROWSxCOLS" \
    solution/step4/transpose --shapes 4x4,8by8
expect "--keep-going without --shapes exits 2, saying what it needs" 2 \
    'keep-going goes on through a --shapes list' solution/step4/transpose --keep-going -n 64
for n in $ACROSS_NUMS; do
    [[ " $STEP_NUMS " == *" $n "* ]] || continue
    expect "step$n refuses --shapes (one GPU, one shape after another), exit 2" 2 \
        '--shapes runs shapes one after another on one GPU' solution/step$n/transpose --shapes 4x4
done

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
    row=$(scripts/lib/steps.sh --field rows "step$n" | tail -n 1)   # the table's last row is the one described
    expect "$d: --describe says step$n, its row and todo=$todo" 0 "^step=step$n row=$row todo=$todo\$" \
        env CUDA_VISIBLE_DEVICES= "$d/transpose" --describe
done

expect "scripts/bench without a GPU: CPU row checked, exit 3 with the reason" 3 \
    '^GPU rows skipped: ' env CUDA_VISIBLE_DEVICES= scripts/bench/levers --rows 33 --cols 65

expect "scripts/library without a GPU: CPU row checked, exit 3 with the reason" 3 \
    '^GPU rows skipped: ' env CUDA_VISIBLE_DEVICES= scripts/library/library --rows 33 --cols 65
expect "scripts/baseline without a GPU: CPU row checked, exit 3 with the reason" 3 \
    '^GPU rows skipped: ' env CUDA_VISIBLE_DEVICES= scripts/baseline/plain-tile --rows 33 --cols 65
expect "scripts/baseline --describe names the plain-tile row" 0 '^step=baseline row=plain-tile todo=done$' \
    scripts/baseline/plain-tile --describe
expect "scripts/library --describe names the library row" 0 '^step=library row=cublasSgeam todo=done$' \
    scripts/library/library --describe
# A side past an int: the steps that hold a side in an int refuse it before any work, in their
# words, naming step 7 (across GPUs: on one GPU); step 7 and the library row refuse only for
# memory (a planted cap of 100 MiB, below), and only a starter's own grid may stop it.
for n in $STEP_NUMS; do
    case $n in 7|8|9) continue ;; esac   # they take long sides (below)
    side="step $n holds each side of the matrix in an int \\(its kernel's rows and cols\\), at most 2147483392; step 7 takes every shape that fits"
    [ "$n" -ge 8 ] && side="$side \\(steps 8 and 9 across GPUs\\)"
    expect "solution step$n refuses 2147483393 rows before any work, exit 2, naming step 7" 2 \
        "^solution/step$n/transpose: 2147483393 rows: $side" \
        "solution/step$n/transpose" --rows 2147483393 --cols 1
done
expect "step 3's starter refuses 4294967296 columns too" 2 '4294967296 columns: step 3 holds each side' \
    step3/transpose --cols 4294967296 --rows 1
expect "a --shapes list's later shape past an int is refused before any work too" 2 \
    '2147483400 rows: step 3 holds each side' solution/step3/transpose --shapes 4x4,2147483400x1
expect "past 2097120 rows (a grid's y of 32-row tiles) is no longer refused: no GPU here, exit 3" 3 \
    '^GPU rows skipped: ' env CUDA_VISIBLE_DEVICES= solution/step7/transpose --rows 25913499 --cols 11 --no-cpu
expect "a size the host cannot hold exits 4, saying how much it needs and has" 4 \
    'needs two host matrices of .* GiB each; (this machine has .* GiB of memory|this process may use .* of host memory)' \
    env CUDA_VISIBLE_DEVICES= solution/step1/transpose --rows 2097120 --cols 2147483392
# A control group's memory limit (a Slurm job's, a container's) is the host's memory for a
# run: planted (TK_TEST_CGROUP, the tests' stand-in for /sys/fs/cgroup and /proc/self/cgroup)
# at 100 MiB on the job's group above the step's, two matrices of 64 MiB are refused, exit 4,
# before any work; two of 16 MiB run.
cg=$TK_BUILD/cgroup
rm -rf "$cg" && mkdir -p "$cg/job/step" && echo "0::/job/step" >"$cg/cgroup" &&
    echo max >"$cg/job/step/memory.max" && echo 104857600 >"$cg/job/memory.max"
expect "a control group's memory limit is the host's memory: exit 4, saying so" 4 \
    'needs two host matrices of 64 MiB each; this process may use 100 MiB of host memory \(its control group.s limit' \
    env CUDA_VISIBLE_DEVICES= TK_TEST_CGROUP="$cg" solution/step1/transpose -n 4096
for prog in solution/step7/transpose step7/transpose scripts/library/library \
            $(for n in 8 9; do [[ " $STEP_NUMS " == *" $n "* ]] && echo "solution/step$n/transpose"; done); do
    expect "$prog past an int a side is refused for memory only (a cap of 100 MiB): exit 4" 4 \
        '2147483649 x 3 needs two host matrices of 24.0 GiB each; this process may use 100 MiB' \
        env CUDA_VISIBLE_DEVICES= TK_TEST_CGROUP="$cg" "$prog" --rows 2147483649 --cols 3
done
expect "under a control group's limit, a size that fits runs (no GPU here: CPU row checked, exit 3)" 3 \
    '^CPU\+OMP .* yes' env CUDA_VISIBLE_DEVICES= TK_TEST_CGROUP="$cg" solution/step1/transpose -n 2048
# host_refusal (scripts/lib/lib.sh), which the grader and make large read that refusal with:
# the refusal's words without the program's name, from the first file that holds them; a
# device's refusal is not the host's.
env CUDA_VISIBLE_DEVICES= TK_TEST_CGROUP="$cg" solution/step1/transpose -n 4096 >/dev/null 2>"$TK_BUILD/held.err"
echo "transpose: 8 x 8 needs two device matrices of 0.0 MiB" >"$TK_BUILD/device.err"
held=$(. scripts/lib/lib.sh && host_refusal "$TK_BUILD/device.err" "$TK_BUILD/held.err")
[[ $held == "4096 x 4096 needs two host matrices of 64 MiB each; this process may use 100 MiB"* ]] &&
    [ -z "$(. scripts/lib/lib.sh && host_refusal "$TK_BUILD/device.err")" ] &&
    pass "host_refusal: the host's refusal without the program's name, not the device's" ||
    fail "host_refusal: the host's refusal without the program's name, not the device's" "got '$held'"
expect "large.sh refuses an unknown argument before any work, exit 2" 2 "unknown argument '--fast'" \
    scripts/results/large.sh --fast
expect "large.sh without a GPU says nothing was run, exit 3" 3 'nothing was run' \
    env CUDA_VISIBLE_DEVICES= scripts/results/large.sh 1

expect "--csv without a GPU: header and a checked CPU row" 3 \
    '^step1,CPU\+OMP,"none",.*,33,65,' env CUDA_VISIBLE_DEVICES= solution/step1/transpose \
    --csv --rows 33 --cols 65
env CUDA_VISIBLE_DEVICES= solution/step1/transpose --csv -n 8 2>/dev/null | head -n 1 >"$LAST_OUT"
if grep -q '^step,row,device,cc,peak_gbs,rows,cols,reps,ms_median' "$LAST_OUT"; then
    pass "--csv: stdout starts with the CSV header"
else
    fail "--csv: stdout starts with the CSV header" "header missing"
fi

# make exits 2 when a recipe fails; the script's own status is make's "Error 3".
run_cmd env CUDA_VISIBLE_DEVICES= make run ARGS="-n 256"
judge "make run without a GPU builds, runs the CPU row, explains and fails (Error 3)" 2 \
    '^CPU\+OMP ' 'No usable GPU here' 'run\] Error 3$'

# Without NCCL, make leaves the steps across GPUs out and says which (make -n: the plan alone).
across=$(printf 'step%s ' $ACROSS_NUMS)   # step8 step9 step10, with a space after
run_cmd make -n HAVE_NCCL=
judge "make without NCCL says it leaves the steps across GPUs out, naming them" 0 "note: ${across}left out of the build"
run_cmd make -n HAVE_NCCL=1
if [ "$RC" = 0 ] && ! grep -q 'left out of the build' "$LAST_OUT"; then pass "make with NCCL leaves no step out and says nothing of it"
else fail "make with NCCL leaves no step out and says nothing of it" "exit $RC, or the note was printed"; fi

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

# Launcher mode (--id-file or TK_ID_FILE; common/ranks/launch.h) as a user meets it without a GPU:
# each rank says it has none (exit 3), rank 0 alone printing the table's lines; a launcher's
# environment that is wrong, or a launcher of several tasks without an id file, is refused with
# its message (exit 2). A shell inside a launcher's task would pass its variables on: none here.
no_launcher() {
    env -u TK_RANK -u TK_RANKS -u TK_LOCAL_RANK -u TK_ID_FILE -u TK_ID_TIMEOUT \
        -u OMPI_COMM_WORLD_RANK -u OMPI_COMM_WORLD_SIZE -u OMPI_COMM_WORLD_LOCAL_RANK \
        -u PMI_RANK -u PMI_SIZE -u MPI_LOCALRANKID -u SLURM_PROCID -u SLURM_STEP_ID \
        -u SLURM_STEP_NUM_TASKS -u SLURM_NTASKS -u SLURM_LOCALID CUDA_VISIBLE_DEVICES= "$@"
}
no_gpu_why='GPU rows skipped: (no CUDA-capable GPU|no NVIDIA driver|the NVIDIA driver)'
for n in $ACROSS_NUMS; do
    [[ " $STEP_NUMS " == *" $n "* ]] || continue
    b=solution/step$n/transpose id=$TK_BUILD/launch.id
    rm -f "$id"
    run_cmd no_launcher TK_RANK=0 TK_RANKS=2 "$b" --rows 33 --cols 65 --id-file "$id"
    judge "step$n launcher mode, rank 0 without a GPU: says its mode, prints the header and the checked CPU row, says why the GPU rows are skipped (exit 3)" 3 \
        "^launcher mode: rank 0 of 2 \\(set by hand or a script: TK_RANK=0, TK_RANKS=2\\); NCCL's id through $id " \
        '^row  .* checked' '^CPU\+OMP .* yes' "^$no_gpu_why"
    name="step$n launcher mode, rank 1 without a GPU (TK_ID_FILE): says so on its own, exit 3, and prints no table"
    run_cmd no_launcher TK_RANK=1 TK_RANKS=2 TK_ID_FILE="$id" "$b" --rows 33 --cols 65
    if grep -Eq '^(transpose-kit |launcher mode|row |CPU\+OMP)' "$LAST_OUT"; then
        fail "$name" "a rank other than 0 printed the table's lines"
    else
        judge "$name" 3 "^$b: rank 1 of 2: $no_gpu_why"
    fi
    name="step$n in a Slurm batch script (SLURM_PROCID=0, SLURM_NTASKS=4, no SLURM_STEP_ID), no id file: fork mode, as before (exit 3 without a GPU)"
    run_cmd no_launcher SLURM_PROCID=0 SLURM_NTASKS=4 SLURM_LOCALID=0 "$b" --rows 33 --cols 65
    if grep -q 'launcher mode' "$LAST_OUT"; then fail "$name" "it speaks of launcher mode"
    else judge "$name" 3 '^CPU\+OMP .* yes' "^$no_gpu_why"; fi

    while IFS='|' read -r what vars args message; do
        # shellcheck disable=SC2086  # vars and args are lists of words
        expect "step$n launcher mode refuses $what (exit 2)" 2 "$message" \
            no_launcher $vars "$b" --rows 33 --cols 65 $args
    done <<EOT
a rank not below the count|TK_RANK=2 TK_RANKS=2|--id-file $id|launcher mode: TK_RANK=2 with TK_RANKS=2: a rank must be 0 to 1$
a rank that is no number|TK_RANK=one TK_RANKS=2|--id-file $id|launcher mode: TK_RANK='one' is not a whole number$
a count above 64|TK_RANK=0 TK_RANKS=65|--id-file $id|launcher mode: TK_RANKS=65: the rank count must be 1 to 64$
no count|OMPI_COMM_WORLD_RANK=0|--id-file $id|launcher mode: OMPI_COMM_WORLD_RANK is set but OMPI_COMM_WORLD_SIZE is not$
an id file without a launcher's variables|HOME=$HOME|--id-file $id|launcher mode \(--id-file, TK_ID_FILE\) needs this process's rank and the rank count: TK_RANK and TK_RANKS
a Slurm batch script's variables, with the hint|SLURM_PROCID=0 SLURM_NTASKS=4|--id-file $id|SLURM_PROCID is set but SLURM_STEP_ID is not: this is a Slurm batch script or salloc shell
--ranks other than the launcher's count|TK_RANK=0 TK_RANKS=2|--id-file $id --ranks 3|--ranks 3, but the launcher's rank count is 2 \(set by hand or a script: TK_RANK=0, TK_RANKS=2\)$
srun's task of several without an id file|SLURM_PROCID=1 SLURM_STEP_NUM_TASKS=4 SLURM_LOCALID=1 SLURM_STEP_ID=0||this process is rank 1 of 4 \(set by Slurm's srun: SLURM_PROCID=1, SLURM_STEP_NUM_TASKS=4, SLURM_LOCALID=1\), but no id file is given: launcher mode needs --id-file PATH
an id file in a folder that is not here|TK_RANK=1 TK_RANKS=2|--id-file $TK_BUILD/no-such-folder/id|rank 1: $TK_BUILD/no-such-folder/id: no folder $TK_BUILD/no-such-folder here: the id file must be in a folder every rank's node shares$
a bad TK_ID_TIMEOUT|TK_RANK=1 TK_RANKS=2 TK_ID_TIMEOUT=soon|--id-file $id|launcher mode: TK_ID_TIMEOUT='soon' is not a whole number of seconds from 1 to 86400$
EOT
    expect "step$n launcher mode refuses an empty --id-file (exit 2)" 2 'transpose: --id-file needs a path$' \
        no_launcher TK_RANK=0 TK_RANKS=2 "$b" --id-file ''
    name="step$n launcher mode: rank 0 refuses an id-file path that holds another file, and leaves it as it was (exit 2)"
    echo "my notes" >"$TK_BUILD/notes.txt"
    run_cmd no_launcher TK_RANK=0 TK_RANKS=2 "$b" --rows 33 --cols 65 --id-file "$TK_BUILD/notes.txt"
    if [ "$(cat "$TK_BUILD/notes.txt")" != "my notes" ]; then fail "$name" "the file was changed"
    else judge "$name" 2 "rank 0: $TK_BUILD/notes.txt is there and is not an id file of the kit: it was left as it is"; fi
done
