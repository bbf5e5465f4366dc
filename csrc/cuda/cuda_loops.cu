/* cuda_loops.cu - the CUDA backend's elementwise kernels (dt_loop) and
 * generator kernels (dt_gen), and their launchers.
 *
 * The math is not written here: every value comes from the shared scalar
 * definitions (ops.h, scalar.h, philox.h), expanded over the dtypes through
 * DT_FOR_EACH_DTYPE, so the GPU computes what the CPU backend computes.
 * Only the launch structure is GPU-specific:
 *   - k_contig:  every non-scalar operand contiguous (ndim == 1 after the
 *                core coalesced the dimensions, stride == itemsize) and
 *                aligned for 16-byte vectors: each thread loads and stores
 *                whole vectors (Note [Vector width]);
 *   - k_strided: anything else, with an offset calculator that turns a
 *                linear index into one byte offset per operand, in 32-bit
 *                arithmetic (with multiply-shift division) when the element
 *                count and every byte offset fit in int32, in 64-bit
 *                otherwise.
 * Both are grid-stride loops over a grid capped at a few waves of the
 * device.  Host scalars (dt_loop.host_scalar_mask) travel by value in the
 * kernel parameters: their data pointer is host memory.
 *
 * Note [Identical values]
 * nvcc contracts a*b+c into an FMA by default, the host C compiler does not:
 * complex multiplication and Smith's division would then differ from the
 * CPU backend in the last bit.  This file is compiled with --fmad=false
 * (build_support/cuda.py); elementwise kernels are memory-bound, so this
 * costs nothing measurable.  philox.h's affine steps are explicitly rounded
 * in any case.
 */
#include <cuda_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <type_traits>

#include "cuda_internal.h"
#include "ops.h"
#include "philox.h"

namespace dt_cuda_kernels {

constexpr int kThreads = 256;
constexpr int kBlocksPerSm = 32;  /* grid cap: a few waves of full occupancy */
constexpr int kMaxDims = 24;      /* Note [Offset calculator] */
constexpr int kMaxOps = 3;        /* operands of the ops we run: out, in1, in2 */

/* ---------------------------------------------------------------------------
 * Dtype tags: one struct per dtype wrapping the shared scalar functions, so
 * templates can be written once over the dtypes.
 */
#define DT_CU_TAG(CODE, X)                                                                   \
    struct Tag_##X {                                                                         \
        using T = dt_T_##X;                                                                  \
        using C = dt_C_##X;                                                                  \
        static constexpr dt_dtype code = CODE;                                               \
        static __device__ __forceinline__ C load(T v) { return dt_load_##X(v); }             \
        static __device__ __forceinline__ T store(C v) { return dt_store_##X(v); }           \
        static __device__ __forceinline__ C add(C a, C b) { return dt_add_##X(a, b); }       \
        static __device__ __forceinline__ C sub(C a, C b) { return dt_sub_##X(a, b); }       \
        static __device__ __forceinline__ C mul(C a, C b) { return dt_mul_##X(a, b); }       \
        static __device__ __forceinline__ bool eq(C a, C b) { return dt_eq_##X(a, b); }      \
        static __device__ __forceinline__ bool ne(C a, C b) { return dt_ne_##X(a, b); }      \
        static __device__ __forceinline__ bool lt(C a, C b) { return dt_lt_##X(a, b); }      \
        static __device__ __forceinline__ bool le(C a, C b) { return dt_le_##X(a, b); }      \
        static __device__ __forceinline__ bool gt(C a, C b) { return dt_gt_##X(a, b); }      \
        static __device__ __forceinline__ bool ge(C a, C b) { return dt_ge_##X(a, b); }      \
        /* DT_CAST(F, X, v) == from_wide(F's widen(v)): one overload per wide kind */        \
        static __device__ __forceinline__ auto widen(T v) { return dt_widen_##X(v); }        \
        static __device__ __forceinline__ T from_wide(int64_t v) { return DT_CAST(i64, X, v); }  \
        static __device__ __forceinline__ T from_wide(uint64_t v) { return DT_CAST(u64, X, v); } \
        static __device__ __forceinline__ T from_wide(float v) { return DT_CAST(f32, X, v); }    \
        static __device__ __forceinline__ T from_wide(double v) { return DT_CAST(f64, X, v); }   \
        static __device__ __forceinline__ T from_wide(dt_c128 v) { return DT_CAST(c128, X, v); } \
    };
DT_FOR_EACH_DTYPE(DT_CU_TAG)
#undef DT_CU_TAG

/* true division exists for floating and complex tags only */
template <class G> struct DivOf;
#define DT_CU_DIV(X)                                                                       \
    template <> struct DivOf<Tag_##X> {                                                    \
        static __device__ __forceinline__ dt_C_##X div(dt_C_##X a, dt_C_##X b) { return dt_div_##X(a, b); } \
    };
DT_CU_DIV(f16) DT_CU_DIV(bf16) DT_CU_DIV(f32) DT_CU_DIV(f64) DT_CU_DIV(c64) DT_CU_DIV(c128)
#undef DT_CU_DIV

/* ---------------------------------------------------------------------------
 * Op functors: Out, In1, In2 (storage types), nin, apply().
 */
template <class G, int OP> struct BinaryOp {
    using Out = typename G::T;
    using In1 = typename G::T;
    using In2 = typename G::T;
    static constexpr int nin = 2;
    static constexpr bool contig = true;
    static __device__ __forceinline__ Out apply(In1 a, In2 b)
    {
        typename G::C x = G::load(a), y = G::load(b);
        if constexpr (OP == DT_OP_ADD)
            return G::store(G::add(x, y));
        else if constexpr (OP == DT_OP_SUB)
            return G::store(G::sub(x, y));
        else if constexpr (OP == DT_OP_MUL)
            return G::store(G::mul(x, y));
        else
            return G::store(DivOf<G>::div(x, y));
    }
};

template <class G, int OP> struct CompareOp {
    using Out = dt_T_b;
    using In1 = typename G::T;
    using In2 = typename G::T;
    static constexpr int nin = 2;
    static constexpr bool contig = true;
    static __device__ __forceinline__ Out apply(In1 a, In2 b)
    {
        typename G::C x = G::load(a), y = G::load(b);
        if constexpr (OP == DT_OP_EQ)
            return G::eq(x, y);
        else if constexpr (OP == DT_OP_NE)
            return G::ne(x, y);
        else if constexpr (OP == DT_OP_LT)
            return G::lt(x, y);
        else if constexpr (OP == DT_OP_LE)
            return G::le(x, y);
        else if constexpr (OP == DT_OP_GT)
            return G::gt(x, y);
        else
            return G::ge(x, y);
    }
};

template <class F, class T> struct CastOp {
    using Out = typename T::T;
    using In1 = typename F::T;
    using In2 = In1;
    static constexpr int nin = 1;
    static constexpr bool contig = true;
    static __device__ __forceinline__ Out apply(In1 a) { return T::from_wide(F::widen(a)); }
};

/* same-dtype copies move bits: one kernel per element size */
struct alignas(8) Raw16 {
    uint64_t lo, hi;
};
template <int N> struct RawOf;
template <> struct RawOf<1> { using type = uint8_t; };
template <> struct RawOf<2> { using type = uint16_t; };
template <> struct RawOf<4> { using type = uint32_t; };
template <> struct RawOf<8> { using type = uint64_t; };
template <> struct RawOf<16> { using type = Raw16; };

template <int N> struct RawCopy {
    using Out = typename RawOf<N>::type;
    using In1 = Out;
    using In2 = Out;
    static constexpr int nin = 1;
    static constexpr bool contig = true;
    static __device__ __forceinline__ Out apply(In1 a) { return a; }
};

/* operands whose addresses are not multiples of their element size: bytes */
template <int N> struct Bytes {
    unsigned char b[N];
};
template <int N> struct ByteCopy {
    using Out = Bytes<N>;
    using In1 = Out;
    using In2 = Out;
    static constexpr int nin = 1;
    static constexpr bool contig = false;
    static __device__ __forceinline__ Out apply(In1 a) { return a; }
};

/* ---------------------------------------------------------------------------
 * Kernel parameters.
 */
struct OperandArgs {
    char *data[kMaxOps];          /* NULL for host scalars */
    unsigned scalar_mask;         /* bit k: operand k is a host scalar */
    struct alignas(16) {
        unsigned char bytes[16];
    } scalar[kMaxOps];            /* host scalars, by value */
};

template <class T> __device__ __forceinline__ T scalar_value(const OperandArgs &a, int k)
{
    T v;
    memcpy(&v, a.scalar[k].bytes, sizeof(T));
    return v;
}

/* Note [Offset calculator]
 * Dimensions are stored innermost first.  Division by each extent uses a
 * precomputed multiply-shift pair in the 32-bit calculator: for a divisor d,
 * s = ceil(log2 d) and m = floor(2^32 (2^s - d) / d) + 1, then for n < 2^31
 * n / d == (umulhi(n, m) + n) >> s (the sum fits in 32 bits).  kMaxDims = 24
 * keeps the parameters small (about 0.5 KiB in 32-bit form); a launch with
 * more coalesced dimensions (rare: a 25-dimensional view no two of whose
 * axes merge) runs as one launch per index of its outer dimensions. */
struct Calc32 {
    int ndim;
    uint32_t size[kMaxDims];
    uint32_t mul[kMaxDims];
    uint32_t shift[kMaxDims];
    int32_t stride[kMaxOps][kMaxDims];
};

struct Calc64 {
    int ndim;
    int64_t size[kMaxDims];
    int64_t stride[kMaxOps][kMaxDims];
};

DT_FN uint32_t div32(uint32_t n, uint32_t mul, uint32_t shift)
{
#if defined(__CUDA_ARCH__)
    uint32_t hi = __umulhi(n, mul);
#else
    uint32_t hi = (uint32_t)(((uint64_t)n * mul) >> 32);
#endif
    return (hi + n) >> shift;
}

template <int NOP>
__device__ __forceinline__ void offsets_of(const Calc32 &c, uint32_t i, int32_t off[kMaxOps])
{
#pragma unroll
    for (int k = 0; k < NOP; k++)
        off[k] = 0;
#pragma unroll 1
    for (int d = 0; d < kMaxDims; d++) {
        if (d == c.ndim)
            break;
        uint32_t q = div32(i, c.mul[d], c.shift[d]);
        int32_t r = (int32_t)(i - q * c.size[d]);
        i = q;
#pragma unroll
        for (int k = 0; k < NOP; k++)
            off[k] += r * c.stride[k][d];
    }
}

template <int NOP>
__device__ __forceinline__ void offsets_of(const Calc64 &c, int64_t i, int64_t off[kMaxOps])
{
#pragma unroll
    for (int k = 0; k < NOP; k++)
        off[k] = 0;
#pragma unroll 1
    for (int d = 0; d < kMaxDims; d++) {
        if (d == c.ndim)
            break;
        int64_t q = i / c.size[d];
        int64_t r = i - q * c.size[d];
        i = q;
#pragma unroll
        for (int k = 0; k < NOP; k++)
            off[k] += r * c.stride[k][d];
    }
}

/* Note [Vector width]
 * Each thread of k_contig handles V consecutive elements, V chosen so that
 * the widest operand moves exactly 16 bytes (one LDG.128/STG.128); narrower
 * operands move V * itemsize bytes, still naturally aligned and coalesced
 * across the warp.  The host checks every pointer's alignment to its
 * operand's V * itemsize before choosing this kernel. */
template <class T, int V> struct alignas(sizeof(T) * V) Vec {
    T v[V];
};

template <class Op> constexpr int vec_width()
{
    constexpr size_t a = sizeof(typename Op::Out), b = sizeof(typename Op::In1),
                     c = Op::nin == 2 ? sizeof(typename Op::In2) : 1;
    constexpr size_t m = a > b ? (a > c ? a : c) : (b > c ? b : c);
    return m >= 16 ? 1 : (int)(16 / m);
}

template <class Op, int V>
__global__ void __launch_bounds__(kThreads) k_contig(OperandArgs a, int64_t n)
{
    using Out = typename Op::Out;
    using In1 = typename Op::In1;
    using In2 = typename Op::In2;
    const bool sc1 = (a.scalar_mask >> 1) & 1u, sc2 = (a.scalar_mask >> 2) & 1u;
    const In1 s1 = scalar_value<In1>(a, 1);
    const In2 s2 = scalar_value<In2>(a, 2);
    const int64_t nvec = n / V;
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (int64_t v = t; v < nvec; v += step) {
        Vec<Out, V> r;
        Vec<In1, V> x1{};
        if (!sc1)
            x1 = reinterpret_cast<const Vec<In1, V> *>(a.data[1])[v];
        if constexpr (Op::nin == 2) {
            Vec<In2, V> x2{};
            if (!sc2)
                x2 = reinterpret_cast<const Vec<In2, V> *>(a.data[2])[v];
#pragma unroll
            for (int j = 0; j < V; j++)
                r.v[j] = Op::apply(sc1 ? s1 : x1.v[j], sc2 ? s2 : x2.v[j]);
        } else {
#pragma unroll
            for (int j = 0; j < V; j++)
                r.v[j] = Op::apply(sc1 ? s1 : x1.v[j]);
        }
        reinterpret_cast<Vec<Out, V> *>(a.data[0])[v] = r;
    }
    /* the last n % V elements, one per thread */
    for (int64_t i = nvec * V + t; i < n; i += step) {
        In1 x1 = sc1 ? s1 : reinterpret_cast<const In1 *>(a.data[1])[i];
        if constexpr (Op::nin == 2) {
            In2 x2 = sc2 ? s2 : reinterpret_cast<const In2 *>(a.data[2])[i];
            reinterpret_cast<Out *>(a.data[0])[i] = Op::apply(x1, x2);
        } else {
            reinterpret_cast<Out *>(a.data[0])[i] = Op::apply(x1);
        }
    }
}

template <class Op, class Calc, class Index>
__global__ void __launch_bounds__(kThreads) k_strided(OperandArgs a, Calc c, Index n)
{
    using Out = typename Op::Out;
    using In1 = typename Op::In1;
    using In2 = typename Op::In2;
    using Off = typename std::conditional<sizeof(Index) == 4, int32_t, int64_t>::type;
    constexpr int NOP = Op::nin + 1;
    const bool sc1 = (a.scalar_mask >> 1) & 1u, sc2 = (a.scalar_mask >> 2) & 1u;
    const In1 s1 = scalar_value<In1>(a, 1);
    const In2 s2 = scalar_value<In2>(a, 2);
    const Index step = (Index)gridDim.x * blockDim.x;
    for (Index i = (Index)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        Off off[kMaxOps];
        offsets_of<NOP>(c, i, off);
        In1 x1 = sc1 ? s1 : *reinterpret_cast<const In1 *>(a.data[1] + off[1]);
        if constexpr (Op::nin == 2) {
            In2 x2 = sc2 ? s2 : *reinterpret_cast<const In2 *>(a.data[2] + off[2]);
            *reinterpret_cast<Out *>(a.data[0] + off[0]) = Op::apply(x1, x2);
        } else {
            *reinterpret_cast<Out *>(a.data[0] + off[0]) = Op::apply(x1);
        }
    }
}

/* ---------------------------------------------------------------------------
 * Host side of the elementwise launches.
 */

const char *const op_names[DT_NUM_OPS] = {"copy", "add", "subtract", "multiply", "divide", "equal",
                                          "not_equal", "less", "less_equal", "greater", "greater_equal"};

const char *dtype_name(dt_dtype d)
{
    const dt_dtype_info *info = dt_dtype_get_info(d);
    return info != NULL ? info->name : "?";
}

void loop_describe(const dt_loop *l, char *buf, size_t size)
{
    if (l->op == DT_OP_COPY)
        snprintf(buf, size, "copy %s -> %s", dtype_name(l->dtypes[1]), dtype_name(l->dtypes[0]));
    else
        snprintf(buf, size, "%s %s", op_names[l->op], dtype_name(l->dtypes[1]));
}

dt_status launch_status(const char *what, int device, dt_error *err)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        return DT_OK;
    char call[128];
    snprintf(call, sizeof call, "the kernel launch (%s)", what);
    return dt_cuda_error_set(err, e, call, device);
}

dt_status loop_launch_status(const dt_loop *l, dt_error *err)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        return DT_OK;
    char what[96], call[128];
    loop_describe(l, what, sizeof what);
    snprintf(call, sizeof call, "the kernel launch (%s)", what);
    return dt_cuda_error_set(err, e, call, l->device_index);
}

unsigned grid_for(int64_t items, int device)
{
    int64_t blocks = (items + kThreads - 1) / kThreads;
    int64_t cap = (int64_t)dt_cuda_device_sm_count(device) * kBlocksPerSm;
    if (blocks > cap)
        blocks = cap;
    return blocks < 1 ? 1u : (unsigned)blocks;
}

int is_scalar(const dt_loop *l, int k) { return (int)((l->host_scalar_mask >> k) & 1u); }

/* One sub-launch: `ndim` dims (C order) starting at dims `dim0` of the loop,
 * with base pointers `base`. */
struct SubLoop {
    int ndim;
    const int64_t *shape;
    const int64_t *strides[kMaxOps];
    char *base[kMaxOps];
    int64_t numel;
};

bool fits_int32(const SubLoop &s, int nop, unsigned mask)
{
    if (s.numel > INT32_MAX)
        return false;
    for (int k = 0; k < nop; k++) {
        if ((mask >> k) & 1u)
            continue;
        int64_t pos = 0, neg = 0;
        for (int d = 0; d < s.ndim; d++) {
            int64_t st = s.strides[k][d];
            if (st > INT32_MAX || st < -(int64_t)INT32_MAX)
                return false;
            int64_t ext = (s.shape[d] - 1) * st; /* |.| < 2^62: shape-1 < 2^31 */
            if (ext > 0)
                pos += ext;
            else
                neg += ext;
            if (pos > INT32_MAX || neg < -(int64_t)INT32_MAX)
                return false;
        }
    }
    return true;
}

void divider32(uint32_t d, uint32_t *mul, uint32_t *shift)
{
    uint32_t s = 0;
    while (s < 31 && ((uint64_t)1 << s) < d)
        s++;
    *mul = (uint32_t)(((((uint64_t)1 << s) - d) << 32) / d + 1);
    *shift = s;
}

template <class Op>
dt_status run_strided_one(const dt_loop *l, OperandArgs &a, const SubLoop &s, cudaStream_t stream, dt_error *err)
{
    constexpr int nop = Op::nin + 1;
    for (int k = 0; k < nop; k++)
        if (!is_scalar(l, k))
            a.data[k] = s.base[k];
    unsigned grid = grid_for(s.numel, l->device_index);
    if (fits_int32(s, nop, l->host_scalar_mask)) {
        Calc32 c;
        memset(&c, 0, sizeof c);
        c.ndim = s.ndim;
        for (int d = 0; d < s.ndim; d++) {
            int src = s.ndim - 1 - d; /* innermost first */
            c.size[d] = (uint32_t)s.shape[src];
            divider32(c.size[d], &c.mul[d], &c.shift[d]);
            for (int k = 0; k < nop; k++)
                c.stride[k][d] = is_scalar(l, k) ? 0 : (int32_t)s.strides[k][src];
        }
        k_strided<Op, Calc32, uint32_t><<<grid, kThreads, 0, stream>>>(a, c, (uint32_t)s.numel);
    } else {
        Calc64 c;
        memset(&c, 0, sizeof c);
        c.ndim = s.ndim;
        for (int d = 0; d < s.ndim; d++) {
            int src = s.ndim - 1 - d;
            c.size[d] = s.shape[src];
            for (int k = 0; k < nop; k++)
                c.stride[k][d] = is_scalar(l, k) ? 0 : s.strides[k][src];
        }
        k_strided<Op, Calc64, int64_t><<<grid, kThreads, 0, stream>>>(a, c, s.numel);
    }
    return loop_launch_status(l, err);
}

template <class Op>
dt_status run_strided(const dt_loop *l, OperandArgs &a, cudaStream_t stream, dt_error *err)
{
    constexpr int nop = Op::nin + 1;
    int outer = l->ndim > kMaxDims ? l->ndim - kMaxDims : 0;
    SubLoop s;
    s.ndim = l->ndim - outer;
    s.shape = l->shape + outer;
    s.numel = 1;
    for (int d = outer; d < l->ndim; d++)
        s.numel *= l->shape[d]; /* <= loop numel, checked by the caller */
    for (int k = 0; k < nop; k++)
        s.strides[k] = l->strides[k] + outer;
    /* Note [Offset calculator]: one launch per index of the outer dims */
    int64_t idx[DT_MAX_NDIM] = {0};
    for (;;) {
        for (int k = 0; k < nop; k++) {
            char *p = l->data[k];
            if (!is_scalar(l, k))
                for (int d = 0; d < outer; d++)
                    p += idx[d] * l->strides[k][d];
            s.base[k] = p;
        }
        DT_TRY(run_strided_one<Op>(l, a, s, stream, err));
        int d = outer - 1;
        while (d >= 0 && ++idx[d] == l->shape[d])
            idx[d--] = 0;
        if (d < 0)
            break;
    }
    return DT_OK;
}

dt_status misaligned_error(const dt_loop *l, int k, dt_error *err)
{
    char what[96];
    loop_describe(l, what, sizeof what);
    return dt_error_set(err, DT_ERR_VALUE,
                        "%s on cuda:%d: operand %d is not aligned to its element size (data or byte "
                        "strides); copy it to a contiguous tensor first",
                        what, l->device_index, k);
}

template <class Op>
dt_status launch(const dt_loop *l, cudaStream_t stream, dt_error *err)
{
    using Out = typename Op::Out;
    using In1 = typename Op::In1;
    using In2 = typename Op::In2;
    constexpr int nop = Op::nin + 1;
    const size_t size[kMaxOps] = {sizeof(Out), sizeof(In1), sizeof(In2)};
    const size_t align[kMaxOps] = {alignof(Out), alignof(In1), alignof(In2)};

    OperandArgs a;
    memset(&a, 0, sizeof a);
    a.scalar_mask = l->host_scalar_mask;
    for (int k = 0; k < nop; k++) {
        if (is_scalar(l, k))
            memcpy(a.scalar[k].bytes, l->scalar[k].bytes, 16);
        else
            a.data[k] = l->data[k];
    }
    /* element alignment, so that no thread faults on a misaligned access */
    for (int k = 0; k < nop; k++) {
        if (is_scalar(l, k))
            continue;
        if ((uintptr_t)l->data[k] % align[k] != 0)
            return misaligned_error(l, k, err);
        for (int d = 0; d < l->ndim; d++)
            if (l->shape[d] > 1 && l->strides[k][d] % (int64_t)align[k] != 0)
                return misaligned_error(l, k, err);
    }
    if constexpr (Op::contig) {
        constexpr int V = vec_width<Op>();
        bool contiguous = l->ndim == 1, aligned = true;
        for (int k = 0; k < nop && contiguous; k++) {
            if (is_scalar(l, k))
                continue;
            contiguous = l->strides[k][0] == (int64_t)size[k];
            aligned = aligned && (uintptr_t)l->data[k] % (size[k] * V) == 0;
        }
        if (contiguous && aligned) {
            unsigned grid = grid_for((l->numel + V - 1) / V, l->device_index);
            k_contig<Op, V><<<grid, kThreads, 0, stream>>>(a, l->numel);
            return loop_launch_status(l, err);
        }
    }
    return run_strided<Op>(l, a, stream, err);
}

/* same dtype: move bits (a contiguous device copy is a cudaMemcpyAsync) */
template <int N> dt_status launch_raw(const dt_loop *l, cudaStream_t stream, dt_error *err)
{
    bool aligned = is_scalar(l, 1) || (uintptr_t)l->data[1] % alignof(typename RawOf<N>::type) == 0;
    aligned = aligned && (uintptr_t)l->data[0] % alignof(typename RawOf<N>::type) == 0;
    for (int k = 0; k < 2; k++)
        for (int d = 0; d < l->ndim && !is_scalar(l, k); d++)
            if (l->shape[d] > 1 && l->strides[k][d] % (int64_t)alignof(typename RawOf<N>::type) != 0)
                aligned = false;
    if (!is_scalar(l, 1) && l->ndim == 1 && l->strides[0][0] == N && l->strides[1][0] == N) {
        if (l->data[0] == l->data[1])
            return DT_OK;
        cudaError_t e = cudaMemcpyAsync(l->data[0], l->data[1], (size_t)l->numel * N, cudaMemcpyDeviceToDevice, stream);
        return dt_cuda_check(e, "cudaMemcpyAsync", l->device_index, err);
    }
    if (aligned)
        return launch<RawCopy<N>>(l, stream, err);
    return launch<ByteCopy<N>>(l, stream, err);
}

template <class F, class T> dt_status launch_cast(const dt_loop *l, cudaStream_t stream, dt_error *err)
{
    if constexpr (F::code == T::code)
        return launch_raw<(int)sizeof(typename F::T)>(l, stream, err);
    else
        return launch<CastOp<F, T>>(l, stream, err);
}

dt_status type_error(const dt_loop *l, dt_error *err)
{
    char what[96];
    loop_describe(l, what, sizeof what);
    return dt_error_set(err, DT_ERR_TYPE, "no CUDA kernel for %s", what);
}

template <class F> dt_status dispatch_cast_to(const dt_loop *l, cudaStream_t stream, dt_error *err)
{
    switch (l->dtypes[0]) {
#define DT_CU_CASE(CODE, X) \
    case CODE:              \
        return launch_cast<F, Tag_##X>(l, stream, err);
        DT_FOR_EACH_DTYPE(DT_CU_CASE)
#undef DT_CU_CASE
    default:
        return type_error(l, err);
    }
}

dt_status dispatch_cast(const dt_loop *l, cudaStream_t stream, dt_error *err)
{
    switch (l->dtypes[1]) {
#define DT_CU_CASE(CODE, X) \
    case CODE:              \
        return dispatch_cast_to<Tag_##X>(l, stream, err);
        DT_FOR_EACH_DTYPE(DT_CU_CASE)
#undef DT_CU_CASE
    default:
        return type_error(l, err);
    }
}

template <int OP> dt_status dispatch_arith(const dt_loop *l, cudaStream_t stream, dt_error *err)
{
    switch (l->dtypes[0]) {
#define DT_CU_CASE(CODE, X) \
    case CODE:              \
        return launch<BinaryOp<Tag_##X, OP>>(l, stream, err);
    /* bool: + is or, * is and; bool - is refused (NumPy) */
    case DT_BOOL:
        if constexpr (OP == DT_OP_SUB)
            return type_error(l, err);
        else
            return launch<BinaryOp<Tag_b, OP>>(l, stream, err);
        DT_CU_CASE(DT_INT8, i8) DT_CU_CASE(DT_INT16, i16) DT_CU_CASE(DT_INT32, i32) DT_CU_CASE(DT_INT64, i64)
        DT_CU_CASE(DT_UINT8, u8) DT_CU_CASE(DT_UINT16, u16) DT_CU_CASE(DT_UINT32, u32) DT_CU_CASE(DT_UINT64, u64)
        DT_CU_CASE(DT_FLOAT16, f16) DT_CU_CASE(DT_BFLOAT16, bf16) DT_CU_CASE(DT_FLOAT32, f32)
        DT_CU_CASE(DT_FLOAT64, f64) DT_CU_CASE(DT_COMPLEX64, c64) DT_CU_CASE(DT_COMPLEX128, c128)
#undef DT_CU_CASE
    default:
        return type_error(l, err);
    }
}

dt_status dispatch_div(const dt_loop *l, cudaStream_t stream, dt_error *err)
{
    switch (l->dtypes[0]) {
#define DT_CU_CASE(CODE, X) \
    case CODE:              \
        return launch<BinaryOp<Tag_##X, DT_OP_DIV>>(l, stream, err);
        DT_CU_CASE(DT_FLOAT16, f16) DT_CU_CASE(DT_BFLOAT16, bf16) DT_CU_CASE(DT_FLOAT32, f32)
        DT_CU_CASE(DT_FLOAT64, f64) DT_CU_CASE(DT_COMPLEX64, c64) DT_CU_CASE(DT_COMPLEX128, c128)
#undef DT_CU_CASE
    default:
        return type_error(l, err);
    }
}

template <int OP> dt_status dispatch_compare(const dt_loop *l, cudaStream_t stream, dt_error *err)
{
    switch (l->dtypes[1]) {
#define DT_CU_CASE(CODE, X) \
    case CODE:              \
        return launch<CompareOp<Tag_##X, OP>>(l, stream, err);
        DT_FOR_EACH_DTYPE(DT_CU_CASE)
#undef DT_CU_CASE
    default:
        return type_error(l, err);
    }
}

dt_status loop_validate(const dt_loop *l, dt_error *err)
{
    if (l->op < 0 || l->op >= DT_NUM_OPS)
        return dt_error_set(err, DT_ERR_VALUE, "run_loop: unknown op %d", l->op);
    int want = l->op == DT_OP_COPY ? 2 : 3;
    if (l->nop != want)
        return dt_error_set(err, DT_ERR_VALUE, "run_loop: %s takes %d operands, got %d", op_names[l->op], want,
                            l->nop);
    if (l->ndim < 1 || l->ndim > DT_MAX_NDIM)
        return dt_error_set(err, DT_ERR_VALUE, "run_loop: ndim %d out of range", l->ndim);
    for (int k = 0; k < l->nop; k++)
        if (!dt_dtype_is_valid((int)l->dtypes[k]))
            return dt_error_set(err, DT_ERR_VALUE, "run_loop: invalid dtype code %d", (int)l->dtypes[k]);
    if (l->host_scalar_mask & 1u)
        return dt_error_set(err, DT_ERR_VALUE, "run_loop: the output cannot be a host scalar");
    if (l->host_scalar_mask >> l->nop)
        return dt_error_set(err, DT_ERR_VALUE, "run_loop: host_scalar_mask names a missing operand");
    int64_t numel = 1;
    for (int d = 0; d < l->ndim; d++) {
        if (l->shape[d] < 1)
            return dt_error_set(err, DT_ERR_VALUE, "run_loop: shape[%d] = %lld", d, (long long)l->shape[d]);
        if (numel > INT64_MAX / l->shape[d])
            return dt_error_set(err, DT_ERR_OVERFLOW, "run_loop: the element count overflows int64");
        numel *= l->shape[d];
    }
    if (numel != l->numel)
        return dt_error_set(err, DT_ERR_VALUE, "run_loop: numel %lld does not match the shape (%lld)",
                            (long long)l->numel, (long long)numel);
    for (int k = 0; k < l->nop; k++)
        if (!is_scalar(l, k) && l->data[k] == NULL)
            return dt_error_set(err, DT_ERR_VALUE, "run_loop: operand %d has no data", k);
    switch (l->op) {
    case DT_OP_COPY:
        return DT_OK;
    case DT_OP_ADD:
    case DT_OP_SUB:
    case DT_OP_MUL:
    case DT_OP_DIV:
        if (l->dtypes[1] != l->dtypes[0] || l->dtypes[2] != l->dtypes[0])
            return type_error(l, err);
        return DT_OK;
    default:
        if (l->dtypes[0] != DT_BOOL || l->dtypes[1] != l->dtypes[2])
            return type_error(l, err);
        return DT_OK;
    }
}

/* ---------------------------------------------------------------------------
 * Generators (dt_gen): contiguous output, element i a pure function of i.
 */

__global__ void __launch_bounds__(kThreads) k_fill16(uint4 *p, int64_t nvec, uint4 pattern)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nvec; i += step)
        p[i] = pattern;
}

struct Pattern16 {
    unsigned char b[16];
};

/* byte i of the region is pattern[i % 16] (the element size divides 16) */
__global__ void __launch_bounds__(kThreads) k_fill_bytes(unsigned char *p, int64_t nbytes, Pattern16 pattern)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nbytes; i += step)
        p[i] = pattern.b[i & 15];
}

template <class G>
__global__ void __launch_bounds__(kThreads) k_affine_int(typename G::T *p, int64_t n, int64_t start, int64_t stp)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t v = (int64_t)((uint64_t)start + (uint64_t)i * (uint64_t)stp); /* wraps */
        p[i] = G::from_wide(v);
    }
}

template <class G>
__global__ void __launch_bounds__(kThreads) k_affine_float(typename G::T *p, int64_t n, double start, double stp)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        p[i] = G::from_wide(__dadd_rn(start, __dmul_rn((double)i, stp)));
}

template <class G>
__global__ void __launch_bounds__(kThreads)
    k_uniform(typename G::T *p, int64_t n, uint64_t seed, uint64_t offset, int bits, double low, double high)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        p[i] = G::from_wide(dt_philox_uniform(seed, offset + (uint64_t)i, bits, low, high));
}

template <class G>
__global__ void __launch_bounds__(kThreads)
    k_normal(typename G::T *p, int64_t n, uint64_t seed, uint64_t offset, double mean, double std)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        p[i] = G::from_wide(dt_philox_normal(seed, offset + (uint64_t)i, mean, std));
}

template <class G>
__global__ void __launch_bounds__(kThreads)
    k_randint(typename G::T *p, int64_t n, uint64_t seed, uint64_t offset, int64_t low, int64_t high)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        p[i] = G::from_wide(dt_philox_randint(seed, offset + (uint64_t)i, low, high));
}

dt_status gen_fill(const dt_gen *g, int itemsize, cudaStream_t stream, dt_error *err)
{
    size_t nbytes = (size_t)g->n * (size_t)itemsize; /* checked by the caller */
    const unsigned char *v = g->value.bytes;
    int uniform = 1;
    for (int i = 1; i < itemsize; i++)
        uniform = uniform && v[i] == v[0];
    if (uniform) /* zeros, and every 1-byte dtype */
        return DT_CUDA_CALL(err, g->device_index, cudaMemsetAsync, (g->data, v[0], nbytes, stream));
    Pattern16 pat;
    for (int i = 0; i < 16; i++)
        pat.b[i] = v[i % itemsize];
    unsigned char *p = (unsigned char *)g->data;
    size_t body = 0;
    if ((uintptr_t)p % 16 == 0) {
        body = nbytes / 16 * 16;
        if (body > 0) {
            uint4 pv;
            memcpy(&pv, pat.b, 16);
            k_fill16<<<grid_for((int64_t)(body / 16), g->device_index), kThreads, 0, stream>>>(
                (uint4 *)p, (int64_t)(body / 16), pv);
            DT_TRY(launch_status("fill", g->device_index, err));
        }
    }
    if (nbytes > body) {
        k_fill_bytes<<<grid_for((int64_t)(nbytes - body), g->device_index), kThreads, 0, stream>>>(
            p + body, (int64_t)(nbytes - body), pat);
        DT_TRY(launch_status("fill", g->device_index, err));
    }
    return DT_OK;
}

dt_status gen_type_error(const dt_gen *g, const char *what, dt_error *err)
{
    return dt_error_set(err, DT_ERR_TYPE, "no CUDA kernel for %s with dtype %s", what, dtype_name(g->dtype));
}

template <class G> dt_status gen_typed(const dt_gen *g, cudaStream_t stream, dt_error *err)
{
    using T = typename G::T;
    constexpr dt_dtype code = G::code;
    constexpr bool integral = code <= DT_UINT64;
    constexpr bool floating = code >= DT_FLOAT16 && code <= DT_FLOAT64;
    T *p = (T *)g->data;
    unsigned grid = grid_for(g->n, g->device_index);
    const char *what = "";
    switch (g->kind) {
    case DT_GEN_AFFINE:
        what = "arange";
        if constexpr (integral)
            k_affine_int<G><<<grid, kThreads, 0, stream>>>(p, g->n, g->istart, g->istep);
        else
            k_affine_float<G><<<grid, kThreads, 0, stream>>>(p, g->n, g->start, g->step);
        break;
    case DT_GEN_UNIFORM:
        what = "uniform";
        if constexpr (floating) {
            constexpr int bits = code == DT_FLOAT16    ? DT_PHILOX_BITS_FLOAT16
                                 : code == DT_BFLOAT16 ? DT_PHILOX_BITS_BFLOAT16
                                 : code == DT_FLOAT32  ? DT_PHILOX_BITS_FLOAT32
                                                       : DT_PHILOX_BITS_FLOAT64;
            k_uniform<G><<<grid, kThreads, 0, stream>>>(p, g->n, g->seed, g->offset, bits, g->low, g->high);
        } else
            return gen_type_error(g, "uniform random numbers", err);
        break;
    case DT_GEN_NORMAL:
        what = "normal";
        if constexpr (floating)
            k_normal<G><<<grid, kThreads, 0, stream>>>(p, g->n, g->seed, g->offset, g->low, g->high);
        else
            return gen_type_error(g, "normal random numbers", err);
        break;
    case DT_GEN_RANDINT:
        what = "randint";
        if (g->ihigh <= g->ilow)
            return dt_error_set(err, DT_ERR_VALUE, "randint: high (%lld) must be greater than low (%lld)",
                                (long long)g->ihigh, (long long)g->ilow);
        k_randint<G><<<grid, kThreads, 0, stream>>>(p, g->n, g->seed, g->offset, g->ilow, g->ihigh);
        break;
    default:
        return dt_error_set(err, DT_ERR_VALUE, "generate: unknown kind %d", g->kind);
    }
    return launch_status(what, g->device_index, err);
}

dt_status gen_dispatch(const dt_gen *g, cudaStream_t stream, dt_error *err)
{
    switch (g->dtype) {
#define DT_CU_CASE(CODE, X) \
    case CODE:              \
        return gen_typed<Tag_##X>(g, stream, err);
        DT_FOR_EACH_DTYPE(DT_CU_CASE)
#undef DT_CU_CASE
    default:
        return dt_error_set(err, DT_ERR_VALUE, "generate: invalid dtype code %d", (int)g->dtype);
    }
}

} // namespace dt_cuda_kernels
using namespace dt_cuda_kernels;

/* ---------------------------------------------------------------------------
 * The backend slots.
 */

extern "C" dt_status dt_cuda_loop_run(const dt_loop *l, dt_error *err)
{
    if (l == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "run_loop: no loop");
    DT_TRY(loop_validate(l, err));
    cudaStream_t stream;
    DT_TRY(dt_cuda_stream_resolve(l->device_index, l->stream, NULL, &stream, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, l->device_index, err));
    (void)cudaGetLastError(); /* a stale error must not be blamed on this launch */
    dt_status st;
    switch (l->op) {
    case DT_OP_COPY: st = dispatch_cast(l, stream, err); break;
    case DT_OP_ADD: st = dispatch_arith<DT_OP_ADD>(l, stream, err); break;
    case DT_OP_SUB: st = dispatch_arith<DT_OP_SUB>(l, stream, err); break;
    case DT_OP_MUL: st = dispatch_arith<DT_OP_MUL>(l, stream, err); break;
    case DT_OP_DIV: st = dispatch_div(l, stream, err); break;
    case DT_OP_EQ: st = dispatch_compare<DT_OP_EQ>(l, stream, err); break;
    case DT_OP_NE: st = dispatch_compare<DT_OP_NE>(l, stream, err); break;
    case DT_OP_LT: st = dispatch_compare<DT_OP_LT>(l, stream, err); break;
    case DT_OP_LE: st = dispatch_compare<DT_OP_LE>(l, stream, err); break;
    case DT_OP_GT: st = dispatch_compare<DT_OP_GT>(l, stream, err); break;
    case DT_OP_GE: st = dispatch_compare<DT_OP_GE>(l, stream, err); break;
    default: st = type_error(l, err); break;
    }
    dt_cuda_guard_exit(&g);
    return st;
}

extern "C" dt_status dt_cuda_gen_run(const dt_gen *gen, dt_error *err)
{
    if (gen == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "generate: nothing to generate");
    const dt_dtype_info *info = dt_dtype_get_info(gen->dtype);
    if (info == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "generate: invalid dtype code %d", (int)gen->dtype);
    if (gen->n < 0)
        return dt_error_set(err, DT_ERR_VALUE, "generate: negative element count %lld", (long long)gen->n);
    DT_TRY(dt_cuda_index_check(gen->device_index, err));
    if (gen->n == 0)
        return DT_OK;
    if (gen->data == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "generate: no data");
    if (gen->n > INT64_MAX / info->itemsize || (uint64_t)gen->n * (uint64_t)info->itemsize > SIZE_MAX)
        return dt_error_set(err, DT_ERR_OVERFLOW, "generate: %lld elements overflow the byte count",
                            (long long)gen->n);
    int align = info->kind == DT_KIND_COMPLEX ? info->itemsize / 2 : info->itemsize;
    if ((uintptr_t)gen->data % (uintptr_t)align != 0)
        return dt_error_set(err, DT_ERR_VALUE, "generate: the output is not aligned to its element size");
    cudaStream_t stream;
    DT_TRY(dt_cuda_stream_resolve(gen->device_index, gen->stream, NULL, &stream, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, gen->device_index, err));
    (void)cudaGetLastError();
    dt_status st = gen->kind == DT_GEN_FILL ? gen_fill(gen, info->itemsize, stream, err)
                                            : gen_dispatch(gen, stream, err);
    dt_cuda_guard_exit(&g);
    return st;
}
