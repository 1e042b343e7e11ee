/* Begins and ends a run across GPUs (steps 8-10): tk_ranks_begin and tk_ranks_end (see ranks.h),
   the step's own options (--ranks, --timeline, --id-file) and their usage, and what fork mode
   and launcher mode both use: the GPU probe's questions and the CPU+OMP row in whichever
   process asks them, the run's first line and the line before the rows, the whole input, a
   rank's set-up and tk_ranks_barrier. Fork mode's processes are supervisor.c's, launcher
   mode's bootstrap launched.c's, the rows time.c's; what a run does as on one GPU is the
   core's (core.h). C11 calling the CUDA runtime's and NCCL's C APIs. */
#define _DEFAULT_SOURCE   /* setenv */
#include "state.h"

#include <stdlib.h>
#include <string.h>

static struct tk_ranks_state g;   /* one run a process: rk->h, from tk_ranks_begin on */

void tk_ranks_unfinished(void)
{
    tk_core_unfinished();
}

void tk_nccl_check(ncclResult_t r, const char *what, const char *file, int line)
{
    if (r == ncclSuccess)
        return;
    fprintf(stderr, "%s:%d: %s failed: %s (nccl result %d)\n", file, line, what,
            ncclGetErrorString(r), (int)r);
    exit(TK_EXIT_CUDA);
}

static void usage(FILE *f, const char *prog)
{
    tk_print_usage(f, prog);
    fprintf(f, "\nAcross GPUs (this step), besides the options above:\n"
            "  --ranks P       use GPUs 0 .. P-1, one process each (default: every GPU)\n"
            "  --timeline FILE write when each chunk's work ended on each rank, in the last\n"
            "                  timed run of each row that marks them, as CSV\n"
            "  --id-file PATH  launcher mode: this process is one rank of those a launcher\n"
            "                  (srun, mpirun) started, one a GPU, possibly on several nodes;\n"
            "                  rank 0 hands NCCL's id to the others through PATH, which must be\n"
            "                  on a filesystem every rank shares (TK_ID_FILE=PATH does the same)\n"
            "Launcher mode takes the rank, the rank count and the local rank from TK_RANK,\n"
            "TK_RANKS and TK_LOCAL_RANK, or else from Open MPI's, PMI's or Slurm's variables;\n"
            "each rank uses GPU (local rank mod the GPUs it sees); a rank waits TK_ID_TIMEOUT\n"
            "seconds (default %d) for the id. Without it the ranks are forked on this machine.\n"
            "NCCL_NVLS_ENABLE=0 is set (NVLink multicast off) unless the environment sets it.\n",
            TK_ID_TIMEOUT_DEFAULT);
}

/* Takes --ranks, --timeline and --id-file out of argv (the shared parser knows none). */
static int own_options(struct tk_ranks *rk, int *argc, char **argv, int *ranks, char *err,
                       size_t len)
{
    struct tk_ranks_state *h = rk->h;
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        int takes = !strcmp(a, "--ranks") || !strcmp(a, "--timeline") || !strcmp(a, "--id-file");
        if (!takes) { argv[out++] = argv[i]; continue; }
        if (i + 1 >= *argc) { snprintf(err, len, "%s needs a value", a); return -1; }
        if (!strcmp(a, "--ranks")) {
            char *end;
            long v = strtol(argv[i + 1], &end, 10);
            if (*end || end == argv[i + 1] || v < 1 || v > TK_MAX_RANKS) {
                snprintf(err, len, "--ranks: '%s' is not a whole number from 1 to %d",
                         argv[i + 1], TK_MAX_RANKS);
                return -1;
            }
            *ranks = (int)v;
        } else if (!strcmp(a, "--id-file")) {
            if (!argv[i + 1][0]) { snprintf(err, len, "--id-file needs a path"); return -1; }
            h->id_file = argv[i + 1];
        } else {
            h->timeline = argv[i + 1];
        }
        i++;
    }
    *argc = out;
    argv[out] = NULL;
    return 0;
}

/* The probe's questions, asked in this process: how many GPUs there are, or why none is
   usable; the versions; the name of this process's device: GPU 0 in fork mode, and in launcher
   mode its local rank (its rank where the launcher gives none) modulo the GPUs it sees. */
void tk_ranks_probe_here(struct tk_ranks *rk, struct probe_msg *m)
{
    struct tk_ranks_state *h = rk->h;
    int status;
    const char *p = tk_gpu_problem(&m->count, &status, m->why, sizeof m->why);
    if (p) {
        m->problem = status;
        if (p != m->why) snprintf(m->why, sizeof m->why, "%s", p);
    } else {
        struct cudaDeviceProp prop;
        if (h->id_file)
            h->core.dev = (h->launch.local >= 0 ? h->launch.local : h->launch.rank) % m->count;
        if (cudaGetDeviceProperties(&prop, h->core.dev) == cudaSuccess)
            snprintf(m->device, sizeof m->device, "%s", prop.name);
    }
    cudaRuntimeGetVersion(&m->runtime);
    cudaDriverGetVersion(&m->driver);
}

/* The CPU+OMP row in this process: 0, or -1 where its output cannot be allocated (said). */
int tk_ranks_cpu_row_here(struct tk_ranks *rk)
{
    struct tk_ranks_state *h = rk->h;
    float *out = malloc((size_t)rk->rows * rk->cols * sizeof *out);
    if (!out) { fprintf(stderr, "cannot allocate the CPU row's output\n"); return -1; }
    tk_core_cpu_row(&h->core, h->full_in, out, rk->rows, rk->cols);
    free(out);
    return 0;
}

void tk_ranks_barrier(struct tk_ranks *rk)
{
    struct tk_ranks_state *h = rk->h;
    CUDA_CHECK(cudaStreamSynchronize(h->core.stream));
    NCCL_CHECK(ncclAllReduce(h->core.sink, h->core.sink, 1, ncclInt, ncclSum, rk->comm,
                             h->core.stream));
    CUDA_CHECK(cudaStreamSynchronize(h->core.stream));
}

/* This rank's device, stream, flush buffers and staging, and its rows of the input. */
void tk_ranks_set_up_rank(struct tk_ranks *rk)
{
    struct tk_ranks_state *h = rk->h;
    struct tk_core *c = &h->core;
    int p = rk->rank;
    snprintf(c->who, sizeof c->who, "rank %d", p);
    CUDA_CHECK(cudaStreamCreate(&c->stream));
    tk_core_l2(c);
    tk_core_gpu_buffers(c);
    size_t in = tk_in_count(rk, p) * sizeof(float), out = tk_out_count(rk, p) * sizeof(float);
    rk->d_in = tk_core_alloc(c, in);
    rk->d_send = tk_core_alloc(c, in);
    rk->d_recv = tk_core_alloc(c, out);
    rk->d_out = tk_core_alloc(c, out);
    if (in)
        CUDA_CHECK(cudaMemcpy(rk->d_in, h->full_in + rk->row0[p] * rk->cols, in,
                              cudaMemcpyHostToDevice));
}

/* The run's first line. */
void tk_ranks_say_run(const char *step, const struct tk_ranks *rk, size_t bytes)
{
    struct tk_ranks_state *h = rk->h;
    tk_core_say(&h->core, "transpose-kit %s: %ld x %ld floats (%.1f MiB a matrix) across GPUs, "
                "median of %d timed runs after %d warm-ups\n", step, rk->rows, rk->cols,
                bytes / TK_MIB, h->core.opt.reps, h->core.opt.warmup);
}

/* The line before the rows: how the ranks run (how), and what each holds. */
void tk_ranks_say_ranks(const struct tk_ranks *rk, const char *how)
{
    tk_core_say(&rk->h->core, "ranks: %d, %s; rank p holds input rows p x rows / %d to (p + 1) x "
                "rows / %d - 1\n", rk->ranks, how, rk->ranks, rk->ranks);
}

/* The whole input, filled once here, one thread: in fork mode every rank inherits it, and a
   process that has used OpenMP cannot use it again in a forked child (GNU libgomp). */
void tk_ranks_fill_whole(struct tk_ranks *rk, const char *prog, size_t n, size_t bytes)
{
    struct tk_ranks_state *h = rk->h;
    h->full_in = malloc(bytes);
    if (!h->full_in) {
        fprintf(stderr, "%s: cannot allocate the host matrix (%.1f GiB)\n", prog,
                bytes / (TK_MIB * 1024));
        exit(TK_EXIT_CUDA);
    }
    for (size_t i = 0; i < n; i++)
        h->full_in[i] = tk_value(i);
}

void tk_ranks_begin(struct tk_ranks *rk, const char *step, const char *row, tk_local_fn local,
                    int argc, char **argv)
{
    struct tk_core *c = &g.core;
    char err[256], why[256], how[384];
    int want = 0, count = 0;
    memset(rk, 0, sizeof *rk);
    memset(&g, 0, sizeof g);
    rk->h = &g;
    g.local = local;
    c->flush = 1;   /* the parent, the CPU row's process and the ranks share stdout */
    c->table.across = 1;
    if (own_options(rk, &argc, argv, &want, err, sizeof err) < 0)
        tk_core_refuse(argv[0], err, usage);
    tk_core_options(c, step, row, usage, argc, argv);
    tk_core_check_sides(c, step, usage, argv[0]);
    if (c->opt.device != 0) {
        fprintf(stderr, "%s: --device: this step uses GPUs 0 to P-1 (choose them with "
                "CUDA_VISIBLE_DEVICES)\n", argv[0]);
        exit(TK_EXIT_USAGE);
    }
    if (c->opt.shapes) {
        fprintf(stderr, "%s: --shapes runs shapes one after another on one GPU; a step across "
                "GPUs takes one shape a run (--rows and --cols)\n", argv[0]);
        exit(TK_EXIT_USAGE);
    }
    rk->rows = c->opt.rows, rk->cols = c->opt.cols;
    size_t n = (size_t)rk->rows * rk->cols, bytes = n * sizeof(float);
    if (tk_ranks_launched(rk, argv[0], want)) {
        tk_ranks_begin_launched(rk, step, argv[0], n, bytes);
        return;
    }
    tk_core_host_fits(c, argv[0], bytes);

    const char *problem = tk_ranks_probe(rk, &count, why, sizeof why);
    tk_ranks_say_run(step, rk, bytes);
    tk_ranks_fill_whole(rk, argv[0], n, bytes);
    c->table.gpus = rk->ranks = want ? want : count;   /* for the CSV; checked below */
    tk_core_header(c);
    if (!c->opt.no_cpu)
        tk_ranks_cpu_row(rk);
    if (!problem && want > count) {
        snprintf(why, sizeof why, "--ranks %d: this machine has %d GPU%s", want, count,
                 count == 1 ? "" : "s");
        problem = why;
    } else if (!problem && count < 2 && want != 1) {
        snprintf(why, sizeof why, "%s works across GPUs and needs at least 2, one a rank; "
                 "this machine has %d (--ranks 1 runs it on one)", step, count);
        problem = why;
    }
    if (problem)
        tk_core_skip_gpu(c, problem);
    c->table.gpus = rk->ranks = want ? want : (count < TK_MAX_RANKS ? count : TK_MAX_RANKS);
    tk_split(rk->rows, rk->ranks, rk->row0);
    tk_split(rk->cols, rk->ranks, rk->col0);
    setenv("NCCL_NVLS_ENABLE", "0", 0);   /* NVLink multicast off, unless set otherwise */
    snprintf(how, sizeof how, "one process on each of GPUs 0 to %d (%s)", rk->ranks - 1, c->device);
    tk_ranks_say_ranks(rk, how);
    tk_ranks_fork_ranks(rk);
}

int tk_ranks_end(struct tk_ranks *rk)
{
    struct tk_ranks_state *h = rk->h;
    tk_ranks_barrier(rk);
    if (rk->rank == 0 && tk_todo_open())
        tk_core_say_unfinished(&h->core, "");
    if (tk_todo_open() && !h->core.status)
        h->core.status = TK_EXIT_TODO;
    cudaFree(rk->d_in);
    cudaFree(rk->d_send);
    cudaFree(rk->d_recv);
    tk_ranks_window_end(rk);   /* d_out, where it lies in the window */
    cudaFree(rk->d_out);
    tk_core_release(&h->core);
    ncclCommDestroy(rk->comm);
    free(h->full_in);
    fflush(NULL);
    return h->core.status;
}
