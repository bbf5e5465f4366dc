/* cusolver_common.h - devtensor's own declarations of the types that
 * cuSOLVER's APIs share and that csrc/cuda uses (the dense API's calls are
 * in cusolverDn.h), for building against the CPU emulation
 * (Note [CUDA libraries on the CPU] in csrc/emu/emu_runtime.h).  cuSOLVER's
 * names and numeric values, each checked against the CUDA 13 toolkit's
 * cusolver_common.h (tests/test_emu_solver.py compares them where a
 * toolkit is installed); not NVIDIA's header.  Usable from C11 and C++17.
 *
 * Not declared: the other enums of the toolkit's header (eigenvalue types
 * and ranges, norms, IRS refinement, precisions, algorithm, storage and
 * direction modes, determinism, math modes) and cusolverGetProperty /
 * cusolverGetVersion, until csrc/cuda needs them.
 */
#ifndef DT_EMU_CUSOLVER_COMMON_H
#define DT_EMU_CUSOLVER_COMMON_H

#include "library_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CUSOLVER_STATUS_SUCCESS = 0,
    CUSOLVER_STATUS_NOT_INITIALIZED = 1,
    CUSOLVER_STATUS_ALLOC_FAILED = 2,
    CUSOLVER_STATUS_INVALID_VALUE = 3,
    CUSOLVER_STATUS_ARCH_MISMATCH = 4,
    CUSOLVER_STATUS_MAPPING_ERROR = 5,
    CUSOLVER_STATUS_EXECUTION_FAILED = 6,
    CUSOLVER_STATUS_INTERNAL_ERROR = 7,
    CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
    CUSOLVER_STATUS_NOT_SUPPORTED = 9,
    CUSOLVER_STATUS_ZERO_PIVOT = 10,
    CUSOLVER_STATUS_INVALID_LICENSE = 11,
    CUSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED = 12,
    CUSOLVER_STATUS_IRS_PARAMS_INVALID = 13,
    CUSOLVER_STATUS_IRS_PARAMS_INVALID_PREC = 14,
    CUSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE = 15,
    CUSOLVER_STATUS_IRS_PARAMS_INVALID_MAXITER = 16,
    CUSOLVER_STATUS_IRS_INTERNAL_ERROR = 20,
    CUSOLVER_STATUS_IRS_NOT_SUPPORTED = 21,
    CUSOLVER_STATUS_IRS_OUT_OF_RANGE = 22,
    CUSOLVER_STATUS_IRS_NRHS_NOT_SUPPORTED_FOR_REFINE_GMRES = 23,
    CUSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED = 25,
    CUSOLVER_STATUS_IRS_INFOS_NOT_DESTROYED = 26,
    CUSOLVER_STATUS_IRS_MATRIX_SINGULAR = 30,
    CUSOLVER_STATUS_INVALID_WORKSPACE = 31
} cusolverStatus_t;

typedef enum {
    CUSOLVER_EIG_MODE_NOVECTOR = 0,
    CUSOLVER_EIG_MODE_VECTOR = 1
} cusolverEigMode_t;

#ifdef __cplusplus
}
#endif

#endif /* DT_EMU_CUSOLVER_COMMON_H */
