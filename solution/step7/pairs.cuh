/* Beyond the exercise: float2 pairs where cols is odd (step7/README.md, "Beyond the
   exercise"; step7/RESEARCH.md, "Rows that start on an odd float").

   Where cols is odd, every other input row starts on an odd float, so the exercise's kernel
   loads one float a thread there (VL 1). Here a row that starts on an odd float loads its
   pairs from the float before its first: 32 threads across a row of the window, a float2
   each; the first lane's first float (the column before the window's, or in the first
   column band the row before's last) is dropped, and the last lane loads the row's last
   float alone. Every load of a thread goes into registers before any of them goes to the
   shared tile, so that they are all in flight at once: with each load's stores before the
   next load, one load in flight a thread, pairs ran 13.9 to 18.2 points of the copy behind
   one float a thread on an H200 (the better of two ways each). It asks for as many blocks a
   multiprocessor as its threads allow (PANEL_SM_THREADS, panels.cuh: 4 blocks of 512 where
   2048 threads fit, so 32 registers a thread), and nothing spills.

   Only where rows is a multiple of 8: every output row then starts on a sector, so the block
   writes its own 64 rows as step 6's tile does, a float2 a thread, with no window shifted.
   The launch times this kernel as three more ways beside the windows (transpose.cu,
   launch); step7/RESEARCH.md has the measurements. Where rows is not a multiple of 8, pairs
   in the windows with a halo were within 0.3 point of one float a thread, so they are not
   taken there. */

#define PAIRS_THREADS 512   /* a block: 32 threads across a row, 16 rows of threads */

__global__ void __launch_bounds__(PAIRS_THREADS, PANEL_SM_THREADS / PAIRS_THREADS)
pairs_kernel(int rows, int cols, const float *__restrict__ in, float *__restrict__ out)
{
    const int T = 64, S = T + 1;          /* a window of T x T, its staged rows padded */
    const int BX = T / 2, BY = PAIRS_THREADS / BX, K = T / BY;   /* K rows a thread loads */
    __shared__ float tile[T * S];

    int tx = threadIdx.x, ty = threadIdx.y;
    int2 b = block_of<T, 0>(rows);        /* the block's column band, row of windows */
    int c0 = b.x * T, r0 = b.y * T;       /* its first input column and row */

    float2 v[K];   /* columns col and col + 1 of the thread's rows */
    float e[K];    /* the row's last float (column c0 + T - 1), in the last lane of a row
                      that starts on an odd float */
    #pragma unroll
    for (int k = 0; k < K; k++) {
        int r = r0 + ty + k * BY;
        size_t base = (size_t)r * cols + c0;               /* the row's first float */
        int odd = (int)(base & 1), col = 2 * tx - odd, c = c0 + col;
        const float *p = in + base + col;                  /* on 8 bytes */
        v[k] = make_float2(0.f, 0.f);
        e[k] = 0.f;
        if (r < rows && c + 1 < cols)
            v[k] = *(const float2 *)p;   /* at c = c0 - 1 (odd, lane 0), the float before */
        else if (r < rows && c < cols)
            v[k].x = *p;
        if (r < rows && odd && tx == BX - 1 && c0 + T - 1 < cols)
            e[k] = p[2];
    }
    #pragma unroll
    for (int k = 0; k < K; k++) {
        int i = ty + k * BY, r = r0 + i;
        if (r >= rows)
            continue;
        int odd = (int)(((size_t)r * cols + c0) & 1), col = 2 * tx - odd;
        if (col >= 0)
            tile[i * S + col] = v[k].x;
        tile[i * S + col + 1] = v[k].y;   /* past cols: a column no warp writes out */
        if (odd && tx == BX - 1)
            tile[i * S + T - 1] = e[k];
    }
    __syncthreads();

    #pragma unroll
    for (int k = 0; k < K; k++) {   /* as step 6's tile: a warp writes 64 floats of a row of out */
        int c = ty + k * BY, r = r0 + 2 * tx;   /* output row c0 + c, its floats r and r + 1 */
        if (c0 + c < cols && r < rows)          /* rows is even, so r + 1 < rows too */
            *(float2 *)&out[(size_t)(c0 + c) * rows + r] =
                make_float2(tile[2 * tx * S + c], tile[(2 * tx + 1) * S + c]);
    }
}

/* The pairs' launch, where cols is odd and rows a multiple of 8: 64 x 64 windows, `bands`
   column bands at a time (band_grid, in transpose.cu). */
static void launch_pairs(const float *d_in, float *d_out, long rows, long cols)
{
    dim3 grid = band_grid(rows, cols, 64, 64, 0);
    pairs_kernel<<<grid, dim3(32, PAIRS_THREADS / 32)>>>((int)rows, (int)cols, d_in, d_out);
}
