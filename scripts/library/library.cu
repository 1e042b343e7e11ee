/* The library row: what a user gets from calling cuBLAS instead of writing a kernel.
   cublasSgeam computes C = alpha op(A) + beta op(B); with op(A) = A^T, alpha = 1 and beta = 0
   it is a transpose. Timed by the same harness as the steps (output poisoned, L2 emptied,
   median of the same repetitions, exact check) beside the copy ceiling of the same run.
   It is a yardstick, not a step: scripts/results/results.sh runs it beside the solutions.

   make -C scripts/library && scripts/library/library [-n N | --rows R --cols C] [--no-cpu] */
#include <cublas_v2.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

static cublasHandle_t handle;

static void cublas_check(cublasStatus_t status, const char *what)
{
    if (status == CUBLAS_STATUS_SUCCESS)
        return;
    fprintf(stderr, "%s failed: %s (%s)\n", what, cublasGetStatusString(status),
            cublasGetStatusName(status));
    exit(TK_EXIT_CUDA);
}

/* cuBLAS is column-major. The row-major rows x cols input is, to cuBLAS, a cols x rows
   matrix A with leading dimension cols; the row-major cols x rows output is a rows x cols
   matrix C with leading dimension rows. C = A^T. With beta = 0, B is not read. A side past
   an int takes cuBLAS's 64-bit interface (CUDA 12 on); every other shape the call a user
   writes, the one the kit's figures were measured with. */
static void launch(const float *d_in, float *d_out, long rows, long cols)
{
    const float one = 1.0f, zero = 0.0f;
    if (rows <= INT_MAX && cols <= INT_MAX) {
        cublas_check(cublasSgeam(handle, CUBLAS_OP_T, CUBLAS_OP_N, (int)rows, (int)cols, &one,
                                 d_in, (int)cols, &zero, NULL, (int)rows, d_out, (int)rows),
                     "cublasSgeam");
        return;
    }
#if CUBLAS_VER_MAJOR >= 12
    cublas_check(cublasSgeam_64(handle, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, d_in, cols,
                                &zero, NULL, rows, d_out, rows), "cublasSgeam_64");
#else
    fprintf(stderr, "library: a side past an int needs cublasSgeam_64, from CUDA 12 on; this "
            "cuBLAS is %d.%d\n", CUBLAS_VER_MAJOR, CUBLAS_VER_MINOR);
    exit(TK_EXIT_USAGE);
#endif
}

int main(int argc, char **argv)
{
    struct tk_run run;
    tk_begin(&run, "library", "cublasSgeam", argc, argv);
    do {   /* once; with --shapes (the grader's), once a shape of its list */
        float *d_in = NULL, *d_out = NULL;
        CUDA_CHECK(cudaMalloc(&d_in, run.bytes));
        CUDA_CHECK(cudaMalloc(&d_out, run.bytes));
        CUDA_CHECK(cudaMemcpy(d_in, run.in, run.bytes, cudaMemcpyHostToDevice));
        cublas_check(cublasCreate(&handle), "cublasCreate");

        launch(d_in, d_out, run.rows, run.cols);   /* the first call loads the library's kernels */
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());

        tk_time_gpu(&run, launch, d_in, d_out);

        CUDA_CHECK(cudaMemcpy(run.out, d_out, run.bytes, cudaMemcpyDeviceToHost));
        cublas_check(cublasDestroy(handle), "cublasDestroy");
        CUDA_CHECK(cudaFree(d_in));
        CUDA_CHECK(cudaFree(d_out));
    } while (tk_next_shape(&run));   /* the exact check and the row; the next shape */
    return tk_end(&run);
}
