/* Step 10's support for its fused kernel (transpose.cu includes it after step 7's kernel,
   whose constants TC, TR and THREADS it uses): what the kernel knows of the split, which
   rank holds an output row, and step 7's kernel's two halves, its staging of a tile and its
   store of a float2 of a window, each taken out whole. The exercise is in transpose.cu: where
   each window goes, and the barriers around it. */

/* What the kernel knows of the split: this rank's input rows, row0 to row0 + rp - 1 of the
   whole input, and every rank's first output row, col0[q] (q = 0 .. ranks; col0[ranks] =
   cols). */
struct split { int rows, cols, row0, rp, ranks; int col0[TK_MAX_RANKS + 1]; };

/* This rank's split, as the kernel takes it (by value). Its sides are ints: step 10 refuses a
   side past one before any work (the harness, tk_side_refusal). */
static struct split split_of(const struct tk_ranks *rk)
{
    int p = rk->rank;
    struct split sp = { (int)rk->rows, (int)rk->cols, (int)rk->row0[p], (int)(rk->row0[p + 1] - rk->row0[p]),
                        rk->ranks, { 0 } };
    for (int q = 0; q <= rk->ranks; q++)
        sp.col0[q] = (int)rk->col0[q];
    return sp;
}

/* The rank whose output rows hold output row c: col0[q] <= c < col0[q + 1]. */
__device__ __forceinline__ int owner(const struct split *sp, int c)
{
    int q = 0;
    while (q + 1 < sp->ranks && sp->col0[q + 1] <= c)
        q++;
    return q;
}

/* Step 7's staging: TR + H rows of the TC columns from c0 on, from row rs on (rs < 0 for the
   HALO rows above the first), into tile (rows TC + 1 floats apart), a float2 a thread where
   VL = 2; rows and cols bound it. The caller syncs the block after it. */
template <int H, int VL>
__device__ __forceinline__ void stage_tile(float *tile, const float *__restrict__ in, int rows,
                                           int cols, int rs, int c0)
{
    const int S = TC + 1;                         /* a staged row, padded by one float */
    const int BX = TC / VL, BY = THREADS / BX;    /* the block: BX threads across, BY down */
    int t = threadIdx.y * blockDim.x + threadIdx.x;   /* a block of one or two dimensions */
    int tx = t % BX, ty = t / BX;
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
}

/* Step 7's store of one lane's float2 of a window: floats r and r + 1 of the output row that
   o points at, from column j of tile, staged as rows i and i + 1; only floats 0 to rows - 1
   of the row are stored, a float2 where both are (o + r on 8 bytes), one float at its ends. */
__device__ __forceinline__ void store_pair(float *o, const float *tile, int j, int r, int i,
                                           int rows)
{
    const int S = TC + 1;
    if (r >= 0 && r + 2 <= rows) {
        *(float2 *)&o[r] = make_float2(tile[i * S + j], tile[(i + 1) * S + j]);
    } else {   /* the ends of the row */
        if (r >= 0 && r < rows)
            o[r] = tile[i * S + j];
        if (r + 1 >= 0 && r + 1 < rows)
            o[r + 1] = tile[(i + 1) * S + j];
    }
}
