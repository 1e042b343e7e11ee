#!/usr/bin/env bash
# The grader behind `make check`: judges a student's step folder (or a copy of one) by what
# its program does, never by its source text.
#
#   scripts/grade.sh DIR        (make check in DIR runs this on DIR)
#
# 1. builds DIR/transpose.cu against this kit and asks the program which step it is
#    (./transpose --describe);
# 2. runs it on every shape of scripts/shapes.txt: each output must be exact;
# 3. runs compute-sanitizer's memcheck, racecheck and synccheck on it at 97 x 161;
# 4. times it beside the same step's solution in this run, at the default size: it must reach
#    the step's share of the solution's GB/s (the table below);
# 5. where Nsight Compute may read the GPU's counters, prints the one counter the step is
#    about, beside the solution's.
# Each failure is explained in the step's terms. The last line says what was graded.
# Exit status: 0 passed; 1 failed; 2 bad arguments; 3 no usable GPU (nothing was graded).
set -u
. "$(dirname "$0")/lib.sh"
KIT=$(cd "$(dirname "$0")/.." && pwd)
SAN_SHAPE=(--rows 97 --cols 161)   # odd: edge tiles in both directions, rows off 8 bytes

# What each step is about. share: the least % of the solution's GB/s that passes (see
# README.md, "The grader"); counter: the Nsight Compute metric(s), a numerator and an optional
# denominator; missing: what a kernel that is exact but too slow has not done yet.
step_table() {
    case $1 in
    step1) share=90 label="achieved occupancy, %"
           counter="sm__warps_active.avg.pct_of_peak_sustained_active"
           missing="each thread should copy one whole output row, walking down a column of the input" ;;
    step2) share=90 label="global store sectors per request"
           counter="l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum/l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"
           missing="it is not yet one thread per element in TILE x TILE blocks whose x runs along a row of the input" ;;
    step3) share=90 label="global store sectors per request"
           counter="l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum/l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"
           missing="the stores are still strided: the block should stage its tile in shared memory and write whole output rows from it" ;;
    step4) share=90 label="shared-memory load bank conflicts"
           counter="l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
           missing="the tile is still read column-wise with bank conflicts" ;;
    step5) share=90 label="DRAM throughput, % of peak"
           counter="gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"
           missing="each thread should move ELEMS elements with a TILE x BLOCKY block, and the grid should count TILE x TILE tiles, not threads" ;;
    step6) share=98 label="global load sectors per request (8 for float2)"
           counter="l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum/l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
           missing="the 64 x 64 tile is not yet moved as float2 through a conflict-free swizzled tile" ;;
    *) return 1 ;;
    esac
}

case ${1:-} in -h|--help) usage; exit 0 ;; -*) refuse "unknown option '$1'" ;; esac
[ $# = 1 ] || refuse "it takes one folder"
[ -f "$1/transpose.cu" ] || refuse "no $1/transpose.cu"
dir=$(cd "$1" && pwd)
bin=$dir/transpose
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=()

# closing VERDICT: the last line, then exit.
closing() {
    if [ ${#failed[@]} = 0 ]; then
        echo "graded $step: passed"; exit 0
    fi
    echo "graded $step: failed (${failed[*]})"; exit 1
}

step=${dir##*/}
if ! make -s -C "$dir" COMMON="$KIT/common" >"$tmp/build" 2>&1; then
    echo "FAIL build:"; cat "$tmp/build"; failed+=(build); closing
fi
echo "PASS build"

# described BIN: "STEP ROW TODO", from the one line BIN --describe prints of itself.
described() {
    "$1" --describe 2>/dev/null | sed -n 's/^step=\([^ ]*\) row=\([^ ]*\) todo=\([^ ]*\)$/\1 \2 \3/p'
}

# The program says which step it is, and its row; the kit must have that step's solution.
read -r step row todo < <(described "$bin")
if [ -z "$step" ] || ! step_table "$step" || [ ! -d "$KIT/solution/$step" ]; then
    echo "grade: $bin --describe did not name a step of the kit ('$("$bin" --describe 2>&1)')" >&2
    exit 2
fi
hint="see Hint 1 in $step/README.md"
echo "grade: $dir is $step"
[ "$todo" = open ] &&
    echo "note: it still calls tk_unfinished(), so ./transpose reports its TODO($step) work as open"

if why=$("$KIT/scripts/no-gpu.sh" "$bin"); then
    echo "nothing was graded: no usable GPU here: $why. It builds; run make check on a GPU node."
    exit 3
fi

# 2. Shapes. What went wrong is remembered, to be explained once the sanitizers have run.
sq_fail=0 rect_wrong=0 unwritten=0 none_written=1 misaligned=0 shapes_failed=0
while read -r shape; do
    rows=${shape%x*} cols=${shape#*x}
    "$bin" --rows "$rows" --cols "$cols" --no-cpu --reps 1 --warmup 0 >"$tmp/run" 2>&1 </dev/null
    rc=$?
    [ "$rc" = 0 ] && { echo "PASS $rows x $cols"; continue; }
    shapes_failed=1
    [ "$rows" = "$cols" ] && sq_fail=1
    grep -q 'no element was written' "$tmp/run" || none_written=0
    case $rc in
        1) echo "FAIL $rows x $cols: $(grep -m1 'WRONG' "$tmp/run" | sed 's/^[^:]*: WRONG: //')"
           grep -m1 'first at' "$tmp/run"
           grep -q 'the poison: never written' "$tmp/run" && unwritten=1
           [ "$rows" != "$cols" ] && rect_wrong=1 ;;
        4) echo "FAIL $rows x $cols: a CUDA error: $(grep -m1 'failed: ' "$tmp/run" | sed 's/^.*failed: //')"
           if grep -q 'cudaErrorMisalignedAddress' "$tmp/run"; then
               misaligned=1
               echo "  a vector access used an address that is not a multiple of its size: a float2"
               echo "  may only be read or written where the row starts on 8 bytes (even rows and cols)"
           elif grep -q 'cudaErrorIllegalAddress' "$tmp/run"; then
               echo "  a thread read or wrote outside its memory: a matrix, or the shared tile"
           elif grep -Eq 'cudaErrorInvalid(Value|Configuration)' "$tmp/run"; then
               echo "  the launch was refused: a grid or block dimension is 0 or too large. Is the number of blocks rounded up, so that it is never 0?"
           fi ;;
        5) echo "FAIL $rows x $cols: not run yet: $(grep -m1 'not run yet' "$tmp/run" | sed 's/^[^:]*: not run yet: //')" ;;
        *) echo "FAIL $rows x $cols: exit status $rc"; tail -n 3 "$tmp/run" ;;
    esac
done < <(grep -v '^#' "$KIT/scripts/shapes.txt")
[ "$shapes_failed" = 1 ] && failed+=(shapes)

# 3. compute-sanitizer, each tool at a small odd shape; a finding is put in the step's terms.
race=0
if command -v compute-sanitizer >/dev/null; then
    for tool in memcheck racecheck synccheck; do
        timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 99 "$bin" "${SAN_SHAPE[@]}" \
            --no-cpu --reps 1 --warmup 0 >"$tmp/san" 2>&1 </dev/null
        rc=$?
        if grep -Eq '(ERROR SUMMARY|RACECHECK SUMMARY): 0 (errors|hazards)' "$tmp/san" && [ "$rc" != 99 ]; then
            echo "PASS compute-sanitizer --tool $tool"; continue
        fi
        failed+=("$tool")
        echo "FAIL compute-sanitizer --tool $tool at 97 x 161:"
        grep -v 'COMPUTE-SANITIZER' "$tmp/san" | grep -E '^========= [A-Z]' | awk '!seen[$0]++' | head -n 2 |
            sed 's/^========= /  /'
        if [ "$rc" = 124 ]; then echo "  it did not finish in 5 minutes"
        elif grep -q 'Program hit' "$tmp/san"; then
            echo "  a CUDA call failed under the sanitizer too: see the shapes above"
        elif grep -q 'misaligned' "$tmp/san"; then
            echo "  a float2 access at an address that is not a multiple of 8: the vector path must only run where rows of in and out start on 8 bytes (even rows and cols) and the whole tile is inside the matrix"
        elif grep -q 'Invalid __global__ write' "$tmp/san"; then
            echo "  a thread writes outside the output (cols x rows): is every store guarded by the output's bounds?"
        elif grep -q 'Invalid __global__ read' "$tmp/san"; then
            echo "  a thread reads outside the input (rows x cols): is every load guarded by the input's bounds?"
        elif grep -q 'Invalid __shared__' "$tmp/san"; then
            echo "  an index past the end of the shared tile: check the tile's dimensions against the indices that use them"
        elif [ "$tool" = racecheck ]; then
            race=1
            echo "  a race on the tile: is there a barrier between loading the tile and reading it back, reached by every thread of the block?"
        elif [ "$tool" = synccheck ]; then
            race=1
            echo "  a barrier that not every thread of the block reaches: is __syncthreads() inside a branch, such as a bounds guard?"
        fi
    done
else
    echo "note: compute-sanitizer is not on the PATH: no memcheck, racecheck or synccheck"
fi

# What the wrong shapes suggest, once: a race explains any pattern, so nothing is guessed then.
if [ "$shapes_failed" = 1 ] && [ "$race" = 0 ]; then
    if [ "$none_written" = 1 ]; then
        echo "  no shape got a single element written: is the kernel launched, and is its result copied back into run.out?"
    elif [ "$unwritten" = 1 ]; then
        echo "  some elements are never written: does the grid cover the whole matrix (rounded up), and does every thread cover all of its elements?"
    elif [ "$sq_fail" = 0 ] && [ "$rect_wrong" = 1 ] && [ "$misaligned" = 0 ]; then
        echo "  the squares pass and some rectangles come out wrong: rows and cols are swapped somewhere (an index, a guard or the grid)"
    fi
fi

# 4 and 5 judge speed, which means something only for an exact, clean kernel.
if [ ${#failed[@]} -gt 0 ]; then
    echo "speed not measured: the checks above must pass first"
    closing
fi
sol=$KIT/solution/$step
make -s -C "$sol" >/dev/null 2>&1 || { echo "grade: cannot build $sol" >&2; exit 4; }
gbs() {   # gbs CSV ROW: that row's GB/s in a run's CSV
    awk -v cols=gbs -v row="$2" -v first=1 -f "$KIT/scripts/csv.awk" -f "$KIT/scripts/csv-select.awk" "$1"
}
"$sol/transpose" --csv --no-cpu >"$tmp/ref.csv" 2>/dev/null
"$bin" --csv --no-cpu >"$tmp/mine.csv" 2>/dev/null
read -r _ sol_row _ < <(described "$sol/transpose")
mine=$(gbs "$tmp/mine.csv" "$row") ref=$(gbs "$tmp/ref.csv" "$sol_row")
if [ -z "$mine" ] || [ -z "$ref" ]; then
    echo "FAIL speed: no GB/s at the default size (yours: '${mine:-none}', the solution's: '${ref:-none}')"
    failed+=(speed); closing
fi
pct=$(awk -v a="$mine" -v b="$ref" 'BEGIN { printf "%.0f", 100 * a / b }')

# The step's counter, yours and the solution's, where ncu may read them.
counter_line=""
if command -v ncu >/dev/null; then
    count() {   # count BIN: the counter (numerator / denominator) of the step's first kernel
        local m=${counter//\// } raw=$tmp/ncu
        ncu --clock-control none --metrics "${m// /,}" --launch-count 1 --csv --page raw \
            --print-units base "$1" --no-cpu --no-flush --reps 1 --warmup 0 >"$raw" 2>&1
        grep -q ERR_NVGPUCTRPERM "$raw" && return 3
        awk -v spec="$counter" -f "$KIT/scripts/ncu-raw.awk" -f "$KIT/scripts/ncu-counter.awk" "$raw"
    }
    c_mine=$(count "$bin"); rc=$?
    if [ "$rc" = 3 ]; then
        echo "note: counters not permitted here (ERR_NVGPUCTRPERM: an administrator must allow them); graded by speed alone"
    elif [ "$rc" = 0 ] && c_ref=$(count "$sol/transpose"); then
        counter_line="$label: yours $c_mine, the solution's $c_ref"
        echo "counter: $counter_line (ncu, one launch at the default size)"
    else
        echo "note: ncu could not read $label here; graded by speed alone"
    fi
else
    echo "note: ncu (Nsight Compute) is not on the PATH: no counters; graded by speed alone"
fi

size=$(awk -v cols=rows,cols -v first=1 -f "$KIT/scripts/csv.awk" -f "$KIT/scripts/csv-select.awk" "$tmp/ref.csv" | tr , x)
if [ "$pct" -ge "$share" ]; then
    echo "PASS speed: your kernel runs at $pct% of the solution ($mine against $ref GB/s, $size; $share% passes)"
else
    echo "FAIL speed: your kernel runs at $pct% of the solution ($mine against $ref GB/s, $size; $share% passes):"
    echo "  $missing${counter_line:+ ($counter_line)}; $hint"
    failed+=(speed)
fi
closing
