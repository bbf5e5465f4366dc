/* cpu_host_cache.c - the cache of big freed host blocks (Note [Host block
 * cache] in cpu_host_cache.h). */
#include "cpu_host_cache.h"
#include "env.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#define CACHE_SLOTS 16
#define CACHE_DEFAULT_BYTES (512ull << 20)

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct { void *ptr; size_t size; } slots[CACHE_SLOTS];
static size_t cached_bytes;
static long long budget = -1; /* read from the environment on first use */

static size_t cache_budget(void)
{
    if (budget < 0) {
        long long v;
        budget = dt_env_int("DEVTENSOR_CPU_CACHE_BYTES", 0, LLONG_MAX, &v) == 1
                     ? v : (long long)CACHE_DEFAULT_BYTES;
    }
    return (size_t)budget;
}

void *dt_cpu_cache_take(size_t size)
{
    void *p = NULL;
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < CACHE_SLOTS && p == NULL; i++)
        if (slots[i].ptr != NULL && slots[i].size == size) {
            p = slots[i].ptr;
            slots[i].ptr = NULL;
            cached_bytes -= size;
        }
    pthread_mutex_unlock(&cache_lock);
    return p;
}

int dt_cpu_cache_give(void *ptr, size_t size)
{
    int kept = 0;
    pthread_mutex_lock(&cache_lock);
    if (size <= cache_budget() && cached_bytes <= cache_budget() - size)
        for (int i = 0; i < CACHE_SLOTS && !kept; i++)
            if (slots[i].ptr == NULL) {
                slots[i].ptr = ptr;
                slots[i].size = size;
                cached_bytes += size;
                kept = 1;
            }
    pthread_mutex_unlock(&cache_lock);
    return kept;
}

void dt_cpu_cache_empty(void)
{
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < CACHE_SLOTS; i++) {
        free(slots[i].ptr);
        slots[i].ptr = NULL;
    }
    cached_bytes = 0;
    pthread_mutex_unlock(&cache_lock);
}
