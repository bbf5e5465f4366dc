/* complex_math.h - elementary functions of complex numbers for dt_c64 and
 * dt_c128, usable from C and CUDA (no <complex.h>, which CUDA lacks).
 *
 * Note [Complex formulas]
 * These follow the textbook identities (exp, log, sqrt by the stable
 * half-angle form, trigonometric and hyperbolic by the real functions,
 * inverses by logarithms), with care for overflow in tan/tanh.  They agree
 * with NumPy's (C99 library) results to a few ulps on ordinary inputs; at
 * branch cuts and extreme magnitudes the last digits may differ.
 * dt_c64 computes in double and rounds once, so where NumPy's float32
 * arithmetic overflows (complex64 powers with exponents near 1e38) the
 * results differ: NumPy's nan against our inf or 0.
 */
#ifndef DT_COMPLEX_MATH_H
#define DT_COMPLEX_MATH_H

#include <math.h>
#include "scalar.h"

DT_FN dt_c128 dt_z_make(double re, double im) { return dt_c128_make(re, im); }
DT_FN double dt_z_abs(dt_c128 z) { return hypot(z.re, z.im); }
DT_FN dt_c128 dt_z_exp(dt_c128 z)
{
    if (z.im == 0)
        return dt_z_make(exp(z.re), z.im);
    if (isinf(z.re) && z.re < 0) /* C99 Annex G: +0 cis(y), and +-0 for infinite or NaN y */
        return isfinite(z.im) ? dt_z_make(0.0 * cos(z.im), 0.0 * sin(z.im)) : dt_z_make(0, 0);
    double e = exp(z.re);
    return dt_z_make(e * cos(z.im), e * sin(z.im));
}
DT_FN dt_c128 dt_z_log(dt_c128 z) { return dt_z_make(log(dt_z_abs(z)), atan2(z.im, z.re)); }
DT_FN dt_c128 dt_z_sqrt(dt_c128 z)
{
    if (z.re == 0 && z.im == 0)
        return dt_z_make(0.0, z.im);
    if (isinf(z.im))
        return dt_z_make(INFINITY, z.im);
    double t = sqrt((fabs(z.re) + dt_z_abs(z)) * 0.5);
    if (z.re >= 0)
        return dt_z_make(t, z.im / (2 * t));
    return dt_z_make(fabs(z.im) / (2 * t), copysign(t, z.im));
}
DT_FN dt_c128 dt_z_expm1(dt_c128 z)
{
    double s = sin(z.im * 0.5);
    return dt_z_make(expm1(z.re) * cos(z.im) - 2 * s * s, exp(z.re) * sin(z.im));
}
DT_FN dt_c128 dt_z_log1p(dt_c128 z)
{
    return dt_z_make(log(hypot(z.re + 1, z.im)), atan2(z.im, z.re + 1));
}
DT_FN dt_c128 dt_z_sin(dt_c128 z) { return dt_z_make(sin(z.re) * cosh(z.im), cos(z.re) * sinh(z.im)); }
DT_FN dt_c128 dt_z_cos(dt_c128 z) { return dt_z_make(cos(z.re) * cosh(z.im), -sin(z.re) * sinh(z.im)); }
DT_FN dt_c128 dt_z_sinh(dt_c128 z) { return dt_z_make(sinh(z.re) * cos(z.im), cosh(z.re) * sin(z.im)); }
DT_FN dt_c128 dt_z_cosh(dt_c128 z) { return dt_z_make(cosh(z.re) * cos(z.im), sinh(z.re) * sin(z.im)); }
/* tanh(x+iy) = (sinh 2x + i sin 2y) / (cosh 2x + cos 2y), tending to +-1 */
DT_FN dt_c128 dt_z_tanh(dt_c128 z)
{
    if (fabs(z.re) > 20) {
        double e = exp(-2 * fabs(z.re));
        return dt_z_make(copysign(1.0, z.re), 4 * sin(z.im) * cos(z.im) * e);
    }
    double d = cosh(2 * z.re) + cos(2 * z.im);
    return dt_z_make(sinh(2 * z.re) / d, sin(2 * z.im) / d);
}
/* tan z = -i tanh(iz) */
DT_FN dt_c128 dt_z_tan(dt_c128 z)
{
    dt_c128 t = dt_z_tanh(dt_z_make(-z.im, z.re));
    return dt_z_make(t.im, -t.re);
}
/* asinh z = log(z + sqrt(z^2 + 1)), taken on the right half-plane for accuracy */
DT_FN dt_c128 dt_z_asinh(dt_c128 z)
{
    int flip = z.re < 0 || (z.re == 0 && signbit(z.re));
    dt_c128 w = flip ? dt_z_make(-z.re, -z.im) : z;
    dt_c128 s = dt_z_sqrt(dt_c128_add(dt_c128_mul(w, w), dt_z_make(1, 0)));
    dt_c128 r = dt_z_log(dt_c128_add(w, s));
    return flip ? dt_z_make(-r.re, -r.im) : r;
}
/* asin z = -i asinh(iz) */
DT_FN dt_c128 dt_z_asin(dt_c128 z)
{
    dt_c128 r = dt_z_asinh(dt_z_make(-z.im, z.re));
    return dt_z_make(r.im, -r.re);
}
/* acos z = pi/2 - asin z */
DT_FN dt_c128 dt_z_acos(dt_c128 z)
{
    dt_c128 a = dt_z_asin(z);
    return dt_z_make(1.5707963267948966 - a.re, -a.im);
}
/* atanh z = (log(1+z) - log(1-z)) / 2 */
DT_FN dt_c128 dt_z_atanh(dt_c128 z)
{
    dt_c128 a = dt_z_log(dt_z_make(1 + z.re, z.im)), b = dt_z_log(dt_z_make(1 - z.re, -z.im));
    return dt_z_make((a.re - b.re) * 0.5, (a.im - b.im) * 0.5);
}
/* atan z = -i atanh(iz) */
DT_FN dt_c128 dt_z_atan(dt_c128 z)
{
    dt_c128 r = dt_z_atanh(dt_z_make(-z.im, z.re));
    return dt_z_make(r.im, -r.re);
}
/* acosh z = log(z + sqrt(z+1) sqrt(z-1)) */
DT_FN dt_c128 dt_z_acosh(dt_c128 z)
{
    dt_c128 s = dt_c128_mul(dt_z_sqrt(dt_z_make(z.re + 1, z.im)), dt_z_sqrt(dt_z_make(z.re - 1, z.im)));
    return dt_z_log(dt_c128_add(z, s));
}
DT_FN dt_c128 dt_z_log2(dt_c128 z)
{
    dt_c128 l = dt_z_log(z);
    return dt_z_make(l.re * 1.4426950408889634, l.im * 1.4426950408889634);
}
DT_FN dt_c128 dt_z_log10(dt_c128 z)
{
    dt_c128 l = dt_z_log(z);
    return dt_z_make(l.re * 0.4342944819032518, l.im * 0.4342944819032518);
}
/* NumPy 2's complex sign: z / |z|, and 0 for 0 */
DT_FN dt_c128 dt_z_sign(dt_c128 z)
{
    double a = dt_z_abs(z);
    if (a == 0)
        return dt_z_make(0, 0);
    if (isnan(a))
        return dt_z_make(NAN, NAN);
    return dt_z_make(z.re / a, z.im / a);
}
/* a ** b: repeated squaring for small integral real exponents (as NumPy),
 * else exp(b log a) */
DT_FN dt_c128 dt_z_pow(dt_c128 a, dt_c128 b)
{
    if (b.re == 0 && b.im == 0)
        return dt_z_make(1, 0);
    if (a.re == 0 && a.im == 0) {
        if (b.re > 0) /* NumPy 2: 0 ** b is 0 when b has a positive real part */
            return dt_z_make(0, 0);
        return dt_z_make(NAN, NAN);
    }
    if (b.im == 0 && b.re == floor(b.re) && fabs(b.re) < 100) {
        if (b.re == 1) /* as NumPy: no multiplication, so infinities stay clean */
            return a;
        if (b.re == 2)
            return dt_c128_mul(a, a);
        if (b.re == 3)
            return dt_c128_mul(dt_c128_mul(a, a), a);
        long n = (long)fabs(b.re);
        dt_c128 r = dt_z_make(1, 0), p = a;
        while (n > 0) {
            if (n & 1)
                r = dt_c128_mul(r, p);
            p = dt_c128_mul(p, p);
            n >>= 1;
        }
        return b.re < 0 ? dt_c128_div(dt_z_make(1, 0), r) : r;
    }
    return dt_z_exp(dt_c128_mul(b, dt_z_log(a)));
}
/* NumPy's complex maximum/minimum: lexicographic, NaN propagates */
DT_FN int dt_z_isnan(dt_c128 z) { return isnan(z.re) || isnan(z.im); }

#endif /* DT_COMPLEX_MATH_H */
