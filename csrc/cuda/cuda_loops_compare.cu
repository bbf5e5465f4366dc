/* cuda_loops_compare.cu - elementwise kernels that answer with bool or pick
 * stored values: comparisons (and the exact int64-with-uint64 ones),
 * logical_and/or/xor/not, isnan, isinf, isfinite, signbit, and where.
 *
 * Note [Swapped comparisons]
 * ops.h defines gt(a, b) as a > b (complex: lt(b, a)) and ge(a, b) as
 * a >= b (complex: le(b, a)); for every value, NaN included, these equal
 * lt(b, a) and le(b, a).  So greater and greater_equal run the less and
 * less_equal kernels with the inputs swapped (KernelSet.swap12; the
 * launcher swaps the operands): 90 kernels fewer to compile.
 */
#include "cuda_loops.cuh"

#define DT_CU_LIST(M)                                                                       \
    M(EQ, eq, ALL, BIN_BOOL) M(NE, ne, ALL, BIN_BOOL) M(LT, lt, ALL, BIN_BOOL)              \
    M(LE, le, ALL, BIN_BOOL) M(GT, LT, ALL, SWAP) M(GE, LE, ALL, SWAP)                      \
    M(LOGICAL_AND, land, ALL, BIN_BOOL) M(LOGICAL_OR, lor, ALL, BIN_BOOL)                   \
    M(LOGICAL_XOR, lxor, ALL, BIN_BOOL) M(LOGICAL_NOT, lnot, ALL, UN_BOOL)                  \
    M(ISNAN, isnan, ALL, UN_BOOL) M(ISINF, isinf, ALL, UN_BOOL)                             \
    M(ISFINITE, isfinite, ALL, UN_BOOL) M(SIGNBIT, signbit, REAL, UN_BOOL)

DT_CU_LIST(DT_CU_DEFINE)

namespace {

/* int64 against uint64, exactly (ops_math.h's dt_mixed_*, as the CPU's
 * mixed loops): I64_FIRST says which operand is the int64 one. */
template <int OP, bool I64_FIRST>
struct MixedCompare : OpTypes<bool, typename std::conditional<I64_FIRST, int64_t, uint64_t>::type,
                              typename std::conditional<I64_FIRST, uint64_t, int64_t>::type,
                              int64_t, 2, DT_BOOL> {
    using A = typename std::conditional<I64_FIRST, int64_t, uint64_t>::type;
    using B = typename std::conditional<I64_FIRST, uint64_t, int64_t>::type;
    static __device__ __forceinline__ bool apply(A a, B b)
    {
        int64_t x;
        uint64_t y;
        if constexpr (I64_FIRST) {
            x = (int64_t)a;
            y = (uint64_t)b;
        } else {
            y = (uint64_t)a;
            x = (int64_t)b;
        }
        /* x is the int64 operand, y the uint64 one; a OP b */
        if constexpr (OP == DT_OP_EQ)
            return dt_mixed_eq(x, y);
        else if constexpr (OP == DT_OP_NE)
            return !dt_mixed_eq(x, y);
        else if constexpr (OP == DT_OP_LT)
            return I64_FIRST ? dt_mixed_lt(x, y) : dt_mixed_gt(x, y);
        else if constexpr (OP == DT_OP_LE)
            return I64_FIRST ? !dt_mixed_gt(x, y) : !dt_mixed_lt(x, y);
        else if constexpr (OP == DT_OP_GT)
            return I64_FIRST ? dt_mixed_gt(x, y) : dt_mixed_lt(x, y);
        else
            return I64_FIRST ? !dt_mixed_lt(x, y) : !dt_mixed_gt(x, y);
    }
};

/* where(cond, x, y): stored values moved untouched (as the CPU loop's
 * memcpy), so one kernel per element size; V is RawOf<N> or, for operands
 * not aligned to their size, Bytes<N> (no vector path). */
template <class V, bool CONTIG>
struct WhereOp : OpTypes<V, uint8_t, V, V, 3, 0, CONTIG> { /* the condition's byte (Note [Bool bytes]) */
    static __device__ __forceinline__ V apply(uint8_t c, V x, V y) { return c != 0 ? x : y; }
};

template <int N> void register_where(Registry &r)
{
    r.where[size_index(N)] = kernels_of<WhereOp<typename RawOf<N>::type, true>>();
    if constexpr (N == 1) /* every address is aligned for one byte */
        r.where_bytes[0] = r.where[0];
    else
        r.where_bytes[size_index(N)] = kernels_of<WhereOp<Bytes<N>, false>>();
}

} // namespace

void dt_cuda_kernels::register_compare(Registry &r)
{
    DT_CU_LIST(DT_CU_REGISTER)
#define DT_CU_MIXED(OP)                                                     \
    r.mixed[OP - DT_OP_EQ][0] = kernels_of<MixedCompare<OP, true>>();      \
    r.mixed[OP - DT_OP_EQ][1] = kernels_of<MixedCompare<OP, false>>();
    DT_CU_MIXED(DT_OP_EQ) DT_CU_MIXED(DT_OP_NE) DT_CU_MIXED(DT_OP_LT)
    DT_CU_MIXED(DT_OP_LE) DT_CU_MIXED(DT_OP_GT) DT_CU_MIXED(DT_OP_GE)
#undef DT_CU_MIXED
    register_where<1>(r);
    register_where<2>(r);
    register_where<4>(r);
    register_where<8>(r);
    register_where<16>(r);
}
