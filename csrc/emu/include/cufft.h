/* cufft.h - devtensor's own declarations of the cuFFT calls that csrc/cuda
 * makes, implemented on the CPU by csrc/emu/emu_fft.cpp (Note [CUDA
 * libraries on the CPU] in csrc/emu/emu_runtime.h).  cuFFT's names,
 * exported symbols, prototypes and numeric values, each checked against
 * the CUDA 13 toolkit's cufft.h (tests/test_emu_fft.py compares them where
 * a toolkit is installed); not NVIDIA's header.  Like the toolkit's, it
 * includes cuComplex.h, driver_types.h and library_types.h.  Usable from
 * C11 and C++17.
 *
 * Plans are made with cufftCreate and cufftMakePlanMany64 (the basic data
 * layout: inembed and onembed NULL), given a work area by the caller
 * (cufftSetAutoAllocation(plan, 0) and cufftSetWorkArea) and a stream.
 * Not declared, so that using them fails to compile in the emulated build
 * until they are emulated too: the cufftPlan* and int-sized MakePlan
 * calls, the advanced layouts, the size estimates, the Xt and callback
 * APIs, half-precision and multi-GPU plans.
 */
#ifndef DT_EMU_CUFFT_H
#define DT_EMU_CUFFT_H

#include <stddef.h>

#include "cuComplex.h"
#include "driver_types.h"
#include "library_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUFFT_VER_MAJOR 12
#define CUFFT_VER_MINOR 0
#define CUFFT_VER_PATCH 0
#define CUFFT_VERSION 12000

typedef enum cufftResult_t {
    CUFFT_SUCCESS = 0x0,
    CUFFT_INVALID_PLAN = 0x1,
    CUFFT_ALLOC_FAILED = 0x2,
    CUFFT_INVALID_TYPE = 0x3,
    CUFFT_INVALID_VALUE = 0x4,
    CUFFT_INTERNAL_ERROR = 0x5,
    CUFFT_EXEC_FAILED = 0x6,
    CUFFT_SETUP_FAILED = 0x7,
    CUFFT_INVALID_SIZE = 0x8,
    CUFFT_UNALIGNED_DATA = 0x9,
    CUFFT_INVALID_DEVICE = 0xB,
    CUFFT_NO_WORKSPACE = 0xD,
    CUFFT_NOT_IMPLEMENTED = 0xE,
    CUFFT_NOT_SUPPORTED = 0x10,
    CUFFT_MISSING_DEPENDENCY = 0x11,
    CUFFT_NVRTC_FAILURE = 0x12,
    CUFFT_NVJITLINK_FAILURE = 0x13,
    CUFFT_NVSHMEM_FAILURE = 0x14
} cufftResult;

typedef float cufftReal;
typedef double cufftDoubleReal;
typedef cuComplex cufftComplex;
typedef cuDoubleComplex cufftDoubleComplex;

#define CUFFT_FORWARD -1
#define CUFFT_INVERSE 1

typedef enum cufftType_t {
    CUFFT_R2C = 0x2a,
    CUFFT_C2R = 0x2c,
    CUFFT_C2C = 0x29,
    CUFFT_D2Z = 0x6a,
    CUFFT_Z2D = 0x6c,
    CUFFT_Z2Z = 0x69
} cufftType;

typedef int cufftHandle;

cufftResult cufftCreate(cufftHandle *handle);
cufftResult cufftDestroy(cufftHandle plan);
cufftResult cufftSetAutoAllocation(cufftHandle plan, int autoAllocate);
cufftResult cufftMakePlanMany64(cufftHandle plan, int rank, long long int *n,
                                long long int *inembed, long long int istride,
                                long long int idist, long long int *onembed,
                                long long int ostride, long long int odist, cufftType type,
                                long long int batch, size_t *workSize);
cufftResult cufftSetWorkArea(cufftHandle plan, void *workArea);
cufftResult cufftSetStream(cufftHandle plan, cudaStream_t stream);
cufftResult cufftExecC2C(cufftHandle plan, cufftComplex *idata, cufftComplex *odata,
                         int direction);
cufftResult cufftExecR2C(cufftHandle plan, cufftReal *idata, cufftComplex *odata);
cufftResult cufftExecC2R(cufftHandle plan, cufftComplex *idata, cufftReal *odata);
cufftResult cufftExecZ2Z(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleComplex *odata,
                         int direction);
cufftResult cufftExecD2Z(cufftHandle plan, cufftDoubleReal *idata, cufftDoubleComplex *odata);
cufftResult cufftExecZ2D(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleReal *odata);

#ifdef __cplusplus
}
#endif

#endif /* DT_EMU_CUFFT_H */
