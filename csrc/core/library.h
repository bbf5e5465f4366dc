/* library.h - a shared library opened on first use: OpenBLAS for the CPU
 * backend, cuBLAS and cuSOLVER for the CUDA backend.
 *
 * Note [Libraries opened on first use]
 * The numerical libraries are large (cuBLAS is about 100 MB) and a machine
 * may lack them: they are opened with dlopen by the first call that needs
 * them, never at import, with RTLD_LOCAL so that their symbols meet no
 * other copy (NumPy's OpenBLAS has the same names).  Loading is tried
 * once: a failure is kept, with its reason, and every later call gets the
 * same clear error while everything else keeps working.  The caller keeps
 * its functions in a struct of function pointers that a union lays over an
 * array of void pointers, filled by name (dt_library_resolve); the emulated
 * CUDA build links the reference implementations and fills the same struct
 * directly.
 */
#ifndef DT_LIBRARY_H
#define DT_LIBRARY_H

#include <pthread.h>
#include <stddef.h>

#include "error.h"

typedef struct dt_library {
    pthread_mutex_t lock;
    int loaded;         /* the caller's table is filled (read without the lock once set) */
    char error[1024];   /* why loading failed, kept (loading is tried once) */
} dt_library;

#define DT_LIBRARY_INIT {PTHREAD_MUTEX_INITIALIZER, 0, {0}}

/* Runs load(error, sizeof error) under lib's lock on the first call; it
 * returns 1 once the caller's table is filled, or 0 with error written.
 * DT_OK once loaded; otherwise err is set (DT_ERR_RUNTIME) to that error,
 * on this call and every later one. */
dt_status dt_library_ensure(dt_library *lib, int (*load)(char *error, size_t size),
                            dt_error *err);

/* The first of paths[0..n) that dlopen opens (NULL entries skipped), or
 * NULL with *why set to the loader's reason for the last one tried. */
void *dt_library_open(const char *const *paths, size_t n, const char **why);

/* Every names[i] looked up in handle into slots[i]: 1, or 0 with error
 * set to "<library> has no <name>" and the handle closed. */
int dt_library_resolve(void *handle, const char *library, const char *const *names,
                       void **slots, size_t n, char *error, size_t size);

/* A CUDA library's load: dt_library_open of paths, then
 * dt_library_resolve of its symbols; 1, or 0 with error saying "<name>
 * (<paths[0]>) could not be loaded, so <unavailable> are unavailable:
 * <reason>" or which symbol is missing. */
int dt_library_load(const char *name, const char *const *paths, size_t npaths,
                    const char *unavailable, const char *const *names, void **slots, size_t n,
                    char *error, size_t size);

#endif /* DT_LIBRARY_H */
