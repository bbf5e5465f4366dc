/* emu_blas_test.h - what the two files of the emulated cuBLAS's test
 * program share (emu_blas_test.cpp: the API, streams and errors;
 * emu_blas_values.cpp: the values of products): the checking macros, a
 * handle, and the case table's entries.  emu_blas_lu_test.cpp has the
 * cases of the batched LU routines. */
#ifndef DT_EMU_BLAS_TEST_H
#define DT_EMU_BLAS_TEST_H

#include <cublas_v2.h>

#include "emu_test.h"

#include <cstdio>
#include <functional>
#include <string>
#include <vector>


#define EXPECT_ST(call, code)                                                                    \
    do {                                                                                         \
        cublasStatus_t s_ = (call);                                                              \
        if (s_ != (code)) {                                                                      \
            printf("FAIL %s:%d: %s gave %d (%s), wanted %s\n", __FILE__, __LINE__, #call, (int)s_, \
                   cublasGetStatusString(s_), #code);                                            \
            failures++;                                                                          \
        }                                                                                        \
    } while (0)
#define BLAS_OK(call) EXPECT_ST(call, CUBLAS_STATUS_SUCCESS)

static inline cublasHandle_t handle()
{
    cublasHandle_t h = nullptr;
    BLAS_OK(cublasCreate(&h));
    return h;
}

/* emu_blas_values.cpp's cases: tf32, and gemm_<types> for every supported
 * combination of types */
std::vector<Case> value_cases();

/* emu_blas_lu_test.cpp's cases: the batched LU routines */
std::vector<Case> lu_cases();

#endif /* DT_EMU_BLAS_TEST_H */
