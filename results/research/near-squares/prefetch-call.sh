#!/bin/bash
# H200: the window kernel's loads with a prefetch size, beside the solution, all forced to 128
# rows in 8 bands (TK_WAY=3, the way the solution keeps at the largest near-squares), at five
# window shapes with a halo that the H200's sweep of 0.20.0 left under 90% and at 8191 x 8192,
# whose input rows start on a sector. A row's 64 floats that start off a sector span three
# 128-byte lines of the L2, and the two column bands that share a line read it at about the
# same time; .L2::128B and .L2::256B ask the L2 to fetch the whole line, or the 256 bytes,
# from DRAM at the first read (PTX ld's prefetch size; the solution's loads carry none, its
# sm_90 code's LDG.E.CONSTANT). asm.patch writes the same loads in PTX with no prefetch size:
# the control, since a load written in PTX compiles apart from the compiler's own. Each
# shape in one turn, median of 10 each; then memcheck and racecheck on p256 at two small
# shapes. The builds: bash results/research/near-squares/variants.sh .devrun/tdbf (here, no
# GPU), and git rev-parse --short HEAD > .devrun/commit. Then, where the GPU is (carry
# .devrun): OUT=DIR bash results/research/near-squares/prefetch-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/tdbf V="asm p128 p256"
call_begin prefetch
TURNS=1 call_turns "63684x63683 55903x55903 59660x59662 28787x28783 12425x12429 8191x8192" 300 \
    "TK_WAY=3 $T/solution/step7" "TK_WAY=3 $T/v/asm" "TK_WAY=3 $T/v/p128" "TK_WAY=3 $T/v/p256"
TK_WAY=3 call_sanitize $T/v/p256 "1001x1003 1030x4099"
call_build_logs
tail -2 "$O/device.txt"; call_clocks
awk -f "$(dirname "$0")/../group-order/order.awk" "$O/time.txt"
grep -E "elapsed" "$O/time.txt"; grep -vE "^== " "$O/sanitizer.txt" | sort | uniq -c
