# The scripts as a user meets them without a GPU: job scripts, grader, results reporting
# (on the committed H100 reference), profile capture's argument handling and the committed
# profile panels. Their GPU runs are in test_4_gpu.sh.

# Cluster jobs: syntax, shellcheck where installed, and the plan of a dry run.
for f in scripts/cluster/job.sh scripts/cluster/slurm.sbatch scripts/cluster/pbs.pbs; do
    expect "$f passes bash -n" 0 '' bash -n "$f"
    if command -v shellcheck >/dev/null; then
        expect "$f passes shellcheck" 0 '' shellcheck -s bash -S warning "$f"
    else
        skip "$f passes shellcheck" "shellcheck is not installed"
    fi
done
expect "slurm job: --dry-run prints the plan for all steps" 0 'run: .*scripts/results/results.sh -n 8192' \
    scripts/cluster/slurm.sbatch --dry-run
expect "pbs job: STEP, SIZE and MODULES come from the environment" 0 \
    'module load cuda/13.0 gcc' env STEP=3 SIZE=4096 MODULES="cuda/13.0 gcc" scripts/cluster/pbs.pbs --dry-run
judge "pbs job: runs the named step at SIZE" 0 'solution/step3/transpose -n 4096'
expect "job: a bad SIZE is refused" 2 'SIZE must be a whole number' env SIZE=big scripts/cluster/job.sh --dry-run
expect "job: an unknown step folder is refused" 2 'no nosuch/transpose.cu' env STEP=nosuch scripts/cluster/job.sh --dry-run
# Step 8's plans: one task forks its ranks; several Slurm tasks are ranks srun starts, in
# launcher mode, NCCL's id through a file in the kit's folder named by the job; LAUNCHER
# names another launcher (PBS's mpirun).
across=${ACROSS_NUMS%% *}
if [ -n "$across" ]; then
    expect "slurm job, step $across in one task: the harness forks its ranks (no --id-file)" 0 \
        "run: .* solution/step$across/transpose -n 8192\\)   with" \
        env -u SLURM_NTASKS -u LAUNCHER STEP="$across" scripts/cluster/slurm.sbatch --dry-run
    expect "slurm job, step $across in 8 tasks: srun starts the ranks, launcher mode, the job's id file" 0 \
        "run: .*&& srun --kill-on-bad-exit=1 --ntasks=8 --cpus-per-task=4 solution/step$across/transpose -n 8192 --id-file $TK_ROOT/\\.nccl-id\\.77\\)" \
        env -u LAUNCHER STEP="$across" SLURM_JOB_ID=77 SLURM_NTASKS=8 SLURM_CPUS_PER_TASK=4 \
        SLURM_SUBMIT_DIR="$TK_ROOT" scripts/cluster/slurm.sbatch --dry-run
    expect "pbs job, step $across with LAUNCHER: mpirun starts the ranks, launcher mode" 0 \
        "run: .*&& mpirun -np 8 solution/step$across/transpose -n 8192 --id-file $TK_ROOT/\\.nccl-id\\.5\\.pbs01\\)" \
        env -u SLURM_JOB_ID STEP="$across" LAUNCHER="mpirun -np 8" PBS_JOBID=5.pbs01 \
        PBS_O_WORKDIR="$TK_ROOT" scripts/cluster/pbs.pbs --dry-run
    expect "job: LAUNCHER without a step is refused" 2 'LAUNCHER starts the ranks of one step across GPUs: set STEP too' \
        env STEP=all LAUNCHER=srun scripts/cluster/job.sh --dry-run
fi

# The grader without a GPU: builds, says which step and that nothing was graded; exit 3.
expect "grade: without a step folder it says so, with the usage, exit 2" 2 'grade: it takes one folder' scripts/grade/grade.sh
judge "grade: the usage names the command" 2 'scripts/grade/grade.sh DIR'
expect "grade: an untouched starter without a GPU: builds, notes its open TODOs, exit 3" 3 \
    '^note: it still calls tk_unfinished' env CUDA_VISIBLE_DEVICES= scripts/grade/grade.sh step3
judge "grade: says it graded nothing" 3 '^PASS build' '^nothing was graded: no usable GPU here'
run_cmd env CUDA_VISIBLE_DEVICES= scripts/grade/grade.sh solution/step3
if [ "$RC" = 3 ] && ! grep -q 'tk_unfinished' "$LAST_OUT"; then
    pass "grade: a solution without a GPU: no open-TODO note, exit 3"
else
    fail "grade: a solution without a GPU: no open-TODO note, exit 3" "exit $RC"
fi
expect "make check runs the grader in a step folder (make exits 2 on a failed recipe)" 2 '^grade: .*step2' \
    env CUDA_VISIBLE_DEVICES= make -s -C step2 check

# Results: reporting from the committed reference runs, no GPU needed.
# check_reference GPU TABLE-COLUMN ROWS...: the committed results/GPU-reference.csv has every
# column and the ROWS, each parsed and checked; its table and chart print without a GPU; the
# GB/s column for that GPU of the reference table in results/README.md is the CSV's.
check_reference() {
    local gpu=$1 column=$2 ref=results/$1-reference.csv row n bad; shift 2
    [ -f "$ref" ] || { fail "the committed $gpu reference run exists" "$ref is missing"; return; }
    pass "the committed $gpu reference run exists"
    want="date,step,row,device,cc,peak_gbs,rows,cols,reps,ms_median,ms_min,ms_max,gbs,pct_peak,pct_copy,checked,k20x_gbs,cuda_runtime,driver,nvidia_driver"
    [ "$(head -n 1 "$ref")" = "$want" ] && pass "$gpu reference CSV: every column" ||
        fail "$gpu reference CSV: every column" "header is $(head -n 1 "$ref")"
    bad=$(awk -f scripts/lib/csv.awk -f tests/reference-rows.awk "$ref" 2>&1) || bad="awk failed: $bad"
    [ -z "$bad" ] && pass "$gpu reference CSV: every row parses, numeric and checked" ||
        fail "$gpu reference CSV: every row parses, numeric and checked" "bad lines: $bad"
    for row in "$@" "copy ceiling"; do
        grep -q ",$row," "$ref" && pass "$gpu reference CSV: has the $row row" || fail "$gpu reference CSV: has the $row row" "missing"
    done
    cp "$ref" "$TK_BUILD/$gpu-ref.csv"
    expect "results --table prints the $gpu reference's table without a GPU" 0 '^GPU-vector-tile ' \
        scripts/results/results.sh --table "$TK_BUILD/$gpu-ref.csv"
    n=$(grep -cE '^(CPU\+OMP|GPU-[a-zA-Z0-9-]+|cublasSgeam|copy ceiling) ' "$LAST_OUT")
    [ "$n" = $(($# + 1)) ] && pass "$gpu results table: $n rows" || fail "$gpu results table: $(($# + 1)) rows" "$n rows"
    svg=$TK_BUILD/$gpu-ref.svg
    if [ -s "$svg" ] && head -n 1 "$svg" | grep -q '^<svg ' && tail -n 1 "$svg" | grep -q '^</svg>$' &&
       [ "$(grep -c '<rect x=' "$svg")" = $# ] && grep -q 'copy ' "$svg" && grep -q 'peak ' "$svg"; then
        pass "$gpu results chart: an SVG with $# bars, the copy and peak lines"
    else
        fail "$gpu results chart: an SVG with $# bars, the copy and peak lines" "see $svg"
    fi
    bad=$(awk -v column="$column" -f scripts/lib/csv.awk -f tests/readme-table.awk "$ref" results/README.md 2>&1) ||
        bad="awk failed: $bad"
    [ -z "$bad" ] && pass "results/README.md reference table: the $gpu column is the committed CSV's" ||
        fail "results/README.md reference table: the $gpu column is the committed CSV's" "$bad"
}
steps_rows="CPU+OMP GPU-1D GPU-2D GPU-shared GPU-no-conflicts GPU-multi-element GPU-vector-tile"
check_reference h100 4 $steps_rows GPU-any-shape cublasSgeam
check_reference h200 6 $steps_rows cublasSgeam
expect "results: an unknown option is refused" 2 "unknown option '--fast'" scripts/results/results.sh --fast
expect "results: without a GPU it says so and exits 3" 3 'no usable GPU' \
    env CUDA_VISIBLE_DEVICES= scripts/results/results.sh -n 64 --out "$TK_BUILD/nogpu.csv"
left=$(ls -A results | grep '^\.' | tr '\n' ' ')
[ -z "$left" ] && pass "results: leaves no scratch files behind without a GPU" ||
    fail "results: leaves no scratch files behind without a GPU" "left: $left"

# Profiles: capture script's arguments, missing ncu, and the committed panels.
expect "profile: an unknown option is refused" 2 "unknown option '--fast'" scripts/profile/profile.sh --fast
expect "profile: without ncu it says what to install, exit 3" 3 'ncu \(Nsight Compute\) is not on the PATH' \
    env PATH=/usr/bin:/bin scripts/profile/profile.sh 1
printf '"gpu__time_duration.sum"\n"nsecond"\n"1000"\n' >"$TK_BUILD/raw.csv"
: >"$TK_BUILD/details.txt"
expect "profile panel: a report lacking metrics is refused and named" 1 'missing metrics: .*Grid Size' \
    awk -f scripts/lib/ncu-raw.awk -f scripts/profile/profile-panel.awk "$TK_BUILD/raw.csv" "$TK_BUILD/details.txt"
# The grader's counter reads ncu's raw page through the same reader as the panels, skipping
# the profiled program's own lines.
{ echo '==PROF== Connected to process'; echo 'row   median ms'
  printf '"%s","%s","%s"\n' a.sum b.sum c.pct "" "" "%" "65,312,323" "2,048" "75.3"
  echo 'GPU-shared  0.521  yes'; } >"$TK_BUILD/noisy.csv"
counter() { awk -v spec="$1" -f scripts/lib/ncu-raw.awk -f scripts/grade/ncu-counter.awk "$TK_BUILD/noisy.csv"; }
[ "$(counter a.sum)" = 65312323 ] && [ "$(counter a.sum/b.sum)" = 31891 ] && [ "$(counter c.pct)" = 75.3 ] &&
    pass "grader counter: reads ncu's raw page amid the program's output, separators and ratios" ||
    fail "grader counter: reads ncu's raw page amid the program's output, separators and ratios" \
        "got $(counter a.sum), $(counter a.sum/b.sum), $(counter c.pct)"
if counter missing.sum >/dev/null; then fail "grader counter: a metric the launch lacks is refused" "it printed one"
else pass "grader counter: a metric the launch lacks is refused"; fi

for n in $(scripts/lib/steps.sh --one-gpu) 6-8191x8192 7-8191x8192; do   # and step 7's story
    panel=profiles/step$n.txt
    if [ ! -f "$panel" ] || [ ! -f "profiles/step$n.ncu-rep" ]; then
        fail "profile of step $n is committed" "$panel or its .ncu-rep is missing"; continue
    fi
    bad=$(awk 'function val(l) { v = substr(l, 36, 14); gsub(/ /, "", v); return v }
        { for (i in want) if (index($0, "  " want[i] " ") == 1) { found[i] = 1; v = val($0)
            if (want[i] ~ /Size/ ? v !~ /^\[[0-9]+,[0-9]+,[0-9]+\]$/ : want[i] ~ /Limiter/ ? v !~ /^[a-z_]+$/ : v !~ /^[0-9.]+$/)
                print want[i] "=" v } }
        BEGIN { n = split("Duration|Grid Size|Block Size|Registers/Thread|Shared Memory/Block|Global Load Efficiency|Global Store Efficiency|Sectors/Request, loads|Sectors/Request, stores|DRAM Utilization|DRAM Throughput|Shared Load Bank Conflicts|Shared Store Bank Conflicts|Achieved Occupancy|Theoretical Occupancy|Occupancy Limiter", want, "|") }
        END { for (i = 1; i <= n; i++) if (!(i in found)) print want[i] " missing" }' "$panel")
    [ -z "$bad" ] && pass "profile panel of step $n: every metric present and numeric" ||
        fail "profile panel of step $n: every metric present and numeric" "$bad"
    grep -q '^device: .*, driver ' "$panel" && grep -q '^captured: ' "$panel" && grep -q '^ncu: ' "$panel" &&
        pass "profile panel of step $n: names device, driver, ncu and date" ||
        fail "profile panel of step $n: names device, driver, ncu and date" "header incomplete"
done

# scripts/check-tools.sh says what it found, one line an item: each requirement, each optional
# tool, the driver. A missing optional tool is a note (exit 0); a missing requirement an error
# that says how to get it (exit 1). path_without NAME...: a folder of links to every command on
# PATH but the NAMEs (the first of a name on PATH wins), to stand for PATH without them.
path_without() {
    local dir=$TK_BUILD/path-without-$1 d dirs
    rm -rf "$dir" && mkdir -p "$dir"
    IFS=: read -ra dirs <<<"$PATH"
    for d in "${dirs[@]}"; do
        [ -d "$d" ] && find "$d" -maxdepth 1 \( -type f -o -type l \) -perm -u+x -print0 2>/dev/null |
            xargs -0 -r ln -s -t "$dir" 2>/dev/null
    done
    for d; do rm -f "$dir/$d"; done
    echo "$dir"
}
run_cmd scripts/check-tools.sh
judge "check-tools: a line for each requirement, each optional tool and the driver, exit 0 here" 0 \
    '^found: nvcc [0-9]+\.[0-9]+ \(' '^found: gcc .* with OpenMP$' '^found: GNU Make ' \
    '^(found: cuBLAS|note: no cuBLAS)' '^(found: NCCL [0-9.]+ .*: step 8|note: .*no NCCL 2\.28 or newer)' \
    '^(found: ncu|note: no ncu)' '^(found: compute-sanitizer|note: no compute-sanitizer)' \
    '^(found: driver|note: .*driver)'
n=$(grep -vc '^note: nvcc .* is older than 12\.0' "$LAST_OUT")   # that note is a ninth line
[ "$n" = 8 ] && pass "check-tools: one line an item (8 lines)" || fail "check-tools: one line an item" "$n lines"
expect "check-tools without ncu: a note of what profiles need, exit 0" 0 \
    '^note: no ncu \(Nsight Compute\): profiles .*need it; .*install' \
    env PATH="$(path_without ncu)" scripts/check-tools.sh
expect "check-tools without nvcc: an error naming how to get the toolkit, exit 1" 1 \
    '^missing: nvcc, the CUDA toolkit 12\.0 or newer \(https://developer\.nvidia\.com/cuda-downloads' \
    env PATH="$(path_without nvcc)" scripts/check-tools.sh
# The driver's CUDA beside the toolkit's, from nvidia-smi (here a stand-in that prints its line).
fake_smi=$TK_BUILD/fake-smi
mkdir -p "$fake_smi" && cat >"$fake_smi/nvidia-smi" <<'SMI'
#!/bin/sh
echo "| NVIDIA-SMI ${SMI_DRIVER}   Driver Version: ${SMI_DRIVER}   CUDA Version: ${SMI_CUDA}     |"
SMI
chmod +x "$fake_smi/nvidia-smi"
expect "check-tools: a driver older than the toolkit (CUDA 10.2) is named, with what to do, exit 0" 0 \
    '^note: driver 440\.33 supports CUDA 10\.2, older than the toolkit.s [0-9.]+: nothing built here runs; update the driver or build with toolkit 10\.2$' \
    env PATH="$fake_smi:$PATH" SMI_DRIVER=440.33 SMI_CUDA=10.2 scripts/check-tools.sh
expect "check-tools: a driver as new as the toolkit is found" 0 '^found: driver 999\.1, CUDA 99\.0 \(the toolkit: [0-9.]+\)$' \
    env PATH="$fake_smi:$PATH" SMI_DRIVER=999.1 SMI_CUDA=99.0 scripts/check-tools.sh

# NCCL_HOME (common/nccl.mk): a folder with nccl.h and nccl_device.h is looked in first, and a
# build across GPUs gets its include/, lib/ and an rpath (pip's wheel has libnccl.so.2 only:
# linked by that name); an empty folder changes nothing.
nccl_home=$TK_BUILD/nccl-home
rm -rf "$nccl_home" "$TK_BUILD/nccl-empty" && mkdir -p "$nccl_home/include" "$nccl_home/lib" "$TK_BUILD/nccl-empty"
touch "$nccl_home/include/nccl.h" "$nccl_home/include/nccl_device.h" "$nccl_home/lib/libnccl.so.2"
# nccl_state [NCCL_HOME]: what lib.sh's have_nccl and nccl_include say with that NCCL_HOME (none:
# unset), whatever NCCL_HOME make test itself was given (make passes it on in MAKEFLAGS).
# shellcheck disable=SC2120  # expect and run_cmd pass it its argument
nccl_state() {
    env -u MAKEFLAGS -u MFLAGS -u NCCL_HOME ${1:+"NCCL_HOME=$1"} \
        bash -c '. scripts/lib/lib.sh && echo "HAVE_NCCL=[$(have_nccl)] in [$(nccl_include)]"'
}
expect "NCCL_HOME with nccl.h and nccl_device.h: HAVE_NCCL is 1, found there first" 0 \
    "^HAVE_NCCL=\\[1\\] in \\[$nccl_home/include\\]$" nccl_state "$nccl_home"
elsewhere=$(nccl_state)
run_cmd nccl_state "$TK_BUILD/nccl-empty"
[ "$RC" = 0 ] && [ "$(cat "$LAST_OUT")" = "$elsewhere" ] &&
    pass "NCCL_HOME at an empty folder: HAVE_NCCL as found without it ($elsewhere)" ||
    fail "NCCL_HOME at an empty folder: HAVE_NCCL as found without it ($elsewhere)" "exit $RC, see above"
mkdir -p "$TK_BUILD/nccl-flags"
printf 'RANKS := yes\nLDLIBS := -lnccl\ninclude %s/common/common.mk\nflags: ; @echo "FLAGS=$(FLAGS) LDLIBS=$(LDLIBS)"\n' \
    "$TK_ROOT" >"$TK_BUILD/nccl-flags/Makefile"
expect "NCCL_HOME: a build across GPUs gets -I, -L and an rpath there, and links libnccl.so.2 by name" 0 \
    "-I$nccl_home/include -L$nccl_home/lib -Xlinker -rpath,$nccl_home/lib .*LDLIBS=-l:libnccl\\.so\\.2$" \
    make -s -C "$TK_BUILD/nccl-flags" flags NCCL_HOME="$nccl_home"
sed -i 's/^RANKS := yes$/RANKS :=/' "$TK_BUILD/nccl-flags/Makefile"
run_cmd make -s -C "$TK_BUILD/nccl-flags" flags NCCL_HOME="$nccl_home"
if [ "$RC" = 0 ] && ! grep -q -- "-I$nccl_home" "$LAST_OUT"; then pass "NCCL_HOME: a build on one GPU is left as it is"
else fail "NCCL_HOME: a build on one GPU is left as it is" "exit $RC, or its flags name NCCL_HOME"; fi

# Every script refuses what it does not understand, with its usage and exit 2, before any
# work; -h prints its usage and nothing else (every line of it is a comment of the script).
for f in scripts/cluster/job.sh scripts/results/results.sh scripts/profile/profile.sh \
         scripts/results/large.sh scripts/grade/grade.sh scripts/check-tools.sh \
         scripts/lib/steps.sh scripts/lib/no-gpu.sh; do
    s=$(basename "$f" .sh)
    run_cmd "$f" --no-such-option
    judge "$s.sh: an unknown option is refused with the usage, exit 2" 2 "no-such-option"
    if grep -Eq '^(job plan|hostname|== |profile: [a-z0-9]+: capturing|transpose-kit)' "$LAST_OUT"; then
        fail "$s.sh: nothing runs before the refusal" "it did some work"
    else
        pass "$s.sh: nothing runs before the refusal"
    fi
    run_cmd "$f" -h
    bad=$(grep -v '^$' "$LAST_OUT" | while IFS= read -r l; do
              grep -qxF "# $l" "$f" || grep -qxF "#$l" "$f" || echo "$l"; done | head -n 3)
    if [ "$RC" = 0 ] && [ -s "$LAST_OUT" ] && [ -z "$bad" ]; then pass "$s.sh -h prints its usage and nothing else"
    else fail "$s.sh -h prints its usage and nothing else" "exit $RC; not from its header: $bad"; fi
done
expect "job: a typo of --dry-run builds and runs nothing" 2 "unknown argument '--dryrun'" scripts/cluster/job.sh --dryrun
expect "scripts/bench --help names LEVERS=" 0 '^LEVERS=TEXT' scripts/bench/levers --help

# Paths are read from where the command was started.
cp results/h100-repeat-2.csv "$TK_BUILD/rel.csv"
expect "results --table takes a path relative to where it was started" 0 '^GPU-vector-tile ' \
    sh -c "cd '$TK_BUILD' && '$TK_ROOT/scripts/results/results.sh' --table rel.csv"
[ -s "$TK_BUILD/rel.svg" ] && pass "results --table writes the chart next to that relative path" ||
    fail "results --table writes the chart next to that relative path" "no $TK_BUILD/rel.svg"
rm -rf "$TK_BUILD/relprof" && mkdir -p "$TK_BUILD/relprof" && cp -r step4 "$TK_BUILD/relprof/mywork"
expect "profile takes a folder relative to where it was started (then says ncu is missing)" 3 \
    'ncu \(Nsight Compute\) is not on the PATH' sh -c "cd '$TK_BUILD/relprof/mywork' && PATH=/usr/bin:/bin '$TK_ROOT/scripts/profile/profile.sh' ."
expect "profile: a folder that does not exist is refused before any work, exit 2" 2 \
    "'nosuch' is neither a step number nor a folder" scripts/profile/profile.sh nosuch

# make hint: one tier at a time, in the student's folder; N=K again, N=0 over; bad N refused.
hintdir=$TK_BUILD/hint-kit
rm -rf "$hintdir" && mkdir -p "$hintdir" && cp -r step3 "$hintdir/mywork" &&
    ln -s "$TK_ROOT/common" "$hintdir/common" && ln -s "$TK_ROOT/scripts" "$hintdir/scripts"
expect "make hint shows hint 1 first, and says more follow" 0 '^== Hint 1: the idea$' \
    make -s -C "$hintdir/mywork" hint
grep -q '^(hint 1 of 3: make hint shows the next' "$LAST_OUT" && ! grep -q '^== Hint 2' "$LAST_OUT" &&
    pass "make hint shows one tier, not the next" || fail "make hint shows one tier" "see above"
expect "make hint again shows hint 2" 0 '^== Hint 2: the shape of the change$' make -s -C "$hintdir/mywork" hint
expect "make hint a third time shows hint 3, the last" 0 '^\(hint 3 of 3: the last\)$' make -s -C "$hintdir/mywork" hint
expect "make hint past the last says all were shown" 0 '^hint: all 3 hints were shown' make -s -C "$hintdir/mywork" hint
expect "make hint N=1 shows hint 1 again" 0 '^== Hint 1: the idea$' make -s -C "$hintdir/mywork" hint N=1
expect "make hint N=0 starts over" 0 'shows hint 1 of 3 again' make -s -C "$hintdir/mywork" hint N=0
expect "make hint after N=0 shows hint 1" 0 '^== Hint 1: the idea$' make -s -C "$hintdir/mywork" hint
expect "make hint N=9 is refused: 2 with the range" 2 '^hint: --tier takes 1 to 3' scripts/grade/hint.sh --tier 9 "$hintdir/mywork"
expect "scripts/grade/hint.sh on a folder without README.md: 2" 2 '^hint: no README.md' scripts/grade/hint.sh "$TK_BUILD"
# Every step's hints come in threes, numbered on: the idea, the shape of the change, the code
# (step 8: hints 1 to 3 for stages (a) and (b), 4 to 6 for stage (c)).
# tiers FILE: what is wrong with FILE's hint tiers, nothing when they hold.
tiers() {
    awk 'BEGIN { kind[1] = "the idea"; kind[2] = "the shape of the change"; kind[0] = "the code" }
         /^<details>/ { n++; head = "<details><summary>Hint " n; tail = ": " kind[n % 3] "</summary>"
                        rest = substr($0, length(head) + 1)
                        if (index($0, head) != 1 || rest !~ /^(, [^:]*)?: / ||
                            substr($0, length($0) - length(tail) + 1) != tail) print "tier " n ": " $0 }
         END { if (n == 0 || n % 3) print n " tiers, not a multiple of 3" }' "$1"
}
for n in $STEP_NUMS; do
    bad=$(tiers "step$n/README.md")
    [ -z "$bad" ] && pass "step$n/README.md holds its hints in threes (idea, shape, code) for make hint" ||
        fail "step$n/README.md holds its hints in threes (idea, shape, code)" "$bad"
done
sed 's/^<details><summary>Hint 2: the shape of the change/<details><summary>Hint 2: the code/' \
    step3/README.md >"$TK_BUILD/tiers.md"
[[ $(tiers "$TK_BUILD/tiers.md") == "tier 2: "* ]] && pass "hint tiers: a tier out of its order is caught" ||
    fail "hint tiers: a tier out of its order is caught" "not caught"
sed '/^<details><summary>Hint 3/,/^<\/details>/d' step3/README.md >"$TK_BUILD/tiers.md"
[[ $(tiers "$TK_BUILD/tiers.md") == "2 tiers, not a multiple of 3" ]] && pass "hint tiers: a missing tier is caught" ||
    fail "hint tiers: a missing tier is caught" "not caught"


# The generated shapes of the sweep: the same for a seed on any awk, every residue mod 8 on
# each side, nothing past the harness's limits or the memory, those that fit the L2 apart.
gen() { awk -v seed="$1" -v count=40 -v mem_mib=81559 -v l2_mib=50 -f scripts/results/shapes-gen.awk; }
gen 7 >"$TK_BUILD/gen-a" && gen 7 >"$TK_BUILD/gen-b" && gen 8 >"$TK_BUILD/gen-c"
cmp -s "$TK_BUILD/gen-a" "$TK_BUILD/gen-b" && ! cmp -s "$TK_BUILD/gen-a" "$TK_BUILD/gen-c" &&
    pass "shapes-gen.awk: the same seed gives the same shapes, another seed others" ||
    fail "shapes-gen.awk: shapes follow the seed" "see $TK_BUILD/gen-*"
for seed in 7 20261123 999999999; do
    bad=$(gen "$seed" | awk -v l2=$((50 * 1048576)) '
        { b = $1 * $2 * 4; n[$3]++
          if ($1 < 1 || $2 < 1 || $1 > 2097120 || b > 8 * 1024 ^ 3) print "past a limit: " $0
          if ($3 == "fits-l2" && b > l2) print "set apart but larger than the L2: " $0
          if ($3 != "fits-l2" && b <= l2) print "counted but fits in the L2: " $0
          if ($3 == "any") { rr[$1 % 8]; cr[$2 % 8] } }
        END { if (n["any"] + n["skinny"] + n["square"] != 40) print "not 40 counted shapes"
              for (c in n) k++; if (!n["any"] || !n["skinny"] || !n["square"]) print "a class is missing"
              for (i = 0; i < 8; i++) if (!(i in rr) || !(i in cr)) print "residue " i " missing" }')
    [ -z "$bad" ] && pass "shapes-gen.awk seed $seed: 40 shapes beyond the L2, every class, every residue mod 8 each side, within the limits" ||
        fail "shapes-gen.awk seed $seed" "$bad"
done
expect "shapes-gen.awk refuses a missing seed: exit 2" 2 'needs -v seed=S' \
    awk -v count=4 -v mem_mib=1000 -v l2_mib=50 -f scripts/results/shapes-gen.awk
expect "results.sh refuses --seed 0" 2 '^results: --seed takes' scripts/results/results.sh --sweep --seed 0
expect "results.sh refuses --generated x" 2 '^results: --generated takes' scripts/results/results.sh --sweep --generated x
expect "results.sh refuses --part 3/2" 2 '^results: --part takes I/N' \
    scripts/results/results.sh --sweep --seed 5 --part 3/2 --out "$TK_BUILD/parts.csv"
expect "results.sh refuses --part without a seed (the parts would draw other shapes)" 2 \
    '^results: --part goes with --sweep, --seed S and --out' scripts/results/results.sh --sweep --part 1/2 --out "$TK_BUILD/parts.csv"
printf 'date,seed,class,size_mib,step,row,rows,cols,ms,gbs,pct_copy\nd,6,any,300,step7,GPU-a,9,9,1,80,80.0\n' >"$TK_BUILD/parts.csv"
expect "results.sh refuses to add a part to another seed's sweep" 2 \
    "^results: .*parts.csv is not a sweep's CSV of seed 5" \
    scripts/results/results.sh --sweep --seed 5 --part 2/2 --out "$TK_BUILD/parts.csv"

# The sweep's table: shapes that fit in twice the L2 set apart and not counted; the worst
# counted shape for the last step, and its least margin over the library, named.
printf '%s\n' date,seed,class,size_mib,step,row,rows,cols,ms,gbs,pct_copy \
    'd,5,any,300,step7,copy ceiling,9,9,1,100,100.0' 'd,5,any,300,step7,GPU-any-shape,9,9,1,80,80.0' \
    'd,5,any,300,library,cublasSgeam,9,9,1,85,85.0' 'd,5,square,400,step7,GPU-any-shape,8,8,1,95,95.0' \
    'd,5,square,400,library,cublasSgeam,8,8,1,90,90.0' 'd,5,fits-l2,4,step7,GPU-any-shape,1,1,1,150,150.0' \
    >"$TK_BUILD/sweep.csv"
run_cmd awk -f scripts/lib/csv.awk -f scripts/results/results-sweep.awk "$TK_BUILD/sweep.csv"
judge "results-sweep.awk: the L2 shapes apart, the worst shape and the library margin named" 0 \
    '^set apart: both matrices fit in twice the L2' '^1 x 1 +fits-l2' \
    '^GPU-any-shape \(step7\) over 2 shapes beyond the L2: worst 80\.0% of the copy at 9 x 9; 1 under 90%; behind cublasSgeam on 1, its least margin -5\.0 points at 9 x 9$'
printf '%s\n' date,seed,class,size_mib,step,row,rows,cols,ms,gbs,pct_copy \
    'd,5,any,300,step9,GPU-a,9,9,1,80,80.0' 'd,5,any,300,step10,GPU-b,9,9,1,70,70.0' >"$TK_BUILD/sweep10.csv"
run_cmd awk -f scripts/lib/csv.awk -f scripts/results/results-sweep.awk "$TK_BUILD/sweep10.csv"
judge "results-sweep.awk: the last step by number (step10 after step9)" 0 '^GPU-b \(step10\) over 1 shapes'
