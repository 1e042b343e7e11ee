#!/usr/bin/env bash
# glossary-links.sh KIT README...: checks the promise of GLOSSARY.md, that a README links the
# first use of each glossary term to the term's entry. In each README (a path inside KIT):
#   - every link to the glossary goes to KIT's GLOSSARY.md from the README's folder, and its
#     #anchor is one of GLOSSARY.md's <a id="..."></a> anchors ("link" lines);
#   - for each anchor, the first use of its term lies in a link to its entry, an anchor of
#     the same paragraph of GLOSSARY.md ("term" lines).
# A term's words are its line in tests/glossary-terms.txt, or, for an anchor that has none, the
# anchor itself (hyphens as spaces, an optional plural "s"). Code (fenced, indented, `inline`),
# headings, HTML tags and link targets are not text; a term spans line breaks.
# Prints one line a problem, "README:LINE: term|link: ...", and exits 1 when there is any;
# 0 when all hold; 2 on bad arguments.
set -u
terms=$(cd "$(dirname "$0")" && pwd)/glossary-terms.txt
[ $# -ge 2 ] || { echo "usage: tests/glossary-links.sh KIT README..." >&2; exit 2; }
cd "$1" || exit 2
shift
[ -r GLOSSARY.md ] || { echo "glossary-links: no GLOSSARY.md in $(pwd)" >&2; exit 2; }
for f in "$@"; do [ -r "$f" ] || { echo "glossary-links: no $f in $(pwd)" >&2; exit 2; }; done

awk '
function spaces(n) { return sprintf("%" n "s", "") }
# blank_all(STR, RE): STR with every match of RE made blanks of its length.
function blank_all(str, re,   out) {
    out = ""
    while (str != "" && match(str, re)) {
        if (RLENGTH == 0) { out = out substr(str, 1, RSTART); str = substr(str, RSTART + 1); continue }
        out = out substr(str, 1, RSTART - 1) spaces(RLENGTH)
        str = substr(str, RSTART + RLENGTH)
    }
    return out str
}
function lineof(p,   i) { for (i = nl; i > 1 && start[i] > p; i--) ; return i }
function say(p, kind, what) { print file ":" lineof(p) ": " kind ": " what; bad = 1 }
# first(STR, RE): where RE first matches STR as a word of its own (not inside a longer
# word, nor after a hyphen: GPU-vector-tile is a row, not a tile); sets FLEN.
function first(str, re,   off, p, l, rest) {
    off = 0; rest = str
    while (match(rest, re)) {
        p = off + RSTART; l = RLENGTH
        if (l > 0 && !(p > 1 && substr(str, p, 1) ~ /[a-z0-9]/ && substr(str, p - 1, 1) ~ /[a-z0-9_-]/) &&
            !(substr(str, p + l - 1, 1) ~ /[a-z0-9]/ && substr(str, p + l, 1) ~ /[a-z0-9_]/)) {
            FLEN = l; return p
        }
        off = p; rest = substr(str, p + 1)
    }
    return 0
}
function check(   i, l, s, t, u, n, p, q, k, a, re, ex, target, path, anchor, want, hit, word) {
    if (file == "") return
    # The text: code, headings and HTML out, lines joined (a term may span a line break).
    s = ""; fence = 0; code = 0; blankprev = 1
    for (i = 1; i <= nl; i++) {
        l = line[i]
        if (l ~ /^[ \t]*(```|~~~)/) { fence = !fence; l = "" }
        else if (fence) l = ""
        else if (l ~ /^(    |\t)/ && (blankprev || code)) { code = 1; l = "" }
        else if (l ~ /[^ \t]/) code = 0
        if (l ~ /^#+ /) l = ""
        blankprev = (line[i] !~ /[^ \t]/)
        start[i] = length(s) + 1
        s = s spaces(length(line[i]) - length(l)) l " "
    }
    while ((p = index(s, "<!--")) > 0) {
        q = index(substr(s, p), "-->"); q = q ? p + q + 1 : length(s)
        s = substr(s, 1, p - 1) spaces(q - p + 1) substr(s, q + 1)
    }
    s = blank_all(s, "`[^`]*`")
    s = blank_all(s, "</?[a-zA-Z][^>]*>")
    # The links: [text](target); the text stays, the rest is blanked.
    n = 0; u = s; q = 0
    while (match(u, /\[[^]]*\]\([^)]*\)/)) {
        p = q + RSTART; l = RLENGTH
        k = index(substr(s, p, l), "](")
        n++; ls[n] = p + 1; le[n] = p + k - 2
        lt[n] = substr(s, p + k + 1, l - k - 2)
        s = substr(s, 1, p - 1) " " substr(s, p + 1, k - 2) spaces(l - k + 1) substr(s, p + l)
        q = p + l - 1; u = substr(s, q + 1)
    }
    s = blank_all(s, "https?://[^ )>]*")
    t = tolower(s)
    # Every link to the glossary: the right path from here, an anchor that exists.
    want = file; gsub(/[^\/]+\//, "../", want); sub(/[^\/]*$/, "GLOSSARY.md", want)
    for (k = 1; k <= n; k++) {
        target = lt[k]
        if (target !~ /(^|\/)GLOSSARY\.md(#|$)/) continue
        path = target; sub(/#.*/, "", path)
        anchor = target; if (!sub(/^[^#]*#/, "", anchor)) anchor = ""
        gl[k] = 1; ga[k] = anchor
        if (path != want) say(ls[k], "link", target ": from here the glossary is " want)
        if (anchor != "" && !(anchor in para)) say(ls[k], "link", target ": GLOSSARY.md has no anchor \"" anchor "\"")
    }
    # The first use of each term: inside a link to its entry.
    for (a = 1; a <= na; a++) {
        re = (anc[a] in words) ? words[anc[a]] : anc[a]
        if (!(anc[a] in words)) { gsub(/-/, " ", re); re = re "s?" }
        gsub(/ /, "[ \t]+", re)
        u = t
        if (anc[a] in other) { ex = other[anc[a]]; gsub(/ /, "[ \t]+", ex); u = blank_all(u, ex) }
        p = first(u, re)
        if (!p) continue
        word = substr(s, p, FLEN); gsub(/[ \t]+/, " ", word)
        hit = 0
        for (k = 1; k <= n; k++) if (ls[k] <= p && p <= le[k]) hit = k
        if (!hit)
            say(p, "term", "\"" word "\" is the first use of a glossary term, unlinked: link it to " want "#" anc[a])
        else if (!gl[hit])
            say(p, "term", "\"" word "\" is the first use of a glossary term, in a link to " lt[hit] ", not to " want "#" anc[a])
        else if (ga[hit] == "")
            say(p, "term", "\"" word "\" links to the glossary page, not to its entry: " want "#" anc[a])
        else if ((ga[hit] in para) && para[ga[hit]] != para[anc[a]])
            say(p, "term", "\"" word "\" links to " lt[hit] ", another term'"'"'s entry: link " want "#" anc[a])
    }
    split("", gl); split("", ga)
}
FNR == 1 { fileno++; if (fileno > 2) { check(); file = FILENAME; nl = 0 } }
fileno == 1 {   # the terms: ANCHOR WORDS [! OTHER SENSES]
    if ($0 ~ /^[ \t]*(#|$)/) next
    l = $0; sub(/^[ \t]*[^ \t]+[ \t]+/, "", l)
    if (index(l, " ! ")) { other[$1] = substr(l, index(l, " ! ") + 3); l = substr(l, 1, index(l, " ! ") - 1) }
    sub(/[ \t]+$/, "", l); sub(/^[ \t]+/, "", other[$1]); if (other[$1] == "") delete other[$1]
    words[$1] = l; termline[$1] = FNR
    next
}
fileno == 2 {   # GLOSSARY.md: its anchors, grouped by paragraph (one entry)
    if ($0 ~ /^[ \t]*$/) { entry++; next }
    l = $0
    while (match(l, /<a id="[^"]*"><\/a>/)) {
        id = substr(l, RSTART + 7, RLENGTH - 13)
        if (id in para) { print "GLOSSARY.md:" FNR ": link: anchor \"" id "\" twice"; bad = 1 }
        para[id] = entry; anc[++na] = id
        l = substr(l, RSTART + RLENGTH)
    }
    next
}
{ line[++nl] = $0 }
END {
    check()
    for (id in words) if (!(id in para)) {
        print "tests/glossary-terms.txt:" termline[id] ": link: GLOSSARY.md has no anchor \"" id "\""; bad = 1
    }
    exit bad
}' "$terms" GLOSSARY.md "$@"
