/* The levers behind step 6, measured one by one. Every variant is timed beside the copy
   ceiling and checked exactly like a step, then timed again back to back (the method of most
   public benchmarks) for comparison.

   make -C scripts/bench && scripts/bench/levers [-n N | --rows R --cols C] [--reps K]
   LEVERS=tma scripts/bench/levers      only the variants whose name holds "tma"

   tTILE-vV-bBY-{pad|xor}[-order]   square tiles, V x V blocks per thread (tiles.cuh)
     TILE  the square tile a block moves through shared memory (32, 64 or 128)
     V     floats per global access: 1 (scalar), 2 (float2) or 4 (float4)
     BY    rows of threads in a block; the block is (TILE / V) x BY threads
     pad   tile rows padded by V floats; xor: chunks of V floats XOR-swizzled per row
     cs    streaming cache hints (__ldcs / __stcs: evict first)
     cm    blocks walk the tiles column-major; gG: in groups of G tile rows (G tiles down,
           then right); diag: diagonally
     sXxY  one block moves X x Y neighbouring tiles one after another
     persist  one wave of blocks walks all tiles, the next tile's loads in flight
     maxN  at most N blocks on a multiprocessor (each asks for 1/N of its shared memory);
           carve64: a 64 KB shared-memory carveout instead, where three tiles fit
   row-TRxTC-vV-bBY   the public kernels' scheme: a vector load per row, one float at a time
                      into a padded TR x TC tile, vectors gathered down its columns (rowvec.cuh)
   tma-tT-sS          Hopper's bulk tensor copy: T tiles a block, S shared stages (tma.cuh)
   win-cTC-rTR-lVL-sVS-bBY[-plain|-gG|-rK|-a2|-maxN|-walkK[-cm]|-qQ|-evE]   step 7's
                      windows, each store on whole sectors; G column bands at a time, or
                      strips of K row blocks, float2 loads on odd cols, at most N blocks a
                      multiprocessor, K windows a block down its band carrying the staged
                      rows, windows on Q floats (64 or 128 bytes), L2 eviction hints for the
                      staged rows (windows.cuh)
   panel-fF-bNT[-h0]  skinny shapes: a block moves every row of W columns (or every column of
                      H rows) through a shared panel of F floats (panels.cuh)
   step7-panels       step 7's solution's choice until 2026-11-27: its panels on skinny
                      shapes, its windows elsewhere (one column band at a time, but for rows
                      >= 4 cols)
   step7-lines        the same with each warp's loads (wide) or stores (tall) on one
                      128-byte line (panels.cuh)
   step7-orders       step 7's solution's choice in 0.13: the windows' block order timed at a
                      shape's first launch (one band, 8 bands, the launch order), the fastest kept
   step7-ways         the same with two more ways: windows of 128 rows in 8 bands, 64 or 32
                      columns wide (step 7's solution's choice in 0.14.0 to 0.15)
   step7-six          the same with a sixth: 64 x 64 windows 128 bands at a time (step 7's
                      solution's choice since 0.16.0)
   step7-seven        the same with a seventh: windows 128 columns wide, 64 rows, one band
   copy-vV, tilecopy-vV   yardsticks that copy instead of transposing (yardsticks.cuh) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "matrix.h"
#include "tiles.cuh"
#include "rowvec.cuh"
#include "tma.cuh"
#include "windows.cuh"
#include "panels.cuh"
#include "yardsticks.cuh"

/* cc: the compute capability a variant needs (90: 9.0; 80 for a block's shared memory past the
   64 KB of compute capability 7.5); copies: a yardstick (yardsticks.cuh). */
static const struct { const char *name; tk_launch_fn launch; int cc, copies; } variants[] = {
    { "step5 (t32-v1-b4-pad)",  launch<32, 1, 4, false, false> },   /* step 5's layout */
    { "t32-v1-b8-pad",          launch<32, 1, 8, false, false> },
    { "t32-v1-b4-xor",          launch<32, 1, 4, true, false> },
    { "t32-v4-b8-xor",          launch<32, 4, 8, true, false> },
    { "t64-v1-b16-pad",         launch<64, 1, 16, false, false> },
    { "t64-v2-b16-xor",         launch<64, 2, 16, true, false> },
    { "t64-v4-b16-pad",         launch<64, 4, 16, false, false> },
    { "t64-v4-b4-xor",          launch<64, 4, 4, true, false> },
    { "t64-v4-b8-xor",          launch<64, 4, 8, true, false> },
    { "t64-v4-b16-xor",         launch<64, 4, 16, true, false> },
    { "t64-v4-b16-xor-cs",      launch<64, 4, 16, true, true> },
    { "t64-v4-b16-xor-cm",      launch<64, 4, 16, true, false, 1> },
    { "t64-v4-b16-xor-g8",      launch<64, 4, 16, true, false, 8> },
    { "t64-v2-b16-xor-diag",    launch<64, 2, 16, true, false, -1> },
    { "t64-v2-b16-xor-max3",    launch_limited<64, 2, 16, 3> },
    { "t64-v2-b16-xor-max2",    launch_limited<64, 2, 16, 2> },
    { "t64-v2-b16-xor-carve64", launch_limited<64, 2, 16, 3, true> },
    { "t64-v2-b8-xor-max3",     launch_limited<64, 2, 8, 3> },
    { "t64-v2-b8-xor-max4",     launch_limited<64, 2, 8, 4> },
    { "t64-v2-b8-xor-max5",     launch_limited<64, 2, 8, 5> },
    { "t64-v4-b16-xor-max3",    launch_limited<64, 4, 16, 3> },
    { "t64-v2-b16-xor-g2",      launch<64, 2, 16, true, false, 2> },
    { "t64-v2-b16-xor-g4",      launch<64, 2, 16, true, false, 4> },
    { "t64-v2-b16-xor-g16",     launch<64, 2, 16, true, false, 16> },
    { "t64-v2-b16-xor-g32",     launch<64, 2, 16, true, false, 32> },
    { "t64-v2-b16-xor-s1x2",    launch_stack<64, 2, 16, 1, 2> },
    { "t64-v2-b16-xor-s1x4",    launch_stack<64, 2, 16, 1, 4> },
    { "t64-v2-b16-xor-s1x8",    launch_stack<64, 2, 16, 1, 8> },
    { "t64-v2-b16-xor-s2x1",    launch_stack<64, 2, 16, 2, 1> },
    { "t64-v2-b16-xor-s2x2",    launch_stack<64, 2, 16, 2, 2> },
    { "t128-v4-b8-xor",         launch<128, 4, 8, true, false> },
    { "t128-v4-b16-xor",        launch<128, 4, 16, true, false> },
    { "t128-v4-b32-xor",        launch<128, 4, 32, true, false> },
    { "t128-v2-b16-xor",        launch<128, 2, 16, true, false> },
    { "t64-v4-b16-xor-persist",  launch_persistent<64, 4, 16, 1> },
    { "t64-v4-b8-xor-persist",   launch_persistent<64, 4, 8, 1> },
    { "t64-v2-b16-xor-persist",  launch_persistent<64, 2, 16, 1> },
    { "t64-v4-b16-xor-persist2", launch_persistent<64, 4, 16, 2> },
    { "t32-v4-b8-xor-persist",   launch_persistent<32, 4, 8, 1> },
    { "row-64x64-v4-b32",       launch_rowvec<64, 64, 4, 32> },
    { "row-64x64-v4-b16",       launch_rowvec<64, 64, 4, 16> },
    { "row-64x64-v4-b8",        launch_rowvec<64, 64, 4, 8> },
    { "row-64x64-v2-b32",       launch_rowvec<64, 64, 2, 32> },
    { "row-64x64-v2-b16",       launch_rowvec<64, 64, 2, 16> },
    { "row-32x128-v4-b16",      launch_rowvec<32, 128, 4, 16> },
    { "row-32x128-v2-b8",       launch_rowvec<32, 128, 2, 8> },
    { "row-128x32-v4-b64",      launch_rowvec<128, 32, 4, 64> },
    { "row-64x128-v4-b16",      launch_rowvec<64, 128, 4, 16> },
    { "row-128x64-v4-b32",      launch_rowvec<128, 64, 4, 32> },
    { "tma-t1-s1",              launch_tma<1, 1>, 90 },
    { "tma-t4-s2",              launch_tma<4, 2>, 90 },
    { "tma-t8-s2",              launch_tma<8, 2>, 90 },
    { "tma-t8-s3",              launch_tma<8, 3>, 90 },
    { "tma-t16-s3",             launch_tma<16, 3>, 90 },
    { "tma-t4-s4",              launch_tma<4, 4>, 90 },
    { "win-c32-r32-l1-s1-b8",        launch_window<32, 32, 1, 1, 8> },
    { "win-c32-r32-l1-s1-b8-plain",  launch_window<32, 32, 1, 1, 8, true> },
    { "win-c32-r64-l1-s1-b8",        launch_window<32, 64, 1, 1, 8> },
    { "win-c32-r64-l1-s2-b8",        launch_window<32, 64, 1, 2, 8> },
    { "win-c32-r128-l1-s1-b8",       launch_window<32, 128, 1, 1, 8> },
    { "win-c32-r128-l1-s2-b8",       launch_window<32, 128, 1, 2, 8> },
    { "win-c32-r128-l1-s4-b8",       launch_window<32, 128, 1, 4, 8> },
    { "win-c32-r128-l1-s4-b4",       launch_window<32, 128, 1, 4, 4> },
    { "win-c32-r128-l1-s4-b16",      launch_window<32, 128, 1, 4, 16> },
    { "win-c32-r128-l1-s1-b8-plain", launch_window<32, 128, 1, 1, 8, true> },
    { "win-c32-r256-l1-s4-b8",       launch_window<32, 256, 1, 4, 8> },
    { "win-c32-r256-l1-s4-b16",      launch_window<32, 256, 1, 4, 16> },
    { "win-c32-r128-l1-s4-b8-g8",    launch_window<32, 128, 1, 4, 8, false, 8> },
    { "win-c32-r256-l1-s4-b8-g8",    launch_window<32, 256, 1, 4, 8, false, 8> },
    { "win-c64-r64-l1-s2-b8",        launch_window<64, 64, 1, 2, 8> },
    { "win-c64-r64-l2-s2-b8",        launch_window<64, 64, 2, 2, 8> },
    { "win-c64-r64-l2-s2-b16",       launch_window<64, 64, 2, 2, 16> },
    { "win-c64-r128-l2-s4-b8",       launch_window<64, 128, 2, 4, 8> },
    { "win-c64-r128-l2-s4-b16",      launch_window<64, 128, 2, 4, 16> },
    { "win-c64-r64-l2-s2-b16-g1",    launch_window<64, 64, 2, 2, 16, false, 1> },
    { "win-c64-r64-l2-s2-b16-g8",    launch_window<64, 64, 2, 2, 16, false, 8> },
    { "win-c64-r64-l2-s2-b16-g32",   launch_window<64, 64, 2, 2, 16, false, 32> },
    { "win-c64-r64-l2-s2-b16-g16",   launch_window<64, 64, 2, 2, 16, false, 16> },
    { "win-c64-r64-l2-s2-b16-g64",   launch_window<64, 64, 2, 2, 16, false, 64> },
    { "win-c64-r64-l2-s2-b16-g128",  launch_window<64, 64, 2, 2, 16, false, 128> },
    { "win-c64-r64-l2-s2-b16-g256",  launch_window<64, 64, 2, 2, 16, false, 256> },
    { "win-c64-r64-l2-s2-b16-g1-a2", launch_window<64, 64, 2, 2, 16, false, 1, true> },
    { "win-c64-r64-l2-s2-b16-g4",       launch_window<64, 64, 2, 2, 16, false, 4> },
    { "win-c64-r64-l2-s2-b16-max3-g8",  launch_window<64, 64, 2, 2, 16, false, 8, false, 3> },
    { "win-c64-r128-l2-s4-b16-g8",      launch_window<64, 128, 2, 4, 16, false, 8> },
    { "win-c64-r64-l2-s2-b16-g8-q16",   launch_window<64, 64, 2, 2, 16, false, 8, false, 0, 16> },
    { "win-c64-r64-l2-s2-b16-g8-q32",   launch_window<64, 64, 2, 2, 16, false, 8, false, 0, 32> },
    { "win-c64-r128-l2-s4-b16-g8-q16",  launch_window<64, 128, 2, 4, 16, false, 8, false, 0, 16> },
    { "win-c64-r128-l2-s4-b16-g8-q32",  launch_window<64, 128, 2, 4, 16, false, 8, false, 0, 32> },
    { "win-c64-r64-l2-s2-b16-g1-q16",   launch_window<64, 64, 2, 2, 16, false, 1, false, 0, 16> },
    { "win-c64-r128-l2-s4-b16-g1-q32",  launch_window<64, 128, 2, 4, 16, false, 1, false, 0, 32> },
    { "win-c64-r64-l2-s2-b16-r1",       launch_window<64, 64, 2, 2, 16, false, -1> },
    { "win-c64-r64-l2-s2-b16-r1-ev1",   launch_window<64, 64, 2, 2, 16, false, -1, false, 0, 8, 1>, 80 },
    { "win-c64-r64-l2-s2-b16-r1-ev2",   launch_window<64, 64, 2, 2, 16, false, -1, false, 0, 8, 2>, 80 },
    { "win-c64-r64-l2-s2-b16-g8-ev1",   launch_window<64, 64, 2, 2, 16, false, 8, false, 0, 8, 1>, 80 },
    { "win-c64-r64-l2-s2-b16-g8-ev2",   launch_window<64, 64, 2, 2, 16, false, 8, false, 0, 8, 2>, 80 },
    { "win-c64-r64-l2-s2-b16-r4-ev2",   launch_window<64, 64, 2, 2, 16, false, -4, false, 0, 8, 2>, 80 },
    { "win-c64-r64-l2-s2-b16-r1-ev3",   launch_window<64, 64, 2, 2, 16, false, -1, false, 0, 8, 3>, 80 },
    { "win-c64-r64-l2-s2-b16-g8-ev3",   launch_window<64, 64, 2, 2, 16, false, 8, false, 0, 8, 3>, 80 },
    { "win-c64-r64-l2-s2-b16-r4",       launch_window<64, 64, 2, 2, 16, false, -4> },
    { "win-c64-r64-l2-s2-b16-r8",       launch_window<64, 64, 2, 2, 16, false, -8> },
    { "win-c64-r64-l2-s2-b16-r16",      launch_window<64, 64, 2, 2, 16, false, -16> },
    { "win-c64-r64-l2-s2-b16-r32",      launch_window<64, 64, 2, 2, 16, false, -32> },
    { "win-c64-r64-l2-s1-b16-plain",    launch_window<64, 64, 2, 1, 16, true> },
    { "win-c64-r64-l2-s1-b16-plain-g1", launch_window<64, 64, 2, 1, 16, true, 1> },
    { "win-c64-r64-l2-s1-b16-plain-g8", launch_window<64, 64, 2, 1, 16, true, 8> },
    { "win-c64-r64-l2-s2-b16-g1-max3", launch_window<64, 64, 2, 2, 16, false, 1, false, 3> },
    { "win-c64-r64-l2-s2-b16-g1-a2-max3", launch_window<64, 64, 2, 2, 16, false, 1, true, 3> },
    { "win-c64-r128-l2-s4-b16-g1",   launch_window<64, 128, 2, 4, 16, false, 1> },
    { "win-c128-r64-l2-s2-b8-g1",    launch_window<128, 64, 2, 2, 8, false, 1> },
    { "win-c128-r64-l2-s2-b8-g8",    launch_window<128, 64, 2, 2, 8, false, 8> },
    { "win-c128-r64-l2-s2-b8-g1-a2", launch_window<128, 64, 2, 2, 8, false, 1, true> },
    { "win-c128-r128-l2-s4-b8-g1",   launch_window<128, 128, 2, 4, 8, false, 1>, 80 },   /* 66 to 70 KB */
    { "win-c128-r128-l2-s4-b8-g8",   launch_window<128, 128, 2, 4, 8, false, 8>, 80 },   /* of shared */
    { "win-c64-r128-l2-s2-b16-g1",   launch_window<64, 128, 2, 2, 16, false, 1> },
    { "win-c64-r128-l2-s4-b16-r1",   launch_window<64, 128, 2, 4, 16, false, -1> },
    { "win-c64-r128-l2-s2-b16-r1",   launch_window<64, 128, 2, 2, 16, false, -1> },
    { "win-c64-r128-l2-s4-b16-g1-a2", launch_window<64, 128, 2, 4, 16, false, 1, true> },
    { "win-c64-r64-l2-s2-b16-walk4",     launch_walk<4, false> },
    { "win-c64-r64-l2-s2-b16-walk16",    launch_walk<16, false> },
    { "win-c64-r64-l2-s2-b16-walk4-cm",  launch_walk<4, true> },
    { "win-c64-r64-l2-s2-b16-walk16-cm", launch_walk<16, true> },
    { "step7-panels",                launch_step7_paths },
    { "step7-lines",                 launch_step7_lines },
    { "step7-orders",                launch_step7_measured<3> },
    { "step7-ways",                  launch_step7_measured<5> },
    { "step7-six",                   launch_step7_measured<6> },
    { "step7-seven",                 launch_step7_measured<7> },
    { "panel-f2048-b256",            launch_lever_panel<2048, 256, 0> },
    { "panel-f4096-b128",            launch_lever_panel<4096, 128, 0> },
    { "panel-f4096-b256",            launch_lever_panel<4096, 256, 7> },
    { "panel-f8192-b256",            launch_lever_panel<8192, 256, 7> },
    { "panel-f2048-b256-v4",         launch_lever_panel<2048, 256, 0, 4> },
    { "panel-f4096-b256-v4",         launch_lever_panel<4096, 256, 0, 4> },
    { "panel-f8192-b256-v4",         launch_lever_panel<8192, 256, 0, 4> },
    { "panel-f8192-b512-v4",         launch_lever_panel<8192, 512, 0, 4> },
    { "panel-f4096-b256-h7-v4",      launch_lever_panel<4096, 256, 7, 4> },
    { "panel-f8192-b256-h7-v4",      launch_lever_panel<8192, 256, 7, 4> },
    { "panel-f8192-b512-h7-v4",      launch_lever_panel<8192, 512, 7, 4> },
    { "panel-f16384-b512-h7-v4",     launch_lever_panel<16384, 512, 7, 4> },
    { "panel-f8192-b256-h0",         launch_lever_panel<8192, 256, 0> },
    { "panel-f4096-b256-h0",         launch_lever_panel<4096, 256, 0> },
    { "panel-f8192-b512",            launch_lever_panel<8192, 512, 7> },
    { "panel-f16384-b512",           launch_lever_panel<16384, 512, 7> },
    { "panel-f16384-b512-h0",        launch_lever_panel<16384, 512, 0> },
    { "panel-f16384-b256-h0",        launch_lever_panel<16384, 256, 0> },
    { "panel-f16384-b512-v4",        launch_lever_panel<16384, 512, 0, 4> },
    { "panel-f32768-b512-v4",        launch_lever_panel<32768, 512, 0, 4> },
    { "copy-v4",                launch_copy<4>, 0, 1 },
    { "copy-v2",                launch_copy<2>, 0, 1 },
    { "copy-v4-u1-cs",          launch_copy_many<1, 1>, 0, 1 },
    { "copy-v4-u4",             launch_copy_many<4, 0>, 0, 1 },
    { "copy-v4-u4-cs",          launch_copy_many<4, 1>, 0, 1 },
    { "copy-v4-u4-pf",          launch_copy_many<4, 2>, 0, 1 },
    { "copy-v4-u8",             launch_copy_many<8, 0>, 0, 1 },
    { "tilecopy-v2",            launch_tilecopy<2>, 0, 1 },
    { "tilecopy-v4",            launch_tilecopy<4>, 0, 1 },
};

/* The timing of most public transpose benchmarks, for comparison with the kit's: warm-ups,
   then reps launches back to back between two events, with no poison and no emptied L2
   between them; the mean. launch NULL: cudaMemcpy. Prints one row; returns its GB/s. */
static double back_to_back(struct tk_run *run, const char *name, tk_launch_fn launch,
                           int copies, const float *d_in, float *d_out, double copy_gbs)
{
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    int reps = tk_run_options(run)->reps;
    CUDA_CHECK(cudaMemset(d_out, TK_POISON_BYTE, run->bytes));
    for (int i = -tk_run_options(run)->warmup; i < reps; i++) {
        if (i == 0)
            CUDA_CHECK(cudaEventRecord(start, 0));
        if (launch)
            launch(d_in, d_out, run->rows, run->cols);
        else
            CUDA_CHECK(cudaMemcpyAsync(d_out, d_in, run->bytes, cudaMemcpyDeviceToDevice, 0));
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaEventRecord(stop, 0));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));

    CUDA_CHECK(cudaMemcpy(run->out, d_out, run->bytes, cudaMemcpyDeviceToHost));
    struct tk_mismatch m;
    if (!tk_output_exact(run, copies, &m)) {
        printf("  %-28s WRONG\n", name);
        tk_mark_wrong(run);
        return 0;
    }
    double gbs = tk_gbs(run->rows, run->cols, ms / reps);
    double ref = launch ? copy_gbs : gbs;   /* the copy row is its own reference */
    printf("  %-28s %9.3f %9.1f ", name, ms / reps, gbs);
    if (ref > 0)
        printf("%7.1f%%\n", 100 * gbs / ref);
    else
        printf("%8s\n", "-");   /* no exact copy to compare with */
    return gbs;
}

/* Whether variant v's name holds one of the comma-separated texts of $LEVERS (every name
   when it is unset or empty). */
static int named(size_t v, const char *only)
{
    if (!only || !*only)
        return 1;
    for (const char *p = only; *p;) {
        size_t len = strcspn(p, ",");
        char text[128];
        snprintf(text, sizeof text, "%.*s", (int)(len < sizeof text ? len : sizeof text - 1), p);
        if (len && strstr(variants[v].name, text))
            return 1;
        p += len + (p[len] == ',');
    }
    return 0;
}

/* Whether variant v's grid covers this shape: one trial launch, whose output the timed runs
   overwrite. A 2D grid of more than 65535 blocks in y (a tall shape, for a variant whose
   blocks each take a few rows) is refused by the runtime at the launch, leaving no error
   behind; that variant is then skipped, in the runtime's words, instead of ending the run. */
static int launches_here(const struct tk_run *run, size_t v, const float *d_in, float *d_out)
{
    variants[v].launch(d_in, d_out, (int)run->rows, (int)run->cols);
    cudaError_t e = cudaGetLastError();
    /* a grid past a dimension's limit: invalid configuration, or (CUDA 13, a grid's y past
       65535 on an H100) invalid argument */
    if (e == cudaErrorInvalidConfiguration || e == cudaErrorInvalidValue) {
        printf("%-26s skipped: its launch failed at this shape (%s)\n", variants[v].name,
               cudaGetErrorString(e));
        return 0;
    }
    CUDA_CHECK(e);
    CUDA_CHECK(cudaDeviceSynchronize());
    return 1;
}

/* Whether this GPU has what variant v needs. */
static int runs_here(const struct tk_run *run, size_t v)
{
    return tk_run_cc(run) >= variants[v].cc;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            tk_print_usage(stdout, argv[0]);
            printf("\nLEVERS=TEXT (environment) runs only the variants whose name holds TEXT,\n"
                   "e.g. LEVERS=tma or LEVERS=t64-v2,win-c32; unset or empty, all of them.\n"
                   "The variants and their names: scripts/bench/README.md.\n");
            return 0;
        }
    struct tk_run run;
    tk_begin(&run, "levers", NULL, argc, argv);
    do {   /* once; with --shapes (the grader's), once a shape of its list */
        float *d_in = NULL, *d_out = NULL;
        CUDA_CHECK(cudaMalloc(&d_in, run.bytes));
        CUDA_CHECK(cudaMalloc(&d_out, run.bytes));
        CUDA_CHECK(cudaMemcpy(d_in, run.in, run.bytes, cudaMemcpyHostToDevice));

        const char *only = getenv("LEVERS");   /* run only the variants whose name holds it */
        const size_t nv = sizeof variants / sizeof variants[0];
        int *timed = (int *)calloc(nv, sizeof(int));   /* the variants that ran here */
        if (!timed) {
            fprintf(stderr, "levers: out of host memory\n");
            return TK_EXIT_CUDA;
        }
        for (size_t v = 0; v < nv; v++) {
            if (!named(v, only))
                continue;
            if (!runs_here(&run, v)) {
                printf("%-26s skipped: needs compute capability %d.%d\n", variants[v].name,
                       variants[v].cc / 10, variants[v].cc % 10);
                continue;
            }
            if (!launches_here(&run, v, d_in, d_out))
                continue;
            timed[v] = 1;
            tk_time_row(&run, variants[v].name, variants[v].launch, variants[v].copies, d_in,
                        d_out);
            CUDA_CHECK(cudaMemcpy(run.out, d_out, run.bytes, cudaMemcpyDeviceToHost));
            tk_check_row(&run);
        }

        printf("\nThe same variants timed back to back (mean of %d launches in a row, no poison "
               "or emptied L2 between them)\n  %-28s %9s %9s %8s\n", tk_run_options(&run)->reps,
               "row", "mean ms", "GB/s", "% copy");
        double copy_gbs = back_to_back(&run, "cudaMemcpy D2D", NULL, 1, d_in, d_out, 0);
        for (size_t v = 0; v < nv; v++)
            if (timed[v])
                back_to_back(&run, variants[v].name, variants[v].launch, variants[v].copies, d_in,
                             d_out, copy_gbs);
        free(timed);

        CUDA_CHECK(cudaFree(d_in));
        CUDA_CHECK(cudaFree(d_out));
    } while (tk_next_shape(&run));   /* the exact check and the row; the next shape */
    return tk_end(&run);
}
