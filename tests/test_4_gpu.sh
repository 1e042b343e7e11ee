# On a GPU: the solutions at the default size, the untouched starters, compute-sanitizer's
# initcheck on every solution, the lever benchmark, results and profiles. The shapes,
# memcheck, racecheck and synccheck of every solution are the grader's (test_6_exercise.sh).
# Without a GPU each is reported as skipped.

# sanitizer_test NAME: true when a GPU and compute-sanitizer are both here; else a skip.
sanitizer_test() {
    gpu_test "$1" || return 1
    command -v compute-sanitizer >/dev/null && return 0
    skip "$1" "compute-sanitizer is not on the PATH"
    return 1
}

# refused_one_rank N: the last run was step N with one rank (ranks_arg) and NCCL refused its
# fused stage's window (REFUSED, below).
refused_one_rank() { [ -n "$(ranks_arg "$1")" ] && grep -q "$REFUSED" "$LAST_OUT"; }

# ranks_arg N: for a step across GPUs on a machine with fewer GPUs than it needs, --ranks 1:
# every part of it but the links then runs on one GPU.
ranks_arg() { enough_gpus "$1" || echo "--ranks 1"; }

# The three planted programs below build while the GPU runs what comes before them.
planted_floor=$TK_BUILD/kit/planted-floor planted_tma=$TK_BUILD/kit/planted-tma
planted_noloop=$TK_BUILD/kit/planted-noloop
gpu_probe
if [ "$GPU_STATE" = present ]; then
    rm -rf "$planted_floor" "$planted_tma"
    cp -r solution/step3 "$planted_floor" && rm -f "$planted_floor/transpose"
    sed -i 's|dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);|dim3 grid(cols / TILE, rows / TILE);|' \
        "$planted_floor/transpose.cu"
    cp -r scripts/bench "$planted_tma" && rm -f "$planted_tma/levers"
    sed -i 's|__syncthreads();   /\* the whole tile is in registers|/* barrier removed */ /*|' "$planted_tma/tma.cuh"
    make -s -C "$planted_floor" COMMON="$TK_ROOT/common" >"$planted_floor.log" 2>&1 &
    planted_floor_job=$!
    make -s -C "$planted_tma" COMMON="$TK_ROOT/common" >"$planted_tma.log" 2>&1 &
    planted_tma_job=$!
    rm -rf "$planted_noloop"   # a main without the shapes' loop, as written before it
    cp -r solution/step2 "$planted_noloop" && rm -f "$planted_noloop/transpose"
    sed -i -e '/^    do {   \/\* once; with --shapes/d' -e '/^    } while (tk_next_shape(&run));/d' \
        "$planted_noloop/transpose.cu"
    make -s -C "$planted_noloop" COMMON="$TK_ROOT/common" >"$planted_noloop.log" 2>&1 &
    planted_noloop_job=$!
fi

for n in $STEP_NUMS; do
    name="solution step$n is exact at the default size (8192 x 8192)"
    # shellcheck disable=SC2046  # ranks_arg is empty or two words
    gpu_test "$name" && expect "$name" 0 '^GPU-.* yes' "solution/step$n/transpose" --no-cpu --reps 3 \
        --warmup 1 $(ranks_arg "$n")
done
# Step 7's any-shape kernel at the odd shapes its story is about, and the large shape's neighbour.
for shape in 8191x8192 8192x8191 12345x6789; do
    name="solution step7 is exact at $shape"
    gpu_test "$name" && expect "$name" 0 '^GPU-any-shape .* yes' solution/step7/transpose \
        --rows "${shape%x*}" --cols "${shape#*x}" --no-cpu --reps 2 --warmup 1
done
# --shapes, the grader's first pass: every shape of the list in one process, each exact (the
# last one's line is printed only after all before it were exact), for every one-GPU step's
# own main; and the run stops at the first shape whose output is wrong: a grid rounded down
# is exact on whole tiles (32 x 32, 64 x 64) and not at 33 x 65, and the 32 x 32 after it
# never runs.
shapes=$(grep -v '^#' scripts/grade/shapes.txt | paste -sd, -)
exact_at() { echo "^shapes: ${1%x*} x ${1#*x} exact\$"; }   # exact_at RxC: its line
for n in $(scripts/lib/steps.sh --one-gpu); do
    name="solution step$n is exact at every shape of scripts/grade/shapes.txt in one process (--shapes)"
    gpu_test "$name" && expect "$name" 0 "$(exact_at "${shapes##*,}")" "solution/step$n/transpose" \
        --shapes "$shapes" --no-cpu --reps 1 --warmup 0
done
name="--shapes stops at the first shape whose output is not exact"
if gpu_test "$name"; then
    dir=$planted_floor
    wait "$planted_floor_job"
    run_cmd "$dir/transpose" --shapes 32x32,64x64,33x65,32x32 --no-cpu --reps 1 --warmup 0
    if [ "$(grep -c '^shapes: .* exact$' "$LAST_OUT")" != 2 ]; then
        fail "$name" "$(grep -c '^shapes: .* exact$' "$LAST_OUT") shapes said exact, not 2"
    else
        judge "$name" 1 '^shapes: 64 x 64 exact$' 'GPU-shared: WRONG'
    fi
fi
name="--shapes with a main without the loop says only the first shape ran, exit 2"
if gpu_test "$name"; then
    wait "$planted_noloop_job"
    if grep -q 'tk_next_shape' "$planted_noloop/transpose.cu"; then
        fail "$name" "the planted main still has its loop"
    else
        expect "$name" 2 'only the first shape ran: this program.s main has no do' \
            "$planted_noloop/transpose" --shapes 32x32,64x64 --no-cpu --reps 1 --warmup 0
    fi
fi
name="--shapes --keep-going goes on past a shape that is not exact, saying which, exit 1"
if gpu_test "$name"; then   # the same rounded-down grid
    run_cmd "$dir/transpose" --shapes 32x32,33x65,64x64,65x33 --keep-going --no-cpu --reps 1 --warmup 0
    judge "$name" 1 '^shapes: 32 x 32 exact$' '^shapes: 33 x 65 not exact$' '^shapes: 64 x 64 exact$' \
        '^shapes: 65 x 33 not exact$'
fi

# The steps across GPUs (8 to 10), across every GPU here, with uneven shapes, and their
# timeline. REFUSED: NCCL's refusal of a symmetric window, as the run prints it. ROWS: the
# rows each step times (the table's), one pattern a row: '^ROW .* yes'.
REFUSED='^GPU-fused: skipped: ncclDevCommCreate failed (.*does not support symmetric memory'
declare -A ROWS
for n in $ACROSS_NUMS; do
    ROWS[$n]=$(scripts/lib/steps.sh --field rows "step$n" | tr '\n' ' ')
done
yes_rows() { local r; for r in $1; do echo "^$r .* yes"; done; }   # yes_rows "ROW ...": patterns
for n in $ACROSS_NUMS; do
    [[ " $STEP_NUMS " == *" $n "* ]] || continue
    mapfile -t yes < <(yes_rows "${ROWS[$n]}")
    for shape in 97x161 4097x33 1x1; do
        name="solution step$n is exact at $shape on every rank, every stage"
        gpu_test "$name" || continue
        # shellcheck disable=SC2046
        run_cmd "solution/step$n/transpose" --rows "${shape%x*}" --cols "${shape#*x}" --no-cpu \
            --reps 2 --warmup 1 $(ranks_arg "$n") --timeline "$TK_BUILD/timeline.csv"
        # With one rank NCCL may refuse the fused stage's window (below): the test then says
        # that it judged stages (a) and (b) only.
        if refused_one_rank "$n"; then
            mapfile -t yes_ab < <(yes_rows "${ROWS[$n]/GPU-fused/}")
            judge "${name/every stage/stages (a) and (b): NCCL refused the window of stage (c) for one rank}" 0 \
                "${yes_ab[@]}"
        else
            judge "$name" 0 "${yes[@]}"
        fi
    done
    # Stage (c), one fused kernel a rank through NCCL's device API, on shapes whose splits are
    # uneven and whose windows shift: on one GPU (--ranks 1, the only peer itself), and over
    # 2, 3 and 4 ranks where the machine has the GPUs. With one rank NCCL may refuse the
    # symmetric window (on a lone H100, 2026-11-23: "Communicator does not support symmetric
    # memory"): that is a skip, with NCCL's words; over two ranks or more, a failure.
    fused_ranks="1 2 3 4"; [[ " ${ROWS[$n]} " == *" GPU-fused "* ]] || fused_ranks=""   # step 10
    for ranks in $fused_ranks; do
        name="solution step$n's stage (c) is exact over $ranks rank(s) at 97x161, 1x1, 33x65, 8191x31, 12345x6789"
        gpu_test "$name" || continue
        [ "$(gpu_count)" -ge "$ranks" ] || { skip "$name" "this machine has $(gpu_count) GPUs"; continue; }
        bad=""
        for shape in 97x161 1x1 33x65 8191x31 12345x6789; do
            run_cmd "solution/step$n/transpose" --ranks "$ranks" --rows "${shape%x*}" --cols "${shape#*x}" \
                --no-cpu --reps 2 --warmup 1
            [ "$RC" = 0 ] && grep -Eq '^GPU-fused .* yes' "$LAST_OUT" || { bad=$shape; break; }
        done
        refused=$(grep -m1 "$REFUSED" "$LAST_OUT")
        if [ -z "$bad" ]; then pass "$name"
        elif [ "$ranks" = 1 ] && [ "$RC" = 0 ] && [ -n "$refused" ]; then
            skip "$name" "NCCL refused the symmetric window for one rank here: ${refused#GPU-fused: skipped: }"
        else fail "$name" "at $bad: exit status $RC, or no exact GPU-fused row"; fi
    done
    name="solution step$n writes a timeline: every chunk's pack, exchange and transpose on every rank"
    [[ " ${ROWS[$n]} " == *" GPU-alltoall-pipelined "* ]] || continue   # steps 9 and 10
    if gpu_test "$name"; then
        marks=$(grep -c '^GPU-alltoall-pipelined,' "$TK_BUILD/timeline.csv")
        [ "$(head -n 1 "$TK_BUILD/timeline.csv")" = "row,rows,cols,rank,what,chunk,ms" ] && [ "$marks" -ge 12 ] &&
            pass "$name" || fail "$name" "$marks marks of the pipelined row"
    fi
done

# Launcher mode end to end: the ranks started as separate processes, as srun or mpirun would
# start them (TK_RANK=p TK_RANKS=P, NCCL's id through a file), one a GPU: exact on every rank,
# the CPU+OMP row and the rows printed by rank 0 alone, every rank exits 0, the id file is
# removed. One rank (P = 1) runs on a machine of one GPU.
for n in $ACROSS_NUMS; do
    [[ " $STEP_NUMS " == *" $n "* ]] || continue
    for P in 1 2; do
        name="solution step$n in launcher mode, $P rank(s) started as separate processes (TK_RANK, --id-file): exact, the rows printed by rank 0 alone"
        gpu_test "$name" || continue
        if [ "$(gpu_count)" -lt "$P" ]; then
            skip "$name" "$P ranks need $P GPUs; this machine has $(gpu_count)"
            continue
        fi
        id=$TK_BUILD/launch-$P.id
        rm -f "$id" "$TK_BUILD"/launch-rank*.out
        pids=()
        for ((p = 1; p < P; p++)); do
            env TK_RANK=$p TK_RANKS=$P TK_LOCAL_RANK=$p TK_ID_TIMEOUT=120 timeout 300 \
                "solution/step$n/transpose" --rows 97 --cols 161 --reps 2 --warmup 1 --id-file "$id" \
                >"$TK_BUILD/launch-rank$p.out" 2>&1 &
            pids+=("$!")
        done
        run_cmd env TK_RANK=0 TK_RANKS=$P TK_LOCAL_RANK=0 timeout 300 "solution/step$n/transpose" \
            --rows 97 --cols 161 --reps 2 --warmup 1 --id-file "$id"
        others=ok
        for ((p = 1; p < P; p++)); do
            wait "${pids[p - 1]}"
            rc=$?
            if [ "$rc" != 0 ]; then
                others="rank $p exited $rc ($(tail -n 1 "$TK_BUILD/launch-rank$p.out"))"
            elif grep -Eq '^(row |CPU\+OMP |NCCL all-to-all \(|one GPU \(|GPU-[a-z-]+ )' "$TK_BUILD/launch-rank$p.out"; then
                others="rank $p printed lines of the table"
            fi
        done
        if [ "$others" != ok ]; then
            fail "$name" "$others"
        elif [ -e "$id" ]; then
            fail "$name" "the id file $id is still there"
        else
            mapfile -t yes < <(yes_rows "${ROWS[$n]/GPU-fused/}")   # one rank: maybe refused
            judge "$name" 0 "^launcher mode: rank 0 of $P " '^CPU\+OMP .* yes' "^ranks: $P, " \
                '^NCCL all-to-all .* yes' '^one GPU .* yes' "${yes[@]}"
        fi
    done
done

name="untouched step1 starter reports its unfinished TODOs (exit 5)"
gpu_test "$name" && expect "$name" 5 'TODO\(step1\)' step1/transpose -n 256 --no-cpu
for n in ${STEP_NUMS#1 }; do
    name="untouched step$n starter runs the kernel it starts from, exactly, and says it is unfinished (exit 5)"
    gpu_test "$name" || continue
    # shellcheck disable=SC2046
    run_cmd step$n/transpose --rows 33 --cols 65 --no-cpu --reps 2 --warmup 1 $(ranks_arg "$n")
    if [[ " $ACROSS_NUMS " == *" $n "* ]]; then
        # Its kernel is the one-GPU row; the previous step's stages run, exact; its own stage
        # is the exercise: step 8's stubs write nothing (not run yet), steps 9 and 10 do not
        # time theirs until it is written.
        mapfile -t rows < <(echo "${ROWS[$n]}" | tr ' ' '\n' | grep .)
        own=${rows[${#rows[@]} - 1]}
        mapfile -t yes < <(yes_rows "${rows[*]:0:${#rows[@]}-1}")
        first=""; [ "$n" = "${ACROSS_NUMS%% *}" ] && first="^$own: not run yet"
        if [ -z "$first" ] && grep -q "^$own " "$LAST_OUT"; then
            fail "$name" "it timed its own row, $own, before its TODOs were done"
        else
            judge "$name" 5 '^one GPU .* yes' "${yes[@]}" "$first" "^step$n is unfinished"
        fi
    else
        judge "$name" 5 '^GPU-.* yes' "^step$n is unfinished: the row above is still the kernel the starter began with"
    fi
done

# The library row, cublasSgeam, exact on every shape of the list, in one process.
name="the library row (cublasSgeam) is exact at every shape of scripts/grade/shapes.txt"
gpu_test "$name" && expect "$name" 0 "$(exact_at "${shapes##*,}")" scripts/library/library \
    --shapes "$shapes" --no-cpu --reps 2 --warmup 1
# Past a grid's y: step 7 takes a tall shape whose row blocks pass it (they go in x) and the
# shapes the kit once refused; steps 2 to 6 refuse 4194400 rows, saying why in their terms.
name="solution step7 is exact past a grid's y: 4194400 x 50 (windows), 25913499 x 11 (panel), 5417517 x 71"
gpu_test "$name" && expect "$name" 0 "$(exact_at 5417517x71)" solution/step7/transpose \
    --shapes 4194400x50,25913499x11,5417517x71 --no-cpu --reps 1 --warmup 0
# Step 7's ways (tk_fastest_way, TK_WAY): four block orders of 64 x 64 windows and two
# windows of 128 rows, each exact, forced, at shapes whose column bands leave the last group
# of 8 or of 128 short (10, 79, 131 and 133 bands of 64 columns, 19, 157, 261 and 265 of
# 32), with and without the halo, float2 loads and one float (past 128 bands both: 201 x 8333
# shifted with one float, 200 x 8450 not shifted with float2), and a tall one; the notes say
# the way taken. Unforced, the ways are timed and the one kept is said; a TK_WAY that names
# no way is refused.
# forced_ways WHAT SHAPES AT NAME...: each way in turn forced (TK_WAY=K) over SHAPES in one
# process, exact at the last, the note at AT (RxC) naming way K.
forced_ways() {
    local what=$1 shapes=$2 at=$3 k; shift 3
    local named=("$@")
    for k in "${!named[@]}"; do
        name="solution step7 is exact in way $k (TK_WAY=$k, ${named[$k]}) at $what${shapes//,/, }"
        gpu_test "$name" || continue
        run_cmd env TK_WAY=$k solution/step7/transpose --shapes "$shapes" --no-cpu --reps 1 --warmup 0
        judge "$name" 0 "$(exact_at "${shapes##*,}")" \
            "^note: at ${at%x*} x ${at#*x} the launch took ${named[$k]}, as TK_WAY=$k says \(not timed\)\$"
    done
}
# timed_note AT NAME...: the note of a launch that timed the ways NAME... at AT (RxC), each
# way's time in turn, and kept any one of them.
timed_note() {
    local at=$1 timed any; shift
    timed=$(printf ', %s [0-9.]+ ms' "$@") any=$(IFS='|'; echo "$*")
    echo "^note: at ${at%x*} x ${at#*x} the launch took the fastest of its ways \\(the median of 5 runs each\\):${timed#,}: ($any)\$"
}
ways=120x577,120x578,300x600,3001x5001,201x8333,200x8450,1001x65
ways_named=("one band" "8 bands" "all bands" "128 rows in 8 bands" "32 x 128 in 8 bands" "128 bands")
forced_ways "" "$ways" 3001x5001 "${ways_named[@]}"
name="solution step7 times its ways at a shape's first launch and says which it kept"
gpu_test "$name" && expect "$name" 0 "$(timed_note 3001x5001 "${ways_named[@]}")" \
    solution/step7/transpose --rows 3001 --cols 5001 --no-cpu --reps 1 --warmup 0
# At a tall panel shape of 4 to 48 columns the tall panel is a seventh way, timed beside the
# six: each of the seven exact, forced, at tall shapes of 4 to 48 columns, rows a multiple of
# 8 or not (the windows' halo), cols even or odd (float2 loads or one float); unforced, the
# note gives all seven. Below 4 columns the panel is taken untimed: no note.
tall_ways=20001x4,9001x7,65536x16,100003x40,4099x48,100002x41
tall_named=("${ways_named[@]}" "the tall panel")
forced_ways "tall panel shapes " "$tall_ways" 9001x7 "${tall_named[@]}"
name="solution step7 times the tall panel beside the windows at 100003 x 40, and takes it untimed at 100003 x 3"
if gpu_test "$name"; then
    run_cmd solution/step7/transpose --shapes 100003x40,100003x3 --no-cpu --reps 1 --warmup 0
    if grep -q "^note: at 100003 x 3 " "$LAST_OUT"; then
        fail "$name" "a note at 100003 x 3, where the panel is not timed: $(grep "^note: at 100003 x 3 " "$LAST_OUT")"
    else
        judge "$name" 0 "$(exact_at 100003x3)" "$(timed_note 100003x40 "${tall_named[@]}")"
    fi
fi
# Where cols is odd and rows a multiple of 8, the pairs (pairs.cuh) one band, 8 bands and all
# bands at a time are three more ways: each of the nine exact, forced, at shapes whose every
# other row starts on an odd float, with a last column band of 1 or 63 columns or whole
# rows of windows (128 x 8447: 132 bands, past 128), and ten at tall panel shapes of 7 and
# 47 columns; unforced, the note gives all nine.
pairs_ways=120x577,128x8447,6000x65,1000x63
pairs_named=("${ways_named[@]}" "pairs in one band" "pairs in 8 bands" "pairs in all bands")
forced_ways "shapes with cols odd, rows a multiple of 8: " "$pairs_ways" 1000x63 "${pairs_named[@]}"
tall_pairs_named=("${tall_named[@]}" "pairs in one band" "pairs in 8 bands" "pairs in all bands")
forced_ways "tall panel shapes with cols odd, rows a multiple of 8: " 4096x47,9000x7 9000x7 \
    "${tall_pairs_named[@]}"
name="solution step7 times the pairs beside the windows at 1000 x 63 (cols odd, rows a multiple of 8)"
gpu_test "$name" && expect "$name" 0 "$(timed_note 1000x63 "${pairs_named[@]}")" \
    solution/step7/transpose --rows 1000 --cols 63 --no-cpu --reps 1 --warmup 0
name="solution step7 refuses a TK_WAY that names no way, saying which it takes (exit 2)"
gpu_test "$name" && expect "$name" 2 "TK_WAY: 6 is too large \(at most 5\): it names one of this launch's 6 ways, 0 to 5" \
    env TK_WAY=6 solution/step7/transpose --rows 300 --cols 600 --no-cpu --reps 1 --warmup 0
name="solution step7 refuses TK_WAY=7 at a tall panel shape, whose launch has seven ways (exit 2)"
gpu_test "$name" && expect "$name" 2 "TK_WAY: 7 is too large \(at most 6\): it names one of this launch's 7 ways, 0 to 6" \
    env TK_WAY=7 solution/step7/transpose --rows 9001 --cols 7 --no-cpu --reps 1 --warmup 0
name="solution step7 refuses TK_WAY=9 where cols is odd and rows a multiple of 8, whose launch has nine ways (exit 2)"
gpu_test "$name" && expect "$name" 2 "TK_WAY: 9 is too large \(at most 8\): it names one of this launch's 9 ways, 0 to 8" \
    env TK_WAY=9 solution/step7/transpose --rows 1000 --cols 63 --no-cpu --reps 1 --warmup 0
# Past an int a side: step 7's panels and the library row (cublasSgeam_64) take a side of
# 2^31 and more, where the GPU and the host hold the two matrices (8 to 24 GiB each); a machine
# that cannot hold one skips it, saying so. One shape a run: a --shapes list stops at 2^31.
for run in solution/step7/transpose:GPU-any-shape:2147483649x1 \
           solution/step7/transpose:GPU-any-shape:2x2147483651 \
           solution/step7/transpose:GPU-any-shape:2147483651x3 \
           scripts/library/library:cublasSgeam:1x2147483649 \
           scripts/library/library:cublasSgeam:2147483651x3; do
    IFS=: read -r prog row shape <<<"$run"
    name="$prog is exact past an int a side: ${shape/x/ x }"
    gpu_test "$name" || continue
    run_cmd "$prog" --rows "${shape%x*}" --cols "${shape#*x}" --no-cpu --reps 2 --warmup 1
    memory_skip "$name" && continue
    judge "$name" 0 "^$row .* yes"
done
# Steps 8 and 9 across two GPUs past an int a side (step 10's fused kernel holds an int):
# 2147483649 x 2 ran exact on two H100s by hand (step 8; results/logs/h100x2-past-an-int/).
for n in 8 9; do
    name="solution step$n is exact past an int a side across 2 GPUs: 2147483649 x 2"
    [[ " $STEP_NUMS " == *" $n "* ]] || { skip "$name" "step $n is not built here (no NCCL)"; continue; }
    across_test "$name" "$n" || continue
    run_cmd "solution/step$n/transpose" --ranks 2 --rows 2147483649 --cols 2 --no-cpu --reps 1 --warmup 0
    memory_skip "$name" && continue
    judge "$name" 0 "^GPU-[a-z-]+ .* yes"
done
for n in 2 3 4 5 6; do
    name="solution step$n refuses 4194400 rows: a grid's y, in numbers, and step 7 named"
    gpu_test "$name" && expect "$name" 4 "^grid's y: this shape has 4194400 rows; .* Step 7 takes every shape that fits" \
        "solution/step$n/transpose" --rows 4194400 --cols 50 --no-cpu --reps 1 --warmup 0
done
# The plain-tile row (scripts/baseline), the same, and past a grid's y of 64-row tiles.
name="the plain-tile row is exact at every shape of scripts/grade/shapes.txt and at 4194400 x 50"
gpu_test "$name" && expect "$name" 0 "$(exact_at "${shapes##*,}")" scripts/baseline/plain-tile \
    --shapes "$shapes,4194400x50" --no-cpu --reps 2 --warmup 1

# initcheck: no read of uninitialised device memory, the harness's L2 flush included, at the
# shapes the grader's sanitizers run at (the table's san_at), all of a step's in one process.
for n in $(scripts/lib/steps.sh --one-gpu); do   # across GPUs: a process a rank
    san=$(scripts/lib/steps.sh --field san_at "step$n" | paste -sd, -)
    name="compute-sanitizer --tool initcheck is clean on solution step$n at ${san//,/, }"
    sanitizer_test "$name" || continue
    run_cmd timeout 300 compute-sanitizer --tool initcheck --error-exitcode 99 \
        "solution/step$n/transpose" --shapes "$san" --no-cpu --reps 1 --warmup 0
    judge "$name" 0 'ERROR SUMMARY: 0 errors' "$(exact_at "${san##*,}")"
done

# The lever benchmark behind step 6: every variant exact on shapes that leave edge tiles
# (1000 x 1028 keeps the bulk-tensor-copy path, 333 x 517 takes every fallback), and the
# bulk-tensor-copy kernels clean under memcheck and racecheck, which must catch a barrier
# planted out of them.
for shape in 1000x1028 333x517; do
    name="scripts/bench: every variant is exact at $shape"
    gpu_test "$name" && expect "$name" 0 '^tilecopy-v4 .* yes' scripts/bench/levers \
        --rows "${shape%x*}" --cols "${shape#*x}" --no-cpu --reps 1 --warmup 1
done
# A variant whose 2D grid cannot cover a tall shape (tilecopy-v4: 65538 blocks in y here) is
# skipped in the runtime's words, and the others go on: copy-v4 still runs and is exact.
name="scripts/bench: a variant whose grid cannot cover the shape is skipped, the others run"
if gpu_test "$name"; then
    run_cmd env LEVERS=tilecopy-v4,copy-v4 scripts/bench/levers --rows 4194400 --cols 2 --no-cpu \
        --reps 1 --warmup 1
    judge "$name" 0 '^tilecopy-v4 +skipped: its launch failed at this shape \(invalid (configuration )?argument\)' \
        '^copy-v4 .* yes'
fi
# no_tma NAME: true, after recording NAME as skipped, when the last levers run skipped its
# bulk-tensor-copy variants on a GPU without them.
no_tma() {
    grep -q 'skipped: needs compute capability' "$LAST_OUT" || return 1
    skip "$1" "this GPU has no bulk tensor copy (compute capability below 9.0)"
}
for tool in memcheck racecheck; do
    name="compute-sanitizer --tool $tool is clean on the levers' bulk-tensor-copy kernels"
    sanitizer_test "$name" || continue
    run_cmd env LEVERS=tma compute-sanitizer --tool "$tool" --error-exitcode 99 \
        scripts/bench/levers --rows 260 --cols 324 --no-cpu --reps 1 --warmup 0
    no_tma "$name" || judge "$name" 0 '(ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)' \
        '^tma-t1-s1 .* yes'
done

name="racecheck catches a planted race in a bulk-tensor-copy kernel (no barrier before the in-place write)"
if sanitizer_test "$name"; then
    wait "$planted_tma_job"
    run_cmd env LEVERS=tma-t1-s1 compute-sanitizer --tool racecheck --error-exitcode 99 \
        "$planted_tma/levers" --rows 260 --cols 324 --no-cpu --reps 1 --warmup 0
    no_tma "$name" || judge "$name" 99 'RACECHECK SUMMARY: [1-9]'
fi

name="grade fails on the untouched step1 starter: not run yet"
gpu_test "$name" && expect "$name" 1 'FAIL .*not run yet' scripts/grade/grade.sh step1

name="results.sh measures every step on the GPU into a CSV"
if gpu_test "$name"; then
    run_cmd scripts/results/results.sh -n 512 --out "$TK_BUILD/gpu-run.csv"
    judge "$name" 0 '^GPU-vector-tile ' '^GPU-any-shape ' '^cublasSgeam ' '^copy ceiling '
fi
name="profile.sh captures a student's folder and writes a complete panel"
if gpu_test "$name"; then
    if command -v ncu >/dev/null; then
        rm -rf "$TK_BUILD/kit/prof" && cp -r solution/step4 "$TK_BUILD/kit/prof"
        expect "$name" 0 'wrote .*profile.txt' scripts/profile/profile.sh -n 512 "$TK_BUILD/kit/prof"
    else
        skip "$name" "ncu is not on the PATH"
    fi
fi
