/* emu_solver_test.h - what the files of the emulated cuSOLVER's test
 * program share (emu_solver_test.cpp: the API, argument checks, extents,
 * streams and errors; emu_solver_values.cpp: what each routine computes;
 * emu_solver_oracle.cpp: results printed for NumPy to judge):
 * the checking macros, a handle, the case table's entries, the typed entry
 * points of one element type as one struct (Solver<E>), and operands on the
 * device: a matrix with gaps between its columns, devInfo, a workspace, a
 * vector. */
#ifndef DT_EMU_SOLVER_TEST_H
#define DT_EMU_SOLVER_TEST_H

#include <cusolverDn.h>

#include "emu_test.h"

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>


#define EXPECT_ST(call, code)                                                                    \
    do {                                                                                         \
        cusolverStatus_t s_ = (call);                                                            \
        if (s_ != (code)) {                                                                      \
            printf("FAIL %s:%d: %s gave %d, wanted %s\n", __FILE__, __LINE__, #call, (int)s_, #code); \
            failures++;                                                                          \
        }                                                                                        \
    } while (0)
#define SOLVER_OK(call) EXPECT_ST(call, CUSOLVER_STATUS_SUCCESS)

static inline cusolverDnHandle_t handle()
{
    cusolverDnHandle_t h = nullptr;
    SOLVER_OK(cusolverDnCreate(&h));
    return h;
}

/* emu_solver_values.cpp's cases: <routine>_<s|d|c|z> */
std::vector<Case> value_cases();
/* emu_solver_oracle.cpp's: oracle_<s|d|c|z> */
std::vector<Case> oracle_cases();

/* ---- one element type's entry points ---- */

template <class E>
struct Solver;

#define DT_TEST_SOLVER(E, RT, X, ORGQR, SYEVD, NAME, TYPE)                                       \
    template <>                                                                                  \
    struct Solver<E> {                                                                           \
        typedef RT R;                                                                            \
        static constexpr const char *name = NAME;                                                \
        static constexpr cudaDataType type = TYPE; /* for the generic API (Xgeev) */             \
        static constexpr bool complex = sizeof(E) == 2 * sizeof(RT);                             \
        static constexpr auto potrf_bufferSize = cusolverDn##X##potrf_bufferSize;                \
        static constexpr auto potrf = cusolverDn##X##potrf;                                      \
        static constexpr auto getrf_bufferSize = cusolverDn##X##getrf_bufferSize;                \
        static constexpr auto getrf = cusolverDn##X##getrf;                                      \
        static constexpr auto getrs = cusolverDn##X##getrs;                                      \
        static constexpr auto geqrf_bufferSize = cusolverDn##X##geqrf_bufferSize;                \
        static constexpr auto geqrf = cusolverDn##X##geqrf;                                      \
        static constexpr auto orgqr_bufferSize = cusolverDn##X##ORGQR##_bufferSize;              \
        static constexpr auto orgqr = cusolverDn##X##ORGQR;                                      \
        static constexpr auto syevd_bufferSize = cusolverDn##X##SYEVD##_bufferSize;              \
        static constexpr auto syevd = cusolverDn##X##SYEVD;                                      \
        static constexpr auto gesvd_bufferSize = cusolverDn##X##gesvd_bufferSize;                \
        static constexpr auto gesvd = cusolverDn##X##gesvd;                                      \
    };
DT_TEST_SOLVER(float, float, S, orgqr, syevd, "s", CUDA_R_32F)
DT_TEST_SOLVER(double, double, D, orgqr, syevd, "d", CUDA_R_64F)
DT_TEST_SOLVER(cuComplex, float, C, ungqr, heevd, "c", CUDA_C_32F)
DT_TEST_SOLVER(cuDoubleComplex, double, Z, ungqr, heevd, "z", CUDA_C_64F)
#undef DT_TEST_SOLVER

typedef std::complex<double> Val;

static inline Val val(float v) { return v; }
static inline Val val(double v) { return v; }
static inline Val val(cuComplex v) { return Val(v.x, v.y); }
static inline Val val(cuDoubleComplex v) { return Val(v.x, v.y); }
static inline Val val(Val v) { return v; }
template <class E>
E make(Val v);
template <>
inline float make<float>(Val v) { return (float)v.real(); }
template <>
inline double make<double>(Val v) { return v.real(); }
template <>
inline cuComplex make<cuComplex>(Val v) { return cuComplex{(float)v.real(), (float)v.imag()}; }
template <>
inline cuDoubleComplex make<cuDoubleComplex>(Val v) { return cuDoubleComplex{v.real(), v.imag()}; }

/* the unit roundoff of E's real type */
template <class E>
double eps() { return sizeof(typename Solver<E>::R) == 4 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53); }

/* ---- a matrix on the device ---- */

/* rows x cols elements of E, column-major with leading dimension ld >=
 * rows, as a host copy and a device allocation of exactly (cols - 1) * ld
 * + rows elements; the gaps below each column hold `gap` and must keep
 * it. */
template <class E>
struct DevMat {
    int rows = 0, cols = 0, ld = 1;
    std::vector<E> host;
    E *dev = nullptr;
    E gap;
    DevMat(int r, int c, int l, Val gap_value = Val(-7777.25, 3.5)) : rows(r), cols(c), ld(l), gap(make<E>(gap_value))
    {
        size_t n = count();
        host.assign(n, gap);
        if (n > 0)
            OK(cudaMalloc((void **)&dev, n * sizeof(E)));
    }
    DevMat(const DevMat &) = delete;
    DevMat &operator=(const DevMat &) = delete;
    ~DevMat()
    {
        if (dev != nullptr)
            OK(cudaFree(dev));
    }
    size_t count() const { return rows == 0 || cols == 0 ? 0 : (size_t)(cols - 1) * ld + rows; }
    Val at(int i, int j) const { return val(host[(size_t)j * ld + i]); }
    void set(int i, int j, Val v) { host[(size_t)j * ld + i] = make<E>(v); }
    void upload() { OK(cudaMemcpy(dev, host.data(), count() * sizeof(E), cudaMemcpyHostToDevice)); }
    void download() { OK(cudaMemcpy(host.data(), dev, count() * sizeof(E), cudaMemcpyDeviceToHost)); }
    /* every gap element still `gap`, bit for bit */
    bool gaps_kept() const
    {
        for (int j = 0; j + 1 < cols; j++)
            for (int i = rows; i < ld; i++)
                if (memcmp(&host[(size_t)j * ld + i], &gap, sizeof(E)) != 0)
                    return false;
        return true;
    }
};

/* One int on the device (devInfo), preset so that a write shows. */
struct DevInt {
    int *dev = nullptr;
    explicit DevInt(int preset = 12345)
    {
        OK(cudaMalloc((void **)&dev, sizeof(int)));
        set(preset);
    }
    DevInt(const DevInt &) = delete;
    DevInt &operator=(const DevInt &) = delete;
    ~DevInt() { OK(cudaFree(dev)); }
    void set(int v) { OK(cudaMemcpy(dev, &v, sizeof v, cudaMemcpyHostToDevice)); }
    int get() const
    {
        int v = 0;
        OK(cudaMemcpy(&v, dev, sizeof v, cudaMemcpyDeviceToHost));
        return v;
    }
};

/* a workspace of the size asked, on the device */
template <class E>
struct Work {
    int n;
    E *dev = nullptr;
    explicit Work(int lwork) : n(lwork) { OK(cudaMalloc((void **)&dev, (size_t)lwork * sizeof(E))); }
    Work(const Work &) = delete;
    Work &operator=(const Work &) = delete;
    ~Work() { OK(cudaFree(dev)); }
};

/* a device vector of n elements of T, and its host copy */
template <class T>
struct DevVec {
    std::vector<T> host;
    T *dev = nullptr;
    explicit DevVec(int n, T preset = T()) : host((size_t)n, preset)
    {
        if (n > 0) {
            OK(cudaMalloc((void **)&dev, (size_t)n * sizeof(T)));
            upload();
        }
    }
    DevVec(const DevVec &) = delete;
    DevVec &operator=(const DevVec &) = delete;
    ~DevVec()
    {
        if (dev != nullptr)
            OK(cudaFree(dev));
    }
    void upload() { OK(cudaMemcpy(dev, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice)); }
    void download() { OK(cudaMemcpy(host.data(), dev, host.size() * sizeof(T), cudaMemcpyDeviceToHost)); }
};

/* ---- the general eigenproblem ---- */

/* cusolverDnXgeev of A (n x n) with every type A's (W: n elements, or 2n
 * reals for S and D) and the workspace sizes its bufferSize answers;
 * returns devInfo, with the eigenvalues in w (complex) and, where VR is not
 * NULL, VR (n x n, its own leading dimension) downloaded. */
template <class E>
static int geev(cusolverDnHandle_t h, DevMat<E> &A, DevMat<E> *VR, std::vector<Val> &w)
{
    typedef Solver<E> S;
    const int n = A.rows;
    const cudaDataType t = S::type;
    const cusolverEigMode_t no = CUSOLVER_EIG_MODE_NOVECTOR;
    const cusolverEigMode_t jobvr = VR != nullptr ? CUSOLVER_EIG_MODE_VECTOR : no;
    DevVec<E> W(std::max(S::complex ? n : 2 * n, 1));
    cusolverDnParams_t params = nullptr;
    SOLVER_OK(cusolverDnCreateParams(&params));
    size_t device_bytes = 0, host_bytes = 0;
    E *vr = VR != nullptr ? VR->dev : nullptr;
    const int ldvr = VR != nullptr ? VR->ld : 1;
    SOLVER_OK(cusolverDnXgeev_bufferSize(h, params, no, jobvr, n, t, A.dev, A.ld, t, W.dev, t, nullptr, 1, t, vr, ldvr,
                                         t, &device_bytes, &host_bytes));
    void *device_work = nullptr;
    OK(cudaMalloc(&device_work, device_bytes));
    std::vector<char> host_work(host_bytes);
    DevInt info;
    SOLVER_OK(cusolverDnXgeev(h, params, no, jobvr, n, t, A.dev, A.ld, t, W.dev, t, nullptr, 1, t, vr, ldvr, t,
                              device_work, device_bytes, host_work.data(), host_bytes, info.dev));
    OK(cudaDeviceSynchronize());
    OK(cudaFree(device_work));
    SOLVER_OK(cusolverDnDestroyParams(params));
    A.download();
    W.download();
    if (VR != nullptr)
        VR->download();
    w.clear();
    for (int j = 0; j < n; j++)
        w.push_back(S::complex ? val(W.host[(size_t)j]) : Val(val(W.host[(size_t)j]).real(),
                                                              val(W.host[(size_t)(n + j)]).real()));
    return info.get();
}

#endif /* DT_EMU_SOLVER_TEST_H */
