/* Step 8 (bonus): a transpose across GPUs, through NCCL.

   The input is a rows x cols matrix stored row by row; the output is its transpose, cols x
   rows. Both are split over P GPUs by blocks of rows: rank p holds input rows row0[p] to
   row0[p + 1] - 1 and must end with output rows col0[p] to col0[p + 1] - 1, which are input
   columns. The harness (common/ranks/ranks.h) starts one process a GPU, joins them with NCCL,
   fills each rank's rows, times each stage on every rank beside two ceilings (NCCL moving the
   same blocks, and this step's kernel on the whole matrix on one GPU), and checks every
   rank's output element by element. Three stages: (a) pack, exchange, transpose; (b) the
   same in chunks, overlapped; (c) one kernel a rank that stores straight into every rank's
   output through NCCL's device API. */
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

/* BEYOND(step7): the block order. In a grid of one dimension (the launch gives one for all
   but a tall matrix) the blocks run one column band at a time from the top down, so that the
   H rows a block stages above its own were read by the block just before it and are still in
   the L2; a tall matrix keeps the 2D grid, whose order was faster there (step7/RESEARCH.md,
   "Block order"). Returns the block's column band (x) and its row of windows (y). */
template <int H>
__device__ __forceinline__ int2 block_of(int rows)
{
    int ny = (rows + H + TR - 1) / TR;            /* blocks down a column band */
    int bx = gridDim.y > 1 ? blockIdx.x : blockIdx.x / ny;
    int by = gridDim.y > 1 ? blockIdx.y : blockIdx.x % ny;
    return make_int2(bx, by);
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

/* Step 7's launch, on a stream. */
#include "panels.cuh"   /* step 7's panels for skinny shapes, unchanged */

static void launch(const float *d_in, float *d_out, int rows, int cols, cudaStream_t s)
{
    if (panel_shape(rows, cols)) {   /* a few rows or a few columns: step 7's panels */
        launch_panel(d_in, d_out, rows, cols, s);
        return;
    }
    bool shift = rows % 8 != 0;   /* output rows start off their sectors */
    bool pairs = cols % 2 == 0;   /* input rows start on 8 bytes */
    int nx = (cols + TC - 1) / TC, ny = (rows + (shift ? HALO : 0) + TR - 1) / TR;
    /* one dimension, run band by band, but for a tall matrix */
    dim3 grid = rows < 4L * cols ? dim3(nx * ny) : dim3(nx, ny);
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
   rank, p, holds rp = row0[p + 1] - row0[p] input rows in d_in, each cols floats long.
   Rank q needs, of those rows, its chunk k of columns: input columns a to a + w - 1, where
   a = tk_chunk_first(rk->col0, q, k, K) is the chunk's first column in the whole input and
   a + w is tk_chunk_first(rk->col0, q, k + 1, K) (common/matrix.h). That function cuts q's
   columns col0[q] .. col0[q + 1] - 1 into K chunks, each starting a multiple of 8 columns
   past col0[q], the last ending at col0[q + 1] (K = 1: one chunk, all of them; a chunk may
   be empty). Take every chunk boundary from it, here and in the next two functions, never
   from an even split (col0[q] + its width * k / K): rank q's transpose_chunk hands step
   7's kernel this chunk (a - col0[q]) * rows floats into its d_recv and its d_out, and the
   kernel takes both to start on a 32-byte sector, 8 floats, as a whole buffer does; its
   float2 loads and stores need 8 bytes at least (split evenly instead, 12345 x 6789 stops
   in stage (b) on a misaligned address).
   NCCL sends only contiguous memory. For each q, copy that block (rp rows of w floats, cols
   floats apart) into d_send as a contiguous rp x w matrix at d_send + rp * a. d_send holds
   tk_in_count(rk, p) = rp * cols floats, as d_in: the same rows, laid out block after block
   (all of q's columns, rp x (col0[q + 1] - col0[q]), from rp * col0[q]), each block chunk
   after chunk. One call of the CUDA runtime copies a strided 2D block, asynchronously on
   stream s. Skip empty blocks (rp or w zero): a rank holds no rows when there are more
   ranks than rows. */
static void pack(struct tk_ranks *rk, int k, int K, cudaStream_t s)
{
    (void)rk, (void)k, (void)K, (void)s;
}

/* TODO(step8): exchange chunk k of K. The names of pack, columns counted in the whole
   input: a and w are your own (rank p's) chunk k, aq and wq rank q's chunk k; and at =
   a - col0[p] counts your chunk's first column from your first one, col0[p], so it is also
   the chunk's first output row on this rank. In one NCCL group (so that no send waits for a
   receive posted later), send to every rank q, on stream s, the block you packed for it
   (rp x wq floats at d_send + rp * aq), and receive from every rank q its rows of your
   chunk (rq = row0[q + 1] - row0[q] rows, w floats each). Stacked in rank order, the
   received blocks form your chunk's columns of the whole input, a rows x w matrix,
   contiguous: put it at d_recv + rows * at, the block from q starting at its row row0[q].
   d_recv holds tk_out_count(rk, p) = (col0[p + 1] - col0[p]) * rows floats, as d_out: your
   columns of the whole input, chunk after chunk, each a rows x w matrix. The counts on both
   sides must agree, and a rank sends to and receives from itself too. Skip empty blocks on
   both sides alike. */
static void exchange(struct tk_ranks *rk, int k, int K, cudaStream_t s)
{
    (void)rk, (void)k, (void)K, (void)s;
}

/* TODO(step8): transpose chunk k of K on stream s with step 7's kernel. With a and w your
   chunk k (as in exchange) and at = a - col0[p]: the rows x w matrix received at d_recv +
   rows * at becomes this rank's output rows at to at + w - 1 (rows a to a + w - 1 of the
   whole output), each rows floats long, from d_out + at * rows. Skip an empty chunk. */
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
   exchange, so s ends after everything. Mark each chunk's pack, exchange and transpose.
   A stage takes only rk and s: declare the exchanges' stream and the events (one "packed"
   and one "arrived" a chunk) here, above stage_b, at file scope, for main to create and
   destroy. Only the stream changes: every send and receive still takes the communicator,
   rk->comm. */
static void stage_b(struct tk_ranks *rk, cudaStream_t s)
{
    (void)rk, (void)s;
}

/* Stage (c), fused: one kernel a rank. The output lies in a symmetric window
   (common/ranks/ranks.h, tk_ranks_time_window): rank q's output row c starts at element
   (c - col0[q]) * rows of q's window, and ncclGetLsaPointer(win, offset, q) is a pointer into
   it that plain stores reach, over NVLink where q is another GPU. What the kernel knows of
   the split: this rank's input rows, row0 to row0 + rp - 1 of the whole input, and every
   rank's first output row, col0[q] (q = 0 .. ranks; col0[ranks] = cols). */
struct split { int rows, cols, row0, rp, ranks; int col0[TK_MAX_RANKS + 1]; };

/* TODO(step8): stage (c)'s kernel. Why a third stage: stage (b)'s timeline (README, 16384 x
   16384 on two H200s) shows what packing and staging cost. Packing moves the rank's rows at
   about 1.6 TB/s, far from the 4 TB/s a transpose reaches; while packs and transposes share
   the GPU with an exchange, each of the four exchanges takes 0.31 ms, a third more than a
   quarter of the whole exchange's 0.93; the first pack and the last transpose hide behind
   nothing; and NCCL's all-to-all itself moved 503 GB/s at 8192 x 8192, against the 900 of
   NVLink 4. A kernel that stores each transposed tile straight into its final place moves
   every byte once, with no pack, no staging buffer and no exchange.
   Write fused_kernel: step 7's tile (TR + H input rows of TC columns staged, padded; then
   windows of TR floats of one output row, a float2 a thread) on this rank's sp.rp input rows,
   local row i being row sp.row0 + i of the whole input (in holds them, sp.cols floats
   apart), each window stored into the window of the rank q that holds its output row c
   (col0[q] <= c < col0[q + 1]; find q with a loop over the ranks). In q's window, output row
   c starts at element (c - col0[q]) * rows, and this rank's rows fill its floats from row0
   on; ncclGetLsaPointer(win, offset in bytes, q) points at any element of q's window, this
   rank's own included. Whole sectors: where that place of local row 0 is not a multiple of 8
   floats, each window starts that many floats early (H = HALO), as step 7 shifts a window by
   the place of a row of the whole output. The grid: stage_c launches rk->ctas blocks on every
   rank, each looping over the tiles (a tile a turn, stepping by the grid). Each block syncs
   with its namesakes on every rank before its first store and after its last, through an LSA
   barrier session (ncclLsaBarrierSession over a CTA's cooperative group, on dev, the LSA
   team, barrier blockIdx.x: nccl_device/lsa_barrier.h) with acquire and release order: no
   rank may store into a window before its owner has reached the kernel (the harness poisons
   every window before each run), and no kernel may end before every store into its own
   window has landed. Exact on every shape: guard loads and stores by this rank's rows and by
   cols, as step 7 guards by rows and cols; a rank may hold no rows, and still syncs. */
template <int H, int VL>
__global__ void __launch_bounds__(THREADS, TK_CTAS_PER_SM)
fused_kernel(struct split sp, const float *__restrict__ in, ncclWindow_t win, ncclDevComm dev)
{
    (void)sp, (void)in, (void)win, (void)dev;
}

/* TODO(step8): stage (c)'s launch. Fill a struct split for this rank (rk->rows, rk->cols, its
   first input row and how many it holds, rk->ranks, and col0[q] for q = 0 .. ranks, as ints),
   choose fused_kernel's template as step 7's launch does (H = HALO where some window's place
   is off its sector: rows, or this rank's first row, not a multiple of 8; VL = 2 where cols is
   even), and launch rk->ctas blocks of step 7's shape on stream s, with rk->d_in, the window
   rk->win and the device communicator *rk->dev, passed by value. Every rank launches exactly
   rk->ctas blocks, even one without rows: the harness made one LSA barrier a block, and a
   block waits at its barrier for its namesake on every rank. */
static void stage_c(struct tk_ranks *rk, cudaStream_t s)
{
    (void)rk, (void)s;
}

int main(int argc, char **argv)
{
    struct tk_ranks rk;
    /* TODO(step8): delete this call once the TODOs above are done: it makes ./transpose
       report the step as unfinished. */
    tk_ranks_unfinished();
    tk_ranks_begin(&rk, "step8", "GPU-fused", one_gpu, argc, argv);

    /* TODO(step8): stage (b)'s stream and its events (declared above stage_b): a
       non-blocking stream of the highest priority the device offers (so that an exchange
       starts before the transposes queued behind it), and two events a chunk, without
       timing. */

    tk_ranks_time(&rk, "GPU-alltoall", stage_a);
    tk_ranks_time(&rk, "GPU-alltoall-pipelined", stage_b);
    tk_ranks_time_window(&rk, "GPU-fused", stage_c);

    /* TODO(step8): destroy what main created for stage (b). */

    return tk_ranks_end(&rk);
}
