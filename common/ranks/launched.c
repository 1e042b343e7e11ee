/* Launcher mode's bootstrap (steps 8-10, --id-file or TK_ID_FILE): whether
   this process is one of the ranks a launcher (srun, mpirun) started and which, rank 0's lines
   before the rows and CPU+OMP row, another rank's own rows of the input, and each rank joining
   NCCL's communicator on its own GPU, the id handed through the id file. The environment and
   the id file themselves are launch.c's (plain C, launch.h). See ranks.h. C11 calling the
   CUDA runtime's and NCCL's C APIs. */
#define _DEFAULT_SOURCE   /* setenv */
#include "state.h"

#include <stdlib.h>

/* Launcher mode's counterpart of tk_ranks_fork_ranks, in this process: rank 0 makes NCCL's
   unique id and hands it to the others through the id file; each rank joins on its own GPU. */
static void join_ranks(struct tk_ranks *rk, size_t n)
{
    struct tk_ranks_state *h = rk->h;
    ncclUniqueId id;
    char err[1024];
    int p = rk->rank;
    CUDA_CHECK(cudaSetDevice(h->core.dev));
    if (p == 0) {
        NCCL_CHECK(ncclGetUniqueId(&id));
        if (tk_id_write(h->id_file, &id, sizeof id, rk->ranks, h->launch.token, err,
                        sizeof err)) {
            fprintf(stderr, "rank 0: %s\n", err);
            exit(TK_EXIT_CUDA);
        }
    } else if (tk_id_read(h->id_file, &id, sizeof id, rk->ranks, h->launch.token,
                          h->launch.timeout_s, err, sizeof err)) {
        fprintf(stderr, "rank %d: %s\n", p, err);
        exit(TK_EXIT_CUDA);
    }
    NCCL_CHECK(ncclCommInitRank(&rk->comm, rk->ranks, id, p));
    if (p == 0)   /* every rank has read it: none is in the communicator without it */
        tk_id_remove(h->id_file);
    tk_ranks_set_up_rank(rk);
    if (p != 0) {   /* its rows are on its GPU; its checks compute the input's values */
        tk_rows_release(h->full_in, n);
        h->full_in = NULL;
    }
}

static const char *env(const char *name)
{
    return getenv(name);
}

/* Whether this process runs in launcher mode (--id-file or TK_ID_FILE), and then who it is:
   a bad environment, or an id file's folder missing, exits 2. In fork mode, a process that a
   launcher started as one of several is refused: each would fork ranks on every GPU. */
int tk_ranks_launched(struct tk_ranks *rk, const char *prog, int want)
{
    struct tk_ranks_state *h = rk->h;
    char err[512];
    const char *from_env = getenv("TK_ID_FILE");
    if (!h->id_file && from_env && *from_env)
        h->id_file = from_env;
    int found = tk_launch_read(&h->launch, env, TK_MAX_RANKS, err, sizeof err);
    if (!h->id_file) {
        if (found == 1 && h->launch.ranks > 1) {
            fprintf(stderr, "%s: this process is rank %d of %d (set by %s: %s), but no id file "
                    "is given: launcher mode needs --id-file PATH (or TK_ID_FILE), on a "
                    "filesystem every rank shares; to fork the ranks here, start one task\n",
                    prog, h->launch.rank, h->launch.ranks, h->launch.launcher, h->launch.vars);
            exit(TK_EXIT_USAGE);
        }
        return 0;
    }
    if (found == 0)
        fprintf(stderr, "%s: launcher mode (--id-file, TK_ID_FILE) needs this process's rank "
                "and the rank count: TK_RANK and TK_RANKS, or the variables of Open MPI's "
                "mpirun, of MPICH's or Intel MPI's mpiexec, or of Slurm's srun%s%s\n", prog,
                err[0] ? "; " : "", err);
    else if (found < 0)
        fprintf(stderr, "%s: launcher mode: %s\n", prog, err);
    else if (want && want != h->launch.ranks)
        fprintf(stderr, "%s: --ranks %d, but the launcher's rank count is %d (set by %s: %s)\n",
                prog, want, h->launch.ranks, h->launch.launcher, h->launch.vars);
    else if (tk_id_prepare(h->id_file, h->launch.rank == 0, err, sizeof err))
        fprintf(stderr, "%s: rank %d: %s\n", prog, h->launch.rank, err);
    else
        return 1;
    exit(TK_EXIT_USAGE);
}

/* Launcher mode: this process is rank h->launch.rank of h->launch.ranks. Rank 0 does what fork
   mode's parent does (the lines before the rows, the CPU+OMP row, here) on the whole input;
   another rank says nothing unless it fails, and holds its own rows of the input only. */
void tk_ranks_begin_launched(struct tk_ranks *rk, const char *step, const char *prog,
                             size_t n, size_t bytes)
{
    struct tk_ranks_state *h = rk->h;
    struct tk_core *c = &h->core;
    char why[256], how[512];
    int count = 0, p = h->launch.rank;
    rk->rank = p;
    c->table.gpus = rk->ranks = h->launch.ranks;
    tk_split(rk->rows, rk->ranks, rk->row0);
    tk_split(rk->cols, rk->ranks, rk->col0);
    if (p == 0)
        tk_core_host_fits(c, prog, bytes);
    const char *problem = tk_ranks_probe(rk, &count, why, sizeof why);
    if (p == 0) {
        tk_ranks_say_run(step, rk, bytes);
        if (h->launch.token[0])
            snprintf(how, sizeof how, ", marked with the run's name %s (%s)", h->launch.token,
                     h->launch.token_from);
        else
            snprintf(how, sizeof how, " (no variable names the run: give each run a path of "
                     "its own)");
        tk_core_say(c, "launcher mode: rank 0 of %d (set by %s: %s); NCCL's id through %s%s\n",
                    rk->ranks, h->launch.launcher, h->launch.vars, h->id_file, how);
        tk_ranks_fill_whole(rk, prog, n, bytes);
        tk_core_header(c);
        if (!c->opt.no_cpu)
            tk_ranks_cpu_row(rk);
        if (problem)
            tk_core_skip_gpu(c, problem);
        snprintf(how, sizeof how, "one process each, started by the launcher, on GPU local "
                 "rank mod the GPUs it sees (rank 0: GPU %d of %d, %s)", c->dev, count, c->device);
        tk_ranks_say_ranks(rk, how);
    } else {
        if (problem) {
            fprintf(stderr, "%s: rank %d of %d: GPU rows skipped: %s\n", prog, p, rk->ranks,
                    problem);
            exit(c->gpu_status ? c->gpu_status : TK_EXIT_NO_GPU);
        }
        h->full_in = tk_rows_reserve(n, (size_t)rk->row0[p] * rk->cols, tk_in_count(rk, p), why,
                                    sizeof why);
        if (!h->full_in) {
            fprintf(stderr, "%s: rank %d: %s\n", prog, p, why);
            exit(TK_EXIT_CUDA);
        }
    }
    setenv("NCCL_NVLS_ENABLE", "0", 0);   /* NVLink multicast off, unless set otherwise */
    join_ranks(rk, n);
}
