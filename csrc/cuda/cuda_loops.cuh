/* cuda_loops.cuh - what the elementwise kernel files of the CUDA backend
 * share (C++ only: included by the .cu files, never by the C files).
 *
 * The elementwise kernels are split by family so that nvcc compiles them in
 * parallel (Note [Kernel files]):
 *   cuda_loops.cu          the one launcher (validation, offset calculators,
 *                          vector or strided launch), the kernel registry,
 *                          the generator kernels
 *   cuda_loops_cast.cu     COPY: every cast, and the raw same-size copies
 *   cuda_loops_arith.cu    integer and float arithmetic, extrema, bitwise,
 *                          shifts, rounding, sign, real/imag/conj
 *   cuda_loops_math.cu     elementary functions (exp ... atanh, pow, atan2,
 *                          hypot, copysign, nextafter, logaddexp, angle)
 *   cuda_loops_compare.cu  comparisons (including int64 with uint64),
 *                          logical ops, predicates, where
 * The family files hold only templates instantiated into kernels and one
 * register_*() function each that stores the kernels' addresses in the
 * Registry; no launch code is generated per op (Note [One launcher]).
 *
 * Note [Kernel files]
 * With every array-API op, the elementwise kernels number about 2,400 per
 * architecture; in one translation unit nvcc needs several minutes for
 * them.  One file per family lets build_support/cuda.py run one nvcc per
 * file in a thread pool.  Each Op type is instantiated in exactly one file,
 * and the templates live in an anonymous namespace, so no kernel exists
 * twice and no two files can disagree about one.
 *
 * Note [One launcher]
 * A KernelSet is the addresses of an op's three kernels (vector, 32-bit
 * strided, 64-bit strided) and its operands' sizes; cuda_loops.cu launches
 * any of them through cudaLaunchKernel with the same argument structs.  So
 * the launch logic is compiled once, not once per op and dtype.
 */
#ifndef DT_CUDA_LOOPS_CUH
#define DT_CUDA_LOOPS_CUH

#include <cuda_runtime.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <type_traits>

#include "cuda_internal.h"
#include "ops_math.h"
#include "../emu/emu_spelling.h" /* DT_KERNEL_ADDRESS, DT_LAUNCH (CPU emulation) */

namespace dt_cuda_kernels {

constexpr int kThreads = 256;
constexpr int kBlocksPerSm = 32;  /* grid cap: a few waves of full occupancy */
constexpr int kMaxDims = 24;      /* Note [Offset calculator] in cuda_loops.cu */
constexpr int kMaxOps = 4;        /* operands: out and up to 3 inputs (where) */

/* ---------------------------------------------------------------------------
 * Kernel parameters (plain structs: the launcher fills them).
 */
struct OperandArgs {
    char *data[kMaxOps];          /* NULL for host scalars */
    unsigned scalar_mask;         /* bit k: operand k is a host scalar */
    struct alignas(16) {
        unsigned char bytes[16];
    } scalar[kMaxOps];            /* host scalars, by value */
};

/* Dimensions innermost first; 32-bit division by multiply-shift. */
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

/* What the launcher needs to run one (op, dtypes) loop: Note [One launcher].
 * nop == 0: no kernel.  raw != 0: the op moves raw bytes of that element
 * size (identity ops, same-dtype copies): the launcher uses the raw copy
 * kernels or cudaMemcpyAsync. */
struct KernelSet {
    const void *contig;    /* k_contig<Op, vec>, or NULL */
    const void *strided32; /* k_strided<Op, Calc32, uint32_t> */
    const void *strided64; /* k_strided<Op, Calc64, int64_t> */
    int nop, vec, raw;
    int out_dtype;         /* the output dtype this loop writes */
    int swap12;            /* run with inputs 1 and 2 swapped (Note [Swapped comparisons]) */
    size_t size[kMaxOps], align[kMaxOps];
};

/* Every kernel, filled once by the register_* functions.
 * raw[i], raw_bytes[i] and where*[i] are for element size 1 << i. */
struct Registry {
    KernelSet ops[DT_NUM_OPS][DT_NUM_DTYPES];     /* [op][loop dtype] */
    KernelSet cast[DT_NUM_DTYPES][DT_NUM_DTYPES]; /* [from][to] */
    KernelSet raw[5], raw_bytes[5];               /* aligned / any address */
    KernelSet where[5], where_bytes[5];
    KernelSet mixed[6][2];                        /* [op - EQ][0: int64 first, 1: uint64 first] */
};

void register_cast(Registry &r);
void register_arith(Registry &r);
void register_math(Registry &r);
void register_complex(Registry &r);
void register_compare(Registry &r);

/* cuda_loops.cu: a grid for `items` work items on `device`, capped at a
 * few waves; the status of the kernel launch just made */
unsigned grid_for(int64_t items, int device);
dt_status launch_status(const char *what, int device, dt_error *err);
/* the status of a cudaLaunchKernel that returned e: its error, or else the
 * error the launch left behind; `what` names the kernel in the message */
dt_status launch_result(cudaError_t e, const char *what, int device, dt_error *err);

inline int size_index(size_t n)
{
    return n == 1 ? 0 : n == 2 ? 1 : n == 4 ? 2 : n == 8 ? 3 : 4;
}

inline KernelSet raw_entry(int dtype, size_t n)
{
    KernelSet k;
    memset(&k, 0, sizeof k);
    k.nop = 2;
    k.raw = (int)n;
    k.out_dtype = dtype;
    return k;
}

} // namespace dt_cuda_kernels

namespace {
using namespace dt_cuda_kernels;

/* ---------------------------------------------------------------------------
 * Dtype tags: one struct per dtype wrapping the shared scalar functions.
 */
#define DT_CU_TAG(CODE, X)                                                                       \
    struct Tag_##X {                                                                             \
        using T = dt_T_##X;                                                                      \
        using C = dt_C_##X;                                                                      \
        static constexpr dt_dtype code = CODE;                                                   \
        static __device__ __forceinline__ C load(T v) { return dt_load_##X(v); }                 \
        static __device__ __forceinline__ T store(C v) { return dt_store_##X(v); }               \
        /* DT_CAST(F, X, v) == from_wide(F's widen(v)): one overload per wide kind */            \
        static __device__ __forceinline__ auto widen(T v) { return dt_widen_##X(v); }            \
        static __device__ __forceinline__ T from_wide(int64_t v) { return DT_CAST(i64, X, v); }  \
        static __device__ __forceinline__ T from_wide(uint64_t v) { return DT_CAST(u64, X, v); } \
        static __device__ __forceinline__ T from_wide(float v) { return DT_CAST(f32, X, v); }    \
        static __device__ __forceinline__ T from_wide(double v) { return DT_CAST(f64, X, v); }   \
        static __device__ __forceinline__ T from_wide(dt_c128 v) { return DT_CAST(c128, X, v); } \
    };
DT_FOR_EACH_DTYPE(DT_CU_TAG)
#undef DT_CU_TAG

typedef float dt_cu_real_T_c64;
typedef double dt_cu_real_T_c128;

/* The common part of every Op: storage types, input count, output dtype.
 * An Op adds `static __device__ Out apply(In1[, In2[, In3]])`. */
template <class O, class I1, class I2, class I3, int NIN, int OUTCODE, bool CONTIG = true> struct OpTypes {
    using Out = O;
    using In1 = I1;
    using In2 = I2;
    using In3 = I3;
    static constexpr int nin = NIN;
    static constexpr int out_code = OUTCODE;
    static constexpr bool contig = CONTIG;
};

/* Raw element types for copies that move bits */
struct alignas(8) Raw16 {
    uint64_t lo, hi;
};
template <int N> struct RawOf;
template <> struct RawOf<1> { using type = uint8_t; };
template <> struct RawOf<2> { using type = uint16_t; };
template <> struct RawOf<4> { using type = uint32_t; };
template <> struct RawOf<8> { using type = uint64_t; };
template <> struct RawOf<16> { using type = Raw16; };

/* operands whose addresses are not multiples of their element size: bytes */
template <int N> struct Bytes {
    unsigned char b[N];
};

/* ---------------------------------------------------------------------------
 * The two kernels.
 */
template <class T> __device__ __forceinline__ T scalar_value(const OperandArgs &a, int k)
{
    T v;
    memcpy(&v, a.scalar[k].bytes, sizeof(T));
    return v;
}

__host__ __device__ __forceinline__ uint32_t div32(uint32_t n, uint32_t mul, uint32_t shift)
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
    size_t m = sizeof(typename Op::Out);
    if (sizeof(typename Op::In1) > m)
        m = sizeof(typename Op::In1);
    if (Op::nin >= 2 && sizeof(typename Op::In2) > m)
        m = sizeof(typename Op::In2);
    if (Op::nin >= 3 && sizeof(typename Op::In3) > m)
        m = sizeof(typename Op::In3);
    return m >= 16 ? 1 : (int)(16 / m);
}

template <class Op>
__device__ __forceinline__ typename Op::Out apply_op(typename Op::In1 x1, typename Op::In2 x2, typename Op::In3 x3)
{
    if constexpr (Op::nin == 1)
        return Op::apply(x1);
    else if constexpr (Op::nin == 2)
        return Op::apply(x1, x2);
    else
        return Op::apply(x1, x2, x3);
}

/* out is (n,), every non-scalar operand contiguous and vector-aligned */
template <class Op, int V>
__global__ void __launch_bounds__(kThreads) k_contig(OperandArgs a, int64_t n)
{
    using Out = typename Op::Out;
    using In1 = typename Op::In1;
    using In2 = typename Op::In2;
    using In3 = typename Op::In3;
    const bool sc1 = (a.scalar_mask >> 1) & 1u, sc2 = (a.scalar_mask >> 2) & 1u,
               sc3 = (a.scalar_mask >> 3) & 1u;
    const In1 s1 = scalar_value<In1>(a, 1);
    const In2 s2 = Op::nin >= 2 ? scalar_value<In2>(a, 2) : In2{};
    const In3 s3 = Op::nin >= 3 ? scalar_value<In3>(a, 3) : In3{};
    const int64_t nvec = n / V;
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (int64_t v = t; v < nvec; v += step) {
        Vec<Out, V> r;
        Vec<In1, V> x1{};
        Vec<In2, V> x2{};
        Vec<In3, V> x3{};
        if (!sc1)
            x1 = reinterpret_cast<const Vec<In1, V> *>(a.data[1])[v];
        if constexpr (Op::nin >= 2)
            if (!sc2)
                x2 = reinterpret_cast<const Vec<In2, V> *>(a.data[2])[v];
        if constexpr (Op::nin >= 3)
            if (!sc3)
                x3 = reinterpret_cast<const Vec<In3, V> *>(a.data[3])[v];
#pragma unroll
        for (int j = 0; j < V; j++)
            r.v[j] = apply_op<Op>(sc1 ? s1 : x1.v[j], sc2 ? s2 : x2.v[j], sc3 ? s3 : x3.v[j]);
        reinterpret_cast<Vec<Out, V> *>(a.data[0])[v] = r;
    }
    /* the last n % V elements, one per thread */
    for (int64_t i = nvec * V + t; i < n; i += step) {
        In1 x1 = sc1 ? s1 : reinterpret_cast<const In1 *>(a.data[1])[i];
        In2 x2 = s2;
        In3 x3 = s3;
        if constexpr (Op::nin >= 2)
            if (!sc2)
                x2 = reinterpret_cast<const In2 *>(a.data[2])[i];
        if constexpr (Op::nin >= 3)
            if (!sc3)
                x3 = reinterpret_cast<const In3 *>(a.data[3])[i];
        reinterpret_cast<Out *>(a.data[0])[i] = apply_op<Op>(x1, x2, x3);
    }
}

/* out and inputs of any byte strides (broadcast, negative, non-mergeable) */
template <class Op, class Calc, class Index>
__global__ void __launch_bounds__(kThreads) k_strided(OperandArgs a, Calc c, Index n)
{
    using Out = typename Op::Out;
    using In1 = typename Op::In1;
    using In2 = typename Op::In2;
    using In3 = typename Op::In3;
    using Off = typename std::conditional<sizeof(Index) == 4, int32_t, int64_t>::type;
    constexpr int NOP = Op::nin + 1;
    const bool sc1 = (a.scalar_mask >> 1) & 1u, sc2 = (a.scalar_mask >> 2) & 1u,
               sc3 = (a.scalar_mask >> 3) & 1u;
    const In1 s1 = scalar_value<In1>(a, 1);
    const In2 s2 = Op::nin >= 2 ? scalar_value<In2>(a, 2) : In2{};
    const In3 s3 = Op::nin >= 3 ? scalar_value<In3>(a, 3) : In3{};
    const Index step = (Index)gridDim.x * blockDim.x;
    for (Index i = (Index)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        Off off[kMaxOps];
        offsets_of<NOP>(c, i, off);
        In1 x1 = sc1 ? s1 : *reinterpret_cast<const In1 *>(a.data[1] + off[1]);
        In2 x2 = s2;
        In3 x3 = s3;
        if constexpr (Op::nin >= 2)
            if (!sc2)
                x2 = *reinterpret_cast<const In2 *>(a.data[2] + off[2]);
        if constexpr (Op::nin >= 3)
            if (!sc3)
                x3 = *reinterpret_cast<const In3 *>(a.data[3] + off[3]);
        *reinterpret_cast<Out *>(a.data[0] + off[0]) = apply_op<Op>(x1, x2, x3);
    }
}

/* The addresses of an Op's kernels: instantiating this is what compiles
 * them (and, in the CPU emulation, registers them: emu_launch.cpp). */
template <class Op> KernelSet kernels_of()
{
    KernelSet k;
    memset(&k, 0, sizeof k);
    k.nop = Op::nin + 1;
    k.vec = vec_width<Op>();
    k.out_dtype = Op::out_code;
    if constexpr (Op::contig)
        k.contig = DT_KERNEL_ADDRESS(k_contig<Op, vec_width<Op>()>);
    k.strided32 = DT_KERNEL_ADDRESS(k_strided<Op, Calc32, uint32_t>);
    k.strided64 = DT_KERNEL_ADDRESS(k_strided<Op, Calc64, int64_t>);
    k.size[0] = sizeof(typename Op::Out);
    k.size[1] = sizeof(typename Op::In1);
    k.size[2] = sizeof(typename Op::In2);
    k.size[3] = sizeof(typename Op::In3);
    k.align[0] = alignof(typename Op::Out);
    k.align[1] = alignof(typename Op::In1);
    k.align[2] = alignof(typename Op::In2);
    k.align[3] = alignof(typename Op::In3);
    return k;
}

inline KernelSet swapped(KernelSet k)
{
    k.swap12 = 1;
    return k;
}

} // namespace

/* ---------------------------------------------------------------------------
 * Macros that expand an op over the dtypes NumPy has a loop for (the same
 * families as cpu_loops.c's DT_TAGS_*; M(A, B, tag)).
 */
#define DT_CU_TAGS_BOOL(M, A, B) M(A, B, b)
#define DT_CU_TAGS_SIGNED(M, A, B) M(A, B, i8) M(A, B, i16) M(A, B, i32) M(A, B, i64)
#define DT_CU_TAGS_UNSIGNED(M, A, B) M(A, B, u8) M(A, B, u16) M(A, B, u32) M(A, B, u64)
#define DT_CU_TAGS_INT(M, A, B) DT_CU_TAGS_SIGNED(M, A, B) DT_CU_TAGS_UNSIGNED(M, A, B)
#define DT_CU_TAGS_FLOAT16(M, A, B) M(A, B, f16) M(A, B, bf16)
#define DT_CU_TAGS_FLOAT3264(M, A, B) M(A, B, f32) M(A, B, f64)
#define DT_CU_TAGS_FLOAT(M, A, B) DT_CU_TAGS_FLOAT16(M, A, B) DT_CU_TAGS_FLOAT3264(M, A, B)
#define DT_CU_TAGS_COMPLEX(M, A, B) M(A, B, c64) M(A, B, c128)
#define DT_CU_TAGS_BOOL_INT(M, A, B) DT_CU_TAGS_BOOL(M, A, B) DT_CU_TAGS_INT(M, A, B)
#define DT_CU_TAGS_INT_FLOAT(M, A, B) DT_CU_TAGS_INT(M, A, B) DT_CU_TAGS_FLOAT(M, A, B)
#define DT_CU_TAGS_NUMBER(M, A, B) DT_CU_TAGS_INT_FLOAT(M, A, B) DT_CU_TAGS_COMPLEX(M, A, B)
#define DT_CU_TAGS_INEXACT(M, A, B) DT_CU_TAGS_FLOAT(M, A, B) DT_CU_TAGS_COMPLEX(M, A, B)
#define DT_CU_TAGS_REAL(M, A, B) DT_CU_TAGS_BOOL_INT(M, A, B) DT_CU_TAGS_FLOAT(M, A, B)
#define DT_CU_TAGS_ALL(M, A, B) DT_CU_TAGS_REAL(M, A, B) DT_CU_TAGS_COMPLEX(M, A, B)
/* the dtypes whose stored value passes through the op's function bit for
 * bit (no float16 round trip): identity ops run as raw copies for these */
#define DT_CU_TAGS_EXACT(M, A, B) DT_CU_TAGS_BOOL_INT(M, A, B) DT_CU_TAGS_FLOAT3264(M, A, B)

/* Op definitions: Op_<OPID>_<tag>, calling dt_<FN>_<tag> of ops_math.h.
 *   BIN_SAME  out = store(FN(load a, load b))       out dtype = loop dtype
 *   BIN_BOOL  out = FN(load a, load b)              out dtype = bool
 *   UN_SAME   out = store(FN(load a))
 *   UN_BOOL   out = FN(load a)                      out dtype = bool
 *   UN_REAL   out = FN(a), complex -> its real dtype
 *   UN_U8     out = FN(load a)                      out dtype = uint8
 *   RAW       no kernel: the op is the identity on the stored bits
 *   SWAP      no kernel: B's kernel with the inputs swapped */
#define DT_CU_DEF_BIN_SAME(OPID, FN, X)                                                          \
    namespace {                                                                                  \
    struct Op_##OPID##_##X : OpTypes<dt_T_##X, dt_T_##X, dt_T_##X, dt_T_##X, 2, Tag_##X::code> { \
        static __device__ __forceinline__ dt_T_##X apply(dt_T_##X a, dt_T_##X b)                 \
        {                                                                                        \
            return dt_store_##X(dt_##FN##_##X(dt_load_##X(a), dt_load_##X(b)));                  \
        }                                                                                        \
    };                                                                                           \
    }
#define DT_CU_DEF_BIN_BOOL(OPID, FN, X)                                                          \
    namespace {                                                                                  \
    struct Op_##OPID##_##X : OpTypes<bool, dt_T_##X, dt_T_##X, dt_T_##X, 2, DT_BOOL> {           \
        static __device__ __forceinline__ bool apply(dt_T_##X a, dt_T_##X b)                     \
        {                                                                                        \
            return dt_##FN##_##X(dt_load_##X(a), dt_load_##X(b));                                \
        }                                                                                        \
    };                                                                                           \
    }
#define DT_CU_DEF_UN_SAME(OPID, FN, X)                                                           \
    namespace {                                                                                  \
    struct Op_##OPID##_##X : OpTypes<dt_T_##X, dt_T_##X, dt_T_##X, dt_T_##X, 1, Tag_##X::code> { \
        static __device__ __forceinline__ dt_T_##X apply(dt_T_##X a)                             \
        {                                                                                        \
            return dt_store_##X(dt_##FN##_##X(dt_load_##X(a)));                                  \
        }                                                                                        \
    };                                                                                           \
    }
#define DT_CU_DEF_UN_BOOL(OPID, FN, X)                                                           \
    namespace {                                                                                  \
    struct Op_##OPID##_##X : OpTypes<bool, dt_T_##X, dt_T_##X, dt_T_##X, 1, DT_BOOL> {           \
        static __device__ __forceinline__ bool apply(dt_T_##X a) { return dt_##FN##_##X(dt_load_##X(a)); } \
    };                                                                                           \
    }
#define DT_CU_DEF_UN_REAL(OPID, FN, X)                                                           \
    namespace {                                                                                  \
    struct Op_##OPID##_##X : OpTypes<dt_cu_real_T_##X, dt_T_##X, dt_T_##X, dt_T_##X, 1,           \
                                     sizeof(dt_cu_real_T_##X) == 4 ? DT_FLOAT32 : DT_FLOAT64> {   \
        static __device__ __forceinline__ dt_cu_real_T_##X apply(dt_T_##X a)                     \
        {                                                                                        \
            return dt_##FN##_##X(dt_load_##X(a));                                                \
        }                                                                                        \
    };                                                                                           \
    }
#define DT_CU_DEF_UN_U8(OPID, FN, X)                                                             \
    namespace {                                                                                  \
    struct Op_##OPID##_##X : OpTypes<uint8_t, dt_T_##X, dt_T_##X, dt_T_##X, 1, DT_UINT8> {        \
        static __device__ __forceinline__ uint8_t apply(dt_T_##X a) { return dt_##FN##_##X(dt_load_##X(a)); } \
    };                                                                                           \
    }
#define DT_CU_DEF_RAW(OPID, FN, X)
#define DT_CU_DEF_SWAP(OPID, FROM, X)

/* Registration: inside register_*(Registry &r) */
#define DT_CU_REG_KERNELS(OPID, FN, X) r.ops[DT_OP_##OPID][Tag_##X::code] = kernels_of<Op_##OPID##_##X>();
#define DT_CU_REG_BIN_SAME DT_CU_REG_KERNELS
#define DT_CU_REG_BIN_BOOL DT_CU_REG_KERNELS
#define DT_CU_REG_UN_SAME DT_CU_REG_KERNELS
#define DT_CU_REG_UN_BOOL DT_CU_REG_KERNELS
#define DT_CU_REG_UN_REAL DT_CU_REG_KERNELS
#define DT_CU_REG_UN_U8 DT_CU_REG_KERNELS
#define DT_CU_REG_RAW(OPID, FN, X) r.ops[DT_OP_##OPID][Tag_##X::code] = raw_entry(Tag_##X::code, sizeof(dt_T_##X));
#define DT_CU_REG_SWAP(OPID, FROM, X) \
    r.ops[DT_OP_##OPID][Tag_##X::code] = swapped(kernels_of<Op_##FROM##_##X>());

/* A family file lists its ops as M(OPID, FN, FAMILY, KIND) and expands
 *     DT_CU_LIST(DT_CU_DEFINE)              at file scope, and
 *     DT_CU_LIST(DT_CU_REGISTER)            inside its register_*(r). */
#define DT_CU_DEFINE(OPID, FN, FAM, KIND) DT_CU_TAGS_##FAM(DT_CU_DEF_##KIND, OPID, FN)
#define DT_CU_REGISTER(OPID, FN, FAM, KIND) DT_CU_TAGS_##FAM(DT_CU_REG_##KIND, OPID, FN)

#endif /* DT_CUDA_LOOPS_CUH */
