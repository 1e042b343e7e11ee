#!/usr/bin/env bash
# pattern-names.sh PATTERNS_H GRADE_WORDS: whether the names of the patterns the harness prints
# (the TK_PATTERN lines of common/patterns.h) are exactly those the grader explains (the labels
# of the outer case of explain_pattern in scripts/grade/grade-words.sh, less "*", its words for a
# name it does not know). Prints each name that only one side has; exits 1 when there is one.
# pattern-names.sh --list PATTERNS_H: the harness's names, one a line, as the list orders them.
set -u
names() { sed -nE 's/^ *TK_PATTERN\([A-Z0-9_]+, "([^"]+)"\).*/\1/p' "$1"; }
[ "${1:-}" = --list ] && { names "$2"; exit; }
harness=$(names "$1" | sort)
grader=$(awk '/^explain_pattern\(\)/ { in_fn = 1 }
              in_fn && /^}/ { in_fn = 0 }
              in_fn && /^    case / { in_case = 1; next }
              in_fn && /^    esac/ { in_case = 0 }
              in_fn && in_case && /^    [^ ]+\)/ {
                  sub(/^    /, ""); sub(/\).*/, "")
                  n = split($0, label, "|")
                  for (i = 1; i <= n; i++) if (label[i] != "*") print label[i]
              }' "$2" | sort)
[ -n "$harness" ] || { echo "no TK_PATTERN line in $1"; exit 1; }
[ -n "$grader" ] || { echo "no case label in explain_pattern of $2"; exit 1; }
status=0
for name in $(comm -23 <(echo "$harness") <(echo "$grader")); do
    echo "only in $1: $name"; status=1
done
for name in $(comm -13 <(echo "$harness") <(echo "$grader")); do
    echo "only in $2: $name"; status=1
done
exit $status
