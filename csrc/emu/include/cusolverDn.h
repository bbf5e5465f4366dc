/* cusolverDn.h - devtensor's own declarations of the cuSOLVER dense
 * (cuSolverDN) calls that csrc/cuda makes, implemented on the CPU by
 * csrc/emu/emu_solver.cpp (Note [CUDA libraries on the CPU] in
 * csrc/emu/emu_runtime.h).  cuSOLVER's names, exported symbols, prototypes
 * and numeric values, each checked against the CUDA 13 toolkit's
 * cusolverDn.h and cusolver_common.h (tests/test_emu_solver.py compares
 * them where a toolkit is installed); not NVIDIA's header.  Like the
 * toolkit's, it includes cuComplex.h, library_types.h, cublas_v2.h (for
 * cublasFillMode_t and cublasOperation_t, one definition shared with the
 * emulated cuBLAS) and cusolver_common.h.  Usable from C11 and C++17.
 *
 * All matrices are column-major with a leading dimension; S, D, C, Z are
 * float, double, cuComplex and cuDoubleComplex; lwork counts elements of
 * the routine's type.  Of the 64-bit generic API, only Xgeev (the general
 * eigenproblem) and the parameter object it takes.  Not declared, so that
 * using them fails to compile in the emulated build until they are
 * emulated too: every other cuSOLVER routine (the rest of the X API, the
 * batched and Jacobi variants other than potrfBatched, syevjBatched and
 * gesvdjBatched, the syevjInfo and gesvdjInfo setters, ormqr, sytrf, ...),
 * cusolverDnSetAdvOptions, the logging calls, and
 * cusolverDnSetDeterministicMode / cusolverDnSetMathMode.
 */
#ifndef DT_EMU_CUSOLVERDN_H
#define DT_EMU_CUSOLVERDN_H

#include "cuComplex.h"
#include "library_types.h"
#include "cublas_v2.h"
#include "cusolver_common.h"

#include <stddef.h>
#include <stdint.h>

/* Opaque: never dereferenced (the emulation hands out ids, Note [Handles]
 * in emu_solver.cpp). */
struct cusolverDnContext;
typedef struct cusolverDnContext *cusolverDnHandle_t;
struct cusolverDnParams;
typedef struct cusolverDnParams *cusolverDnParams_t;
struct syevjInfo;
typedef struct syevjInfo *syevjInfo_t;
struct gesvdjInfo;
typedef struct gesvdjInfo *gesvdjInfo_t;

#ifdef __cplusplus
extern "C" {
#endif

/* helpers */
cusolverStatus_t cusolverDnCreate(cusolverDnHandle_t *handle);
cusolverStatus_t cusolverDnDestroy(cusolverDnHandle_t handle);
cusolverStatus_t cusolverDnSetStream(cusolverDnHandle_t handle, cudaStream_t streamId);
cusolverStatus_t cusolverDnGetStream(cusolverDnHandle_t handle, cudaStream_t *streamId);

/* Cholesky: A (n x n, Hermitian, only the uplo triangle read and
 * written) = L L^H (lower) or U^H U (upper) */
cusolverStatus_t cusolverDnSpotrf_bufferSize(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, float *A, int lda,
                                             int *Lwork);
cusolverStatus_t cusolverDnSpotrf(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, float *A, int lda,
                                  float *Workspace, int Lwork, int *devInfo);
cusolverStatus_t cusolverDnDpotrf_bufferSize(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, double *A,
                                             int lda, int *Lwork);
cusolverStatus_t cusolverDnDpotrf(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, double *A, int lda,
                                  double *Workspace, int Lwork, int *devInfo);
cusolverStatus_t cusolverDnCpotrf_bufferSize(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, cuComplex *A,
                                             int lda, int *Lwork);
cusolverStatus_t cusolverDnCpotrf(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, cuComplex *A, int lda,
                                  cuComplex *Workspace, int Lwork, int *devInfo);
cusolverStatus_t cusolverDnZpotrf_bufferSize(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n,
                                             cuDoubleComplex *A, int lda, int *Lwork);
cusolverStatus_t cusolverDnZpotrf(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, cuDoubleComplex *A, int lda,
                                  cuDoubleComplex *Workspace, int Lwork, int *devInfo);

/* Cholesky of batchSize n x n matrices, matrix j at the device pointer
 * Aarray[j] (Aarray in device memory), its info in infoArray[j] */
cusolverStatus_t cusolverDnSpotrfBatched(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, float *Aarray[],
                                         int lda, int *infoArray, int batchSize);
cusolverStatus_t cusolverDnDpotrfBatched(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, double *Aarray[],
                                         int lda, int *infoArray, int batchSize);
cusolverStatus_t cusolverDnCpotrfBatched(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, cuComplex *Aarray[],
                                         int lda, int *infoArray, int batchSize);
cusolverStatus_t cusolverDnZpotrfBatched(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n,
                                         cuDoubleComplex *Aarray[], int lda, int *infoArray, int batchSize);

/* LU with partial pivoting: P A = L U, A (m x n); devIpiv (min(m, n),
 * 1-based), or NULL for no pivoting */
cusolverStatus_t cusolverDnSgetrf_bufferSize(cusolverDnHandle_t handle, int m, int n, float *A, int lda, int *Lwork);
cusolverStatus_t cusolverDnSgetrf(cusolverDnHandle_t handle, int m, int n, float *A, int lda, float *Workspace,
                                  int *devIpiv, int *devInfo);
cusolverStatus_t cusolverDnDgetrf_bufferSize(cusolverDnHandle_t handle, int m, int n, double *A, int lda, int *Lwork);
cusolverStatus_t cusolverDnDgetrf(cusolverDnHandle_t handle, int m, int n, double *A, int lda, double *Workspace,
                                  int *devIpiv, int *devInfo);
cusolverStatus_t cusolverDnCgetrf_bufferSize(cusolverDnHandle_t handle, int m, int n, cuComplex *A, int lda,
                                             int *Lwork);
cusolverStatus_t cusolverDnCgetrf(cusolverDnHandle_t handle, int m, int n, cuComplex *A, int lda, cuComplex *Workspace,
                                  int *devIpiv, int *devInfo);
cusolverStatus_t cusolverDnZgetrf_bufferSize(cusolverDnHandle_t handle, int m, int n, cuDoubleComplex *A, int lda,
                                             int *Lwork);
cusolverStatus_t cusolverDnZgetrf(cusolverDnHandle_t handle, int m, int n, cuDoubleComplex *A, int lda,
                                  cuDoubleComplex *Workspace, int *devIpiv, int *devInfo);

/* op(A) X = B with A (n x n) factored by getrf; B (n x nrhs) becomes X */
cusolverStatus_t cusolverDnSgetrs(cusolverDnHandle_t handle, cublasOperation_t trans, int n, int nrhs, const float *A,
                                  int lda, const int *devIpiv, float *B, int ldb, int *devInfo);
cusolverStatus_t cusolverDnDgetrs(cusolverDnHandle_t handle, cublasOperation_t trans, int n, int nrhs, const double *A,
                                  int lda, const int *devIpiv, double *B, int ldb, int *devInfo);
cusolverStatus_t cusolverDnCgetrs(cusolverDnHandle_t handle, cublasOperation_t trans, int n, int nrhs,
                                  const cuComplex *A, int lda, const int *devIpiv, cuComplex *B, int ldb, int *devInfo);
cusolverStatus_t cusolverDnZgetrs(cusolverDnHandle_t handle, cublasOperation_t trans, int n, int nrhs,
                                  const cuDoubleComplex *A, int lda, const int *devIpiv, cuDoubleComplex *B, int ldb,
                                  int *devInfo);

/* Householder QR: A (m x n) = Q R, R in the upper triangle, the
 * reflectors below it, TAU (min(m, n)) */
cusolverStatus_t cusolverDnSgeqrf_bufferSize(cusolverDnHandle_t handle, int m, int n, float *A, int lda, int *lwork);
cusolverStatus_t cusolverDnSgeqrf(cusolverDnHandle_t handle, int m, int n, float *A, int lda, float *TAU,
                                  float *Workspace, int Lwork, int *devInfo);
cusolverStatus_t cusolverDnDgeqrf_bufferSize(cusolverDnHandle_t handle, int m, int n, double *A, int lda, int *lwork);
cusolverStatus_t cusolverDnDgeqrf(cusolverDnHandle_t handle, int m, int n, double *A, int lda, double *TAU,
                                  double *Workspace, int Lwork, int *devInfo);
cusolverStatus_t cusolverDnCgeqrf_bufferSize(cusolverDnHandle_t handle, int m, int n, cuComplex *A, int lda,
                                             int *lwork);
cusolverStatus_t cusolverDnCgeqrf(cusolverDnHandle_t handle, int m, int n, cuComplex *A, int lda, cuComplex *TAU,
                                  cuComplex *Workspace, int Lwork, int *devInfo);
cusolverStatus_t cusolverDnZgeqrf_bufferSize(cusolverDnHandle_t handle, int m, int n, cuDoubleComplex *A, int lda,
                                             int *lwork);
cusolverStatus_t cusolverDnZgeqrf(cusolverDnHandle_t handle, int m, int n, cuDoubleComplex *A, int lda,
                                  cuDoubleComplex *TAU, cuDoubleComplex *Workspace, int Lwork, int *devInfo);

/* the first n columns of Q = H(1) ... H(k) from geqrf's reflectors,
 * over A (m x n, m >= n >= k) */
cusolverStatus_t cusolverDnSorgqr_bufferSize(cusolverDnHandle_t handle, int m, int n, int k, const float *A, int lda,
                                             const float *tau, int *lwork);
cusolverStatus_t cusolverDnSorgqr(cusolverDnHandle_t handle, int m, int n, int k, float *A, int lda, const float *tau,
                                  float *work, int lwork, int *info);
cusolverStatus_t cusolverDnDorgqr_bufferSize(cusolverDnHandle_t handle, int m, int n, int k, const double *A, int lda,
                                             const double *tau, int *lwork);
cusolverStatus_t cusolverDnDorgqr(cusolverDnHandle_t handle, int m, int n, int k, double *A, int lda, const double *tau,
                                  double *work, int lwork, int *info);
cusolverStatus_t cusolverDnCungqr_bufferSize(cusolverDnHandle_t handle, int m, int n, int k, const cuComplex *A,
                                             int lda, const cuComplex *tau, int *lwork);
cusolverStatus_t cusolverDnCungqr(cusolverDnHandle_t handle, int m, int n, int k, cuComplex *A, int lda,
                                  const cuComplex *tau, cuComplex *work, int lwork, int *info);
cusolverStatus_t cusolverDnZungqr_bufferSize(cusolverDnHandle_t handle, int m, int n, int k, const cuDoubleComplex *A,
                                             int lda, const cuDoubleComplex *tau, int *lwork);
cusolverStatus_t cusolverDnZungqr(cusolverDnHandle_t handle, int m, int n, int k, cuDoubleComplex *A, int lda,
                                  const cuDoubleComplex *tau, cuDoubleComplex *work, int lwork, int *info);

/* A (n x n, Hermitian: the uplo triangle) V = V diag(W), W (n) ascending;
 * A becomes V with CUSOLVER_EIG_MODE_VECTOR */
cusolverStatus_t cusolverDnSsyevd_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                             int n, const float *A, int lda, const float *W, int *lwork);
cusolverStatus_t cusolverDnSsyevd(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                                  float *A, int lda, float *W, float *work, int lwork, int *info);
cusolverStatus_t cusolverDnDsyevd_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                             int n, const double *A, int lda, const double *W, int *lwork);
cusolverStatus_t cusolverDnDsyevd(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                                  double *A, int lda, double *W, double *work, int lwork, int *info);
cusolverStatus_t cusolverDnCheevd_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                             int n, const cuComplex *A, int lda, const float *W, int *lwork);
cusolverStatus_t cusolverDnCheevd(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                                  cuComplex *A, int lda, float *W, cuComplex *work, int lwork, int *info);
cusolverStatus_t cusolverDnZheevd_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                             int n, const cuDoubleComplex *A, int lda, const double *W, int *lwork);
cusolverStatus_t cusolverDnZheevd(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                                  cuDoubleComplex *A, int lda, double *W, cuDoubleComplex *work, int lwork, int *info);

/* A (m x n, m >= n) = U diag(S) VT, S (min(m, n)) descending; jobu and
 * jobvt 'A', 'S', 'O' or 'N' as LAPACK's */
cusolverStatus_t cusolverDnSgesvd_bufferSize(cusolverDnHandle_t handle, int m, int n, int *lwork);
cusolverStatus_t cusolverDnSgesvd(cusolverDnHandle_t handle, signed char jobu, signed char jobvt, int m, int n,
                                  float *A, int lda, float *S, float *U, int ldu, float *VT, int ldvt, float *work,
                                  int lwork, float *rwork, int *info);
cusolverStatus_t cusolverDnDgesvd_bufferSize(cusolverDnHandle_t handle, int m, int n, int *lwork);
cusolverStatus_t cusolverDnDgesvd(cusolverDnHandle_t handle, signed char jobu, signed char jobvt, int m, int n,
                                  double *A, int lda, double *S, double *U, int ldu, double *VT, int ldvt, double *work,
                                  int lwork, double *rwork, int *info);
cusolverStatus_t cusolverDnCgesvd_bufferSize(cusolverDnHandle_t handle, int m, int n, int *lwork);
cusolverStatus_t cusolverDnCgesvd(cusolverDnHandle_t handle, signed char jobu, signed char jobvt, int m, int n,
                                  cuComplex *A, int lda, float *S, cuComplex *U, int ldu, cuComplex *VT, int ldvt,
                                  cuComplex *work, int lwork, float *rwork, int *info);
cusolverStatus_t cusolverDnZgesvd_bufferSize(cusolverDnHandle_t handle, int m, int n, int *lwork);
cusolverStatus_t cusolverDnZgesvd(cusolverDnHandle_t handle, signed char jobu, signed char jobvt, int m, int n,
                                  cuDoubleComplex *A, int lda, double *S, cuDoubleComplex *U, int ldu,
                                  cuDoubleComplex *VT, int ldvt, cuDoubleComplex *work, int lwork, double *rwork,
                                  int *info);

/* The Hermitian eigenproblem of batchSize n x n matrices (n <= 32) by
 * Jacobi, packed one after the other (matrix j at A + j * lda * n, its
 * eigenvalues at W + j * n, its info in info[j]); the options object with
 * its defaults (eigenvalues sorted ascending).  Note [syevjBatched] in
 * emu_solver_routines.cpp. */
cusolverStatus_t cusolverDnCreateSyevjInfo(syevjInfo_t *info);
cusolverStatus_t cusolverDnDestroySyevjInfo(syevjInfo_t info);
cusolverStatus_t cusolverDnSsyevjBatched_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz,
                                                    cublasFillMode_t uplo, int n, const float *A, int lda,
                                                    const float *W, int *lwork, syevjInfo_t params, int batchSize);
cusolverStatus_t cusolverDnSsyevjBatched(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                         int n, float *A, int lda, float *W, float *work, int lwork, int *info,
                                         syevjInfo_t params, int batchSize);
cusolverStatus_t cusolverDnDsyevjBatched_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz,
                                                    cublasFillMode_t uplo, int n, const double *A, int lda,
                                                    const double *W, int *lwork, syevjInfo_t params, int batchSize);
cusolverStatus_t cusolverDnDsyevjBatched(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                         int n, double *A, int lda, double *W, double *work, int lwork, int *info,
                                         syevjInfo_t params, int batchSize);
cusolverStatus_t cusolverDnCheevjBatched_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz,
                                                    cublasFillMode_t uplo, int n, const cuComplex *A, int lda,
                                                    const float *W, int *lwork, syevjInfo_t params, int batchSize);
cusolverStatus_t cusolverDnCheevjBatched(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                         int n, cuComplex *A, int lda, float *W, cuComplex *work, int lwork, int *info,
                                         syevjInfo_t params, int batchSize);
cusolverStatus_t cusolverDnZheevjBatched_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz,
                                                    cublasFillMode_t uplo, int n, const cuDoubleComplex *A, int lda,
                                                    const double *W, int *lwork, syevjInfo_t params, int batchSize);
cusolverStatus_t cusolverDnZheevjBatched(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                         int n, cuDoubleComplex *A, int lda, double *W, cuDoubleComplex *work,
                                         int lwork, int *info, syevjInfo_t params, int batchSize);

/* The SVD of batchSize m x n matrices (m, n <= 32) by Jacobi, packed one
 * after the other (matrix j at A + j * lda * n, its min(m, n) singular
 * values at S + j * min(m, n), descending; all of U, m x m at U + j * ldu *
 * m, and of V (not V^H), n x n at V + j * ldv * n; its info in info[j]);
 * the options object with its defaults.  Note [gesvdjBatched] in
 * emu_solver_routines.cpp. */
cusolverStatus_t cusolverDnCreateGesvdjInfo(gesvdjInfo_t *info);
cusolverStatus_t cusolverDnDestroyGesvdjInfo(gesvdjInfo_t info);
cusolverStatus_t cusolverDnSgesvdjBatched_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz, int m, int n,
                                                     const float *A, int lda, const float *S, const float *U, int ldu,
                                                     const float *V, int ldv, int *lwork, gesvdjInfo_t params,
                                                     int batchSize);
cusolverStatus_t cusolverDnSgesvdjBatched(cusolverDnHandle_t handle, cusolverEigMode_t jobz, int m, int n, float *A,
                                          int lda, float *S, float *U, int ldu, float *V, int ldv, float *work,
                                          int lwork, int *info, gesvdjInfo_t params, int batchSize);
cusolverStatus_t cusolverDnDgesvdjBatched_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz, int m, int n,
                                                     const double *A, int lda, const double *S, const double *U,
                                                     int ldu, const double *V, int ldv, int *lwork, gesvdjInfo_t params,
                                                     int batchSize);
cusolverStatus_t cusolverDnDgesvdjBatched(cusolverDnHandle_t handle, cusolverEigMode_t jobz, int m, int n, double *A,
                                          int lda, double *S, double *U, int ldu, double *V, int ldv, double *work,
                                          int lwork, int *info, gesvdjInfo_t params, int batchSize);
cusolverStatus_t cusolverDnCgesvdjBatched_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz, int m, int n,
                                                     const cuComplex *A, int lda, const float *S, const cuComplex *U,
                                                     int ldu, const cuComplex *V, int ldv, int *lwork,
                                                     gesvdjInfo_t params, int batchSize);
cusolverStatus_t cusolverDnCgesvdjBatched(cusolverDnHandle_t handle, cusolverEigMode_t jobz, int m, int n, cuComplex *A,
                                          int lda, float *S, cuComplex *U, int ldu, cuComplex *V, int ldv,
                                          cuComplex *work, int lwork, int *info, gesvdjInfo_t params, int batchSize);
cusolverStatus_t cusolverDnZgesvdjBatched_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz, int m, int n,
                                                     const cuDoubleComplex *A, int lda, const double *S,
                                                     const cuDoubleComplex *U, int ldu, const cuDoubleComplex *V,
                                                     int ldv, int *lwork, gesvdjInfo_t params, int batchSize);
cusolverStatus_t cusolverDnZgesvdjBatched(cusolverDnHandle_t handle, cusolverEigMode_t jobz, int m, int n,
                                          cuDoubleComplex *A, int lda, double *S, cuDoubleComplex *U, int ldu,
                                          cuDoubleComplex *V, int ldv, cuDoubleComplex *work, int lwork, int *info,
                                          gesvdjInfo_t params, int batchSize);

/* the parameter object of the 64-bit generic API (default options) */
cusolverStatus_t cusolverDnCreateParams(cusolverDnParams_t *params);
cusolverStatus_t cusolverDnDestroyParams(cusolverDnParams_t params);

/* A (n x n, general) VR = VR diag(W): the eigenvalues W and the right
 * eigenvectors VR (unit norm, largest component real) in the types named,
 * sizes in bytes; Note [Xgeev] in emu_solver_routines.cpp says which
 * combinations the emulation has */
cusolverStatus_t cusolverDnXgeev_bufferSize(cusolverDnHandle_t handle, cusolverDnParams_t params,
                                            cusolverEigMode_t jobvl, cusolverEigMode_t jobvr, int64_t n,
                                            cudaDataType dataTypeA, const void *A, int64_t lda,
                                            cudaDataType dataTypeW, const void *W, cudaDataType dataTypeVL,
                                            const void *VL, int64_t ldvl, cudaDataType dataTypeVR, const void *VR,
                                            int64_t ldvr, cudaDataType computeType, size_t *workspaceInBytesOnDevice,
                                            size_t *workspaceInBytesOnHost);
cusolverStatus_t cusolverDnXgeev(cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobvl,
                                 cusolverEigMode_t jobvr, int64_t n, cudaDataType dataTypeA, void *A, int64_t lda,
                                 cudaDataType dataTypeW, void *W, cudaDataType dataTypeVL, void *VL, int64_t ldvl,
                                 cudaDataType dataTypeVR, void *VR, int64_t ldvr, cudaDataType computeType,
                                 void *bufferOnDevice, size_t workspaceInBytesOnDevice, void *bufferOnHost,
                                 size_t workspaceInBytesOnHost, int *info);

#ifdef __cplusplus
}
#endif

#endif /* DT_EMU_CUSOLVERDN_H */
