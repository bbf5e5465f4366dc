/* library.c - opening a shared library on first use (library.h, Note
 * [Libraries opened on first use]). */
#include "library.h"

#include <dlfcn.h>
#include <stdio.h>

dt_status dt_library_ensure(dt_library *lib, int (*load)(char *error, size_t size),
                            dt_error *err)
{
    if (__atomic_load_n(&lib->loaded, __ATOMIC_ACQUIRE))
        return DT_OK;
    pthread_mutex_lock(&lib->lock);
    if (!lib->loaded && lib->error[0] == '\0') {
        if (load(lib->error, sizeof lib->error))
            __atomic_store_n(&lib->loaded, 1, __ATOMIC_RELEASE);
        else if (lib->error[0] == '\0')
            snprintf(lib->error, sizeof lib->error, "a library could not be loaded");
    }
    pthread_mutex_unlock(&lib->lock);
    if (__atomic_load_n(&lib->loaded, __ATOMIC_ACQUIRE))
        return DT_OK;
    return dt_error_set(err, DT_ERR_RUNTIME, "%s", lib->error);
}

void *dt_library_open(const char *const *paths, size_t n, const char **why)
{
    *why = "not found";
    for (size_t i = 0; i < n; i++) {
        if (paths[i] == NULL)
            continue;
        void *h = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL);
        if (h != NULL)
            return h;
        const char *reason = dlerror();
        if (reason != NULL)
            *why = reason;
    }
    return NULL;
}

int dt_library_resolve(void *handle, const char *library, const char *const *names,
                       void **slots, size_t n, char *error, size_t size)
{
    for (size_t i = 0; i < n; i++) {
        slots[i] = dlsym(handle, names[i]);
        if (slots[i] == NULL) {
            snprintf(error, size, "%s has no %s", library, names[i]);
            dlclose(handle);
            return 0;
        }
    }
    return 1;
}

int dt_library_load(const char *name, const char *const *paths, size_t npaths,
                    const char *unavailable, const char *const *names, void **slots, size_t n,
                    char *error, size_t size)
{
    const char *why;
    void *h = dt_library_open(paths, npaths, &why);
    if (h == NULL) {
        snprintf(error, size, "%s (%s) could not be loaded, so %s are unavailable: %s", name,
                 paths[0], unavailable, why);
        return 0;
    }
    return dt_library_resolve(h, paths[0], names, slots, n, error, size);
}
