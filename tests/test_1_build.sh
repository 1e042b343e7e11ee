# Builds: every step and solution as shipped, then for two named architectures in a scratch
# copy of the kit, and copied step folders. A compiler warning fails the test.

# build_ok NAME DIR [MAKE ARGS...]
build_ok() {
    local name=$1 dir=$2; shift 2
    run_cmd make -B -C "$dir" "$@"
    if [ "$RC" != 0 ]; then fail "$name" "make failed"
    elif grep -qi 'warning' "$LAST_OUT"; then fail "$name" "compiler warnings"
    else pass "$name"; fi
}

for d in $STEP_DIRS; do
    build_ok "build $d" "$d"
done

# The same sources for Turing and Hopper, in a scratch copy so the real build stays as it is.
scratch=$TK_BUILD/kit
rm -rf "$scratch" && mkdir -p "$scratch"
cp -r common solution $(for n in $STEP_NUMS; do echo "step$n"; done) "$scratch"/
for d in $STEP_DIRS; do
    build_ok "build $d for SM=\"75 90\"" "$scratch/$d" SM="75 90"
done

# The lever benchmark behind step 6; for Hopper its bulk-tensor-copy kernels compile too.
build_ok "build scripts/levers" scripts/levers
mkdir -p "$scratch/scripts" && cp -r scripts/levers "$scratch/scripts/"
rm -f "$scratch/scripts/levers/levers"
build_ok "build scripts/levers for SM=\"75 90\"" "$scratch/scripts/levers" SM="75 90"

# The library row links cuBLAS; it is the only program that does.
build_ok "build scripts/library (cublasSgeam)" scripts/library
cp -r scripts/library "$scratch/scripts/" && rm -f "$scratch/scripts/library/library"
build_ok "build scripts/library for SM=\"75 90\"" "$scratch/scripts/library" SM="75 90"
if grep -l cublas $(for d in $STEP_DIRS; do echo "$d/transpose"; done) scripts/levers/levers >"$LAST_OUT"; then
    fail "no step and no lever binary links cuBLAS" "see the files listed"
else
    pass "no step and no lever binary links cuBLAS"
fi

# A student's copy beside the steps finds common/ by itself; one elsewhere is told how.
cp -r "$scratch/step3" "$scratch/mywork"
build_ok "a copy of step3 beside the steps builds" "$scratch/mywork"
mkdir -p "$TK_BUILD/elsewhere" && rm -rf "$TK_BUILD/elsewhere/step1"
cp -r step1 "$TK_BUILD/elsewhere/step1"
expect "a copy far from the kit explains how to name common/" 2 "COMMON=" \
    make -C "$TK_BUILD/elsewhere/step1"
build_ok "a copy far from the kit builds with COMMON=" "$TK_BUILD/elsewhere/step1" \
    COMMON="$TK_ROOT/common"
