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
    /* TODO(step1): the kernel. This thread's row of the output is
         int c = blockIdx.x * blockDim.x + threadIdx.x;
       return when c >= cols (the last block may reach past the matrix), then loop over
       r = 0 .. rows-1: out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
       (size_t, because c * rows can pass 2^31 on large matrices) */
}

static void launch(const float *d_in, float *d_out, int rows, int cols)
{
    /* TODO(step1): launch transpose_kernel with THREADS threads a block and enough blocks
       for one thread per output row (cols of them, rounded up), passing the device
       pointers: transpose_kernel<<<blocks, THREADS>>>(rows, cols, d_in, d_out); */
}

int main(int argc, char **argv)
{
    struct tk_run run;
    tk_begin(&run, "step1", argc, argv);

    float *d_in = NULL, *d_out = NULL;   /* device copies of the matrices */
    /* TODO(step1): allocate d_in and d_out on the device, run.bytes each:
       CUDA_CHECK(cudaMalloc(&d_in, run.bytes)); */
    /* TODO(step1): copy the input run.in to d_in (cudaMemcpy, cudaMemcpyHostToDevice). */

    /* A first run. A launch returns before the kernel ends: wait for the GPU before going on,
       and check both the launch and the run. */
    /* TODO(step1): call launch(d_in, d_out, run.rows, run.cols); then
       CUDA_CHECK(cudaGetLastError()); and CUDA_CHECK(cudaDeviceSynchronize()); */

    tk_time_gpu(&run, "GPU-1D", launch, d_in, d_out);

    /* TODO(step1): copy the result d_out back into run.out (cudaMemcpyDeviceToHost). */
    /* TODO(step1): free d_in and d_out (cudaFree). */
    return tk_end(&run);
}
