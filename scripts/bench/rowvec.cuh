/* The row-vector scheme of the common public kernels, generalised to rectangular tiles.

   A block moves a TR x TC tile of the input (TR rows, TC columns) through a shared tile
   padded by one float per row. Loading, each thread reads V floats of one input row as a
   vector and writes them one by one into the shared tile; storing, each thread gathers V
   floats of one shared column and writes them as one vector of an output row. The block
   has (TC / V) x BY threads. Other shapes (edge tiles, sizes not divisible by V) go one
   float at a time. */
#pragma once
#include "tiles.cuh"

template <int TR, int TC, int V, int BY>
__global__ void __launch_bounds__((TC / V) * BY)
rowvec_kernel(int rows, int cols, const float *__restrict__ in, float *__restrict__ out)
{
    typedef typename vec<V>::t vt;
    const int N = (TC / V) * BY;     /* threads in the block */
    const int SX = TR / V, SY = N / SX;   /* the store phase's threads: SX across, SY down */
    static_assert(N % SX == 0 && TR % BY == 0 && TC % SY == 0, "tile and block must fit");
    __shared__ float tile[TR][TC + 1];

    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * (TC / V) + tx;
    const int r0 = blockIdx.y * TR, c0 = blockIdx.x * TC;
    const bool fast = rows % V == 0 && cols % V == 0 && r0 + TR <= rows && c0 + TC <= cols;

    if (fast) {
        #pragma unroll
        for (int r = ty; r < TR; r += BY) {
            vt a = *reinterpret_cast<const vt *>(in + (size_t)(r0 + r) * cols + c0 + tx * V);
            #pragma unroll
            for (int i = 0; i < V; i++)
                tile[r][tx * V + i] = get<V>(a, i);
        }
        __syncthreads();
        const int sx = t % SX, sy = t / SX;
        #pragma unroll
        for (int c = sy; c < TC; c += SY) {
            vt b;
            #pragma unroll
            for (int i = 0; i < V; i++)
                set<V>(b, i, tile[sx * V + i][c]);
            *reinterpret_cast<vt *>(out + (size_t)(c0 + c) * rows + r0 + sx * V) = b;
        }
    } else {
        for (int e = t; e < TR * TC; e += N) {
            int r = e / TC, c = e % TC;
            if (r0 + r < rows && c0 + c < cols)
                tile[r][c] = in[(size_t)(r0 + r) * cols + c0 + c];
        }
        __syncthreads();
        for (int e = t; e < TR * TC; e += N) {
            int c = e / TR, r = e % TR;
            if (c0 + c < cols && r0 + r < rows)
                out[(size_t)(c0 + c) * rows + r0 + r] = tile[r][c];
        }
    }
}

template <int TR, int TC, int V, int BY>
static void launch_rowvec(const float *d_in, float *d_out, int rows, int cols)
{
    rowvec_kernel<TR, TC, V, BY><<<grid_over(rows, cols, TR, TC), dim3(TC / V, BY)>>>(
        rows, cols, d_in, d_out);
}
