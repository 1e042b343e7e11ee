#!/bin/bash
# The stepped staging (index-call.sh's stage-stepped.patch, 0.8 to 3.3 points up at every wide
# shape there) at the rest of the H200 sweep's wide shapes under 90%, 7 to 11 GiB a matrix, and
# at four wide shapes of 1 to 39 rows (1 and 6 rows: panels with W > NT, the staging's second
# loop); beside it stage-and-index.patch: the same staging with stepped-index.patch's store loop
# (index-call.sh's store-stepped, the store loop without its division, was no faster than
# stepped-index). Interleaved, twice, median of 10 each. Then compute-sanitizer's memcheck and
# racecheck on stage-and-index at small wide shapes of both loops.
# The builds come from 0.17.3's tree with each patch: make them here first, in .devrun/t0173
# (ignored; carried): bash results/research/panel-stride/variants.sh .devrun/t0173; and
# .devrun/commit: git rev-parse --short HEAD > .devrun/commit. Then, where the GPU is:
# OUT=DIR bash results/research/panel-stride/stage-call.sh
# (the committed logs, run before 0.17.4, name 0.17.3's solution solution/step7: it was the tree's then)
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t0173 V="stage-stepped stage-and-index"
call_begin stage
call_time "69x44013014 94x28694626 109x19593121 112x17218567 74x31663346 6x73449945 39x8769301 1x400000003 16x25000001" 420
call_sanitize $T/v/stage-and-index "1x5003 3x70001 16x40961 17x9000 67x100003 112x4097"
call_summary
