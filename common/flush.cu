/* The harness's three kernels, the only pieces of it that must be CUDA C. One empties the L2
   cache of useful data before a timed run: it reads a scratch buffer twice the L2's size, so
   the operands of the next run are neither cached nor dirty there. One fills a buffer with a
   bit pattern, where cudaMemset's one repeated byte cannot make it. One is the copy
   ceiling's copy kernel, beside cudaMemcpy; the last counts where two buffers differ, so that
   each copy of the ceiling is checked where it ran. */
#include "core.h"

__global__ void tk_flush_kernel(const int4 *p, size_t n, int *sink)
{
    int x = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        int4 v = p[i];
        x ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (x == 0x7A5E1F3D)   /* almost never true; keeps the compiler from dropping the loads */
        *sink = x;
}

extern "C" void tk_flush_l2(const void *scratch, size_t bytes, int *sink)
{
    tk_flush_kernel<<<1024, 256>>>((const int4 *)scratch, bytes / sizeof(int4), sink);
}

__global__ void tk_fill_kernel(unsigned *p, size_t n, unsigned bits)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = bits;
}

extern "C" void tk_fill_bits(float *p, size_t n, unsigned bits, cudaStream_t s)
{
    if (n)
        tk_fill_kernel<<<1024, 256, 0, s>>>((unsigned *)p, n, bits);
}

/* The copy ceiling's kernel: in to out, UNROLL float4 loads in flight a thread before their
   stores, a grid of one wave of threads striding over the matrix; the last n % 4 floats (or
   every float, where a pointer is not 16-byte aligned) one at a time. */
#define UNROLL 4
__global__ void tk_copy_kernel(const float *in, float *out, size_t n, int vector)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t n4 = vector ? n / 4 : 0;
    const float4 *in4 = (const float4 *)in;
    float4 *out4 = (float4 *)out;
    size_t i = t;
    for (; i + (UNROLL - 1) * stride < n4; i += UNROLL * stride) {
        float4 v[UNROLL];
        #pragma unroll
        for (int k = 0; k < UNROLL; k++)
            v[k] = in4[i + k * stride];
        #pragma unroll
        for (int k = 0; k < UNROLL; k++)
            out4[i + k * stride] = v[k];
    }
    for (; i < n4; i += stride)
        out4[i] = in4[i];
    for (size_t j = 4 * n4 + t; j < n; j += stride)
        out[j] = in[j];
}

extern "C" void tk_copy_floats(const float *in, float *out, size_t n, cudaStream_t s)
{
    static int blocks;   /* one wave: as many 256-thread blocks as the device holds at once */
    if (!blocks) {
        int dev, sms = 0, per_sm = 0;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, tk_copy_kernel, 256, 0));
        blocks = sms * (per_sm > 0 ? per_sm : 1);
    }
    int vector = ((uintptr_t)in % 16 == 0) && ((uintptr_t)out % 16 == 0);
    if (n)
        tk_copy_kernel<<<blocks, 256, 0, s>>>(in, out, n, vector);
}

/* How many of the n 4-byte words at b differ, bit for bit, from those of a, added to *count:
   b[i] against a[i] where rows is 0 (a copy), else against the transpose of a, a rows x cols
   matrix: b[c * rows + r] against a[r * cols + c] (b read in its order, a across its rows: a
   check, not a fast transpose). */
__global__ void tk_differ_kernel(const unsigned *a, const unsigned *b, size_t n, long rows,
                                 long cols, unsigned long long *count)
{
    unsigned long long c = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        size_t col = rows ? i / rows : 0, row = i - col * rows;   /* b[col][row] is a[row][col] */
        c += b[i] != a[rows ? row * cols + col : i];
    }
    for (int o = 16; o > 0; o /= 2)   /* the warp's sum, in lane 0 */
        c += __shfl_down_sync(0xFFFFFFFFu, c, o);
    if (threadIdx.x % 32 == 0 && c)
        atomicAdd(count, c);
}

/* tk_differ_kernel's count, on the default stream. */
static size_t count_differing(const float *a, const float *b, size_t n, long rows, long cols)
{
    unsigned long long *d_count, count = 0;
    CUDA_CHECK(cudaMalloc(&d_count, sizeof count));
    CUDA_CHECK(cudaMemset(d_count, 0, sizeof count));
    if (n)
        tk_differ_kernel<<<1024, 256>>>((const unsigned *)a, (const unsigned *)b, n, rows, cols,
                                        d_count);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_count));
    return (size_t)count;
}

extern "C" size_t tk_count_differences(const float *a, const float *b, size_t n)
{
    return count_differing(a, b, n, 0, 0);
}

extern "C" size_t tk_count_transposed_differences(const float *in, const float *out, long rows,
                                                  long cols)
{
    return count_differing(in, out, (size_t)rows * cols, rows, cols);
}
