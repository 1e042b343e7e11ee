/* Where a wrong output's values came from. The input's values are distinct (matrix.h), so
   each wrong element names the input element it holds, or holds the poison (never written),
   or something that is neither. The map of wrong elements is matched against the mistakes a
   transpose kernel makes; what matches exactly is named, and what matches nothing is shown
   as evidence and said to match nothing. Plain C with OpenMP, no CUDA. */
#ifndef TK_EXPLAIN_H
#define TK_EXPLAIN_H

#include <stddef.h>
#include <stdio.h>

#include "patterns.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the misplaced values (those that are input elements) show. */
enum tk_moved {
    TK_MOVED_NONE,          /* no misplaced value */
    TK_MOVED_COPY,          /* out[k] holds in[k]: a copy, not a transpose */
    TK_MOVED_LOAD_STRIDE,   /* loaded from in[r * rows + c]: rows where cols belongs */
    TK_MOVED_STORE_STRIDE,  /* stored at out[c * cols + r]: cols where rows belongs */
    TK_MOVED_TILE_OWN,      /* each tile transposed inside, but at its own block position */
    TK_MOVED_TILE_FLAT,     /* each tile at its place, but not transposed inside */
    TK_MOVED_PAIRS,         /* neighbouring values swapped in pairs */
    TK_MOVED_SHIFTED,       /* every value from the same distance away */
    TK_MOVED_IN_TILE,       /* every value from the right tile, the wrong place inside it */
    TK_MOVED_UNKNOWN        /* none of the above fits every misplaced value */
};

/* What the unwritten elements (still the poison) show. */
enum tk_unwritten {
    TK_UNWRITTEN_NONE,
    TK_UNWRITTEN_ALL,       /* no element was written */
    TK_UNWRITTEN_COLS,      /* exactly the input's columns from `from` on */
    TK_UNWRITTEN_ROWS,      /* exactly the input's rows from `from` on */
    TK_UNWRITTEN_TILE_ROWS, /* exactly the input rows r with r % tile in `mask` */
    TK_UNWRITTEN_TILE_COLS, /* exactly the input columns c with c % tile in `mask` */
    TK_UNWRITTEN_ROW_ENDS,  /* every one among the first or last TK_ROW_ENDS of its output row */
    TK_UNWRITTEN_SCATTERED  /* none of the above */
};
#define TK_ROW_ENDS 8   /* floats at each end of an output row: a 32-byte sector */

#define TK_EVIDENCE 3

struct tk_explanation {
    size_t wrong, unwritten, foreign;   /* foreign: neither the poison nor an input value */
    size_t unwritten_ends;              /* of the unwritten, those at an end of their output
                                           row: among its first or last TK_ROW_ENDS floats */
    enum tk_moved moved;
    int moved_tile;                     /* tile side for the TILE and IN_TILE maps */
    long shift_rows, shift_cols;        /* for SHIFTED: source minus the right element */
    enum tk_unwritten gaps;
    long from;                          /* for COLS and ROWS */
    int gap_tile;                       /* for TILE_ROWS and TILE_COLS */
    unsigned long long mask;            /* bit k: r % gap_tile == k (or c) is unwritten */
    long gap_rows[2], gap_cols[2];      /* the unwritten elements' input rows and columns */
    int evidence;                       /* how many of the first wrong elements follow */
    struct { long out_row, out_col, src_row, src_col; int kind; } first[TK_EVIDENCE];
    long out_tail;                      /* >= 0: the wrong elements are exactly out's from
                                           element out_tail on, in memory order; else -1 */
    int torn;                           /* bytes of that first element that hold the right
                                           value's first bytes, the rest still the poison */
    long in_tail;                       /* >= 0: the wrong elements are exactly those whose
                                           input element is in_tail or later in memory order,
                                           not all of them poison; else -1 */
    int hashed;                         /* past 2^31 elements: values do not name their place */
};

/* Fills *e from in (rows x cols) and the wrong output out (cols x rows). */
void tk_explain(const float *in, const float *out, long rows, long cols, struct tk_explanation *e);

/* Prints the evidence lines and one "pattern: NAME ..." line for each part (misplaced values,
   unwritten elements, foreign values), each indented by two spaces. */
void tk_print_explanation(FILE *f, const struct tk_explanation *e, long rows, long cols);

/* Prints "  pattern: NAME" (the name from patterns.h), then fmt: what the pattern shows. */
void tk_print_pattern(FILE *f, enum tk_pattern p, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif
#endif
