#!/usr/bin/env bash
# The results table: builds and runs every one-GPU solution step on this GPU, and the library
# row (cublasSgeam, scripts/library), the copy ceiling measured beside each, and prints one
# table; writes the rows as CSV and an SVG chart. The steps across GPUs have their own table.
#
#   scripts/results/results.sh                    8192 x 8192 -> results/runs/DATE-DEVICE-8192x8192.csv, .svg
#   scripts/results/results.sh -n 4096            another size (--rows R --cols C too)
#   scripts/results/results.sh --compare REF.csv  beside a saved run (default: the committed one of
#                                                 the same GPU, else the H100's, in % of copy)
#   scripts/results/results.sh --table RUN.csv    the table and chart of a saved run: no GPU needed
#   scripts/results/results.sh --sweep            the last three one-GPU steps, the library row, the
#                                                 plain-tile row (scripts/baseline) and
#                                                 the copy on squares, rectangles and odd shapes; then
#                                                 the last two steps, the library and the copy on 54
#                                                 generated shapes (scripts/results/shapes-gen.awk);
#                                                 each row names the kit's commit (git's short hash)
#   scripts/results/results.sh --sweep --seed S --generated N    the generated shapes of seed S
#                                                 (default: a new seed, printed), N of them (0: none)
#   scripts/results/results.sh --sweep --seed S --part I/N --out F.csv    part I of N of that sweep
#                                                 (every Nth shape, fixed and generated), its rows
#                                                 added to F.csv: a sweep longer than one sitting,
#                                                 in parts, each once, all on one kind of GPU with
#                                                 the same --generated; the table is of all of F.csv,
#                                                 each run's notes in F-copy.txt (a part takes
#                                                 F.csv only with the notes of the parts before)
#   scripts/results/results.sh --across           the steps across GPUs, on every GPU here, at
#                                                 8192^2, 16384^2 and 12345 x 6789, with a timeline
#   scripts/results/results.sh --repeat 3         the whole table 3 times, with the spread of each row
#   scripts/results/results.sh --out FILE.csv     where to write the CSV (a committed reference is only
#                                                 ever rewritten when named here)
#
# New runs land in results/runs/, which git ignores; results/ holds the committed references.
#
# Exit status: 0 done; 2 bad arguments; 3 no usable GPU (nothing measured, says why);
# otherwise the status of the step that failed (see ./transpose --help).
set -u
. "$(dirname "$0")/../lib/lib.sh"
unset TK_WAY   # a way forced for the tests (common/README.md) must not reach a run here
cd "$(dirname "$0")/../.." || exit 4
REFERENCE=results/h100-reference.csv
# The sweep: squares from 4096 to 32768, one very wide, one very tall, and shapes whose rows,
# columns or both are not multiples of 8 (rows of the input or the output off their sectors).
SWEEP_SHAPES="4096x4096 8192x8192 16384x16384 32768x32768 1024x262144 262144x1024 8192x8191
8191x8192 8191x8191 8192x8190 8190x8192 12345x6789 6789x12345 16383x16385"
ACROSS_SHAPES="8192x8192 16384x16384 12345x6789"
LIBRARY=scripts/library/library   # the library row, cublasSgeam: a yardstick, not a step
BASELINE=scripts/baseline/plain-tile   # the plain-tile row, the simplest tiled kernel: the sweep's other yardstick

size=() out="" compare="" table="" sweep=0 across=0 repeat=1 seed="" generated=54 piece=""
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        -n|--rows|--cols|--compare|--table|--out|--repeat|--seed|--generated|--part)
            [ $# -ge 2 ] || { echo "results: $1 needs a value" >&2; exit 2; }
            case $1 in
                --compare) compare=$(from_start "$2") ;; --table) table=$(from_start "$2") ;;
                --out) out=$(from_start "$2") ;;
                --repeat) repeat=$2 ;; --seed) seed=$2 ;; --generated) generated=$2 ;;
                --part) piece=$2 ;;
                *) size+=("$1" "$2") ;;
            esac
            shift 2 ;;
        --sweep) sweep=1; shift ;;
        --across) across=1; shift ;;
        *) refuse "unknown option '$1'" ;;
    esac
done
[[ $repeat =~ ^[1-9][0-9]?$ ]] || { echo "results: --repeat takes 1 to 99" >&2; exit 2; }
[[ $generated =~ ^[0-9]{1,3}$ ]] || { echo "results: --generated takes 0 to 999" >&2; exit 2; }
[ -z "$seed" ] || [[ $seed =~ ^[1-9][0-9]{0,8}$ ]] ||
    { echo "results: --seed takes a whole number from 1 to 999999999" >&2; exit 2; }
csv() { awk -f scripts/lib/csv.awk "$@"; }   # csv -f PROGRAM.awk FILE...: the kit's CSV by column name
shapes_of() {   # shapes_of CSV [generated]: its shapes "R x C" (only the generated, with their class)
    csv -v cols=rows,cols,class -f scripts/lib/csv-select.awk "$1" |
        awk -F, -v cls="$2" 'cls == "" || $3 != "fixed" { print $1 " x " $2 (cls == "" ? "" : " " $3) }' | sort -u
}
listed() { head -n 3 | tr '\n' ',' | sed 's/,$//'; }   # up to three lines of stdin, one line, commas between
if [ -n "$piece" ]; then   # a part: which shapes are its own, and where its rows go
    [[ $piece =~ ^([1-9])/([1-9])$ ]] && [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] ||
        { echo "results: --part takes I/N, 1 <= I <= N <= 9" >&2; exit 2; }
    [ "$sweep" = 1 ] && [ -n "$seed" ] && [ -n "$out" ] ||
        { echo "results: --part goes with --sweep, --seed S and --out F.csv (the parts' shapes and file)" >&2; exit 2; }
    if [ -s "$out" ]; then   # the parts before this one: a sweep's CSV of the same seed
        [ "$(head -n 1 "$out")" = "$SWEEP_HEADER" ] ||
            { echo "results: $out is not a sweep's CSV of this version of the kit (its first line is not $SWEEP_HEADER): the parts of one sweep share a file" >&2; exit 2; }
        [ "$(csv -v cols=seed -v first=1 -f scripts/lib/csv-select.awk "$out")" = "$seed" ] ||
            { echo "results: $out is not a sweep's CSV of seed $seed: the parts of one sweep share a file" >&2; exit 2; }
        # Each part adds its notes (each run's copies, the way step 7 kept) to F-copy.txt: they must
        # be the notes of F.csv's shapes, all of them and no others (but shapes every program
        # refused, which have notes and no rows): a part run where the CSV came without its notes
        # would add its own to none, or to another sweep's of the same draw.
        notes=${out%.csv}-copy.txt have=$(shapes_of "$out" "")
        lost=$(comm -23 <(echo "$have") <(awk '{ print $1 " x " $3 }' "$notes" 2>/dev/null | sort -u) | listed)
        [ -z "$lost" ] ||
            { echo "results: $notes does not hold the notes of the parts before ($lost): bring it with $out, each part adds to both" >&2; exit 2; }
        other=$(comm -13 <(echo "$have") <(awk '!/: refused: / { print $1 " x " $3 }' "$notes" 2>/dev/null | sort -u) | listed)
        [ -z "$other" ] ||
            { echo "results: $notes holds notes of shapes $out has no rows of ($other): another run's notes; bring the ones of $out" >&2; exit 2; }
    fi
fi
compare_given=0
[ -n "$compare" ] && compare_given=1
for f in "$compare" "$table"; do
    [ -z "$f" ] || [ -r "$f" ] || { echo "results: cannot read '$f'" >&2; exit 2; }
done

solutions() { for n in "$@"; do echo "solution/step$n/transpose"; done; }   # solutions N...: their binaries

# reference_for CSV: the committed reference run of CSV's GPU, if there is one; else the H100's.
reference_for() {
    local device ref
    device=$(csv -v cols=device -v first=1 -f scripts/lib/csv-select.awk "$1")
    for ref in results/*-reference.csv; do
        [ "$(csv -v cols=device -v first=1 -f scripts/lib/csv-select.awk "$ref")" = "$device" ] &&
            { echo "$ref"; return; }
    done
    echo "$REFERENCE"
}

show() {   # show CSV: the table (beside the reference) and the chart next to the CSV
    [ "$compare_given" = 1 ] || compare=$(reference_for "$1")
    csv -f scripts/results/results-table.awk "$1" ${compare:+"$compare"} || return 2
    csv -f scripts/results/results-chart.awk "$1" >"${1%.csv}.svg" && echo "chart: ${1%.csv}.svg"
    echo "K20X column: the 2013 workshop's table, 1024 x 1024 on a K20X (250 GB/s peak)"
}

if [ -n "$table" ]; then
    show "$table"
    exit
fi

steps=$(scripts/lib/steps.sh --one-gpu)
dirs=()
for n in $steps; do dirs+=("solution/step$n"); done
[ "$across" = 1 ] && for n in $(scripts/lib/steps.sh --across); do dirs+=("solution/step$n"); done
{ make -s "${dirs[@]}" && make -s -C scripts/library && make -s -C scripts/baseline; } >/dev/null ||
    { echo "results: the build failed: run make to see why" >&2; exit 4; }
mkdir -p results/runs
# Work in progress lives in results/.tmp-*, moved to its name when complete; never left behind.
trap 'rm -f results/.tmp-*' EXIT
today=$(date -u +%Y-%m-%d)

if no_gpu solution/step1/transpose; then
    echo "results: $NO_GPU_SAID: $NO_GPU_WHY" >&2
    exit "$NO_GPU_STATUS"
fi

# run_failed OUT BIN STATUS: shows the messages of BIN's run (OUT.err) and exits with its status.
run_failed() {
    echo "results: $2 failed (exit $3):" >&2; cat "$1.err" >&2
    exit "$3"
}
# step_csv OUT BIN ARGS...: the binary's CSV into OUT; when the binary fails, run_failed.
step_csv() {
    local out=$1 rc; shift
    "$@" >"$out" 2>"$out.err"
    rc=$?
    [ $rc = 0 ] || run_failed "$out" "$1" $rc
}

# run_table FILE: every step's CSV rows into FILE, with the date first and the driver last.
run_table() {
    local file=$1 part=results/.tmp-part.csv first=1 bin drv
    drv=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)
    # shellcheck disable=SC2086  # a list of step numbers
    for bin in $(solutions $steps) "$LIBRARY"; do
        local flags=(--csv "${size[@]}")
        [ "$first" = 1 ] || flags+=(--no-cpu)
        step_csv "$part" "$bin" "${flags[@]}"
        if [ "$first" = 1 ]; then sed -n '1{s/^/date,/;s/$/,nvidia_driver/;p}' "$part" >"$file"; fi
        sed -n "2,\$s/^\(.*\)\$/$today,\1,${drv:-unknown}/p" "$part" >>"$file"
        first=0
    done
}

name_for() {   # name_for RESULTS-CSV SUFFIX: results/runs/DATE-DEVICE-RxC-SUFFIX.csv
    local f
    IFS=, read -r -a f < <(csv -v cols=date,device,rows,cols -v first=1 -f scripts/lib/csv-select.awk "$1")
    echo "results/runs/${f[0]}-$(echo "${f[1]}" | sed 's/[^A-Za-z0-9]\{1,\}/-/g')-${f[2]}x${f[3]}$2.csv"
}

# refusal OUT: the line in which the run whose messages are OUT.err refused its shape before
# any work (a side past an int, exit 2; memory or a grid's y, exit 4), or nothing: the sweep
# says so and goes on.
refusal() {
    grep -m1 -E "(rows|columns): .* holds each side of the matrix in an int|needs two (device|host) matrices|^grid's y: " "$1.err"
}
# sweep_rows TMP CLASS R C BIN...: each binary's rows at R x C, appended to TMP; a program
# that refuses the shape, said in TMP.copy as "R x C PROGRAM: refused: ..." (the table shows -).
sweep_rows() {
    local tmp=$1 class=$2 r=$3 c=$4 bin prog rc why; shift 4
    for bin in "$@"; do
        prog=$(basename "$(dirname "$bin")")   # the step (or library) folder: its name in TMP.copy
        "$bin" --csv --no-cpu --rows "$r" --cols "$c" >"$part" 2>"$part.err"
        rc=$?
        if [ $rc != 0 ] && why=$(refusal "$part"); then
            echo "$r x $c $prog: refused: $why" >>"$tmp.copy"
            continue
        fi
        [ $rc = 0 ] || run_failed "$part" "$bin" $rc
        sweep_csv_rows "$part" "$today" "$seed" "$class" $((r * c * 4 / 1048576)) "$commit" >>"$tmp"
        # the ceiling's two copies, as the run said them (common/README.md, "How it measures"),
        # and the way a launch of several ways kept (step 7's block order), as its note said it
        sed -n -e "s/^copy ceiling: /$r x $c $prog: /p" \
            -e "s/^note: at [0-9]* x [0-9]* the launch\(.*\)\$/$r x $c $prog: the launch\1/p" \
            "$part.err" >>"$tmp.copy"
    done
}

if [ "$sweep" = 1 ]; then
    best=$(echo "$steps" | tail -n 3 | tr '\n' ' ')   # the last three steps, then the library
    last2=$(echo "$steps" | tail -n 2 | tr '\n' ' ')  # on the generated shapes: the last two
    seed=${seed:-$(( $(date +%s) % 999999999 + 1 ))}
    commit=$(kit_commit)   # each row names the commit it ran
    tmp=results/.tmp-sweep.csv part=results/.tmp-part.csv list=results/.tmp-shapes.txt
    # Every shape of the sweep in order, "ROWS COLS CLASS STEP...": the fixed ones, then those
    # drawn from the seed for this GPU's memory and L2 (read from a run of one element).
    for shape in $SWEEP_SHAPES; do echo "${shape%x*} ${shape#*x} fixed $best"; done >"$list"
    if [ "$generated" -gt 0 ]; then
        mem=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits -i 0 2>/dev/null | head -n 1)
        # shellcheck disable=SC2086  # a list of step numbers
        step_csv "$part" "$(solutions $last2 | tail -n 1)" --csv --no-cpu --rows 1 --cols 1 --reps 1
        l2=$(sed -n 's/^device 0: .*, L2 \([0-9]*\) MiB.*$/\1/p' "$part.err")
        [[ $mem =~ ^[0-9]+$ && $l2 =~ ^[0-9]+$ ]] ||
            { echo "results: cannot read the GPU's memory ('$mem' MiB) or L2 ('$l2' MiB)" >&2; exit 4; }
        echo "generated shapes: seed $seed, $generated beyond the L2 ($l2 MiB), $mem MiB of GPU memory${piece:+; part $piece}"
        awk -v seed="$seed" -v count="$generated" -v mem_mib="$mem" -v l2_mib="$l2" \
            -f scripts/results/shapes-gen.awk | sed "s/\$/ $last2/" >>"$list" || exit 4
    fi
    i=1 n=1   # shape k of the sweep (from 1) is part ((k - 1) mod n) + 1's
    [ -n "$piece" ] && i=${piece%/*} n=${piece#*/}
    awk -v i="$i" -v n="$n" '(NR - 1) % n + 1 == i' "$list" >"$list.mine"
    if [ -n "$piece" ] && [ -s "$out" ]; then   # the parts before: the same draw, other shapes
        stray=$(comm -23 <(shapes_of "$out" generated) <(awk '$3 != "fixed" { print $1 " x " $2 " " $3 }' "$list" | sort -u))
        [ -z "$stray" ] ||
            { echo "results: $out holds shapes this GPU's draw of seed $seed does not ($(echo "$stray" | listed)): its parts ran with another GPU's memory or L2, or another --generated" >&2; exit 2; }
        again=$(comm -12 <(echo "$have") <(awk '{ print $1 " x " $2 }' "$list.mine" | sort -u))
        [ -z "$again" ] ||
            { echo "results: $out already holds shapes of part $piece ($(echo "$again" | listed)): each part runs once" >&2; exit 2; }
    fi
    echo "$SWEEP_HEADER" >"$tmp"
    : >"$tmp.copy"
    while read -r r c class these; do
        # shellcheck disable=SC2046,SC2086  # a list of binaries, of step numbers
        sweep_rows "$tmp" "$class" "$r" "$c" $(solutions $these) "$LIBRARY" "$BASELINE"
    done <"$list.mine"
    out=${out:-results/runs/$today-sweep.csv}
    if [ -n "$piece" ] && [ -s "$out" ]; then   # a part: its rows after the parts before it
        sed 1d "$tmp" >>"$out"
        cat "$tmp.copy" >>"${out%.csv}-copy.txt" && rm -f "$tmp.copy"
    else
        mv "$tmp" "$out"
        mv "$tmp.copy" "${out%.csv}-copy.txt"
    fi
    echo "size sweep of solution steps ${best% }, the library row and the copy ceiling ($out):"
    csv -f scripts/results/results-sweep.awk "$out"
    exit 0
fi

if [ "$across" = 1 ]; then
    export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}   # NVLink multicast off
    tmp=results/.tmp-across.csv part=results/.tmp-part.csv
    out=${out:-results/runs/$today-across.csv}
    timeline=${out%.csv}-timeline.csv
    : >"$tmp" && : >"$timeline"
    runs=()   # the size options of each run: the command line's, or each of ACROSS_SHAPES
    if [ ${#size[@]} -gt 0 ]; then runs=("${size[*]}")
    else for shape in $ACROSS_SHAPES; do runs+=("--rows ${shape%x*} --cols ${shape#*x}"); done; fi
    for n in $(scripts/lib/steps.sh --across); do
        for args in "${runs[@]}"; do
            # shellcheck disable=SC2086  # args is a list of options
            step_csv "$part" "solution/step$n/transpose" --csv --no-cpu $args --timeline "$part.timeline"
            [ -s "$tmp" ] || sed -n "1{s/^/date,/;p}" "$part" >"$tmp"
            sed -n "2,\$s/^/$today,/p" "$part" >>"$tmp"
            [ -s "$timeline" ] || sed -n 1p "$part.timeline" >"$timeline"
            sed -n '2,$p' "$part.timeline" >>"$timeline"
        done
    done
    mv "$tmp" "$out"
    echo "the steps across GPUs ($out; per-chunk times in $timeline):"
    column -s, -t <"$out" 2>/dev/null || cat "$out"
    exit 0
fi

files=()
for i in $(seq "$repeat"); do
    tmp=results/.tmp-run.csv
    run_table "$tmp"
    suffix=""; [ "$repeat" -gt 1 ] && suffix="-run$i"
    dest=${out:-$(name_for "$tmp" "$suffix")}
    [ -n "$out" ] && [ "$repeat" -gt 1 ] && dest=${out%.csv}$suffix.csv
    mv "$tmp" "$dest"
    files+=("$dest")
    echo "rows: $dest"
    show "$dest"
    echo
done

if [ "$repeat" -gt 1 ]; then
    echo "spread over $repeat runs (GB/s): min, median, max and (max - min) / median"
    csv -f scripts/results/results-spread.awk "${files[@]}"
fi
