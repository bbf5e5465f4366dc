/* reduce_ops.h - the semantics of every reduction, written once for the
 * CPU loops (csrc/cpu/cpu_reduce.c) and the CUDA kernels
 * (csrc/cuda/cuda_reduce.cu), as ops.h is for the elementwise ops.
 *
 * For a dtype tag X (ops.h):
 *   DT_ACC_X          the accumulator kind of SUM and PROD: I (int64,
 *                     wrapping), U (uint64), F (float), D (double), Z
 *                     (complex128); the types are ops.h's dt_wide_K
 *   dt_acc_add_K ...  accumulator arithmetic (defined, wrapping for I)
 *   dt_arg_X          ARGMIN/ARGMAX's accumulator: a value and its position
 *   dt_argmax_merge_X the better of two: NaN first, then the larger, then
 *                     the lower position; so any order of merging gives
 *                     the first extreme in C order, as NumPy's argmax.
 *
 * Note [Accumulating wide]
 * float32 sums and products accumulate in double, float16 and bfloat16 in
 * float: NumPy's float16 sum does so too, and double keeps a float32 sum
 * of 10^8 elements exact to its last bit far more often than pairwise
 * float32 summation, at no cost where memory is the limit.  The result
 * differs from NumPy's only where NumPy rounds or overflows mid-way
 * ([3e38, 3e38, -3e38] sums to 3e38, NumPy's gives inf).  float64 sums are
 * pairwise on the CPU and compensated (Kahan) per thread on a GPU.  A
 * float16 product whose factors overflow float mid-way is inf, or NaN
 * with a zero factor, by the order of its multiplications (lanes here,
 * NumPy's sequence there): only the sign of an infinity is certain.
 */
#ifndef DT_REDUCE_OPS_H
#define DT_REDUCE_OPS_H

#include <string.h>

#include "ops_math.h"

#define DT_ACC_b U
#define DT_ACC_i8 I
#define DT_ACC_i16 I
#define DT_ACC_i32 I
#define DT_ACC_i64 I
#define DT_ACC_u8 U
#define DT_ACC_u16 U
#define DT_ACC_u32 U
#define DT_ACC_u64 U
#define DT_ACC_f16 F
#define DT_ACC_bf16 F
#define DT_ACC_f32 D
#define DT_ACC_f64 D
#define DT_ACC_c64 Z
#define DT_ACC_c128 Z

#define DT_RPASTE_(a, b) a##b
#define DT_RPASTE(a, b) DT_RPASTE_(a, b)
/* the accumulator type of tag X, and a tag-X storage value as one */
#define DT_ACC_T(X) DT_RPASTE(dt_wide_, DT_ACC_##X)
#define DT_ACC_LOAD(X, v) ((DT_ACC_T(X))dt_widen_##X(v))

DT_FN dt_wide_I dt_acc_add_I(dt_wide_I a, dt_wide_I b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
DT_FN dt_wide_I dt_acc_mul_I(dt_wide_I a, dt_wide_I b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
DT_FN dt_wide_U dt_acc_add_U(dt_wide_U a, dt_wide_U b) { return a + b; }
DT_FN dt_wide_U dt_acc_mul_U(dt_wide_U a, dt_wide_U b) { return a * b; }
DT_FN dt_wide_F dt_acc_add_F(dt_wide_F a, dt_wide_F b) { return a + b; }
DT_FN dt_wide_F dt_acc_mul_F(dt_wide_F a, dt_wide_F b) { return a * b; }
DT_FN dt_wide_D dt_acc_add_D(dt_wide_D a, dt_wide_D b) { return a + b; }
DT_FN dt_wide_D dt_acc_mul_D(dt_wide_D a, dt_wide_D b) { return a * b; }
DT_FN dt_wide_Z dt_acc_add_Z(dt_wide_Z a, dt_wide_Z b) { return dt_c128_add(a, b); }
DT_FN dt_wide_Z dt_acc_mul_Z(dt_wide_Z a, dt_wide_Z b) { return dt_c128_mul(a, b); }

DT_FN dt_wide_I dt_acc_zero_I(void) { return 0; }
DT_FN dt_wide_U dt_acc_zero_U(void) { return 0; }
DT_FN dt_wide_F dt_acc_zero_F(void) { return 0.0f; }
DT_FN dt_wide_D dt_acc_zero_D(void) { return 0.0; }
DT_FN dt_wide_Z dt_acc_zero_Z(void) { return dt_c128_make(0.0, 0.0); }
DT_FN dt_wide_I dt_acc_one_I(void) { return 1; }
DT_FN dt_wide_U dt_acc_one_U(void) { return 1; }
DT_FN dt_wide_F dt_acc_one_F(void) { return 1.0f; }
DT_FN dt_wide_D dt_acc_one_D(void) { return 1.0; }
DT_FN dt_wide_Z dt_acc_one_Z(void) { return dt_c128_make(1.0, 0.0); }

/* ARGMIN / ARGMAX: the better of a and b (Note at the top). */
#define DT_ARG_OPS(X)                                                                      \
    typedef struct dt_arg_##X {                                                            \
        dt_C_##X v;                                                                        \
        int64_t i;                                                                         \
    } dt_arg_##X;                                                                          \
    DT_FN dt_arg_##X dt_arg_make_##X(dt_C_##X v, int64_t i)                                \
    {                                                                                      \
        dt_arg_##X r;                                                                      \
        r.v = v;                                                                           \
        r.i = i;                                                                           \
        return r;                                                                          \
    }                                                                                      \
    DT_FN dt_arg_##X dt_argmax_merge_##X(dt_arg_##X a, dt_arg_##X b)                       \
    {                                                                                      \
        bool an = dt_isnan_##X(a.v), bn = dt_isnan_##X(b.v);                               \
        if (an || bn)                                                                      \
            return (an && (!bn || a.i < b.i)) ? a : b;                                     \
        if (dt_gt_##X(a.v, b.v))                                                           \
            return a;                                                                      \
        if (dt_gt_##X(b.v, a.v))                                                           \
            return b;                                                                      \
        return a.i < b.i ? a : b;                                                          \
    }                                                                                      \
    DT_FN dt_arg_##X dt_argmin_merge_##X(dt_arg_##X a, dt_arg_##X b)                       \
    {                                                                                      \
        bool an = dt_isnan_##X(a.v), bn = dt_isnan_##X(b.v);                               \
        if (an || bn)                                                                      \
            return (an && (!bn || a.i < b.i)) ? a : b;                                     \
        if (dt_lt_##X(a.v, b.v))                                                           \
            return a;                                                                      \
        if (dt_lt_##X(b.v, a.v))                                                           \
            return b;                                                                      \
        return a.i < b.i ? a : b;                                                          \
    }
#define DT_ARG_OPS_(CODE, X) DT_ARG_OPS(X)
DT_FOR_EACH_DTYPE(DT_ARG_OPS_)
#undef DT_ARG_OPS_
#undef DT_ARG_OPS

/* NumPy's sort order (searchsorted, and later sort): dt_order_lt_X(a, b)
 * is a < b with NaN after every number (and equal to NaN); complex values
 * compare by real part, then imaginary part, those with a NaN part after
 * all others, as NumPy sorts them. */
#define DT_ORDER_REAL(X)                                                                     \
    DT_FN bool dt_order_lt_##X(dt_C_##X a, dt_C_##X b)                                        \
    {                                                                                        \
        return a < b || (dt_isnan_##X(b) && !dt_isnan_##X(a));                               \
    }
DT_ORDER_REAL(b) DT_ORDER_REAL(i8) DT_ORDER_REAL(i16) DT_ORDER_REAL(i32) DT_ORDER_REAL(i64)
DT_ORDER_REAL(u8) DT_ORDER_REAL(u16) DT_ORDER_REAL(u32) DT_ORDER_REAL(u64) DT_ORDER_REAL(f16)
DT_ORDER_REAL(bf16) DT_ORDER_REAL(f32) DT_ORDER_REAL(f64)
#undef DT_ORDER_REAL
#define DT_ORDER_COMPLEX(X, R)                                                               \
    DT_FN bool dt_order_lt_##X(dt_C_##X a, dt_C_##X b)                                        \
    {                                                                                        \
        /* NumPy's classes, in order: R + Rj, R + nanj, nan + Rj, nan + nanj */             \
        int ca = (a.re != a.re) * 2 + (a.im != a.im), cb = (b.re != b.re) * 2 + (b.im != b.im); \
        if (ca != cb)                                                                        \
            return ca < cb;                                                                  \
        if (ca == 0)                                                                         \
            return a.re < b.re || (a.re == b.re && a.im < b.im);                             \
        return ca == 1 ? a.re < b.re : ca == 2 ? a.im < b.im : false;                        \
    }
DT_ORDER_COMPLEX(c64, float) DT_ORDER_COMPLEX(c128, double)
#undef DT_ORDER_COMPLEX

/* dt_store_wide_K(out, acc, o): a SUM or PROD accumulator stored as dtype
 * o (NumPy's cast, ops.h), at any alignment. */
#define DT_STORE_CASE_(CODE, O, K)                   \
    case CODE: {                                     \
        dt_T_##O v = dt_narrow_##K##_##O(acc);       \
        memcpy(out, &v, sizeof v);                   \
        break;                                       \
    }
#define DT_STORE_KIND_(K)                                                       \
    DT_FN void dt_store_wide_##K(char *out, dt_wide_##K acc, dt_dtype o)        \
    {                                                                           \
        switch (o) {                                                            \
            DT_STORE_CASE_(DT_BOOL, b, K) DT_STORE_CASE_(DT_INT8, i8, K)        \
            DT_STORE_CASE_(DT_INT16, i16, K) DT_STORE_CASE_(DT_INT32, i32, K)   \
            DT_STORE_CASE_(DT_INT64, i64, K) DT_STORE_CASE_(DT_UINT8, u8, K)    \
            DT_STORE_CASE_(DT_UINT16, u16, K) DT_STORE_CASE_(DT_UINT32, u32, K) \
            DT_STORE_CASE_(DT_UINT64, u64, K) DT_STORE_CASE_(DT_FLOAT16, f16, K) \
            DT_STORE_CASE_(DT_BFLOAT16, bf16, K) DT_STORE_CASE_(DT_FLOAT32, f32, K) \
            DT_STORE_CASE_(DT_FLOAT64, f64, K) DT_STORE_CASE_(DT_COMPLEX64, c64, K) \
            DT_STORE_CASE_(DT_COMPLEX128, c128, K)                              \
        default:                                                                \
            break;                                                              \
        }                                                                       \
    }
DT_STORE_KIND_(I) DT_STORE_KIND_(U) DT_STORE_KIND_(F) DT_STORE_KIND_(D) DT_STORE_KIND_(Z)
#undef DT_STORE_KIND_
#undef DT_STORE_CASE_

#endif /* DT_REDUCE_OPS_H */
