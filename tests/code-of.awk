# code_of(LINE): a line of C with its comments taken out, string and character literals kept
# whole; the global in_c carries an open /* comment over to the next line. Loaded before the
# program that calls it (tests/kernel-carried.sh, tests/starter-is-previous.sh).
function code_of(s,   out, i, j, ch, q) {
    out = ""; i = 1
    while (i <= length(s)) {
        if (in_c) {
            j = index(substr(s, i), "*/")
            if (!j) return out
            in_c = 0; i += j + 1; continue
        }
        ch = substr(s, i, 1)
        if (substr(s, i, 2) == "/*") { in_c = 1; i += 2; continue }
        if (substr(s, i, 2) == "//") return out
        out = out ch; i++
        if (ch == "\"" || ch == "\047") {
            q = ch
            while (i <= length(s)) {
                ch = substr(s, i, 1); out = out ch; i++
                if (ch == "\\") { out = out substr(s, i, 1); i++ }
                else if (ch == q) break
            }
        }
    }
    return out
}
