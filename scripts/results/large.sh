#!/usr/bin/env bash
# Large shapes, past 2^31 and 2^32 elements: every one-GPU solution and the library row at
# 46341 x 46341 (8.0 GiB a matrix) and 65536 x 65537 (16.0 GiB), each output checked exactly.
# Not part of make test: it needs minutes, and for each shape two matrices and a scratch
# buffer on the GPU (about 17 and 33 GiB with the CUDA context) and two on the host.
# A shape the GPU's memory cannot hold is skipped, saying so; make large runs it.
#
#   scripts/results/large.sh          every solution, then the library row
#   scripts/results/large.sh 5 6      solution steps 5 and 6 only
#   scripts/results/large.sh --plan [--memory MIB]   which shapes would run on this GPU (or
#                                     one of MIB MiB), and why the others would not; no GPU
#                                     needed with --memory
#
# Ends with "N passed, N failed (N shape(s) skipped[; N run(s) not run: the host could not
# hold them])"; exit status 0 when every run was exact
# (or none fitted: said), 1
# otherwise, 2 bad arguments, 3 no usable GPU, 6 a driver older than the build (nothing run).
set -u
. "$(dirname "$0")/../lib/lib.sh"
cd "$(dirname "$0")/../.." || exit 4
steps=() plan=0 memory=""
SHAPES="46341x46341 65536x65537"
while [ $# -gt 0 ]; do
    a=$1; shift
    case $a in
        -h|--help) usage; exit 0 ;;
        --plan) plan=1; continue ;;
        --memory) [[ ${1:-} =~ ^[1-9][0-9]{0,7}$ ]] || refuse "--memory takes the GPU's memory in MiB"
                  memory=$1; shift; continue ;;
        *[!0-9]*|"") refuse "unknown argument '$a'" ;;
        *) [ -d "solution/step$a" ] || refuse "no solution/step$a"
           steps+=("$a") ;;
    esac
done
# plan MIB: the shapes to run on a GPU of MIB MiB into RUN, each skipped one said. A shape
# needs two R x C matrices, the flush's scratch (2 x 60 MiB at most, twice the largest L2 the
# kit has met) and 1 GiB for the CUDA context.
plan() {
    local shape why
    RUN=()
    for shape in $SHAPES; do   # awk says why and succeeds where the shape does not fit
        if why=$(awk -v r="${shape%x*}" -v c="${shape#*x}" -v m="$1" 'BEGIN {
                     need = 2 * r * c * 4 / 1048576 + 120 + 1024
                     printf "it needs about %.1f GiB of GPU memory; this GPU has %.1f GiB", need / 1024, m / 1024
                     exit need <= m }'); then
            echo "large: ${shape/x/ x } skipped: $why"
        else
            RUN+=("$shape")
        fi
    done
    [ ${#RUN[@]} -gt 0 ] && echo "large: runs ${RUN[*]}" ||
        echo "large: no shape past 2^31 elements fits this GPU's memory: nothing to run"
}
gpu_memory() {   # the MiB nvidia-smi reports for the GPU this run uses, or nothing
    nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits -i "$(visible_gpu)" 2>/dev/null | head -n 1
}
if [ "$plan" = 1 ] && [ -n "$memory" ]; then plan "$memory"; exit 0; fi
named=${#steps[@]}   # steps named on the command line: then no library row
[ ${#steps[@]} = 0 ] && mapfile -t steps < <(scripts/lib/steps.sh --one-gpu)
bins=()
for n in "${steps[@]}"; do bins+=("solution/step$n/transpose"); done
[ "$named" = 0 ] && bins+=(scripts/library/library)   # the library row unless steps are named
for b in "${bins[@]}"; do   # each folder builds itself (the top Makefile has no tool targets)
    make -s -C "$(dirname "$b")" >/dev/null ||
        { echo "large: the build failed: run make to see why" >&2; exit 4; }
done
if no_gpu "${bins[0]}"; then
    echo "large: $NO_GPU_SAID ($NO_GPU_WHY): nothing was run"; exit "$NO_GPU_STATUS"
fi

memory=${memory:-$(gpu_memory)}
[[ $memory =~ ^[0-9]+$ ]] || { echo "large: cannot read this GPU's memory from nvidia-smi: give it with --memory MIB" >&2; exit 4; }
plan "$memory"
[ "$plan" = 1 ] && exit 0
passed=0 failed=0 held=0 skipped=$(( $(echo $SHAPES | wc -w) - ${#RUN[@]} ))
out=$(mktemp) || exit 4
trap 'rm -f "$out"' EXIT
for shape in "${RUN[@]}"; do
    for bin in "${bins[@]}"; do
        reps=(--reps 5 --warmup 1)
        [ "$bin" = solution/step1/transpose ] && reps=(--reps 1 --warmup 0)   # 1D: ~1 s a run
        echo "== $bin --rows ${shape%x*} --cols ${shape#*x} ${reps[*]}"
        "$bin" --rows "${shape%x*}" --cols "${shape#*x}" --no-cpu "${reps[@]}" 2>&1 | tee "$out"
        rc=${PIPESTATUS[0]}
        if [ "$rc" = 0 ]; then passed=$((passed + 1))
        elif [ "$rc" = 4 ] && [ -n "$(host_refusal "$out")" ]; then   # the host's memory, or the job's share
            echo "not run: the host cannot hold it (above)"; held=$((held + 1))
        else echo "FAIL: exit $rc"; failed=$((failed + 1)); fi
    done
done
note=""; [ "$held" = 0 ] || note="; $held run(s) not run: the host could not hold them"
echo "$passed passed, $failed failed ($skipped shape(s) skipped$note)"
[ "$failed" = 0 ]
