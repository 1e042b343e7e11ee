/* Does the H200 copy slower when the bytes in flight lie apart in memory? A transpose reads
   (or writes) short runs far apart: step 7's windows read 256 bytes of each input row, 8 column
   bands at a time (2 KiB runs), and write 256-byte runs of each output row. Here one buffer of
   N floats is copied to another, one float4 a thread, 256-thread blocks launched in order,
   every byte read once and written once, with only the places changed: the buffer is cut into
   segments of G float4s (G x 16 bytes), and segment s (counted in the order the threads run)
   is read from segment rd(s) and written to segment wr(s), each a bijection:
     in order    rd(s) = wr(s) = s: the plain copy (the lever benchmark's copy-v4)
     scatter     (s x 2654435761) mod the segments: consecutive segments land far apart
     K streams   (s mod K) x (segments / K) + s / K: K runs, each in order
     within W    scatter within each run of W bytes, the runs in order
     band        down the columns of a matrix of whole segments (the rest in order)
   Variants (name: segment, read order, write order):
     memcpy      cudaMemcpyAsync device to device, the sweep's ceiling
     in-order    4 KiB, in order, in order
     r-scat-B    B bytes (256 to 4 KiB), scatter, in order: the reads apart, the writes not
     w-scat-B    B bytes, in order, scatter: the writes apart
     r-K         4 KiB, K streams (16 to 4096), in order
     w-K         4 KiB, in order, K streams (1024, 4096)
     r-in-W      4 KiB, scatter within each run of W bytes (32 MiB to 1 GiB), in order
     r-band-B-pW B bytes, down the columns of a matrix whose rows are W segments, in order: a
                 transpose's reads of one column band at a time (256 bytes: 64 floats; 2 KiB:
                 8 bands of 64), rows of 254976 or 256000 bytes (near 63683 floats: W 996 or
                 125) or of 91648 or 92160 (near 22912 floats: W 358 or 45)
     w-band-B-pW in order, the writes so
     rw-band-B   both: reads down rows of 996 segments (256 bytes) or 125 (2 KiB), writes down
                 rows of 358 or 45: both sides in runs, as a transpose's are
   Each after the harness's L2 flush (tk_flush_l2), CUDA events, the median of --reps rounds
   after 2 not counted, every variant in turn in each round; every output poisoned before its
   run and checked float for float against its segment's source after the last round; %memcpy
   is memcpy's time over the variant's, round by round, median. --only NAME runs one once (for
   Nsight Compute). Research, not part of the kit:
   bash results/research/halves/build.sh ../streams/streams OUT && OUT --floats N [--reps K] */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>
#include "core.h"   /* the harness's CUDA_CHECK and L2 flush (common/) */
#include "../research.h"   /* the rounds, the median, the solution's grid */

enum { IN_ORDER, SCATTER, STREAMS, LOCAL, BAND };

__device__ __forceinline__ size_t place(size_t s, size_t ns, int how, unsigned k)
{
    if (how == SCATTER)
        return (size_t)((unsigned __int128)s * 2654435761u % ns);
    if (how == STREAMS)
        return (s % k) * (ns / k) + s / k;
    if (how == BAND) {   /* a matrix of rows of k segments, read down its columns of segments */
        size_t r = ns / k;
        return s < r * k ? s % r * k + s / r : s;
    }
    if (how == LOCAL)   /* scatter within each run of k segments */
        return s / k * k + (size_t)((unsigned __int128)(s % k) * 2654435761u % k);
    return s;
}

/* One float4 a thread: thread t moves float4 t % G of segment t / G. */
__global__ void moved_copy(const float4 *in, float4 *out, size_t ns, int g, int rd, int wr, unsigned k, unsigned kw)
{
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x, s = t / g, j = t % g;
    if (s < ns)
        out[place(s, ns, wr, kw) * g + j] = in[place(s, ns, rd, k) * g + j];
}

__global__ void count_moved(const float4 *in, const float4 *out, size_t ns, int g, int rd, int wr, unsigned k,
                            unsigned kw, unsigned long long *bad)
{
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < ns * g; t += (size_t)gridDim.x * blockDim.x) {
        size_t s = t / g, j = t % g;
        float4 a = in[place(s, ns, rd, k) * g + j], b = out[place(s, ns, wr, kw) * g + j];
        int n = (__float_as_uint(a.x) != __float_as_uint(b.x)) + (__float_as_uint(a.y) != __float_as_uint(b.y)) +
                (__float_as_uint(a.z) != __float_as_uint(b.z)) + (__float_as_uint(a.w) != __float_as_uint(b.w));
        if (n)
            atomicAdd(bad, (unsigned long long)n);
    }
}

__global__ void fill_kernel(unsigned *p, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = (unsigned)(i * 2654435761u) ^ (unsigned)(i >> 32);
}

struct variant { const char *name; int g, rd, wr; unsigned k, kw; };   /* kw: the writes' k, where not k */
static const variant vs[] = {
    { "memcpy", 0, 0, 0, 0 },
    { "in-order", 256, IN_ORDER, IN_ORDER, 1 },
    { "r-scat-256", 16, SCATTER, IN_ORDER, 1 },
    { "r-scat-512", 32, SCATTER, IN_ORDER, 1 },
    { "r-scat-1K", 64, SCATTER, IN_ORDER, 1 },
    { "r-scat-2K", 128, SCATTER, IN_ORDER, 1 },
    { "r-scat-4K", 256, SCATTER, IN_ORDER, 1 },
    { "w-scat-256", 16, IN_ORDER, SCATTER, 1 },
    { "w-scat-1K", 64, IN_ORDER, SCATTER, 1 },
    { "w-scat-4K", 256, IN_ORDER, SCATTER, 1 },
    { "r-K16", 256, STREAMS, IN_ORDER, 16 },
    { "r-K256", 256, STREAMS, IN_ORDER, 256 },
    { "r-K4096", 256, STREAMS, IN_ORDER, 4096 },
    { "r-K2048", 256, STREAMS, IN_ORDER, 2048 },
    { "r-K1024", 256, STREAMS, IN_ORDER, 1024 },
    { "r-K512", 256, STREAMS, IN_ORDER, 512 },
    { "r-in-32M", 256, LOCAL, IN_ORDER, 8192 },
    { "r-in-128M", 256, LOCAL, IN_ORDER, 32768 },
    { "r-in-512M", 256, LOCAL, IN_ORDER, 131072 },
    { "r-in-1G", 256, LOCAL, IN_ORDER, 262144 },
    { "w-K1024", 256, IN_ORDER, STREAMS, 1024 },
    { "w-K4096", 256, IN_ORDER, STREAMS, 4096 },
    { "r-band-256-p996", 16, BAND, IN_ORDER, 996 },
    { "r-band-256-p358", 16, BAND, IN_ORDER, 358 },
    { "r-band-2K-p125", 128, BAND, IN_ORDER, 125 },
    { "r-band-2K-p45", 128, BAND, IN_ORDER, 45 },
    { "w-band-256-p996", 16, IN_ORDER, BAND, 996 },
    { "w-band-2K-p125", 128, IN_ORDER, BAND, 125 },
    { "rw-band-256", 16, BAND, BAND, 996, 358 },
    { "rw-band-2K", 128, BAND, BAND, 125, 45 },
};
#define NV (int)(sizeof vs / sizeof vs[0])

static float4 *d_in, *d_out;
static size_t N;

static void run(int v)
{
    if (v == 0) {
        CUDA_CHECK(cudaMemcpyAsync(d_out, d_in, N * 4, cudaMemcpyDeviceToDevice));
        return;
    }
    size_t n4 = N / 4;
    moved_copy<<<(unsigned)((n4 + 255) / 256), 256>>>(d_in, d_out, n4 / vs[v].g, vs[v].g, vs[v].rd, vs[v].wr, vs[v].k,
                                                      vs[v].kw ? vs[v].kw : vs[v].k);
    CUDA_CHECK(cudaGetLastError());
}

int main(int argc, char **argv)
{
    int reps = 15, only = -1;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--floats") && a + 1 < argc) N = strtoull(argv[++a], NULL, 10);
        else if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--only") && a + 1 < argc) {
            const char *s = argv[++a];
            for (int v = 0; v < NV; v++) if (!strcmp(s, vs[v].name)) only = v;
            if (only < 0) { fprintf(stderr, "streams: no variant %s\n", s); return 2; }
        } else { fprintf(stderr, "usage: streams --floats N [--reps K] [--only NAME]\n"); return 2; }
    }
    if (N == 0 || N % (1u << 28) || reps < 1) {   /* whole runs of 1 GiB for r-in-1G */
        fprintf(stderr, "streams: N must be a multiple of %u (1 GiB), reps at least 1\n", 1u << 28);
        return 2;
    }
    int dev = 0, l2 = 0;
    cudaDeviceProp p;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    int *sink;
    unsigned long long *d_bad;
    CUDA_CHECK(cudaMalloc(&d_in, N * 4));
    CUDA_CHECK(cudaMalloc(&d_out, N * 4));
    CUDA_CHECK(cudaMalloc(&sink, sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_bad, sizeof *d_bad));
    fill_kernel<<<4096, 256>>>((unsigned *)d_in, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    printf("%s, %d SMs, L2 %d MB; %zu floats (%.0f MiB a buffer)\n", p.name, p.multiProcessorCount, l2 >> 20, N,
           N * 4.0 / 1048576);
    if (only >= 0) {
        run(only);
        CUDA_CHECK(cudaDeviceSynchronize());
        printf("%s ran once\n", vs[only].name);
        return 0;
    }
    int status = 0;
    std::vector<std::vector<double>> ms = time_rounds(NV, reps, sink,
        [&](int) { CUDA_CHECK(cudaMemset(d_out, 0xFF, N * 4)); },   /* poison */
        run,
        [&](int v) {
            size_t n4 = N / 4;
            int g = v ? vs[v].g : 256;
            unsigned long long bad = 0;
            CUDA_CHECK(cudaMemset(d_bad, 0, sizeof *d_bad));
            unsigned k = v ? vs[v].k : 1, kw = v && vs[v].kw ? vs[v].kw : k;
            count_moved<<<4096, 256>>>(d_in, d_out, n4 / g, g, vs[v].rd, vs[v].wr, k, kw, d_bad);
            CUDA_CHECK(cudaGetLastError());
            CUDA_CHECK(cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost));
            if (bad) { printf("%s: %llu floats differ from their source\n", vs[v].name, bad); status = 1; }
        });
    printf("%-11s %9s %9s %9s %9s %8s\n", "variant", "median_ms", "min_ms", "max_ms", "GB/s", "%memcpy");
    for (int v = 0; v < NV; v++) {
        std::vector<double> s = ms[v], r = ratios(ms, v, 1);
        std::sort(s.begin(), s.end());
        std::sort(r.begin(), r.end());
        double m = s[s.size() / 2];
        printf("%-11s %9.3f %9.3f %9.3f %9.1f %7.1f%%\n", vs[v].name, m, s.front(), s.back(), 2 * N * 4.0 / 1e9 / (m / 1e3),
               100 * r[r.size() / 2]);
    }
    printf("every output %s\n", status ? "NOT exact" : "exact, float for float");
    return status;
}
