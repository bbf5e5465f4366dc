/* emu_fft.cpp - cuFFT on the CPU: a plain reference implementation of
 * exactly the cuFFT calls csrc/cuda makes (declared by our own
 * csrc/emu/include/cufft.h), checking arguments and answering status codes
 * as cuFFT documents them, with the transforms queued on the plan's
 * stream like the real library's kernels, so that the calling code runs
 * in CI on emulated devices (Note [CUDA libraries on the CPU] in
 * emu_runtime.h).  Correct before fast: a mixed-radix Cooley-Tukey
 * transform in double precision (Note [The reference transform]).
 */
#include <cufft.h>

#include "emu_library.h"
#include "emu_runtime.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include <cmath>
#include <complex>
#include <memory>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

namespace {

using dt_emu::accessible;
using dt_emu::current_device;
using dt_emu::host_out;
using C = std::complex<double>;

/* ---- plans ---- */

/* Note [Plans]
 * As the emulated cuBLAS's handles (Note [Handles] in emu_blas.cpp): a
 * cufftHandle is an id looked up in a table and never reused, so a
 * destroyed plan is CUFFT_INVALID_PLAN forever.  A plan belongs to the
 * device current at cufftCreate, is made once (cufftMakePlanMany64, the
 * basic data layout only), and remembers its stream (NULL: the legacy
 * default stream) and work area.  Its work area is the caller's after
 * cufftSetAutoAllocation(plan, 0), else allocated by the plan on its
 * device and freed with it.  Queued work copies what it needs and never
 * refers to the plan. */
struct Plan {
    int device = -1;
    bool made = false;
    bool auto_allocate = true;
    cufftType type = CUFFT_C2C;
    int rank = 0;
    int64_t n[3] = {1, 1, 1};
    int64_t batch = 0;
    size_t work_size = 0;
    void *work = nullptr;
    bool work_owned = false;
    cudaStream_t stream = nullptr;
};

struct Table {
    std::mutex mu;
    std::unordered_map<int, Plan> live;
    int next_id = 1;
};

Table &table()
{
    static Table *t = new Table; /* never destroyed: work may be queued at exit */
    return *t;
}

/* f(the plan's state) under the table's lock; CUFFT_INVALID_PLAN for no
 * such plan. */
template <class F>
cufftResult with_plan(cufftHandle plan, F f)
{
    Table &t = table();
    std::lock_guard<std::mutex> lk(t.mu);
    auto it = t.live.find(plan);
    if (it == t.live.end())
        return CUFFT_INVALID_PLAN;
    return f(it->second);
}

bool is_type(int t)
{
    return t == CUFFT_R2C || t == CUFFT_C2R || t == CUFFT_C2C || t == CUFFT_D2Z || t == CUFFT_Z2D ||
           t == CUFFT_Z2Z;
}
bool is_double(cufftType t) { return t == CUFFT_D2Z || t == CUFFT_Z2D || t == CUFFT_Z2Z; }
bool real_in(cufftType t) { return t == CUFFT_R2C || t == CUFFT_D2Z; }
bool real_out(cufftType t) { return t == CUFFT_C2R || t == CUFFT_Z2D; }

/* ---- the transform ---- */

/* Note [The reference transform]
 * X[k] = sum_j x[j] exp(sign 2 pi i j k / n), unnormalised, in complex
 * double for every type (inputs widened, outputs rounded once), so the
 * emulation is at least as accurate as the library.  A size n = p m with
 * p its smallest prime factor is p transforms of size m over the strided
 * subsequences, combined with twiddles; a prime size is summed directly
 * (O(n^2): correct for any size, fast for the sizes tests use).  The
 * twiddles exp(sign 2 pi i k / N) of the whole size N are computed once
 * in long double with k j reduced modulo n, so no angle is larger than
 * 2 pi.  Multi-dimensional transforms are one-dimensional ones along each
 * axis in turn.  C2R reads the half spectrum as cuFFT documents it:
 * Hermitian symmetry along the last axis is assumed, so the imaginary
 * parts of its zero-frequency and (for even n) Nyquist terms do not
 * matter; the other axes are inverted first, complex to complex. */
struct Twiddles {
    std::vector<C> w; /* w[k] = exp(sign 2 pi i k / N) */
    Twiddles(int64_t N, int sign) : w((size_t)N)
    {
        const long double pi = acosl(-1.0L);
        for (int64_t k = 0; k < N; k++) {
            long double a = 2.0L * pi * (long double)k / (long double)N * sign;
            w[(size_t)k] = C((double)cosl(a), (double)sinl(a));
        }
    }
};

int64_t smallest_factor(int64_t n)
{
    if (n % 2 == 0)
        return 2;
    for (int64_t p = 3; p * p <= n; p += 2)
        if (n % p == 0)
            return p;
    return n;
}

/* out[0..n) = the transform of in[0], in[stride], ...; tw step: the
 * twiddles of size n are tw.w[k * step] */
void transform(const C *in, int64_t stride, int64_t n, C *out, const Twiddles &tw, int64_t step)
{
    if (n == 1) {
        out[0] = in[0];
        return;
    }
    int64_t p = smallest_factor(n), m = n / p;
    if (p == n) {
        for (int64_t k = 0; k < n; k++) {
            C s = 0;
            for (int64_t j = 0; j < n; j++)
                s += in[j * stride] * tw.w[(size_t)((j * k % n) * step)];
            out[k] = s;
        }
        return;
    }
    for (int64_t r = 0; r < p; r++)
        transform(in + r * stride, stride * p, m, out + r * m, tw, step * p);
    std::vector<C> f((size_t)p);
    for (int64_t k = 0; k < m; k++) {
        for (int64_t r = 0; r < p; r++)
            f[(size_t)r] = out[r * m + k];
        for (int64_t q = 0; q < p; q++) {
            int64_t kk = k + q * m;
            C s = 0;
            for (int64_t r = 0; r < p; r++)
                s += f[(size_t)r] * tw.w[(size_t)((r * kk % n) * step)];
            out[kk] = s;
        }
    }
}

/* the transform along `axis` of a C-order array of `shape` (rank axes), in place */
void along_axis(std::vector<C> &a, int rank, const int64_t *shape, int axis, int sign)
{
    int64_t n = shape[axis], inner = 1, outer = 1;
    for (int d = axis + 1; d < rank; d++)
        inner *= shape[d];
    for (int d = 0; d < axis; d++)
        outer *= shape[d];
    Twiddles tw(n, sign);
    std::vector<C> line((size_t)n), res((size_t)n);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            C *base = a.data() + o * n * inner + i;
            for (int64_t j = 0; j < n; j++)
                line[(size_t)j] = base[j * inner];
            transform(line.data(), 1, n, res.data(), tw, 1);
            for (int64_t j = 0; j < n; j++)
                base[j * inner] = res[(size_t)j];
        }
}

C load(bool dbl, bool real, const char *p, int64_t i)
{
    if (real) {
        if (dbl) {
            double v;
            memcpy(&v, p + i * 8, 8);
            return C(v, 0);
        }
        float v;
        memcpy(&v, p + i * 4, 4);
        return C(v, 0);
    }
    if (dbl) {
        double v[2];
        memcpy(v, p + i * 16, 16);
        return C(v[0], v[1]);
    }
    float v[2];
    memcpy(v, p + i * 8, 8);
    return C(v[0], v[1]);
}

void store(bool dbl, bool real, char *p, int64_t i, C v)
{
    if (real) {
        if (dbl) {
            double d = v.real();
            memcpy(p + i * 8, &d, 8);
        } else {
            float f = (float)v.real();
            memcpy(p + i * 4, &f, 4);
        }
    } else if (dbl) {
        double d[2] = {v.real(), v.imag()};
        memcpy(p + i * 16, d, 16);
    } else {
        float f[2] = {(float)v.real(), (float)v.imag()};
        memcpy(p + i * 8, f, 8);
    }
}

struct Job {
    cufftType type;
    int rank;
    int64_t n[3];
    int64_t batch;
    int sign;
    const char *in;
    char *out;
    void *work;
    size_t work_size;
};

int64_t prod(const int64_t *n, int rank)
{
    int64_t p = 1;
    for (int d = 0; d < rank; d++)
        p *= n[d];
    return p;
}

/* elements per transform on each side: the real side has n, the complex
 * side of R2C and C2R the half spectrum */
int64_t half_count(const int64_t *n, int rank)
{
    return prod(n, rank - 1) * (n[rank - 1] / 2 + 1);
}

cudaError_t job_run(void *arg)
{
    const Job &j = *static_cast<Job *>(arg);
    if (j.work_size > 0)
        memset(j.work, 0xFF, j.work_size); /* the library's scratch: nothing to rely on */
    bool dbl = is_double(j.type);
    int64_t total = prod(j.n, j.rank), half = half_count(j.n, j.rank), last = j.n[j.rank - 1];
    int64_t half_last = last / 2 + 1, rows = total / last;
    std::vector<C> a((size_t)total);
    for (int64_t b = 0; b < j.batch; b++) {
        if (real_out(j.type)) {
            /* the other axes inverted complex to complex on the half spectrum */
            int64_t hshape[3] = {j.n[0], j.n[1], j.n[2]};
            hshape[j.rank - 1] = half_last;
            std::vector<C> h((size_t)half);
            for (int64_t i = 0; i < half; i++)
                h[(size_t)i] = load(dbl, false, j.in, b * half + i);
            for (int d = 0; d < j.rank - 1; d++)
                along_axis(h, j.rank, hshape, d, +1);
            /* then each row of the last axis, its spectrum completed by symmetry */
            Twiddles tw(last, +1);
            std::vector<C> line((size_t)last), res((size_t)last);
            for (int64_t r = 0; r < rows; r++) {
                const C *hr = h.data() + r * half_last;
                for (int64_t k = 0; k < last; k++) {
                    if (k < half_last)
                        line[(size_t)k] = hr[k];
                    else
                        line[(size_t)k] = std::conj(hr[last - k]);
                }
                line[0] = C(line[0].real(), 0);
                if (last % 2 == 0)
                    line[(size_t)(last / 2)] = C(line[(size_t)(last / 2)].real(), 0);
                transform(line.data(), 1, last, res.data(), tw, 1);
                for (int64_t k = 0; k < last; k++)
                    store(dbl, true, j.out, b * total + r * last + k, res[(size_t)k]);
            }
            continue;
        }
        bool rin = real_in(j.type);
        for (int64_t i = 0; i < total; i++)
            a[(size_t)i] = load(dbl, rin, j.in, b * total + i);
        for (int d = 0; d < j.rank; d++)
            along_axis(a, j.rank, j.n, d, j.sign);
        if (!rin) {
            for (int64_t i = 0; i < total; i++)
                store(dbl, false, j.out, b * total + i, a[(size_t)i]);
            continue;
        }
        for (int64_t r = 0; r < rows; r++)
            for (int64_t k = 0; k < half_last; k++)
                store(dbl, false, j.out, b * half + r * half_last + k, a[(size_t)(r * last + k)]);
    }
    /* cuFFT documents that a complex-to-real transform overwrites its
     * input: so does the emulation, so that callers relying on it are caught */
    if (real_out(j.type))
        memset(const_cast<char *>(j.in), 0xFF, (size_t)(j.batch * half) * (dbl ? 16 : 8));
    return cudaSuccess;
}

void job_release(void *arg)
{
    delete static_cast<Job *>(arg);
}

/* bytes of one side of a plan's transforms; false on overflow */
bool side_bytes(const Plan &p, bool input, int64_t *out)
{
    bool real = input ? real_in(p.type) : real_out(p.type);
    bool half = !real && p.type != CUFFT_C2C && p.type != CUFFT_Z2Z;
    int64_t per = half ? half_count(p.n, p.rank) : prod(p.n, p.rank);
    int64_t esize = (is_double(p.type) ? 8 : 4) * (real ? 1 : 2);
    return !__builtin_mul_overflow(per, p.batch, out) && !__builtin_mul_overflow(*out, esize, out);
}

/* Note [Executing a plan]
 * The checks cuFFT documents, in order: a plan that is not live or not
 * made is CUFFT_INVALID_PLAN; an exec call of another type than the
 * plan's (cufftExecC2C on a Z2Z plan) CUFFT_INVALID_TYPE (the emulation's
 * choice: the documentation names no status for it); a direction other
 * than CUFFT_FORWARD or CUFFT_INVERSE CUFFT_INVALID_VALUE; a plan without
 * auto allocation and without a work area CUFFT_NO_WORKSPACE.  Then, as
 * the emulated cuBLAS (Note [Extents] in emu_blas.cpp): the device current
 * must be the plan's (else CUFFT_INVALID_DEVICE), and every byte read or
 * written (input, output, work area) must lie in memory that device may
 * access, else CUFFT_INVALID_VALUE before anything is queued (the real
 * library checks no pointers and faults later).  Input and output are
 * either the same pointer (in place, complex to complex only) or do not
 * overlap; the emulation refuses in-place real transforms, which need
 * cuFFT's padded layout (CUFFT_NOT_SUPPORTED).  A refused launch (the
 * stream destroyed, a sticky error) is CUFFT_EXEC_FAILED. */
cufftResult exec(cufftHandle plan, cufftType type, const void *in, void *out, int sign)
{
    Plan p;
    cufftResult r = with_plan(plan, [&](const Plan &live) {
        p = live;
        return live.made ? CUFFT_SUCCESS : CUFFT_INVALID_PLAN;
    });
    if (r != CUFFT_SUCCESS)
        return r;
    if (p.type != type)
        return CUFFT_INVALID_TYPE;
    if (sign != CUFFT_FORWARD && sign != CUFFT_INVERSE)
        return CUFFT_INVALID_VALUE;
    if (p.work_size > 0 && p.work == nullptr)
        return CUFFT_NO_WORKSPACE;
    if (current_device() != p.device)
        return CUFFT_INVALID_DEVICE;
    int64_t in_bytes, out_bytes;
    if (!side_bytes(p, true, &in_bytes) || !side_bytes(p, false, &out_bytes))
        return CUFFT_INVALID_SIZE;
    if (in == nullptr || out == nullptr || !accessible(p.device, in, (size_t)in_bytes) ||
        !accessible(p.device, out, (size_t)out_bytes) ||
        (p.work_size > 0 && !accessible(p.device, p.work, p.work_size)))
        return CUFFT_INVALID_VALUE;
    uintptr_t i0 = (uintptr_t)in, o0 = (uintptr_t)out;
    if (in == out) {
        if (type != CUFFT_C2C && type != CUFFT_Z2Z)
            return CUFFT_NOT_SUPPORTED;
    } else if (i0 < o0 + (uint64_t)out_bytes && o0 < i0 + (uint64_t)in_bytes) {
        return CUFFT_INVALID_VALUE;
    }
    Job *j = new (std::nothrow) Job();
    if (j == nullptr)
        return CUFFT_ALLOC_FAILED;
    j->type = p.type;
    j->rank = p.rank;
    memcpy(j->n, p.n, sizeof j->n);
    j->batch = p.batch;
    j->sign = sign;
    j->in = static_cast<const char *>(in);
    j->out = static_cast<char *>(out);
    j->work = p.work;
    j->work_size = p.work_size;
    if (emu_runtime_enqueue(p.stream, job_run, j, job_release) != cudaSuccess)
        return CUFFT_EXEC_FAILED;
    return CUFFT_SUCCESS;
}

} // namespace

extern "C" {

/* Without a usable runtime (no device), CUFFT_SETUP_FAILED: "the cuFFT
 * library failed to initialize". */
cufftResult cufftCreate(cufftHandle *handle)
{
    if (!host_out(handle, sizeof *handle))
        return CUFFT_INVALID_VALUE;
    int device = current_device();
    if (device < 0)
        return CUFFT_SETUP_FAILED;
    Table &t = table();
    std::lock_guard<std::mutex> lk(t.mu);
    if (t.next_id == INT_MAX)
        return CUFFT_ALLOC_FAILED;
    int id = t.next_id++;
    t.live[id].device = device;
    *handle = id;
    return CUFFT_SUCCESS;
}

/* Frees the plan's own work area, after the work queued before on its
 * device (cudaFree's implicit synchronisation, as the library's). */
cufftResult cufftDestroy(cufftHandle plan)
{
    void *owned = nullptr;
    {
        Table &t = table();
        std::lock_guard<std::mutex> lk(t.mu);
        auto it = t.live.find(plan);
        if (it == t.live.end())
            return CUFFT_INVALID_PLAN;
        if (it->second.work_owned)
            owned = it->second.work;
        t.live.erase(it);
    }
    if (owned != nullptr) {
        dt_emu::Quiet q;
        (void)cudaFree(owned);
    }
    return CUFFT_SUCCESS;
}

/* Between cufftCreate and the plan's making, as documented; on a made plan
 * the emulation answers CUFFT_INVALID_PLAN. */
cufftResult cufftSetAutoAllocation(cufftHandle plan, int autoAllocate)
{
    return with_plan(plan, [&](Plan &p) {
        if (p.made)
            return CUFFT_INVALID_PLAN;
        p.auto_allocate = autoAllocate != 0;
        return CUFFT_SUCCESS;
    });
}

/* Note [Making a plan]
 * rank 1 to 3 (else CUFFT_INVALID_SIZE), every n[i] >= 1 and batch >= 1
 * (CUFFT_INVALID_SIZE), a known type (CUFFT_INVALID_TYPE), workSize a
 * host pointer (CUFFT_INVALID_VALUE); the basic data layout only: inembed
 * and onembed must be NULL, when strides and distances are ignored as
 * cuFFT documents (the advanced layout is CUFFT_NOT_IMPLEMENTED here).
 * The work area asked for is one complex double per element of one
 * transform (the emulation's own scratch size; the library's differs):
 * the caller must provide what *workSize says.  A plan made twice is
 * CUFFT_INVALID_PLAN (the emulation's choice). */
cufftResult cufftMakePlanMany64(cufftHandle plan, int rank, long long int *n,
                                long long int *inembed, long long int istride,
                                long long int idist, long long int *onembed,
                                long long int ostride, long long int odist, cufftType type,
                                long long int batch, size_t *workSize)
{
    (void)istride, (void)idist, (void)ostride, (void)odist;
    Table &t = table();
    std::unique_lock<std::mutex> lk(t.mu);
    auto it = t.live.find(plan);
    if (it == t.live.end() || it->second.made)
        return CUFFT_INVALID_PLAN;
    if (rank < 1 || rank > 3 || n == nullptr || batch < 1)
        return CUFFT_INVALID_SIZE;
    int64_t elements = 1;
    for (int d = 0; d < rank; d++)
        if (n[d] < 1 || __builtin_mul_overflow(elements, (int64_t)n[d], &elements))
            return CUFFT_INVALID_SIZE;
    if (!is_type(type))
        return CUFFT_INVALID_TYPE;
    if (inembed != nullptr || onembed != nullptr)
        return CUFFT_NOT_IMPLEMENTED;
    if (!host_out(workSize, sizeof *workSize))
        return CUFFT_INVALID_VALUE;
    Plan p = it->second;
    p.type = type;
    p.rank = rank;
    for (int d = 0; d < rank; d++)
        p.n[d] = n[d];
    p.batch = batch;
    int64_t in_bytes, out_bytes, work;
    if (!side_bytes(p, true, &in_bytes) || !side_bytes(p, false, &out_bytes) ||
        __builtin_mul_overflow(elements, (int64_t)sizeof(C), &work))
        return CUFFT_INVALID_SIZE;
    p.work_size = (size_t)work;
    if (p.auto_allocate) {
        lk.unlock(); /* cudaMalloc outside the table's lock */
        void *w = nullptr;
        dt_emu::Quiet q;
        int dev = current_device();
        if (dev != p.device)
            return CUFFT_INVALID_DEVICE;
        if (cudaMalloc(&w, p.work_size) != cudaSuccess)
            return CUFFT_ALLOC_FAILED;
        lk.lock();
        it = t.live.find(plan);
        if (it == t.live.end() || it->second.made) {
            lk.unlock();
            (void)cudaFree(w);
            return CUFFT_INVALID_PLAN;
        }
        p.work = w;
        p.work_owned = true;
    }
    p.made = true;
    p.stream = it->second.stream;
    it->second = p;
    *workSize = p.work_size;
    return CUFFT_SUCCESS;
}

/* Any pointer is taken; the next exec checks it (Note [Executing a
 * plan]).  On a plan that allocates its own, the emulation answers
 * CUFFT_INVALID_VALUE. */
cufftResult cufftSetWorkArea(cufftHandle plan, void *workArea)
{
    return with_plan(plan, [&](Plan &p) {
        if (p.work_owned)
            return CUFFT_INVALID_VALUE;
        p.work = workArea;
        return CUFFT_SUCCESS;
    });
}

/* Any stream is taken; one that is invalid or of another device fails the
 * next exec (CUFFT_EXEC_FAILED). */
cufftResult cufftSetStream(cufftHandle plan, cudaStream_t stream)
{
    return with_plan(plan, [&](Plan &p) {
        p.stream = stream;
        return CUFFT_SUCCESS;
    });
}

cufftResult cufftExecC2C(cufftHandle plan, cufftComplex *idata, cufftComplex *odata, int direction)
{
    return exec(plan, CUFFT_C2C, idata, odata, direction);
}

cufftResult cufftExecZ2Z(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleComplex *odata,
                         int direction)
{
    return exec(plan, CUFFT_Z2Z, idata, odata, direction);
}

cufftResult cufftExecR2C(cufftHandle plan, cufftReal *idata, cufftComplex *odata)
{
    return exec(plan, CUFFT_R2C, idata, odata, CUFFT_FORWARD);
}

cufftResult cufftExecD2Z(cufftHandle plan, cufftDoubleReal *idata, cufftDoubleComplex *odata)
{
    return exec(plan, CUFFT_D2Z, idata, odata, CUFFT_FORWARD);
}

cufftResult cufftExecC2R(cufftHandle plan, cufftComplex *idata, cufftReal *odata)
{
    return exec(plan, CUFFT_C2R, idata, odata, CUFFT_INVERSE);
}

cufftResult cufftExecZ2D(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleReal *odata)
{
    return exec(plan, CUFFT_Z2D, idata, odata, CUFFT_INVERSE);
}

} /* extern "C" */
