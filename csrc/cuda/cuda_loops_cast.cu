/* cuda_loops_cast.cu - elementwise kernels of COPY: the cast between every
 * pair of distinct dtypes (ops.h's DT_CAST, as the CPU's cast loops), and
 * the raw copies by element size that same-dtype copies and the identity
 * ops (Note [Identity ops] in cuda_loops_arith.cu) run.
 */
#include "cuda_loops.cuh"

namespace {

template <class F, class T> struct CastOp : OpTypes<typename T::T, typename F::T, typename F::T,
                                                   typename F::T, 1, T::code> {
    static __device__ __forceinline__ typename T::T apply(typename F::T a)
    {
        return T::from_wide(F::widen(a));
    }
};

/* same-dtype copies move bits: one kernel per element size */
template <int N> struct RawCopy : OpTypes<typename RawOf<N>::type, typename RawOf<N>::type,
                                          typename RawOf<N>::type, typename RawOf<N>::type, 1, 0> {
    static __device__ __forceinline__ typename RawOf<N>::type apply(typename RawOf<N>::type a) { return a; }
};

template <int N> struct ByteCopy : OpTypes<Bytes<N>, Bytes<N>, Bytes<N>, Bytes<N>, 1, 0, false> {
    static __device__ __forceinline__ Bytes<N> apply(Bytes<N> a) { return a; }
};

template <class F> void register_casts_from(Registry &r)
{
#define DT_CU_CAST_TO(CODE, X)                                                     \
    if constexpr (F::code == CODE)                                                 \
        r.cast[F::code][CODE] = raw_entry(CODE, sizeof(typename F::T));            \
    else                                                                           \
        r.cast[F::code][CODE] = kernels_of<CastOp<F, Tag_##X>>();
    DT_FOR_EACH_DTYPE(DT_CU_CAST_TO)
#undef DT_CU_CAST_TO
}

template <int N> void register_raw(Registry &r)
{
    r.raw[size_index(N)] = kernels_of<RawCopy<N>>();
    if constexpr (N == 1) /* every address is aligned for one byte: no byte kernel needed */
        r.raw_bytes[0] = r.raw[0];
    else
        r.raw_bytes[size_index(N)] = kernels_of<ByteCopy<N>>();
}

} // namespace

void dt_cuda_kernels::register_cast(Registry &r)
{
#define DT_CU_CAST_FROM(CODE, X) register_casts_from<Tag_##X>(r);
    DT_FOR_EACH_DTYPE(DT_CU_CAST_FROM)
#undef DT_CU_CAST_FROM
    register_raw<1>(r);
    register_raw<2>(r);
    register_raw<4>(r);
    register_raw<8>(r);
    register_raw<16>(r);
}
