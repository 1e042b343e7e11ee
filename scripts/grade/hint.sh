#!/usr/bin/env bash
# The next hint of a step, one tier at a time, where the student works (make hint runs this
# on the folder it is in). A step's README.md holds its hints as folded <details> blocks, in
# tiers: the idea, the shape of the change, the code. A terminal does not fold them, so
# `cat README.md` would show every tier at once; this shows one.
#
#   scripts/grade/hint.sh DIR            the next tier not yet shown in DIR (make hint)
#   scripts/grade/hint.sh --tier N DIR   tier N again (make hint N=2)
#   scripts/grade/hint.sh --reset DIR    start again from the first tier (make hint N=0)
#
# DIR/.hints-shown remembers how many tiers were shown. Exit status: 0 a hint was shown, the
# count reset, or every tier already shown (it says so); 2 bad arguments or no hints.
set -u
. "$(dirname "$0")/../lib/lib.sh"

tier="" reset=0
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --tier) [ $# -ge 2 ] || refuse "--tier needs a number"; tier=$2; shift 2 ;;
        --reset) reset=1; shift ;;
        -*) refuse "unknown option '$1'" ;;
        *) break ;;
    esac
done
[ $# = 1 ] || refuse "it takes one folder"
dir=$(from_start "$1")
readme=$dir/README.md
state=$dir/.hints-shown
[ -r "$readme" ] || { echo "hint: no README.md in $1: the hints live in the step's README" >&2; exit 2; }

# The tiers: the text of each <details> block, its <summary> as a heading.
tiers=$(grep -c '^<details>' "$readme")
[ "$tiers" -gt 0 ] || { echo "hint: $readme holds no hints (<details> blocks)" >&2; exit 2; }

if [ "$reset" = 1 ]; then
    rm -f "$state"
    echo "hint: the next make hint shows hint 1 of $tiers again"
    exit 0
fi
shown=$(cat "$state" 2>/dev/null)
[[ $shown =~ ^[0-9]+$ ]] || shown=0
if [ -n "$tier" ]; then
    [[ $tier =~ ^[0-9]+$ ]] && [ "$tier" -ge 1 ] && [ "$tier" -le "$tiers" ] ||
        { echo "hint: the hint number (N= of make hint, --tier here) is 1 to $tiers for this step" >&2; exit 2; }
else
    tier=$((shown + 1))
    if [ "$tier" -gt "$tiers" ]; then
        echo "hint: all $tiers hints were shown; make hint N=K shows hint K again, make hint N=0 starts over"
        exit 0
    fi
fi

awk -v want="$tier" '
    /^<details>/ { n++; inside = (n == want)
                   if (inside) { s = $0; sub(/.*<summary>/, "", s); sub(/<\/summary>.*/, "", s)
                                 print "== " s; lead = 1 }
                   next }
    /^<\/details>/ { inside = 0; next }
    inside && lead && /^[ \t]*$/ { next }
    inside { lead = 0; print }
' "$readme"
[ "$tier" -gt "$shown" ] && echo "$tier" >"$state"
if [ "$tier" -lt "$tiers" ]; then
    echo "(hint $tier of $tiers: make hint shows the next; think about this one first)"
else
    echo "(hint $tier of $tiers: the last)"
fi
exit 0
