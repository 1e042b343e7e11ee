# The kernel rows of a lever log (scripts/bench/levers, one or more runs, each after its "== "
# command line): every row of each run's first table (the kit's timing: median, % of the copy
# measured beside it), not the back-to-back one, as CSV lines gpu,file,rows,cols,variant,pct_copy.
# With -v kept=1 a seventh column: for step7-orders, step7-ways, step7-six and step7-seven, the way
# the launch kept (the note under the rows: a run keeps one note, the last; step7-ways' names five
# ways, step7-six's six, step7-seven's seven), its commas dropped.
#   awk -v g=GPU -v f=FILE [-v kept=1] -f lever-rows.awk FILE
# Read by block-order/orders.sh, tall-panels/tall.sh and l2-fabric/seven.sh.
/^== / { s = $0; sub(/.*--rows /, "", s); r = s; sub(/ .*/, "", r)
         c = s; sub(/.*--cols /, "", c); sub(/ .*/, "", c); bb = 0 }
/^The same variants/ { bb = 1 }
kept && /^note: at .* the launch took the fastest/ {
    k = $0; sub(/.*: /, "", k); gsub(/,/, "", k); gsub(/ /, "_", k)   # a field of CSV
    n7 = /128 x 64,? (in )?one band [0-9.]+ ms/ ? "step7-seven" : /, 128 bands [0-9.]+ ms/ ? "step7-six" : ""
    way[r "," c, n7 != "" ? n7 : /128 rows in 8 bands/ ? "step7-ways" : "step7-orders"] = k
}
!bb && / yes$/ && !/^copy ceiling/ {
    n = split($0, a, " +"); p = a[n - 1]; sub(/%$/, "", p)
    row[++m] = g "," f "," r "," c "," a[1] "," p; key[m] = r "," c; v[m] = a[1]
}
END { for (i = 1; i <= m; i++) print row[i] (kept ? "," way[key[i], v[i]] : "") }
