#!/usr/bin/env bash
# exercise-diff.sh STARTER SOLUTION STEP: checks that the starter and the solution of a step
# differ only where a TODO(STEP) asks, and that no TODO hands out a line of the solution.
#   1. every change (a hunk of `diff -U0`; hunks apart only by lone braces count as one)
#      lies in a TODO's paragraph: the TODO(STEP) comment and the code below it, down to the
#      first blank line or the closing brace of the function;
#   2. every TODO(STEP) comment line of the starter is gone from the solution;
#   3. no code line the solution adds (8 characters or more once its spaces and trailing
#      comment are dropped) appears, spaces dropped, inside a TODO comment of the starter;
#   4. no change touches code beyond the exercise: a region marked BEYOND(STEP) in the
#      solution or the starter (tests/beyond.awk), which the starter supplies as it is.
# Prints each breach and exits 1; prints nothing and exits 0 when all four hold.
set -u
[ $# = 3 ] || { echo "usage: tests/exercise-diff.sh STARTER SOLUTION STEP" >&2; exit 2; }
starter=$1 solution=$2 step=$3
here=$(dirname "$0")
beyond() { awk -v step="$step" -f "$here/code-of.awk" -f "$here/beyond.awk" "$1"; }

diff -U0 "$starter" "$solution" | awk -v tag="TODO($step)" -v mark="BEYOND($step)" \
    -v starter="$starter" -v solution="$solution" '
    # The lines beyond the exercise, of the starter ("s") and of the solution ("o").
    FILENAME == ARGV[1] || FILENAME == ARGV[2] {
        split($0, f, "\t"); beyond[(FILENAME == ARGV[1] ? "s" : "o") f[1]] = f[2]; next }
    # Then the starter: its TODO comment lines (from "TODO(step)" to the end of that comment)
    # and its lone-brace lines.
    FILENAME == ARGV[3] {
        if (index($0, tag)) inside = para = 1
        if (para && ($0 ~ /^[ \t]*$/ || prev_close)) para = 0
        if (para) in_para[FNR] = 1
        prev_close = $0 ~ /^}/
        if (inside) { is_todo[FNR] = 1; todo_text = todo_text $0; if (index($0, "*/") || $0 ~ /^[ \t]*\/\//) inside = 0 }
        if ($0 ~ /^[ \t]*[{}][ \t]*$/) brace[FNR] = 1
        next }
    FNR == 1 { flat = todo_text; gsub(/[ \t]/, "", flat) }
    /^(---|\+\+\+) / { next }
    /^@@ / {
        split(substr($3, 2), a, ","); oline = a[1]
        split(substr($2, 2), a, ","); count = (2 in a) ? a[2] : 1
        from = a[1]; to = a[1] + count - 1
        if (count == 0) to = a[1] + 1   # an insertion between lines a[1] and a[1] + 1
        joined = nh > 0
        for (l = last_to + 1; joined && l < from; l++) if (!(l in brace)) joined = 0
        if (!joined) group[++nh] = from
        for (l = from; l <= to; l++) if (l in in_para) asked[nh] = 1
        last_to = to; line = a[1]; next }
    /^-/ {
        if (line in is_todo) delete is_todo[line]
        if (("s" line) in beyond && !told["s" beyond["s" line]]++) {
            printf "%s line %d, in the region marked %s at its line %d, is changed in %s: the starter supplies the code beyond the exercise as the solution has it\n", starter, line, mark, beyond["s" line], solution; bad = 1 }
        line++; next }
    /^\+/ {
        code = substr($0, 2); sub(/\/\*.*$/, "", code); sub(/\/\/.*$/, "", code); gsub(/[ \t]/, "", code)
        if (length(code) >= 8 && index(flat, code)) { printf "a TODO holds the solution line: %s\n", substr($0, 2); bad = 1 }
        if (("o" oline) in beyond && !told["o" beyond["o" oline]]++) {
            printf "%s line %d, in the region marked %s at its line %d, is not in %s as it is: the starter supplies the code beyond the exercise, the student writes none of it\n", solution, oline, mark, beyond["o" oline], starter; bad = 1 }
        oline++; next }
    END {
        for (g = 1; g <= nh; g++) if (!(g in asked)) { printf "the change at starter line %d is not asked for by a TODO\n", group[g]; bad = 1 }
        for (l in is_todo) { printf "TODO line %d is still in the solution\n", l; bad = 1 }
        exit bad }' <(beyond "$starter") <(beyond "$solution") "$starter" -
