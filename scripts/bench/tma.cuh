/* Hopper's bulk tensor copy (TMA) as a lever: the copy engine moves whole boxes between
   device memory and shared memory, so no thread issues a load or a store of the matrix.

   A block of 256 threads moves T tiles of 64 x 64 floats, one after another along a row of
   tiles, with S shared-memory stages: while the threads transpose one tile, the loads of the
   next S - 1 are in flight. Per tile:
     1. the copy engine loads the tile as two boxes of 64 rows x 32 floats (128 bytes), in the
        128-byte swizzled layout, and signals an mbarrier when the bytes have arrived;
     2. each thread reads a 4 x 4 block (four float4), and after a barrier writes its
        transpose back into the same stage, in the same swizzled layout;
     3. one thread hands the stage to the copy engine, which stores it as two boxes.
   The copy engine clips boxes at the matrix's edges (zeros in, nothing out), so every tile
   takes the same path; it needs rows and columns that start on 16 bytes (rows and cols
   divisible by 4). Needs compute capability 9.0. */
#pragma once
#include <cuda.h>            /* CUtensorMap: the type only; no link to the driver library */
#include <cudaTypedefs.h>    /* PFN_cuTensorMapEncodeTiled, reached through the runtime */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "tiles.cuh"

#define TMA_BOX (64 * 32)    /* floats in one box: 64 rows of 32 */

/* Float index of (row, col) in a box of 32-float rows stored with the 128-byte swizzle:
   16-byte chunk col / 4 of a row sits at chunk (col / 4) ^ (row % 8). Both phases of the
   kernel then spread each group of 8 threads over at least 4 of the 8 chunks of a row. */
__device__ __forceinline__ int swz(int row, int col)
{
    return row * 32 + ((((col >> 2) ^ row) & 7) << 2) + (col & 3);
}

__device__ __forceinline__ unsigned smem(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
/* An mbarrier that completes when the copy engine has delivered the expected bytes. */
__device__ __forceinline__ void bar_init(uint64_t *bar)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(bar)));
}
__device__ __forceinline__ void bar_expect(uint64_t *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(bar)),
                 "r"(bytes) : "memory");
}
__device__ __forceinline__ void bar_wait(uint64_t *bar, unsigned parity)
{
    asm volatile("{\n\t.reg .pred done;\n"
                 "WAIT:\n\tmbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 "\t@!done bra WAIT;\n}" ::"r"(smem(bar)), "r"(parity) : "memory");
}

/* Tile (c0, r0) of the input into a stage: two boxes, one mbarrier. */
__device__ __forceinline__ void load_tile(float *stage, const CUtensorMap *map, int c0, int r0,
                                          uint64_t *bar)
{
    bar_expect(bar, 2 * TMA_BOX * sizeof(float));
    for (int h = 0; h < 2; h++)
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx"
                     "::bytes [%0], [%1, {%2, %3}], [%4];"
                     ::"r"(smem(stage + h * TMA_BOX)), "l"(map), "r"(c0 + 32 * h), "r"(r0),
                     "r"(smem(bar)) : "memory");
}

/* A transposed stage out to (r0, c0) of the output: two boxes, one bulk group. */
__device__ __forceinline__ void store_tile(const float *stage, const CUtensorMap *map, int r0,
                                           int c0)
{
    for (int h = 0; h < 2; h++)
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
                     " [%0, {%1, %2}], [%3];"
                     ::"l"(map), "r"(r0 + 32 * h), "r"(c0), "r"(smem(stage + h * TMA_BOX))
                     : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
#endif

template <int T, int S>
__global__ void __launch_bounds__(256)
tma_kernel(const __grid_constant__ CUtensorMap in_map,
           const __grid_constant__ CUtensorMap out_map, int ntx)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
    extern __shared__ unsigned char raw[];
    /* The 128-byte swizzle repeats every 1024 bytes: stages start on 1024. */
    float *stages = (float *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023);
    __shared__ uint64_t full[S];

    const int t = threadIdx.x;
    const int first = blockIdx.x * T, count = min(T, ntx - first), r0 = blockIdx.y * 64;
    /* This thread's 4 x 4 block: input rows 4m..4m+3, columns 4k..4k+3. Each group of 8
       threads (one pass of 16-byte accesses) takes 4 values of k and 2 of m. */
    const int k = (t & 3) | (((t >> 3) & 3) << 2), m = ((t >> 2) & 1) | ((t >> 5) << 1);

    if (t == 0) {
        for (int s = 0; s < S; s++)
            bar_init(&full[s]);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        for (int s = 0; s < S && s < count; s++)
            load_tile(stages + s * 2 * TMA_BOX, &in_map, (first + s) * 64, r0, &full[s]);
    }
    __syncthreads();

    for (int i = 0; i < count; i++) {
        const int s = i % S;
        float *tile = stages + s * 2 * TMA_BOX;
        bar_wait(&full[s], (i / S) & 1);
        float4 a[4];
        #pragma unroll
        for (int q = 0; q < 4; q++)
            a[q] = *(const float4 *)&tile[(k >> 3) * TMA_BOX + swz(4 * m + q, (k & 7) * 4)];
        __syncthreads();   /* the whole tile is in registers: overwrite it in place */
        #pragma unroll
        for (int j = 0; j < 4; j++)
            *(float4 *)&tile[(m >> 3) * TMA_BOX + swz(4 * k + j, (m & 7) * 4)] = make_float4(
                get<4>(a[0], j), get<4>(a[1], j), get<4>(a[2], j), get<4>(a[3], j));
        /* Ordinary stores that the copy engine reads next: fence, then barrier. */
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        if (t == 0) {
            store_tile(tile, &out_map, r0, (first + i) * 64);
            if (i + S < count) {
                /* The stage is free once the store has read it. */
                asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
                load_tile(tile, &in_map, (first + i + S) * 64, r0, &full[s]);
            }
        }
    }
    if (t == 0)   /* the block's shared memory must outlive its stores */
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
#endif
}

/* A 2-D tensor map of a row-major matrix of floats, boxes of 64 rows x 32 floats. */
static void encode_map(CUtensorMap *map, const float *base, int rows, int cols)
{
    static PFN_cuTensorMapEncodeTiled_v12000 encode;
    if (!encode) {
        cudaDriverEntryPointQueryResult found;
#if CUDART_VERSION >= 12050
        CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode,
                                                    12000, cudaEnableDefault, &found));
#else   /* ByVersion is 12.5's; before it, the lookup asks for this toolkit's version (12.0+),
           which has the 12.0 signature too. From 12.5 on, this call is deprecated. */
        CUDA_CHECK(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", (void **)&encode,
                                           cudaEnableDefault, &found));
#endif
        if (found != cudaDriverEntryPointSuccess || !encode) {
            fprintf(stderr, "levers: this driver has no cuTensorMapEncodeTiled\n");
            exit(TK_EXIT_CUDA);
        }
    }
    cuuint64_t dim[2] = { (cuuint64_t)cols, (cuuint64_t)rows };
    cuuint64_t stride[1] = { (cuuint64_t)cols * sizeof(float) };
    cuuint32_t box[2] = { 32, 64 }, step[2] = { 1, 1 };
    CUresult err = encode(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)base, dim, stride,
                          box, step, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                          CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (err != CUDA_SUCCESS) {
        fprintf(stderr, "levers: cuTensorMapEncodeTiled failed (CUresult %d) for %d x %d\n",
                (int)err, rows, cols);
        exit(TK_EXIT_CUDA);
    }
}

/* Falls back to step 6's layout (t64-v2-b16-xor) where rows or cols is not divisible by 4. */
template <int T, int S>
static void launch_tma(const float *d_in, float *d_out, int rows, int cols)
{
    if (rows % 4 || cols % 4) {
        launch<64, 2, 16, true, false>(d_in, d_out, rows, cols);
        return;
    }
    /* Encoded once per set of buffers, outside the timed launches that follow. */
    static CUtensorMap in_map, out_map;
    static const float *enc_in;
    static float *enc_out;
    static int enc_rows, enc_cols, attribute_set;
    if (d_in != enc_in || d_out != enc_out || rows != enc_rows || cols != enc_cols) {
        encode_map(&in_map, d_in, rows, cols);
        encode_map(&out_map, d_out, cols, rows);
        enc_in = d_in, enc_out = d_out, enc_rows = rows, enc_cols = cols;
    }
    const int smem_bytes = S * 2 * TMA_BOX * sizeof(float) + 1024;
    if (!attribute_set) {
        CUDA_CHECK(cudaFuncSetAttribute(tma_kernel<T, S>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
        attribute_set = 1;
    }
    tma_kernel<T, S><<<grid_over(rows, cols, 64, 64 * T), 256, smem_bytes>>>(in_map, out_map,
                                                                            (cols + 63) / 64);
}
