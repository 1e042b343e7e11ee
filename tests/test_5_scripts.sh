# The scripts as a user meets them without a GPU: job scripts, grader, results reporting
# (on the committed H100 reference), profile capture's argument handling and the committed
# profile panels. Their GPU runs are in test_4_gpu.sh.

# Cluster jobs: syntax, shellcheck where installed, and the plan of a dry run.
for f in scripts/job.sh scripts/slurm.sbatch scripts/pbs.pbs; do
    expect "$f passes bash -n" 0 '' bash -n "$f"
    if command -v shellcheck >/dev/null; then
        expect "$f passes shellcheck" 0 '' shellcheck -s bash -S warning "$f"
    else
        skip "$f passes shellcheck" "shellcheck is not installed"
    fi
done
expect "slurm job: --dry-run prints the plan for all steps" 0 'run: .*scripts/results.sh -n 8192' \
    scripts/slurm.sbatch --dry-run
expect "pbs job: STEP, SIZE and MODULES come from the environment" 0 \
    'module load cuda/13.0 gcc' env STEP=3 SIZE=4096 MODULES="cuda/13.0 gcc" scripts/pbs.pbs --dry-run
judge "pbs job: runs the named step at SIZE" 0 'solution/step3/transpose -n 4096'
expect "job: a bad SIZE is refused" 2 'SIZE must be a whole number' env SIZE=big scripts/job.sh --dry-run
expect "job: an unknown step folder is refused" 2 'no nosuch/transpose.cu' env STEP=nosuch scripts/job.sh --dry-run

# The grader without a GPU: builds, says which step and that nothing was graded; exit 3.
expect "grade: usage error without a step folder" 2 'usage' scripts/grade.sh
expect "grade: -h prints the usage, exit 0" 0 '^usage: scripts/grade.sh DIR' scripts/grade.sh -h
expect "grade: an untouched starter without a GPU: builds, notes its open TODOs, exit 3" 3 \
    '^note: it still calls tk_unfinished' env CUDA_VISIBLE_DEVICES= scripts/grade.sh step3
judge "grade: says it graded nothing" 3 '^PASS build' '^nothing was graded: no usable GPU here'
run_cmd env CUDA_VISIBLE_DEVICES= scripts/grade.sh solution/step3
if [ "$RC" = 3 ] && ! grep -q 'tk_unfinished' "$LAST_OUT"; then
    pass "grade: a solution without a GPU: no open-TODO note, exit 3"
else
    fail "grade: a solution without a GPU: no open-TODO note, exit 3" "exit $RC"
fi
expect "make check runs the grader in a step folder (make exits 2 on a failed recipe)" 2 '^grade: .*step2' \
    env CUDA_VISIBLE_DEVICES= make -s -C step2 check

# Results: reporting from the committed reference runs, no GPU needed.
# check_reference GPU README-COLUMN ROWS...: the committed results/GPU-reference.csv has every
# column and the ROWS, each parsed and checked; its table and chart print without a GPU; the
# README's GB/s column for that GPU is the CSV's.
check_reference() {
    local gpu=$1 column=$2 ref=results/$1-reference.csv row n bad; shift 2
    [ -f "$ref" ] || { fail "the committed $gpu reference run exists" "$ref is missing"; return; }
    pass "the committed $gpu reference run exists"
    want="date,step,row,device,cc,peak_gbs,rows,cols,reps,ms_median,ms_min,ms_max,gbs,pct_peak,pct_copy,checked,k20x_gbs,cuda_runtime,driver,nvidia_driver"
    [ "$(head -n 1 "$ref")" = "$want" ] && pass "$gpu reference CSV: every column" ||
        fail "$gpu reference CSV: every column" "header is $(head -n 1 "$ref")"
    bad=$(awk -f scripts/csv.awk -f tests/reference-rows.awk "$ref" 2>&1) || bad="awk failed: $bad"
    [ -z "$bad" ] && pass "$gpu reference CSV: every row parses, numeric and checked" ||
        fail "$gpu reference CSV: every row parses, numeric and checked" "bad lines: $bad"
    for row in "$@" "copy ceiling"; do
        grep -q ",$row," "$ref" && pass "$gpu reference CSV: has the $row row" || fail "$gpu reference CSV: has the $row row" "missing"
    done
    cp "$ref" "$TK_BUILD/$gpu-ref.csv"
    expect "results --table prints the $gpu reference's table without a GPU" 0 '^GPU-vector-tile ' \
        scripts/results.sh --table "$TK_BUILD/$gpu-ref.csv"
    n=$(grep -cE '^(CPU\+OMP|GPU-[a-zA-Z0-9-]+|cublasSgeam|copy ceiling) ' "$LAST_OUT")
    [ "$n" = $(($# + 1)) ] && pass "$gpu results table: $n rows" || fail "$gpu results table: $(($# + 1)) rows" "$n rows"
    svg=$TK_BUILD/$gpu-ref.svg
    if [ -s "$svg" ] && head -n 1 "$svg" | grep -q '^<svg ' && tail -n 1 "$svg" | grep -q '^</svg>$' &&
       [ "$(grep -c '<rect x=' "$svg")" = $# ] && grep -q 'copy ' "$svg" && grep -q 'peak ' "$svg"; then
        pass "$gpu results chart: an SVG with $# bars, the copy and peak lines"
    else
        fail "$gpu results chart: an SVG with $# bars, the copy and peak lines" "see $svg"
    fi
    bad=$(awk -v column="$column" -f scripts/csv.awk -f tests/readme-table.awk "$ref" README.md 2>&1) ||
        bad="awk failed: $bad"
    [ -z "$bad" ] && pass "README results table: the $gpu column is the committed CSV's" ||
        fail "README results table: the $gpu column is the committed CSV's" "$bad"
}
steps_rows="CPU+OMP GPU-1D GPU-2D GPU-shared GPU-no-conflicts GPU-multi-element GPU-vector-tile"
check_reference h100 4 $steps_rows
check_reference h200 6 $steps_rows cublasSgeam
expect "results: an unknown option is refused" 2 "unknown option '--fast'" scripts/results.sh --fast
expect "results: without a GPU it says so and exits 3" 3 'no usable GPU' \
    env CUDA_VISIBLE_DEVICES= scripts/results.sh -n 64 --out "$TK_BUILD/nogpu.csv"
left=$(ls -A results | grep '^\.' | tr '\n' ' ')
[ -z "$left" ] && pass "results: leaves no scratch files behind without a GPU" ||
    fail "results: leaves no scratch files behind without a GPU" "left: $left"

# Profiles: capture script's arguments, missing ncu, and the committed panels.
expect "profile: an unknown option is refused" 2 "unknown option '--fast'" scripts/profile.sh --fast
expect "profile: without ncu it says what to install, exit 3" 3 'ncu \(Nsight Compute\) is not on the PATH' \
    env PATH=/usr/bin:/bin scripts/profile.sh 1
printf '"gpu__time_duration.sum"\n"nsecond"\n"1000"\n' >"$TK_BUILD/raw.csv"
: >"$TK_BUILD/details.txt"
expect "profile panel: a report lacking metrics is refused and named" 1 'missing metrics: .*Grid Size' \
    awk -f scripts/profile-panel.awk "$TK_BUILD/raw.csv" "$TK_BUILD/details.txt"
for n in $STEP_NUMS; do
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
