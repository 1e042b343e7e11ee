/* What the lever benchmark needs from the harness besides harness.h: several kernels timed
   and checked in one run, through the two halves of tk_time_gpu's row that harness_state.h
   names. Between tk_begin and tk_next_shape, for each kernel:
       tk_time_row(&run, "name", launch, copies, d_in, d_out);   the kernel beside the ceiling
       ... copy the result back into run.out ...
       tk_check_row(&run);                                       its exact check and row
   Built from bench.c with the benchmark alone: no step links it. */
#ifndef TK_BENCH_H
#define TK_BENCH_H

#include "harness.h"
#include "harness_state.h"   /* tk_time_row, tk_check_row */
#include "matrix.h"          /* struct tk_mismatch */
#include "report.h"          /* tk_gbs */

#ifdef __cplusplus
extern "C" {
#endif

/* The options tk_begin parsed: reps, warmup, ... */
const struct tk_options *tk_run_options(const struct tk_run *run);

/* The GPU's compute capability, 10 x major + minor: 90 for 9.0. */
int tk_run_cc(const struct tk_run *run);

/* Whether run->out is exactly the transpose of run->in (copies: exactly run->in); for a wrong
   transpose, m (may be NULL) says where. For outputs the program checks itself. */
int tk_output_exact(const struct tk_run *run, int copies, struct tk_mismatch *m);

/* An output the program checked itself was wrong: tk_end returns TK_EXIT_WRONG. */
void tk_mark_wrong(struct tk_run *run);

#ifdef __cplusplus
}
#endif
#endif
