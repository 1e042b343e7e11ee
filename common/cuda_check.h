/* The error check every layer of the harness, every step and every tool uses: the bottom of
   common/, including nothing of the kit's own. Plain C over the CUDA runtime's C API. */
#ifndef TK_CUDA_CHECK_H
#define TK_CUDA_CHECK_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Wrap every CUDA call: on failure it prints file:line, the call and CUDA's reason, exits 4. */
#define CUDA_CHECK(call) tk_cuda_check((call), #call, __FILE__, __LINE__)
void tk_cuda_check(cudaError_t err, const char *what, const char *file, int line);

/* The shape being run: an out-of-memory failure names its matrices' bytes beside what the
   device has, and a refused launch its rows beside what a grid's y holds. */
void tk_cuda_check_shape(long rows, long cols);

#ifdef __cplusplus
}
#endif
#endif
