// Step 7's pairs (solution/step7/pairs.cuh) run on the CPU, so that their index arithmetic is
// checked where there is no GPU: pairs-cpu SEED N runs launch_pairs on 11 shapes every seed
// shares (last column bands of 1 to 63 columns, last row windows of 8 to 56 rows, tall shapes
// of 7 and 47 columns) and N shapes drawn from SEED (rows a multiple of 8 up to 1000, cols
// odd up to 1999), each in the block orders the launch times (one band, 8 and all at a time)
// and 128 bands, and compares the output with the transpose, float for float, and checks that
// nothing was written past it (up to the end of its mapping, tests/cpu-emu/emu.h).
// Exit 0 when all are exact, 1 when one is not (the first few named) or when a block stores
// to the output before its barrier, 2 on bad arguments.
//
// build.sh (beside it) builds it with pairs-host.h (pairs.cuh, its launch rewritten as a call
// of tk_emu_launch, its shared tile as emu_tile) and order.h (block_of and band_grid from the
// solution), with AddressSanitizer and UBSan (each finding fatal) where the compiler has them.
// Each block runs as tests/cpu-emu/emu.h runs one: its threads in turn, up to the barrier
// with the output read-only, then again through the stores. The tile is filled with a value
// no input holds before each block, so that a float never staged shows in the output. Not
// run here: grids past 65535 groups of bands (a matrix of more than 4 million columns and
// more than 112 rows), sides near an int's most, and races other than a store before the
// barrier (racecheck's, on a GPU).
#include <algorithm>
#include <random>
#include <vector>
#include "emu.h"   // tests/cpu-emu/: CUDA's names, a block's two passes, the output read-only

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
struct int2 { int x, y; };
static inline int2 make_int2(int x, int y) { return {x, y}; }
struct alignas(8) float2 { float x, y; };   // aligned as CUDA's: UBSan finds a misaligned one
static inline float2 make_float2(float x, float y) { return {x, y}; }
#define PANEL_SM_THREADS 2048   // panels.cuh's, for sm_90; the launch bounds alone read it

enum { TILE_FLOATS = 64 * 65 };   // pairs_kernel's tile: 64 rows of 65 floats (build.sh checks)
static float emu_tile[TILE_FLOATS];
static const float UNSTAGED = -3.5f;   // no input holds it: the input is 0, 1, 2, ...

// A kernel launch: the grid's blocks in turn, the tile filled with UNSTAGED before each.
template <typename K>
static void tk_emu_launch(dim3 grid, dim3 block, K kernel)
{
    gridDim = {grid.x, grid.y, grid.z};
    for (unsigned by = 0; by < grid.y; by++)
        for (unsigned bx = 0; bx < grid.x; bx++) {
            for (float &f : emu_tile)
                f = UNSTAGED;
            blockIdx = {bx, by, 0};
            tk_emu_block(block.x, block.y, kernel);
        }
}

#include "order.h"
#include "pairs-host.h"

int main(int argc, char **argv)
{
    if (argc != 3 || atoi(argv[2]) < 0) {
        fprintf(stderr, "usage: pairs-cpu SEED N\n");
        return 2;
    }
    std::mt19937_64 draw(strtoull(argv[1], nullptr, 10));
    const int n = atoi(argv[2]);
    static const long fixed[][2] = { {8, 1}, {8, 3}, {64, 63}, {64, 65}, {72, 127}, {120, 577},
                                     {128, 8447}, {1000, 63}, {6000, 65}, {4096, 47}, {9000, 7} };
    const int nfixed = sizeof fixed / sizeof fixed[0];
    static const long orders[4] = { 1, 8, 0, 128 };   // bands at a time (0: all)
    int runs = 0, wrong = 0;
    for (int k = 0; k < nfixed + n; k++) {
        const long rows = k < nfixed ? fixed[k][0] : 8 * (1 + (long)(draw() % 125));
        const long cols = k < nfixed ? fixed[k][1] : 1 + 2 * (long)(draw() % 1000);
        const std::vector<float> in = tk_emu_in(rows, cols);
        float *out = tk_emu_out(rows * cols, -7.f);
        for (long order : orders) {
            bands = order;
            if (order != orders[0])
                std::fill(out, out + rows * cols, -7.f);
            launch_pairs(in.data(), out, rows, cols);
            const long bad = tk_emu_misplaced(in, out, rows, cols);
            const char *past = tk_emu_past();
            runs++;
            if ((bad || *past) && wrong++ < 5)   // every wrong run counted, five named
                printf("WRONG at %ld x %ld, %ld bands at a time: %ld of %ld floats not the "
                       "transpose's%s\n", rows, cols, order, bad, rows * cols, past);
        }
    }
    printf("pairs-cpu: seed %s, %d shapes (rows a multiple of 8, cols odd) in 4 block orders, "
           "%d runs exact, %d wrong\n", argv[1], nfixed + n, runs - wrong, wrong);
    return wrong ? 1 : 0;
}
