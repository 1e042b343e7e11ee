# The L2's work per sector of the two matrices, from Nsight Compute logs of this folder
# (h200-fabric-ncu.txt): awk -f sectors.awk h200-fabric-ncu.txt
# One line a profiled launch: its kernel, shape and way (TK_WAY, with TK_G or TK_K and the
# research build's folder where the command names them), time, the L2's sectors (all units,
# lts__t_sectors.sum) and those that came over the fabric between the L2's two halves
# (lts__t_sectors_srcunit_ltcfabric.sum), the L2's sectors per sector of the input and the
# output together (rows x cols x 4 bytes x 2 / 32), and the busiest parts in % of peak: the
# fabric (lts__ltcfabric2ltc_cycles_active), the L2's tag lookups (lts__t_tag_requests),
# DRAM, and the cycles an instruction issued (smsp__issue_active).
function num(s) { gsub(/,/, "", s); return s + 0 }
function flush() {
    if (name == "") return
    printf "%-16s %-18s %-12s %9.1f %12d %12d %6.3f %6.2f %6.2f %6.2f %6.2f\n", name, shape, way,
           us, sec, fsec, sec / (rows * cols / 4), fab, tag, dram, iss
    name = ""
}
BEGIN {
    printf "%-16s %-18s %-12s %9s %12s %12s %6s %6s %6s %6s %6s\n", "kernel", "rows x cols", "way",
           "us", "L2 sectors", "fabric", "per", "fab%", "tag%", "dram%", "issue%"
}
/^== / {
    flush()
    way = "-"
    for (i = 2; i <= NF; i++) {
        if ($i ~ /^TK_WAY=/) way = substr($i, 8)
        if ($i ~ /^TK_[GK]=/) way = way "," substr($i, 4)   # group-order/'s research builds,
        if ($i ~ /\/v\/[^\/]+\/transpose$/) build = $i      # each named by its folder
        if ($i ~ /^regex:/) name = substr($i, 7)
        if ($i == "--rows") rows = $(i + 1)
        if ($i == "--cols") cols = $(i + 1)
    }
    shape = rows " x " cols
    if (build != "") { sub(/\/transpose$/, "", build); sub(/.*\//, "", build); way = build ":" way; build = "" }
}
/gpu__time_duration.sum/ { us = num($NF) * ($(NF - 1) == "ms" ? 1000 : 1) }
/^ +lts__t_sectors.sum / { sec = num($NF) }
/^ +lts__t_sectors_srcunit_ltcfabric.sum / { fsec = num($NF) }
/ltcfabric2ltc_cycles_active/ { fab = $NF }
/lts__t_tag_requests.avg/ { tag = $NF }
/dram__throughput.avg/ { dram = $NF }
/smsp__issue_active/ { iss = $NF }
END { flush() }
