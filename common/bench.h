/* Hooks for programs that time several kernels in one run (scripts/levers): not for steps. */
#ifndef TK_BENCH_H
#define TK_BENCH_H

#include "harness.h"

#ifdef __cplusplus
extern "C" {
#endif

/* tk_time_gpu for a kernel of the given row name; run->kernel_copies marks a yardstick. */
void tk_time_kernel(struct tk_run *run, const char *name, tk_launch_fn launch,
                    const float *d_in, float *d_out);

/* Checks run->out (copied back by the caller) against the transpose of run->in and prints
   the last timed kernel's row. Returns the status so far. */
int tk_report_kernel(struct tk_run *run);

/* Whether run->out is exactly the transpose of run->in (copies: exactly run->in); for a wrong
   transpose, m (may be NULL for copies) says where. */
struct tk_mismatch;
int tk_output_exact(const struct tk_run *run, int copies, struct tk_mismatch *m);

/* Reads scratch (twice the L2's size) so that no operand of the next run is in the L2
   (flush.cu; the harness calls it before every timed run). */
void tk_flush_l2(const void *scratch, size_t bytes, int *sink);

#ifdef __cplusplus
}
#endif
#endif
