/* emu_solver_values.cpp - what the emulated cuSOLVER's routines compute
 * (csrc/emu/emu_solver_routines.cpp, emu_dense.cpp), half of
 * tests/emu_runtime/emu_solver_test: for each routine and each type S, D,
 * C, Z, the properties that define the result (P A = L U with LAPACK's
 * pivots, getrs's op(A) X = B, L L^H = A, Q R = A with Q^H Q = I and
 * LAPACK's reflectors, A V = V diag(w) with w ascending, A = U diag(s) V^H
 * with s descending and U, V orthonormal), small examples whose exact
 * answer is known, devInfo for singular, not positive definite and
 * rank-deficient input, leading dimensions above the rows (the gaps must
 * keep their bytes), and triangles that must be neither read nor written.
 *
 * Properties are checked in double (complex double) on the values stored,
 * within c n eps |A| for the type's unit roundoff eps: the emulation
 * computes in double and rounds once, so a float result is close to
 * float's rounding of the exact one.
 */
#include "emu_solver_test.h"

#include <cuda_runtime.h>

#include <algorithm>

/* ---- host matrices in complex double ---- */

struct HM {
    int r = 0, c = 0;
    std::vector<Val> a;
    HM(int rows, int cols) : r(rows), c(cols), a((size_t)rows * cols) {}
    Val &operator()(int i, int j) { return a[(size_t)j * r + i]; }
    Val operator()(int i, int j) const { return a[(size_t)j * r + i]; }
};

static HM mul(const HM &x, const HM &y)
{
    HM z(x.r, y.c);
    for (int j = 0; j < y.c; j++)
        for (int k = 0; k < x.c; k++)
            for (int i = 0; i < x.r; i++)
                z(i, j) += x(i, k) * y(k, j);
    return z;
}
static HM adjoint(const HM &x)
{
    HM z(x.c, x.r);
    for (int j = 0; j < x.c; j++)
        for (int i = 0; i < x.r; i++)
            z(j, i) = std::conj(x(i, j));
    return z;
}
static double fro(const HM &x)
{
    double s = 0;
    for (const Val &v : x.a)
        s += std::norm(v);
    return std::sqrt(s);
}
static double diff(const HM &x, const HM &y)
{
    double s = 0;
    for (size_t i = 0; i < x.a.size(); i++)
        s += std::norm(x.a[i] - y.a[i]);
    return std::sqrt(s);
}
/* |X^H X - I| for X's columns */
static double orthogonality(const HM &x)
{
    HM g = mul(adjoint(x), x);
    for (int i = 0; i < g.r; i++)
        g(i, i) -= 1.0;
    return fro(g);
}
template <class E>
static HM from(const DevMat<E> &m, int rows, int cols)
{
    HM z(rows, cols);
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++)
            z(i, j) = m.at(i, j);
    return z;
}

static uint64_t rng = 88172645463325252ull;
static double uniform() /* in [-1, 1) */
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) / 4503599627370496.0 - 1.0;
}
/* random elements of E's type (imaginary parts only for complex types) */
template <class E>
static void fill(DevMat<E> &m)
{
    for (int j = 0; j < m.cols; j++)
        for (int i = 0; i < m.rows; i++)
            m.set(i, j, Val(uniform(), Solver<E>::complex ? uniform() : 0.0));
}

#define CHECK_SMALL(err, bound, what)                                                                      \
    do {                                                                                                   \
        double e_ = (err), b_ = (bound);                                                                   \
        if (!(e_ <= b_)) {                                                                                 \
            printf("FAIL %s:%d: %s %s: %.3g > %.3g\n", __FILE__, __LINE__, Solver<E>::name, what, e_, b_); \
            failures++;                                                                                    \
        }                                                                                                  \
    } while (0)

/* ---- LU ---- */

/* getrf on A (m x n, lda = m + 3): P A = L U with |L| <= 1 in getrf's
 * measure, pivots 1-based at or below their row; returns devInfo and
 * leaves the factors and pivots in lu, piv. */
template <class E>
static int getrf(cusolverDnHandle_t h, DevMat<E> &A, bool pivot, std::vector<int> *piv = nullptr)
{
    typedef Solver<E> S;
    const int m = A.rows, n = A.cols, k = std::min(m, n);
    int lwork = -1;
    SOLVER_OK(S::getrf_bufferSize(h, m, n, A.dev, A.ld, &lwork));
    EXPECT(lwork >= 1);
    Work<E> w(lwork);
    DevVec<int> ipiv(std::max(k, 1), -1);
    DevInt info;
    SOLVER_OK(S::getrf(h, m, n, A.dev, A.ld, w.dev, pivot ? ipiv.dev : nullptr, info.dev));
    OK(cudaDeviceSynchronize());
    A.download();
    ipiv.download();
    if (piv != nullptr)
        *piv = std::vector<int>(ipiv.host.begin(), ipiv.host.begin() + k);
    return info.get();
}

template <class E>
static void check_lu(cusolverDnHandle_t h, int m, int n, bool pivot)
{
    DevMat<E> A(m, n, m + 3);
    fill(A);
    if (!pivot) /* diagonally dominant: no pivoting needed */
        for (int j = 0; j < std::min(m, n); j++)
            A.set(j, j, A.at(j, j) + Val(2.0 * n, 0));
    HM orig = from(A, m, n);
    A.upload();
    std::vector<int> piv;
    EXPECT(getrf(h, A, pivot, &piv) == 0);
    EXPECT(A.gaps_kept());
    const int k = std::min(m, n);
    HM L(m, k), U(k, n), PA = orig;
    for (int j = 0; j < k; j++) {
        L(j, j) = 1;
        for (int i = j + 1; i < m; i++) {
            L(i, j) = A.at(i, j);
            EXPECT(std::abs(L(i, j)) <= (Solver<E>::complex ? std::sqrt(2.0) : 1.0) * (1 + 4 * eps<E>()));
        }
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= std::min(j, k - 1); i++)
            U(i, j) = A.at(i, j);
    for (int j = 0; j < k && pivot; j++) {
        EXPECT(piv[j] >= j + 1 && piv[j] <= m);
        for (int c = 0; c < n; c++)
            std::swap(PA(j, c), PA(piv[j] - 1, c));
    }
    CHECK_SMALL(diff(mul(L, U), PA), 30.0 * (k + 1) * eps<E>() * fro(L) * fro(U), "P A - L U");
}

template <class E>
static void case_getrf(void)
{
    cusolverDnHandle_t h = handle();
    check_lu<E>(h, 6, 6, true);
    check_lu<E>(h, 7, 4, true);
    check_lu<E>(h, 4, 7, true);
    check_lu<E>(h, 1, 1, true);
    check_lu<E>(h, 5, 5, false);
    check_lu<E>(h, 6, 3, false);
    {   /* the first largest |x| is the pivot (a tie with 3 later) */
        DevMat<E> A(4, 1, 4);
        const double col[4] = {1, -3, 3, 2};
        for (int i = 0; i < 4; i++)
            A.set(i, 0, col[i]);
        A.upload();
        std::vector<int> piv;
        EXPECT(getrf(h, A, true, &piv) == 0);
        EXPECT(piv[0] == 2 && A.at(0, 0) == Val(-3));
        EXPECT(std::abs(A.at(1, 0) - Val(-1.0 / 3)) <= 2 * eps<E>() && A.at(2, 0) == Val(-1));
    }
    if (Solver<E>::complex) { /* the measure is |re| + |im|: (2, 2) beats (3, 0) */
        DevMat<E> A(2, 1, 2);
        A.set(0, 0, Val(3, 0));
        A.set(1, 0, Val(2, 2));
        A.upload();
        std::vector<int> piv;
        EXPECT(getrf(h, A, true, &piv) == 0);
        EXPECT(piv[0] == 2 && A.at(0, 0) == Val(2, 2));
    }
    {   /* exactly singular: U(3, 3) = 0 (devInfo 3), factors still complete */
        DevMat<E> A(3, 3, 5);
        const double rows[3][3] = {{1, 2, 3}, {2, 4, 6}, {1, 1, 1}};
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                A.set(i, j, rows[i][j]);
        A.upload();
        std::vector<int> piv;
        EXPECT(getrf(h, A, true, &piv) == 3);
        EXPECT(piv[0] == 2 && piv[1] == 3 && piv[2] == 3);
        const double u[3][3] = {{2, 4, 6}, {0, -1, -2}, {0, 0, 0}};
        for (int i = 0; i < 3; i++)
            for (int j = i; j < 3; j++)
                EXPECT(A.at(i, j) == Val(u[i][j]));
        EXPECT(A.at(1, 0) == Val(0.5) && A.at(2, 0) == Val(0.5) && A.at(2, 1) == Val(0));
        EXPECT(A.gaps_kept());
    }
    {   /* a zero first column: devInfo 1, the first zero pivot */
        DevMat<E> A(2, 2, 2);
        A.set(0, 0, 0), A.set(1, 0, 0), A.set(0, 1, 1), A.set(1, 1, 2);
        A.upload();
        std::vector<int> piv;
        EXPECT(getrf(h, A, true, &piv) == 1);
        EXPECT(piv[0] == 1 && piv[1] == 2 && A.at(1, 1) == Val(2));
    }
    {   /* no pivoting: a zero pivot is reported, nothing is swapped */
        DevMat<E> A(2, 2, 2);
        A.set(0, 0, 0), A.set(1, 0, 1), A.set(0, 1, 1), A.set(1, 1, 1);
        A.upload();
        EXPECT(getrf(h, A, false) == 1);
        EXPECT(A.at(0, 0) == Val(0) && A.at(1, 0) == Val(1));
    }
    SOLVER_OK(cusolverDnDestroy(h));
}

/* getrs for each op on getrf's factors: op(A) X = B, B's gaps kept */
template <class E>
static void case_getrs(void)
{
    typedef Solver<E> S;
    cusolverDnHandle_t h = handle();
    const int n = 5, nrhs = 3;
    for (bool pivot : {true, false}) {
        DevMat<E> A(n, n, n + 1);
        fill(A);
        if (!pivot)
            for (int j = 0; j < n; j++)
                A.set(j, j, A.at(j, j) + Val(2.0 * n, 0));
        HM orig = from(A, n, n);
        A.upload();
        DevVec<int> ipiv(n);
        int lwork = 0;
        SOLVER_OK(S::getrf_bufferSize(h, n, n, A.dev, A.ld, &lwork));
        Work<E> w(lwork);
        DevInt info;
        SOLVER_OK(S::getrf(h, n, n, A.dev, A.ld, w.dev, pivot ? ipiv.dev : nullptr, info.dev));
        for (cublasOperation_t op : {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C}) {
            DevMat<E> B(n, nrhs, n + 2);
            fill(B);
            HM b = from(B, n, nrhs);
            B.upload();
            info.set(99);
            SOLVER_OK(S::getrs(h, op, n, nrhs, A.dev, A.ld, pivot ? ipiv.dev : nullptr, B.dev, B.ld, info.dev));
            OK(cudaDeviceSynchronize());
            B.download();
            EXPECT(info.get() == 0);
            EXPECT(B.gaps_kept());
            HM opA = orig;
            if (op != CUBLAS_OP_N) {
                opA = adjoint(orig);
                if (op == CUBLAS_OP_T)
                    for (Val &v : opA.a)
                        v = std::conj(v);
            }
            HM x = from(B, n, nrhs);
            char what[64];
            snprintf(what, sizeof what, "op %d pivot %d: op(A) X - B", (int)op, (int)pivot);
            CHECK_SMALL(diff(mul(opA, x), b), 200.0 * n * eps<E>() * (fro(opA) * fro(x) + fro(b)), what);
        }
    }
    SOLVER_OK(cusolverDnDestroy(h));
}

/* ---- Cholesky ---- */

/* potrf with devInfo; A's other triangle holds `other` and must keep it */
template <class E>
static int potrf(cusolverDnHandle_t h, cublasFillMode_t uplo, DevMat<E> &A)
{
    typedef Solver<E> S;
    int lwork = 0;
    SOLVER_OK(S::potrf_bufferSize(h, uplo, A.rows, A.dev, A.ld, &lwork));
    EXPECT(lwork >= 1);
    Work<E> w(lwork);
    DevInt info;
    SOLVER_OK(S::potrf(h, uplo, A.rows, A.dev, A.ld, w.dev, lwork, info.dev));
    OK(cudaDeviceSynchronize());
    A.download();
    return info.get();
}

/* only the uplo triangle of m holds values; the other is set to junk */
template <class E>
static void store_triangle(DevMat<E> &m, const HM &a, cublasFillMode_t uplo, Val junk)
{
    for (int j = 0; j < a.c; j++)
        for (int i = 0; i < a.r; i++) {
            bool mine = uplo == CUBLAS_FILL_MODE_LOWER ? i >= j : i <= j;
            m.set(i, j, mine ? a(i, j) : junk);
        }
}
template <class E>
static bool other_triangle_is(const DevMat<E> &m, cublasFillMode_t uplo, Val junk)
{
    E want = make<E>(junk);
    for (int j = 0; j < m.cols; j++)
        for (int i = 0; i < m.rows; i++) {
            bool mine = uplo == CUBLAS_FILL_MODE_LOWER ? i >= j : i <= j;
            if (!mine && memcmp(&m.host[(size_t)j * m.ld + i], &want, sizeof(E)) != 0)
                return false;
        }
    return true;
}

template <class E>
static void case_potrf(void)
{
    cusolverDnHandle_t h = handle();
    const int n = 6;
    const Val junk(1e3, -1e3);
    for (cublasFillMode_t uplo : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER}) {
        DevMat<E> M(n, n, n);
        fill(M);
        HM m = from(M, n, n), a = mul(m, adjoint(m)); /* Hermitian positive definite */
        for (int i = 0; i < n; i++)
            a(i, i) = Val(a(i, i).real() + n, 0);
        DevMat<E> A(n, n, n + 2);
        store_triangle(A, a, uplo, junk);
        if (Solver<E>::complex) /* the diagonal's imaginary part is not read */
            for (int i = 0; i < n; i++)
                A.set(i, i, Val(A.at(i, i).real(), 5.0));
        a = from(A, n, n); /* the values as stored */
        A.upload();
        EXPECT(potrf(h, uplo, A) == 0);
        EXPECT(A.gaps_kept() && other_triangle_is(A, uplo, junk));
        HM f(n, n), full(n, n);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                bool lower = uplo == CUBLAS_FILL_MODE_LOWER;
                if (lower ? i >= j : i <= j)
                    f(i, j) = A.at(i, j);
                Val x = lower ? (i >= j ? a(i, j) : std::conj(a(j, i))) : (i <= j ? a(i, j) : std::conj(a(j, i)));
                full(i, j) = i == j ? Val(x.real(), 0) : x;
            }
        for (int i = 0; i < n; i++)
            EXPECT(f(i, i).imag() == 0 && f(i, i).real() > 0);
        HM prod = uplo == CUBLAS_FILL_MODE_LOWER ? mul(f, adjoint(f)) : mul(adjoint(f), f);
        CHECK_SMALL(diff(prod, full), 30.0 * n * eps<E>() * fro(full), "L L^H - A");
    }
    for (cublasFillMode_t uplo : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER}) {
        const bool lower = uplo == CUBLAS_FILL_MODE_LOWER;
        {   /* diag(1, 1, -1): the third leading minor fails */
            DevMat<E> A(3, 3, 3);
            HM a(3, 3);
            a(0, 0) = 1, a(1, 1) = 1, a(2, 2) = -1;
            store_triangle(A, a, uplo, junk);
            A.upload();
            EXPECT(potrf(h, uplo, A) == 3);
            EXPECT(A.at(0, 0) == Val(1) && A.at(1, 1) == Val(1) && A.at(2, 2) == Val(-1));
            EXPECT(other_triangle_is(A, uplo, junk));
        }
        {   /* [[4, 2], [2, 1]]: singular, the second minor fails with 0 */
            DevMat<E> A(2, 2, 4);
            HM a(2, 2);
            a(0, 0) = 4, a(1, 1) = 1, a(0, 1) = a(1, 0) = 2;
            store_triangle(A, a, uplo, junk);
            A.upload();
            EXPECT(potrf(h, uplo, A) == 2);
            EXPECT(A.at(0, 0) == Val(2) && A.at(1, 1) == Val(0) && (lower ? A.at(1, 0) : A.at(0, 1)) == Val(1));
            EXPECT(A.gaps_kept() && other_triangle_is(A, uplo, junk));
        }
        {   /* columns after the failing one are left as they were */
            DevMat<E> A(3, 3, 3);
            HM a(3, 3);
            a(0, 0) = -4, a(1, 1) = 9, a(2, 2) = 16, a(1, 0) = a(0, 1) = 1;
            store_triangle(A, a, uplo, junk);
            A.upload();
            EXPECT(potrf(h, uplo, A) == 1);
            EXPECT(A.at(0, 0) == Val(-4) && A.at(1, 1) == Val(9) && A.at(2, 2) == Val(16));
            EXPECT((lower ? A.at(1, 0) : A.at(0, 1)) == Val(1));
        }
        {   /* NaN on the diagonal is not positive */
            DevMat<E> A(1, 1, 1);
            A.set(0, 0, Val(NAN, 0));
            A.upload();
            EXPECT(potrf(h, uplo, A) == 1);
        }
    }
    SOLVER_OK(cusolverDnDestroy(h));
}

/* ---- QR ---- */

/* geqrf on A (m x n, lda = m + 2); tau (min(m, n)) downloaded */
template <class E>
static int geqrf(cusolverDnHandle_t h, DevMat<E> &A, std::vector<Val> &tau)
{
    typedef Solver<E> S;
    const int k = std::min(A.rows, A.cols);
    int lwork = 0;
    SOLVER_OK(S::geqrf_bufferSize(h, A.rows, A.cols, A.dev, A.ld, &lwork));
    EXPECT(lwork >= 1);
    Work<E> w(lwork);
    DevVec<E> t(std::max(k, 1), make<E>(Val(-5)));
    DevInt info;
    SOLVER_OK(S::geqrf(h, A.rows, A.cols, A.dev, A.ld, t.dev, w.dev, lwork, info.dev));
    OK(cudaDeviceSynchronize());
    A.download();
    t.download();
    tau.clear();
    for (int i = 0; i < k; i++)
        tau.push_back(val(t.host[i]));
    return info.get();
}

/* orgqr/ungqr: Q's first n columns over the m x n matrix of reflectors */
template <class E>
static HM orgqr(cusolverDnHandle_t h, DevMat<E> &Q, int k, const std::vector<Val> &tau)
{
    typedef Solver<E> S;
    DevVec<E> t(std::max(k, 1));
    for (int i = 0; i < k; i++)
        t.host[i] = make<E>(tau[i]);
    t.upload();
    int lwork = 0;
    SOLVER_OK(S::orgqr_bufferSize(h, Q.rows, Q.cols, k, Q.dev, Q.ld, t.dev, &lwork));
    EXPECT(lwork >= 1);
    Work<E> w(lwork);
    DevInt info;
    SOLVER_OK(S::orgqr(h, Q.rows, Q.cols, k, Q.dev, Q.ld, t.dev, w.dev, lwork, info.dev));
    OK(cudaDeviceSynchronize());
    Q.download();
    EXPECT(info.get() == 0);
    EXPECT(Q.gaps_kept());
    return from(Q, Q.rows, Q.cols);
}

template <class E>
static void check_qr(cusolverDnHandle_t h, int m, int n)
{
    const int k = std::min(m, n);
    DevMat<E> A(m, n, m + 2);
    fill(A);
    HM orig = from(A, m, n);
    A.upload();
    std::vector<Val> tau;
    EXPECT(geqrf(h, A, tau) == 0);
    EXPECT(A.gaps_kept());
    HM R(k, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= std::min(j, k - 1); i++)
            R(i, j) = A.at(i, j);
    for (int i = 0; i < k; i++)
        EXPECT(R(i, i).imag() == 0); /* beta is real */
    /* Q from LAPACK's definition, H(0) ... H(k-1), H(j) = I - tau v v^H */
    HM Qdef(m, m);
    for (int i = 0; i < m; i++)
        Qdef(i, i) = 1;
    for (int j = 0; j < k; j++) {
        HM H(m, m), v(m, 1);
        v(j, 0) = 1;
        for (int i = j + 1; i < m; i++)
            v(i, 0) = A.at(i, j);
        HM vvh = mul(v, adjoint(v));
        for (int c = 0; c < m; c++)
            for (int r = 0; r < m; r++)
                H(r, c) = (r == c ? 1.0 : 0.0) - tau[j] * vvh(r, c);
        Qdef = mul(Qdef, H);
    }
    HM Qk(m, k);
    for (int j = 0; j < k; j++)
        for (int i = 0; i < m; i++)
            Qk(i, j) = Qdef(i, j);
    const double tol = 30.0 * (m + n) * eps<E>();
    CHECK_SMALL(diff(mul(Qk, R), orig), tol * fro(orig), "Q R - A (LAPACK's Q)");
    CHECK_SMALL(orthogonality(Qdef), tol * m, "Q^H Q - I (LAPACK's Q)");
    /* orgqr over the first k columns of geqrf's output, lda kept */
    DevMat<E> Q(m, k, A.ld);
    for (int j = 0; j < k; j++)
        for (int i = 0; i < m; i++)
            Q.set(i, j, A.at(i, j));
    Q.upload();
    HM q = orgqr(h, Q, k, tau);
    CHECK_SMALL(diff(q, Qk), tol * m, "orgqr's Q - LAPACK's Q");
    CHECK_SMALL(orthogonality(q), tol * m, "Q^H Q - I");
    CHECK_SMALL(diff(mul(q, R), orig), tol * fro(orig), "Q R - A");
    if (m > k) { /* all m columns: the whole unitary Q */
        DevMat<E> F(m, m, m + 1);
        for (int j = 0; j < m; j++)
            for (int i = 0; i < m; i++)
                F.set(i, j, j < k ? A.at(i, j) : Val(NAN, NAN)); /* columns past k are not read */
        F.upload();
        HM f = orgqr(h, F, k, tau);
        CHECK_SMALL(diff(f, Qdef), tol * m, "orgqr's full Q - LAPACK's Q");
    }
}

template <class E>
static void case_qr(void)
{
    cusolverDnHandle_t h = handle();
    check_qr<E>(h, 6, 4);
    check_qr<E>(h, 5, 5);
    check_qr<E>(h, 3, 5);
    check_qr<E>(h, 1, 1);
    std::vector<Val> tau;
    {   /* [3; 4]: beta = -5, tau = 1.6, v = 0.5 (LAPACK's larfg) */
        DevMat<E> A(2, 1, 2);
        A.set(0, 0, 3), A.set(1, 0, 4);
        A.upload();
        EXPECT(geqrf(h, A, tau) == 0);
        EXPECT(A.at(0, 0) == Val(-5) && A.at(1, 0) == Val(0.5));
        EXPECT(std::abs(tau[0] - Val(1.6)) <= 2 * eps<E>());
    }
    {   /* [-3; 4]: beta = +5 (the sign opposite to alpha's) */
        DevMat<E> A(2, 1, 2);
        A.set(0, 0, -3), A.set(1, 0, 4);
        A.upload();
        EXPECT(geqrf(h, A, tau) == 0);
        EXPECT(A.at(0, 0) == Val(5) && A.at(1, 0) == Val(-0.5));
        EXPECT(std::abs(tau[0] - Val(1.6)) <= 2 * eps<E>());
    }
    {   /* a zero column below a real alpha: tau = 0, H = I */
        DevMat<E> A(3, 1, 3);
        A.set(0, 0, -2), A.set(1, 0, 0), A.set(2, 0, 0);
        A.upload();
        EXPECT(geqrf(h, A, tau) == 0);
        EXPECT(A.at(0, 0) == Val(-2) && tau[0] == Val(0));
    }
    if (Solver<E>::complex) { /* 1 x 1 complex (3, 4): beta = -5, tau = (1.6, 0.8) */
        DevMat<E> A(1, 1, 1);
        A.set(0, 0, Val(3, 4));
        A.upload();
        EXPECT(geqrf(h, A, tau) == 0);
        EXPECT(A.at(0, 0) == Val(-5));
        EXPECT(std::abs(tau[0] - Val(1.6, 0.8)) <= 4 * eps<E>());
    }
    SOLVER_OK(cusolverDnDestroy(h));
}

/* ---- the Hermitian eigenproblem ---- */

template <class E>
static int syevd(cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo, DevMat<E> &A,
                 std::vector<double> &w)
{
    typedef Solver<E> S;
    typedef typename S::R R;
    const int n = A.rows;
    DevVec<R> W(std::max(n, 1), (R)-1);
    int lwork = 0;
    SOLVER_OK(S::syevd_bufferSize(h, jobz, uplo, n, A.dev, A.ld, W.dev, &lwork));
    EXPECT(lwork >= 1);
    Work<E> work(lwork);
    DevInt info;
    SOLVER_OK(S::syevd(h, jobz, uplo, n, A.dev, A.ld, W.dev, work.dev, lwork, info.dev));
    OK(cudaDeviceSynchronize());
    A.download();
    W.download();
    w.assign(W.host.begin(), W.host.begin() + n);
    return info.get();
}

template <class E>
static void case_syevd(void)
{
    cusolverDnHandle_t h = handle();
    const int n = 6;
    const Val junk(-1e4, 2);
    DevMat<E> M(n, n, n);
    fill(M);
    HM a(n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            a(i, j) = M.at(i, j) + std::conj(M.at(j, i));
    for (int i = 0; i < n; i++)
        a(i, i) = a(i, i).real();
    for (cublasFillMode_t uplo : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER}) {
        DevMat<E> A(n, n, n + 1);
        store_triangle(A, a, uplo, junk);
        HM full(n, n); /* the Hermitian matrix as stored */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                bool mine = uplo == CUBLAS_FILL_MODE_LOWER ? i >= j : i <= j;
                full(i, j) = mine ? A.at(i, j) : std::conj(A.at(j, i));
            }
        A.upload();
        std::vector<double> w, w2;
        EXPECT(syevd(h, CUSOLVER_EIG_MODE_VECTOR, uplo, A, w) == 0);
        EXPECT(A.gaps_kept());
        for (int i = 0; i + 1 < n; i++)
            EXPECT(w[i] <= w[i + 1]);
        HM V = from(A, n, n), VW = V;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                VW(i, j) *= w[j];
        const double tol = 30.0 * n * eps<E>();
        CHECK_SMALL(diff(mul(full, V), VW), tol * fro(full), "A V - V diag(w)");
        CHECK_SMALL(orthogonality(V), tol * n, "V^H V - I");
        /* without vectors: the same values, and the uplo triangle destroyed */
        DevMat<E> B(n, n, n + 1);
        store_triangle(B, a, uplo, junk);
        B.upload();
        EXPECT(syevd(h, CUSOLVER_EIG_MODE_NOVECTOR, uplo, B, w2) == 0);
        for (int i = 0; i < n; i++)
            CHECK_SMALL(std::abs(w[i] - w2[i]), tol * fro(full), "w without vectors");
        EXPECT(B.gaps_kept() && other_triangle_is(B, uplo, junk));
        for (int i = 0; i < n; i++)
            EXPECT(std::isnan(B.at(i, i).real()));
    }
    {   /* diag(3, -1, 2): ascending, exactly */
        DevMat<E> A(3, 3, 3);
        A.set(0, 0, 3), A.set(1, 1, -1), A.set(2, 2, 2);
        A.set(1, 0, 0), A.set(2, 0, 0), A.set(2, 1, 0);
        A.upload();
        std::vector<double> w;
        EXPECT(syevd(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, A, w) == 0);
        EXPECT(w[0] == -1 && w[1] == 2 && w[2] == 3);
        EXPECT(std::abs(A.at(1, 0)) == 1 && std::abs(A.at(2, 1)) == 1 && std::abs(A.at(0, 2)) == 1);
    }
    {   /* a repeated eigenvalue: 2 I, any orthonormal basis */
        DevMat<E> A(4, 4, 4);
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 4; i++)
                A.set(i, j, i == j ? 2.0 : 0.0);
        A.upload();
        std::vector<double> w;
        EXPECT(syevd(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_UPPER, A, w) == 0);
        EXPECT(w[0] == 2 && w[3] == 2);
        EXPECT(orthogonality(from(A, 4, 4)) <= 8 * eps<E>());
    }
    SOLVER_OK(cusolverDnDestroy(h));
}

/* ---- the SVD ---- */

/* gesvd with jobu/jobvt on a fresh copy of a (m x n); checks everything
 * the jobs ask for and returns s. */
template <class E>
static std::vector<double> check_svd(cusolverDnHandle_t h, const HM &a, signed char jobu, signed char jobvt)
{
    typedef Solver<E> S;
    typedef typename S::R R;
    const int m = a.r, n = a.c;
    const char ju = (char)toupper(jobu), jvt = (char)toupper(jobvt);
    const int ucols = ju == 'A' ? m : n;
    DevMat<E> A(m, n, m + 1), U(m, ucols, m + 2), VT(n, n, n + 1);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            A.set(i, j, a(i, j));
    A.upload(), U.upload(), VT.upload();
    DevVec<R> s(n, (R)-1), rwork(std::max(n - 1, 1), (R)42);
    int lwork = 0;
    SOLVER_OK(S::gesvd_bufferSize(h, m, n, &lwork));
    EXPECT(lwork >= 1);
    Work<E> w(lwork);
    DevInt info;
    SOLVER_OK(S::gesvd(h, jobu, jobvt, m, n, A.dev, A.ld, s.dev, U.dev, U.ld, VT.dev, VT.ld, w.dev, lwork,
                       rwork.dev, info.dev));
    OK(cudaDeviceSynchronize());
    A.download(), U.download(), VT.download(), s.download(), rwork.download();
    EXPECT(info.get() == 0);
    EXPECT(A.gaps_kept() && U.gaps_kept() && VT.gaps_kept());
    for (R x : rwork.host)
        EXPECT(x == (R)42);
    std::vector<double> sv(s.host.begin(), s.host.end());
    for (int i = 0; i < n; i++)
        EXPECT(sv[i] >= 0 && (i == 0 || sv[i] <= sv[i - 1]));
    const double tol = 30.0 * (m + n) * eps<E>();
    HM u(m, ucols), vt(n, n);
    bool have_u = ju != 'N', have_vt = jvt != 'N';
    if (ju == 'A' || ju == 'S')
        u = from(U, m, ucols);
    else if (ju == 'O')
        u = from(A, m, n);
    if (jvt == 'A' || jvt == 'S')
        vt = from(VT, n, n);
    else if (jvt == 'O')
        vt = from(A, n, n);
    if (ju != 'O' && jvt != 'O') /* A destroyed */
        EXPECT(std::isnan(A.at(0, 0).real()) && std::isnan(A.at(m - 1, n - 1).real()));
    if (jvt == 'O' && m > n)
        EXPECT(std::isnan(A.at(n, 0).real()));
    auto untouched = [](const DevMat<E> &x) {
        for (const E &e : x.host)
            if (memcmp(&e, &x.gap, sizeof(E)) != 0)
                return false;
        return true;
    };
    if (ju == 'N' || ju == 'O')
        EXPECT(untouched(U));
    if (jvt == 'N' || jvt == 'O')
        EXPECT(untouched(VT));
    if (have_u)
        CHECK_SMALL(orthogonality(u), tol * m, "U^H U - I");
    if (have_vt)
        CHECK_SMALL(orthogonality(adjoint(vt)), tol * n, "V^H V - I");
    if (have_u && have_vt) {
        HM us(m, n);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++)
                us(i, j) = u(i, j) * sv[j];
        CHECK_SMALL(diff(mul(us, vt), a), tol * fro(a) + tol, "U diag(s) VT - A");
    }
    return sv;
}

template <class E>
static void case_gesvd(void)
{
    cusolverDnHandle_t h = handle();
    const signed char jobs[][2] = {{'A', 'A'}, {'S', 'S'}, {'S', 'A'}, {'O', 'A'}, {'A', 'O'}, {'O', 'N'},
                                   {'N', 'O'}, {'s', 'a'}, {'N', 'N'}};
    const int shapes[][2] = {{6, 4}, {5, 5}, {7, 1}, {1, 1}};
    for (const auto &shape : shapes) {
        DevMat<E> M(shape[0], shape[1], shape[0]);
        fill(M);
        HM a = from(M, shape[0], shape[1]);
        std::vector<double> ref = check_svd<E>(h, a, 'A', 'A');
        for (const auto &job : jobs) {
            std::vector<double> s = check_svd<E>(h, a, job[0], job[1]);
            for (size_t i = 0; i < s.size(); i++)
                CHECK_SMALL(std::abs(s[i] - ref[i]), 30.0 * shape[0] * eps<E>() * ref[0], "s by job");
        }
    }
    {   /* rank 2 in 6 x 4: two zero singular values, U and V still complete */
        DevMat<E> X(6, 2, 6), Y(4, 2, 4);
        fill(X), fill(Y);
        HM a = mul(from(X, 6, 2), adjoint(from(Y, 4, 2)));
        std::vector<double> s = check_svd<E>(h, a, 'A', 'A');
        EXPECT(s[1] > 0.01 * s[0]);
        CHECK_SMALL(s[2], 30.0 * 6 * eps<E>() * s[0], "a zero singular value");
        check_svd<E>(h, a, 'S', 'S');
        HM z(5, 3); /* and the zero matrix */
        s = check_svd<E>(h, z, 'A', 'A');
        EXPECT(s[0] == 0 && s[2] == 0);
    }
    {   /* known values: [diag(1, 3, 2); 0] */
        HM a(4, 3);
        a(0, 0) = 1, a(1, 1) = 3, a(2, 2) = 2;
        std::vector<double> s = check_svd<E>(h, a, 'A', 'A');
        EXPECT(s[0] == 3 && s[1] == 2 && s[2] == 1);
    }
    SOLVER_OK(cusolverDnDestroy(h));
}

/* ---- the general eigenproblem ---- */

/* The eigenvectors as complex columns: VR itself for C and Z; for S and D,
 * LAPACK's layout (a pair j, j + 1: v(j) = VR(:, j) + i VR(:, j + 1)) */
template <class E>
static HM eigenvectors(const DevMat<E> &VR, const std::vector<Val> &w)
{
    const int n = VR.rows;
    HM v = from(VR, n, n);
    for (int j = 0; j + 1 < n && !Solver<E>::complex; j++) {
        if (w[(size_t)j].imag() <= 0)
            continue;
        for (int i = 0; i < n; i++) {
            const double re = VR.at(i, j).real(), im = VR.at(i, j + 1).real();
            v(i, j) = Val(re, im), v(i, j + 1) = Val(re, -im);
        }
        j++;
    }
    return v;
}

static std::vector<Val> sorted(std::vector<Val> w)
{
    std::sort(w.begin(), w.end(), [](Val a, Val b) { return a.real() != b.real() ? a.real() < b.real() : a.imag() < b.imag(); });
    return w;
}

/* Xgeev: A V = V diag(w) with unit columns whose largest component is
 * real; for real types LAPACK's layout (conjugate pairs exact and
 * adjacent, the positive imaginary part first); the same w without
 * vectors; A destroyed, the gaps kept; known answers. */
template <class E>
static void case_geev(void)
{
    cusolverDnHandle_t h = handle();
    const int n = 6;
    const double tol = 30.0 * n * eps<E>();
    for (int round = 0; round < 3; round++) {
        DevMat<E> A(n, n, n + 1), B(n, n, n + 2), VR(n, n, n + 1);
        fill(A);
        A.upload();
        VR.upload(); /* the gaps */
        const HM a = from(A, n, n);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                B.set(i, j, a(i, j));
        B.upload();
        std::vector<Val> w, w2;
        EXPECT(geev(h, A, &VR, w) == 0);
        EXPECT(A.gaps_kept());
        EXPECT(VR.gaps_kept());
        EXPECT(std::isnan(A.at(0, 0).real()));
        const HM v = eigenvectors(VR, w);
        HM vw = v;
        for (int j = 0; j < n; j++) {
            double big = 0, norm = 0;
            Val top;
            for (int i = 0; i < n; i++) {
                vw(i, j) *= w[(size_t)j];
                norm += std::norm(v(i, j));
                if (std::abs(v(i, j)) > big)
                    big = std::abs(v(i, j)), top = v(i, j);
            }
            CHECK_SMALL(std::abs(std::sqrt(norm) - 1), tol, "unit eigenvectors");
            CHECK_SMALL(std::abs(top.imag()), tol, "the largest component real");
        }
        CHECK_SMALL(diff(mul(a, v), vw), tol * fro(a), "A V - V diag(w)");
        for (int j = 0; j < n && !Solver<E>::complex; j++) {
            if (w[(size_t)j].imag() == 0)
                continue;
            EXPECT(w[(size_t)j].imag() > 0 && j + 1 < n && w[(size_t)j + 1] == std::conj(w[(size_t)j]));
            j++;
        }
        EXPECT(geev<E>(h, B, nullptr, w2) == 0);
        const std::vector<Val> s1 = sorted(w), s2 = sorted(w2);
        for (int j = 0; j < n; j++)
            CHECK_SMALL(std::abs(s1[(size_t)j] - s2[(size_t)j]), tol * fro(a), "w without vectors");
    }
    {   /* [[1, 2], [0, 3]]: 1 and 3 with real vectors (1, 0) and (1, 1) / sqrt 2 */
        DevMat<E> A(2, 2, 2), VR(2, 2, 2);
        A.set(0, 0, 1), A.set(0, 1, 2), A.set(1, 0, 0), A.set(1, 1, 3);
        A.upload();
        std::vector<Val> w;
        EXPECT(geev(h, A, &VR, w) == 0);
        std::vector<Val> s = sorted(w);
        CHECK_SMALL(std::abs(s[0] - Val(1)) + std::abs(s[1] - Val(3)), 8 * eps<E>(), "eigenvalues 1, 3");
        EXPECT(w[0].imag() == 0 && w[1].imag() == 0);
        const int one = w[0].real() < 2 ? 0 : 1;
        CHECK_SMALL(std::abs(std::abs(VR.at(0, one)) - 1) + std::abs(VR.at(1, one)), 8 * eps<E>(), "(1, 0)");
        CHECK_SMALL(std::abs(std::abs(VR.at(0, 1 - one)) - std::sqrt(0.5)), 8 * eps<E>(), "(1, 1) / sqrt 2");
    }
    {   /* the rotation [[0, -1], [1, 0]]: i then -i for real types */
        DevMat<E> A(2, 2, 2), VR(2, 2, 2);
        A.set(0, 0, 0), A.set(0, 1, -1), A.set(1, 0, 1), A.set(1, 1, 0);
        A.upload();
        std::vector<Val> w;
        EXPECT(geev(h, A, &VR, w) == 0);
        CHECK_SMALL(std::abs(sorted(w)[0] - Val(0, -1)) + std::abs(sorted(w)[1] - Val(0, 1)), 8 * eps<E>(), "+-i");
        if (!Solver<E>::complex)
            EXPECT(w[0].imag() > 0 && w[1] == std::conj(w[0]));
    }
    {   /* n = 0: devInfo 0, nothing else */
        DevMat<E> A(0, 0, 1);
        std::vector<Val> w;
        EXPECT(geev<E>(h, A, nullptr, w) == 0 && w.empty());
    }
    SOLVER_OK(cusolverDnDestroy(h));
}

/* ---- the case table ---- */

template <class E>
static void add(std::vector<Case> &v)
{
    std::string t = Solver<E>::name;
    v.push_back(Case{"getrf_" + t, case_getrf<E>});
    v.push_back(Case{"getrs_" + t, case_getrs<E>});
    v.push_back(Case{"potrf_" + t, case_potrf<E>});
    v.push_back(Case{"qr_" + t, case_qr<E>});
    v.push_back(Case{"syevd_" + t, case_syevd<E>});
    v.push_back(Case{"gesvd_" + t, case_gesvd<E>});
    v.push_back(Case{"geev_" + t, case_geev<E>});
}

std::vector<Case> value_cases()
{
    std::vector<Case> v;
    add<float>(v);
    add<double>(v);
    add<cuComplex>(v);
    add<cuDoubleComplex>(v);
    return v;
}
