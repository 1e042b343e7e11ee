# Makes a wrong student file from a mistake description and the file it starts from:
#   awk -f tests/mistake.awk tests/mistakes/NAME.txt solution/stepN/transpose.cu > transpose.cu
# A description holds header lines ("mistake:", "base:", "verdict:", "says:"), then one or
# more blocks of "replace:" LINES "with:" LINES "end". Each replaced text must occur in the
# base file exactly once; otherwise the description is stale and this exits 1.
FNR == NR {
    if ($0 == "replace:") { part = "old"; n++; old[n] = new[n] = ""; next }
    if ($0 == "with:")    { part = "new"; next }
    if ($0 == "end")      { part = ""; next }
    if (part == "old") old[n] = old[n] $0 "\n"
    if (part == "new") new[n] = new[n] $0 "\n"
    next
}
{ text = text $0 "\n" }
END {
    if (n == 0) { print "mistake.awk: no replace: block in " ARGV[1] > "/dev/stderr"; exit 1 }
    for (i = 1; i <= n; i++) {
        at = index(text, old[i])
        rest = substr(text, at + length(old[i]))
        if (!at || index(rest, old[i])) {
            print "mistake.awk: " ARGV[1] ": replace block " i " does not occur exactly once in " ARGV[2] > "/dev/stderr"
            exit 1
        }
        text = substr(text, 1, at - 1) new[i] rest
    }
    printf "%s", text
}
