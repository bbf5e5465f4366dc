/* emu_dense.cpp - the reference arithmetic of the emulated cuSOLVER
 * (emu_dense.h): LU, triangular solves, Cholesky, Householder QR and Q,
 * and Jacobi methods for the Hermitian eigenproblem and the SVD, all in
 * complex double.  What each result is follows LAPACK's definitions; how
 * it is computed is the simplest robust method, for matrices of CI's size.
 */
#include "emu_dense.h"

#include <float.h>
#include <math.h>

#include <algorithm>
#include <numeric>

namespace dt_emu {
namespace {

/* Note [Real input stays real]
 * S and D matrices go through the same complex code as C and Z.  Every
 * operation below keeps an imaginary part of exactly zero when all inputs
 * are real: products and sums of (x, 0) are (y, 0), divisions by a real
 * divide both parts, and the phase of a real off-diagonal element is
 * computed as gamma / |gamma| = (+-1, 0), never through atan2 and cos/sin
 * (cos(pi) and sin(pi) are not exactly -1 and 0).  So real results are what
 * real arithmetic gives, with the signs LAPACK's real routines choose. */
inline Cx operator+(Cx a, Cx b) { return Cx{a.re + b.re, a.im + b.im}; }
inline Cx operator-(Cx a, Cx b) { return Cx{a.re - b.re, a.im - b.im}; }
inline Cx operator*(Cx a, Cx b) { return Cx{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
inline Cx operator*(Cx a, double s) { return Cx{a.re * s, a.im * s}; }
inline Cx conj(Cx a) { return Cx{a.re, -a.im}; }
inline bool nonzero(Cx a) { return a.re != 0 || a.im != 0; }
inline double abs1(Cx a) { return fabs(a.re) + fabs(a.im); } /* LAPACK's pivot size for complex */
inline double abs2(Cx a) { return a.re * a.re + a.im * a.im; }
inline double absc(Cx a) { return hypot(a.re, a.im); }

/* a / b without needless overflow (Smith's method); exact real division
 * when b is real. */
Cx div(Cx a, Cx b)
{
    if (b.im == 0)
        return Cx{a.re / b.re, a.im / b.re};
    if (fabs(b.re) >= fabs(b.im)) {
        double r = b.im / b.re, d = b.re + b.im * r;
        return Cx{(a.re + a.im * r) / d, (a.im - a.re * r) / d};
    }
    double r = b.re / b.im, d = b.im + b.re * r;
    return Cx{(a.re * r + a.im) / d, (a.im * r - a.re) / d};
}

/* sqrt(sum |x_i|^2) of n elements `stride` apart, scaled against overflow
 * and underflow. */
double norm2(const Cx *x, int64_t n, int64_t stride = 1)
{
    double scale = 0;
    for (int64_t i = 0; i < n; i++)
        scale = std::max(scale, std::max(fabs(x[i * stride].re), fabs(x[i * stride].im)));
    if (scale == 0 || !isfinite(scale)) {
        double sum = 0; /* NaN or infinity: let it through as it comes */
        for (int64_t i = 0; i < n; i++)
            sum += abs2(x[i * stride]);
        return sqrt(sum);
    }
    double sum = 0;
    for (int64_t i = 0; i < n; i++) {
        double re = x[i * stride].re / scale, im = x[i * stride].im / scale;
        sum += re * re + im * im;
    }
    return scale * sqrt(sum);
}

double norm3(double x, double y, double z) /* LAPACK's dlapy3 */
{
    Cx v[2] = {{x, y}, {z, 0}};
    return norm2(v, 2);
}

/* The power of two that brings the largest |element| of a near 1 (1 for
 * a zero or non-finite matrix): scaling by it is exact. */
double balance(const Dense &a)
{
    double big = 0;
    for (const Cx &v : a.a)
        big = std::max(big, std::max(fabs(v.re), fabs(v.im)));
    if (big == 0 || !isfinite(big))
        return 1;
    int e;
    frexp(big, &e);
    return ldexp(1.0, -e);
}

/* The rotation of Note [Jacobi rotations]: t = tan of the angle, the root
 * of t^2 + 2 zeta t - 1 = 0 of smaller size. */
double jacobi_t(double zeta)
{
    if (fabs(zeta) > 1e150)
        return 0.5 / zeta;
    return (zeta >= 0 ? 1.0 : -1.0) / (fabs(zeta) + sqrt(1 + zeta * zeta));
}

const int max_sweeps = 100;
const double tol = 8 * DBL_EPSILON;

} // namespace

/* ---- LU ---- */

/* Note [Pivots]
 * As LAPACK's getf2: the pivot of column j is the first element of largest
 * |re| + |im| (i?amax's measure, |x| for real types) on or below the
 * diagonal; a zero pivot leaves the column unscaled, sets info to the
 * first such j + 1, and the factorization goes on.  The trailing update
 * skips zero multipliers, as the reference BLAS's ger does. */
int lu_factor(Dense &a, int *ipiv)
{
    const int64_t m = a.rows, n = a.cols, k = std::min(m, n);
    int info = 0;
    for (int64_t j = 0; j < k; j++) {
        int64_t p = j;
        if (ipiv != nullptr) {
            double best = abs1(a(j, j));
            for (int64_t i = j + 1; i < m; i++)
                if (abs1(a(i, j)) > best) {
                    best = abs1(a(i, j));
                    p = i;
                }
            ipiv[j] = (int)p;
        }
        if (nonzero(a(p, j))) {
            if (p != j)
                for (int64_t c = 0; c < n; c++)
                    std::swap(a(j, c), a(p, c));
            const Cx pivot = a(j, j);
            for (int64_t i = j + 1; i < m; i++)
                a(i, j) = div(a(i, j), pivot);
        } else if (info == 0) {
            info = (int)(j + 1);
        }
        for (int64_t c = j + 1; c < n; c++) {
            const Cx u = a(j, c);
            if (nonzero(u))
                for (int64_t i = j + 1; i < m; i++)
                    a(i, c) = a(i, c) - a(i, j) * u;
        }
    }
    return info;
}

/* Note [Triangular solves]
 * As the reference BLAS's trsm: the no-transpose solves skip an element
 * that is zero (so 0 / 0 is not formed), the transposed ones divide
 * always; a zero U(j, j) then gives infinities or NaN, as getrs does. */
void lu_solve(const Dense &lu, const int *ipiv, char op, Dense &b)
{
    const int64_t n = lu.rows;
    auto f = [op](Cx v) { return op == 'C' ? conj(v) : v; };
    for (int64_t c = 0; c < b.cols; c++) {
        if (op == 'N') {
            if (ipiv != nullptr)
                for (int64_t i = 0; i < n; i++)
                    std::swap(b(i, c), b(ipiv[i], c));
            for (int64_t k = 0; k < n; k++) /* L y = P b, L unit lower */
                if (nonzero(b(k, c)))
                    for (int64_t i = k + 1; i < n; i++)
                        b(i, c) = b(i, c) - lu(i, k) * b(k, c);
            for (int64_t k = n - 1; k >= 0; k--) /* U x = y */
                if (nonzero(b(k, c))) {
                    b(k, c) = div(b(k, c), lu(k, k));
                    for (int64_t i = 0; i < k; i++)
                        b(i, c) = b(i, c) - lu(i, k) * b(k, c);
                }
            continue;
        }
        for (int64_t i = 0; i < n; i++) { /* op(U) z = b, op(U) lower */
            Cx t = b(i, c);
            for (int64_t k = 0; k < i; k++)
                t = t - f(lu(k, i)) * b(k, c);
            b(i, c) = div(t, f(lu(i, i)));
        }
        for (int64_t i = n - 1; i >= 0; i--) { /* op(L) w = z, op(L) unit upper */
            Cx t = b(i, c);
            for (int64_t k = i + 1; k < n; k++)
                t = t - f(lu(k, i)) * b(k, c);
            b(i, c) = t;
        }
        if (ipiv != nullptr) /* x = P^T w */
            for (int64_t i = n - 1; i >= 0; i--)
                std::swap(b(i, c), b(ipiv[i], c));
    }
}

/* ---- Cholesky ---- */

/* Column by column, as LAPACK's potf2 for the lower triangle (the upper
 * case is the same on A^H): the diagonal's imaginary part is not read, and
 * a pivot that is not positive (or NaN) stops the factorization there. */
int cholesky_lower(Dense &a, int64_t *done)
{
    const int64_t n = a.rows;
    for (int64_t j = 0; j < n; j++) {
        double ajj = a(j, j).re;
        for (int64_t k = 0; k < j; k++)
            ajj -= abs2(a(j, k));
        if (!(ajj > 0)) {
            a(j, j) = Cx{ajj, 0};
            *done = j + 1;
            return (int)(j + 1);
        }
        ajj = sqrt(ajj);
        a(j, j) = Cx{ajj, 0};
        for (int64_t i = j + 1; i < n; i++) {
            Cx t = a(i, j);
            for (int64_t k = 0; k < j; k++)
                t = t - a(i, k) * conj(a(j, k));
            a(i, j) = t * (1 / ajj);
        }
    }
    *done = n;
    return 0;
}

/* ---- QR ---- */

/* Note [Reflectors]
 * LAPACK's larfg: for column j, alpha = A(j, j) and x below it; when x is
 * zero and alpha real, tau = 0 (H = I).  Else beta = -sign(re alpha)
 * sqrt(|alpha|^2 + |x|^2), tau = (beta - alpha) / beta, v = x / (alpha -
 * beta) below an implied 1, and A(j, j) = beta, real: R's diagonal may be
 * negative.  H(j) = I - tau v v^H; the trailing columns get H(j)^H (so
 * conj(tau)), since R = H(k-1)^H ... H(0)^H A.  (Unlike LAPACK, no
 * rescaling when beta is below the smallest normal number.) */
void qr_factor(Dense &a, std::vector<Cx> &tau)
{
    const int64_t m = a.rows, n = a.cols, k = std::min(m, n);
    tau.assign((size_t)k, Cx{0, 0});
    for (int64_t j = 0; j < k; j++) {
        const Cx alpha = a(j, j);
        const double xnorm = j + 1 < m ? norm2(&a(j + 1, j), m - j - 1) : 0;
        if (xnorm == 0 && alpha.im == 0)
            continue;
        const double beta = -copysign(norm3(alpha.re, alpha.im, xnorm), alpha.re);
        tau[j] = Cx{(beta - alpha.re) / beta, -alpha.im / beta};
        const Cx scale = div(Cx{1, 0}, alpha - Cx{beta, 0});
        for (int64_t i = j + 1; i < m; i++)
            a(i, j) = a(i, j) * scale;
        a(j, j) = Cx{beta, 0};
        const Cx ct = conj(tau[j]);
        for (int64_t c = j + 1; c < n; c++) {
            Cx w = a(j, c);
            for (int64_t i = j + 1; i < m; i++)
                w = w + conj(a(i, j)) * a(i, c);
            if (!nonzero(w))
                continue;
            const Cx f = ct * w;
            a(j, c) = a(j, c) - f;
            for (int64_t i = j + 1; i < m; i++)
                a(i, c) = a(i, c) - a(i, j) * f;
        }
    }
}

/* Q's first n columns: H(0) (H(1) (... H(k-1) [I; 0])), as LAPACK's org2r
 * and ung2r (H(i) itself, tau not conjugated). */
Dense qr_form_q(const Dense &a, const Cx *tau, int64_t k)
{
    const int64_t m = a.rows, n = a.cols;
    Dense q(m, n);
    for (int64_t j = 0; j < n; j++)
        q(j, j) = Cx{1, 0};
    for (int64_t i = k - 1; i >= 0; i--)
        for (int64_t c = 0; c < n; c++) {
            Cx w = q(i, c);
            for (int64_t r = i + 1; r < m; r++)
                w = w + conj(a(r, i)) * q(r, c);
            if (!nonzero(w))
                continue;
            const Cx f = tau[i] * w;
            q(i, c) = q(i, c) - f;
            for (int64_t r = i + 1; r < m; r++)
                q(r, c) = q(r, c) - a(r, i) * f;
        }
    return q;
}

/* ---- Jacobi methods ---- */

/* Note [Jacobi rotations]
 * Both methods zero one 2 x 2 problem at a time, cyclically by pairs p < q,
 * until a sweep finds every pair negligible (at most max_sweeps).  With
 * gamma the coupling of p and q (A(p, q) for the eigenproblem, column p's
 * inner product with column q for the SVD) and ph = gamma / |gamma| its
 * phase, the unitary W with columns c e_p - s conj(ph) e_q and s e_p +
 * c conj(ph) e_q makes the pair's coupling real and then zero, where t =
 * s / c solves t^2 + 2 zeta t - 1 = 0 (the smaller root, so the rotation
 * angle is at most pi/4), c = 1 / sqrt(1 + t^2), s = c t, and zeta =
 * (A(q, q) - A(p, p)) / (2 |gamma|), or (|col q|^2 - |col p|^2) /
 * (2 |gamma|).  A pair is negligible when |gamma| <= tol sqrt(|A(p, p)|
 * |A(q, q)|) (columns: tol |col p| |col q|), tol = 8 eps: the relative
 * test that makes Jacobi's small eigenvalues and singular values as
 * accurate as the data; a column whose squares sum to zero (or underflow
 * to it) is never rotated, and the phase is gamma's parts divided by
 * |gamma| (1 / |gamma| overflows for a subnormal gamma).  Matrices are first scaled by a power of two
 * (exactly) to keep squares clear of overflow and underflow. */

/* Two-sided Jacobi on a Hermitian matrix: A <- W^H A W, V <- V W. */
int eigh(const Dense &a, std::vector<double> &w, Dense *v)
{
    const int64_t n = a.rows;
    const double scale = balance(a);
    Dense A = a, V(n, n);
    for (Cx &x : A.a)
        x = x * scale;
    for (int64_t j = 0; j < n; j++)
        V(j, j) = Cx{1, 0};
    auto negligible = [&](int64_t p, int64_t q) {
        double g = absc(A(p, q));
        return !(g > tol * sqrt(fabs(A(p, p).re)) * sqrt(fabs(A(q, q).re)));
    };
    for (int sweep = 0; sweep < max_sweeps; sweep++) {
        bool rotated = false;
        for (int64_t p = 0; p + 1 < n; p++)
            for (int64_t q = p + 1; q < n; q++) {
                if (negligible(p, q))
                    continue;
                rotated = true;
                const double g = absc(A(p, q)), app = A(p, p).re, aqq = A(q, q).re;
                const Cx ph = Cx{A(p, q).re / g, A(p, q).im / g}, cph = conj(ph); /* 1 / g may overflow */
                const double t = jacobi_t((aqq - app) / (2 * g)), c = 1 / sqrt(1 + t * t), s = c * t;
                for (int64_t r = 0; r < n; r++) { /* columns: A W */
                    const Cx x = A(r, p), y = A(r, q) * cph;
                    A(r, p) = x * c - y * s;
                    A(r, q) = x * s + y * c;
                }
                for (int64_t r = 0; r < n; r++) { /* rows: W^H (A W) */
                    const Cx x = A(p, r), y = A(q, r) * ph;
                    A(p, r) = x * c - y * s;
                    A(q, r) = x * s + y * c;
                }
                A(p, q) = A(q, p) = Cx{0, 0}; /* exactly, and the diagonal as the 2 x 2 solution has it */
                A(p, p) = Cx{app - t * g, 0};
                A(q, q) = Cx{aqq + t * g, 0};
                for (int64_t r = 0; r < n; r++) {
                    const Cx x = V(r, p), y = V(r, q) * cph;
                    V(r, p) = x * c - y * s;
                    V(r, q) = x * s + y * c;
                }
            }
        if (!rotated)
            break;
    }
    int unconverged = 0;
    for (int64_t p = 0; p + 1 < n; p++)
        for (int64_t q = p + 1; q < n; q++)
            unconverged += !negligible(p, q);
    std::vector<int64_t> order((size_t)n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) { /* ascending, NaN last */
        double x = A(i, i).re, y = A(j, j).re;
        return !isnan(x) && (isnan(y) || x < y);
    });
    w.resize((size_t)n);
    for (int64_t j = 0; j < n; j++)
        w[j] = A(order[j], order[j]).re / scale;
    if (v != nullptr) {
        *v = Dense(n, n);
        for (int64_t j = 0; j < n; j++)
            for (int64_t r = 0; r < n; r++)
                (*v)(r, j) = V(r, order[j]);
    }
    return unconverged;
}

/* One-sided (Hestenes) Jacobi: G = A V with V unitary, rotated until G's
 * columns are orthogonal; then s_j = |G(:, j)| and U(:, j) = G(:, j) / s_j.
 * Columns of zero singular value, and U's columns past n when asked, are
 * completed to an orthonormal basis (Gram-Schmidt, twice, on the unit
 * vector least in the span so far). */
int svd(const Dense &a, std::vector<double> &s, Dense *u, int64_t ucols, Dense *v)
{
    const int64_t m = a.rows, n = a.cols;
    const double scale = balance(a);
    Dense G = a, V(n, n);
    for (Cx &x : G.a)
        x = x * scale;
    for (int64_t j = 0; j < n; j++)
        V(j, j) = Cx{1, 0};
    auto coupling = [&](int64_t p, int64_t q, double *alpha, double *beta) {
        Cx g{0, 0};
        *alpha = *beta = 0;
        for (int64_t r = 0; r < m; r++) {
            *alpha += abs2(G(r, p));
            *beta += abs2(G(r, q));
            g = g + conj(G(r, p)) * G(r, q);
        }
        return g;
    };
    auto negligible = [](Cx g, double alpha, double beta) {
        /* a zero (or underflowed) column couples with nothing */
        return alpha == 0 || beta == 0 || !(absc(g) > tol * sqrt(alpha) * sqrt(beta));
    };
    for (int sweep = 0; sweep < max_sweeps; sweep++) {
        bool rotated = false;
        for (int64_t p = 0; p + 1 < n; p++)
            for (int64_t q = p + 1; q < n; q++) {
                double alpha, beta;
                const Cx gamma = coupling(p, q, &alpha, &beta);
                if (negligible(gamma, alpha, beta))
                    continue;
                rotated = true;
                const double g = absc(gamma);
                const Cx cph = conj(Cx{gamma.re / g, gamma.im / g}); /* 1 / g may overflow */
                const double t = jacobi_t((beta - alpha) / (2 * g)), c = 1 / sqrt(1 + t * t), sn = c * t;
                for (int64_t r = 0; r < m; r++) {
                    const Cx x = G(r, p), y = G(r, q) * cph;
                    G(r, p) = x * c - y * sn;
                    G(r, q) = x * sn + y * c;
                }
                for (int64_t r = 0; r < n; r++) {
                    const Cx x = V(r, p), y = V(r, q) * cph;
                    V(r, p) = x * c - y * sn;
                    V(r, q) = x * sn + y * c;
                }
            }
        if (!rotated)
            break;
    }
    int unconverged = 0;
    for (int64_t p = 0; p + 1 < n; p++)
        for (int64_t q = p + 1; q < n; q++) {
            double alpha, beta;
            const Cx gamma = coupling(p, q, &alpha, &beta);
            unconverged += !negligible(gamma, alpha, beta);
        }
    std::vector<double> norms((size_t)n);
    for (int64_t j = 0; j < n; j++)
        norms[j] = norm2(&G(0, j), m);
    std::vector<int64_t> order((size_t)n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) { /* descending, NaN last */
        double x = norms[i], y = norms[j];
        return !isnan(x) && (isnan(y) || x > y);
    });
    s.resize((size_t)n);
    for (int64_t j = 0; j < n; j++)
        s[j] = norms[order[j]] / scale;
    if (v != nullptr) {
        *v = Dense(n, n);
        for (int64_t j = 0; j < n; j++)
            for (int64_t r = 0; r < n; r++)
                (*v)(r, j) = V(r, order[j]);
    }
    if (u == nullptr)
        return unconverged;
    *u = Dense(m, ucols);
    std::vector<bool> set((size_t)ucols, false);
    for (int64_t j = 0; j < n && j < ucols; j++) {
        const double sj = norms[order[j]];
        if (sj > 0 && isfinite(sj)) {
            for (int64_t r = 0; r < m; r++)
                (*u)(r, j) = G(r, order[j]) * (1 / sj);
            set[j] = true;
        }
    }
    for (int64_t j = 0; j < ucols; j++) {
        if (set[j])
            continue;
        int64_t best = 0; /* the unit vector least in the span of the columns set */
        double best_rest = -1;
        for (int64_t r = 0; r < m; r++) {
            double in = 0;
            for (int64_t i = 0; i < ucols; i++)
                if (set[i])
                    in += abs2((*u)(r, i));
            if (1 - in > best_rest) {
                best_rest = 1 - in;
                best = r;
            }
        }
        std::vector<Cx> x((size_t)m, Cx{0, 0});
        x[best] = Cx{1, 0};
        for (int pass = 0; pass < 2; pass++)
            for (int64_t i = 0; i < ucols; i++) {
                if (!set[i])
                    continue;
                Cx d{0, 0};
                for (int64_t r = 0; r < m; r++)
                    d = d + conj((*u)(r, i)) * x[r];
                for (int64_t r = 0; r < m; r++)
                    x[r] = x[r] - (*u)(r, i) * d;
            }
        const double len = norm2(x.data(), m);
        for (int64_t r = 0; r < m; r++)
            (*u)(r, j) = x[r] * (1 / len);
        set[j] = true;
    }
    return unconverged;
}

/* ---- the general eigenproblem ---- */

/* Note [General eigenproblem]
 * A = Z T Z^H, T upper triangular (the complex Schur form), by the
 * textbook route: Householder reduction to Hessenberg form (Note
 * [Reflectors]), then shifted QR steps on the unreduced window [lo, hi]
 * made of Givens rotations applied to all of T (rows left of the window
 * and columns right of it too) and accumulated into Z.  The shift is
 * Wilkinson's (the eigenvalue of the window's trailing 2 x 2 nearer its
 * last diagonal element), with an exceptional shift every tenth step
 * without deflation; a subdiagonal element is negligible below eps times
 * its two diagonal neighbours (the norm of T where both are zero).  At
 * most 30 n steps in all, as LAPACK allows; past them the return is the
 * number of eigenvalues not found.  The eigenvectors of T by back
 * substitution (a zero denominator replaced by eps |T|, as LAPACK's trevc
 * perturbs it), x = Z y, each scaled to unit norm with its largest
 * component real and positive (LAPACK's geev: "largest component real"). */
namespace {

Cx csqrt(Cx z)
{
    const double r = absc(z);
    return Cx{sqrt(0.5 * (r + z.re)), copysign(sqrt(0.5 * std::max(0.0, r - z.re)), z.im)};
}

/* rows k, k+1 <- G rows, G = [c s; -conj(s) c] (zeroes b under a) */
struct Givens {
    double c;
    Cx s;
};

Givens givens(Cx a, Cx b)
{
    const double na = absc(a), nb = absc(b);
    if (nb == 0)
        return Givens{1, Cx{0, 0}};
    if (na == 0)
        return Givens{0, Cx{1, 0}};
    const double r = hypot(na, nb);
    const Cx phase = a * (1 / na);
    return Givens{na / r, phase * conj(b) * (1 / r)};
}

void rotate_rows(Dense &t, int64_t k, const Givens &g, int64_t from, int64_t to)
{
    for (int64_t j = from; j < to; j++) {
        const Cx x = t(k, j), y = t(k + 1, j);
        t(k, j) = x * g.c + g.s * y;
        t(k + 1, j) = y * g.c - conj(g.s) * x;
    }
}

void rotate_cols(Dense &t, int64_t k, const Givens &g, int64_t from, int64_t to)
{
    for (int64_t i = from; i < to; i++) {
        const Cx x = t(i, k), y = t(i, k + 1);
        t(i, k) = x * g.c + conj(g.s) * y;
        t(i, k + 1) = y * g.c - g.s * x;
    }
}

/* Householder reduction: t = Z^H a Z upper Hessenberg */
void hessenberg(Dense &t, Dense &z)
{
    const int64_t n = t.rows;
    std::vector<Cx> v((size_t)n);
    for (int64_t k = 0; k + 2 < n; k++) {
        const Cx alpha = t(k + 1, k);
        const double xnorm = norm2(&t(k + 2, k), n - k - 2);
        if (xnorm == 0 && alpha.im == 0)
            continue;
        const double beta = -copysign(norm3(alpha.re, alpha.im, xnorm), alpha.re);
        const Cx tau = Cx{(beta - alpha.re) / beta, -alpha.im / beta};
        const Cx scale = div(Cx{1, 0}, alpha - Cx{beta, 0});
        v[(size_t)(k + 1)] = Cx{1, 0};
        for (int64_t i = k + 2; i < n; i++)
            v[(size_t)i] = t(i, k) * scale, t(i, k) = Cx{0, 0};
        t(k + 1, k) = Cx{beta, 0};
        for (int64_t j = k + 1; j < n; j++) { /* t <- H^H t */
            Cx w = Cx{0, 0};
            for (int64_t i = k + 1; i < n; i++)
                w = w + conj(v[(size_t)i]) * t(i, j);
            const Cx f = conj(tau) * w;
            for (int64_t i = k + 1; i < n; i++)
                t(i, j) = t(i, j) - v[(size_t)i] * f;
        }
        for (Dense *m : {&t, &z}) /* t <- t H, z <- z H */
            for (int64_t i = 0; i < n; i++) {
                Cx w = Cx{0, 0};
                for (int64_t j = k + 1; j < n; j++)
                    w = w + (*m)(i, j) * v[(size_t)j];
                const Cx f = w * tau;
                for (int64_t j = k + 1; j < n; j++)
                    (*m)(i, j) = (*m)(i, j) - f * conj(v[(size_t)j]);
            }
    }
}

double frobenius(const Dense &a) { return norm2(a.a.data(), (int64_t)a.a.size()); }

/* the Schur form of the Hessenberg t in place, z accumulated; 0, or the
 * number of eigenvalues not found */
int64_t schur(Dense &t, Dense &z)
{
    const int64_t n = t.rows;
    const double eps = DBL_EPSILON, tnorm = frobenius(t);
    int64_t hi = n - 1, steps = 0, since = 0;
    while (hi > 0) {
        int64_t lo = hi;
        for (; lo > 0; lo--) {
            double near = abs1(t(lo - 1, lo - 1)) + abs1(t(lo, lo));
            if (absc(t(lo, lo - 1)) <= eps * (near > 0 ? near : tnorm)) {
                t(lo, lo - 1) = Cx{0, 0};
                break;
            }
        }
        if (lo == hi) {
            hi--, since = 0;
            continue;
        }
        if (++steps > 30 * n)
            return hi + 1;
        Cx mu;
        if (++since % 10 == 0) {
            mu = t(hi, hi) + Cx{0.75 * absc(t(hi, hi - 1)), 0};
        } else {
            const Cx a = t(hi - 1, hi - 1), b = t(hi - 1, hi), c = t(hi, hi - 1), d = t(hi, hi);
            const Cx half = (a - d) * 0.5, root = csqrt(half * half + b * c);
            const Cx m1 = (a + d) * 0.5 + root, m2 = (a + d) * 0.5 - root;
            mu = absc(m1 - d) <= absc(m2 - d) ? m1 : m2;
        }
        std::vector<Givens> g((size_t)(hi - lo));
        for (int64_t k = lo; k <= hi; k++)
            t(k, k) = t(k, k) - mu;
        for (int64_t k = lo; k < hi; k++) {
            g[(size_t)(k - lo)] = givens(t(k, k), t(k + 1, k));
            rotate_rows(t, k, g[(size_t)(k - lo)], k, n);
        }
        for (int64_t k = lo; k < hi; k++) {
            rotate_cols(t, k, g[(size_t)(k - lo)], 0, std::min(k + 2, hi + 1));
            rotate_cols(z, k, g[(size_t)(k - lo)], 0, n);
        }
        for (int64_t k = lo; k <= hi; k++)
            t(k, k) = t(k, k) + mu;
    }
    return 0;
}

/* x / |x| with its largest |component| made real and positive */
void normalize(Cx *x, int64_t n)
{
    int64_t big = 0;
    for (int64_t i = 1; i < n; i++)
        if (absc(x[i]) > absc(x[big]))
            big = i;
    const double norm = norm2(x, n), top = absc(x[big]);
    if (norm == 0 || top == 0)
        return;
    const Cx f = conj(x[big]) * (1 / (top * norm));
    for (int64_t i = 0; i < n; i++)
        x[i] = x[i] * f;
    x[big].im = 0;
}

/* Note [Real matrices in the general eigenproblem]
 * LAPACK's real geev returns each complex conjugate pair as exact
 * conjugates, next to each other, the one with the positive imaginary
 * part first, and real eigenvalues with real eigenvectors.  The complex
 * Schur form of a real matrix gives them only to rounding, and a defective
 * eigenvalue (the companion matrix of (x - 1)^3, np.roots' input) as a
 * cluster of radius ~eps^(1/3) in no symmetric arrangement.  So for real
 * input (S and D: the caller says) an eigenvalue whose |imaginary part| is
 * below 64 n eps |A| is real, and the rest are matched greedily, nearest
 * first, each with the one nearest its conjugate or, when that is itself
 * (2 |imaginary part| the smaller distance), taken as real: real part, the
 * real part of its unit vector normalised again.  A pair keeps the member
 * with the larger imaginary part, its partner becoming its exact conjugate
 * (and its vector's); the order is the input's, a pair where its first
 * member was. */
void pair_conjugates(double anorm, std::vector<Cx> &w, Dense *v)
{
    const int64_t n = (int64_t)w.size();
    const double tol = 64.0 * (double)n * DBL_EPSILON * anorm;
    const int64_t unmatched = -2, real = -1;
    std::vector<int64_t> partner((size_t)n, unmatched);
    struct Candidate {
        double distance;
        int64_t i, j; /* i == j: i as a real eigenvalue */
    };
    std::vector<Candidate> candidates;
    for (int64_t i = 0; i < n; i++) {
        if (fabs(w[(size_t)i].im) <= tol) {
            partner[(size_t)i] = real;
            continue;
        }
        candidates.push_back(Candidate{2 * fabs(w[(size_t)i].im), i, i});
        for (int64_t j = i + 1; j < n; j++)
            if (fabs(w[(size_t)j].im) > tol)
                candidates.push_back(Candidate{absc(w[(size_t)i] - conj(w[(size_t)j])), i, j});
    }
    std::sort(candidates.begin(), candidates.end(), [](const Candidate &x, const Candidate &y) {
        return x.distance != y.distance ? x.distance < y.distance : x.i != y.i ? x.i < y.i : x.j < y.j;
    });
    for (const Candidate &c : candidates)
        if (partner[(size_t)c.i] == unmatched && partner[(size_t)c.j] == unmatched) {
            partner[(size_t)c.i] = c.i == c.j ? real : c.j;
            partner[(size_t)c.j] = c.i == c.j ? real : c.i;
        }
    std::vector<Cx> w2((size_t)n);
    Dense v2 = v != nullptr ? Dense(n, n) : Dense();
    for (int64_t k = 0, p = 0; k < n; k++) {
        const int64_t other = partner[(size_t)k];
        if (other >= 0 && other < k)
            continue; /* written with its pair */
        const int64_t kept = other >= 0 && w[(size_t)other].im > w[(size_t)k].im ? other : k;
        w2[(size_t)p] = other == real ? Cx{w[(size_t)k].re, 0} : w[(size_t)kept];
        for (int64_t i = 0; v != nullptr && i < n; i++)
            v2(i, p) = other == real ? Cx{(*v)(i, k).re, 0} : (*v)(i, kept);
        if (v != nullptr && other == real)
            normalize(&v2(0, p), n);
        p++;
        if (other >= 0) { /* the conjugate of the one before */
            w2[(size_t)p] = conj(w2[(size_t)(p - 1)]);
            for (int64_t i = 0; v != nullptr && i < n; i++)
                v2(i, p) = conj(v2(i, p - 1));
            p++;
        }
    }
    w.swap(w2);
    if (v != nullptr)
        *v = v2;
}

} // namespace

int64_t eig(const Dense &a, bool real, std::vector<Cx> &w, Dense *v)
{
    const int64_t n = a.rows;
    Dense t = a, z(n, n);
    for (int64_t i = 0; i < n; i++)
        z(i, i) = Cx{1, 0};
    hessenberg(t, z);
    const int64_t left = schur(t, z);
    w.assign((size_t)n, Cx{0, 0});
    if (left != 0)
        return left;
    for (int64_t k = 0; k < n; k++)
        w[(size_t)k] = t(k, k);
    if (v != nullptr) {
        const double small = DBL_EPSILON * std::max(frobenius(t), DBL_MIN);
        *v = Dense(n, n);
        std::vector<Cx> y((size_t)n);
        for (int64_t k = 0; k < n; k++) {
            std::fill(y.begin(), y.end(), Cx{0, 0});
            y[(size_t)k] = Cx{1, 0};
            for (int64_t i = k - 1; i >= 0; i--) {
                Cx s = Cx{0, 0};
                for (int64_t j = i + 1; j <= k; j++)
                    s = s + t(i, j) * y[(size_t)j];
                Cx d = t(i, i) - t(k, k);
                if (absc(d) < small)
                    d = Cx{small, 0};
                y[(size_t)i] = div(Cx{0, 0} - s, d);
            }
            for (int64_t i = 0; i < n; i++) {
                Cx x = Cx{0, 0};
                for (int64_t j = 0; j <= k; j++)
                    x = x + z(i, j) * y[(size_t)j];
                (*v)(i, k) = x;
            }
            normalize(&(*v)(0, k), n);
        }
    }
    if (real)
        pair_conjugates(frobenius(a), w, v);
    return 0;
}

} // namespace dt_emu
