/* Beyond the exercise: panels, for skinny shapes (step7/README.md, "Beyond the exercise").

   A window kernel moves 64 x 64 tiles. A matrix with a few rows (or a few columns) fills
   only a corner of each, and most threads idle: at 2 x 50961322 the window kernel ran at 7%
   of the copy on the H100. A skinny transpose has a side that is contiguous instead:
   - wide (rows <= cols): the output of W input columns, all rows of them, is one stretch of
     W x rows floats. A block reads those W columns of every row (rows runs of W floats) into
     a shared panel and writes the stretch a float4 a thread. W is a power of two, at least
     32, so the stretch starts on a sector.
   - tall (rows > cols): the input of H rows is one stretch of H x cols floats. A block reads
     it into a shared panel and writes cols runs of H floats, one an output row, a float a
     thread. A run's ends share their sectors with the next block's runs; windows aligned to
     the sectors, as in the exercise, measured slower here (scripts/bench/README.md).
   The wide panel stages its runs by asynchronous copies, global to shared, a float each: a
   thread issues all of its copies before it waits for any, so from compute capability 8.0
   the whole panel can be in flight at once (below it each copy is an ordinary load and
   store, not timed there). Read into registers, each float4 waited for before the next was
   issued, it drew 62% of DRAM's peak on an H200 at 69 x 44013014 (step7/RESEARCH.md, "Loads
   in flight"). The tall panel reads its stretch as aligned float4s (a run that starts off 16
   bytes is read from the float4 that holds its first float): copied a float at a time it
   measured 1.6 to 4.8 points slower on the H100, and within -0.6 to +2.5 points on the H200
   except at one column (+8.7). A panel holds about F floats
   (W = F / rows, or H = F / cols, rounded down to a power of two). The long side is held in
   a long: it may pass an int (2147483648 x 1). */
#include <cuda_pipeline.h>   /* __pipeline_memcpy_async: the asynchronous copies */

#define PANEL_ROWS 112   /* a wide shape with at most this many rows takes a panel */
#define PANEL_COLS 48    /* a tall shape with at most this many columns takes a panel (in step
                            7, from 4 columns, where it is the fastest of the ways timed) */
#define PANEL_NARROW 4   /* a tall panel of fewer columns takes panel_tall_narrow, of this
                            many or more panel_tall */

/* The aligned float4 of in at float g (a multiple of 4) into v; past the matrix's end (total
   floats) one float at a time, 0 beyond it. */
__device__ __forceinline__ void load4(const float *__restrict__ in, size_t g, size_t total, float v[4])
{
    if (g + 4 <= total) {
        float4 x = *reinterpret_cast<const float4 *>(in + g);
        v[0] = x.x, v[1] = x.y, v[2] = x.z, v[3] = x.w;
    } else {
        for (int e = 0; e < 4; e++) v[e] = g + e < total ? in[g + e] : 0.f;
    }
}

/* Floats first .. first + n - 1 of in, rows of cols floats, read by the NT threads of a block
   as the aligned float4s that cover them (a float4 may begin up to 3 floats before first) and
   staged in the panel column by column: the stretch's row r, column c at c P + skip + r.
   A thread's float4s lie 4 NT floats apart: its row and column move by the same step each
   time, so divisions find the first and the step, and none the rest. */
template <int NT>
__device__ __forceinline__ void stage_rows(const float *__restrict__ in, size_t first, int n,
                                           size_t total, int cols, int P, int skip, float *panel)
{
    const int t = threadIdx.x;
    const size_t g0 = (first & ~(size_t)3) + 4 * t;
    int k = (int)((long)g0 - (long)first);           /* -3 .. -1 for a float4 begun before it */
    const int dr = 4 * NT / cols, dc = 4 * NT - dr * cols;   /* the step, in rows and columns */
    int r = max(k, 0) / cols, c = max(k, 0) - r * cols;     /* float max(k, 0): row r, column c */
    #pragma unroll 4
    for (size_t g = g0; g < first + n; g += 4 * NT) {
        float v[4];
        load4(in, g, total, v);
        int rr = r, cc = c;
        if (k >= 0 && k + 4 <= n) {                  /* the whole float4 is the stretch's */
            #pragma unroll
            for (int e = 0; e < 4; e++) {
                panel[cc * P + skip + rr] = v[e];
                if (++cc == cols) { cc = 0; rr++; }
            }
        } else {
            #pragma unroll
            for (int e = 0; e < 4; e++) {
                if (k + e >= 0 && k + e < n) {
                    panel[cc * P + skip + rr] = v[e];
                    if (++cc == cols) { cc = 0; rr++; }
                }
            }
        }
        if (k < 0) {                                 /* the first float4 began before first */
            k += 4 * NT;
            r = k / cols, c = k - r * cols;
        } else {
            k += 4 * NT;
            r += dr, c += dc;
            if (c >= cols) { c -= cols; r++; }
        }
    }
}

/* A wide panel's output, one stretch of w x rows floats from o (on a sector: c0 is a
   multiple of 8): element k is output row k / rows, float k % rows of it, staged at
   panel[(k % rows) P + k / rows]; written a float4 a thread, the last few one at a time. */
template <int NT>
__device__ void store_stretch(const float *panel, int P, int rows, int w, float *o)
{
    const int n = w * rows;
    for (int k = 4 * threadIdx.x; k < n; k += 4 * NT) {
        int c = k / rows, r = k - c * rows;
        int at = r * P + c;   /* panel[r P + c]: then stepped by P, not multiplied again */
        float v[4];
        #pragma unroll
        for (int e = 0; e < 4; e++) {
            v[e] = k + e < n ? panel[at] : 0.f;
            at += P;
            if (++r == rows) { r = 0; c++; at = c; }
        }
        if (k + 4 <= n) {
            *reinterpret_cast<float4 *>(o + k) = make_float4(v[0], v[1], v[2], v[3]);
        } else {
            for (int e = 0; e < 4 && k + e < n; e++)
                o[k + e] = v[e];
        }
    }
}

/* Wide: block b moves input columns c0 = b W .. c0 + W - 1 of every row; W = 2^wshift. */
template <int NT>
__global__ void __launch_bounds__(NT)
panel_wide(int rows, long cols, int wshift, int P, const float *__restrict__ in, float *__restrict__ out)
{
    extern __shared__ float panel[];   /* rows x P (panel_stride): input row r at r P */
    const int W = 1 << wshift, t = threadIdx.x;
    const size_t c0 = (size_t)blockIdx.x * W;
    const int w = (int)min((size_t)W, (size_t)cols - c0);   /* the panel's columns */

    /* Row r's run: w floats from r cols + c0, each by an asynchronous copy. A thread's row
       and source step by a fixed amount, so that no copy needs a shift, a mask or a 64-bit
       multiplication of its own (step7/RESEARCH.md, "Fewer instructions in the wide panel"). */
    if (W <= NT) {   /* thread t: float t % W of rows t / W, t / W + NT / W, ... */
        const int j = t & (W - 1), dr = NT >> wshift;
        const float *src = in + (size_t)(t >> wshift) * cols + c0 + j;
        if (j < w) {
            #pragma unroll 4
            for (int r = t >> wshift; r < rows; r += dr, src += (size_t)dr * cols)
                __pipeline_memcpy_async(&panel[r * P + j], src, sizeof(float));
        }
    } else {         /* W > NT (8 rows or fewer, as launched): thread t: floats t, t + NT,
                        ... of every row */
        const float *src = in + c0;
        for (int r = 0; r < rows; r++, src += cols) {
            #pragma unroll 4
            for (int j = t; j < w; j += NT)
                __pipeline_memcpy_async(&panel[r * P + j], src + j, sizeof(float));
        }
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();

    store_stretch<NT>(panel, P, rows, w, out + c0 * rows);
}

/* The most threads a multiprocessor holds, for the architecture compiled for (__CUDA_ARCH__,
   the virtual one: a GPU that compiles the PTX of an older one gets that one's): 1024 on
   compute capability 7.5, 1536 on 8.6 to 8.9 and from 11.0 on (on a newer one where that is
   more than it holds, ptxas warns and ignores the request), 2048 on the rest (5.0 to 7.2, 8.0,
   9.0, 10.x). The host's pass, which has no __CUDA_ARCH__, takes 2048: it compiles no kernel
   code. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define PANEL_SM_THREADS 1024
#elif defined(__CUDA_ARCH__) && ((__CUDA_ARCH__ >= 860 && __CUDA_ARCH__ < 900) || __CUDA_ARCH__ >= 1100)
#define PANEL_SM_THREADS 1536
#else
#define PANEL_SM_THREADS 2048
#endif

/* Tall: block b stages input rows r0 = b H .. r0 + H - 1 (those that exist) and writes, of
   each output row c, its floats r0 .. r0 + H - 1: a run of H floats. H = 2^hshift. Its warps
   wait on loads most of the time, so it asks for as many blocks a multiprocessor as its
   threads allow (__launch_bounds__ below: where 2048 threads fit, 8 blocks of 256, so 32
   registers a thread; at 1, 2, 4, 7, 8, 14 to 16 and 27 to 32 columns a panel's shared memory
   leaves room for fewer on a multiprocessor of 228 KiB, 1 KiB reserved a block). The compiler
   fits 32 without spilling registers to memory only with each store loop in a kernel of its
   own (NARROW: below PANEL_NARROW columns) and not unrolled. On an H200 that took the launch from 84.5
   to 86.4% of the copy to 92.5 to 94.0% at three tall panels of 3, 10 and 11 columns, where
   8 blocks with registers spilled gained at most 1.0 point and the loops not unrolled at 40
   registers (6 blocks) none (step7/RESEARCH.md, "Which change makes the tall panel's gain"). */
template <int NT, bool NARROW>
__device__ __forceinline__ void panel_tall_body(long rows, int cols, int hshift, int P, const float *__restrict__ in, float *__restrict__ out)
{
    extern __shared__ float panel[];   /* cols x P (panel_stride): input column c at c P */
    const int H = 1 << hshift, t = threadIdx.x;
    const long r0 = (long)blockIdx.x * H;
    const int h = (int)min((long)H, rows - r0);        /* the block's rows */
    const size_t first = (size_t)r0 * cols, total = (size_t)rows * cols;
    const int n = h * cols;                             /* its stretch of the input */

    stage_rows<NT>(in, first, n, total, cols, P, 0, panel);   /* the stretch, from first */
    __syncthreads();

    /* Output row c's run: floats r0 .. r0 + h - 1, a float a thread, a warp's 32 together.
       J = min(H, NT) threads a run, NT / J runs at a time: thread t writes floats j0, j0 + J,
       ... (j0 = t % J) of runs t / J, t / J + NT / J, ... Narrow, a run's floats are the
       inner loop; else the runs are. */
    const int J = H < NT ? H : NT, S = NT / J, j0 = t % J;
    if (NARROW) {
        for (int c = t / J; c < cols; c += S) {
            float *o = out + (size_t)c * rows + r0;
            const float *p = panel + c * P;
            #pragma unroll 1
            for (int j = j0; j < h; j += J)
                o[j] = p[j];
        }
    } else {
        for (int j = j0; j < h; j += J) {
            int c = t / J;
            float *o = out + (size_t)c * rows + r0 + j;
            const float *p = panel + c * P + j;
            #pragma unroll 1
            for (; c < cols; c += S, o += (size_t)S * rows, p += S * P)
                *o = *p;
        }
    }
}
template <int NT>
__global__ void __launch_bounds__(NT, PANEL_SM_THREADS / NT)
panel_tall(long rows, int cols, int hshift, int P, const float *__restrict__ in, float *__restrict__ out)
{
    panel_tall_body<NT, false>(rows, cols, hshift, P, in, out);
}
template <int NT>
__global__ void __launch_bounds__(NT, PANEL_SM_THREADS / NT)
panel_tall_narrow(long rows, int cols, int hshift, int P, const float *__restrict__ in, float *__restrict__ out)
{
    panel_tall_body<NT, true>(rows, cols, hshift, P, in, out);
}

/* Whether a shape takes a panel: wide with at most PANEL_ROWS rows, or tall with at most
   PANEL_COLS columns (step 7 times a tall one of 4 columns or more beside its windows and
   keeps the faster: on an H200 the windows were kept at 7 of 8 tall shapes of 21 to 40
   columns, step7/RESEARCH.md, "The tall panel among the ways"). Shapes past them ran as fast or faster through the windows, one
   column band at a time: 90.1 to 97.3% of the copy at 120 to 250 rows on the H100, against
   73.3 to 96.9% through a panel; 96% at 1000003 x 64, against 84% (scripts/bench/README.md). */
static bool panel_shape(long rows, long cols)
{
    return rows <= cols ? rows <= PANEL_ROWS : cols <= PANEL_COLS;
}

/* The panel's stride P, W + 1 to W + 8 floats (H for a tall panel), whichever puts the
   fewest lanes of a warp on one shared-memory bank at a time. Both panels meet one pattern:
   lane l of a warp takes floats 4 l .. 4 l + 3 of each 128 of the stretch (4 NT apart), and
   float k of it lies at (k % side) P + k / side (the wide panel reads its stretch out so, the
   tall panel stages it in so; a tall block's stretch starts on a float4). W + 1 alone (step
   5's padding) put 9 and 10.5 lanes on a bank at a time, on average, at 9 and 13 rows,
   against 2 with W + 2 (step7/RESEARCH.md, "The panel's stride"). The count takes up to a
   few hundred microseconds of the host's time: launch_panel makes it once a side. */
static int panel_stride(int side, int span)
{
    const int n = side * span;
    int best = 0;
    long best_cost = 0;
    for (int P = span + 1; P <= span + 8; P++) {
        long cost = 0;                     /* over the warp's accesses, the busiest bank's lanes */
        for (int base = 0; base < n; base += 128)
            for (int e = 0; e < 4; e++) {
                int lanes[32] = {0}, most = 0;
                for (int l = 0; l < 32 && base + 4 * l + e < n; l++) {
                    const int k = base + 4 * l + e, bank = ((k % side) * P + k / side) % 32;
                    if (++lanes[bank] > most) most = lanes[bank];
                }
                cost += most;
            }
        if (best == 0 || cost < best_cost) best = P, best_cost = cost;
    }
    return best;
}

/* Launches the panel kernel of a panel shape on stream s. A panel's floats: 8192, or 4096
   for a wide shape of at most 16 rows (the best of the variants measured,
   scripts/bench/README.md). Its shared memory stays under 48 KB: side x P floats, at most
   8192 + 8 x 112 (35.5 KiB). A wide panel takes a thread for every 16 of its
   floats (with 256 threads to 8192 floats, 99 to 112 rows ran at 75 to 81% of the copy on
   an H200 and 97 to 107 rows at 85 to 87% on the H100, against 90 to 95% with 512; with 512 threads to 4096
   floats, 1 to 14 rows on the H200 ran 4 to 17 points lower: step7/RESEARCH.md, "Loads in
   flight"); a tall one, 256. */
static void launch_panel(const float *d_in, float *d_out, long rows, long cols, cudaStream_t s)
{
    const int side = (int)(rows <= cols ? rows : cols);   /* at most PANEL_ROWS */
    const int floats = rows <= cols && side <= 16 ? 4096 : 8192;
    int shift = 5;                                  /* W or H: 2^shift, at least 32 */
    while ((2 << shift) <= floats / side) shift++;
    const int span = 1 << shift;
    static int stride_of[2][PANEL_ROWS + 1];      /* wide, tall: by side, 0 until counted */
    int *known = &stride_of[rows <= cols ? 0 : 1][side];
    if (*known == 0)
        *known = panel_stride(side, span);
    const int P = *known;
    const size_t smem = (size_t)side * P * sizeof(float);
    if (rows <= cols) {
        unsigned blocks = (unsigned)(((size_t)cols + span - 1) / span);
        if (floats == 4096)
            panel_wide<256><<<blocks, 256, smem, s>>>(side, cols, shift, P, d_in, d_out);
        else
            panel_wide<512><<<blocks, 512, smem, s>>>(side, cols, shift, P, d_in, d_out);
    } else {
        unsigned blocks = (unsigned)(((size_t)rows + span - 1) / span);
        if (side < PANEL_NARROW)
            panel_tall_narrow<256><<<blocks, 256, smem, s>>>(rows, side, shift, P, d_in, d_out);
        else
            panel_tall<256><<<blocks, 256, smem, s>>>(rows, side, shift, P, d_in, d_out);
    }
}
