/* complex_math.h - elementary functions of complex numbers for dt_c64 and
 * dt_c128, usable from C and CUDA (no <complex.h>, which CUDA lacks: only
 * the real functions of <math.h> that CUDA also has).
 *
 * Note [Complex formulas]
 * NumPy takes most complex functions from the C library (on Linux glibc's
 * cexp, csqrt, clog, csin, ccosh, ctanh, casin, cacos, catanh, ...), so C99
 * Annex G (G.6) is the specification and NumPy's results are the oracle:
 * at +-0, infinities and NaNs each function returns Annex G's value, and
 * where Annex G leaves a sign unspecified, glibc's choice (e.g. cosh(+0 +
 * i inf) = NaN + i0, cexp(-inf + i inf) = +0 + i0).  Finite values come
 * from formulas that neither overflow nor cancel where the result does not
 * (Note [Complex overflow], Note [Inverse functions]); they agree with
 * NumPy to a few ulps.
 * dt_c64 computes in double and rounds once.  Three functions are NumPy's
 * own formulas rather than the C library's: expm1, log1p and sign.  Those
 * are evaluated in the precision of the dtype, as NumPy does (dt_zf_* for
 * complex64), so that their overflow, NaN and rounding behaviour is
 * NumPy's.  Where NumPy's float32 arithmetic overflows in power (exponents
 * near 1e38) the results differ: NumPy's nan against our inf or 0.
 *
 * Note [expm1 at infinite and NaN real parts]
 * NumPy's expm1 formula multiplies inf by 0 there and returns NaN where the
 * value is known; devtensor returns the array API standard's values, which
 * are cexp(z) - 1's (Annex G): expm1(+inf + 0i) = +inf + 0i, expm1(NaN +
 * 0i) = NaN + 0i (the imaginary part of e^z - 1 is exactly 0 for real z),
 * expm1(-inf + iy) = -1 + 0i for every y (e^z -> 0; NumPy gives NaN for an
 * infinite or NaN y and -cos y - 2 sin^2(y/2), -1 within rounding, for a
 * finite one), expm1(+inf + i inf) and expm1(+inf + i NaN) = inf + NaN i.
 * Zeros keep the sign that conjugate symmetry gives, and expm1(-0 + 0i) is
 * the standard's +0 + 0i (NumPy: -0 + 0i).  Other finite real parts, and
 * +inf with a finite y (inf cis y - 1), are NumPy's formula unchanged.
 *
 * Note [Complex overflow]
 * exp(x) overflows for x > 709.78, while exp(x) cos(y) may not (cos y
 * tiny), nor cosh(x) cos(y) up to x ~ 1419.  dt_z_expmul_ forms exp(x) c as
 * (exp(x/2) c) exp(x/2), and cosh(x) c as (exp(x/2) c) (exp(x/2)/2).  tanh avoids the cancellation of
 * cosh 2x + cos 2y near the poles (x = 0, y = pi/2) with a denominator of
 * two squares (Kahan's form, multiplied out): tanh(x + iy) =
 * (sinh x cosh x + i sin y cos y) / (sinh^2 x + cos^2 y), and for |x| > 22,
 * where tanh x rounds to +-1, +-1 + i 4 sin y cos y e^(-2|x|).
 * log and sqrt scale tiny and huge arguments by powers of two; near
 * |z| = 1, log's real part is log1p(x^2 + y^2 - 1) / 2 with x^2 + y^2 - 1
 * formed exactly enough (dt_z_x2y2m1_: products split by fma, sums by
 * two-sum), so no digits cancel.
 */
#ifndef DT_COMPLEX_MATH_H
#define DT_COMPLEX_MATH_H

#include <math.h>
#include "scalar.h"

#define DT_Z_PI 3.141592653589793
#define DT_Z_PI_2 1.5707963267948966
#define DT_Z_LN2 0.6931471805599453

DT_FN dt_c128 dt_z_make(double re, double im) { return dt_c128_make(re, im); }
DT_FN double dt_z_abs(dt_c128 z) { return hypot(z.re, z.im); }

/* exp(x) c h for h = 1 or 1/2, without overflowing before the product does,
 * nor underflowing in c h (Note [Complex overflow]) */
DT_FN double dt_z_expmul_(double x, double c, double h)
{
    if (x < 709)
        return exp(x) * h * c;
    double e = exp(0.5 * x);
    return (e * c) * (e * h);
}

/* x^2 + y^2 - 1 to an ulp or so even where the terms cancel: the exact
 * products as sums of two doubles (fma), added by two-sum */
DT_FN double dt_z_two_sum_(double a, double b, double *err)
{
    double s = a + b, bb = s - a;
    *err = (a - (s - bb)) + (b - bb);
    return s;
}
DT_FN double dt_z_x2y2m1_(double x, double y)
{
    double xh = x * x, xl = fma(x, x, -xh), yh = y * y, yl = fma(y, y, -yh), e1, e2, e3, e4;
    double s = dt_z_two_sum_(dt_z_two_sum_(xh, -1.0, &e1), yh, &e2);
    s = dt_z_two_sum_(dt_z_two_sum_(s, xl, &e3), yl, &e4); /* xl, yl may cancel s too */
    return s + ((e1 + e2) + (e3 + e4));
}

/* ---- exp, log, sqrt ---- */

DT_FN dt_c128 dt_z_exp(dt_c128 z)
{
    double x = z.re, y = z.im;
    if (y == 0) /* exp(+-inf + i0), exp(NaN + i0) too */
        return dt_z_make(exp(x), y);
    if (isinf(x)) {
        if (isfinite(y))
            return x > 0 ? dt_z_make(x * cos(y), x * sin(y)) : dt_z_make(0.0 * cos(y), 0.0 * sin(y));
        return x > 0 ? dt_z_make(x, NAN) : dt_z_make(0.0, copysign(0.0, y));
    }
    return dt_z_make(dt_z_expmul_(x, cos(y), 1), dt_z_expmul_(x, sin(y), 1)); /* NaN in, NaN out */
}

DT_FN dt_c128 dt_z_log(dt_c128 z)
{
    double x = z.re, y = z.im, ax = fabs(x), ay = fabs(y);
    double hi = ax > ay ? ax : ay, lo = ax > ay ? ay : ax, re;
    if (!(isfinite(x) && isfinite(y)))
        re = log(hypot(x, y)); /* +inf, or NaN */
    else if (hi >= 0.5 && hi < 1.5)
        re = 0.5 * log1p(dt_z_x2y2m1_(hi, lo));
    else if (hi < 1e-300) /* hypot of subnormals rounds them */
        re = log(hypot(x * 0x1p600, y * 0x1p600)) - 415.88830833596718565;
    else if (hi > 1e300)
        re = log(hypot(x * 0.25, y * 0.25)) + 1.3862943611198906188;
    else
        re = log(hypot(x, y));
    return dt_z_make(re, atan2(y, x));
}

DT_FN dt_c128 dt_z_sqrt(dt_c128 z)
{
    double x = z.re, y = z.im;
    if (isinf(y))
        return dt_z_make(INFINITY, y);
    if (isinf(x)) {
        if (x > 0)
            return dt_z_make(x, isnan(y) ? y : copysign(0.0, y));
        return dt_z_make(isnan(y) ? y : 0.0, copysign(INFINITY, y));
    }
    if (isnan(x) || isnan(y))
        return dt_z_make(NAN, NAN);
    if (x == 0 && y == 0)
        return dt_z_make(0.0, y);
    double m = fabs(x) > fabs(y) ? fabs(x) : fabs(y), k = 1;
    if (m > 1e300) {
        x *= 0.25, y *= 0.25, k = 2;
    } else if (m < 1e-300) {
        x *= 0x1p600, y *= 0x1p600, k = 0x1p-300;
    }
    /* 2 Re Im = y, so the smaller part never comes from a difference */
    double h = hypot(x, y);
    if (x >= 0) {
        double t = sqrt(0.5 * (x + h));
        return dt_z_make(t * k, 0.5 * (y / t) * k);
    }
    double s = sqrt(0.5 * (h - x));
    return dt_z_make(fabs(0.5 * (y / s)) * k, copysign(s, y) * k);
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

/* ---- NumPy's own formulas, in the dtype's precision (Note [Complex formulas]) ---- */
#define DT_Z_NUMPY_FNS(C, R, P, F)                                                        \
    /* Note [expm1 at infinite and NaN real parts] */                                    \
    DT_FN C P##expm1(C z)                                                                 \
    {                                                                                     \
        R x = z.re, y = z.im;                                                             \
        if (x == 0 && y == 0) /* e^z - 1 = (1 + 0i) - 1 = +0, also for x = -0 */          \
            return C##_make(0, y);                                                        \
        if (!isfinite(x)) {                                                               \
            if (y == 0) /* the imaginary part is exactly y for every real x */            \
                return C##_make(x != x ? x : (x > 0 ? x : (R)-1), y);                     \
            if (x < 0) /* e^z -> 0 whatever y is: -1 + 0 i (sin y's sign when finite) */  \
                return C##_make((R)-1, isfinite(y) ? 0 * F(sin)(y) : F(copysign)((R)0, y)); \
            if (x > 0 && !isfinite(y)) /* |e^z| -> inf: Annex G's infinity */             \
                return C##_make(x, NAN);                                                  \
        }                                                                                 \
        R s = F(sin)(y * (R)0.5);                                                         \
        return C##_make(F(expm1)(x) * F(cos)(y) - 2 * s * s, F(exp)(x) * F(sin)(y));      \
    }                                                                                     \
    DT_FN C P##log1p(C z)                                                                 \
    {                                                                                     \
        return C##_make(F(log)(F(hypot)(z.re + 1, z.im)), F(atan2)(z.im, z.re + 1));      \
    }                                                                                     \
    /* z / |z| and 0 for 0; an infinite part gives +-1 (both: NaN) */                    \
    DT_FN C P##sign(C z)                                                                  \
    {                                                                                     \
        R x = z.re, y = z.im;                                                             \
        if (isinf(x) && isinf(y))                                                         \
            return C##_make(NAN, NAN);                                                    \
        if (isinf(x))                                                                     \
            return C##_make(x > 0 ? 1 : -1, 0);                                           \
        if (isinf(y))                                                                     \
            return C##_make(0, y > 0 ? 1 : -1);                                           \
        R a = F(hypot)(x, y);                                                             \
        if (a != a)                                                                       \
            return C##_make(NAN, NAN);                                                    \
        if (a == 0)                                                                       \
            return C##_make(0, 0);                                                        \
        if (isinf(a)) /* finite parts whose modulus overflows */                          \
            x *= (R)0.5, y *= (R)0.5, a = F(hypot)(x, y);                                 \
        return C##_make(x / a, y / a);                                                    \
    }
#define DT_Z_FN_D(fn) fn
#define DT_Z_FN_F(fn) fn##f
DT_Z_NUMPY_FNS(dt_c128, double, dt_z_, DT_Z_FN_D)
DT_Z_NUMPY_FNS(dt_c64, float, dt_zf_, DT_Z_FN_F)

/* ---- hyperbolic and trigonometric ---- */

/* cosh and sinh share their special cases (Annex G.6.2.4, G.6.2.5) */
DT_FN dt_c128 dt_z_cosh(dt_c128 z)
{
    double x = z.re, y = z.im;
    if (isfinite(x) && isfinite(y)) {
        if (y == 0)
            return dt_z_make(cosh(x), copysign(0.0, x) * y);
        if (fabs(x) < 709)
            return dt_z_make(cosh(x) * cos(y), sinh(x) * sin(y));
        return dt_z_make(dt_z_expmul_(fabs(x), cos(y), 0.5),
                         copysign(1.0, x) * dt_z_expmul_(fabs(x), sin(y), 0.5));
    }
    if (x == 0)
        return dt_z_make(NAN, 0.0); /* y infinite or NaN */
    if (isinf(x)) {
        if (y == 0)
            return dt_z_make(INFINITY, copysign(0.0, x) * y);
        if (isfinite(y))
            return dt_z_make(INFINITY * cos(y), x * sin(y));
        return dt_z_make(INFINITY, NAN);
    }
    if (isnan(x) && y == 0)
        return dt_z_make(x, y);
    return dt_z_make(NAN, NAN);
}
DT_FN dt_c128 dt_z_sinh(dt_c128 z)
{
    double x = z.re, y = z.im;
    if (isfinite(x) && isfinite(y)) {
        if (y == 0)
            return dt_z_make(sinh(x), y);
        if (fabs(x) < 709)
            return dt_z_make(sinh(x) * cos(y), cosh(x) * sin(y));
        return dt_z_make(copysign(1.0, x) * dt_z_expmul_(fabs(x), cos(y), 0.5),
                         dt_z_expmul_(fabs(x), sin(y), 0.5));
    }
    if (x == 0)
        return dt_z_make(x, NAN); /* y infinite or NaN */
    if (isinf(x)) {
        if (y == 0)
            return dt_z_make(x, y);
        if (isfinite(y))
            return dt_z_make(x * cos(y), INFINITY * sin(y));
        return dt_z_make(INFINITY, NAN);
    }
    if (isnan(x) && y == 0)
        return dt_z_make(x, y);
    return dt_z_make(NAN, NAN);
}
DT_FN dt_c128 dt_z_tanh(dt_c128 z)
{
    double x = z.re, y = z.im;
    if (!isfinite(y)) {
        if (isinf(x)) /* Annex G: 1 +- i0 */
            return dt_z_make(copysign(1.0, x), copysign(0.0, y));
        return dt_z_make(x == 0 ? x : NAN, NAN);
    }
    if (isnan(x))
        return dt_z_make(x, y == 0 ? y : NAN);
    if (fabs(x) > 22) { /* also +-inf */
        double e = exp(-fabs(x));
        return dt_z_make(copysign(1.0, x), (4 * sin(y) * cos(y) * e) * e);
    }
    double s = sinh(x), c = cos(y), d = s * s + c * c;
    return dt_z_make(s * cosh(x) / d, sin(y) * c / d);
}
/* cos z = cosh(iz), sin z = -i sinh(iz), tan z = -i tanh(iz), with iz = -y + ix */
DT_FN dt_c128 dt_z_cos(dt_c128 z) { return dt_z_cosh(dt_z_make(-z.im, z.re)); }
DT_FN dt_c128 dt_z_sin(dt_c128 z)
{
    if (isinf(z.im) && !isfinite(z.re)) /* Annex G leaves the sign of Im open; glibc's */
        return dt_z_make(NAN, INFINITY);
    dt_c128 r = dt_z_sinh(dt_z_make(-z.im, z.re));
    return dt_z_make(r.im, -r.re);
}
DT_FN dt_c128 dt_z_tan(dt_c128 z)
{
    dt_c128 r = dt_z_tanh(dt_z_make(-z.im, z.re));
    return dt_z_make(r.im, -r.re);
}

/* ---- inverse functions ----
 *
 * Note [Inverse functions]
 * The logarithmic formulas (asin z = -i log(iz + sqrt(1 - z^2)), ...)
 * overflow in z^2 for |z| > 1e154 and cancel near the branch points and
 * cuts.  asin and acos follow Hull, Fairgrieve and Tang (ACM TOMS 23, 1997)
 * on the first quadrant, x, y >= 0, and reach the others by symmetry
 * (asin odd, acos(-z) = pi - acos z, both conjugate-symmetric):
 *   R = |z + 1|, S = |z - 1|, A = (R + S)/2 >= 1, B = x/A,
 *   Re asin z = asin B, Re acos z = acos B, Im = -+log(A + sqrt(A^2 - 1)).
 * Near B = 1 the real part comes from atan of the ratio that asin B hides,
 * and near A = 1 the imaginary part is log1p(A - 1 + sqrt((A - 1)(A + 1)))
 * with A - 1 formed from y^2/(R + x + 1) and S +- (1 - x), never from A - 1
 * itself.  For x < 1, A - 1 = y^2 q, so the square root is y sqrt(q (A + 1))
 * and tiny y does not underflow.  For |z| > 1e150, where 1/|z|^2 is far
 * below an ulp, asin z = atan2(x, y) + i log(2|z|) (acos: atan2(y, x)),
 * which also gives Annex G's values at infinities.  asinh z = -i asin(iz)
 * and acosh z = +-i acos z (the sign making Re >= 0).
 * atanh: Re = log1p(4x / ((1 - x)^2 + y^2))/4, or for z near 1 the same as
 * (log|1 + z| - log|1 - z|)/2, whose terms do not cancel there; Im =
 * atan2(2y, 1 - x^2 - y^2)/2 with dt_z_x2y2m1_; for |z| > 1e16 atanh z =
 * 1/z + i pi/2 to within an ulp.  atan z = -i atanh(iz).
 */

/* x, y >= 0 (or NaN): *re = Re asin (acos), *im = |Im| */
DT_FN void dt_z_asin_q1_(double x, double y, int want_acos, double *re, double *im)
{
    if (isnan(x) || isnan(y)) {
        if (isinf(x) || isinf(y))
            *re = NAN, *im = INFINITY;
        else if (x == 0)
            *re = want_acos ? DT_Z_PI_2 : x, *im = y;
        else
            *re = NAN, *im = NAN;
        return;
    }
    if (x > 1e150 || y > 1e150) {
        *re = want_acos ? atan2(y, x) : atan2(x, y);
        *im = (x > 1e300 || y > 1e300) ? log(hypot(0.5 * x, 0.5 * y)) + 2 * DT_Z_LN2
                                       : log(hypot(x, y)) + DT_Z_LN2;
        return;
    }
    double R = hypot(x + 1, y), S = hypot(x - 1, y), A = 0.5 * (R + S), B = x / A;
    if (A <= 1.5) {
        if (x < 1) {
            double q = 0.5 * (1 / (R + x + 1) + 1 / (S + (1 - x)));
            *im = log1p(y * y * q + y * sqrt(q * (A + 1)));
        } else if (x == 1 && y < 1e-100) { /* A - 1 ~ y/2 may be subnormal */
            *im = sqrt(y);
        } else {
            double am1 = 0.5 * (y * y / (R + x + 1) + (S + (x - 1)));
            *im = log1p(am1 + sqrt(am1 * (A + 1)));
        }
    } else {
        *im = log(A + sqrt(A * A - 1));
    }
    if (B <= 0.6417) {
        *re = want_acos ? acos(B) : asin(B);
        return;
    }
    double d; /* cos(Re asin) * A, so that Re asin = atan(x / d) */
    if (x <= 1)
        d = sqrt(0.5 * (A + x) * (y * y / (R + x + 1) + (S + (1 - x))));
    else
        d = y * sqrt(0.5 * ((A + x) / (R + x + 1) + (A + x) / (S + (x - 1))));
    *re = want_acos ? atan(d / x) : atan(x / d);
}
DT_FN dt_c128 dt_z_asin(dt_c128 z)
{
    double re, im;
    dt_z_asin_q1_(fabs(z.re), fabs(z.im), 0, &re, &im);
    return dt_z_make(copysign(re, z.re), copysign(im, z.im));
}
DT_FN dt_c128 dt_z_acos(dt_c128 z)
{
    double re, im;
    dt_z_asin_q1_(fabs(z.re), fabs(z.im), 1, &re, &im);
    return dt_z_make(signbit(z.re) ? DT_Z_PI - re : re, -copysign(im, z.im));
}
DT_FN dt_c128 dt_z_asinh(dt_c128 z)
{
    dt_c128 r = dt_z_asin(dt_z_make(-z.im, z.re));
    return dt_z_make(r.im, -r.re);
}
DT_FN dt_c128 dt_z_acosh(dt_c128 z)
{
    double re, im;
    dt_z_asin_q1_(fabs(z.re), fabs(z.im), 1, &re, &im);
    return dt_z_make(im, copysign(signbit(z.re) ? DT_Z_PI - re : re, z.im));
}
DT_FN dt_c128 dt_z_atanh(dt_c128 z)
{
    double x = fabs(z.re), y = fabs(z.im), re, im;
    if (isnan(x) || isnan(y)) {
        re = isinf(y) || isinf(x) || x == 0 ? 0.0 : NAN;
        im = isinf(y) ? DT_Z_PI_2 : NAN;
    } else if (isinf(x) || isinf(y)) {
        re = 0.0, im = DT_Z_PI_2;
    } else if (x > 1e16 || y > 1e16) {
        double m = x > y ? x : y, xs = x / m, ys = y / m;
        re = xs / (xs * xs + ys * ys) / m, im = DT_Z_PI_2;
    } else {
        double a = 1 - x, h = hypot(a, y);
        re = h < 0.5 ? 0.5 * (log(hypot(1 + x, y)) - log(h)) : 0.25 * log1p(4 * x / (a * a + y * y));
        im = 0.5 * atan2(2 * y, 0.0 - dt_z_x2y2m1_(x, y));
    }
    return dt_z_make(copysign(re, z.re), copysign(im, z.im));
}
DT_FN dt_c128 dt_z_atan(dt_c128 z)
{
    dt_c128 r = dt_z_atanh(dt_z_make(-z.im, z.re));
    return dt_z_make(r.im, -r.re);
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
