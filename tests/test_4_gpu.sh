# On a GPU: every solution is exact on the shape list and at the default size, the untouched
# starters run cleanly, and compute-sanitizer finds no bad access or race. Without a GPU
# each is reported as skipped.

SHAPES="1x1 1x4097 4097x1 33x65 1000x1500 8191x31"

# sanitizer_test NAME: true when a GPU and compute-sanitizer are both here; else a skip.
sanitizer_test() {
    gpu_test "$1" || return 1
    command -v compute-sanitizer >/dev/null && return 0
    skip "$1" "compute-sanitizer is not on the PATH"
    return 1
}

for n in $STEP_NUMS; do
    bin=solution/step$n/transpose
    for shape in $SHAPES; do
        name="solution step$n is exact at $shape"
        gpu_test "$name" || continue
        expect "$name" 0 '^GPU-.* yes' \
            "$bin" --rows "${shape%x*}" --cols "${shape#*x}" --no-cpu --reps 2 --warmup 1
    done
    name="solution step$n is exact at the default size (8192 x 8192)"
    gpu_test "$name" && expect "$name" 0 '^GPU-.* yes' "$bin" --no-cpu --reps 3 --warmup 1
done

name="untouched step1 starter reports its unfinished TODOs (exit 5)"
gpu_test "$name" && expect "$name" 5 'TODO\(step1\)' step1/transpose -n 256 --no-cpu
for n in ${STEP_NUMS#1 }; do
    name="untouched step$n starter runs the kernel it starts from, exactly"
    gpu_test "$name" && expect "$name" 0 '^GPU-.* yes' step$n/transpose --rows 33 --cols 65 \
        --no-cpu --reps 2 --warmup 1
done

for tool in memcheck racecheck; do
    for n in $STEP_NUMS; do
        name="compute-sanitizer --tool $tool is clean on solution step$n"
        sanitizer_test "$name" || continue
        # Odd sizes exercise the edge tiles; several blocks in each direction.
        expect "$name" 0 '(ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)' \
            compute-sanitizer --tool "$tool" \
            --error-exitcode 99 solution/step$n/transpose --rows 97 --cols 161 --no-cpu \
            --reps 1 --warmup 0
    done
done

# The lever benchmark behind step 6: every variant exact on shapes that leave edge tiles
# (1000 x 1028 keeps the bulk-tensor-copy path, 333 x 517 takes every fallback), and the
# bulk-tensor-copy kernels clean under memcheck and racecheck, which must catch a barrier
# planted out of them.
for shape in 1000x1028 333x517; do
    name="scripts/levers: every variant is exact at $shape"
    gpu_test "$name" && expect "$name" 0 '^tilecopy-v4 .* yes' scripts/levers/levers \
        --rows "${shape%x*}" --cols "${shape#*x}" --no-cpu --reps 1 --warmup 1
done
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
        scripts/levers/levers --rows 260 --cols 324 --no-cpu --reps 1 --warmup 0
    no_tma "$name" || judge "$name" 0 '(ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)' \
        '^tma-t1-s1 .* yes'
done

name="racecheck catches a planted race in a bulk-tensor-copy kernel (no barrier before the in-place write)"
if sanitizer_test "$name"; then
    dir=$TK_BUILD/kit/planted-tma
    rm -rf "$dir" && cp -r scripts/levers "$dir"
    sed -i 's|__syncthreads();   /\* the whole tile is in registers|/* barrier removed */ /*|' "$dir/tma.cuh"
    make -s -C "$dir" COMMON="$TK_ROOT/common" >/dev/null 2>&1
    run_cmd env LEVERS=tma-t1-s1 compute-sanitizer --tool racecheck --error-exitcode 99 \
        "$dir/levers" --rows 260 --cols 324 --no-cpu --reps 1 --warmup 0
    no_tma "$name" || judge "$name" 99 'RACECHECK SUMMARY: [1-9]'
fi

# The checks above can fail: plant a race (no barrier) and an out-of-bounds store (no guard)
# in copies of solution step 4, and the sanitizer and the checker must catch them.
planted() {   # planted NAME SED_EXPRESSION: a copy of solution/step4 with one line changed
    local dir=$TK_BUILD/kit/planted-$1
    rm -rf "$dir" && cp -r solution/step4 "$dir" && sed -i "$2" "$dir/transpose.cu"
    make -s -C "$dir" COMMON="$TK_ROOT/common" >/dev/null 2>&1 && echo "$dir/transpose"
}
name="racecheck catches a planted race (step 4 without __syncthreads)"
if sanitizer_test "$name"; then
    bin=$(planted race 's/__syncthreads();/\/\/ barrier removed/')
    expect "$name" 99 'RACECHECK SUMMARY: [1-9]' compute-sanitizer --tool racecheck \
        --error-exitcode 99 "$bin" --rows 97 --cols 161 --no-cpu --reps 1 --warmup 0
fi
name="memcheck catches a planted out-of-bounds store (step 4 without its store guard)"
if sanitizer_test "$name"; then
    bin=$(planted oob 's/if (orow < cols \&\& oc < rows)/if (1)/')
    expect "$name" 99 'Invalid __global__ write' compute-sanitizer --tool memcheck \
        --error-exitcode 99 "$bin" --rows 97 --cols 161 --no-cpu --reps 1 --warmup 0
fi
name="the checker catches a planted off-by-one (step 4 writing oc + 1)"
if gpu_test "$name"; then
    bin=$(planted offbyone 's/out\[(size_t)orow \* rows + oc\]/out[(size_t)orow * rows + (oc + 1) % rows]/')
    expect "$name" 1 'WRONG: .* elements differ' "$bin" --rows 97 --cols 161 --no-cpu --reps 1
fi

# The grader (make check) on a GPU: every solution passes and is timed beside itself, every
# untouched starter fails with the reason, a planted off-by-one fails with its first wrong
# element.
for n in $STEP_NUMS; do
    name="grade passes on a copy of solution step$n"
    gpu_test "$name" || continue
    rm -rf "$TK_BUILD/grade-sol$n" && cp -r "solution/step$n" "$TK_BUILD/grade-sol$n"
    run_cmd scripts/grade.sh "$TK_BUILD/grade-sol$n"
    judge "$name" 0 'all checks passed' \
        '^your kernel: [0-9.]+ GB/s, solution: [0-9.]+ GB/s, copy ceiling: [0-9.]+ GB/s'
done
name="grade fails on the untouched step1 starter: not run yet"
gpu_test "$name" && expect "$name" 1 'FAIL .*not run yet' scripts/grade.sh step1
for n in ${STEP_NUMS#1 }; do
    name="grade fails on the untouched step$n starter: still the previous kernel"
    gpu_test "$name" && expect "$name" 1 "FAIL the row is GPU-.*, step$n's is" scripts/grade.sh "step$n"
done
name="grade fails on a planted off-by-one kernel, naming the first wrong element"
if gpu_test "$name"; then
    planted offbyone 's/out\[(size_t)orow \* rows + oc\]/out[(size_t)orow * rows + (oc + 1) % rows]/' >/dev/null
    expect "$name" 1 'first at out\[' scripts/grade.sh "$TK_BUILD/kit/planted-offbyone"
fi

name="results.sh measures every step on the GPU into a CSV"
if gpu_test "$name"; then
    expect "$name" 0 '^GPU-vector-tile ' scripts/results.sh -n 512 --out "$TK_BUILD/gpu-run.csv"
fi
name="profile.sh captures a student's folder and writes a complete panel"
if gpu_test "$name"; then
    if command -v ncu >/dev/null; then
        rm -rf "$TK_BUILD/kit/prof" && cp -r solution/step4 "$TK_BUILD/kit/prof"
        expect "$name" 0 'wrote .*profile.txt' scripts/profile.sh -n 512 "$TK_BUILD/kit/prof"
    else
        skip "$name" "ncu is not on the PATH"
    fi
fi
