/* CUDA_CHECK's body: see cuda_check.h. */
#include "cuda_check.h"
#include "options.h"   /* TK_EXIT_CUDA */

#include <stdio.h>
#include <stdlib.h>

#define MIB (1024.0 * 1024.0)

static size_t g_matrix_bytes;   /* for the out-of-memory message */

void tk_cuda_check_bytes(size_t bytes)
{
    g_matrix_bytes = bytes;
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
                g_matrix_bytes / MIB);
    exit(TK_EXIT_CUDA);
}
