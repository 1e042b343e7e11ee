/* transpose-kit's harness across GPUs (steps 8 to 10): one process a GPU, joined by NCCL.

   A rows x cols matrix is split by blocks of rows over P ranks, one a GPU: rank p holds input
   rows row0[p] .. row0[p + 1] - 1 (all columns), and must end with its block of rows of the
   output, output rows (input columns) col0[p] .. col0[p + 1] - 1, each rows floats long. A
   step's main() reads:
       tk_ranks_begin(&rk, "step8", "GPU-xx", local, argc, argv);   arguments, CPU+OMP row,
                                                                    one process a GPU
       tk_ranks_time(&rk, "GPU-...", stage);       the stage, timed on every rank, checked
       return tk_ranks_end(&rk);                   every rank's status
   Between begin and end the program runs once on each rank, in its own process: each rank
   has its device, its communicator, its rows of the input filled, and buffers for a stage.
   The harness also times, in the same run, two ceilings: NCCL moving the same blocks between
   the same GPUs (grouped ncclSend/ncclRecv: the library row), and the whole matrix
   transposed on one GPU by the step's own kernel (the one-GPU row).
   A stage whose kernel stores into other ranks' output itself (stage (c), step 10) is timed with
   tk_ranks_time_window instead: d_out then lies in a symmetric window of NCCL's device API
   (nccl_device.h, which this header includes for CUDA sources), which every rank's kernel
   reaches through ncclGetLsaPointer(win, offset, rank). */
#ifndef TK_RANKS_H
#define TK_RANKS_H

#include <cuda_runtime_api.h>
#include <nccl.h>
#ifdef __CUDACC__
#include <nccl_device.h>   /* ncclDevComm, ncclGetLsaPointer, ncclLsaBarrierSession: device code */
#endif

#include "cuda_check.h"   /* CUDA_CHECK */
#include "options.h"      /* the exit statuses */
#include "matrix.h"       /* tk_split, tk_chunk_first */

#ifdef __cplusplus
extern "C" {
#endif

#define TK_MAX_RANKS 64

/* A kernel that syncs the ranks (stage (c)) runs rk->ctas blocks on every rank: this many a
   multiprocessor of the smallest GPU, each with an LSA barrier of its own (blockIdx.x). A
   block waits there for the block of the same index on every other GPU, so all of them must
   run at once: the kernel declares __launch_bounds__(threads, TK_CTAS_PER_SM), which keeps
   its registers few enough for that many blocks a multiprocessor (2 blocks of 512 threads
   fit on every GPU from Turing on, given the shared memory). */
#define TK_CTAS_PER_SM 2

struct tk_ranks_state;   /* the harness's own */
struct ncclDevComm;      /* NCCL's device communicator (nccl_device.h) */

struct tk_ranks {
    int rank, ranks;            /* this process's rank (its GPU), and how many there are */
    long rows, cols;            /* the whole input, rows x cols; the output is cols x rows */
    long row0[TK_MAX_RANKS + 1];   /* rank p holds input rows row0[p] .. row0[p + 1] - 1 */
    long col0[TK_MAX_RANKS + 1];   /* ... and ends with output rows col0[p] .. col0[p + 1] - 1 */
    ncclComm_t comm;            /* every rank's communicator */
    float *d_in;                /* this rank's input rows: (row0[p+1] - row0[p]) x cols */
    float *d_send, *d_recv;     /* staging for a stage: d_send tk_in_count(rk, p) floats (as
                                   d_in), d_recv tk_out_count(rk, p) floats (as d_out);
                                   step8/README.md says what lies where in each */
    float *d_out;               /* this rank's output rows: (col0[p+1] - col0[p]) x rows */
    /* From the first tk_ranks_time_window on (NULL or 0 before, and where it was skipped):
       d_out lies at offset 0 of win, a symmetric window of tk_window_count(rk) floats on
       every rank (the most output rows any rank holds, times rows; at least 1 float); dev
       is the device communicator a kernel takes by value (*rk->dev), with rk->ctas LSA
       barriers, one a block (index blockIdx.x). */
    ncclWindow_t win;
    const struct ncclDevComm *dev;
    int ctas;
    struct tk_ranks_state *h;   /* the harness's own: options, timings, status */
};

/* The floats in rank p's input rows, and in its output rows. */
static inline size_t tk_in_count(const struct tk_ranks *rk, int p)
{
    return (size_t)(rk->row0[p + 1] - rk->row0[p]) * rk->cols;
}
static inline size_t tk_out_count(const struct tk_ranks *rk, int p)
{
    return (size_t)(rk->col0[p + 1] - rk->col0[p]) * rk->rows;
}

/* The floats of the symmetric window on every rank: the largest rank's output, at least 1. */
static inline size_t tk_window_count(const struct tk_ranks *rk)
{
    size_t most = 1;
    for (int q = 0; q < rk->ranks; q++)
        if (tk_out_count(rk, q) > most)
            most = tk_out_count(rk, q);
    return most;
}

/* A stage: moves rank rk->rank's part of the transpose on stream s, from d_in to d_out
   (using d_send and d_recv as it likes). All its work must be ordered before s's later work:
   other streams it uses are joined back into s before it returns. */
typedef void (*tk_stage_fn)(struct tk_ranks *rk, cudaStream_t s);

/* Launches a step's one-GPU kernel (the one-GPU row), as tk_launch_fn in harness.h. */
typedef void (*tk_local_fn)(const float *d_in, float *d_out, long rows, long cols);

/* Called by a starter before tk_ranks_begin: its TODOs are still open (as tk_unfinished). */
void tk_ranks_unfinished(void);

/* Parses the command line (--ranks P, --timeline FILE and --id-file PATH besides every step's
   options). Fork mode, the default: runs the CPU+OMP row, checks that P GPUs are there, then
   forks one process a GPU and returns in each, set up as rank rk->rank; the parent waits for
   the ranks and exits with the worst status: it never returns. Launcher mode (--id-file or
   TK_ID_FILE; launch.h): this process is one of the ranks a launcher started; it returns set
   up as the rank the environment names, rank 0 having run the CPU+OMP row, and NCCL's id
   having gone through the file. row names the step's main row (for --describe); local is the
   step's one-GPU kernel, timed by rank 0. */
void tk_ranks_begin(struct tk_ranks *rk, const char *step, const char *row, tk_local_fn local,
                    int argc, char **argv);

/* Times stage on every rank (warm-up runs, then timed runs; before each, outside the timing,
   every buffer poisoned with its own NaN pattern, the L2 emptied and the ranks lined up), the
   run's time being the slowest rank's; then checks every rank's output and prints the row. */
void tk_ranks_time(struct tk_ranks *rk, const char *row, tk_stage_fn stage);

/* As tk_ranks_time, for a stage in which one kernel of each rank stores into every rank's output
   rows itself, through the symmetric window (rk->win, rk->dev, rk->ctas). Its first call, on
   every rank at once, moves d_out into the window and makes the device communicator; where
   NCCL cannot (no CUDA virtual memory management, GPUs without load/store access to each
   other), it says why and skips the row, here and at every later call, the exit status
   untouched. A wrong output is explained in the terms of windows. */
void tk_ranks_time_window(struct tk_ranks *rk, const char *row, tk_stage_fn stage);

/* Records, for --timeline, that work of the given kind for chunk k ends here on stream s. */
void tk_ranks_mark(struct tk_ranks *rk, cudaStream_t s, const char *what, int k);

/* Frees this rank's buffers and communicator; returns its exit status. */
int tk_ranks_end(struct tk_ranks *rk);

#define NCCL_CHECK(call) tk_nccl_check((call), #call, __FILE__, __LINE__)
void tk_nccl_check(ncclResult_t r, const char *what, const char *file, int line);

#ifdef __cplusplus
}
#endif
#endif
