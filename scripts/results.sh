#!/usr/bin/env bash
# The results table: builds and runs every solution step on this GPU, the copy ceiling
# measured beside each, and prints one table; writes the rows as CSV and an SVG chart.
#
#   scripts/results.sh                    8192 x 8192 -> results/DATE-DEVICE-8192x8192.csv, .svg
#   scripts/results.sh -n 4096            another size (--rows R --cols C too)
#   scripts/results.sh --compare REF.csv  beside a saved run (default: the committed H100 one)
#   scripts/results.sh --table RUN.csv    the table and chart of a saved run: no GPU needed
#   scripts/results.sh --sweep            best step and copy ceiling from 1024^2 to 16384^2
#   scripts/results.sh --repeat 3         the whole table 3 times, with the spread of each row
#   scripts/results.sh --out FILE.csv     where to write the CSV
#
# Exit status: 0 done; 2 bad arguments; 3 no usable GPU (nothing measured, says why);
# otherwise the status of the step that failed (see ./transpose --help).
set -u
cd "$(dirname "$0")/.." || exit 4
REFERENCE=results/h100-reference.csv
SWEEP_SIZES="1024 2048 4096 8192 16384"

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }

size=() out="" compare="" table="" sweep=0 repeat=1
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        -n|--rows|--cols|--compare|--table|--out|--repeat)
            [ $# -ge 2 ] || { echo "results: $1 needs a value" >&2; exit 2; }
            case $1 in
                --compare) compare=$2 ;; --table) table=$2 ;; --out) out=$2 ;;
                --repeat) repeat=$2 ;; *) size+=("$1" "$2") ;;
            esac
            shift 2 ;;
        --sweep) sweep=1; shift ;;
        *) echo "results: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
[[ $repeat =~ ^[1-9][0-9]?$ ]] || { echo "results: --repeat takes 1 to 99" >&2; exit 2; }
if [ -z "$compare" ] && [ -f "$REFERENCE" ]; then compare=$REFERENCE; fi
for f in "$compare" "$table"; do
    [ -z "$f" ] || [ -r "$f" ] || { echo "results: cannot read '$f'" >&2; exit 2; }
done

no_gpu() {   # no_gpu STDERR-FILE: says why the binary skipped the GPU rows, removes it, exit 3
    echo "results: no usable GPU: $(grep -m1 'GPU rows skipped' "$1" | sed 's/^GPU rows skipped: //')" >&2
    rm -f "$1"
    exit 3
}

show() {   # show CSV: the table (beside the reference) and the chart next to the CSV
    awk -v ref="$compare" -f scripts/results-table.awk "$1" || return 2
    awk -f scripts/results-chart.awk "$1" >"${1%.csv}.svg" && echo "chart: ${1%.csv}.svg"
    echo "K20X column: the 2013 workshop's table, 1024 x 1024 on a K20X (250 GB/s peak)"
}

if [ -n "$table" ]; then
    show "$table"
    exit
fi

steps=$(scripts/steps.sh)
dirs=()
for n in $steps; do dirs+=("solution/step$n"); done
make -s "${dirs[@]}" >/dev/null ||
    { echo "results: the build failed: run make to see why" >&2; exit 4; }
mkdir -p results

# run_table FILE: every step's CSV rows into FILE, with the date first.
run_table() {
    local file=$1 first=1 today n rc drv
    today=$(date -u +%Y-%m-%d)
    drv=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)
    for n in $steps; do
        local flags=(--csv "${size[@]}")
        [ "$first" = 1 ] || flags+=(--no-cpu)
        solution/step$n/transpose "${flags[@]}" >"$file.part" 2>"$file.err"
        rc=$?
        if [ $rc = 3 ]; then
            rm -f "$file" "$file.part"; no_gpu "$file.err"
        fi
        if [ $rc != 0 ]; then
            echo "results: step $n failed (exit $rc):" >&2; cat "$file.err" >&2
            rm -f "$file.part" "$file.err"; exit $rc
        fi
        if [ "$first" = 1 ]; then sed -n '1{s/^/date,/;s/$/,nvidia_driver/;p}' "$file.part" >"$file"; fi
        sed -n "2,\$s/^\(.*\)\$/$today,\1,${drv:-unknown}/p" "$file.part" >>"$file"
        first=0
    done
    rm -f "$file.part" "$file.err"
}

name_for() {   # name_for CSV-ROWS-FILE SUFFIX: results/DATE-DEVICE-RxC-SUFFIX.csv
    awk -F, -v suffix="$2" 'NR == 2 { gsub(/"/, ""); d = $4; gsub(/[^A-Za-z0-9]+/, "-", d)
        printf "results/%s-%s-%sx%s%s.csv\n", $1, d, $7, $8, suffix }' "$1"
}

if [ "$sweep" = 1 ]; then
    best=$(echo "$steps" | tail -n 1)
    tmp=results/.sweep.csv
    echo "date,size_mib,row,rows,cols,ms,gbs,pct_copy" >"$tmp"
    for s in $SWEEP_SIZES; do
        solution/step$best/transpose --csv --no-cpu -n "$s" >"$tmp.part" 2>"$tmp.err"
        rc=$?
        [ $rc = 3 ] && { rm -f "$tmp" "$tmp.part"; no_gpu "$tmp.err"; }
        [ $rc = 0 ] || { cat "$tmp.err" >&2; rm -f "$tmp"*; exit $rc; }
        awk -F, -v today="$(date -u +%Y-%m-%d)" -v s="$s" 'NR > 1 { gsub(/"/, "")
            printf "%s,%.0f,%s,%s,%s,%s,%s,%s\n", today, s * s * 4 / 1048576, $2, $6, $7, $9, $12, $14 }' "$tmp.part" >>"$tmp"
    done
    out=${out:-$(awk -F, -v b="$best" 'NR == 2 { printf "results/%s-sweep-step%s.csv\n", $1, b }' "$tmp")}
    mv "$tmp" "$out"; rm -f "$tmp.part" "$tmp.err"
    echo "size sweep of solution step $best and the copy ceiling ($out):"
    awk -F, 'NR == 1 { next } { key = $4 " x " $5
             if ($3 == "copy ceiling") copy[key] = $7; else { k[++n] = key; mib[key] = $2; g[key] = $7; row = $3 } }
             END { printf "%-14s %10s %12s %12s %8s\n", "size", "MiB each", row " GB/s", "copy GB/s", "% copy"
                   for (i = 1; i <= n; i++) printf "%-14s %10s %12s %12s %7.1f%%\n", k[i], mib[k[i]], g[k[i]], copy[k[i]], 100 * g[k[i]] / copy[k[i]] }' "$out"
    echo "A matrix pair that fits in L2 (50 MB on an H100) flatters both columns; see the README."
    exit 0
fi

files=()
for i in $(seq "$repeat"); do
    tmp=results/.run-$i.csv
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
    awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
             { gsub(/"/, ""); r = $idx["row"]; if (!(r in seen)) { seen[r] = 1; order[++n] = r }
               v[r] = v[r] " " $idx["gbs"]; c[r]++ }
             END { for (k = 1; k <= n; k++) { r = order[k]; m = split(v[r], a, " ")
                   for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
                   med = m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
                   printf "%-20s %9.1f %9.1f %9.1f %6.2f%%  (%d values)\n", r, a[1], med, a[m], 100 * (a[m] - a[1]) / med, m } }' "${files[@]}"
fi
