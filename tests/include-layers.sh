#!/usr/bin/env bash
# include-layers.sh DIR: checks that the harness's files in DIR (a kit's common/, with ranks/
# below it) depend on each other in layers: a file's module is its path without .c, .cu or
# .h (core.c and core.h are the module core; ranks/begin.c is ranks/begin), and without
# _state: X_state.h, what lies behind X's opaque struct, is X's own; module A depends on
# module B when a file of A includes B's header. Passes (exit 0, silent) when no
# module depends on itself through others (no circle) and no file at DIR's top includes a
# header of ranks/ (the one-GPU harness stands without the one across GPUs); otherwise prints
# each circle or such include and exits 1. The same holds file by file: no header includes
# itself through others, even within one module. Exit 2 on a bad command line or a DIR
# that holds no .c, .cu or .h file.
# A quoted include is looked for beside the including file, then in DIR, then in DIR/ranks,
# as the build's -I flags do; angle-bracket includes are the system's and are not followed.
set -u
[ $# = 1 ] && [ -d "$1" ] || { echo "usage: tests/include-layers.sh COMMON_DIR" >&2; exit 2; }
dir=${1%/}
bad=0
edges=$(mktemp) || exit 2
files=$(mktemp) || exit 2
trap 'rm -f "$edges" "$files"' EXIT
# module FILE: FILE's module, FILE given relative to DIR.
module() { local m=${1%.c}; m=${m%.cu}; m=${m%.h}; echo "${m%_state}"; }

seen=0
for f in "$dir"/*.[ch] "$dir"/*.cu "$dir"/ranks/*.[ch] "$dir"/ranks/*.cu; do
    [ -f "$f" ] || continue
    seen=$((seen + 1))
    file=$(realpath -m --relative-to="$dir" "$f")
    from=$(module "$file")
    while IFS= read -r inc; do
        found=''
        for base in "$(dirname "$f")" "$dir" "$dir/ranks"; do
            [ -f "$base/$inc" ] && { found=$(realpath -m --relative-to="$dir" "$base/$inc"); break; }
        done
        [ -n "$found" ] || continue   # not the kit's (a toolkit's header such as nccl.h)
        to=$(module "$found")
        echo "$file $found" >>"$files"
        [ "$to" = "$from" ] && continue
        echo "$from $to" >>"$edges"
        if [[ $from != ranks/* && $to == ranks/* ]]; then
            echo "$f includes $inc: the one-GPU harness must not need the one across GPUs"
            bad=1
        fi
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done
[ "$seen" -gt 0 ] || { echo "include-layers: $dir holds no .c, .cu or .h file" >&2; exit 2; }
# tsort names the members of each circle it meets on stderr.
circle() {   # circle EDGES WHAT: says so and fails where EDGES (pairs) hold a circle
    local out
    if ! out=$(sort -u "$1" | tsort 2>&1 >/dev/null) || [ -n "$out" ]; then
        echo "a circle among the harness's $2 (each depends on the next):"
        echo "$out" | sed -n 's/^tsort: //p' | grep -v 'input contains a loop'
        return 1
    fi
}
circle "$edges" modules || bad=1
circle "$files" files || bad=1
exit "$bad"
