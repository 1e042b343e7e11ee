# Sourced by the kit's scripts before they change directory: one way to print a usage and to
# read a path given on the command line.
TK_START=$(pwd)   # the folder the command was started from

# usage: the comment block at the top of the running script, without its '#'s.
usage() { sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'; }

# from_start PATH: PATH as the user meant it, relative to the folder the command started in.
from_start() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$TK_START/$1" ;; esac; }

# refuse WHAT: an unknown option or argument: says so, prints the usage, exits 2.
refuse() { echo "$(basename "$0" .sh): $1" >&2; usage >&2; exit 2; }

# have_nccl: prints 1 when NCCL 2.28 or newer is here (nccl.h and nccl_device.h), as
# common/nccl.mk (which the build uses) finds it, NCCL_HOME first where set; nothing
# otherwise. Only the steps across GPUs need it. nccl_include: the folder it found nccl.h in.
nccl_mk() {
    make -s -f "$(dirname "${BASH_SOURCE[0]}")/../../common/nccl.mk" -f - print 2>/dev/null \
        <<<"print: ; @echo \$($1)"
}
have_nccl() { nccl_mk HAVE_NCCL; }
nccl_include() { nccl_mk NCCL_INCLUDE; }

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
        awk -f "$(dirname "${BASH_SOURCE[0]}")/../../tests/mistake.awk" "$1" "$2/transpose.cu" >"$3/transpose.cu"
}

# gpus_shared: true when every GPU nvidia-smi lists lets several processes use it at once
# (compute mode Default); false where one is exclusive or prohibited, or nvidia-smi is
# missing: then work on the GPU runs one process at a time.
gpus_shared() {
    local modes
    modes=$(nvidia-smi --query-gpu=compute_mode --format=csv,noheader 2>/dev/null) || return 1
    [ -n "$modes" ] && ! grep -qv '^Default$' <<<"$modes"
}
