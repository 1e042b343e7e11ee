#!/usr/bin/env bash
# no-gpu.sh BIN: whether the kit's program BIN (any ./transpose) finds no usable GPU here.
# Prints the reason BIN gives and exits 0 when it finds none; exits 1 when it finds one.
# The grader, the results script and the tests ask this one question the same way.
. "$(dirname "$0")/lib.sh"
case ${1:-} in -h|--help) usage; exit 0 ;; -*) refuse "unknown option '$1'" ;; esac
[ $# = 1 ] || refuse "it takes one program"
out=$("$1" -n 1 --no-cpu --reps 1 --warmup 0 2>&1)
[ $? = 3 ] || exit 1
echo "$out" | sed -n 's/^GPU rows skipped: //p' | head -n 1
