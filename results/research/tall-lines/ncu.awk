# A call's ncu.txt (call-lib.sh's call_ncu: one launch of the tall panel a build and shape) as a
# table: time (us), DRAM read and written (GB), the L2's sectors, its write requests and write
# sectors, warp instructions, achieved occupancy (% of the warps a multiprocessor holds),
# registers a thread, and the stall on loads (warps waiting on a global load per instruction
# issued); numbers without their commas, "-" for a metric the call did not ask for.
# awk -f ncu.awk h200-async-ncu.txt > h200-async-ncu-table.txt
function flush() { if (s == "") return
    printf "%-14s %-16s %8s %6s %6s %11s %10s %11s %13s %6s %4s %6s\n", s, b, v["gpu__time_duration.sum"], v["dram__bytes_read.sum"], v["dram__bytes_write.sum"],
        v["lts__t_sectors.sum"], v["lts__t_requests_srcunit_tex_op_write.sum"], v["lts__t_sectors_srcunit_tex_op_write.sum"], v["smsp__inst_executed.sum"],
        v["sm__warps_active.avg.pct_of_peak_sustained_active"], v["launch__registers_per_thread"],
        v["smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"]
    split("", v) }
BEGIN { printf "%-14s %-16s %8s %6s %6s %11s %10s %11s %13s %6s %4s %6s\n", "rows x cols", "build", "us", "DRAMrd", "DRAMwr", "L2sectors", "wr_reqs", "wr_sectors", "instructions", "occ%", "regs", "ldwait" }
/^== / { flush(); for (i = 1; i <= NF; i++) { if ($i ~ /\/transpose$/) { b = $i; sub(/\/transpose$/, "", b); sub(/.*\//, "", b) }
                                            if ($i == "--rows") s = $(i + 1) " x " $(i + 3) }
         if (b == "step7") b = "solution"
         split("gpu__time_duration.sum dram__bytes_read.sum dram__bytes_write.sum lts__t_sectors.sum lts__t_requests_srcunit_tex_op_write.sum lts__t_sectors_srcunit_tex_op_write.sum smsp__inst_executed.sum sm__warps_active.avg.pct_of_peak_sustained_active launch__registers_per_thread smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", m, " ")
         for (i in m) v[m[i]] = "-" }
/^ +[a-z0-9_]+__/ { x = $NF; gsub(/,/, "", x); u = $(NF - 1)
                    if (u == "ms") x = sprintf("%.1f", x * 1000); else if (u == "Gbyte") x = sprintf("%.3f", x); else if (u == "Mbyte") x = sprintf("%.3f", x / 1000)
                    v[$1] = x }
END { flush() }
