/* The square-tile kernels of the lever benchmark (levers.cu): one templated tile kernel,
   its persistent form and step 5's kernel as the starting point. */
#pragma once
#include "harness.h"

template <int V> struct vec;
template <> struct vec<1> { typedef float  t; };
template <> struct vec<2> { typedef float2 t; };
template <> struct vec<4> { typedef float4 t; };

template <int V> __device__ __forceinline__ float get(const typename vec<V>::t &v, int i)
{
    return reinterpret_cast<const float *>(&v)[i];
}
template <int V> __device__ __forceinline__ void set(typename vec<V>::t &v, int i, float x)
{
    reinterpret_cast<float *>(&v)[i] = x;
}

/* The grid that covers a rows x cols input with blocks of th x tw floats each. */
static inline dim3 grid_over(int rows, int cols, int th, int tw)
{
    return dim3((cols + tw - 1) / tw, (rows + th - 1) / th);
}

template <typename T, bool CS> __device__ __forceinline__ T load(const T *p)
{
    if (CS) return __ldcs(p);
    return *p;
}
template <typename T, bool CS> __device__ __forceinline__ void store(T *p, T v)
{
    if (CS) __stcs(p, v);
    else *p = v;
}

/* The shared tile holds the transposed tile: row c of it is row c of the output block.
   Where element (c, r) lives: with XOR, chunk r / V of row c moves to chunk
   (r / V) ^ ((c / V) % (32 / V)), so that both phases spread over all banks. */
template <int TILE, int V, bool XOR>
__device__ __forceinline__ int at(int c, int r)
{
    const int P = 32 / V;                      /* chunks in one pass over the 32 banks */
    const int STRIDE = XOR ? TILE : TILE + V;  /* padded rows stay V-aligned */
    int chunk = XOR ? ((r / V) ^ ((c / V) % P)) : r / V;
    return c * STRIDE + chunk * V + r % V;
}

/* Which tile (tile_x across the input's columns, tile_y down its rows) this block moves.
   ORDER 0: as launched; 1: column-major; G > 1: groups of G tile rows; -1: diagonal
   (consecutive blocks step one tile down and one to the right, wrapping around). */
template <int ORDER>
__device__ __forceinline__ void which_tile(int *tile_x, int *tile_y)
{
    int ntx = gridDim.x, nty = gridDim.y, id = blockIdx.y * ntx + blockIdx.x;
    if (ORDER == 0) {
        *tile_x = blockIdx.x, *tile_y = blockIdx.y;
    } else if (ORDER == 1) {
        *tile_x = id / nty, *tile_y = id % nty;
    } else if (ORDER == -1) {
        *tile_y = id % nty, *tile_x = (id / nty + id % nty) % ntx;
    } else {
        int first = id / (ORDER * ntx) * ORDER;           /* first tile row of the group */
        int size = min(ORDER, nty - first), within = id % (ORDER * ntx);
        *tile_x = within / size, *tile_y = first + within % size;
    }
}

/* The pieces a tile kernel is made of. r0, c0: the tile's first row and column in the input.
   A thread is (tx, ty) of a (TILE / V) x BY block. */

/* Group g of V input rows, loaded as V vectors a[i] (row g * V + i, columns tx * V ...),
   goes into the shared tile transposed: V vectors, one per tile row. */
template <int TILE, int V, bool XOR>
__device__ __forceinline__ void block_into_tile(float *tile, const typename vec<V>::t (&a)[V],
                                                int g)
{
    #pragma unroll
    for (int j = 0; j < V; j++) {
        typename vec<V>::t b;
        #pragma unroll
        for (int i = 0; i < V; i++)
            set<V>(b, i, get<V>(a[i], j));
        *reinterpret_cast<typename vec<V>::t *>(&tile[at<TILE, V, XOR>(threadIdx.x * V + j,
                                                                        g * V)]) = b;
    }
}

/* The whole transposed tile out, one vector a thread a row. */
template <int TILE, int V, int BY, bool XOR, bool CS>
__device__ __forceinline__ void tile_out(float *__restrict__ out, const float *tile, int rows,
                                         int r0, int c0)
{
    typedef typename vec<V>::t vt;
    #pragma unroll
    for (int k = 0; k < TILE / BY; k++) {
        const int c = threadIdx.y + k * BY;   /* the output row of the tile this pass writes */
        store<vt, CS>(reinterpret_cast<vt *>(out + (size_t)(c0 + c) * rows + r0 + threadIdx.x * V),
                      *reinterpret_cast<const vt *>(&tile[at<TILE, V, XOR>(c, threadIdx.x * V)]));
    }
}

/* Edge tiles and sizes that break vector alignment: one float at a time, guarded. */
template <int TILE, int V, int BY, bool XOR>
__device__ __forceinline__ void scalar_into_tile(float *tile, const float *__restrict__ in,
                                                 int rows, int cols, int r0, int c0)
{
    for (int e = threadIdx.y * (TILE / V) + threadIdx.x; e < TILE * TILE; e += (TILE / V) * BY) {
        int r = e / TILE, c = e % TILE;
        if (r0 + r < rows && c0 + c < cols)
            tile[at<TILE, V, XOR>(c, r)] = in[(size_t)(r0 + r) * cols + c0 + c];
    }
}
template <int TILE, int V, int BY, bool XOR>
__device__ __forceinline__ void scalar_tile_out(float *__restrict__ out, const float *tile,
                                                int rows, int cols, int r0, int c0)
{
    for (int e = threadIdx.y * (TILE / V) + threadIdx.x; e < TILE * TILE; e += (TILE / V) * BY) {
        int c = e / TILE, r = e % TILE;
        if (c0 + c < cols && r0 + r < rows)
            out[(size_t)(c0 + c) * rows + r0 + r] = tile[at<TILE, V, XOR>(c, r)];
    }
}

/* Moves tile (bx, by) of the input through the shared tile into its place in the output. */
template <int TILE, int V, int BY, bool XOR, bool CS>
__device__ __forceinline__ void move_tile(int rows, int cols, const float *__restrict__ in,
                                          float *__restrict__ out, float *tile, int bx, int by)
{
    static_assert((TILE / V) % BY == 0, "BY must divide the tile's rows of vectors");
    typedef typename vec<V>::t vt;
    const int r0 = by * TILE, c0 = bx * TILE;   /* the block's input tile */
    const bool fast = (rows % V == 0) && (cols % V == 0) && r0 + TILE <= rows &&
                      c0 + TILE <= cols;

    if (fast) {
        /* Each thread loads V x V blocks: V vectors from V consecutive rows, then writes
           their transpose as V vectors into the tile. */
        #pragma unroll
        for (int k = 0; k < TILE / V / BY; k++) {
            const int g = threadIdx.y + k * BY;   /* this pass's group of V rows */
            vt a[V];
            #pragma unroll
            for (int i = 0; i < V; i++)
                a[i] = load<vt, CS>(reinterpret_cast<const vt *>(
                    in + (size_t)(r0 + g * V + i) * cols + c0 + threadIdx.x * V));
            block_into_tile<TILE, V, XOR>(tile, a, g);
        }
        __syncthreads();
        tile_out<TILE, V, BY, XOR, CS>(out, tile, rows, r0, c0);
    } else {
        scalar_into_tile<TILE, V, BY, XOR>(tile, in, rows, cols, r0, c0);
        __syncthreads();
        scalar_tile_out<TILE, V, BY, XOR>(out, tile, rows, cols, r0, c0);
    }
}

/* TAG only makes a separate copy of the kernel, whose attributes can be set apart. */
template <int TILE, int V, int BY, bool XOR, bool CS, int ORDER = 0, int TAG = 0>
__global__ void __launch_bounds__((TILE / V) * BY)
tile_kernel(int rows, int cols, const float *__restrict__ in, float *__restrict__ out)
{
    extern __shared__ __align__(16) float tile[];   /* TILE * (XOR ? TILE : TILE + V) */
    int bx, by;
    which_tile<ORDER>(&bx, &by);
    move_tile<TILE, V, BY, XOR, CS>(rows, cols, in, out, tile, bx, by);
}

/* One block moves SX x SY neighbouring tiles, one after another: with SY > 1 it writes
   SY * TILE consecutive floats of each of its output rows, with SX > 1 it reads SX * TILE
   consecutive floats of each of its input rows. */
template <int TILE, int V, int BY, int SX, int SY>
__global__ void __launch_bounds__((TILE / V) * BY)
stack_kernel(int rows, int cols, const float *__restrict__ in, float *__restrict__ out)
{
    extern __shared__ __align__(16) float tile[];
    for (int j = 0; j < SY; j++)
        for (int i = 0; i < SX; i++) {
            int bx = blockIdx.x * SX + i, by = blockIdx.y * SY + j;
            if (bx * TILE < cols && by * TILE < rows)
                move_tile<TILE, V, BY, true, false>(rows, cols, in, out, tile, bx, by);
            __syncthreads();   /* the tile is read out before the next one is written */
        }
}

template <int TILE, int V, int BY, int SX, int SY>
static void launch_stack(const float *d_in, float *d_out, int rows, int cols)
{
    stack_kernel<TILE, V, BY, SX, SY><<<grid_over(rows, cols, SY * TILE, SX * TILE),
                                        dim3(TILE / V, BY), sizeof(float) * TILE * TILE>>>(
        rows, cols, d_in, d_out);
}

template <int TILE, int V, int BY, bool XOR, bool CS, int ORDER = 0>
static void launch(const float *d_in, float *d_out, int rows, int cols)
{
    size_t smem = sizeof(float) * TILE * (XOR ? TILE : TILE + V);
    static int opted_in;   /* once, so that the timed launches do no more host work */
    if (smem > 48 * 1024 && !opted_in) {   /* past 48 KB a kernel must opt in */
        CUDA_CHECK(cudaFuncSetAttribute(tile_kernel<TILE, V, BY, XOR, CS, ORDER>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        opted_in = 1;
    }
    tile_kernel<TILE, V, BY, XOR, CS, ORDER><<<grid_over(rows, cols, TILE, TILE),
                                               dim3(TILE / V, BY), smem>>>(rows, cols, d_in, d_out);
}

/* A square-tile layout with at most N blocks on a multiprocessor: each block asks for 1/N of
   the multiprocessor's shared memory, most of it unused. Fewer blocks at once keep fewer
   tile rows, and fewer bytes, in flight. CARVE: instead, ask (a hint) for a shared-memory
   carveout of 64 KB a multiprocessor, where only three 16 KB tiles fit. */
template <int TILE, int V, int BY, int N, bool CARVE = false>
static void launch_limited(const float *d_in, float *d_out, int rows, int cols)
{
    auto kernel = tile_kernel<TILE, V, BY, true, false, 0, 1 + N + 10 * CARVE>;
    static int smem = -1;
    if (smem < 0) {
        int dev, per_sm, reserved;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor,
                                          dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock,
                                          dev));
        smem = CARVE ? (int)sizeof(float) * TILE * TILE : (per_sm / N - reserved) / 128 * 128;
        CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        smem));
        if (CARVE)
            CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                            64 * 1024 * 100 / per_sm));
    }
    kernel<<<grid_over(rows, cols, TILE, TILE), dim3(TILE / V, BY), smem>>>(rows, cols, d_in,
                                                                           d_out);
}

/* Persistent and pipelined: one wave of blocks walks the tiles; while a block stores tile t
   from shared memory, the loads of its next tile are already in flight into registers.
   Edge tiles and unaligned sizes take a scalar path through the same loop. */
template <int TILE, int V, int BY>
__global__ void __launch_bounds__((TILE / V) * BY)
persistent_kernel(int rows, int cols, const float *__restrict__ in, float *__restrict__ out)
{
    typedef typename vec<V>::t vt;
    const int K = TILE / V / BY;   /* groups of V rows per thread */
    extern __shared__ __align__(16) float tile[];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int ntx = (cols + TILE - 1) / TILE, ntiles = ntx * ((rows + TILE - 1) / TILE);
    const bool aligned = rows % V == 0 && cols % V == 0;
    vt a[K][V];

    int t = blockIdx.x;
    #define FULL(t) (aligned && ((t) / ntx + 1) * TILE <= rows && ((t) % ntx + 1) * TILE <= cols)
    #define LOAD(t) do { int r0_ = (t) / ntx * TILE, c0_ = (t) % ntx * TILE;                 \
        _Pragma("unroll") for (int k = 0; k < K; k++)                                        \
        _Pragma("unroll") for (int i = 0; i < V; i++)                                        \
            a[k][i] = *reinterpret_cast<const vt *>(                                         \
                in + (size_t)(r0_ + (ty + k * BY) * V + i) * cols + c0_ + tx * V); } while (0)
    if (t < ntiles && FULL(t))
        LOAD(t);
    for (; t < ntiles; t += gridDim.x) {
        const int r0 = t / ntx * TILE, c0 = t % ntx * TILE;
        const bool full = FULL(t);
        __syncthreads();   /* the previous tile has been read out of shared memory */
        if (full) {
            #pragma unroll
            for (int k = 0; k < K; k++)
                block_into_tile<TILE, V, true>(tile, a[k], ty + k * BY);
        } else {
            scalar_into_tile<TILE, V, BY, true>(tile, in, rows, cols, r0, c0);
        }
        __syncthreads();
        int next = t + gridDim.x;
        if (next < ntiles && FULL(next))
            LOAD(next);   /* in flight while this tile is stored */
        if (full)
            tile_out<TILE, V, BY, true, false>(out, tile, rows, r0, c0);
        else
            scalar_tile_out<TILE, V, BY, true>(out, tile, rows, cols, r0, c0);
    }
    #undef FULL
    #undef LOAD
}

/* WAVES resident blocks per multiprocessor's worth, as many as fit. */
template <int TILE, int V, int BY, int WAVES>
static void launch_persistent(const float *d_in, float *d_out, int rows, int cols)
{
    static int grid = 0;
    size_t smem = sizeof(float) * TILE * TILE;
    if (!grid) {
        int dev, sms, per_sm;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        if (smem > 48 * 1024)
            CUDA_CHECK(cudaFuncSetAttribute(persistent_kernel<TILE, V, BY>,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm, persistent_kernel<TILE, V, BY>, (TILE / V) * BY, smem));
        grid = sms * per_sm * WAVES;
    }
    persistent_kernel<TILE, V, BY><<<grid, dim3(TILE / V, BY), smem>>>(rows, cols, d_in, d_out);
}
