/* The harness's core, shared by its two front ends: harness.c (one GPU, harness.h) and
   ranks/ (one process a GPU, ranks/ranks.h). Internal to the harness: not for steps. It
   holds what a run does the same way on one GPU and across GPUs: options and --describe, the
   checks of host and device memory, the L2 flush's buffers, the persisting-L2 reset, the
   timing method (poison, flush, events, median), the exact check with its explanation, and
   what is printed. */
#ifndef TK_CORE_H
#define TK_CORE_H

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "matrix.h"
#include "options.h"
#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TK_MIB (1024.0 * 1024.0)

/* One front end's run, as the core sees it. */
struct tk_core {
    struct tk_options opt;
    struct tk_table table;
    char device[256];         /* the device's name: table.device, once known */
    char who[32];             /* who speaks in messages: "transpose", or "rank 2" */
    int flush;                /* several processes share stdout (ranks): flush after each line */
    int dev;                  /* the CUDA device this process uses */
    cudaStream_t stream;      /* where the timed work goes: 0 (the default stream), or a rank's */
    void *scratch;            /* read before each timed run to empty the L2 (flush.cu) */
    size_t scratch_bytes;     /* twice the L2's size */
    size_t l2_bytes;          /* the L2's size as the device reports it (0: not reported) */
    int *sink;
    int persisting_l2;        /* the device has a persisting-L2 carve-out, reset before each run */
    cudaEvent_t start;        /* where the last timed run started (the timeline's zero) */
    int status;               /* the exit status so far */
    int gpu_status;           /* why no GPU row can run: TK_EXIT_NO_GPU or TK_EXIT_DRIVER */
};

/* A starter's TODOs are still open (what tk_unfinished and tk_ranks_unfinished record), and
   whether they are. */
void tk_core_unfinished(void);
int tk_todo_open(void);

/* Prints usage to f: the shared --help text, and a front end's own lines. */
typedef void (*tk_usage_fn)(FILE *f, const char *prog);

/* A bad command line: says what was wrong, then the usage, and exits 2. */
void tk_core_refuse(const char *prog, const char *err, tk_usage_fn usage)
    __attribute__((noreturn));

/* Parses argv into c->opt: --help prints the usage and exits 0, a bad line exits 2;
   --describe prints "step=... row=... todo=open|done" and exits 0. Sets c->table's step, size,
   repetitions and CSV choice, the device "none" until one is known. */
void tk_core_options(struct tk_core *c, const char *step, const char *row, tk_usage_fn usage,
                     int argc, char **argv);

/* Refuses (tk_core_refuse: exit 2, in the step's words) a run whose shape, or any shape of
   its --shapes list, has a side the step does not hold (tk_side_refusal, options.h): once a
   run, after tk_core_options and before any work. */
void tk_core_check_sides(const struct tk_core *c, const char *step, tk_usage_fn usage,
                         const char *prog);

/* Exits 4, saying how much they need and how much the machine has (or, under a control
   group's memory limit, how much this process may use: hostmem.h), when two host matrices
   of bytes each do not fit. */
void tk_core_host_fits(const struct tk_core *c, const char *prog, size_t bytes);

/* Notes go with the table: stdout, or stderr when stdout carries CSV. */
void tk_core_say(const struct tk_core *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "STEP is unfinished: WHATits TODO(STEP) comments ... are still open." */
void tk_core_say_unfinished(const struct tk_core *c, const char *what);

/* No GPU row can run: says why (and that an unfinished starter is), then exits with the status
   so far, or c->gpu_status (3 where it is not set). */
void tk_core_skip_gpu(const struct tk_core *c, const char *problem) __attribute__((noreturn));

/* bytes of device memory (NULL for none), or exits 4 saying how much device c->dev has free. */
void *tk_core_alloc(const struct tk_core *c, size_t bytes);

/* Device c->dev's L2: sets scratch_bytes (twice its size) and persisting_l2. */
void tk_core_l2(struct tk_core *c);

/* Allocates the flush's scratch (written once, so that reading it reads no uninitialised
   memory) and sink, and the start event. */
void tk_core_gpu_buffers(struct tk_core *c);

/* Frees what tk_core_gpu_buffers allocated; no check: this may run on the way out of an error. */
void tk_core_release(struct tk_core *c);

/* One timed row: what runs, and what is poisoned before each run. Every hook gets arg. */
struct tk_timed {
    void (*work)(void *arg, cudaStream_t s, int last);   /* the timed work; last: the last run */
    void *arg;
    float *out;               /* out_bytes of out poisoned with TK_POISON_BYTE (0: none), */
    size_t out_bytes;
    struct { float *p; size_t n; unsigned bits; } fill[2];   /* then n floats at p with bits */
    void (*line_up)(void *arg);   /* NULL, or run after the flush, before the start event */
    int sync_device;          /* after each run, wait for every stream too */
    void (*combine)(void *arg, double *ms, int reps);    /* NULL, or the times across ranks */
};

/* Median, min and max in ms of opt.reps runs after opt.warmup: before each, outside the
   timing, the persisting L2 reset, t's buffers poisoned and the L2 emptied (otherwise every
   timed run would start by writing back the poison the memset left dirty in the L2: on the
   H100, 3.5% of the time of the copy and kernels alike); then the work between two events. */
void tk_core_time(struct tk_core *c, const struct tk_timed *t, struct tk_stats *s);

/* Several works timed in rounds: each of warmup + reps rounds runs t[0] to t[n - 1] in turn,
   each prepared and timed alone as above, so that the works of one round meet the same state
   of the GPU; ms[j][i] is work j's time in timed round i (no combine). A row passes
   opt.warmup and opt.reps. */
void tk_core_time_rounds(struct tk_core *c, const struct tk_timed *t, int n, int warmup,
                         int reps, double **ms);

/* opt.reps zeroed times, or exits 4 saying the host is out of memory. */
double *tk_core_ms(const struct tk_core *c);

/* Copies n floats from in to out on stream s: a float4 at a time where both are 16-byte
   aligned, several loads in flight a thread (flush.cu); the copy ceiling's kernel. */
void tk_copy_floats(const float *in, float *out, size_t n, cudaStream_t s);

/* Whether out (cols x rows) is exactly the transpose of in (rows x cols), or, for copies, in
   itself; for a wrong transpose, m (may be NULL) says where. */
int tk_core_exact(const float *in, const float *out, long rows, long cols, int copies,
                  struct tk_mismatch *m);

/* Checks out as tk_core_exact does and prints row: its figures when the output is exact;
   otherwise no figures, the status WRONG, and on stderr where and how the output was wrong. */
void tk_core_check_row(struct tk_core *c, const float *in, const float *out, long rows, long cols,
                       int copies, struct tk_row *row);

/* Prints the table's header, or one row of it (flushed when c->flush). */
void tk_core_header(const struct tk_core *c);
void tk_core_row(const struct tk_core *c, const struct tk_row *row);

/* The CPU+OMP row: times the transpose of in into out (at most 5 runs, out poisoned before
   each), then checks and prints it. */
void tk_core_cpu_row(struct tk_core *c, const float *in, float *out, long rows, long cols);

/* Why this machine has no usable GPU (a sentence, in why or static), or NULL; *count is the
   number of GPUs the CUDA runtime sees; *status the exit status that says so: TK_EXIT_DRIVER
   where the driver is older than this build's CUDA, TK_EXIT_NO_GPU otherwise. For the tests,
   TK_TEST_DRIVER_VERSION (1000 x major + 10 x minor, as CUDA reports it) stands in for the
   driver's version, which the check then finds too old where its major is below the
   runtime's. */
const char *tk_gpu_problem(int *count, int *status, char *why, size_t len);

/* Reads scratch (twice the L2's size) so that no operand of the next run is in the L2
   (flush.cu; tk_core_time calls it before every timed run). */
void tk_flush_l2(const void *scratch, size_t bytes, int *sink);

/* Fills n floats at p with the bit pattern bits, on stream s (flush.cu). */
void tk_fill_bits(float *p, size_t n, unsigned bits, cudaStream_t s);

/* How many of the n floats at device pointers a and b differ, bit for bit (flush.cu): a
   copy's check, made on the device, where the matrices are. */
size_t tk_count_differences(const float *a, const float *b, size_t n);

/* How many of the rows x cols floats at device pointer out differ, bit for bit, from the
   transpose of those at in (flush.cu): each way of a launch checked before it is timed
   (tk_fastest_way). */
size_t tk_count_transposed_differences(const float *in, const float *out, long rows, long cols);

#ifdef __cplusplus
}
#endif
#endif
