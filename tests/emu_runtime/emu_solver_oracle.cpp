/* emu_solver_oracle.cpp - the emulated cuSOLVER's results printed for
 * NumPy's LAPACK to judge (third file of tests/emu_runtime/emu_solver_test):
 * `emu_solver_test oracle_<s|d|c|z>` runs getrf, potrf, geqrf, syevd,
 * gesvd and Xgeev on fixed pseudo-random inputs and prints inputs and outputs, one
 * array a line ("name rows cols re im re im ...", column-major, %a), and
 * tests/test_emu_solver.py compares them with numpy.linalg: geqrf's
 * reflectors and tau with qr(mode='raw') (LAPACK's geqrf itself), the
 * pivots with partial pivoting's, the Cholesky factor, eigenvalues (of
 * the Hermitian and of the general problem) and singular values.
 */
#include "emu_solver_test.h"

#include <cuda_runtime.h>

#include <algorithm>

static uint64_t state = 0x9E3779B97F4A7C15ull;
static double next() /* in [-1, 1) */
{
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return (double)(state >> 11) / 4503599627370496.0 - 1.0;
}

template <class E>
static void print(const char *name, const DevMat<E> &m)
{
    printf("%s %d %d", name, m.rows, m.cols);
    for (int j = 0; j < m.cols; j++)
        for (int i = 0; i < m.rows; i++)
            printf(" %a %a", m.at(i, j).real(), m.at(i, j).imag());
    printf("\n");
}
template <class T>
static void print_vec(const char *name, const std::vector<T> &v)
{
    printf("%s %zu 1", name, v.size());
    for (const T &x : v)
        printf(" %a %a", val(x).real(), val(x).imag());
    printf("\n");
}
static void print_ints(const char *name, const std::vector<int> &v)
{
    printf("%s %zu 1", name, v.size());
    for (int x : v)
        printf(" %d 0", x);
    printf("\n");
}

template <class E>
static void random(DevMat<E> &m)
{
    for (int j = 0; j < m.cols; j++)
        for (int i = 0; i < m.rows; i++)
            m.set(i, j, Val(next(), Solver<E>::complex ? next() : 0.0));
    m.upload();
}

template <class T>
static std::vector<T> from_device(const T *p, int n)
{
    std::vector<T> v((size_t)n);
    OK(cudaMemcpy(v.data(), p, (size_t)n * sizeof(T), cudaMemcpyDeviceToHost));
    return v;
}

template <class E>
static void oracle()
{
    typedef Solver<E> S;
    typedef typename S::R R;
    cusolverDnHandle_t h = handle();
    const int m = 7, n = 5, lw = 256;
    E *work, *tau;
    R *w;
    int *ipiv;
    DevInt info;
    OK(cudaMalloc((void **)&work, lw * sizeof(E)));
    OK(cudaMalloc((void **)&tau, n * sizeof(E)));
    OK(cudaMalloc((void **)&w, m * sizeof(R)));
    OK(cudaMalloc((void **)&ipiv, m * sizeof(int)));
    {
        DevMat<E> A(m, n, m + 1);
        random(A);
        print("geqrf_in", A);
        SOLVER_OK(S::geqrf(h, m, n, A.dev, A.ld, tau, work, lw, info.dev));
        OK(cudaDeviceSynchronize());
        A.download();
        print("geqrf_a", A);
        print_vec("geqrf_tau", from_device(tau, n));
    }
    {
        DevMat<E> A(m, m, m);
        random(A);
        print("getrf_in", A);
        SOLVER_OK(S::getrf(h, m, m, A.dev, A.ld, work, ipiv, info.dev));
        OK(cudaDeviceSynchronize());
        A.download();
        print("getrf_lu", A);
        print_ints("getrf_ipiv", from_device(ipiv, m));
    }
    {
        DevMat<E> M(m, m, m), A(m, m, m);
        random(M);
        for (int j = 0; j < m; j++) /* A = M + M^H, lower triangle */
            for (int i = 0; i < m; i++)
                A.set(i, j, i >= j ? M.at(i, j) + std::conj(M.at(j, i)) : Val(0));
        for (int i = 0; i < m; i++)
            A.set(i, i, A.at(i, i).real());
        A.upload();
        print("syevd_in", A);
        SOLVER_OK(S::syevd(h, CUSOLVER_EIG_MODE_NOVECTOR, CUBLAS_FILL_MODE_LOWER, m, A.dev, A.ld, w, work, lw,
                           info.dev));
        print_vec("syevd_w", from_device(w, m));
        for (int i = 0; i < m; i++) /* and + 2m I: positive definite, for potrf */
            A.set(i, i, A.at(i, i) + Val(2.0 * m));
        A.upload();
        print("potrf_in", A);
        SOLVER_OK(S::potrf(h, CUBLAS_FILL_MODE_LOWER, m, A.dev, A.ld, work, lw, info.dev));
        OK(cudaDeviceSynchronize());
        A.download();
        print("potrf_l", A);
    }
    {
        DevMat<E> A(m, n, m);
        random(A);
        print("gesvd_in", A);
        SOLVER_OK(S::gesvd(h, 'N', 'N', m, n, A.dev, A.ld, w, nullptr, 1, nullptr, 1, work, lw, nullptr, info.dev));
        print_vec("gesvd_s", from_device(w, n));
    }
    {
        DevMat<E> A(m, m, m);
        random(A);
        print("geev_in", A);
        std::vector<Val> eigenvalues;
        EXPECT(geev<E>(h, A, nullptr, eigenvalues) == 0);
        print_vec("geev_w", eigenvalues);
    }
    for (void *p : {(void *)work, (void *)tau, (void *)w, (void *)ipiv})
        OK(cudaFree(p));
    SOLVER_OK(cusolverDnDestroy(h));
}

std::vector<Case> oracle_cases()
{
    return {{"oracle_s", oracle<float>},
            {"oracle_d", oracle<double>},
            {"oracle_c", oracle<cuComplex>},
            {"oracle_z", oracle<cuDoubleComplex>}};
}
