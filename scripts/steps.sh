#!/usr/bin/env bash
# Prints the kit's step numbers in order (1 2 3 ...), one a line: the folders solution/stepN.
. "$(dirname "$0")/lib.sh"
case $# in
    0) ;;
    *) case $1 in -h|--help) usage; exit 0 ;; *) refuse "it takes no arguments ('$1')" ;; esac ;;
esac
cd "$(dirname "$0")/.." && ls -d solution/step*/ | sed 's|solution/step||; s|/||' | sort -n
