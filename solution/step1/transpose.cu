/* Step 1: a first CUDA kernel, one thread per row of the output.

   The input is a rows x cols matrix stored row by row; the output is its transpose,
   cols x rows: out[c][r] = in[r][c]. Stored as 1D arrays that reads
       out[c * rows + r] = in[r * cols + c]
   The harness (common/) parses the command line, fills the input, prints the CPU+OMP row,
   times the kernel and checks every element of the result. */
#include "harness.h"

#define THREADS 256   /* threads in a block */

/* Thread c writes row c of the output, walking down column c of the input. Neighbouring
   threads read neighbouring addresses, but each writes its own distant row. */
__global__ void transpose_kernel(int rows, int cols, const float *in, float *out)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)    /* the last block may reach past the matrix */
        return;
    for (int r = 0; r < rows; r++)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];   /* size_t: no int overflow */
}

static void launch(const float *d_in, float *d_out, int rows, int cols)
{
    int blocks = (cols + THREADS - 1) / THREADS;   /* enough blocks for one thread per row */
    transpose_kernel<<<blocks, THREADS>>>(rows, cols, d_in, d_out);
}

int main(int argc, char **argv)
{
    struct tk_run run;
    tk_begin(&run, "step1", "GPU-1D", argc, argv);
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
