/* Step 8 (bonus): a transpose across GPUs, through NCCL.

   The input is a rows x cols matrix stored row by row; the output is its transpose, cols x
   rows. Both are split over P GPUs by blocks of rows: rank p holds input rows row0[p] to
   row0[p + 1] - 1 and must end with output rows col0[p] to col0[p + 1] - 1, which are input
   columns. The harness (common/ranks.h) starts one process a GPU, joins them with NCCL,
   fills each rank's rows, times each stage on every rank beside two ceilings (NCCL moving the
   same blocks, and this step's kernel on the whole matrix on one GPU), and checks every
   rank's output element by element. */
#include "ranks.h"

/* Step 7's kernel, unchanged: each rank's local transpose. */
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
    const int S = TC + 1;                         /* a staged row, padded by one float */
    const int BX = TC / VL, BY = THREADS / BX;    /* the block: BX threads across, BY down */
    __shared__ float tile[(TR + H) * S];

    int tx = threadIdx.x, ty = threadIdx.y;
    int c0 = blockIdx.x * TC;                     /* the block's first input column */
    int rs = blockIdx.y * TR - H;                 /* its first staged input row, maybe < 0 */

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
        int c = c0 + j;                                        /* the output row */
        int r = blockIdx.y * TR - (H ? skew(c, rows) : 0) + 2 * lane;   /* its floats r, r+1 */
        int i = r - rs;                                        /* staged as rows i, i + 1 */
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

/* Step 7's launch, on a stream. */
static void launch(const float *d_in, float *d_out, int rows, int cols, cudaStream_t s)
{
    bool shift = rows % 8 != 0;   /* output rows start off their sectors */
    bool pairs = cols % 2 == 0;   /* input rows start on 8 bytes */
    dim3 grid((cols + TC - 1) / TC, (rows + (shift ? HALO : 0) + TR - 1) / TR);
    dim3 b2(TC / 2, THREADS * 2 / TC), b1(TC, THREADS / TC);
    if (shift && pairs)
        transpose_kernel<HALO, 2><<<grid, b2, 0, s>>>(rows, cols, d_in, d_out);
    else if (shift)
        transpose_kernel<HALO, 1><<<grid, b1, 0, s>>>(rows, cols, d_in, d_out);
    else if (pairs)
        transpose_kernel<0, 2><<<grid, b2, 0, s>>>(rows, cols, d_in, d_out);
    else
        transpose_kernel<0, 1><<<grid, b1, 0, s>>>(rows, cols, d_in, d_out);
}

/* The whole matrix on one GPU: the harness's one-GPU row. */
static void one_gpu(const float *d_in, float *d_out, int rows, int cols)
{
    launch(d_in, d_out, rows, cols, 0);
}

#define CHUNKS 4   /* stage (b) moves every block in this many pieces */

/* TODO(step8): pack chunk k of K of every block. (Stage (a), below, packs, exchanges and
   transposes the whole exchange as one chunk: write these three functions first.) This
   rank holds rows row0[p] to row0[p + 1] - 1 of the input in d_in, each cols floats long;
   rank q needs, of those rows, its chunk k of columns: from tk_chunk_first(rk->col0, q, k,
   K) up to tk_chunk_first(rk->col0, q, k + 1, K). NCCL sends only contiguous memory. For
   each q, copy that block (rp rows of w floats, cols floats apart) into d_send as a
   contiguous matrix, where it would sit if every rank's columns were packed one after
   another: for a chunk starting at column a, rp * a floats in. One call of the CUDA runtime
   copies a strided 2D block, asynchronously on stream s. Skip empty blocks (rp or w zero):
   a rank holds no rows when there are more ranks than rows. */
static void pack(struct tk_ranks *rk, int k, int K, cudaStream_t s)
{
    (void)rk, (void)k, (void)K, (void)s;
}

/* TODO(step8): exchange chunk k of K. In one NCCL group (so that no send waits for a
   receive posted later), send to every rank q, on stream s, the block you packed for it, and
   receive from every rank q its rows of your own chunk (rows row0[q] .. row0[q + 1] - 1, w
   floats each). Stack the received blocks in rank order: they then form the chunk's columns
   of the whole input, a rows x w matrix, contiguous. Put that matrix at
   d_recv + rows * (a - col0[p]), a being your chunk's first column: d_recv then holds your
   columns chunk after chunk. The counts on both sides must agree, and a rank sends to and
   receives from itself too. Skip empty blocks on both sides alike. */
static void exchange(struct tk_ranks *rk, int k, int K, cudaStream_t s)
{
    (void)rk, (void)k, (void)K, (void)s;
}

/* TODO(step8): transpose chunk k of K on stream s with step 7's kernel: the rows x w matrix
   received at d_recv + rows * a (a: the chunk's first column, counted from col0[p]) becomes
   your output rows a to a + w - 1, each rows floats long, at d_out + a * rows. */
static void transpose_chunk(struct tk_ranks *rk, int k, int K, cudaStream_t s)
{
    (void)rk, (void)k, (void)K, (void)s;
}

/* Stage (a): pack, exchange, transpose, one after the other on one stream. */
static void stage_a(struct tk_ranks *rk, cudaStream_t s)
{
    pack(rk, 0, 1, s);
    tk_ranks_mark(rk, s, "pack", 0);
    exchange(rk, 0, 1, s);
    tk_ranks_mark(rk, s, "exchange", 0);
    transpose_chunk(rk, 0, 1, s);
    tk_ranks_mark(rk, s, "transpose", 0);
}

/* TODO(step8): stage (b), the exchange in CHUNKS pieces, pipelined. The timeline of stage
   (a) (--timeline) shows its three parts one after the other; here each chunk's pack, its
   exchange and its transpose overlap with other chunks' work. Run the exchanges on a stream
   of their own (created in main, of the highest priority) and order the work with events:
   chunk k's exchange waits until chunk k is packed; chunk k's transpose, on s, waits until
   chunk k has arrived; the next chunk is packed on s while chunk k is exchanged. Every piece
   of work must end up ordered before s's later work: the last transposes wait for the last
   exchange, so s ends after everything. Mark each chunk's pack, exchange and transpose. */
static void stage_b(struct tk_ranks *rk, cudaStream_t s)
{
    (void)rk, (void)s;
}

int main(int argc, char **argv)
{
    struct tk_ranks rk;
    /* TODO(step8): delete this call once the TODOs above are done: it makes ./transpose
       report the step as unfinished. */
    tk_ranks_unfinished();
    tk_ranks_begin(&rk, "step8", "GPU-alltoall-pipelined", one_gpu, argc, argv);

    /* TODO(step8): stage (b)'s stream and its events: a non-blocking stream of the highest
       priority the device offers (so that an exchange starts before the transposes queued
       behind it), and two events a chunk, without timing. */

    tk_ranks_time(&rk, "GPU-alltoall", stage_a);
    tk_ranks_time(&rk, "GPU-alltoall-pipelined", stage_b);

    /* TODO(step8): destroy what main created for stage (b). */

    return tk_ranks_end(&rk);
}
