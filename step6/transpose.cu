/* Step 6 (bonus): wider tiles and vector accesses, toward the copy ceiling.

   The input is a rows x cols matrix stored row by row; the output is its transpose,
   cols x rows: out[c * rows + r] = in[r * cols + c]. The harness (common/) parses the
   command line, fills the input, prints the CPU+OMP row, times the kernel and checks
   every element of the result. */
#include "harness.h"

#define TILE   32                /* a block moves one TILE x TILE tile */
#define BLOCKY 4                 /* ... with a TILE x BLOCKY block of threads */
#define ELEMS  (TILE / BLOCKY)   /* so each thread moves ELEMS elements in each phase */
/* TODO(step6): a bigger tile, moved 8 bytes at a time. Replace the three lines above by
     #define TILE   64             a block moves one 64 x 64 tile
     #define BLOCKX 32             threads across; each moves a float2: 32 span 64 floats
     #define BLOCKY 16             rows of threads in a block
     #define PAIRS  (TILE / 2)     the tile's rows, taken two at a time                   */

/* TODO(step6): padding by one float would break the 8-byte alignment a float2 needs in
   shared memory. Swizzle instead: store the transposed tile as rows of 32 float2 chunks,
   with chunk r / 2 of row c at position (r / 2) ^ ((c / 2) % 16):
     __device__ __forceinline__ int at(int c, int r)
     { return c * TILE + (((r / 2) ^ ((c / 2) % 16)) * 2) + r % 2; }
   Check on paper that the 16 threads of a half-warp reach 16 different positions mod 16 in
   both phases below: that is "no bank conflicts" for 8-byte accesses. */

/* As in step 4, but a block of 32 x 4 threads moves the 32 x 32 tile: each thread loads 8
   elements before it needs any of them, so more memory requests are in flight per thread,
   and the index arithmetic and the barrier are shared by 8 elements. */
__global__ void transpose_kernel(int rows, int cols, const float *in, float *out)
{
    /* TODO(step6): the kernel, in two paths. The tile's corner in the input is
       r0 = blockIdx.y * TILE, c0 = blockIdx.x * TILE.
       The float2 path, when the whole tile is inside the matrix and rows and cols are even
       (so every row of in and out starts on 8 bytes):
         1. for each of this thread's row pairs g = threadIdx.y + k * BLOCKY (k < PAIRS / BLOCKY):
            load float2 a0 from row r0 + 2g and a1 from row r0 + 2g + 1, both at column
            c0 + 2 * threadIdx.x: a 2 x 2 block of the input;
         2. write its transpose as two float2: make_float2(a0.x, a1.x) into
            tile[at(2 * threadIdx.x, 2 * g)] and make_float2(a0.y, a1.y) into
            tile[at(2 * threadIdx.x + 1, 2 * g)];
         3. __syncthreads();
         4. for each output row c = threadIdx.y + k * BLOCKY (k < TILE / BLOCKY): store the
            float2 tile[at(c, 2 * threadIdx.x)] to out[(c0 + c) * rows + r0 + 2 * threadIdx.x].
       The scalar path, for every other tile: loop e over the tile's 64 * 64 elements, one
       block apart, reading in[r0 + e / 64][c0 + e % 64] into tile[at(e % 64, e / 64)] when it
       is inside the matrix; __syncthreads(); then writing out[c0 + e / 64][r0 + e % 64] from
       tile[at(e / 64, e % 64)], guarded the same way. Global indices in size_t. */
    __shared__ float tile[TILE][TILE + 1];   /* +1: a column spans all 32 banks */

    int c = blockIdx.x * TILE + threadIdx.x;
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
    /* TODO(step6): the block is dim3 block(BLOCKX, BLOCKY); the grid still counts tiles. */
    dim3 block(TILE, BLOCKY);
    /* The grid follows the tiles, not the threads: one block per TILE x TILE tile. */
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_kernel<<<grid, block>>>(rows, cols, d_in, d_out);
}

int main(int argc, char **argv)
{
    struct tk_run run;
    tk_begin(&run, "step6", argc, argv);

    float *d_in = NULL, *d_out = NULL;   /* device copies of the matrices */
    CUDA_CHECK(cudaMalloc(&d_in, run.bytes));
    CUDA_CHECK(cudaMalloc(&d_out, run.bytes));
    CUDA_CHECK(cudaMemcpy(d_in, run.in, run.bytes, cudaMemcpyHostToDevice));

    /* A first run. A launch returns before the kernel ends: wait for the GPU before going on,
       and check both the launch and the run. */
    launch(d_in, d_out, run.rows, run.cols);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    /* TODO(step6): once the new kernel works, report its row as "GPU-vector-tile". */
    tk_time_gpu(&run, "GPU-multi-element", launch, d_in, d_out);

    CUDA_CHECK(cudaMemcpy(run.out, d_out, run.bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return tk_end(&run);
}
