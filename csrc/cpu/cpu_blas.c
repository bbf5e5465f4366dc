/* cpu_blas.c - opening OpenBLAS (the scipy-openblas64 wheel) for the CPU
 * backend's matrix products.
 *
 * Note [Loading OpenBLAS]
 * The library is the one NumPy and SciPy ship, installed as the Python
 * package scipy_openblas64 (a dependency of devtensor).  It is opened with
 * dlopen the first time a product needs it, not linked: importing
 * devtensor starts no OpenBLAS threads and maps no 30 MB library, and
 * the path comes from the Python layer (devtensor/_blas.py finds the
 * installed package), since a link-time path would break with pip's build
 * isolation and with relocated environments.  RTLD_LOCAL keeps its
 * symbols from meeting NumPy's own copy of OpenBLAS (the same names, in
 * numpy.libs).  OpenBLAS runs its own threads: their number follows
 * devtensor's (set_num_threads), checked before each use, so
 * devtensor.set_num_threads governs BLAS as it governs our loops.
 */
#include "cpu_blas.h"

#include <dlfcn.h>
#include <stdio.h>
#include <pthread.h>
#include <string.h>

#include "cpu_parallel.h"

static char library_path[4096];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static dt_cpu_blas table;
static int loaded;               /* table is filled (read without the lock once set) */
static int blas_threads;         /* what OpenBLAS was last told */
static char load_error[4096 + 512];

dt_status dt_cpu_blas_set_library(const char *path, dt_error *err)
{
    if (strlen(path) >= sizeof library_path)
        return dt_error_set(err, DT_ERR_VALUE, "the OpenBLAS path is too long");
    pthread_mutex_lock(&lock);
    if (!loaded)
        strcpy(library_path, path);
    pthread_mutex_unlock(&lock);
    return DT_OK;
}

static void load_locked(void)
{
    if (library_path[0] == '\0') {
        snprintf(load_error, sizeof load_error, "OpenBLAS was not found: devtensor needs the "
                 "scipy-openblas64 package for matrix products on the CPU (pip install "
                 "scipy-openblas64)");
        return;
    }
    void *h = dlopen(library_path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "OpenBLAS could not be loaded from %s: %s",
                 library_path, why ? why : "unknown error");
        return;
    }
    dt_cpu_blas t;
#define DT_CPU_BLAS_LOAD_(FIELD, SYMBOL)                                                   \
    *(void **)&t.FIELD = dlsym(h, #SYMBOL);                                                \
    if (t.FIELD == NULL) {                                                                 \
        snprintf(load_error, sizeof load_error, "OpenBLAS at %s has no %s", library_path, \
                 #SYMBOL);                                                                 \
        dlclose(h);                                                                        \
        return;                                                                            \
    }
    DT_CPU_BLAS_FUNCTIONS(DT_CPU_BLAS_LOAD_)
#undef DT_CPU_BLAS_LOAD_
    /* NaN in a matrix is data, as in NumPy (inv of [[nan, 0], [0, 1]] is
     * [[nan, nan], [0, 1]]): LAPACKE's NaN scan would refuse it */
    t.set_nancheck(0);
    table = t;
    __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
}

const dt_cpu_blas *dt_cpu_blas_get(dt_error *err)
{
    if (!__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&lock);
        if (!loaded && load_error[0] == '\0')
            load_locked();
        pthread_mutex_unlock(&lock);
        if (!__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) {
            dt_error_set(err, DT_ERR_RUNTIME, "%s", load_error);
            return NULL;
        }
    }
    int n = dt_cpu_get_num_threads();
    if (__atomic_load_n(&blas_threads, __ATOMIC_RELAXED) != n) {
        pthread_mutex_lock(&lock);
        if (blas_threads != n) {
            table.set_num_threads((int)n);
            __atomic_store_n(&blas_threads, n, __ATOMIC_RELAXED);
        }
        pthread_mutex_unlock(&lock);
    }
    return &table;
}
