/* ops_math.h - scalar semantics of the ops beyond + - * / and comparisons:
 * NumPy's integer division and remainder, powers, extrema, bitwise, shifts,
 * logical ops, rounding, predicates and the elementary functions.
 *
 * Naming as in ops.h: dt_<op>_<tag>(compute values).  A function exists only
 * for the dtypes NumPy has a loop for; the type resolution in
 * elementwise.c never asks for another.  float16 and bfloat16 compute in
 * float32 (DT_M_f16(exp) is expf), float64 in double.
 */
#ifndef DT_OPS_MATH_H
#define DT_OPS_MATH_H

#include <math.h>
#include "complex_math.h"
#include "ops.h"

DT_FN bool dt_sign_bit_of_f(float a) { return (dt_float_bits(a) >> 31) != 0; }
DT_FN bool dt_sign_bit_of_d(double a) { return (dt_double_bits(a) >> 63) != 0; }
#define dt_sign_bit_of(a) (sizeof(a) == sizeof(float) ? dt_sign_bit_of_f((float)(a)) : dt_sign_bit_of_d((double)(a)))

#define DT_M_f16(fn) fn##f
#define DT_M_bf16(fn) fn##f
#define DT_M_f32(fn) fn##f
#define DT_M_f64(fn) fn

/* ======== integers ======== */

/* NumPy: x // 0 == 0 and x % 0 == 0; MIN // -1 wraps to MIN; floor rounding */
#define DT_SIGNED_OPS(X, UT, BITS)                                                          \
    DT_FN dt_C_##X dt_fdiv_##X(dt_C_##X a, dt_C_##X b)                                     \
    {                                                                                       \
        if (b == 0)                                                                         \
            return 0;                                                                       \
        if (b == -1)                                                                        \
            return (dt_C_##X)(0 - (UT)a);                                                   \
        dt_C_##X q = (dt_C_##X)(a / b);                                                     \
        return (a % b != 0 && ((a < 0) != (b < 0))) ? (dt_C_##X)(q - 1) : q;                \
    }                                                                                       \
    DT_FN dt_C_##X dt_rem_##X(dt_C_##X a, dt_C_##X b)                                      \
    {                                                                                       \
        if (b == 0 || b == -1)                                                              \
            return 0;                                                                       \
        dt_C_##X r = (dt_C_##X)(a % b);                                                     \
        return (r != 0 && ((r < 0) != (b < 0))) ? (dt_C_##X)(r + b) : r;                    \
    }                                                                                       \
    DT_FN dt_C_##X dt_abs_##X(dt_C_##X a) { return (dt_C_##X)(a < 0 ? 0 - (UT)a : (UT)a); } \
    DT_FN dt_C_##X dt_neg_##X(dt_C_##X a) { return (dt_C_##X)(0 - (UT)a); }                 \
    DT_FN dt_C_##X dt_sign_##X(dt_C_##X a) { return (dt_C_##X)((a > 0) - (a < 0)); }        \
    DT_FN bool dt_signbit_##X(dt_C_##X a) { return a < 0; }                                 \
    /* 1/x truncated; NumPy leaves 1/0 to the platform, we give 0 */                       \
    DT_FN dt_C_##X dt_recip_##X(dt_C_##X a) { return (a == 1 || a == -1) ? a : 0; }         \
    DT_FN dt_C_##X dt_lsh_##X(dt_C_##X a, dt_C_##X b)                                       \
    {                                                                                       \
        return (uint64_t)(int64_t)b < BITS ? (dt_C_##X)((UT)a << b) : 0;                    \
    }                                                                                       \
    DT_FN dt_C_##X dt_rsh_##X(dt_C_##X a, dt_C_##X b)                                       \
    {                                                                                       \
        if ((uint64_t)(int64_t)b < BITS)                                                    \
            return (dt_C_##X)(a >> b);                                                      \
        return (dt_C_##X)(a < 0 ? -1 : 0);                                                  \
    }
DT_SIGNED_OPS(i8, uint8_t, 8) DT_SIGNED_OPS(i16, uint16_t, 16)
DT_SIGNED_OPS(i32, uint32_t, 32) DT_SIGNED_OPS(i64, uint64_t, 64)

#define DT_UNSIGNED_OPS(X, BITS)                                                            \
    DT_FN dt_C_##X dt_fdiv_##X(dt_C_##X a, dt_C_##X b) { return b == 0 ? 0 : (dt_C_##X)(a / b); } \
    DT_FN dt_C_##X dt_rem_##X(dt_C_##X a, dt_C_##X b) { return b == 0 ? 0 : (dt_C_##X)(a % b); }  \
    DT_FN dt_C_##X dt_abs_##X(dt_C_##X a) { return a; }                                     \
    DT_FN dt_C_##X dt_neg_##X(dt_C_##X a) { return (dt_C_##X)(0 - (uint64_t)a); }           \
    DT_FN dt_C_##X dt_sign_##X(dt_C_##X a) { return (dt_C_##X)(a > 0); }                    \
    DT_FN bool dt_signbit_##X(dt_C_##X a) { (void)a; return false; }                        \
    DT_FN dt_C_##X dt_recip_##X(dt_C_##X a) { return (dt_C_##X)(a == 1); }                  \
    DT_FN dt_C_##X dt_lsh_##X(dt_C_##X a, dt_C_##X b)                                       \
    {                                                                                       \
        return (uint64_t)b < BITS ? (dt_C_##X)((uint64_t)a << b) : 0;                       \
    }                                                                                       \
    DT_FN dt_C_##X dt_rsh_##X(dt_C_##X a, dt_C_##X b)                                       \
    {                                                                                       \
        return (uint64_t)b < BITS ? (dt_C_##X)(a >> b) : 0;                                \
    }
DT_UNSIGNED_OPS(u8, 8) DT_UNSIGNED_OPS(u16, 16) DT_UNSIGNED_OPS(u32, 32) DT_UNSIGNED_OPS(u64, 64)

/* NumPy's bitwise_count: the 1 bits of |a| in a's own width (|-128| of
 * int8 is 128, one bit): the population count instruction on a GPU
 * (__popcll) and where the CPU loop's clone has one (cpu_loops.c), else
 * libgcc's or a count by halves, nibbles and bytes */
DT_FN uint8_t dt_popcount64(uint64_t x)
{
#if defined(__CUDA_ARCH__)
    return (uint8_t)__popcll(x);
#elif defined(__GNUC__)
    return (uint8_t)__builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (uint8_t)((x * 0x0101010101010101ULL) >> 56);
#endif
}
#define DT_BCOUNT_SIGNED(X, UT)                                                             \
    DT_FN uint8_t dt_bcount_##X(dt_C_##X a) { return dt_popcount64(a < 0 ? (UT)(0 - (UT)a) : (UT)a); }
#define DT_BCOUNT_UNSIGNED(X)                                                               \
    DT_FN uint8_t dt_bcount_##X(dt_C_##X a) { return dt_popcount64(a); }
DT_BCOUNT_SIGNED(i8, uint8_t) DT_BCOUNT_SIGNED(i16, uint16_t)
DT_BCOUNT_SIGNED(i32, uint32_t) DT_BCOUNT_SIGNED(i64, uint64_t)
DT_BCOUNT_UNSIGNED(u8) DT_BCOUNT_UNSIGNED(u16) DT_BCOUNT_UNSIGNED(u32) DT_BCOUNT_UNSIGNED(u64)

/* shared by all integers (and bool where NumPy has the loop) */
#define DT_INT_COMMON(X)                                                                    \
    DT_FN dt_C_##X dt_pos_##X(dt_C_##X a) { return a; }                                     \
    DT_FN dt_C_##X dt_square_##X(dt_C_##X a) { return DT_WRAP_MUL(dt_C_##X, a, a); }        \
    /* exponent >= 0 (negative ones are refused before the launch) */                      \
    DT_FN dt_C_##X dt_pow_##X(dt_C_##X a, dt_C_##X b)                                       \
    {                                                                                       \
        uint64_t r = 1, p = (uint64_t)a, n = (uint64_t)b;                                   \
        while (n > 0) {                                                                     \
            if (n & 1)                                                                      \
                r *= p;                                                                     \
            p *= p;                                                                         \
            n >>= 1;                                                                        \
        }                                                                                   \
        return (dt_C_##X)r;                                                                 \
    }                                                                                       \
    DT_FN dt_C_##X dt_max_##X(dt_C_##X a, dt_C_##X b) { return a >= b ? a : b; }            \
    DT_FN dt_C_##X dt_min_##X(dt_C_##X a, dt_C_##X b) { return a <= b ? a : b; }            \
    DT_FN dt_C_##X dt_and_##X(dt_C_##X a, dt_C_##X b) { return (dt_C_##X)(a & b); }         \
    DT_FN dt_C_##X dt_or_##X(dt_C_##X a, dt_C_##X b) { return (dt_C_##X)(a | b); }          \
    DT_FN dt_C_##X dt_xor_##X(dt_C_##X a, dt_C_##X b) { return (dt_C_##X)(a ^ b); }         \
    DT_FN dt_C_##X dt_invert_##X(dt_C_##X a) { return (dt_C_##X)~a; }                       \
    DT_FN dt_C_##X dt_floor_##X(dt_C_##X a) { return a; }                                   \
    DT_FN dt_C_##X dt_ceil_##X(dt_C_##X a) { return a; }                                    \
    DT_FN dt_C_##X dt_trunc_##X(dt_C_##X a) { return a; }                                   \
    DT_FN bool dt_isnan_##X(dt_C_##X a) { (void)a; return false; }                          \
    DT_FN bool dt_isinf_##X(dt_C_##X a) { (void)a; return false; }                          \
    DT_FN bool dt_isfinite_##X(dt_C_##X a) { (void)a; return true; }                        \
    DT_FN dt_C_##X dt_conj_##X(dt_C_##X a) { return a; }                                    \
    DT_FN dt_C_##X dt_real_##X(dt_C_##X a) { return a; }                                    \
    DT_FN dt_C_##X dt_imag_##X(dt_C_##X a) { (void)a; return 0; }
DT_INT_COMMON(i8) DT_INT_COMMON(i16) DT_INT_COMMON(i32) DT_INT_COMMON(i64)
DT_INT_COMMON(u8) DT_INT_COMMON(u16) DT_INT_COMMON(u32) DT_INT_COMMON(u64)

/* bool: the loops NumPy has (extrema, bitwise, rounding as identity, abs) */
DT_FN bool dt_max_b(bool a, bool b) { return a || b; }
DT_FN bool dt_min_b(bool a, bool b) { return a && b; }
DT_FN bool dt_and_b(bool a, bool b) { return a && b; }
DT_FN bool dt_or_b(bool a, bool b) { return a || b; }
DT_FN bool dt_xor_b(bool a, bool b) { return a != b; }
DT_FN bool dt_invert_b(bool a) { return !a; }
DT_FN bool dt_abs_b(bool a) { return a; }
DT_FN bool dt_floor_b(bool a) { return a; }
DT_FN bool dt_ceil_b(bool a) { return a; }
DT_FN bool dt_trunc_b(bool a) { return a; }
DT_FN bool dt_isnan_b(bool a) { (void)a; return false; }
DT_FN bool dt_isinf_b(bool a) { (void)a; return false; }
DT_FN bool dt_isfinite_b(bool a) { (void)a; return true; }
DT_FN bool dt_signbit_b(bool a) { (void)a; return false; }
DT_FN bool dt_conj_b(bool a) { return a; }
DT_FN bool dt_real_b(bool a) { return a; }
DT_FN bool dt_imag_b(bool a) { (void)a; return false; }

/* ======== floating point ======== */

/* Python's float divmod, as NumPy's npy_divmod: the quotient is floored
 * and snapped to an integer, the remainder takes the divisor's sign. */
#define DT_FLOAT_DIVMOD(X)                                                                  \
    DT_FN dt_C_##X dt_divmod_##X(dt_C_##X a, dt_C_##X b, dt_C_##X *modulus)                \
    {                                                                                       \
        dt_C_##X mod = DT_M_##X(fmod)(a, b), div, floordiv;                                 \
        if (b == 0) {                                                                       \
            *modulus = mod;                                                                 \
            return a / b;                                                                   \
        }                                                                                   \
        div = (a - mod) / b;                                                                \
        if (mod != 0) {                                                                     \
            if ((b < 0) != (mod < 0)) {                                                     \
                mod += b;                                                                   \
                div -= 1;                                                                   \
            }                                                                               \
        } else {                                                                            \
            mod = DT_M_##X(copysign)((dt_C_##X)0, b);                                                 \
        }                                                                                   \
        if (div != 0) {                                                                     \
            floordiv = DT_M_##X(floor)(div);                                                \
            if (div - floordiv > (dt_C_##X)0.5)                                             \
                floordiv += 1;                                                              \
        } else {                                                                            \
            floordiv = DT_M_##X(copysign)((dt_C_##X)0, a / b);                                        \
        }                                                                                   \
        *modulus = mod;                                                                     \
        return floordiv;                                                                    \
    }                                                                                       \
    DT_FN dt_C_##X dt_fdiv_##X(dt_C_##X a, dt_C_##X b)                                     \
    {                                                                                       \
        dt_C_##X mod;                                                                       \
        return b == 0 ? a / b : dt_divmod_##X(a, b, &mod);                                  \
    }                                                                                       \
    DT_FN dt_C_##X dt_rem_##X(dt_C_##X a, dt_C_##X b)                                      \
    {                                                                                       \
        dt_C_##X mod;                                                                       \
        if (b == 0)                                                                         \
            return DT_M_##X(fmod)(a, b);                                                    \
        dt_divmod_##X(a, b, &mod);                                                          \
        return mod;                                                                         \
    }

#define DT_FLOAT_OPS(X)                                                                     \
    DT_FLOAT_DIVMOD(X)                                                                      \
    DT_FN dt_C_##X dt_pow_##X(dt_C_##X a, dt_C_##X b) { return DT_M_##X(pow)(a, b); }       \
    DT_FN dt_C_##X dt_max_##X(dt_C_##X a, dt_C_##X b) { return (a >= b || a != a) ? a : b; } \
    DT_FN dt_C_##X dt_min_##X(dt_C_##X a, dt_C_##X b) { return (a <= b || a != a) ? a : b; } \
    DT_FN dt_C_##X dt_atan2_##X(dt_C_##X a, dt_C_##X b) { return DT_M_##X(atan2)(a, b); }   \
    DT_FN dt_C_##X dt_hypot_##X(dt_C_##X a, dt_C_##X b) { return DT_M_##X(hypot)(a, b); }   \
    DT_FN dt_C_##X dt_copysign_##X(dt_C_##X a, dt_C_##X b) { return DT_M_##X(copysign)(a, b); } \
    /* NumPy's logaddexp: exact at equal inputs, log1p of the smaller term */               \
    DT_FN dt_C_##X dt_logaddexp_##X(dt_C_##X a, dt_C_##X b)                                 \
    {                                                                                       \
        if (a == b)                                                                         \
            return a + (dt_C_##X)0.693147180559945309417232121458176568;                    \
        dt_C_##X t = a - b;                                                                 \
        if (t > 0)                                                                          \
            return a + DT_M_##X(log1p)(DT_M_##X(exp)(-t));                                  \
        if (t <= 0)                                                                         \
            return b + DT_M_##X(log1p)(DT_M_##X(exp)(t));                                   \
        return t; /* nan */                                                                 \
    }                                                                                       \
    DT_FN dt_C_##X dt_neg_##X(dt_C_##X a) { return -a; }                                    \
    DT_FN dt_C_##X dt_pos_##X(dt_C_##X a) { return a; }                                     \
    DT_FN dt_C_##X dt_abs_##X(dt_C_##X a) { return DT_M_##X(fabs)(a); }                     \
    DT_FN dt_C_##X dt_square_##X(dt_C_##X a) { return a * a; }                              \
    DT_FN dt_C_##X dt_sqrt_##X(dt_C_##X a) { return DT_M_##X(sqrt)(a); }                    \
    DT_FN dt_C_##X dt_recip_##X(dt_C_##X a) { return (dt_C_##X)1 / a; }                     \
    DT_FN dt_C_##X dt_sign_##X(dt_C_##X a)                                                  \
    {                                                                                       \
        return a > 0 ? (dt_C_##X)1 : (a < 0 ? (dt_C_##X)-1 : (a == 0 ? (dt_C_##X)0 : a));  \
    }                                                                                       \
    DT_FN dt_C_##X dt_exp_##X(dt_C_##X a) { return DT_M_##X(exp)(a); }                      \
    DT_FN dt_C_##X dt_expm1_##X(dt_C_##X a) { return DT_M_##X(expm1)(a); }                  \
    DT_FN dt_C_##X dt_log_##X(dt_C_##X a) { return DT_M_##X(log)(a); }                      \
    DT_FN dt_C_##X dt_log1p_##X(dt_C_##X a) { return DT_M_##X(log1p)(a); }                  \
    DT_FN dt_C_##X dt_log2_##X(dt_C_##X a) { return DT_M_##X(log2)(a); }                    \
    DT_FN dt_C_##X dt_log10_##X(dt_C_##X a) { return DT_M_##X(log10)(a); }                  \
    DT_FN dt_C_##X dt_sin_##X(dt_C_##X a) { return DT_M_##X(sin)(a); }                      \
    DT_FN dt_C_##X dt_cos_##X(dt_C_##X a) { return DT_M_##X(cos)(a); }                      \
    DT_FN dt_C_##X dt_tan_##X(dt_C_##X a) { return DT_M_##X(tan)(a); }                      \
    DT_FN dt_C_##X dt_asin_##X(dt_C_##X a) { return DT_M_##X(asin)(a); }                    \
    DT_FN dt_C_##X dt_acos_##X(dt_C_##X a) { return DT_M_##X(acos)(a); }                    \
    DT_FN dt_C_##X dt_atan_##X(dt_C_##X a) { return DT_M_##X(atan)(a); }                    \
    DT_FN dt_C_##X dt_sinh_##X(dt_C_##X a) { return DT_M_##X(sinh)(a); }                    \
    DT_FN dt_C_##X dt_cosh_##X(dt_C_##X a) { return DT_M_##X(cosh)(a); }                    \
    DT_FN dt_C_##X dt_tanh_##X(dt_C_##X a) { return DT_M_##X(tanh)(a); }                    \
    DT_FN dt_C_##X dt_asinh_##X(dt_C_##X a) { return DT_M_##X(asinh)(a); }                  \
    DT_FN dt_C_##X dt_acosh_##X(dt_C_##X a) { return DT_M_##X(acosh)(a); }                  \
    DT_FN dt_C_##X dt_atanh_##X(dt_C_##X a) { return DT_M_##X(atanh)(a); }                  \
    DT_FN dt_C_##X dt_floor_##X(dt_C_##X a) { return DT_M_##X(floor)(a); }                  \
    DT_FN dt_C_##X dt_ceil_##X(dt_C_##X a) { return DT_M_##X(ceil)(a); }                    \
    DT_FN dt_C_##X dt_trunc_##X(dt_C_##X a) { return DT_M_##X(trunc)(a); }                  \
    DT_FN dt_C_##X dt_rint_##X(dt_C_##X a) { return DT_M_##X(rint)(a); }                    \
    DT_FN bool dt_isnan_##X(dt_C_##X a) { return a != a; }                                  \
    DT_FN bool dt_isinf_##X(dt_C_##X a) { return isinf(a); }                                \
    DT_FN bool dt_isfinite_##X(dt_C_##X a) { return isfinite(a); }                          \
    /* the sign bit read directly (GCC 12 fails to vectorize signbit() of a \
     * widened bfloat16 at -O3: an internal compiler error) */              \
    DT_FN bool dt_signbit_##X(dt_C_##X a) { return dt_sign_bit_of(a); }                     \
    DT_FN dt_C_##X dt_conj_##X(dt_C_##X a) { return a; }                                    \
    DT_FN dt_C_##X dt_real_##X(dt_C_##X a) { return a; }                                    \
    DT_FN dt_C_##X dt_imag_##X(dt_C_##X a) { (void)a; return 0; }                           \
    DT_FN dt_C_##X dt_angle_##X(dt_C_##X a) { return DT_M_##X(atan2)((dt_C_##X)0, a); }
DT_FLOAT_OPS(f16) DT_FLOAT_OPS(bf16) DT_FLOAT_OPS(f32) DT_FLOAT_OPS(f64)

DT_FN float dt_nextafter_f32(float a, float b) { return nextafterf(a, b); }
DT_FN double dt_nextafter_f64(double a, double b) { return nextafter(a, b); }

/* nextafter in a 16-bit format: step the bits of the stored value (NumPy's
 * npy_half_nextafter), then widen back to the float32 compute value. */
#define DT_NEXTAFTER16(X, SIGN, INF, TO, FROM)                                              \
    DT_FN float dt_nextafter_##X(float a, float b)                                          \
    {                                                                                       \
        uint16_t x = TO(a);                                                                 \
        float xa = FROM(x), yb = FROM(TO(b));                                               \
        if (xa != xa || yb != yb)                                                           \
            return NAN;                                                                     \
        if (xa == yb) /* y, as C99's (and NumPy's half nextafter from NumPy 2.5) */       \
            return yb;                                                                      \
        if ((x & 0x7fffu) == 0) /* +-0: the smallest subnormal toward b */                \
            return FROM((uint16_t)((yb < 0 ? SIGN : 0u) | 1u));                             \
        int away = (xa < yb) == ((x & SIGN) == 0);                                          \
        return FROM((uint16_t)(away ? x + 1 : x - 1));                                      \
    }
DT_NEXTAFTER16(f16, 0x8000u, 0x7c00u, dt_float_to_half, dt_half_to_float)
DT_NEXTAFTER16(bf16, 0x8000u, 0x7f80u, dt_float_to_bf16, dt_bf16_to_float)

/* ======== complex ======== */

/* Note [abs of complex64]
 * |re + i im| with float parts: their squares and sum in double overflow,
 * underflow and round nowhere that matters (a float's square is exact in
 * double), so sqrt gives hypot's double to within its last bit, and the
 * float result is hypot's but for a double rounding once in ~2^28 values;
 * no libm call, so the CPU loop vectorizes (10^6 values: 0.54 ms, NumPy's
 * 0.52; hypotf took 19 ns an element).  An infinite part gives inf, NaN or
 * not. */
DT_FN double dt_abs_of_float_parts(double re, double im)
{
    double h = sqrt(re * re + im * im);
    return (fabs(re) == INFINITY || fabs(im) == INFINITY) ? INFINITY : h;
}

/* Note [abs of complex128]
 * hypot from the C library cost 11 ms for 10^6 values (NumPy's SIMD loop:
 * 1.7), and a libm call keeps the loop scalar (now 1.2-1.6 ms).  Instead:
 * scale both parts by 2^-600 or 2^600 (exact) when the larger lies outside
 * [2^-450, 2^450], h = sqrt(a^2 + b^2), then one Newton step h + (a^2 + b^2
 * - h^2) / 2h with the residual from exact products (Dekker's split; no
 * fma, so every compiler and nvcc's --fmad=false give the same bits: Note
 * [Identical values]).  Of values across the exponent range, 0.01-0.06%
 * are not correctly rounded, none by more than 0.75 ulp; subnormal
 * results, rounded twice (the step, then the scale), miss more often
 * (NumPy's larger * sqrt(1 + ratio^2): 19-27%, up to 2 ulp).  No branch and no call,
 * so the CPU loop vectorizes.  An infinite part gives inf, NaN or not. */
DT_FN double dt_exact_square_(double a, double *err)
{
    double c = 134217729.0 * a, hi = c - (c - a), lo = a - hi, p = a * a; /* 2^27 + 1 */
    *err = ((hi * hi - p) + 2 * hi * lo) + lo * lo;
    return p;
}
DT_FN double dt_abs_of_double_parts(double re, double im)
{
    double x = fabs(re), y = fabs(im);
    double big = x > y ? x : y, small = x > y ? y : x; /* a NaN lands in one of them */
    int down = big > 0x1p450, up = big < 0x1p-450;
    double scale = down ? 0x1p-600 : up ? 0x1p600 : 1.0;
    double unscale = down ? 0x1p600 : up ? 0x1p-600 : 1.0;
    double a = big * scale, b = small * scale, ea, eb, eh;
    double pa = dt_exact_square_(a, &ea), pb = dt_exact_square_(b, &eb);
    double h = sqrt(pa + pb), ph = dt_exact_square_(h, &eh);
    double residual = (((pa - ph) + pb) + (ea + eb)) - eh;
    h = h + residual / (h > 0 ? 2 * h : 1.0);
    return (x == INFINITY || y == INFINITY) ? INFINITY : h * unscale;
}

#define DT_COMPLEX_OPS(X, R)                                                                \
    DT_FN dt_C_##X dt_##X##_from_z(dt_c128 z) { return dt_##X##_make((R)z.re, (R)z.im); }  \
    DT_FN dt_c128 dt_##X##_to_z(dt_C_##X a) { return dt_c128_make(a.re, a.im); }           \
    DT_FN dt_C_##X dt_pow_##X(dt_C_##X a, dt_C_##X b)                                       \
    {                                                                                       \
        return dt_##X##_from_z(dt_z_pow(dt_##X##_to_z(a), dt_##X##_to_z(b)));               \
    }                                                                                       \
    DT_FN dt_C_##X dt_max_##X(dt_C_##X a, dt_C_##X b)                                       \
    {                                                                                       \
        return (dt_##X##_le(b, a) || a.re != a.re || a.im != a.im) ? a : b;                 \
    }                                                                                       \
    DT_FN dt_C_##X dt_min_##X(dt_C_##X a, dt_C_##X b)                                       \
    {                                                                                       \
        return (dt_##X##_le(a, b) || a.re != a.re || a.im != a.im) ? a : b;                 \
    }                                                                                       \
    DT_FN dt_C_##X dt_neg_##X(dt_C_##X a) { return dt_##X##_make(-a.re, -a.im); }           \
    DT_FN dt_C_##X dt_pos_##X(dt_C_##X a) { return a; }                                     \
    DT_FN R dt_abs_##X(dt_C_##X a)                                                          \
    {                                                                                       \
        return sizeof(R) == sizeof(float) ? (R)dt_abs_of_float_parts(a.re, a.im)            \
                                          : (R)dt_abs_of_double_parts(a.re, a.im);          \
    }                                                                                       \
    DT_FN dt_C_##X dt_square_##X(dt_C_##X a) { return dt_##X##_mul(a, a); }                 \
    /* NumPy's reciprocal: 1/a by Smith's scaling, in the dtype's precision */            \
    DT_FN dt_C_##X dt_recip_##X(dt_C_##X a)                                                 \
    {                                                                                       \
        if (fabs((double)a.im) <= fabs((double)a.re)) {                                     \
            R r = a.im / a.re, d = a.re + a.im * r;                                         \
            return dt_##X##_make((R)1 / d, -r / d);                                         \
        }                                                                                   \
        R r = a.re / a.im, d = a.re * r + a.im;                                             \
        return dt_##X##_make(r / d, (R)-1 / d);                                             \
    }                                                                                       \
    DT_FN bool dt_isnan_##X(dt_C_##X a) { return a.re != a.re || a.im != a.im; }            \
    DT_FN bool dt_isinf_##X(dt_C_##X a) { return isinf(a.re) || isinf(a.im); }              \
    DT_FN bool dt_isfinite_##X(dt_C_##X a) { return isfinite(a.re) && isfinite(a.im); }     \
    DT_FN dt_C_##X dt_conj_##X(dt_C_##X a) { return dt_##X##_make(a.re, -a.im); }           \
    DT_FN R dt_real_##X(dt_C_##X a) { return a.re; }                                        \
    DT_FN R dt_imag_##X(dt_C_##X a) { return a.im; }                                        \
    DT_FN R dt_angle_##X(dt_C_##X a) { return (R)atan2((double)a.im, (double)a.re); }
DT_COMPLEX_OPS(c64, float)
DT_COMPLEX_OPS(c128, double)

/* complex elementary functions through dt_c128 (complex_math.h) */
#define DT_COMPLEX_FN(X, NAME)                                                              \
    DT_FN dt_C_##X dt_##NAME##_##X(dt_C_##X a) { return dt_##X##_from_z(dt_z_##NAME(dt_##X##_to_z(a))); }
#define DT_COMPLEX_FNS(X)                                                                   \
    DT_COMPLEX_FN(X, sqrt) DT_COMPLEX_FN(X, exp) DT_COMPLEX_FN(X, log)                      \
    DT_COMPLEX_FN(X, log2) DT_COMPLEX_FN(X, log10) DT_COMPLEX_FN(X, sin)                    \
    DT_COMPLEX_FN(X, cos) DT_COMPLEX_FN(X, tan) DT_COMPLEX_FN(X, asin)                      \
    DT_COMPLEX_FN(X, acos) DT_COMPLEX_FN(X, atan) DT_COMPLEX_FN(X, sinh)                    \
    DT_COMPLEX_FN(X, cosh) DT_COMPLEX_FN(X, tanh) DT_COMPLEX_FN(X, asinh)                   \
    DT_COMPLEX_FN(X, acosh) DT_COMPLEX_FN(X, atanh)
DT_COMPLEX_FNS(c64)
DT_COMPLEX_FNS(c128)

/* NumPy's own formulas, in the dtype's precision (complex_math.h, Note [Complex formulas]) */
DT_FN dt_c64 dt_expm1_c64(dt_c64 a) { return dt_zf_expm1(a); }
DT_FN dt_c64 dt_log1p_c64(dt_c64 a) { return dt_zf_log1p(a); }
DT_FN dt_c64 dt_sign_c64(dt_c64 a) { return dt_zf_sign(a); }
DT_FN dt_c128 dt_expm1_c128(dt_c128 a) { return dt_z_expm1(a); }
DT_FN dt_c128 dt_log1p_c128(dt_c128 a) { return dt_z_log1p(a); }
DT_FN dt_c128 dt_sign_c128(dt_c128 a) { return dt_z_sign(a); }

/* complex rint rounds both parts (NumPy's rint loop for complex) */
DT_FN dt_c64 dt_rint_c64(dt_c64 a) { return dt_c64_make(rintf(a.re), rintf(a.im)); }
DT_FN dt_c128 dt_rint_c128(dt_c128 a) { return dt_c128_make(rint(a.re), rint(a.im)); }

/* ======== fmod, fmax, fmin, gcd, lcm, heaviside, logaddexp2, exp2, cbrt,
 * deg2rad, rad2deg, fabs, ldexp: NumPy's formulas (npy_math); erf, erfc,
 * lgamma: C's (SciPy's and PyTorch's names) ======== */

/* lgamma without C lgamma's write to the global signgam, a data race
 * between CPU threads: glibc's reentrant lgamma_r (declared here, since
 * -std=c11 hides it; C++ compilers declare it); CUDA's lgamma writes nothing */
#if !defined(__CUDA_ARCH__) && defined(__GLIBC__) && !defined(__cplusplus)
double lgamma_r(double, int *);
float lgammaf_r(float, int *);
#endif
DT_FN float dt_lgamma_f(float a)
{
#if !defined(__CUDA_ARCH__) && defined(__GLIBC__)
    int sign;
    return lgammaf_r(a, &sign);
#else
    return lgammaf(a);
#endif
}
DT_FN double dt_lgamma_(double a)
{
#if !defined(__CUDA_ARCH__) && defined(__GLIBC__)
    int sign;
    return lgamma_r(a, &sign);
#else
    return lgamma(a);
#endif
}

/* fmod of integers: C's truncated remainder, NumPy's 0 for x fmod 0 (and
 * for MIN fmod -1, which C leaves undefined); gcd of the magnitudes
 * (Euclid, in the unsigned type, so gcd(MIN, 0) wraps to MIN as NumPy's);
 * lcm = |a / gcd * b|, 0 when both are 0 */
#define DT_SIGNED_EXTRA(X, UT)                                                              \
    DT_FN dt_C_##X dt_fmod_##X(dt_C_##X a, dt_C_##X b) { return (b == 0 || b == -1) ? 0 : (dt_C_##X)(a % b); } \
    DT_FN UT dt_mag_##X(dt_C_##X a) { return a < 0 ? (UT)(0 - (UT)a) : (UT)a; }            \
    DT_FN dt_C_##X dt_gcd_##X(dt_C_##X a, dt_C_##X b) { return (dt_C_##X)dt_euclid_(dt_mag_##X(a), dt_mag_##X(b)); } \
    DT_FN dt_C_##X dt_lcm_##X(dt_C_##X a, dt_C_##X b)                                       \
    {                                                                                       \
        UT g = (UT)dt_euclid_(dt_mag_##X(a), dt_mag_##X(b));                                \
        return g == 0 ? 0 : (dt_C_##X)(UT)(dt_mag_##X(a) / g * dt_mag_##X(b));             \
    }
#define DT_UNSIGNED_EXTRA(X)                                                                \
    DT_FN dt_C_##X dt_fmod_##X(dt_C_##X a, dt_C_##X b) { return b == 0 ? 0 : (dt_C_##X)(a % b); } \
    DT_FN dt_C_##X dt_gcd_##X(dt_C_##X a, dt_C_##X b) { return (dt_C_##X)dt_euclid_(a, b); } \
    DT_FN dt_C_##X dt_lcm_##X(dt_C_##X a, dt_C_##X b)                                       \
    {                                                                                       \
        dt_C_##X g = dt_gcd_##X(a, b);                                                      \
        return g == 0 ? 0 : (dt_C_##X)(a / g * b);                                          \
    }
#define DT_INT_EXTREMA(X)                                                                   \
    DT_FN dt_C_##X dt_fmax_##X(dt_C_##X a, dt_C_##X b) { return dt_max_##X(a, b); }         \
    DT_FN dt_C_##X dt_fmin_##X(dt_C_##X a, dt_C_##X b) { return dt_min_##X(a, b); }
/* ldexp's power of two, an integer-valued n in the loop dtype (the caller,
 * devtensor.ldexp, passes NumPy's integer operand converted exactly):
 * clamped to +-4096, past which every result is already 0 or inf, so that
 * the conversion to int is defined */
DT_FN int dt_ldexp_power_(double n) { return n > 4096 ? 4096 : n < -4096 ? -4096 : (int)n; }
DT_FN uint64_t dt_euclid_(uint64_t a, uint64_t b)
{
    while (b != 0) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}
DT_SIGNED_EXTRA(i8, uint8_t) DT_SIGNED_EXTRA(i16, uint16_t) DT_SIGNED_EXTRA(i32, uint32_t)
DT_SIGNED_EXTRA(i64, uint64_t)
DT_UNSIGNED_EXTRA(u8) DT_UNSIGNED_EXTRA(u16) DT_UNSIGNED_EXTRA(u32) DT_UNSIGNED_EXTRA(u64)
DT_INT_EXTREMA(i8) DT_INT_EXTREMA(i16) DT_INT_EXTREMA(i32) DT_INT_EXTREMA(i64)
DT_INT_EXTREMA(u8) DT_INT_EXTREMA(u16) DT_INT_EXTREMA(u32) DT_INT_EXTREMA(u64) DT_INT_EXTREMA(b)

/* fmax and fmin skip a NaN (C's fmax, as NumPy's scalar loops); heaviside
 * is h0 at 0 and NaN at NaN; logaddexp2 is NumPy's, exact at equal inputs;
 * deg2rad and rad2deg multiply by pi/180 and 180/pi rounded to the type */
#define DT_FLOAT_EXTRA(X)                                                                   \
    DT_FN dt_C_##X dt_fmod_##X(dt_C_##X a, dt_C_##X b) { return DT_M_##X(fmod)(a, b); }     \
    DT_FN dt_C_##X dt_fmax_##X(dt_C_##X a, dt_C_##X b) { return DT_M_##X(fmax)(a, b); }     \
    DT_FN dt_C_##X dt_fmin_##X(dt_C_##X a, dt_C_##X b) { return DT_M_##X(fmin)(a, b); }     \
    DT_FN dt_C_##X dt_heaviside_##X(dt_C_##X a, dt_C_##X h0)                                \
    {                                                                                       \
        return a != a ? (dt_C_##X)NAN : a == 0 ? h0 : a < 0 ? (dt_C_##X)0 : (dt_C_##X)1;    \
    }                                                                                       \
    DT_FN dt_C_##X dt_logaddexp2_##X(dt_C_##X a, dt_C_##X b)                                \
    {                                                                                       \
        const dt_C_##X log2e = (dt_C_##X)1.442695040888963407359924681001892137;            \
        if (a == b)                                                                         \
            return a + 1;                                                                   \
        dt_C_##X t = a - b;                                                                 \
        if (t > 0)                                                                          \
            return a + log2e * DT_M_##X(log1p)(DT_M_##X(exp2)(-t));                         \
        if (t <= 0)                                                                         \
            return b + log2e * DT_M_##X(log1p)(DT_M_##X(exp2)(t));                          \
        return t; /* nan */                                                                 \
    }                                                                                       \
    DT_FN dt_C_##X dt_exp2_##X(dt_C_##X a) { return DT_M_##X(exp2)(a); }                    \
    DT_FN dt_C_##X dt_cbrt_##X(dt_C_##X a) { return DT_M_##X(cbrt)(a); }                    \
    DT_FN dt_C_##X dt_erf_##X(dt_C_##X a) { return DT_M_##X(erf)(a); }                      \
    DT_FN dt_C_##X dt_erfc_##X(dt_C_##X a) { return DT_M_##X(erfc)(a); }                    \
    DT_FN dt_C_##X dt_lgamma_##X(dt_C_##X a) { return DT_M_##X(dt_lgamma_)(a); }            \
    DT_FN dt_C_##X dt_fabs_##X(dt_C_##X a) { return DT_M_##X(fabs)(a); }                    \
    DT_FN dt_C_##X dt_deg2rad_##X(dt_C_##X a)                                               \
    {                                                                                       \
        return a * ((dt_C_##X)3.141592653589793238462643383279502884 / (dt_C_##X)180);      \
    }                                                                                       \
    DT_FN dt_C_##X dt_rad2deg_##X(dt_C_##X a)                                               \
    {                                                                                       \
        return a * ((dt_C_##X)180 / (dt_C_##X)3.141592653589793238462643383279502884);      \
    }                                                                                       \
    DT_FN dt_C_##X dt_ldexp_##X(dt_C_##X a, dt_C_##X n)                                     \
    {                                                                                       \
        return n != n ? n : DT_M_##X(ldexp)(a, dt_ldexp_power_((double)n));                 \
    }
DT_FLOAT_EXTRA(f16) DT_FLOAT_EXTRA(bf16) DT_FLOAT_EXTRA(f32) DT_FLOAT_EXTRA(f64)

/* complex: fmax/fmin keep a when b has a NaN part, else NumPy's order
 * (maximum's); exp2(z) = exp(z ln 2), the product in the dtype (NumPy's) */
#define DT_COMPLEX_EXTRA(X, R)                                                              \
    DT_FN dt_C_##X dt_fmax_##X(dt_C_##X a, dt_C_##X b)                                      \
    {                                                                                       \
        return (b.re != b.re || b.im != b.im || dt_##X##_le(b, a)) ? a : b;                 \
    }                                                                                       \
    DT_FN dt_C_##X dt_fmin_##X(dt_C_##X a, dt_C_##X b)                                      \
    {                                                                                       \
        return (b.re != b.re || b.im != b.im || dt_##X##_le(a, b)) ? a : b;                 \
    }                                                                                       \
    DT_FN dt_C_##X dt_exp2_##X(dt_C_##X a)                                                  \
    {                                                                                       \
        const R ln2 = (R)0.693147180559945309417232121458176568;                            \
        return dt_exp_##X(dt_##X##_make(a.re * ln2, a.im * ln2));                           \
    }
DT_COMPLEX_EXTRA(c64, float)
DT_COMPLEX_EXTRA(c128, double)

/* ======== comparisons of int64 with uint64, exact (NumPy's special loops) ======== */
DT_FN bool dt_mixed_eq(int64_t a, uint64_t b) { return a >= 0 && (uint64_t)a == b; }
DT_FN bool dt_mixed_lt(int64_t a, uint64_t b) { return a < 0 || (uint64_t)a < b; }
DT_FN bool dt_mixed_gt(int64_t a, uint64_t b) { return a >= 0 && (uint64_t)a > b; }

/* ======== logical ops and where, for every dtype ======== */
DT_FN bool dt_truth_b(bool a) { return a; }
#define DT_TRUTH_REAL(X) DT_FN bool dt_truth_##X(dt_C_##X a) { return a != 0; }
DT_TRUTH_REAL(i8) DT_TRUTH_REAL(i16) DT_TRUTH_REAL(i32) DT_TRUTH_REAL(i64)
DT_TRUTH_REAL(u8) DT_TRUTH_REAL(u16) DT_TRUTH_REAL(u32) DT_TRUTH_REAL(u64)
DT_TRUTH_REAL(f16) DT_TRUTH_REAL(bf16) DT_TRUTH_REAL(f32) DT_TRUTH_REAL(f64)
DT_FN bool dt_truth_c64(dt_c64 a) { return dt_c64_nonzero(a); }
DT_FN bool dt_truth_c128(dt_c128 a) { return dt_c128_nonzero(a); }

#define DT_LOGICAL_OPS(CODE, X)                                                             \
    DT_FN bool dt_land_##X(dt_C_##X a, dt_C_##X b) { return dt_truth_##X(a) && dt_truth_##X(b); } \
    DT_FN bool dt_lor_##X(dt_C_##X a, dt_C_##X b) { return dt_truth_##X(a) || dt_truth_##X(b); }  \
    DT_FN bool dt_lxor_##X(dt_C_##X a, dt_C_##X b) { return dt_truth_##X(a) != dt_truth_##X(b); } \
    DT_FN bool dt_lnot_##X(dt_C_##X a) { return !dt_truth_##X(a); }
DT_FOR_EACH_DTYPE(DT_LOGICAL_OPS)

#endif /* DT_OPS_MATH_H */
