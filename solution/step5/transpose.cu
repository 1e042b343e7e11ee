/* Step 5: several elements per thread.

   The input is a rows x cols matrix stored row by row; the output is its transpose,
   cols x rows: out[c * rows + r] = in[r * cols + c]. The harness (common/) parses the
   command line, fills the input, prints the CPU+OMP row, times the kernel and checks
   every element of the result. */
#include "harness.h"

#define TILE   32                /* a block moves one TILE x TILE tile */
#define BLOCKY 4                 /* ... with a TILE x BLOCKY block of threads */
#define ELEMS  (TILE / BLOCKY)   /* so each thread moves ELEMS elements in each phase */

/* The padded tile of step 4, moved by a block of TILE x BLOCKY threads: each thread loads
   ELEMS elements, rows BLOCKY apart, before it needs any of them, so more memory requests
   are in flight per thread, and the index arithmetic and the barrier serve ELEMS elements. */
__global__ void transpose_kernel(int rows, int cols, const float *in, float *out)
{
    __shared__ float tile[TILE][TILE + 1];   /* +1: a column spans all 32 banks */

    int c = blockIdx.x * TILE + threadIdx.x;   /* the element this thread reads */
    int r = blockIdx.y * TILE + threadIdx.y;
    #pragma unroll
    for (int e = 0; e < ELEMS; e++)
        if (r + e * BLOCKY < rows && c < cols)
            tile[threadIdx.y + e * BLOCKY][threadIdx.x] =
                in[(size_t)(r + e * BLOCKY) * cols + c];

    __syncthreads();   /* the whole tile is in shared memory before anyone reads it */

    int oc = blockIdx.y * TILE + threadIdx.x;   /* column of out = row of in */
    int orow = blockIdx.x * TILE + threadIdx.y; /* row of out = column of in */
    #pragma unroll
    for (int e = 0; e < ELEMS; e++)
        if (orow + e * BLOCKY < cols && oc < rows)
            out[(size_t)(orow + e * BLOCKY) * rows + oc] =
                tile[threadIdx.x][threadIdx.y + e * BLOCKY];
}

static void launch(const float *d_in, float *d_out, int rows, int cols)
{
    dim3 block(TILE, BLOCKY);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_kernel<<<grid, block>>>(rows, cols, d_in, d_out);
}

int main(int argc, char **argv)
{
    struct tk_run run;
    tk_begin(&run, "step5", "GPU-multi-element", argc, argv);
    do {   /* once; with --shapes (the grader's), once a shape of its list */
        float *d_in = NULL, *d_out = NULL;   /* device copies of the matrices */
        CUDA_CHECK(cudaMalloc(&d_in, run.bytes));
        CUDA_CHECK(cudaMalloc(&d_out, run.bytes));
        CUDA_CHECK(cudaMemcpy(d_in, run.in, run.bytes, cudaMemcpyHostToDevice));

        /* A first run. A launch returns before the kernel ends: wait for the GPU before going on,
           and check both the launch and the run. */
        launch(d_in, d_out, run.rows, run.cols);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());

        tk_time_gpu(&run, launch, d_in, d_out);

        CUDA_CHECK(cudaMemcpy(run.out, d_out, run.bytes, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaFree(d_in));
        CUDA_CHECK(cudaFree(d_out));
    } while (tk_next_shape(&run));   /* the exact check and the row; the next shape */
    return tk_end(&run);
}
