#!/bin/bash
# H200: step 6 ahead of step 7 at 4096 x 4096 (64 MiB a matrix, just past the 60 MiB L2) in the
# H200's sweep of 0.20.0, by 1.2 points. Is one of step 7's ways as fast as step 6 there, and
# does its first-launch trial (five runs of each way, tk_fastest_way) keep it? TURNS turns
# (4 unless set); in each, solution/step6, solution/step7 (its trials keep a way), then
# solution/step7 forced to each of its six ways there (TK_WAY=0 to 5, untimed choice), each
# run a process of its own, median of 20 runs, the output of each checked; the kit's own
# tree, built here.
# Here first (no GPU): git rev-parse --short HEAD > .devrun/commit (carry .devrun)
# Then, where the GPU is: OUT=DIR bash results/research/l2-edge/probe-call.sh
# Ran: on one lent H200, 2026-11-29 12:41 UTC with 4 turns (h200-probe-1-*, the tree of 47ae4db)
# and 12:42 UTC with TURNS=12 (h200-probe-2-*, the same GPU still warm, this file's TURNS added);
# awk -f table.awk on both time.txt gives h200-probe-table.txt.
set -u
. "$(dirname "$0")/../call-lib.sh"
call_device l2-edge
for s in 6 7; do make -C solution/step$s SM=90 >>"$O/build.txt" 2>&1 || { tail "$O/build.txt"; exit 1; }; done
run() {   # run ENV... STEP: one process at 4096 x 4096, its rows and its note
    echo "== $* ($(date -u +%T))"
    env "${@:1:$#-1}" timeout 60 "solution/${!#}/transpose" --rows 4096 --cols 4096 --no-cpu 2>&1 |
        grep -E "copy ceiling|^GPU-|^note|WRONG|rror"
}
for turn in $(seq "${TURNS:-4}"); do
    run TK_NONE=1 step6
    run TK_NONE=1 step7
    for w in 0 1 2 3 4 5; do run TK_WAY=$w step7; done
done >"$O/time.txt" 2>&1
echo "elapsed $((SECONDS - t0)) s" >>"$O/time.txt"
tail -2 "$O/device.txt"
call_clocks
awk -f "$(dirname "$0")/table.awk" "$O/time.txt"
grep -E "elapsed|WRONG|rror" "$O/time.txt"
