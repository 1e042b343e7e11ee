# awk -v old=LABEL -v new=LABEL -f tests/numbered-diff.awk OLD.num NEW.num DIFF
# OLD.num and NEW.num hold the lines that were compared, one a line as "LINE<tab>TEXT" (LINE:
# where the text stands in its file); DIFF is the output of plain `diff` on the TEXT parts.
# Prints each difference once, naming its lines in the files themselves:
#   NEW line N differs from OLD line M: `TEXT OF M` there, `TEXT OF N` here
#   NEW line N is not in OLD: TEXT
#   OLD line M is missing from NEW (before NEW line N): TEXT
# Used by tests/starter-is-previous.sh and tests/kernel-carried.sh.
function text(s) { sub(/^[^\t]*\t/, "", s); sub(/^[ \t]+/, "", s); return s }
function at(s) { return s + 0 }
FILENAME == ARGV[1] { o[FNR] = $0; no = FNR; next }
FILENAME == ARGV[2] { n[FNR] = $0; nn = FNR; next }
/^[0-9]+(,[0-9]+)?[acd][0-9]+(,[0-9]+)?$/ {
    split($0, side, /[acd]/); kind = substr($0, length(side[1]) + 1, 1)
    split(side[1], a, ","); split(side[2], b, ",")
    o1 = a[1] + 0; o2 = (2 in a) ? a[2] + 0 : o1; n1 = b[1] + 0; n2 = (2 in b) ? b[2] + 0 : n1
    if (kind == "a") { o1 = o1 + 1; o2 = o1 - 1 }   # added after old line a[1]: no old line
    if (kind == "d") { n1 = n1 + 1; n2 = n1 - 1 }   # gone after new line b[1]: no new line
    # Pair the lines of a change one for one; what is left over was added or is missing.
    for (k = 0; o1 + k <= o2 && n1 + k <= n2; k++)
        printf "%s line %d differs from %s line %d: `%s` there, `%s` here\n", new, at(n[n1 + k]),
               old, at(o[o1 + k]), text(o[o1 + k]), text(n[n1 + k])
    for (j = n1 + k; j <= n2; j++)
        printf "%s line %d is not in %s: %s\n", new, at(n[j]), old, text(n[j])
    for (j = o1 + k; j <= o2; j++) {
        where = (n1 + k <= nn) ? sprintf("before %s line %d", new, at(n[n1 + k])) : "at its end"
        printf "%s line %d is missing from %s (%s): %s\n", old, at(o[j]), new, where, text(o[j])
    }
}
