/* The harness across GPUs (step 8): see ranks.h. C11 calling the CUDA runtime's and NCCL's
   C APIs; the kernels live in the step's .cu (and flush.cu). */
#define _DEFAULT_SOURCE   /* sysconf, setenv, kill */
#include "ranks.h"
#include "bench.h"
#include "explain.h"
#include "matrix.h"
#include "report.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MIB (1024.0 * 1024.0)
#define MAX_MARKS 512
/* Each buffer's poison, NaNs no input value has: an output element holding one of them was
   never written (out), or came from a receive buffer no exchange had filled (recv), or from a
   send buffer no pack had filled (send). */
#define POISON_RECV 0x7FA0DEADu
#define POISON_SEND 0x7FB0BEEFu

struct tk_ranks_state {
    struct tk_options opt;
    const char *step, *row;     /* the step, and the row --describe names */
    tk_local_fn local;
    const char *timeline;       /* --timeline FILE, or NULL */
    float *full_in;             /* the whole input, filled before the fork (shared, read-only) */
    cudaStream_t stream;
    void *scratch;
    size_t scratch_bytes;
    int *sink, persisting_l2;
    double nccl_ms;             /* the NCCL row's median, once timed */
    int ceilings_done, status;
    char device[256];
    int runtime_version, driver_version;
    int marking, nmarks;        /* --timeline: the marks of the run being timed */
    cudaEvent_t start;
    struct { cudaEvent_t ev; const char *what; int k; } marks[MAX_MARKS];
};

static struct tk_ranks_state g;
static int g_unfinished;

void tk_ranks_unfinished(void)
{
    g_unfinished = 1;
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
            "NCCL_NVLS_ENABLE=0 is set (NVLink multicast off) unless the environment sets it.\n");
}

/* Takes --ranks and --timeline out of argv (the shared parser knows neither). */
static int own_options(int *argc, char **argv, int *ranks, char *err, size_t len)
{
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        int takes = !strcmp(a, "--ranks") || !strcmp(a, "--timeline");
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
        } else {
            g.timeline = argv[i + 1];
        }
        i++;
    }
    *argc = out;
    argv[out] = NULL;
    return 0;
}

/* How many GPUs there are, or why none is usable, asked in a child process: a process that
   has touched CUDA cannot fork ranks that use it. */
static const char *probe(int *count, char *why, size_t len)
{
    int fd[2];
    struct { int count, problem, runtime, driver; char why[256], device[256]; } msg;
    memset(&msg, 0, sizeof msg);
    if (pipe(fd)) { snprintf(why, len, "pipe failed"); return why; }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        const char *p = tk_gpu_problem(&msg.count, msg.why, sizeof msg.why);
        if (p) { msg.problem = 1; snprintf(msg.why, sizeof msg.why, "%s", p); }
        else {
            struct cudaDeviceProp prop;
            if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
                snprintf(msg.device, sizeof msg.device, "%s", prop.name);
        }
        cudaRuntimeGetVersion(&msg.runtime);
        cudaDriverGetVersion(&msg.driver);
        _exit(write(fd[1], &msg, sizeof msg) == (ssize_t)sizeof msg ? 0 : 1);
    }
    close(fd[1]);
    ssize_t got = pid > 0 ? read(fd[0], &msg, sizeof msg) : -1;
    close(fd[0]);
    if (pid > 0) waitpid(pid, NULL, 0);
    if (got != (ssize_t)sizeof msg) { snprintf(why, len, "the GPU probe failed"); return why; }
    *count = msg.count;
    g.runtime_version = msg.runtime;
    g.driver_version = msg.driver;
    snprintf(g.device, sizeof g.device, "%s", msg.device);
    if (!msg.problem) return NULL;
    snprintf(why, len, "%s", msg.why);
    return why;
}

static void print_row(const struct tk_ranks *rk, const char *name, const char *note,
                      const struct tk_stats *ms, double link_bytes, int checked)
{
    double bytes = 2.0 * rk->rows * rk->cols * sizeof(float);
    double gbs = bytes / (ms->median * 1e6), link = link_bytes / (ms->median * 1e6);
    int nccl = g.nccl_ms > 0 && strcmp(name, "CPU+OMP");
    char label[96];
    if (g.opt.csv) {
        char device[256];
        snprintf(device, sizeof device, "%s", g.device[0] ? g.device : "none");
        for (char *p = device; *p; p++)
            if (*p == ',' || *p == '"') *p = ' ';
        printf("%s,%s,\"%s\",%d,%d,%d,%d,", g.step, name, device, rk->ranks, rk->rows, rk->cols,
               g.opt.reps);
        if (checked) {
            printf("%.4f,%.4f,%.4f,%.1f,", ms->median, ms->min, ms->max, gbs);
            if (link_bytes > 0) printf("%.1f", link);
            printf(",");
            if (nccl) printf("%.1f", 100 * g.nccl_ms / ms->median);
            printf(",");
        } else {
            printf(",,,,,,");
        }
        printf("%s,%d.%d,%d.%d\n", checked ? "yes" : "no", g.runtime_version / 1000,
               g.runtime_version % 1000 / 10, g.driver_version / 1000, g.driver_version % 1000 / 10);
        fflush(stdout);
        return;
    }
    snprintf(label, sizeof label, note ? "%s (%s)" : "%s", name, note);
    printf("%-34s ", label);
    if (!checked) {
        printf("%10s %10s %10s %9s %10s %7s %8s\n", "-", "-", "-", "-", "-", "-", "WRONG");
    } else {
        printf("%10.3f %10.3f %10.3f %9.1f ", ms->median, ms->min, ms->max, gbs);
        if (link_bytes > 0) printf("%10.1f ", link); else printf("%10s ", "-");
        if (nccl) printf("%6.1f%% ", 100 * g.nccl_ms / ms->median); else printf("%7s ", "-");
        printf("%8s\n", "yes");
    }
    fflush(stdout);
}

static void print_header(void)
{
    if (g.opt.csv)
        printf("step,row,device,gpus,rows,cols,reps,ms_median,ms_min,ms_max,gbs,link_gbs,"
               "pct_nccl,checked,cuda_runtime,driver\n");
    else
        printf("%-34s %10s %10s %10s %9s %10s %7s %8s\n", "row", "median ms", "min ms", "max ms",
               "GB/s", "link GB/s", "% NCCL", "checked");
}

/* What the parent says, with stdout carrying CSV or not. */
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(g.opt.csv ? stderr : stdout, fmt, ap);
    va_end(ap);
    fflush(NULL);
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

static void set_up_rank(struct tk_ranks *rk);

/* The CPU+OMP row, in a child process of its own (which may use OpenMP). */
static void cpu_row(struct tk_ranks *rk)
{
    size_t n = (size_t)rk->rows * rk->cols;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct tk_row cpu = { 0 };
        float *out = malloc(n * sizeof *out);
        if (!out) { fprintf(stderr, "cannot allocate the CPU row's output\n"); _exit(TK_EXIT_CUDA); }
        tk_time_cpu(g.full_in, out, rk->rows, rk->cols, g.opt.reps, g.opt.warmup, &cpu);
        int ok = tk_check(g.full_in, out, rk->rows, rk->cols, NULL) == 0;
        print_row(rk, cpu.name, cpu.note, &cpu.ms, 0, ok);
        if (!ok) fprintf(stderr, "CPU+OMP: WRONG\n");
        fflush(NULL);
        _exit(ok ? TK_EXIT_OK : TK_EXIT_WRONG);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        g.status = pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == TK_EXIT_WRONG ? TK_EXIT_WRONG
                                                                                 : TK_EXIT_CUDA;
}

void tk_ranks_begin(struct tk_ranks *rk, const char *step, const char *row, tk_local_fn local,
                    int argc, char **argv)
{
    char err[256], why[256];
    int want = 0;
    memset(rk, 0, sizeof *rk);
    memset(&g, 0, sizeof g);
    rk->h = &g;
    g.step = step, g.row = row, g.local = local;
    if (own_options(&argc, argv, &want, err, sizeof err) < 0) {
        fprintf(stderr, "%s: %s\n\n", argv[0], err);
        usage(stderr, argv[0]);
        exit(TK_EXIT_USAGE);
    }
    switch (tk_parse_options(argc, argv, &g.opt, err, sizeof err)) {
    case TK_PARSE_HELP: usage(stdout, argv[0]); exit(TK_EXIT_OK);
    case TK_PARSE_ERROR:
        fprintf(stderr, "%s: %s\n\n", argv[0], err);
        usage(stderr, argv[0]);
        exit(TK_EXIT_USAGE);
    case TK_PARSE_OK: break;
    }
    if (g.opt.describe) {
        printf("step=%s row=%s todo=%s\n", step, row, g_unfinished ? "open" : "done");
        exit(TK_EXIT_OK);
    }
    if (g.opt.device != 0) {
        fprintf(stderr, "%s: --device: this step uses GPUs 0 to P-1 (choose them with "
                "CUDA_VISIBLE_DEVICES)\n", argv[0]);
        exit(TK_EXIT_USAGE);
    }
    rk->rows = (int)g.opt.rows, rk->cols = (int)g.opt.cols;
    size_t n = (size_t)rk->rows * rk->cols, bytes = n * sizeof(float);
    double have = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    if (have > 0 && 2.0 * bytes > have) {
        fprintf(stderr, "%s: %d x %d needs two host matrices of %.1f GiB; this machine has "
                "%.1f GiB of memory: choose a smaller size\n", argv[0], rk->rows, rk->cols,
                bytes / (MIB * 1024), have / (MIB * 1024));
        exit(TK_EXIT_CUDA);
    }

    int count = 0;
    const char *problem = probe(&count, why, sizeof why);
    say("transpose-kit %s: %d x %d floats (%.1f MiB a matrix) across GPUs, median of %d timed "
        "runs after %d warm-ups\n", step, rk->rows, rk->cols, bytes / MIB, g.opt.reps,
        g.opt.warmup);

    /* The whole input, filled once here, one thread: every rank inherits it, and a process
       that has used OpenMP cannot use it again in a forked child (GNU libgomp). */
    g.full_in = malloc(bytes);
    if (!g.full_in) {
        fprintf(stderr, "%s: cannot allocate the host matrix (%.1f GiB)\n", argv[0],
                bytes / (MIB * 1024));
        exit(TK_EXIT_CUDA);
    }
    for (size_t i = 0; i < n; i++)
        g.full_in[i] = tk_value(i);
    rk->ranks = want ? want : count;   /* for the CSV; checked below */
    print_header();
    if (!g.opt.no_cpu)
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
    if (problem) {
        if (g_unfinished)
            say("%s is unfinished: its TODO(%s) comments in transpose.cu are still open.\n",
                step, step);
        say("GPU rows skipped: %s\n", problem);
        exit(g.status ? g.status : TK_EXIT_NO_GPU);
    }
    rk->ranks = want ? want : (count < TK_MAX_RANKS ? count : TK_MAX_RANKS);
    tk_split(rk->rows, rk->ranks, rk->row0);
    tk_split(rk->cols, rk->ranks, rk->col0);
    setenv("NCCL_NVLS_ENABLE", "0", 0);   /* NVLink multicast off, unless set otherwise */
    say("ranks: %d, one process on each of GPUs 0 to %d (%s); rank p holds input rows "
        "p x rows / %d to (p + 1) x rows / %d - 1\n", rk->ranks, rk->ranks - 1, g.device,
        rk->ranks, rk->ranks);

    /* One process a rank. Rank 0 makes NCCL's unique id and hands it to the others through
       a pipe: a read of that size is whole. */
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

/* Lines the ranks up: returns on each once all have reached it (s is idle after). */
static void barrier(struct tk_ranks *rk)
{
    CUDA_CHECK(cudaStreamSynchronize(g.stream));
    NCCL_CHECK(ncclAllReduce(g.sink, g.sink, 1, ncclInt, ncclSum, rk->comm, g.stream));
    CUDA_CHECK(cudaStreamSynchronize(g.stream));
}

static void *device_alloc(struct tk_ranks *rk, size_t bytes)
{
    void *p = NULL;
    if (bytes && cudaMalloc(&p, bytes) != cudaSuccess) {
        size_t free_b = 0, total_b = 0;
        cudaMemGetInfo(&free_b, &total_b);
        fprintf(stderr, "rank %d: cannot allocate %.1f MiB on GPU %d (%.0f MiB free of %.0f): "
                "choose a smaller size\n", rk->rank, bytes / MIB, rk->rank, free_b / MIB,
                total_b / MIB);
        exit(TK_EXIT_CUDA);
    }
    return p;
}

static void set_up_rank(struct tk_ranks *rk)
{
    int p = rk->rank, persisting = 0, l2 = 0;
    CUDA_CHECK(cudaStreamCreate(&g.stream));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, p));
    CUDA_CHECK(cudaDeviceGetAttribute(&persisting, cudaDevAttrMaxPersistingL2CacheSize, p));
    g.persisting_l2 = persisting > 0;
    g.scratch_bytes = 2 * (size_t)(l2 > 0 ? l2 : 32 << 20);
    g.scratch = device_alloc(rk, g.scratch_bytes);
    CUDA_CHECK(cudaMemset(g.scratch, 0, g.scratch_bytes));
    g.sink = device_alloc(rk, sizeof(int));
    CUDA_CHECK(cudaMemset(g.sink, 0, sizeof(int)));
    size_t in = tk_in_count(rk, p) * sizeof(float), out = tk_out_count(rk, p) * sizeof(float);
    rk->d_in = device_alloc(rk, in);
    rk->d_send = device_alloc(rk, in);
    rk->d_recv = device_alloc(rk, out);
    rk->d_out = device_alloc(rk, out);
    if (in)
        CUDA_CHECK(cudaMemcpy(rk->d_in, g.full_in + rk->row0[p] * rk->cols, in,
                              cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaEventCreate(&g.start));
}

/* The bytes that cross from one GPU to another: every block but each rank's own. */
static double link_bytes(const struct tk_ranks *rk)
{
    double b = 0;
    for (int p = 0; p < rk->ranks; p++)
        for (int q = 0; q < rk->ranks; q++)
            if (p != q)
                b += (double)(rk->row0[p + 1] - rk->row0[p]) * (rk->col0[q + 1] - rk->col0[q]);
    return b * sizeof(float);
}

/* The library row's stage: NCCL moves every block (rank p's rows, rank q's columns) from p's
   d_send, where the harness packed them, to q's d_recv, stacked by source: the exchange of a
   stage without its packing and transposing. */
static void nccl_stage(struct tk_ranks *rk, cudaStream_t s)
{
    int p = rk->rank;
    long rp = rk->row0[p + 1] - rk->row0[p], cp = rk->col0[p + 1] - rk->col0[p];
    NCCL_CHECK(ncclGroupStart());
    for (int q = 0; q < rk->ranks; q++) {
        long cq = rk->col0[q + 1] - rk->col0[q], rq = rk->row0[q + 1] - rk->row0[q];
        if (rp && cq)
            NCCL_CHECK(ncclSend(rk->d_send + rp * rk->col0[q], rp * cq, ncclFloat, q, rk->comm, s));
        if (rq && cp)
            NCCL_CHECK(ncclRecv(rk->d_recv + rk->row0[q] * cp, rq * cp, ncclFloat, q, rk->comm, s));
    }
    NCCL_CHECK(ncclGroupEnd());
}

static float *g_one_in, *g_one_out;   /* rank 0's whole matrices, for the one-GPU row */

static void one_gpu_stage(struct tk_ranks *rk, cudaStream_t s)
{
    (void)s;   /* the step's launch uses the default stream, which waits for s and s for it */
    if (rk->rank == 0)
        g.local(g_one_in, g_one_out, rk->rows, rk->cols);
}

/* Median, min and max over reps runs of the slowest rank's time. */
static void time_stage(struct tk_ranks *rk, tk_stage_fn stage, int poison_send, float *out,
                       size_t out_n, struct tk_stats *st)
{
    int reps = g.opt.reps;
    double *ms = calloc((size_t)reps, sizeof *ms), *dms = NULL;
    cudaEvent_t stop;
    if (!ms) { fprintf(stderr, "rank %d: out of host memory\n", rk->rank); exit(TK_EXIT_CUDA); }
    dms = device_alloc(rk, (size_t)reps * sizeof *dms);
    CUDA_CHECK(cudaEventCreate(&stop));
    size_t in_n = tk_in_count(rk, rk->rank), recv_n = tk_out_count(rk, rk->rank);
    for (int i = -g.opt.warmup; i < reps; i++) {
        if (g.persisting_l2)
            tk_reset_persisting_l2();
        if (out_n)
            CUDA_CHECK(cudaMemsetAsync(out, TK_POISON_BYTE, out_n * sizeof(float), g.stream));
        tk_fill_bits(rk->d_recv, recv_n, POISON_RECV, g.stream);
        if (poison_send)
            tk_fill_bits(rk->d_send, in_n, POISON_SEND, g.stream);
        if (!g.opt.no_flush)
            tk_flush_l2(g.scratch, g.scratch_bytes, g.sink);   /* default stream: waits for s */
        CUDA_CHECK(cudaGetLastError());
        barrier(rk);
        g.marking = g.timeline && i == reps - 1;
        g.nmarks = 0;
        CUDA_CHECK(cudaEventRecord(g.start, g.stream));
        stage(rk, g.stream);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(stop, g.stream));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaDeviceSynchronize());   /* and any work a stage left on other streams */
        float e;
        CUDA_CHECK(cudaEventElapsedTime(&e, g.start, stop));
        if (i >= 0) ms[i] = e;
        g.marking = 0;
    }
    /* The run's time is the slowest rank's. */
    CUDA_CHECK(cudaMemcpy(dms, ms, (size_t)reps * sizeof *ms, cudaMemcpyHostToDevice));
    NCCL_CHECK(ncclAllReduce(dms, dms, reps, ncclFloat64, ncclMax, rk->comm, g.stream));
    CUDA_CHECK(cudaMemcpyAsync(ms, dms, (size_t)reps * sizeof *ms, cudaMemcpyDeviceToHost, g.stream));
    CUDA_CHECK(cudaStreamSynchronize(g.stream));
    tk_stats_of(ms, reps, st);
    CUDA_CHECK(cudaFree(dms));
    CUDA_CHECK(cudaEventDestroy(stop));
    free(ms);
}

/* Runs f(rk, arg) on each rank in turn, rank 0 first: output that does not interleave. */
static void in_turn(struct tk_ranks *rk, void (*f)(struct tk_ranks *, void *), void *arg)
{
    for (int q = 0; q < rk->ranks; q++) {
        barrier(rk);
        if (q == rk->rank) { f(rk, arg); fflush(NULL); }
    }
    barrier(rk);
}

/* Whether every rank's flag is 0: the sum over ranks. */
static int all_ranks_sum(struct tk_ranks *rk, int v)
{
    CUDA_CHECK(cudaMemcpy(g.sink, &v, sizeof v, cudaMemcpyHostToDevice));
    NCCL_CHECK(ncclAllReduce(g.sink, g.sink, 1, ncclInt, ncclSum, rk->comm, g.stream));
    CUDA_CHECK(cudaMemcpyAsync(&v, g.sink, sizeof v, cudaMemcpyDeviceToHost, g.stream));
    CUDA_CHECK(cudaStreamSynchronize(g.stream));
    return v;
}

/* This rank's output, checked against the whole input: out[c - col0[p]][r] = in[r][c]. */
struct check { const char *row; size_t wrong, poisoned, first; float got; };

static size_t check_output(struct tk_ranks *rk, const float *h, struct check *ck)
{
    int p = rk->rank;
    long c0 = rk->col0[p], nc = rk->col0[p + 1] - c0;
    size_t wrong = 0, poisoned = 0, first = (size_t)-1;
    for (long c = 0; c < nc; c++)   /* no OpenMP in a forked rank: the parent used it */
        for (long r = 0; r < rk->rows; r++) {
            size_t o = (size_t)c * rk->rows + r;
            uint32_t bits;
            if (memcmp(&h[o], &g.full_in[(size_t)r * rk->cols + c0 + c], 4)) {
                memcpy(&bits, &h[o], 4);
                poisoned += bits == TK_POISON_BITS;
                if (!wrong++) first = o;
            }
        }
    ck->wrong = wrong, ck->poisoned = poisoned, ck->first = first;
    return wrong;
}

/* The owner of input row r, and of output row (input column) c. */
static int owner(const long *first, int ranks, long i)
{
    int p = 0;
    while (p + 1 < ranks && first[p + 1] <= i) p++;
    return p;
}

/* Where a wrong element's value came from, in the terms of ranks and blocks. */
static void explain_wrong(struct tk_ranks *rk, void *arg)
{
    struct check *ck = arg;
    if (!ck->wrong) return;
    int p = rk->rank;
    long c0 = rk->col0[p], nc = rk->col0[p + 1] - c0;
    size_t total = (size_t)nc * rk->rows;
    long c = (long)(ck->first / rk->rows) + c0, r = (long)(ck->first % rk->rows);
    char got[96];
    tk_describe_value(ck->got, rk->rows, rk->cols, got, sizeof got);
    fprintf(stderr, "%s: WRONG on rank %d: %zu of its %zu elements differ.\n"
            "  first at out[%ld][%ld]: expected in[%ld][%ld] (rank %d's rows), got %s\n",
            ck->row, p, ck->wrong, total, c, r, r, c, owner(rk->row0, rk->ranks, r), got);
    uint32_t bits;
    size_t s;
    memcpy(&bits, &ck->got, 4);
    if (bits == POISON_RECV || bits == POISON_SEND)
        fprintf(stderr, "  evidence: out[%ld][%ld] on rank %d holds the %s buffer's poison, "
                "0x%08X (it should hold in[%ld][%ld])\n", c, r, p,
                bits == POISON_RECV ? "receive" : "send", (unsigned)bits, r, c);
    if (bits == POISON_RECV)
        tk_print_pattern(stderr, TK_PATTERN_RECV_POISON, ": the value is the receive buffer's "
                         "poison: the local transpose read d_recv before an exchange had filled "
                         "it\n");
    else if (bits == POISON_SEND)
        tk_print_pattern(stderr, TK_PATTERN_SEND_POISON, ": the value is the send buffer's poison: "
                         "the exchange sent d_send before the packing had filled it\n");
    else if (tk_value_index(ck->got, &s) && s < (size_t)rk->rows * rk->cols) {
        long sr = (long)(s / rk->cols), sc = (long)(s % rk->cols);
        int from = owner(rk->row0, rk->ranks, sr), to = owner(rk->col0, rk->ranks, sc);
        fprintf(stderr, "  evidence: out[%ld][%ld] on rank %d holds in[%ld][%ld], a value of rank "
                "%d's rows that belongs on rank %d (it should hold in[%ld][%ld])\n", c, r, p, sr,
                sc, from, to, r, c);
        if (to != p)
            tk_print_pattern(stderr, TK_PATTERN_WRONG_RANK, ": in[%ld][%ld] belongs on rank %d "
                             "(its column %ld is rank %d's), not here: a block went to the wrong "
                             "rank\n", sr, sc, to, sc, to);
        else if (from != owner(rk->row0, rk->ranks, r))
            tk_print_pattern(stderr, TK_PATTERN_WRONG_BLOCK, ": in[%ld][%ld] came from rank %d's "
                             "rows where rank %d's belong: a block received from one rank was "
                             "placed where another's goes\n", sr, sc, from,
                             owner(rk->row0, rk->ranks, r));
        else
            tk_print_pattern(stderr, TK_PATTERN_LOCAL, ": in[%ld][%ld] came from the right rank, "
                             "for this rank, but landed at the wrong place: the packing or the "
                             "local transpose\n", sr, sc);
    }
}

void tk_ranks_mark(struct tk_ranks *rk, cudaStream_t s, const char *what, int k)
{
    (void)rk;
    if (!g.marking || g.nmarks >= MAX_MARKS)
        return;
    CUDA_CHECK(cudaEventCreate(&g.marks[g.nmarks].ev));
    CUDA_CHECK(cudaEventRecord(g.marks[g.nmarks].ev, s));
    g.marks[g.nmarks].what = what;
    g.marks[g.nmarks++].k = k;
}

static void write_marks(struct tk_ranks *rk, void *arg)
{
    const char *row = arg;
    FILE *f = fopen(g.timeline, "a");
    if (!f) { fprintf(stderr, "rank %d: cannot write %s\n", rk->rank, g.timeline); return; }
    for (int i = 0; i < g.nmarks; i++) {
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, g.start, g.marks[i].ev));
        fprintf(f, "%s,%d,%d,%d,%s,%d,%.4f\n", row, rk->rows, rk->cols, rk->rank,
                g.marks[i].what, g.marks[i].k, ms);
        CUDA_CHECK(cudaEventDestroy(g.marks[i].ev));
    }
    g.nmarks = 0;
    fclose(f);
}

/* The two ceilings, timed once before the first row: NCCL's exchange of the same blocks,
   then the step's kernel on the whole matrix on GPU 0. */
static void ceilings(struct tk_ranks *rk)
{
    struct tk_stats st;
    int p = rk->rank;
    long rp = rk->row0[p + 1] - rk->row0[p], cp = rk->col0[p + 1] - rk->col0[p];
    for (int q = 0; q < rk->ranks; q++) {   /* each destination's block, packed */
        long cq = rk->col0[q + 1] - rk->col0[q];
        if (rp && cq)
            CUDA_CHECK(cudaMemcpy2D(rk->d_send + rp * rk->col0[q], cq * sizeof(float),
                                    rk->d_in + rk->col0[q], rk->cols * sizeof(float),
                                    cq * sizeof(float), rp, cudaMemcpyDeviceToDevice));
    }
    time_stage(rk, nccl_stage, 0, NULL, 0, &st);
    /* d_recv must hold the input's columns col0[p] .. as rows x cp, stacked by source. */
    size_t n = (size_t)rk->rows * cp, wrong = 0;
    float *h = malloc(n * sizeof *h + 1);
    if (!h) { fprintf(stderr, "rank %d: out of host memory\n", p); exit(TK_EXIT_CUDA); }
    CUDA_CHECK(cudaMemcpy(h, rk->d_recv, n * sizeof *h, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++)
        wrong += memcmp(&h[i], &g.full_in[(i / cp) * rk->cols + rk->col0[p] + i % cp], 4) != 0;
    free(h);
    int bad = all_ranks_sum(rk, wrong != 0);
    g.nccl_ms = st.median;
    if (p == 0)
        print_row(rk, "NCCL all-to-all", "ncclSend/Recv", &st, link_bytes(rk), !bad);
    if (bad) {
        if (wrong) fprintf(stderr, "NCCL all-to-all: WRONG on rank %d: %zu elements\n", p, wrong);
        g.status = TK_EXIT_WRONG;
    }

    size_t all = (size_t)rk->rows * rk->cols;
    if (p == 0) {
        g_one_in = device_alloc(rk, all * sizeof(float));
        g_one_out = device_alloc(rk, all * sizeof(float));
        CUDA_CHECK(cudaMemcpy(g_one_in, g.full_in, all * sizeof(float), cudaMemcpyHostToDevice));
    }
    time_stage(rk, one_gpu_stage, 0, p == 0 ? g_one_out : NULL, p == 0 ? all : 0, &st);
    int ok = 1;
    if (p == 0) {
        float *o = malloc(all * sizeof *o + 1);
        if (!o) { fprintf(stderr, "rank 0: out of host memory\n"); exit(TK_EXIT_CUDA); }
        CUDA_CHECK(cudaMemcpy(o, g_one_out, all * sizeof *o, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < all && ok; i++)   /* serial: no OpenMP in a forked rank */
            ok = !memcmp(&o[i], &g.full_in[(i % rk->rows) * rk->cols + i / rk->rows], 4);
        free(o);
        CUDA_CHECK(cudaFree(g_one_in));
        CUDA_CHECK(cudaFree(g_one_out));
        print_row(rk, "one GPU", "this step's kernel", &st, 0, ok);
        if (!ok) {
            fprintf(stderr, "one GPU: WRONG: the step's kernel on the whole matrix\n");
            g.status = TK_EXIT_WRONG;
        }
    }
    barrier(rk);
}

void tk_ranks_time(struct tk_ranks *rk, const char *row, tk_stage_fn stage)
{
    struct tk_stats st;
    struct check ck = { .row = row };
    int p = rk->rank;
    if (!g.ceilings_done) {
        if (g.timeline && p == 0) {   /* a new file, its header first */
            FILE *f = fopen(g.timeline, "w");
            if (f) { fprintf(f, "row,rows,cols,rank,what,chunk,ms\n"); fclose(f); }
            else fprintf(stderr, "cannot write %s\n", g.timeline);
        }
        ceilings(rk);
        g.ceilings_done = 1;
    }
    time_stage(rk, stage, 1, rk->d_out, tk_out_count(rk, p), &st);
    if (g.timeline && g.nmarks)
        in_turn(rk, write_marks, (void *)row);

    size_t n = tk_out_count(rk, p);
    float *h = malloc(n * sizeof *h + 1);
    if (!h) { fprintf(stderr, "rank %d: out of host memory\n", p); exit(TK_EXIT_CUDA); }
    CUDA_CHECK(cudaMemcpy(h, rk->d_out, n * sizeof *h, cudaMemcpyDeviceToHost));
    check_output(rk, h, &ck);
    if (ck.wrong) ck.got = h[ck.first];
    free(h);
    int bad = all_ranks_sum(rk, ck.wrong != 0);
    /* A starter's stage that wrote nothing on any rank is not wrong: it is not written yet. */
    int untouched = g_unfinished && all_ranks_sum(rk, ck.poisoned != n) == 0;
    if (untouched) {
        if (p == 0)
            say("%s: not run yet: its stage writes nothing; work through the TODO(%s) "
                "comments in transpose.cu, then run make again.\n", row, g.step);
        return;
    }
    if (p == 0)
        print_row(rk, row, NULL, &st, link_bytes(rk), !bad);
    if (bad)
        in_turn(rk, explain_wrong, &ck);
    if (ck.wrong)
        g.status = TK_EXIT_WRONG;
}

int tk_ranks_end(struct tk_ranks *rk)
{
    int p = rk->rank;
    barrier(rk);
    if (p == 0 && g_unfinished)
        say("%s is unfinished: its TODO(%s) comments in transpose.cu are still open.\n",
            g.step, g.step);
    if (g_unfinished && !g.status)
        g.status = TK_EXIT_TODO;
    cudaFree(rk->d_in);
    cudaFree(rk->d_send);
    cudaFree(rk->d_recv);
    cudaFree(rk->d_out);
    cudaFree(g.scratch);
    cudaFree(g.sink);
    ncclCommDestroy(rk->comm);
    free(g.full_in);
    fflush(NULL);
    return g.status;
}
