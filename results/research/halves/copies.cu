/* How near can a kernel come to cudaMemcpy's device-to-device copy on the H200, whose copy is
   not a kernel (Nsight Compute profiles none; halves-call.sh)? Kernels that copy one buffer of
   N floats to another, each beside cudaMemcpy in every round, in turn:
     memcpy     cudaMemcpyAsync device to device
     harness    the harness's copy loop (common/flush.cu's tk_copy_kernel, as stride_copy
                here): one wave of 256-thread blocks, each thread 4 float4 loads in flight,
                striding over the buffer
     unroll8    the same with 8 float4 loads in flight (48 registers: on the same 1056-block
                grid, more than one wave on the H200)
     waves      the same loop, a grid of 4 waves
     chunks     each block of 256 threads copies its own 32 KiB, 8 float4s a thread in flight,
                a grid of as many blocks as chunks
     warp4k     each warp copies its own 4 KiB (8 float4s a lane, in flight), as many warps as
                chunks
     stream     the harness's loop with __ldcs / __stcs (streaming: evict first)
     v4         one float4 a thread, a grid that covers the buffer (the lever benchmark's
                copy-v4; from the second call on)
   Each after the harness's L2 flush (tk_flush_l2); CUDA events; median of
   --reps rounds after 2 not counted; every output poisoned before its run and checked bit for
   bit after the last round (tk_count_differences). Research, not part of the kit:
   bash build.sh copies copies && ./copies --floats N [--reps K] */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>
#include "core.h"   /* the harness's CUDA_CHECK, L2 flush and copy check (common/) */
#include "../research.h"   /* the rounds, the median, the solution's grid */

template <int U, bool STREAM>
__global__ void stride_copy(const float4 *in, float4 *out, size_t n4)
{
    size_t stride = (size_t)gridDim.x * blockDim.x, i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    for (; i + (U - 1) * stride < n4; i += U * stride) {
        float4 v[U];
        #pragma unroll
        for (int k = 0; k < U; k++) v[k] = STREAM ? __ldcs(&in[i + k * stride]) : in[i + k * stride];
        #pragma unroll
        for (int k = 0; k < U; k++) { if (STREAM) __stcs(&out[i + k * stride], v[k]); else out[i + k * stride] = v[k]; }
    }
    for (; i < n4; i += stride) out[i] = in[i];
}

__global__ void v4_copy(const float4 *in, float4 *out, size_t n4)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n4)
        out[i] = in[i];
}

/* Each group of G threads copies its own chunk of G * U float4s, U in flight a thread. */
template <int U>
__global__ void chunk_copy(const float4 *in, float4 *out, size_t n4, int g)
{
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t base = (t / g) * (size_t)g * U + t % g;
    float4 v[U];
    #pragma unroll
    for (int k = 0; k < U; k++) if (base + k * g < n4) v[k] = in[base + k * g];
    #pragma unroll
    for (int k = 0; k < U; k++) if (base + k * g < n4) out[base + k * g] = v[k];
}

__global__ void fill_kernel(unsigned *p, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = (unsigned)(i * 2654435761u) ^ (unsigned)(i >> 32);
}

#define NV 8
static const char *names[NV] = { "memcpy", "harness", "unroll8", "waves", "chunks", "warp4k", "stream", "v4" };

int main(int argc, char **argv)
{
    size_t n = 0;
    int reps = 15;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--floats") && a + 1 < argc) n = strtoull(argv[++a], NULL, 10);
        else if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
        else { fprintf(stderr, "usage: copies --floats N [--reps K]\n"); return 2; }
    }
    if (n < 4 || n % 4 || reps < 1) { fprintf(stderr, "copies: N must be a multiple of 4 (float4s), reps at least 1\n"); return 2; }
    size_t n4 = n / 4;
    int dev = 0, sms = 0, per256 = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per256, stride_copy<4, false>, 256, 0));
    int wave = sms * per256;
    float4 *in, *out;
    int *sink;
    CUDA_CHECK(cudaMalloc(&in, n * 4));
    CUDA_CHECK(cudaMalloc(&out, n * 4));
    CUDA_CHECK(cudaMalloc(&sink, sizeof(int)));
    fill_kernel<<<4096, 256>>>((unsigned *)in, n);
    CUDA_CHECK(cudaGetLastError());
    printf("%zu floats (%.0f MiB), %d SMs, one wave %d blocks of 256\n", n, n * 4.0 / 1048576, sms, wave);
    int status = 0;
    std::vector<std::vector<double>> ms = time_rounds(NV, reps, sink,
        [&](int) { CUDA_CHECK(cudaMemset(out, 0xFF, n * 4)); },   /* poison */
        [&](int v) {
            switch (v) {
            case 0: CUDA_CHECK(cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice)); break;
            case 1: stride_copy<4, false><<<wave, 256>>>(in, out, n4); break;
            case 2: stride_copy<8, false><<<wave, 256>>>(in, out, n4); break;
            case 3: stride_copy<4, false><<<4 * wave, 256>>>(in, out, n4); break;
            case 4: chunk_copy<8><<<(unsigned)((n4 + 8 * 256 - 1) / (8 * 256)), 256>>>(in, out, n4, 256); break;
            case 5: chunk_copy<8><<<(unsigned)((n4 + 8 * 256 - 1) / (8 * 256)), 256>>>(in, out, n4, 32); break;
            case 6: stride_copy<4, true><<<wave, 256>>>(in, out, n4); break;
            case 7: v4_copy<<<(unsigned)((n4 + 255) / 256), 256>>>(in, out, n4); break;
            }
            CUDA_CHECK(cudaGetLastError());
        },
        [&](int v) {
            size_t h = tk_count_differences((const float *)in, (const float *)out, n);
            if (h) { printf("%s: %zu floats differ\n", names[v], h); status = 1; }
        });
    printf("%-8s %9s %9s %9s %9s %8s\n", "copy", "median_ms", "min_ms", "max_ms", "GB/s", "%memcpy");
    for (int v = 0; v < NV; v++) {
        std::vector<double> s = ms[v], r = ratios(ms, v, 1);
        std::sort(s.begin(), s.end());
        std::sort(r.begin(), r.end());
        double m = s[s.size() / 2];
        printf("%-8s %9.3f %9.3f %9.3f %9.1f %7.1f%%\n", names[v], m, s.front(), s.back(), 2 * n * 4.0 / 1e9 / (m / 1e3), 100 * r[r.size() / 2]);
    }
    printf("%%memcpy: memcpy's time over the copy's, round by round, median; every output %s\n", status ? "NOT exact" : "exact");
    return status;
}
