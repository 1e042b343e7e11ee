/* Step 6 (bonus): a transpose at the speed of a copy.

   The input is a rows x cols matrix stored row by row; the output is its transpose,
   cols x rows: out[c * rows + r] = in[r * cols + c]. The harness (common/) parses the
   command line, fills the input, prints the CPU+OMP row, times the kernel and checks
   every element of the result. */
#include "harness.h"

#define TILE   64                /* a block moves one TILE x TILE tile */
#define VEC    4                 /* floats per global access: one float4, 16 bytes */
#define BLOCKX (TILE / VEC)      /* 16 threads span a row of the tile */
#define BLOCKY 16                /* rows of threads in a block */
#define GROUPS (TILE / VEC)      /* the tile's rows, taken VEC at a time */
#define CHUNKS (32 / VEC)        /* float4 chunks in one pass over the 32 banks */

/* Where element (c, r) of the transposed tile lives in shared memory. Row c holds 64 floats
   as 16 chunks of 4; chunk r / 4 is stored at position (r / 4) ^ ((c / 4) % 8). The XOR
   keeps each float4 whole and aligned, yet spreads the 8 threads that share a 128-byte
   pass over the 8 different 16-byte bank groups, in the writing phase and in the reading
   phase. (Padding rows by one float would break the 16-byte alignment of float4.) */
__device__ __forceinline__ int at(int c, int r)
{
    return c * TILE + (((r / VEC) ^ ((c / VEC) % CHUNKS)) * VEC) + r % VEC;
}

/* Step 5 moved one float per access and 8 per thread. Here each thread loads 4 float4 from
   4 consecutive rows: a 4 x 4 block, whose transpose it forms in registers and writes to
   shared memory as 4 float4. After the barrier it reads whole float4 of the transposed tile
   and stores them. Every global access is 16 bytes, coalesced across the warp: a quarter of
   step 5's memory instructions, and 64 bytes in flight per thread per phase. */
__global__ void __launch_bounds__(BLOCKX * BLOCKY)
transpose_kernel(int rows, int cols, const float *__restrict__ in, float *__restrict__ out)
{
    __shared__ __align__(16) float tile[TILE * TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int r0 = blockIdx.y * TILE, c0 = blockIdx.x * TILE;   /* the block's tile of in */

    /* The float4 path needs the whole tile inside the matrix and rows of in and out that
       start on 16 bytes (cols and rows multiples of 4). Other tiles take the scalar path. */
    bool vector_path = rows % VEC == 0 && cols % VEC == 0 && r0 + TILE <= rows &&
                       c0 + TILE <= cols;
    if (vector_path) {
        #pragma unroll
        for (int k = 0; k < GROUPS / BLOCKY; k++) {
            int g = ty + k * BLOCKY;   /* this thread's group of 4 rows */
            float4 a[VEC];
            #pragma unroll
            for (int i = 0; i < VEC; i++)
                a[i] = *(const float4 *)&in[(size_t)(r0 + g * VEC + i) * cols + c0 + tx * VEC];
            /* Column j of the 4 x 4 block becomes row tx * 4 + j of the transposed tile. */
            *(float4 *)&tile[at(tx * VEC + 0, g * VEC)] = make_float4(a[0].x, a[1].x, a[2].x, a[3].x);
            *(float4 *)&tile[at(tx * VEC + 1, g * VEC)] = make_float4(a[0].y, a[1].y, a[2].y, a[3].y);
            *(float4 *)&tile[at(tx * VEC + 2, g * VEC)] = make_float4(a[0].z, a[1].z, a[2].z, a[3].z);
            *(float4 *)&tile[at(tx * VEC + 3, g * VEC)] = make_float4(a[0].w, a[1].w, a[2].w, a[3].w);
        }
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < TILE / BLOCKY; k++) {
            int c = ty + k * BLOCKY;   /* the row of the output tile this pass writes */
            *(float4 *)&out[(size_t)(c0 + c) * rows + r0 + tx * VEC] =
                *(const float4 *)&tile[at(c, tx * VEC)];
        }
    } else {
        /* Edge tiles and unaligned sizes: one float at a time through the same tile, reads
           and writes still coalesced, each guarded. */
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

    tk_time_gpu(&run, "GPU-vector-tile", launch, d_in, d_out);

    CUDA_CHECK(cudaMemcpy(run.out, d_out, run.bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return tk_end(&run);
}
