/* The harness on one GPU, a step's run: device report, CPU+OMP row, copy ceiling, kernel
   timing, exact check. C11 calling the CUDA runtime's C API; the kernels live in the step's
   .cu. */
#define _DEFAULT_SOURCE   /* sysconf(_SC_PHYS_PAGES) */
#include "bench.h"
#include "explain.h"
#include "harness.h"
#include "matrix.h"

#include <omp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIB (1024.0 * 1024.0)
#define CPU_MAX_REPS 5

/* Notes go with the table: stdout, or stderr when stdout carries CSV. */
static void say(const struct tk_run *run, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(run->h->opt.csv ? stderr : stdout, fmt, ap);
    va_end(ap);
}

static size_t g_matrix_bytes;   /* for the out-of-memory message of tk_cuda_check */
static int g_unfinished;        /* a starter whose TODOs are still open (tk_unfinished) */

void tk_unfinished(void)
{
    g_unfinished = 1;
}

/* What an unfinished starter says, after its rows. */
static void say_unfinished(const struct tk_run *run, const char *what)
{
    say(run, "%s is unfinished: %sits TODO(%s) comments in transpose.cu are still open.\n",
        run->h->table.step, what, run->h->table.step);
}

void tk_cuda_check(cudaError_t err, const char *what, const char *file, int line)
{
    if (err == cudaSuccess)
        return;
    fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, what, cudaGetErrorString(err),
            cudaGetErrorName(err));
    size_t free_b, total_b;
    if (err == cudaErrorMemoryAllocation && cudaMemGetInfo(&free_b, &total_b) == cudaSuccess)
        fprintf(stderr, "the device has %.0f MiB free of %.0f MiB; this run needs two matrices "
                "of %.1f MiB and a scratch buffer\n", free_b / MIB, total_b / MIB,
                g_matrix_bytes / MIB);
    exit(TK_EXIT_CUDA);
}

static void release(struct tk_run *run)
{
    if (run->h->scratch) {
        cudaFree(run->h->scratch);   /* no check: this may run on the way out of an error */
        cudaFree(run->h->sink);
        run->h->scratch = NULL;
    }
    free(run->in);
    free(run->out);
    run->in = run->out = NULL;
    fflush(stdout);
}

static void finish(struct tk_run *run, int status)
{
    release(run);
    exit(status);
}

const char *tk_gpu_problem(int *count, char *why, size_t len)
{
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);   /* 0 when there is no driver */
    cudaRuntimeGetVersion(&runtime);
    *count = 0;
    cudaError_t err = cudaGetDeviceCount(count);
    if (err == cudaErrorNoDevice || (err == cudaSuccess && *count == 0))
        return "no CUDA-capable GPU is visible to this program (check nvidia-smi, and "
               "CUDA_VISIBLE_DEVICES if it is set)";
    if (err == cudaErrorInsufficientDriver && driver == 0)
        return "no NVIDIA driver is installed (libcuda.so.1 was not found)";
    if (err == cudaErrorInsufficientDriver) {
        snprintf(why, len, "the NVIDIA driver supports CUDA up to %d.%d, this program's runtime "
                 "is %d.%d: update the driver", driver / 1000, driver % 1000 / 10,
                 runtime / 1000, runtime % 1000 / 10);
        return why;
    }
    if (err != cudaSuccess) {
        snprintf(why, len, "the CUDA runtime cannot use the GPU: %s (%s)",
                 cudaGetErrorString(err), cudaGetErrorName(err));
        return why;
    }
    return NULL;
}

/* Why this machine cannot run the GPU rows, or NULL when device opt.device is usable. */
static const char *gpu_problem(struct tk_run *run, char *why, size_t len)
{
    int count;
    const char *problem = tk_gpu_problem(&count, why, len);
    if (!problem && run->h->opt.device >= count) {
        fprintf(stderr, "transpose: --device %d: this machine has %d GPU%s (0..%d)\n",
                run->h->opt.device, count, count == 1 ? "" : "s", count - 1);
        finish(run, TK_EXIT_USAGE);
    }
    return problem;
}

static void report_device(struct tk_run *run)
{
    struct cudaDeviceProp p;
    int dev = run->h->opt.device, clock_khz = 0, bus_bits = 0;
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
    /* CUDA 13 removed the memory clock and bus width from cudaDeviceProp. */
    CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev));

    snprintf(run->h->device_name, sizeof run->h->device_name, "%s", p.name);
    run->h->table.device = run->h->device_name;
    run->h->table.cc_major = p.major;
    run->h->table.cc_minor = p.minor;
    run->h->table.peak_gbs = tk_peak_gbs(clock_khz, bus_bits);
    say(run, "device %d: %s, sm_%d%d, %d SMs, L2 %.0f MiB, theoretical peak %.0f GB/s "
        "(%d MHz x %d-bit bus)\n", dev, p.name, p.major, p.minor, p.multiProcessorCount,
        p.l2CacheSize / MIB, run->h->table.peak_gbs, clock_khz / 1000, bus_bits);

    size_t free_b, total_b;
    run->h->scratch_bytes = 2 * (size_t)(p.l2CacheSize > 0 ? p.l2CacheSize : 32 << 20);
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (2 * run->bytes + run->h->scratch_bytes > free_b) {
        fprintf(stderr, "transpose: %d x %d needs two device matrices of %.1f MiB and %.0f MiB "
                "of scratch; device %d has %.0f MiB free of %.0f MiB: choose a smaller size\n",
                run->rows, run->cols, run->bytes / MIB, run->h->scratch_bytes / MIB, dev,
                free_b / MIB, total_b / MIB);
        finish(run, TK_EXIT_CUDA);
    }
    CUDA_CHECK(cudaMalloc(&run->h->scratch, run->h->scratch_bytes));
    /* Written once, so that reading it to empty the L2 reads no uninitialised memory
       (compute-sanitizer's initcheck would flag every flush otherwise). */
    CUDA_CHECK(cudaMemset(run->h->scratch, 0, run->h->scratch_bytes));
    CUDA_CHECK(cudaMalloc((void **)&run->h->sink, sizeof(int)));
    int persisting_max = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&persisting_max, cudaDevAttrMaxPersistingL2CacheSize, dev));
    run->h->persisting_l2 = persisting_max > 0;
}

void tk_reset_persisting_l2(void)
{
    CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
    CUDA_CHECK(cudaCtxResetPersistingL2Cache());
}

int tk_output_exact(const struct tk_run *run, int copies, struct tk_mismatch *m)
{
    if (copies)
        return memcmp(run->out, run->in, run->bytes) == 0;
    return tk_check(run->in, run->out, run->rows, run->cols, m) == 0;
}

/* Checks run->out against the transpose of run->in (against run->in itself for a copying
   yardstick) and prints the row: its figures when the output is exact; otherwise no
   figures, then where and how the output was wrong. */
static void check_and_print(struct tk_run *run, struct tk_row *row)
{
    struct tk_mismatch m;
    size_t n = (size_t)run->rows * run->cols;
    int copies = run->h->kernel_copies && row == &run->h->kernel;
    row->checked = tk_output_exact(run, copies, &m);
    tk_print_row(stdout, &run->h->table, row);
    if (row->checked)
        return;
    run->h->status = TK_EXIT_WRONG;
    if (copies) {
        fprintf(stderr, "%s: WRONG: the output is not a copy of the input\n", row->name);
        return;
    }

    char expected[96], got[96];
    tk_describe_value(m.expected, run->rows, run->cols, expected, sizeof expected);
    tk_describe_value(m.got, run->rows, run->cols, got, sizeof got);
    fprintf(stderr, "%s: WRONG: %zu of %zu elements differ (%zu still hold the poison).\n"
            "  first at out[%ld][%ld] of the %d x %d output: expected %s, got %s\n",
            row->name, m.count, n, m.poisoned, m.out_row, m.out_col, run->cols, run->rows,
            expected, got);
    if (m.poisoned == n) {
        fprintf(stderr, "  no element was written: is the kernel launched, and is its result "
                "copied back into run.out?\n");
        return;
    }
    struct tk_explanation e;
    tk_explain(run->in, run->out, run->rows, run->cols, &e);
    tk_print_explanation(stderr, &e, run->rows, run->cols);
}

void tk_time_cpu(const float *in, float *out, int rows, int cols, int reps, int warmup,
                 struct tk_row *row)
{
    static char threads[32];
    double ms[CPU_MAX_REPS];
    reps = reps < CPU_MAX_REPS ? reps : CPU_MAX_REPS;
    snprintf(threads, sizeof threads, "%d threads", omp_get_max_threads());
    row->name = "CPU+OMP";
    row->note = threads;
    if (warmup > 0)
        tk_transpose_cpu(in, out, rows, cols);
    for (int i = 0; i < reps; i++) {
        tk_poison(out, (size_t)rows * cols);
        double t0 = omp_get_wtime();
        tk_transpose_cpu(in, out, rows, cols);
        ms[i] = (omp_get_wtime() - t0) * 1e3;
    }
    tk_stats_of(ms, reps, &row->ms);
}

static void cpu_row(struct tk_run *run)
{
    struct tk_row row = { 0 };
    tk_time_cpu(run->in, run->out, run->rows, run->cols, run->h->opt.reps, run->h->opt.warmup,
                &row);
    check_and_print(run, &row);
}

/* The two host matrices, or a message that says how much they need and how much memory
   the machine has, and exit 4, before any long work. */
static void host_matrices(struct tk_run *run, const char *prog)
{
    double have = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    if (have > 0 && 2.0 * run->bytes > have) {
        fprintf(stderr, "%s: %d x %d needs two host matrices of %.1f GiB; this machine has "
                "%.1f GiB of memory: choose a smaller size\n", prog, run->rows, run->cols,
                run->bytes / (MIB * 1024), have / (MIB * 1024));
        finish(run, TK_EXIT_CUDA);
    }
    run->in = malloc(run->bytes);
    run->out = malloc(run->bytes);
    if (!run->in || !run->out) {
        fprintf(stderr, "%s: cannot allocate two host matrices of %.1f GiB\n", prog,
                run->bytes / (MIB * 1024));
        finish(run, TK_EXIT_CUDA);
    }
}

void tk_begin(struct tk_run *run, const char *step, const char *row, int argc, char **argv)
{
    static struct tk_state state;   /* one run a program */
    char err[256], why[256];
    memset(run, 0, sizeof *run);
    memset(&state, 0, sizeof state);
    run->h = &state;
    switch (tk_parse_options(argc, argv, &run->h->opt, err, sizeof err)) {
    case TK_PARSE_HELP:
        tk_print_usage(stdout, argv[0]);
        exit(TK_EXIT_OK);
    case TK_PARSE_ERROR:
        fprintf(stderr, "%s: %s\n\n", argv[0], err);
        tk_print_usage(stderr, argv[0]);
        exit(TK_EXIT_USAGE);
    case TK_PARSE_OK:
        break;
    }
    if (run->h->opt.describe) {   /* what this program is, for the grader: no GPU, no matrices */
        printf("step=%s row=%s todo=%s\n", step, row ? row : "-", g_unfinished ? "open" : "done");
        exit(TK_EXIT_OK);
    }
    run->h->row = row;

    run->rows = (int)run->h->opt.rows;
    run->cols = (int)run->h->opt.cols;
    size_t n = (size_t)run->rows * run->cols;
    run->bytes = g_matrix_bytes = n * sizeof(float);
    host_matrices(run, argv[0]);

    struct tk_table *t = &run->h->table;
    t->step = step;
    t->device = "none";
    t->rows = run->rows;
    t->cols = run->cols;
    t->reps = run->h->opt.reps;
    t->csv = run->h->opt.csv;
    cudaRuntimeGetVersion(&t->runtime_version);
    cudaDriverGetVersion(&t->driver_version);   /* 0 when there is no driver */

    say(run, "transpose-kit %s: %d x %d floats (%.1f MiB a matrix), median of %d timed runs "
        "after %d warm-ups\n", step, run->rows, run->cols, run->bytes / MIB, run->h->opt.reps,
        run->h->opt.warmup);
    const char *problem = gpu_problem(run, why, sizeof why);
    if (!problem)
        report_device(run);   /* refuses a size the device cannot hold, before the fill */
    if (!problem || !run->h->opt.no_cpu)   /* the input, unless nothing will read it */
        tk_fill(run->in, n);
    tk_print_header(stdout, t);
    if (!run->h->opt.no_cpu)
        cpu_row(run);
    if (problem) {
        if (g_unfinished)
            say_unfinished(run, "");
        say(run, "GPU rows skipped: %s\n", problem);
        finish(run, run->h->status ? run->h->status : TK_EXIT_NO_GPU);
    }
}

/* Median, min and max in ms of reps runs of either launch(d_in, d_out) or, when launch is
   NULL, a device-to-device copy. Before each run, outside the timing, d_out is poisoned
   and the L2 emptied: otherwise every timed run would start by writing back the poison the
   memset left dirty in the L2 (on the H100, 3.5% of the time of the copy and kernels alike). */
static void time_runs(struct tk_run *run, tk_launch_fn launch, const float *d_in, float *d_out,
                      struct tk_stats *s)
{
    int reps = run->h->opt.reps;
    double *ms = malloc((size_t)reps * sizeof *ms);
    cudaEvent_t start, stop;
    if (!ms) {
        fprintf(stderr, "transpose: out of host memory\n");
        finish(run, TK_EXIT_CUDA);
    }
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = -run->h->opt.warmup; i < reps; i++) {
        if (run->h->persisting_l2)
            tk_reset_persisting_l2();
        CUDA_CHECK(cudaMemsetAsync(d_out, TK_POISON_BYTE, run->bytes, 0));
        if (!run->h->opt.no_flush) {
            tk_flush_l2(run->h->scratch, run->h->scratch_bytes, run->h->sink);
            CUDA_CHECK(cudaGetLastError());
        }
        CUDA_CHECK(cudaEventRecord(start, 0));
        if (launch) {
            launch(d_in, d_out, run->rows, run->cols);
            CUDA_CHECK(cudaGetLastError());
        } else {
            CUDA_CHECK(cudaMemcpyAsync(d_out, d_in, run->bytes, cudaMemcpyDeviceToDevice, 0));
        }
        CUDA_CHECK(cudaEventRecord(stop, 0));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float elapsed;
        CUDA_CHECK(cudaEventElapsedTime(&elapsed, start, stop));
        if (i >= 0)
            ms[i] = elapsed;
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    tk_stats_of(ms, reps, s);
    free(ms);
}

void tk_time_gpu(struct tk_run *run, tk_launch_fn launch, const float *d_in, float *d_out)
{
    tk_time_kernel(run, run->h->row, launch, 0, d_in, d_out);
}

void tk_time_kernel(struct tk_run *run, const char *name, tk_launch_fn launch, int copies,
                    const float *d_in, float *d_out)
{
    run->h->kernel.name = name;
    run->h->kernel_copies = copies;
    if (!d_in || !d_out)   /* the step's TODOs are not done: tk_end says so */
        return;

    /* The ceiling: the same bytes read and written by cudaMemcpy, checked like any row. */
    struct tk_row copy = { .name = "copy ceiling", .note = "cudaMemcpy D2D", .gpu = 1 };
    time_runs(run, NULL, d_in, d_out, &copy.ms);
    CUDA_CHECK(cudaMemcpy(run->out, d_out, run->bytes, cudaMemcpyDeviceToHost));
    copy.checked = tk_output_exact(run, 1, NULL);
    run->h->copy_gbs = copy.copy_gbs = tk_gbs(run->rows, run->cols, copy.ms.median);
    tk_print_row(stdout, &run->h->table, &copy);
    if (!copy.checked) {
        fprintf(stderr, "copy ceiling: WRONG: cudaMemcpy did not reproduce its input\n");
        run->h->status = TK_EXIT_WRONG;
    }

    /* The step's kernel. run->out is poisoned so that a result never copied back shows. */
    tk_poison(run->out, (size_t)run->rows * run->cols);
    time_runs(run, launch, d_in, d_out, &run->h->kernel.ms);
    run->h->kernel.gpu = 1;
    run->h->kernel.copy_gbs = run->h->copy_gbs;
    run->h->kernel_timed = 1;
}

int tk_report_kernel(struct tk_run *run)
{
    check_and_print(run, &run->h->kernel);
    run->h->kernel_timed = 0;   /* reported */
    run->h->kernel_reported = 1;
    return run->h->status;
}

int tk_end(struct tk_run *run)
{
    if (!run->h->kernel_timed && !run->h->kernel_reported) {
        say(run, "%s: not run yet: the device buffers d_in and d_out are not allocated. Work "
            "through the TODO(%s) comments in transpose.cu, then run make again.\n",
            run->h->row ? run->h->row : "the GPU kernel", run->h->table.step);
        finish(run, run->h->status ? run->h->status : TK_EXIT_TODO);
    }
    if (run->h->kernel_timed)
        tk_report_kernel(run);
    if (g_unfinished) {
        say_unfinished(run, "the row above is still the kernel the starter began with; ");
        if (!run->h->status)
            run->h->status = TK_EXIT_TODO;
    }
    release(run);
    return run->h->status;
}

const struct tk_options *tk_run_options(const struct tk_run *run)
{
    return &run->h->opt;
}

int tk_run_cc(const struct tk_run *run)
{
    return run->h->table.cc_major * 10 + run->h->table.cc_minor;
}

void tk_mark_wrong(struct tk_run *run)
{
    run->h->status = TK_EXIT_WRONG;
}
