/* Step 7 (bonus): any shape at the copy limit, with stores on whole sectors.

   The input is a rows x cols matrix stored row by row; the output is its transpose,
   cols x rows: out[c * rows + r] = in[r * cols + c]. The harness (common/) parses the
   command line, fills the input, prints the CPU+OMP row, times the kernel and checks
   every element of the result. */
#include "harness.h"

/* BEYOND(step7): the window's sizes; the lever runs chose TC, TR, THREADS (step7/RESEARCH.md). */
#define TC      64     /* a block moves TC columns of the input: TC rows of the output */
#define TR      64     /* ... and of each of those rows it writes a window of TR floats */
#define HALO    7      /* extra input rows staged above the window, when it is shifted */
#define THREADS 512    /* threads in a block */

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
   windows (y). */
template <int H>
__device__ __forceinline__ int2 block_of(int rows)
{
    int ny = (rows + H + TR - 1) / TR;            /* blocks down a column band */
    int g = gridDim.x / ny;                       /* column bands at a time */
    return make_int2(blockIdx.y * g + blockIdx.x % g, blockIdx.x / g);
}

/* A block stages TR + H rows of TC input columns in a padded shared tile, then each warp
   writes windows: TR consecutive floats of one output row, a float2 a thread. Where rows is
   a multiple of 8 (H = 0) every output row starts on a sector, and so does every window.
   Otherwise (H = HALO) each window starts skew(c) floats before the block's first row, on
   the sector boundary: every store covers whole sectors, and the rows the window reaches
   above the block's own are the HALO rows it staged. VL: floats a thread loads at once, 2
   (a float2) where every input row starts on 8 bytes (cols even), 1 otherwise. */
template <int H, int VL>
__global__ void __launch_bounds__(THREADS)
transpose_kernel(int rows, int cols, const float *__restrict__ in, float *__restrict__ out)
{
    const int S = TC + 1, BX = TC / VL, BY = THREADS / BX;   /* padded row; BX x BY threads */
    __shared__ float tile[(TR + H) * S];

    int tx = threadIdx.x, ty = threadIdx.y;
    int2 b = block_of<H>(rows);                   /* the block's column band, row of windows */
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
        int c = c0 + j;                                         /* the output row */
        int r = b.y * TR - (H ? skew(c, rows) : 0) + 2 * lane;  /* its floats r, r+1 */
        int i = r - rs;                                         /* staged as rows i, i + 1 */
        float *o = out + (size_t)c * rows;
        if (r >= 0 && r + 2 <= rows) {
            *(float2 *)&o[r] = make_float2(tile[i * S + j], tile[(i + 1) * S + j]);
        } else {   /* the ends of the row */
            if (r >= 0 && r < rows)
                o[r] = tile[i * S + j];
            if (r + 1 >= 0 && r + 1 < rows)
                o[r + 1] = tile[(i + 1) * S + j];
        }
    }
}

#include "panels.cuh"   /* BEYOND(step7): skinny shapes; step7/README.md says why */

/* BEYOND(step7): the grid, for windows that start up to h rows above their block's rows: TC
   columns a block across, and down enough blocks of TR rows to reach the last row, run
   `bands` column bands at a time (block_of needs this grid: it reads the order back from
   gridDim.x): g x ny blocks in x, one group of bands a step of y (more bands where the groups
   would pass a grid's y, 65535). Not static: the starter does not call it yet, and the
   compiler would warn. */
static long bands = 1;   /* column bands at a time: 1, 8, or 0 for all (the launch order) */
dim3 band_grid(int rows, int cols, int h)
{
    long nx = (cols + TC - 1) / TC, ny = (rows + h + TR - 1) / TR;
    long g = bands > 0 && bands < nx ? bands : nx;
    if (nx > 65535 * g)
        g = (nx + 65534) / 65535;
    return dim3(g * ny, (nx + g - 1) / g);
}

/* BEYOND(step7): which block order is fastest depends on the GPU and the shape
   (step7/RESEARCH.md, "Block order"), so launch measures it at a shape's first launch:
   tk_fastest_way (the harness) runs it five times in each order and keeps the fastest (or an
   order whose output is not exact, for the row's check); any order's output is the transpose. */
static long timed_rows = -1, timed_cols = -1;   /* the shape whose order is kept */
static void use_order(int k)   /* order k: one band, 8 bands or all bands (the launch order) */
{
    bands = k == 0 ? 1 : k == 1 ? 8 : 0;
}

static void launch(const float *d_in, float *d_out, long rows, long cols)   /* BEYOND(step7) */
{
    if (panel_shape(rows, cols)) {   /* BEYOND(step7): skinny, or a side past an int */
        launch_panel(d_in, d_out, rows, cols, 0);
        return;
    }
    if (rows != timed_rows || cols != timed_cols) {   /* BEYOND(step7): a shape's first launch */
        const char *const orders[3] = { "one band", "8 bands", "all bands" };
        timed_rows = rows, timed_cols = cols;   /* so the launches timed below are not first */
        tk_fastest_way(launch, use_order, orders, 3, d_in, d_out, rows, cols);   /* sets it */
    }
    bool shift = rows % 8 != 0;   /* output rows start off their sectors */
    bool pairs = cols % 2 == 0;   /* input rows start on 8 bytes */
    dim3 grid = band_grid(rows, cols, shift ? HALO : 0);
    if (shift && pairs)
        transpose_kernel<HALO, 2><<<grid, dim3(TC / 2, THREADS * 2 / TC)>>>(rows, cols, d_in, d_out);
    else if (shift)
        transpose_kernel<HALO, 1><<<grid, dim3(TC, THREADS / TC)>>>(rows, cols, d_in, d_out);
    else if (pairs)
        transpose_kernel<0, 2><<<grid, dim3(TC / 2, THREADS * 2 / TC)>>>(rows, cols, d_in, d_out);
    else
        transpose_kernel<0, 1><<<grid, dim3(TC, THREADS / TC)>>>(rows, cols, d_in, d_out);
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
