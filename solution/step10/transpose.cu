/* Step 10 (bonus, across GPUs, part 3 of 3): step 8's transpose across GPUs, fused into one
   kernel a rank that stores straight into every rank's output (NCCL's device API).

   The input is a rows x cols matrix stored row by row; the output is its transpose, cols x
   rows. Both are split over P GPUs by blocks of rows: rank p holds input rows row0[p] to
   row0[p + 1] - 1 and must end with output rows col0[p] to col0[p + 1] - 1, which are input
   columns. The harness (common/ranks/ranks.h) starts one process a GPU, joins them with NCCL,
   fills each rank's rows, times each stage on every rank beside two ceilings (NCCL moving the
   same blocks, and this step's kernel on the whole matrix on one GPU), and checks every
   rank's output element by element. Three stages: (a) step 8's pack, exchange, transpose;
   (b) step 9's, the same in chunks, overlapped; (c) one kernel a rank that stores straight
   into every rank's output through NCCL's device API. */
#include "ranks.h"

/* Step 7's kernel, unchanged: each rank's local transpose. */
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

/* Step 7's first window, the one used here: a block of THREADS threads moves TC columns of
   the input and writes TR floats of each of those output rows. */
#define TC      64
#define TR      64
#define THREADS 512

/* Step 7's kernel, launched on a stream in two of step 7's block orders, by a fixed rule: one
   column band at a time, all bands for a tall matrix (step 7 times its ways instead). */
#include "panels.cuh"   /* step 7's panels for skinny shapes, unchanged */

static void launch(const float *d_in, float *d_out, long rows, long cols, cudaStream_t s)
{
    if (panel_shape(rows, cols)) {   /* a few rows or a few columns: step 7's panels */
        launch_panel(d_in, d_out, rows, cols, s);
        return;
    }
    bool shift = rows % 8 != 0;   /* output rows start off their sectors */
    bool pairs = cols % 2 == 0;   /* input rows start on 8 bytes */
    long nx = (cols + TC - 1) / TC, ny = (rows + (shift ? HALO : 0) + TR - 1) / TR;
    /* one column band at a time (block_of), all bands (the launch order) for a tall matrix,
       and more bands where the groups would pass a grid's y */
    long g = rows < 4L * cols ? 1 : nx;
    if (nx > 65535 * g)
        g = (nx + 65534) / 65535;
    dim3 grid(g * ny, (nx + g - 1) / g);
    dim3 b2(TC / 2, THREADS * 2 / TC), b1(TC, THREADS / TC);
    if (shift && pairs)
        transpose_kernel<TC, TR, THREADS, HALO, 2><<<grid, b2, 0, s>>>(rows, cols, d_in, d_out);
    else if (shift)
        transpose_kernel<TC, TR, THREADS, HALO, 1><<<grid, b1, 0, s>>>(rows, cols, d_in, d_out);
    else if (pairs)
        transpose_kernel<TC, TR, THREADS, 0, 2><<<grid, b2, 0, s>>>(rows, cols, d_in, d_out);
    else
        transpose_kernel<TC, TR, THREADS, 0, 1><<<grid, b1, 0, s>>>(rows, cols, d_in, d_out);
}

/* The whole matrix on one GPU: the harness's one-GPU row. */
static void one_gpu(const float *d_in, float *d_out, long rows, long cols)
{
    launch(d_in, d_out, rows, cols, 0);
}

/* Packs chunk k of K of every block: for each rank q, this rank's rows of q's chunk k
   columns (a to a + w - 1), copied from d_in into d_send as a contiguous rp x w matrix at
   rp * a. tk_chunk_first starts every chunk on a 32-byte sector of q's d_recv and d_out. */
static void pack(struct tk_ranks *rk, int k, int K, cudaStream_t s)
{
    int p = rk->rank;
    long rp = rk->row0[p + 1] - rk->row0[p];
    for (int q = 0; q < rk->ranks; q++) {
        long a = tk_chunk_first(rk->col0, q, k, K), w = tk_chunk_first(rk->col0, q, k + 1, K) - a;
        if (rp && w)
            CUDA_CHECK(cudaMemcpy2DAsync(rk->d_send + rp * a, w * sizeof(float), rk->d_in + a,
                                         rk->cols * sizeof(float), w * sizeof(float), rp,
                                         cudaMemcpyDeviceToDevice, s));
    }
}

/* Exchanges chunk k: to each rank q, this rank's packed block of q's chunk (aq, wq); from
   each rank q, q's rows of this rank's chunk (a, w), stacked in rank order: the chunk's
   columns of the whole input, a rows x w matrix, at d_recv + rows * at, at = a - col0[p]. */
static void exchange(struct tk_ranks *rk, int k, int K, cudaStream_t s)
{
    int p = rk->rank;
    long rp = rk->row0[p + 1] - rk->row0[p];
    long a = tk_chunk_first(rk->col0, p, k, K), w = tk_chunk_first(rk->col0, p, k + 1, K) - a;
    float *chunk = rk->d_recv + rk->rows * (a - rk->col0[p]);
    NCCL_CHECK(ncclGroupStart());
    for (int q = 0; q < rk->ranks; q++) {
        long aq = tk_chunk_first(rk->col0, q, k, K);
        long wq = tk_chunk_first(rk->col0, q, k + 1, K) - aq;
        long rq = rk->row0[q + 1] - rk->row0[q];
        if (rp && wq)
            NCCL_CHECK(ncclSend(rk->d_send + rp * aq, rp * wq, ncclFloat, q, rk->comm, s));
        if (rq && w)
            NCCL_CHECK(ncclRecv(chunk + rk->row0[q] * w, rq * w, ncclFloat, q, rk->comm, s));
    }
    NCCL_CHECK(ncclGroupEnd());
}

/* Transposes chunk k: the rows x w matrix received becomes this rank's output rows at to
   at + w - 1, each rows floats long. */
static void transpose_chunk(struct tk_ranks *rk, int k, int K, cudaStream_t s)
{
    int p = rk->rank;
    long a = tk_chunk_first(rk->col0, p, k, K), w = tk_chunk_first(rk->col0, p, k + 1, K) - a;
    long at = a - rk->col0[p];   /* the chunk's first output row on this rank */
    if (w)
        launch(rk->d_recv + rk->rows * at, rk->d_out + at * rk->rows, rk->rows, w, s);
}

/* Stage (a): pack, exchange, transpose, one after the other on one stream, as one chunk. */
static void stage_a(struct tk_ranks *rk, cudaStream_t s)
{
    pack(rk, 0, 1, s);
    tk_ranks_mark(rk, s, "pack", 0);
    exchange(rk, 0, 1, s);
    tk_ranks_mark(rk, s, "exchange", 0);
    transpose_chunk(rk, 0, 1, s);
    tk_ranks_mark(rk, s, "transpose", 0);
}

#define CHUNKS 4   /* stage (b) moves every block in this many pieces */

/* Stage (b): stage (a) in CHUNKS pieces, the exchanges on a stream of their own, comm (a
   stream: the sends and receives still take the communicator rk->comm), ordered by events. */
static cudaStream_t comm;                            /* the exchanges' stream */
static cudaEvent_t packed[CHUNKS], arrived[CHUNKS];  /* chunk k packed; chunk k received */

static void stage_b(struct tk_ranks *rk, cudaStream_t s)
{
    pack(rk, 0, CHUNKS, s);
    CUDA_CHECK(cudaEventRecord(packed[0], s));
    tk_ranks_mark(rk, s, "pack", 0);
    for (int k = 0; k < CHUNKS; k++) {
        CUDA_CHECK(cudaStreamWaitEvent(comm, packed[k], 0));
        exchange(rk, k, CHUNKS, comm);
        CUDA_CHECK(cudaEventRecord(arrived[k], comm));
        tk_ranks_mark(rk, comm, "exchange", k);
        if (k + 1 < CHUNKS) {
            pack(rk, k + 1, CHUNKS, s);
            CUDA_CHECK(cudaEventRecord(packed[k + 1], s));
            tk_ranks_mark(rk, s, "pack", k + 1);
        }
        CUDA_CHECK(cudaStreamWaitEvent(s, arrived[k], 0));   /* chunk k is here */
        transpose_chunk(rk, k, CHUNKS, s);
        tk_ranks_mark(rk, s, "transpose", k);
    }
}

/* Stage (c): each window of this rank's tiles stored straight into its owner's window. */
#include "fused.cuh"   /* struct split, split_of, owner, step 7's stage_tile and store_pair */
template <int H, int VL>
__global__ void __launch_bounds__(THREADS, TK_CTAS_PER_SM)
fused_kernel(struct split sp, const float *__restrict__ in, ncclWindow_t win, ncclDevComm dev)
{
    __shared__ float tile[(TR + H) * (TC + 1)];
    ncclLsaBarrierSession<ncclCoopCta> bar(ncclCoopCta(), dev, ncclTeamTagLsa(), blockIdx.x);
    bar.sync(ncclCoopCta(), cuda::memory_order_acq_rel);   /* every rank's window is ready */
    int t = threadIdx.x, lane = t % 32;   /* blocks of one dimension, as ncclCoopCta counts */
    int nx = (sp.cols + TC - 1) / TC, tiles = nx * ((sp.rp + H + TR - 1) / TR);
    for (int b = blockIdx.x; b < tiles; b += gridDim.x) {
        int c0 = b % nx * TC, y0 = b / nx * TR;   /* the tile's first column and local row */
        stage_tile<H, VL>(tile, in, sp.rp, sp.cols, y0 - H, c0);
        __syncthreads();
        for (int j = t / 32; j < TC && c0 + j < sp.cols; j += THREADS / 32) {
            int c = c0 + j, q = owner(&sp, c);              /* output row c is rank q's */
            size_t at = (size_t)(c - sp.col0[q]) * sp.rows + sp.row0;   /* local row 0's place */
            float *o = (float *)ncclGetLsaPointer(win, at * sizeof(float), q);
            int r = y0 - (H ? (int)(at % 8) : 0) + 2 * lane;   /* its local rows r, r + 1 */
            store_pair(o, tile, j, r, r - (y0 - H), sp.rp);
        }
        __syncthreads();   /* every window read from the tile before the next is staged */
    }
    bar.sync(ncclCoopCta(), cuda::memory_order_acq_rel);   /* every store into every window done */
}

static void stage_c(struct tk_ranks *rk, cudaStream_t s)
{
    struct split sp = split_of(rk);
    bool shift = sp.rows % 8 != 0 || sp.row0 % 8 != 0;   /* some window's place off a sector */
    bool pairs = sp.cols % 2 == 0;                        /* input rows start on 8 bytes */
    if (shift && pairs)
        fused_kernel<HALO, 2><<<rk->ctas, THREADS, 0, s>>>(sp, rk->d_in, rk->win, *rk->dev);
    else if (shift)
        fused_kernel<HALO, 1><<<rk->ctas, THREADS, 0, s>>>(sp, rk->d_in, rk->win, *rk->dev);
    else if (pairs)
        fused_kernel<0, 2><<<rk->ctas, THREADS, 0, s>>>(sp, rk->d_in, rk->win, *rk->dev);
    else
        fused_kernel<0, 1><<<rk->ctas, THREADS, 0, s>>>(sp, rk->d_in, rk->win, *rk->dev);
}

int main(int argc, char **argv)
{
    struct tk_ranks rk;
    tk_ranks_begin(&rk, "step10", "GPU-fused", one_gpu, argc, argv);

    /* Stage (b)'s stream, of the highest priority, and its events, which order only work. */
    int lowest, highest;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lowest, &highest));
    CUDA_CHECK(cudaStreamCreateWithPriority(&comm, cudaStreamNonBlocking, highest));
    for (int k = 0; k < CHUNKS; k++) {
        CUDA_CHECK(cudaEventCreateWithFlags(&packed[k], cudaEventDisableTiming));
        CUDA_CHECK(cudaEventCreateWithFlags(&arrived[k], cudaEventDisableTiming));
    }

    tk_ranks_time(&rk, "GPU-alltoall", stage_a);
    tk_ranks_time(&rk, "GPU-alltoall-pipelined", stage_b);
    tk_ranks_time_window(&rk, "GPU-fused", stage_c);

    for (int k = 0; k < CHUNKS; k++) {
        CUDA_CHECK(cudaEventDestroy(packed[k]));
        CUDA_CHECK(cudaEventDestroy(arrived[k]));
    }
    CUDA_CHECK(cudaStreamDestroy(comm));
    return tk_ranks_end(&rk);
}
