#!/bin/bash
# H200: windows of 256 rows (r256.patch: way 4 writes windows of 256 rows, 64 columns wide,
# 8 bands at a time) at the window shapes the sweep of 0.18.0 left under 90%. Where output
# rows start off a sector each window stages 7 rows above its own again from the L2 (HALO):
# 135 rows staged for 128 written, 263 for 256. carry-call.sh cut those rows by chaining
# windows in a block, and lost; here the block stays one window, only taller. Each shape, in
# two turns: the solution in 128 rows in 8 bands (TK_WAY=3, the way its launch keeps at the
# worst shapes), the patch in the same way (every tile in dynamic shared memory) and in its
# 256 rows (TK_WAY=4); median of 10 each; then memcheck and racecheck on the patch's way 4 at
# small shapes. The builds: bash results/research/group-order/variants.sh .devrun/t65cb (here,
# no GPU), and git rev-parse --short HEAD > .devrun/commit. Then, where the GPU is (carry
# .devrun): OUT=DIR bash results/research/group-order/r256-call.sh
set -u
. "$(dirname "$0")/../call-lib.sh"
T=.devrun/t65cb V="r256"
call_begin r256
call_turns "63684x63683 28787x28783 16383x16385 55903x55903 12425x12429 48289x11256 46299x46306 59660x59662 8192x8192" 360 \
    "TK_WAY=3 $T/solution/step7" "TK_WAY=3 $T/v/r256" "TK_WAY=4 $T/v/r256"
export TK_WAY=4
call_sanitize $T/v/r256 "1001x1003 513x1025 777x64 1030x4099"
tail -2 "$O/device.txt"; call_clocks
awk -f "$(dirname "$0")/order.awk" "$O/time.txt"
grep -E "elapsed" "$O/time.txt"; grep -vE "^== " "$O/sanitizer.txt" | sort | uniq -c
