#!/bin/bash
# Does the sweep's own procedure make its tall panels slow? Part 3 of the H200 sweep of seed
# 305782686 again (the part that holds 55073492 x 1, 88.0% of the copy in the sweep of 0.17.4),
# by the same command into a CSV of its own, in a call after the sweep's, nvidia-smi sampling
# the clocks every 100 ms, and the GPU's UUID and serial written down (the sweep's device lines
# name neither). As run on 2026-11-28 at 14:10 UTC from the tree of d11f465 (0.17.5; its
# solution is 0.17.4's), without .devrun/commit, so KIT_COMMIT was empty and the rows name the
# lent machine's older .git: 5fadd0f+changes. Where the GPU is:
# OUT=DIR bash results/research/tall-h200/part3-call.sh
set -u
cd "$(dirname "$0")"; while [ ! -f common/common.mk ] && [ "$PWD" != / ]; do cd ..; done   # the kit
O=${OUT:?set OUT to a folder for the logs}; mkdir -p "$O"
{ date -u; echo "kit $(cat .devrun/commit)"; nvidia-smi --query-gpu=name,uuid,serial,memory.total,driver_version,power.limit,clocks.max.sm --format=csv; } >"$O/device.txt" 2>&1
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv -lms 100 >"$O/clocks.csv" 2>&1 &
p=$!; s=$SECONDS
KIT_COMMIT=$(cat .devrun/commit) timeout 270 scripts/results/results.sh --sweep --seed 305782686 --part 3/6 --out "$O/part3.csv" >"$O/part3.txt" 2>&1
echo "exit $? in $((SECONDS - s)) s ($(date -u +%T))" >>"$O/part3.txt"
kill $p
cat "$O/device.txt"; tail -4 "$O/part3.txt"
