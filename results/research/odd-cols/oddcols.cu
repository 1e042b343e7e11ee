/* Where cols is odd, step 7's windows lose 8 to 11 points on the H200 against the same
   shape with one more column (../streams/h200-align-*: 63744 x 63743 at 85.3% of the copy,
   63744 x 63744 at 96.3%). There every other input row starts on an odd float, so the
   solution loads a float at a time (VL 1, 64 threads across a row). Is it the loads'
   count or the rows' sectors (a run of 64 floats off a sector touches 9)? Here, in turn in
   each round, after the harness's L2 flush:
     memcpy     cudaMemcpy device to device (the sweep's ceiling, where faster)
     copy       the harness's copy kernel (tk_copy_floats)
     win-W      the solution's window kernel, its own text (but see below: the second and
                third calls built it otherwise), in way W (0: 64 x 64 one band;
                3: 64 columns, 128 rows, 8 bands at a time; step 7's launch times six ways
                at a shape's first launch and keeps the fastest)
     odd2-W     the same kernel where cols is odd with float2 loads a row: a row that starts
                on an even float as the solution's float2 rows; a row that starts on an odd
                float from the float before it (its first lane's first float, the last band's,
                dropped), and the row's last float by a float load of its last lane; 32
                threads across, as the float2 rows. Same sectors, about half the loads. Where
                cols is even it is the solution's kernel. Its loads and stores alternate in the
                machine code (one load in flight a thread; the first call, h200-odd-1, shows
                what that costs), so:
     oddr-W     odd2-W with every row's loads into registers first, then every shared store,
                held to 32 registers a thread (4 blocks of 512 a multiprocessor, as the
                solution's): way 3's spills 40 to 76 bytes, way 0's nothing (ptxas -v); also
                in ways 1 (64 x 64, 8 bands) and 5 (128 bands)
     allr-0     oddr-0's kernel at every shape: where cols is even, the solution's float2 rows
                with every load into registers first (from the third call, h200-odd-3)
   Which code each call ran: the first (h200-odd-1) ran the variants up to odd2-3, built with
   the solution's launch bounds, __launch_bounds__(THREADS), for every instance, so that
   win-W had the solution's machine code (its way 3 took 8.893 ms at 63684 x 63683, the
   solution's in h200-pairs-2 8.895). The second and third
   (h200-odd-2, -3) ran ODD as an int with __launch_bounds__(THREADS, ODD == 2 ? 2048 / THREADS
   : 1): a minimum of one block for every other instance, which changed win-W's machine code
   (its float-load kernels took 34 to 36 registers a thread against the solution's 30 to 32,
   and issued their loads in other runs) and slowed it: way 3 at 63684 x 63683 took 8.893 ms
   in the first call and 9.389 and 9.450 ms in the second and third, as the first
   pairs.patch's way 3 did (h200-pairs-1-time.txt).
   So in those two calls win-W is not the solution's kernel; odd2-W's machine code is the same
   in every build, and oddr and allr are as the line holds them. As committed, the line has 0 there, and win-W's
   machine code is the solution's again (sass.sh).
   The median of --reps rounds after 2 not counted, CUDA events; every output poisoned
   before its run and checked bit for bit (tk_count_transposed_differences) after the last
   round; %copy: the faster of memcpy and copy over the variant's time, round by round,
   median. --only NAME runs one once (Nsight Compute, the sanitizers).
   Research, not part of the kit: bash ../halves/build.sh ../odd-cols/oddcols OUT */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>
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

/* The solution's transpose_kernel (solution/step7/transpose.cu, 0.19.1) with ODD: where
   true, the float2 loads of a row that starts on an odd float begin one float before it. */
template <int TC, int TR, int THREADS, int H, int VL, int ODD = 0>
__global__ void __launch_bounds__(THREADS, ODD == 2 ? 2048 / THREADS : 0)   /* 0: no minimum, as the
    solution's; the second and third calls ran this line with 1 there (see the header) */
transpose_kernel(int rows, int cols, const float *__restrict__ in, float *__restrict__ out)
{
    const int S = TC + 1, BX = TC / VL, BY = THREADS / BX;
    const int VS = TR / 32;
    __shared__ float tile[(TR + H) * S];

    int tx = threadIdx.x, ty = threadIdx.y;
    int2 b = block_of<TR, H>(rows);
    int c0 = b.x * TC, rs = b.y * TR - H;

    const int KL = (TR + H + BY - 1) / BY;   /* rows a thread loads */
    if (ODD == 2) {   /* every row's loads into registers first, then every shared store */
        float2 v[KL];
        float e[KL];
        #pragma unroll
        for (int k = 0; k < KL; k++) {
            int i = ty + k * BY, r = rs + i;
            bool row = i < TR + H && r >= 0 && r < rows;
            size_t base = (size_t)r * cols + c0;
            int sh = (int)(base & 1), col = 2 * tx - sh, c = c0 + col;   /* v: columns c, c + 1 */
            const float *p = in + base + col;                           /* on 8 bytes */
            v[k] = make_float2(0.f, 0.f);
            e[k] = 0.f;
            if (row && c + 1 < cols)
                v[k] = *(const float2 *)p;
            else if (row && c < cols)
                v[k].x = *p;
            if (row && sh && tx == BX - 1 && c0 + TC - 1 < cols)
                e[k] = p[2];
        }
        #pragma unroll
        for (int k = 0; k < KL; k++) {
            int i = ty + k * BY, r = rs + i;
            if (i >= TR + H || r < 0 || r >= rows)
                continue;
            int sh = (int)(((size_t)r * cols + c0) & 1), col = 2 * tx - sh;
            if (col >= 0)
                tile[i * S + col] = v[k].x;
            tile[i * S + col + 1] = v[k].y;   /* past cols: a column no window writes out */
            if (sh && tx == BX - 1)
                tile[i * S + TC - 1] = e[k];
        }
    }
    #pragma unroll
    for (int k = 0; k < KL && ODD != 2; k++) {
        int i = ty + k * BY, r = rs + i, c = c0 + tx * VL;
        if (i >= TR + H || r < 0 || r >= rows)
            continue;
        if (ODD && ((size_t)r * cols + c0) % 2) {   /* the row starts on an odd float */
            const float *p = &in[(size_t)r * cols + c];   /* float c: its pair is c - 1, c */
            if (c < cols) {
                float2 v = *(const float2 *)(p - 1);
                if (tx > 0)
                    tile[i * S + 2 * tx - 1] = v.x;
                tile[i * S + 2 * tx] = v.y;
            } else if (c - 1 < cols && tx > 0) {
                tile[i * S + 2 * tx - 1] = p[-1];
            }
            if (tx == BX - 1 && c + 1 < cols)   /* the band's last column */
                tile[i * S + 2 * tx + 1] = p[1];
            continue;
        }
        if (c >= cols)
            continue;
        if (VL == 2 && (!ODD || c + 1 < cols)) {   /* a pair: cols even, or a row on an even float */
            float2 v = *(const float2 *)&in[(size_t)r * cols + c];
            tile[i * S + 2 * tx] = v.x;
            tile[i * S + 2 * tx + 1] = v.y;
        } else {
            tile[i * S + VL * tx] = in[(size_t)r * cols + c];
        }
    }
    __syncthreads();

    int t = ty * BX + tx, lane = t % 32;
    for (int j = t / 32; j < TC && c0 + j < cols; j += THREADS / 32) {
        int c = c0 + j;
        int r = b.y * TR - (H ? skew(c, rows) : 0) + VS * lane;
        int i = r - rs;
        float *o = out + (size_t)c * rows;
        const float *v = &tile[i * S + j];
        if (r < 0 || r + VS > rows) {
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

static long R, C;
static size_t N;
static float *d_in, *d_out;

/* The solution's launch_window and band_grid for one way: TC x TR windows, G bands at a time. */
template <int TR, int G, int ODD>
static void launch_win()
{
    const int TC = 64, TH = 512;
    bool shift = R % 8 != 0, pairs = C % 2 == 0;
    int h = shift ? HALO : 0;
    dim3 grid = band_grid(R, C, TC, TR, h, G), b2(TC / 2, TH * 2 / TC), b1(TC, TH / TC);
    if (ODD == 3 || (ODD && !pairs)) {   /* ODD 3: oddr's kernel at every shape */
        const int K = ODD == 3 ? 2 : ODD;
        if (shift) transpose_kernel<TC, TR, TH, HALO, 2, K><<<grid, b2>>>(R, C, d_in, d_out);
        else transpose_kernel<TC, TR, TH, 0, 2, K><<<grid, b2>>>(R, C, d_in, d_out);
    } else if (shift && pairs) transpose_kernel<TC, TR, TH, HALO, 2><<<grid, b2>>>(R, C, d_in, d_out);
    else if (shift) transpose_kernel<TC, TR, TH, HALO, 1><<<grid, b1>>>(R, C, d_in, d_out);
    else if (pairs) transpose_kernel<TC, TR, TH, 0, 2><<<grid, b2>>>(R, C, d_in, d_out);
    else transpose_kernel<TC, TR, TH, 0, 1><<<grid, b1>>>(R, C, d_in, d_out);
}

static void run(int v)
{
    switch (v) {
    case 0: CUDA_CHECK(cudaMemcpyAsync(d_out, d_in, N * 4, cudaMemcpyDeviceToDevice)); break;
    case 1: tk_copy_floats(d_in, d_out, N, 0); break;
    case 2: launch_win<64, 1, 0>(); break;
    case 3: launch_win<64, 1, 1>(); break;
    case 4: launch_win<128, 8, 0>(); break;
    case 5: launch_win<128, 8, 1>(); break;
    case 6: launch_win<64, 1, 2>(); break;
    case 7: launch_win<128, 8, 2>(); break;
    case 8: launch_win<64, 8, 2>(); break;
    case 9: launch_win<64, 128, 2>(); break;
    case 10: launch_win<64, 1, 3>(); break;
    }
    CUDA_CHECK(cudaGetLastError());
}

#define NV 11
static const char *names[NV] = { "memcpy", "copy", "win-0", "odd2-0", "win-3", "odd2-3", "oddr-0", "oddr-3",
                                 "oddr-1", "oddr-5", "allr-0" };

__global__ void fill_kernel(unsigned *p, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = __float_as_uint((float)(i % 16777213));
}


int main(int argc, char **argv)
{
    int reps = 15, only = -1;
    if (parse_shape(argc, argv, "oddcols", names, NV, &R, &C, &reps, &only))
        return 2;
    N = (size_t)R * C;
    int dev = 0;
    cudaDeviceProp p;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
    int *d_sink;
    CUDA_CHECK(cudaMalloc(&d_in, N * 4));
    CUDA_CHECK(cudaMalloc(&d_out, N * 4));
    CUDA_CHECK(cudaMalloc(&d_sink, sizeof(int)));
    fill_kernel<<<4096, 256>>>((unsigned *)d_in, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    printf("%s; %ld x %ld (%.0f MiB a matrix)\n", p.name, R, C, N * 4.0 / 1048576);
    if (only >= 0) {
        CUDA_CHECK(cudaMemset(d_out, 0xFF, N * 4));
        run(only);
        CUDA_CHECK(cudaDeviceSynchronize());
        size_t d = only >= 2 ? tk_count_transposed_differences(d_in, d_out, R, C) : tk_count_differences(d_in, d_out, N);
        printf("%s ran once: %zu elements differ\n", names[only], d);
        return d != 0;
    }
    int status = 0;
    std::vector<std::vector<double>> ms = time_rounds(NV, reps, d_sink,
        [&](int) { CUDA_CHECK(cudaMemset(d_out, 0xFF, N * 4)); },   /* poison */
        run,
        [&](int v) {
            size_t d = v >= 2 ? tk_count_transposed_differences(d_in, d_out, R, C) : tk_count_differences(d_in, d_out, N);
            if (d) { printf("%s: %zu elements differ\n", names[v], d); status = 1; }
        });
    printf("%-8s %9s %9s %9s %9s %7s\n", "variant", "median_ms", "min_ms", "max_ms", "GB/s", "%copy");
    for (int v = 0; v < NV; v++) {
        double m = median(ms[v]);
        printf("%-8s %9.3f %9.3f %9.3f %9.1f %6.1f%%\n", names[v], m, *std::min_element(ms[v].begin(), ms[v].end()),
               *std::max_element(ms[v].begin(), ms[v].end()), 2 * N * 4.0 / 1e9 / (m / 1e3), 100 * median(ratios(ms, v, 2)));
    }
    printf("every output %s\n", status ? "NOT exact" : "exact, bit for bit");
    return status;
}
