/* ops.h - the scalar semantics of every elementwise op, written once.
 *
 * Each dtype has a tag (b, i8 ... c128).  For a tag X:
 *   dt_T_X        storage type (what memory holds)
 *   dt_C_X        compute type (float for float16 and bfloat16)
 *   dt_load_X     storage -> compute;   dt_store_X   compute -> storage
 *   dt_add_X ...  the ops on compute values
 *   DT_CAST(F, T, x)  storage of F -> storage of T, NumPy's cast
 * The CPU loops (csrc/cpu/cpu_loops.c) and the CUDA kernels expand these
 * through DT_FOR_EACH_DTYPE, so they compute the same values.
 *
 * Note [Casts]
 * A cast goes through one exact wide value chosen by the source: int64 for
 * signed, uint64 for unsigned and bool, float for float16/bfloat16/float32,
 * double for float64, dt_c128 for complex.  Complex -> real keeps the real
 * part (NumPy warns; we do not).  Out-of-range float -> integer casts are
 * undefined in C, and NumPy calls them undefined: values then differ by
 * platform (CUDA saturates, x86 gives the "integer indefinite"); devtensor
 * spells them out so that every device agrees (Note [Float to integer casts]).
 */
#ifndef DT_OPS_H
#define DT_OPS_H

#include "dtype.h"
#include "scalar.h"

/* X(CODE, tag) for every dtype, in enum order. */
#define DT_FOR_EACH_DTYPE(X)                                                            \
    X(DT_BOOL, b) X(DT_INT8, i8) X(DT_INT16, i16) X(DT_INT32, i32) X(DT_INT64, i64)   \
    X(DT_UINT8, u8) X(DT_UINT16, u16) X(DT_UINT32, u32) X(DT_UINT64, u64)             \
    X(DT_FLOAT16, f16) X(DT_BFLOAT16, bf16) X(DT_FLOAT32, f32) X(DT_FLOAT64, f64)     \
    X(DT_COMPLEX64, c64) X(DT_COMPLEX128, c128)

/* DT_CODE_X: the dtype code of tag X (the inverse of DT_FOR_EACH_DTYPE). */
#define DT_CODE_b DT_BOOL
#define DT_CODE_i8 DT_INT8
#define DT_CODE_i16 DT_INT16
#define DT_CODE_i32 DT_INT32
#define DT_CODE_i64 DT_INT64
#define DT_CODE_u8 DT_UINT8
#define DT_CODE_u16 DT_UINT16
#define DT_CODE_u32 DT_UINT32
#define DT_CODE_u64 DT_UINT64
#define DT_CODE_f16 DT_FLOAT16
#define DT_CODE_bf16 DT_BFLOAT16
#define DT_CODE_f32 DT_FLOAT32
#define DT_CODE_f64 DT_FLOAT64
#define DT_CODE_c64 DT_COMPLEX64
#define DT_CODE_c128 DT_COMPLEX128

/* Note [Bool bytes]
 * A bool element is stored as a byte and read as byte != 0, as NumPy reads
 * its bools: bytes other than 0 and 1 reach bool tensors through views of
 * integer memory (t.view(bool), frombuffer, DLPack, a safetensors file),
 * and read through C's bool they were undefined behaviour (UBSan: "load of
 * value 2, which is not a valid value for type '_Bool'") with wrong,
 * device-dependent results (~ of byte 2 was True, sum counted 2).  Every
 * loop loads through dt_load_b and stores 0 or 1; the sort sorts src !=
 * false (core/sort.c). */
typedef uint8_t dt_T_b;   typedef bool dt_C_b;
typedef int8_t dt_T_i8;   typedef int8_t dt_C_i8;
typedef int16_t dt_T_i16; typedef int16_t dt_C_i16;
typedef int32_t dt_T_i32; typedef int32_t dt_C_i32;
typedef int64_t dt_T_i64; typedef int64_t dt_C_i64;
typedef uint8_t dt_T_u8;  typedef uint8_t dt_C_u8;
typedef uint16_t dt_T_u16; typedef uint16_t dt_C_u16;
typedef uint32_t dt_T_u32; typedef uint32_t dt_C_u32;
typedef uint64_t dt_T_u64; typedef uint64_t dt_C_u64;
typedef dt_half dt_T_f16; typedef float dt_C_f16;
typedef dt_bf16 dt_T_bf16; typedef float dt_C_bf16;
typedef float dt_T_f32;   typedef float dt_C_f32;
typedef double dt_T_f64;  typedef double dt_C_f64;
typedef dt_c64 dt_T_c64;  typedef dt_c64 dt_C_c64;
typedef dt_c128 dt_T_c128; typedef dt_c128 dt_C_c128;

/* ---- load / store ---- */
#define DT_IDENTITY_LOADSTORE(X)                                   \
    DT_FN dt_C_##X dt_load_##X(dt_T_##X v) { return v; }           \
    DT_FN dt_T_##X dt_store_##X(dt_C_##X v) { return v; }
DT_IDENTITY_LOADSTORE(b) DT_IDENTITY_LOADSTORE(i8) DT_IDENTITY_LOADSTORE(i16)
DT_IDENTITY_LOADSTORE(i32) DT_IDENTITY_LOADSTORE(i64) DT_IDENTITY_LOADSTORE(u8)
DT_IDENTITY_LOADSTORE(u16) DT_IDENTITY_LOADSTORE(u32) DT_IDENTITY_LOADSTORE(u64)
DT_IDENTITY_LOADSTORE(f32) DT_IDENTITY_LOADSTORE(f64) DT_IDENTITY_LOADSTORE(c64)
DT_IDENTITY_LOADSTORE(c128)
DT_FN float dt_load_f16(dt_half v) { return dt_half_to_float(v); }
DT_FN dt_half dt_store_f16(float v) { return dt_float_to_half(v); }
DT_FN float dt_load_bf16(dt_bf16 v) { return dt_bf16_to_float(v); }
DT_FN dt_bf16 dt_store_bf16(float v) { return dt_float_to_bf16(v); }

/* ---- arithmetic ---- */
/* bool: + is logical or, * is logical and (NumPy); - has no bool loop */
DT_FN bool dt_add_b(bool a, bool b) { return a || b; }
DT_FN bool dt_mul_b(bool a, bool b) { return a && b; }

#define DT_INT_ARITH(X)                                                             \
    DT_FN dt_C_##X dt_add_##X(dt_C_##X a, dt_C_##X b) { return DT_WRAP_ADD(dt_C_##X, a, b); } \
    DT_FN dt_C_##X dt_sub_##X(dt_C_##X a, dt_C_##X b) { return DT_WRAP_SUB(dt_C_##X, a, b); } \
    DT_FN dt_C_##X dt_mul_##X(dt_C_##X a, dt_C_##X b) { return DT_WRAP_MUL(dt_C_##X, a, b); }
DT_INT_ARITH(i8) DT_INT_ARITH(i16) DT_INT_ARITH(i32) DT_INT_ARITH(i64)
DT_INT_ARITH(u8) DT_INT_ARITH(u16) DT_INT_ARITH(u32) DT_INT_ARITH(u64)

#define DT_FLOAT_ARITH(X)                                                           \
    DT_FN dt_C_##X dt_add_##X(dt_C_##X a, dt_C_##X b) { return a + b; }             \
    DT_FN dt_C_##X dt_sub_##X(dt_C_##X a, dt_C_##X b) { return a - b; }             \
    DT_FN dt_C_##X dt_mul_##X(dt_C_##X a, dt_C_##X b) { return a * b; }             \
    DT_FN dt_C_##X dt_div_##X(dt_C_##X a, dt_C_##X b) { return a / b; }
DT_FLOAT_ARITH(f16) DT_FLOAT_ARITH(bf16) DT_FLOAT_ARITH(f32) DT_FLOAT_ARITH(f64)

#define DT_COMPLEX_ARITH(X)                                                         \
    DT_FN dt_C_##X dt_add_##X(dt_C_##X a, dt_C_##X b) { return dt_##X##_add(a, b); } \
    DT_FN dt_C_##X dt_sub_##X(dt_C_##X a, dt_C_##X b) { return dt_##X##_sub(a, b); } \
    DT_FN dt_C_##X dt_mul_##X(dt_C_##X a, dt_C_##X b) { return dt_##X##_mul(a, b); } \
    DT_FN dt_C_##X dt_div_##X(dt_C_##X a, dt_C_##X b) { return dt_##X##_div(a, b); }
DT_COMPLEX_ARITH(c64) DT_COMPLEX_ARITH(c128)

/* ---- comparisons (NaN compares false, != true) ---- */
#define DT_REAL_COMPARE(X)                                                    \
    DT_FN bool dt_eq_##X(dt_C_##X a, dt_C_##X b) { return a == b; }           \
    DT_FN bool dt_ne_##X(dt_C_##X a, dt_C_##X b) { return a != b; }           \
    DT_FN bool dt_lt_##X(dt_C_##X a, dt_C_##X b) { return a < b; }            \
    DT_FN bool dt_le_##X(dt_C_##X a, dt_C_##X b) { return a <= b; }           \
    DT_FN bool dt_gt_##X(dt_C_##X a, dt_C_##X b) { return a > b; }            \
    DT_FN bool dt_ge_##X(dt_C_##X a, dt_C_##X b) { return a >= b; }
DT_REAL_COMPARE(b) DT_REAL_COMPARE(i8) DT_REAL_COMPARE(i16) DT_REAL_COMPARE(i32)
DT_REAL_COMPARE(i64) DT_REAL_COMPARE(u8) DT_REAL_COMPARE(u16) DT_REAL_COMPARE(u32)
DT_REAL_COMPARE(u64) DT_REAL_COMPARE(f16) DT_REAL_COMPARE(bf16) DT_REAL_COMPARE(f32)
DT_REAL_COMPARE(f64)

#define DT_COMPLEX_COMPARE(X)                                                 \
    DT_FN bool dt_eq_##X(dt_C_##X a, dt_C_##X b) { return dt_##X##_eq(a, b); }  \
    DT_FN bool dt_ne_##X(dt_C_##X a, dt_C_##X b) { return !dt_##X##_eq(a, b); } \
    DT_FN bool dt_lt_##X(dt_C_##X a, dt_C_##X b) { return dt_##X##_lt(a, b); }  \
    DT_FN bool dt_le_##X(dt_C_##X a, dt_C_##X b) { return dt_##X##_le(a, b); }  \
    DT_FN bool dt_gt_##X(dt_C_##X a, dt_C_##X b) { return dt_##X##_lt(b, a); }  \
    DT_FN bool dt_ge_##X(dt_C_##X a, dt_C_##X b) { return dt_##X##_le(b, a); }
DT_COMPLEX_COMPARE(c64) DT_COMPLEX_COMPARE(c128)

/* ---- casts (Note [Casts]) ---- */
/* the wide value of each source tag, and its kind: I (int64), U (uint64),
 * F (float), D (double), Z (dt_c128) */
#define DT_WIDE_b U
#define DT_WIDE_i8 I
#define DT_WIDE_i16 I
#define DT_WIDE_i32 I
#define DT_WIDE_i64 I
#define DT_WIDE_u8 U
#define DT_WIDE_u16 U
#define DT_WIDE_u32 U
#define DT_WIDE_u64 U
#define DT_WIDE_f16 F
#define DT_WIDE_bf16 F
#define DT_WIDE_f32 F
#define DT_WIDE_f64 D
#define DT_WIDE_c64 Z
#define DT_WIDE_c128 Z
typedef int64_t dt_wide_I;
typedef uint64_t dt_wide_U;
typedef float dt_wide_F;
typedef double dt_wide_D;
typedef dt_c128 dt_wide_Z;

#define DT_WIDEN_REAL(X, K) \
    DT_FN dt_wide_##K dt_widen_##X(dt_T_##X v) { return (dt_wide_##K)dt_load_##X(v); }
DT_WIDEN_REAL(b, U) DT_WIDEN_REAL(i8, I) DT_WIDEN_REAL(i16, I) DT_WIDEN_REAL(i32, I)
DT_WIDEN_REAL(i64, I) DT_WIDEN_REAL(u8, U) DT_WIDEN_REAL(u16, U) DT_WIDEN_REAL(u32, U)
DT_WIDEN_REAL(u64, U) DT_WIDEN_REAL(f16, F) DT_WIDEN_REAL(bf16, F) DT_WIDEN_REAL(f32, F)
DT_WIDEN_REAL(f64, D)
DT_FN dt_c128 dt_widen_c64(dt_c64 v) { return dt_c128_make(v.re, v.im); }
DT_FN dt_c128 dt_widen_c128(dt_c128 v) { return v; }

/* Note [Float to integer casts]
 * C leaves a float -> integer cast undefined when the value does not fit,
 * and the hardware differs: x86 gives the "integer indefinite" (the most
 * negative value) of its 32- or 64-bit conversion and then keeps the low
 * bits, nvcc's conversions saturate ((uint8_t)-57.3 is 199 on x86, NumPy's
 * value, and 0 on a GPU).  So the cast is spelled out in defined C: through
 * int32 for destinations of up to 16 bits and int32 itself, through int64
 * for wider ones (uint64 from values >= 2**63 by the offset trick), with the
 * indefinite value where that does not fit, and NaN too.  Every device then
 * gives x86's (and NumPy's) results; the one known exception is NumPy's
 * uint32 loop on CPUs whose vector unit converts to unsigned directly, for
 * values outside int64 and NaN. */
DT_FN int32_t dt_float_to_i32(double v)
{
    return v >= -2147483648.0 && v < 2147483648.0 ? (int32_t)v : INT32_MIN;
}
DT_FN int64_t dt_float_to_i64(double v)
{
    return v >= -9223372036854775808.0 && v < 9223372036854775808.0 ? (int64_t)v : INT64_MIN;
}
DT_FN uint64_t dt_float_to_u64(double v)
{
    if (!(v >= 9223372036854775808.0)) /* NaN too: the indefinite, 2**63 */
        return (uint64_t)dt_float_to_i64(v);
    return (uint64_t)dt_float_to_i64(v - 9223372036854775808.0) ^ 0x8000000000000000ull;
}

/* narrowing from each wide kind to each destination tag; VIA converts a
 * float or double (Note [Float to integer casts]) */
#define DT_NARROW_INT(X, VIA)                                                        \
    DT_FN dt_T_##X dt_narrow_I_##X(int64_t v) { return (dt_T_##X)v; }                \
    DT_FN dt_T_##X dt_narrow_U_##X(uint64_t v) { return (dt_T_##X)v; }               \
    DT_FN dt_T_##X dt_narrow_F_##X(float v) { return (dt_T_##X)VIA((double)v); }     \
    DT_FN dt_T_##X dt_narrow_D_##X(double v) { return (dt_T_##X)VIA(v); }            \
    DT_FN dt_T_##X dt_narrow_Z_##X(dt_c128 v) { return (dt_T_##X)VIA(v.re); }
DT_NARROW_INT(i8, dt_float_to_i32) DT_NARROW_INT(i16, dt_float_to_i32)
DT_NARROW_INT(i32, dt_float_to_i32) DT_NARROW_INT(i64, dt_float_to_i64)
DT_NARROW_INT(u8, dt_float_to_i32) DT_NARROW_INT(u16, dt_float_to_i32)
DT_NARROW_INT(u32, dt_float_to_i64) DT_NARROW_INT(u64, dt_float_to_u64)

#define DT_NARROW_FLOAT(X)                                                           \
    DT_FN dt_T_##X dt_narrow_I_##X(int64_t v) { return (dt_T_##X)v; }                \
    DT_FN dt_T_##X dt_narrow_U_##X(uint64_t v) { return (dt_T_##X)v; }               \
    DT_FN dt_T_##X dt_narrow_F_##X(float v) { return (dt_T_##X)v; }                  \
    DT_FN dt_T_##X dt_narrow_D_##X(double v) { return (dt_T_##X)v; }                 \
    DT_FN dt_T_##X dt_narrow_Z_##X(dt_c128 v) { return (dt_T_##X)v.re; }
DT_NARROW_FLOAT(f32) DT_NARROW_FLOAT(f64)

DT_FN bool dt_narrow_I_b(int64_t v) { return v != 0; }
DT_FN bool dt_narrow_U_b(uint64_t v) { return v != 0; }
DT_FN bool dt_narrow_F_b(float v) { return v != 0; }
DT_FN bool dt_narrow_D_b(double v) { return v != 0; }
DT_FN bool dt_narrow_Z_b(dt_c128 v) { return dt_c128_nonzero(v); }

#define DT_NARROW_HALFLIKE(X, FROM_FLOAT, FROM_DOUBLE)                               \
    DT_FN dt_T_##X dt_narrow_I_##X(int64_t v) { return FROM_DOUBLE((double)v); }     \
    DT_FN dt_T_##X dt_narrow_U_##X(uint64_t v) { return FROM_DOUBLE((double)v); }    \
    DT_FN dt_T_##X dt_narrow_F_##X(float v) { return FROM_FLOAT(v); }                \
    DT_FN dt_T_##X dt_narrow_D_##X(double v) { return FROM_DOUBLE(v); }              \
    DT_FN dt_T_##X dt_narrow_Z_##X(dt_c128 v) { return FROM_DOUBLE(v.re); }
DT_NARROW_HALFLIKE(f16, dt_float_to_half, dt_double_to_half)
DT_NARROW_HALFLIKE(bf16, dt_float_to_bf16, dt_double_to_bf16)

#define DT_NARROW_COMPLEX(X, R)                                                      \
    DT_FN dt_T_##X dt_narrow_I_##X(int64_t v) { return dt_##X##_make((R)v, 0); }     \
    DT_FN dt_T_##X dt_narrow_U_##X(uint64_t v) { return dt_##X##_make((R)v, 0); }    \
    DT_FN dt_T_##X dt_narrow_F_##X(float v) { return dt_##X##_make((R)v, 0); }       \
    DT_FN dt_T_##X dt_narrow_D_##X(double v) { return dt_##X##_make((R)v, 0); }      \
    DT_FN dt_T_##X dt_narrow_Z_##X(dt_c128 v) { return dt_##X##_make((R)v.re, (R)v.im); }
DT_NARROW_COMPLEX(c64, float)
DT_NARROW_COMPLEX(c128, double)

#define DT_CAST_PASTE_(K, TO) dt_narrow_##K##_##TO
#define DT_CAST_PASTE(K, TO) DT_CAST_PASTE_(K, TO)
/* storage value x of tag FROM -> storage value of tag TO */
#define DT_CAST(FROM, TO, x) DT_CAST_PASTE(DT_WIDE_##FROM, TO)(dt_widen_##FROM(x))

#endif /* DT_OPS_H */
