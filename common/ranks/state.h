/* What the files of the harness across GPUs (common/ranks/) share: the state behind struct
   tk_ranks, and the functions one file calls in another. Internal to the harness, as core.h
   is: not for steps. Each function is described where it is defined. */
#ifndef TK_RANKS_STATE_H
#define TK_RANKS_STATE_H

#include "core.h"
#include "launch.h"
#include "ranks.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TK_MAX_MARKS 512

/* Behind struct tk_ranks: what a process keeps between tk_ranks_begin and tk_ranks_end. One
   a process, begin.c's; every file reaches it through rk->h. */
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

/* begin.c: what fork mode and launcher mode both use. */

/* Lines the ranks up: returns on each once all have reached it (its stream idle after). */
void tk_ranks_barrier(struct tk_ranks *rk);

/* What the probe finds. */
/* problem: 0, or the exit status that says why no GPU row can run (TK_EXIT_NO_GPU, _DRIVER) */
struct probe_msg { int count, problem, runtime, driver; char why[256], device[256]; };

void tk_ranks_probe_here(struct tk_ranks *rk, struct probe_msg *m);
int tk_ranks_cpu_row_here(struct tk_ranks *rk);
void tk_ranks_set_up_rank(struct tk_ranks *rk);
void tk_ranks_say_run(const char *step, const struct tk_ranks *rk, size_t bytes);
void tk_ranks_say_ranks(const struct tk_ranks *rk, const char *how);
void tk_ranks_fill_whole(struct tk_ranks *rk, const char *prog, size_t n, size_t bytes);

/* supervisor.c: fork mode's processes (in launcher mode, the probe and the CPU row here). */
const char *tk_ranks_probe(struct tk_ranks *rk, int *count, char *why, size_t len);
void tk_ranks_cpu_row(struct tk_ranks *rk);
void tk_ranks_fork_ranks(struct tk_ranks *rk);

/* launched.c: launcher mode's bootstrap. */
int tk_ranks_launched(struct tk_ranks *rk, const char *prog, int want);
void tk_ranks_begin_launched(struct tk_ranks *rk, const char *step, const char *prog,
                             size_t n, size_t bytes);

/* time.c: the rows. */

/* Each buffer's poison, NaNs no input value has: an output element holding one of them was
   never written (out), or came from a receive buffer no exchange had filled (recv), or from a
   send buffer no pack had filled (send). */
#define POISON_RECV 0x7FA0DEADu
#define POISON_SEND 0x7FB0BEEFu

/* v reduced over every rank by op (ncclSum, ncclMin, ...), returned on each. */
int tk_ranks_reduce(struct tk_ranks *rk, int v, ncclRedOp_t op);

/* explain.c: a wrong output explained. */

/* What the check of a part of a matrix on this rank found; for a stage that stores through
   the window, also the ranks whose every value here still holds the poison (bit X: rank X). */
struct check { const char *row; size_t wrong, poisoned, first; float got; uint64_t unstored; };

size_t tk_ranks_check_part(const struct tk_ranks *rk, const float *d, const struct tk_part *part,
                           struct check *ck);
void tk_ranks_explain_wrong(struct tk_ranks *rk, void *arg);

/* window.cu: stage (c)'s symmetric window. */

/* Frees the window and the device communicator where tk_ranks_time_window made them, on every
   rank at once (window.cu); d_out, which lay in the window, becomes NULL. */
void tk_ranks_window_end(struct tk_ranks *rk);

#ifdef __cplusplus
}
#endif
#endif
