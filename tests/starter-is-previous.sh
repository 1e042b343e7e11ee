#!/usr/bin/env bash
# starter-is-previous.sh STARTER PREV_SOLUTION STEP SOLUTION: checks the README's promise that
# step N's starter is step N-1's solution plus step N's TODOs: the starter's code, line for
# line, is PREV_SOLUTION's. STEP names the starter's step (stepN); SOLUTION is its own
# solution, which says which row step N prints.
#
# What is compared: every line that holds code, whole and byte for byte, its trailing
# comment included. What is not: lines with no code, that is blank lines and lines wholly
# inside comments (/* ... */ or //). That is where a starter rightly differs from the previous
# solution: its TODO comments, its header (the step's title), and the comments that describe
# the kernel the step builds. Two code lines are the starter's own, checked on their own:
#   - one `tk_unfinished();` (or `tk_ranks_unfinished();`) line, which it must hold exactly
#     once, and which is left out of the comparison;
#   - its `tk_begin(&run, "STEP", "ROW", ...)` (or tk_ranks_begin) line, compared with its two
#     first string arguments set aside: the starter must name STEP and SOLUTION's row,
#     PREV_SOLUTION the step before (stepN-1) and a row of its own, not the starter's.
# Code beyond the exercise: a region the starter marks BEYOND(STEP) (tests/beyond.awk: a
# paragraph, a function or an if and its block, whose first line holds that mark) is the
# solution's own code, which the starter supplies so that no student writes it (step 7's
# panels, block order and grid). It is left out of the comparison with PREV_SOLUTION, on
# condition that SOLUTION holds the same region, line for line, byte for byte. A region of one
# line (a code line with the mark after it, tests/beyond.awk) may also stand in the place of
# one line of PREV_SOLUTION: step 7's launch, whose sides are long where step 6's were int.
# Any other change of code (an index, a constant, a line removed, a line added outside the
# comments) is a breach, named by its line in both files.
# Prints each breach and exits 1; prints nothing and exits 0 when the promise holds; exits 2
# on a bad command line or a file it cannot read.
set -u
usage="usage: tests/starter-is-previous.sh STARTER PREV_SOLUTION STEP SOLUTION"
[ $# = 4 ] || { echo "$usage" >&2; exit 2; }
starter=$1 prev=$2 step=$3 solution=$4
[[ $step =~ ^step([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -ge 2 ] ||
    { echo "starter-is-previous: STEP must be step2, step3, ... (not '$step')" >&2; exit 2; }
prev_step=step$((BASH_REMATCH[1] - 1))
for f in "$starter" "$prev" "$solution"; do
    [ -r "$f" ] || { echo "starter-is-previous: cannot read $f" >&2; exit 2; }
done
tmp=$(mktemp -d) || exit 2
trap '[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT

# The starter's code beyond the exercise, "LINE<tab>START<tab>TEXT" a line.
awk -v step="$step" -f "$(dirname "$0")/code-of.awk" -f "$(dirname "$0")/beyond.awk" "$starter" >"$tmp/beyond"

# keep ROLE FILE: FILE's code lines as "LINE<tab>TEXT" into $tmp/ROLE.num, and its facts
# ("unfinished LINE", "begin LINE STEP ROW") into $tmp/ROLE.facts; the starter's lines beyond
# the exercise left out.
# A one-line region of the starter is kept as ONE_LINE and its code, in its place (below).
ONE_LINE="(marked BEYOND) "
keep() {
    awk -v role="$1" -v facts="$tmp/$1.facts" -v ONE_LINE="$ONE_LINE" -f "$(dirname "$0")/code-of.awk" -f /dev/fd/3 \
        "$tmp/beyond" "$2" >"$tmp/$1.num" 3<<'AWK'
        BEGIN { printf "" >facts }
        FILENAME == ARGV[1] { split($0, f, "\t"); beyond[f[1]] = 1; n[f[2]]++; at[f[2]] = f[1]; next }
        FNR == 1 { for (r in n) if (n[r] == 1 && at[r] == r) alone[r] = 1 }
        {
            if (role == "starter" && FNR in beyond) {   # a region of one line holds its place
                key = code_of($0)
                if (FNR in alone) { gsub(/^[ \t]+|[ \t]+$/, "", key); print FNR "\t" ONE_LINE key }
                next
            }
            code = code_of($0)
            if (code ~ /^[ \t]*$/) next
            flat = code; gsub(/[ \t]/, "", flat)
            if (flat ~ /^tk_(ranks_)?unfinished\(\);$/) {
                print "unfinished " FNR >facts
                if (role == "starter") next
            }
            line = $0
            if (code ~ /tk_(ranks_)?begin[ \t]*\(/) {
                s = r = "?"
                if (match(code, /"[^"]*"/)) {
                    s = substr(code, RSTART + 1, RLENGTH - 2); rest = substr(code, RSTART + RLENGTH)
                    if (match(rest, /"[^"]*"/)) r = substr(rest, RSTART + 1, RLENGTH - 2)
                }
                print "begin " FNR " " s " " r >facts
                sub(/"[^"]*"/, "STEP", line); sub(/"[^"]*"/, "ROW", line)
            }
            print FNR "\t" line
        }
AWK
}
keep starter "$starter"
keep prev "$prev"
keep solution "$solution"

bad=0
breach() { echo "$1"; bad=1; }
n=$(grep -c '^unfinished ' "$tmp/starter.facts")
[ "$n" = 1 ] || breach "$starter holds $n tk_unfinished() calls, not one"
# begin ROLE FILE: sets line, st and row from FILE's one tk_begin line; a breach otherwise.
begin() {
    local n
    n=$(grep -c '^begin ' "$tmp/$1.facts")
    if [ "$n" != 1 ]; then
        breach "$2 holds $n tk_begin(...) lines, not one"; line=0 st='?' row='?'; return
    fi
    read -r _ line st row < <(grep '^begin ' "$tmp/$1.facts")
}
begin solution "$solution"; sol_row=$row
[ "$st" = "$step" ] || breach "$solution line $line names step '$st' in tk_begin, not '$step'"
begin starter "$starter"; starter_row=$row
[ "$st" = "$step" ] || breach "$starter line $line names step '$st' in tk_begin, not '$step'"
[ "$row" = "$sol_row" ] ||
    breach "$starter line $line names row '$row' in tk_begin, not its solution's '$sol_row'"
begin prev "$prev"
[ "$st" = "$prev_step" ] || breach "$prev line $line names step '$st' in tk_begin, not '$prev_step'"
[ "$row" != "$starter_row" ] ||
    breach "$prev line $line names row '$row' in tk_begin, the row of $step: each step has its own"

cut -f 2- "$tmp/prev.num" >"$tmp/prev.txt"
cut -f 2- "$tmp/starter.num" >"$tmp/starter.txt"
# A one-line region stands in the place of the previous solution's line that it only widens
# (the same code with `long` where that line said `int`) or, where both define a static
# function, widens and renames (step 7's launch_window, step 6's launch), or is added: a
# change whose new side is only such regions, each old line replaced by its widening, is what
# those regions are for, and is left out.
diff "$tmp/prev.txt" "$tmp/starter.txt" | awk -v marked="> $ONE_LINE" '
    function code(s) { sub(/^[<>] /, "", s); sub(/[ \t]*\/\*.*\*\/[ \t]*$/, "", s)
                       gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
    function narrowed(s,   out, m) {   # s with each word long made int
        out = ""
        while (match(s, /(^|[^A-Za-z0-9_])long([^A-Za-z0-9_]|$)/)) {
            m = substr(s, RSTART, RLENGTH); sub(/long/, "int", m)
            out = out substr(s, 1, RSTART - 1) m; s = substr(s, RSTART + RLENGTH)
        }
        return out s
    }
    function named(s) {   # a static function definition, its name set aside
        if (s ~ /^static [A-Za-z_][A-Za-z0-9_ *]* [A-Za-z_][A-Za-z0-9_]*\(.*\)$/)
            sub(/[A-Za-z_][A-Za-z0-9_]*\(/, "NAME(", s)
        return s
    }
    function flush(   k) {
        for (k in old) if (old[k] > (k in mark ? mark[k] : 0)) ok = 0
        if (hunk != "" && !ok) printf "%s", hunk
        delete old; delete mark
    }
    /^[0-9]/ { flush(); hunk = $0 "\n"; ok = 1; next }
    { hunk = hunk $0 "\n" }
    /^</ { old[named(code($0))]++ }
    /^>/ { if (index($0, marked) != 1) { ok = 0; next }
           k = substr($0, length(marked) + 1); w = named(narrowed(k)); if (w != k) mark[w]++ }
    END { flush() }' >"$tmp/diff"
awk -v old="$prev" -v new="$starter" -f "$(dirname "$0")/numbered-diff.awk" \
    "$tmp/prev.num" "$tmp/starter.num" "$tmp/diff" >"$tmp/breaches"
[ -s "$tmp/breaches" ] && { cat "$tmp/breaches"; bad=1; }

# Each region beyond the exercise stands in SOLUTION as it stands in the starter.
awk -v starter="$starter" -v solution="$solution" -v tag="BEYOND($step)" '
    FNR == NR { sol[++ns] = $0; next }
    {   split($0, f, "\t"); text = substr($0, length(f[1]) + length(f[2]) + 3)
        if (f[2] != cur) { cur = f[2]; nr++; first[nr] = f[1]; len[nr] = 0 }
        len[nr]++; line[nr, len[nr]] = f[1]; body[nr, len[nr]] = text }
    END {
        for (r = 1; r <= nr; r++) {
            best = 0; at = 0   # where SOLUTION holds the longest run of the region from its start
            for (i = 1; i <= ns; i++) {
                for (k = 0; k < len[r] && i + k <= ns && sol[i + k] == body[r, k + 1]; k++) ;
                if (k > best) { best = k; at = i }
            }
            if (best == len[r]) continue
            bad = 1
            span = len[r] > 1 ? "lines " first[r] " to " line[r, len[r]] ", marked " tag ", are" : "line " first[r] ", marked " tag ", is"
            if (!best) printf "%s %s not in %s: the starter supplies the solution\047s code beyond the exercise as it is\n", starter, span, solution
            else printf "%s line %d, marked %s, differs from %s line %d: `%s` there, `%s` here\n", starter, line[r, best + 1], tag, solution, at + best, sol[at + best], body[r, best + 1]
        }
        exit bad
    }' "$solution" "$tmp/beyond" || bad=1
exit "$bad"
