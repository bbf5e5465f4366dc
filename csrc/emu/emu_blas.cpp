/* emu_blas.cpp - cuBLAS on the CPU: a plain reference implementation of
 * exactly the cuBLAS calls csrc/cuda makes (declared by our own
 * csrc/emu/include/cublas_v2.h), checking arguments and answering status
 * codes as cuBLAS documents them, with the arithmetic queued on the
 * handle's stream like the real library's kernels, so that the calling
 * code runs in CI on emulated devices (Note [CUDA libraries on the CPU] in
 * emu_runtime.h).  Correct before fast: a triple loop per matrix.
 * Handles, statuses and the product here; the batched LU routines in
 * emu_blas_lu.cpp (emu_blas.h between them).
 */
#include <cublas_v2.h>

#include "emu_blas.h"
#include "emu_library.h"
#include "emu_runtime.h"
#include "scalar.h" /* csrc/core: float16 and bfloat16 conversions */

#include <stdint.h>
#include <string.h>

#include <mutex>
#include <unordered_map>
#include <vector>

namespace {

/* ---- handles ---- */

/* Note [Handles]
 * As the runtime's streams (Note [Handles] in emu_runtime.cpp): a handle
 * is an id dressed as a pointer, looked up in a table and never reused, so
 * a destroyed handle is CUBLAS_STATUS_NOT_INITIALIZED forever instead of a
 * use-after-free.  A handle belongs to the device current at cublasCreate
 * ("the cuBLAS library context is tied to the current CUDA device") and
 * remembers its stream (NULL: the legacy default stream), math mode and
 * workspace.  Calls read a copy of its state under the table's lock;
 * queued work holds no reference to it, so destroying it never races with
 * work in flight. */
struct Handle {
    int device = 0;
    cudaStream_t stream = nullptr;
    cublasMath_t math = CUBLAS_DEFAULT_MATH;
    void *workspace = nullptr;
    size_t workspace_size = 0;
};

struct Table {
    std::mutex mu;
    std::unordered_map<uintptr_t, Handle> live;
    uintptr_t next_id = 1;
};

Table &table()
{
    static Table *t = new Table; /* never destroyed: work may be queued at exit */
    return *t;
}

/* f(handle state) under the lock; NOT_INITIALIZED for no such handle. */
template <class F>
cublasStatus_t with_handle(cublasHandle_t h, F f)
{
    Table &t = table();
    std::lock_guard<std::mutex> lk(t.mu);
    auto it = t.live.find((uintptr_t)h);
    if (h == nullptr || it == t.live.end())
        return CUBLAS_STATUS_NOT_INITIALIZED;
    return f(it->second);
}

/* current_device, accessible, Quiet: emu_library.h (Note [The library's
 * own runtime] there) */
using dt_emu::accessible;
using dt_emu::current_device;
using dt_emu::Quiet;

/* ---- the matrix product's types ---- */

template <class S>
struct Cx {
    S re, im;
};
template <class S>
Cx<S> operator+(Cx<S> a, Cx<S> b)
{
    return Cx<S>{a.re + b.re, a.im + b.im};
}
template <class S>
Cx<S> operator*(Cx<S> a, Cx<S> b)
{
    return Cx<S>{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

template <class S>
bool is_zero(S v) { return v == 0; }
template <class S>
bool is_zero(Cx<S> v) { return v.re == 0 && v.im == 0; }
template <class S>
bool is_one(S v) { return v == 1; }
template <class S>
bool is_one(Cx<S> v) { return v.re == 1 && v.im == 0; }
template <class S>
S conj(S v) { return v; }
template <class S>
Cx<S> conj(Cx<S> v) { return Cx<S>{v.re, -v.im}; }

/* Note [TF32]
 * CUBLAS_COMPUTE_32F_FAST_TF32 lets the library multiply float inputs as
 * TensorFloat-32 (8 exponent bits, 10 explicit mantissa bits) and
 * accumulate in float.  The emulation rounds every input element to TF32,
 * to nearest with ties to even, before the products, so that tests see
 * TF32's loss of precision.  The hardware's own rounding may differ in
 * the last TF32 bit (the tensor cores read the top bits of a float, and
 * cvt.rna.tf32 rounds ties away from zero): compare with TF32's
 * tolerance, not bit for bit. */
float to_tf32(float f)
{
    uint32_t u = dt_float_bits(f);
    if ((u & 0x7f800000u) == 0x7f800000u) /* inf and nan as they are */
        return f;
    u += 0xfffu + ((u >> 13) & 1u);
    return dt_bits_float(u & ~0x1fffu);
}
Cx<float> to_tf32(Cx<float> v) { return Cx<float>{to_tf32(v.re), to_tf32(v.im)}; }
double to_tf32(double v) { return v; } /* never asked: TF32 is for float inputs */
Cx<double> to_tf32(Cx<double> v) { return v; }

/* An element of type t at p, in the compute type; and back, rounded to
 * nearest even. */
void load(const char *p, cudaDataType t, float *v)
{
    uint16_t bits;
    switch (t) {
    case CUDA_R_16F: memcpy(&bits, p, 2); *v = dt_half_to_float(bits); break;
    case CUDA_R_16BF: memcpy(&bits, p, 2); *v = dt_bf16_to_float(bits); break;
    default: memcpy(v, p, sizeof *v); break;
    }
}
template <class T>
void load(const char *p, cudaDataType, T *v)
{
    memcpy(v, p, sizeof *v);
}
void store(char *p, cudaDataType t, float v)
{
    uint16_t bits;
    switch (t) {
    case CUDA_R_16F: bits = dt_float_to_half(v); memcpy(p, &bits, 2); break;
    case CUDA_R_16BF: bits = dt_float_to_bf16(v); memcpy(p, &bits, 2); break;
    default: memcpy(p, &v, sizeof v); break;
    }
}
template <class T>
void store(char *p, cudaDataType, T v)
{
    memcpy(p, &v, sizeof v);
}

size_t element_size(cudaDataType t)
{
    switch (t) {
    case CUDA_R_16F: case CUDA_R_16BF: return 2;
    case CUDA_R_32F: return 4;
    case CUDA_R_64F: case CUDA_C_32F: return 8;
    case CUDA_C_64F: return 16;
    default: return 0;
    }
}

/* Note [Supported types]
 * The rows of cuBLAS's table of cublasGemmEx (and its batched forms'
 * identical one) that the emulation computes; Atype and Btype are always
 * equal there.  Compute type, scale type (alpha and beta), Atype/Btype,
 * Ctype:
 *   CUBLAS_COMPUTE_32F or _32F_PEDANTIC  CUDA_R_32F  CUDA_R_16F   CUDA_R_16F
 *                                                    CUDA_R_16BF  CUDA_R_16BF
 *                                                    CUDA_R_16F   CUDA_R_32F
 *                                                    CUDA_R_16BF  CUDA_R_32F
 *                                                    CUDA_R_32F   CUDA_R_32F
 *                                        CUDA_C_32F  CUDA_C_32F   CUDA_C_32F
 *   CUBLAS_COMPUTE_32F_FAST_TF32         CUDA_R_32F  CUDA_R_32F   CUDA_R_32F
 *                                        CUDA_C_32F  CUDA_C_32F   CUDA_C_32F
 *   CUBLAS_COMPUTE_64F or _64F_PEDANTIC  CUDA_R_64F  CUDA_R_64F   CUDA_R_64F
 *                                        CUDA_C_64F  CUDA_C_64F   CUDA_C_64F
 * Rows of that table not emulated, CUBLAS_STATUS_NOT_SUPPORTED here like
 * every combination outside it: CUBLAS_COMPUTE_16F (half accumulation),
 * CUBLAS_COMPUTE_32I (int8 inputs), CUBLAS_COMPUTE_32F with CUDA_R_8I or
 * CUDA_C_8I inputs, and _FAST_16F/_FAST_16BF.  (The table is quoted from
 * memory of NVIDIA's cuBLAS documentation, which is not among the stored
 * pages; the toolkit's headers give no table.)
 * PEDANTIC computes as the default here: the reference is already
 * standard float or double arithmetic.  Half and bfloat16 elements are
 * converted to float exactly, accumulated in float, and rounded once to
 * the output type; so CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION
 * always holds. */
enum class Arith { F32, F64, C32, C64 };

bool supported(cudaDataType a, cudaDataType b, cudaDataType c, cublasComputeType_t compute, Arith *arith,
               bool *tf32)
{
    *tf32 = false;
    if (a != b)
        return false;
    switch (compute) {
    case CUBLAS_COMPUTE_32F:
    case CUBLAS_COMPUTE_32F_PEDANTIC:
        *arith = a == CUDA_C_32F ? Arith::C32 : Arith::F32;
        return (a == CUDA_R_16F && (c == CUDA_R_16F || c == CUDA_R_32F)) ||
               (a == CUDA_R_16BF && (c == CUDA_R_16BF || c == CUDA_R_32F)) || (a == CUDA_R_32F && c == CUDA_R_32F) ||
               (a == CUDA_C_32F && c == CUDA_C_32F);
    case CUBLAS_COMPUTE_32F_FAST_TF32:
        *tf32 = true;
        *arith = a == CUDA_C_32F ? Arith::C32 : Arith::F32;
        return (a == CUDA_R_32F || a == CUDA_C_32F) && c == a;
    case CUBLAS_COMPUTE_64F:
    case CUBLAS_COMPUTE_64F_PEDANTIC:
        *arith = a == CUDA_C_64F ? Arith::C64 : Arith::F64;
        return (a == CUDA_R_64F || a == CUDA_C_64F) && c == a;
    default:
        return false;
    }
}

/* Note [Algorithms]
 * Since cuBLAS 11 the algorithm is a hint: CUBLAS_GEMM_DEFAULT, the
 * numbered CUBLAS_GEMM_ALGO0..23, their deprecated _TENSOR_OP twins
 * 99..115 and CUBLAS_GEMM_AUTOTUNE (999) are accepted and compute alike
 * here; any other value is CUBLAS_STATUS_NOT_SUPPORTED, as cuBLAS answers
 * an algorithm it does not support. */
bool known_algo(int a)
{
    return (a >= -1 && a <= 23) || (a >= 99 && a <= 115) || a == 999;
}

/* ---- extents ---- */

/* Note [Extents]
 * Every byte a call will read or write must lie in one live allocation
 * that the handle's device may access (emu_runtime_device_of,
 * emu_runtime_peer_enabled), or the call answers
 * CUBLAS_STATUS_INVALID_VALUE before queueing anything.  The real library
 * checks no pointers: its kernel would fault later with
 * cudaErrorIllegalAddress, a sticky error that the next synchronising
 * call reports, far from the cause.  The extent of a strided batch of
 * rows x cols column-major matrices: element (r, c) of matrix i is at
 * i * stride + c * ld + r, so the batch spans elements [min(0, s),
 * max(0, s) + (cols-1) * ld + rows) with s = (batchCount-1) * stride
 * (strides may be zero, for a broadcast operand, or negative).  All of it
 * in int64 with overflow checks: a product that overflows is outside any
 * allocation.  Pinned host memory, which a GPU's kernels could reach
 * through unified addressing, is refused too: stricter than the library. */
bool inside(int device, const void *base, int64_t rows, int64_t cols, int64_t ld, int64_t stride, int64_t batch,
            size_t esize)
{
    int64_t last_col, one, step, hi, n, bytes, off;
    if (__builtin_mul_overflow(cols - 1, ld, &last_col) || __builtin_add_overflow(last_col, rows, &one) ||
        __builtin_mul_overflow(batch - 1, stride, &step))
        return false;
    int64_t lo = step < 0 ? step : 0;
    if (__builtin_add_overflow(step < 0 ? 0 : step, one, &hi) || __builtin_sub_overflow(hi, lo, &n) ||
        __builtin_mul_overflow(n, (int64_t)esize, &bytes) || __builtin_mul_overflow(lo, (int64_t)esize, &off))
        return false;
    uintptr_t start = (uintptr_t)base;
    if (off < 0 && start < (uintptr_t)(-(uint64_t)off))
        return false;
    return accessible(device, (const void *)(start - (uintptr_t)(-(uint64_t)off)), (size_t)bytes);
}

/* ---- the queued product ---- */

/* A checked call: what its queued operation needs. */
struct Gemm {
    cublasOperation_t ta, tb;
    int64_t m, n, k, lda, ldb, ldc, sa, sb, sc, batch;
    const char *A, *B;
    char *C;
    cudaDataType at, ct;
    bool tf32;
};

template <class T>
struct GemmOp {
    Gemm g;
    T alpha, beta; /* read at the call, as cuBLAS reads host scalars */
    bool use_ab;   /* alpha != 0 and k > 0: op(A) op(B) is computed */
    bool read_c;   /* beta != 0: C is read (else never: BLAS semantics) */
    std::vector<T> a, b; /* op(A) by rows (m x k), op(B) by columns (n x k) */
};

/* Runs on the stream's worker (Note [Library work on streams] in
 * emu_runtime.cpp): C[i] = alpha * op(A[i]) op(B[i]) + beta * C[i]. */
template <class T>
cudaError_t gemm_run(void *arg)
{
    GemmOp<T> &o = *static_cast<GemmOp<T> *>(arg);
    const Gemm &g = o.g;
    const int64_t ea = (int64_t)element_size(g.at), ec = (int64_t)element_size(g.ct);
    for (int64_t i = 0; i < g.batch; i++) {
        char *C = g.C + i * g.sc * ec;
        if (o.use_ab) { /* else A and B may be NULL */
            const char *A = g.A + i * g.sa * ea, *B = g.B + i * g.sb * ea;
            for (int64_t r = 0; r < g.m; r++)
                for (int64_t p = 0; p < g.k; p++) {
                    T v;
                    load(A + (g.ta == CUBLAS_OP_N ? r + p * g.lda : p + r * g.lda) * ea, g.at, &v);
                    v = g.tf32 ? to_tf32(v) : v;
                    o.a[r * g.k + p] = g.ta == CUBLAS_OP_C ? conj(v) : v;
                }
            for (int64_t c = 0; c < g.n; c++)
                for (int64_t p = 0; p < g.k; p++) {
                    T v;
                    load(B + (g.tb == CUBLAS_OP_N ? p + c * g.ldb : c + p * g.ldb) * ea, g.at, &v);
                    v = g.tf32 ? to_tf32(v) : v;
                    o.b[c * g.k + p] = g.tb == CUBLAS_OP_C ? conj(v) : v;
                }
        }
        for (int64_t c = 0; c < g.n; c++)
            for (int64_t r = 0; r < g.m; r++) {
                char *out = C + (r + c * g.ldc) * ec;
                T v = T();
                if (o.use_ab) {
                    const T *ar = &o.a[r * g.k], *bc = &o.b[c * g.k];
                    T acc = T();
                    for (int64_t p = 0; p < g.k; p++)
                        acc = acc + ar[p] * bc[p];
                    v = o.alpha * acc;
                }
                if (o.read_c) {
                    T old;
                    load(out, g.ct, &old);
                    v = o.use_ab ? v + o.beta * old : o.beta * old;
                }
                store(out, g.ct, v);
            }
    }
    return cudaSuccess;
}

template <class T>
void gemm_release(void *arg)
{
    delete static_cast<GemmOp<T> *>(arg);
}

/* Note [The handle's device]
 * A handle is tied to the device current at cublasCreate; the emulation
 * does not switch devices for the caller, so a product called while
 * another device is current would put its work on the wrong device.  It
 * answers CUBLAS_STATUS_EXECUTION_FAILED instead (the status of a launch
 * that failed, Note [Failed launches]) and queues nothing.
 *
 * Note [Failed launches]
 * When the handle's stream no longer exists or belongs to another device,
 * or the device has a sticky error, the real library's kernel launch fails
 * and it answers CUBLAS_STATUS_EXECUTION_FAILED ("the function failed to
 * launch on the GPU"); so does the emulation when emu_runtime_enqueue
 * refuses the work. */

/* The part of cublasGemmStridedBatchedEx that knows the compute type T:
 * alpha and beta, quick returns, extents, queueing (Note [Quick returns]). */
template <class T>
cublasStatus_t gemm_queue(const Gemm &g, const Handle &h, const void *alpha, const void *beta)
{
    GemmOp<T> *o = nullptr;
    T a, b;
    memcpy(&a, alpha, sizeof a);
    memcpy(&b, beta, sizeof b);
    bool use_ab = g.k > 0 && !is_zero(a);
    if (g.m == 0 || g.n == 0 || g.batch == 0 || (!use_ab && is_one(b)))
        return CUBLAS_STATUS_SUCCESS;
    if (current_device() != h.device)
        return CUBLAS_STATUS_EXECUTION_FAILED; /* Note [The handle's device] */
    size_t ea = element_size(g.at), ec = element_size(g.ct);
    bool na = g.ta == CUBLAS_OP_N, nb = g.tb == CUBLAS_OP_N;
    if (use_ab && (!inside(h.device, g.A, na ? g.m : g.k, na ? g.k : g.m, g.lda, g.sa, g.batch, ea) ||
                   !inside(h.device, g.B, nb ? g.k : g.n, nb ? g.n : g.k, g.ldb, g.sb, g.batch, ea)))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!inside(h.device, g.C, g.m, g.n, g.ldc, g.sc, g.batch, ec))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (h.workspace_size > 0 && !accessible(h.device, h.workspace, h.workspace_size))
        return CUBLAS_STATUS_INVALID_VALUE; /* Note [Workspace] */
    try {
        o = new GemmOp<T>{g, a, b, use_ab, !is_zero(b), {}, {}};
        if (use_ab) {
            o->a.resize((size_t)(g.m * g.k));
            o->b.resize((size_t)(g.n * g.k));
        }
    } catch (...) {
        delete o;
        return CUBLAS_STATUS_ALLOC_FAILED;
    }
    if (emu_runtime_enqueue(h.stream, gemm_run<T>, o, gemm_release<T>) != cudaSuccess)
        return CUBLAS_STATUS_EXECUTION_FAILED; /* Note [Failed launches] */
    return CUBLAS_STATUS_SUCCESS;
}

} /* namespace */

/* emu_blas.h: the handle's state, for emu_blas_lu.cpp */
cublasStatus_t dt_emu::blas_handle(cublasHandle_t handle, int *device, cudaStream_t *stream)
{
    return with_handle(handle, [&](Handle &h) {
        *device = h.device;
        *stream = h.stream;
        return CUBLAS_STATUS_SUCCESS;
    });
}

/* ================= the API ================= */

extern "C" {

/* Without a usable runtime (no device, a configuration error) the real
 * library answers CUBLAS_STATUS_NOT_INITIALIZED, as on a machine without a
 * driver; a NULL handle pointer is CUBLAS_STATUS_INVALID_VALUE even then
 * (both seen from the CUDA 13 toolkit's libcublas without a driver). */
cublasStatus_t cublasCreate_v2(cublasHandle_t *handle)
{
    if (handle == nullptr)
        return CUBLAS_STATUS_INVALID_VALUE;
    *handle = nullptr;
    int device = current_device();
    if (device < 0)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    Table &t = table();
    std::lock_guard<std::mutex> lk(t.mu);
    uintptr_t id = (t.next_id++ << 4) | 0x2;
    t.live[id].device = device;
    *handle = (cublasHandle_t)id;
    return CUBLAS_STATUS_SUCCESS;
}

/* cuBLAS documents that releasing a handle's resources implicitly
 * synchronises its device: the handle's device is synchronised here (the
 * caller's current device is left as it was), and a sticky error there is
 * not this call's to report. */
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle)
{
    Handle h;
    cublasStatus_t st = with_handle(handle, [&](Handle &v) {
        h = v;
        table().live.erase((uintptr_t)handle);
        return CUBLAS_STATUS_SUCCESS;
    });
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    Quiet q;
    int current = current_device();
    if (current != h.device)
        (void)cudaSetDevice(h.device);
    (void)cudaDeviceSynchronize();
    if (current != h.device && current >= 0)
        (void)cudaSetDevice(current);
    return CUBLAS_STATUS_SUCCESS;
}

/* Note [Workspace]
 * cuBLAS takes a user workspace aligned to 256 bytes
 * (CUBLAS_STATUS_INVALID_VALUE otherwise) and uses it for later calls on
 * the handle; cublasSetStream goes back to the default workspace.  The
 * reference needs none, but checks what the library would touch: a
 * workspace of size > 0 must lie in device memory the handle's device may
 * access, at this call (an unaligned pointer, NULL with a size, or a size
 * that overruns the allocation -- such as a negative int converted to
 * size_t -- is CUBLAS_STATUS_INVALID_VALUE) and again at each product (a
 * workspace freed meanwhile is the same status there; the real library
 * would fault). */
cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void *workspace, size_t workspaceSizeInBytes)
{
    return with_handle(handle, [&](Handle &h) {
        if ((uintptr_t)workspace % 256 != 0)
            return CUBLAS_STATUS_INVALID_VALUE;
        if (workspaceSizeInBytes > 0 && !accessible(h.device, workspace, workspaceSizeInBytes))
            return CUBLAS_STATUS_INVALID_VALUE;
        h.workspace = workspace;
        h.workspace_size = workspaceSizeInBytes;
        return CUBLAS_STATUS_SUCCESS;
    });
}

/* Any stream is taken, as by cuBLAS; one that is invalid or of another
 * device fails the next product (Note [Failed launches]). */
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId)
{
    return with_handle(handle, [&](Handle &h) {
        h.stream = streamId;
        h.workspace = nullptr; /* back to the default workspace (Note [Workspace]) */
        h.workspace_size = 0;
        return CUBLAS_STATUS_SUCCESS;
    });
}

cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *streamId)
{
    return with_handle(handle, [&](Handle &h) {
        if (streamId == nullptr)
            return CUBLAS_STATUS_INVALID_VALUE;
        *streamId = h.stream;
        return CUBLAS_STATUS_SUCCESS;
    });
}

/* Note [Math modes]
 * Recorded and returned; any cublasMath_t value, optionally or'ed with
 * CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION, is accepted, anything
 * else is CUBLAS_STATUS_INVALID_VALUE.  A math mode changes what cuBLAS
 * computes only for routines without an explicit compute type (cublasSgemm,
 * or the cudaDataType overload of cublas*Ex: "same as using matching
 * _PEDANTIC compute type when using cublas<T>routine calls or cublasEx()
 * calls with cudaDataType as compute type", cublas_api.h); the routine
 * emulated here takes a cublasComputeType_t, which alone decides
 * (CUBLAS_COMPUTE_32F_FAST_TF32 for TF32). */
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode)
{
    /* read as an int: a caller's out-of-range value is no valid
     * cublasMath_t, and loading it as one is undefined (UBSan says so) */
    int raw;
    memcpy(&raw, &mode, sizeof raw);
    return with_handle(handle, [&](Handle &h) {
        int base = raw & ~(int)CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION;
        if (base != CUBLAS_DEFAULT_MATH && base != CUBLAS_TENSOR_OP_MATH && base != CUBLAS_PEDANTIC_MATH &&
            base != CUBLAS_TF32_TENSOR_OP_MATH && base != CUBLAS_FP32_EMULATED_BF16X9_MATH &&
            base != CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH)
            return CUBLAS_STATUS_INVALID_VALUE;
        h.math = mode;
        return CUBLAS_STATUS_SUCCESS;
    });
}

cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode)
{
    return with_handle(handle, [&](Handle &h) {
        if (mode == nullptr)
            return CUBLAS_STATUS_INVALID_VALUE;
        *mode = h.math;
        return CUBLAS_STATUS_SUCCESS;
    });
}

/* The CUDA 13 toolkit's libcublas's strings, every one. */
const char *cublasGetStatusString(cublasStatus_t status)
{
    int raw; /* as an int: see cublasSetMathMode */
    memcpy(&raw, &status, sizeof raw);
    switch (raw) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "an unsupported value or parameter was passed to the function";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "the function requires an architectural feature absent from the device";
    case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the function failed to launch on the GPU";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the requested functionality is not supported";
    case CUBLAS_STATUS_LICENSE_ERROR: return "the license check failed";
    }
    return "unrecognized status";
}

/* Note [Quick returns]
 * Checked in this order, each answering before anything after it:
 *   a NULL or destroyed handle                   CUBLAS_STATUS_NOT_INITIALIZED
 *   transa or transb not N, T or C; m, n, k or batchCount negative;
 *   lda < max(1, transa == N ? m : k); ldb < max(1, transb == N ? k : n);
 *   ldc < max(1, m); alpha or beta NULL          CUBLAS_STATUS_INVALID_VALUE
 *   types outside Note [Supported types], an unknown algorithm
 *                                                CUBLAS_STATUS_NOT_SUPPORTED
 *   alpha or beta in device memory               CUBLAS_STATUS_INVALID_VALUE
 *                                                (the device pointer mode is
 *                                                not emulated)
 * then alpha and beta are read, and as in the reference BLAS nothing is
 * done when m, n or batchCount is 0, or when beta == 1 and (k == 0 or
 * alpha == 0).  Otherwise C = beta * C when k == 0 or alpha == 0 (A and B
 * are not read, nor checked), C = alpha * op(A) op(B) when beta == 0 (C is
 * not read: a NaN there does not leak), and the full product else.  Only
 * then the handle's device and every operand's extent (Note [Extents]),
 * and the work is queued.  CUBLAS_OP_C on real types is CUBLAS_OP_T. */
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const void *alpha, const void *A, cudaDataType Atype,
                                          int lda, long long int strideA, const void *B, cudaDataType Btype, int ldb,
                                          long long int strideB, const void *beta, void *C, cudaDataType Ctype,
                                          int ldc, long long int strideC, int batchCount,
                                          cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
    Handle h;
    cublasStatus_t st = with_handle(handle, [&](Handle &v) {
        h = v;
        return CUBLAS_STATUS_SUCCESS;
    });
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    auto op_ok = [](cublasOperation_t t) { return t == CUBLAS_OP_N || t == CUBLAS_OP_T || t == CUBLAS_OP_C; };
    auto at_least = [](int ld, int rows) { return ld >= (rows > 1 ? rows : 1); };
    if (!op_ok(transa) || !op_ok(transb) || m < 0 || n < 0 || k < 0 || batchCount < 0 ||
        !at_least(lda, transa == CUBLAS_OP_N ? m : k) || !at_least(ldb, transb == CUBLAS_OP_N ? k : n) ||
        !at_least(ldc, m) || alpha == nullptr || beta == nullptr)
        return CUBLAS_STATUS_INVALID_VALUE;
    Arith arith;
    bool tf32;
    if (!supported(Atype, Btype, Ctype, computeType, &arith, &tf32) || !known_algo((int)algo))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    size_t scalar = arith == Arith::F32 ? 4 : arith == Arith::C64 ? 16 : 8;
    if (emu_runtime_device_of(alpha, scalar) >= 0 || emu_runtime_device_of(beta, scalar) >= 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    Gemm g{transa, transb, m, n, k, lda, ldb, ldc, strideA, strideB, strideC, batchCount,
           (const char *)A, (const char *)B, (char *)C, Atype, Ctype, tf32};
    switch (arith) {
    case Arith::F32: return gemm_queue<float>(g, h, alpha, beta);
    case Arith::F64: return gemm_queue<double>(g, h, alpha, beta);
    case Arith::C32: return gemm_queue<Cx<float>>(g, h, alpha, beta);
    case Arith::C64: return gemm_queue<Cx<double>>(g, h, alpha, beta);
    }
    return CUBLAS_STATUS_INTERNAL_ERROR;
}

} /* extern "C" */
