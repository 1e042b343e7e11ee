# On a GPU: every solution is exact on the shape list and at the default size, the untouched
# starters run cleanly, and compute-sanitizer finds no bad access or race. Without a GPU
# each is reported as skipped.

SHAPES="1x1 1x4097 4097x1 33x65 1000x1500 8191x31"

for n in 1 2 3 4 5; do
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
for n in 2 3 4 5; do
    name="untouched step$n starter runs the kernel it starts from, exactly"
    gpu_test "$name" && expect "$name" 0 '^GPU-.* yes' step$n/transpose --rows 33 --cols 65 \
        --no-cpu --reps 2 --warmup 1
done

for tool in memcheck racecheck; do
    for n in 1 2 3 4 5; do
        name="compute-sanitizer --tool $tool is clean on solution step$n"
        gpu_test "$name" || continue
        if ! command -v compute-sanitizer >/dev/null; then
            skip "$name" "compute-sanitizer is not on the PATH"
            continue
        fi
        # Odd sizes exercise the edge tiles; several blocks in each direction.
        expect "$name" 0 'ERROR SUMMARY: 0 errors' compute-sanitizer --tool "$tool" \
            --error-exitcode 99 solution/step$n/transpose --rows 97 --cols 161 --no-cpu \
            --reps 1 --warmup 0
    done
done
