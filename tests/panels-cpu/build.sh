#!/bin/bash
# Builds DIR/panels-cpu from PANELS.cuh (step 7's panels.cuh or a variant of it): its kernel
# launches rewritten as calls of panels-cpu.cpp's tk_emu_launch (DIR/panels-host.h), then the
# host's C++ compiler (CXX, else g++; CXXFLAGS added, e.g. a sanitizer's). Exit 0 when built; 1,
# saying why, when not. Used by tests/test_2_unit.sh and the research folders' cpu.sh.
#   bash tests/panels-cpu/build.sh PANELS.cuh DIR
set -u
src=${1:?usage: build.sh PANELS.cuh DIR} dir=${2:?usage: build.sh PANELS.cuh DIR}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$dir" && mkdir -p "$dir" || exit 1
sed -E 's/([A-Za-z_]+<[0-9]+>)<<<([^,]+), ([^,]+), ([^,]+), [^>]*>>>\((.*)\);/tk_emu_launch(\2, \3, \4, [\&] { \1(\5); });/' \
    "$src" >"$dir/panels-host.h" || exit 1
if [ "$(grep -c '<<<' "$src")" != "$(grep -c 'tk_emu_launch(' "$dir/panels-host.h")" ]; then
    echo "not every launch of $src was rewritten"; exit 1
fi
"${CXX:-g++}" -std=c++17 -O2 -Wall -Wextra -Werror -Wno-unknown-pragmas -Wno-unused-parameter \
    ${CXXFLAGS:-} -I"$dir" -I"$here" -I"$here/../cpu-emu" "$here/panels-cpu.cpp" -o "$dir/panels-cpu"
