/* The rows of a run across GPUs (steps 8-10): see ranks.h. The two ceilings (NCCL moving the same
   blocks, the step's kernel on one GPU), then each stage timed on every rank by the core's
   method (core.h), its time the slowest rank's, and its output checked; tk_ranks_reduce; and
   --timeline's marks. A wrong output is explained by explain.c. C11 calling the CUDA
   runtime's and NCCL's C APIs. */
#include "state.h"

/* The bytes that cross from one GPU to another: every block but each rank's own. */
static double link_bytes(const struct tk_ranks *rk)
{
    double b = 0;
    for (int p = 0; p < rk->ranks; p++)
        for (int q = 0; q < rk->ranks; q++)
            if (p != q)
                b += (double)(rk->row0[p + 1] - rk->row0[p]) * (rk->col0[q + 1] - rk->col0[q]);
    return b * sizeof(float);
}

/* A row of the table, printed by rank 0. */
static void print_row(const struct tk_ranks *rk, const char *name, const char *note,
                      const struct tk_stats *ms, double link, int checked)
{
    struct tk_row row = { .name = name, .note = note, .ms = *ms, .checked = checked,
                          .link_bytes = link, .nccl_ms = rk->h->nccl_ms };
    tk_core_row(&rk->h->core, &row);
}

/* The library row's stage: NCCL moves every block (rank p's rows, rank q's columns) from p's
   d_send, where the harness packed them, to q's d_recv, stacked by source: the exchange of a
   stage without its packing and transposing. */
static void nccl_stage(struct tk_ranks *rk, cudaStream_t s)
{
    int p = rk->rank;
    long rp = rk->row0[p + 1] - rk->row0[p], cp = rk->col0[p + 1] - rk->col0[p];
    NCCL_CHECK(ncclGroupStart());
    for (int q = 0; q < rk->ranks; q++) {
        long cq = rk->col0[q + 1] - rk->col0[q], rq = rk->row0[q + 1] - rk->row0[q];
        if (rp && cq)
            NCCL_CHECK(ncclSend(rk->d_send + rp * rk->col0[q], rp * cq, ncclFloat, q, rk->comm, s));
        if (rq && cp)
            NCCL_CHECK(ncclRecv(rk->d_recv + rk->row0[q] * cp, rq * cp, ncclFloat, q, rk->comm, s));
    }
    NCCL_CHECK(ncclGroupEnd());
}

static void one_gpu_stage(struct tk_ranks *rk, cudaStream_t s)
{
    (void)s;   /* the step's launch uses the default stream, which waits for s and s for it */
    if (rk->rank == 0)
        rk->h->local(rk->h->one_in, rk->h->one_out, rk->rows, rk->cols);
}

/* The core's hooks for a stage (arg: the ranks): the ranks lined up before each run,
   --timeline's marks in the last, and each run's time the slowest rank's. */
static void line_up(void *rk)
{
    tk_ranks_barrier(rk);
}

static void run_stage(void *arg, cudaStream_t s, int last)
{
    struct tk_ranks *rk = arg;
    struct tk_ranks_state *h = rk->h;
    h->marking = h->timeline && last;
    h->nmarks = 0;
    h->stage(rk, s);
    h->marking = 0;
}

static void slowest_rank(void *arg, double *ms, int reps)
{
    struct tk_ranks *rk = arg;
    cudaStream_t s = rk->h->core.stream;
    double *dms = tk_core_alloc(&rk->h->core, (size_t)reps * sizeof *dms);
    CUDA_CHECK(cudaMemcpy(dms, ms, (size_t)reps * sizeof *ms, cudaMemcpyHostToDevice));
    NCCL_CHECK(ncclAllReduce(dms, dms, reps, ncclFloat64, ncclMax, rk->comm, s));
    CUDA_CHECK(cudaMemcpyAsync(ms, dms, (size_t)reps * sizeof *ms, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    CUDA_CHECK(cudaFree(dms));
}

/* Median, min and max over reps runs of stage: before each, out_n floats of out, d_recv and,
   where the stage packs, d_send poisoned, each with its own NaN. */
static void time_stage(struct tk_ranks *rk, tk_stage_fn stage, int packs, float *out,
                       size_t out_n, struct tk_stats *st)
{
    int p = rk->rank;
    struct tk_timed t = {
        .work = run_stage, .arg = rk, .out = out, .out_bytes = out_n * sizeof(float),
        .fill = { { rk->d_recv, tk_out_count(rk, p), POISON_RECV },
                  { rk->d_send, packs ? tk_in_count(rk, p) : 0, POISON_SEND } },
        .line_up = line_up, .sync_device = 1, .combine = slowest_rank,
    };
    rk->h->stage = stage;
    tk_core_time(&rk->h->core, &t, st);
}

/* Runs f(rk, arg) on each rank in turn, rank 0 first: output that does not interleave. */
static void in_turn(struct tk_ranks *rk, void (*f)(struct tk_ranks *, void *), void *arg)
{
    for (int q = 0; q < rk->ranks; q++) {
        tk_ranks_barrier(rk);
        if (q == rk->rank) { f(rk, arg); fflush(NULL); }
    }
    tk_ranks_barrier(rk);
}

int tk_ranks_reduce(struct tk_ranks *rk, int v, ncclRedOp_t op)
{
    struct tk_core *c = &rk->h->core;
    CUDA_CHECK(cudaMemcpy(c->sink, &v, sizeof v, cudaMemcpyHostToDevice));
    NCCL_CHECK(ncclAllReduce(c->sink, c->sink, 1, ncclInt, op, rk->comm, c->stream));
    CUDA_CHECK(cudaMemcpyAsync(&v, c->sink, sizeof v, cudaMemcpyDeviceToHost, c->stream));
    CUDA_CHECK(cudaStreamSynchronize(c->stream));
    return v;
}

void tk_ranks_mark(struct tk_ranks *rk, cudaStream_t s, const char *what, int k)
{
    struct tk_ranks_state *h = rk->h;
    if (!h->marking || h->nmarks >= TK_MAX_MARKS)
        return;
    CUDA_CHECK(cudaEventCreate(&h->marks[h->nmarks].ev));
    CUDA_CHECK(cudaEventRecord(h->marks[h->nmarks].ev, s));
    h->marks[h->nmarks].what = what;
    h->marks[h->nmarks++].k = k;
}

static void write_marks(struct tk_ranks *rk, void *arg)
{
    struct tk_ranks_state *h = rk->h;
    const char *row = arg;
    FILE *f = fopen(h->timeline, "a");
    if (!f) { fprintf(stderr, "rank %d: cannot write %s\n", rk->rank, h->timeline); return; }
    for (int i = 0; i < h->nmarks; i++) {
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, h->core.start, h->marks[i].ev));
        fprintf(f, "%s,%ld,%ld,%d,%s,%d,%.4f\n", row, rk->rows, rk->cols, rk->rank,
                h->marks[i].what, h->marks[i].k, ms);
        CUDA_CHECK(cudaEventDestroy(h->marks[i].ev));
    }
    h->nmarks = 0;
    fclose(f);
}

/* The two ceilings, timed once before the first row: NCCL's exchange of the same blocks,
   then the step's kernel on the whole matrix on GPU 0. */
static void ceilings(struct tk_ranks *rk)
{
    struct tk_ranks_state *h = rk->h;
    struct tk_stats st;
    struct check ck = { 0 };
    int p = rk->rank;
    long rp = rk->row0[p + 1] - rk->row0[p], cp = rk->col0[p + 1] - rk->col0[p];
    for (int q = 0; q < rk->ranks; q++) {   /* each destination's block, packed */
        long cq = rk->col0[q + 1] - rk->col0[q];
        if (rp && cq)
            CUDA_CHECK(cudaMemcpy2D(rk->d_send + rp * rk->col0[q], cq * sizeof(float),
                                    rk->d_in + rk->col0[q], rk->cols * sizeof(float),
                                    cq * sizeof(float), rp, cudaMemcpyDeviceToDevice));
    }
    time_stage(rk, nccl_stage, 0, NULL, 0, &st);
    /* d_recv must hold the input's columns col0[p] .. as rows x cp, stacked by source. */
    struct tk_part recv = { rk->rows, cp, (size_t)rk->col0[p], (size_t)rk->cols, 1 };
    size_t wrong = tk_ranks_check_part(rk, rk->d_recv, &recv, &ck);
    int bad = tk_ranks_reduce(rk, wrong != 0, ncclSum);
    h->nccl_ms = st.median;
    if (p == 0)
        print_row(rk, "NCCL all-to-all", "ncclSend/Recv", &st, link_bytes(rk), !bad);
    if (bad) {
        if (wrong) fprintf(stderr, "NCCL all-to-all: WRONG on rank %d: %zu elements\n", p, wrong);
        h->core.status = TK_EXIT_WRONG;
    }

    size_t all = (size_t)rk->rows * rk->cols;
    if (p == 0) {
        h->one_in = tk_core_alloc(&h->core, all * sizeof(float));
        h->one_out = tk_core_alloc(&h->core, all * sizeof(float));
        CUDA_CHECK(cudaMemcpy(h->one_in, h->full_in, all * sizeof(float), cudaMemcpyHostToDevice));
    }
    time_stage(rk, one_gpu_stage, 0, p == 0 ? h->one_out : NULL, p == 0 ? all : 0, &st);
    if (p == 0) {
        struct tk_part whole = { rk->cols, rk->rows, 0, 1, (size_t)rk->cols };
        int ok = !tk_ranks_check_part(rk, h->one_out, &whole, &ck);
        CUDA_CHECK(cudaFree(h->one_in));
        CUDA_CHECK(cudaFree(h->one_out));
        print_row(rk, "one GPU", "this step's kernel", &st, 0, ok);
        if (!ok) {
            fprintf(stderr, "one GPU: WRONG: the step's kernel on the whole matrix\n");
            h->core.status = TK_EXIT_WRONG;
        }
    }
    tk_ranks_barrier(rk);
}

void tk_ranks_time(struct tk_ranks *rk, const char *row, tk_stage_fn stage)
{
    struct tk_ranks_state *h = rk->h;
    struct tk_stats st;
    struct check ck = { .row = row };
    int p = rk->rank;
    if (!h->ceilings_done) {
        if (h->timeline && p == 0) {   /* a new file, its header first */
            FILE *f = fopen(h->timeline, "w");
            if (f) { fprintf(f, "row,rows,cols,rank,what,chunk,ms\n"); fclose(f); }
            else fprintf(stderr, "cannot write %s\n", h->timeline);
        }
        ceilings(rk);
        h->ceilings_done = 1;
    }
    time_stage(rk, stage, 1, rk->d_out, tk_out_count(rk, p), &st);
    if (h->timeline && h->nmarks)
        in_turn(rk, write_marks, (void *)row);

    /* This rank's output rows: out[c - col0[p]][r] = in[r][c]. */
    struct tk_part mine = { rk->col0[p + 1] - rk->col0[p], rk->rows, (size_t)rk->col0[p], 1,
                            (size_t)rk->cols };
    tk_ranks_check_part(rk, rk->d_out, &mine, &ck);
    int bad = tk_ranks_reduce(rk, ck.wrong != 0, ncclSum);
    /* A starter's stage that wrote nothing on any rank is not wrong: it is not written yet. */
    int untouched = tk_todo_open() &&
                    tk_ranks_reduce(rk, ck.poisoned != tk_out_count(rk, p), ncclSum) == 0;
    if (untouched) {
        if (p == 0)
            tk_core_say(&h->core, "%s: not run yet: its stage writes nothing; work through the "
                        "TODO(%s) comments in transpose.cu, then run make again.\n", row,
                        h->core.table.step);
        return;
    }
    if (p == 0)
        print_row(rk, row, NULL, &st, link_bytes(rk), !bad);
    if (bad)
        in_turn(rk, tk_ranks_explain_wrong, &ck);
    if (ck.wrong)
        h->core.status = TK_EXIT_WRONG;
}
