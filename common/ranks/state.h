/* What the files of the harness's front end across GPUs share: begin.c (the processes),
   time.c (the rows) and window.cu (the symmetric window of stage (c)). Internal
   to the harness, as core.h is: not for steps. */
#ifndef TK_RANKS_STATE_H
#define TK_RANKS_STATE_H

#include "core.h"
#include "launch.h"
#include "ranks.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TK_MAX_MARKS 512

/* Behind struct tk_ranks: what a process keeps between tk_ranks_begin and tk_ranks_end. */
struct tk_ranks_state {
    struct tk_core core;
    tk_local_fn local;          /* the step's one-GPU kernel, for the one-GPU row */
    const char *timeline;       /* --timeline FILE, or NULL */
    float *full_in;             /* the whole input, filled before the fork (shared, read-only);
                                   in launcher mode rank 0's own, and NULL on another rank once
                                   its rows are on its GPU (its checks use tk_value) */
    float *one_in, *one_out;    /* rank 0's whole matrices, for the one-GPU row */
    double nccl_ms;             /* the NCCL row's median, once timed */
    int ceilings_done;
    tk_stage_fn stage;          /* the stage being timed */
    int marking, nmarks;        /* --timeline: the marks of the run being timed */
    struct { cudaEvent_t ev; const char *what; int k; } marks[TK_MAX_MARKS];
    int window;                 /* the stage being timed stores through the window */
    int window_tried;           /* the window was asked for (window.cu) */
    char window_why[512];       /* why it could not be made: the skip's reason */
    const char *id_file;        /* launcher mode's id file (--id-file, TK_ID_FILE); NULL in
                                   fork mode */
    struct tk_launch launch;    /* launcher mode: who this process is */
};

/* Lines the ranks up: returns on each once all have reached it (its stream idle after). */
void tk_ranks_barrier(struct tk_ranks *rk);

/* v reduced over every rank by op (ncclSum, ncclMin, ...), returned on each. */
int tk_ranks_reduce(struct tk_ranks *rk, int v, ncclRedOp_t op);

/* Frees the window and the device communicator where tk_ranks_time_window made them, on every
   rank at once (window.cu); d_out, which lay in the window, becomes NULL. */
void tk_ranks_window_end(struct tk_ranks *rk);

#ifdef __cplusplus
}
#endif
#endif
