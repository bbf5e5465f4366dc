/* emu_blas.h - what the two files of the emulated cuBLAS share
 * (emu_blas.cpp: handles, statuses, the product; emu_blas_lu.cpp: the
 * batched LU routines).  C++ only; nothing here is exported. */
#ifndef DT_EMU_BLAS_H
#define DT_EMU_BLAS_H

#include <cublas_v2.h>

namespace dt_emu {

/* The device and stream of a live handle (Note [Handles] in emu_blas.cpp);
 * CUBLAS_STATUS_NOT_INITIALIZED for a NULL, destroyed or unknown one. */
cublasStatus_t blas_handle(cublasHandle_t handle, int *device, cudaStream_t *stream);

} // namespace dt_emu

#endif /* DT_EMU_BLAS_H */
