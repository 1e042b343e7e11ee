# Prints the results table from a results CSV (scripts/results/results.sh writes them). POSIX awk.
#   awk -f scripts/lib/csv.awk -f scripts/results/results-table.awk RUN.csv            one run
#   awk -f scripts/lib/csv.awk -f scripts/results/results-table.awk RUN.csv REF.csv    beside a reference
# Rows in step order: CPU+OMP, each step's kernel, then the copy ceiling (the median of the
# copy rows measured beside each step). Speed-ups are over the previous row and over CPU+OMP.
# Beside a reference of the same GPU the last column but one is its GB/s; beside another
# GPU's, its % of copy, which carries from one GPU to another where GB/s do not.

# Each row of the run (first file) or the reference (second): GB/s, ms, % peak, % copy.
{
    tag = nfile == 1 ? "run" : "ref"
    r = field("row")
    if (r == "copy ceiling") {
        copies[tag] = copies[tag] " " field("gbs"); ncopy[tag]++
        copyms[tag] = copyms[tag] " " field("ms_median")
        next
    }
    if (r == "") next
    k = ++nrows[tag]
    name[tag, k] = r; gbs[tag, r] = field("gbs"); pcopyof[tag, r] = field("pct_copy")
    ms[tag, k] = field("ms_median"); peak[tag, k] = field("pct_peak")
    pcopy[tag, k] = field("pct_copy"); ok[tag, k] = field("checked")
    k20x[r] = field("k20x_gbs")
    dev[tag] = field("device"); when[tag] = field("date"); size[tag] = field("rows") " x " field("cols")
    peakgbs[tag] = field("peak_gbs"); cuda[tag] = field("cuda_runtime"); drv[tag] = field("nvidia_driver")
}

function dash(x) { return x == "" ? "-" : x }

BEGIN { if (ARGC < 2) { print "usage: awk -f csv.awk -f results-table.awk RUN.csv [REF.csv]" > "/dev/stderr"; exit 2 } }

END {
    ref = nfile > 1 ? FILENAME : ""
    printf "%s, %s, %s floats, CUDA runtime %s, NVIDIA driver %s; theoretical peak %s GB/s\n", dev["run"], when["run"], size["run"], cuda["run"], drv["run"], peakgbs["run"]
    same = ref != "" && dev["ref"] == dev["run"]
    if (ref != "") printf "reference: %s, %s, %s floats (%s)%s\n", dev["ref"], when["ref"], size["ref"], ref, same ? "" : "; another GPU: compared in % of copy"
    printf "%-20s %9s %9s %7s %7s %8s %8s %7s", "row", "ms", "GB/s", "% peak", "% copy", "x prev", "x CPU", "checked"
    if (ref != "") printf " %9s", same ? "ref GB/s" : "ref %copy"
    printf " %9s\n", "K20X GB/s"

    cpu = ""
    prev = ""
    for (k = 1; k <= nrows["run"]; k++) {
        r = name["run", k]; g = gbs["run", r]
        if (r == "CPU+OMP") cpu = g
        xp = (prev != "" && g != "") ? sprintf("%.1fx", g / prev) : "-"
        xc = (cpu != "" && g != "" && r != "CPU+OMP") ? sprintf("%.0fx", g / cpu) : "-"
        printf "%-20s %9s %9s %7s %7s %8s %8s %7s", r, dash(ms["run", k]), dash(g), dash(peak["run", k]), dash(pcopy["run", k]), xp, xc, ok["run", k]
        if (ref != "") printf " %9s", dash(same ? gbs["ref", r] : pcopyof["ref", r])
        printf " %9s\n", dash(k20x[r])
        prev = g
    }
    c = ncopy["run"] ? median(copies["run"]) : ""
    cm = ncopy["run"] ? median(copyms["run"]) : ""
    printf "%-20s %9s %9s %7s %7s %8s %8s %7s", "copy ceiling", dash(cm == "" ? "" : sprintf("%.4f", cm)), dash(c == "" ? "" : sprintf("%.1f", c)), dash(c == "" || peakgbs["run"] == 0 ? "" : sprintf("%.1f", 100 * c / peakgbs["run"])), "100.0", "-", "-", "yes"
    if (ref != "") printf " %9s", !ncopy["ref"] ? "-" : same ? sprintf("%.1f", median(copies["ref"])) : "100.0"
    printf " %9s\n", "-"
    printf "(copy ceiling: median of the %d copy ceiling rows, one measured beside each step)\n", ncopy["run"]
}
