# Sourced by the kit's scripts before they change directory: one way to print a usage and to
# read a path given on the command line.
TK_START=$(pwd)   # the folder the command was started from
TK_LIB=$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")" >/dev/null && pwd -P)   # this folder, whatever cd comes after

# usage: the comment block at the top of the running script, without its '#'s.
usage() { sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'; }

# from_start PATH: PATH as the user meant it, relative to the folder the command started in.
from_start() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$TK_START/$1" ;; esac; }

# refuse WHAT: an unknown option or argument: says so, prints the usage, exits 2.
refuse() { echo "$(basename "$0" .sh): $1" >&2; usage >&2; exit 2; }

# The size sweep's CSV (scripts/results/results.sh --sweep): its header, and
# sweep_csv_rows PART DATE SEED CLASS MIB COMMIT: the rows of one program's run at one shape
# (PART: its --csv output) as that CSV holds them, one a row of the run.
SWEEP_HEADER="date,seed,class,size_mib,step,row,rows,cols,ms,gbs,pct_copy,commit"
sweep_csv_rows() {
    awk -v cols=step,row,rows,cols,ms_median,gbs,pct_copy -v prefix="$2,$3,$4,$5," -v suffix=",$6" \
        -f "$TK_LIB/csv.awk" -f "$TK_LIB/csv-select.awk" "$1"
}

# kit_commit: the commit the kit's files are at, as a sweep's CSV names it: git's short hash,
# with "+changes" where a tracked file outside results/ differs from it (results/ holds the
# measurements, the sweep's own CSV among them); "unknown" where the kit is not a git
# checkout of its own (a copy without .git, or a folder inside another repository).
kit_commit() {
    local kit h
    # A copy of a checkout whose .git is not its own (a lent machine's copy, .git as it was
    # when the copy began) cannot say: KIT_COMMIT, where set, names the commit the copy is.
    [ -n "${KIT_COMMIT:-}" ] && { echo "$KIT_COMMIT"; return; }
    kit=$(CDPATH='' cd -- "$TK_LIB/../.." >/dev/null && pwd -P)
    [ "$(git -C "$kit" rev-parse --show-toplevel 2>/dev/null)" = "$kit" ] &&
        h=$(git -C "$kit" rev-parse --short=7 HEAD 2>/dev/null) || { echo unknown; return; }
    [ -z "$(git -C "$kit" status --porcelain --untracked-files=no -- . ':!results' 2>/dev/null)" ] ||
        h="$h+changes"
    echo "$h"
}

# have_nccl: prints 1 when NCCL 2.28 or newer is here (nccl.h and nccl_device.h), as
# common/nccl.mk (which the build uses) finds it, NCCL_HOME first where set; nothing
# otherwise. Only the steps across GPUs need it. nccl_include: the folder it found nccl.h in.
# For the tests, TK_TEST_NO_NCCL=1 stands in for a machine without it.
nccl_mk() {
    make -s -f "$TK_LIB/../../common/nccl.mk" -f - print 2>/dev/null \
        <<<"print: ; @echo \$($1)"
}
have_nccl() { [ "${TK_TEST_NO_NCCL:-}" = 1 ] || nccl_mk HAVE_NCCL; }
nccl_include() { nccl_mk NCCL_INCLUDE; }

# no_gpu BIN: true where the kit's program BIN (any ./transpose) can run no GPU row here, with
# NO_GPU_STATUS its exit status (3: no usable GPU; 6: a driver older than the build's CUDA),
# NO_GPU_WHY the reason it gives and NO_GPU_SAID the words for it ("no usable GPU here", or
# "the driver is too old for this build"); false where it finds a GPU it can use.
no_gpu() {
    local out rc
    out=$("$1" -n 1 --no-cpu --reps 1 --warmup 0 2>&1)
    rc=$?
    [ "$rc" = 3 ] || [ "$rc" = 6 ] || return 1
    NO_GPU_STATUS=$rc
    NO_GPU_WHY=$(echo "$out" | sed -n 's/^GPU rows skipped: //p' | head -n 1)
    NO_GPU_SAID="no usable GPU here"
    [ "$rc" = 6 ] && NO_GPU_SAID="the driver is too old for this build"
    return 0
}

# host_refusal FILE...: the harness's refusal of a shape whose two host matrices the host's
# memory (or the job's share of it: common/hostmem.h) cannot hold, from the first of FILEs
# (a program's messages) that holds it, without the program's name; nothing where none does.
# memory_refusal FILE...: the same, of the host's or the device's memory.
host_refusal() { refusal_of host "$@"; }
memory_refusal() { refusal_of '(host|device)' "$@"; }
refusal_of() {   # refusal_of WHOSE FILE...: WHOSE an extended regex, host or device
    local whose=$1; shift
    grep -h -m1 -E "needs two $whose matrices" "$@" 2>/dev/null | head -n 1 | sed 's/^[^:]*: //'
}

# visible_gpu: the GPU a program started here uses, as nvidia-smi -i takes it: the first of
# CUDA_VISIBLE_DEVICES (an index or a UUID), else 0.
visible_gpu() { local dev=${CUDA_VISIBLE_DEVICES:-0}; echo "${dev%%,*}"; }

# gpu_others: what else uses the GPU this shell's programs run on (CUDA_VISIBLE_DEVICES's
# first, else GPU 0), as nvidia-smi lists it, one line each: "pid PID NAME (N MiB)" for each
# compute process other than this shell, and "MIG: ..." where the GPU is split into MIG
# slices (a slice's memory and L2 are its own: its figures are the slice's, not the GPU's).
# Nothing where there is no nvidia-smi; a container may not see other containers' processes.
gpu_others() {
    command -v nvidia-smi >/dev/null || return 0
    nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader,nounits \
        -i "$(visible_gpu)" 2>/dev/null |
        awk -F', *' -v me="$$" '$1 ~ /^[0-9]+$/ && $1 != me { printf "pid %s %s (%s MiB)\n", $1, $2, $3 }'
    if nvidia-smi -L 2>/dev/null | grep -q '^  MIG '; then
        echo "MIG: this GPU is split into MIG slices; a slice's memory bandwidth is its own share"
    fi
    return 0
}

# build_files BASE DIR: copies what a step folder BASE builds with besides its transpose.cu
# (its Makefile, and headers of its own such as solution/step7/panels.cuh) into DIR.
build_files() {
    local f
    cp "$1/Makefile" "$2/" || return 1
    for f in "$1"/*.cuh; do
        [ -f "$f" ] && { cp "$f" "$2/" || return 1; }
    done
    return 0
}

# described BIN: "STEP ROW TODO", from the line BIN --describe prints of itself; nothing
# where BIN does not run or prints no such line.
described() {
    "$1" --describe 2>/dev/null | sed -n 's/^step=\([^ ]*\) row=\([^ ]*\) todo=\([^ ]*\).*$/\1 \2 \3/p'
}

# edited_folder DESC BASE DIR: DIR, a folder that builds as BASE does, whose transpose.cu is
# BASE's edited as the description DESC says (tests/mistake.awk: a mistake, a variant, a
# mutant); fails, mistake.awk saying why, where the edit does not apply.
edited_folder() {
    mkdir -p "$3" && build_files "$2" "$3" &&
        awk -f "$TK_LIB/../../tests/mistake.awk" "$1" "$2/transpose.cu" >"$3/transpose.cu"
}

# gpus_shared: true when every GPU nvidia-smi lists lets several processes use it at once
# (compute mode Default); false where one is exclusive or prohibited, or nvidia-smi is
# missing: then work on the GPU runs one process at a time.
gpus_shared() {
    local modes
    modes=$(nvidia-smi --query-gpu=compute_mode --format=csv,noheader 2>/dev/null) || return 1
    [ -n "$modes" ] && ! grep -qv '^Default$' <<<"$modes"
}
