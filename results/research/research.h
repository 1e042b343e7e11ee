/* What the research programs of halves/, streams/ and odd-cols/ share: their rounds, the
   median, and the solution's grid for its windows. Research, not part of the kit.

   time_rounds: in each round every variant runs in turn: poison(v) (its output poisoned, where it has one), the
   harness's L2 flush (tk_flush_l2, through a scratch buffer of twice the GPU's L2, zeroed,
   its own; sink: its one int of output), then run(v) between two CUDA events; in the last
   round, check(v) after it. The first 2 rounds are not counted. Returns each variant's times
   in ms, one a counted round (ms[v][i]: variant v in round i).

   parse_shape: the options of the programs of a rows x cols matrix (halves, oddcols). */
#pragma once
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "core.h"   /* the harness's CUDA_CHECK and L2 flush (common/) */

template <class Poison, class Run, class Check>
static std::vector<std::vector<double>> time_rounds(int nv, int reps, int *sink, Poison poison, Run run,
                                                    Check check)
{
    int dev = 0, l2 = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    const size_t scratch_bytes = 2 * (size_t)l2 / sizeof(int4) * sizeof(int4);
    int4 *scratch;
    CUDA_CHECK(cudaMalloc(&scratch, scratch_bytes));
    CUDA_CHECK(cudaMemset(scratch, 0, scratch_bytes));
    cudaEvent_t e0, e1;
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    std::vector<std::vector<double>> ms(nv);
    for (int round = 0; round < reps + 2; round++)
        for (int v = 0; v < nv; v++) {
            poison(v);
            tk_flush_l2(scratch, scratch_bytes, sink);
            CUDA_CHECK(cudaGetLastError());
            CUDA_CHECK(cudaEventRecord(e0));
            run(v);
            CUDA_CHECK(cudaEventRecord(e1));
            CUDA_CHECK(cudaEventSynchronize(e1));
            float f;
            CUDA_CHECK(cudaEventElapsedTime(&f, e0, e1));
            if (round == reps + 1)
                check(v);
            if (round >= 2)
                ms[v].push_back(f);
        }
    CUDA_CHECK(cudaEventDestroy(e0));
    CUDA_CHECK(cudaEventDestroy(e1));
    CUDA_CHECK(cudaFree(scratch));
    return ms;
}

/* --rows R --cols C [--reps N] [--only NAME] into *R, *C, *reps and *only (the index of NAME
   in names, -1 without --only); 0, or 2 after saying what is wrong, as PROG. */
static inline int parse_shape(int argc, char **argv, const char *prog, const char *const *names, int nv,
                              long *R, long *C, int *reps, int *only)
{
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--rows") && a + 1 < argc) *R = atol(argv[++a]);
        else if (!strcmp(argv[a], "--cols") && a + 1 < argc) *C = atol(argv[++a]);
        else if (!strcmp(argv[a], "--reps") && a + 1 < argc) *reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--only") && a + 1 < argc) {
            const char *s = argv[++a];
            for (int v = 0; v < nv; v++) if (!strcmp(s, names[v])) *only = v;
            if (*only < 0) { fprintf(stderr, "%s: no variant %s\n", prog, s); return 2; }
        } else { fprintf(stderr, "usage: %s --rows R --cols C [--reps N] [--only NAME]\n", prog); return 2; }
    }
    if (*R < 1 || *C < 1 || *R > 2147483000L || *C > 2147483000L || *reps < 1) {
        fprintf(stderr, "%s: bad shape or reps\n", prog);
        return 2;
    }
    return 0;
}

/* The median (of an even count, the mean of the middle two). */
static inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t m = v.size();
    return m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
}

/* The solution's band_grid (solution/step7/transpose.cu) for rows x cols: windows of tc x tr
   that start up to h rows above their block's, `bands` column bands at a time (0: all). */
static inline dim3 band_grid(long rows, long cols, int tc, int tr, int h, long bands)
{
    long nx = (cols + tc - 1) / tc, ny = (rows + h + tr - 1) / tr;
    long g = bands > 0 && bands < nx ? bands : nx;
    if (nx > 65535 * g)
        g = (nx + 65534) / 65535;
    return dim3(g * ny, (nx + g - 1) / g);
}

/* Round by round, the least time of the first k variants (the copies: memcpy, or memcpy and
   the copy kernel) over variant v's. */
static inline std::vector<double> ratios(const std::vector<std::vector<double>> &ms, int v, int k)
{
    std::vector<double> r;
    for (size_t i = 0; i < ms[v].size(); i++) {
        double best = ms[0][i];
        for (int j = 1; j < k; j++)
            best = std::min(best, ms[j][i]);
        r.push_back(best / ms[v][i]);
    }
    return r;
}
