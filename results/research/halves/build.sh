#!/bin/bash
# Builds one of this folder's programs (halves or copies) for sm_90 against the harness's
# L2 flush, copy kernel and checks (common/flush.cu) and its CUDA_CHECK (common/cuda_check.c):
# bash build.sh NAME OUT, the binary at OUT; nvcc's messages on standard error.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
common=$here/../../../common
nvcc -O3 -arch=sm_90 -I"$common" -o "${2:?usage: build.sh halves|copies OUT}" "$here/${1:?}.cu" \
    "$common/flush.cu" "$common/cuda_check.c"
