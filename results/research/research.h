/* What the research programs of halves/, streams/ and odd-cols/ share: their rounds, the
   median, and the solution's grid for its windows. Research, not part of the kit.

   time_rounds: in each round every variant runs in turn: poison(v) (its output poisoned, where it has one), the
   harness's L2 flush (tk_flush_l2), then run(v) between two CUDA events; in the last round,
   check(v) after it. The first 2 rounds are not counted. Returns each variant's times in ms,
   one a counted round (ms[v][i]: variant v in round i). */
#pragma once
#include <algorithm>
#include <vector>
#include "core.h"   /* the harness's CUDA_CHECK and L2 flush (common/) */

template <class Poison, class Run, class Check>
static std::vector<std::vector<double>> time_rounds(int nv, int reps, const void *scratch, size_t scratch_bytes,
                                                    int *sink, Poison poison, Run run, Check check)
{
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
    return ms;
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
