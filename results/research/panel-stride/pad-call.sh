#!/bin/bash
# H200 (or H100): the panels with a bank-conflict-free stride (.devrun/pad, uncommitted) beside the solution's
set -u
cd "$(dirname "$0")"; while [ ! -f common/common.mk ] && [ "$PWD" != / ]; do cd ..; done   # the kit, from .devrun/ or from here
O=$OUT/pad; mkdir -p "$O"; t0=$SECONDS
{ date -u; echo "kit $(cat .devrun/commit) + .devrun/pad (panel stride chosen for the fewest bank conflicts, uncommitted)"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; } >"$O/device.txt" 2>&1
(make -C solution/step7 SM=90 && make -C .devrun/pad SM=90) >"$O/build.txt" 2>&1 || { tail "$O/build.txt"; exit 1; }
EDGE=13x1000,9x777,17x999,45x1001,69x333,85x4097,109x1001,13x33,1x77,3x100001,11x70001,13x1001,9000x11,100003x13,2001x40,70000x33,129x40,33x1
for b in .devrun/pad solution/step7; do
  echo "== TK_PAD_SAY=1 $b/transpose --shapes EDGE --no-cpu --reps 2 --warmup 1"
  TK_PAD_SAY=1 timeout 40 $b/transpose --shapes $EDGE --no-cpu --reps 2 --warmup 1 2>&1 | grep -E "GPU-any|shapes:|WRONG|rror|stride"
  echo "exit $?"
done >"$O/edge.txt" 2>&1
echo "== memcheck" >>"$O/edge.txt"
timeout 60 compute-sanitizer --tool memcheck .devrun/pad/transpose --shapes 13x1001,9x777,11x70001,100003x13 --no-cpu --reps 1 --warmup 0 2>&1 | grep -E "ERROR SUMMARY|WRONG" >>"$O/edge.txt"
S=${SHAPES:-13x13158019,9x28796372,45x44231124,69x44013014,85x1815063,109x19593121,17x9000011,14x33472135,10x7133871,92214058x11,9543220x13,2129413x40}
for s in ${S//,/ }; do
  for b in solution/step7 .devrun/pad solution/step7 .devrun/pad; do
    echo "== $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 ($(date -u +%T))"
    timeout 40 $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 2>&1 | grep -E "^transpose-kit|GPU-any|copy ceiling|WRONG|rror"
  done
done >"$O/time.txt" 2>&1
echo "elapsed $((SECONDS - t0)) s" >>"$O/time.txt"
if [ $((SECONDS - t0)) -lt 440 ] && nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  make -C scripts/bench SM=90 levers >"$O/build-bench.txt" 2>&1
  for s in 63684x63683 55903x55903; do
    echo "== LEVERS=step7-six,step7-ways scripts/bench/levers --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10"
    LEVERS=step7-six,step7-ways timeout 70 scripts/bench/levers --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 2>&1
    echo "exit $?"
  done >"$O/six.txt" 2>&1
fi
cat "$O/device.txt"; grep -c "exact" "$O/edge.txt"; grep -E "not exact|WRONG|rror|SUMMARY|exit" "$O/edge.txt"
awk '/^==/{b=$2; s=$4"x"$6} /GPU-any/{for(i=NF;i>0;i--) if($i~/%$/){p=$i;break}; print s, b, p}' "$O/time.txt"; grep -E "elapsed|WRONG|rror" "$O/time.txt"
[ -f "$O/six.txt" ] && awk '/^==/{s=$5"x"$7} /^(win|step7)/ && NF>=8 {print s, $1, $7, $8} /^note/' "$O/six.txt" | cut -c1-200
