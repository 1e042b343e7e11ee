/* Panels: the levers for skinny shapes (a few rows and many columns, or the reverse), where
   step 7's 64 x 64 tiles leave most of their threads idle.

   A skinny transpose has one side that is contiguous for a whole run of the other:
   - wide (rows <= cols): the output of W input columns, every row of them, is one stretch
     of W x rows floats (output rows c0 .. c0 + W - 1, back to back). A block reads those W
     columns of each input row (rows runs of W floats) into a shared panel and writes the
     stretch with float4 stores; W is a multiple of 8, so the stretch starts on a sector.
   - tall (rows > cols): the input of H rows is one stretch of H x cols floats. A block reads
     it with float4 loads and writes cols runs of H floats, one a column. HALO 7: each run
     starts on its sector boundary, (c * rows + r0) % 8 floats early, with the 7 input rows
     above the block's own staged too (step 7's window, turned round); HALO 0: it starts at
     the block's first row, and the ends of each run share their sectors with other blocks.
   The panel holds F floats (W = F / rows, or H = F / cols, rounded down to a power of two,
   at least 32); a shape whose short side is over F / 32 floats is no panel shape, and the
   variant falls back to step 7's window kernel there.

   The kernels step 7's solution took are its own, solution/step7/panels.cuh: the wide
   panel (v4; read as float4s until 2026-11-27, staged by asynchronous copies since) and the
   tall panel with runs from the block's first row (h0).
   Here are the variants it did not take: the wide panel read one float at a time, and the
   tall panel whose runs start on their sectors (h7).

   panel-fF-bNT[-h0|-h7][-v4]   F floats a panel, NT threads a block; v4: the solution's wide
                                panel (without: read a float a thread), h7 runs written as
                                float4s */
#pragma once
#include "windows.cuh"
#include "step7/panels.cuh"   /* panel_wide, panel_tall: step 7's solution's, carried here */

static inline int pow2_floor(int x)
{
    int p = 1;
    while (p * 2 <= x) p *= 2;
    return p;
}
static inline int log2_of(int p)
{
    int s = 0;
    while ((1 << s) < p) s++;
    return s;
}

/* Wide, read one float at a time (the solution stages by asynchronous copies): block b moves input columns
   c0 = b W .. c0 + W - 1 of every row. */
template <int NT>
__global__ void __launch_bounds__(NT)
panel_wide_scalar(int rows, int cols, int wshift, const float *__restrict__ in, float *__restrict__ out)
{
    extern __shared__ float panel[];   /* rows x (W + 1): input row r at r (W + 1) */
    const int W = 1 << wshift, P = W + 1, t = threadIdx.x;
    const size_t c0 = (size_t)blockIdx.x * W;
    const int w = (int)min((size_t)W, (size_t)cols - c0);   /* columns in this panel */

    #pragma unroll 8
    for (int k = t; k < rows * W; k += NT) {
        const int r = k >> wshift, j = k & (W - 1);
        if (j < w)
            panel[r * P + j] = in[(size_t)r * cols + c0 + j];
    }
    __syncthreads();

    store_stretch<NT>(panel, P, rows, w, out + c0 * rows);   /* the solution's */
}

/* Tall, runs on their sectors (the solution's start at the block's first row): block b
   writes, for each column c, the run of output row c from input row b H - a(c) on,
   a(c) = (c rows + b H) % 8; it stages input rows b H - HALO .. b H + H - 1. VS: floats a
   store, 4 or 1. */
template <int NT, int VS>
__global__ void __launch_bounds__(NT)
panel_tall_aligned(int rows, int cols, int hshift, const float *__restrict__ in, float *__restrict__ out)
{
    const int HALO = 7;
    extern __shared__ float panel[];   /* cols x P: column c at c P */
    const int H = 1 << hshift, P = (H + HALO) | 1, t = threadIdx.x;   /* odd: no bank conflicts */
    const long rb = (long)blockIdx.x * H - HALO;        /* first staged row, maybe < 0 */
    const long lo = rb < 0 ? 0 : rb;                    /* first staged row that exists */
    const long hi = min((long)rows, (long)blockIdx.x * H + H);
    const size_t first = (size_t)lo * cols;             /* the staged stretch of the input */
    const int n = (int)((hi - lo) * cols);
    const int skip = (int)(lo - rb);                    /* staged rows that do not exist */

    /* The stretch, read as aligned float4s: the solution's stage_rows, past skip slots. */
    stage_rows<NT>(in, first, n, (size_t)rows * cols, cols, P, skip, panel);
    __syncthreads();

    /* Column c's run: output elements c rows + r for r from its start, H of them; with
       HALO, the run starts on a sector, and VS = 4 writes it a float4 a thread. */
    if (VS == 4) {
        #pragma unroll 4
        for (int k = t; k < cols * (H / 4); k += NT) {
            const int c = k >> (hshift - 2), q = k & (H / 4 - 1);
            const int a = (int)(((size_t)c * rows + (size_t)blockIdx.x * H) & 7);
            const long r = (long)blockIdx.x * H - a + 4 * q;   /* its first input row */
            const float *p = panel + c * P + (int)(r - rb);
            float *o = out + (size_t)c * rows;
            if (r >= 0 && r + 4 <= rows) {
                *reinterpret_cast<float4 *>(o + r) = make_float4(p[0], p[1], p[2], p[3]);
            } else {
                for (int e = 0; e < 4; e++)
                    if (r + e >= 0 && r + e < rows) o[r + e] = p[e];
            }
        }
    } else {
        #pragma unroll 4
        for (int k = t; k < cols * H; k += NT) {
            const int c = k >> hshift, j = k & (H - 1);
            const int a = (int)(((size_t)c * rows + (size_t)blockIdx.x * H) & 7);
            const long r = (long)blockIdx.x * H - a + j;   /* the output element's input row */
            if (r >= 0 && r < rows && r >= rb)
                out[(size_t)c * rows + r] = panel[c * P + (int)(r - rb)];
        }
    }
}

/* Kernel k may take bytes of dynamic shared memory (whatever its sides' types: the solution's
   panels hold their long side in a long). */
template <auto k>
static void allow_shared(size_t bytes)
{
    static size_t allowed = 48 * 1024;
    if (bytes > allowed) {
        CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        allowed = bytes;
    }
}

/* The stride the solution's panels (panel_stride) take for a short side of a panel of about F
   floats, span of them a run: counted once a side, as the solution's launch_panel does. */
template <int F>
static int counted_stride(int side, int span)
{
    static int stride_of[F / 32 + 1];   /* by side, 0 until counted */
    if (stride_of[side] == 0)
        stride_of[side] = panel_stride(side, span);
    return stride_of[side];
}

template <int F, int NT, int HALO, int VL = 1>
static void launch_lever_panel(const float *d_in, float *d_out, int rows, int cols)
{
    const int shortside = rows <= cols ? rows : cols;
    if (shortside > F / 32) {   /* no panel shape: step 7's window kernel */
        launch_window<64, 64, 2, 2, 16>(d_in, d_out, rows, cols);
        return;
    }
    const int span = pow2_floor(F / shortside), shift = log2_of(span);   /* W or H */
    if (rows <= cols) {
        unsigned blocks = (unsigned)(((size_t)cols + span - 1) / span);
        if (VL == 4) {
            const int P = counted_stride<F>(rows, span);
            size_t smem = (size_t)rows * P * sizeof(float);
            allow_shared<panel_wide<NT> >(smem);
            panel_wide<NT><<<blocks, NT, smem>>>(rows, cols, shift, P, d_in, d_out);
        } else {
            size_t smem = (size_t)rows * (span + 1) * sizeof(float);
            allow_shared<panel_wide_scalar<NT> >(smem);
            panel_wide_scalar<NT><<<blocks, NT, smem>>>(rows, cols, shift, d_in, d_out);
        }
    } else if (HALO == 0) {
        const int P = counted_stride<F>(cols, span);
        size_t smem = (size_t)cols * P * sizeof(float);
        unsigned blocks = (unsigned)(((size_t)rows + span - 1) / span);
        if (cols < PANEL_NARROW) {
            allow_shared<panel_tall_narrow<NT> >(smem);
            panel_tall_narrow<NT><<<blocks, NT, smem>>>(rows, cols, shift, P, d_in, d_out);
        } else {
            allow_shared<panel_tall<NT> >(smem);
            panel_tall<NT><<<blocks, NT, smem>>>(rows, cols, shift, P, d_in, d_out);
        }
    } else {
        size_t smem = (size_t)cols * ((span + HALO) | 1) * sizeof(float);
        unsigned blocks = (unsigned)(((size_t)rows + HALO + span - 1) / span);
        allow_shared<panel_tall_aligned<NT, VL> >(smem);
        panel_tall_aligned<NT, VL><<<blocks, NT, smem>>>(rows, cols, shift, d_in, d_out);
    }
}

/* Whether step 7's solution, until it measured its block order, ran its windows one column
   band at a time at this shape: not a panel shape, and not a tall matrix whose blocks fit a
   2D grid's y, which kept the launch order. */
static bool step7_bands(int rows, int cols)
{
    const long ny = (rows + (rows % 8 ? 7 : 0) + 63L) / 64;   /* blocks down a column band */
    return !panel_shape(rows, cols) && (rows < 4L * cols || ny > TK_GRID_Y_MAX);
}

/* Step 7's solution as it chose until 2026-11-27: its panels where it takes them, its windows
   elsewhere, one column band at a time (step7_bands) or in the launch order. */
static void launch_step7_paths(const float *d_in, float *d_out, int rows, int cols)
{
    if (panel_shape(rows, cols))
        launch_panel(d_in, d_out, rows, cols, 0);
    else if (step7_bands(rows, cols))
        launch_window<64, 64, 2, 2, 16, false, 1>(d_in, d_out, rows, cols);
    else
        launch_window<64, 64, 2, 2, 16>(d_in, d_out, rows, cols);
}

/* Step 7's solution's choice in 0.13 (step7-orders): its panels where it takes them,
   and its windows in the block order measured at a shape's first launch (main makes that
   launch before any timing: launches_here) by the harness's tk_fastest_way, as the solution
   measures it: one band, 8 bands and the launch order, five runs each, the least time kept
   for that shape and given in the note under the shape's rows. step7-ways, the solution's
   rule from 0.14.0 to 0.15 (step7/RESEARCH.md, "Tall shapes of 49 to 200 columns"), measures
   two more ways: windows of 128 rows, 64 columns wide or 32, 8 column bands at a time.
   step7-six, the solution's rule since 0.16.0 (step7/RESEARCH.md, "Many bands at a time"),
   measures a sixth: 64 x 64 windows 128 bands at a time. step7-seven (not the solution's)
   measures a seventh: windows 128 columns wide, 64 rows, one band at a time. */
static const tk_launch_fn step7_ways[7] = { launch_window<64, 64, 2, 2, 16, false, 1>,
                                            launch_window<64, 64, 2, 2, 16, false, 8>,
                                            launch_window<64, 64, 2, 2, 16, false, -1>,
                                            launch_window<64, 128, 2, 4, 16, false, 8>,
                                            launch_window<32, 128, 1, 4, 8, false, 8>,
                                            launch_window<64, 64, 2, 2, 16, false, 128>,
                                            launch_window<128, 64, 2, 2, 8, false, 1> };
static const char *const step7_way_names[7] = { "one band", "8 bands", "the launch order",
                                                "128 rows in 8 bands", "32 x 128 in 8 bands",
                                                "128 bands", "128 x 64 in one band" };

/* The way in force for the variant that measures the first N ways: each N its own, so that
   step7-orders, step7-ways, step7-six and step7-seven in one run keep what each measured. */
template <int N>
static int &step7_way()
{
    static int k;
    return k;
}
template <int N>
static void use_step7_way(int k) { step7_way<N>() = k; }
template <int N>
static void launch_step7_way(const float *d_in, float *d_out, long rows, long cols)
{
    step7_ways[step7_way<N>()](d_in, d_out, (int)rows, (int)cols);
}

template <int N>
static void launch_step7_measured(const float *d_in, float *d_out, int rows, int cols)
{
    if (panel_shape(rows, cols)) {
        launch_panel(d_in, d_out, rows, cols, 0);
        return;
    }
    static int known_rows = -1, known_cols = -1;
    if (rows != known_rows || cols != known_cols) {
        known_rows = rows, known_cols = cols;   /* the launches timed below are not first */
        tk_fastest_way(launch_step7_way<N>, use_step7_way<N>, step7_way_names, N, d_in, d_out,
                       rows, cols);
    }
    launch_step7_way<N>(d_in, d_out, rows, cols);
}

/* Line-aligned panels: each warp's 32 floats fall on one 128-byte line of global memory.
   The solution's wide panel copies 32 consecutive floats of a run a warp, and a run that
   starts off a line spreads them over two lines; so do the tall panel's stores. At
   18262435 x 10 on an H200 the tall panel sent the L2 10,452,761 write requests for a
   730 MB output, 1.8 times the 5.7 million of its 128-byte lines (step7/RESEARCH.md, "Loads
   in flight"); the wide panel's loads split alike there, so whether the split costs is open.
   Here a warp takes a run one aligned line at a time, its lanes outside the run idle:
   H / 32 + 1 lines a run of H floats (W / 32 + 1 for W), more passes than the solution's W / 32.
   Both stage and store as the solution's do otherwise. */
template <int NT>
__global__ void __launch_bounds__(NT)
panel_wide_lines(int rows, long cols, int wshift, const float *__restrict__ in, float *__restrict__ out)
{
    extern __shared__ float panel[];   /* rows x (W + 1): input row r at r (W + 1) */
    const int W = 1 << wshift, P = W + 1, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const size_t c0 = (size_t)blockIdx.x * W;
    const int w = (int)min((size_t)W, (size_t)cols - c0);   /* the panel's columns */
    const int lines = W / 32 + 1;                            /* lines a run can touch */
    for (int p = warp; p < rows * lines; p += NT / 32) {
        const int r = p / lines, l = p - r * lines;
        const size_t s0 = (size_t)r * cols + c0;             /* row r's run starts here */
        const long j = (long)((s0 & ~(size_t)31) + 32 * l + lane) - (long)s0;   /* its column */
        if (j >= 0 && j < w)
            __pipeline_memcpy_async(&panel[r * P + j], &in[s0 + j], sizeof(float));
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();

    store_stretch<NT>(panel, P, rows, w, out + c0 * rows);   /* the solution's */
}

template <int NT>
__global__ void __launch_bounds__(NT)
panel_tall_lines(long rows, int cols, int hshift, const float *__restrict__ in, float *__restrict__ out)
{
    extern __shared__ float panel[];   /* cols x (H + 1): input column c at c (H + 1) */
    const int H = 1 << hshift, P = H + 1, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const long r0 = (long)blockIdx.x * H;
    const int h = (int)min((long)H, rows - r0);              /* the block's rows */
    const size_t first = (size_t)r0 * cols, total = (size_t)rows * cols;

    stage_rows<NT>(in, first, h * cols, total, cols, P, 0, panel);   /* the solution's */
    __syncthreads();

    const int lines = H / 32 + 1;                            /* lines a run can touch */
    for (int p = warp; p < cols * lines; p += NT / 32) {
        const int c = p / lines, l = p - c * lines;
        const size_t g0 = (size_t)c * rows + r0;             /* output row c's run starts here */
        const long j = (long)((g0 & ~(size_t)31) + 32 * l + lane) - (long)g0;   /* its float */
        if (j >= 0 && j < h)
            out[g0 + j] = panel[c * P + (int)j];
    }
}

/* Step 7's solution's choice with the line-aligned panels: the same panels, floats and
   threads (solution/step7/panels.cuh, launch_panel), its windows elsewhere. */
static void launch_step7_lines(const float *d_in, float *d_out, int rows, int cols)
{
    if (!panel_shape(rows, cols)) {
        launch_step7_paths(d_in, d_out, rows, cols);
        return;
    }
    const int side = rows <= cols ? rows : cols;
    const int floats = rows <= cols && side <= 16 ? 4096 : 8192;
    const int span = pow2_floor(floats / side), shift = log2_of(span);   /* W or H */
    const size_t smem = (size_t)side * (span + 1) * sizeof(float);    /* at most 33 KB */
    if (rows <= cols) {
        const unsigned blocks = (unsigned)(((size_t)cols + span - 1) / span);
        if (floats == 4096)
            panel_wide_lines<256><<<blocks, 256, smem>>>(side, cols, shift, d_in, d_out);
        else
            panel_wide_lines<512><<<blocks, 512, smem>>>(side, cols, shift, d_in, d_out);
    } else {
        const unsigned blocks = (unsigned)(((size_t)rows + span - 1) / span);
        panel_tall_lines<256><<<blocks, 256, smem>>>(rows, side, shift, d_in, d_out);
    }
}
