#!/bin/bash
# Does a sweep's sustained load slow the tall panels, and do the SM's clocks say why? The H200
# sweep of 0.17.4 (2026-11-28, 13:31 to 13:48 UTC) ran five tall panel shapes 3 to 7 points
# under vector-call.sh's run of the same code minutes before it, with the copy ceilings within
# 1% of the sweep of 0.17.0's. Here, on one machine: the solution's step 7 at those shapes, at 2129413 x 40,
# at a wide panel (67 x 2537362) and a window shape (32768 x 32768), one process a shape, median
# of 10 (round 1); then about 150 s of load (step 7 at 32768 x 32768, many repetitions); then
# the same shapes again (round 2). nvidia-smi samples the SM and memory clocks, power,
# temperature and the clocks' event reasons every 100 ms throughout (clocks.csv). Nothing here
# sets a clock. Where the GPU is: OUT=DIR bash results/research/tall-h200/clock-call.sh
set -u
cd "$(dirname "$0")"; while [ ! -f common/common.mk ] && [ "$PWD" != / ]; do cd ..; done   # the kit
O=${OUT:?set OUT to a folder for the logs}/clock; mkdir -p "$O"; t0=$SECONDS
{ date -u; echo "kit $(cat .devrun/commit)"; nvidia-smi --query-gpu=name,memory.total,driver_version,power.limit,clocks.max.sm,clocks.max.mem --format=csv; } >"$O/device.txt" 2>&1
make -C solution/step7 SM=90 >"$O/build.txt" 2>&1 || { tail "$O/build.txt"; exit 1; }
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,temperature.memory,clocks_event_reasons.active --format=csv -lms 100 >"$O/clocks.csv" 2>&1 &
smi=$!
B=solution/step7/transpose
round() {
  for s in 55073492x1 60670744x2 11754751x6 21208700x7 5869126x16 2129413x40 67x2537362 32768x32768; do
    echo "== round $1: $B --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 ($(date -u +%T.%N | cut -c1-12))"
    timeout 60 $B --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 2>&1 | grep -E "^transpose-kit|GPU-any|copy ceiling \(|WRONG|rror"
  done
}
{ round 1
  echo "== load: $B --rows 32768 --cols 32768 --no-cpu --reps 10000 --warmup 0, again until ${LOAD_S:-150} s have passed ($(date -u +%T.%N | cut -c1-12))"
  end=$((SECONDS + ${LOAD_S:-150}))
  while [ $SECONDS -lt $end ]; do timeout $((end - SECONDS + 1)) $B --rows 32768 --cols 32768 --no-cpu --reps 10000 --warmup 0 2>&1 | grep -E "GPU-any|rror"; done
  echo "== load ends ($(date -u +%T.%N | cut -c1-12))"
  round 2; } >"$O/time.txt" 2>&1
kill $smi
echo "elapsed $((SECONDS - t0)) s" >>"$O/time.txt"
tail -1 "$O/device.txt"
awk '/^== round/{r=$3; s=$6"x"$8} /GPU-any/{for(i=NF;i>0;i--) if($i~/%$/){p=$i;break}; v[s]=v[s] " r" r "=" p} END{for(s in v) print s v[s]}' "$O/time.txt" | sed 's/://g'
grep -E "^== load|elapsed|WRONG|rror" "$O/time.txt"
