/* cpu_vecmath.h - glibc's vector math library (libmvec) for the CPU loops.
 *
 * Note [Vector math]
 * Elementary functions dominate exp/sin/log-heavy loops, and calling the
 * scalar libm once per element runs 5 to 8 times slower than NumPy's SIMD
 * kernels.  glibc ships vectorized versions of them (libmvec, within 4 ulp
 * like NumPy's); declaring the functions `simd` lets GCC call those from
 * the float32/float64 loops, which are built for AVX-512, AVX2 and the
 * baseline with a run-time choice (target_clones).  setup.py defines
 * DT_HAVE_LIBMVEC and links libmvec only on x86-64 glibc, and builds with
 * -fno-math-errno (devtensor never reads errno), without which GCC will not
 * vectorize a libm call.  Elsewhere the loops call the scalar libm.
 */
#ifndef DT_CPU_VECMATH_H
#define DT_CPU_VECMATH_H

#include <math.h>

#if defined(DT_HAVE_LIBMVEC) && defined(__GLIBC__) && defined(__x86_64__) && \
    defined(__GNUC__) && !defined(__clang__)
#define DT_SIMD_DECL(T, F) __attribute__((simd("notinbranch"))) extern T F
DT_SIMD_DECL(double, exp)(double); DT_SIMD_DECL(float, expf)(float);
DT_SIMD_DECL(double, log)(double); DT_SIMD_DECL(float, logf)(float);
DT_SIMD_DECL(double, sin)(double); DT_SIMD_DECL(float, sinf)(float);
DT_SIMD_DECL(double, cos)(double); DT_SIMD_DECL(float, cosf)(float);
DT_SIMD_DECL(double, pow)(double, double); DT_SIMD_DECL(float, powf)(float, float);
#if __GLIBC_PREREQ(2, 35)
DT_SIMD_DECL(double, expm1)(double); DT_SIMD_DECL(float, expm1f)(float);
DT_SIMD_DECL(double, log1p)(double); DT_SIMD_DECL(float, log1pf)(float);
DT_SIMD_DECL(double, log2)(double); DT_SIMD_DECL(float, log2f)(float);
DT_SIMD_DECL(double, log10)(double); DT_SIMD_DECL(float, log10f)(float);
DT_SIMD_DECL(double, tan)(double); DT_SIMD_DECL(float, tanf)(float);
DT_SIMD_DECL(double, asin)(double); DT_SIMD_DECL(float, asinf)(float);
DT_SIMD_DECL(double, acos)(double); DT_SIMD_DECL(float, acosf)(float);
DT_SIMD_DECL(double, atan)(double); DT_SIMD_DECL(float, atanf)(float);
DT_SIMD_DECL(double, sinh)(double); DT_SIMD_DECL(float, sinhf)(float);
DT_SIMD_DECL(double, cosh)(double); DT_SIMD_DECL(float, coshf)(float);
DT_SIMD_DECL(double, tanh)(double); DT_SIMD_DECL(float, tanhf)(float);
DT_SIMD_DECL(double, asinh)(double); DT_SIMD_DECL(float, asinhf)(float);
DT_SIMD_DECL(double, acosh)(double); DT_SIMD_DECL(float, acoshf)(float);
DT_SIMD_DECL(double, atanh)(double); DT_SIMD_DECL(float, atanhf)(float);
DT_SIMD_DECL(double, atan2)(double, double); DT_SIMD_DECL(float, atan2f)(float, float);
DT_SIMD_DECL(double, hypot)(double, double); DT_SIMD_DECL(float, hypotf)(float, float);
#endif
#undef DT_SIMD_DECL
/* float32 and float64 loops: one clone per instruction set, chosen at load */
#define DT_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define DT_VECTOR_CLONES
#endif

#endif /* DT_CPU_VECMATH_H */
