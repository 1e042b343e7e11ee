/* Command-line options shared by every step's ./transpose. Plain C, no CUDA. */
#ifndef TK_OPTIONS_H
#define TK_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TK_DEFAULT_N      8192        /* 8192 x 8192 floats: 256 MiB a matrix, far past any L2 */
#define TK_DEFAULT_REPS   20
#define TK_DEFAULT_WARMUP 3
#define TK_MAX_REPS       10000
/* A step whose kernel holds each side of the matrix in an int (steps 1 to 6, and step 10's
   fused kernel) takes sides up to TK_INT_SIDE_MAX: an int less 255, so that its grid may
   round a side up to whole blocks of 256 without passing the int. Steps 7 to 9 and the
   library row take long sides (tk_takes_long_sides): for them a shape is refused only when
   its two matrices do not fit the GPU's or the host's memory. A step's own grid may stop
   earlier: a grid's y holds at most 65535 blocks, so steps 2 to 6, which count tiles of rows
   there, stop at TK_GRID_Y_ROWS(tile) rows and say so. */
#define TK_INT_SIDE_MAX   (2147483647L - 255)    /* 2147483392 */
#define TK_GRID_Y_MAX     65535L
#define TK_GRID_Y_ROWS(tile) (TK_GRID_Y_MAX * (tile))   /* 2097120 for tiles of 32 rows */
#define TK_MAX_SHAPES     64                     /* shapes in one --shapes list */

struct tk_options {
    long rows, cols;    /* the input matrix is rows x cols, row-major; the output cols x rows */
    int reps;           /* timed runs per row; the median is reported */
    int warmup;         /* untimed runs before them */
    int device;         /* CUDA device index */
    int csv;            /* machine-readable rows instead of the table */
    int no_cpu;         /* skip the CPU+OMP row */
    int no_flush;       /* leave the L2 as the poisoning left it before each timed run */
    int describe;       /* print what the program is (step, row, TODOs) and exit */
    const char *shapes; /* --shapes: "RxC,RxC,...", each in turn in one process; else NULL */
    int keep_going;     /* --keep-going: past a --shapes shape whose output is not exact */
};

/* Exit statuses of every ./transpose; tk_exit_meaning says what each means (--help prints
   it, and a test holds common/README.md's list to it). */
enum tk_exit {
    TK_EXIT_OK = 0,
    TK_EXIT_WRONG = 1,
    TK_EXIT_USAGE = 2,
    TK_EXIT_NO_GPU = 3,
    TK_EXIT_CUDA = 4,
    TK_EXIT_TODO = 5,
    TK_EXIT_DRIVER = 6,
    TK_EXIT_COUNT
};
extern const char *const tk_exit_meaning[TK_EXIT_COUNT];

enum tk_parse_result { TK_PARSE_OK = 0, TK_PARSE_HELP = 1, TK_PARSE_ERROR = -1 };

/* Fills *o from argv. On TK_PARSE_ERROR, err holds one line saying what was wrong. */
enum tk_parse_result tk_parse_options(int argc, char **argv, struct tk_options *o,
                                      char *err, size_t errlen);

/* Shape k (from 0) of a --shapes list: 1 with *rows and *cols set, 0 past its last shape. The
   list was checked when the options were parsed. */
int tk_shape_of(const char *list, int k, long *rows, long *cols);

/* Whether the program named step (as tk_begin names it: "step7", "library") takes long sides. */
int tk_takes_long_sides(const char *step);

/* Where the program named step holds each side in an int and rows x cols has a side past
   TK_INT_SIDE_MAX: 1, and err says so in the step's words and names step 7; 0 otherwise. */
int tk_side_refusal(const char *step, long rows, long cols, char *err, size_t errlen);

/* The way TK_WAY (the environment's text, NULL where unset) tells a launch of n ways to take
   (tk_fastest_way, harness.h): -1 where it is unset or empty (time them), K where it reads a
   whole number 0 <= K < n, -2 otherwise, err saying why. */
int tk_way_of(const char *text, int n, char *err, size_t errlen);

/* The --help text, shared by every step. */
void tk_print_usage(FILE *f, const char *prog);

#ifdef __cplusplus
}
#endif
#endif
