/* Sector-aligned store windows: the levers behind step 7.

   Output row c of a rows x cols input starts at element c * rows of the output. When rows is
   not a multiple of 8, that start is not on a 32-byte sector, and a plain tile's stores cut
   sectors in two: each half is written by a different block. Here each block's piece of an
   output row (its window, TR floats) starts on that row's sector boundary instead: a_c =
   (c * rows) % 8 elements before the tile's first row. The block therefore stages H = 7
   extra input rows above its TR rows (TR + H rows of TC columns, in a tile padded by one
   float), and every store it makes covers whole sectors, except at the ends of a row.
   Where rows % 8 == 0, a_c is 0 and no extra row is staged.

   win-cTC-rTR-lVL-sVS-bBY[-plain]
     TC  input columns a block moves (output rows)    TR  floats of each output row it writes
     VL  floats per load (2: float2, where cols is even; one float otherwise)
     VS  floats per store (2, 4: a vector wherever the whole vector lies inside the row)
     BY  rows of threads; the block is (TC / VL) x BY threads
     plain: no shift (the windows start where the tiles do), for comparison
   win-...-gG: the blocks in another order, for the halo: in the launch order a block's H
     staged rows above its own were read by the block above it a whole grid row earlier
     (cols / TC blocks; at 1132 x 790153 that is 200 MB, four times the H100's L2), so they
     come from DRAM again (+11% reads there, ncu). Here G column bands at a time run from the
     top down, the blocks of a band row after band row, so that the block above ran G blocks
     earlier; G = 1 is column-major.
   win-...-rK: the other way round, strips of K row blocks at a time: a strip walks the column
     bands, the K blocks of a band top down, so the block above ran one block earlier (but at
     a strip's top, K x cols / TC blocks earlier) and the blocks running at once read runs of
     many input rows side by side, as in the launch order; r1 is the launch order in 1D.
   win-...-a2: where cols is odd (input rows off 8 bytes), float2 loads anyway, from the even
     float at or below each row's first: a row's 64 floats in 32 aligned float2s (one float
     before them read and dropped) and, where the row starts odd, its last float alone.
   win-...-maxN: at most N blocks on a multiprocessor (unused shared memory asked for).
   win-...-evE: L2 eviction hints for the rows the next block stages again (below).
   win-...-qQ: windows start on Q floats (16: 64 bytes, 32: a 128-byte line) rather than a
     sector's 8, staging Q - 1 rows above the block's own, shifting where rows % Q != 0. */
#pragma once
#include "tiles.cuh"

/* The block's place (bx, by) in the grid of nx column bands by ny row blocks: blockIdx
   itself (G = 0, a 2D grid), or, in a 1D grid, G bands at a time, the row blocks of those
   bands one row after another (the last group may have fewer bands), or (G < 0) strips of
   -G row blocks, band after band (the last strip may have fewer rows). */
template <int G>
__device__ void block_place(int nx, int ny, int &bx, int &by)
{
    if (G == 0) { bx = blockIdx.x; by = blockIdx.y; return; }
    if (G < 0) {   /* strips of K = -G row blocks, column after column, each top down */
        const long long b = blockIdx.x, per = (long long)-G * nx;   /* blocks in a strip */
        const int s = (int)(b / per), w = (int)(b % per);
        const int height = min(-G, ny + G * s);                     /* row blocks in it */
        bx = w / height;
        by = s * -G + w % height;
        return;
    }
    const long long b = blockIdx.x, per = (long long)G * ny;   /* blocks in a whole group */
    const int g = (int)(b / per), w = (int)(b % per);
    const int width = min(G, nx - g * G);                     /* bands in this group */
    bx = g * G + w % width;
    by = w / width;
}

/* -evE: L2 eviction hints (sm_80 on; PTX createpolicy). A block's own last H rows, which
   the next block down stages again as its halo, are loaded to be evicted last, the rest
   (its own halo included) to be evicted first; E = 2 also stores as streaming
   (st.global.cs). E = 1 and 2 (as run on 2026-11-28) load through ld.global with a policy
   made before each load, where the plain windows' loads compile to the read-only
   ld.global.nc; E = 3 loads through ld.global.nc with the two policies made once. Before
   sm_80 the loads are plain. */
__device__ __forceinline__ unsigned long long l2_policy(bool last)
{
    unsigned long long p = 0;
#if __CUDA_ARCH__ >= 800
    if (last)
        asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
    else
        asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
#endif
    return p;
}
template <bool NC>
__device__ __forceinline__ float ld_hint(const float *a, unsigned long long p)
{
#if __CUDA_ARCH__ >= 800
    float v;
    if (NC)
        asm("ld.global.nc.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(v) : "l"(a), "l"(p));
    else
        asm("ld.global.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(v) : "l"(a), "l"(p));
    return v;
#else
    return *a;
#endif
}
template <bool NC>
__device__ __forceinline__ float2 ld_hint2(const float *a, unsigned long long p)
{
#if __CUDA_ARCH__ >= 800
    float2 v;
    if (NC)
        asm("ld.global.nc.L2::cache_hint.v2.f32 {%0, %1}, [%2], %3;"
            : "=f"(v.x), "=f"(v.y) : "l"(a), "l"(p));
    else
        asm("ld.global.L2::cache_hint.v2.f32 {%0, %1}, [%2], %3;"
            : "=f"(v.x), "=f"(v.y) : "l"(a), "l"(p));
    return v;
#else
    return *reinterpret_cast<const float2 *>(a);
#endif
}

/* A window's staged tile, TR + H rows of TC floats padded by one, in bytes; past what a static
   array may hold (48 KB) it lives in dynamic shared memory (128 x 128 windows), which the
   launch asks for. */
template <int TC, int TR, int H>
__host__ __device__ constexpr int tile_bytes() { return (int)sizeof(float) * (TR + H) * (TC + 1); }
template <int TC, int TR, int H>
__host__ __device__ constexpr bool tile_dynamic() { return tile_bytes<TC, TR, H>() > 48 * 1024; }

template <int TC, int TR, int VL, int VS, int BY, int H, int G = 0, bool A = false, int E = 0>
__global__ void __launch_bounds__((TC / VL) * BY)
window_kernel(int rows, int cols, const float *__restrict__ in, float *__restrict__ out)
{
    const int S = TC + 1;                     /* a staged row, padded by one float */
    const int NT = (TC / VL) * BY;            /* threads in the block */
    constexpr bool DYN = tile_dynamic<TC, TR, H>();
    extern __shared__ float dyn_tile[];
    __shared__ float static_tile[DYN ? 1 : (TR + H) * S];
    float *tile = DYN ? dyn_tile : static_tile;
    const int tx = threadIdx.x, ty = threadIdx.y;
    int bx, by;
    block_place<G>((cols + TC - 1) / TC, (rows + H + TR - 1) / TR, bx, by);
    const int c0 = bx * TC;                   /* first input column */
    const int rb = by * TR - H;               /* first staged input row (may be negative) */
    const unsigned long long keep = E == 3 ? l2_policy(true) : 0, drop = E == 3 ? l2_policy(false) : 0;

    static_assert((TR / VS) % 32 == 0 && (TC / VL) * BY % 32 == 0, "whole warps");
    static_assert(!(A && E), "the hints (-evE) are on the plain loads, not -a2's");
    #pragma unroll
    for (int k = 0; k < (TR + H + BY - 1) / BY; k++) {
        const int i = ty + k * BY, r = rb + i, c = c0 + tx * VL;
        if (i >= TR + H || r < 0 || r >= rows || (A ? c - 1 : c) >= cols)
            continue;
        if (A) {   /* pairs from the even float at or below the row's first, cols odd */
            const size_t s0 = (size_t)r * cols + c0, g = (s0 & ~(size_t)1) + 2 * tx;
            const int j = 2 * tx - (int)(s0 & 1);   /* the pair's columns j, j + 1: -1 .. TC - 1 */
            const size_t total = (size_t)rows * cols;
            if (c0 + j >= cols)
                continue;
            float2 v = g + 2 <= total ? *reinterpret_cast<const float2 *>(in + g)
                                      : make_float2(in[g], 0.f);
            if (j >= 0 && c0 + j < cols)
                tile[i * S + j] = v.x;
            if (c0 + j + 1 < cols)
                tile[i * S + j + 1] = v.y;
            if (tx == TC / 2 - 1 && (s0 & 1) && c0 + TC - 1 < cols)   /* pairs one short */
                tile[i * S + TC - 1] = in[s0 + TC - 1];
        } else {
            const float *src = in + (size_t)r * cols + c;
            const bool last = H && i >= TR;   /* the next block's halo: -evE keeps it */
            const unsigned long long policy = E == 3 ? (last ? keep : drop) : E ? l2_policy(last) : 0;
            if (VL == 2) {   /* cols is even here, so c + 1 < cols too */
                float2 v = E ? ld_hint2<E == 3>(src, policy) : *reinterpret_cast<const float2 *>(src);
                tile[i * S + tx * 2] = v.x;
                tile[i * S + tx * 2 + 1] = v.y;
            } else {
                tile[i * S + tx] = E ? ld_hint<E == 3>(src, policy) : *src;
            }
        }
    }
    __syncthreads();

    const int t = ty * (TC / VL) + tx, lane = t % 32;
    for (int cl = t / 32; cl < TC && c0 + cl < cols; cl += NT / 32) {
        const int c = c0 + cl;
        const int a = H ? ((c & H) * (rows & H)) & H : 0;   /* (c * rows) % (H + 1) */
        const int w = by * TR - a;                          /* the window's first element */
        float *row = out + (size_t)c * rows;
        #pragma unroll
        for (int k = 0; k < TR / VS / 32; k++) {
            const int q = lane + 32 * k;
            const int r = w + q * VS, i = q * VS + H - a;   /* output element, staged row */
            if (VS > 1 && r >= 0 && r + VS <= rows) {
                typename vec<VS>::t v;
                #pragma unroll
                for (int e = 0; e < VS; e++)
                    set<VS>(v, e, tile[(i + e) * S + cl]);
                if (E == 2)
                    __stcs(reinterpret_cast<typename vec<VS>::t *>(row + r), v);
                else
                    *reinterpret_cast<typename vec<VS>::t *>(row + r) = v;
            } else {
                #pragma unroll
                for (int e = 0; e < VS; e++)
                    if (r + e >= 0 && r + e < rows)
                        row[r + e] = tile[(i + e) * S + cl];
            }
        }
    }
}

template <int TC, int TR, int VL, int VS, int BY, int H, int G = 0, bool A = false, int N = 0,
          int E = 0>
static void launch_window_h(const float *d_in, float *d_out, int rows, int cols)
{
    auto kernel = window_kernel<TC, TR, VL, VS, BY, H, G, A, E>;
    constexpr int bytes = tile_bytes<TC, TR, H>();
    static_assert(!tile_dynamic<TC, TR, H>() || N == 0, "-maxN only on a static tile");
    static int pad = -1;   /* dynamic shared memory a block asks for: the tile itself past 48 KB,
                              or memory left unused so that at most N blocks fit an SM */
    if (pad < 0) {
        pad = 0;
        if (tile_dynamic<TC, TR, H>()) {   /* the tile itself, in dynamic shared memory: opt in */
            pad = bytes;
            CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, pad));
        }
        if (N) {
            int dev, per_sm, reserved;
            CUDA_CHECK(cudaGetDevice(&dev));
            CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
            CUDA_CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev));
            pad = per_sm / (N ? N : 1) - reserved - bytes;
            pad = pad / 128 * 128 - 128;   /* with the static tile, past 48 KB: opt in */
            CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, pad));
        }
    }
    dim3 grid((cols + TC - 1) / TC, (rows + H + TR - 1) / TR);
    if (G) {   /* one dimension: every block's place from its number */
        long long n = (long long)grid.x * grid.y;
        if (n > 2147483647LL)
            n = 0;   /* past a 1D grid's limit: the launch fails, and the harness says so */
        grid = dim3((unsigned)n, 1);
    }
    kernel<<<grid, dim3(TC / VL, BY), pad>>>(rows, cols, d_in, d_out);
}

/* Shifted windows only where output rows are off their sectors; float2 loads only where
   input rows start on 8 bytes (otherwise one float, with as many threads). PLAIN: never
   shift, and stores of one float (vectors would be misaligned). */
template <int TC, int TR, int VL, int VS, int BY, bool PLAIN = false, int G = 0, bool A = false,
          int N = 0, int Q = 8, int E = 0>
static void launch_window(const float *d_in, float *d_out, int rows, int cols)
{
    static_assert((Q & (Q - 1)) == 0 && TR % Q == 0, "windows on Q floats: Q a power of 2 dividing TR");
    const int B1 = BY / VL > 0 ? BY / VL : 1;   /* rows of threads with one-float loads */
    const bool shift = !PLAIN && rows % Q != 0, vl = VL == 2 && cols % 2 == 0;
    if (PLAIN && vl)
        launch_window_h<TC, TR, VL, 1, BY, 0, G>(d_in, d_out, rows, cols);
    else if (PLAIN)
        launch_window_h<TC, TR, 1, 1, B1, 0, G>(d_in, d_out, rows, cols);
    else if (shift && vl)
        launch_window_h<TC, TR, VL, VS, BY, Q - 1, G, false, N, E>(d_in, d_out, rows, cols);
    else if (shift && A)
        launch_window_h<TC, TR, 2, VS, BY, Q - 1, G, true, N>(d_in, d_out, rows, cols);
    else if (shift)
        launch_window_h<TC, TR, 1, VS, B1, Q - 1, G, false, N, E>(d_in, d_out, rows, cols);
    else if (vl)
        launch_window_h<TC, TR, VL, VS, BY, 0, G, false, N, E>(d_in, d_out, rows, cols);
    else if (A)
        launch_window_h<TC, TR, 2, VS, BY, 0, G, true, N>(d_in, d_out, rows, cols);
    else
        launch_window_h<TC, TR, 1, VS, B1, 0, G, false, N, E>(d_in, d_out, rows, cols);
}

/* win-...-walkK[-cm]: a block walks K windows down its column band, one after another, and
   keeps the H rows it staged last at the bottom of its tile as the top of the next, so no
   row is read twice but at the first window of each walk. Blocks: nx bands by ceil(ny / K)
   walks, in the 2D grid's order, or (cm) a band's walks one after another. */
template <int TC, int TR, int VL, int BY, int H, int K, bool CM>
__global__ void __launch_bounds__((TC / VL) * BY)
window_walk(int rows, int cols, const float *__restrict__ in, float *__restrict__ out)
{
    const int S = TC + 1, NT = (TC / VL) * BY;
    __shared__ float tile[(TR + H) * S];
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * (TC / VL) + tx, lane = t % 32;
    const int ny = (rows + H + TR - 1) / TR, walks = (ny + K - 1) / K;
    const int bx = CM ? blockIdx.x / walks : blockIdx.x;
    const int w0 = (CM ? blockIdx.x % walks : blockIdx.y) * K;   /* the walk's first window */
    const int c0 = bx * TC;

    for (int by = w0; by < w0 + K && by < ny; by++) {
        const int rb = by * TR - H;           /* first staged input row */
        const int first = by == w0 ? 0 : H;   /* staged rows 0 .. H - 1 carried, but the first */
        if (by != w0) {   /* the last H rows staged become the first H: through registers */
            float v = 0.f;
            const int i = t / TC, j = t % TC;   /* NT >= H * TC */
            if (i < H) v = tile[(TR + i) * S + j];
            __syncthreads();
            if (i < H) tile[i * S + j] = v;
        }
        #pragma unroll
        for (int k = 0; k < (TR + H + BY - 1) / BY; k++) {
            const int i = ty + k * BY, r = rb + i, c = c0 + tx * VL;
            if (i < first || i >= TR + H || r < 0 || r >= rows || c >= cols)
                continue;
            if (VL == 2) {
                float2 v = *reinterpret_cast<const float2 *>(in + (size_t)r * cols + c);
                tile[i * S + tx * 2] = v.x;
                tile[i * S + tx * 2 + 1] = v.y;
            } else {
                tile[i * S + tx] = in[(size_t)r * cols + c];
            }
        }
        __syncthreads();
        for (int cl = t / 32; cl < TC && c0 + cl < cols; cl += NT / 32) {
            const int c = c0 + cl;
            const int a = H ? ((c & 7) * (rows & 7)) & 7 : 0;
            const int r = by * TR - a + 2 * lane, i = r - rb;
            float *o = out + (size_t)c * rows;
            if (r >= 0 && r + 2 <= rows) {
                *reinterpret_cast<float2 *>(o + r) = make_float2(tile[i * S + cl], tile[(i + 1) * S + cl]);
            } else {
                if (r >= 0 && r < rows) o[r] = tile[i * S + cl];
                if (r + 1 >= 0 && r + 1 < rows) o[r + 1] = tile[(i + 1) * S + cl];
            }
        }
        __syncthreads();   /* the tile is read before the next window overwrites it */
    }
}

template <int K, bool CM>
static void launch_walk(const float *d_in, float *d_out, int rows, int cols)
{
    const bool shift = rows % 8 != 0, vl = cols % 2 == 0;
    const int nx = (cols + 63) / 64, H = shift ? 7 : 0, ny = (rows + H + 63) / 64;
    const int walks = (ny + K - 1) / K;
    dim3 grid = CM ? dim3((unsigned)((long long)nx * walks)) : dim3(nx, walks);
    if (shift && vl)
        window_walk<64, 64, 2, 16, 7, K, CM><<<grid, dim3(32, 16)>>>(rows, cols, d_in, d_out);
    else if (shift)
        window_walk<64, 64, 1, 8, 7, K, CM><<<grid, dim3(64, 8)>>>(rows, cols, d_in, d_out);
    else if (vl)
        window_walk<64, 64, 2, 16, 0, K, CM><<<grid, dim3(32, 16)>>>(rows, cols, d_in, d_out);
    else
        window_walk<64, 64, 1, 8, 0, K, CM><<<grid, dim3(64, 8)>>>(rows, cols, d_in, d_out);
}
