# Builds: every step and solution as shipped, then for two named architectures in a scratch
# copy of the kit, and copied step folders. A compiler warning fails the test.

# build_ok NAME DIR [MAKE ARGS...]: builds DIR from scratch and judges it.
build_ok() {
    local name=$1 dir=$2; shift 2
    run_cmd make -B -C "$dir" "$@"
    judge_build "$name"
}
judge_build() {
    if [ "$RC" != 0 ]; then fail "$1" "make failed"
    elif grep -qi 'warning' "$LAST_OUT"; then fail "$1" "compiler warnings"
    else pass "$1"; fi
}

# The same sources for Turing and Hopper, in a scratch copy so the real build stays as it is.
scratch=$TK_BUILD/kit
rm -rf "$scratch" && mkdir -p "$scratch/scripts"
cp -r common solution $(for n in $STEP_NUMS; do echo "step$n"; done) "$scratch"/
cp -r scripts/bench scripts/library "$scratch/scripts/"
rm -f "$scratch/scripts/bench/levers" "$scratch/scripts/library/library"

# Every build at once, one make a folder (each as shipped, and each in the scratch copy for
# SM="75 90"), then each judged from its own log. A line: NAME|DIR|SM.
{
    for d in $STEP_DIRS scripts/bench scripts/library; do
        echo "build $d|$d|"
        echo "build $d for SM=\"75 90\"|$scratch/$d|75 90"
    done
} >"$TK_BUILD/builds"
rm -rf "$TK_BUILD/build-logs" && mkdir -p "$TK_BUILD/build-logs"
k=0
while IFS='|' read -r name dir sm; do
    k=$((k + 1))
    ( if [ -n "$sm" ]; then make -B -C "$dir" SM="$sm"; else make -B -C "$dir"; fi
      echo $? >"$TK_BUILD/build-logs/$k.rc" ) >"$TK_BUILD/build-logs/$k.log" 2>&1 &
    [ $((k % $(nproc))) = 0 ] && wait
done <"$TK_BUILD/builds"
wait
k=0
while IFS='|' read -r name dir sm; do
    k=$((k + 1))
    LAST_OUT=$TK_BUILD/build-logs/$k.log RC=$(cat "$TK_BUILD/build-logs/$k.rc")
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

# The flags are a dependency: SM=80 after a default build rebuilds, the same flags do not.
run_cmd make -C "$scratch/step2"
run_cmd make -C "$scratch/step2" SM=80
if grep -q 'nvcc.*arch=compute_80' "$LAST_OUT"; then pass "make SM=80 after a default build rebuilds"
else fail "make SM=80 after a default build rebuilds" "no nvcc line for compute_80"; fi
run_cmd make -C "$scratch/step2" SM=80
if grep -q nvcc "$LAST_OUT"; then fail "the same flags again build nothing" "nvcc ran"
else pass "the same flags again build nothing"; fi

# make clean removes everything the build and the tests make, in a copy of the kit's tracked
# files (so it needs a git checkout whose index lists them all).
check_clean() {
    local name="make clean removes every build and test output (binaries, flag stamps, tests/build)"
    local clean=$TK_BUILD/cleankit
    if ! git ls-files --error-unmatch Makefile common/common.mk scripts/library/Makefile \
            scripts/bench/Makefile >/dev/null 2>&1; then
        skip "$name" "not a git checkout whose index lists the kit's files"; return
    fi
    rm -rf "$clean" && mkdir -p "$clean"
    git ls-files -z | xargs -0 -I{} cp --parents {} "$clean"/ 2>/dev/null
    (cd "$clean" && find . -type f | sort) >"$TK_BUILD/clean.before"
    make -s -C "$clean/solution/step1" >/dev/null 2>&1
    touch "$clean/step1/transpose" "$clean/scripts/bench/levers" "$clean/scripts/bench/.levers.flags" \
          "$clean/scripts/library/library" "$clean/scripts/library/.library.flags"
    mkdir -p "$clean/tests/build" && touch "$clean/tests/build/anything"
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

# A student's copy beside the steps finds common/ by itself; one elsewhere is told how.
cp -r "$scratch/step3" "$scratch/mywork"
build_ok "a copy of step3 beside the steps builds" "$scratch/mywork"
mkdir -p "$TK_BUILD/elsewhere" && rm -rf "$TK_BUILD/elsewhere/step1"
cp -r step1 "$TK_BUILD/elsewhere/step1"
expect "a copy far from the kit explains how to name common/" 2 "COMMON=" \
    make -C "$TK_BUILD/elsewhere/step1"
build_ok "a copy far from the kit builds with COMMON=" "$TK_BUILD/elsewhere/step1" \
    COMMON="$TK_ROOT/common"
