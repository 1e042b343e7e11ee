/* The harness's front end across GPUs (step 8), its processes: see ranks.h. Its own options
   (--ranks, --timeline, --id-file), the GPU probe and the CPU+OMP row each in a child process,
   then one process a rank, joined by NCCL and supervised (fork mode); or, in launcher mode,
   this process as one rank of those a launcher started (launch.h). The rows each rank times
   are time.c's; what a run does as on one GPU is the core's (core.h). C11 calling the
   CUDA runtime's and NCCL's C APIs. */
#define _DEFAULT_SOURCE   /* setenv, kill */
#include "launch.h"
#include "state.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct tk_ranks_state g;   /* one run a process: rk->h, from tk_ranks_begin on */

void tk_ranks_unfinished(void)
{
    tk_unfinished();
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

/* What the probe finds. */
struct probe_msg { int count, problem, runtime, driver; char why[256], device[256]; };

/* The probe's questions, asked in this process: how many GPUs there are, or why none is
   usable; the versions; the name of this process's device: GPU 0 in fork mode, and in launcher
   mode its local rank (its rank where the launcher gives none) modulo the GPUs it sees. */
static void probe_here(struct tk_ranks *rk, struct probe_msg *m)
{
    struct tk_ranks_state *h = rk->h;
    const char *p = tk_gpu_problem(&m->count, m->why, sizeof m->why);
    if (p) {
        m->problem = 1;
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

/* How many GPUs there are, or why none is usable, asked in a child process: a process that
   has touched CUDA cannot fork ranks that use it. In launcher mode, where nothing is forked,
   asked here. */
static const char *probe(struct tk_ranks *rk, int *count, char *why, size_t len)
{
    struct tk_ranks_state *h = rk->h;
    int fd[2];
    struct probe_msg msg;
    memset(&msg, 0, sizeof msg);
    if (h->id_file) {
        probe_here(rk, &msg);
    } else {
        if (pipe(fd)) { snprintf(why, len, "pipe failed"); return why; }
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            close(fd[0]);
            probe_here(rk, &msg);
            _exit(write(fd[1], &msg, sizeof msg) == (ssize_t)sizeof msg ? 0 : 1);
        }
        close(fd[1]);
        ssize_t got = pid > 0 ? read(fd[0], &msg, sizeof msg) : -1;
        close(fd[0]);
        if (pid > 0) waitpid(pid, NULL, 0);
        if (got != (ssize_t)sizeof msg) { snprintf(why, len, "the GPU probe failed"); return why; }
    }
    *count = msg.count;
    h->core.table.runtime_version = msg.runtime;
    h->core.table.driver_version = msg.driver;
    snprintf(h->core.device, sizeof h->core.device, "%s", msg.device);
    if (h->core.device[0])
        h->core.table.device = h->core.device;
    if (!msg.problem) return NULL;
    snprintf(why, len, "%s", msg.why);
    return why;
}

/* The parent: waits for the ranks; when one fails, the others may wait for it forever in
   NCCL, so they are stopped. Exits with the worst status. */
static void wait_for_ranks(const pid_t *pid, int ranks)
{
    int worst = TK_EXIT_OK, left = ranks, stopped = 0;
    while (left > 0) {
        int st;
        pid_t done = wait(&st);
        if (done < 0) break;
        left--;
        int r = 0;
        while (r < ranks && pid[r] != done) r++;
        int code = WIFEXITED(st) ? WEXITSTATUS(st) : TK_EXIT_CUDA;
        if (code != TK_EXIT_OK && code != TK_EXIT_WRONG && code != TK_EXIT_TODO) {
            if (!stopped)
                fprintf(stderr, "rank %d failed (%s %d): stopping the other ranks\n", r,
                        WIFEXITED(st) ? "exit status" : "signal",
                        WIFEXITED(st) ? code : WTERMSIG(st));
            for (int k = 0; k < ranks && !stopped; k++)
                if (k != r) kill(pid[k], SIGTERM);
            stopped = 1;
            code = TK_EXIT_CUDA;
        } else if (code == TK_EXIT_WRONG) {
            fprintf(stderr, "rank %d: its output was wrong (above)\n", r);
        }
        /* 4 above 1 above 5 above 0. */
        int rank_of[] = { [TK_EXIT_OK] = 0, [TK_EXIT_TODO] = 1, [TK_EXIT_WRONG] = 2, [TK_EXIT_CUDA] = 3 };
        if (code < TK_EXIT_COUNT && code != TK_EXIT_USAGE && code != TK_EXIT_NO_GPU &&
            rank_of[code] > rank_of[worst])
            worst = code;
    }
    exit(worst);
}

/* The CPU+OMP row in this process: 0, or -1 where its output cannot be allocated (said). */
static int cpu_row_here(struct tk_ranks *rk)
{
    struct tk_ranks_state *h = rk->h;
    float *out = malloc((size_t)rk->rows * rk->cols * sizeof *out);
    if (!out) { fprintf(stderr, "cannot allocate the CPU row's output\n"); return -1; }
    tk_core_cpu_row(&h->core, h->full_in, out, rk->rows, rk->cols);
    free(out);
    return 0;
}

/* The CPU+OMP row, in a child process of its own (which may use OpenMP); in launcher mode,
   where nothing is forked after it, in this process. */
static void cpu_row(struct tk_ranks *rk)
{
    struct tk_ranks_state *h = rk->h;
    if (h->id_file) {
        if (cpu_row_here(rk) < 0) exit(TK_EXIT_CUDA);
        return;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        if (cpu_row_here(rk) < 0) _exit(TK_EXIT_CUDA);
        fflush(NULL);
        _exit(h->core.status);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        h->core.status = pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == TK_EXIT_WRONG
                        ? TK_EXIT_WRONG : TK_EXIT_CUDA;
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
static void set_up_rank(struct tk_ranks *rk)
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

/* One process a rank. Rank 0 makes NCCL's unique id and hands it to the others through a
   pipe: a read of that size is whole. Returns in each rank, set up; the parent waits. */
static void fork_ranks(struct tk_ranks *rk)
{
    int fd[2];
    pid_t pid[TK_MAX_RANKS];
    if (pipe(fd)) { perror("pipe"); exit(TK_EXIT_CUDA); }
    fflush(NULL);
    for (int p = 0; p < rk->ranks; p++) {
        pid[p] = fork();
        if (pid[p] < 0) { perror("fork"); exit(TK_EXIT_CUDA); }
        if (pid[p] == 0) {
            ncclUniqueId id;
            rk->rank = p;
            if (p == 0) {
                close(fd[0]);
                NCCL_CHECK(ncclGetUniqueId(&id));
                for (int k = 1; k < rk->ranks; k++)
                    if (write(fd[1], &id, sizeof id) != (ssize_t)sizeof id) {
                        perror("rank 0: write"); exit(TK_EXIT_CUDA);
                    }
                close(fd[1]);
            } else {
                close(fd[1]);
                if (read(fd[0], &id, sizeof id) != (ssize_t)sizeof id) {
                    fprintf(stderr, "rank %d: no NCCL id from rank 0\n", p); exit(TK_EXIT_CUDA);
                }
                close(fd[0]);
            }
            rk->h->core.dev = p;
            CUDA_CHECK(cudaSetDevice(p));
            NCCL_CHECK(ncclCommInitRank(&rk->comm, rk->ranks, id, p));
            set_up_rank(rk);
            return;
        }
    }
    close(fd[0]);
    close(fd[1]);
    wait_for_ranks(pid, rk->ranks);
}

/* Launcher mode's counterpart of fork_ranks, in this process: rank 0 makes NCCL's unique id
   and hands it to the others through the id file; each rank joins on its own GPU. */
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
    set_up_rank(rk);
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
static int launched(struct tk_ranks *rk, const char *prog, int want)
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

/* The run's first line. */
static void say_run(const char *step, const struct tk_ranks *rk, size_t bytes)
{
    struct tk_ranks_state *h = rk->h;
    tk_core_say(&h->core, "transpose-kit %s: %d x %d floats (%.1f MiB a matrix) across GPUs, "
                "median of %d timed runs after %d warm-ups\n", step, rk->rows, rk->cols,
                bytes / TK_MIB, h->core.opt.reps, h->core.opt.warmup);
}

/* The line before the rows: how the ranks run (how), and what each holds. */
static void say_ranks(const struct tk_ranks *rk, const char *how)
{
    tk_core_say(&rk->h->core, "ranks: %d, %s; rank p holds input rows p x rows / %d to (p + 1) x "
                "rows / %d - 1\n", rk->ranks, how, rk->ranks, rk->ranks);
}

/* The whole input, filled once here, one thread: in fork mode every rank inherits it, and a
   process that has used OpenMP cannot use it again in a forked child (GNU libgomp). */
static void fill_whole(struct tk_ranks *rk, const char *prog, size_t n, size_t bytes)
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

/* Launcher mode: this process is rank launch.rank of launch.ranks. Rank 0 does what fork
   mode's parent does (the lines before the rows, the CPU+OMP row, here) on the whole input;
   another rank says nothing unless it fails, and holds its own rows of the input only. */
static void begin_launched(struct tk_ranks *rk, const char *step, const char *prog, size_t n,
                           size_t bytes)
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
    const char *problem = probe(rk, &count, why, sizeof why);
    if (p == 0) {
        say_run(step, rk, bytes);
        if (h->launch.token[0])
            snprintf(how, sizeof how, ", marked with the run's name %s (%s)", h->launch.token,
                     h->launch.token_from);
        else
            snprintf(how, sizeof how, " (no variable names the run: give each run a path of "
                     "its own)");
        tk_core_say(c, "launcher mode: rank 0 of %d (set by %s: %s); NCCL's id through %s%s\n",
                    rk->ranks, h->launch.launcher, h->launch.vars, h->id_file, how);
        fill_whole(rk, prog, n, bytes);
        tk_core_header(c);
        if (!c->opt.no_cpu)
            cpu_row(rk);
        if (problem)
            tk_core_skip_gpu(c, problem);
        snprintf(how, sizeof how, "one process each, started by the launcher, on GPU local "
                 "rank mod the GPUs it sees (rank 0: GPU %d of %d, %s)", c->dev, count, c->device);
        say_ranks(rk, how);
    } else {
        if (problem) {
            fprintf(stderr, "%s: rank %d of %d: GPU rows skipped: %s\n", prog, p, rk->ranks,
                    problem);
            exit(TK_EXIT_NO_GPU);
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
    rk->rows = (int)c->opt.rows, rk->cols = (int)c->opt.cols;
    size_t n = (size_t)rk->rows * rk->cols, bytes = n * sizeof(float);
    if (launched(rk, argv[0], want)) {
        begin_launched(rk, step, argv[0], n, bytes);
        return;
    }
    tk_core_host_fits(c, argv[0], bytes);

    const char *problem = probe(rk, &count, why, sizeof why);
    say_run(step, rk, bytes);
    fill_whole(rk, argv[0], n, bytes);
    c->table.gpus = rk->ranks = want ? want : count;   /* for the CSV; checked below */
    tk_core_header(c);
    if (!c->opt.no_cpu)
        cpu_row(rk);
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
    say_ranks(rk, how);
    fork_ranks(rk);
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
