/* emu_blas_lu_test.cpp - cases for the emulated batched LU of cuBLAS
 * (csrc/emu/emu_blas_lu.cpp, Note [Batched LU] there), part of the
 * emu_blas_test program (tests/test_emu_blas.py): factors and pivots of
 * small float64 and complex64 matrices worked out by hand, a singular
 * matrix's info, the solves with N and T, every argument refusal, and
 * the faults of a bad matrix pointer and a bad pivot.
 */
#include "emu_blas_test.h"

#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

namespace {

/* count elements of device memory, copied from host (NULL: zeros) */
template <class T>
T *on_device(const T *host, size_t count)
{
    T *p = nullptr;
    std::vector<T> zeros(count, T{});
    OK(cudaMalloc((void **)&p, count * sizeof(T)));
    OK(cudaMemcpy(p, host != nullptr ? host : zeros.data(), count * sizeof(T), cudaMemcpyHostToDevice));
    return p;
}

template <class T>
void to_host(T *host, const T *dev, size_t count)
{
    OK(cudaMemcpy(host, dev, count * sizeof(T), cudaMemcpyDeviceToHost));
}

bool near(double a, double b) { return std::fabs(a - b) <= 1e-12 * (1 + std::fabs(b)); }

/* Three 2 x 2 float64 matrices, column-major: A0 = [[1, 2], [3, 4]] (rows
 * swapped: P A0 = [[3, 4], [1, 2]] = L U, L21 = 1/3, U22 = 2/3), A1 = [[2,
 * 1], [1, 1]] (no swap: L21 = 1/2, U22 = 1/2), A2 = 0 (info 1). */
const double mats[3][4] = {{1, 3, 2, 4}, {2, 1, 1, 1}, {0, 0, 0, 0}};

void case_getrf_batched()
{
    cublasHandle_t h = handle();
    double *m = on_device(&mats[0][0], 12), **ptrs = nullptr;
    int *piv = on_device<int>(nullptr, 6), *info = on_device<int>(nullptr, 3);
    double *hp[3] = {m, m + 4, m + 8};
    ptrs = on_device(hp, 3);
    BLAS_OK(cublasDgetrfBatched(h, 2, ptrs, 2, piv, info, 3));
    double out[12];
    int pivots[6], infos[3];
    to_host(out, m, 12);
    to_host(pivots, piv, 6);
    to_host(infos, info, 3);
    EXPECT(out[0] == 3 && near(out[1], 1.0 / 3) && out[2] == 4 && near(out[3], 2.0 / 3));
    EXPECT(pivots[0] == 2 && pivots[1] == 2);
    EXPECT(out[4] == 2 && out[5] == 0.5 && out[6] == 1 && out[7] == 0.5);
    EXPECT(pivots[2] == 1 && pivots[3] == 2);
    EXPECT(out[8] == 0 && out[9] == 0 && out[10] == 0 && out[11] == 0);
    EXPECT(infos[0] == 0 && infos[1] == 0 && infos[2] == 1);
    /* without pivots: A0 = [[1, 0], [3, 1]] [[1, 2], [0, -2]] */
    OK(cudaMemcpy(m, mats, sizeof mats, cudaMemcpyHostToDevice));
    BLAS_OK(cublasDgetrfBatched(h, 2, ptrs, 2, nullptr, info, 1));
    to_host(out, m, 4);
    EXPECT(out[0] == 1 && out[1] == 3 && out[2] == 2 && out[3] == -2);
    /* complex64: [[i, 1], [2, 0]] pivots on 2: L21 = i/2, U22 = 1 */
    const cuComplex c[4] = {{0, 1}, {2, 0}, {1, 0}, {0, 0}};
    cuComplex *cm = on_device(c, 4), *cp[1] = {cm}, **cptrs = on_device(cp, 1);
    BLAS_OK(cublasCgetrfBatched(h, 2, cptrs, 2, piv, info, 1));
    cuComplex cout_[4];
    to_host(cout_, cm, 4);
    to_host(pivots, piv, 2);
    EXPECT(cout_[0].x == 2 && cout_[0].y == 0 && cout_[1].x == 0 && cout_[1].y == 0.5f);
    EXPECT(cout_[2].x == 0 && cout_[2].y == 0 && cout_[3].x == 1 && cout_[3].y == 0);
    EXPECT(pivots[0] == 2 && pivots[1] == 2);
    OK(cudaDeviceSynchronize());
    for (void *p : {(void *)m, (void *)ptrs, (void *)piv, (void *)info, (void *)cm, (void *)cptrs})
        OK(cudaFree(p));
    BLAS_OK(cublasDestroy(h));
}

/* A0 x = (3, 7) and A1 x = (1, 0): x = (1, 1) and (1, -1); A0^T x = (4, 6):
 * x = (1, 1) */
void case_getrs_batched()
{
    cublasHandle_t h = handle();
    double *m = on_device(&mats[0][0], 8), *hp[2] = {m, m + 4}, **ptrs = on_device(hp, 2);
    int *piv = on_device<int>(nullptr, 4), *info = on_device<int>(nullptr, 2);
    BLAS_OK(cublasDgetrfBatched(h, 2, ptrs, 2, piv, info, 2));
    const double rhs[4] = {3, 7, 1, 0};
    double *b = on_device(rhs, 4), *bp[2] = {b, b + 2}, **bptrs = on_device(bp, 2);
    int host_info = 99;
    BLAS_OK(cublasDgetrsBatched(h, CUBLAS_OP_N, 2, 1, ptrs, 2, piv, bptrs, 2, &host_info, 2));
    EXPECT(host_info == 0);
    double x[4];
    to_host(x, b, 4);
    EXPECT(near(x[0], 1) && near(x[1], 1) && near(x[2], 1) && near(x[3], -1));
    const double rhs_t[2] = {4, 6};
    OK(cudaMemcpy(b, rhs_t, sizeof rhs_t, cudaMemcpyHostToDevice));
    BLAS_OK(cublasDgetrsBatched(h, CUBLAS_OP_T, 2, 1, ptrs, 2, piv, bptrs, 2, &host_info, 1));
    to_host(x, b, 2);
    EXPECT(near(x[0], 1) && near(x[1], 1));
    OK(cudaDeviceSynchronize());
    for (void *p : {(void *)m, (void *)ptrs, (void *)piv, (void *)info, (void *)b, (void *)bptrs})
        OK(cudaFree(p));
    BLAS_OK(cublasDestroy(h));
}

/* Note [Batched LU] in emu_blas_lu.cpp: each refusal, getrsBatched's info
 * for each argument, the quick returns; nothing is computed. */
void case_lu_batched_arguments()
{
    cublasHandle_t h = handle(), gone = handle();
    BLAS_OK(cublasDestroy(gone));
    double *m = on_device(&mats[0][0], 8), *hp[2] = {m, m + 4}, **ptrs = on_device(hp, 2);
    int *piv = on_device<int>(nullptr, 4), *info = on_device<int>(nullptr, 2);
    const cublasStatus_t bad = CUBLAS_STATUS_INVALID_VALUE;
    EXPECT_ST(cublasDgetrfBatched(gone, 2, ptrs, 2, piv, info, 2), CUBLAS_STATUS_NOT_INITIALIZED);
    EXPECT_ST(cublasDgetrfBatched(nullptr, 2, ptrs, 2, piv, info, 2), CUBLAS_STATUS_NOT_INITIALIZED);
    EXPECT_ST(cublasDgetrfBatched(h, -1, ptrs, 2, piv, info, 2), bad);
    EXPECT_ST(cublasDgetrfBatched(h, 2, ptrs, 1, piv, info, 2), bad);
    EXPECT_ST(cublasDgetrfBatched(h, 2, ptrs, 2, piv, info, -1), bad);
    EXPECT_ST(cublasDgetrfBatched(h, 2, ptrs, 2, piv, info, 3), bad); /* past the arrays */
    EXPECT_ST(cublasDgetrfBatched(h, 2, hp, 2, piv, info, 2), bad);   /* a host array */
    int host_piv[4], host_infos[2];
    EXPECT_ST(cublasDgetrfBatched(h, 2, ptrs, 2, host_piv, info, 2), bad);
    EXPECT_ST(cublasDgetrfBatched(h, 2, ptrs, 2, piv, host_infos, 2), bad);
    BLAS_OK(cublasDgetrfBatched(h, 0, ptrs, 1, piv, info, 2));
    BLAS_OK(cublasDgetrfBatched(h, 2, ptrs, 2, piv, info, 0));
    double *b = on_device<double>(nullptr, 4), *bp[2] = {b, b + 2}, **bptrs = on_device(bp, 2);
    const cublasOperation_t N = CUBLAS_OP_N;
    int hi = 0;
    auto getrs = [&](cublasOperation_t t, int n, int nrhs, double **a, int lda, const int *p, double **bb,
                     int ldb, int *i, int batch) {
        return cublasDgetrsBatched(h, t, n, nrhs, a, lda, p, bb, ldb, i, batch);
    };
    int op_raw = 7;
    cublasOperation_t bad_op;
    memcpy(&bad_op, &op_raw, sizeof bad_op);
    /* each refusal with the info it leaves */
    auto expect_refused = [&](int line, std::function<cublasStatus_t()> call, int want) {
        hi = 99;
        cublasStatus_t st = call();
        if (st != bad || hi != want) {
            printf("FAIL line %d: status %d, info %d (wanted %d)\n", line, (int)st, hi, want);
            failures++;
        }
    };
    expect_refused(__LINE__, [&] { return getrs(bad_op, 2, 1, ptrs, 2, piv, bptrs, 2, &hi, 2); }, -1);
    expect_refused(__LINE__, [&] { return getrs(N, -1, 1, ptrs, 2, piv, bptrs, 2, &hi, 2); }, -2);
    expect_refused(__LINE__, [&] { return getrs(N, 2, -1, ptrs, 2, piv, bptrs, 2, &hi, 2); }, -3);
    expect_refused(__LINE__, [&] { return getrs(N, 2, 1, ptrs, 1, piv, bptrs, 2, &hi, 2); }, -5);
    expect_refused(__LINE__, [&] { return getrs(N, 2, 1, ptrs, 2, nullptr, bptrs, 2, &hi, 2); }, -6);
    expect_refused(__LINE__, [&] { return getrs(N, 2, 1, ptrs, 2, piv, bptrs, 1, &hi, 2); }, -8);
    expect_refused(__LINE__, [&] { return getrs(N, 2, 1, ptrs, 2, piv, bptrs, 2, &hi, -1); }, -10);
    EXPECT_ST(getrs(N, 2, 1, ptrs, 2, piv, bptrs, 2, nullptr, 2), bad); /* no info */
    EXPECT_ST(getrs(N, 2, 1, ptrs, 2, piv, bptrs, 2, info, 2), bad);    /* info in device memory */
    hi = 99;
    EXPECT_ST(getrs(N, 2, 1, ptrs, 2, piv, bptrs, 2, &hi, 3), bad); /* past the arrays */
    EXPECT(hi == 0);
    EXPECT_ST(getrs(N, 2, 1, ptrs, 2, piv, bp, 2, &hi, 2), bad); /* a host array */
    EXPECT_ST(cublasDgetrsBatched(gone, N, 2, 1, ptrs, 2, piv, bptrs, 2, &hi, 2), CUBLAS_STATUS_NOT_INITIALIZED);
    hi = 99;
    BLAS_OK(getrs(N, 2, 0, ptrs, 2, piv, bptrs, 2, &hi, 2));
    EXPECT(hi == 0);
    OK(cudaDeviceSynchronize());
    double after[8];
    to_host(after, m, 8);
    EXPECT(std::memcmp(after, mats, sizeof after) == 0); /* nothing was factored */
    for (void *p : {(void *)m, (void *)ptrs, (void *)piv, (void *)info, (void *)b, (void *)bptrs})
        OK(cudaFree(p));
    BLAS_OK(cublasDestroy(h));
}

/* A matrix pointer that is not device memory faults when the work runs:
 * the device's sticky error, the host's memory untouched. */
void case_lu_batched_fault()
{
    cublasHandle_t h = handle();
    static double host[4] = {1, 3, 2, 4};
    double *hp[1] = {host}, **ptrs = on_device(hp, 1);
    int *piv = on_device<int>(nullptr, 2), *info = on_device<int>(nullptr, 1);
    BLAS_OK(cublasDgetrfBatched(h, 2, ptrs, 2, piv, info, 1));
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    EXPECT(host[0] == 1 && host[1] == 3);
}

/* A pivot outside 1..n (not from getrf) faults in getrsBatched; B keeps its
 * values. */
void case_getrs_batched_bad_pivot()
{
    cublasHandle_t h = handle();
    double *m = on_device(&mats[0][0], 4), *hp[1] = {m}, **ptrs = on_device(hp, 1);
    const int bad_piv[2] = {1, 3};
    int *piv = on_device(bad_piv, 2), hi = 99;
    const double rhs[2] = {3, 7};
    double *b = on_device(rhs, 2), *bp[1] = {b}, **bptrs = on_device(bp, 1);
    BLAS_OK(cublasDgetrsBatched(h, CUBLAS_OP_N, 2, 1, ptrs, 2, piv, bptrs, 2, &hi, 1));
    EXPECT(hi == 0);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
}

} // namespace

std::vector<Case> lu_cases()
{
    return {{"getrf_batched", case_getrf_batched},
            {"getrs_batched", case_getrs_batched},
            {"lu_batched_arguments", case_lu_batched_arguments},
            {"lu_batched_fault", case_lu_batched_fault},
            {"getrs_batched_bad_pivot", case_getrs_batched_bad_pivot}};
}
