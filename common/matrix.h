/* Host matrices: distinct input values, poison, the CPU transpose and the exact check.
   Plain C with OpenMP, no CUDA. */
#ifndef TK_MATRIX_H
#define TK_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bit pattern written into an output before every run: a NaN no input element has, so an
   element the kernel never writes is caught. 0xFF bytes, so cudaMemset can write it too. */
#define TK_POISON_BITS 0xFFFFFFFFu
#define TK_POISON_BYTE 0xFF

/* The input's values. Element i < 2^31 gets a value no other element has, of magnitude
   in [1, FLT_MAX], so a wrong value names the element it came from. Element i >= 2^31
   gets a hash of i, a normal float of magnitude under 1 (2^31 - 2^25 patterns): it never
   equals a value of the first 2^31, and a misplaced one goes unseen only where its hash
   equals the one it replaced, a chance of 1 in 2.1e9 for each misplaced element. */
float tk_value(size_t i);
/* The index i < 2^31 whose value v is; returns 0 for any other v (hashed, poison, garbage). */
int tk_value_index(float v, size_t *i);

/* m[i] = tk_value(first + i): an input whose values start at index first (0 but for a run of
   several shapes in one process, where each input has values of its own). */
void tk_fill(float *m, size_t n, size_t first);
/* Element i of the input tk_fill filled last whose value v is (tk_value_index less its first);
   returns 0 for any other v. */
int tk_input_index(float v, size_t *i);
void tk_poison(float *m, size_t n);      /* every element = TK_POISON_BITS */

/* The 2013 workshop's CPU+OMP baseline: in is rows x cols, out becomes cols x rows. */
void tk_transpose_cpu(const float *in, float *out, long rows, long cols);

/* What tk_check found: how many elements differ, and the first in output order. */
struct tk_mismatch {
    size_t count;
    size_t poisoned;         /* of those, how many still hold the poison */
    long out_row, out_col;   /* first wrong element, as a position in the output */
    float expected, got;
};

/* Compares out (cols x rows) with the transpose of in (rows x cols), bit for bit.
   Returns the number of differing elements; fills *m when m is not NULL. */
size_t tk_check(const float *in, const float *out, long rows, long cols, struct tk_mismatch *m);

/* A part of a matrix that one process holds: its element b of row a, part[a * len + b], must
   hold in[base + a * sa + b * sb]. Rank p's output rows: { col0[p+1] - col0[p], rows, col0[p],
   1, cols }. */
struct tk_part { long rows, len; size_t base, sa, sb; };

/* Compares a part with in bit for bit in one thread (a forked rank may not use OpenMP); in
   NULL, with the input's values themselves, tk_value(i) (a launched rank does not hold the
   whole input). Returns the number of differing elements; *poisoned says how many of them
   hold the poison, *first the first in the part's order. */
size_t tk_check_part(const float *in, const float *part, const struct tk_part *p,
                     size_t *poisoned, size_t *first);

/* How a matrix splits over ranks (steps 8 to 10). n things in parts balanced blocks: block k
   starts at first[k] = k * n / parts, k = 0 .. parts (first[parts] = n). */
void tk_split(long n, int parts, long *first);

/* Chunk k of K of block q (first[] from tk_split) starts at tk_chunk_first(first, q, k, K)
   and ends before tk_chunk_first(first, q, k + 1, K). Every chunk but the last starts a
   multiple of 8 past the block's start, so that a chunk of a block's rows (or columns) of a
   matrix starts on a 32-byte sector whenever the block does; chunks may be empty. */
long tk_chunk_first(const long *first, int q, int k, int K);

/* Describes a value for a message: "1.00000012 (in[5][3])", "NaN (poison: never written)". */
void tk_describe_value(float v, long rows, long cols, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
