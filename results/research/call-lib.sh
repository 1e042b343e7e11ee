# What the research call scripts share (sourced, bash): each times the solution of a tree laid
# out by its folder's variants.sh beside that tree's patched builds on a lent GPU, one process a
# shape, and writes its logs under OUT. The script sets T (the laid-out tree, carried) and V
# (its builds under T/v), then calls:
#   call_begin NAME        the kit as the working folder, O=$OUT/NAME, device.txt (with the
#                          GPU's UUID and serial), clocks.csv (nvidia-smi every 100 ms until
#                          call_summary), every build made (SM=90), B the binaries' folders
#                          (the solution first)
#   call_time SHAPES BY    time.txt: each shape RxC, each build of B twice in turn, median of
#                          10, with the launch's note of the ways it timed, until BY s have
#                          passed since call_begin (TIME_BY overrides)
#   call_turns SHAPES BY CONFIG...   time.txt: each shape RxC in two turns (TURNS=N: N), in
#                          each turn each CONFIG ("ENV... BUILD": words for env, then a binary's
#                          folder) once, median of 10, until BY s have passed since call_begin
#                          (TIME_BY overrides)
#   call_sanitize BUILDS SHAPES  sanitizer.txt: memcheck and racecheck on each build of BUILDS
#                          in turn at each shape, each build's run ending with its elapsed line
#   call_build_logs        the builds' logs gathered into build.txt (fewer files to bring back)
#   call_ncu METRICS SHAPES BY   ncu.txt: each build of B under Nsight Compute, its first panel
#                          launch, until BY s have passed (NCU_BY overrides)
#   call_summary           the device, each shape's % of the copy by build (where time.txt
#                          is), what went wrong
# sweep-call.sh (a sweep's parts, no builds of its own) calls call_device and call_clocks alone;
# tall-split/check-call.sh (the kit's own solution/step7 under the sanitizers) call_device,
# call_sanitize and call_summary.
call_device() {   # call_device NAME: the kit as the working folder, O, device.txt, clocks.csv
    cd "$(dirname "$0")" || exit 1
    while [ ! -f common/common.mk ] && [ "$PWD" != / ]; do cd ..; done   # the kit
    O=${OUT:?set OUT to a folder for the logs}/$1; mkdir -p "$O"; t0=$SECONDS
    { date -u; echo "kit $(cat .devrun/commit)"; nvidia-smi --query-gpu=name,uuid,serial,memory.total,driver_version,power.limit,clocks.max.sm --format=csv; } >"$O/device.txt" 2>&1
    nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv -lms 100 >"$O/clocks.csv" 2>&1 &
    smi=$!
    trap 'kill "$smi" 2>/dev/null' EXIT   # however the script ends
}
call_clocks() {   # the sampler stopped; the SM clock's range over the busy samples
    kill "$smi" 2>/dev/null; trap - EXIT
    awk -F', ' 'NR > 1 && $2 + 0 > 400 { n++; if (lo == "" || $2 + 0 < lo) lo = $2 + 0; if ($2 + 0 > hi) hi = $2 + 0 }
                END { print "SM clock while busy (over 400 MHz): " n " samples, " lo " to " hi " MHz" }' "$O/clocks.csv"
}
call_begin() {
    local v
    call_device "$1"
    for v in $V; do [ -f "$T/v/$v/panels.cuh" ] || { echo "no $T/v/$v: see this script's header"; exit 1; }; done
    make -C "$T/solution/step7" SM=90 >"$O/build.txt" 2>&1 & local builds=$!
    for v in $V; do make -C "$T/v/$v" SM=90 >"$O/build-$v.txt" 2>&1 & builds="$builds $!"; done
    wait $builds   # not the sampler, which runs until call_summary
    [ -x "$T/solution/step7/transpose" ] || { tail "$O/build.txt"; exit 1; }
    for v in $V; do [ -x "$T/v/$v/transpose" ] || { tail "$O/build-$v.txt"; exit 1; }; done
    B="$T/solution/step7"; for v in $V; do B="$B $T/v/$v"; done
}
call_time() {
    local s b
    for s in ${SHAPES:-$1}; do
      for b in $B $B; do
        [ $((SECONDS - t0)) -lt "${TIME_BY:-$2}" ] || break 2
        echo "== $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 ($(date -u +%T))"
        timeout 60 "$b/transpose" --rows "${s%x*}" --cols "${s#*x}" --no-cpu --reps 10 2>&1 | grep -E "^transpose-kit|GPU-any|copy ceiling|^note|WRONG|rror"
      done
    done >"$O/time.txt" 2>&1
    echo "elapsed $((SECONDS - t0)) s" >>"$O/time.txt"
}
call_turns() {
    local s turn c shapes=$1 by=$2; shift 2
    for s in ${SHAPES:-$shapes}; do
      for ((turn = 1; turn <= ${TURNS:-2}; turn++)); do
        [ $((SECONDS - t0)) -lt "${TIME_BY:-$by}" ] || break 2
        for c in "$@"; do   # ${c% *} the environment's words, ${c##* } the build
          echo "== ${c% *} ${c##* }/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 10 ($(date -u +%T))"
          env ${c% *} timeout 90 "${c##* }/transpose" --rows "${s%x*}" --cols "${s#*x}" --no-cpu --reps 10 2>&1 | grep -E "GPU-any|copy ceiling|^note|WRONG|rror"
        done
      done
    done >"$O/time.txt" 2>&1
    echo "elapsed $((SECONDS - t0)) s" >>"$O/time.txt"
}
call_sanitize() {
    local b s tool
    for b in $1; do
      for s in $2; do for tool in memcheck racecheck; do
        echo "== compute-sanitizer --tool $tool $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0"
        timeout 60 compute-sanitizer --tool $tool "$b/transpose" --rows "${s%x*}" --cols "${s#*x}" --no-cpu --reps 1 --warmup 0 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|GPU-any|WRONG|rror"
      done; done
      echo "elapsed $((SECONDS - t0)) s"
    done >"$O/sanitizer.txt" 2>&1
}
call_build_logs() {   # the builds' logs into build.txt, one file (a device call brings back at most 8)
    local v
    for v in $V; do { echo "== build-$v.txt"; cat "$O/build-$v.txt"; } >>"$O/build.txt"; rm -f "$O/build-$v.txt"; done
}
call_ncu() {
    local s b
    for s in $2; do for b in $B; do
      [ $((SECONDS - t0)) -lt "${NCU_BY:-$3}" ] || break 2
      echo "== ncu --clock-control none --metrics $1 -k regex:panel --launch-count 1 $b/transpose --rows ${s%x*} --cols ${s#*x} --no-cpu --reps 1 --warmup 0"
      timeout 60 ncu --clock-control none --metrics "$1" -k regex:panel --launch-count 1 "$b/transpose" --rows "${s%x*}" --cols "${s#*x}" --no-cpu --reps 1 --warmup 0 2>&1 | grep -E "^ +[a-z0-9_]+__|panel_"
    done; done >"$O/ncu.txt" 2>&1
    echo "elapsed $((SECONDS - t0)) s" >>"$O/ncu.txt"
}
call_summary() {
    tail -2 "$O/device.txt"
    call_clocks
    if [ -f "$O/time.txt" ]; then
        awk '/^==/{b=$2; sub(/\/transpose$/, "", b); sub(/.*\//, "", b); s=$4"x"$6} /GPU-any/{for(i=NF;i>0;i--) if($i~/%$/){p=$i;break}; r[s]=r[s] " " b "=" p} END{for(s in r) print s r[s]}' "$O/time.txt"
        grep -E "elapsed|WRONG|rror" "$O/time.txt"
    fi
    [ -f "$O/sanitizer.txt" ] && grep -vE "^== " "$O/sanitizer.txt" | sort | uniq -c
    [ -f "$O/ncu.txt" ] && grep -E "^==|inst_exec|duration|issue_active|dram__|lts__|elapsed" "$O/ncu.txt" | sed 's/  */ /g' | cut -c1-150
    return 0
}
