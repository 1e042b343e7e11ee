/* The plain-tile row: the simplest tiled transpose worth measuring, so that nothing simpler
   than step 7 beats it unseen. One 64 x 64 tile a block of 256 threads (64 x 4, each moving
   16 floats each way), a tile padded by one float a row, the tiles in row-major order (a 1D
   grid: block b is tile row b / nx, tile column b % nx, so no grid's y limits a shape), no
   vector loads, no shifted windows. Timed by the same harness as the steps beside the copy
   ceiling of the same run; scripts/results/results.sh --sweep runs it on every shape.
   It is a yardstick, not a step.

   make -C scripts/baseline && scripts/baseline/plain-tile [-n N | --rows R --cols C] [--no-cpu] */
#include "harness.h"

#define T  64   /* the tile: T x T floats */
#define TY 4    /* rows of threads: a block is T x TY threads */

__global__ void __launch_bounds__(T * TY)
plain_tile(int rows, int cols, int nx, const float *__restrict__ in, float *__restrict__ out)
{
    __shared__ float tile[T][T + 1];
    int bx = blockIdx.x % nx, by = blockIdx.x / nx;   /* the tile's column and row */
    int c = bx * T + threadIdx.x;
    for (int k = threadIdx.y; k < T; k += TY) {
        int r = by * T + k;
        if (r < rows && c < cols)
            tile[k][threadIdx.x] = in[(size_t)r * cols + c];
    }
    __syncthreads();
    int oc = by * T + threadIdx.x;   /* column of out = row of in */
    for (int k = threadIdx.y; k < T; k += TY) {
        int orow = bx * T + k;       /* row of out = column of in */
        if (orow < cols && oc < rows)
            out[(size_t)orow * rows + oc] = tile[threadIdx.x][k];
    }
}

static void launch(const float *d_in, float *d_out, int rows, int cols)
{
    int nx = (cols + T - 1) / T, ny = (rows + T - 1) / T;
    plain_tile<<<(unsigned)nx * ny, dim3(T, TY)>>>(rows, cols, nx, d_in, d_out);
}

int main(int argc, char **argv)
{
    struct tk_run run;
    tk_begin(&run, "baseline", "plain-tile", argc, argv);
    do {   /* once; with --shapes, once a shape of its list */
        float *d_in = NULL, *d_out = NULL;
        CUDA_CHECK(cudaMalloc(&d_in, run.bytes));
        CUDA_CHECK(cudaMalloc(&d_out, run.bytes));
        CUDA_CHECK(cudaMemcpy(d_in, run.in, run.bytes, cudaMemcpyHostToDevice));
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
