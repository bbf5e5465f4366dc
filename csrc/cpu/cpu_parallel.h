/* cpu_parallel.h - a small persistent thread pool for the CPU loops.
 *
 * dt_cpu_parallel_for splits an index range into contiguous chunks and runs
 * them on the pool's threads and on the calling thread.  The pool is made on
 * first parallel use (never at import), re-made after fork() in the child,
 * serves one range at a time (a second caller, or a nested call from inside
 * a chunk, runs its range inline) and touches no Python object.
 */
#ifndef DT_CPU_PARALLEL_H
#define DT_CPU_PARALLEL_H

#include <stdint.h>

/* The most threads dt_cpu_set_num_threads accepts. */
#define DT_CPU_MAX_THREADS 1024

/* One chunk of work: indices [begin, end) of the range. */
typedef void (*dt_cpu_parallel_fn)(int64_t begin, int64_t end, void *ctx);

/* Run fn over [0, n) in contiguous chunks of at least `grain` indices on up
 * to dt_cpu_get_num_threads() threads (the caller is one of them); returns
 * when every chunk is done.  Runs fn(0, n, ctx) inline when n < 2 * grain,
 * with one thread, inside another parallel range, or while the pool serves
 * another caller.  Never fails: if threads cannot be started, it runs with
 * those it has. */
void dt_cpu_parallel_for(int64_t n, int64_t grain, dt_cpu_parallel_fn fn, void *ctx);

/* Threads used by dt_cpu_parallel_for: set by dt_cpu_set_num_threads, else
 * the environment variable DEVTENSOR_NUM_THREADS (read on first use), else
 * OMP_NUM_THREADS, else the CPUs this process may run on (sched_getaffinity). */
int dt_cpu_get_num_threads(void);
/* Returns 0, or -1 (and changes nothing) unless 1 <= n <= DT_CPU_MAX_THREADS. */
int dt_cpu_set_num_threads(int n);

/* 1 on a thread that is running a chunk of a parallel range. */
int dt_cpu_in_parallel(void);

#endif /* DT_CPU_PARALLEL_H */
