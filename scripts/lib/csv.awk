# Reads the kit's CSV files by column name. Load it before a program: awk -f scripts/lib/csv.awk
# -f PROGRAM FILE... It takes each file's first line as its header (programs never see it),
# counts the files read so far in nfile, and gives field(NAME) and median(LIST).
# The kit's CSV never needs quotes: it writes no comma inside a field (report.c turns a device
# name's commas into spaces; a unit test holds it to that), so every comma separates, and the
# quotes around the device name are dropped.

BEGIN { FS = "," }
{ gsub(/"/, "") }
FNR == 1 { nfile++; split("", col); for (i = 1; i <= NF; i++) col[$i] = i; next }

# This row's value in column NAME; empty when the file has no such column.
function field(name) { return (name in col) ? $col[name] : "" }

# The median of a space-separated list of numbers (the mean of the middle two when even).
function median(list,    n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 1; i <= n; i++)
        for (j = i + 1; j <= n; j++)
            if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
