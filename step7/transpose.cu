/* Step 7 (bonus): any shape at the copy limit, with stores on whole sectors.

   The input is a rows x cols matrix stored row by row; the output is its transpose,
   cols x rows: out[c * rows + r] = in[r * cols + c]. The harness (common/) parses the
   command line, fills the input, prints the CPU+OMP row, times the kernel and checks
   every element of the result. */
#include "harness.h"

/* TODO(step7): step 6's square tile and its block give way to the window's sizes, TC, TR
   and THREADS, which the kernel below takes as template parameters: delete these four once
   the kernel no longer uses them. */
#define TILE   64             /* a block moves one TILE x TILE tile */
#define BLOCKX 32             /* threads across; each moves a float2, so 32 span 64 floats */
#define BLOCKY 16             /* rows of threads in a block */
#define PAIRS  (TILE / 2)     /* the tile's rows, taken two at a time */

/* BEYOND(step7): the most rows a window starts above its block's (below). */
#define HALO 7   /* extra input rows staged above the window, when it is shifted */

/* Device memory moves 32-byte sectors: 8 floats. Row c of the output starts at element
   c * rows, which is skew(c) = (c * rows) % 8 floats past a sector boundary. */
/* TODO(step7): replace step 6's swizzle below (the new tile is padded instead, as in step 4)
   by skew(c, rows), the number above, as a small __device__ function. c * rows itself may
   overflow an int; only the remainders modulo 8 matter. */
__device__ __forceinline__ int at(int c, int r)
{
    return c * TILE + (((r / 2) ^ ((c / 2) % 16)) * 2) + r % 2;
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
/* TODO(step7): make the kernel a template of the five compile-time numbers the comment
   above names, the window's TC, TR and THREADS, then H and VL, so that each window and each
   of the four kinds of shape gets its own fully unrolled copy, and give it the block size
   THREADS. Its block: TC / VL threads across, the rest of THREADS down. Its shared tile:
   TR + H staged rows of TC floats, each row padded by one float. */
__global__ void __launch_bounds__(BLOCKX * BLOCKY)
transpose_kernel(int rows, int cols, const float *__restrict__ in, float *__restrict__ out)
{
    __shared__ __align__(16) float tile[TILE * TILE];

    /* TODO(step7): where the block is. The grid now follows the block order (band_grid,
       below), so blockIdx alone no longer says: block_of<TR, H> (above) gives the block's column
       band and its row of windows. From them, its first input column, and its first staged
       input row, H rows above its own TR rows (so negative for the first row of blocks). */
    int tx = threadIdx.x, ty = threadIdx.y;
    int r0 = blockIdx.y * TILE, c0 = blockIdx.x * TILE;   /* the block's tile of in */

    /* TODO(step7): replace step 6's two paths by the two phases of a window. Evidence,
       profiles/step6-8191x8192.txt, step 6's kernel at 8191 x 8192: Global Store
       Efficiency 82.1%. rows is odd there, so every tile takes the one-float path, and
       row c of the output starts (c * rows) % 8 floats into a sector: a warp's 128-byte
       store touches 5 sectors, two of them in part, and the neighbouring block writes the
       other parts. The kernel runs at 62% of the copy ceiling there, against 96% at
       8192 x 8192, where every row starts on a sector.
       Staging: rows from the first staged row to TR + H rows further, TC columns, VL
       floats a thread (a float2 or one float), each load guarded (the
       staged rows may start above row 0 or end past the last). Then the barrier.
       Windows: each warp takes whole output rows; for row c the window starts skew(c)
       floats before the block's own first row (H > 0), and its TR floats, VS a lane (one
       float2 or float4 store), fill whole sectors (the profile of this step's solution:
       Global Store Efficiency 99.8% at 8191 x 8192). A lane's VS floats that would reach
       outside the row, before its first float or past its last, are written one float at a
       time, each guarded. */
    /* The float2 path needs the whole tile inside the matrix and rows of in and out that
       start on 8 bytes (even cols and rows). Other tiles take the scalar path. */
    bool vector_path = rows % 2 == 0 && cols % 2 == 0 && r0 + TILE <= rows &&
                       c0 + TILE <= cols;
    if (vector_path) {
        #pragma unroll
        for (int k = 0; k < PAIRS / BLOCKY; k++) {
            int g = ty + k * BLOCKY;   /* this thread's pair of rows: 2g and 2g + 1 */
            float2 a0 = *(const float2 *)&in[(size_t)(r0 + 2 * g) * cols + c0 + 2 * tx];
            float2 a1 = *(const float2 *)&in[(size_t)(r0 + 2 * g + 1) * cols + c0 + 2 * tx];
            /* Column j of the 2 x 2 block becomes row 2 tx + j of the transposed tile. */
            *(float2 *)&tile[at(2 * tx, 2 * g)] = make_float2(a0.x, a1.x);
            *(float2 *)&tile[at(2 * tx + 1, 2 * g)] = make_float2(a0.y, a1.y);
        }
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < TILE / BLOCKY; k++) {
            int c = ty + k * BLOCKY;   /* the row of the output tile this pass writes */
            *(float2 *)&out[(size_t)(c0 + c) * rows + r0 + 2 * tx] =
                *(const float2 *)&tile[at(c, 2 * tx)];
        }
    } else {
        /* One float at a time through the same tile, reads and writes still coalesced,
           each guarded. */
        int t = ty * BLOCKX + tx;
        for (int e = t; e < TILE * TILE; e += BLOCKX * BLOCKY) {
            int r = e / TILE, c = e % TILE;
            if (r0 + r < rows && c0 + c < cols)
                tile[at(c, r)] = in[(size_t)(r0 + r) * cols + c0 + c];
        }
        __syncthreads();
        for (int e = t; e < TILE * TILE; e += BLOCKX * BLOCKY) {
            int c = e / TILE, r = e % TILE;
            if (c0 + c < cols && r0 + r < rows)
                out[(size_t)(c0 + c) * rows + r0 + r] = tile[at(c, r)];
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
    /* TODO(step7): one launch for each shape. Where rows is not a multiple of 8, the
       kernel with the halo; where cols is even (and the window is 64 columns wide), the
       kernel with float2 loads. The block is THREADS threads either way: TC threads across
       (one float each) and THREADS / TC down, or, with float2 loads, TC / 2 across (two
       floats each) and twice as many down. The grid: band_grid (above), told the window's
       sizes and how many rows above its block's a window may start. */
    dim3 block(BLOCKX, BLOCKY);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_kernel<<<grid, block>>>(rows, cols, d_in, d_out);
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
    /* TODO(step7): delete this call once the TODOs above are done: it makes ./transpose
       report the step as unfinished. */
    tk_unfinished();
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
