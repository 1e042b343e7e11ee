/* What the two files of the harness's front end across GPUs share: ranks.c (the processes)
   and ranks_time.c (the rows). Internal to the harness, as core.h is: not for steps. */
#ifndef TK_RANKS_STATE_H
#define TK_RANKS_STATE_H

#include "core.h"
#include "ranks.h"

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
};

/* Lines the ranks up: returns on each once all have reached it (its stream idle after). */
void tk_ranks_barrier(struct tk_ranks *rk);

#endif
