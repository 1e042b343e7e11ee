#!/bin/bash
# H200: step 7's six ways against the same with a seventh (128 x 64 windows, one band), in one run, at the
# window shapes of the H200's sweep (seed 305782686) under 90% of the copy and a few above.
set -u
cd "$(dirname "$0")"; while [ ! -f common/common.mk ] && [ "$PWD" != / ]; do cd ..; done   # the kit, from .devrun/ or from here
O=$OUT/seven; mkdir -p "$O"; t0=$SECONDS
{ date -u; echo "kit $(cat .devrun/commit) + bench: win-c128-*, step7-seven (working tree)"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; } >"$O/device.txt" 2>&1
make -C scripts/bench SM=90 levers >"$O/build.txt" 2>&1 || { tail -30 "$O/build.txt"; exit 1; }
for s in 8192x8191 8191x8191 12345x6789 12425x12429 16383x16385 16503x16498 18731x18738 28787x28783 806744x381 3037383x98 34264x34258 18808x192869 46299x46306 55903x55903 59660x59662 63684x63683 65477x65478; do
  [ $((SECONDS - t0)) -lt ${TIME_BY:-470} ] || { echo "stopped before $s at $((SECONDS - t0)) s"; break; }
  echo "== LEVERS=step7-s scripts/bench/levers --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 ($(date -u +%T))"
  LEVERS=step7-s timeout 150 scripts/bench/levers --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 2>&1; echo "exit $?"
done >"$O/time.txt" 2>&1
echo "elapsed $((SECONDS - t0)) s" >>"$O/time.txt"
awk '/^== LEVERS/{s=$5" x "$7} /^step7-s/{p[$1]=$(NF-1)} /^ +step7-s/{} /^exit/{print s, "six", p["step7-six"], "seven", p["step7-seven"]} /stopped|elapsed/' "$O/time.txt"
grep -E "^note" "$O/time.txt" | sed 's/.*): //' | cut -c1-200
