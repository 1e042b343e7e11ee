# Builds: every step and solution as shipped, then for sm_75 (and once for two architectures)
# in a scratch copy of the kit, and copied step folders. A compiler warning fails the test.

# judge_build NAME: judges the build whose log is LAST_OUT and status RC.
judge_build() {
    if [ "$RC" != 0 ]; then fail "$1" "make failed"
    elif grep -qi 'warning' "$LAST_OUT"; then fail "$1" "compiler warnings"
    else pass "$1"; fi
}

# The same sources for Turing and Hopper, in a scratch copy so the real build stays as it is.
scratch=$TK_BUILD/kit
rm -rf "$scratch" && mkdir -p "$scratch/scripts"
cp -r common solution $(for n in $STEP_NUMS; do echo "step$n"; done) "$scratch"/
cp -r scripts/bench scripts/library scripts/baseline "$scratch/scripts/"
rm -f "$scratch/scripts/bench/levers" "$scratch/scripts/library/library" "$scratch/scripts/baseline/plain-tile"

# Every build at once, as many at a time as there are cores, one make a folder (each as shipped,
# and each in the scratch copy for SM=75, the oldest architecture CUDA 13 builds for (12.x
# builds for sm_50 and newer, with no warning for sm_75); the last
# step once more for two architectures in one binary, SM="75 90"; a student's copy of step3
# beside the steps, which finds common/ by itself, and one elsewhere, told COMMON=), then each
# judged from its own log. A line: NAME|DIR|SM|COMMON. The slowest (the benchmarks) first.
last=solution/step$(echo $STEP_NUMS | awk '{ print $NF }')
cp -r "$last" "$scratch/two-arch" && rm -f "$scratch/two-arch/transpose"
cp -r "$scratch/step3" "$scratch/mywork" && rm -f "$scratch/mywork/transpose"
mkdir -p "$TK_BUILD/elsewhere" && rm -rf "$TK_BUILD/elsewhere/step1"
cp -r step1 "$TK_BUILD/elsewhere/step1" && rm -f "$TK_BUILD/elsewhere/step1/transpose"
{
    for d in scripts/bench scripts/library scripts/baseline $STEP_DIRS; do
        echo "build $d|$d||"
        echo "build $d for SM=75|$scratch/$d|75|"
    done
    echo "build $last for SM=\"75 90\" (two architectures)|$scratch/two-arch|75 90|"
    echo "a copy of step3 beside the steps builds|$scratch/mywork||"
    echo "a copy far from the kit builds with COMMON=|$TK_BUILD/elsewhere/step1||$TK_ROOT/common"
} >"$TK_BUILD/builds"
logs=$TK_BUILD/build-logs
rm -rf "$logs" && mkdir -p "$logs"
# Beside them, three makes one after another in a copy of step2: the flags are a dependency,
# so SM=80 after a default build rebuilds, and the same flags again do not.
cp -r step2 "$scratch/flags" && rm -f "$scratch/flags/transpose" "$scratch/flags/.transpose.flags"
( make -C "$scratch/flags"; make -C "$scratch/flags" SM=80 >"$logs/flags.2" 2>&1
  make -C "$scratch/flags" SM=80 >"$logs/flags.3" 2>&1 ) >"$logs/flags.1" 2>&1 &
k=0
while IFS='|' read -r name dir sm common; do
    k=$((k + 1))
    [ "$k" -gt "$(nproc)" ] && wait -n   # one finished, one more starts
    args=(-B -C "$dir")
    [ -n "$sm" ] && args+=(SM="$sm")
    [ -n "$common" ] && args+=(COMMON="$common")
    ( make "${args[@]}"; echo $? >"$logs/$k.rc" ) >"$logs/$k.log" 2>&1 &
done <"$TK_BUILD/builds"
wait
k=0
while IFS='|' read -r name dir sm common; do
    k=$((k + 1))
    LAST_OUT=$logs/$k.log RC=$(cat "$logs/$k.rc")
    judge_build "$name"
done <"$TK_BUILD/builds"
LAST_OUT=$TK_BUILD/last.out
if [ "$HAVE_NCCL" != 1 ]; then
    for n in $ACROSS_NUMS; do
        skip "build step$n and solution/step$n" "no NCCL 2.28 or newer here (nccl.h, nccl_device.h): step$n runs across GPUs through NCCL"
    done
fi

bins=(scripts/bench/levers)
for d in $STEP_DIRS; do bins+=("$d/transpose"); done
if grep -l cublas "${bins[@]}" >"$LAST_OUT"; then
    fail "no step and no lever binary links cuBLAS" "see the files listed"
else
    pass "no step and no lever binary links cuBLAS"
fi

# SM= builds carry PTX for the newest architecture named, for the driver to compile on any newer
# GPU: its machine code alone runs on none (tests/fatbin-ptx.sh lists the PTX a binary embeds).
ptx_of() {   # ptx_of NAME BIN WANT: BIN's PTX is exactly WANT's
    local got
    got=$(tests/fatbin-ptx.sh "$2" 2>&1 | tr '\n' ' ')
    [ "$got" = "$3 " ] && pass "$1" || fail "$1" "PTX for: ${got:-none}"
}
ptx_of "an SM=75 build carries PTX for compute_75" "$scratch/step1/transpose" compute_75
ptx_of "an SM=\"75 90\" build carries PTX for compute_90 only" "$scratch/two-arch/transpose" compute_90

LAST_OUT=$logs/flags.2
if grep -q 'nvcc.*arch=compute_80' "$LAST_OUT"; then pass "make SM=80 after a default build rebuilds"
else fail "make SM=80 after a default build rebuilds" "no nvcc line for compute_80"; fi
LAST_OUT=$logs/flags.3
if grep -q nvcc "$LAST_OUT"; then fail "the same flags again build nothing" "nvcc ran"
else pass "the same flags again build nothing"; fi
# The harness is built once, but not left stale: a changed header of common/ recompiles the
# library's objects and relinks the step; a second make then does nothing.
touch "$scratch/common/report.h"
run_cmd make -C "$scratch/flags" SM=80
if [ "$RC" = 0 ] && grep -q 'nvcc.* -c .*report\.c' "$LAST_OUT" && grep -q 'nvcc.*libtk\.a -o transpose' "$LAST_OUT"
then pass "a changed harness header rebuilds the library and relinks the step"
else fail "a changed harness header rebuilds the library and relinks the step" "no nvcc line for report.c and the link"; fi
LAST_OUT=$TK_BUILD/last.out

# make clean removes everything the build and the tests make, in a copy of the kit's tracked
# files (so it needs a git checkout whose index lists them all).
check_clean() {
    local name="make clean removes every build and test output (binaries, flag stamps, the harness's libraries, tests/build)"
    local clean=$TK_BUILD/cleankit
    if ! git ls-files --error-unmatch Makefile common/common.mk scripts/library/Makefile \
            scripts/bench/Makefile >/dev/null 2>&1; then
        skip "$name" "not a git checkout whose index lists the kit's files"; return
    fi
    rm -rf "$clean" && mkdir -p "$clean"
    # The kit's files as git sees them: tracked or not, but never ignored (a checkout whose
    # index is older than its files, as a copied tree can be, still gives the files it has).
    git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
        [ -f "$f" ] && cp --parents "$f" "$clean"/
    done
    (cd "$clean" && find . -type f | sort) >"$TK_BUILD/clean.before"
    touch "$clean/solution/step1/transpose" "$clean/solution/step1/.transpose.flags" \
          "$clean/step1/transpose" "$clean/scripts/bench/levers" "$clean/scripts/bench/.levers.flags" \
          "$clean/scripts/library/library" "$clean/scripts/library/.library.flags" \
          "$clean/scripts/baseline/plain-tile" "$clean/scripts/bench/copy-modes/copy-modes"
    mkdir -p "$clean/tests/build" "$clean/common/build/1" "$clean/step2/.harness"
    touch "$clean/tests/build/anything" "$clean/common/build/1/libtk.a" "$clean/step2/.harness/x"
    make -s -C "$clean" clean >/dev/null 2>&1
    (cd "$clean" && find . -type f | sort) >"$TK_BUILD/clean.after"
    if cmp -s "$TK_BUILD/clean.before" "$TK_BUILD/clean.after"; then
        pass "$name"
    else
        diff "$TK_BUILD/clean.before" "$TK_BUILD/clean.after" >"$LAST_OUT"
        fail "$name" "left behind (see above)"
    fi
}
check_clean

# A student's copy elsewhere that is not told where common/ is, is told how (the copies that
# build are in the builds above).
rm -rf "$TK_BUILD/elsewhere/step1-untold"
cp -r step1 "$TK_BUILD/elsewhere/step1-untold"
expect "a copy far from the kit explains how to name common/" 2 "COMMON=" \
    make -C "$TK_BUILD/elsewhere/step1-untold"
