/* The copy ceiling's two copies, round by round: does a device-to-device cudaMemcpy (or the
   copy kernel) change speed from one run to the next, and with what?

       make && ./copy-modes ROWS COLS ROUNDS [REALLOC]

   Each round empties the L2 (as the harness does before every timed run), times a
   cudaMemcpy of one ROWS x COLS float matrix, empties the L2 again and times the harness's
   copy kernel on the same buffers; it prints one line a round (the round's start in ms since
   the first, both times in ms). REALLOC > 0 frees and allocates both buffers again every
   REALLOC rounds, to see whether a mode follows the buffers' addresses. copy-modes.sh runs
   it with the GPU's clocks and power sampled beside it. */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>
#include "cuda_check.h"
#include "core.h"

static float time_one(int what, const float *in, float *out, size_t n, const void *scratch,
                      size_t scratch_bytes, int *sink, cudaEvent_t a, cudaEvent_t b)
{
    tk_flush_l2(scratch, scratch_bytes, sink);
    CUDA_CHECK(cudaEventRecord(a, 0));
    if (what == 0)
        CUDA_CHECK(cudaMemcpyAsync(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice, 0));
    else
        tk_copy_floats(in, out, n, 0);
    CUDA_CHECK(cudaEventRecord(b, 0));
    CUDA_CHECK(cudaEventSynchronize(b));
    CUDA_CHECK(cudaGetLastError());
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms;
}

int main(int argc, char **argv)
{
    long rows = argc > 3 ? atol(argv[1]) : 0, cols = argc > 3 ? atol(argv[2]) : 0;
    int rounds = argc > 3 ? atoi(argv[3]) : 0, realloc_every = argc > 4 ? atoi(argv[4]) : 0;
    if (rows < 1 || cols < 1 || rounds < 1 || realloc_every < 0) {
        fprintf(stderr, "usage: %s ROWS COLS ROUNDS [REALLOC]\n", argv[0]);
        return 2;
    }
    size_t n = (size_t)rows * cols;
    int count, status;
    char why[256];
    const char *problem = tk_gpu_problem(&count, &status, why, sizeof why);
    if (problem) {   /* no usable GPU: say why, as the steps do, with their status */
        fprintf(stderr, "copy-modes: nothing was run: %s\n", problem);
        return status;
    }
    cudaDeviceProp p;
    CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
    size_t scratch_bytes = 2 * (size_t)p.l2CacheSize;
    void *scratch;
    int *sink;
    CUDA_CHECK(cudaMalloc(&scratch, scratch_bytes));
    CUDA_CHECK(cudaMemset(scratch, 1, scratch_bytes));
    CUDA_CHECK(cudaMalloc(&sink, sizeof(int)));
    cudaEvent_t a, b, t0;
    CUDA_CHECK(cudaEventCreate(&a));
    CUDA_CHECK(cudaEventCreate(&b));
    CUDA_CHECK(cudaEventCreate(&t0));
    float *in = NULL, *out = NULL;
    printf("# %s, %ld x %ld floats (%.1f MiB a matrix), %d rounds, buffers new every %d\n",
           p.name, rows, cols, n * 4.0 / 1048576, rounds, realloc_every);
    printf("round start_ms memcpy_ms kernel_ms in_address\n");
    CUDA_CHECK(cudaEventRecord(t0, 0));
    for (int i = 0; i < rounds; i++) {
        if (!in || (realloc_every && i % realloc_every == 0)) {
            if (in) {
                CUDA_CHECK(cudaFree(in));
                CUDA_CHECK(cudaFree(out));
            }
            CUDA_CHECK(cudaMalloc(&in, n * sizeof(float)));
            CUDA_CHECK(cudaMalloc(&out, n * sizeof(float)));
            CUDA_CHECK(cudaMemset(in, 0x3f, n * sizeof(float)));
        }
        CUDA_CHECK(cudaEventRecord(a, 0));
        CUDA_CHECK(cudaEventSynchronize(a));
        float start = 0;
        CUDA_CHECK(cudaEventElapsedTime(&start, t0, a));
        float m = time_one(0, in, out, n, scratch, scratch_bytes, sink, a, b);
        float k = time_one(1, in, out, n, scratch, scratch_bytes, sink, a, b);
        printf("%d %.1f %.4f %.4f %p\n", i, start, m, k, (void *)in);
    }
    return 0;
}
