/* Explains a wrong output across GPUs (steps 8-10): copies a part of a matrix back from a rank and
   checks it, then says where a wrong element's value came from in the terms of ranks and
   blocks, or, for a stage that stores through the symmetric window (stage (c)), of windows,
   naming the pattern (patterns.h). C11 calling the CUDA runtime's C API. */
#include "explain.h"
#include "state.h"

#include <stdlib.h>
#include <string.h>

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
size_t tk_ranks_check_part(const struct tk_ranks *rk, const float *d, const struct tk_part *part,
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
void tk_ranks_explain_wrong(struct tk_ranks *rk, void *arg)
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
