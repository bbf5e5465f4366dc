/* scalar.h - storage types of each dtype and exact conversions between them.
 *
 * Shared by the CPU loops and the CUDA kernels (DT_FN is __host__
 * __device__ under nvcc), so that both compute the same values.
 * float16 and bfloat16 are stored as raw bits and computed in float32.
 * Complex numbers are plain structs, so the layout matches NumPy's.
 */
#ifndef DT_SCALAR_H
#define DT_SCALAR_H

#include <stdint.h>
#include <math.h>
#include <string.h>
#include "compat.h"

#if !defined(__cplusplus)
#include <stdbool.h>
#endif

typedef uint16_t dt_half;   /* IEEE 754 binary16 bits */
typedef uint16_t dt_bf16;   /* bfloat16 bits: the top half of a float32 */
typedef struct dt_c64 { float re, im; } dt_c64;
typedef struct dt_c128 { double re, im; } dt_c128;

DT_FN uint32_t dt_float_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
DT_FN float dt_bits_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
DT_FN uint64_t dt_double_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* ---- float16 ---- */
DT_FN float dt_half_to_float(dt_half h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0x1f) /* inf or nan */
        return dt_bits_float(sign | 0x7f800000u | (man << 13));
    if (exp == 0) {
        if (man == 0)
            return dt_bits_float(sign);
        /* subnormal: value = man * 2^-24, exact in float */
        float v = (float)man * 5.9604644775390625e-8f;
        return sign ? -v : v;
    }
    return dt_bits_float(sign | ((exp + 112u) << 23) | (man << 13));
}

/* Round to nearest, ties to even. */
DT_FN dt_half dt_float_to_half(float f)
{
    uint32_t u = dt_float_bits(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t abs = u & 0x7fffffffu;
    if (abs >= 0x7f800000u) /* inf or nan (keep nan quiet and non-zero) */
        return (dt_half)(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u | ((abs >> 13) & 0x3ffu) : 0u));
    if (abs >= 0x477ff000u) /* rounds to >= 65520: overflow */
        return (dt_half)(sign | 0x7c00u);
    if (abs < 0x38800000u) { /* below the smallest normal half, 2^-14 */
        if (abs < 0x33000000u) /* below half of the smallest subnormal, 2^-25 */
            return sign;
        uint32_t exp = abs >> 23;
        uint32_t man = (abs & 0x7fffffu) | 0x800000u;
        uint32_t shift = 126u - exp; /* 14..24: man >> shift is in units of 2^-24 */
        uint32_t q = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
        if (rem > halfway || (rem == halfway && (q & 1u)))
            q++;
        return (dt_half)(sign | q);
    }
    uint32_t q = (abs >> 13) - (112u << 10);
    uint32_t rem = abs & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (q & 1u)))
        q++;
    return (dt_half)(sign | q);
}

/* ---- bfloat16 ---- */
DT_FN float dt_bf16_to_float(dt_bf16 b) { return dt_bits_float((uint32_t)b << 16); }

DT_FN dt_bf16 dt_float_to_bf16(float f)
{
    uint32_t u = dt_float_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (dt_bf16)((u >> 16) | 0x40u); /* quiet nan */
    u += 0x7fffu + ((u >> 16) & 1u);
    return (dt_bf16)(u >> 16);
}

/* double -> float rounding to odd: rounding the result once more to a
 * format with at most 22 significand bits gives the correctly rounded value
 * (no double-rounding error), so float64 -> float16/bfloat16 is exact. */
DT_FN float dt_double_to_float_odd(double d)
{
    float f = (float)d; /* rounds to nearest */
    if ((double)f != d && d == d && f - f == 0.0f && (dt_float_bits(f) & 1u) == 0u)
        f = nextafterf(f, d > (double)f ? INFINITY : -INFINITY); /* the odd neighbour */
    return f;
}

DT_FN dt_half dt_double_to_half(double d) { return dt_float_to_half(dt_double_to_float_odd(d)); }
DT_FN dt_bf16 dt_double_to_bf16(double d) { return dt_float_to_bf16(dt_double_to_float_odd(d)); }

/* ---- complex arithmetic (NumPy's algorithms) ---- */
#define DT_DEFINE_COMPLEX(C, R)                                                        \
    DT_FN C C##_make(R re, R im) { C z; z.re = re; z.im = im; return z; }              \
    DT_FN C C##_add(C a, C b) { return C##_make(a.re + b.re, a.im + b.im); }         \
    DT_FN C C##_sub(C a, C b) { return C##_make(a.re - b.re, a.im - b.im); }         \
    /* Note [Complex products without fma]: ac + (-b)d is ac - bd bit for bit,  \
     * but GCC 12 does not see its complex-multiply pattern there, which it      \
     * turns into a fused vfmaddsub on FMA and AVX-512 CPUs despite            \
     * -ffp-contract=off (an element's product then depended on whether the   \
     * vector loop or the scalar tail computed it, and differed from CUDA's) */ \
    DT_FN C C##_mul(C a, C b)                                                          \
    {                                                                                  \
        return C##_make(a.re * b.re + (-a.im) * b.im, a.re * b.im + a.im * b.re);      \
    }                                                                                  \
    /* Smith's algorithm, as NumPy's complex division */                              \
    DT_FN C C##_div(C a, C b)                                                          \
    {                                                                                  \
        R abs_br = (R)fabs((double)b.re), abs_bi = (R)fabs((double)b.im);              \
        if (abs_br >= abs_bi) {                                                        \
            if (abs_br == 0 && abs_bi == 0)                                            \
                return C##_make(a.re / abs_br, a.im / abs_bi);                         \
            R rat = b.im / b.re, scl = (R)1.0 / (b.re + b.im * rat);                   \
            return C##_make((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);     \
        }                                                                              \
        R rat = b.re / b.im, scl = (R)1.0 / (b.im + b.re * rat);                       \
        return C##_make((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);         \
    }                                                                                  \
    DT_FN bool C##_eq(C a, C b) { return a.re == b.re && a.im == b.im; }             \
    /* NumPy orders complex numbers lexicographically; a NaN imaginary part    \
     * makes the real-part comparison false (its CLT/CLE) */                      \
    DT_FN bool C##_lt(C a, C b)                                                        \
    {                                                                                  \
        return (a.re < b.re && a.im == a.im && b.im == b.im) ||                        \
               (a.re == b.re && a.im < b.im);                                          \
    }                                                                                  \
    DT_FN bool C##_le(C a, C b)                                                        \
    {                                                                                  \
        return (a.re < b.re && a.im == a.im && b.im == b.im) ||                        \
               (a.re == b.re && a.im <= b.im);                                         \
    }                                                                                  \
    DT_FN bool C##_nonzero(C a) { return a.re != 0 || a.im != 0; }

DT_DEFINE_COMPLEX(dt_c64, float)
DT_DEFINE_COMPLEX(dt_c128, double)

/* Integer arithmetic that wraps like NumPy's instead of overflowing
 * (signed overflow is undefined behaviour in C). */
#define DT_WRAP_ADD(T, a, b) ((T)((uint64_t)(a) + (uint64_t)(b)))
#define DT_WRAP_SUB(T, a, b) ((T)((uint64_t)(a) - (uint64_t)(b)))
#define DT_WRAP_MUL(T, a, b) ((T)((uint64_t)(a) * (uint64_t)(b)))

#endif /* DT_SCALAR_H */
