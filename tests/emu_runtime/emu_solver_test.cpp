/* emu_solver_test.cpp - cases for the CPU emulation of cuSOLVER's dense
 * API (csrc/emu/emu_solver.cpp, emu_solver_routines.cpp, emu_dense.cpp) on
 * the emulated runtime (csrc/emu/emu_runtime.cpp), one per run:
 * `emu_solver_test CASE` prints "PASS CASE" and exits 0, or prints what
 * failed and exits 1.  tests/test_emu_solver.py builds it (with
 * emu_solver_values.cpp, the cases of what the routines compute,
 * emu_solver_oracle.cpp, those NumPy checks, and the emulated cuBLAS for
 * the case that uses both libraries) and runs every
 * case in its own process with the environment the case needs.  Here:
 * handles, workspace sizes, argument checks and devInfo = -i, extents,
 * quick returns, the workspace, stream order, sticky errors, devices.  No
 * kernels are launched: the kernel half (emu_launch.h) is a stub that
 * refuses every launch, and test work is queued with emu_runtime_enqueue.
 */
#include "emu_solver_test.h"

#include <cmath>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "emu_runtime.h"

#include <atomic>
#include <chrono>
#include <climits>
#include <thread>

/* ---- the kernel half: no kernels here ---- */

EMU_TEST_NO_KERNELS


static void sleep_ms(int ms)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

/* ---- queued test operations (emu_runtime_enqueue) ---- */

static std::atomic<int> gate{1};

static cudaError_t op_gate(void *) /* holds its stream until the host opens the gate */
{
    while (gate.load() == 0)
        sleep_ms(1);
    return cudaSuccess;
}
static cudaError_t op_fault(void *)
{
    return cudaErrorIllegalAddress;
}

const cusolverStatus_t bad = CUSOLVER_STATUS_INVALID_VALUE;

/* A symmetric positive definite 3 x 3 double matrix on the device, lda 4,
 * with a workspace, pivots, tau, W, S and devInfo: valid operands for
 * every routine at n = 3. */
struct Small {
    double *A = nullptr, *work = nullptr, *tau = nullptr, *W = nullptr, *U = nullptr, *VT = nullptr;
    int *ipiv = nullptr;
    DevInt info{777};
    static constexpr int n = 3, lda = 4, lwork = 128;
    double a[12] = {4, 1, 0, -1, 1, 3, 1, -1, 0, 1, 2, -1};
    Small()
    {
        OK(cudaMalloc((void **)&A, sizeof a));
        OK(cudaMalloc((void **)&work, lwork * sizeof(double)));
        OK(cudaMalloc((void **)&tau, n * sizeof(double)));
        OK(cudaMalloc((void **)&W, n * sizeof(double)));
        OK(cudaMalloc((void **)&U, 9 * sizeof(double)));
        OK(cudaMalloc((void **)&VT, 9 * sizeof(double)));
        OK(cudaMalloc((void **)&ipiv, n * sizeof(int)));
        reset();
    }
    void reset()
    {
        OK(cudaMemcpy(A, a, sizeof a, cudaMemcpyHostToDevice));
        info.set(777);
    }
    bool untouched()
    {
        double b[12];
        OK(cudaMemcpy(b, A, sizeof b, cudaMemcpyDeviceToHost));
        return memcmp(a, b, sizeof a) == 0;
    }
    ~Small()
    {
        for (void *p : {(void *)A, (void *)work, (void *)tau, (void *)W, (void *)U, (void *)VT, (void *)ipiv})
            OK(cudaFree(p));
    }
    cusolverStatus_t potrf(cusolverDnHandle_t h)
    {
        return cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, n, A, lda, work, lwork, info.dev);
    }
    cusolverStatus_t getrf(cusolverDnHandle_t h) { return cusolverDnDgetrf(h, n, n, A, lda, work, ipiv, info.dev); }
};

static void case_handles()
{
    cusolverDnHandle_t h = nullptr, other = nullptr;
    cudaStream_t s = nullptr, got = (cudaStream_t)0x1234;
    EXPECT_ST(cusolverDnCreate(nullptr), bad);
    SOLVER_OK(cusolverDnCreate(&h));
    SOLVER_OK(cusolverDnCreate(&other));
    EXPECT(h != nullptr && other != nullptr && h != other);
    SOLVER_OK(cusolverDnGetStream(h, &got));
    EXPECT(got == nullptr); /* the legacy default stream */
    OK(cudaStreamCreate(&s));
    SOLVER_OK(cusolverDnSetStream(h, s));
    SOLVER_OK(cusolverDnGetStream(h, &got));
    EXPECT(got == s);
    SOLVER_OK(cusolverDnGetStream(other, &got));
    EXPECT(got == nullptr);
    EXPECT_ST(cusolverDnGetStream(h, nullptr), bad);
    SOLVER_OK(cusolverDnDestroy(h));
    cublasHandle_t blas = nullptr;
    EXPECT(cublasCreate(&blas) == CUBLAS_STATUS_SUCCESS);
    /* a destroyed handle, like NULL, garbage or a cuBLAS handle, is refused by every call */
    const cusolverDnHandle_t bads[] = {h, nullptr, (cusolverDnHandle_t)0x5678, (cusolverDnHandle_t)blas};
    const cusolverStatus_t ni = CUSOLVER_STATUS_NOT_INITIALIZED;
    int lw = -5;
    for (cusolverDnHandle_t b : bads) {
        EXPECT_ST(cusolverDnDestroy(b), ni);
        EXPECT_ST(cusolverDnSetStream(b, s), ni);
        EXPECT_ST(cusolverDnGetStream(b, &got), ni);
        /* before any other argument is looked at */
        EXPECT_ST(cusolverDnSpotrf_bufferSize(b, (cublasFillMode_t)9, -1, nullptr, 0, nullptr), ni);
        EXPECT_ST(cusolverDnDgetrf_bufferSize(b, -1, 1, nullptr, 0, nullptr), ni);
        EXPECT_ST(cusolverDnCgeqrf_bufferSize(b, -1, 1, nullptr, 0, nullptr), ni);
        EXPECT_ST(cusolverDnZungqr_bufferSize(b, 1, 2, 3, nullptr, 0, nullptr, nullptr), ni);
        EXPECT_ST(cusolverDnSsyevd_bufferSize(b, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, 2, nullptr, 2,
                                              nullptr, &lw),
                  ni);
        EXPECT_ST(cusolverDnZgesvd_bufferSize(b, 2, 2, &lw), ni);
        EXPECT_ST(cusolverDnDpotrf(b, CUBLAS_FILL_MODE_LOWER, -1, nullptr, 0, nullptr, 0, nullptr), ni);
        EXPECT_ST(cusolverDnSgetrf(b, -1, 1, nullptr, 0, nullptr, nullptr, nullptr), ni);
        EXPECT_ST(cusolverDnCgetrs(b, CUBLAS_OP_N, -1, 1, nullptr, 0, nullptr, nullptr, 0, nullptr), ni);
        EXPECT_ST(cusolverDnZgeqrf(b, -1, 1, nullptr, 0, nullptr, nullptr, 0, nullptr), ni);
        EXPECT_ST(cusolverDnDorgqr(b, 1, 2, 3, nullptr, 0, nullptr, nullptr, 0, nullptr), ni);
        EXPECT_ST(cusolverDnCheevd(b, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, -1, nullptr, 0, nullptr,
                                   nullptr, 0, nullptr),
                  ni);
        EXPECT_ST(cusolverDnSgesvd(b, 'X', 'A', 2, 3, nullptr, 0, nullptr, nullptr, 0, nullptr, 0, nullptr, 0,
                                   nullptr, nullptr),
                  ni);
    }
    EXPECT(lw == -5);
    EXPECT(cublasDestroy(blas) == CUBLAS_STATUS_SUCCESS);
    SOLVER_OK(cusolverDnGetStream(other, &got)); /* the other handle lives on */
    SOLVER_OK(cusolverDnDestroy(other));
    OK(cudaStreamDestroy(s));
    OK(cudaGetLastError()); /* the library leaves the caller's last error alone */
}

static void case_no_devices() /* DEVTENSOR_EMULATE_CUDA=0, or a bad configuration */
{
    cusolverDnHandle_t h = (cusolverDnHandle_t)0x1;
    EXPECT_ST(cusolverDnCreate(&h), CUSOLVER_STATUS_NOT_INITIALIZED);
    EXPECT(h == nullptr);
    EXPECT_ST(cusolverDnCreate(nullptr), bad);
}

/* Note [Workspace sizes] in emu_solver_routines.cpp, and the bufferSize
 * calls' own argument checks. */
static void case_buffer_sizes()
{
    cusolverDnHandle_t h = handle();
    const cublasFillMode_t lo = CUBLAS_FILL_MODE_LOWER, up = CUBLAS_FILL_MODE_UPPER;
    const cusolverEigMode_t vec = CUSOLVER_EIG_MODE_VECTOR, novec = CUSOLVER_EIG_MODE_NOVECTOR;
    int lw = 0;
    auto is = [&](cusolverStatus_t st, int want) {
        bool ok = st == CUSOLVER_STATUS_SUCCESS && lw == want;
        if (!ok)
            printf("  lwork %d (status %d), wanted %d\n", lw, (int)st, want);
        lw = -1;
        return ok;
    };
    for (int n : {0, 1, 2, 7}) {
        const int one = n > 1 ? n : 1;
        EXPECT(is(cusolverDnSpotrf_bufferSize(h, lo, n, nullptr, one, &lw), one));
        EXPECT(is(cusolverDnZpotrf_bufferSize(h, up, n, nullptr, one, &lw), one));
        EXPECT(is(cusolverDnDgetrf_bufferSize(h, 3, n, nullptr, 3, &lw), one));
        EXPECT(is(cusolverDnCgetrf_bufferSize(h, n, n, nullptr, one, &lw), one));
        EXPECT(is(cusolverDnSgeqrf_bufferSize(h, 9, n, nullptr, 9, &lw), one));
        EXPECT(is(cusolverDnZgeqrf_bufferSize(h, n, n, nullptr, one, &lw), one));
        EXPECT(is(cusolverDnDorgqr_bufferSize(h, 9, n, n, nullptr, 9, nullptr, &lw), one));
        EXPECT(is(cusolverDnCungqr_bufferSize(h, 9, n, 0, nullptr, 9, nullptr, &lw), one));
        const int big = n <= 1 ? 1 : 1 + 6 * n + 2 * n * n, small = n <= 1 ? 1 : 2 * n + 1;
        const int cbig = n <= 1 ? 1 : 2 * n + n * n, csmall = n <= 1 ? 1 : n + 1;
        EXPECT(is(cusolverDnSsyevd_bufferSize(h, vec, lo, n, nullptr, one, nullptr, &lw), big));
        EXPECT(is(cusolverDnDsyevd_bufferSize(h, novec, up, n, nullptr, one, nullptr, &lw), small));
        EXPECT(is(cusolverDnCheevd_bufferSize(h, vec, up, n, nullptr, one, nullptr, &lw), cbig));
        EXPECT(is(cusolverDnZheevd_bufferSize(h, novec, lo, n, nullptr, one, nullptr, &lw), csmall));
        const int m = n + 3;
        EXPECT(is(cusolverDnSgesvd_bufferSize(h, m, n, &lw), std::max({1, 3 * n + m, 5 * n})));
        EXPECT(is(cusolverDnDgesvd_bufferSize(h, n, n, &lw), std::max({1, 3 * n + n, 5 * n})));
        EXPECT(is(cusolverDnCgesvd_bufferSize(h, m, n, &lw), std::max(1, 2 * n + m)));
        EXPECT(is(cusolverDnZgesvd_bufferSize(h, n, m, &lw), std::max(1, 2 * n + m)));
    }
    /* invalid sizes, leading dimensions and modes; lwork NULL or on the device */
    int *dev_int = nullptr;
    OK(cudaMalloc((void **)&dev_int, sizeof(int)));
    for (int *out : {&lw, (int *)nullptr, dev_int}) {
        const bool good_out = out == &lw;
        auto want = [&](cusolverStatus_t st, bool valid) {
            return st == (valid && good_out ? CUSOLVER_STATUS_SUCCESS : bad);
        };
        EXPECT(want(cusolverDnDpotrf_bufferSize(h, lo, 3, nullptr, 3, out), true));
        EXPECT(want(cusolverDnDpotrf_bufferSize(h, CUBLAS_FILL_MODE_FULL, 3, nullptr, 3, out), false));
        EXPECT(want(cusolverDnDpotrf_bufferSize(h, lo, -1, nullptr, 3, out), false));
        EXPECT(want(cusolverDnDpotrf_bufferSize(h, lo, 3, nullptr, 2, out), false));
        EXPECT(want(cusolverDnDpotrf_bufferSize(h, lo, 0, nullptr, 0, out), false)); /* lda >= max(1, n) */
        EXPECT(want(cusolverDnDgetrf_bufferSize(h, 4, 3, nullptr, 4, out), true));
        EXPECT(want(cusolverDnDgetrf_bufferSize(h, -1, 3, nullptr, 4, out), false));
        EXPECT(want(cusolverDnDgetrf_bufferSize(h, 4, -1, nullptr, 4, out), false));
        EXPECT(want(cusolverDnDgetrf_bufferSize(h, 4, 3, nullptr, 3, out), false));
        EXPECT(want(cusolverDnDgeqrf_bufferSize(h, 4, 3, nullptr, 4, out), true));
        EXPECT(want(cusolverDnDgeqrf_bufferSize(h, 4, -3, nullptr, 4, out), false));
        EXPECT(want(cusolverDnDgeqrf_bufferSize(h, 4, 3, nullptr, 1, out), false));
        EXPECT(want(cusolverDnDorgqr_bufferSize(h, 4, 3, 2, nullptr, 4, nullptr, out), true));
        EXPECT(want(cusolverDnDorgqr_bufferSize(h, 3, 4, 2, nullptr, 4, nullptr, out), false)); /* n > m */
        EXPECT(want(cusolverDnDorgqr_bufferSize(h, 4, 3, 4, nullptr, 4, nullptr, out), false)); /* k > n */
        EXPECT(want(cusolverDnDorgqr_bufferSize(h, 4, 3, -1, nullptr, 4, nullptr, out), false));
        EXPECT(want(cusolverDnDorgqr_bufferSize(h, 4, 3, 2, nullptr, 3, nullptr, out), false));
        EXPECT(want(cusolverDnDsyevd_bufferSize(h, vec, lo, 3, nullptr, 3, nullptr, out), true));
        EXPECT(want(cusolverDnDsyevd_bufferSize(h, (cusolverEigMode_t)2, lo, 3, nullptr, 3, nullptr, out), false));
        EXPECT(want(cusolverDnDsyevd_bufferSize(h, vec, CUBLAS_FILL_MODE_FULL, 3, nullptr, 3, nullptr, out), false));
        EXPECT(want(cusolverDnDsyevd_bufferSize(h, vec, lo, -3, nullptr, 3, nullptr, out), false));
        EXPECT(want(cusolverDnDsyevd_bufferSize(h, vec, lo, 3, nullptr, 2, nullptr, out), false));
        EXPECT(want(cusolverDnDgesvd_bufferSize(h, 3, 2, out), true));
        EXPECT(want(cusolverDnDgesvd_bufferSize(h, -3, 2, out), false));
        EXPECT(want(cusolverDnDgesvd_bufferSize(h, 3, -2, out), false));
    }
    OK(cudaFree(dev_int));
    SOLVER_OK(cusolverDnDestroy(h));
    OK(cudaGetLastError());
}

/* Note [Invalid arguments]: each documented argument error, in parameter
 * order, gives CUSOLVER_STATUS_INVALID_VALUE and devInfo = -i (queued);
 * nothing is computed. */
static void case_invalid_values()
{
    cusolverDnHandle_t h = handle();
    Small x;
    const int n = Small::n, lda = Small::lda, lw = Small::lwork;
    double *A = x.A, *w = x.work, *S = x.W, *U = x.U, *VT = x.VT;
    int *info = x.info.dev;
    const cublasFillMode_t lo = CUBLAS_FILL_MODE_LOWER;
    const cusolverEigMode_t vec = CUSOLVER_EIG_MODE_VECTOR;
    auto svd = [&](char ju, char jvt, int m_, int n_, int lda_, int ldu, int ldvt, int lwork) {
        return cusolverDnDgesvd(h, ju, jvt, m_, n_, A, lda_, S, U, ldu, VT, ldvt, w, lwork, nullptr, info);
    };
    struct Bad {
        int line;
        std::function<cusolverStatus_t()> call;
        int param;
    };
    const std::vector<Bad> calls = {
        {__LINE__, [&] { return cusolverDnDpotrf(h, CUBLAS_FILL_MODE_FULL, n, A, lda, w, lw, info); }, 1},
        {__LINE__, [&] { return cusolverDnDpotrf(h, (cublasFillMode_t)-1, n, A, lda, w, lw, info); }, 1},
        {__LINE__, [&] { return cusolverDnDpotrf(h, lo, -1, A, lda, w, lw, info); }, 2},
        {__LINE__, [&] { return cusolverDnDpotrf(h, lo, n, A, n - 1, w, lw, info); }, 4},
        {__LINE__, [&] { return cusolverDnDpotrf(h, lo, n, A, lda, w, n - 1, info); }, 6}, /* lwork short */
        {__LINE__, [&] { return cusolverDnDgetrf(h, -1, n, A, lda, w, x.ipiv, info); }, 1},
        {__LINE__, [&] { return cusolverDnDgetrf(h, n, -1, A, lda, w, x.ipiv, info); }, 2},
        {__LINE__, [&] { return cusolverDnDgetrf(h, n, n, A, n - 1, w, x.ipiv, info); }, 4},
        {__LINE__, [&] { return cusolverDnDgetrf(h, 0, n, A, 0, w, x.ipiv, info); }, 4}, /* lda >= max(1, m) */
        {__LINE__, [&] { return cusolverDnDgetrs(h, (cublasOperation_t)3, n, 1, A, lda, x.ipiv, w, n, info); }, 1},
        {__LINE__, [&] { return cusolverDnDgetrs(h, CUBLAS_OP_N, -1, 1, A, lda, x.ipiv, w, n, info); }, 2},
        {__LINE__, [&] { return cusolverDnDgetrs(h, CUBLAS_OP_N, n, -1, A, lda, x.ipiv, w, n, info); }, 3},
        {__LINE__, [&] { return cusolverDnDgetrs(h, CUBLAS_OP_T, n, 1, A, n - 1, x.ipiv, w, n, info); }, 5},
        {__LINE__, [&] { return cusolverDnDgetrs(h, CUBLAS_OP_C, n, 1, A, lda, x.ipiv, w, n - 1, info); }, 8},
        {__LINE__, [&] { return cusolverDnDgeqrf(h, -1, n, A, lda, x.tau, w, lw, info); }, 1},
        {__LINE__, [&] { return cusolverDnDgeqrf(h, n, -1, A, lda, x.tau, w, lw, info); }, 2},
        {__LINE__, [&] { return cusolverDnDgeqrf(h, n, n, A, n - 1, x.tau, w, lw, info); }, 4},
        {__LINE__, [&] { return cusolverDnDgeqrf(h, n, n, A, lda, x.tau, w, n - 1, info); }, 7},
        {__LINE__, [&] { return cusolverDnDorgqr(h, -1, n, n, A, lda, x.tau, w, lw, info); }, 1},
        {__LINE__, [&] { return cusolverDnDorgqr(h, n - 1, n, n, A, lda, x.tau, w, lw, info); }, 2}, /* n > m */
        {__LINE__, [&] { return cusolverDnDorgqr(h, n, n, n + 1, A, lda, x.tau, w, lw, info); }, 3}, /* k > n */
        {__LINE__, [&] { return cusolverDnDorgqr(h, n, n, -1, A, lda, x.tau, w, lw, info); }, 3},
        {__LINE__, [&] { return cusolverDnDorgqr(h, n, n, n, A, n - 1, x.tau, w, lw, info); }, 5},
        {__LINE__, [&] { return cusolverDnDorgqr(h, n, n, n, A, lda, x.tau, w, n - 1, info); }, 8},
        {__LINE__, [&] { return cusolverDnDsyevd(h, (cusolverEigMode_t)2, lo, n, A, lda, S, w, lw, info); }, 1},
        {__LINE__, [&] { return cusolverDnDsyevd(h, vec, CUBLAS_FILL_MODE_FULL, n, A, lda, S, w, lw, info); }, 2},
        {__LINE__, [&] { return cusolverDnDsyevd(h, vec, lo, -1, A, lda, S, w, lw, info); }, 3},
        {__LINE__, [&] { return cusolverDnDsyevd(h, vec, lo, n, A, n - 1, S, w, lw, info); }, 5},
        {__LINE__, [&] { return cusolverDnDsyevd(h, vec, lo, n, A, lda, S, w, 6 * n + 2 * n * n, info); }, 8},
        {__LINE__, [&] { return svd('X', 'A', n, n, lda, n, n, lw); }, 1},
        {__LINE__, [&] { return svd('A', 'x', n, n, lda, n, n, lw); }, 2},
        {__LINE__, [&] { return svd('O', 'o', n, n, lda, n, n, lw); }, 2},
        {__LINE__, [&] { return svd('A', 'A', -1, n, lda, n, n, lw); }, 3},
        {__LINE__, [&] { return svd('A', 'A', n, -1, lda, n, n, lw); }, 4},
        {__LINE__, [&] { return svd('N', 'N', n - 1, n, lda, n, n, lw); }, 4}, /* m < n */
        {__LINE__, [&] { return svd('A', 'A', n, n, n - 1, n, n, lw); }, 6},
        {__LINE__, [&] { return svd('S', 'A', n, n, lda, n - 1, n, lw); }, 9},
        {__LINE__, [&] { return svd('N', 'A', n, n, lda, 0, n, lw); }, 9},
        {__LINE__, [&] { return svd('N', 'S', n, n, lda, 1, n - 1, lw); }, 11},
        {__LINE__, [&] { return svd('N', 'N', n, n, lda, 1, 0, lw); }, 11},
        {__LINE__, [&] { return svd('N', 'N', n, n, lda, 1, 1, 5 * n - 1); }, 13},
    };
    for (const Bad &b : calls) {
        x.info.set(777);
        cusolverStatus_t st = b.call();
        OK(cudaDeviceSynchronize());
        int got = x.info.get();
        if (st != bad || got != -b.param) {
            printf("FAIL line %d: status %d, devInfo %d; wanted %d and -%d\n", b.line, (int)st, got, (int)bad, b.param);
            failures++;
        }
    }
    EXPECT(x.untouched()); /* nothing was computed */
    /* the smallest lwork accepted is the bufferSize answer; NULL devInfo: no write to make */
    SOLVER_OK(cusolverDnDpotrf(h, lo, n, A, lda, w, n, info));
    OK(cudaDeviceSynchronize());
    EXPECT(x.info.get() == 0 && !x.untouched());
    x.reset();
    EXPECT_ST(cusolverDnDpotrf(h, lo, -1, A, lda, w, lw, nullptr), bad);
    /* the complex routines check the same way */
    EXPECT_ST(cusolverDnZheevd(h, vec, lo, n, (cuDoubleComplex *)A, 1, S, (cuDoubleComplex *)w, lw, info), bad);
    OK(cudaDeviceSynchronize());
    EXPECT(x.info.get() == -5);
    EXPECT_ST(cusolverDnCgesvd(h, 'A', 'A', n, n, (cuComplex *)A, lda, (float *)S, (cuComplex *)U, n,
                               (cuComplex *)VT, n, (cuComplex *)w, 2 * n + n - 1, nullptr, info),
              bad);
    OK(cudaDeviceSynchronize());
    EXPECT(x.info.get() == -13);
    OK(cudaGetLastError());
    SOLVER_OK(cusolverDnDestroy(h));
}

/* Note [Extents] in emu_solver.cpp: exact fits pass, one element more
 * fails, and devInfo is not written by these refusals. */
static void case_extents()
{
    cusolverDnHandle_t h = handle();
    const int m = 5, n = 3, lda = 7;
    const size_t na = (size_t)(n - 1) * lda + m;
    double *A, *tau, *S, *U, *VT, *rwork, *work, *host_mem;
    int *ipiv;
    DevInt info(777);
    const int lw = 64; /* enough for every routine here */
    int lw_getrf = 0;
    SOLVER_OK(cusolverDnDgetrf_bufferSize(h, m, n, nullptr, lda, &lw_getrf));
    OK(cudaMalloc((void **)&A, na * 8));
    OK(cudaMalloc((void **)&tau, n * 8));
    OK(cudaMalloc((void **)&S, n * 8));
    OK(cudaMalloc((void **)&U, (size_t)m * m * 8));
    OK(cudaMalloc((void **)&VT, (size_t)n * n * 8));
    OK(cudaMalloc((void **)&rwork, (n - 1) * 8));
    OK(cudaMalloc((void **)&work, (size_t)lw * 8));
    OK(cudaMalloc((void **)&ipiv, n * sizeof(int)));
    OK(cudaMallocHost((void **)&host_mem, na * 8));
    std::vector<double> ha(na, 1.0);
    for (int i = 0; i < n; i++)
        ha[(size_t)i * lda + i] = 10; /* nonsingular */
    OK(cudaMemcpy(A, ha.data(), na * 8, cudaMemcpyHostToDevice));
    auto refused = [&](cusolverStatus_t st) {
        OK(cudaDeviceSynchronize());
        bool ok = st == bad && info.get() == 777;
        info.set(777);
        return ok;
    };
    auto getrf = [&](double *a, int ld, double *wk, int *pv, int *inf) {
        return cusolverDnDgetrf(h, m, n, a, ld, wk, pv, inf);
    };
    SOLVER_OK(getrf(A, lda, work + lw - lw_getrf, ipiv, info.dev)); /* exactly the allocations */
    OK(cudaDeviceSynchronize());
    EXPECT(info.get() == 0);
    info.set(777);
    OK(cudaMemcpy(A, ha.data(), na * 8, cudaMemcpyHostToDevice));
    EXPECT(refused(getrf(A + 1, lda, work, ipiv, info.dev)));           /* A one element past its end */
    EXPECT(refused(getrf(A, lda + 1, work, ipiv, info.dev)));           /* its last column past it */
    EXPECT(refused(getrf(A - 1, lda, work, ipiv, info.dev)));           /* before it */
    EXPECT(refused(getrf(host_mem, lda, work, ipiv, info.dev)));        /* pinned host memory */
    EXPECT(refused(getrf(ha.data(), lda, work, ipiv, info.dev)));       /* host memory */
    EXPECT(refused(getrf(A, lda, work + lw - lw_getrf + 1, ipiv, info.dev))); /* workspace short */
    EXPECT(refused(getrf(A, lda, nullptr, ipiv, info.dev)));
    EXPECT(refused(getrf(A, lda, work, ipiv + 1, info.dev)));           /* pivots short */
    EXPECT_ST(getrf(A, lda, work, ipiv, nullptr), bad);                 /* devInfo itself */
    EXPECT_ST(getrf(A, lda, work, ipiv, (int *)host_mem), bad);
    EXPECT_ST(getrf(A, lda, work, ipiv, (int *)(A + na) - 1 + 1), bad);
    EXPECT_ST(getrf(A, lda, work, ipiv, (int *)(A + na) - 1), CUSOLVER_STATUS_SUCCESS); /* the last 4 bytes of A */
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(A, ha.data(), na * 8, cudaMemcpyHostToDevice));
    /* the other routines' operands */
    /* lwork claims more than the allocation holds */
    EXPECT(refused(cusolverDnDpotrf(h, CUBLAS_FILL_MODE_UPPER, n, A, lda, work + 1, lw, info.dev)));
    EXPECT(refused(cusolverDnDgeqrf(h, m, n, A, lda, tau + 1, work, lw, info.dev)));
    EXPECT(refused(cusolverDnDorgqr(h, m, n, n, A, lda, tau + 1, work, lw, info.dev)));
    EXPECT(refused(cusolverDnDsyevd(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, A, lda, S + 1, work, lw,
                                    info.dev)));
    EXPECT(refused(cusolverDnDgetrs(h, CUBLAS_OP_N, n, 2, A, lda, ipiv, A, (int)na - 2, info.dev)));
    auto svd = [&](char ju, char jvt, double *s, double *u, int ldu, double *vt, int ldvt, double *rw) {
        OK(cudaMemcpy(A, ha.data(), na * 8, cudaMemcpyHostToDevice));
        return cusolverDnDgesvd(h, ju, jvt, m, n, A, lda, s, u, ldu, vt, ldvt, work, lw, rw, info.dev);
    };
    EXPECT(refused(svd('A', 'A', S + 1, U, m, VT, n, rwork)));
    EXPECT(refused(svd('A', 'A', S, U + 1, m, VT, n, rwork)));    /* U m x m */
    SOLVER_OK(svd('S', 'A', S, U + m * (m - n), m, VT, n, rwork)); /* U m x n fits there */
    OK(cudaDeviceSynchronize());
    EXPECT(info.get() == 0);
    info.set(777);
    EXPECT(refused(svd('S', 'A', S, U, m, VT + 1, n, rwork)));
    EXPECT(refused(svd('S', 'S', S, U, m, VT, n, rwork + 1)));    /* rwork: min(m, n) - 1 */
    SOLVER_OK(svd('S', 'S', S, U, m, VT, n, nullptr));            /* or none */
    SOLVER_OK(svd('N', 'N', S, nullptr, 1, nullptr, 1, rwork));   /* U and VT not looked at */
    OK(cudaDeviceSynchronize());
    EXPECT(info.get() == 0);
    double *gone;
    OK(cudaMalloc((void **)&gone, na * 8));
    OK(cudaFree(gone));
    info.set(777);
    EXPECT(refused(getrf(gone, lda, work, ipiv, info.dev))); /* freed */
    /* an extent past any allocation */
    EXPECT(refused(cusolverDnDgetrf(h, INT_MAX, 2, A, INT_MAX, work, ipiv, info.dev)));
    OK(cudaGetLastError());
    for (void *p : {(void *)A, (void *)tau, (void *)S, (void *)U, (void *)VT, (void *)rwork, (void *)work})
        OK(cudaFree(p));
    OK(cudaFree(ipiv));
    OK(cudaFreeHost(host_mem));
    SOLVER_OK(cusolverDnDestroy(h));
}

/* Empty matrices: nothing is read (NULL operands and workspace pass), and
 * devInfo is 0, written in stream order. */
static void case_quick_returns()
{
    cusolverDnHandle_t h = handle();
    DevInt info(5);
    auto zero = [&](cusolverStatus_t st) {
        OK(cudaDeviceSynchronize());
        bool ok = st == CUSOLVER_STATUS_SUCCESS && info.get() == 0;
        info.set(5);
        return ok;
    };
    const cublasFillMode_t up = CUBLAS_FILL_MODE_UPPER;
    const cusolverEigMode_t vec = CUSOLVER_EIG_MODE_VECTOR;
    EXPECT(zero(cusolverDnSpotrf(h, up, 0, nullptr, 1, nullptr, 1, info.dev)));
    EXPECT(zero(cusolverDnDgetrf(h, 0, 4, nullptr, 1, nullptr, nullptr, info.dev)));
    EXPECT(zero(cusolverDnCgetrf(h, 4, 0, nullptr, 4, nullptr, nullptr, info.dev)));
    EXPECT(zero(cusolverDnZgetrs(h, CUBLAS_OP_C, 0, 3, nullptr, 1, nullptr, nullptr, 1, info.dev)));
    EXPECT(zero(cusolverDnSgetrs(h, CUBLAS_OP_N, 3, 0, nullptr, 3, nullptr, nullptr, 3, info.dev)));
    EXPECT(zero(cusolverDnDgeqrf(h, 0, 3, nullptr, 1, nullptr, nullptr, 3, info.dev)));
    EXPECT(zero(cusolverDnCgeqrf(h, 3, 0, nullptr, 3, nullptr, nullptr, 1, info.dev)));
    EXPECT(zero(cusolverDnZungqr(h, 3, 0, 0, nullptr, 3, nullptr, nullptr, 1, info.dev)));
    EXPECT(zero(cusolverDnSorgqr(h, 0, 0, 0, nullptr, 1, nullptr, nullptr, 1, info.dev)));
    EXPECT(zero(cusolverDnDsyevd(h, vec, up, 0, nullptr, 1, nullptr, nullptr, 1, info.dev)));
    EXPECT(zero(cusolverDnCheevd(h, vec, up, 0, nullptr, 1, nullptr, nullptr, 1, info.dev)));
    EXPECT(zero(cusolverDnDgesvd(h, 'A', 'A', 0, 0, nullptr, 1, nullptr, nullptr, 1, nullptr, 1, nullptr, 1,
                                 nullptr, info.dev)));
    EXPECT(zero(cusolverDnZgesvd(h, 'N', 'N', 4, 0, nullptr, 4, nullptr, nullptr, 1, nullptr, 1, nullptr, 8,
                                 nullptr, info.dev)));
    /* devInfo must still be valid device memory */
    EXPECT_ST(cusolverDnDgetrf(h, 0, 4, nullptr, 1, nullptr, nullptr, nullptr), bad);
    int host_info = 5;
    EXPECT_ST(cusolverDnDgetrf(h, 0, 4, nullptr, 1, nullptr, nullptr, &host_info), bad);
    EXPECT(host_info == 5);
    SOLVER_OK(cusolverDnDestroy(h));
}

/* Note [Workspace sizes]: the workspace is overwritten (0xFF bytes) by the
 * call, so a workspace that overlaps an operand corrupts it, as it would
 * on a GPU; a larger lwork than asked is fine. */
static void case_workspace()
{
    cusolverDnHandle_t h = handle();
    Small x;
    SOLVER_OK(cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, Small::n, x.A, Small::lda, x.work, Small::lwork,
                               x.info.dev));
    OK(cudaDeviceSynchronize());
    EXPECT(x.info.get() == 0);
    std::vector<unsigned char> w(Small::lwork * sizeof(double));
    OK(cudaMemcpy(w.data(), x.work, w.size(), cudaMemcpyDeviceToHost));
    bool all = true;
    for (unsigned char c : w)
        all = all && c == 0xFF;
    EXPECT(all);
    double l00 = 0;
    OK(cudaMemcpy(&l00, x.A, sizeof l00, cudaMemcpyDeviceToHost));
    EXPECT(l00 == 2); /* sqrt(4) */
    x.reset();
    /* the workspace over A itself: A is gone before it is read */
    SOLVER_OK(cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, Small::n, x.A, Small::lda, x.A, Small::n, x.info.dev));
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(&l00, x.A, sizeof l00, cudaMemcpyDeviceToHost));
    EXPECT(std::isnan(l00) && x.info.get() == 1);
    SOLVER_OK(cusolverDnDestroy(h));
}

/* The work is queued on the handle's stream, in order with the copies
 * there, and runs later (DEVTENSOR_EMULATE_DELAY_US=200000): a read
 * without synchronising sees stale values. */
static void case_stream_order()
{
    cusolverDnHandle_t h = handle();
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    SOLVER_OK(cusolverDnSetStream(h, s));
    double *d = nullptr, a[4] = {4, 2, 2, 10}, out[4] = {0, 0, 0, 0};
    int *info = nullptr, info_out = -9;
    OK(cudaMalloc((void **)&d, 4 * sizeof(double) + 8 * sizeof(double)));
    OK(cudaMalloc((void **)&info, sizeof(int)));
    OK(cudaMemsetAsync(d, 0, 4 * sizeof(double), s));
    OK(cudaMemcpyAsync(d, a, sizeof a, cudaMemcpyHostToDevice, s));
    SOLVER_OK(cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, 2, d, 2, d + 4, 8, info));
    OK(cudaMemcpyAsync(out, d, sizeof out, cudaMemcpyDeviceToHost, s));
    OK(cudaMemcpyAsync(&info_out, info, sizeof info_out, cudaMemcpyDeviceToHost, s));
    EXPECT_ERR(cudaStreamQuery(s), cudaErrorNotReady);
    bool right = out[0] == 2 && out[1] == 1 && out[3] == 3 && info_out == 0;
    printf("read without synchronising: %s\n", right ? "right" : "stale");
    EXPECT(!right);
    OK(cudaStreamSynchronize(s));
    EXPECT(out[0] == 2 && out[1] == 1 && out[2] == 2 && out[3] == 3 && info_out == 0);
    OK(cudaGetLastError());
    OK(cudaFree(d));
    OK(cudaFree(info));
    SOLVER_OK(cusolverDnDestroy(h));
    OK(cudaStreamDestroy(s));
}

/* The work waits for earlier work on its stream, and only for that; a
 * handle on the legacy stream waits for a blocking stream's work. */
static void case_stream_gate()
{
    cusolverDnHandle_t h = handle();
    cudaStream_t s, blocking;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    OK(cudaStreamCreate(&blocking));
    SOLVER_OK(cusolverDnSetStream(h, s));
    Small x;
    gate = 0;
    OK(emu_runtime_enqueue(s, op_gate, nullptr, nullptr));
    SOLVER_OK(x.getrf(h));
    sleep_ms(50);
    EXPECT_ERR(cudaStreamQuery(s), cudaErrorNotReady);
    EXPECT(x.untouched() && x.info.get() == 777); /* the legacy stream's copy does not wait for s */
    gate = 1;
    OK(cudaStreamSynchronize(s));
    EXPECT(!x.untouched() && x.info.get() == 0);
    x.reset();
    SOLVER_OK(cusolverDnSetStream(h, nullptr));
    gate = 0;
    OK(emu_runtime_enqueue(blocking, op_gate, nullptr, nullptr));
    SOLVER_OK(x.potrf(h));
    sleep_ms(50);
    EXPECT_ERR(cudaStreamQuery(nullptr), cudaErrorNotReady);
    gate = 1;
    OK(cudaDeviceSynchronize());
    EXPECT(!x.untouched() && x.info.get() == 0);
    SOLVER_OK(cusolverDnDestroy(h));
    OK(cudaStreamDestroy(s));
    OK(cudaStreamDestroy(blocking));
}

/* cusolverDnDestroy does not wait for the handle's work, which completes. */
static void case_destroy_does_not_wait()
{
    cusolverDnHandle_t h = handle();
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    SOLVER_OK(cusolverDnSetStream(h, s));
    Small x;
    gate = 0;
    OK(emu_runtime_enqueue(s, op_gate, nullptr, nullptr));
    SOLVER_OK(x.potrf(h));
    std::thread opener([] { /* were Destroy to wait, it would return after this */
        sleep_ms(1000);
        gate = 1;
    });
    SOLVER_OK(cusolverDnDestroy(h));
    EXPECT_ERR(cudaStreamQuery(s), cudaErrorNotReady);
    opener.join();
    OK(cudaStreamSynchronize(s));
    EXPECT(!x.untouched() && x.info.get() == 0);
    OK(cudaStreamDestroy(s));
}

/* A device with a sticky error: every call that would queue work (quick
 * returns too: they write devInfo) fails to launch; argument errors are
 * still reported; another device works. */
static void case_sticky() /* DEVTENSOR_EMULATE_CUDA=2 */
{
    cusolverDnHandle_t h = handle();
    static Small *kept = new Small; /* never freed: cudaFree reports the sticky error */
    Small &x = *kept;
    gate = 0;
    OK(emu_runtime_enqueue(nullptr, op_gate, nullptr, nullptr));
    OK(emu_runtime_enqueue(nullptr, op_fault, nullptr, nullptr));
    SOLVER_OK(x.getrf(h)); /* queued before the fault runs: skipped */
    gate = 1;
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    const cusolverStatus_t failed = CUSOLVER_STATUS_EXECUTION_FAILED;
    EXPECT_ST(x.getrf(h), failed);
    EXPECT_ST(x.potrf(h), failed);
    EXPECT_ST(cusolverDnDgetrf(h, 0, 3, nullptr, 1, nullptr, nullptr, x.info.dev), failed);
    EXPECT_ST(cusolverDnDgetrf(h, -1, 3, x.A, 4, x.work, x.ipiv, x.info.dev), bad);
    int lw = 0;
    SOLVER_OK(cusolverDnDgesvd_bufferSize(h, 3, 3, &lw)); /* nothing to launch */
    SOLVER_OK(cusolverDnDestroy(h));
    OK(cudaSetDevice(1));
    cusolverDnHandle_t h1 = handle();
    Small y;
    SOLVER_OK(y.getrf(h1));
    OK(cudaDeviceSynchronize());
    EXPECT(!y.untouched() && y.info.get() == 0);
    SOLVER_OK(cusolverDnDestroy(h1));
}

/* Note [Pivots in getrs]: a pivot outside 1..n is an illegal address. */
static void case_bad_pivot()
{
    cusolverDnHandle_t h = handle();
    static Small *kept = new Small;
    Small &x = *kept;
    int piv[3] = {1, 4, 3};
    OK(cudaMemcpy(x.ipiv, piv, sizeof piv, cudaMemcpyHostToDevice));
    SOLVER_OK(cusolverDnDgetrs(h, CUBLAS_OP_N, 3, 1, x.A, 4, x.ipiv, x.work, 3, x.info.dev));
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    EXPECT_ST(x.getrf(h), CUSOLVER_STATUS_EXECUTION_FAILED);
    SOLVER_OK(cusolverDnDestroy(h));
}

/* Operands on another device need peer access; a handle works on its own
 * device and stream. */
static void case_devices() /* DEVTENSOR_EMULATE_CUDA=2 */
{
    cusolverDnHandle_t h0 = handle();
    OK(cudaSetDevice(1));
    cusolverDnHandle_t h1 = handle();
    Small on1; /* device 1's memory */
    EXPECT_ST(on1.potrf(h0), CUSOLVER_STATUS_EXECUTION_FAILED); /* device 1 is current, h0 is device 0's */
    EXPECT(on1.info.get() == 777);
    SOLVER_OK(on1.potrf(h1));
    OK(cudaDeviceSynchronize());
    EXPECT(on1.info.get() == 0);
    on1.reset();
    OK(cudaSetDevice(0));
    EXPECT_ST(on1.potrf(h0), bad); /* device 0 may not access device 1's memory */
    OK(cudaDeviceEnablePeerAccess(1, 0));
    SOLVER_OK(on1.potrf(h0)); /* now it may */
    OK(cudaDeviceSynchronize());
    EXPECT(on1.info.get() == 0 && !on1.untouched());
    cudaStream_t s0;
    OK(cudaStreamCreate(&s0));
    OK(cudaSetDevice(1));
    SOLVER_OK(cusolverDnSetStream(h1, s0)); /* taken, but a launch there fails */
    EXPECT_ST(on1.getrf(h1), CUSOLVER_STATUS_EXECUTION_FAILED);
    SOLVER_OK(cusolverDnDestroy(h1));
    SOLVER_OK(cusolverDnDestroy(h0));
    OK(cudaGetLastError());
}

/* cuBLAS and cuSOLVER in one program, on one stream: A = M M^T by
 * cublasGemmStridedBatchedEx, then its Cholesky factor, queued without
 * synchronising in between. */
static void case_with_cublas()
{
    cublasHandle_t b = nullptr;
    cusolverDnHandle_t h = handle();
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    EXPECT(cublasCreate(&b) == CUBLAS_STATUS_SUCCESS);
    EXPECT(cublasSetStream(b, s) == CUBLAS_STATUS_SUCCESS);
    SOLVER_OK(cusolverDnSetStream(h, s));
    const int n = 3;
    double m[9] = {2, 1, 0, 0, 1, 1, 0, 0, 3}, one = 1, zero = 0, l[9]; /* lower, column-major */
    double *M, *A, *work;
    int *info, info_out = -1;
    OK(cudaMalloc((void **)&M, sizeof m));
    OK(cudaMalloc((void **)&A, sizeof m));
    OK(cudaMalloc((void **)&work, 16 * sizeof(double)));
    OK(cudaMalloc((void **)&info, sizeof(int)));
    OK(cudaMemcpyAsync(M, m, sizeof m, cudaMemcpyHostToDevice, s));
    EXPECT(cublasGemmStridedBatchedEx(b, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &one, M, CUDA_R_64F, n, 0, M,
                                      CUDA_R_64F, n, 0, &zero, A, CUDA_R_64F, n, 0, 1, CUBLAS_COMPUTE_64F,
                                      CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS);
    SOLVER_OK(cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, n, A, n, work, 16, info));
    OK(cudaMemcpyAsync(l, A, sizeof l, cudaMemcpyDeviceToHost, s));
    OK(cudaMemcpyAsync(&info_out, info, sizeof info_out, cudaMemcpyDeviceToHost, s));
    OK(cudaStreamSynchronize(s));
    /* M is lower triangular with a positive diagonal: the factor of M M^T is M */
    EXPECT(info_out == 0);
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++)
            EXPECT(std::abs(l[j * n + i] - m[j * n + i]) < 1e-14);
    EXPECT(cublasDestroy(b) == CUBLAS_STATUS_SUCCESS);
    SOLVER_OK(cusolverDnDestroy(h));
    for (void *p : {(void *)M, (void *)A, (void *)work, (void *)info})
        OK(cudaFree(p));
    OK(cudaStreamDestroy(s));
}

/* Note [Batched Cholesky] in emu_solver_routines.cpp: three 2 x 2 float64
 * matrices (the last not positive definite) through a pointer array in
 * device memory; the argument and extent checks. */
static void case_potrf_batched()
{
    cusolverDnHandle_t h = handle();
    const double host[3][4] = {{4, 2, 2, 10}, {9, 3, 3, 5}, {1, 2, 2, 1}};
    double *m = nullptr, **ptrs = nullptr;
    int *info = nullptr;
    OK(cudaMalloc((void **)&m, sizeof host));
    OK(cudaMalloc((void **)&ptrs, 3 * sizeof *ptrs));
    OK(cudaMalloc((void **)&info, 3 * sizeof *info));
    OK(cudaMemcpy(m, host, sizeof host, cudaMemcpyHostToDevice));
    double *hp[3] = {m, m + 4, m + 8};
    OK(cudaMemcpy(ptrs, hp, sizeof hp, cudaMemcpyHostToDevice));
    SOLVER_OK(cusolverDnDpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, 2, ptrs, 2, info, 3));
    double out[3][4];
    int infos[3] = {-9, -9, -9};
    OK(cudaMemcpy(out, m, sizeof out, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(infos, info, sizeof infos, cudaMemcpyDeviceToHost));
    EXPECT(infos[0] == 0 && infos[1] == 0 && infos[2] == 2);
    EXPECT(out[0][0] == 2 && out[0][1] == 1 && out[0][3] == 3); /* L = [[2, 0], [1, 3]] */
    EXPECT(out[1][0] == 3 && out[1][1] == 1 && out[1][3] == 2);
    EXPECT(out[0][2] == 2 && out[1][2] == 3);                   /* the upper triangle untouched */
    const cusolverStatus_t bad = CUSOLVER_STATUS_INVALID_VALUE;
    EXPECT_ST(cusolverDnDpotrfBatched(h, (cublasFillMode_t)7, 2, ptrs, 2, info, 3), bad);
    EXPECT_ST(cusolverDnDpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, -1, ptrs, 2, info, 3), bad);
    EXPECT_ST(cusolverDnDpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, 2, ptrs, 1, info, 3), bad);
    EXPECT_ST(cusolverDnDpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, 2, ptrs, 2, info, 0), bad);
    EXPECT_ST(cusolverDnDpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, 2, ptrs, 2, info, 4), bad); /* past both arrays */
    EXPECT_ST(cusolverDnDpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, 2, hp, 2, info, 3), bad);  /* a host array */
    EXPECT_ST(cusolverDnDpotrfBatched(nullptr, CUBLAS_FILL_MODE_LOWER, 2, ptrs, 2, info, 3),
              CUSOLVER_STATUS_NOT_INITIALIZED);
    /* n = 0: every info 0 */
    SOLVER_OK(cusolverDnDpotrfBatched(h, CUBLAS_FILL_MODE_UPPER, 0, ptrs, 1, info, 3));
    OK(cudaMemcpy(infos, info, sizeof infos, cudaMemcpyDeviceToHost));
    EXPECT(infos[0] == 0 && infos[1] == 0 && infos[2] == 0);
    OK(cudaDeviceSynchronize());
    OK(cudaFree(m));
    OK(cudaFree(ptrs));
    OK(cudaFree(info));
    SOLVER_OK(cusolverDnDestroy(h));
}

/* A pointer in the array that is not device memory faults when the work
 * runs: the device's sticky error, as on a GPU. */
static void case_potrf_batched_fault()
{
    cusolverDnHandle_t h = handle();
    static double host[4] = {4, 2, 2, 10};
    double **ptrs = nullptr;
    int *info = nullptr;
    OK(cudaMalloc((void **)&ptrs, sizeof *ptrs));
    OK(cudaMalloc((void **)&info, sizeof *info));
    double *hp[1] = {host};
    OK(cudaMemcpy(ptrs, hp, sizeof hp, cudaMemcpyHostToDevice));
    SOLVER_OK(cusolverDnDpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, 2, ptrs, 2, info, 1));
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    EXPECT(host[0] == 4); /* the host's memory is not written */
}

/* st is CUSOLVER_STATUS_INVALID_VALUE and the device's *info is -want:
 * the want-th argument refused (Note [Invalid arguments]) */
static void expect_refused(int line, cusolverStatus_t st, const int *info, int want)
{
    int got = 99;
    OK(cudaMemcpy(&got, info, sizeof got, cudaMemcpyDeviceToHost));
    if (st != CUSOLVER_STATUS_INVALID_VALUE || got != -want) {
        printf("FAIL line %d: status %d, info %d (wanted %d)\n", line, (int)st, got, -want);
        failures++;
    }
}

/* Note [syevjBatched] in emu_solver_routines.cpp: three packed 2 x 2
 * float64 matrices ([[2, 1], [1, 2]]: 1 and 3 with eigenvectors (1, -1)
 * and (1, 1) over sqrt 2; diag(4, -1): -1 and 4; zero), the upper triangle
 * read with NaN below it, a complex Hermitian one ([[2, i], [-i, 2]]: 1
 * and 3), eigenvalues only; the option object's life. */
static void case_syevj_batched()
{
    cusolverDnHandle_t h = handle();
    const cusolverStatus_t invalid = CUSOLVER_STATUS_INVALID_VALUE;
    syevjInfo_t params = nullptr, gone = nullptr;
    EXPECT_ST(cusolverDnCreateSyevjInfo(nullptr), invalid);
    SOLVER_OK(cusolverDnCreateSyevjInfo(&params));
    SOLVER_OK(cusolverDnCreateSyevjInfo(&gone));
    SOLVER_OK(cusolverDnDestroySyevjInfo(gone));
    EXPECT_ST(cusolverDnDestroySyevjInfo(gone), invalid);
    EXPECT_ST(cusolverDnDestroyParams((cusolverDnParams_t)(void *)params), invalid); /* another kind */
    const double nan = NAN, host[3][4] = {{2, 1, nan, 2}, {4, 0, nan, -1}, {0, 0, nan, 0}};
    double *A = nullptr, *W = nullptr, *work = nullptr;
    int *info = nullptr, lwork = 0;
    OK(cudaMalloc((void **)&A, sizeof host));
    OK(cudaMalloc((void **)&W, 6 * sizeof(double)));
    OK(cudaMalloc((void **)&info, 3 * sizeof(int)));
    OK(cudaMemcpy(A, host, sizeof host, cudaMemcpyHostToDevice));
    const cusolverEigMode_t vec = CUSOLVER_EIG_MODE_VECTOR, novec = CUSOLVER_EIG_MODE_NOVECTOR;
    const cublasFillMode_t lo = CUBLAS_FILL_MODE_LOWER;
    SOLVER_OK(cusolverDnDsyevjBatched_bufferSize(h, vec, lo, 2, A, 2, W, &lwork, params, 3));
    EXPECT(lwork > 0);
    OK(cudaMalloc((void **)&work, (size_t)lwork * sizeof(double)));
    SOLVER_OK(cusolverDnDsyevjBatched(h, vec, lo, 2, A, 2, W, work, lwork, info, params, 3));
    double w[6], v[12];
    int infos[3] = {-9, -9, -9};
    OK(cudaMemcpy(w, W, sizeof w, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(v, A, sizeof v, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(infos, info, sizeof infos, cudaMemcpyDeviceToHost));
    auto near = [](double a, double b) { return std::fabs(a - b) < 1e-12; };
    EXPECT(infos[0] == 0 && infos[1] == 0 && infos[2] == 0);
    EXPECT(near(w[0], 1) && near(w[1], 3) && near(w[2], -1) && near(w[3], 4) && w[4] == 0 && w[5] == 0);
    const double r = std::sqrt(0.5);
    EXPECT(near(std::fabs(v[0]), r) && near(v[1], -v[0]) && near(std::fabs(v[2]), r) && near(v[3], v[2]));
    EXPECT(near(std::fabs(v[4]), 0) && near(std::fabs(v[5]), 1) && near(std::fabs(v[6]), 1)); /* e2, e1 */
    /* the upper triangle: NaN below the diagonal is not read */
    const double upper[4] = {2, nan, 1, 2};
    OK(cudaMemcpy(A, upper, sizeof upper, cudaMemcpyHostToDevice));
    SOLVER_OK(cusolverDnDsyevjBatched(h, novec, CUBLAS_FILL_MODE_UPPER, 2, A, 2, W, work, lwork, info, params, 1));
    OK(cudaMemcpy(w, W, 2 * sizeof(double), cudaMemcpyDeviceToHost));
    EXPECT(near(w[0], 1) && near(w[1], 3));
    /* complex128, eigenvalues only */
    const cuDoubleComplex herm[4] = {{2, 0}, {0, -1}, {0, 1}, {2, 0}};
    cuDoubleComplex *Z = nullptr, *zwork = nullptr;
    int zlwork = 0;
    OK(cudaMalloc((void **)&Z, sizeof herm));
    OK(cudaMemcpy(Z, herm, sizeof herm, cudaMemcpyHostToDevice));
    SOLVER_OK(cusolverDnZheevjBatched_bufferSize(h, novec, lo, 2, Z, 2, W, &zlwork, params, 1));
    OK(cudaMalloc((void **)&zwork, (size_t)zlwork * sizeof *zwork));
    SOLVER_OK(cusolverDnZheevjBatched(h, novec, lo, 2, Z, 2, W, zwork, zlwork, info, params, 1));
    OK(cudaMemcpy(w, W, 2 * sizeof(double), cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(infos, info, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(near(w[0], 1) && near(w[1], 3) && infos[0] == 0);
    /* each refusal with its devInfo (the arguments counted after the handle) */
    auto refused = [&](int line, cusolverStatus_t st, int want) { expect_refused(line, st, info, want); };
    refused(__LINE__, cusolverDnDsyevjBatched(h, (cusolverEigMode_t)2, lo, 2, A, 2, W, work, lwork, info, params, 3), 1);
    refused(__LINE__, cusolverDnDsyevjBatched(h, vec, (cublasFillMode_t)7, 2, A, 2, W, work, lwork, info, params, 3), 2);
    refused(__LINE__, cusolverDnDsyevjBatched(h, vec, lo, 33, A, 33, W, work, lwork, info, params, 1), 3);
    refused(__LINE__, cusolverDnDsyevjBatched(h, vec, lo, 2, A, 1, W, work, lwork, info, params, 3), 5);
    refused(__LINE__, cusolverDnDsyevjBatched(h, vec, lo, 2, A, 2, W, work, lwork - 1, info, params, 3), 8);
    refused(__LINE__, cusolverDnDsyevjBatched(h, vec, lo, 2, A, 2, W, work, lwork, info, nullptr, 3), 10);
    refused(__LINE__, cusolverDnDsyevjBatched(h, vec, lo, 2, A, 2, W, work, lwork, info, gone, 3), 10);
    refused(__LINE__, cusolverDnDsyevjBatched(h, vec, lo, 2, A, 2, W, work, lwork, info, params, 0), 11);
    EXPECT_ST(cusolverDnDsyevjBatched_bufferSize(h, vec, lo, 33, A, 33, W, &lwork, params, 1), invalid);
    EXPECT_ST(cusolverDnDsyevjBatched_bufferSize(h, vec, lo, 2, A, 2, W, &lwork, gone, 1), invalid);
    EXPECT_ST(cusolverDnDsyevjBatched_bufferSize(h, vec, lo, 2, A, 2, W, &lwork, params, 0), invalid);
    EXPECT_ST(cusolverDnDsyevjBatched(h, vec, lo, 2, A, 2, W, work, lwork, info, params, 4), invalid); /* past A */
    OK(cudaDeviceSynchronize());
    for (void *p : {(void *)A, (void *)W, (void *)work, (void *)info, (void *)Z, (void *)zwork})
        OK(cudaFree(p));
    SOLVER_OK(cusolverDnDestroySyevjInfo(params));
    SOLVER_OK(cusolverDnDestroy(h));
}

/* Note [gesvdjBatched] in emu_solver_routines.cpp: two packed wide 2 x 3
 * float64 matrices ([[3, 0, 0], [0, 4, 0]]: singular values 4 and 3;
 * [[1, 1, 0], [1, 1, 0]]: 2 and 0), all of U (2 x 2) and V (3 x 3, V not
 * V^H): A = U[:, :2] diag(s) V[:, :2]^H, U and V unitary, A destroyed; a
 * tall complex64 matrix ([[1, i], [0, 0], [0, 0]]: sqrt 2 and 0), values
 * only with U and V NULL; every refusal; the option object's life. */
static void case_gesvdj_batched()
{
    cusolverDnHandle_t h = handle();
    const cusolverStatus_t invalid = CUSOLVER_STATUS_INVALID_VALUE;
    gesvdjInfo_t params = nullptr, gone = nullptr;
    EXPECT_ST(cusolverDnCreateGesvdjInfo(nullptr), invalid);
    SOLVER_OK(cusolverDnCreateGesvdjInfo(&params));
    SOLVER_OK(cusolverDnCreateGesvdjInfo(&gone));
    SOLVER_OK(cusolverDnDestroyGesvdjInfo(gone));
    EXPECT_ST(cusolverDnDestroyGesvdjInfo(gone), invalid);
    EXPECT_ST(cusolverDnDestroySyevjInfo((syevjInfo_t)(void *)params), invalid); /* another kind */
    const int m = 2, n = 3, k = 2;
    const double host[2][6] = {{3, 0, 0, 4, 0, 0}, {1, 1, 1, 1, 0, 0}}; /* column-major, lda 2 */
    double *A = nullptr, *S = nullptr, *U = nullptr, *V = nullptr, *work = nullptr;
    int *info = nullptr, lwork = 0;
    OK(cudaMalloc((void **)&A, sizeof host));
    OK(cudaMalloc((void **)&S, 2 * k * sizeof(double)));
    OK(cudaMalloc((void **)&U, 2 * m * m * sizeof(double)));
    OK(cudaMalloc((void **)&V, 2 * n * n * sizeof(double)));
    OK(cudaMalloc((void **)&info, 2 * sizeof(int)));
    OK(cudaMemcpy(A, host, sizeof host, cudaMemcpyHostToDevice));
    const cusolverEigMode_t vec = CUSOLVER_EIG_MODE_VECTOR, novec = CUSOLVER_EIG_MODE_NOVECTOR;
    SOLVER_OK(cusolverDnDgesvdjBatched_bufferSize(h, vec, m, n, A, m, S, U, m, V, n, &lwork, params, 2));
    EXPECT(lwork > 0);
    OK(cudaMalloc((void **)&work, (size_t)lwork * sizeof(double)));
    SOLVER_OK(cusolverDnDgesvdjBatched(h, vec, m, n, A, m, S, U, m, V, n, work, lwork, info, params, 2));
    double s[4], u[8], v[18], a[12];
    int infos[2] = {-9, -9};
    OK(cudaMemcpy(s, S, sizeof s, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(u, U, sizeof u, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(v, V, sizeof v, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(a, A, sizeof a, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(infos, info, sizeof infos, cudaMemcpyDeviceToHost));
    auto near = [](double x, double y) { return std::fabs(x - y) < 1e-12; };
    EXPECT(infos[0] == 0 && infos[1] == 0);
    EXPECT(near(s[0], 4) && near(s[1], 3) && near(s[2], 2) && near(s[3], 0));
    for (int j = 0; j < 2; j++) {
        const double *uj = u + j * m * m, *vj = v + j * n * n;
        for (int r = 0; r < m; r++) /* A = U[:, :k] diag(s) V[:, :k]^T */
            for (int c = 0; c < n; c++) {
                double x = 0;
                for (int i = 0; i < k; i++)
                    x += uj[i * m + r] * s[j * k + i] * vj[i * n + c];
                EXPECT(near(x, host[j][c * m + r]));
            }
        for (int p = 0; p < m; p++) /* U^T U = I */
            for (int q = 0; q < m; q++) {
                double x = 0;
                for (int r = 0; r < m; r++)
                    x += uj[p * m + r] * uj[q * m + r];
                EXPECT(near(x, p == q));
            }
        for (int p = 0; p < n; p++) /* V^T V = I */
            for (int q = 0; q < n; q++) {
                double x = 0;
                for (int r = 0; r < n; r++)
                    x += vj[p * n + r] * vj[q * n + r];
                EXPECT(near(x, p == q));
            }
    }
    for (double x : a)
        EXPECT(std::isnan(x)); /* Note [Destroyed outputs] */
    /* complex64, tall, values only: U and V NULL */
    const cuComplex tall[6] = {{1, 0}, {0, 0}, {0, 0}, {0, 1}, {0, 0}, {0, 0}};
    cuComplex *C = nullptr, *cwork = nullptr;
    float *cs = nullptr;
    int clwork = 0;
    OK(cudaMalloc((void **)&C, sizeof tall));
    OK(cudaMalloc((void **)&cs, 2 * sizeof(float)));
    OK(cudaMemcpy(C, tall, sizeof tall, cudaMemcpyHostToDevice));
    SOLVER_OK(cusolverDnCgesvdjBatched_bufferSize(h, novec, 3, 2, C, 3, cs, nullptr, 3, nullptr, 2, &clwork, params,
                                                  1));
    OK(cudaMalloc((void **)&cwork, (size_t)clwork * sizeof *cwork));
    SOLVER_OK(cusolverDnCgesvdjBatched(h, novec, 3, 2, C, 3, cs, nullptr, 3, nullptr, 2, cwork, clwork, info, params,
                                       1));
    float sv[2];
    OK(cudaMemcpy(sv, cs, sizeof sv, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(infos, info, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(std::fabs(sv[0] - std::sqrt(2.0f)) < 1e-6f && std::fabs(sv[1]) < 1e-6f && infos[0] == 0);
    /* each refusal with its devInfo (the arguments counted after the handle) */
    auto refused = [&](int line, cusolverStatus_t st, int want) { expect_refused(line, st, info, want); };
    auto call = [&](cusolverEigMode_t jobz, int m_, int n_, int lda, int ldu, int ldv, int lw, gesvdjInfo_t p,
                    int batch) {
        return cusolverDnDgesvdjBatched(h, jobz, m_, n_, A, lda, S, U, ldu, V, ldv, work, lw, info, p, batch);
    };
    refused(__LINE__, call((cusolverEigMode_t)2, m, n, m, m, n, lwork, params, 2), 1);
    refused(__LINE__, call(vec, 33, 1, 33, 33, 1, lwork, params, 1), 2);
    refused(__LINE__, call(vec, -1, n, m, m, n, lwork, params, 2), 2);
    refused(__LINE__, call(vec, 1, 33, 1, 1, 33, lwork, params, 1), 3);
    refused(__LINE__, call(vec, m, n, 1, m, n, lwork, params, 2), 5);
    refused(__LINE__, call(vec, m, n, m, 1, n, lwork, params, 2), 8);
    refused(__LINE__, call(novec, m, n, m, m, 2, lwork, params, 2), 10);
    refused(__LINE__, call(vec, m, n, m, m, n, lwork - 1, params, 2), 12);
    refused(__LINE__, call(vec, m, n, m, m, n, lwork, nullptr, 2), 14);
    refused(__LINE__, call(vec, m, n, m, m, n, lwork, gone, 2), 14);
    refused(__LINE__, call(vec, m, n, m, m, n, lwork, params, 0), 15);
    EXPECT_ST(cusolverDnDgesvdjBatched_bufferSize(h, vec, 33, 1, A, 33, S, U, 33, V, 1, &lwork, params, 1), invalid);
    EXPECT_ST(cusolverDnDgesvdjBatched_bufferSize(h, vec, m, n, A, m, S, U, m, V, n, &lwork, gone, 1), invalid);
    EXPECT_ST(cusolverDnDgesvdjBatched_bufferSize(h, vec, m, n, A, m, S, U, m, V, n, &lwork, params, 0), invalid);
    EXPECT_ST(call(vec, m, n, m, m, n, 1 << 20, params, 3), invalid); /* past A and the workspace */
    /* m = 0: every info 0, nothing else touched */
    SOLVER_OK(call(vec, 0, n, 1, 1, n, lwork, params, 2));
    OK(cudaMemcpy(infos, info, sizeof infos, cudaMemcpyDeviceToHost));
    EXPECT(infos[0] == 0 && infos[1] == 0);
    OK(cudaDeviceSynchronize());
    for (void *p : {(void *)A, (void *)S, (void *)U, (void *)V, (void *)work, (void *)info, (void *)C, (void *)cs,
                    (void *)cwork})
        OK(cudaFree(p));
    SOLVER_OK(cusolverDnDestroyGesvdjInfo(params));
    SOLVER_OK(cusolverDnDestroy(h));
}

/* Note [Xgeev] in emu_solver_routines.cpp: the parameter object, each
 * argument refused in its order with devInfo = -i (params counted first),
 * the combinations not emulated refused with CUSOLVER_STATUS_NOT_SUPPORTED
 * and no devInfo, the bufferSize call's own refusals; nothing computed. */
static void case_geev_arguments()
{
    cusolverDnHandle_t h = handle();
    Small x;
    const int n = Small::n, lda = Small::lda;
    const cusolverEigMode_t no = CUSOLVER_EIG_MODE_NOVECTOR, vec = CUSOLVER_EIG_MODE_VECTOR;
    const cudaDataType d = CUDA_R_64F;
    double *A = x.A, *W = x.work, *VR = x.U;
    int *info = x.info.dev;
    cusolverDnParams_t params = nullptr, gone = nullptr;
    EXPECT_ST(cusolverDnCreateParams(nullptr), bad);
    SOLVER_OK(cusolverDnCreateParams(&params));
    SOLVER_OK(cusolverDnCreateParams(&gone));
    EXPECT(params != nullptr && gone != nullptr && params != gone);
    SOLVER_OK(cusolverDnDestroyParams(gone));
    EXPECT_ST(cusolverDnDestroyParams(gone), bad);
    EXPECT_ST(cusolverDnDestroyParams(nullptr), bad);
    size_t dev_bytes = 0, host_bytes = 0;
    SOLVER_OK(cusolverDnXgeev_bufferSize(h, params, no, vec, n, d, A, lda, d, W, d, nullptr, 1, d, VR, n, d,
                                         &dev_bytes, &host_bytes));
    EXPECT(dev_bytes == 4 * n * sizeof(double) && host_bytes == n * sizeof(double));
    void *dwork = nullptr;
    OK(cudaMalloc(&dwork, dev_bytes));
    std::vector<char> hwork(host_bytes);
    void *hw = hwork.data();
    size_t *device_out = nullptr;
    OK(cudaMalloc((void **)&device_out, sizeof *device_out));
    auto geev = [&](cusolverDnParams_t p, cusolverEigMode_t jl, cusolverEigMode_t jr, int64_t n_, cudaDataType ta,
                    int64_t lda_, cudaDataType tw, int64_t ldvr, size_t db, void *host, size_t hb) {
        return cusolverDnXgeev(h, p, jl, jr, n_, ta, A, lda_, tw, W, d, nullptr, 1, d, VR, ldvr, d, dwork, db, host,
                               hb, info);
    };
    struct Bad {
        int line;
        std::function<cusolverStatus_t()> call;
        int param; /* 0: CUSOLVER_STATUS_NOT_SUPPORTED, devInfo not written */
    };
    const std::vector<Bad> calls = {
        {__LINE__, [&] { return geev(nullptr, no, vec, n, d, lda, d, n, dev_bytes, hw, host_bytes); }, 1},
        {__LINE__, [&] { return geev(gone, no, vec, n, d, lda, d, n, dev_bytes, hw, host_bytes); }, 1},
        {__LINE__, [&] { return geev(params, (cusolverEigMode_t)2, vec, n, d, lda, d, n, dev_bytes, hw, host_bytes); }, 2},
        {__LINE__, [&] { return geev(params, no, (cusolverEigMode_t)2, n, d, lda, d, n, dev_bytes, hw, host_bytes); }, 3},
        {__LINE__, [&] { return geev(params, no, vec, -1, d, lda, d, n, dev_bytes, hw, host_bytes); }, 4},
        {__LINE__, [&] { return geev(params, no, vec, n, CUDA_R_16F, lda, d, n, dev_bytes, hw, host_bytes); }, 5},
        {__LINE__, [&] { return geev(params, no, vec, n, d, n - 1, d, n, dev_bytes, hw, host_bytes); }, 7},
        {__LINE__, [&] { return geev(params, no, vec, n, d, lda, d, n - 1, dev_bytes, hw, host_bytes); }, 15},
        {__LINE__, [&] { return geev(params, no, no, n, d, lda, d, 0, dev_bytes, hw, host_bytes); }, 15},
        {__LINE__, [&] { return geev(params, no, vec, n, d, lda, d, n, dev_bytes - 1, hw, host_bytes); }, 18},
        {__LINE__, [&] { return geev(params, no, vec, n, d, lda, d, n, dev_bytes, hw, host_bytes - 1); }, 20},
        {__LINE__, [&] { return geev(params, no, vec, n, d, lda, d, n, dev_bytes, nullptr, host_bytes); }, 20},
        {__LINE__, [&] { return geev(params, no, vec, n, d, lda, d, n, dev_bytes, dwork, host_bytes); }, 20},
        {__LINE__, [&] { return geev(params, vec, vec, n, d, lda, d, n, dev_bytes, hw, host_bytes); }, 0},
        {__LINE__, [&] { return geev(params, no, vec, n, d, lda, CUDA_C_64F, n, dev_bytes, hw, host_bytes); }, 0},
    };
    for (const Bad &b : calls) {
        x.info.set(777);
        cusolverStatus_t st = b.call();
        OK(cudaDeviceSynchronize());
        int got = x.info.get();
        cusolverStatus_t want = b.param ? bad : CUSOLVER_STATUS_NOT_SUPPORTED;
        if (st != want || got != (b.param ? -b.param : 777)) {
            printf("FAIL line %d: status %d, devInfo %d; wanted %d and %d\n", b.line, (int)st, got, (int)want,
                   b.param ? -b.param : 777);
            failures++;
        }
    }
    EXPECT(x.untouched());
    /* the bufferSize call: the same checks, and answers only to host memory */
    EXPECT_ST(cusolverDnXgeev_bufferSize(h, gone, no, vec, n, d, A, lda, d, W, d, nullptr, 1, d, VR, n, d, &dev_bytes,
                                         &host_bytes), bad);
    EXPECT_ST(cusolverDnXgeev_bufferSize(h, params, no, vec, n, d, A, lda, CUDA_R_32F, W, d, nullptr, 1, d, VR, n, d,
                                         &dev_bytes, &host_bytes), CUSOLVER_STATUS_NOT_SUPPORTED);
    EXPECT_ST(cusolverDnXgeev_bufferSize(h, params, no, vec, n, d, A, lda, d, W, d, nullptr, 1, d, VR, n, d,
                                         device_out, &host_bytes), bad);
    EXPECT_ST(cusolverDnXgeev_bufferSize(h, params, no, vec, n, d, A, lda, d, W, d, nullptr, 1, d, VR, n, d, &dev_bytes,
                                         nullptr), bad);
    EXPECT_ST(cusolverDnXgeev_bufferSize(nullptr, params, no, vec, n, d, A, lda, d, W, d, nullptr, 1, d, VR, n, d,
                                         &dev_bytes, &host_bytes), CUSOLVER_STATUS_NOT_INITIALIZED);
    /* and a valid call computes: the matrix's eigenvalues, all real (it is symmetric) */
    SOLVER_OK(geev(params, no, vec, n, d, lda, d, n, dev_bytes, hw, host_bytes));
    OK(cudaDeviceSynchronize());
    double w[2 * n];
    OK(cudaMemcpy(w, W, sizeof w, cudaMemcpyDeviceToHost));
    EXPECT(x.info.get() == 0 && w[n] == 0 && w[n + 1] == 0 && w[n + 2] == 0);
    EXPECT(std::fabs(w[0] + w[1] + w[2] - 9) < 1e-12); /* the trace */
    for (void *p : {dwork, (void *)device_out})
        OK(cudaFree(p));
    SOLVER_OK(cusolverDnDestroyParams(params));
    SOLVER_OK(cusolverDnDestroy(h));
}

/* ---- the case table ---- */

static const Case cases[] = {
    {"handles", case_handles},
    {"no_devices", case_no_devices},
    {"buffer_sizes", case_buffer_sizes},
    {"invalid_values", case_invalid_values},
    {"extents", case_extents},
    {"quick_returns", case_quick_returns},
    {"workspace", case_workspace},
    {"stream_order", case_stream_order},
    {"stream_gate", case_stream_gate},
    {"destroy_does_not_wait", case_destroy_does_not_wait},
    {"sticky", case_sticky},
    {"bad_pivot", case_bad_pivot},
    {"devices", case_devices},
    {"with_cublas", case_with_cublas},
    {"potrf_batched", case_potrf_batched},
    {"potrf_batched_fault", case_potrf_batched_fault},
    {"syevj_batched", case_syevj_batched},
    {"gesvdj_batched", case_gesvdj_batched},
    {"geev_arguments", case_geev_arguments},
};

int main(int argc, char **argv)
{
    std::vector<Case> all(std::begin(cases), std::end(cases)), values = value_cases(), oracle = oracle_cases();
    all.insert(all.end(), values.begin(), values.end());
    all.insert(all.end(), oracle.begin(), oracle.end());
    return run_case(argc, argv, all);
}
