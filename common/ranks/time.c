/* The harness's front end across GPUs (step 8), its rows: see ranks.h. The two ceilings (NCCL
   moving the same blocks, the step's kernel on one GPU), then each stage timed on every rank
   by the core's method (core.h), its time the slowest rank's, its output checked and a wrong
   one explained in the terms of ranks and blocks (or, for stage (c), windows); and the
   timeline. C11 calling the CUDA runtime's and NCCL's C APIs. */
#include "explain.h"
#include "state.h"

#include <stdlib.h>
#include <string.h>

/* Each buffer's poison, NaNs no input value has: an output element holding one of them was
   never written (out), or came from a receive buffer no exchange had filled (recv), or from a
   send buffer no pack had filled (send). */
#define POISON_RECV 0x7FA0DEADu
#define POISON_SEND 0x7FB0BEEFu

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

/* What the check of a part of a matrix on this rank found; for a stage that stores through
   the window, also the ranks whose every value here still holds the poison (bit X: rank X). */
struct check { const char *row; size_t wrong, poisoned, first; float got; uint64_t unstored; };

/* The owner of input row r, and of output row (input column) c. */
static int owner(const long *first, int ranks, long i)
{
    int p = 0;
    while (p + 1 < ranks && first[p + 1] <= i) p++;
    return p;
}

/* In this rank's output rows h, the ranks none of whose values arrived: output column r holds
   rank X's input row r (X = owner(row0, r)); bit X is set where every element of X's columns
   still holds the poison and X holds rows. Zero unless such ranks are all that is wrong. */
static uint64_t unstored_ranks(const struct tk_ranks *rk, const float *h, size_t wrong)
{
    size_t missing[TK_MAX_RANKS] = { 0 }, all = 0;
    long nc = rk->col0[rk->rank + 1] - rk->col0[rk->rank];
    uint64_t set = 0;
    for (long a = 0; a < nc; a++)
        for (long r = 0, x = 0; r < rk->rows; r++) {
            uint32_t bits;
            while (rk->row0[x + 1] <= r) x++;
            memcpy(&bits, &h[(size_t)a * rk->rows + r], 4);
            missing[x] += bits == TK_POISON_BITS;
        }
    for (int x = 0; x < rk->ranks; x++) {
        size_t held = (size_t)(rk->row0[x + 1] - rk->row0[x]) * nc;
        if (held && missing[x] == held) { set |= 1ull << x; all += held; }
    }
    return all == wrong ? set : 0;
}

/* Copies the device part d, of shape part, back and checks it against the whole input. */
static size_t check_part(const struct tk_ranks *rk, const float *d, const struct tk_part *part,
                         struct check *ck)
{
    size_t n = (size_t)part->rows * part->len;
    float *h = malloc(n * sizeof *h + 1);
    if (!h) { fprintf(stderr, "%s: out of host memory\n", rk->h->core.who); exit(TK_EXIT_CUDA); }
    CUDA_CHECK(cudaMemcpy(h, d, n * sizeof *h, cudaMemcpyDeviceToHost));
    ck->wrong = tk_check_part(rk->h->full_in, h, part, &ck->poisoned, &ck->first);
    if (ck->wrong)
        ck->got = h[ck->first];
    if (ck->wrong && rk->h->window && d == rk->d_out)   /* the window's rows, not a ceiling's */
        ck->unstored = unstored_ranks(rk, h, ck->wrong);
    free(h);
    return ck->wrong;
}

/* A wrong element of a stage that stores through the window: the poison (no store reached
   it), or a value of another rank's output rows (a tile stored into the wrong window). */
static void explain_window(const struct tk_ranks *rk, const struct check *ck, long c, long r)
{
    int p = rk->rank, x = owner(rk->row0, rk->ranks, r);
    size_t s;
    uint32_t bits;
    memcpy(&bits, &ck->got, 4);
    if (bits == TK_POISON_BITS) {
        fprintf(stderr, "  evidence: out[%ld][%ld] on rank %d still holds its poison: no store "
                "reached it; in[%ld][%ld] is rank %d's (its row %ld), which rank %d's kernel "
                "stores into rank %d's window\n", c, r, p, r, c, x, r, x, p);
        if (!ck->unstored)
            return;
        char ranks[TK_MAX_RANKS * 4] = "", *at = ranks;
        for (int q = 0; q < rk->ranks; q++)
            if (ck->unstored >> q & 1)
                at += snprintf(at, (size_t)(ranks + sizeof ranks - at), "%s%d",
                               at == ranks ? "" : ", ", q);
        tk_print_pattern(stderr, TK_PATTERN_RANK_UNSTORED, ": no value of the rows of rank %s "
                         "reached rank %d's window, and nothing else is wrong there\n", ranks, p);
    } else if (tk_value_index(ck->got, &s) && s < (size_t)rk->rows * rk->cols) {
        long sr = (long)(s / rk->cols), sc = (long)(s % rk->cols);
        int to = owner(rk->col0, rk->ranks, sc);
        fprintf(stderr, "  evidence: out[%ld][%ld] on rank %d holds in[%ld][%ld], a value of rank "
                "%d's rows that belongs in rank %d's window (it should hold in[%ld][%ld])\n", c,
                r, p, sr, sc, owner(rk->row0, rk->ranks, sr), to, r, c);
        if (to != p)
            tk_print_pattern(stderr, TK_PATTERN_WRONG_WINDOW, ": in[%ld][%ld] belongs in rank "
                             "%d's window (output row %ld is rank %d's), not in rank %d's: a tile "
                             "was stored through the wrong rank's pointer\n", sr, sc, to, sc, to,
                             p);
        else
            tk_print_pattern(stderr, TK_PATTERN_UNKNOWN, ": in[%ld][%ld] is in the right rank's "
                             "window, at the wrong place in it\n", sr, sc);
    }
}

/* Where a wrong element's value came from, in the terms of ranks and blocks. */
static void explain_wrong(struct tk_ranks *rk, void *arg)
{
    struct check *ck = arg;
    if (!ck->wrong) return;
    int p = rk->rank;
    long c0 = rk->col0[p], nc = rk->col0[p + 1] - c0;
    size_t total = (size_t)nc * rk->rows;
    long c = (long)(ck->first / rk->rows) + c0, r = (long)(ck->first % rk->rows);
    char got[96];
    tk_describe_value(ck->got, rk->rows, rk->cols, got, sizeof got);
    fprintf(stderr, "%s: WRONG on rank %d: %zu of its %zu elements differ.\n"
            "  first at out[%ld][%ld]: expected in[%ld][%ld] (rank %d's rows), got %s\n",
            ck->row, p, ck->wrong, total, c, r, r, c, owner(rk->row0, rk->ranks, r), got);
    if (rk->h->window) {
        explain_window(rk, ck, c, r);
        return;
    }
    uint32_t bits;
    size_t s;
    memcpy(&bits, &ck->got, 4);
    if (bits == POISON_RECV || bits == POISON_SEND)
        fprintf(stderr, "  evidence: out[%ld][%ld] on rank %d holds the %s buffer's poison, "
                "0x%08X (it should hold in[%ld][%ld])\n", c, r, p,
                bits == POISON_RECV ? "receive" : "send", (unsigned)bits, r, c);
    if (bits == POISON_RECV)
        tk_print_pattern(stderr, TK_PATTERN_RECV_POISON, ": the value is the receive buffer's "
                         "poison: the local transpose read d_recv before an exchange had filled "
                         "it\n");
    else if (bits == POISON_SEND)
        tk_print_pattern(stderr, TK_PATTERN_SEND_POISON, ": the value is the send buffer's poison: "
                         "the exchange sent d_send before the packing had filled it\n");
    else if (tk_value_index(ck->got, &s) && s < (size_t)rk->rows * rk->cols) {
        long sr = (long)(s / rk->cols), sc = (long)(s % rk->cols);
        int from = owner(rk->row0, rk->ranks, sr), to = owner(rk->col0, rk->ranks, sc);
        fprintf(stderr, "  evidence: out[%ld][%ld] on rank %d holds in[%ld][%ld], a value of rank "
                "%d's rows that belongs on rank %d (it should hold in[%ld][%ld])\n", c, r, p, sr,
                sc, from, to, r, c);
        if (to != p)
            tk_print_pattern(stderr, TK_PATTERN_WRONG_RANK, ": in[%ld][%ld] belongs on rank %d "
                             "(its column %ld is rank %d's), not here: a block went to the wrong "
                             "rank\n", sr, sc, to, sc, to);
        else if (from != owner(rk->row0, rk->ranks, r))
            tk_print_pattern(stderr, TK_PATTERN_WRONG_BLOCK, ": in[%ld][%ld] came from rank %d's "
                             "rows where rank %d's belong: a block received from one rank was "
                             "placed where another's goes\n", sr, sc, from,
                             owner(rk->row0, rk->ranks, r));
        else
            tk_print_pattern(stderr, TK_PATTERN_LOCAL, ": in[%ld][%ld] came from the right rank, "
                             "for this rank, but landed at the wrong place: the packing or the "
                             "local transpose\n", sr, sc);
    }
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
        fprintf(f, "%s,%d,%d,%d,%s,%d,%.4f\n", row, rk->rows, rk->cols, rk->rank,
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
    size_t wrong = check_part(rk, rk->d_recv, &recv, &ck);
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
        int ok = !check_part(rk, h->one_out, &whole, &ck);
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
    check_part(rk, rk->d_out, &mine, &ck);
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
        in_turn(rk, explain_wrong, &ck);
    if (ck.wrong)
        h->core.status = TK_EXIT_WRONG;
}
