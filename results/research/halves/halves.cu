/* Where step 7's time goes at the H200's near-squares: its reads and its writes, each alone,
   beside a copy's reads and writes alone. One process a shape; in each round, in turn:
     memcpy      cudaMemcpy device to device of one matrix (the sweep's ceiling, where faster)
     copy        the harness's copy kernel itself (tk_copy_floats, common/flush.cu), on its
                 grid of one wave of 256-thread blocks (from the call h200-halves-4 on; the
                 first three ran a copy of its loop, below)
     win         step 7's window kernel, the solution's text (64 columns, 128 rows, 512
                 threads, 8 bands at a time: way 3, "128 rows in 8 bands", the way the
                 solution kept at 63684 x 63683 and 28787 x 28783 in the sweep of 0.17.0)
     copy-read   the copy kernel's loop, its loads alone (their values folded into a sink), on
                 a grid of one wave
     win-read    the window kernel's loads and its shared-memory reads, no global stores
     copy-write  the copy kernel's loop, its stores alone (values from the index), likewise
     win-write   the window kernel's stores, its tile filled from the index, no global loads
     win-async   win with its loads as asynchronous copies (__pipeline_memcpy_async, as the
                 wide panel's): no register between global and shared memory, so a thread
                 issues all of its loads before it waits for any
     async-read  win-async's loads and shared-memory reads, no global stores
     win-regs    win with every load of a thread into registers first, then every shared
                 store
     win-fast    win where a block's staged rows and columns are all in the matrix (all but
                 the edges' blocks) loads with no checks, each address the last one's plus a
                 stride
     fast-read   win-fast's loads and shared-memory reads, no global stores
     win128      the solution's kernel with windows 128 columns wide and 64 rows, one band at
                 a time, as the seventh way that step7/RESEARCH.md, "The H200's L2", timed:
                 a block reads 512 bytes of a row, where win's reads 256
     w128-read   win128's loads and shared-memory reads, no global stores
   (win128 and w128-read came after the calls h200-halves-1 and -2, which ran the rest.)
   win and win128 are the solution's own kernel (30 to 32 registers a thread). The other
   window variants copy it with MODE's change, held to 32 registers by their launch bounds, so
   that each runs 4 blocks of 512 threads a multiprocessor, as the solution does; win-regs
   spills 4 bytes where rows is a multiple of 8 and cols odd (806744 x 381 and 18808 x 192869
   among halves-call.sh's shapes).
   Each variant runs after the harness's L2 flush (tk_flush_l2: a scratch buffer twice the
   L2's size read), timed by CUDA events; the median of --reps rounds after 2 rounds not
   counted. The outputs of memcpy, copy and the win kernels are poisoned before each run and
   checked bit for bit after the last round, on the device by the harness's counts
   (tk_count_differences, and tk_count_transposed_differences for the win kernels); the
   -read and -write kernels have no output to check. --only NAME runs that one alone, once
   (for Nsight Compute).
   Research, not part of the kit: bash build.sh halves halves (no GPU needed to build)
   ./halves --rows R --cols C [--reps N] [--only NAME] */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>
#include <cuda_pipeline.h>
#include "core.h"   /* the harness's CUDA_CHECK, L2 flush, copy kernel and checks (common/) */
#include "../research.h"   /* the rounds, the median, the solution's grid */

#define HALO 7
__device__ __forceinline__ int skew(int c, int rows) { return (c % 8) * (rows % 8) % 8; }

template <int TR, int H>
__device__ __forceinline__ int2 block_of(int rows)
{
    int ny = (rows + H + TR - 1) / TR;
    int g = gridDim.x / ny;
    return make_int2(blockIdx.y * g + blockIdx.x % g, blockIdx.x / g);
}

/* The solution's transpose_kernel, copied from solution/step7/transpose.cu as it is: */
template <int TC, int TR, int THREADS, int H, int VL>
__global__ void __launch_bounds__(THREADS)
transpose_kernel(int rows, int cols, const float *__restrict__ in, float *__restrict__ out)
{
    const int S = TC + 1, BX = TC / VL, BY = THREADS / BX;   /* padded row; BX x BY threads */
    const int VS = TR / 32;                                  /* floats a lane stores */
    __shared__ float tile[(TR + H) * S];

    int tx = threadIdx.x, ty = threadIdx.y;
    int2 b = block_of<TR, H>(rows);               /* the block's column band, row of windows */
    int c0 = b.x * TC, rs = b.y * TR - H;         /* its first input column, first staged row */

    #pragma unroll
    for (int k = 0; k < (TR + H + BY - 1) / BY; k++) {
        int i = ty + k * BY, r = rs + i, c = c0 + tx * VL;
        if (i >= TR + H || r < 0 || r >= rows || c >= cols)
            continue;
        if (VL == 2) {   /* cols is even, so c + 1 < cols too */
            float2 v = *(const float2 *)&in[(size_t)r * cols + c];
            tile[i * S + 2 * tx] = v.x;
            tile[i * S + 2 * tx + 1] = v.y;
        } else {
            tile[i * S + tx] = in[(size_t)r * cols + c];
        }
    }
    __syncthreads();

    int t = ty * BX + tx, lane = t % 32;
    for (int j = t / 32; j < TC && c0 + j < cols; j += THREADS / 32) {
        int c = c0 + j;                                          /* the output row */
        int r = b.y * TR - (H ? skew(c, rows) : 0) + VS * lane;  /* its floats r .. r + VS - 1 */
        int i = r - rs;                                          /* staged as rows i .. */
        float *o = out + (size_t)c * rows;
        const float *v = &tile[i * S + j];                       /* v[e * S]: float r + e */
        if (r < 0 || r + VS > rows) {   /* the ends of the row: a float at a time */
            for (int e = 0; e < VS; e++)
                if (r + e >= 0 && r + e < rows)
                    o[r + e] = v[e * S];
        } else if (VS == 4) {
            *(float4 *)&o[r] = make_float4(v[0], v[S], v[2 * S], v[3 * S]);
        } else {
            *(float2 *)&o[r] = make_float2(v[0], v[S]);
        }
    }
}

/* The same kernel, with MODE: 0 as it is, 1 no
   global stores (what they would store folded into a sink), 2 no global loads (the tile
   filled from the staged row and column). */
template <int TC, int TR, int THREADS, int H, int VL, int MODE>
__global__ void __launch_bounds__(THREADS, 2048 / THREADS)   /* held to the solution's 4 blocks of 512
                                                               threads (32 registers) a multiprocessor */
win_kernel(int rows, int cols, const float *__restrict__ in, float *__restrict__ out, int *sink)
{
    const int S = TC + 1, BX = TC / VL, BY = THREADS / BX;
    const int VS = TR / 32;
    __shared__ float tile[(TR + H) * S];
    int tx = threadIdx.x, ty = threadIdx.y;
    int2 b = block_of<TR, H>(rows);
    int c0 = b.x * TC, rs = b.y * TR - H;
    const int KL = (TR + H + BY - 1) / BY;   /* loads a thread */
    if (MODE == 5) {   /* every load into a register first, then every shared store */
        float v[KL][VL];
        #pragma unroll
        for (int k = 0; k < KL; k++) {
            int i = ty + k * BY, r = rs + i, c = c0 + tx * VL;
            if (i >= TR + H || r < 0 || r >= rows || c >= cols)
                continue;
            if (VL == 2) {
                float2 w = *(const float2 *)&in[(size_t)r * cols + c];
                v[k][0] = w.x, v[k][VL - 1] = w.y;
            } else {
                v[k][0] = in[(size_t)r * cols + c];
            }
        }
        #pragma unroll
        for (int k = 0; k < KL; k++) {
            int i = ty + k * BY, r = rs + i, c = c0 + tx * VL;
            if (i >= TR + H || r < 0 || r >= rows || c >= cols)
                continue;
            tile[i * S + VL * tx] = v[k][0];
            if (VL == 2)
                tile[i * S + 2 * tx + 1] = v[k][VL - 1];
        }
    }
    bool fast = (MODE == 6 || MODE == 7) && rs >= 0 && rs + TR + H <= rows && c0 + TC <= cols;
    if (fast) {   /* a block whose rows and columns are all in the matrix: no checks, and each
                     load's address the last one's plus a stride */
        const float *p = in + (size_t)(rs + ty) * cols + c0 + tx * VL;
        size_t step = (size_t)BY * cols;
        float *d = &tile[ty * S + VL * tx];
        #pragma unroll
        for (int k = 0; k < KL; k++, p += step, d += BY * S) {
            if (k == KL - 1 && ty + k * BY >= TR + H)
                break;
            if (VL == 2) {
                float2 w = *(const float2 *)p;
                d[0] = w.x, d[VL - 1] = w.y;
            } else {
                d[0] = *p;
            }
        }
    }
    #pragma unroll
    for (int k = 0; k < KL && MODE != 5 && !fast; k++) {
        int i = ty + k * BY, r = rs + i, c = c0 + tx * VL;
        if (i >= TR + H || r < 0 || r >= rows || c >= cols)
            continue;
        if (MODE == 3 || MODE == 4) {   /* asynchronous copies: no register, all in flight */
            const float *src = &in[(size_t)r * cols + c];
            __pipeline_memcpy_async(&tile[i * S + VL * tx], src, sizeof(float));
            if (VL == 2)
                __pipeline_memcpy_async(&tile[i * S + 2 * tx + 1], src + 1, sizeof(float));
        } else if (MODE == 2) {
            tile[i * S + VL * tx] = __int_as_float(r ^ c);
            if (VL == 2)
                tile[i * S + 2 * tx + 1] = __int_as_float(r ^ (c + 1));
        } else if (VL == 2) {
            float2 v = *(const float2 *)&in[(size_t)r * cols + c];
            tile[i * S + 2 * tx] = v.x;
            tile[i * S + 2 * tx + 1] = v.y;
        } else {
            tile[i * S + tx] = in[(size_t)r * cols + c];
        }
    }
    if (MODE == 3 || MODE == 4) {
        __pipeline_commit();
        __pipeline_wait_prior(0);
    }
    __syncthreads();
    int t = ty * BX + tx, lane = t % 32, acc = 0;
    for (int j = t / 32; j < TC && c0 + j < cols; j += THREADS / 32) {
        int c = c0 + j;
        int r = b.y * TR - (H ? skew(c, rows) : 0) + VS * lane;
        int i = r - rs;
        float *o = out + (size_t)c * rows;
        const float *v = &tile[i * S + j];
        if (r < 0 || r + VS > rows) {
            for (int e = 0; e < VS; e++)
                if (r + e >= 0 && r + e < rows) {
                    if (MODE == 1 || MODE == 4 || MODE == 7) acc ^= __float_as_int(v[e * S]);
                    else o[r + e] = v[e * S];
                }
        } else if (MODE == 1 || MODE == 4 || MODE == 7) {
            for (int e = 0; e < VS; e++)
                acc ^= __float_as_int(v[e * S]);
        } else if (VS == 4) {
            *(float4 *)&o[r] = make_float4(v[0], v[S], v[2 * S], v[3 * S]);
        } else {
            *(float2 *)&o[r] = make_float2(v[0], v[S]);
        }
    }
    if ((MODE == 1 || MODE == 4 || MODE == 7) && acc == 0x7A5E1F3D)
        *sink = acc;
}

#define UNROLL 4
/* The harness's copy loop (common/flush.cu's tk_copy_kernel) with MODE: 1 its loads alone,
   2 its stores alone. (The calls h200-halves-1 to -3 also ran the loop whole as MODE 0, at 40
   registers, as the copy variant, and sized all three copy variants' grid by its occupancy:
   6 blocks a multiprocessor, where the harness's kernel runs 8.) */
template <int MODE>
__global__ void copy_kernel(const float *in, float *out, size_t n, int *sink)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t n4 = n / 4;
    const float4 *in4 = (const float4 *)in;
    float4 *out4 = (float4 *)out;
    size_t i = t;
    int acc = 0;
    for (; i + (UNROLL - 1) * stride < n4; i += UNROLL * stride) {
        float4 v[UNROLL];
        #pragma unroll
        for (int k = 0; k < UNROLL; k++) {
            if (MODE == 2) { float f = __int_as_float((int)(i + k * stride)); v[k] = make_float4(f, f, f, f); }
            else v[k] = in4[i + k * stride];
        }
        #pragma unroll
        for (int k = 0; k < UNROLL; k++) {
            if (MODE == 1) acc ^= __float_as_int(v[k].x) ^ __float_as_int(v[k].y) ^ __float_as_int(v[k].z) ^ __float_as_int(v[k].w);
            else out4[i + k * stride] = v[k];
        }
    }
    for (; i < n4; i += stride) {
        if (MODE == 1) acc ^= __float_as_int(in4[i].x) ^ __float_as_int(in4[i].w);
        else out4[i] = make_float4(0.f, 0.f, 0.f, 0.f);
    }
    for (size_t j = 4 * n4 + t; j < n; j += stride) {
        if (MODE == 1) acc ^= __float_as_int(in[j]);
        else out[j] = 0.f;
    }
    if (MODE == 1 && acc == 0x7A5E1F3D)
        *sink = acc;
}

__global__ void fill_kernel(unsigned *p, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = __float_as_uint((float)(i % 16777213));
}

static long R, C;
static size_t N;
static float *d_in, *d_out;
static int *d_sink;
static int copy_blocks;

template <int MODE, int TC = 64, int TR = 128, int G = 8>   /* G column bands at a time */
static void launch_win()
{
    const int TH = 512;
    bool shift = R % 8 != 0, pairs = C % 2 == 0;
    int h = shift ? HALO : 0;
    dim3 grid = band_grid(R, C, TC, TR, h, G), b2(TC / 2, TH * 2 / TC), b1(TC, TH / TC);
    if constexpr (MODE == 0) {   /* the solution's own kernel */
        if (shift && pairs) transpose_kernel<TC, TR, TH, HALO, 2><<<grid, b2>>>(R, C, d_in, d_out);
        else if (shift) transpose_kernel<TC, TR, TH, HALO, 1><<<grid, b1>>>(R, C, d_in, d_out);
        else if (pairs) transpose_kernel<TC, TR, TH, 0, 2><<<grid, b2>>>(R, C, d_in, d_out);
        else transpose_kernel<TC, TR, TH, 0, 1><<<grid, b1>>>(R, C, d_in, d_out);
    } else {   /* its copy with MODE's change */
        if (shift && pairs) win_kernel<TC, TR, TH, HALO, 2, MODE><<<grid, b2>>>(R, C, d_in, d_out, d_sink);
        else if (shift) win_kernel<TC, TR, TH, HALO, 1, MODE><<<grid, b1>>>(R, C, d_in, d_out, d_sink);
        else if (pairs) win_kernel<TC, TR, TH, 0, 2, MODE><<<grid, b2>>>(R, C, d_in, d_out, d_sink);
        else win_kernel<TC, TR, TH, 0, 1, MODE><<<grid, b1>>>(R, C, d_in, d_out, d_sink);
    }
}

static void run(int v)
{
    switch (v) {
    case 0: CUDA_CHECK(cudaMemcpyAsync(d_out, d_in, N * 4, cudaMemcpyDeviceToDevice)); break;
    case 1: tk_copy_floats(d_in, d_out, N, 0); break;
    case 2: launch_win<0>(); break;
    case 3: copy_kernel<1><<<copy_blocks, 256>>>(d_in, d_out, N, d_sink); break;
    case 4: launch_win<1>(); break;
    case 5: copy_kernel<2><<<copy_blocks, 256>>>(d_in, d_out, N, d_sink); break;
    case 6: launch_win<2>(); break;
    case 7: launch_win<3>(); break;
    case 8: launch_win<4>(); break;
    case 9: launch_win<5>(); break;
    case 10: launch_win<6>(); break;
    case 11: launch_win<7>(); break;
    case 12: launch_win<0, 128, 64, 1>(); break;
    case 13: launch_win<1, 128, 64, 1>(); break;
    }
    CUDA_CHECK(cudaGetLastError());
}

#define NV 14
static const char *names[NV] = { "memcpy", "copy", "win", "copy-read", "win-read", "copy-write", "win-write",
                                 "win-async", "async-read", "win-regs", "win-fast", "fast-read", "win128",
                                 "w128-read" };
static const int checked[NV] = { 1, 1, 1, 0, 0, 0, 0, 1, 0, 1, 1, 0, 1, 0 };


int main(int argc, char **argv)
{
    int reps = 15, only = -1;
    if (parse_shape(argc, argv, "halves", names, NV, &R, &C, &reps, &only))
        return 2;
    N = (size_t)R * C;
    int dev = 0, l2 = 0, sms = 0, per_sm = 0;
    cudaDeviceProp p;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, copy_kernel<1>, 256, 0));
    copy_blocks = sms * (per_sm > 0 ? per_sm : 1);
    CUDA_CHECK(cudaMalloc(&d_in, N * 4));
    CUDA_CHECK(cudaMalloc(&d_out, N * 4));
    CUDA_CHECK(cudaMalloc(&d_sink, sizeof(int)));
    fill_kernel<<<4096, 256>>>((unsigned *)d_in, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    printf("%s, %d SMs, L2 %d MB; %ld x %ld (%.0f MiB a matrix), copy kernel %d blocks\n", p.name, sms,
           l2 >> 20, R, C, N * 4.0 / 1048576, copy_blocks);
    if (only >= 0) {
        run(only);
        CUDA_CHECK(cudaDeviceSynchronize());
        printf("%s ran once\n", names[only]);
        return 0;
    }
    int status = 0;
    std::vector<std::vector<double>> ms = time_rounds(NV, reps, d_sink,
        [&](int v) { if (checked[v]) CUDA_CHECK(cudaMemset(d_out, 0xFF, N * 4)); },   /* poison */
        run,
        [&](int v) {
            if (!checked[v])
                return;
            size_t d = v >= 2 ? tk_count_transposed_differences(d_in, d_out, R, C)
                              : tk_count_differences(d_in, d_out, N);
            printf("%s: %zu elements differ from the %s\n", names[v], d, v >= 2 ? "transpose" : "input");
            if (d) status = 1;
        });
    double gb = N * 4.0 / 1e9;
    printf("%-11s %9s %9s %9s %9s %7s\n", "variant", "median_ms", "min_ms", "max_ms", "GB/s", "%copy");
    for (int v = 0; v < NV; v++) {
        double m = median(ms[v]);
        bool two = checked[v];   /* reads and writes both matrices' bytes */
        printf("%-11s %9.3f %9.3f %9.3f %9.1f", names[v], m, *std::min_element(ms[v].begin(), ms[v].end()),
               *std::max_element(ms[v].begin(), ms[v].end()), gb * (two ? 2 : 1) / (m / 1e3));
        if (two) printf(" %6.1f%%", 100 * median(ratios(ms, v, 2)));
        printf("\n");
    }
    printf("%%copy: the faster of memcpy and copy over the variant's time, round by round, median\n");
    printf("async-read / copy-read: %.3f; fast-read / copy-read: %.3f; ", median(ms[8]) / median(ms[3]), median(ms[11]) / median(ms[3]));
    printf("win-read / copy-read: %.3f; win-write / copy-write: %.3f; (win-read + win-write) / win: %.3f; (copy-read + copy-write) / copy: %.3f; w128-read / copy-read: %.3f\n",
           median(ms[4]) / median(ms[3]), median(ms[6]) / median(ms[5]), (median(ms[4]) + median(ms[6])) / median(ms[2]),
           (median(ms[3]) + median(ms[5])) / median(ms[1]), median(ms[13]) / median(ms[3]));
    return status;
}
