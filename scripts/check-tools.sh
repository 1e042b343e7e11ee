#!/usr/bin/env bash
# Says what the kit found, one line an item. What it needs to build: nvcc (CUDA 12.4 or newer),
# a C compiler with OpenMP, GNU Make ("found: ..." or "missing: ..." with how to get it, and
# exit status 1). What it can do without (a "note: ..." where missing, exit status 0): cuBLAS
# (make test's library row, make results), NCCL 2.28 or newer (steps 8 to 10, across GPUs), ncu
# (profiles), compute-sanitizer (the grader's sanitizer checks); and the driver's CUDA version
# beside the toolkit's (without a driver the kit builds, but no GPU row runs).
. "$(dirname "$0")/lib/lib.sh"
case ${1:-} in
    "") ;;
    -h|--help) usage; exit 0 ;;
    *) refuse "unknown argument '$1'" ;;
esac
missing=0
found() { echo "found: $1"; }
need() { echo "missing: $1" >&2; missing=1; }
note() { echo "note: $1" >&2; }
# older A B: true when version A (X.Y) is older than B.
older() { awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, "."); split(b, y, ".")
    exit !(x[1] + 0 < y[1] + 0 || (x[1] + 0 == y[1] + 0 && x[2] + 0 < y[2] + 0)) }'; }

# Requirements.
toolkit=
if nvcc=$(command -v nvcc); then
    toolkit=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9.]*\),.*/\1/p')
    found "nvcc ${toolkit:-(version unknown)} ($nvcc)"
    if older "${toolkit:-0}" 12.0; then
        note "nvcc ${toolkit:-of unknown version} is older than 12.0: steps 1-7 and the library row build with 11.8 (and gcc 11: make NVCCFLAGS='-O3 -lineinfo -ccbin g++-11'); the lever benchmark and steps 8 to 10 need 12.0 or newer"
    elif older "${toolkit:-0}" 12.4; then
        note "nvcc $toolkit: the kit was built and tested with 12.4 and newer; 12.0 to 12.3 were not tried"
    fi
    # The toolkit's folder, as PATH names it and with every link followed.
    cuda=("$(dirname "$(dirname "$nvcc")")" "$(dirname "$(dirname "$(readlink -f "$nvcc")")")")
else
    need "nvcc, the CUDA toolkit 12.4 or newer (https://developer.nvidia.com/cuda-downloads; apt-get install nvidia-cuda-toolkit; or 'module load cuda' on a cluster; put its bin/ on PATH)"
fi
if command -v gcc >/dev/null; then
    if echo 'int main(void){return 0;}' | gcc -fopenmp -x c - -o /dev/null 2>/dev/null; then
        found "gcc $(gcc -dumpfullversion 2>/dev/null || gcc -dumpversion) with OpenMP"
    else
        need "OpenMP for gcc (libgomp: apt-get install gcc, or your cluster's gcc module)"
    fi
else
    need "gcc, the host compiler nvcc uses, with OpenMP (apt-get install gcc)"
fi
if make --version 2>/dev/null | grep -q '^GNU Make'; then
    found "$(make --version | head -n 1)"
else
    need "GNU Make (apt-get install make)"
fi

# Optional: each enables a part of the kit.
exists() { local f; for f in "$@"; do [ -e "$f" ] && return 0; done; return 1; }
if [ -n "${cuda[*]:-}" ] && exists {"${cuda[0]}","${cuda[1]}",/usr,/usr/local}/include/cublas_v2.h &&
   exists {"${cuda[0]}","${cuda[1]}"}/lib{64,}/libcublas.so {/usr/lib/*-linux-gnu,/usr/local/lib}/libcublas.so; then
    found "cuBLAS (cublas_v2.h, libcublas): make test's library row and make results"
else
    note "no cuBLAS (cublas_v2.h and libcublas beside nvcc): make test's library row and make results need it; it is among the toolkit's packages (cuda-libraries-dev, libcublas-dev)"
fi
# NCCL, where the build looks for it (common/nccl.mk: NCCL_HOME first).
nccl_version() {   # nccl_version FOLDER: X.Y.Z from FOLDER/nccl.h
    awk '$1 == "#define" && $2 ~ /^NCCL_(MAJOR|MINOR|PATCH)$/ { v[$2] = $3 }
         END { if ("NCCL_MAJOR" in v) print v["NCCL_MAJOR"] "." v["NCCL_MINOR"] "." v["NCCL_PATCH"] }' "$1/nccl.h"
}
if [ "$(have_nccl)" = 1 ] && inc=$(readlink -f "$(nccl_include)") && v=$(nccl_version "$inc") &&
   ! older "${v:-0}" 2.28; then
    found "NCCL $v ($inc): steps 8 to 10, across GPUs"
else
    inc=$(for d in $(nccl_mk NCCL_DIRS); do [ -f "$d/nccl.h" ] && echo "$d" && break; done)
    note "${inc:+NCCL $(nccl_version "$inc") ($inc) is older than 2.28; }no NCCL 2.28 or newer (nccl.h with nccl_device.h): steps 8 to 10, across GPUs, are left out; install libnccl-dev or pip's nvidia-nccl-cu12 (-cu13), then make NCCL_HOME=/its/folder"
fi
tool_version() { "$1" --version 2>/dev/null | sed -n 's/^Version \([^ ]*\).*/ \1/p' | head -n 1; }
if command -v ncu >/dev/null; then found "ncu$(tool_version ncu): profiles (scripts/profile/profile.sh)"
else note "no ncu (Nsight Compute): profiles (scripts/profile/profile.sh) need it; it comes with the toolkit's installer (or apt-get install nsight-compute)"; fi
if command -v compute-sanitizer >/dev/null; then
    found "compute-sanitizer$(tool_version compute-sanitizer): the grader's sanitizer checks"
else
    note "no compute-sanitizer: the grader's sanitizer checks are skipped; it comes with the toolkit (cuda-sanitizer)"
fi

# The driver: which CUDA it supports, beside the toolkit's.
if ! command -v nvidia-smi >/dev/null; then
    note "no NVIDIA driver found (no nvidia-smi): the kit builds, but no GPU row runs"
elif ! smi=$(nvidia-smi 2>/dev/null) || ! driver=$(sed -n 's/.*CUDA Version: *\([0-9][0-9.]*\).*/\1/p' <<<"$smi" | head -n 1) ||
     [ -z "$driver" ]; then
    note "nvidia-smi names no driver's CUDA version (no driver loaded?): the kit builds, but no GPU row runs"
else
    dv=$(sed -n 's/.*Driver Version: *\([0-9][0-9.]*\).*/\1/p' <<<"$smi" | head -n 1)
    if [ -z "$toolkit" ] || ! older "$driver" "$toolkit"; then
        found "driver ${dv:-?}, CUDA $driver${toolkit:+ (the toolkit: $toolkit)}"
    elif [ "${driver%%.*}" = "${toolkit%%.*}" ]; then
        note "driver ${dv:-?} supports CUDA $driver, the toolkit is $toolkit: programs built for this GPU run (minor version compatibility), PTX does not; update the driver or build with toolkit $driver"
    else
        note "driver ${dv:-?} supports CUDA $driver, older than the toolkit's $toolkit: nothing built here runs; update the driver or build with toolkit $driver"
    fi
fi
exit $missing
