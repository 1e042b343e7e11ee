// Step 7's panels (solution/step7/panels.cuh) run on the CPU, so that their index arithmetic is
// checked where there is no GPU: panels-cpu SEED N draws N panel shapes from SEED (wide ones of
// 1 to 112 rows, tall ones of 1 to 48 columns, the long side up to 100000; the first 16 have
// the sides 1 to 8, wide then tall), runs launch_panel on each and compares the output with
// the transpose, float for float, and checks that nothing was written past it (up to the end
// of its mapping, tests/cpu-emu/emu.h); then stage_rows alone at N stretches from any start.
// Exit 0 when all are exact, 1 when one is not (the first few named), 2 on bad arguments.
//
// build.sh (beside it) builds it with panels-host.h, panels.cuh with each kernel launch
// rewritten as a call of tk_emu_launch (sed), and this file's stand-ins for CUDA's names.
// Each block runs as tests/cpu-emu/emu.h runs one: its threads in turn, up to the barrier
// (every panel kernel has one: its shared panel is written before it and only read after)
// with the output read-only, then again through the stores; a store to the output before the
// barrier ends the run (exit 1), saying so. Shared memory is the launch's size, with a guard
// after it that must stay unwritten.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "emu.h"   // tests/cpu-emu/: CUDA's names, a block's two passes, the output read-only

struct alignas(16) float4 { float x, y, z, w; };   // aligned as CUDA's: UBSan finds a misaligned one
static inline float4 make_float4(float a, float b, float c, float d) { return {a, b, c, d}; }
static inline long min(long a, long b) { return a < b ? a : b; }
static inline size_t min(size_t a, size_t b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }
typedef void *cudaStream_t;

enum { SHARED_MAX = 1 << 16, GUARD = 64 };
alignas(16) float panel[SHARED_MAX];   // what each kernel's extern __shared__ panel[] names: the
                                       // launch's shared memory, then GUARD floats never written

#define __shared__
#define __align__(n) __attribute__((aligned(n)))

// A kernel launch: blocks of nt threads, smem bytes of shared memory a block.
static int guard_broken;
static size_t last_smem;               // the shared memory of the last launch, in bytes
template <typename K>
static void tk_emu_launch(unsigned blocks, unsigned nt, size_t smem, K kernel)
{
    const size_t n = smem / sizeof(float);
    last_smem = smem;
    if (n + GUARD > SHARED_MAX) {
        fprintf(stderr, "panels-cpu: a launch of %zu bytes of shared memory, over this file's %d\n",
                smem, (int)((SHARED_MAX - GUARD) * sizeof(float)));
        exit(1);
    }
    for (unsigned b = 0; b < blocks; b++) {
        std::fill(panel, panel + n + GUARD, -1.f);
        blockIdx = {b, 0, 0};
        tk_emu_block(nt, 1, kernel);
        for (size_t i = n; i < n + GUARD; i++)
            guard_broken |= panel[i] != -1.f;
    }
}

#include "panels-host.h"

// The busiest bank's lanes of a warp, on average over its shared accesses, where side runs
// (or columns) of a panel of span floats lie P floats apart: threads t of NT, each taking
// floats 4 t .. 4 t + 3 of every 4 NT, as store_stretch reads and stage_rows writes them,
// float k at panel[(k % side) P + k / side].
static double busiest_bank(int side, int span, int P, int nt)
{
    const int n = side * span;
    long sum = 0, accesses = 0;
    for (int from = 0; from < n; from += 4 * nt)
        for (int warp = 0; warp < nt / 32; warp++)
            for (int e = 0; e < 4; e++) {
                int lanes[32] = {0}, most = 0;
                for (int l = 0; l < 32; l++) {
                    const int k = from + 4 * (32 * warp + l) + e;
                    if (k < n)
                        most = std::max(most, ++lanes[((k % side) * P + k / side) % 32]);
                }
                if (most)
                    sum += most, accesses++;
            }
    return (double)sum / accesses;
}

int main(int argc, char **argv)
{
    if (argc != 3 || atoll(argv[2]) < 1) {
        fprintf(stderr, "usage: panels-cpu SEED N\n");
        return 2;
    }
    std::mt19937_64 draw(strtoull(argv[1], nullptr, 10));
    const int n = atoi(argv[2]);
    int wrong = 0;
    for (int k = 0; k < n; k++) {
        // the first 16: sides 1 to 8, wide then tall (a wide panel of at most 8 rows stages
        // by its second loop, W > NT), whatever the seed; then sides drawn
        const bool tall = k < 16 ? k >= 8 : draw() % 2;
        const long side = k < 16 ? 1 + k % 8 : tall ? 1 + draw() % 48 : 1 + draw() % 112;
        const long other = side + 1 + draw() % 100000;   // the long side, longer than side
        const long rows = tall ? other : side, cols = tall ? side : other;
        if (!panel_shape(rows, cols)) {
            fprintf(stderr, "panels-cpu: %ld x %ld is not a panel shape: the draw and panel_shape "
                    "disagree\n", rows, cols);
            return 1;
        }
        const std::vector<float> in = tk_emu_in(rows, cols);
        float *out = tk_emu_out(rows * cols, -7.f);
        guard_broken = 0;
        launch_panel(in.data(), out, rows, cols, nullptr);
        const long bad = tk_emu_misplaced(in, out, rows, cols);
        const char *past = tk_emu_past();
        if ((bad || *past || guard_broken) && wrong++ < 5)   // every wrong shape counted, five named
            printf("WRONG at %ld x %ld: %ld of %ld floats not the transpose's%s%s\n", rows, cols,
                   bad, rows * cols, past,
                   guard_broken ? "; shared memory written past the launch's size" : "");
    }
    printf("panels-cpu: seed %s, %d panel shapes, %d exact, %d wrong\n", argv[1], n, n - wrong,
           wrong);

    // stage_rows alone, from starts the tall panel never takes (its stretch starts on a float4)
    // but the lever benchmark's tall panels do: n floats from any first, skip floats before
    // each staged column; every float of the stretch at column c, row r, nothing else written.
    int staged_wrong = 0;
    for (int k = 0; k < n; k++) {
        const int cols = 1 + draw() % 48, len = 1 + draw() % 8192, skip = draw() % 8;
        const size_t first = draw() % 100000, total = first + len + draw() % 8;
        const int P = skip + (len + cols - 1) / cols;
        std::vector<float> in(total);
        for (size_t i = 0; i < total; i++)
            in[i] = (float)i;
        std::fill(panel, panel + SHARED_MAX, -1.f);
        for (unsigned t = 0; t < 256; t++) {
            threadIdx = {t, 0, 0};
            stage_rows<256>(in.data(), first, len, total, cols, P, skip, panel);
        }
        long bad = 0, staged = 0;
        for (int e = 0; e < len; e++)
            bad += panel[(e % cols) * P + skip + e / cols] != in[first + e];
        for (int i = 0; i < SHARED_MAX; i++)
            staged += panel[i] != -1.f;
        if ((bad || staged != len) && staged_wrong++ < 5)
            printf("WRONG stage_rows at %d floats from %zu, %d columns, skip %d: %ld misplaced, "
                   "%ld floats written\n", len, first, cols, skip, bad, staged);
    }
    printf("panels-cpu: stage_rows at %d stretches from any start, %d exact, %d wrong\n", n,
           n - staged_wrong, staged_wrong);

    // The stride launch_panel lays each panel out at (read from its launch's shared memory),
    // at every side a panel takes: its lanes a bank no more than W + 1's (H + 1's), and at 9
    // and 13 rows no more than 2 (W + 1 gave 9 and 10.5).
    int sides = 0, no_worse = 0;
    double at9 = 0, at13 = 0;
    for (int tall = 0; tall <= 1; tall++)
        for (int side = 1; side <= (tall ? PANEL_COLS : PANEL_ROWS); side++) {
            const long rows = tall ? side + 1 : side, cols = tall ? side : side + 1;
            const std::vector<float> in(rows * cols);
            launch_panel(in.data(), tk_emu_out(rows * cols, 0.f), rows, cols, nullptr);
            const int P = (int)(last_smem / sizeof(float) / side);
            int span = 32;
            while (2 * span < P) span *= 2;                  // P is span + 1 .. span + 8
            const double b = busiest_bank(side, span, P, 256);
            sides++;
            no_worse += b <= busiest_bank(side, span, span + 1, 256);
            if (!tall && side == 9) at9 = b;
            if (!tall && side == 13) at13 = b;
        }
    printf("panels-cpu: the stride at %d panel sides, %d no worse than W + 1; 9 and 13 rows at "
           "%.1f and %.1f lanes a bank\n", sides, no_worse, at9, at13);
    const bool stride_ok = no_worse == sides && at9 <= 2 && at13 <= 2;
    return wrong || staged_wrong || !stride_ok ? 1 : 0;
}
