/* thread_exit.c - work a thread's own caches ask to be done when it ends
 * (see thread_exit.h).
 *
 * Note [Per-thread caches end with their thread]
 * The spare storage structs (storage.c) and the spare reduction loop
 * (reduce.c) are kept per thread, without locks.  A program that starts a
 * thread per task would leave a few kilobytes behind for every thread that
 * ended (84 MB over 20,000 short threads); so a thread that keeps one
 * arranges here, through a pthread key's destructor, which runs while the
 * thread's own variables are still there, for it to be freed at its end. */
#include "thread_exit.h"

#include <pthread.h>

static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static int key_ok;
static __thread void (*pending[DT_THREAD_EXIT_MAX])(void);
static __thread int n_pending;

static void run_pending(void *unused)
{
    (void)unused;
    int n = n_pending;
    n_pending = 0; /* work asked for after this (a late release) sets the key again: run once more */
    for (int i = 0; i < n; i++)
        pending[i]();
}

static void make_key(void) { key_ok = pthread_key_create(&key, run_pending) == 0; }

int dt_at_thread_exit(void (*fn)(void))
{
    for (int i = 0; i < n_pending; i++)
        if (pending[i] == fn)
            return 0;
    pthread_once(&key_once, make_key);
    if (!key_ok || n_pending == DT_THREAD_EXIT_MAX)
        return -1;
    /* the destructor runs only for a non-NULL value */
    if (n_pending == 0 && pthread_setspecific(key, &key) != 0)
        return -1;
    pending[n_pending++] = fn;
    return 0;
}
