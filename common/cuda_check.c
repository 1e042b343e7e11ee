/* CUDA_CHECK's body: see cuda_check.h. */
#include "cuda_check.h"
#include "options.h"   /* TK_EXIT_CUDA */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

static long g_rows, g_cols;   /* the shape being run: for the messages below */

void tk_cuda_check_shape(long rows, long cols)
{
    g_rows = rows;
    g_cols = cols;
}

void tk_cuda_check(cudaError_t err, const char *what, const char *file, int line)
{
    if (err == cudaSuccess)
        return;
    fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, what, cudaGetErrorString(err),
            cudaGetErrorName(err));
    size_t free_b, total_b;
    if (err == cudaErrorMemoryAllocation && cudaMemGetInfo(&free_b, &total_b) == cudaSuccess)
        fprintf(stderr, "the device has %.0f MiB free of %.0f MiB; this run needs two matrices "
                "of %.1f MiB and a scratch buffer\n", free_b / MIB, total_b / MIB,
                (double)g_rows * g_cols * sizeof(float) / MIB);
    /* A launch refused (the check after it fails: invalid configuration, or on CUDA 13 an
       invalid argument for a grid's y past 65535): where the shape passes what a grid's y
       holds for tiles of 32 rows (steps 2 to 6 count their tiles there), the numbers say so. */
    if ((err == cudaErrorInvalidConfiguration || err == cudaErrorInvalidValue) &&
        strstr(what, "cudaGetLastError") && g_rows > TK_GRID_Y_ROWS(32))
        fprintf(stderr, "grid's y: this shape has %ld rows; a grid whose y counts tiles of 32 "
                "rows needs %ld blocks there (of 64 rows, %ld), and a grid's y holds at most "
                "%ld. The solutions of steps 2 to 5 launch such a grid of 32-row tiles and stop "
                "at %ld rows, step 6's of 64-row tiles at %ld. Step 7 takes every shape that "
                "fits.\n", g_rows,
                (g_rows + 31) / 32, (g_rows + 63) / 64, TK_GRID_Y_MAX, TK_GRID_Y_ROWS(32),
                TK_GRID_Y_ROWS(64));
    exit(TK_EXIT_CUDA);
}
