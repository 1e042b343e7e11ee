# Prints the results table from a results CSV (scripts/results.sh writes them). POSIX awk.
#   awk -f results-table.awk results/run.csv                  one run
#   awk -v ref=results/h100-reference.csv -f results-table.awk run.csv   beside a reference
# Rows in step order: CPU+OMP, each step's kernel, then the copy ceiling (the median of the
# copy rows measured beside each step). Speed-ups are over the previous row and over CPU+OMP.

function field(name) { return f[idx[name]] }

function median(list, n,    i, j, t, a) {
    split(list, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

# Reads one results CSV into arrays prefixed by tag: rows in order, GB/s, ms, % peak, % copy.
function load(file, tag,    line, n, i, hdr) {
    hdr = 0
    while ((getline line < file) > 0) {
        gsub(/"/, "", line)
        n = split(line, f, ",")
        if (!hdr) { for (i = 1; i <= n; i++) idx[f[i]] = i; hdr = 1; continue }
        if (field("row") == "copy ceiling") {
            copies[tag] = copies[tag] " " field("gbs"); ncopy[tag]++
            copyms[tag] = copyms[tag] " " field("ms_median")
            continue
        }
        if (field("row") == "") continue
        k = ++nrows[tag]
        name[tag, k] = field("row"); gbs[tag, field("row")] = field("gbs")
        ms[tag, k] = field("ms_median"); peak[tag, k] = field("pct_peak")
        pcopy[tag, k] = field("pct_copy"); ok[tag, k] = field("checked")
        k20x[field("row")] = field("k20x_gbs")
        dev[tag] = field("device"); when[tag] = field("date"); size[tag] = field("rows") " x " field("cols")
        peakgbs[tag] = field("peak_gbs"); cuda[tag] = field("cuda_runtime"); drv[tag] = field("nvidia_driver")
    }
    close(file)
    if (!hdr) { print "results-table: cannot read " file > "/dev/stderr"; exit 2 }
}

function dash(x) { return x == "" ? "-" : x }

BEGIN {
    if (ARGC < 2) { print "usage: awk [-v ref=REF.csv] -f results-table.awk RUN.csv" > "/dev/stderr"; exit 2 }
    load(ARGV[1], "run")
    ARGC = 1
    if (ref != "") load(ref, "ref")

    printf "%s, %s, %s floats, CUDA runtime %s, NVIDIA driver %s; theoretical peak %s GB/s\n", dev["run"], when["run"], size["run"], cuda["run"], drv["run"], peakgbs["run"]
    if (ref != "") printf "reference: %s, %s, %s floats (%s)\n", dev["ref"], when["ref"], size["ref"], ref
    printf "%-20s %9s %9s %7s %7s %8s %8s %7s", "row", "ms", "GB/s", "% peak", "% copy", "x prev", "x CPU", "checked"
    if (ref != "") printf " %9s", "ref GB/s"
    printf " %9s\n", "K20X GB/s"

    cpu = ""
    prev = ""
    for (k = 1; k <= nrows["run"]; k++) {
        r = name["run", k]; g = gbs["run", r]
        if (r == "CPU+OMP") cpu = g
        xp = (prev != "" && g != "") ? sprintf("%.1fx", g / prev) : "-"
        xc = (cpu != "" && g != "" && r != "CPU+OMP") ? sprintf("%.0fx", g / cpu) : "-"
        printf "%-20s %9s %9s %7s %7s %8s %8s %7s", r, dash(ms["run", k]), dash(g), dash(peak["run", k]), dash(pcopy["run", k]), xp, xc, ok["run", k]
        if (ref != "") printf " %9s", dash(gbs["ref", r])
        printf " %9s\n", dash(k20x[r])
        prev = g
    }
    c = ncopy["run"] ? median(copies["run"], ncopy["run"]) : ""
    cm = ncopy["run"] ? median(copyms["run"], ncopy["run"]) : ""
    printf "%-20s %9s %9s %7s %7s %8s %8s %7s", "copy ceiling", dash(cm == "" ? "" : sprintf("%.4f", cm)), dash(c == "" ? "" : sprintf("%.1f", c)), dash(c == "" || peakgbs["run"] == 0 ? "" : sprintf("%.1f", 100 * c / peakgbs["run"])), "100.0", "-", "-", "yes"
    if (ref != "") printf " %9s", ncopy["ref"] ? sprintf("%.1f", median(copies["ref"], ncopy["ref"])) : "-"
    printf " %9s\n", "-"
    printf "(copy ceiling: median of the %d device-to-device cudaMemcpy rows, one measured beside each step)\n", ncopy["run"]
}
