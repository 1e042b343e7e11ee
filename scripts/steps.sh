#!/usr/bin/env bash
# Prints the kit's step numbers in order (1 2 3 ...), one a line: the folders solution/stepN.
#   scripts/steps.sh              every step
#   scripts/steps.sh --one-gpu    the steps that run on one GPU
#   scripts/steps.sh --across     the steps that run across GPUs (their solution's Makefile
#                                 builds the ranks' harness, common/ranks.c)
. "$(dirname "$0")/lib.sh"
want=all
case $# in
    0) ;;
    1) case $1 in -h|--help) usage; exit 0 ;; --one-gpu) want=one ;; --across) want=across ;;
              *) refuse "unknown argument '$1'" ;; esac ;;
    *) refuse "it takes at most one argument" ;;
esac
cd "$(dirname "$0")/.." || exit 4
for n in $(ls -d solution/step*/ | sed 's|solution/step||; s|/||' | sort -n); do
    if grep -q 'ranks\.c' "solution/step$n/Makefile"; then kind=across; else kind=one; fi
    [ "$want" = all ] || [ "$want" = "$kind" ] && echo "$n"
done
