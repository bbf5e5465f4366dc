/* emu_fft_test.cpp - cases for the CPU emulation of cuFFT
 * (csrc/emu/emu_fft.cpp) on the emulated runtime (csrc/emu/emu_runtime.cpp),
 * one per run: `emu_fft_test CASE` prints "PASS CASE" and exits 0, or
 * prints what failed and exits 1.  tests/test_emu_fft.py builds it and runs
 * every case in its own process with the environment the case needs.
 * Here: plans, statuses, argument checks, extents, work areas, stream
 * order, devices, and the values of every transform type against a direct
 * summation in long double.  No kernels are launched: the kernel half
 * (emu_launch.h) is a stub that refuses every launch.
 */
#include <cufft.h>
#include <cuda_runtime.h>

#include "emu_runtime.h"
#include "emu_test.h"

#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

/* ---- the kernel half: no kernels here ---- */

EMU_TEST_NO_KERNELS

/* ---- checking ---- */

#define EXPECT_FFT(call, code)                                                          \
    do {                                                                                \
        cufftResult r_ = (call);                                                        \
        if (r_ != (code)) {                                                             \
            printf("FAIL %s:%d: %s gave %d, wanted %s\n", __FILE__, __LINE__, #call,    \
                   (int)r_, #code);                                                     \
            failures++;                                                                 \
        }                                                                               \
    } while (0)
#define FFT_OK(call) EXPECT_FFT(call, CUFFT_SUCCESS)

using Cd = std::complex<double>;

static cudaError_t zero(void *p, size_t n)
{
    std::vector<char> z(n, 0);
    return cudaMemcpy(p, z.data(), n, cudaMemcpyHostToDevice);
}
using Cl = std::complex<long double>;

/* a plan made for the arguments, its work area from cudaMalloc */
struct Made {
    cufftHandle plan = -1;
    void *work = nullptr;
    size_t size = 0;
};

static Made make(int rank, std::vector<long long> n, cufftType type, long long batch)
{
    Made m;
    FFT_OK(cufftCreate(&m.plan));
    FFT_OK(cufftSetAutoAllocation(m.plan, 0));
    FFT_OK(cufftMakePlanMany64(m.plan, rank, n.data(), nullptr, 1, 0, nullptr, 1, 0, type, batch,
                               &m.size));
    OK(cudaMalloc(&m.work, m.size > 0 ? m.size : 1));
    FFT_OK(cufftSetWorkArea(m.plan, m.work));
    return m;
}

static void release(Made &m)
{
    FFT_OK(cufftDestroy(m.plan));
    OK(cudaFree(m.work));
}

/* ---- the oracle: direct sums in long double ---- */

/* the unnormalised multi-dimensional transform of x (C order, shape n) */
static std::vector<Cl> dft(const std::vector<Cl> &x, const std::vector<long long> &n, int sign)
{
    std::vector<Cl> a = x;
    const long double pi = acosl(-1.0L);
    long long inner = 1;
    for (size_t d = n.size(); d-- > 0;) {
        long long len = n[d], outer = (long long)a.size() / (len * inner);
        std::vector<Cl> res(a.size());
        for (long long o = 0; o < outer; o++)
            for (long long i = 0; i < inner; i++)
                for (long long k = 0; k < len; k++) {
                    Cl s = 0;
                    for (long long j = 0; j < len; j++) {
                        long double ang = sign * 2 * pi * (long double)((j * k) % len) / len;
                        s += a[(o * len + j) * inner + i] * Cl(cosl(ang), sinl(ang));
                    }
                    res[(o * len + k) * inner + i] = s;
                }
        a = res;
        inner *= len;
    }
    return a;
}

static std::vector<Cl> inputs(long long count, unsigned seed, bool real)
{
    std::vector<Cl> v((size_t)count);
    unsigned s = seed * 2654435761u + 1;
    for (auto &z : v) {
        s = s * 1103515245u + 12345u;
        long double re = ((s >> 8) % 2001) / 1000.0L - 1;
        s = s * 1103515245u + 12345u;
        long double im = real ? 0 : ((s >> 8) % 2001) / 1000.0L - 1;
        z = Cl(re, im);
    }
    return v;
}

static long long prod(const std::vector<long long> &n)
{
    long long p = 1;
    for (long long v : n)
        p *= v;
    return p;
}

static bool close(Cl got, Cl want, long double tol)
{
    return std::abs(got - want) <= tol * (1 + std::abs(want));
}

/* C2C or Z2Z, forward and inverse, batch of 3, against dft */
template <class T>
static void check_c2c(const std::vector<long long> &n, cufftType type)
{
    const long long batch = 3, per = prod(n), total = per * batch;
    const long double tol = sizeof(T) == 8 ? 1e-5L : 1e-12L;
    std::vector<Cl> x = inputs(total, (unsigned)per, false);
    std::vector<T> host((size_t)total), out((size_t)total);
    for (long long i = 0; i < total; i++) {
        host[(size_t)i].x = (decltype(host[0].x))x[(size_t)i].real();
        host[(size_t)i].y = (decltype(host[0].x))x[(size_t)i].imag();
    }
    void *din, *dout;
    OK(cudaMalloc(&din, total * sizeof(T)));
    OK(cudaMalloc(&dout, total * sizeof(T)));
    OK(cudaMemcpy(din, host.data(), total * sizeof(T), cudaMemcpyHostToDevice));
    Made m = make((int)n.size(), n, type, batch);
    for (int sign : {CUFFT_FORWARD, CUFFT_INVERSE}) {
        if (type == CUFFT_C2C)
            FFT_OK(cufftExecC2C(m.plan, (cufftComplex *)din, (cufftComplex *)dout, sign));
        else
            FFT_OK(cufftExecZ2Z(m.plan, (cufftDoubleComplex *)din, (cufftDoubleComplex *)dout, sign));
        OK(cudaMemcpy(out.data(), dout, total * sizeof(T), cudaMemcpyDeviceToHost));
        for (long long b = 0; b < batch; b++) {
            std::vector<Cl> one(x.begin() + b * per, x.begin() + (b + 1) * per);
            std::vector<Cl> want = dft(one, n, sign);
            for (long long i = 0; i < per; i++)
                EXPECT(close(Cl(out[(size_t)(b * per + i)].x, out[(size_t)(b * per + i)].y),
                             want[(size_t)i], tol * per));
        }
    }
    /* in place */
    if (type == CUFFT_Z2Z) {
        FFT_OK(cufftExecZ2Z(m.plan, (cufftDoubleComplex *)din, (cufftDoubleComplex *)din, CUFFT_FORWARD));
        OK(cudaMemcpy(out.data(), din, total * sizeof(T), cudaMemcpyDeviceToHost));
        std::vector<Cl> one(x.begin(), x.begin() + per), want = dft(one, n, CUFFT_FORWARD);
        for (long long i = 0; i < per; i++)
            EXPECT(close(Cl(out[(size_t)i].x, out[(size_t)i].y), want[(size_t)i], tol * per));
    }
    release(m);
    OK(cudaFree(din));
    OK(cudaFree(dout));
}

/* R2C then C2R (or D2Z, Z2D): the half spectrum against dft, and back */
template <class R, class T>
static void check_real(const std::vector<long long> &n, cufftType fwd, cufftType inv)
{
    const long long batch = 2, per = prod(n), last = n.back(), hl = last / 2 + 1;
    const long long half = per / last * hl;
    const long double tol = sizeof(R) == 4 ? 1e-5L : 1e-12L;
    std::vector<Cl> x = inputs(per * batch, (unsigned)(per + 7), true);
    std::vector<R> host((size_t)(per * batch)), back((size_t)(per * batch));
    for (size_t i = 0; i < host.size(); i++)
        host[i] = (R)x[i].real();
    std::vector<T> spec((size_t)(half * batch));
    void *din, *dspec, *dback;
    OK(cudaMalloc(&din, host.size() * sizeof(R)));
    OK(cudaMalloc(&dspec, spec.size() * sizeof(T)));
    OK(cudaMalloc(&dback, back.size() * sizeof(R)));
    OK(cudaMemcpy(din, host.data(), host.size() * sizeof(R), cudaMemcpyHostToDevice));
    Made f = make((int)n.size(), n, fwd, batch), b = make((int)n.size(), n, inv, batch);
    if (fwd == CUFFT_R2C)
        FFT_OK(cufftExecR2C(f.plan, (cufftReal *)din, (cufftComplex *)dspec));
    else
        FFT_OK(cufftExecD2Z(f.plan, (cufftDoubleReal *)din, (cufftDoubleComplex *)dspec));
    OK(cudaMemcpy(spec.data(), dspec, spec.size() * sizeof(T), cudaMemcpyDeviceToHost));
    for (long long k = 0; k < batch; k++) {
        std::vector<Cl> one(x.begin() + k * per, x.begin() + (k + 1) * per);
        std::vector<Cl> want = dft(one, n, CUFFT_FORWARD);
        for (long long r = 0; r < per / last; r++)
            for (long long j = 0; j < hl; j++) {
                const T &g = spec[(size_t)(k * half + r * hl + j)];
                EXPECT(close(Cl(g.x, g.y), want[(size_t)(r * last + j)], tol * per));
            }
    }
    if (inv == CUFFT_C2R)
        FFT_OK(cufftExecC2R(b.plan, (cufftComplex *)dspec, (cufftReal *)dback));
    else
        FFT_OK(cufftExecZ2D(b.plan, (cufftDoubleComplex *)dspec, (cufftDoubleReal *)dback));
    OK(cudaMemcpy(back.data(), dback, back.size() * sizeof(R), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < back.size(); i++) /* unnormalised: per times the input */
        EXPECT(close(Cl(back[i], 0), x[i] * (long double)per, tol * per));
    /* C2R destroys its input, as cuFFT documents */
    std::vector<T> after(spec.size());
    OK(cudaMemcpy(after.data(), dspec, after.size() * sizeof(T), cudaMemcpyDeviceToHost));
    EXPECT(memcmp(after.data(), spec.data(), after.size() * sizeof(T)) != 0);
    release(f);
    release(b);
    OK(cudaFree(din));
    OK(cudaFree(dspec));
    OK(cudaFree(dback));
}

/* ---- cases ---- */

static void case_plans()
{
    cufftHandle p = -1, q = -1;
    FFT_OK(cufftCreate(&p));
    FFT_OK(cufftCreate(&q));
    EXPECT(p != q);
    long long n[3] = {8, 4, 2}, zero[1] = {0};
    size_t ws = 0;
    EXPECT_FFT(cufftMakePlanMany64(p, 0, n, nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2C, 1, &ws), CUFFT_INVALID_SIZE);
    EXPECT_FFT(cufftMakePlanMany64(p, 4, n, nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2C, 1, &ws), CUFFT_INVALID_SIZE);
    EXPECT_FFT(cufftMakePlanMany64(p, 1, zero, nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2C, 1, &ws), CUFFT_INVALID_SIZE);
    EXPECT_FFT(cufftMakePlanMany64(p, 1, n, nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2C, 0, &ws), CUFFT_INVALID_SIZE);
    EXPECT_FFT(cufftMakePlanMany64(p, 1, n, nullptr, 1, 0, nullptr, 1, 0, (cufftType)0x7, 1, &ws),
               CUFFT_INVALID_TYPE);
    EXPECT_FFT(cufftMakePlanMany64(p, 1, n, n, 1, 8, nullptr, 1, 0, CUFFT_C2C, 1, &ws), CUFFT_NOT_IMPLEMENTED);
    EXPECT_FFT(cufftMakePlanMany64(p, 1, n, nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2C, 1, nullptr),
               CUFFT_INVALID_VALUE);
    long long huge[3] = {1LL << 40, 1LL << 40, 1LL << 40};
    EXPECT_FFT(cufftMakePlanMany64(p, 3, huge, nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2C, 1, &ws), CUFFT_INVALID_SIZE);
    /* nothing above made the plan */
    FFT_OK(cufftSetAutoAllocation(p, 0));
    FFT_OK(cufftMakePlanMany64(p, 3, n, nullptr, 1, 0, nullptr, 1, 0, CUFFT_Z2Z, 5, &ws));
    EXPECT(ws >= 64 * 16);
    EXPECT_FFT(cufftMakePlanMany64(p, 1, n, nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2C, 1, &ws), CUFFT_INVALID_PLAN);
    EXPECT_FFT(cufftSetAutoAllocation(p, 1), CUFFT_INVALID_PLAN);
    FFT_OK(cufftDestroy(p));
    FFT_OK(cufftDestroy(q));
    /* destroyed plans stay invalid; ids are not reused */
    EXPECT_FFT(cufftDestroy(p), CUFFT_INVALID_PLAN);
    EXPECT_FFT(cufftSetStream(p, nullptr), CUFFT_INVALID_PLAN);
    EXPECT_FFT(cufftSetWorkArea(q, nullptr), CUFFT_INVALID_PLAN);
    EXPECT_FFT(cufftExecC2C(p, nullptr, nullptr, CUFFT_FORWARD), CUFFT_INVALID_PLAN);
    EXPECT_FFT(cufftDestroy(12345), CUFFT_INVALID_PLAN);
    cufftHandle r = -1;
    FFT_OK(cufftCreate(&r));
    EXPECT(r != p && r != q);
    /* a plan not made cannot run */
    EXPECT_FFT(cufftExecZ2Z(r, nullptr, nullptr, CUFFT_FORWARD), CUFFT_INVALID_PLAN);
    EXPECT_FFT(cufftCreate(nullptr), CUFFT_INVALID_VALUE);
    FFT_OK(cufftDestroy(r));
}

static void case_no_devices()
{
    cufftHandle p = 77;
    EXPECT_FFT(cufftCreate(&p), CUFFT_SETUP_FAILED);
    EXPECT_FFT(cufftCreate(nullptr), CUFFT_INVALID_VALUE);
}

static void case_exec_checks()
{
    const long long n = 16;
    Made m = make(1, {n}, CUFFT_C2C, 2);
    cufftComplex *a, *b;
    OK(cudaMalloc((void **)&a, 4 * n * sizeof(cufftComplex)));
    OK(cudaMalloc((void **)&b, 4 * n * sizeof(cufftComplex)));
    OK(zero(b, 4 * n * sizeof(cufftComplex)));
    std::vector<cufftComplex> host(2 * n);
    EXPECT_FFT(cufftExecZ2Z(m.plan, (cufftDoubleComplex *)a, (cufftDoubleComplex *)b, CUFFT_FORWARD),
               CUFFT_INVALID_TYPE);
    EXPECT_FFT(cufftExecC2C(m.plan, a, b, 0), CUFFT_INVALID_VALUE);
    EXPECT_FFT(cufftExecC2C(m.plan, host.data(), b, CUFFT_FORWARD), CUFFT_INVALID_VALUE);
    EXPECT_FFT(cufftExecC2C(m.plan, a, host.data(), CUFFT_FORWARD), CUFFT_INVALID_VALUE);
    EXPECT_FFT(cufftExecC2C(m.plan, a, nullptr, CUFFT_FORWARD), CUFFT_INVALID_VALUE);
    /* past the allocation: the batch of 2 needs 2 n elements */
    EXPECT_FFT(cufftExecC2C(m.plan, a + 3 * n, b, CUFFT_FORWARD), CUFFT_INVALID_VALUE);
    EXPECT_FFT(cufftExecC2C(m.plan, a, b + 2 * n + 1, CUFFT_FORWARD), CUFFT_INVALID_VALUE);
    /* overlapping but not the same: refused; the same pointer: in place */
    EXPECT_FFT(cufftExecC2C(m.plan, a, a + 1, CUFFT_FORWARD), CUFFT_INVALID_VALUE);
    FFT_OK(cufftExecC2C(m.plan, a, a, CUFFT_FORWARD));
    /* a work area too small */
    FFT_OK(cufftSetWorkArea(m.plan, (char *)m.work + 8));
    EXPECT_FFT(cufftExecC2C(m.plan, a, b, CUFFT_FORWARD), CUFFT_INVALID_VALUE);
    FFT_OK(cufftSetWorkArea(m.plan, nullptr));
    EXPECT_FFT(cufftExecC2C(m.plan, a, b, CUFFT_FORWARD), CUFFT_NO_WORKSPACE);
    /* nothing refused wrote anything */
    OK(cudaDeviceSynchronize());
    std::vector<cufftComplex> out(4 * n);
    OK(cudaMemcpy(out.data(), b, out.size() * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
    for (const cufftComplex &z : out)
        EXPECT(z.x == 0 && z.y == 0);
    /* in-place real transforms need cuFFT's padded layout: not emulated */
    Made r = make(1, {n}, CUFFT_R2C, 1);
    EXPECT_FFT(cufftExecR2C(r.plan, (cufftReal *)a, a), CUFFT_NOT_SUPPORTED);
    release(r);
    release(m);
    OK(cudaFree(a));
    OK(cudaFree(b));
    EXPECT(cudaGetLastError() == cudaSuccess);
}

static void case_auto_allocation()
{
    size_t free0, free1, free2, total;
    OK(cudaMemGetInfo(&free0, &total));
    cufftHandle p;
    FFT_OK(cufftCreate(&p));
    long long n[1] = {1 << 16};
    size_t ws = 0;
    FFT_OK(cufftMakePlanMany64(p, 1, n, nullptr, 1, 0, nullptr, 1, 0, CUFFT_Z2Z, 1, &ws));
    OK(cudaMemGetInfo(&free1, &total));
    EXPECT(free1 + ws <= free0); /* the plan's own work area */
    EXPECT_FFT(cufftSetWorkArea(p, nullptr), CUFFT_INVALID_VALUE);
    cufftDoubleComplex *a;
    OK(cudaMalloc((void **)&a, n[0] * sizeof *a));
    OK(zero(a, n[0] * sizeof *a));
    FFT_OK(cufftExecZ2Z(p, a, a, CUFFT_INVERSE));
    FFT_OK(cufftDestroy(p));
    OK(cudaFree(a));
    OK(cudaMemGetInfo(&free2, &total));
    EXPECT(free2 == free0);
}

static void case_stream_order()
{
    /* DEVTENSOR_EMULATE_DELAY_US: the transform is queued on the plan's
     * stream (non-blocking: the legacy stream does not wait for it), and
     * has not run when exec returns */
    const long long n = 8;
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    Made m = make(1, {n}, CUFFT_Z2Z, 1);
    FFT_OK(cufftSetStream(m.plan, s));
    cufftDoubleComplex *a;
    OK(cudaMalloc((void **)&a, n * sizeof *a));
    std::vector<cufftDoubleComplex> ones(n), now(n), out(n);
    for (auto &z : ones)
        z.x = 1, z.y = 0;
    OK(cudaMemcpy(a, ones.data(), n * sizeof *a, cudaMemcpyHostToDevice));
    FFT_OK(cufftExecZ2Z(m.plan, a, a, CUFFT_FORWARD));
    for (auto &z : now)
        z.x = -7, z.y = -7;
    OK(cudaMemcpyAsync(now.data(), a, n * sizeof *a, cudaMemcpyDeviceToHost, s));
    EXPECT_ERR(cudaStreamQuery(s), cudaErrorNotReady);
    bool right = now[0].x == (double)n;
    printf("read without synchronising: %s\n", right ? "right" : "stale");
    EXPECT(!right && now[0].x == -7);
    OK(cudaStreamSynchronize(s));
    EXPECT(now[0].x == (double)n && std::fabs(now[1].x) < 1e-12);
    OK(cudaMemcpy(out.data(), a, n * sizeof *a, cudaMemcpyDeviceToHost));
    EXPECT(out[0].x == (double)n && std::fabs(out[1].x) < 1e-12);
    release(m);
    OK(cudaStreamDestroy(s));
    OK(cudaFree(a));
}

static void case_devices()
{
    /* a plan belongs to the device current at cufftCreate */
    OK(cudaSetDevice(0));
    Made m = make(1, {4}, CUFFT_C2C, 1);
    cufftComplex *a;
    OK(cudaMalloc((void **)&a, 8 * sizeof *a));
    OK(cudaSetDevice(1));
    EXPECT_FFT(cufftExecC2C(m.plan, a, a, CUFFT_FORWARD), CUFFT_INVALID_DEVICE);
    cufftComplex *b;
    OK(cudaMalloc((void **)&b, 8 * sizeof *b));
    OK(cudaSetDevice(0));
    /* memory of a device that has not enabled peer access is refused */
    int can = 0;
    OK(cudaDeviceCanAccessPeer(&can, 0, 1));
    if (!can)
        EXPECT_FFT(cufftExecC2C(m.plan, a, b, CUFFT_FORWARD), CUFFT_INVALID_VALUE);
    FFT_OK(cufftExecC2C(m.plan, a, a, CUFFT_FORWARD));
    release(m);
    OK(cudaFree(a));
    OK(cudaFree(b));
}

static void case_values_c2c()
{
    for (std::vector<long long> n : std::vector<std::vector<long long>>{
             {1}, {2}, {3}, {5}, {8}, {12}, {13}, {30}, {64}, {97}, {4, 6}, {3, 5}, {2, 3, 4}, {1, 7, 2}}) {
        check_c2c<cufftComplex>(n, CUFFT_C2C);
        check_c2c<cufftDoubleComplex>(n, CUFFT_Z2Z);
    }
}

static void case_values_real()
{
    for (std::vector<long long> n : std::vector<std::vector<long long>>{
             {1}, {2}, {3}, {8}, {9}, {30}, {31}, {4, 6}, {3, 5}, {2, 3, 4}, {5, 2, 7}}) {
        check_real<cufftReal, cufftComplex>(n, CUFFT_R2C, CUFFT_C2R);
        check_real<cufftDoubleReal, cufftDoubleComplex>(n, CUFFT_D2Z, CUFFT_Z2D);
    }
}

static const std::vector<Case> cases = {
    {"plans", case_plans},
    {"no_devices", case_no_devices},
    {"exec_checks", case_exec_checks},
    {"auto_allocation", case_auto_allocation},
    {"stream_order", case_stream_order},
    {"devices", case_devices},
    {"values_c2c", case_values_c2c},
    {"values_real", case_values_real},
};

int main(int argc, char **argv)
{
    return run_case(argc, argv, cases);
}
