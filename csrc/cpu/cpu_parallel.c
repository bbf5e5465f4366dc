/* cpu_parallel.c - the CPU backend's thread pool (see cpu_parallel.h).
 *
 * Note [CPU thread pool]
 * One process-wide pool of detached pthreads, started on the first range
 * big enough to split and grown when the thread count goes up (a pool that
 * is too big only keeps idle threads asleep).  A range is published as a
 * job: the caller bumps a generation number and wakes the workers; every
 * participant (the caller included) claims chunks from an atomic counter
 * until none are left, so a worker that wakes late costs nothing but its
 * share; the caller then waits until no worker is inside the job, and only
 * then takes the job (which lives on its stack) away.  Workers register
 * (busy++) under the mutex and only while the job is still published, so
 * once the caller has seen busy == 0 with the job published no worker can
 * touch it again.
 *
 * The pool serves one range at a time: a second thread that asks while it
 * is busy (two Python threads running big ops without the GIL) runs its
 * range inline instead of queueing, and so does a chunk that asks for a
 * nested range (never recursive entry, never a deadlock).
 *
 * Note [Fork safety]
 * After fork() only the forking thread exists in the child, so the child's
 * copy of the pool has no workers and maybe a half-published job.  An
 * atfork handler (registered when the pool is first made) holds the pool's
 * mutex across fork(), then resets the child's pool to "not started"; the
 * child starts fresh workers on its next big range.
 *
 * Note [Worker signals]
 * Workers block asynchronous signals (SIGINT, SIGTERM, ...) so that they
 * are delivered to Python's threads; faults (SIGSEGV, SIGBUS, SIGFPE, ...)
 * stay unblocked so that a crash in a worker still reaches faulthandler.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#endif
#include "cpu_parallel.h"
#include "env.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Chunks per participating thread: a little slack so that a worker that is
 * scheduled late does not hold everyone up, while chunks stay large. */
#define DT_CPU_CHUNKS_PER_THREAD 4

/* ---- the thread count ---- */

static atomic_int num_threads; /* 0: not decided yet */

static int dt_cpu_cpus_count(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int c = CPU_COUNT(&set);
        if (c > 0)
            return c > DT_CPU_MAX_THREADS ? DT_CPU_MAX_THREADS : c;
    }
#endif
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    if (c < 1)
        return 1;
    return c > DT_CPU_MAX_THREADS ? DT_CPU_MAX_THREADS : (int)c;
}

/* Note [OMP_NUM_THREADS]
 * Without DEVTENSOR_NUM_THREADS, devtensor takes its thread count from
 * OMP_NUM_THREADS as PyTorch, OpenBLAS and MKL do: it is how a program
 * running several processes (Dask's worker processes, which distributed
 * starts with OMP_NUM_THREADS=1; MPI ranks; joblib) keeps every library in
 * them from starting a thread per CPU and oversubscribing the machine.
 * Only its first number counts ("4,2" gives nested OpenMP levels); a value
 * that is not a count is ignored, silently (it belongs to OpenMP). */
static int dt_cpu_omp_threads(void)
{
    const char *s = getenv("OMP_NUM_THREADS");
    if (s == NULL)
        return 0;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || errno != 0 || (*end != '\0' && *end != ',') || v < 1)
        return 0;
    return v > DT_CPU_MAX_THREADS ? DT_CPU_MAX_THREADS : (int)v;
}

/* DEVTENSOR_NUM_THREADS if it is a valid count (else the import warned, see
 * Note [Environment variables]), else OMP_NUM_THREADS (Note
 * [OMP_NUM_THREADS]), else the CPUs. */
static int dt_cpu_threads_default(void)
{
    long long v;
    if (dt_env_int("DEVTENSOR_NUM_THREADS", 1, DT_CPU_MAX_THREADS, &v) == 1)
        return (int)v;
    int omp = dt_cpu_omp_threads();
    return omp > 0 ? omp : dt_cpu_cpus_count();
}

int dt_cpu_get_num_threads(void)
{
    int n = atomic_load_explicit(&num_threads, memory_order_relaxed);
    if (n == 0) {
        int expected = 0;
        atomic_compare_exchange_strong(&num_threads, &expected, dt_cpu_threads_default());
        n = atomic_load(&num_threads);
    }
    return n;
}

int dt_cpu_set_num_threads(int n)
{
    if (n < 1 || n > DT_CPU_MAX_THREADS)
        return -1;
    atomic_store(&num_threads, n);
    return 0;
}

/* ---- the pool ---- */

typedef struct dt_cpu_job {
    dt_cpu_parallel_fn fn;
    void *ctx;
    int64_t n;
    int64_t nchunks;
    atomic_llong next; /* the next chunk to claim */
} dt_cpu_job;

static struct {
    pthread_mutex_t mu;
    pthread_cond_t wake;   /* workers wait here for a job */
    pthread_cond_t idle;   /* the caller waits here for busy == 0 */
    int nworkers;          /* workers started (ids 0 .. nworkers-1) */
    int participants;      /* workers with id < participants join the job */
    int sleepers;          /* workers waiting on `wake` */
    int caller_waiting;    /* the caller waits on `idle` */
    dt_cpu_job *job;       /* the published job, NULL when none */
    atomic_ulong generation; /* bumped for every job */
    atomic_int busy;       /* workers inside the published job (incremented under mu) */
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER};

static atomic_flag pool_in_use = ATOMIC_FLAG_INIT; /* one caller at a time */
static _Thread_local int in_parallel;             /* this thread runs a chunk */
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

int dt_cpu_in_parallel(void) { return in_parallel; }

/* Note [Spinning before sleeping]
 * Waking a sleeping thread through a futex costs ~5-30 us (more on a busy
 * machine), as much as a whole 2^17-element add.  So a worker that has
 * finished a job watches the generation number for DT_CPU_SPIN_NS before it
 * sleeps (back-to-back ops then start at once), and the caller watches
 * `busy` for as long before it sleeps on `idle`.  The spin is bounded, so
 * an idle pool costs no CPU. */
#define DT_CPU_SPIN_NS 100000

static inline void dt_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static int64_t dt_cpu_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* One spin iteration: pause, and every 64th time check the clock; returns 0
 * once DT_CPU_SPIN_NS have passed since the first check. */
static int dt_cpu_spin_step(unsigned i, int64_t *deadline)
{
    dt_cpu_relax();
    if ((i & 63) != 63)
        return 1;
    int64_t t = dt_cpu_now_ns();
    if (*deadline == 0)
        *deadline = t + DT_CPU_SPIN_NS;
    return t <= *deadline;
}

/* Spin until *value != unless (returns 1), or for DT_CPU_SPIN_NS (returns 0). */
static int dt_cpu_spin_ulong(atomic_ulong *value, unsigned long unless)
{
    int64_t deadline = 0;
    for (unsigned i = 0;; i++) {
        if (atomic_load_explicit(value, memory_order_acquire) != unless)
            return 1;
        if (!dt_cpu_spin_step(i, &deadline))
            return 0;
    }
}

/* Spin until *value == 0 (returns 1), or for DT_CPU_SPIN_NS (returns 0). */
static int dt_cpu_spin_int_zero(atomic_int *value)
{
    int64_t deadline = 0;
    for (unsigned i = 0;; i++) {
        if (atomic_load_explicit(value, memory_order_acquire) == 0)
            return 1;
        if (!dt_cpu_spin_step(i, &deadline))
            return 0;
    }
}

/* Claim and run chunks until none are left. */
static void dt_cpu_job_run(dt_cpu_job *job)
{
    int64_t base = job->n / job->nchunks, rem = job->n % job->nchunks;
    for (;;) {
        int64_t c = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);
        if (c >= job->nchunks)
            break;
        int64_t begin = c * base + (c < rem ? c : rem);
        int64_t end = begin + base + (c < rem ? 1 : 0);
        job->fn(begin, end, job->ctx);
    }
}

typedef struct dt_cpu_worker_start {
    int id;
    unsigned long generation; /* the last generation this worker need not join */
} dt_cpu_worker_start;

static dt_cpu_worker_start worker_starts[DT_CPU_MAX_THREADS];

static void *dt_cpu_worker_main(void *arg)
{
    const dt_cpu_worker_start *start = arg;
    int id = start->id;
    unsigned long seen = start->generation;
    int spin = 1; /* not after a job this worker was left out of */
    for (;;) {
        if (spin)
            dt_cpu_spin_ulong(&pool.generation, seen);
        spin = 1;
        pthread_mutex_lock(&pool.mu);
        while (pool.job == NULL || atomic_load(&pool.generation) == seen) {
            pool.sleepers++;
            pthread_cond_wait(&pool.wake, &pool.mu);
            pool.sleepers--;
        }
        seen = atomic_load(&pool.generation);
        if (id >= pool.participants) { /* the thread count went down */
            pthread_mutex_unlock(&pool.mu);
            spin = 0;
            continue;
        }
        dt_cpu_job *job = pool.job;
        atomic_fetch_add(&pool.busy, 1);
        pthread_mutex_unlock(&pool.mu);
        in_parallel = 1;
        dt_cpu_job_run(job);
        in_parallel = 0;
        /* job may be gone once busy drops to 0: touch only the pool */
        if (atomic_fetch_sub_explicit(&pool.busy, 1, memory_order_acq_rel) == 1) {
            pthread_mutex_lock(&pool.mu);
            if (pool.caller_waiting)
                pthread_cond_signal(&pool.idle);
            pthread_mutex_unlock(&pool.mu);
        }
    }
    return NULL; /* not reached: workers live as long as the process */
}

/* ---- fork (Note [Fork safety]) ---- */

static void dt_cpu_pool_atfork_prepare(void) { pthread_mutex_lock(&pool.mu); }
static void dt_cpu_pool_atfork_parent(void) { pthread_mutex_unlock(&pool.mu); }

static void dt_cpu_pool_atfork_child(void)
{
    pool.nworkers = 0;
    pool.participants = 0;
    pool.sleepers = 0;
    pool.caller_waiting = 0;
    pool.job = NULL;
    atomic_store(&pool.busy, 0);
    pthread_mutex_unlock(&pool.mu);
    pthread_cond_init(&pool.wake, NULL);
    pthread_cond_init(&pool.idle, NULL);
    in_parallel = 0;
    atomic_flag_clear(&pool_in_use);
}

static void dt_cpu_pool_atfork_register(void)
{
    pthread_atfork(dt_cpu_pool_atfork_prepare, dt_cpu_pool_atfork_parent,
                   dt_cpu_pool_atfork_child);
}

/* Start workers until there are `want`; called with pool.mu held.
 * Stops quietly at the first failure: the pool works with fewer. */
static void dt_cpu_pool_grow(int want)
{
    if (pool.nworkers >= want)
        return;
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    sigset_t block, old;
    sigfillset(&block);
    int sync_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS};
    for (size_t i = 0; i < sizeof sync_signals / sizeof sync_signals[0]; i++)
        sigdelset(&block, sync_signals[i]);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    while (pool.nworkers < want) {
        dt_cpu_worker_start *s = &worker_starts[pool.nworkers];
        s->id = pool.nworkers;
        s->generation = atomic_load(&pool.generation);
        pthread_t t;
        if (pthread_create(&t, &attr, dt_cpu_worker_main, s) != 0)
            break;
        pool.nworkers++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
}

/* ---- the public entry ---- */

void dt_cpu_parallel_for(int64_t n, int64_t grain, dt_cpu_parallel_fn fn, void *ctx)
{
    if (n <= 0)
        return;
    if (grain < 1)
        grain = 1;
    int nt = dt_cpu_get_num_threads();
    if (nt <= 1 || n / 2 < grain || in_parallel) {
        fn(0, n, ctx);
        return;
    }
    if (atomic_flag_test_and_set_explicit(&pool_in_use, memory_order_acquire)) {
        fn(0, n, ctx); /* another thread holds the pool */
        return;
    }
    int64_t max_chunks = n / grain;
    int threads = max_chunks < nt ? (int)max_chunks : nt;
    int64_t nchunks = (int64_t)threads * DT_CPU_CHUNKS_PER_THREAD;
    if (nchunks > max_chunks)
        nchunks = max_chunks;
    dt_cpu_job job = {.fn = fn, .ctx = ctx, .n = n, .nchunks = nchunks};
    atomic_init(&job.next, 0);

    pthread_once(&atfork_once, dt_cpu_pool_atfork_register);
    pthread_mutex_lock(&pool.mu);
    dt_cpu_pool_grow(threads - 1);
    int helpers = pool.nworkers < threads - 1 ? pool.nworkers : threads - 1;
    if (helpers > 0) {
        pool.job = &job;
        pool.participants = helpers;
        atomic_fetch_add_explicit(&pool.generation, 1, memory_order_release);
        if (pool.sleepers > 0)
            pthread_cond_broadcast(&pool.wake);
    }
    pthread_mutex_unlock(&pool.mu);

    in_parallel = 1;
    dt_cpu_job_run(&job);
    in_parallel = 0;

    if (helpers > 0) {
        dt_cpu_spin_int_zero(&pool.busy);
        pthread_mutex_lock(&pool.mu);
        while (atomic_load(&pool.busy) > 0) {
            pool.caller_waiting = 1;
            pthread_cond_wait(&pool.idle, &pool.mu);
        }
        pool.caller_waiting = 0;
        pool.job = NULL;
        pthread_mutex_unlock(&pool.mu);
    }
    atomic_flag_clear_explicit(&pool_in_use, memory_order_release);
}
