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
    /* TODO(step1): the body. Every thread runs this same code; only its block and thread
       index tell it apart. Work out which output row this thread owns, make the threads of
       the last block that fall past the matrix do nothing (the grid comes in whole blocks),
       and copy the whole row: it is one column of the input.
       The CPU+OMP row (common/matrix.c) runs the same loops at about 8 GB/s on the H100's
       host; this kernel starts from that and steps 2 to 6 take it to the memory's limit.
       Indices grow past 2^31 on big matrices: compute the array offsets in size_t. */
}

static void launch(const float *d_in, float *d_out, int rows, int cols)
{
    /* TODO(step1): launch transpose_kernel on the device buffers with THREADS threads a
       block and as many blocks as it takes to give every output row a thread. cols is not
       always a multiple of THREADS: which way must the division round? */
}

int main(int argc, char **argv)
{
    struct tk_run run;
    /* TODO(step1): delete this call once the TODOs below are done: it makes ./transpose
       report the step as unfinished. */
    tk_unfinished();
    tk_begin(&run, "step1", "GPU-1D", argc, argv);
    do {   /* once; with --shapes (the grader's), once a shape of its list */
        float *d_in = NULL, *d_out = NULL;   /* device copies of the matrices */
        /* TODO(step1): a kernel can only reach device memory. Give d_in and d_out run.bytes each
           of it and put the input run.in into d_in. Wrap every CUDA call in CUDA_CHECK(): a call
           that fails then stops the program with its reason, not with a wrong number later. */

        /* A first run. A launch returns before the kernel ends: wait for the GPU before going on,
           and check both the launch and the run. */
        /* TODO(step1): run launch() once on the device buffers. A bad launch configuration is
           reported only when you ask for the last error; a fault inside the kernel only when the
           host waits for the device. Ask for both. */

        tk_time_gpu(&run, launch, d_in, d_out);

        /* TODO(step1): tk_next_shape checks every element of run.out: bring the result there
           from d_out, then give both device buffers back. */
    } while (tk_next_shape(&run));   /* the exact check and the row; the next shape */
    return tk_end(&run);
}
