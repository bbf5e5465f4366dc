/* emu_solver.h - what the two halves of the emulated cuSOLVER share:
 * emu_solver.cpp (handles, element access, extents, the queueing of work,
 * argument refusals, and the helper calls of the API) and
 * emu_solver_routines.cpp (each routine's checks and work, and the typed
 * entry points).  C++ only; nothing here is exported.
 */
#ifndef DT_EMU_SOLVER_H
#define DT_EMU_SOLVER_H

#include <cusolverDn.h>

#include "emu_dense.h"

#include <stddef.h>
#include <stdint.h>

#include <initializer_list>

namespace dt_emu {
namespace solver {

/* ---- handles (Note [Handles] in emu_solver.cpp) ---- */

struct Handle {
    int device = 0;
    cudaStream_t stream = nullptr; /* NULL: the legacy default stream */
};

/* A copy of the handle's state; CUSOLVER_STATUS_NOT_INITIALIZED for a NULL,
 * destroyed or unknown handle. */
cusolverStatus_t get(cusolverDnHandle_t handle, Handle *out);

/* Whether params came from cusolverDnCreateParams (info from
 * cusolverDnCreateSyevjInfo, cusolverDnCreateGesvdjInfo) and is not
 * destroyed. */
bool params_live(cusolverDnParams_t params);
bool syevj_info_live(syevjInfo_t info);
bool gesvdj_info_live(gesvdjInfo_t info);

/* A bufferSize call's answer `need` written to *out: SUCCESS, or
 * CUSOLVER_STATUS_INVALID_VALUE where *out is NULL or device memory, or
 * need does not fit an int. */
cusolverStatus_t answer(int64_t need, int *out);

/* ---- elements ---- */

enum class Ty { S, D, C, Z };

inline size_t esize(Ty t) { return t == Ty::S ? 4 : t == Ty::Z ? 16 : 8; }
inline size_t rsize(Ty t) { return t == Ty::S || t == Ty::C ? 4 : 8; } /* the real type: W, S, rwork */

/* Element i of type t at p, as complex double; and back, rounded to the
 * type (a real type keeps the real part). */
Cx load(Ty t, const char *p, int64_t i);
void store(Ty t, char *p, int64_t i, Cx v);
void store_real(Ty t, char *p, int64_t i, double v);

/* rows x cols at p with leading dimension ld, from and to device memory
 * (for the stream worker that runs a Job) */
Dense read(Ty t, const char *p, int64_t ld, int64_t rows, int64_t cols);
void write(Ty t, char *p, int64_t ld, const Dense &a, int64_t rows, int64_t cols);

/* ---- extents (Note [Extents] in emu_solver.cpp) ---- */

/* rows x cols elements of esize bytes at p, leading dimension ld */
struct Extent {
    const void *p;
    int64_t rows, cols, ld;
    size_t esize;
};

inline Extent vec(const void *p, int64_t n, size_t esize) { return Extent{p, n, 1, n, esize}; }

/* Whether every byte of e lies in memory `device` may access (Note
 * [Extents] in emu_solver.cpp). */
bool inside(int device, const Extent &e);

/* ---- queued work ---- */

/* One computing call's work, run by the stream's worker (Note [Library
 * work on streams] in emu_runtime.cpp): the workspace [work, work +
 * work_bytes) is filled with 0xFF bytes (Note [Workspace sizes] in
 * emu_solver_routines.cpp), then compute() reads the operands from device
 * memory, computes, writes the results back and gives devInfo's value,
 * which is written last.  What compute() returns other than cudaSuccess
 * becomes the device's sticky error, and devInfo is not written. */
struct Job {
    Ty t = Ty::S;        /* set by launch */
    int *info = nullptr; /* set by launch */
    char *work = nullptr;
    size_t work_bytes = 0;
    virtual ~Job() {}
    virtual cudaError_t compute(int *info_value) = 0;
};

/* The tail of every computing call whose arguments passed: the handle's
 * device (else CUSOLVER_STATUS_EXECUTION_FAILED), the extents of devInfo
 * and of the operands (else CUSOLVER_STATUS_INVALID_VALUE), then the
 * queueing on the handle's stream (a refused launch:
 * CUSOLVER_STATUS_EXECUTION_FAILED).  Takes ownership of job; NULL (an
 * allocation that failed) is CUSOLVER_STATUS_ALLOC_FAILED. */
cusolverStatus_t launch(const Handle &h, Ty t, int *info, std::initializer_list<Extent> operands, Job *job);

/* Nothing to compute (an empty matrix): devInfo = 0, as LAPACK's quick
 * returns leave info; queued like any work. */
cusolverStatus_t quick(const Handle &h, Ty t, int *info);

/* The i-th argument (not counting the handle) is invalid:
 * CUSOLVER_STATUS_INVALID_VALUE, with devInfo = -i queued when possible
 * (Note [Invalid arguments] in emu_solver.cpp). */
cusolverStatus_t refuse(const Handle &h, Ty t, int *info, int i);

} // namespace solver
} // namespace dt_emu

#endif /* DT_EMU_SOLVER_H */
