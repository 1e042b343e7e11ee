/* Step 7 (bonus): any shape at the copy limit, with stores on whole sectors.

   The input is a rows x cols matrix stored row by row; the output is its transpose,
   cols x rows: out[c * rows + r] = in[r * cols + c]. The harness (common/) parses the
   command line, fills the input, prints the CPU+OMP row, times the kernel and checks
   every element of the result. */
#include "harness.h"

/* BEYOND(step7): the most rows a window starts above its block's (below). */
#define HALO 7   /* extra input rows staged above the window, when it is shifted */

/* Device memory moves 32-byte sectors: 8 floats. Row c of the output starts at element
   c * rows, which is skew(c) = (c * rows) % 8 floats past a sector boundary. */
__device__ __forceinline__ int skew(int c, int rows)
{
    return (c % 8) * (rows % 8) % 8;   /* (c * rows) % 8, without overflowing an int */
}

/* BEYOND(step7): the block order. The blocks run g column bands at a time, the blocks of
   those bands row after row from the top down; the launch sets g by the grid's shape, g x ny
   blocks in x. With one band the H rows a block stages above its own were read by the block
   just before it and are still in the L2; with all bands (g = the bands across) the blocks
   run in a 2D grid's launch order. Returns the block's column band (x) and its row of
   windows (y), for windows of TR rows. */
template <int TR, int H>
__device__ __forceinline__ int2 block_of(int rows)
{
    int ny = (rows + H + TR - 1) / TR;            /* blocks down a column band */
    int g = gridDim.x / ny;                       /* column bands at a time */
    return make_int2(blockIdx.y * g + blockIdx.x % g, blockIdx.x / g);
}

/* The window's sizes are the kernel's template parameters: a block moves TC columns of the
   input (TC rows of the output) and writes a window of TR floats of each of those rows, with
   THREADS threads; launch_window (below) instantiates it for each window the launch measures.
   A block stages TR + H rows of TC input columns in a padded shared tile, then each warp
   writes windows: TR consecutive floats of one output row, VS = TR / 32 a lane (a float2 at
   64, a float4 at 128). Where rows is a multiple of 8 (H = 0) every output row starts on a
   sector, and so does every window. Otherwise (H = HALO) each window starts skew(c) floats
   before the block's own first row, on the sector boundary: every store covers whole sectors,
   and the rows the window reaches above the block's own are the HALO rows it staged. VL:
   floats a thread loads at once, 2 (a float2) where every input row starts on 8 bytes (cols
   even) and the window is 64 columns wide, 1 otherwise. */
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

#include "panels.cuh"   /* BEYOND(step7): skinny shapes; step7/README.md says why */

/* BEYOND(step7): the grid, for windows of tc x tr that start up to h rows above their
   block's rows: tc columns a block across, and down enough blocks of tr rows to reach the
   last row, run `bands` column bands at a time (block_of needs this grid: it reads the order
   back from gridDim.x): g x ny blocks in x, one group of bands a step of y (more bands where
   the groups would pass a grid's y, 65535). The starter calls it too, before the exercise
   is done: launch_pairs (pairs.cuh) does. */
static long bands = 1;   /* column bands at a time: 1, 8, 128, or 0 for all (the launch order) */
static dim3 band_grid(int rows, int cols, int tc, int tr, int h)
{
    long nx = (cols + tc - 1) / tc, ny = (rows + h + tr - 1) / tr;
    long g = bands > 0 && bands < nx ? bands : nx;
    if (nx > 65535 * g)
        g = (nx + 65534) / 65535;
    return dim3(g * ny, (nx + g - 1) / g);
}

#include "pairs.cuh"   /* BEYOND(step7): float2 pairs where cols is odd; step7/README.md says why */

/* One size of window, TC x TR with THREADS threads a block: the kernel for the shape. The
   window of 32 columns loads one float a thread, as it was measured (step7/RESEARCH.md). */
template <int TC, int TR, int THREADS>   /* BEYOND(step7) */
static void launch_window(const float *d_in, float *d_out, long rows, long cols)   /* BEYOND(step7) */
{
    bool shift = rows % 8 != 0;                 /* output rows start off their sectors */
    bool pairs = cols % 2 == 0 && TC >= 64;     /* input rows start on 8 bytes */
    dim3 grid = band_grid(rows, cols, TC, TR, shift ? HALO : 0);
    dim3 block2(TC / 2, THREADS * 2 / TC), block1(TC, THREADS / TC);
    if (shift && pairs)
        transpose_kernel<TC, TR, THREADS, HALO, 2><<<grid, block2>>>(rows, cols, d_in, d_out);
    else if (shift)
        transpose_kernel<TC, TR, THREADS, HALO, 1><<<grid, block1>>>(rows, cols, d_in, d_out);
    else if (pairs)
        transpose_kernel<TC, TR, THREADS, 0, 2><<<grid, block2>>>(rows, cols, d_in, d_out);
    else
        transpose_kernel<TC, TR, THREADS, 0, 1><<<grid, block1>>>(rows, cols, d_in, d_out);
}

/* BEYOND(step7): which block order and window are fastest depends on the GPU and the shape
   (step7/RESEARCH.md, "Block order" and "Tall shapes"), so launch measures six ways at a
   shape's first launch: windows of 64 x 64 one column band at a time, 8 bands at a time or
   all bands (the launch order), windows of 128 rows, 64 columns wide or 32, 8 bands at a
   time, and windows of 64 x 64 128 bands at a time; at a tall panel shape of 4 columns or
   more, the tall panel is a seventh (step7/RESEARCH.md, "The tall panel among the ways");
   where cols is odd and rows a multiple of 8, the pairs (pairs.cuh) one band, 8 bands and
   all bands at a time are three more. tk_fastest_way (the harness) runs it five times in
   each way and keeps the fastest (or a way whose output is not exact, for the row's check);
   any way's output is the transpose. */
#define WAYS 10                                 /* the ways of any shape, 0 to 9 */
static int way = 0;                             /* the way kept */
static int shape_ways[WAYS];                    /* the shape's ways, in the order timed */
static long timed_rows = -1, timed_cols = -1;   /* the shape they were timed for */
static void use_way(int k)                      /* k: the shape's k-th way */
{
    static const long way_bands[WAYS] = { 1, 8, 0, 8, 8, 128, 1, 1, 8, 0 };   /* bands at a time */
    way = shape_ways[k];
    bands = way_bands[way];
}

/* BEYOND(step7): the launch main calls: a panel for a wide panel shape, a tall one of 1 to 3
   columns and a side past TK_INT_SIDE_MAX (an int less 255: the windows' grid adds up to 134
   rows to a side in an int; no GPU holds such a side whose other one is over 48), else the
   way kept at the shape's first launch. */
static void launch(const float *d_in, float *d_out, long rows, long cols)
{
    bool panel = panel_shape(rows, cols);
    bool tall = panel && rows > cols && cols >= 4 && rows <= TK_INT_SIDE_MAX;   /* a way */
    bool pairs = cols % 2 != 0 && rows % 8 == 0;                                /* three */
    if (panel && !tall) {
        launch_panel(d_in, d_out, rows, cols, 0);
        return;
    }
    if (rows != timed_rows || cols != timed_cols) {   /* a shape's first launch */
        static const char *const named[WAYS] = {
            "one band", "8 bands", "all bands", "128 rows in 8 bands", "32 x 128 in 8 bands",
            "128 bands", "the tall panel", "pairs in one band", "pairs in 8 bands",
            "pairs in all bands" };
        const char *names[WAYS];
        int n = 0;
        for (int w = 0; w < WAYS; w++)
            if (w < 6 || (w == 6 && tall) || (w > 6 && pairs))
                shape_ways[n] = w, names[n++] = named[w];
        timed_rows = rows, timed_cols = cols;   /* so the launches timed below are not first */
        tk_fastest_way(launch, use_way, names, n, d_in, d_out, rows, cols);   /* sets it */
    }
    if (way >= 7)
        launch_pairs(d_in, d_out, rows, cols);
    else if (way == 6)
        launch_panel(d_in, d_out, rows, cols, 0);
    else if (way == 3)
        launch_window<64, 128, 512>(d_in, d_out, rows, cols);
    else if (way == 4)
        launch_window<32, 128, 256>(d_in, d_out, rows, cols);
    else
        launch_window<64, 64, 512>(d_in, d_out, rows, cols);
}

int main(int argc, char **argv)
{
    struct tk_run run;
    tk_begin(&run, "step7", "GPU-any-shape", argc, argv);
    do {   /* once; with --shapes (the grader's), once a shape of its list */
        float *d_in = NULL, *d_out = NULL;   /* device copies of the matrices */
        CUDA_CHECK(cudaMalloc(&d_in, run.bytes));
        CUDA_CHECK(cudaMalloc(&d_out, run.bytes));
        CUDA_CHECK(cudaMemcpy(d_in, run.in, run.bytes, cudaMemcpyHostToDevice));

        /* A first run. A launch returns before the kernel ends: wait for the GPU before going on,
           and check both the launch and the run. */
        launch(d_in, d_out, run.rows, run.cols);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());

        tk_time_gpu(&run, launch, d_in, d_out);

        CUDA_CHECK(cudaMemcpy(run.out, d_out, run.bytes, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaFree(d_in));
        CUDA_CHECK(cudaFree(d_out));
    } while (tk_next_shape(&run));   /* the exact check and the row; the next shape */
    return tk_end(&run);
}
