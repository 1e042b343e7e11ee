/* transpose-kit's harness: everything a step needs besides its own kernel.

   A step's main() reads:
       tk_begin(&run, "stepN", "GPU-xx", argc, argv);   arguments, input, device, CPU+OMP row
       ... allocate device buffers, copy run.in in, a first launch ...
       tk_time_gpu(&run, launch, d_in, d_out);   copy ceiling, then the kernel, timed
       ... copy the result back into run.out, free ...
       return tk_end(&run);                      exact check of run.out, the kernel's row, status
   A starter also calls tk_unfinished() first: ./transpose then says that the step's TODOs
   are still open (the lever benchmark's extra hooks are in bench.h). */
#ifndef TK_HARNESS_H
#define TK_HARNESS_H

#include <cuda_runtime_api.h>

#include "options.h"
#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The exit statuses, TK_EXIT_OK to TK_EXIT_TODO, are in options.h with what each means. */

struct tk_state;   /* the harness's own state (harness.c): nothing a step reads */

struct tk_run {
    int rows, cols;           /* the input is rows x cols (row-major), the output cols x rows */
    size_t bytes;             /* the size of one matrix in bytes */
    float *in;                /* host input, every element a distinct value */
    float *out;               /* host output: copy the GPU's result here before tk_end */
    struct tk_state *h;       /* the harness's own: options, device, timings, status */
};

/* Launches a step's kernel on device buffers; the harness times it with CUDA events. */
typedef void (*tk_launch_fn)(const float *d_in, float *d_out, int rows, int cols);

/* Called by a starter before tk_begin: the step's TODOs are still open. The program says so
   (with or without a GPU), --describe reports todo=open, and a run that was otherwise fine
   exits 5. The solution has no such call. */
void tk_unfinished(void);

/* Parses the command line (exit 2 on a bad one), fills run->in, prints the device line and
   the CPU+OMP row. step names the step ("step3"), row its kernel's row ("GPU-shared").
   --describe prints "step=... row=... todo=open|done" and exits 0 before any of that.
   Without a usable GPU it says why and exits 3. */
void tk_begin(struct tk_run *run, const char *step, const char *row, int argc, char **argv);

/* Times a device-to-device cudaMemcpy of the same bytes (the copy ceiling, printed at once),
   then the kernel: warm-up launches, then timed launches. Before each run, outside the
   timing, d_out is poisoned and the L2 emptied, so every run starts from the same state. */
void tk_time_gpu(struct tk_run *run, tk_launch_fn launch, const float *d_in, float *d_out);

/* Checks run->out exactly against the transpose of run->in, prints the kernel's row, frees
   the host matrices and returns the exit status (see --help). */
int tk_end(struct tk_run *run);

/* Wrap every CUDA call: on failure it prints file:line, the call and CUDA's reason, exits 4. */
#define CUDA_CHECK(call) tk_cuda_check((call), #call, __FILE__, __LINE__)
void tk_cuda_check(cudaError_t err, const char *what, const char *file, int line);

#ifdef __cplusplus
}
#endif
#endif
