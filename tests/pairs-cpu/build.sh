#!/bin/bash
# Builds DIR/pairs-cpu from PAIRS.cuh (step 7's pairs.cuh or a variant of it) and the block
# order it runs in (block_of and band_grid, taken from TRANSPOSE.cu, step 7's solution): the
# kernel's launch rewritten as a call of pairs-cpu.cpp's tk_emu_launch and its shared tile as
# the file's emu_tile (DIR/pairs-host.h), then the host's C++ compiler (CXX, else g++), with
# AddressSanitizer and UBSan where the compiler has them (each finding fatal), so that a read
# or a write past the input or the tile, or a misaligned float2, stops the run (the output
# lies in pages of its own: pairs-cpu counts a write past it up to their end, and one further
# faults). Exit 0 when built; 1, saying why, when not.
#   bash tests/pairs-cpu/build.sh PAIRS.cuh TRANSPOSE.cu DIR
set -u
src=${1:?usage: build.sh PAIRS.cuh TRANSPOSE.cu DIR} kernel=${2:?} dir=${3:?}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$dir" && mkdir -p "$dir" || exit 1
# block_of: from its template line to the function's closing brace; bands and band_grid alike
for start in '^template <int TR, int H>$' '^static long bands = '; do
    awk -v start="$start" '$0 ~ start { p = 1 } p { print } p && /^}/ { exit }' "$kernel"
done >"$dir/order.h"
[ "$(grep -c '^}' "$dir/order.h")" = 2 ] || { echo "no block_of or band_grid found in $kernel"; exit 1; }
sed -E -e 's/^([ \t]*)__shared__ float tile\[T \* S\];/\1float *tile = emu_tile;/' \
    -e 's/pairs_kernel<<<([^,]+), (dim3\([^)]*\))>>>\((.*)\);/tk_emu_launch(\1, \2, [\&] { pairs_kernel(\3); });/' \
    "$src" >"$dir/pairs-host.h" || exit 1
[ "$(grep -c 'emu_tile;' "$dir/pairs-host.h")" = 1 ] || { echo "the shared tile of $src was not rewritten"; exit 1; }
sed -i 's/^\([ \t]*\)float \*tile = emu_tile;/&\n\1static_assert(T * S == TILE_FLOATS, "pairs-cpu.cpp: emu_tile is not the kernel'"'"'s tile");/' "$dir/pairs-host.h"
[ "$(grep -c '<<<' "$src")" = "$(grep -c 'tk_emu_launch(' "$dir/pairs-host.h")" ] ||
    { echo "not every launch of $src was rewritten"; exit 1; }
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
echo 'int main() { return 0; }' >"$dir/probe.cpp"
"${CXX:-g++}" $san "$dir/probe.cpp" -o "$dir/probe" 2>/dev/null && "$dir/probe" || san=""
[ -n "$san" ] || echo "pairs-cpu: built without AddressSanitizer (the compiler has none here)"
"${CXX:-g++}" -std=c++17 -O1 -g -Wall -Wextra -Werror -Wno-unknown-pragmas -Wno-unused-parameter \
    $san ${CXXFLAGS:-} -I"$dir" -I"$here" -I"$here/../cpu-emu" "$here/pairs-cpu.cpp" -o "$dir/pairs-cpu"
