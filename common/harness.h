/* transpose-kit's harness: everything a step needs besides its own kernel.

   A step's main() reads:
       tk_begin(&run, "stepN", "GPU-xx", argc, argv);   arguments, input, device, CPU+OMP row
       do {
           ... allocate device buffers, copy run.in in, a first launch ...
           tk_time_gpu(&run, launch, d_in, d_out);   copy ceiling, then the kernel, timed
           ... copy the result back into run.out, free ...
       } while (tk_next_shape(&run));   exact check of run.out, the kernel's row; the next shape
       return tk_end(&run);             the exit status
   The loop's body runs once, or with --shapes (the grader's) once for each shape of the list,
   all in this one process. A starter also calls tk_unfinished() first: ./transpose then says
   that the step's TODOs are still open. */
#ifndef TK_HARNESS_H
#define TK_HARNESS_H

#include "cuda_check.h"   /* CUDA_CHECK */
#include "options.h"      /* the exit statuses, TK_EXIT_OK to TK_EXIT_TODO, with what each means */

#ifdef __cplusplus
extern "C" {
#endif

struct tk_state;   /* the harness's own state (harness_state.h): nothing a step reads */

struct tk_run {
    long rows, cols;          /* the input is rows x cols (row-major), the output cols x rows;
                                 each side at most TK_INT_SIDE_MAX unless the program takes
                                 long sides (tk_begin) */
    size_t bytes;             /* the size of one matrix in bytes */
    float *in;                /* host input, every element a distinct value */
    float *out;               /* host output: copy the GPU's result here before tk_next_shape */
    struct tk_state *h;       /* the harness's own: options, device, timings, status */
};

/* Launches a step's kernel on device buffers; the harness times it with CUDA events. A launch
   of int sides is never given a side past TK_INT_SIDE_MAX: the programs that take long sides
   are named in tk_takes_long_sides (options.h), the others refuse such a shape in tk_begin. */
typedef void (*tk_launch_fn)(const float *d_in, float *d_out, int rows, int cols);
typedef void (*tk_launch_long_fn)(const float *d_in, float *d_out, long rows, long cols);

/* Called by a starter before tk_begin: the step's TODOs are still open. The program says so
   (with or without a GPU), --describe reports todo=open, and a run that was otherwise fine
   exits 5. The solution has no such call. */
void tk_unfinished(void);

/* Parses the command line (exit 2 on a bad one), fills run->in for the first shape, prints
   the device line and the CPU+OMP row. step names the step ("step3"), row its kernel's row
   ("GPU-shared"). --describe prints "step=... row=... todo=open|done" and exits 0 before any
   of that. Without a usable GPU it says why and exits 3. A shape with a side past
   TK_INT_SIDE_MAX is refused (exit 2, in the step's words, naming step 7) unless the program
   takes long sides (tk_takes_long_sides, options.h). */
void tk_begin(struct tk_run *run, const char *step, const char *row, int argc, char **argv);

/* Times the kernel beside the copy ceiling: warm-up rounds, then timed rounds, each running
   a device-to-device cudaMemcpy of the same bytes, a copy kernel and the kernel, in turn.
   The ceiling (printed at once) is the faster copy of each round; the kernel's % of copy, its
   time against its own round's ceiling. Before each run, outside the timing, d_out is
   poisoned and the L2 emptied, so every run starts from the same state. */
void tk_time_gpu(struct tk_run *run, tk_launch_fn launch, const float *d_in, float *d_out);
void tk_time_gpu_long(struct tk_run *run, tk_launch_long_fn launch, const float *d_in,
                      float *d_out);

/* For a launch that can run in several ways (step 7's block orders and windows): which of
   the n ways is the fastest at this shape. way(k) sets way k; the launch runs five times in
   each way, in turn, each run timed alone with CUDA events on the default stream (where the
   launch must run) and prepared as a row's runs are (its output poisoned, the L2 emptied),
   and the way of least time is set (way(k)) and returned; a note under the row gives each
   way's time (names[k], n of them, names way k). Every launch and event is checked.
   Before the timing each way runs once, untimed, its output poisoned before and checked
   exactly on the device after: where a way's output is not exact, the first such way is set
   and returned instead, so that the row's own check shows its output, and the note says which
   ways were wrong; if that way's output then comes out exact in the row (a race), the run is
   wrong all the same. The output is whatever the last run left: call it before the launch
   whose output counts, and mark the shape as asked for first, for the launch runs here
   again. TK_WAY=K in the
   environment sets and returns way K untimed (the tests check each way so); a TK_WAY that
   names no way ends the run, saying so (exit 2), as does a launch that asks again while it
   is being timed, or one that asks outside a shape (before tk_begin, or after its buffers
   were freed). */
int tk_fastest_way(tk_launch_long_fn launch, void (*way)(int k), const char *const *names,
                   int n, const float *d_in, float *d_out, long rows, long cols);

/* Ends this shape: checks run->out exactly against the transpose of run->in, prints the
   kernel's row (or, where the kernel never ran, says which TODOs are open and exits 5), and
   frees the host matrices. With --shapes, where another shape follows and this one was
   exact (or --keep-going), begins that shape as tk_begin began the first and returns 1;
   otherwise returns 0. */
int tk_next_shape(struct tk_run *run);

/* The exit status of the whole run (see --help): after the loop. A main without the loop
   ends its one shape here; given more shapes with --shapes, it says so and returns 2. */
int tk_end(struct tk_run *run);

#ifdef __cplusplus
}
/* In a .cu file tk_time_gpu takes either kind of launch. */
static inline void tk_time_gpu(struct tk_run *run, tk_launch_long_fn launch, const float *d_in,
                               float *d_out)
{
    tk_time_gpu_long(run, launch, d_in, d_out);
}
#endif
#endif
