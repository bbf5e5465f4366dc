/* cublas_v2.h - devtensor's own declarations of the cuBLAS calls that
 * csrc/cuda makes, implemented on the CPU by csrc/emu/emu_blas.cpp
 * (Note [CUDA libraries on the CPU] in csrc/emu/emu_runtime.h).  cuBLAS's
 * names, exported symbols (cublasCreate is the macro cublasCreate_v2, as
 * in the toolkit's header), prototypes and numeric values, each checked
 * against the CUDA 13 toolkit's cublas_api.h and cublas_v2.h
 * (tests/test_emu_blas.py compares the values where a toolkit is
 * installed); not NVIDIA's header.  Usable from C11 and C++17.
 *
 * Like the toolkit's (through cublas_api.h) it includes cuComplex.h, and
 * it declares cublasFillMode_t, which cuSOLVER's routines take too
 * (cusolverDn.h includes this header for it, as the toolkit's does).
 *
 * Not declared, so that using them fails to compile in the emulated build
 * until they are emulated too: every other cuBLAS routine, the pointer
 * mode (alpha and beta are always host pointers here; pass the address of
 * a cuComplex or two floats, of a cuDoubleComplex or two doubles), and the
 * C++-only overload of cublasGemmStridedBatchedEx taking a cudaDataType
 * compute type.
 */
#ifndef DT_EMU_CUBLAS_V2_H
#define DT_EMU_CUBLAS_V2_H

#include <stddef.h>

#include "cuComplex.h"
#include "cuda_runtime_api.h"
#include "library_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CUBLAS_STATUS_SUCCESS = 0,
    CUBLAS_STATUS_NOT_INITIALIZED = 1,
    CUBLAS_STATUS_ALLOC_FAILED = 3,
    CUBLAS_STATUS_INVALID_VALUE = 7,
    CUBLAS_STATUS_ARCH_MISMATCH = 8,
    CUBLAS_STATUS_MAPPING_ERROR = 11,
    CUBLAS_STATUS_EXECUTION_FAILED = 13,
    CUBLAS_STATUS_INTERNAL_ERROR = 14,
    CUBLAS_STATUS_NOT_SUPPORTED = 15,
    CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;

typedef enum {
    CUBLAS_FILL_MODE_LOWER = 0,
    CUBLAS_FILL_MODE_UPPER = 1,
    CUBLAS_FILL_MODE_FULL = 2
} cublasFillMode_t;

typedef enum {
    CUBLAS_OP_N = 0,
    CUBLAS_OP_T = 1,
    CUBLAS_OP_C = 2,
    CUBLAS_OP_HERMITAN = 2, /* CUBLAS_OP_C */
    CUBLAS_OP_CONJG = 3     /* rejected by cuBLAS's routines */
} cublasOperation_t;

/* Only the default algorithm is named; every CUBLAS_GEMM_ALGO* value is
 * accepted (Note [Algorithms] in emu_blas.cpp). */
typedef enum {
    CUBLAS_GEMM_DEFAULT = -1,
    CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99
} cublasGemmAlgo_t;

typedef enum {
    CUBLAS_DEFAULT_MATH = 0,
    CUBLAS_TENSOR_OP_MATH = 1, /* deprecated */
    CUBLAS_PEDANTIC_MATH = 2,
    CUBLAS_TF32_TENSOR_OP_MATH = 3,
    CUBLAS_FP32_EMULATED_BF16X9_MATH = 4,
    CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH = 8,
    CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16 /* a flag, or'ed with one of the above */
} cublasMath_t;

typedef enum {
    CUBLAS_COMPUTE_16F = 64,
    CUBLAS_COMPUTE_16F_PEDANTIC = 65,
    CUBLAS_COMPUTE_32F = 68,
    CUBLAS_COMPUTE_32F_PEDANTIC = 69,
    CUBLAS_COMPUTE_32F_FAST_16F = 74,
    CUBLAS_COMPUTE_32F_FAST_16BF = 75,
    CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
    CUBLAS_COMPUTE_32F_EMULATED_16BFX9 = 78,
    CUBLAS_COMPUTE_64F = 70,
    CUBLAS_COMPUTE_64F_PEDANTIC = 71,
    CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT = 79,
    CUBLAS_COMPUTE_32I = 72,
    CUBLAS_COMPUTE_32I_PEDANTIC = 73
} cublasComputeType_t;

/* Opaque: never dereferenced (the emulation hands out ids, Note [Handles]
 * in emu_blas.cpp). */
struct cublasContext;
typedef struct cublasContext *cublasHandle_t;

/* helpers */
cublasStatus_t cublasCreate_v2(cublasHandle_t *handle);
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle);
cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void *workspace, size_t workspaceSizeInBytes);
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId);
cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *streamId);
cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode);
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode);
const char *cublasGetStatusString(cublasStatus_t status);

/* C[i] = alpha * op(A[i]) op(B[i]) + beta * C[i] for i < batchCount,
 * column-major, X[i] at X + i * strideX elements */
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const void *alpha, const void *A, cudaDataType Atype,
                                          int lda, long long int strideA, const void *B, cudaDataType Btype, int ldb,
                                          long long int strideB, const void *beta, void *C, cudaDataType Ctype,
                                          int ldc, long long int strideC, int batchCount,
                                          cublasComputeType_t computeType, cublasGemmAlgo_t algo);

/* Batched LU (Note [Batched LU] in emu_blas_lu.cpp): Aarray[i] and
 * Barray[i] are device pointers read from device memory, PivotArray and
 * infoArray device memory (n and 1 ints per matrix); getrsBatched's info
 * is one int in host memory, for its argument checks. */
cublasStatus_t cublasSgetrfBatched(cublasHandle_t handle, int n, float *const Aarray[], int lda, int *PivotArray,
                                   int *infoArray, int batchSize);
cublasStatus_t cublasDgetrfBatched(cublasHandle_t handle, int n, double *const Aarray[], int lda, int *PivotArray,
                                   int *infoArray, int batchSize);
cublasStatus_t cublasCgetrfBatched(cublasHandle_t handle, int n, cuComplex *const Aarray[], int lda,
                                   int *PivotArray, int *infoArray, int batchSize);
cublasStatus_t cublasZgetrfBatched(cublasHandle_t handle, int n, cuDoubleComplex *const Aarray[], int lda,
                                   int *PivotArray, int *infoArray, int batchSize);
cublasStatus_t cublasSgetrsBatched(cublasHandle_t handle, cublasOperation_t trans, int n, int nrhs,
                                   const float *const Aarray[], int lda, const int *devIpiv, float *const Barray[],
                                   int ldb, int *info, int batchSize);
cublasStatus_t cublasDgetrsBatched(cublasHandle_t handle, cublasOperation_t trans, int n, int nrhs,
                                   const double *const Aarray[], int lda, const int *devIpiv,
                                   double *const Barray[], int ldb, int *info, int batchSize);
cublasStatus_t cublasCgetrsBatched(cublasHandle_t handle, cublasOperation_t trans, int n, int nrhs,
                                   const cuComplex *const Aarray[], int lda, const int *devIpiv,
                                   cuComplex *const Barray[], int ldb, int *info, int batchSize);
cublasStatus_t cublasZgetrsBatched(cublasHandle_t handle, cublasOperation_t trans, int n, int nrhs,
                                   const cuDoubleComplex *const Aarray[], int lda, const int *devIpiv,
                                   cuDoubleComplex *const Barray[], int ldb, int *info, int batchSize);

#ifdef __cplusplus
}
#endif

/* the toolkit's names for the _v2 entry points */
#define cublasCreate cublasCreate_v2
#define cublasDestroy cublasDestroy_v2
#define cublasSetWorkspace cublasSetWorkspace_v2
#define cublasSetStream cublasSetStream_v2
#define cublasGetStream cublasGetStream_v2

#endif /* DT_EMU_CUBLAS_V2_H */
