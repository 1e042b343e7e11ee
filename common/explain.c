/* Where a wrong output's values came from: see explain.h. */
#include "explain.h"
#include "matrix.h"

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

/* The tile sides a kernel of the kit uses; each map that names a tile is tried with each. */
static const int tiles[] = { 8, 16, 32, 64, 128 };
#define NT ((int)(sizeof tiles / sizeof tiles[0]))

/* What one output element (p, q) = out[p][q], which should hold in[q][p], holds instead. */
enum { RIGHT, POISON, FOREIGN, MOVED };
static int classify(const float *in, const float *out, long rows, long cols, long p, long q,
                    long *sr, long *sc)
{
    size_t o = (size_t)p * rows + q, s, n = (size_t)rows * cols;
    uint32_t got, want;
    memcpy(&got, &out[o], 4);
    memcpy(&want, &in[(size_t)q * cols + p], 4);
    if (got == want)
        return RIGHT;
    if (got == TK_POISON_BITS)
        return POISON;
    if (!tk_input_index(out[o], &s) || s >= n)
        return FOREIGN;
    *sr = (long)(s / cols);
    *sc = (long)(s % cols);
    return MOVED;
}

/* Bits of the maps that one misplaced value (source sr, sc at out[p][q]) fits. */
enum { COPY = 1, LOAD_STRIDE = 2, STORE_STRIDE = 4, PAIRS = 8 };
static unsigned fits(long rows, long cols, long p, long q, long sr, long sc, unsigned *own,
                     unsigned *flat, unsigned *inside)
{
    unsigned bits = 0;
    long o = p * rows + q, s = sr * cols + sc;
    if (s == o) bits |= COPY;
    if (s == q * (long)rows + p) bits |= LOAD_STRIDE;
    if (o == sc * (long)cols + sr) bits |= STORE_STRIDE;
    if ((sr == (q ^ 1) && sc == p) || (sr == q && sc == (p ^ 1))) bits |= PAIRS;
    *own = *flat = *inside = 0;
    for (int t = 0; t < NT; t++) {
        long T = tiles[t];
        if (sr == T * (p / T) + q % T && sc == T * (q / T) + p % T) *own |= 1u << t;
        if (sr == T * (q / T) + p % T && sc == T * (p / T) + q % T) *flat |= 1u << t;
        /* Only tiles of which the matrix holds at least two each way say something. */
        if (sr / T == q / T && sc / T == p / T && 2 * T <= rows && 2 * T <= cols)
            *inside |= 1u << t;
    }
    return bits;
}

static int lowest_bit(unsigned m)
{
    for (int t = 0; t < NT; t++)
        if (m & (1u << t))
            return tiles[t];
    return 0;
}

/* Whether the wrong elements are exactly a tail of the output, or of the input, in memory
   order: what a copy that moved too few bytes leaves (e->wrong is counted). A short copy
   back leaves the host's poison from some element on, and may stop inside an element: that
   one then holds the right value's first bytes and the poison in the rest (little-endian). */
static void tails(const float *in, const float *out, long rows, long cols, size_t first_out,
                  size_t first_in, struct tk_explanation *e)
{
    size_t n = (size_t)rows * cols;
    e->out_tail = e->in_tail = -1;
    e->torn = 0;
    if (!e->wrong)
        return;
    if (e->wrong == n - first_out) {
        e->out_tail = (long)first_out;
        uint32_t got, want;
        long p = (long)(first_out / rows), q = (long)(first_out % rows);
        memcpy(&got, &out[first_out], 4);
        memcpy(&want, &in[(size_t)q * cols + p], 4);
        for (int b = 1; b <= 3 && !e->torn; b++) {
            uint32_t low = (1u << (8 * b)) - 1;
            if ((got & low) == (want & low) && (got | low) == TK_POISON_BITS)
                e->torn = b;
        }
    }
    if (e->wrong == n - first_in && e->unwritten < e->wrong)
        e->in_tail = (long)first_in;
}

/* Which maps every misplaced value fits, and the first wrong elements as evidence. */
static void scan(const float *in, const float *out, long rows, long cols, struct tk_explanation *e)
{
    size_t wrong = 0, unwritten = 0, ends = 0, foreign = 0, moved = 0;
    unsigned all = ~0u, own_all = ~0u, flat_all = ~0u, inside_all = ~0u;
    long rmin = rows, rmax = -1, cmin = cols, cmax = -1;
    long d_first_r = 0, d_first_c = 0;
    int shift_same = 1;
    size_t first_moved = (size_t)-1, first_out = (size_t)-1, first_in = (size_t)-1;

    #pragma omp parallel for schedule(static) reduction(+ : wrong, unwritten, ends, foreign, moved) \
        reduction(& : all, own_all, flat_all, inside_all) \
        reduction(min : rmin, cmin, first_moved, first_out, first_in) reduction(max : rmax, cmax)
    for (long p = 0; p < cols; p++) {
        for (long q = 0; q < rows; q++) {
            long sr = 0, sc = 0;
            int kind = classify(in, out, rows, cols, p, q, &sr, &sc);
            if (kind == RIGHT)
                continue;
            wrong++;
            if ((size_t)p * rows + q < first_out) first_out = (size_t)p * rows + q;
            if ((size_t)q * cols + p < first_in) first_in = (size_t)q * cols + p;
            if (kind == POISON) {
                unwritten++;
                ends += q < TK_ROW_ENDS || q >= rows - TK_ROW_ENDS;   /* at a row end */
                if (q < rmin) rmin = q;
                if (q > rmax) rmax = q;
                if (p < cmin) cmin = p;
                if (p > cmax) cmax = p;
            } else if (kind == FOREIGN) {
                foreign++;
            } else {
                unsigned own, flat, inside;
                moved++;
                all &= fits(rows, cols, p, q, sr, sc, &own, &flat, &inside);
                own_all &= own;
                flat_all &= flat;
                inside_all &= inside;
                size_t o = (size_t)p * rows + q;
                if (o < first_moved)
                    first_moved = o;
            }
        }
    }
    e->wrong = wrong;
    e->unwritten = unwritten;
    e->unwritten_ends = ends;
    e->foreign = foreign;
    e->gap_rows[0] = rmin, e->gap_rows[1] = rmax;
    e->gap_cols[0] = cmin, e->gap_cols[1] = cmax;
    tails(in, out, rows, cols, first_out, first_in, e);

    /* A constant displacement: every misplaced value's, compared with the first's. */
    if (moved) {
        long p0 = (long)(first_moved / rows), q0 = (long)(first_moved % rows), sr = 0, sc = 0;
        classify(in, out, rows, cols, p0, q0, &sr, &sc);
        d_first_r = sr - q0, d_first_c = sc - p0;
        #pragma omp parallel for schedule(static) reduction(& : shift_same)
        for (long p = 0; p < cols; p++)
            for (long q = 0; q < rows; q++) {
                long r2 = 0, c2 = 0;
                if (classify(in, out, rows, cols, p, q, &r2, &c2) == MOVED &&
                    (r2 - q != d_first_r || c2 - p != d_first_c))
                    shift_same = 0;
            }
    }

    e->moved = TK_MOVED_NONE;
    if (!moved)
        return;
    if (all & COPY) e->moved = TK_MOVED_COPY;
    else if (all & LOAD_STRIDE) e->moved = TK_MOVED_LOAD_STRIDE;
    else if (all & STORE_STRIDE) e->moved = TK_MOVED_STORE_STRIDE;
    else if (own_all) e->moved = TK_MOVED_TILE_OWN, e->moved_tile = lowest_bit(own_all);
    else if (flat_all) e->moved = TK_MOVED_TILE_FLAT, e->moved_tile = lowest_bit(flat_all);
    else if (all & PAIRS) e->moved = TK_MOVED_PAIRS;
    else if (shift_same) e->moved = TK_MOVED_SHIFTED, e->shift_rows = d_first_r, e->shift_cols = d_first_c;
    else if (inside_all) e->moved = TK_MOVED_IN_TILE, e->moved_tile = lowest_bit(inside_all);
    else e->moved = TK_MOVED_UNKNOWN;
}

/* Whether exactly the input rows r with r % T in mask, all their columns, are unwritten. */
static int rows_in_mask(const struct tk_explanation *e, long rows, long cols, int T,
                        unsigned long long mask)
{
    size_t n = 0;
    for (long r = 0; r < rows; r++)
        n += (mask >> (r % T)) & 1;
    return n * (size_t)cols == e->unwritten;
}

/* The unwritten elements' shape: a tail of columns or rows, or rows (columns) at the same
   places in every tile, each only where every such element and no other is unwritten. */
static void gaps(const float *out, long rows, long cols, struct tk_explanation *e)
{
    size_t n = (size_t)rows * cols, u = e->unwritten;
    e->gaps = TK_UNWRITTEN_NONE;
    if (!u)
        return;
    if (u == n) { e->gaps = TK_UNWRITTEN_ALL; return; }
    /* Every unwritten element lies in columns >= cmin: all of them, when the count matches. */
    if (u == (size_t)(cols - e->gap_cols[0]) * rows) {
        e->gaps = TK_UNWRITTEN_COLS, e->from = e->gap_cols[0];
        return;
    }
    if (u == (size_t)(rows - e->gap_rows[0]) * cols) {
        e->gaps = TK_UNWRITTEN_ROWS, e->from = e->gap_rows[0];
        return;
    }
    for (int t = 2; t <= 3; t++) {   /* tiles of 32 and 64 */
        int T = tiles[t];
        unsigned long long rmask = 0, cmask = 0;
        #pragma omp parallel for schedule(static) reduction(| : rmask, cmask)
        for (long p = 0; p < cols; p++)
            for (long q = 0; q < rows; q++) {
                uint32_t got;
                memcpy(&got, &out[(size_t)p * rows + q], 4);
                if (got == TK_POISON_BITS) {
                    rmask |= 1ull << (q % T);
                    cmask |= 1ull << (p % T);
                }
            }
        if (rows_in_mask(e, rows, cols, T, rmask)) {
            e->gaps = TK_UNWRITTEN_TILE_ROWS, e->gap_tile = T, e->mask = rmask;
            return;
        }
        size_t m = 0;
        for (long c = 0; c < cols; c++)
            m += (cmask >> (c % T)) & 1;
        if (m * (size_t)rows == u) {
            e->gaps = TK_UNWRITTEN_TILE_COLS, e->gap_tile = T, e->mask = cmask;
            return;
        }
    }
    /* Every one at an end of its output row, among its first or last TK_ROW_ENDS floats
       (input rows 0 to 7, rows - 8 to rows - 1), where the rows leave a middle as long as
       both ends: a store skipped at a row's start or end. */
    if (rows >= 4 * TK_ROW_ENDS && e->unwritten_ends == u) {
        e->gaps = TK_UNWRITTEN_ROW_ENDS;
        return;
    }
    e->gaps = TK_UNWRITTEN_SCATTERED;
}

void tk_explain(const float *in, const float *out, long rows, long cols, struct tk_explanation *e)
{
    memset(e, 0, sizeof *e);
    if ((size_t)rows * cols > ((size_t)1 << 31)) {   /* hashed values name no place */
        e->hashed = 1;
        return;
    }
    scan(in, out, rows, cols, e);
    gaps(out, rows, cols, e);
    /* The first wrong elements, in output order, as evidence. */
    for (long p = 0; p < cols && e->evidence < TK_EVIDENCE; p++)
        for (long q = 0; q < rows && e->evidence < TK_EVIDENCE; q++) {
            long sr = -1, sc = -1;
            int kind = classify(in, out, rows, cols, p, q, &sr, &sc);
            if (kind == RIGHT)
                continue;
            e->first[e->evidence].out_row = p, e->first[e->evidence].out_col = q;
            e->first[e->evidence].src_row = sr, e->first[e->evidence].src_col = sc;
            e->first[e->evidence++].kind = kind;
        }
}

/* "3, 5, 7 to 12" from the set bits of mask below T. */
static void mask_text(unsigned long long mask, int T, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int k = 0; k < T && at < len; k++) {
        if (!((mask >> k) & 1))
            continue;
        int j = k;
        while (j + 1 < T && ((mask >> (j + 1)) & 1))
            j++;
        at += snprintf(buf + at, len - at, at ? ", %d" : "%d", k);
        if (j > k && at < len)
            at += snprintf(buf + at, len - at, j > k + 1 ? " to %d" : ", %d", j);
        k = j;
    }
}

/* "7936 = 31 x 256": a number with its largest power-of-two factor, as a grid would leave. */
static void factors(long v, char *buf, size_t len)
{
    long f = 1;
    while (v && v % (f * 2) == 0 && f < 65536)
        f *= 2;
    if (f >= 8 && v >= f)
        snprintf(buf, len, "%ld = %ld x %ld", v, v / f, f);
    else
        snprintf(buf, len, "%ld", v);
}

void tk_print_pattern(FILE *f, enum tk_pattern p, const char *fmt, ...)
{
    va_list ap;
    fprintf(f, "  pattern: %s", tk_pattern_name(p));
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
}

/* A tail of the output in memory order is said where it says more than a tail of whole rows
   (unwritten-columns says that): where it starts inside a row or inside an element, or at a
   simple fraction of the matrix. A tail of the input, whenever it fits. */
static void print_tails(FILE *f, const struct tk_explanation *e, long rows, long cols)
{
    long n = (long)rows * cols, k = e->out_tail;
    if (k > 0 || (k == 0 && e->torn)) {
        long bytes = 4 * k + e->torn;
        const char *part = 2 * k == n ? " (half of them)" : 4 * k == n ? " (a quarter of them)" :
                           4 * k == 3 * n ? " (three quarters of them)" : "";
        if (k % rows || e->torn || *part) {
            tk_print_pattern(f, TK_PATTERN_OUT_TAIL, " %ld: the output's last %ld elements in "
                             "memory order, from out[%ld][%ld] on, are wrong, all of them and "
                             "nothing else", k, n - k, k / rows, k % rows);
            if (e->torn)
                fprintf(f, ", and out[%ld][%ld] holds only the first %d bytes of its value",
                        k / rows, k % rows, e->torn);
            fprintf(f, ": the output is right up to byte %ld of its %ld%s\n", bytes, 4 * n, part);
        }
    }
    k = e->in_tail;
    if (k > 0)
        tk_print_pattern(f, TK_PATTERN_IN_TAIL, " %ld: the wrong elements are exactly those "
                         "whose input element lies at in[%ld][%ld] or later in memory order, all "
                         "%ld of them and nothing else: every output element whose value comes "
                         "from the input's first %ld of its %ld bytes is right, and no other\n",
                         k, k / cols, k % cols, n - k, 4 * k, 4 * n);
}

void tk_print_explanation(FILE *f, const struct tk_explanation *e, long rows, long cols)
{
    char text[192];
    if (e->hashed) {
        tk_print_pattern(f, TK_PATTERN_NONE, ": past 2^31 elements the input's values are hashed "
                         "and do not name their place; try the same kernel on a smaller matrix\n");
        return;
    }
    for (int k = 0; k < e->evidence; k++) {
        long p = e->first[k].out_row, q = e->first[k].out_col;
        if (e->first[k].kind == POISON)
            fprintf(f, "  evidence: out[%ld][%ld] was never written (it should hold in[%ld][%ld])\n",
                    p, q, q, p);
        else if (e->first[k].kind == FOREIGN)
            fprintf(f, "  evidence: out[%ld][%ld] holds a value that is no element of the input "
                    "(it should hold in[%ld][%ld])\n", p, q, q, p);
        else
            fprintf(f, "  evidence: out[%ld][%ld] holds in[%ld][%ld] (it should hold in[%ld][%ld])\n",
                    p, q, e->first[k].src_row, e->first[k].src_col, q, p);
    }
    int T = e->moved_tile;
    switch (e->moved) {
    case TK_MOVED_NONE:
        break;
    case TK_MOVED_COPY:
        tk_print_pattern(f, TK_PATTERN_COPY, ": each misplaced value sits where it was in the "
                         "input: out's element k holds in's element k, a copy rather than a "
                         "transpose\n");
        break;
    case TK_MOVED_LOAD_STRIDE:
        tk_print_pattern(f, TK_PATTERN_LOAD_STRIDE, ": each misplaced value was loaded from "
                         "in[r * rows + c] instead of in[r * cols + c]: the load index uses rows "
                         "(%ld) where the input's row length, cols (%ld), belongs\n", rows, cols);
        break;
    case TK_MOVED_STORE_STRIDE:
        tk_print_pattern(f, TK_PATTERN_STORE_STRIDE, ": each misplaced value in[r][c] sits at "
                         "out[c * cols + r] instead of out[c * rows + r]: the store index uses "
                         "cols (%ld) where the output's row length, rows (%ld), belongs\n", cols,
                         rows);
        break;
    case TK_MOVED_TILE_OWN:
        tk_print_pattern(f, TK_PATTERN_TILE_OWN_PLACE, " %d: each %d x %d tile is transposed "
                         "inside but written at its own position: the tile at tile row i, tile "
                         "column j of the input lands at tile row i, column j of the output "
                         "instead of row j, column i\n", T, T, T);
        break;
    case TK_MOVED_TILE_FLAT:
        tk_print_pattern(f, TK_PATTERN_TILE_UNTRANSPOSED, " %d: each %d x %d tile lands in its "
                         "place, but inside it the values are not transposed: out[p][q] holds the "
                         "element at the tile's row p, column q, not row q, column p\n", T, T, T);
        break;
    case TK_MOVED_PAIRS:
        tk_print_pattern(f, TK_PATTERN_PAIRS, ": neighbouring values are swapped in pairs: each "
                         "misplaced value belongs one place away, at the other half of its "
                         "even-odd pair\n");
        break;
    case TK_MOVED_SHIFTED:
        tk_print_pattern(f, TK_PATTERN_SHIFTED, ": every misplaced value comes from %ld rows and "
                         "%ld columns away from the input element that belongs there\n",
                         e->shift_rows, e->shift_cols);
        break;
    case TK_MOVED_IN_TILE:
        tk_print_pattern(f, TK_PATTERN_TILE_SCRAMBLED, " %d: every misplaced value comes from "
                         "the right %d x %d tile but from the wrong place inside it\n", T, T, T);
        break;
    case TK_MOVED_UNKNOWN:
        tk_print_pattern(f, TK_PATTERN_UNKNOWN, ": the misplaced values fit no map the kit knows "
                         "(a copy, a stride, a tile at its own place or untransposed, pairs, a "
                         "shift, a tile scrambled); the evidence above is all there is\n");
        break;
    }
    switch (e->gaps) {
    case TK_UNWRITTEN_NONE:
    case TK_UNWRITTEN_ALL:   /* said by the caller: no element was written */
        break;
    case TK_UNWRITTEN_COLS:   /* the first of them equal to rows: a bound with rows for cols */
        factors(e->from, text, sizeof text);
        tk_print_pattern(f, TK_PATTERN_UNWRITTEN_COLUMNS, " %ld: the input's columns %ld to %ld, "
                         "the last %ld, are never written, every element of them and nothing "
                         "else%s (%s)\n", e->from, e->from, cols - 1, cols - e->from,
                         e->from == rows ? "; the first of them equals rows" : "", text);
        break;
    case TK_UNWRITTEN_ROWS:
        factors(e->from, text, sizeof text);
        tk_print_pattern(f, TK_PATTERN_UNWRITTEN_ROWS, " %ld: the input's rows %ld to %ld, the "
                         "last %ld, are never written, every element of them and nothing else%s "
                         "(%s)\n", e->from, e->from, rows - 1, rows - e->from,
                         e->from == cols ? "; the first of them equals cols" : "", text);
        break;
    case TK_UNWRITTEN_TILE_ROWS:
    case TK_UNWRITTEN_TILE_COLS:
        mask_text(e->mask, e->gap_tile, text, sizeof text);
        tk_print_pattern(f, e->gaps == TK_UNWRITTEN_TILE_ROWS ? TK_PATTERN_UNWRITTEN_TILE_ROWS
                                                               : TK_PATTERN_UNWRITTEN_TILE_COLUMNS,
                         " %d: in every band of %d input %s, %s %s of the band are never written, "
                         "all of them and nothing else\n", e->gap_tile, e->gap_tile,
                         e->gaps == TK_UNWRITTEN_TILE_ROWS ? "rows" : "columns",
                         e->gaps == TK_UNWRITTEN_TILE_ROWS ? "rows" : "columns", text);
        break;
    case TK_UNWRITTEN_ROW_ENDS:
        tk_print_pattern(f, TK_PATTERN_UNWRITTEN_ROW_ENDS, " %d: %zu elements are never written, "
                         "each among the first or the last %d floats of its output row (input rows "
                         "%ld to %ld, output rows %ld to %ld), and no other\n", TK_ROW_ENDS,
                         e->unwritten, TK_ROW_ENDS, e->gap_rows[0], e->gap_rows[1],
                         e->gap_cols[0], e->gap_cols[1]);
        break;
    case TK_UNWRITTEN_SCATTERED:
        tk_print_pattern(f, TK_PATTERN_UNWRITTEN_SCATTERED, ": %zu elements are never written, "
                         "in input rows %ld to %ld and columns %ld to %ld, in no pattern the kit "
                         "knows\n", e->unwritten, e->gap_rows[0], e->gap_rows[1], e->gap_cols[0],
                         e->gap_cols[1]);
        break;
    }
    print_tails(f, e, rows, cols);
    if (e->foreign > (size_t)(e->torn > 0))   /* a torn element is said by out-tail */
        tk_print_pattern(f, TK_PATTERN_FOREIGN, ": %zu elements hold values that are neither an "
                         "input element nor the poison: something read memory nothing wrote (a "
                         "tile entry never loaded, or past the end of a buffer)\n", e->foreign);
}
