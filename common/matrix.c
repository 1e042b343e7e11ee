/* Host matrices: distinct input values, poison, the CPU transpose and the exact check. */
#include "matrix.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static uint32_t bits_of(float v)  { uint32_t b; memcpy(&b, &v, sizeof b); return b; }
static float float_of(uint32_t b) { float v; memcpy(&v, &b, sizeof v); return v; }

#define TK_DISTINCT ((size_t)1 << 31)   /* values below this index are distinct */

/* Past 2^31: splitmix64's finaliser of i, folded onto the normal floats of magnitude under
   1.0 (bit patterns 0x00800000 to 0x3F7FFFFF), either sign. No NaN, infinity, zero or
   denormal, so every kernel and library call moves the value bit for bit. */
static float hashed_value(size_t i)
{
    uint64_t z = (uint64_t)i + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    uint32_t magnitude = 0x00800000u + (uint32_t)((z & 0xFFFFFFFFu) % 0x3F000000u);
    return float_of(magnitude | (uint32_t)(z >> 63) << 31);
}

/* (float)i would repeat values above 2^24. Instead walk the float bit patterns from 1.0f
   (0x3F800000) upwards, one per pair of indices, with the sign taken from the low bit:
   2^31 indices land exactly on +-[1.0, FLT_MAX], all finite, all distinct. */
float tk_value(size_t i)
{
    if (i >= TK_DISTINCT)
        return hashed_value(i);
    uint32_t magnitude = 0x3F800000u + (uint32_t)(i >> 1);
    uint32_t sign = (uint32_t)(i & 1) << 31;
    return float_of(magnitude | sign);
}

int tk_value_index(float v, size_t *i)
{
    uint32_t b = bits_of(v);
    uint32_t magnitude = b & 0x7FFFFFFFu;
    if (magnitude < 0x3F800000u || magnitude > 0x7F7FFFFFu)
        return 0;
    *i = ((size_t)(magnitude - 0x3F800000u) << 1) | (b >> 31);
    return 1;
}

static size_t g_first;   /* the index of the value tk_fill gave element 0 last */

void tk_fill(float *m, size_t n, size_t first)
{
    g_first = first;
    #pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        m[i] = tk_value(first + i);
}

int tk_input_index(float v, size_t *i)
{
    size_t k;
    if (!tk_value_index(v, &k) || k < g_first)
        return 0;
    *i = k - g_first;
    return 1;
}

void tk_poison(float *m, size_t n)
{
    memset(m, TK_POISON_BYTE, n * sizeof *m);
}

void tk_transpose_cpu(const float *in, float *out, long rows, long cols)
{
    #pragma omp parallel for schedule(static)
    for (long r = 0; r < rows; r++)
        for (long c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

size_t tk_check(const float *in, const float *out, long rows, long cols, struct tk_mismatch *m)
{
    size_t count = 0, poisoned = 0, first = (size_t)-1;

    /* out[c][r] must hold in[r][c]. Walked a TILE x TILE block at a time, the blocks shared
       out among the threads (a matrix of one column too), so that the reads of in, a column
       of it at a time, stay in the cache: row by row over a whole column of a large matrix,
       every read was a miss of the cache and of the TLB, and the check took longer than the
       GPU's timing. */
    enum { TILE = 64 };
    #pragma omp parallel for collapse(2) schedule(static) reduction(+ : count, poisoned) \
        reduction(min : first)
    for (long cb = 0; cb < cols; cb += TILE) {
        for (long rb = 0; rb < rows; rb += TILE) {
            long ce = cb + TILE < cols ? cb + TILE : cols, re = rb + TILE < rows ? rb + TILE : rows;
            for (long c = cb; c < ce; c++) {
                for (long r = rb; r < re; r++) {
                    size_t o = (size_t)c * rows + r;
                    uint32_t got = bits_of(out[o]);
                    if (got != bits_of(in[(size_t)r * cols + c])) {
                        count++;
                        poisoned += (got == TK_POISON_BITS);
                        if (o < first)
                            first = o;
                    }
                }
            }
        }
    }

    if (m) {
        memset(m, 0, sizeof *m);
        m->count = count;
        m->poisoned = poisoned;
        if (count) {
            m->out_row = (long)(first / (size_t)rows);
            m->out_col = (long)(first % (size_t)rows);
            m->expected = in[(size_t)m->out_col * cols + m->out_row];
            m->got = out[first];
        }
    }
    return count;
}

size_t tk_check_part(const float *in, const float *part, const struct tk_part *p,
                     size_t *poisoned, size_t *first)
{
    size_t wrong = 0;
    *poisoned = 0;
    *first = (size_t)-1;
    for (long a = 0; a < p->rows; a++)
        for (long b = 0; b < p->len; b++) {
            size_t o = (size_t)a * p->len + b;
            uint32_t got = bits_of(part[o]);
            size_t i = p->base + a * p->sa + b * p->sb;
            if (got != bits_of(in ? in[i] : tk_value(i))) {
                *poisoned += got == TK_POISON_BITS;
                if (!wrong++)
                    *first = o;
            }
        }
    return wrong;
}

void tk_describe_value(float v, long rows, long cols, char *buf, size_t len)
{
    size_t i;
    if (bits_of(v) == TK_POISON_BITS)
        snprintf(buf, len, "NaN (the poison: never written)");
    else if (tk_input_index(v, &i) && i < (size_t)rows * cols)
        snprintf(buf, len, "%.9g (the value of in[%zu][%zu])", v, i / cols, i % cols);
    else if ((size_t)rows * cols > TK_DISTINCT && fabsf(v) < 1.0f && fabsf(v) >= FLT_MIN)
        snprintf(buf, len, "%.9g (a hashed value: an input element past the first 2^31)", v);
    else
        snprintf(buf, len, "%.9g (not a value of the input)", v);
}

void tk_split(long n, int parts, long *first)
{
    for (int k = 0; k <= parts; k++)
        first[k] = (long)((long long)k * n / parts);
}

long tk_chunk_first(const long *first, int q, int k, int K)
{
    if (k >= K)
        return first[q + 1];
    long into = (long)((long long)(first[q + 1] - first[q]) * k / K);
    return first[q] + into / 8 * 8;   /* a whole number of 32-byte sectors into the block */
}
