# awk -v kit=DIR -v docs="A.md B.md" -f tests/figures.awk DIR/tests/figures.txt
# Holds every figure the kit's pages quote to the committed file it comes from (the manifest,
# tests/figures.txt, says how its lines read), and finds each measured-looking figure of those
# pages that no manifest line holds. Paths are relative to DIR. Prints one line a problem:
#   PAGE:LINE: figure: the page reads "...", SOURCE gives "..."      (a figure not its file's)
#   PAGE: figure: ...                                                 (a line that finds nothing)
#   PAGE:LINE: unsourced: "12.5%" ...                                 (no manifest line holds it)
#   figures.txt:LINE: ...                                             (a manifest line that is broken)
# and exits 1 if there was any. Only the lines of the pages in docs are checked.

# A figure as the completeness check sees one: a number and a unit of something measured.
function fig_re() { return "[0-9]+([.,][0-9]+)*(-fold| ?%| GB/s| ms| µs| points?| million|x)" }

function bad(msg) { print msg; nbad++ }
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }

# The line of page d that holds offset p of its joined text.
function line_of(d, p,    i) {
    for (i = nlines[d]; i > 1; i--) if (lstart[d, i] <= p) return i
    return 1
}

# s as an ERE that matches s literally.
function lit_re(s,    out, i, c) {
    out = ""
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == "\\") out = out "\\\\"
        else if (c == "^") out = out "\\^"
        else if (index(".[]()*+?{}|$/", c)) out = out "[" c "]"
        else out = out c
    }
    return out
}

# Reads a whole file into lines rd[f, 1..] once; rdn[f] is its line count (-1: unreadable).
function load(f,    path, n, l) {
    if (f in rdn) return rdn[f]
    path = kit "/" f; n = 0
    while ((getline l < path) > 0) rd[f, ++n] = l
    close(path)
    rdn[f] = n ? n : -1
    return rdn[f]
}

# The value a selector reads (see tests/figures.txt); sets err on failure.
function select(sel, vals, nv,    t, n, i, f, fmt, k, v, want, nwant, col, hdr, h, c, r, hits, row, at, re, op, x, y) {
    err = ""
    n = split(sel, t, " ")
    fmt = ""
    if (n && t[n] ~ /^%/) { fmt = t[n]; n-- }
    if (t[1] == "=") {                      # = A op B op C ..., left to right
        v = ""
        for (i = 2; i <= n; i++) {
            if (t[i] ~ /^[-+*\/]$/) { op = t[i]; continue }
            if (t[i] ~ /^\$[0-9]+$/) {
                k = substr(t[i], 2) + 0
                if (k < 1 || k > nv) { err = "no value " t[i] " before it"; return "" }
                x = vals[k]
            } else if (t[i] ~ /^[0-9.]+(e[0-9]+)?$/) x = t[i]
            else { err = "cannot read \"" t[i] "\""; return "" }
            if (v == "") v = x + 0
            else if (op == "+") v += x
            else if (op == "-") v -= x
            else if (op == "*") v *= x
            else if (op == "/") { if (x + 0 == 0) { err = "divides by 0"; return "" } v /= x }
            else { err = "no operator before " t[i]; return "" }
            op = ""
        }
        return sprintf(fmt == "" ? "%.6g" : fmt, v)
    }
    i = 1
    if (t[1] ~ /\// && t[1] !~ /^\//) { cursrc = t[1]; i = 2 }
    f = cursrc
    if (f == "") { err = "no source file"; return "" }
    if (load(f) < 0) { err = "cannot read " f; return "" }
    if (f ~ /\.csv$/) {
        # key=value filters (an _ in a value stands for a space), then the column.
        split(rd[f, 1], hdr, ",")
        for (h in hdr) colof[f, hdr[h]] = h
        nwant = 0; col = ""
        for (; i <= n; i++) {
            if (t[i] ~ /=/) {
                k = substr(t[i], 1, index(t[i], "=") - 1)
                if (!((f, k) in colof)) { err = f " has no column " k; return "" }
                want[++nwant] = colof[f, k]; wantv[nwant] = substr(t[i], index(t[i], "=") + 1)
                gsub(/_/, " ", wantv[nwant])
            } else col = t[i]
        }
        if (col == "" || !((f, col) in colof)) { err = f " has no column \"" col "\""; return "" }
        hits = 0
        for (r = 2; r <= rdn[f]; r++) {
            row = rd[f, r]; gsub(/"/, "", row); split(row, c, ",")
            for (k = 1; k <= nwant; k++) if (c[want[k]] != wantv[k]) break
            if (k > nwant) { hits++; v = c[colof[f, col]] }
        }
        if (hits != 1) { err = hits " rows of " f " match " sel; return "" }
    } else {
        # /REGEX/ [@K] FIELD: field FIELD of the only line (or the K-th) that matches.
        if (t[i] !~ /^\//) { err = "expected /REGEX/ in " sel; return "" }
        re = t[i]
        while (re !~ /.\/$/ && i < n) re = re " " t[++i]
        re = substr(re, 2, length(re) - 2); i++
        at = 0
        if (t[i] ~ /^@[0-9]+$/) { at = substr(t[i], 2) + 0; i++ }
        if (t[i] !~ /^[0-9]+$/) { err = "expected a field number in " sel; return "" }
        hits = 0
        for (r = 1; r <= rdn[f]; r++)
            if (rd[f, r] ~ re) {
                hits++
                if (at == 0 || hits == at) {
                    split(rd[f, r], c, " "); y = c[t[i] + 0]
                    sub(/^[^0-9-]+/, "", y); sub(/[^0-9]+$/, "", y)     # "(78%" reads 78
                }
            }
        if (at == 0 && hits != 1 || at > hits) { err = hits " lines of " f " match /" re "/"; return "" }
        v = y
    }
    return fmt == "" ? v : sprintf(fmt, v)
}

# Splits s at each {} into piece[1..]; returns the count of pieces.
function split_holes(s,    n, k) {
    n = 0
    while ((k = index(s, "{}")) > 0) { piece[++n] = substr(s, 1, k - 1); s = substr(s, k + 2) }
    piece[++n] = s
    return n
}

# Marks as held every figure of page d inside [p, p + len).
function cover_span(d, p, len,    s, q) {
    s = substr(text[d], p, len); q = 0
    while (match(s, fig_re())) {
        covered[d, p + q + RSTART - 1] = 1
        q += RSTART + RLENGTH - 1; s = substr(s, RSTART + RLENGTH)
    }
}

BEGIN { nd = split(docs, doc, " "); for (i = 1; i <= nd; i++) isdoc[doc[i]] = 1 }

# The manifest: a line starting with a space or a tab continues the one before.
/^[ \t]/ && nent { ent[nent] = ent[nent] " " trim($0); next }
/^#/ || /^[ \t]*$/ { next }
{ ent[++nent] = $0; entline[nent] = FNR }

END {
    for (j = 1; j <= nd; j++) {
        d = doc[j]; path = kit "/" d; n = 0; text[d] = ""
        while ((getline l < path) > 0) {
            sub(/[ \t]+$/, "", l)
            lstart[d, ++n] = length(text[d]) + (n > 1 ? 2 : 1)
            text[d] = text[d] (n > 1 ? " " : "") l
        }
        close(path); nlines[d] = n
        if (!n) bad(d ": figure: cannot read it")
    }
    for (e = 1; e <= nent; e++) {
        where = "tests/figures.txt:" entline[e] ": "
        s = ent[e]; k = index(s, ": \"")
        if (!k) { bad(where "expected PAGE: \"PHRASE\" = SELECTORS or exempt: REASON"); continue }
        d = substr(s, 1, k - 1); s = substr(s, k + 3)
        if (!(d in isdoc)) continue
        exempt = index(s, "\" exempt: "); k = index(s, "\" = ")
        if (exempt) { phrase = substr(s, 1, exempt - 1); rest = trim(substr(s, exempt + 10)) }
        else if (k) { phrase = substr(s, 1, k - 1); rest = trim(substr(s, k + 4)) }
        else { bad(where "expected \" = SELECTORS or \" exempt: REASON after the phrase"); continue }
        if (rest == "") { bad(where "an empty " (exempt ? "reason" : "selector list")); continue }
        np = split_holes(phrase)
        # The phrase as a pattern: each {} any number.
        re = lit_re(piece[1])
        for (i = 2; i <= np; i++) re = re "[0-9][0-9.,]*" lit_re(piece[i])
        if (exempt) {
            s = text[d]; q = 0; found = 0
            while (match(s, re)) {
                found = 1; ms = RSTART; ml = RLENGTH       # cover_span matches too
                cover_span(d, q + ms, ml)
                q += ms + ml - 1; s = substr(s, ms + ml)
            }
            if (!found) bad(d ": figure: tests/figures.txt:" entline[e] " exempts \"" phrase "\", which it does not have")
            continue
        }
        ns = split(rest, sels, ";"); nv = 0; cursrc = ""; shown = 0; failed = 0
        for (i = 1; i <= ns; i++) {
            sel = trim(sels[i]); hidden = sub(/^~ */, "", sel)
            v = select(sel, val, nv)
            if (err != "") { bad(where err); failed = 1; break }
            val[++nv] = v
            if (!hidden) shownv[++shown] = v
            if (src == "" || cursrc != "" && index(src, cursrc) == 0) src = src (src == "" ? "" : ", ") cursrc
        }
        srcs = src; src = ""
        if (failed) continue
        if (shown != np - 1) { bad(where shown " values for " (np - 1) " {} in the phrase"); continue }
        L = piece[1]; off[0] = 0
        for (i = 2; i <= np; i++) { off[i - 1] = length(L); L = L shownv[i - 1] piece[i] }
        s = text[d]; q = 0; found = 0
        while ((k = index(s, L)) > 0) {
            found = 1
            for (i = 1; i < np; i++) covered[d, q + k + off[i]] = 1
            q += k + length(L) - 1; s = substr(s, k + length(L))
        }
        if (found) continue
        if (match(text[d], re))
            bad(d ":" line_of(d, RSTART) ": figure: the page reads \"" substr(text[d], RSTART, RLENGTH) \
                "\", " srcs " gives \"" L "\" (tests/figures.txt:" entline[e] ")")
        else bad(d ": figure: no \"" phrase "\" in it (tests/figures.txt:" entline[e] ")")
    }
    # Completeness: every figure of each page is held by a line above.
    for (j = 1; j <= nd; j++) {
        d = doc[j]; s = text[d]; q = 0
        while (match(s, fig_re())) {
            p = q + RSTART; before = p > 1 ? substr(text[d], p - 1, 1) : ""
            after = substr(text[d], p + RLENGTH, 1)
            if (before !~ /[A-Za-z0-9_.^\/-]/ && !(substr(s, RSTART + RLENGTH - 1, 1) == "x" && after ~ /[A-Za-z0-9]/) \
                && !((d, p) in covered))
                bad(d ":" line_of(d, p) ": unsourced: \"" substr(s, RSTART, RLENGTH) \
                    "\" is held by no line of tests/figures.txt: give it its file, exempt it with a reason, or remove it")
            q += RSTART + RLENGTH - 1; s = substr(s, RSTART + RLENGTH)
        }
    }
    exit nbad > 0
}
