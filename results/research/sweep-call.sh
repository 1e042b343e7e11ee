#!/bin/bash
# One call of a size sweep on a lent GPU, in parts (scripts/results/results.sh --sweep --part):
# parts FIRST to LAST of N of seed SEED, each into results/GPU-sweep-SEED.csv and its notes,
# results/GPU-sweep-SEED-copy.txt, by the kit of .devrun/commit (KIT_COMMIT: the rows name
# it). Beside them, under OUT/sweep: device.txt (the GPU's name, UUID and serial: which
# machine ran which part), clocks.csv (nvidia-smi every 100 ms), partI.txt (each part's
# output) and a copy of the CSV and of its notes, which the next call needs together (results.sh
# --part takes a CSV only with its own notes), copied after every part: copy both back into
# results/ before the next call.
# Here first: git rev-parse --short HEAD > .devrun/commit (and carry .devrun); on a sweep's
# first call no CSV of that name may be in results/ (move an earlier run's aside, as
# results/README.md's file table names it). Then, where the GPU is:
# OUT=DIR bash results/research/sweep-call.sh GPU SEED FIRST LAST N
# A part may take PART_LIMIT s (default 580: a device call's limit); one that fails or runs
# past it stops the call, which then exits 1 (the parts before it are in the CSV).
set -u
. "$(dirname "$0")/call-lib.sh"
gpu=${1:?usage: sweep-call.sh GPU SEED FIRST LAST N} seed=${2:?} first=${3:?} last=${4:?} n=${5:?}
call_device sweep
csv=results/$gpu-sweep-$seed.csv status=0
for ((i = first; i <= last; i++)); do
    KIT_COMMIT=$(cat .devrun/commit) timeout "${PART_LIMIT:-580}" scripts/results/results.sh --sweep \
        --seed "$seed" --part "$i/$n" --out "$csv" >"$O/part$i.txt" 2>&1 ||
        { echo "part $i of $n: exit $? (124: past PART_LIMIT)"; status=1; break; }
    echo "part $i of $n done at $(date -u +%T), $((SECONDS - t0)) s"
    # after every part, so that a call cut off by the device's limit still brings the parts back
    cp "$csv" "${csv%.csv}-copy.txt" "$O/" 2>/dev/null
done
tail -2 "$O/device.txt"
call_clocks
exit $status
