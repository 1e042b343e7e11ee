#!/usr/bin/env bash
# The grader behind `make check`: checks a student's step folder (or a copy of one).
#
#   scripts/grade.sh DIR        (make check in DIR runs this on DIR)
#
# It builds DIR/transpose.cu against this kit, lists the TODO markers still in the file,
# runs the kernel on square and rectangular shapes (multiples of 32 and not) and prints
# PASS or FAIL for each, with the first wrong element; then compares the kernel's GB/s with
# the same step's solution, measured in the same run. Exit status: 0 all passed; 1 a build,
# a shape or the step's row failed; 2 bad arguments; 3 no usable GPU (it only checked that
# the file builds and which TODOs are left).
set -u
KIT=$(cd "$(dirname "$0")/.." && pwd)
SHAPES="1x1 32x32 33x65 65x33 1x4097 4097x1 1000x1500 8191x31 2048x4096"

if [ $# != 1 ] || [ ! -f "$1/transpose.cu" ]; then
    echo "usage: scripts/grade.sh DIR (a step folder with transpose.cu)" >&2; exit 2
fi
dir=$(cd "$1" && pwd)
step=$(grep -o 'tk_begin(&run, "step[0-9]*"' "$dir/transpose.cu" | grep -o 'step[0-9]*')
if [ -z "$step" ] || [ ! -f "$KIT/solution/$step/transpose.cu" ]; then
    echo "grade: cannot tell which step $dir/transpose.cu is (tk_begin names it)" >&2; exit 2
fi
want=$(grep -o 'tk_time_gpu(&run, "[^"]*"' "$KIT/solution/$step/transpose.cu" | cut -d'"' -f2)

echo "grade: $dir, $step (its row: $want)"
log=$(mktemp) mine_csv=$(mktemp) ref_csv=$(mktemp)
trap 'rm -f "$log" "$mine_csv" "$ref_csv"' EXIT

if ! make -s -C "$dir" COMMON="$KIT/common" >"$log" 2>&1; then
    echo "FAIL build:"; cat "$log"; exit 1
fi
echo "PASS build"

todos=$(grep -n "TODO($step)" "$dir/transpose.cu" | cut -d: -f1 | tr '\n' ' ')
if [ -n "$todos" ]; then
    echo "TODO($step) markers still in transpose.cu, lines: $todos(delete each once it is done)"
else
    echo "no TODO($step) markers left"
fi

bin=$dir/transpose
"$bin" -n 1 --no-cpu --reps 1 --warmup 0 >"$log" 2>&1
case $? in
    3) echo "no usable GPU here: $(grep -m1 'GPU rows skipped' "$log" | sed 's/^GPU rows skipped: //')"
       echo "checked only that it builds and which TODOs are left; run make check on a GPU node"
       exit 3 ;;
esac

failed=0
for shape in $SHAPES; do
    rows=${shape%x*} cols=${shape#*x}
    "$bin" --rows "$rows" --cols "$cols" --no-cpu --reps 1 --warmup 0 >"$log" 2>&1
    rc=$?
    case $rc in
        0) echo "PASS $rows x $cols" ;;
        1) echo "FAIL $rows x $cols: $(grep -m1 'WRONG' "$log")"; grep -m1 'first at' "$log"
           failed=1 ;;
        5) echo "FAIL $rows x $cols: not run: $(grep -m1 'not run yet' "$log")"; failed=1 ;;
        *) echo "FAIL $rows x $cols: exit $rc"; tail -n 3 "$log"; failed=1 ;;
    esac
done

# The row must be this step's: an untouched starter still runs the previous step's kernel.
got=$(grep -E '^GPU-' "$log" | awk '{print $1}' | head -n 1)
if [ "$got" = "$want" ]; then
    echo "PASS the row is $want"
elif [ -n "$got" ]; then
    echo "FAIL the row is $got, $step's is $want: the kernel is still the previous step's"
    failed=1
fi

# Speed beside the solution, both at the default size in this run.
if make -s -C "$KIT/solution/$step" >/dev/null 2>&1 && [ "$failed" = 0 ]; then
    gbs() {   # gbs CSV ROW: that row's GB/s in a run's CSV
        awk -v cols=gbs -v row="$2" -f "$KIT/scripts/csv.awk" -f "$KIT/scripts/csv-select.awk" "$1"
    }
    "$bin" --csv --no-cpu --reps 10 >"$mine_csv" 2>/dev/null
    "$KIT/solution/$step/transpose" --csv --no-cpu --reps 10 >"$ref_csv" 2>/dev/null
    mine=$(gbs "$mine_csv" "$want") ref=$(gbs "$ref_csv" "$want") copy=$(gbs "$ref_csv" "copy ceiling")
    [ -n "$mine" ] && [ -n "$ref" ] &&
        echo "your kernel: $mine GB/s, solution: $ref GB/s, copy ceiling: $copy GB/s (8192 x 8192)"
fi

if [ "$failed" = 0 ]; then echo "all checks passed"; else echo "some checks failed"; fi
exit $failed
