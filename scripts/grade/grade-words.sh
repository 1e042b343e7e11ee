# What the grader (scripts/grade/grade.sh) says, step by step: what each step is about, and what a
# failed CUDA call or a pattern of wrong values means in the step's terms. Sourced, not run.
# Every explanation rests on evidence the program printed: the call that failed, or the
# "pattern:" lines with which the harness names where wrong values came from (common/explain.c,
# common/ranks/explain.c; every name once in common/patterns.h).
# shellcheck disable=SC2034  # the variables step_words sets are the grader's

# step_words STEP: the words for the step, or fails for a step it has none for. Its numbers
# (share, counter, rule, shapes) are the table's: scripts/lib/steps.txt.
#   label    what the step's counter counts; empty for a step without one
#   missing  what a kernel that is exact but too slow has not done yet
step_words() {
    label=""
    case $1 in
    step1) label="achieved occupancy, %"
           missing="each thread should copy one whole output row, walking down a column of the input" ;;
    step2) label="global store sectors per request"
           missing="it is not yet one thread per element in TILE x TILE blocks whose x runs along a row of the input" ;;
    step3) label="global store sectors per request"
           missing="the stores are still strided: the block should stage its tile in shared memory and write whole output rows from it" ;;
    step4) label="shared-memory load bank conflicts"
           missing="the tile is still read column-wise with bank conflicts" ;;
    step5) label="DRAM throughput, % of peak"
           missing="each thread should move ELEMS elements with a TILE x BLOCKY block, and the grid should count TILE x TILE tiles, not threads" ;;
    step6) label="global load sectors per request (8 for float2)"
           missing="the 64 x 64 tile is not yet moved as float2 through a conflict-free swizzled tile" ;;
    step7) label="global store efficiency, % of each sector's bytes used"
           missing="where rows is not a multiple of 8, each output row's window should start on its sector boundary, so that every store fills whole sectors" ;;
    step8) missing="stage (a) does not move its bytes as the solution's does yet: each block packed with one 2D copy (cudaMemcpy2DAsync), every block sent and received in one NCCL group, and the received rows x w matrix transposed by one launch of step 7's kernel" ;;
    step9) missing="stage (b) does not overlap its chunks as the solution's does yet: each chunk's exchange on a stream of its own, of the highest priority, while s packs the next chunk and transposes the last, ordered by events alone (no wait for the whole device or stream)" ;;
    step10) missing="stage (c) does not move its bytes as the solution's does yet: each window of TR floats should go straight to the rank that holds its output row, a float2 a thread on whole sectors (shifted by its place in that rank's window), from rk->ctas blocks that each loop over the tiles a row of tiles at a time (tile b in column b % nx), so that the blocks running at once store into every rank's window, not one rank's after another" ;;
    *) return 1 ;;
    esac
}

# explain_call LOG: the harness's line for the CUDA call that failed ("FILE:LINE: CALL failed:
# REASON (cudaErrorX)"), and what that failure of that call means.
explain_call() {
    local line call fn name kind
    line=$(grep -m1 -E ' failed: .*\(cuda[A-Za-z]+\)$' "$1")
    [ -n "$line" ] || { echo "  the program names no failed CUDA call; its last lines:"; tail -n 3 "$1" | sed 's/^/  | /'; return; }
    echo "  the call that failed: $line"
    call=$(echo "$line" | sed -E 's/^[^:]*:[0-9]+: (.*) failed: .*$/\1/')
    fn=${call%%(*}
    name=$(echo "$line" | sed -E 's/.*\((cuda[A-Za-z]+)\)$/\1/')
    case $fn:$name in
    cudaMemcpy*:cudaErrorInvalidValue)
        kind=$(echo "$call" | grep -oE 'cudaMemcpy(HostToDevice|DeviceToHost|DeviceToDevice|HostToHost|Default)' | tail -n 1)
        case $kind in
        cudaMemcpyHostToDevice) kind="host to device: the destination (first argument) must be device memory and the source (second) host memory" ;;
        cudaMemcpyDeviceToHost) kind="device to host: the destination (first argument) must be host memory and the source (second) device memory" ;;
        cudaMemcpyDeviceToDevice) kind="device to device: both pointers must be device memory" ;;
        *) kind="${kind:-not named}" ;;
        esac
        echo "  a copy refused before it moved anything: its direction says $kind."
        echo "  In this program d_in and d_out come from cudaMalloc (device); run.in and run.out are host memory." ;;
    cudaGetLastError:cudaErrorInvalidConfiguration|cudaGetLastError:cudaErrorInvalidValue)
        echo "  the launch just before it was refused: a grid or block dimension is 0 or too large"
        if grep -q "^grid's y: " "$1"; then   # the harness's numbers: the shape's rows against a grid's y
            grep -m1 "^grid's y: " "$1" | sed 's/^/  /'
        else
            echo "  (at most 1024 threads a block; a grid's y and z at most 65535). Is the number of blocks rounded up, so that it is never 0?"
        fi ;;
    *:cudaErrorMisalignedAddress)
        echo "  the kernel made a vector access at an address that is not a multiple of its size: a float2"
        echo "  may only be read or written where its row starts on 8 bytes (even rows and cols)" ;;
    *:cudaErrorIllegalAddress)
        echo "  the kernel read or wrote outside its memory while it ran, a matrix or the shared tile" ;;
    cudaMalloc*:cudaErrorMemoryAllocation)
        echo "  device memory ran out: the run above says how much the device has free" ;;
    cudaFree:*)
        echo "  cudaFree was given a pointer that cudaMalloc did not return, or one already freed" ;;
    *)
        echo "  the grader knows no explanation for $fn failing with $name; the line above is the evidence" ;;
    esac
}

# explain_pattern STEP LINE: one harness "pattern: NAME ARG: ..." line, in the step's terms.
explain_pattern() {
    local name arg n=${1#step}
    name=$(echo "$2" | sed -E 's/^ *pattern: ([a-z-]+).*/\1/')
    arg=$(echo "$2" | sed -nE 's/^ *pattern: [a-z-]+ (-?[0-9]+):.*/\1/p')
    case $name in
    copy)
        echo "a copy, not a transpose: each element is written where it was read. The store goes to the transposed place, out[c * rows + r] for in[r * cols + c]"
        [ "$n" -ge 3 ] && echo "  (in the write phase: the block's indices swap, and the tile is read down a column)" ;;
    load-stride)
        echo "the load's index steps a row by rows: a row of the input is cols floats long, in[r * cols + c]" ;;
    store-stride)
        echo "the store's index steps a row by cols: a row of the output is rows floats long, out[c * rows + r]" ;;
    tile-own-place)
        case $n in
        6|7) echo "each tile is transposed inside but written where it was read: on output, the block's first row is its first input column (c0) and its first column its first input row (r0)" ;;
        *) echo "each ${arg} x ${arg} tile is transposed inside but written at its own block's position: on output the block indices swap, the output row starting at blockIdx.x * TILE and the column at blockIdx.y * TILE" ;;
        esac ;;
    tile-untransposed)
        case $n in
        6) echo "each tile lands at its place but is not transposed inside: the 2 x 2 blocks, or the tile's row and column in at(c, r), are not swapped between the two phases" ;;
        7) echo "each tile lands at its place but is not transposed inside: a window reads output row j down column j of the staged tile, tile[i * S + j]" ;;
        *) echo "each ${arg} x ${arg} tile lands at its place but is not transposed inside: in the write phase the tile is read down a column, tile[threadIdx.x][...]" ;;
        esac ;;
    pairs)
        case $n in
        6) echo "the two values of every pair are swapped: column j of a thread's 2 x 2 block becomes row 2 tx + j of the tile, (a0.x, a1.x) and then (a0.y, a1.y)" ;;
        *) echo "neighbouring values are swapped in pairs: each lands at the other place of its even-odd pair" ;;
        esac ;;
    shifted)
        echo "every wrong value comes from the same distance away (the harness's line above says how far): an index is off by that much" ;;
    tile-scrambled)
        case $n in
        6) echo "values move about inside each tile: the tile is written and read back through different layouts; both phases must put element (c, r) at the same at(c, r)" ;;
        7) echo "values move about inside each block's columns: the windows read the staged tile at other places than the staging wrote" ;;
        *) echo "values move about inside each tile: the write phase reads the tile at other places than the load phase wrote" ;;
        esac ;;
    unknown)
        echo "the wrong values fit no pattern the grader knows; the evidence above (where each value came from, where it belongs) is what there is" ;;
    unwritten-columns|unwritten-rows)
        local what=${name#unwritten-} factor other
        factor=$(echo "$2" | sed -nE 's/.*\(([0-9]+ = [0-9]+ x [0-9]+)\)$/\1/p')
        other=$(echo "$2" | sed -nE 's/.*; the first of them equals (rows|cols) .*/\1/p')
        if [ -n "$other" ]; then
            local mine=rows; [ "$other" = rows ] && mine=cols
            echo "the input's $what from $arg on are never written, all of them and nothing else, and $arg is $other: a bound on the $what compares with $other where $mine belongs (a guard with rows and cols exchanged; a square cannot show it)${factor:+; or, as $factor is a whole number of blocks, a grid that counts $other where $mine belongs}"
            return
        fi
        echo "the input's $what from $arg on are never written, all of them and nothing else${factor:+ ($factor, a whole number of blocks)}: does the grid reach the last of them, its number of blocks rounded up, and does every thread write every element it is given?"
        [ "$n" = 1 ] && [ "$what" = columns ] && echo "  (one thread an output row: (cols + THREADS - 1) / THREADS blocks)"
        [ "$n" = 7 ] && [ "$what" = rows ] && echo "  (the grid's y must reach the last row even when a window starts HALO rows early)" ;;
    out-tail)
        echo "the output is right from its start up to some byte and wrong from there to its end, in memory order: a copy of the result (cudaMemcpy into run.out) that moved too few bytes leaves exactly this; its size must be run.bytes, the whole matrix" ;;
    in-tail)
        echo "every output element whose value comes from the input's first bytes is right, and every other is wrong: the kernel saw only the start of the input, as a copy of run.in to the device that moved too few bytes leaves; its size must be run.bytes" ;;
    unwritten-tile-rows)
        echo "in every band of $arg rows, the same rows are never written: each thread must move every element of its column of the tile, its loop stepping by the block's height" ;;
    unwritten-tile-columns)
        echo "in every band of $arg columns, the same columns (output rows) are never written: the write phase must cover every row of the output tile, stepping by the block's height" ;;
    unwritten-row-ends)
        echo "the unwritten elements all lie at the ends of output rows, among a row's first or last $arg floats: the stores there are skipped; check each guard on a store at a row's start or end: it must let every element from 0 to rows - 1 through, once" ;;
    unwritten-scattered)
        echo "the unwritten elements fit no pattern the grader knows; the evidence above says where they are" ;;
    foreign)
        echo "some outputs hold values that are neither an input element nor the poison: something read memory nothing wrote, such as a tile entry no thread loaded: check which thread loads each entry (an index with the wrong thread or block coordinate) and that no guard skips one" ;;
    none)
        echo "the matrix is too large for its values to name their place: grade on the shapes of scripts/grade/shapes.txt" ;;
    recv-poison)
        echo "a transpose read its chunk of d_recv before the exchange had filled it: each chunk's transpose must wait for that chunk's exchange (an event recorded on the exchange's stream after it, waited for on the transpose's stream)" ;;
    send-poison)
        echo "an exchange sent a part of d_send that no pack had filled: either it did not wait for its packing (an event recorded after the pack, waited for on the exchange's stream), or it sent from a place, or as many floats, that the packing never wrote (rank q's block of chunk k is rp x w floats at d_send + rp * a, a and w its first column and width)" ;;
    wrong-rank)
        echo "values that belong on another rank arrived here: a block was packed for, or sent to, the wrong rank; the block for rank q is q's columns, sent to q" ;;
    wrong-block)
        echo "a block from one rank sits where another rank's rows belong: the blocks received are stacked in rank order, rank q's at row row0[q] of the chunk" ;;
    local)
        echo "the values came from the right rank but landed at the wrong place: the packing (rows cols floats apart, w floats each) or the local transpose of the received rows x w matrix" ;;
    wrong-window)
        echo "values that belong in another rank's window were stored here: output row c belongs to the rank q with col0[q] <= c < col0[q + 1], and its windows go through ncclGetLsaPointer(win, offset, q) into q's window" ;;
    rank-unstored)
        echo "no value of some ranks' rows reached this rank's window (the harness's line names them), and nothing else is wrong: each rank's kernel must store its windows of every output row, not only of its own rows, each into the window of the rank that holds that row (no barrier explains it here: the harness lines the ranks up after poisoning each window, and checks once every rank has finished)" ;;
    *)
        echo "the harness named a pattern the grader does not know ($name)" ;;
    esac
}

# way_words RUN: where the launch times several ways (step 7's block orders and windows) and
# the harness found one whose output was not exact (harness.h, tk_fastest_way), how each came
# out, and which one was kept: the lines above are about its output.
way_words() {
    sed -n "s/^note: at [0-9]* x [0-9]* the launch's output was not exact in every way: \(.*\); \(.*\) is kept, so the row above is its output\$/  each way the launch timed, checked: \1; the way kept, whose output the lines above are about: \2/p" "$1" | head -n 1
}

# write_races_only LOG: whether every race racecheck reports in LOG is between two writes
# (its lines: "Race reported between Write access at ..." then "    and Write access at ...").
write_races_only() {
    grep -Eq 'Race reported between (Write|Read) access' "$1" &&
        ! grep -Eq '(Race reported between|^=========  +and) Read access' "$1"
}
# explain_finding TOOL LOG: a compute-sanitizer finding in the step's terms. Sets race=1 when
# it is a race or a barrier, which then explains any wrong shapes.
explain_finding() {
    local tool=$1 log=$2
    if grep -q 'misaligned' "$log"; then
        echo "  a float2 access at an address that is not a multiple of 8: the vector path must only run where rows of in and out start on 8 bytes (even rows and cols) and the whole tile is inside the matrix"
    elif grep -q 'Invalid __global__ write' "$log"; then
        echo "  a thread writes outside the output (cols x rows): is every store guarded by the output's bounds?"
    elif grep -q 'Invalid __global__ read' "$log"; then
        echo "  a thread reads outside the input (rows x cols): is every load guarded by the input's bounds?"
    elif grep -q 'Invalid __shared__' "$log"; then
        echo "  an index past the end of the shared tile: check the tile's dimensions against the indices that use them"
    elif grep -q 'Program hit' "$log"; then   # a failed call with no access named above
        echo "  a CUDA call failed under the sanitizer too: see the shapes above"
    elif [ "$tool" = racecheck ]; then
        race=1
        if write_races_only "$log"; then
            echo "  two threads write the same element of the tile, with no barrier between them, and no race involves a read: a missing barrier does not do this (it races a read with a write); in one phase each element must have one writer: check which element each thread's index names, and how far its loop or guard lets it go"
        else
            echo "  a race on the tile: is there a barrier between loading the tile and reading it back, reached by every thread of the block?"
        fi
    elif [ "$tool" = synccheck ]; then
        race=1
        echo "  a barrier that not every thread of the block reaches: is __syncthreads() inside a branch, such as a bounds guard?"
    else
        echo "  the grader knows no explanation for this finding; the lines above are the evidence"
    fi
}

# int_wrap_words LOG ROWS COLS: what a run past 2^31 elements that failed there, and at no
# smaller shape, shows. A wrong output: the first wrong element's place in out and that of the
# element of in it should hold, against 2^31 - 1, say which index passed what an int holds.
# A kernel stopped at an illegal address: the indexes past 2^31 - 1 are what this shape has
# that the others had not. Where the evidence fits neither, it says so.
int_wrap_words() {
    local first
    first=$(grep -m1 -oE 'first at out\[[0-9]+\]\[[0-9]+\]' "$1" | grep -oE '[0-9]+' | paste -sd' ' -)
    if [ -n "$first" ]; then
        awk -v rows="$2" -v cols="$3" -v f="$first" 'BEGIN {
            split(f, p, " "); i = p[1]; j = p[2]; max = 2147483647
            o = i * rows + j; n = j * cols + i   # out[i][j] is element o of out; it should hold in[j][i], element n of in
            printf "  out[%d][%d] is element %.0f of out; it should hold in[%d][%d], element %.0f of in (an int holds at most %d)\n", i, j, o, j, i, n, max
            if (o > max && n > max) which = "both indexes pass it, the write'\''s (out) and the read'\''s (in)"
            else if (o > max) which = "the write'\''s index (into out) passes it; the read'\''s does not"
            else if (n > max) which = "the read'\''s index (into in) passes it; the write'\''s does not"
            if (which == "") {
                print "  neither index of this element passes what an int holds: the evidence does not point at an index held in an int"
                exit
            }
            print "  exact at every smaller shape, wrong here first where " which ": an offset computed in int wraps past 2^31 - 1."
            print "  Compute each offset in size_t, the product widened before it is taken: (size_t)r * cols + c, not r * cols + c."
        }'
    elif grep -q 'cudaErrorIllegalAddress' "$1"; then
        echo "  exact at every smaller shape; here, past 2^31 - 1 = 2147483647 elements, the kernel read or wrote"
        echo "  outside the matrices. What this shape has that the others had not is indexes past what an int holds:"
        echo "  an offset computed in int wraps (r * cols + c turns negative), outside the matrix there."
        echo "  Compute each offset in size_t, the product widened before it is taken: (size_t)r * cols + c."
    else
        echo "  the run's output names neither a wrong element nor an illegal address: the lines above are the evidence"
    fi
}

