/* emu_solver.cpp - cuSOLVER's dense API on the CPU, first half: a plain
 * reference implementation of exactly the cuSolverDN calls csrc/cuda makes
 * (declared by our own csrc/emu/include/cusolverDn.h), with the arithmetic
 * (emu_dense.cpp, in complex double for every type) queued on the handle's
 * stream like the real library's kernels, so that the calling code runs
 * in CI on emulated devices (Note [CUDA libraries on the CPU] in
 * emu_runtime.h).  Here: handles and the helper calls of the API, element
 * access, extents, queueing, refusals; each routine's checks and work are
 * in emu_solver_routines.cpp (emu_solver.h between them).  Handles,
 * extents and failed launches as emu_blas.cpp's.
 */
#include "emu_solver.h"

#include "emu_library.h"
#include "emu_runtime.h"

#include <limits.h>
#include <string.h>

#include <memory>
#include <mutex>
#include <new>
#include <unordered_map>

namespace dt_emu {
namespace solver {
namespace {

/* ---- handles ---- */

/* Note [Handles]
 * As emu_blas.cpp's (Note [Handles] there): an id dressed as a pointer,
 * looked up in a table and never reused, so a destroyed handle is
 * CUSOLVER_STATUS_NOT_INITIALIZED forever.  A handle belongs to the device
 * current at cusolverDnCreate and remembers its stream (NULL: the legacy
 * default stream).  Queued work holds no reference to it. */
struct Table {
    std::mutex mu;
    std::unordered_map<uintptr_t, Handle> live;
    uintptr_t next_id = 1;
};

Table &table()
{
    static Table *t = new Table; /* never destroyed: work may be queued at exit */
    return *t;
}

/* Parameter objects (cusolverDnCreateParams) as handles: ids never reused,
 * carrying nothing (no routine here reads an option from them). */
struct ParamsTable {
    std::mutex mu;
    std::unordered_map<uintptr_t, char> live;
    uintptr_t next_id = 1;
};

ParamsTable &params_table()
{
    static ParamsTable *t = new ParamsTable;
    return *t;
}

/* current_device, accessible, host_out, Quiet: emu_library.h */
using dt_emu::accessible;
using dt_emu::current_device;
using dt_emu::host_out;

/* ---- extents ---- */

/* ---- queued work ---- */

cudaError_t job_run(void *arg)
{
    Job &j = *static_cast<Job *>(arg);
    if (j.work_bytes > 0)
        memset(j.work, 0xFF, j.work_bytes);
    int value = 0;
    cudaError_t e = j.compute(&value);
    if (e == cudaSuccess)
        memcpy(j.info, &value, sizeof value);
    return e;
}

void job_release(void *arg)
{
    delete static_cast<Job *>(arg);
}

/* devInfo = value, and nothing else: quick returns, and refusals */
struct InfoJob : Job {
    int value = 0;
    cudaError_t compute(int *info_value) override
    {
        *info_value = value;
        return cudaSuccess;
    }
};

} // namespace

/* Note [Extents]
 * As emu_blas.cpp's Note [Extents]: every byte a computing call will read
 * or write (A, B, U, VT as rows x cols with their leading dimension; TAU,
 * W, S, pivots, rwork, the workspace as the lwork given, devInfo) must lie
 * in one live allocation that the handle's device may access, or the call
 * answers CUSOLVER_STATUS_INVALID_VALUE before queueing anything (devInfo
 * is not written: these are not among the documented argument errors).
 * The real library checks no pointers: its kernels would fault later with
 * cudaErrorIllegalAddress, a sticky error.  Extents in int64 with overflow
 * checks; an operand of no elements is not looked at. */
bool inside(int device, const Extent &e)
{
    int64_t last, n, bytes;
    if (e.rows == 0 || e.cols == 0)
        return true;
    if (__builtin_mul_overflow(e.cols - 1, e.ld, &last) || __builtin_add_overflow(last, e.rows, &n) ||
        __builtin_mul_overflow(n, (int64_t)e.esize, &bytes))
        return false;
    return accessible(device, e.p, (size_t)bytes);
}

/* ---- handles, elements ---- */

cusolverStatus_t get(cusolverDnHandle_t handle, Handle *out)
{
    Table &t = table();
    std::lock_guard<std::mutex> lk(t.mu);
    auto it = t.live.find((uintptr_t)handle);
    if (handle == nullptr || it == t.live.end())
        return CUSOLVER_STATUS_NOT_INITIALIZED;
    *out = it->second;
    return CUSOLVER_STATUS_SUCCESS;
}

/* the kinds of option objects in the table */
const char kind_params = 1, kind_syevj = 2, kind_gesvdj = 3;

bool live_object(const void *p, char kind)
{
    ParamsTable &t = params_table();
    std::lock_guard<std::mutex> lk(t.mu);
    auto it = t.live.find((uintptr_t)p);
    return p != nullptr && it != t.live.end() && it->second == kind;
}

bool params_live(cusolverDnParams_t params) { return live_object(params, kind_params); }
bool syevj_info_live(syevjInfo_t info) { return live_object(info, kind_syevj); }
bool gesvdj_info_live(gesvdjInfo_t info) { return live_object(info, kind_gesvdj); }

/* A bufferSize answer: CUSOLVER_STATUS_INVALID_VALUE where it does not fit
 * an int (matrices of several gigabytes) or *out may not be written. */
cusolverStatus_t answer(int64_t need, int *out)
{
    if (!host_out(out, sizeof *out) || need > INT_MAX)
        return CUSOLVER_STATUS_INVALID_VALUE;
    *out = (int)need;
    return CUSOLVER_STATUS_SUCCESS;
}

Cx load(Ty t, const char *p, int64_t i)
{
    float f[2] = {0, 0};
    double d[2] = {0, 0};
    switch (t) {
    case Ty::S: memcpy(f, p + i * 4, 4); return Cx{f[0], 0};
    case Ty::D: memcpy(d, p + i * 8, 8); return Cx{d[0], 0};
    case Ty::C: memcpy(f, p + i * 8, 8); return Cx{f[0], f[1]};
    case Ty::Z: memcpy(d, p + i * 16, 16); return Cx{d[0], d[1]};
    }
    return Cx{0, 0};
}
void store(Ty t, char *p, int64_t i, Cx v)
{
    float f[2] = {(float)v.re, (float)v.im};
    double d[2] = {v.re, v.im};
    switch (t) {
    case Ty::S: memcpy(p + i * 4, f, 4); break;
    case Ty::D: memcpy(p + i * 8, d, 8); break;
    case Ty::C: memcpy(p + i * 8, f, 8); break;
    case Ty::Z: memcpy(p + i * 16, d, 16); break;
    }
}
void store_real(Ty t, char *p, int64_t i, double v)
{
    float f = (float)v;
    if (rsize(t) == 4)
        memcpy(p + i * 4, &f, 4);
    else
        memcpy(p + i * 8, &v, 8);
}

Dense read(Ty t, const char *p, int64_t ld, int64_t rows, int64_t cols)
{
    Dense a(rows, cols);
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < rows; i++)
            a(i, j) = load(t, p, j * ld + i);
    return a;
}
void write(Ty t, char *p, int64_t ld, const Dense &a, int64_t rows, int64_t cols)
{
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < rows; i++)
            store(t, p, j * ld + i, a(i, j));
}

/* ---- queueing ---- */

/* Note [The handle's device] and Note [Failed launches]
 * As emu_blas.cpp's: a computing call made while another device than the
 * handle's is current answers CUSOLVER_STATUS_EXECUTION_FAILED and queues
 * nothing; so does one whose launch emu_runtime_enqueue refuses (the
 * handle's stream destroyed or another device's, or a sticky error on the
 * device: "the function failed to launch on the GPU"). */
cusolverStatus_t launch(const Handle &h, Ty t, int *info, std::initializer_list<Extent> operands, Job *job)
{
    std::unique_ptr<Job> owned(job);
    if (job == nullptr)
        return CUSOLVER_STATUS_ALLOC_FAILED;
    if (current_device() != h.device)
        return CUSOLVER_STATUS_EXECUTION_FAILED;
    if (!accessible(h.device, info, sizeof *info))
        return CUSOLVER_STATUS_INVALID_VALUE;
    for (const Extent &e : operands)
        if (!inside(h.device, e))
            return CUSOLVER_STATUS_INVALID_VALUE;
    job->t = t;
    job->info = info;
    if (emu_runtime_enqueue(h.stream, job_run, owned.release(), job_release) != cudaSuccess)
        return CUSOLVER_STATUS_EXECUTION_FAILED;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t quick(const Handle &h, Ty t, int *info)
{
    return launch(h, t, info, {}, new (std::nothrow) InfoJob());
}

/* Note [Invalid arguments]
 * Each computing call checks its arguments in their order, as LAPACK does;
 * the first that is invalid gives CUSOLVER_STATUS_INVALID_VALUE at once and
 * nothing is computed.  The checks are those of cuSOLVER's documentation
 * (negative sizes, leading dimensions below max(1, rows), an unknown fill,
 * operation, eigen or job mode, gesvd's m < n) and LAPACK's for the same
 * routine (orgqr's n > m and k > n; gesvd's jobu = jobvt = 'O' and its ldu
 * and ldvt; an lwork below Note [Workspace sizes]).  cuSOLVER documents
 * for every routine here that "devInfo = -i (less than zero)" means that
 * "the i-th parameter is wrong (not counting handle)": the emulation
 * writes that too, queued on the handle's stream like the routine's work,
 * when it can (the handle's device current, devInfo in memory it may
 * access, the stream taking work); whether the real library writes it
 * besides returning the status, or which it does for a short lwork (it
 * may return CUSOLVER_STATUS_INVALID_VALUE, or read past the workspace and
 * fault), its documentation does not say: act on the status. */
cusolverStatus_t refuse(const Handle &h, Ty t, int *info, int i)
{
    if (current_device() == h.device && info != nullptr && accessible(h.device, info, sizeof *info)) {
        InfoJob *j = new (std::nothrow) InfoJob();
        if (j != nullptr) {
            j->t = t;
            j->info = info;
            j->value = -i;
            (void)emu_runtime_enqueue(h.stream, job_run, j, job_release);
        }
    }
    return CUSOLVER_STATUS_INVALID_VALUE;
}

} // namespace solver
} // namespace dt_emu

using namespace dt_emu::solver;

/* ================= the helper calls of the API ================= */

extern "C" {

/* As cublasCreate (emu_blas.cpp): without a usable runtime,
 * CUSOLVER_STATUS_NOT_INITIALIZED; a NULL handle pointer is
 * CUSOLVER_STATUS_INVALID_VALUE. */
cusolverStatus_t cusolverDnCreate(cusolverDnHandle_t *handle)
{
    if (handle == nullptr)
        return CUSOLVER_STATUS_INVALID_VALUE;
    *handle = nullptr;
    int device = current_device();
    if (device < 0)
        return CUSOLVER_STATUS_NOT_INITIALIZED;
    Table &t = table();
    std::lock_guard<std::mutex> lk(t.mu);
    uintptr_t id = (t.next_id++ << 4) | 0x6;
    t.live[id].device = device;
    *handle = (cusolverDnHandle_t)id;
    return CUSOLVER_STATUS_SUCCESS;
}

/* cuSOLVER documents that this "releases CPU-side resources"; unlike
 * cublasDestroy it promises no synchronisation, and none is needed here:
 * work already queued does not refer to the handle and completes. */
cusolverStatus_t cusolverDnDestroy(cusolverDnHandle_t handle)
{
    Table &t = table();
    std::lock_guard<std::mutex> lk(t.mu);
    if (handle == nullptr || t.live.erase((uintptr_t)handle) == 0)
        return CUSOLVER_STATUS_NOT_INITIALIZED;
    return CUSOLVER_STATUS_SUCCESS;
}

/* An option object of a kind (a parameter object, a syevjInfo, a
 * gesvdjInfo), as a
 * handle: an id never reused; no runtime needed, as the real library's. */
static cusolverStatus_t create_object(void **out, char kind)
{
    if (out == nullptr)
        return CUSOLVER_STATUS_INVALID_VALUE;
    dt_emu::solver::ParamsTable &t = dt_emu::solver::params_table();
    std::lock_guard<std::mutex> lk(t.mu);
    uintptr_t id = (t.next_id++ << 4) | 0xA;
    t.live[id] = kind;
    *out = (void *)id;
    return CUSOLVER_STATUS_SUCCESS;
}

static cusolverStatus_t destroy_object(const void *p, char kind)
{
    dt_emu::solver::ParamsTable &t = dt_emu::solver::params_table();
    std::lock_guard<std::mutex> lk(t.mu);
    auto it = t.live.find((uintptr_t)p);
    if (p == nullptr || it == t.live.end() || it->second != kind)
        return CUSOLVER_STATUS_INVALID_VALUE;
    t.live.erase(it);
    return CUSOLVER_STATUS_SUCCESS;
}

/* Any stream is taken; one that is invalid or of another device fails the
 * next computing call (Note [Failed launches]). */
cusolverStatus_t cusolverDnSetStream(cusolverDnHandle_t handle, cudaStream_t streamId)
{
    Table &t = table();
    std::lock_guard<std::mutex> lk(t.mu);
    auto it = t.live.find((uintptr_t)handle);
    if (handle == nullptr || it == t.live.end())
        return CUSOLVER_STATUS_NOT_INITIALIZED;
    it->second.stream = streamId;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnGetStream(cusolverDnHandle_t handle, cudaStream_t *streamId)
{
    Handle h;
    cusolverStatus_t st = get(handle, &h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (streamId == nullptr)
        return CUSOLVER_STATUS_INVALID_VALUE;
    *streamId = h.stream;
    return CUSOLVER_STATUS_SUCCESS;
}

/* A parameter object for the 64-bit generic API (only Xgeev here): no
 * runtime needed, as the real library's. */
cusolverStatus_t cusolverDnCreateParams(cusolverDnParams_t *params)
{
    return create_object((void **)params, dt_emu::solver::kind_params);
}

cusolverStatus_t cusolverDnDestroyParams(cusolverDnParams_t params)
{
    return destroy_object(params, dt_emu::solver::kind_params);
}

/* syevjBatched's options (Note [syevjBatched] in emu_solver_routines.cpp):
 * no setter is emulated, so every object has the defaults. */
cusolverStatus_t cusolverDnCreateSyevjInfo(syevjInfo_t *info)
{
    return create_object((void **)info, dt_emu::solver::kind_syevj);
}

cusolverStatus_t cusolverDnDestroySyevjInfo(syevjInfo_t info)
{
    return destroy_object(info, dt_emu::solver::kind_syevj);
}

/* gesvdjBatched's options (Note [gesvdjBatched] in emu_solver_routines.cpp):
 * no setter is emulated either. */
cusolverStatus_t cusolverDnCreateGesvdjInfo(gesvdjInfo_t *info)
{
    return create_object((void **)info, dt_emu::solver::kind_gesvdj);
}

cusolverStatus_t cusolverDnDestroyGesvdjInfo(gesvdjInfo_t info)
{
    return destroy_object(info, dt_emu::solver::kind_gesvdj);
}

} /* extern "C" */
