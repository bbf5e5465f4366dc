/* cpu_blas.h - OpenBLAS for the CPU backend: the scipy-openblas64 wheel's
 * shared library, opened on first use (Note [Loading OpenBLAS] in
 * cpu_blas.c).  Its header, cblas.h, gives the prototypes: ILP64 (blasint
 * is 64 bits) with the wheel's scipy_ prefix and 64_ suffix. */
#ifndef DT_CPU_BLAS_H
#define DT_CPU_BLAS_H

#include <cblas.h>
/* the wheel's LAPACK is ILP64 too: lapack_int must be 64 bits */
#define LAPACK_ILP64 1
#include <lapacke.h>

_Static_assert(sizeof(blasint) == 8 && sizeof(lapack_int) == 8,
               "scipy-openblas64 is ILP64: 64-bit BLAS and LAPACK integers");

#include "error.h"

/* X(field, symbol) for every function the backend calls */
#define DT_CPU_BLAS_FUNCTIONS(X)                                                          \
    X(sgemm, scipy_cblas_sgemm64_) X(dgemm, scipy_cblas_dgemm64_)                         \
    X(cgemm, scipy_cblas_cgemm64_) X(zgemm, scipy_cblas_zgemm64_)                         \
    X(sgemv, scipy_cblas_sgemv64_) X(dgemv, scipy_cblas_dgemv64_)                         \
    X(cgemv, scipy_cblas_cgemv64_) X(zgemv, scipy_cblas_zgemv64_)                         \
    X(sdot, scipy_cblas_sdot64_) X(ddot, scipy_cblas_ddot64_)                             \
    X(cdotu_sub, scipy_cblas_cdotu_sub64_) X(zdotu_sub, scipy_cblas_zdotu_sub64_)         \
    X(set_num_threads, scipy_openblas_set_num_threads64_)                                 \
    DT_CPU_LAPACKE(X, s) DT_CPU_LAPACKE(X, d) DT_CPU_LAPACKE(X, c) DT_CPU_LAPACKE(X, z)    \
    X(sorgqr, scipy_LAPACKE_sorgqr64_) X(dorgqr, scipy_LAPACKE_dorgqr64_)                 \
    X(cungqr, scipy_LAPACKE_cungqr64_) X(zungqr, scipy_LAPACKE_zungqr64_)                 \
    X(ssyevd, scipy_LAPACKE_ssyevd64_) X(dsyevd, scipy_LAPACKE_dsyevd64_)                 \
    X(cheevd, scipy_LAPACKE_cheevd64_) X(zheevd, scipy_LAPACKE_zheevd64_)                 \
    X(set_nancheck, scipy_LAPACKE_set_nancheck64_)

/* the LAPACKE functions of one type letter T, as fields T##getrf ... */
#define DT_CPU_LAPACKE(X, T)                                                              \
    X(T##getrf, scipy_LAPACKE_##T##getrf64_) X(T##getrs, scipy_LAPACKE_##T##getrs64_)     \
    X(T##potrf, scipy_LAPACKE_##T##potrf64_) X(T##geqrf, scipy_LAPACKE_##T##geqrf64_)     \
    X(T##gesdd, scipy_LAPACKE_##T##gesdd64_) X(T##geev, scipy_LAPACKE_##T##geev64_)

typedef struct dt_cpu_blas {
#define DT_CPU_BLAS_FIELD_(FIELD, SYMBOL) __typeof__(&SYMBOL) FIELD;
    DT_CPU_BLAS_FUNCTIONS(DT_CPU_BLAS_FIELD_)
#undef DT_CPU_BLAS_FIELD_
} dt_cpu_blas;

/* Where the library is (a path for dlopen), set by the Python layer at
 * import; nothing is opened here.  Fails only for a path too long. */
dt_status dt_cpu_blas_set_library(const char *path, dt_error *err);

/* The functions, the library opened on the first call (thread-safe), with
 * OpenBLAS's thread count made devtensor's (dt_cpu_get_num_threads); NULL
 * with a RuntimeError saying why when it cannot be opened. */
const dt_cpu_blas *dt_cpu_blas_get(dt_error *err);

#endif /* DT_CPU_BLAS_H */
