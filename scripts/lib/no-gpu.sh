#!/usr/bin/env bash
# no-gpu.sh BIN: whether the kit's program BIN (any ./transpose) finds no usable GPU here.
# Prints the reason BIN gives and exits 0 when it finds none (no GPU, or a driver older than
# the build: lib.sh's no_gpu tells them apart); exits 1 when it finds one.
. "$(dirname "$0")/lib.sh"
case ${1:-} in -h|--help) usage; exit 0 ;; -*) refuse "unknown option '$1'" ;; esac
[ $# = 1 ] || refuse "it takes one program"
no_gpu "$1" || exit 1
echo "$NO_GPU_WHY"
