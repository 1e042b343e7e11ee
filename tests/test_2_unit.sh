# Host-side unit tests of the harness (tests/unit.c), built as strict C11 with warnings as
# errors; each of their PASS/FAIL lines counts as one test.

unit=$TK_BUILD/unit
rm -f "$unit"
run_cmd gcc -std=c11 -Wall -Wextra -pedantic -Werror -O2 -fopenmp -Icommon tests/unit.c \
    common/options.c common/matrix.c common/hostmem.c common/explain.c common/report.c common/ranks/launch.c \
    -lm -o "$unit"
if [ "$RC" = 0 ]; then pass "the harness's plain-C parts build as strict C11"
else fail "the harness's plain-C parts build as strict C11" "gcc failed"; fi

# The core and its front ends talk to the CUDA runtime's C API (those across GPUs to NCCL's
# too): check each as C11 against the toolkit's headers.
cuda_inc=$(dirname "$(command -v nvcc)")/../include
for f in common/cuda_check.c common/core.c common/harness.c scripts/bench/bench.c; do
    run_cmd gcc -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only -fopenmp -Icommon \
        -I"$cuda_inc" "$f"
    if [ "$RC" = 0 ]; then pass "$f is strict C11 against the CUDA headers"
    else fail "$f is strict C11 against the CUDA headers" "gcc failed"; fi
done
for f in common/ranks/*.c; do
    if [ "$HAVE_NCCL" = 1 ]; then
        run_cmd gcc -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only -fopenmp -Icommon \
            -Icommon/ranks -I"$cuda_inc" -I"$(nccl_include)" "$f"
        if [ "$RC" = 0 ]; then pass "$f is strict C11 against the CUDA and NCCL headers"
        else fail "$f is strict C11 against the CUDA and NCCL headers" "gcc failed"; fi
    else
        skip "$f is strict C11 against the CUDA and NCCL headers" "no NCCL 2.28 or newer here (nccl.h, nccl_device.h)"
    fi
done

# The harness in layers: no circle among common/'s files, and the one-GPU harness needs
# nothing of the one across GPUs (tests/include-layers.sh); both checks can fail.
expect "common/ is in layers: no two modules include each other's headers, directly or through others" 0 '' \
    tests/include-layers.sh common
layers=$TK_BUILD/layers
rm -rf "$layers" && mkdir -p "$layers" && cp -r common "$layers/"
echo '#include "harness.h"' >>"$layers/common/core.c"
expect "include-layers: core.c including harness.h (harness.c includes core.h) is a circle" 1 \
    '^core$' tests/include-layers.sh "$layers/common"
cp common/core.c "$layers/common/core.c"
echo '#include "harness_state.h"' >>"$layers/common/harness.h"
expect "include-layers: harness.h including harness_state.h (which includes it) is a circle of files" 1 \
    '^harness_state.h$' tests/include-layers.sh "$layers/common"
cp common/harness.h "$layers/common/harness.h"
mkdir -p "$layers/empty"
expect "include-layers: a folder without the harness's files is refused, not passed" 2 \
    'holds no .c, .cu or .h file' tests/include-layers.sh "$layers/empty"
mkdir -p "$layers/common/ranks" && echo '/* planted */' >"$layers/common/ranks/planted.h"
echo '#include "planted.h"' >>"$layers/common/report.c"
expect "include-layers: a one-GPU file including a header of ranks/ fails" 1 \
    'report.c includes planted.h' tests/include-layers.sh "$layers/common"

# What only the lever benchmark links is not in any step's build: every step builds from its
# own folder, common/'s top and (across GPUs) common/ranks/, never from scripts/bench; and the
# benchmark reads nothing from solution/: it carries step 7's panels byte for byte.
run_cmd grep -l 'bench' step*/Makefile solution/step*/Makefile common/common.mk common/harness.mk
if [ "$RC" = 1 ]; then pass "no step's build names the lever benchmark's files"
else fail "no step's build names the lever benchmark's files" "see the files listed"; fi
run_cmd grep -nE -e '-I[^ ]*solution|\.\./solution' -e '#[[:space:]]*include[[:space:]]*"[^"]*solution' \
    scripts/bench/Makefile scripts/bench/*.cu scripts/bench/*.cuh scripts/bench/*.c scripts/bench/*.h
if [ "$RC" = 1 ]; then pass "the lever benchmark builds without reaching into solution/"
else fail "the lever benchmark builds without reaching into solution/" "an include path names it"; fi
expect "scripts/bench/step7/panels.cuh carries solution/step7/panels.cuh byte for byte" 0 '' \
    cmp scripts/bench/step7/panels.cuh solution/step7/panels.cuh

if [ -x "$unit" ]; then
    "$unit" scripts/grade/shapes.txt >"$TK_BUILD/unit.out" 2>&1
    unit_rc=$?
    while IFS= read -r line; do
        case $line in
            "PASS "*) pass "${line#PASS }" ;;
            "FAIL "*) LAST_OUT=/dev/null; rest=${line#FAIL }; fail "${rest%%: *}" "${rest#*: }" ;;
        esac
    done <"$TK_BUILD/unit.out"
    LAST_OUT=$TK_BUILD/last.out
    if [ "$unit_rc" != 0 ] && ! grep -q '^FAIL ' "$TK_BUILD/unit.out"; then
        fail "unit tests ran to the end" "exit status $unit_rc with no FAIL line"
    fi
    # The grader's words for a launch's way whose output was not exact (way_words), read from
    # the note the harness's own tk_way_note wrote in the unit tests: each way, and the kept one.
    grep -m1 "the launch's output was not exact in every way" "$TK_BUILD/unit.out" >"$TK_BUILD/way.run"
    run_cmd bash -c '. scripts/grade/grade-words.sh && way_words "$1"' _ "$TK_BUILD/way.run"
    judge "grade: a launch's way not exact is said with each way's count and the way kept" 0 \
        "^  each way the launch timed, checked: one band exact, 8 bands 26400 floats wrong, all bands exact; the way kept, whose output the lines above are about: 8 bands\$"
fi

# One list of pattern names: the harness prints those of common/patterns.h, the grader explains
# those of explain_pattern in scripts/grade/grade-words.sh; each side must know every name of the other.
run_cmd tests/pattern-names.sh common/patterns.h scripts/grade/grade-words.sh
if [ "$RC" = 0 ]; then pass "the grader explains exactly the pattern names common/patterns.h lists"
else fail "the grader explains exactly the pattern names common/patterns.h lists" "they differ"; fi
# The check itself: a list with one name dropped and one added is refused, both named.
sed '/"pairs"/d; /"copy"/{p; s/COPY, "copy"/BOGUS, "bogus"/}' common/patterns.h \
    >"$TK_BUILD/patterns.h"
run_cmd tests/pattern-names.sh "$TK_BUILD/patterns.h" scripts/grade/grade-words.sh
judge "the pattern-name check names a name dropped from the list and one added" 1 \
    "^only in scripts/grade/grade-words.sh: pairs\$" "^only in $TK_BUILD/patterns.h: bogus\$"

# cpu_mutants WHAT SRC BUILD PROGRAM ARGS...: each line of the input, NAME|EDIT|PATTERN, is a
# mutant of SRC (sed -E EDIT) that must fail on the CPU: built by the function BUILD (BUILD
# FILE DIR), then DIR/PROGRAM ARGS exits 1 with a line matching PATTERN. PATTERN asan or
# asan-misaligned stands for a sanitizer's finding, skipped where $asan is empty. The mutants
# build and run side by side, as many at a time as the machine has cores, each in its own
# folder; then each is judged, in the input's order.
cpu_mutants() {
    local what=$1 src=$2 build=$3 name edit want k=0 dir; shift 3
    local names=() wants=() base=$TK_BUILD/cpu-mutants-$what
    rm -rf "$base" && mkdir -p "$base"
    while IFS='|' read -r name edit want; do
        k=$((k + 1)) dir=$base/$k
        names[k]="step 7's $what on the CPU fail a mutant: $name"
        case $want in   # findings only the sanitizers make: skipped where the compiler has none
            asan) want='AddressSanitizer: (heap|global)-buffer-overflow' ;;
            asan-misaligned) want='runtime error: .*misaligned address' ;;
        esac
        wants[k]=$want
        if [[ $want == *AddressSanitizer* || $want == *misaligned* ]] && [ -z "$asan" ]; then
            continue
        fi
        mkdir -p "$dir" && sed -E "$edit" "$src" >"$dir/${src##*/}"
        while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n; done
        (   # in the background: the build's output, then the run's, and the status
            LAST_OUT=$dir/out
            cmp -s "$src" "$dir/${src##*/}" && { echo edit >"$dir/rc"; exit; }
            "$build" "$dir/${src##*/}" "$dir/b"
            [ "$RC" = 0 ] || { echo build >"$dir/rc"; exit; }
            run_cmd "$dir/b/$1" "${@:2}"; echo "$RC $LAST_SECS" >"$dir/rc"
        ) </dev/null &
    done
    wait
    for ((k = 1; k <= ${#names[@]}; k++)); do
        dir=$base/$k name=${names[k]} want=${wants[k]}
        if [ ! -d "$dir" ]; then
            skip "$name" "the compiler here has no AddressSanitizer and UBSan"; continue
        fi
        LAST_OUT=$dir/out LAST_SECS=0   # took(), in fail's $(...), cannot clear it
        case $(cat "$dir/rc" 2>/dev/null) in
            edit) LAST_OUT=/dev/null; fail "$name" "its edit matched nothing in ${src##*/}" ;;
            build) fail "$name" "the mutant did not build: $(head -3 "$LAST_OUT")" ;;
            '') LAST_OUT=/dev/null; fail "$name" "its build and run left no status" ;;
            *) read -r RC LAST_SECS <"$dir/rc"; judge "$name" 1 "$want" ;;
        esac
    done
    LAST_OUT=$TK_BUILD/last.out
}

# Step 7's panels on the CPU (tests/panels-cpu/): panels.cuh with its kernel launches rewritten
# as calls of the file's tk_emu_launch, built with the host's C++ compiler, run on panel shapes
# drawn from a seed and checked float for float; then mutants of it, each one index off, one
# step wrong or a barrier dropped, that it must fail.
panels_cpu() {   # panels_cpu PANELS.cuh DIR: builds DIR/panels-cpu, or says why not
    run_cmd bash tests/panels-cpu/build.sh "$1" "$2"
}
panels_cpu solution/step7/panels.cuh "$TK_BUILD/panels-cpu"
if [ "$RC" = 0 ]; then pass "step 7's panels build for the CPU (tests/panels-cpu/)"
else fail "step 7's panels build for the CPU (tests/panels-cpu/)" "$(head -3 "$LAST_OUT")"; fi
run_cmd "$TK_BUILD/panels-cpu/panels-cpu" 20261127 200   # one run, judged twice: its two lines
judge "step 7's panels on the CPU: the transpose, float for float, at 200 panel shapes drawn from seed 20261127" \
    0 '^panels-cpu: seed 20261127, 200 panel shapes, 200 exact, 0 wrong$'
judge "step 7's panels on the CPU: stage_rows alone, exact at 200 stretches from any start (the tall panel's from a float4 only)" \
    0 '^panels-cpu: stage_rows at 200 stretches from any start, 200 exact, 0 wrong$'
judge "step 7's panels on the CPU: the stride each side's launch takes puts no more lanes of a warp on a bank than W + 1, and 2 at 9 and 13 rows" \
    0 '^panels-cpu: the stride at 160 panel sides, 160 no worse than W \+ 1; 9 and 13 rows at 2\.0 and 2\.0 lanes a bank$'
asan=''   # the panels' build uses no sanitizer, and none of their mutants needs one
cpu_mutants panels solution/step7/panels.cuh panels_cpu panels-cpu 20261127 40 <<'MUTANTS'
the wide panel's stores read one float over|s/int at = r \* P \+ c;/int at = r * P + c + 1;/|^WRONG at [0-9]+ x [0-9]+: [1-9]
the wide panel's staging steps its source a float short of its rows (W <= NT)|s/src \+= \(size_t\)dr \* cols\)/src += (size_t)dr * cols - 1)/|^WRONG at [0-9]+ x [0-9]+: [1-9]
the wide panel's stores start each output row's float one column over|s/r = 0; c\+\+; at = c; \}/r = 0; c++; at = c + 1; }/|^WRONG at [0-9]+ x [0-9]+: [1-9]
the wide panel's staging steps its source a float short of a row (W > NT)|s/r\+\+, src \+= cols\)/r++, src += cols - 1)/|^WRONG at [0-9]+ x [0-9]+: [1-9]
the tall panel's stores read one float over|s/const float \*p = panel \+ c \* P/const float *p = panel + 1 + c * P/|^WRONG at [0-9]+ x [0-9]+: [1-9]
the tall panel's staging steps a column past its last|s/if \(c >= cols\) \{ c -= cols; r\+\+; \}/if (c > cols) { c -= cols; r++; }/|^(WRONG at [0-9]+ x [0-9]+: [1-9]|shared memory written past the launch's size)
the staging from a start off a float4 begins at row 0, column 0|s/r = k \/ cols, c = k - r \* cols;/r = 0, c = 0;/|^WRONG stage_rows at [0-9]+ floats
the panels' shared memory a float short of their stride, each row or column|s/\(size_t\)side \* P \* sizeof/(size_t)side * (P - 1) * sizeof/|shared memory written past the launch's size
the panels' stride always W + 1, none counted|s/P <= span \+ 8; P\+\+/P <= span + 1; P++/|^panels-cpu: the stride at 160 panel sides, 160 no worse than W \+ 1; 9 and 13 rows at 9\.0 and 10\.5 lanes a bank$
the panels' stride the one with the most lanes on a bank|s/cost < best_cost\)/cost > best_cost)/|^panels-cpu: the stride at 160 panel sides, [0-9]{1,2} no worse than W \+ 1;
the wide panel's barrier dropped: its stores run before the whole panel is staged|0,/__syncthreads\(\);/{/__syncthreads\(\);/d}|^WRONG: a store to the output before the block's barrier$
the wide panel's last stores write a float past their stretch|s/e < 4 \&\& k \+ e < n; e\+\+\)/e < 4 \&\& k + e <= n; e++)/|^WRONG at [0-9]+ x [0-9]+: 0 of [0-9]+ floats not the transpose's; 1 float written past the output$
MUTANTS

# Step 7's pairs on the CPU (tests/pairs-cpu/): pairs.cuh's launch and tile rewritten for the
# host, with block_of and band_grid from the solution, built with AddressSanitizer where the
# compiler has it; run at 11 fixed shapes and 40 drawn from a seed, rows a multiple of 8 and
# cols odd, each in four block orders, and checked float for float; then mutants, each one
# index, guard or barrier wrong, that it must fail (the sanitizers' two only where the compiler
# has them).
pairs_cpu() {   # pairs_cpu PAIRS.cuh DIR: builds DIR/pairs-cpu, or says why not
    run_cmd bash tests/pairs-cpu/build.sh "$1" solution/step7/transpose.cu "$2"
}
pairs_cpu solution/step7/pairs.cuh "$TK_BUILD/pairs-cpu"
if [ "$RC" = 0 ]; then pass "step 7's pairs build for the CPU (tests/pairs-cpu/)"
else fail "step 7's pairs build for the CPU (tests/pairs-cpu/)" "$(head -3 "$LAST_OUT")"; fi
asan=yes; grep -q "without AddressSanitizer" "$LAST_OUT" && asan=""
expect "step 7's pairs on the CPU: the transpose, float for float, at 51 shapes with cols odd and rows a multiple of 8 (40 drawn from seed 20261129), in 4 block orders" \
    0 '^pairs-cpu: seed 20261129, 51 shapes \(rows a multiple of 8, cols odd\) in 4 block orders, 204 runs exact, 0 wrong$' \
    "$TK_BUILD/pairs-cpu/pairs-cpu" 20261129 40
cpu_mutants pairs solution/step7/pairs.cuh pairs_cpu pairs-cpu 20261129 10 <<'MUTANTS'
a row that starts on an odd float loads from the float after its first, not before|s/col = 2 \* tx - odd/col = 2 * tx + odd/g|(^WRONG at [0-9]+ x [0-9]+, [0-9]+ bands at a time: [1-9]|AddressSanitizer: heap-buffer-overflow)
the row's last float never loaded|s/odd && tx == BX - 1 && c0/odd \&\& tx == BX - 2 \&\& c0/|^WRONG at [0-9]+ x [0-9]+, [0-9]+ bands at a time: [1-9]
the first float of a row on an even float never staged|s/if \(col >= 0\)/if (col > 0)/|^WRONG at [0-9]+ x [0-9]+, [0-9]+ bands at a time: [1-9]
the stores take the tile's next column for a pair's second float|s/tile\[\(2 \* tx \+ 1\) \* S \+ c\]/tile[(2 * tx + 1) * S + c + 1]/|^WRONG at [0-9]+ x [0-9]+, [0-9]+ bands at a time: [1-9]
the staging reads a row past the matrix|s/if \(r < rows && c \+ 1 < cols\)/if (r <= rows \&\& c + 1 < cols)/|asan
the barrier dropped: a block stores before all of its tile is staged|/^    __syncthreads\(\);$/d|^WRONG: a store to the output before the block's barrier$
the stores read a pair from the tile as one float2, off 8 bytes|s/make_float2\(tile\[2 \* tx \* S \+ c\], tile\[\(2 \* tx \+ 1\) \* S \+ c\]\)/*(const float2 *)\&tile[2 * tx * S + c + 1]/|asan-misaligned
the stores' guard lets a block write the output row after the last, past the output|s/if \(c0 \+ c < cols \&\& r < rows\)/if (c0 + c <= cols \&\& r < rows)/|^WRONG at [0-9]+ x [0-9]+, [0-9]+ bands at a time: 0 of [0-9]+ floats not the transpose's; [0-9]+ floats? written past the output$
MUTANTS
