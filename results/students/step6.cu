/* Step 6 (bonus): wider tiles and vector accesses, toward the copy ceiling.

   The input is a rows x cols matrix stored row by row; the output is its transpose,
   cols x rows: out[c * rows + r] = in[r * cols + c]. The harness (common/) parses the
   command line, fills the input, prints the CPU+OMP row, times the kernel and checks
   every element of the result. */
#include "harness.h"

/* TODO(step6): a 64 x 64 tile, moved 8 bytes at a time. Name the tile's side TILE, the
   block's width in threads BLOCKX (each thread now moves a float2, two floats side by side),
   its height BLOCKY (16 rows of threads), and PAIRS, the number of row pairs in the tile:
   the float2 path takes the input's rows two at a time. The scalar path supplied in the
   kernel uses TILE, BLOCKX and BLOCKY. */
#define TILE   64             /* a block moves one TILE x TILE tile */
#define BLOCKX 32             /* threads across: each moves a float2, so 32 span 64 floats */
#define BLOCKY 16             /* rows of threads in a block */
#define PAIRS  (TILE / 2)     /* the tile's rows, taken two at a time */

/* TODO(step6): a shared-memory layout without bank conflicts for float2: write the function
   the next comment describes, as a small __device__ function at(c, r) just below it. Step
   4's padding does not work here: with rows TILE + 1 floats long, every other row starts off
   an 8-byte boundary, and a float2 must sit on one. The permutation must give the 16 threads
   of a half-warp 16 different chunk positions modulo 16 in both phases of the kernel. An
   exclusive-or of the chunk index with a few bits of the row index is the classic one; check
   it on paper for both phases. */
/* Where element (c, r) of the transposed tile lives in shared memory, a flat array of
   TILE * TILE floats. Each pair of floats (r even, r + 1) stays together as one float2 chunk,
   whole and 8-byte aligned; the chunks of a row are permuted, differently from row to row, so
   that the 16 threads that share a 128-byte pass touch 16 different chunks, so 32 different
   banks, when the tile is written and when it is read. (Step 4's padding breaks alignment.) */
__device__ __forceinline__ int at(int c, int r)
{
    /* chunk r / 2 of row c, xor-ed with 4 bits of c / 2; r % 2 picks the float in the chunk */
    return c * TILE + (((r / 2) ^ ((c / 2) % 16)) * 2) + r % 2;
}

/* A block moves a TILE x TILE tile, so each row segment it reads or writes is 256 bytes, and
   every global access is a float2: each thread loads a 2 x 2 block (a float2 from each of
   two rows), forms its transpose in registers and writes it to shared memory as two float2;
   after the barrier it reads float2 of the transposed tile and stores them. Tiles that reach
   past the matrix, and odd sizes, where a row does not start on 8 bytes, move one float at
   a time through the same tile. */
__global__ void __launch_bounds__(BLOCKX * BLOCKY)
transpose_kernel(int rows, int cols, const float *__restrict__ in, float *__restrict__ out)
{
    /* TODO(step6): the kernel's float2 path. profiles/step5.txt: DRAM Utilization 81.9%
       (92.1% of the copy ceiling in results/h100-reference.csv), with 4.0 sectors per request
       for loads and stores alike: every memory instruction of a warp moves 128 bytes, one
       float a thread, and the occupancy limiter is registers.
       Replace step 5's body below. The tile becomes a flat array of TILE * TILE floats, read
       and written through at(). A float2 read from or written to it must sit on 8 bytes, but
       a plain array of floats in shared memory is only sure to start on 4: declare it with an
       alignment of 8 bytes or more (CUDA's __align__), or a float2 access may stop the kernel
       with "misaligned address". Name the thread's indices tx and ty, and the first row and
       column of the block's tile of in r0 and c0: the supplied scalar path uses them.
       The float2 path, where the next comment says it may run: each thread loads a float2
       from each of two neighbouring input rows, swaps the four values into the two float2 of
       the transposed 2 x 2 block, and stores them in the tile through at(); after the
       barrier, each thread reads float2 of the transposed tile and stores them to consecutive
       addresses of an output row. Work out which row pairs and which output rows each thread
       takes so that the block covers the whole tile. The profile of step 6's solution will
       show 8.0 sectors per request. (The solution also adds __launch_bounds__ and __restrict__
       to the kernel's first line; optional.) */
    /* The float2 path needs the whole tile inside the matrix and rows of in and out that
       start on 8 bytes (even cols and rows). Other tiles take the scalar path. */
    __shared__ __align__(16) float tile[TILE * TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int r0 = blockIdx.y * TILE, c0 = blockIdx.x * TILE;   /* the block's tile of in */

    bool vector_path = rows % 2 == 0 && cols % 2 == 0 && r0 + TILE <= rows &&
                       c0 + TILE <= cols;
    if (vector_path) {
        #pragma unroll
        for (int k = 0; k < PAIRS / BLOCKY; k++) {
            int g = ty + k * BLOCKY;   /* this thread's pair of input rows: 2g and 2g + 1 */
            const float *src = &in[(size_t)(r0 + 2 * g) * cols + c0 + 2 * tx];
            float2 a0 = *(const float2 *)src;
            float2 a1 = *(const float2 *)(src + cols);
            *(float2 *)&tile[at(2 * tx, 2 * g)] = make_float2(a0.x, a1.x);
            *(float2 *)&tile[at(2 * tx + 1, 2 * g)] = make_float2(a0.y, a1.y);
        }
        __syncthreads();   /* the whole tile is in shared memory before anyone reads it */
        #pragma unroll
        for (int k = 0; k < TILE / BLOCKY; k++) {
            int c = ty + k * BLOCKY;   /* the row of the transposed tile this pass writes */
            *(float2 *)&out[(size_t)(c0 + c) * rows + r0 + 2 * tx] =
                *(const float2 *)&tile[at(c, 2 * tx)];
        }
    } else {
    /* TODO(step6): the scalar path, supplied below, commented out: it is not this step's idea,
       and it needs your names (TILE, BLOCKX, BLOCKY, at, tx, ty, r0, c0). Tiles that reach past
       the matrix, and odd sizes, where a row does not start on 8 bytes, move one float at a
       time through the same tile and layout, each access guarded. Make it the else branch of
       your float2 path: delete the two lines that comment it out, and close the else after
       it. The choice of path depends on the block's tile alone, so every thread of a block
       takes the same path and reaches its barrier. */
        /* One float at a time through the same tile, reads and writes still coalesced,
           each guarded. */
        int t = ty * BLOCKX + tx;
        for (int e = t; e < TILE * TILE; e += BLOCKX * BLOCKY) {
            int r = e / TILE, c = e % TILE;
            if (r0 + r < rows && c0 + c < cols)
                tile[at(c, r)] = in[(size_t)(r0 + r) * cols + c0 + c];
        }
        __syncthreads();
        for (int e = t; e < TILE * TILE; e += BLOCKX * BLOCKY) {
            int c = e / TILE, r = e % TILE;
            if (c0 + c < cols && r0 + r < rows)
                out[(size_t)(c0 + c) * rows + r0 + r] = tile[at(c, r)];
        }
    }
}

static void launch(const float *d_in, float *d_out, int rows, int cols)
{
    /* TODO(step6): the block is the width and height you named above; the grid still counts
       tiles. */
    dim3 block(BLOCKX, BLOCKY);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_kernel<<<grid, block>>>(rows, cols, d_in, d_out);
}

int main(int argc, char **argv)
{
    struct tk_run run;
    tk_begin(&run, "step6", "GPU-vector-tile", argc, argv);
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
