/* What a program that times several kernels in one run needs besides harness.h (the lever
   benchmark, scripts/bench): not for steps. Between tk_begin and tk_end, for each kernel:
       tk_time_kernel(&run, "name", launch, copies, d_in, d_out);   copy ceiling, then the kernel
       ... copy the result back into run.out ...
       tk_report_kernel(&run);                                      its exact check and row */
#ifndef TK_BENCH_H
#define TK_BENCH_H

#include "harness.h"
#include "matrix.h"    /* struct tk_mismatch */

#ifdef __cplusplus
extern "C" {
#endif

/* Behind struct tk_run: what the harness keeps between tk_begin and tk_end. */
struct tk_state {
    struct tk_options opt;
    struct tk_table table;
    char device_name[256];
    double copy_gbs;          /* the copy ceiling measured in this run */
    void *scratch;            /* read before each timed run to empty the L2 (flush.cu) */
    size_t scratch_bytes;
    int *sink;
    int persisting_l2;        /* the device has a persisting-L2 carve-out, reset before each run */
    const char *row;          /* the step's row name, "GPU-xx" */
    struct tk_row kernel;     /* the step's row, printed by tk_end once its output is checked */
    int kernel_copies;        /* the kernel timed last copies instead of transposing */
    int kernel_timed, kernel_reported, status;
};

/* The options tk_begin parsed: reps, warmup, ... */
const struct tk_options *tk_run_options(const struct tk_run *run);

/* The GPU's compute capability, 10 x major + minor: 90 for 9.0. */
int tk_run_cc(const struct tk_run *run);

/* tk_time_gpu for a kernel of the given row name. copies: the kernel is a yardstick that copies
   instead of transposing, and tk_report_kernel checks its output against the input itself. */
void tk_time_kernel(struct tk_run *run, const char *name, tk_launch_fn launch, int copies,
                    const float *d_in, float *d_out);

/* Checks run->out (copied back by the caller) against the transpose of run->in and prints the
   last timed kernel's row, with where and how its output was wrong. Returns the status so far. */
int tk_report_kernel(struct tk_run *run);

/* Whether run->out is exactly the transpose of run->in (copies: exactly run->in); for a wrong
   transpose, m (may be NULL) says where. For outputs the program checks itself. */
int tk_output_exact(const struct tk_run *run, int copies, struct tk_mismatch *m);

/* An output the program checked itself was wrong: tk_end returns TK_EXIT_WRONG. */
void tk_mark_wrong(struct tk_run *run);

/* Reads scratch (twice the L2's size) so that no operand of the next run is in the L2
   (flush.cu; the harness calls it before every timed run). */
void tk_flush_l2(const void *scratch, size_t bytes, int *sink);

/* Why this machine has no usable GPU (a sentence, in why or static), or NULL; *count is the
   number of GPUs the CUDA runtime sees. */
const char *tk_gpu_problem(int *count, char *why, size_t len);

/* The CPU+OMP row: times the transpose of in into out (at most 5 runs, out poisoned before
   each) into row->ms, and names the row; the caller checks out and prints the row. */
void tk_time_cpu(const float *in, float *out, int rows, int cols, int reps, int warmup,
                 struct tk_row *row);

/* Lines marked persisting survive the L2 flush, and a carve-out set aside for them shrinks
   the L2 every other access gets. Called before each timed run where the device has such a
   carve-out (cudaDevAttrMaxPersistingL2CacheSize > 0), whatever a launch may have set: the
   limit back to zero and every persisting line back to normal. */
void tk_reset_persisting_l2(void);

/* Fills n floats at p with the bit pattern bits, on stream s (flush.cu). */
void tk_fill_bits(float *p, size_t n, unsigned bits, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
