/* emu_blas_test.cpp - cases for the CPU emulation of cuBLAS
 * (csrc/emu/emu_blas.cpp) on the emulated runtime
 * (csrc/emu/emu_runtime.cpp), one per run: `emu_blas_test CASE` prints
 * "PASS CASE" and exits 0, or prints what failed and exits 1.
 * tests/test_emu_blas.py builds it (with emu_blas_values.cpp, the cases of
 * the products' values) and runs every case in its own process with the
 * environment the case needs.  Here: handles, statuses, argument checks,
 * extents, workspaces, stream order, sticky errors, devices, and
 * emu_runtime_enqueue itself.  No kernels are launched: the kernel half
 * (emu_launch.h) is a stub that refuses every launch, and test work is
 * queued with emu_runtime_enqueue.
 */
#include "emu_blas_test.h"

#include <cuda_runtime.h>

#include "emu_runtime.h"

#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <thread>

/* ---- the kernel half: no kernels here ---- */

EMU_TEST_NO_KERNELS

/* ---- checking ---- */


static void sleep_ms(int ms)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

/* ---- queued test operations (emu_runtime_enqueue) ---- */

static std::atomic<int> gate{1}, runs{0}, releases{0};

static cudaError_t op_gate(void *) /* holds its stream until the host opens the gate */
{
    while (gate.load() == 0)
        sleep_ms(1);
    return cudaSuccess;
}
static cudaError_t op_count(void *)
{
    runs++;
    return cudaSuccess;
}
static cudaError_t op_fault(void *)
{
    return cudaErrorIllegalAddress;
}
static void op_release(void *)
{
    releases++;
}
static void case_handles()
{
    cublasHandle_t h = nullptr, other = nullptr;
    cudaStream_t s = nullptr, got = (cudaStream_t)0x1234;
    cublasMath_t mode = (cublasMath_t)-1;
    EXPECT_ST(cublasCreate(nullptr), CUBLAS_STATUS_INVALID_VALUE);
    BLAS_OK(cublasCreate(&h));
    BLAS_OK(cublasCreate(&other));
    EXPECT(h != nullptr && other != nullptr && h != other);
    BLAS_OK(cublasGetStream(h, &got));
    EXPECT(got == nullptr); /* the legacy default stream */
    OK(cudaStreamCreate(&s));
    BLAS_OK(cublasSetStream(h, s));
    BLAS_OK(cublasGetStream(h, &got));
    EXPECT(got == s);
    BLAS_OK(cublasGetStream(other, &got));
    EXPECT(got == nullptr);
    EXPECT_ST(cublasGetStream(h, nullptr), CUBLAS_STATUS_INVALID_VALUE);
    BLAS_OK(cublasGetMathMode(h, &mode));
    EXPECT(mode == CUBLAS_DEFAULT_MATH);
    const int disallow = CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION;
    const cublasMath_t modes[] = {CUBLAS_PEDANTIC_MATH, CUBLAS_TF32_TENSOR_OP_MATH, CUBLAS_TENSOR_OP_MATH,
                                  CUBLAS_FP32_EMULATED_BF16X9_MATH, CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH,
                                  (cublasMath_t)(CUBLAS_DEFAULT_MATH | disallow),
                                  (cublasMath_t)(CUBLAS_TF32_TENSOR_OP_MATH | disallow)};
    for (cublasMath_t m : modes) {
        BLAS_OK(cublasSetMathMode(h, m));
        BLAS_OK(cublasGetMathMode(h, &mode));
        EXPECT(mode == m);
    }
    EXPECT_ST(cublasSetMathMode(h, (cublasMath_t)5), CUBLAS_STATUS_INVALID_VALUE);
    /* 32 is outside cublasMath_t's range: passed as the int the ABI takes (UBSan) */
    EXPECT_ST(reinterpret_cast<cublasStatus_t (*)(cublasHandle_t, int)>(cublasSetMathMode)(h, 32),
              CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_ST(cublasSetMathMode(h, (cublasMath_t)-1), CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_ST(cublasGetMathMode(h, nullptr), CUBLAS_STATUS_INVALID_VALUE);
    BLAS_OK(cublasGetMathMode(h, &mode)); /* unchanged by the refusals */
    EXPECT(mode == modes[6]);
    BLAS_OK(cublasDestroy(h));
    /* a destroyed handle, like NULL, is refused by every call */
    float one = 1;
    for (cublasHandle_t bad : {h, (cublasHandle_t) nullptr, (cublasHandle_t)0x5678}) {
        EXPECT_ST(cublasDestroy(bad), CUBLAS_STATUS_NOT_INITIALIZED);
        EXPECT_ST(cublasSetStream(bad, s), CUBLAS_STATUS_NOT_INITIALIZED);
        EXPECT_ST(cublasGetStream(bad, &got), CUBLAS_STATUS_NOT_INITIALIZED);
        EXPECT_ST(cublasSetMathMode(bad, CUBLAS_DEFAULT_MATH), CUBLAS_STATUS_NOT_INITIALIZED);
        EXPECT_ST(cublasGetMathMode(bad, &mode), CUBLAS_STATUS_NOT_INITIALIZED);
        EXPECT_ST(cublasSetWorkspace(bad, nullptr, 0), CUBLAS_STATUS_NOT_INITIALIZED);
        EXPECT_ST(cublasGemmStridedBatchedEx(bad, CUBLAS_OP_N, CUBLAS_OP_N, -1, 1, 1, &one, nullptr, CUDA_R_8I, 1, 0,
                                             nullptr, CUDA_R_32F, 1, 0, &one, nullptr, CUDA_R_32F, 1, 0, 1,
                                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                  CUBLAS_STATUS_NOT_INITIALIZED);
    }
    BLAS_OK(cublasGetStream(other, &got)); /* the other handle lives on */
    BLAS_OK(cublasDestroy(other));
    OK(cudaStreamDestroy(s));
    OK(cudaGetLastError()); /* the library leaves the caller's last error alone */
}

static void case_no_devices() /* DEVTENSOR_EMULATE_CUDA=0, or a bad configuration */
{
    cublasHandle_t h = (cublasHandle_t)0x1;
    EXPECT_ST(cublasCreate(&h), CUBLAS_STATUS_NOT_INITIALIZED);
    EXPECT(h == nullptr);
    EXPECT_ST(cublasCreate(nullptr), CUBLAS_STATUS_INVALID_VALUE);
}

static void case_strings()
{
    const struct {
        cublasStatus_t s;
        const char *text;
    } all[] = {
        {CUBLAS_STATUS_SUCCESS, "success"},
        {CUBLAS_STATUS_NOT_INITIALIZED, "the library was not initialized"},
        {CUBLAS_STATUS_ALLOC_FAILED, "the resource allocation failed"},
        {CUBLAS_STATUS_INVALID_VALUE, "an unsupported value or parameter was passed to the function"},
        {CUBLAS_STATUS_ARCH_MISMATCH, "the function requires an architectural feature absent from the device"},
        {CUBLAS_STATUS_MAPPING_ERROR, "an access to GPU memory space failed"},
        {CUBLAS_STATUS_EXECUTION_FAILED, "the function failed to launch on the GPU"},
        {CUBLAS_STATUS_INTERNAL_ERROR, "an internal operation failed"},
        {CUBLAS_STATUS_NOT_SUPPORTED, "the requested functionality is not supported"},
        {CUBLAS_STATUS_LICENSE_ERROR, "the license check failed"},
        {(cublasStatus_t)2, "unrecognized status"},
    };
    for (const auto &a : all)
        EXPECT(strcmp(cublasGetStatusString(a.s), a.text) == 0);
    /* a value outside the enum's range cannot be held in a cublasStatus_t
     * without undefined behaviour (UBSan): passed as the int the ABI takes */
    auto by_int = reinterpret_cast<const char *(*)(int)>(cublasGetStatusString);
    EXPECT(strcmp(by_int(12345), "unrecognized status") == 0);
}

/* A valid 2 x 2 x 2 float product on the device, for argument checks. */
struct Small {
    float *A = nullptr, *B = nullptr, *C = nullptr;
    float alpha = 2, beta = 0;
    Small()
    {
        float a[4] = {1, 2, 3, 4}, c[4] = {-1, -1, -1, -1};
        OK(cudaMalloc((void **)&A, sizeof a));
        OK(cudaMalloc((void **)&B, sizeof a));
        OK(cudaMalloc((void **)&C, sizeof c));
        OK(cudaMemcpy(A, a, sizeof a, cudaMemcpyHostToDevice));
        OK(cudaMemcpy(B, a, sizeof a, cudaMemcpyHostToDevice));
        OK(cudaMemcpy(C, c, sizeof c, cudaMemcpyHostToDevice));
    }
    cublasStatus_t gemm(cublasHandle_t h, int m = 2, int n = 2, int k = 2, int lda = 2, int ldb = 2, int ldc = 2,
                        int batch = 1, cublasOperation_t ta = CUBLAS_OP_N, cublasOperation_t tb = CUBLAS_OP_N)
    {
        return cublasGemmStridedBatchedEx(h, ta, tb, m, n, k, &alpha, A, CUDA_R_32F, lda, 4, B, CUDA_R_32F, ldb, 4,
                                          &beta, C, CUDA_R_32F, ldc, 4, batch, CUBLAS_COMPUTE_32F,
                                          CUBLAS_GEMM_DEFAULT);
    }
    cublasStatus_t typed(cublasHandle_t h, cudaDataType a, cudaDataType b, cudaDataType c, cublasComputeType_t ct,
                         cublasGemmAlgo_t algo = CUBLAS_GEMM_DEFAULT)
    {
        double scalar[2] = {1, 0}; /* large enough for any scale type */
        return cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, scalar, A, a, 1, 0, B, b, 1, 0,
                                          scalar, C, c, 1, 0, 1, ct, algo);
    }
    bool untouched()
    {
        float c[4];
        OK(cudaMemcpy(c, C, sizeof c, cudaMemcpyDeviceToHost));
        return c[0] == -1 && c[1] == -1 && c[2] == -1 && c[3] == -1;
    }
    ~Small()
    {
        OK(cudaFree(A));
        OK(cudaFree(B));
        OK(cudaFree(C));
    }
};

static void case_invalid_values()
{
    cublasHandle_t h = handle();
    Small x;
    const cublasStatus_t bad = CUBLAS_STATUS_INVALID_VALUE;
    EXPECT_ST(x.gemm(h, 2, 2, 2, 2, 2, 2, 1, (cublasOperation_t)3), bad); /* CUBLAS_OP_CONJG */
    EXPECT_ST(x.gemm(h, 2, 2, 2, 2, 2, 2, 1, CUBLAS_OP_N, (cublasOperation_t)-1), bad);
    EXPECT_ST(x.gemm(h, -1), bad);
    EXPECT_ST(x.gemm(h, 2, -1), bad);
    EXPECT_ST(x.gemm(h, 2, 2, -1), bad);
    EXPECT_ST(x.gemm(h, 2, 2, 2, 2, 2, 2, -1), bad);
    EXPECT_ST(x.gemm(h, 2, 2, 2, 1), bad);                             /* lda < m */
    EXPECT_ST(x.gemm(h, 1, 2, 2, 1, 2, 1, 1, CUBLAS_OP_T), bad);       /* lda < k with A transposed */
    BLAS_OK(x.gemm(h, 1, 2, 2, 2, 2, 1, 1, CUBLAS_OP_T));
    EXPECT_ST(x.gemm(h, 2, 2, 2, 2, 1), bad);                          /* ldb < k */
    EXPECT_ST(x.gemm(h, 2, 2, 1, 2, 1, 2, 1, CUBLAS_OP_N, CUBLAS_OP_T), bad); /* ldb < n with B transposed */
    EXPECT_ST(x.gemm(h, 2, 2, 2, 2, 2, 1), bad);                       /* ldc < m */
    EXPECT_ST(x.gemm(h, 0, 2, 2, 0, 2, 1), bad);                       /* lda >= max(1, m) even when m is 0 */
    EXPECT_ST(x.gemm(h, 0, 2, 2, 1, 2, 0), bad);                       /* ldc too */
    float one = 1;
    EXPECT_ST(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, nullptr, x.A, CUDA_R_32F, 2, 4, x.B,
                                         CUDA_R_32F, 2, 4, &one, x.C, CUDA_R_32F, 2, 4, 1, CUBLAS_COMPUTE_32F,
                                         CUBLAS_GEMM_DEFAULT),
              bad);
    EXPECT_ST(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, x.A, CUDA_R_32F, 2, 4, x.B,
                                         CUDA_R_32F, 2, 4, nullptr, x.C, CUDA_R_32F, 2, 4, 1, CUBLAS_COMPUTE_32F,
                                         CUBLAS_GEMM_DEFAULT),
              bad);
    /* alpha in device memory: the device pointer mode is not emulated */
    EXPECT_ST(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, x.A, x.A, CUDA_R_32F, 2, 4, x.B,
                                         CUDA_R_32F, 2, 4, &one, x.C, CUDA_R_32F, 2, 4, 1, CUBLAS_COMPUTE_32F,
                                         CUBLAS_GEMM_DEFAULT),
              bad);
    OK(cudaDeviceSynchronize());
    EXPECT(!x.untouched()); /* the one valid call above wrote C */
    OK(cudaGetLastError());
    BLAS_OK(cublasDestroy(h));
}

static void case_not_supported()
{
    cublasHandle_t h = handle();
    Small x;
    const cublasStatus_t ns = CUBLAS_STATUS_NOT_SUPPORTED;
    EXPECT_ST(x.typed(h, CUDA_R_16F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F), ns); /* Atype != Btype */
    EXPECT_ST(x.typed(h, CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F_FAST_TF32), ns);
    EXPECT_ST(x.typed(h, CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32), ns);
    EXPECT_ST(x.typed(h, CUDA_R_16F, CUDA_R_16F, CUDA_R_16BF, CUBLAS_COMPUTE_32F), ns);
    EXPECT_ST(x.typed(h, CUDA_R_32F, CUDA_R_32F, CUDA_R_16F, CUBLAS_COMPUTE_32F), ns);
    EXPECT_ST(x.typed(h, CUDA_R_32F, CUDA_R_32F, CUDA_R_64F, CUBLAS_COMPUTE_32F), ns);
    EXPECT_ST(x.typed(h, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_64F), ns);
    EXPECT_ST(x.typed(h, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_32F), ns);
    EXPECT_ST(x.typed(h, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_32F_FAST_TF32), ns);
    EXPECT_ST(x.typed(h, CUDA_C_32F, CUDA_C_32F, CUDA_C_64F, CUBLAS_COMPUTE_32F), ns);
    EXPECT_ST(x.typed(h, CUDA_C_64F, CUDA_C_64F, CUDA_C_64F, CUBLAS_COMPUTE_32F), ns);
    EXPECT_ST(x.typed(h, CUDA_R_32F, CUDA_R_32F, CUDA_C_32F, CUBLAS_COMPUTE_32F), ns);
    /* rows of cuBLAS's table that the emulation does not compute */
    EXPECT_ST(x.typed(h, CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F), ns);
    EXPECT_ST(x.typed(h, CUDA_R_8I, CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32I), ns);
    EXPECT_ST(x.typed(h, CUDA_R_8I, CUDA_R_8I, CUDA_R_32F, CUBLAS_COMPUTE_32F), ns);
    EXPECT_ST(x.typed(h, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_16F), ns);
    EXPECT_ST(x.typed(h, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, (cublasComputeType_t)1234), ns);
    EXPECT_ST(x.typed(h, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, (cublasComputeType_t)CUDA_R_32F), ns);
    /* algorithms (Note [Algorithms]) */
    BLAS_OK(x.typed(h, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP));
    BLAS_OK(x.typed(h, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, (cublasGemmAlgo_t)5));
    EXPECT_ST(x.typed(h, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, (cublasGemmAlgo_t)42), ns);
    EXPECT_ST(x.typed(h, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, (cublasGemmAlgo_t)-2), ns);
    OK(cudaGetLastError());
    BLAS_OK(cublasDestroy(h));
}

static void case_quick_returns()
{
    cublasHandle_t h = handle();
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    BLAS_OK(cublasSetStream(h, s));
    float one = 1, zero = 0, two = 2;
    auto gemm = [&](int m, int n, int k, int batch, const float *alpha, const float *beta, const void *A,
                    const void *B, void *C) {
        return cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, alpha, A, CUDA_R_32F, 2, 4, B,
                                          CUDA_R_32F, 2, 4, beta, C, CUDA_R_32F, 2, 4, batch, CUBLAS_COMPUTE_32F,
                                          CUBLAS_GEMM_DEFAULT);
    };
    /* nothing to do: no pointer is looked at */
    BLAS_OK(gemm(0, 2, 2, 1, &one, &one, nullptr, nullptr, nullptr));
    BLAS_OK(gemm(2, 0, 2, 1, &one, &one, nullptr, nullptr, nullptr));
    BLAS_OK(gemm(2, 2, 2, 0, &one, &one, nullptr, nullptr, nullptr));
    BLAS_OK(gemm(2, 2, 0, 1, &one, &one, nullptr, nullptr, nullptr)); /* k == 0, beta == 1 */
    BLAS_OK(gemm(2, 2, 2, 1, &zero, &one, nullptr, nullptr, nullptr)); /* alpha == 0, beta == 1 */
    /* k == 0 or alpha == 0: C = beta * C, A and B neither read nor checked */
    float *A = nullptr, *C = nullptr, a[8], c[8];
    for (int i = 0; i < 8; i++)
        a[i] = NAN, c[i] = (float)i;
    OK(cudaMalloc((void **)&A, sizeof a));
    OK(cudaMalloc((void **)&C, sizeof c));
    OK(cudaMemcpy(A, a, sizeof a, cudaMemcpyHostToDevice));
    OK(cudaMemcpy(C, c, sizeof c, cudaMemcpyHostToDevice));
    BLAS_OK(gemm(2, 2, 0, 2, &one, &two, nullptr, nullptr, C));
    BLAS_OK(gemm(2, 2, 2, 2, &zero, &two, A, A, C)); /* NaN in A does not leak when alpha == 0 */
    OK(cudaStreamSynchronize(s));
    OK(cudaMemcpy(c, C, sizeof c, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 8; i++)
        EXPECT(c[i] == 4.0f * (float)i);
    for (int i = 0; i < 8; i++)
        c[i] = NAN;
    OK(cudaMemcpy(C, c, sizeof c, cudaMemcpyHostToDevice));
    BLAS_OK(gemm(2, 2, 0, 2, &one, &zero, nullptr, nullptr, C)); /* beta == 0: C = 0, never read */
    OK(cudaStreamSynchronize(s));
    OK(cudaMemcpy(c, C, sizeof c, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 8; i++)
        EXPECT(c[i] == 0.0f);
    OK(cudaFree(A));
    OK(cudaFree(C));
    BLAS_OK(cublasDestroy(h));
    OK(cudaStreamDestroy(s));
}

/* Note [Extents] in emu_blas.cpp: exact fits pass, one element more fails. */
static void case_extents()
{
    cublasHandle_t h = handle();
    const int m = 3, n = 2, k = 4, lda = 5, ldb = 4, ldc = 3, batch = 3;
    const long long sa = 21, sb = 9, sc = 7;
    const size_t na = (size_t)(batch - 1) * sa + (size_t)(k - 1) * lda + m,
                 nb = (size_t)(batch - 1) * sb + (size_t)(n - 1) * ldb + k,
                 nc = (size_t)(batch - 1) * sc + (size_t)(n - 1) * ldc + m;
    double *A, *B, *C, one = 1, zero = 0;
    OK(cudaMalloc((void **)&A, na * 8));
    OK(cudaMalloc((void **)&B, nb * 8));
    OK(cudaMalloc((void **)&C, nc * 8));
    std::vector<double> ha(na, 1.0), hb(nb, 2.0), hc(nc, 0.0);
    OK(cudaMemcpy(A, ha.data(), na * 8, cudaMemcpyHostToDevice));
    OK(cudaMemcpy(B, hb.data(), nb * 8, cudaMemcpyHostToDevice));
    auto gemm = [&](const double *a, long long s_a, const double *b, double *c, long long s_c, int bt = 0,
                    int ldc_ = 0) {
        bt = bt != 0 ? bt : batch;
        ldc_ = ldc_ != 0 ? ldc_ : ldc;
        return cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, CUDA_R_64F, lda, s_a, b,
                                          CUDA_R_64F, ldb, sb, &zero, c, CUDA_R_64F, ldc_, s_c, bt,
                                          CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT);
    };
    const cublasStatus_t bad = CUBLAS_STATUS_INVALID_VALUE;
    BLAS_OK(gemm(A, sa, B, C, sc));               /* exactly the allocations */
    EXPECT_ST(gemm(A + 1, sa, B, C, sc), bad);    /* A one element past its end */
    EXPECT_ST(gemm(A, sa + 1, B, C, sc), bad);    /* the last matrix of A past it */
    EXPECT_ST(gemm(A, sa, B + 1, C, sc), bad);
    EXPECT_ST(gemm(A, sa, B, C + 1, sc), bad);
    EXPECT_ST(gemm(A, sa, B, C, sc, batch, ldc + 1), bad);
    EXPECT_ST(gemm(A, sa, B, C, sc, batch + 1), bad);
    EXPECT_ST(gemm(A - 1, sa, B, C, sc), bad);    /* before it */
    EXPECT_ST(gemm(A, LLONG_MAX / 2, B, C, sc), bad); /* an extent that overflows */
    EXPECT_ST(gemm(A, LLONG_MIN / 2, B, C, sc), bad);
    EXPECT_ST(gemm(A, -sa, B, C, sc), bad);       /* negative: the earlier matrices are before A */
    BLAS_OK(gemm(A + 2 * sa, -sa, B, C, sc));     /* from the last one backwards: inside */
    BLAS_OK(gemm(A, 0, B, C, sc));                /* a broadcast A */
    std::vector<double> host(na);
    EXPECT_ST(gemm(host.data(), sa, B, C, sc), bad); /* host memory */
    void *pinned = nullptr;
    OK(cudaMallocHost(&pinned, nc * 8));
    EXPECT_ST(gemm(A, sa, B, (double *)pinned, sc), bad); /* pinned host memory too */
    OK(cudaFreeHost(pinned));
    double *gone;
    OK(cudaMalloc((void **)&gone, nc * 8));
    OK(cudaFree(gone));
    EXPECT_ST(gemm(A, sa, B, gone, sc), bad); /* freed */
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(hc.data(), C, nc * 8, cudaMemcpyDeviceToHost));
    EXPECT(hc[0] == 8.0 && hc[nc - 1] == 8.0);
    OK(cudaGetLastError());
    OK(cudaFree(A));
    OK(cudaFree(B));
    OK(cudaFree(C));
    BLAS_OK(cublasDestroy(h));
}

static void case_workspace()
{
    cublasHandle_t h = handle();
    Small x;
    char *ws = nullptr;
    OK(cudaMalloc((void **)&ws, 4096));
    const cublasStatus_t bad = CUBLAS_STATUS_INVALID_VALUE;
    BLAS_OK(cublasSetWorkspace(h, ws, 4096));
    BLAS_OK(cublasSetWorkspace(h, ws + 256, 1024));
    BLAS_OK(cublasSetWorkspace(h, nullptr, 0));
    EXPECT_ST(cublasSetWorkspace(h, ws + 16, 1024), bad);  /* not aligned to 256 */
    EXPECT_ST(cublasSetWorkspace(h, ws + 16, 0), bad);
    EXPECT_ST(cublasSetWorkspace(h, nullptr, 1), bad);
    EXPECT_ST(cublasSetWorkspace(h, ws, 4097), bad);       /* past the allocation */
    EXPECT_ST(cublasSetWorkspace(h, ws, (size_t)-256), bad); /* a negative size */
    alignas(256) static char host[512];
    EXPECT_ST(cublasSetWorkspace(h, host, sizeof host), bad);
    BLAS_OK(cublasSetWorkspace(h, ws, 4096));
    BLAS_OK(x.gemm(h));
    OK(cudaFree(ws)); /* the handle still names it */
    EXPECT_ST(x.gemm(h), bad);
    BLAS_OK(cublasSetStream(h, nullptr)); /* back to the default workspace */
    BLAS_OK(x.gemm(h));
    OK(cudaDeviceSynchronize());
    BLAS_OK(cublasDestroy(h));
}

/* The product is queued on the handle's stream, in order with the copies
 * there, and runs later (DEVTENSOR_EMULATE_DELAY_US=200000): a read of C
 * without synchronising sees stale values. */
static void case_stream_order()
{
    cublasHandle_t h = handle();
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    BLAS_OK(cublasSetStream(h, s));
    float *d = nullptr, in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[4] = {0, 0, 0, 0}, alpha = 1, beta = 0;
    OK(cudaMalloc((void **)&d, 12 * sizeof(float)));
    OK(cudaMemsetAsync(d, 0, 12 * sizeof(float), s));
    OK(cudaMemcpyAsync(d, in, sizeof in, cudaMemcpyHostToDevice, s));
    /* C (2 x 2) = A (2 x 2) B (2 x 2), column-major */
    BLAS_OK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &alpha, d, CUDA_R_32F, 2, 0, d + 4,
                                       CUDA_R_32F, 2, 0, &beta, d + 8, CUDA_R_32F, 2, 0, 1, CUBLAS_COMPUTE_32F,
                                       CUBLAS_GEMM_DEFAULT));
    alpha = 100; /* host scalars are read at the call */
    OK(cudaMemcpyAsync(out, d + 8, sizeof out, cudaMemcpyDeviceToHost, s));
    EXPECT_ERR(cudaStreamQuery(s), cudaErrorNotReady);
    bool right = out[0] == 23 && out[1] == 34 && out[2] == 31 && out[3] == 46;
    printf("read without synchronising: %s\n", right ? "right" : "stale");
    EXPECT(!right);
    OK(cudaStreamSynchronize(s));
    EXPECT(out[0] == 23 && out[1] == 34 && out[2] == 31 && out[3] == 46);
    OK(cudaGetLastError());
    OK(cudaFree(d));
    BLAS_OK(cublasDestroy(h));
    OK(cudaStreamDestroy(s));
}

/* The product waits for earlier work on its stream, and only for that. */
static void case_stream_gate()
{
    cublasHandle_t h = handle();
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    BLAS_OK(cublasSetStream(h, s));
    Small x;
    gate = 0;
    OK(emu_runtime_enqueue(s, op_gate, nullptr, nullptr));
    BLAS_OK(x.gemm(h));
    sleep_ms(50);
    EXPECT_ERR(cudaStreamQuery(s), cudaErrorNotReady);
    EXPECT(x.untouched()); /* cudaMemcpy on the legacy stream does not wait for a non-blocking one */
    gate = 1;
    OK(cudaStreamSynchronize(s));
    float c[4];
    OK(cudaMemcpy(c, x.C, sizeof c, cudaMemcpyDeviceToHost));
    EXPECT(c[0] == 14 && c[1] == 20 && c[2] == 30 && c[3] == 44);
    /* a handle on the legacy stream waits for a blocking stream's earlier work */
    cudaStream_t blocking;
    OK(cudaStreamCreate(&blocking));
    BLAS_OK(cublasSetStream(h, nullptr));
    gate = 0;
    OK(emu_runtime_enqueue(blocking, op_gate, nullptr, nullptr));
    OK(cudaMemsetAsync(x.C, 0, 4 * sizeof(float), blocking));
    x.beta = 1;
    BLAS_OK(x.gemm(h)); /* C += 2 A B once the memset ran */
    sleep_ms(50);
    EXPECT_ERR(cudaStreamQuery(nullptr), cudaErrorNotReady);
    gate = 1;
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(c, x.C, sizeof c, cudaMemcpyDeviceToHost));
    EXPECT(c[0] == 14 && c[1] == 20 && c[2] == 30 && c[3] == 44);
    BLAS_OK(cublasDestroy(h));
    OK(cudaStreamDestroy(s));
    OK(cudaStreamDestroy(blocking));
}

/* cublasDestroy synchronises the handle's device. */
static void case_destroy_synchronises()
{
    cublasHandle_t h = handle();
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    BLAS_OK(cublasSetStream(h, s));
    Small x;
    gate = 0;
    OK(emu_runtime_enqueue(s, op_gate, nullptr, nullptr));
    BLAS_OK(x.gemm(h));
    std::thread opener([] {
        sleep_ms(100);
        gate = 1;
    });
    auto t0 = std::chrono::steady_clock::now();
    BLAS_OK(cublasDestroy(h));
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    opener.join();
    EXPECT(ms >= 90);
    OK(cudaStreamQuery(s));
    EXPECT(!x.untouched());
    OK(cudaStreamDestroy(s));
}

/* emu_runtime_enqueue's own rules (emu_runtime.h). */
static void case_enqueue() /* DEVTENSOR_EMULATE_CUDA=2 */
{
    cudaStream_t s, s1, gone;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    OK(cudaStreamCreateWithFlags(&gone, cudaStreamNonBlocking));
    OK(cudaStreamDestroy(gone));
    OK(cudaSetDevice(1));
    OK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    OK(cudaSetDevice(0));
    runs = 0, releases = 0;
    OK(emu_runtime_enqueue(s, op_count, nullptr, op_release));
    OK(emu_runtime_enqueue(nullptr, op_count, nullptr, nullptr));
    OK(cudaDeviceSynchronize());
    EXPECT(runs == 2 && releases == 1);
    EXPECT_ERR(emu_runtime_enqueue(s, nullptr, nullptr, op_release), cudaErrorInvalidValue);
    EXPECT_ERR(emu_runtime_enqueue(gone, op_count, nullptr, op_release), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(emu_runtime_enqueue(s1, op_count, nullptr, op_release), cudaErrorInvalidResourceHandle); /* device 1's */
    EXPECT(runs == 2 && releases == 4); /* released at once when refused */
    OK(cudaGetLastError());             /* and not the caller's last error */
    /* after a fault: queued work is skipped but released, new work refused */
    gate = 0;
    OK(emu_runtime_enqueue(s, op_gate, nullptr, nullptr));
    OK(emu_runtime_enqueue(s, op_fault, nullptr, op_release));
    OK(emu_runtime_enqueue(s, op_count, nullptr, op_release));
    gate = 1;
    EXPECT_ERR(cudaStreamSynchronize(s), cudaErrorIllegalAddress);
    EXPECT(runs == 2 && releases == 6);
    EXPECT_ERR(emu_runtime_enqueue(s, op_count, nullptr, op_release), cudaErrorIllegalAddress);
    EXPECT(releases == 7);
    OK(cudaSetDevice(1)); /* device 1 is unaffected */
    OK(emu_runtime_enqueue(s1, op_count, nullptr, op_release));
    OK(cudaStreamSynchronize(s1));
    EXPECT(runs == 3 && releases == 8);
}

/* A device with a sticky error: products fail to launch; another device works. */
static void case_sticky() /* DEVTENSOR_EMULATE_CUDA=2 */
{
    cublasHandle_t h = handle();
    static Small *kept = new Small; /* never freed: cudaFree reports the sticky error */
    Small &x = *kept;
    gate = 0;
    OK(emu_runtime_enqueue(nullptr, op_gate, nullptr, nullptr));
    OK(emu_runtime_enqueue(nullptr, op_fault, nullptr, nullptr));
    BLAS_OK(x.gemm(h)); /* queued before the fault runs: skipped */
    gate = 1;
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    EXPECT_ST(x.gemm(h), CUBLAS_STATUS_EXECUTION_FAILED);
    EXPECT_ST(x.gemm(h, 0), CUBLAS_STATUS_SUCCESS); /* nothing to launch */
    EXPECT_ST(x.gemm(h, -1), CUBLAS_STATUS_INVALID_VALUE);
    BLAS_OK(cublasDestroy(h));
    OK(cudaSetDevice(1));
    cublasHandle_t h1 = handle();
    Small y;
    BLAS_OK(y.gemm(h1));
    OK(cudaDeviceSynchronize());
    EXPECT(!y.untouched());
    BLAS_OK(cublasDestroy(h1));
}

/* Operands on another device need peer access; a handle works on its own device. */
static void case_devices() /* DEVTENSOR_EMULATE_CUDA=2 */
{
    cublasHandle_t h0 = handle();
    OK(cudaSetDevice(1));
    cublasHandle_t h1 = handle();
    Small on1; /* device 1's memory */
    EXPECT_ST(on1.gemm(h0), CUBLAS_STATUS_EXECUTION_FAILED); /* device 1 is current, h0 is device 0's */
    BLAS_OK(on1.gemm(h1));
    OK(cudaDeviceSynchronize());
    OK(cudaSetDevice(0));
    EXPECT_ST(on1.gemm(h0), CUBLAS_STATUS_INVALID_VALUE); /* device 0 may not access device 1's memory */
    OK(cudaDeviceEnablePeerAccess(1, 0));
    on1.beta = 1;
    BLAS_OK(on1.gemm(h0)); /* now it may */
    OK(cudaDeviceSynchronize());
    OK(cudaSetDevice(1));
    OK(cudaDeviceSynchronize());
    float c[4];
    OK(cudaMemcpy(c, on1.C, sizeof c, cudaMemcpyDeviceToHost));
    EXPECT(c[0] == 28 && c[1] == 40 && c[2] == 60 && c[3] == 88);
    BLAS_OK(cublasDestroy(h0)); /* synchronises device 0, leaves device 1 current */
    int d = -1;
    OK(cudaGetDevice(&d));
    EXPECT(d == 1);
    cudaStream_t s0;
    OK(cudaSetDevice(0));
    OK(cudaStreamCreate(&s0));
    OK(cudaSetDevice(1));
    BLAS_OK(cublasSetStream(h1, s0)); /* taken, but a launch there fails */
    EXPECT_ST(on1.gemm(h1), CUBLAS_STATUS_EXECUTION_FAILED);
    BLAS_OK(cublasDestroy(h1));
    OK(cudaGetLastError());
}

/* Planted fault: the host reads device memory after a product.  The
 * product runs on a stream worker, which may; the host thread still may
 * not (protected: SIGSEGV; see test_emu_blas.py). */
static void case_host_deref_after_gemm()
{
    cublasHandle_t h = handle();
    Small x;
    BLAS_OK(x.gemm(h));
    OK(cudaDeviceSynchronize());
    EXPECT(!x.untouched());
    printf("protected %d\n", emu_runtime_protected());
    fflush(stdout);
    volatile float v = x.C[0];
    printf("host read a device pointer without a fault (%g)\n", (double)v);
}
/* ---- the case table ---- */

static const Case cases[] = {
    {"handles", case_handles},
    {"no_devices", case_no_devices},
    {"strings", case_strings},
    {"invalid_values", case_invalid_values},
    {"not_supported", case_not_supported},
    {"quick_returns", case_quick_returns},
    {"extents", case_extents},
    {"workspace", case_workspace},
    {"stream_order", case_stream_order},
    {"stream_gate", case_stream_gate},
    {"destroy_synchronises", case_destroy_synchronises},
    {"enqueue", case_enqueue},
    {"sticky", case_sticky},
    {"devices", case_devices},
    {"host_deref_after_gemm", case_host_deref_after_gemm},
};

int main(int argc, char **argv)
{
    std::vector<Case> all(std::begin(cases), std::end(cases)), values = value_cases(), lu = lu_cases();
    all.insert(all.end(), values.begin(), values.end());
    all.insert(all.end(), lu.begin(), lu.end());
    return run_case(argc, argv, all);
}
