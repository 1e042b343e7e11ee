# The Nsight Compute launch of fabric-call.sh and big-call.sh, sourced by both (from the kit's
# folder, O set): M the metrics (the L2's throughput broken down, DRAM, time, bytes, sectors,
# instructions; the fabric's sectors where F names that metric on the chip), and
# prof KERNEL_REGEX ENV PROGRAM ROWS COLS: one launch of the kernel under ncu, the command line
# and the metric lines to standard output.
M=breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed${F:+,$F.sum}
prof() {
  echo "== $2 ncu --clock-control none --metrics \$M -k regex:$1 --launch-count 1 $3 --rows $4 --cols $5 --no-cpu --reps 1 --warmup 0 ($(date -u +%T))"
  env $2 timeout 120 ncu --clock-control none --metrics $M -k regex:$1 --launch-count 1 $3 --rows $4 --cols $5 --no-cpu --reps 1 --warmup 0 2>&1 | grep -E "^ +[a-z0-9_]+__|\(.*\)x\(|rror"
}
