# Prints chosen columns of a kit CSV, by name, comma-separated. With csv.awk:
#   awk -v cols=gbs,pct_copy [-v row="copy ceiling"] [-v first=1] [-v prefix="a,b,"] \
#       -f scripts/lib/csv.awk -f scripts/lib/csv-select.awk FILE
# row: only rows whose row column is this; first: only the first such row; prefix, suffix:
# put before and after each printed line. A column the file does not have is an error (exit 2).

BEGIN { n = split(cols, want, ",") }
row != "" && field("row") != row { next }
{
    line = prefix
    for (i = 1; i <= n; i++) {
        if (!(want[i] in col)) { print "csv-select: no column " want[i] > "/dev/stderr"; exit 2 }
        line = line (i > 1 ? "," : "") field(want[i])
    }
    print line suffix
    if (first) exit
}
