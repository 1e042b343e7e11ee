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
        "run: .*&& srun --ntasks=8 --cpus-per-task=4 solution/step$across/transpose -n 8192 --id-file $TK_ROOT/\\.nccl-id\\.77\\)" \
        env -u LAUNCHER -u KILL_ON_BAD_EXIT STEP="$across" SLURM_JOB_ID=77 SLURM_NTASKS=8 SLURM_CPUS_PER_TASK=4 \
        SLURM_SUBMIT_DIR="$TK_ROOT" scripts/cluster/slurm.sbatch --dry-run
    expect "pbs job, step $across with LAUNCHER: mpirun starts the ranks, launcher mode" 0 \
        "run: .*&& mpirun -np 8 solution/step$across/transpose -n 8192 --id-file $TK_ROOT/\\.nccl-id\\.5\\.pbs01\\)" \
        env -u SLURM_JOB_ID STEP="$across" LAUNCHER="mpirun -np 8" PBS_JOBID=5.pbs01 \
        PBS_O_WORKDIR="$TK_ROOT" scripts/cluster/pbs.pbs --dry-run
    expect "job: LAUNCHER without a step is refused" 2 'LAUNCHER starts the ranks of one step across GPUs: set STEP too' \
        env STEP=all LAUNCHER=srun scripts/cluster/job.sh --dry-run
fi

# Cluster jobs as a scheduler starts them, faked: Slurm and PBS run a copy of the job script
# from a spool folder, in a folder that need not be the kit, with SLURM_SUBMIT_DIR or
# PBS_O_WORKDIR naming where sbatch or qsub ran, SLURM_PROCID=0 but no SLURM_STEP_ID (a batch
# script is no rank). Each plan must name the kit and the command line, and the exit status is
# the one the scheduler would record. Nothing here needs, or calls, a real scheduler: scontrol
# and srun are stand-ins in $cj/bin, first on PATH.
cj=$TK_BUILD/cluster
rm -rf "$cj" && mkdir -p "$cj/elsewhere" "$cj/empty" "$cj/spool/job9077" "$cj/spool/mom" "$cj/bin"
sjob=$cj/spool/job9077/slurm_script pjob=$cj/spool/mom/9077.pbs01.SC
cp scripts/cluster/slurm.sbatch "$sjob" && cp scripts/cluster/pbs.pbs "$pjob"
# scontrol show job ID as Slurm 22.05 prints it (abridged), for a script submitted from
# $cj/elsewhere by a relative path: sbatch records ./ and ../ paths as given. SCONTROL_FAILS=1:
# no such job, as where scontrol cannot reach the controller.
cat >"$cj/bin/scontrol" <<'SCONTROL'
#!/usr/bin/env bash
[ "${SCONTROL_FAILS:-0}" = 1 ] && { echo "slurm_load_jobs error: Invalid job id specified" >&2; exit 1; }
[ "$1 $2" = "show job" ] || exit 1
echo "JobId=$3 JobName=transpose-kit"
echo "   Command=../../../../scripts/cluster/slurm.sbatch --dry-run"
echo "   WorkDir=$SLURM_SUBMIT_DIR"
SCONTROL
# srun as its man page describes it (RETURN VALUE): starts --ntasks copies of the command, each
# with the variables srun gives a task, and returns the highest of their statuses. It records
# its arguments in $cj/srun.args.
cat >"$cj/bin/srun" <<'SRUN'
#!/usr/bin/env bash
echo "$*" >"$(dirname "$0")/../srun.args"
n=1
while [ $# -gt 0 ]; do
    case $1 in --ntasks=*) n=${1#*=}; shift ;; -*) shift ;; *) break ;; esac
done
pids=() worst=0
for ((i = 0; i < n; i++)); do
    SLURM_STEP_ID=0 SLURM_PROCID=$i SLURM_LOCALID=$i SLURM_STEP_NUM_TASKS=$n "$@" & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; rc=$?; [ "$rc" -gt "$worst" ] && worst=$rc; done
exit "$worst"
SRUN
chmod +x "$cj/bin/scontrol" "$cj/bin/srun"
# batch ENV... CMD...: CMD run from $cj/elsewhere, the stand-ins first on PATH, in an
# environment cleared of every setting and scheduler variable the job scripts read, then given
# ENV (NAME=VALUE words).
batch() {
    (cd "$cj/elsewhere" && env -u KIT_DIR -u LAUNCHER -u KILL_ON_BAD_EXIT -u STEP -u SIZE -u MODULES \
        -u SLURM_JOB_ID -u SLURM_SUBMIT_DIR -u SLURM_NTASKS -u SLURM_STEP_ID -u SLURM_CPUS_PER_TASK \
        -u SLURM_PROCID -u PBS_O_WORKDIR -u PBS_JOBID -u NCPUS -u PBS_NUM_PPN -u SCONTROL_FAILS \
        PATH="$cj/bin:$PATH" "$@")
}
# has_kill: the last plan's srun line carries --kill-on-bad-exit (or -K).
has_kill() { grep -Eq -- 'srun.* (--kill-on-bad-exit|-K)' "$LAST_OUT"; }
kit_line="^  kit: +$TK_ROOT\$"
run_cmd batch SLURM_JOB_ID=9077 SLURM_PROCID=0 SLURM_SUBMIT_DIR="$cj/elsewhere" KIT_DIR="$TK_ROOT" STEP=3 \
    bash "$sjob" --dry-run
judge "slurm job from another folder: KIT_DIR names the kit, the plan its command line, exit 0" 0 "$kit_line" \
    "^  run: +\\(cd $TK_ROOT && solution/step3/transpose -n 8192\\)   with OMP_NUM_THREADS=" '^\(dry run: nothing was run\)$'
run_cmd batch SLURM_JOB_ID=9077 SLURM_SUBMIT_DIR="$TK_ROOT" KIT_DIR="$cj/empty" bash "$sjob" --dry-run
judge "slurm job: a KIT_DIR that holds no kit is refused, exit 2, though the submit folder is the kit" 2 \
    "^slurm.sbatch: KIT_DIR=$cj/empty holds no kit .*set KIT_DIR to the kit's folder"
expect "slurm job: the folder sbatch ran in is the kit" 0 "$kit_line" \
    batch SLURM_JOB_ID=9077 SLURM_PROCID=0 SLURM_SUBMIT_DIR="$TK_ROOT" bash "$sjob" --dry-run
expect "slurm job submitted from another folder by a relative path: the kit from Slurm's record (scontrol)" 0 \
    "$kit_line" batch SLURM_JOB_ID=9077 SLURM_PROCID=0 SLURM_SUBMIT_DIR="$cj/elsewhere" bash "$sjob" --dry-run
run_cmd batch SCONTROL_FAILS=1 SLURM_JOB_ID=9077 SLURM_SUBMIT_DIR="$cj/elsewhere" bash "$sjob" --dry-run
judge "slurm job with the kit nowhere it looks: exit 2, the message names KIT_DIR" 2 \
    "^slurm.sbatch: cannot find the kit: .*Set KIT_DIR to the kit's folder when you submit: KIT_DIR="
if grep -q '^job plan' "$LAST_OUT"; then fail "slurm job with the kit nowhere: nothing planned, nothing run" "it planned"
else pass "slurm job with the kit nowhere: nothing planned, nothing run"; fi
expect "slurm job run by hand from another folder: the kit above the script" 0 "$kit_line" \
    batch "$TK_ROOT/scripts/cluster/slurm.sbatch" --dry-run
expect "job: a KIT_DIR that holds no kit is refused, exit 2" 2 "^job: KIT_DIR=$cj/empty holds no kit" \
    batch KIT_DIR="$cj/empty" "$TK_ROOT/scripts/cluster/job.sh" --dry-run
expect "job: KILL_ON_BAD_EXIT other than 0 or 1 is refused, exit 2" 2 "KILL_ON_BAD_EXIT is 0, 1 or unset, not 'yes'" \
    batch KILL_ON_BAD_EXIT=yes "$TK_ROOT/scripts/cluster/job.sh" --dry-run
run_cmd batch PBS_JOBID=9077.pbs01 PBS_O_WORKDIR="$cj/elsewhere" KIT_DIR="$TK_ROOT" STEP=2 SIZE=4096 bash "$pjob" --dry-run
judge "pbs job from another folder: KIT_DIR (qsub -v) names the kit, the plan its command line" 0 "$kit_line" \
    "^  run: +\\(cd $TK_ROOT && solution/step2/transpose -n 4096\\)"
expect "pbs job: the folder qsub ran in is the kit" 0 "$kit_line" \
    batch PBS_JOBID=9077.pbs01 PBS_O_WORKDIR="$TK_ROOT" bash "$pjob" --dry-run
expect "pbs job with the kit nowhere it looks: exit 2, the message names KIT_DIR" 2 \
    "^pbs.pbs: cannot find the kit: .*qsub -v KIT_DIR=" batch PBS_JOBID=9077.pbs01 PBS_O_WORKDIR="$cj/elsewhere" bash "$pjob" --dry-run
expect "pbs job: a KIT_DIR that holds no kit is refused, exit 2" 2 "^pbs.pbs: KIT_DIR=$cj/empty holds no kit" \
    batch PBS_JOBID=9077.pbs01 PBS_O_WORKDIR="$TK_ROOT" KIT_DIR="$cj/empty" bash "$pjob" --dry-run
# pbs.pbs: a shell named, PBS Pro's select= in the #PBS lines and Torque's nodes= form in the
# #TORQUE lines (read with qsub -C '#TORQUE'), the same options in the same order.
f=scripts/cluster/pbs.pbs
if grep -qx '#PBS -S /bin/bash' "$f" && grep -qx '#TORQUE -S /bin/bash' "$f" &&
   grep -Eqx '#PBS -l select=1:ncpus=[0-9]+:ngpus=1' "$f" && grep -Eqx '#TORQUE -l nodes=1:ppn=[0-9]+:gpus=1' "$f" &&
   [ "$(sed -n 's/^#PBS \(-[A-Za-z]\).*/\1/p' "$f")" = "$(sed -n 's/^#TORQUE \(-[A-Za-z]\).*/\1/p' "$f")" ]; then
    pass "pbs.pbs names its shell; #PBS lines for PBS Pro (select=), #TORQUE lines for Torque (nodes=), the same options"
else
    fail "pbs.pbs names its shell; #PBS lines for PBS Pro (select=), #TORQUE lines for Torque (nodes=), the same options" \
        "the directives of $f differ from that"
fi
# A job that asks for more CPUs than a node of its partition has stays pending without a word:
# the scripts ask for 4 at most unless told.
cpus=$(sed -n 's/^#SBATCH --cpus-per-task=\([0-9]*\)$/\1/p; s/^#PBS -l select=1:ncpus=\([0-9]*\):.*/\1/p;
               s/^#TORQUE -l nodes=1:ppn=\([0-9]*\):.*/\1/p' scripts/cluster/slurm.sbatch "$f" | sort -n | tail -n 1)
if [ -n "$cpus" ] && [ "$cpus" -le 4 ]; then pass "the job scripts ask for 4 CPUs or fewer unless told"
else fail "the job scripts ask for 4 CPUs or fewer unless told" "they ask for ${cpus:-none found}"; fi
if [ -n "$across" ]; then
    run_cmd batch SLURM_JOB_ID=9077 SLURM_PROCID=0 SLURM_NTASKS=8 SLURM_SUBMIT_DIR="$cj/elsewhere" KIT_DIR="$TK_ROOT" \
        STEP="$across" bash "$sjob" --dry-run
    judge "slurm job of 8 tasks from another folder: srun's line, the id file in the kit" 0 "$kit_line" \
        "^  run: +\\(cd $TK_ROOT && srun --ntasks=8 solution/step$across/transpose -n 8192 --id-file $TK_ROOT/\\.nccl-id\\.9077\\)"
    if has_kill; then fail "slurm job of 8 tasks: no --kill-on-bad-exit unless KILL_ON_BAD_EXIT asks" "the plan has it"
    else pass "slurm job of 8 tasks: no --kill-on-bad-exit unless KILL_ON_BAD_EXIT asks"; fi
    run_cmd batch SLURM_JOB_ID=9077 SLURM_NTASKS=8 SLURM_SUBMIT_DIR="$TK_ROOT" KILL_ON_BAD_EXIT=1 STEP="$across" \
        bash "$sjob" --dry-run
    judge "slurm job of 8 tasks, KILL_ON_BAD_EXIT=1: srun --kill-on-bad-exit=1" 0 "&& srun --kill-on-bad-exit=1 --ntasks=8 "
    # The check above, planted: it must see the flag in this plan, which has it.
    if has_kill; then pass "the --kill-on-bad-exit check sees the flag in a plan that has it"
    else fail "the --kill-on-bad-exit check sees the flag in a plan that has it" "it saw none"; fi
fi

# The same jobs, run: on this machine without a GPU (CUDA_VISIBLE_DEVICES= hides any), a step
# builds, runs its CPU row, says it found no GPU and exits 3, which the scheduler records.
run_cmd batch CUDA_VISIBLE_DEVICES= SLURM_JOB_ID=9077 SLURM_PROCID=0 SLURM_SUBMIT_DIR="$TK_ROOT" STEP=1 SIZE=64 bash "$sjob"
no_smi='.'; command -v nvidia-smi >/dev/null || no_smi='^job: no nvidia-smi on .*, so no NVIDIA driver'
judge "slurm job from another folder, step 1 without a GPU: the step's own message, exit 3" 3 \
    '^GPU rows skipped: ' '^job: solution/step1/transpose exited 3: no usable GPU' "$no_smi"
if grep -q 'command not found' "$LAST_OUT"; then fail "slurm job without a GPU: no 'command not found'" "$(grep 'command not found' "$LAST_OUT")"
else pass "slurm job without a GPU: no 'command not found'"; fi
if [ -n "$across" ] && [[ " $STEP_NUMS " == *" $across "* ]]; then
    # Two tasks: the stand-in srun starts two ranks, as Slurm's would; each finds no GPU and
    # exits 3 on its own, rank 0 after its whole table; srun returns 3 and so does the job.
    rm -f "$cj/srun.args"
    run_cmd batch CUDA_VISIBLE_DEVICES= SLURM_JOB_ID=9077 SLURM_PROCID=0 SLURM_NTASKS=2 SLURM_SUBMIT_DIR="$TK_ROOT" \
        STEP="$across" SIZE=64 bash "$sjob"
    judge "slurm job of 2 tasks, step $across without a GPU: both ranks say so, srun returns 3, so does the job" 3 \
        '^launcher mode: rank 0 of 2 \(set by Slurm' '^GPU rows skipped: ' 'rank 1 of 2: GPU rows skipped' \
        '^job: srun exited 3: no usable GPU'
    if [ -s "$cj/srun.args" ] && ! grep -q -- '--kill-on-bad-exit' "$cj/srun.args" && [ ! -e "$TK_ROOT/.nccl-id.9077" ]; then
        pass "slurm job of 2 tasks: srun given no --kill-on-bad-exit; no id file left in the kit"
    else
        fail "slurm job of 2 tasks: srun given no --kill-on-bad-exit; no id file left in the kit" \
            "srun's arguments: $(cat "$cj/srun.args" 2>/dev/null || echo none); id file: $(ls "$TK_ROOT/.nccl-id.9077" 2>&1)"
    fi
    rm -f "$TK_ROOT/.nccl-id.9077"
else
    skip "slurm job of 2 tasks, step ${across:-8} without a GPU" "the steps across GPUs are not built here (no NCCL)"
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
check_reference h200 6 $steps_rows GPU-any-shape cublasSgeam
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
    '^(found: cuBLAS|note: no cuBLAS)' '^(found: NCCL [0-9.]+ .*: steps 8 to 10|note: .*no NCCL 2\.28 or newer)' \
    '^(found: ncu|note: no ncu)' '^(found: compute-sanitizer|note: no compute-sanitizer)' \
    '^(found: driver|note: .*driver)'
n=$(grep -vc '^note: nvcc .* is older than 12\.0' "$LAST_OUT")   # that note is a ninth line
[ "$n" = 8 ] && pass "check-tools: one line an item (8 lines)" || fail "check-tools: one line an item" "$n lines"
expect "check-tools without ncu: a note of what profiles need, exit 0" 0 \
    '^note: no ncu \(Nsight Compute\): profiles .*need it; .*install' \
    env PATH="$(path_without ncu)" scripts/check-tools.sh
expect "check-tools without nvcc: an error naming how to get the toolkit, exit 1" 1 \
    '^missing: nvcc, the CUDA toolkit 12\.4 or newer \(https://developer\.nvidia\.com/cuda-downloads' \
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
         scripts/lib/steps.sh; do
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
expect "make hint N=9 is refused: 2 with the range" 2 '^hint: the hint number \(N= of make hint, --tier here\) is 1 to 3 for this step$' scripts/grade/hint.sh --tier 9 "$hintdir/mywork"
expect "scripts/grade/hint.sh on a folder without README.md: 2" 2 '^hint: no README.md' scripts/grade/hint.sh "$TK_BUILD"
# Every step's hints come in threes, numbered on: the idea, the shape of the change, the code
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

# The glossary's promise (GLOSSARY.md): every README of the kit, found by glob (new step
# folders too; kit_pages: the kit's own folders, not a student's copy), links the first use of each
# glossary term to the term's entry, and every link into the glossary lands on an anchor it
# has (tests/glossary-links.sh; each term's words: tests/glossary-terms.txt).
for f in $(kit_pages README.md */README.md */*/README.md); do
    [[ $f != tests/build/* ]] || continue
    expect "$f links the first use of each glossary term to its entry" 0 '' tests/glossary-links.sh . "$f"
done
# The check can fail: on a copy of the kit's glossary and step 3's README, a first use left
# unlinked (a later link does not make up for it), a link to another term's entry, a link to
# an anchor the glossary lacks, and a path that does not reach the glossary from the README.
gkit=$TK_BUILD/glossary-kit
rm -rf "$gkit" && mkdir -p "$gkit/step3" && cp GLOSSARY.md "$gkit/"
sed '2a\
A tile first, before the line that links it.' step3/README.md >"$gkit/step3/README.md"
expect "glossary links: a first use left unlinked fails, naming the term and its entry" 1 \
    '^step3/README\.md:3: term: "tile" is the first use of a glossary term, unlinked: link it to \.\./GLOSSARY\.md#tile$' \
    tests/glossary-links.sh "$gkit" step3/README.md
sed 's|\[tile\](\.\./GLOSSARY\.md#tile)|[tile](../GLOSSARY.md#warp)|' step3/README.md >"$gkit/step3/README.md"
expect "glossary links: a first use linked to another term's entry fails" 1 \
    '^step3/README\.md:[0-9]+: term: "tile" links to \.\./GLOSSARY\.md#warp, another term.s entry' \
    tests/glossary-links.sh "$gkit" step3/README.md
sed 's|\[tile\](\.\./GLOSSARY\.md#tile)|[tile](../GLOSSARY.md#tiles)|' step3/README.md >"$gkit/step3/README.md"
expect "glossary links: a link to an anchor the glossary lacks fails" 1 \
    '^step3/README\.md:[0-9]+: link: \.\./GLOSSARY\.md#tiles: GLOSSARY\.md has no anchor "tiles"$' \
    tests/glossary-links.sh "$gkit" step3/README.md
sed 's|\[tile\](\.\./GLOSSARY\.md#tile)|[tile](GLOSSARY.md#tile)|' step3/README.md >"$gkit/step3/README.md"
expect "glossary links: a link that does not reach the glossary from its README fails" 1 \
    '^step3/README\.md:[0-9]+: link: GLOSSARY\.md#tile: from here the glossary is \.\./GLOSSARY\.md$' \
    tests/glossary-links.sh "$gkit" step3/README.md
cp step3/README.md "$gkit/step3/README.md"
expect "glossary links: the same README unchanged passes" 0 '' tests/glossary-links.sh "$gkit" step3/README.md


# Every figure a page quotes is its committed file's (tests/figures.sh; the manifest:
# tests/figures.txt): each line of the manifest finds its phrase with the figures its files
# give, and every measured-looking figure of a page (a number with %, GB/s, ms, points, x...)
# is held by a line, or exempted there with a reason. Every page of the kit is checked, found
# by glob (new pages too; kit_pages: the kit's own folders, not a student's copy); CHANGELOG.md is
# history, its figures those of their day.
for f in $(kit_pages *.md */*.md */*/*.md); do
    [ "$f" != CHANGELOG.md ] && [[ $f != tests/* ]] || continue
    expect "$f: every figure it quotes is its committed file's (tests/figures.txt)" 0 '' tests/figures.sh . "$f"
done
# kit_pages can tell: a student's copy of a step beside the steps (the README's cp -r step1
# mywork) is not a page of the kit; a new page in a step folder is.
pkit=$TK_BUILD/pages-kit
rm -rf "$pkit" && mkdir -p "$pkit/step1" "$pkit/step11" "$pkit/mywork" && echo '# Step 1' >"$pkit/step1/README.md" &&
    cp "$pkit/step1/README.md" "$pkit/mywork/README.md" && cp "$pkit/step1/README.md" "$pkit/step11/README.md" &&
    echo '# The kit' >"$pkit/README.md"
pages=$(cd "$pkit" && kit_pages README.md */README.md | LC_ALL=C sort | tr '\n' ' ')   # globs sort by locale
[ "$pages" = "README.md step1/README.md step11/README.md " ] &&
    pass "kit_pages: the kit's pages, a new step's too, and not a student's copy (mywork/)" ||
    fail "kit_pages: the kit's pages, a new step's too, and not a student's copy (mywork/)" "got '$pages'"
# The check can fail: on a copy of the manifest, step 1's page and the reference runs, a
# figure of the page changed, a value of its file changed, a new figure no line holds, a
# phrase the page no longer has, and a manifest line that reads no single row.
fkit=$TK_BUILD/figures-kit
figures_kit() {
    rm -rf "$fkit" && mkdir -p "$fkit/tests" "$fkit/step1" "$fkit/results" "$fkit/profiles" &&
    cp tests/figures.txt "$fkit/tests/" && cp step1/README.md "$fkit/step1/" &&
    cp results/h100-reference.csv results/h200-reference.csv "$fkit/results/" && cp profiles/step1.txt "$fkit/profiles/"
}
figures_kit
expect "figures: the same page and files unchanged pass" 0 '' tests/figures.sh "$fkit" step1/README.md
sed 's/GPU-1D 143\.0 GB\/s/GPU-1D 142.9 GB\/s/' step1/README.md >"$fkit/step1/README.md"
expect "figures: a figure of the page changed fails, naming the line, what it reads and what the file gives" 1 \
    '^step1/README\.md:81: figure: the page reads "GPU-1D 142\.9 GB/s, .*", results/h100-reference\.csv gives "GPU-1D 143\.0 GB/s, ' \
    tests/figures.sh "$fkit" step1/README.md
figures_kit
sed 's/^\([0-9-]*,step1,GPU-1D,.*\),4\.7,\(yes,7\.2,\)/\1,4.6,\2/' results/h100-reference.csv >"$fkit/results/h100-reference.csv"
expect "figures: a value of the file changed fails, naming what the file gives now" 1 \
    '^step1/README\.md:81: figure: .*results/h100-reference\.csv gives "GPU-1D 143\.0 GB/s, 4\.6% of the' \
    tests/figures.sh "$fkit" step1/README.md
judge "figures: a value changed also fails the figures derived from it (points apart)" 1 \
    'gives "reached 4\.6% of the copy on the H100 and 3\.4% on the H200 \(1\.2 points apart"'
figures_kit
sed '99a\
On a third GPU it ran at 151.0 GB/s.' step1/README.md >"$fkit/step1/README.md"
expect "figures: a new figure that no line holds fails, naming it" 1 \
    '^step1/README\.md:100: unsourced: "151\.0 GB/s" is held by no line of tests/figures\.txt' \
    tests/figures.sh "$fkit" step1/README.md
figures_kit
sed 's/(Global Store Efficiency 12\.5%)/(store efficiency 12.5%)/' step1/README.md >"$fkit/step1/README.md"
expect "figures: a phrase the page no longer has fails, and its figure is then unheld" 1 \
    '^step1/README\.md: figure: no "\(Global Store Efficiency \{\}%\)" in it' tests/figures.sh "$fkit" step1/README.md
judge "figures: ... and its figure is then unheld" 1 '^step1/README\.md:99: unsourced: "12\.5%"'
figures_kit
sed '/^step1\/README\.md: "CPU+OMP row /a\
step1/README.md: "{} GB/s" = results/h100-reference.csv row=copy_ceiling gbs' tests/figures.txt >"$fkit/tests/figures.txt"
expect "figures: a manifest line that reads no single row fails, naming it" 1 \
    '^tests/figures\.txt:[0-9]+: [0-9]+ rows of results/h100-reference\.csv match .*row=copy_ceiling gbs$' \
    tests/figures.sh "$fkit" step1/README.md

# The generated shapes of the sweep: the same for a seed on any awk, every residue mod 8 on
# each side, nothing past the memory (16 GiB a matrix, two with the scratch in the GPU's), those
# that fit the L2 apart; no bound from the kit's own limits: of 54 shapes (a sweep's), at least
# 3 of more than 2097120 rows (what a grid's y of 32-row tiles reaches), 3 of 65 to 112 rows
# and 2 over 8 GiB; on a 16 GiB GPU nothing past what it holds.
gen() { awk -v seed="$1" -v count="${2:-54}" -v mem_mib="${3:-81559}" -v l2_mib=50 -f scripts/results/shapes-gen.awk; }
gen 7 >"$TK_BUILD/gen-a" && gen 7 >"$TK_BUILD/gen-b" && gen 8 >"$TK_BUILD/gen-c"
cmp -s "$TK_BUILD/gen-a" "$TK_BUILD/gen-b" && ! cmp -s "$TK_BUILD/gen-a" "$TK_BUILD/gen-c" &&
    pass "shapes-gen.awk: the same seed gives the same shapes, another seed others" ||
    fail "shapes-gen.awk: shapes follow the seed" "see $TK_BUILD/gen-*"
# gen_bad MEM_MIB: what is wrong with the shapes on stdin, drawn for a GPU of MEM_MIB (none: all hold)
gen_bad() {
    awk -v l2=$((50 * 1048576)) -v mem="$1" '
        { b = $1 * $2 * 4; n[$3]++
          if ($1 < 1 || $2 < 1 || b > 16 * 1024 ^ 3 || 2 * b + 2 * l2 > mem * 1048576) print "past the memory: " $0
          if ($3 == "fits-l2" && b > l2) print "set apart but larger than the L2: " $0
          if ($3 != "fits-l2" && b <= l2) print "counted but fits in the L2: " $0
          if ($3 != "fits-l2") { tall += $1 > 2097120; short += $1 >= 65 && $1 <= 112; big += b > 8 * 1024 ^ 3 }
          if ($3 == "any") { rr[$1 % 8]; cr[$2 % 8] } }
        END { if (n["any"] + n["skinny"] + n["square"] + n["shortwide"] != 54) print "not 54 counted shapes"
              if (!n["any"] || !n["skinny"] || !n["square"] || !n["shortwide"]) print "a class is missing"
              for (i = 0; i < 8; i++) if (!(i in rr) || !(i in cr)) print "residue " i " missing"
              if (mem > 40000 && (tall < 3 || short < 3 || big < 2))
                  print tall " shapes past 2097120 rows, " short " of 65-112 rows, " big " over 8 GiB" }'
}
for seed in 7 20261123 999999999; do
    bad=$(gen "$seed" | gen_bad 81559)
    [ -z "$bad" ] && pass "shapes-gen.awk seed $seed: 54 shapes beyond the L2, every class and residue, past 2097120 rows, 65-112 rows, over 8 GiB" ||
        fail "shapes-gen.awk seed $seed" "$bad"
done
bad=$(gen 7 54 16384 | gen_bad 16384)
[ -z "$bad" ] && pass "shapes-gen.awk on a 16 GiB GPU: every shape fits it" || fail "shapes-gen.awk on a 16 GiB GPU" "$bad"
printf '3000000 11 skinny\n' | gen_bad 81559 | grep -q 'not 54' && pass "shapes-gen check: a short list is caught" ||
    fail "shapes-gen check: a short list is caught" "not caught"
expect "shapes-gen.awk refuses a missing seed: exit 2" 2 'needs -v seed=S' \
    awk -v count=4 -v mem_mib=1000 -v l2_mib=50 -f scripts/results/shapes-gen.awk
expect "results.sh refuses --seed 0" 2 '^results: --seed takes' scripts/results/results.sh --sweep --seed 0
expect "results.sh refuses --generated x" 2 '^results: --generated takes' scripts/results/results.sh --sweep --generated x
expect "results.sh refuses --part 3/2" 2 '^results: --part takes I/N' \
    scripts/results/results.sh --sweep --seed 5 --part 3/2 --out "$TK_BUILD/parts.csv"
expect "results.sh refuses --part without a seed (the parts would draw other shapes)" 2 \
    '^results: --part goes with --sweep, --seed S and --out' scripts/results/results.sh --sweep --part 1/2 --out "$TK_BUILD/parts.csv"
printf 'date,seed,class,size_mib,step,row,rows,cols,ms,gbs,pct_copy,commit\nd,6,any,300,step7,GPU-a,9,9,1,80,80.0,abc1234\n' >"$TK_BUILD/parts.csv"
expect "results.sh refuses to add a part to another seed's sweep" 2 \
    "^results: .*parts.csv is not a sweep's CSV of seed 5" \
    scripts/results/results.sh --sweep --seed 5 --part 2/2 --out "$TK_BUILD/parts.csv"
printf 'date,seed,class,size_mib,step,row,rows,cols,ms,gbs,pct_copy\nd,5,any,300,step7,GPU-a,9,9,1,80,80.0\n' >"$TK_BUILD/parts.csv"
expect "results.sh refuses to add a part to a sweep of an older version (no commit column)" 2 \
    "^results: .*parts.csv is not a sweep's CSV of this version of the kit" \
    scripts/results/results.sh --sweep --seed 5 --part 2/2 --out "$TK_BUILD/parts.csv"
# A part run where the CSV came without its -copy.txt: the notes of part 1 (4096 x 4096, the
# first fixed shape) are not there, or the notes there are another run's of the same draw
# (more shapes than the CSV has), and part 2 would add its own to them.
printf 'date,seed,class,size_mib,step,row,rows,cols,ms,gbs,pct_copy,commit\nd,5,fixed,64,step7,GPU-a,4096,4096,1,80,80.0,abc1234\n' >"$TK_BUILD/parts.csv"
rm -f "$TK_BUILD/parts-copy.txt"
expect "results.sh refuses to add a part where the notes of the parts before did not come with the CSV" 2 \
    "^results: .*parts-copy.txt does not hold the notes of the parts before \(4096 x 4096\)" \
    scripts/results/results.sh --sweep --seed 5 --generated 0 --part 2/2 --out "$TK_BUILD/parts.csv"
echo "8192 x 8192 step7: in each of 20 runs the faster of cudaMemcpy D2D" >"$TK_BUILD/parts-copy.txt"
expect "results.sh refuses to add a part to notes of other shapes (another sweep's -copy.txt)" 2 \
    "^results: .*parts-copy.txt does not hold the notes of the parts before \(4096 x 4096\)" \
    scripts/results/results.sh --sweep --seed 5 --generated 0 --part 2/2 --out "$TK_BUILD/parts.csv"
echo "4096 x 4096 step7: in each of 20 runs the faster of cudaMemcpy D2D" >>"$TK_BUILD/parts-copy.txt"
expect "results.sh refuses to add a part to the notes of another run of the same draw (notes of shapes the CSV has no rows of)" 2 \
    "^results: .*parts-copy.txt holds notes of shapes .*parts.csv has no rows of \(8192 x 8192\)" \
    scripts/results/results.sh --sweep --seed 5 --generated 0 --part 2/2 --out "$TK_BUILD/parts.csv"
# and takes a sweep whose notes came with it: the committed run of 0.17.0 on the H200 with its
# notes (shapes every program refused, with notes and no rows, among them: one added here),
# part 2 of 6 added to a copy of it, goes past every check of its files: with no GPU here it
# stops at the GPU; with one, at the check after, since that run holds part 2's shapes already.
cp results/h200-sweep-305782686-009381d.csv "$TK_BUILD/parts.csv"
cp results/h200-sweep-305782686-009381d-copy.txt "$TK_BUILD/parts-copy.txt"
echo "3 x 3 step7: refused: a shape no program takes" >>"$TK_BUILD/parts-copy.txt"
gpu_probe
if [ "$GPU_STATE" = absent ]; then want_exit=3 want='^results: no usable GPU here'
else want_exit=2 want='^results: .*parts.csv already holds shapes of part 2/6'; fi
expect "results.sh takes a part where the notes of the parts before came with the CSV (then stops: $GPU_STATE GPU)" $want_exit "$want" \
    scripts/results/results.sh --sweep --seed 305782686 --part 2/6 --out "$TK_BUILD/parts.csv"

# A program's --csv run at one shape becomes the sweep's rows (sweep_csv_rows): its step, row,
# shape and timing after the date, seed, class and MiB, the commit last, as many columns as
# the sweep's header; from any folder (the library finds its awk files itself).
printf '%s\n' 'date,step,row,device,rows,cols,reps,ms_median,gbs,pct_copy' \
    'x,step7,GPU-any-shape,"GPU",9,8,20,0.5,80.1,91.2' 'x,step7,copy ceiling,"GPU",9,8,20,0.4,90.0,100.0' \
    >"$TK_BUILD/part.csv"
kit=$PWD
rows=$(cd / && bash -c '. "$1/scripts/lib/lib.sh" && sweep_csv_rows "$2" 2026-11-25 7 any 300 abc1234+changes' _ "$kit" "$TK_BUILD/part.csv")
want=$'2026-11-25,7,any,300,step7,GPU-any-shape,9,8,0.5,80.1,91.2,abc1234+changes\n2026-11-25,7,any,300,step7,copy ceiling,9,8,0.4,90.0,100.0,abc1234+changes'
ncols=$(. scripts/lib/lib.sh && echo "$SWEEP_HEADER" | awk -F, '{ print NF }')
if [ "$rows" = "$want" ] && [ "$(echo "$rows" | awk -F, -v n="$ncols" 'NF != n' | wc -l)" = 0 ]; then
    pass "sweep_csv_rows: a run's rows as the sweep's CSV holds them, the commit last, the header's columns"
else
    fail "sweep_csv_rows: a run's rows as the sweep's CSV holds them, the commit last, the header's columns" "got: $rows"
fi

# Each sweep row names the commit it ran (kit_commit, scripts/lib/lib.sh): git's short hash,
# "+changes" where a tracked file differs, "unknown" where the kit is no git checkout of its
# own. Proven on a small repository holding lib.sh where the kit keeps it, and on a copy of it
# without .git inside this checkout. commit_of DIR [K]: kit_commit there, with KIT_COMMIT=K or,
# without K, with none (a run on a lent machine exports one for its sweeps).
commit_of() { env -u KIT_COMMIT ${2:+KIT_COMMIT=$2} bash -c '. "$1/scripts/lib/lib.sh" && kit_commit' _ "$1"; }
ck=$TK_BUILD/commitkit
rm -rf "$ck" "$ck-copy" && mkdir -p "$ck/scripts/lib" "$ck/results" && cp scripts/lib/lib.sh "$ck/scripts/lib/"
echo "date,seed" >"$ck/results/sweep.csv"
if command -v git >/dev/null && git -C "$ck" init -q && git -C "$ck" add -A &&
    git -C "$ck" -c user.name=kit -c user.email=kit@example.com commit -q -m one; then
    head=$(git -C "$ck" rev-parse --short=7 HEAD)
    [ "$(commit_of "$ck")" = "$head" ] && pass "kit_commit: a clean checkout is its commit's short hash" ||
        fail "kit_commit: a clean checkout is its commit's short hash" "'$(commit_of "$ck")', not '$head'"
    echo "d,5" >>"$ck/results/sweep.csv"   # a sweep's part added to a committed CSV
    [ "$(commit_of "$ck")" = "$head" ] && pass "kit_commit: a changed file under results/ (the measurements) adds nothing" ||
        fail "kit_commit: a changed file under results/ (the measurements) adds nothing" "'$(commit_of "$ck")'"
    echo "# changed" >>"$ck/scripts/lib/lib.sh"
    [ "$(commit_of "$ck")" = "$head+changes" ] && pass "kit_commit: a changed tracked file adds +changes" ||
        fail "kit_commit: a changed tracked file adds +changes" "'$(commit_of "$ck")'"
    mkdir -p "$ck-copy/scripts/lib" && cp scripts/lib/lib.sh "$ck-copy/scripts/lib/"
    [ "$(commit_of "$ck-copy")" = unknown ] && pass "kit_commit: a copy without .git (inside another checkout) is unknown" ||
        fail "kit_commit: a copy without .git (inside another checkout) is unknown" "'$(commit_of "$ck-copy")'"
    [ "$(commit_of "$ck-copy" abc1234)" = abc1234 ] && pass "kit_commit: KIT_COMMIT names the commit of a copy" ||
        fail "kit_commit: KIT_COMMIT names the commit of a copy" "'$(commit_of "$ck-copy" abc1234)'"
else
    skip "kit_commit: a clean checkout, a changed file, a copy" "git cannot make a repository here"
fi

# The sweep's table: shapes that fit in twice the L2 set apart and not counted; the worst
# counted shape for the last step, and its least margin over the library, named.
printf '%s\n' date,seed,class,size_mib,step,row,rows,cols,ms,gbs,pct_copy \
    'd,5,any,300,step7,copy ceiling,9,9,1,100,100.0' 'd,5,any,300,step7,GPU-any-shape,9,9,1,80,80.0' \
    'd,5,any,300,library,cublasSgeam,9,9,1,85,85.0' 'd,5,square,400,step7,GPU-any-shape,8,8,1,95,95.0' \
    'd,5,square,400,library,cublasSgeam,8,8,1,90,90.0' 'd,5,fits-l2,4,step7,GPU-any-shape,1,1,1,150,150.0' \
    'd,5,any,300,baseline,plain-tile,9,9,1,79,79.0' 'd,5,square,400,baseline,plain-tile,8,8,1,95.6,95.6' \
    >"$TK_BUILD/sweep.csv"
run_cmd awk -f scripts/lib/csv.awk -f scripts/results/results-sweep.awk "$TK_BUILD/sweep.csv"
judge "results-sweep.awk: the L2 shapes apart, the worst shape and the library margin named" 0 \
    '^set apart: both matrices fit in twice the L2' '^1 x 1 +fits-l2' \
    '^GPU-any-shape \(step7\) over 2 shapes beyond the L2: worst 80\.0% of the copy at 9 x 9; 1 under 90%; behind cublasSgeam on 1, its least margin -5\.0 points at 9 x 9$'
judge "results-sweep.awk: step 7 against every other row (the plain-tile row too), more than 0.5 point behind counted" 0 \
    '^GPU-any-shape against every other row: behind one by more than 0\.5 point on 2 of 2 shapes; its least margin -5\.0 points, over cublasSgeam at 9 x 9$' \
    '^8 x 8 .* 95\.6 \(95\.6%\)'
printf '%s\n' date,seed,class,size_mib,step,row,rows,cols,ms,gbs,pct_copy \
    'd,5,any,300,step9,GPU-a,9,9,1,80,80.0' 'd,5,any,300,step10,GPU-b,9,9,1,70,70.0' >"$TK_BUILD/sweep10.csv"
run_cmd awk -f scripts/lib/csv.awk -f scripts/results/results-sweep.awk "$TK_BUILD/sweep10.csv"
judge "results-sweep.awk: the last step by number (step10 after step9)" 0 '^GPU-b \(step10\) over 1 shapes'
printf '%s\n' date,seed,class,size_mib,step,row,rows,cols,ms,gbs,pct_copy,commit \
    'd,5,any,300,step7,GPU-a,9,9,1,80,80.0,abc1234' 'd,5,any,300,step7,GPU-a,8,8,1,80,80.0,def5678+changes' \
    >"$TK_BUILD/sweep-commits.csv"
run_cmd awk -f scripts/lib/csv.awk -f scripts/results/results-sweep.awk "$TK_BUILD/sweep-commits.csv"
judge "results-sweep.awk: names the commits its rows ran" 0 '^the kit at commit abc1234 def5678\+changes$'

# The kit's license and version: LICENSE is there and named in the README; VERSION is the
# newest version of CHANGELOG.md and the one the README names.
version_check() {   # version_check KIT: says what disagrees; prints nothing when all agree
    local kit=$1 v newest
    [ -s "$kit/LICENSE" ] || echo "no LICENSE"
    grep -q '`LICENSE`' "$kit/README.md" || echo "README.md does not name LICENSE"
    v=$(cat "$kit/VERSION" 2>/dev/null)
    [[ $v =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "VERSION is not X.Y.Z: '$v'"; return; }
    newest=$(sed -n 's/^## \([0-9][0-9.]*\) (.*/\1/p' "$kit/CHANGELOG.md" | head -n 1)
    [ "$newest" = "$v" ] || echo "VERSION is $v, CHANGELOG.md's newest is '$newest'"
    grep -qF "($v)" "$kit/README.md" || echo "README.md does not name version $v"
}
run_cmd version_check .
if [ -s "$LAST_OUT" ]; then fail "LICENSE, VERSION, CHANGELOG.md and the README agree" "see above"
else pass "LICENSE, VERSION, CHANGELOG.md and the README agree"; fi
mkdir -p "$TK_BUILD/version" && cp LICENSE VERSION CHANGELOG.md README.md "$TK_BUILD/version/"
echo 9.9.9 >"$TK_BUILD/version/VERSION"
expect "version check: a VERSION the changelog does not have is caught" 0 \
    "^VERSION is 9\.9\.9, CHANGELOG\.md's newest is '$(sed 's/\./\\./g' VERSION)'" version_check "$TK_BUILD/version"

# An old driver is named, not hidden: with TK_TEST_DRIVER_VERSION (the tests' stand-in for the
# driver's version, common/core.h) at CUDA 11.8, below any runtime the kit builds with, every
# program and every script that runs the steps says the driver is too old and exits 6, where
# a machine without a GPU exits 3 (on a machine with a GPU, the same: the stand-in wins).
old_driver='the NVIDIA driver supports CUDA up to 11\.8, this build needs [0-9]+\.[0-9]+: update the driver, or build with a CUDA toolkit of 11\.8 or older'
export TK_TEST_DRIVER_VERSION=11080
expect "an old driver: a step says so, exit 6" 6 "^GPU rows skipped: $old_driver\$" \
    solution/step1/transpose -n 64
if [ "$HAVE_NCCL" = 1 ]; then
    expect "an old driver: a step across GPUs says so, exit 6" 6 "^GPU rows skipped: $old_driver\$" \
        solution/step8/transpose -n 64
else
    skip "an old driver: a step across GPUs says so, exit 6" "no NCCL 2.28 or newer here: steps 8 to 10 are not built"
fi
expect "an old driver: make run's script says so, exit 6" 6 '^The NVIDIA driver is too old for this build' \
    scripts/results/run-all.sh -n 64
expect "an old driver: the copy-mode probe (common/README.md) says so, exit 6" 6 "^copy-modes: nothing was run: $old_driver\$" \
    scripts/bench/copy-modes/copy-modes.sh "$TK_BUILD/copy-modes" 64x64 2
expect "an old driver: the grader says so, exit 6" 6 "^nothing was graded: the driver is too old for this build: $old_driver\. It builds; update the driver" \
    scripts/grade/grade.sh solution/step2
expect "an old driver: make results says so, exit 6" 6 "^results: the driver is too old for this build: $old_driver\$" \
    scripts/results/results.sh -n 64
expect "an old driver: make large says so, exit 6" 6 "^large: the driver is too old for this build \($old_driver\): nothing was run" \
    scripts/results/large.sh 1
probe_words() { local GPU_STATE='' GPU_WHY=''; gpu_probe; echo "$GPU_STATE: $GPU_WHY"; }
run_cmd probe_words
judge "an old driver: make test skips the GPU tests, naming the driver" 0 "^absent: the driver is too old for this build: $old_driver\$"
unset TK_TEST_DRIVER_VERSION

# A job's memory cap (planted: TK_TEST_CGROUP, 100 MiB) that cannot hold the large shapes:
# large.sh says each run it could not make and counts none of them a failure. Where this
# GPU runs no large shape (its plan), there is nothing to refuse: skipped.
cg100=$TK_BUILD/cgroup100
rm -rf "$cg100" && mkdir -p "$cg100" && echo "0::/" >"$cg100/cgroup" && echo 104857600 >"$cg100/memory.max"
name="large.sh under a job's memory cap: a run the host cannot hold is said, not counted a failure"
if gpu_test "$name"; then
    if scripts/results/large.sh --plan 2>/dev/null | grep -q '^large: runs '; then
        run_cmd env TK_TEST_CGROUP="$cg100" scripts/results/large.sh 1
        judge "$name" 0 'needs two host matrices of .*; this process may use 100 MiB' \
            '^not run: the host cannot hold it' '^0 passed, 0 failed \(.*run\(s\) not run: the host could not hold them\)$'
    else
        skip "$name" "this GPU runs no large shape (large.sh --plan)"
    fi
fi

# A shared GPU is said, not hidden: with a stand-in nvidia-smi that lists another process on
# GPU 0 and a MIG slice, gpu_others names both, make run's script says its GB/s are shared,
# and (on a GPU) the grader does not judge the speed, saying why.
shared=$TK_BUILD/shared-gpu
mkdir -p "$shared"
cat >"$shared/nvidia-smi" <<'SMI'
#!/bin/sh
case "$*" in
    *--query-compute-apps*) echo "4242, /usr/bin/python3, 1234" ;;
    -L) echo "GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-0)"
        echo "  MIG 1g.5gb     Device  0: (UUID: MIG-0)" ;;
    *) exit 9 ;;
esac
SMI
chmod +x "$shared/nvidia-smi"
others_here() { PATH=$shared:$PATH gpu_others; }
run_cmd others_here
judge "a shared GPU: gpu_others names the other process and the MIG slice" 0 \
    '^pid 4242 /usr/bin/python3 \(1234 MiB\)$' '^MIG: this GPU is split into MIG slices'
alone=$TK_BUILD/alone-gpu   # a stand-in that lists nothing else: nothing is said
mkdir -p "$alone"
printf '#!/bin/sh\ncase "$*" in -L) echo "GPU 0: NVIDIA H100 (UUID: GPU-0)" ;; esac\n' >"$alone/nvidia-smi"
chmod +x "$alone/nvidia-smi"
alone_here() { PATH=$alone:$PATH gpu_others; }
run_cmd alone_here
[ "$RC" = 0 ] && [ ! -s "$LAST_OUT" ] && pass "a GPU of one's own: gpu_others says nothing" ||
    fail "a GPU of one's own: gpu_others says nothing" "exit $RC, or it printed the above"
no_gpu solution/step1/transpose && ran=$NO_GPU_STATUS || ran=0   # run-all's status here: 3 or 6 without a usable GPU
PATH=$alone:$PATH run_cmd scripts/results/run-all.sh -n 64
judge "a GPU of one's own: make run's script prints no shared-GPU note" "$ran" '^== step1 =='
grep -q 'not this run' "$LAST_OUT" && fail "a GPU of one's own: no shared-GPU note" "the note was printed" ||
    pass "a GPU of one's own: no shared-GPU note"
PATH=$shared:$PATH run_cmd scripts/results/run-all.sh -n 64
judge "a shared GPU: make run's script says its GB/s are shared, naming the process" "$ran" \
    "^note: this GPU is not this run's alone" '^  pid 4242 /usr/bin/python3'
if gpu_test "a shared GPU: the grader does not judge the speed, saying why"; then
    PATH=$shared:$PATH run_cmd scripts/grade/grade.sh solution/step2
    judge "a shared GPU: the grader does not judge the speed, saying why" 0 \
        '^note: speed not judged: other processes are on this GPU \(pid 4242' \
        '^graded step2: passed'
fi

# make run where the build left the steps across GPUs out (no NCCL): run-all.sh skips them,
# saying why, where it stopped at the first with "not built" before. In a scratch kit whose
# one-GPU solutions stand in as scripts that succeed, and TK_TEST_NO_NCCL=1 for no NCCL.
rkit=$TK_BUILD/runall-kit
rm -rf "$rkit" && mkdir -p "$rkit/solution" "$rkit/common" && cp -r scripts "$rkit/" && cp common/nccl.mk "$rkit/common/"
for n in $(scripts/lib/steps.sh --one-gpu); do
    mkdir -p "$rkit/solution/step$n" && printf '#!/bin/sh\necho "step%s ran"\n' "$n" >"$rkit/solution/step$n/transpose"
    chmod +x "$rkit/solution/step$n/transpose"
done
TK_TEST_NO_NCCL=1 run_cmd "$rkit/scripts/results/run-all.sh" -n 64
judge "make run without NCCL: the steps across GPUs skipped, saying why, exit 0" 0 '^step7 ran$' \
    "^\(step${ACROSS_NUMS%% *} skipped: it runs across GPUs through NCCL 2\.28 or newer, which the build did not find\)$"
TK_TEST_NO_NCCL= run_cmd "$rkit/scripts/results/run-all.sh" -n 64
if [ "$(have_nccl)" = 1 ]; then
    judge "make run with NCCL: a step across GPUs not built is still an error, exit 4" 4 "^run-all: solution/step${ACROSS_NUMS%% *}/transpose is not built: run make first$"
else
    skip "make run with NCCL: a step across GPUs not built is still an error, exit 4" "no NCCL 2.28 or newer here"
fi

# The copy-mode probe's script (common/README.md, "When the copy changes speed"): its usage,
# and what it refuses before it builds or runs anything.
expect "copy-modes.sh -h prints its usage" 0 '^usage: .*copy-modes\.sh DIR "ROWSxCOLS \.\.\." ROUNDS \[REALLOC\]' \
    scripts/bench/copy-modes/copy-modes.sh -h
expect "copy-modes.sh with too few arguments: its usage, exit 2" 2 '^usage: ' scripts/bench/copy-modes/copy-modes.sh "$TK_BUILD/copy-modes"
expect "copy-modes.sh: a shape not ROWSxCOLS is refused, exit 2" 2 "^copy-modes: '64y64' is not ROWSxCOLS\$" \
    scripts/bench/copy-modes/copy-modes.sh "$TK_BUILD/copy-modes" "64x64 64y64" 2
expect "copy-modes.sh: ROUNDS of 0 is refused, exit 2" 2 '^copy-modes: give one shape or more, ROUNDS of 1 or more' \
    scripts/bench/copy-modes/copy-modes.sh "$TK_BUILD/copy-modes" 64x64 0

# make large picks the shapes the GPU's memory holds, and says which it skips and why.
run_cmd scripts/results/large.sh --plan --memory 24576
judge "large.sh --plan: a 24 GiB GPU runs 46341 x 46341 and skips 65536 x 65537, saying why" 0 \
    '^large: runs 46341x46341$' '^large: 65536 x 65537 skipped: it needs about 33\.1 GiB of GPU memory; this GPU has 24\.0 GiB$'
expect "large.sh --plan: a 16 GB GPU runs nothing past 2^31 elements, saying so" 0 \
    '^large: no shape past 2\^31 elements fits' scripts/results/large.sh --plan --memory 15360
expect "large.sh --plan: an 80 GB GPU runs both" 0 '^large: runs 46341x46341 65536x65537$' \
    scripts/results/large.sh --plan --memory 81559
expect "large.sh --memory refuses what is not a size in MiB" 2 'memory takes' \
    scripts/results/large.sh --plan --memory lots

# make results beside another GPU's reference compares in % of copy, not in GB/s; by default
# it picks the committed reference of the run's own GPU.
cp results/h200-reference.csv "$TK_BUILD/h200-run.csv"
run_cmd scripts/results/results.sh --table "$TK_BUILD/h200-run.csv" --compare results/h100-reference.csv
judge "results beside another GPU's reference: in % of copy, said so" 0 \
    '; another GPU: compared in % of copy$' ' ref %copy ' '^GPU-1D .* 4\.7 '
run_cmd scripts/results/results.sh --table "$TK_BUILD/h200-run.csv"
judge "results without --compare: the committed reference of the run's own GPU, in GB/s" 0 \
    '^reference: NVIDIA H200, .*h200-reference\.csv\)$' ' ref GB/s '

# results/README.md's "What to expect on your GPU": each % of copy is its committed file's
# (the GPU's reference run, every step and the library) and each "apart" their difference.
expect_table() {   # expect_table README: prints each cell that disagrees with its file
    local gpu row want have line label h100 h200 apart first rest
    while IFS='|' read -r first label h100 h200 apart rest; do
        row=${label#*, }; row=${row% }
        for gpu in h100 h200; do
            [ "$gpu" = h100 ] && have=${h100// /} || have=${h200// /}
            want=$(awk -f scripts/lib/csv.awk -v cols=pct_copy -v row="$row" -v first=1 \
                -f scripts/lib/csv-select.awk "results/$gpu-reference.csv")
            [ "$have" = "$want" ] || echo "$row, $gpu: table $have, file ${want:-none}"
        done
        line=$(awk -v a="${h100// /}" -v b="${h200// /}" 'BEGIN { d = a - b; printf "%.1f", d < 0 ? -d : d }')
        [ "$line" = "${apart// /}" ] || echo "$row: apart ${apart// /}, the difference is $line"
    done < <(sed -n '/^## What to expect on your GPU/,/^## /p' "$1" | grep -E '^\| (step [0-9]|library),')
}
run_cmd expect_table results/README.md
[ "$RC" = 0 ] && [ ! -s "$LAST_OUT" ] && [ "$(sed -n '/^## What to expect on your GPU/,/^## /p' results/README.md | grep -cE '^\| (step [0-9]|library),')" = 8 ] &&
    pass "results/README.md 'What to expect': every % of copy is its committed file's" ||
    fail "results/README.md 'What to expect': every % of copy is its committed file's" "see above (8 rows expected)"
sed 's/^| step 4, GPU-no-conflicts | 54\.6 |/| step 4, GPU-no-conflicts | 55.6 |/' results/README.md >"$TK_BUILD/expect-readme.md"
expect "'What to expect': a changed figure is caught" 0 '^GPU-no-conflicts, h100: table 55\.6, file 54\.6$' \
    expect_table "$TK_BUILD/expect-readme.md"
# large.sh STEPS runs those steps alone; with none, every step and the library row (read from
# its trace; the stand-in old driver stops it at the GPU check, after it chose what to run, on
# any machine, so that nothing large runs inside make test).
TK_TEST_DRIVER_VERSION=11080 run_cmd bash -x scripts/results/large.sh 7
if [ "$RC" != 6 ]; then fail "large.sh 7: only step 7, no library row" "exit $RC, expected 6"
elif grep -q 'bins+=(scripts/library/library)' "$LAST_OUT"; then
    fail "large.sh 7: only step 7, no library row" "the library row was queued"
else pass "large.sh 7: only step 7, no library row"; fi
TK_TEST_DRIVER_VERSION=11080 run_cmd bash -x scripts/results/large.sh
judge "large.sh with no step: every step and the library row" 6 '^\+ bins\+=\(scripts/library/library\)'
# The research CSVs the pages quote are what their scripts rebuild from the committed logs (the lever logs
# through ../lever-rows.awk), so that a change to the reader or a log cannot leave a CSV behind.
for built in block-order/orders.sh:orders.csv tall-panels/tall.sh:tall.csv l2-fabric/seven.sh:seven.csv \
        panel-stride/wide.sh:wide.csv tall-h200/tall.sh:tall.csv ways-h200/ways.sh:ways.csv; do
    script=${built%%:*} dir=results/research/${built%%/*}
    name="results/research/$script rebuilds ${built#*:} as committed"
    (cd "$dir" && sh "${script#*/}") >"$TK_BUILD/rebuilt.csv" 2>&1
    if diff -q "$TK_BUILD/rebuilt.csv" "$dir/${built#*:}" >/dev/null; then pass "$name"
    else fail "$name" "$(diff "$TK_BUILD/rebuilt.csv" "$dir/${built#*:}" | head -3)"; fi
done
