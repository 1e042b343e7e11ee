#!/usr/bin/env bash
# The body of the kit's cluster jobs (scripts/cluster/slurm.sbatch, scripts/cluster/pbs.pbs):
# builds the kit on a GPU node and runs one step or all of them, writing the results table.
# Settings come from the environment, so nobody edits the script:
#   STEP=all       all one-GPU solution steps through scripts/results/results.sh (table, CSV, chart);
#   STEP=3         solution step 3 alone; STEP=mywork a student's folder (./transpose there);
#   STEP=8         step 8 across GPUs (9 and 10 likewise), one process a GPU. A job of one
#                  task (the scripts' default): the harness forks its ranks over every GPU
#                  of the node (ask for several: sbatch --gres=gpu:4 ...). A Slurm job of several tasks (sbatch
#                  --ntasks=8 --ntasks-per-node=4 --gres=gpu:4 ..., on one node or more): srun
#                  starts one rank a task, in launcher mode (common/README.md)
#   LAUNCHER=""    the command that starts the ranks of a step across GPUs in launcher mode,
#                  one process a GPU, e.g. LAUNCHER="mpirun -np 8" under PBS; under Slurm with several tasks it
#                  is srun --ntasks=$SLURM_NTASKS; NCCL's id then goes through a file in
#                  KIT_DIR, which every node must share
#   KILL_ON_BAD_EXIT=""  whether that srun stops every rank once one fails. Unset: srun is
#                  given no --kill-on-bad-exit, so Slurm's KillOnBadExit decides (0 unless the
#                  site changed it): each rank ends on its own, with its own message, and srun
#                  returns the highest of their statuses, the kit's. 1: srun --kill-on-bad-exit=1
#                  ends the others with SIGTERM, so srun returns 143 and rank 0's table may be
#                  cut short. 0: srun --kill-on-bad-exit=0, for a site whose KillOnBadExit is 1
#   SIZE=8192      the matrix size (N x N)
#   MODULES=""     modules to load first, e.g. MODULES="cuda/13.0 gcc"; none by default,
#                  since module names differ from site to site
#   KIT_DIR        the kit's folder: the one slurm.sbatch or pbs.pbs found (their comments say
#                  how); run by hand, the kit this script lies in
#   OMP_NUM_THREADS  threads of the CPU+OMP row (default: the cores given to the job)
# Exit status, the one the scheduler records: the step's own (0 every row exact, 1 an output
# wrong, 3 no usable GPU, 4 a CUDA call failed, 5 TODOs left, 6 a driver older than the
# build's CUDA: common/README.md), for ranks
# started by srun the highest of theirs (128+N: a rank ended by signal N); 2 a setting is
# wrong or KIT_DIR holds no kit; 4 the build failed. The last line says which, in words.
# scripts/cluster/job.sh --dry-run prints the plan and runs nothing; it needs no scheduler.
set -u
. "$(dirname "$0")/../lib/lib.sh"
dry=0
for a in "$@"; do
    case $a in
        -h|--help) usage; exit 0 ;;
        --dry-run) dry=1 ;;
        *) refuse "unknown argument '$a' (settings come from the environment)" ;;
    esac
done

# The kit: KIT_DIR when set (the job scripts set it to the kit they found), else the kit this
# script lies in. A KIT_DIR that holds no kit is refused rather than passed over: a typo must
# not run another copy of the kit.
if [ -n "${KIT_DIR:-}" ]; then
    if [ ! -f "$KIT_DIR/scripts/cluster/job.sh" ] || [ ! -d "$KIT_DIR/common" ]; then
        echo "job: KIT_DIR=$KIT_DIR holds no kit (no scripts/cluster/job.sh there): set KIT_DIR to the kit's folder" >&2
        exit 2
    fi
    KIT_DIR=$(cd "$KIT_DIR" && pwd)
else
    KIT_DIR=$(cd "$(dirname "$0")/../.." && pwd)
fi
STEP=${STEP:-all}
SIZE=${SIZE:-8192}
MODULES=${MODULES:-}
KILL_ON_BAD_EXIT=${KILL_ON_BAD_EXIT:-}
# Slurm's cores a task, PBS Pro's ncpus, Torque's ppn; else every core this process may use.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-${SLURM_CPUS_PER_TASK:-${NCPUS:-${PBS_NUM_PPN:-$(nproc)}}}}
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}   # steps 8-10: NVLink multicast off unless asked

[[ $SIZE =~ ^[1-9][0-9]*$ ]] || { echo "job: SIZE must be a whole number, not '$SIZE'" >&2; exit 2; }
case $KILL_ON_BAD_EXIT in
    ""|0|1) ;;
    *) echo "job: KILL_ON_BAD_EXIT is 0, 1 or unset, not '$KILL_ON_BAD_EXIT'" >&2; exit 2 ;;
esac
# prog: the kit's program the job runs (with STEP=all, the first of those results.sh runs,
# whose statuses it passes on); its --help gives the words of each exit status.
case $STEP in
    all) run=(scripts/results/results.sh -n "$SIZE") prog=solution/step1/transpose ;;
    [0-9]*) [ -d "$KIT_DIR/solution/step$STEP" ] || { echo "job: no solution/step$STEP in $KIT_DIR" >&2; exit 2; }
            run=("solution/step$STEP/transpose" -n "$SIZE") prog=${run[0]} ;;
    *) [ -f "$KIT_DIR/$STEP/transpose.cu" ] || { echo "job: no $STEP/transpose.cu in $KIT_DIR" >&2; exit 2; }
       run=("$STEP/transpose" -n "$SIZE") prog=${run[0]} ;;
esac
# Steps 8 to 10 across nodes: ranks a launcher starts, NCCL's id through a file every node can read.
across=" $("$KIT_DIR/scripts/lib/steps.sh" --across | tr '\n' ' ') "
LAUNCHER=${LAUNCHER:-}
if [ -z "$LAUNCHER" ] && [[ $STEP =~ ^[0-9]+$ ]] && [[ $across == *" $STEP "* ]] &&
   [[ ${SLURM_NTASKS:-1} =~ ^[0-9]+$ ]] && [ "${SLURM_NTASKS:-1}" -gt 1 ]; then
    # No --kill-on-bad-exit unless KILL_ON_BAD_EXIT asks: killed ranks report 143 (SIGTERM),
    # which srun returns in place of the status of the rank that failed, and rank 0 may be
    # killed before its table is out. A rank whose peer failed still ends: waiting for NCCL's
    # id it gives up after TK_ID_TIMEOUT seconds (exit 4), and the job's --time bounds the rest.
    LAUNCHER="srun${KILL_ON_BAD_EXIT:+ --kill-on-bad-exit=$KILL_ON_BAD_EXIT} --ntasks=$SLURM_NTASKS"
    # srun takes no --cpus-per-task from the job since Slurm 22.05: passed on.
    LAUNCHER+="${SLURM_CPUS_PER_TASK:+ --cpus-per-task=$SLURM_CPUS_PER_TASK}"
fi
if [ -n "$LAUNCHER" ]; then
    [ "$STEP" != all ] || { echo "job: LAUNCHER starts the ranks of one step across GPUs: set STEP too (STEP=8)" >&2; exit 2; }
    # shellcheck disable=SC2206  # LAUNCHER is a command line, split into its words
    run=($LAUNCHER "${run[@]}" --id-file "$KIT_DIR/.nccl-id.${SLURM_JOB_ID:-${PBS_JOBID:-$$}}")
fi
build=(make -C "$KIT_DIR")
[ "$STEP" != all ] && [[ ! $STEP =~ ^[0-9]+$ ]] && build=(make -C "$KIT_DIR/$STEP")

echo "job plan:"
echo "  kit:      $KIT_DIR"
[ -n "$MODULES" ] && echo "  modules:  module load $MODULES"
echo "  build:    ${build[*]}"
echo "  run:      (cd $KIT_DIR && ${run[*]})   with OMP_NUM_THREADS=$OMP_NUM_THREADS"
[ "$dry" = 1 ] && { echo "(dry run: nothing was run)"; exit 0; }

if [ -n "$MODULES" ]; then
    command -v module >/dev/null || { echo "job: MODULES is set but 'module' is not available" >&2; exit 2; }
    # shellcheck disable=SC2086  # MODULES is a list of module names
    module load $MODULES || exit 2
fi
host=$(hostname)
echo "job: on $host"
# The GPUs the driver sees; a node without NVIDIA's driver has no nvidia-smi either. Either
# way the step finds out for itself and says so (exit 3); this is only the first word.
if command -v nvidia-smi >/dev/null; then
    nvidia-smi -L || echo "job: nvidia-smi lists no GPU on $host"
else
    echo "job: no nvidia-smi on $host, so no NVIDIA driver: expect the step to find no GPU"
fi
"$KIT_DIR/scripts/check-tools.sh" || exit 2
"${build[@]}" || { echo "job: the build failed (above): exit 4" >&2; exit 4; }
cd "$KIT_DIR" || exit 2
"${run[@]}"
rc=$?
case $rc in
    127) why="the command was not found" ;;
    143) why="a process was ended by SIGTERM (srun --kill-on-bad-exit=1 after another rank failed, or the job's time limit)" ;;
    137) why="a process was killed by SIGKILL (out of memory, or the time limit's last word)" ;;
    # The kit's own statuses in the words of its one table (./transpose --help prints it).
    *) why=$("$prog" --help 2>/dev/null | sed -n "/^Exit status:/,\$s/^  $rc  //p")
       if [ -n "$why" ]; then :
       elif [ "$rc" -gt 128 ]; then why="a process was ended by signal $((rc - 128))"
       else why="see the messages above"; fi ;;
esac
echo "job: ${run[0]} exited $rc: $why"
exit "$rc"
