# ptxas -v's lines on the tall panel's kernels as one line a kernel, "== LABEL, KERNEL: its
# stack frame, spills and registers", and each ptxas warning as "== LABEL: the warning". Read
# by regs.sh (LABEL a build) and ../tall-split/regs-solution.sh (LABEL sm_N).
# nvcc ... -Xptxas -v 2>&1 | awk -v label=LABEL -f regs.awk
/warning/ { print "== " label ": " $0; next }
/entry function .*panel_tall/ { k = $0; sub(/.*_Z[0-9]+/, "", k); sub(/ILi.*/, "", k); n = 4 }
n && /spill|Used/ { sub(/^ *(ptxas info *: )?/, ""); line = line (line ? "; " : "") $0 }
n && !--n { print "== " label ", " k ": " line; line = "" }
