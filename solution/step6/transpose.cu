/* Step 6 (bonus): wider tiles and vector accesses, toward the copy ceiling.

   The input is a rows x cols matrix stored row by row; the output is its transpose,
   cols x rows: out[c * rows + r] = in[r * cols + c]. The harness (common/) parses the
   command line, fills the input, prints the CPU+OMP row, times the kernel and checks
   every element of the result. */
#include "harness.h"

#define TILE   64             /* a block moves one TILE x TILE tile */
#define BLOCKX 32             /* threads across; each moves a float2, so 32 span 64 floats */
#define BLOCKY 16             /* rows of threads in a block */
#define PAIRS  (TILE / 2)     /* the tile's rows, taken two at a time */

/* Where element (c, r) of the transposed tile lives in shared memory, a flat array of
   TILE * TILE floats. Each pair of floats (r even, r + 1) stays together as one float2 chunk,
   whole and 8-byte aligned; the chunks of a row are permuted, differently from row to row, so
   that the 16 threads that share a 128-byte pass touch 16 different chunks, so 32 different
   banks, when the tile is written and when it is read. (Step 4's padding breaks alignment.) */
__device__ __forceinline__ int at(int c, int r)
{
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
    __shared__ __align__(16) float tile[TILE * TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int r0 = blockIdx.y * TILE, c0 = blockIdx.x * TILE;   /* the block's tile of in */

    /* The float2 path needs the whole tile inside the matrix and rows of in and out that
       start on 8 bytes (even cols and rows). Other tiles take the scalar path. */
    bool vector_path = rows % 2 == 0 && cols % 2 == 0 && r0 + TILE <= rows &&
                       c0 + TILE <= cols;
    if (vector_path) {
        #pragma unroll
        for (int k = 0; k < PAIRS / BLOCKY; k++) {
            int g = ty + k * BLOCKY;   /* this thread's pair of rows: 2g and 2g + 1 */
            float2 a0 = *(const float2 *)&in[(size_t)(r0 + 2 * g) * cols + c0 + 2 * tx];
            float2 a1 = *(const float2 *)&in[(size_t)(r0 + 2 * g + 1) * cols + c0 + 2 * tx];
            /* Column j of the 2 x 2 block becomes row 2 tx + j of the transposed tile. */
            *(float2 *)&tile[at(2 * tx, 2 * g)] = make_float2(a0.x, a1.x);
            *(float2 *)&tile[at(2 * tx + 1, 2 * g)] = make_float2(a0.y, a1.y);
        }
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < TILE / BLOCKY; k++) {
            int c = ty + k * BLOCKY;   /* the row of the output tile this pass writes */
            *(float2 *)&out[(size_t)(c0 + c) * rows + r0 + 2 * tx] =
                *(const float2 *)&tile[at(c, 2 * tx)];
        }
    } else {
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
