/* Behind struct tk_run: what the one-GPU harness (harness.c) keeps for the shape being run,
   and the two steps of tk_time_gpu and tk_next_shape that a program timing several kernels in
   one run calls itself (the lever benchmark's bench.c, scripts/bench). Not for steps. */
#ifndef TK_HARNESS_STATE_H
#define TK_HARNESS_STATE_H

#include "core.h"
#include "harness.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tk_state {
    struct tk_core core;
    const char *row;          /* the step's row name, "GPU-xx" */
    struct tk_row kernel;     /* the kernel timed last, printed once its output is checked */
    int kernel_copies;        /* that kernel is a yardstick that copies instead of transposing */
    int kernel_timed, kernel_reported;
    int finished;             /* tk_next_shape ended this shape */
};

/* tk_time_gpu for a kernel of the given row name. copies: the kernel is a yardstick that copies
   instead of transposing, and tk_check_row checks its output against the input itself. */
void tk_time_row(struct tk_run *run, const char *name, tk_launch_fn launch, int copies,
                 const float *d_in, float *d_out);

/* Checks run->out (copied back by the caller) against the transpose of run->in (copies:
   against run->in) and prints the last timed kernel's row, with where and how its output was
   wrong. Returns the status so far. */
int tk_check_row(struct tk_run *run);

#ifdef __cplusplus
}
#endif
#endif
