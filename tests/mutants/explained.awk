# The categories a grader's output names, read with the table of categories.txt:
#   awk -f tests/mutants/explained.awk tests/mutants/categories.txt GRADE_OUTPUT
# prints one line, CATEGORIES|FINDINGS: the categories of every finding the output holds (in
# alphabetical order, each once; "none" where its findings name none, "-" where it holds no
# finding), then the findings, each once, in the order the output first says them.
# With -v each=1 it prints instead, for every line of the output, the findings that line
# matches (space-separated; empty for none): the test of the table uses it.

FNR == NR {
    if ($0 ~ /^[ \t]*(#|$)/) next
    rows++; name[rows] = $1; cats[rows] = $2
    w = $0; sub(/^[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", w); words[rows] = w
    k = split($2, c, ",")
    for (j = 1; j <= k; j++)
        if (!(c[j] in order)) { order[c[j]] = ++ncat; catname[ncat] = c[j] }
    next
}
{
    hit = ""
    for (r = 1; r <= rows; r++) {
        if ($0 !~ words[r]) continue
        hit = hit (hit == "" ? "" : " ") name[r]
        if (!(name[r] in said)) { said[name[r]] = 1; findings = findings (findings == "" ? "" : " ") name[r] }
        k = split(cats[r], c, ",")
        for (j = 1; j <= k; j++) named[c[j]] = 1
    }
    if (each) print hit
}
END {
    if (each) exit
    k = 0                             # the named categories, in alphabetical order
    for (j = 1; j <= ncat; j++)
        if (catname[j] != "none" && (catname[j] in named)) {
            for (i = ++k; i > 1 && list[i - 1] > catname[j]; i--) list[i] = list[i - 1]
            list[i] = catname[j]
        }
    out = ""
    for (i = 1; i <= k; i++) out = out (out == "" ? "" : " ") list[i]
    if (out == "") out = findings == "" ? "-" : "none"
    print out "|" findings
}
