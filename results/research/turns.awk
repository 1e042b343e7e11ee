# Research calls' timing logs (their "== ... /BUILD/transpose --rows R --cols C ..." lines, each
# followed by the run's GPU-any-shape row) as one CSV, its header first, then rows
# "gpu,file,rows,cols,build,first,second,mean": each build's % of the copy at each shape of
# each log (the row's % copy column, the one before its check) in its two turns (or rounds),
# and their mean. The build is the folder of its transpose, step7 named solution; "== load"
# lines and what follows them until the next "==" are not runs. A run whose check is not
# "yes", or a shape without its second turn, stops it (exit 1): a mean of one. Read by
# wide.sh, tall.sh and ways.sh: awk -v g=GPU -f ../turns.awk FILE...
BEGIN { print "gpu,file,rows,cols,build,first,second,mean" }
FNR == 1 { f = FILENAME }
/^== load/ { b = ""; next }
/^== / { b = ""; for (i = 2; i <= NF; i++) {
             if ($i ~ /\/transpose$/) { b = $i; sub(/\/transpose$/, "", b); sub(/.*\//, "", b) }
             if ($i == "--rows") r = $(i + 1); if ($i == "--cols") c = $(i + 1) }
         if (b == "step7") b = "solution" }
/^GPU-any-shape/ && b != "" {
    if ($NF != "yes") { print f ": a run not exact: " $0 > "/dev/stderr"; bad = 1; exit 1 }
    p = $(NF - 1); sub(/%$/, "", p)
    k = f "," r "," c "," b; if (!(k in first)) { first[k] = p; order[++n] = k } else second[k] = p }
END { if (bad) exit 1
      for (i = 1; i <= n; i++) { k = order[i]
          if (second[k] == "") { print "one turn only at " k > "/dev/stderr"; exit 1 }
          printf "%s,%s,%s,%s,%.2f\n", g, k, first[k], second[k], (first[k] + second[k]) / 2 } }
