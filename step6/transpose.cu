/* Step 6 (bonus): a transpose at the speed of a copy.

   The input is a rows x cols matrix stored row by row; the output is its transpose,
   cols x rows: out[c * rows + r] = in[r * cols + c]. The harness (common/) parses the
   command line, fills the input, prints the CPU+OMP row, times the kernel and checks
   every element of the result. */
#include "harness.h"

#define TILE   32                /* a block moves one TILE x TILE tile */
#define BLOCKY 4                 /* ... with a TILE x BLOCKY block of threads */
#define ELEMS  (TILE / BLOCKY)   /* so each thread moves ELEMS elements in each phase */
/* TODO(step6): a bigger tile, moved 16 bytes at a time. Replace the three lines above by
     #define TILE   64                a block moves one 64 x 64 tile
     #define VEC    4                 floats per global access: one float4
     #define BLOCKX (TILE / VEC)      16 threads span a row of the tile
     #define BLOCKY 16                rows of threads in a block
     #define GROUPS (TILE / VEC)      the tile's rows, taken 4 at a time
     #define CHUNKS (32 / VEC)        float4 chunks in one pass over the 32 banks       */

/* TODO(step6): padding by one float would break the 16-byte alignment a float4 needs in
   shared memory. Swizzle instead: store the transposed tile as rows of 16 float4 chunks,
   with chunk r / 4 of row c at position (r / 4) ^ ((c / 4) % 8):
     __device__ __forceinline__ int at(int c, int r)
     { return c * TILE + (((r / VEC) ^ ((c / VEC) % CHUNKS)) * VEC) + r % VEC; }
   Check on paper that the 8 threads of a quarter-warp touch 8 different chunks mod 8 in
   both phases below: that is what "no bank conflicts" means for 16-byte accesses. */

/* As in step 4, but a block of 32 x 4 threads moves the 32 x 32 tile: each thread loads 8
   elements before it needs any of them, so more memory requests are in flight per thread,
   and the index arithmetic and the barrier are shared by 8 elements. */
__global__ void transpose_kernel(int rows, int cols, const float *in, float *out)
{
    /* TODO(step6): the kernel, in two paths.
       The float4 path, when the whole tile is inside the matrix and rows % 4 == 0 and
       cols % 4 == 0 (so every row of in and out starts on 16 bytes); r0 = blockIdx.y * TILE
       and c0 = blockIdx.x * TILE are the tile's corner in the input:
         1. for each of this thread's groups g = threadIdx.y + k * BLOCKY (k < GROUPS / BLOCKY):
            load four float4 a[i] = in[(r0 + g * 4 + i) * cols + c0 + threadIdx.x * 4],
            i = 0..3: a 4 x 4 block of the input;
         2. write its transpose as four float4: column j of the block, e.g.
            make_float4(a[0].x, a[1].x, a[2].x, a[3].x) for j = 0, into
            tile[at(threadIdx.x * 4 + j, g * 4)];
         3. __syncthreads();
         4. for each output row c = threadIdx.y + k * BLOCKY (k < TILE / BLOCKY): store the
            float4 tile[at(c, threadIdx.x * 4)] to out[(c0 + c) * rows + r0 + threadIdx.x * 4].
       The scalar path for every other tile: loop e over the tile's 64 * 64 elements, one
       block-width apart, read in[r0 + e / 64][c0 + e % 64] into tile[at(c, r)] when it is
       inside the matrix; __syncthreads(); then write out[c0 + e / 64][r0 + e % 64] from
       tile[at(c, r)], guarded the same way. Both paths: size_t for the global indices. */
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
