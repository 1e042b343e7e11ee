/* Stage (c)'s symmetric window across GPUs (step 10): see tk_ranks_time_window in ranks.h.
   Made at the first stage that asks for it, on every rank at once, never before: a run that
   times no such stage neither pays for it nor depends on what it needs (CUDA's virtual memory
   management, load/store access between every pair of GPUs).
   C-style host code; a .cu file because NCCL's device communicator, ncclDevComm, is a type
   of its C++ device API (nccl_device.h). */
#include "state.h"

#include <string.h>

static ncclDevComm dev;   /* this rank's device communicator: one run a process */

/* Why the window could not be made, for the skip's message: the failed call and NCCL's
   reasons, and what it needs. */
static void say_why(struct tk_ranks *rk, const char *call, ncclResult_t r)
{
    const char *last = ncclGetLastError(rk->comm);
    if (!last) last = "";
    snprintf(rk->h->window_why, sizeof rk->h->window_why, "%s failed (%s%s%s): NCCL decides "
             "when the communicator is made whether it supports symmetric memory, which needs "
             "CUDA's virtual memory management (NCCL_CUMEM_ENABLE) and the ranks' GPUs able to "
             "load from and store to each other; NCCL_DEBUG=INFO prints its reason", call,
             ncclGetErrorString(r), *last ? ": " : "", last);
}

/* On every rank at once: the device communicator with rk->ctas LSA barriers, then d_out's
   window of tk_window_count(rk) floats (NCCL wants the same size on every rank). Returns 1
   with rk->win, rk->dev and rk->ctas set and d_out in the window; 0, rk->h->window_why
   saying why, with nothing of it left. Each step's outcome is agreed on by every rank before
   the next collective call, so that no rank waits in one that another skips. */
static int make_window(struct tk_ranks *rk)
{
    struct tk_core *c = &rk->h->core;
    int sms = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, c->dev));
    int ctas = TK_CTAS_PER_SM * tk_ranks_reduce(rk, sms, ncclMin);

    ncclDevCommRequirements reqs;
    memset(&reqs, 0, sizeof reqs);
    reqs.lsaBarrierCount = ctas;
    ncclResult_t r = ncclDevCommCreate(rk->comm, &reqs, &dev);
    if (!tk_ranks_reduce(rk, r == ncclSuccess, ncclMin)) {
        say_why(rk, "ncclDevCommCreate", r);
        if (r == ncclSuccess) ncclDevCommDestroy(rk->comm, &dev);
        return 0;
    }
    /* ncclGetLsaPointer takes a rank of the LSA team: the world's own ranks where it is all. */
    if (!tk_ranks_reduce(rk, dev.lsaSize == rk->ranks && dev.lsaRank == rk->rank, ncclMin)) {
        snprintf(rk->h->window_why, sizeof rk->h->window_why, "only %d of the %d ranks can load "
                 "from and store to each other's memory (NCCL's LSA team)", dev.lsaSize,
                 rk->ranks);
        ncclDevCommDestroy(rk->comm, &dev);
        return 0;
    }

    size_t bytes = tk_window_count(rk) * sizeof(float);
    void *buf = NULL;
    r = ncclMemAlloc(&buf, bytes);
    if (!tk_ranks_reduce(rk, r == ncclSuccess, ncclMin)) {
        say_why(rk, "ncclMemAlloc", r);
        if (r == ncclSuccess) ncclMemFree(buf);
        ncclDevCommDestroy(rk->comm, &dev);
        return 0;
    }
    ncclWindow_t win = NULL;
    r = ncclCommWindowRegister(rk->comm, buf, bytes, &win, NCCL_WIN_COLL_SYMMETRIC);
    if (!tk_ranks_reduce(rk, r == ncclSuccess && win != NULL, ncclMin)) {
        say_why(rk, "ncclCommWindowRegister", r);
        if (win) ncclCommWindowDeregister(rk->comm, win);
        ncclMemFree(buf);
        ncclDevCommDestroy(rk->comm, &dev);
        return 0;
    }
    CUDA_CHECK(cudaFree(rk->d_out));
    rk->d_out = (float *)buf;
    rk->win = win;
    rk->dev = &dev;
    rk->ctas = ctas;
    return 1;
}

void tk_ranks_time_window(struct tk_ranks *rk, const char *row, tk_stage_fn stage)
{
    struct tk_ranks_state *h = rk->h;
    if (!h->window_tried) {
        h->window_tried = 1;
        make_window(rk);
    }
    if (!rk->win) {
        if (rk->rank == 0)
            tk_core_say(&h->core, "%s: skipped: %s\n", row, h->window_why);
        return;
    }
    h->window = 1;
    tk_ranks_time(rk, row, stage);
    h->window = 0;
}

void tk_ranks_window_end(struct tk_ranks *rk)
{
    if (!rk->win)
        return;
    ncclDevCommDestroy(rk->comm, &dev);
    ncclCommWindowDeregister(rk->comm, rk->win);
    ncclMemFree(rk->d_out);
    rk->win = NULL;
    rk->dev = NULL;
    rk->d_out = NULL;
}
