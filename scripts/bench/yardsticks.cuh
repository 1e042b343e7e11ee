/* Yardsticks: kernels that copy instead of transposing, timed and checked like the levers
   (the harness compares their output with the input itself).

   copy-vV        each thread copies one vector of V floats: the simplest full-speed copy
   copy-v4-uU[-cs|-pf]  each thread copies U float4s, all U loaded before the first store
                  (more bytes in flight a thread); cs: streaming hints (__ldcs / __stcs);
                  pf: loads that ask the L2 to fetch the whole 256-byte block around them
                  (ld.global.L2::256B, compute capability 8.0 and above; a plain load below).
                  They ask how near a kernel's copy comes to cudaMemcpy's; copy-v4 itself
                  ran at 99.7 to 102.6% of it on the H100 and the H200 (the lever runs in
                  results/research/loads-in-flight/h100-levers-wide.txt and
                  results/research/block-order/h200-copies.txt).
   tilecopy-vV    step 6's block structure without the transpose: a 64 x 64 tile goes through
                  shared memory, (64 / V) x 16 threads, a barrier between load and store, and
                  is written back where it came from. Beside the transpose of the same
                  structure it separates what the tile structure costs from what the
                  transposed write pattern costs. */
#pragma once
#include "tiles.cuh"

template <int V>
__global__ void copy_kernel(size_t n, const float *__restrict__ in, float *__restrict__ out)
{
    typedef typename vec<V>::t vt;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / V)
        reinterpret_cast<vt *>(out)[i] = reinterpret_cast<const vt *>(in)[i];
    if (i < n % V)   /* the last n % V floats, one each */
        out[n / V * V + i] = in[n / V * V + i];
}

template <int V>
static void launch_copy(const float *d_in, float *d_out, int rows, int cols)
{
    size_t n = (size_t)rows * cols, threads = n / V > V ? n / V : V;
    copy_kernel<V><<<(unsigned)((threads + 255) / 256), 256>>>(n, d_in, d_out);
}

/* A float4 load: plain, streaming (M = 1) or with the L2's 256-byte fetch (M = 2). */
template <int M>
__device__ __forceinline__ float4 load4(const float4 *p)
{
    if (M == 1) return __ldcs(p);
#if __CUDA_ARCH__ >= 800
    if (M == 2) {
        float4 v;
        asm volatile("ld.global.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
        return v;
    }
#endif
    return *p;
}

template <int U, int M>
__global__ void __launch_bounds__(256)
copy_many_kernel(size_t n, const float *__restrict__ in, float *__restrict__ out)
{
    const float4 *i4 = reinterpret_cast<const float4 *>(in);
    float4 *o4 = reinterpret_cast<float4 *>(out);
    const size_t n4 = n / 4, base = (size_t)blockIdx.x * 256 * U + threadIdx.x;
    float4 v[U];
    #pragma unroll
    for (int u = 0; u < U; u++)
        if (base + u * 256 < n4) v[u] = load4<M>(i4 + base + u * 256);
    #pragma unroll
    for (int u = 0; u < U; u++)
        if (base + u * 256 < n4) {
            if (M == 1) __stcs(o4 + base + u * 256, v[u]);
            else o4[base + u * 256] = v[u];
        }
    if (blockIdx.x == 0 && threadIdx.x < n % 4)   /* the last n % 4 floats */
        out[n4 * 4 + threadIdx.x] = in[n4 * 4 + threadIdx.x];
}

template <int U, int M>
static void launch_copy_many(const float *d_in, float *d_out, int rows, int cols)
{
    size_t n = (size_t)rows * cols, per = (size_t)256 * U * 4;   /* floats a block */
    copy_many_kernel<U, M><<<(unsigned)((n + per - 1) / per), 256>>>(n, d_in, d_out);
}

template <int V>
__global__ void __launch_bounds__((64 / V) * 16)
tilecopy_kernel(int rows, int cols, const float *__restrict__ in, float *__restrict__ out)
{
    typedef typename vec<V>::t vt;
    __shared__ __align__(16) float tile[64 * 64];
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * (64 / V) + tx;
    const int r0 = blockIdx.y * 64, c0 = blockIdx.x * 64;
    if (cols % V == 0 && r0 + 64 <= rows && c0 + 64 <= cols) {
        #pragma unroll
        for (int r = ty; r < 64; r += 16)
            *reinterpret_cast<vt *>(&tile[r * 64 + tx * V]) =
                *reinterpret_cast<const vt *>(in + (size_t)(r0 + r) * cols + c0 + tx * V);
        __syncthreads();
        #pragma unroll
        for (int r = ty; r < 64; r += 16)
            *reinterpret_cast<vt *>(out + (size_t)(r0 + r) * cols + c0 + tx * V) =
                *reinterpret_cast<const vt *>(&tile[r * 64 + tx * V]);
    } else {
        for (int e = t; e < 64 * 64; e += (64 / V) * 16)
            if (r0 + e / 64 < rows && c0 + e % 64 < cols)
                tile[e] = in[(size_t)(r0 + e / 64) * cols + c0 + e % 64];
        __syncthreads();
        for (int e = t; e < 64 * 64; e += (64 / V) * 16)
            if (r0 + e / 64 < rows && c0 + e % 64 < cols)
                out[(size_t)(r0 + e / 64) * cols + c0 + e % 64] = tile[e];
    }
}

template <int V>
static void launch_tilecopy(const float *d_in, float *d_out, int rows, int cols)
{
    tilecopy_kernel<V><<<grid_over(rows, cols, 64, 64), dim3(64 / V, 16)>>>(rows, cols, d_in,
                                                                            d_out);
}
