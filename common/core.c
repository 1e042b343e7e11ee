/* The harness's core, shared by its one-GPU and across-GPU front ends: see core.h. C11
   calling the CUDA runtime's C API; the two kernels are flush.cu's. */
#define _DEFAULT_SOURCE   /* sysconf(_SC_PHYS_PAGES) */
#include "core.h"
#include "explain.h"
#include "hostmem.h"

#include <omp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CPU_MAX_REPS 5

static int g_unfinished;        /* a starter whose TODOs are still open */

void tk_core_unfinished(void)
{
    g_unfinished = 1;
}

int tk_todo_open(void)
{
    return g_unfinished;
}

void tk_core_refuse(const char *prog, const char *err, tk_usage_fn usage)
{
    fprintf(stderr, "%s: %s\n\n", prog, err);
    usage(stderr, prog);
    exit(TK_EXIT_USAGE);
}

void tk_core_options(struct tk_core *c, const char *step, const char *row, tk_usage_fn usage,
                     int argc, char **argv)
{
    char err[256];
    switch (tk_parse_options(argc, argv, &c->opt, err, sizeof err)) {
    case TK_PARSE_HELP:
        usage(stdout, argv[0]);
        exit(TK_EXIT_OK);
    case TK_PARSE_ERROR:
        tk_core_refuse(argv[0], err, usage);
    case TK_PARSE_OK:
        break;
    }
    if (c->opt.describe) {   /* what this program is, for the grader: no GPU, no matrices */
        printf("step=%s row=%s todo=%s\n", step, row ? row : "-", g_unfinished ? "open" : "done");
        exit(TK_EXIT_OK);
    }
    struct tk_table *t = &c->table;
    t->step = step;
    t->device = "none";
    t->rows = c->opt.rows;
    t->cols = c->opt.cols;
    t->reps = c->opt.reps;
    t->csv = c->opt.csv;
}

void tk_core_check_sides(const struct tk_core *c, const char *step, tk_usage_fn usage,
                         const char *prog)
{
    char err[256];
    long rows = c->opt.rows, cols = c->opt.cols;   /* the first shape; a list's others follow */
    for (int k = 1;; k++) {
        if (tk_side_refusal(step, rows, cols, err, sizeof err))
            tk_core_refuse(prog, err, usage);
        if (!c->opt.shapes || !tk_shape_of(c->opt.shapes, k, &rows, &cols))
            break;
    }
}

/* bytes in words: "1.5 GiB", or "100 MiB" under a GiB. */
static const char *size_words(double bytes, char *buf, size_t len)
{
    if (bytes < TK_MIB * 1024)
        snprintf(buf, len, "%.0f MiB", bytes / TK_MIB);
    else
        snprintf(buf, len, "%.1f GiB", bytes / (TK_MIB * 1024));
    return buf;
}

void tk_core_host_fits(const struct tk_core *c, const char *prog, size_t bytes)
{
    char need[32], may[32], phys_w[32];
    double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    int limited;
    double have = tk_host_memory_here(phys, &limited);
    if (have > 0 && 2.0 * bytes > have) {
        fprintf(stderr, "%s: %ld x %ld needs two host matrices of %s each; ", prog, c->opt.rows,
                c->opt.cols, size_words((double)bytes, need, sizeof need));
        if (limited)
            fprintf(stderr, "this process may use %s of host memory (its control group's "
                    "limit, as a Slurm job or a container sets it; the machine has %s): "
                    "choose a smaller size, or ask the job for more memory\n",
                    size_words(have, may, sizeof may),
                    phys > 0 ? size_words(phys, phys_w, sizeof phys_w) : "an unknown amount");
        else
            fprintf(stderr, "this machine has %s of memory: choose a smaller size\n",
                    size_words(have, may, sizeof may));
        exit(TK_EXIT_CUDA);
    }
}

void tk_core_say(const struct tk_core *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(c->opt.csv ? stderr : stdout, fmt, ap);
    va_end(ap);
    if (c->flush)
        fflush(NULL);
}

void tk_core_say_unfinished(const struct tk_core *c, const char *what)
{
    tk_core_say(c, "%s is unfinished: %sits TODO(%s) comments in transpose.cu are still open.\n",
                c->table.step, what, c->table.step);
}

void tk_core_skip_gpu(const struct tk_core *c, const char *problem)
{
    if (g_unfinished)
        tk_core_say_unfinished(c, "");
    tk_core_say(c, "GPU rows skipped: %s\n", problem);
    exit(c->status ? c->status : c->gpu_status ? c->gpu_status : TK_EXIT_NO_GPU);
}

void *tk_core_alloc(const struct tk_core *c, size_t bytes)
{
    void *p = NULL;
    if (bytes && cudaMalloc(&p, bytes) != cudaSuccess) {
        size_t free_b = 0, total_b = 0;
        cudaMemGetInfo(&free_b, &total_b);
        fprintf(stderr, "%s: cannot allocate %.1f MiB on GPU %d (%.0f MiB free of %.0f): "
                "choose a smaller size\n", c->who, bytes / TK_MIB, c->dev, free_b / TK_MIB,
                total_b / TK_MIB);
        exit(TK_EXIT_CUDA);
    }
    return p;
}

void tk_core_l2(struct tk_core *c)
{
    int l2 = 0, persisting = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, c->dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&persisting, cudaDevAttrMaxPersistingL2CacheSize, c->dev));
    c->l2_bytes = l2 > 0 ? (size_t)l2 : 0;
    c->scratch_bytes = 2 * (size_t)(l2 > 0 ? l2 : 32 << 20);
    c->persisting_l2 = persisting > 0;
}

void tk_core_gpu_buffers(struct tk_core *c)
{
    c->scratch = tk_core_alloc(c, c->scratch_bytes);
    CUDA_CHECK(cudaMemset(c->scratch, 0, c->scratch_bytes));
    c->sink = tk_core_alloc(c, sizeof(int));
    CUDA_CHECK(cudaMemset(c->sink, 0, sizeof(int)));
    CUDA_CHECK(cudaEventCreate(&c->start));
}

void tk_core_release(struct tk_core *c)
{
    if (c->scratch) {
        cudaFree(c->scratch);
        cudaFree(c->sink);
        cudaEventDestroy(c->start);
        c->scratch = NULL;
    }
}

/* Lines marked persisting survive the L2 flush, and a carve-out set aside for them shrinks
   the L2 every other access gets. Called before each timed run where the device has such a
   carve-out (cudaDevAttrMaxPersistingL2CacheSize > 0), whatever a launch may have set: the
   limit back to zero and every persisting line back to normal. */
static void reset_persisting_l2(void)
{
    CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
    CUDA_CHECK(cudaCtxResetPersistingL2Cache());
}

/* One run of t, prepared as every timed run is (the persisting L2 reset, t's buffers poisoned
   and the L2 emptied, outside the timing): its time in ms between two events. */
static float time_once(struct tk_core *c, const struct tk_timed *t, cudaEvent_t stop, int last)
{
    if (c->persisting_l2)
        reset_persisting_l2();
    if (t->out_bytes)
        CUDA_CHECK(cudaMemsetAsync(t->out, TK_POISON_BYTE, t->out_bytes, c->stream));
    for (int k = 0; k < 2; k++)
        if (t->fill[k].n)
            tk_fill_bits(t->fill[k].p, t->fill[k].n, t->fill[k].bits, c->stream);
    if (!c->opt.no_flush)
        tk_flush_l2(c->scratch, c->scratch_bytes, c->sink);   /* default stream: after the
                                                                 poison */
    CUDA_CHECK(cudaGetLastError());
    if (t->line_up)
        t->line_up(t->arg);
    CUDA_CHECK(cudaEventRecord(c->start, c->stream));
    t->work(t->arg, c->stream, last);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(stop, c->stream));
    CUDA_CHECK(cudaEventSynchronize(stop));
    if (t->sync_device)
        CUDA_CHECK(cudaDeviceSynchronize());
    float elapsed;
    CUDA_CHECK(cudaEventElapsedTime(&elapsed, c->start, stop));
    return elapsed;
}

void tk_core_time_rounds(struct tk_core *c, const struct tk_timed *t, int n, int warmup,
                         int reps, double **ms)
{
    cudaEvent_t stop;
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = -warmup; i < reps; i++)
        for (int j = 0; j < n; j++) {
            float elapsed = time_once(c, &t[j], stop, i == reps - 1);
            if (i >= 0)
                ms[j][i] = elapsed;
        }
    CUDA_CHECK(cudaEventDestroy(stop));
}

double *tk_core_ms(const struct tk_core *c)
{
    double *ms = calloc((size_t)c->opt.reps, sizeof *ms);
    if (!ms) {
        fprintf(stderr, "%s: out of host memory\n", c->who);
        exit(TK_EXIT_CUDA);
    }
    return ms;
}

void tk_core_time(struct tk_core *c, const struct tk_timed *t, struct tk_stats *s)
{
    double *ms = tk_core_ms(c);
    tk_core_time_rounds(c, t, 1, c->opt.warmup, c->opt.reps, &ms);
    if (t->combine)
        t->combine(t->arg, ms, c->opt.reps);
    tk_stats_of(ms, c->opt.reps, s);
    free(ms);
}

int tk_core_exact(const float *in, const float *out, long rows, long cols, int copies,
                  struct tk_mismatch *m)
{
    if (copies)
        return memcmp(out, in, (size_t)rows * cols * sizeof(float)) == 0;
    return tk_check(in, out, rows, cols, m) == 0;
}

void tk_core_check_row(struct tk_core *c, const float *in, const float *out, long rows, long cols,
                       int copies, struct tk_row *row)
{
    struct tk_mismatch m;
    size_t n = (size_t)rows * cols;
    row->checked = tk_core_exact(in, out, rows, cols, copies, &m);
    tk_core_row(c, row);
    if (row->checked)
        return;
    c->status = TK_EXIT_WRONG;
    if (copies) {
        fprintf(stderr, "%s: WRONG: the output is not a copy of the input\n", row->name);
        return;
    }

    char expected[96], got[96];
    tk_describe_value(m.expected, rows, cols, expected, sizeof expected);
    tk_describe_value(m.got, rows, cols, got, sizeof got);
    fprintf(stderr, "%s: WRONG: %zu of %zu elements differ (%zu still hold the poison).\n"
            "  first at out[%ld][%ld] of the %ld x %ld output: expected %s, got %s\n",
            row->name, m.count, n, m.poisoned, m.out_row, m.out_col, cols, rows, expected, got);
    if (m.poisoned == n) {
        fprintf(stderr, "  no element was written: is the kernel launched, and is its result "
                "copied back into run.out?\n");
        return;
    }
    struct tk_explanation e;
    tk_explain(in, out, rows, cols, &e);
    tk_print_explanation(stderr, &e, rows, cols);
}

void tk_core_header(const struct tk_core *c)
{
    tk_print_header(stdout, &c->table);
}

void tk_core_row(const struct tk_core *c, const struct tk_row *row)
{
    tk_print_row(stdout, &c->table, row);
    if (c->flush)
        fflush(NULL);
}

void tk_core_cpu_row(struct tk_core *c, const float *in, float *out, long rows, long cols)
{
    char threads[32];
    double ms[CPU_MAX_REPS];
    int reps = c->opt.reps < CPU_MAX_REPS ? c->opt.reps : CPU_MAX_REPS;
    struct tk_row row = { .name = "CPU+OMP", .note = threads };
    snprintf(threads, sizeof threads, "%d threads", omp_get_max_threads());
    if (c->opt.warmup > 0)
        tk_transpose_cpu(in, out, rows, cols);
    for (int i = 0; i < reps; i++) {
        tk_poison(out, (size_t)rows * cols);
        double t0 = omp_get_wtime();
        tk_transpose_cpu(in, out, rows, cols);
        ms[i] = (omp_get_wtime() - t0) * 1e3;
    }
    tk_stats_of(ms, reps, &row.ms);
    tk_core_check_row(c, in, out, rows, cols, 0, &row);
}

const char *tk_gpu_problem(int *count, int *status, char *why, size_t len)
{
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);   /* 0 when there is no driver */
    cudaRuntimeGetVersion(&runtime);
    *count = 0;
    *status = TK_EXIT_NO_GPU;
    cudaError_t err = cudaGetDeviceCount(count);
    const char *fake = getenv("TK_TEST_DRIVER_VERSION");   /* the tests' old driver */
    if (fake && *fake) {
        driver = atoi(fake);
        if (driver / 1000 < runtime / 1000)
            err = cudaErrorInsufficientDriver;
    }
    if (err == cudaErrorNoDevice || (err == cudaSuccess && *count == 0))
        return "no CUDA-capable GPU is visible to this program (check nvidia-smi, and "
               "CUDA_VISIBLE_DEVICES if it is set)";
    if (err == cudaErrorInsufficientDriver && driver == 0)
        return "no NVIDIA driver is installed (libcuda.so.1 was not found)";
    if (err == cudaErrorInsufficientDriver) {
        *status = TK_EXIT_DRIVER;
        snprintf(why, len, "the NVIDIA driver supports CUDA up to %d.%d, this build needs "
                 "%d.%d: update the driver, or build with a CUDA toolkit of %d.%d or older",
                 driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10,
                 driver / 1000, driver % 1000 / 10);
        return why;
    }
    if (err != cudaSuccess) {
        snprintf(why, len, "the CUDA runtime cannot use the GPU: %s (%s)",
                 cudaGetErrorString(err), cudaGetErrorName(err));
        return why;
    }
    return NULL;
}
