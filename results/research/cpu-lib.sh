# What the research folders' cpu.sh share (sourced, bash): cpu_runs DIR NAME... runs step 7's
# panels of each NAME (solution: DIR/solution/step7/panels.cuh; else DIR/v/NAME/panels.cuh, as
# ../variants.sh lays them out) on the CPU by tests/panels-cpu, built plain and with ASan and
# UBSan, at 400 panel shapes of each of three seeds; each run's lines and its exit status.
cpu_runs() {
    local dir=$1 kit v src build flags seed; shift
    kit=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    for v in "$@"; do
        src=$dir/v/$v/panels.cuh; [ "$v" = solution ] && src=$dir/solution/step7/panels.cuh
        for build in plain sanitized; do
            flags=""; [ $build = sanitized ] && flags="-fsanitize=address,undefined -fno-sanitize-recover=all -g"
            CXXFLAGS=$flags bash "$kit/tests/panels-cpu/build.sh" "$src" "$dir/$v-$build" || return 1
            echo "== $v, $build${flags:+ ($flags)}"
            for seed in 20261127 1 777; do "$dir/$v-$build/panels-cpu" $seed 400 2>&1; echo "exit $?"; done
        done
    done
}
