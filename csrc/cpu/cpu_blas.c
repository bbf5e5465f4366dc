/* cpu_blas.c - opening OpenBLAS (the scipy-openblas64 wheel) for the CPU
 * backend's matrix products.
 *
 * Note [Loading OpenBLAS]
 * The library is the one NumPy and SciPy ship, installed as the Python
 * package scipy_openblas64 (a dependency of devtensor).  It is opened with
 * dlopen the first time a product needs it, not linked (Note [Libraries
 * opened on first use] in library.h): importing devtensor starts no
 * OpenBLAS threads and maps no 30 MB library, and the path comes from the
 * Python layer (devtensor/_blas.py finds the installed package), since a
 * link-time path would break with pip's build isolation and with
 * relocated environments.  RTLD_LOCAL keeps its symbols from meeting
 * NumPy's own copy of OpenBLAS (the same names, in numpy.libs).  OpenBLAS
 * runs its own threads: their number follows devtensor's
 * (set_num_threads), checked before each use, so
 * devtensor.set_num_threads governs BLAS as it governs our loops.
 */
#include "cpu_blas.h"

#include <stdio.h>
#include <pthread.h>
#include <string.h>

#include "cpu_parallel.h"
#include "library.h"

static const char *const symbols[] = {
#define DT_CPU_BLAS_NAME_(FIELD, SYMBOL) #SYMBOL,
    DT_CPU_BLAS_FUNCTIONS(DT_CPU_BLAS_NAME_)
#undef DT_CPU_BLAS_NAME_
};
#define N_SYMBOLS (sizeof symbols / sizeof *symbols)

static union {
    dt_cpu_blas functions;
    void *slots[N_SYMBOLS];
} table;
_Static_assert(sizeof(dt_cpu_blas) == sizeof(void *[N_SYMBOLS]), "one pointer per function");

static dt_library library = DT_LIBRARY_INIT;
static char library_path[4096];  /* written under library.lock, before loading */
static int blas_threads;         /* what OpenBLAS was last told */

dt_status dt_cpu_blas_set_library(const char *path, dt_error *err)
{
    if (strlen(path) >= sizeof library_path)
        return dt_error_set(err, DT_ERR_VALUE, "the OpenBLAS path is too long");
    pthread_mutex_lock(&library.lock);
    if (!library.loaded)
        strcpy(library_path, path);
    pthread_mutex_unlock(&library.lock);
    return DT_OK;
}

static int load(char *error, size_t size)
{
    if (library_path[0] == '\0') {
        snprintf(error, size, "OpenBLAS was not found: devtensor needs the scipy-openblas64 "
                 "package for matrix products on the CPU (pip install scipy-openblas64)");
        return 0;
    }
    const char *path = library_path, *why;
    void *h = dt_library_open(&path, 1, &why);
    if (h == NULL) {
        snprintf(error, size, "OpenBLAS could not be loaded from %.3000s: %s", library_path, why);
        return 0;
    }
    if (!dt_library_resolve(h, "OpenBLAS", symbols, table.slots, N_SYMBOLS, error, size))
        return 0;
    /* NaN in a matrix is data, as in NumPy (inv of [[nan, 0], [0, 1]] is
     * [[nan, nan], [0, 1]]): LAPACKE's NaN scan would refuse it */
    table.functions.set_nancheck(0);
    return 1;
}

const dt_cpu_blas *dt_cpu_blas_get(dt_error *err)
{
    if (dt_library_ensure(&library, load, err) != DT_OK)
        return NULL;
    int n = dt_cpu_get_num_threads();
    if (__atomic_load_n(&blas_threads, __ATOMIC_RELAXED) != n) {
        pthread_mutex_lock(&library.lock);
        if (blas_threads != n) {
            table.functions.set_num_threads((int)n);
            __atomic_store_n(&blas_threads, n, __ATOMIC_RELAXED);
        }
        pthread_mutex_unlock(&library.lock);
    }
    return &table.functions;
}
