#!/usr/bin/env bash
# Large shapes, past 2^31 and 2^32 elements: every one-GPU solution and the library row at
# 46341 x 46341 (8.0 GiB a matrix) and 65536 x 65537 (16.0 GiB), each output checked exactly.
# Not part of make test: it needs minutes, about 35 GiB of GPU memory and twice that on the
# host. make large runs it.
#
#   scripts/results/large.sh          every solution, then the library row
#   scripts/results/large.sh 5 6      solution steps 5 and 6 only
#
# Ends with "N passed, N failed"; exit status 0 when every run was exact, 1 otherwise,
# 2 bad arguments, 3 no usable GPU (nothing run).
set -u
. "$(dirname "$0")/../lib/lib.sh"
cd "$(dirname "$0")/../.." || exit 4
steps=()
for a in "$@"; do
    case $a in
        -h|--help) usage; exit 0 ;;
        *[!0-9]*|"") refuse "unknown argument '$a'" ;;
        *) [ -d "solution/step$a" ] || refuse "no solution/step$a"
           steps+=("$a") ;;
    esac
done
[ ${#steps[@]} = 0 ] && mapfile -t steps < <(scripts/lib/steps.sh --one-gpu)
bins=()
for n in "${steps[@]}"; do bins+=("solution/step$n/transpose"); done
[ $# = 0 ] && bins+=(scripts/library/library)
for b in "${bins[@]}"; do   # each folder builds itself (the top Makefile has no tool targets)
    make -s -C "$(dirname "$b")" >/dev/null ||
        { echo "large: the build failed: run make to see why" >&2; exit 4; }
done
if no_gpu "${bins[0]}"; then
    echo "large: $NO_GPU_SAID ($NO_GPU_WHY): nothing was run"; exit "$NO_GPU_STATUS"
fi

passed=0 failed=0
for shape in 46341x46341 65536x65537; do
    for bin in "${bins[@]}"; do
        reps=(--reps 5 --warmup 1)
        [ "$bin" = solution/step1/transpose ] && reps=(--reps 1 --warmup 0)   # 1D: ~1 s a run
        echo "== $bin --rows ${shape%x*} --cols ${shape#*x} ${reps[*]}"
        "$bin" --rows "${shape%x*}" --cols "${shape#*x}" --no-cpu "${reps[@]}"
        rc=$?
        if [ "$rc" = 0 ]; then passed=$((passed + 1)); else echo "FAIL: exit $rc"; failed=$((failed + 1)); fi
    done
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
