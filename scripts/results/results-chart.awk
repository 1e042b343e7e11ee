# Draws a results CSV as an SVG bar chart: GB/s per row on a log scale, with the copy ceiling
# (median of the run's copy rows) and the theoretical peak as lines. POSIX awk, no other tool.
#   awk -f scripts/lib/csv.awk -f scripts/results/results-chart.awk results/run.csv > results/run.svg

function x_of(v) { return X0 + W * (log(v) / log(10) - LO) / (HI - LO) }
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }

BEGIN { X0 = 190; W = 520; LO = 0; HI = 4; BAR = 26; GAP = 10; TOP = 60 }
{
    row = field("row")
    dev = field("device"); when = field("date"); size = field("rows") " x " field("cols"); peak = field("peak_gbs")
    if (row == "copy ceiling") { copies = copies " " field("gbs"); nc++; next }
    n++; name[n] = row; gbs[n] = field("gbs")
}
END {
    if (n == 0) { print "results-chart: no rows" > "/dev/stderr"; exit 2 }
    c = nc ? median(copies) : 0
    H = TOP + n * (BAR + GAP) + 70
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"%d\" font-family=\"sans-serif\" font-size=\"13\">\n", H
    printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
    printf "<text x=\"20\" y=\"24\" font-size=\"16\" font-weight=\"bold\">Matrix transpose, %s floats: GB/s per step (log scale)</text>\n", esc(size)
    printf "<text x=\"20\" y=\"44\" fill=\"#555\">%s, %s</text>\n", esc(dev), esc(when)
    for (p = LO; p <= HI; p++) {
        x = x_of(10 ^ p)
        printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", x, TOP - 6, x, H - 44
        printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%d</text>\n", x, H - 28, 10 ^ p
    }
    printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">GB/s (bytes read + written)</text>\n", X0 + W / 2, H - 10
    for (i = 1; i <= n; i++) {
        y = TOP + (i - 1) * (BAR + GAP)
        printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", X0 - 8, y + BAR / 2 + 5, esc(name[i])
        if (gbs[i] == "" || gbs[i] <= 0) {
            printf "<text x=\"%d\" y=\"%.1f\" fill=\"#b00\">not checked: no figure</text>\n", X0 + 6, y + BAR / 2 + 5
            continue
        }
        v = gbs[i] < 1 ? 1 : gbs[i]
        printf "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n", X0, y, x_of(v) - X0, BAR, name[i] == "CPU+OMP" ? "#888" : "#4a7ebb"
        if (x_of(v) > X0 + 0.6 * W)   # long bars: the value inside, clear of the lines
            printf "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"white\">%s</text>\n", x_of(v) - 6, y + BAR / 2 + 5, gbs[i]
        else
            printf "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", x_of(v) + 6, y + BAR / 2 + 5, gbs[i]
    }
    if (c > 0) {
        x = x_of(c)
        printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#2a2\" stroke-width=\"2\" stroke-dasharray=\"6,4\"/>\n", x, TOP - 8, x, H - 44
        printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" fill=\"#2a2\">copy %.0f</text>\n", x - 4, TOP - 12, c
    }
    if (peak > 0) {
        x = x_of(peak)
        printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#c33\" stroke-width=\"2\"/>\n", x, TOP - 8, x, H - 44
        printf "<text x=\"%.1f\" y=\"%d\" fill=\"#c33\">peak %.0f</text>\n", x + 4, TOP - 12, peak
    }
    print "</svg>"
}
