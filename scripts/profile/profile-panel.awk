# Turns Nsight Compute's raw metrics of one kernel launch into the 2013 workshop's NVVP panel,
# rebuilt with today's metric names. Plain POSIX awk.
#
#   ncu -i stepN.ncu-rep --page raw --csv --print-units base > raw.csv
#   ncu -i stepN.ncu-rep --page details > details.txt
#   awk -v title="..." -v meta="line|line|..." -f ncu-raw.awk -f profile-panel.awk raw.csv details.txt
#
# raw.csv: read by ncu-raw.awk (metric names, units, values of one launch).
# details.txt: the rule texts; those that suggest a change (OPT, WRN) are kept.

# A value scaled to the wanted unit from the base unit ncu printed.
function scaled(name, want,    v, u, f) {
    v = num(name)
    if (v == "" || v == "n/a") return ""
    u = unit[col[name]]
    f = 1
    if (want == "ms") {
        if (u == "nsecond" || u == "ns") f = 1e-6
        else if (u == "usecond" || u == "us") f = 1e-3
        else if (u == "second" || u == "s") f = 1e3
    } else if (want == "GB/s") {
        if (u ~ /^byte/) f = 1e-9
        else if (u ~ /^Kbyte/) f = 1e-6
        else if (u ~ /^Mbyte/) f = 1e-3
        else if (u ~ /^Tbyte/) f = 1e3
    }
    return v * f
}

# The first of several names ncu versions use for one quantity that this report has.
function first(a, b) { return num(a) != "" ? a : b }

# Bytes used of each 32-byte sector, as a percentage: ncu reports .pct or a .ratio of 32.
function efficiency(op,    pct, ratio) {
    pct = num("smsp__sass_average_data_bytes_per_sector_mem_global_op_" op ".pct")
    if (pct != "") return pct
    ratio = num("smsp__sass_average_data_bytes_per_sector_mem_global_op_" op ".ratio")
    return ratio == "" ? "" : 100 * ratio / 32
}

# Sectors per request: ncu's ratio, or sectors over requests.
function per_request(op,    r, s, q) {
    r = num("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_" op ".ratio")
    if (r != "") return r
    s = num("l1tex__t_sectors_pipe_lsu_mem_global_op_" op ".sum")
    q = num("l1tex__t_requests_pipe_lsu_mem_global_op_" op ".sum")
    return (s == "" || q == "" || q == 0) ? "" : s / q
}

function line(label, value, unitname, metric) {
    if (value == "") { value = "n/a"; missing = missing " " label }
    printf "  %-32s %14s %-8s %s\n", label, value, unitname, metric
}

function fmt(x, digits) { return x == "" ? "" : sprintf("%." digits "f", x) }


# details.txt: a rule starts with OPT or WRN and runs until a blank line.
FNR != NR {
    if ($0 ~ /^[ \t]*(OPT|WRN)[ \t]/) { inrule = 1; rules = rules "\n"; }
    else if ($0 ~ /^[ \t]*$/ || $0 ~ /^[ \t]*(INF|Section:|-----)/) { inrule = 0 }
    if (inrule) { t = $0; sub(/^[ \t]+/, "", t); sub(/[ \t]+$/, "", t); rules = rules "  " t "\n" }
}

END {
    n = split(meta, m, "|")
    for (i = 1; i <= n; i++) print m[i]
    print ""
    printf "  %-32s %14s %-8s %s\n", "NVVP label (2013)", "value", "unit", "ncu metric"
    line("Duration", fmt(scaled("gpu__time_duration.sum", "ms"), 4), "ms", "gpu__time_duration.sum")
    g = num("launch__grid_dim_x") == "" ? "" : "[" num("launch__grid_dim_x") "," num("launch__grid_dim_y") "," num("launch__grid_dim_z") "]"
    line("Grid Size", g, "blocks", "launch__grid_dim_{x,y,z}")
    b = num("launch__block_dim_x") == "" ? "" : "[" num("launch__block_dim_x") "," num("launch__block_dim_y") "," num("launch__block_dim_z") "]"
    line("Block Size", b, "threads", "launch__block_dim_{x,y,z}")
    line("Registers/Thread", num("launch__registers_per_thread"), "", "launch__registers_per_thread")
    line("Shared Memory/Block", num("launch__shared_mem_per_block_static"), "bytes", "launch__shared_mem_per_block_static")
    line("Global Load Efficiency", fmt(efficiency("ld"), 1), "%", "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld (of 32 bytes)")
    line("Global Store Efficiency", fmt(efficiency("st"), 1), "%", "smsp__sass_average_data_bytes_per_sector_mem_global_op_st (of 32 bytes)")
    line("Sectors/Request, loads", fmt(per_request("ld"), 1), "", "l1tex__t_sectors / l1tex__t_requests, pipe_lsu_mem_global_op_ld")
    line("Sectors/Request, stores", fmt(per_request("st"), 1), "", "l1tex__t_sectors / l1tex__t_requests, pipe_lsu_mem_global_op_st")
    d = first("dram__throughput.avg.pct_of_peak_sustained_elapsed", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed")
    line("DRAM Utilization", fmt(num(d), 1), "%", d)
    line("DRAM Throughput", fmt(scaled("dram__bytes.sum.per_second", "GB/s"), 1), "GB/s", "dram__bytes.sum.per_second")
    line("Shared Load Bank Conflicts", num("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), "", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")
    line("Shared Store Bank Conflicts", num("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), "", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")
    line("Achieved Occupancy", fmt(num("sm__warps_active.avg.pct_of_peak_sustained_active"), 1), "%", "sm__warps_active.avg.pct_of_peak_sustained_active")
    line("Theoretical Occupancy", fmt(num("sm__maximum_warps_per_active_cycle_pct"), 1), "%", "sm__maximum_warps_per_active_cycle_pct")

    # The limiter: the resource that allows the fewest blocks per multiprocessor, unless the
    # grid is smaller than what the GPU holds at once (step 1: 32 blocks for 132 SMs).
    split("registers shared_mem warps blocks", kinds, " ")
    best = ""
    for (k = 1; k <= 4; k++) {
        v = num("launch__occupancy_limit_" kinds[k])
        if (v != "" && (best == "" || v + 0 < bestv + 0)) { best = kinds[k]; bestv = v }
    }
    blocks = num("launch__grid_size"); sms = num("device__attribute_multiprocessor_count")
    if (best != "" && blocks != "" && sms != "" && blocks + 0 < sms * bestv)
        line("Occupancy Limiter", "grid_size", blocks " blocks", "launch__grid_size < SMs x launch__occupancy_limit_*")
    else
        line("Occupancy Limiter", best, bestv == "" ? "" : bestv " blk/SM", "launch__occupancy_limit_*")

    print ""
    if (rules != "") {
        print "Nsight Compute's rules that suggest a change (OPT, WRN), in its own words:"
        printf "%s", rules
    } else {
        print "Nsight Compute's rules suggest no change for this kernel."
    }
    if (missing != "") { print "missing metrics:" missing > "/dev/stderr"; exit 1 }
}
