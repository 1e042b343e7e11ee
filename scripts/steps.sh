#!/usr/bin/env bash
# Prints the kit's step numbers in order (1 2 3 ...), one a line: the folders solution/stepN.
cd "$(dirname "$0")/.." && ls -d solution/step*/ | sed 's|solution/step||; s|/||' | sort -n
