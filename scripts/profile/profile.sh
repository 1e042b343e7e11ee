#!/usr/bin/env bash
# Captures an Nsight Compute profile of one launch of a step's kernel at the default size,
# with a plain-text panel of the numbers the workshop reads beside it.
#
#   scripts/profile/profile.sh              every one-GPU solution step -> profiles/stepN.ncu-rep, .txt
#   scripts/profile/profile.sh 3 5          solution steps 3 and 5
#   scripts/profile/profile.sh mywork       a student's folder  -> mywork/profile.ncu-rep, profile.txt
#   scripts/profile/profile.sh -n 4096 3    another size (any ./transpose size option before the steps):
#                                           profiles/step3-4096x4096.ncu-rep and .txt
#   scripts/profile/profile.sh --panels     rebuild the .txt panels from the saved .ncu-rep reports
#
# ncu runs with --clock-control none: it never changes the GPU's clocks or settings.
set -u
. "$(dirname "$0")/../lib/lib.sh"
cd "$(dirname "$0")/../.." || exit 4
KIT=$(pwd)

size=()
targets=()
panels_only=0
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --panels) panels_only=1; shift ;;
        -n|--rows|--cols)
            [ $# -ge 2 ] || { echo "profile: $1 needs a value" >&2; exit 2; }
            size+=("$1" "$2"); shift 2 ;;
        -*) refuse "unknown option '$1'" ;;
        *) targets+=("$1"); shift ;;
    esac
done
if [ ${#targets[@]} = 0 ]; then
    mapfile -t targets < <(scripts/lib/steps.sh --one-gpu)
fi
# A size other than the programs' default (8192 x 8192) names the files: stepN-RxC.
rows=8192 cols=8192
for ((i = 0; i < ${#size[@]}; i += 2)); do
    case ${size[$i]} in
        -n) rows=${size[$((i + 1))]} cols=$rows ;;
        --rows) rows=${size[$((i + 1))]} ;;
        --cols) cols=${size[$((i + 1))]} ;;
    esac
done
suffix=""
[ "$rows.$cols" = 8192.8192 ] || suffix="-${rows}x${cols}"
# Every target, checked before any work: a step number, or a folder relative to where the
# command was started.
for i in "${!targets[@]}"; do
    t=${targets[$i]}
    if [[ $t =~ ^[0-9]+$ ]]; then
        [ -f "solution/step$t/transpose.cu" ] || refuse "no solution/step$t"
        scripts/lib/steps.sh --across | grep -qx "$t" &&
            refuse "step $t runs across GPUs, one process each; ncu profiles one process"
    else
        t=$(from_start "$t")
        [ -f "$t/transpose.cu" ] || refuse "'${targets[$i]}' is neither a step number nor a folder with transpose.cu"
        targets[$i]=$(cd "$t" && pwd)
    fi
done

if ! command -v ncu >/dev/null; then
    cat >&2 <<'EOF'
profile: ncu (Nsight Compute) is not on the PATH. It ships with the CUDA toolkit in
<cuda>/bin (or <cuda>/nsight-compute-*/); on a cluster try 'module load cuda' or 'nsight-compute'.
It profiles GPUs of compute capability 7.0 and newer. The kit's pre-captured profiles are in
profiles/ (open them with ncu-ui, or read profiles/stepN.txt) if you cannot run it.
EOF
    exit 3
fi

# panel OUT META: the text panel OUT.txt from the report OUT.ncu-rep.
panel() {
    local raw details
    raw=$(mktemp) details=$(mktemp)
    if ! ncu -i "$1.ncu-rep" --page raw --csv --print-units base >"$raw" 2>/dev/null ||
       ! ncu -i "$1.ncu-rep" --page details >"$details" 2>/dev/null; then
        echo "profile: ncu cannot read $1.ncu-rep" >&2; rm -f "$raw" "$details"; return 4
    fi
    [ -n "${PROFILE_KEEP:-}" ] && cp "$raw" "$1.raw.csv" && cp "$details" "$1.details.txt"
    if awk -v meta="$2" -f scripts/lib/ncu-raw.awk -f scripts/profile/profile-panel.awk "$raw" "$details" >"$1.txt.new"; then
        mv "$1.txt.new" "$1.txt"
        echo "profile: wrote $1.txt"
    else
        echo "profile: the panel $1.txt lacks metrics (listed above)" >&2
        rm -f "$1.txt.new" "$raw" "$details"; return 4
    fi
    rm -f "$raw" "$details"
}

mkdir -p profiles
status=0
for t in "${targets[@]}"; do
    if [[ $t =~ ^[0-9]+$ ]]; then
        dir=solution/step$t name=step$t$suffix out=$KIT/profiles/step$t$suffix
    else
        dir=$t name=$(basename "$t") out=$t/profile
    fi

    if [ "$panels_only" = 1 ]; then
        # Keep the capture's own header (device, driver, date, command) when there is one.
        [ -s "$out.ncu-rep" ] || { echo "profile: no $out.ncu-rep to read" >&2; status=2; continue; }
        meta="transpose-kit profile of $name (panel rebuilt from $(basename "$out").ncu-rep)"
        [ -f "$out.txt" ] && meta=$(sed -n '1,7p' "$out.txt" | paste -sd'|')
        panel "$out" "$meta" || status=4
        continue
    fi

    make -s -C "$dir" COMMON="$KIT/common" >/dev/null ||
        { echo "profile: building $dir failed" >&2; status=4; continue; }
    echo "profile: $name: capturing one launch of transpose_kernel ($dir)"
    args=(--no-cpu --reps 1 --warmup 0 "${size[@]}")
    log=$(mktemp)
    (cd "$dir" && ncu --clock-control none --set full --import-source yes \
        -k regex:transpose_kernel -s 0 -c 1 -f -o "$out" ./transpose "${args[@]}") >"$log" 2>&1
    rc=$?
    if grep -q ERR_NVGPUCTRPERM "$log"; then
        cat >&2 <<'EOF'
profile: ERR_NVGPUCTRPERM: this machine lets only administrators read the GPU's performance
counters. Run as root, or have an administrator load the NVIDIA driver with
NVreg_RestrictProfilingToAdminUsers=0 (see NVIDIA's "ERR_NVGPUCTRPERM" page). The kit's
pre-captured profiles in profiles/ need no counters.
EOF
        rm -f "$log"; exit 5
    fi
    if [ $rc != 0 ] || [ ! -s "$out.ncu-rep" ]; then
        echo "profile: ncu failed on $dir (exit $rc):" >&2; tail -n 20 "$log" >&2
        rm -f "$log"; status=4; continue
    fi
    echo "profile: wrote $out.ncu-rep"

    driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)
    device=$(grep -m1 '^device ' "$log" | sed 's/^device [0-9]*: //; s/,.*//')
    sizeline=$(grep -m1 '^transpose-kit ' "$log" | sed 's/^transpose-kit [^:]*: //; s/ floats.*//')
    meta="transpose-kit profile of $name: one launch of transpose_kernel, $sizeline floats"
    meta+="|device:   ${device:-unknown}, driver ${driver:-unknown}"
    meta+="|ncu:      $(ncu --version | tail -n 1)"
    meta+="|captured: $(date -u '+%Y-%m-%d %H:%M UTC')"
    meta+="|command:  ncu --clock-control none --set full --import-source yes -k regex:transpose_kernel -s 0 -c 1 ./transpose ${args[*]}"
    meta+="|open:     ncu-ui $(basename "$out").ncu-rep, or ncu -i $(basename "$out").ncu-rep"
    meta+="|Durations under ncu differ from the kit's event timings: ncu replays and flushes caches."
    rm -f "$log"
    panel "$out" "$meta" || status=4
done
exit $status
