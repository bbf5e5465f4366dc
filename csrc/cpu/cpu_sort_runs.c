/* cpu_sort_runs.c - an unstable sort across the CPU pool's threads with a
 * caller's sort function for each piece: rows go across threads, and one
 * long row is cut into runs, one per thread, sorted side by side and then
 * merged.
 *
 * Note [Sorting runs with NumPy's sort]
 * On the CPU, a sort that need not be stable is NumPy's (x86-simd-sort
 * where the CPU has AVX2 or AVX-512): faster than our radix sort there, and
 * NumPy's very result (Note [Sorting through the backend] in _sorting.py).
 * NumPy sorts on one thread.  Here the wrapper (csrc/python/sort_runs.c)
 * hands in NumPy's sort function for the dtype, which touches no Python
 * object and runs without the GIL, as NumPy runs it.  Rows are sorted
 * whole, a block of rows per thread.  A single long row is cut into as
 * many runs as threads, each copied and sorted by its thread; then rounds
 * of pairwise merges join them, each pair's output cut into equal pieces
 * by a binary search along its diagonal (the merge path), one piece per
 * task, so every thread merges the same number of elements.  The order is
 * NumPy's: NaN after every number (a NaN is never "less"), -0.0 equal to
 * 0.0; ties come from the left run first, which keeps equal elements
 * where the runs' sorts put them.
 */
#define _DEFAULT_SOURCE 1 /* madvise and MADV_HUGEPAGE */
#include "cpu_sort_runs.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cpu_host_cache.h"
#include "cpu_parallel.h"

#define MAX_RUNS 64

int dt_cpu_sort_runs_supports(dt_dtype dtype)
{
    switch (dtype) {
    case DT_BOOL: case DT_INT8: case DT_INT16: case DT_INT32: case DT_INT64:
    case DT_UINT8: case DT_UINT16: case DT_UINT32: case DT_UINT64:
    case DT_FLOAT32: case DT_FLOAT64:
        return 1;
    default:
        return 0;
    }
}

/* The first i in [max(0, d - nb), min(d, na)] such that the first d outputs
 * of the merge are a[0, i) and b[0, d - i), ties taken from a first. */
#define SPLIT(T)                                                                                   \
    static int64_t split_##T(const T *a, int64_t na, const T *b, int64_t nb, int64_t d)           \
    {                                                                                              \
        int64_t lo = d > nb ? d - nb : 0, hi = d < na ? d : na;                                    \
        while (lo < hi) {                                                                          \
            int64_t mid = lo + (hi - lo) / 2;                                                      \
            if (!(b[d - mid - 1] < a[mid]))                                                        \
                lo = mid + 1;                                                                      \
            else                                                                                   \
                hi = mid;                                                                          \
        }                                                                                          \
        return lo;                                                                                 \
    }

/* Note [Four merges at once]
 * One merge step is a load, a compare and a select whose result decides
 * the next load: a chain of dependent instructions.  A piece is cut into
 * LANES sub-pieces merged in lockstep, LANES independent chains the core
 * runs side by side.  Each lane makes one output per step, so `safe`
 * steps (the fewest elements left in any lane's inputs) cannot run past
 * an input's end; what is left after that, lane by lane, is merged alone. */
#define LANES 4 /* the loop below names each lane */

/* one output of a lane: the smaller head, ties from a */
#define MERGE_STEP(T, I, J, O)                                                                     \
    {                                                                                              \
        T x_ = a[I], y_ = b[J];                                                                    \
        int take_b_ = y_ < x_;                                                                     \
        *O++ = take_b_ ? y_ : x_;                                                                  \
        I += !take_b_;                                                                             \
        J += take_b_;                                                                              \
    }

#define MERGE(T)                                                                                   \
    SPLIT(T)                                                                                       \
    /* outputs [d0, d1) of the merge of a and b (no NaN in either), at out + d0 */                 \
    static void merge_piece_##T(const T *a, int64_t na, const T *b, int64_t nb, T *out,           \
                                int64_t d0, int64_t d1)                                            \
    {                                                                                              \
        int64_t i[LANES], j[LANES], iend[LANES], jend[LANES];                                      \
        T *o[LANES];                                                                               \
        int64_t at = split_##T(a, na, b, nb, d0), lane_start = d0;                                \
        for (int l = 0; l < LANES; l++) {                                                          \
            int64_t e = l == LANES - 1 ? d1 : d0 + (d1 - d0) / LANES * (l + 1);                    \
            i[l] = at;                                                                             \
            j[l] = lane_start - at;                                                                \
            o[l] = out + lane_start;                                                               \
            at = split_##T(a, na, b, nb, e);                                                       \
            iend[l] = at;                                                                          \
            jend[l] = e - at;                                                                      \
            lane_start = e;                                                                        \
        }                                                                                          \
        for (;;) {                                                                                 \
            int64_t safe = INT64_MAX;                                                              \
            for (int l = 0; l < LANES; l++) {                                                      \
                int64_t left = iend[l] - i[l] < jend[l] - j[l] ? iend[l] - i[l] : jend[l] - j[l];  \
                safe = left < safe ? left : safe;                                                  \
            }                                                                                      \
            if (safe < 16)                                                                         \
                break;                                                                             \
            /* the lanes in scalars, so that they live in registers */                             \
            int64_t i0 = i[0], i1 = i[1], i2 = i[2], i3 = i[3], j0 = j[0], j1 = j[1], j2 = j[2], j3 = j[3]; \
            T *o0 = o[0], *o1 = o[1], *o2 = o[2], *o3 = o[3];                                      \
            for (int64_t s = 0; s < safe; s++) {                                                   \
                MERGE_STEP(T, i0, j0, o0)                                                          \
                MERGE_STEP(T, i1, j1, o1)                                                          \
                MERGE_STEP(T, i2, j2, o2)                                                          \
                MERGE_STEP(T, i3, j3, o3)                                                          \
            }                                                                                      \
            i[0] = i0, i[1] = i1, i[2] = i2, i[3] = i3, j[0] = j0, j[1] = j1, j[2] = j2, j[3] = j3; \
            o[0] = o0, o[1] = o1, o[2] = o2, o[3] = o3;                                            \
        }                                                                                          \
        for (int l = 0; l < LANES; l++) {                                                          \
            while (i[l] < iend[l] && j[l] < jend[l])                                               \
                MERGE_STEP(T, i[l], j[l], o[l])                                                    \
            memcpy(o[l], a + i[l], (size_t)(iend[l] - i[l]) * sizeof(T));                          \
            o[l] += iend[l] - i[l];                                                                \
            memcpy(o[l], b + j[l], (size_t)(jend[l] - j[l]) * sizeof(T));                          \
        }                                                                                          \
    }

MERGE(uint8_t)
MERGE(int8_t)
MERGE(int16_t)
MERGE(uint16_t)
MERGE(int32_t)
MERGE(uint32_t)
MERGE(int64_t)
MERGE(uint64_t)
MERGE(float)
MERGE(double)

/* the elements of a sorted run before its NaNs (NumPy sorts them last) */
#define NUMBERS(T)                                                                                 \
    static int64_t numbers_##T(const T *a, int64_t n)                                             \
    {                                                                                              \
        int64_t lo = 0, hi = n;                                                                    \
        while (lo < hi) {                                                                          \
            int64_t mid = lo + (hi - lo) / 2;                                                      \
            if (a[mid] == a[mid])                                                                  \
                lo = mid + 1;                                                                      \
            else                                                                                   \
                hi = mid;                                                                          \
        }                                                                                          \
        return lo;                                                                                 \
    }
NUMBERS(float)
NUMBERS(double)
#define NO_NAN(T) \
    static inline int64_t numbers_##T(const T *a, int64_t n) { (void)a; return n; }
NO_NAN(uint8_t) NO_NAN(int8_t) NO_NAN(int16_t) NO_NAN(uint16_t) NO_NAN(int32_t)
NO_NAN(uint32_t) NO_NAN(int64_t) NO_NAN(uint64_t)

/* outputs [d0, d1) of the merge of the sorted runs a and b, at out + d0:
 * the numbers merged, then a's NaNs, then b's */
#define MERGE_CASE(D, T, SPLIT_NAN)                                                                  \
    case D: {                                                                                        \
        const T *ta = (const T *)a, *tb = (const T *)b;                                              \
        int64_t ma = SPLIT_NAN ? numbers_##T(ta, na) : na, mb = SPLIT_NAN ? numbers_##T(tb, nb) : nb; \
        int64_t m = ma + mb;                                                                         \
        if (d0 < m)                                                                                  \
            merge_piece_##T(ta, ma, tb, mb, (T *)out, d0, d1 < m ? d1 : m);                          \
        for (int64_t k = d0 > m ? d0 : m; k < d1;) { /* the NaNs: a's, then b's */                   \
            int64_t p = k - m, len;                                                                  \
            const T *from = p < na - ma ? (len = na - ma - p, ta + ma + p) : (len = nb - mb - (p - (na - ma)), tb + mb + p - (na - ma)); \
            len = len < d1 - k ? len : d1 - k;                                                       \
            memcpy((T *)out + k, from, (size_t)len * sizeof(T));                                     \
            k += len;                                                                                \
        }                                                                                            \
        break;                                                                                       \
    }

static void merge_piece(dt_dtype dtype, const char *a, int64_t na, const char *b, int64_t nb, char *out,
                        int64_t d0, int64_t d1)
{
    switch (dtype) {
        MERGE_CASE(DT_BOOL, uint8_t, 0) MERGE_CASE(DT_UINT8, uint8_t, 0) MERGE_CASE(DT_INT8, int8_t, 0)
        MERGE_CASE(DT_INT16, int16_t, 0) MERGE_CASE(DT_UINT16, uint16_t, 0) MERGE_CASE(DT_INT32, int32_t, 0)
        MERGE_CASE(DT_UINT32, uint32_t, 0) MERGE_CASE(DT_INT64, int64_t, 0) MERGE_CASE(DT_UINT64, uint64_t, 0)
        MERGE_CASE(DT_FLOAT32, float, 1) MERGE_CASE(DT_FLOAT64, double, 1)
    default:
        break;
    }
}

typedef struct runs_ctx {
    dt_dtype dtype;
    int item;
    const char *src;
    char *dst;
    int64_t n;                     /* elements per row */
    int64_t bounds[MAX_RUNS + 1];  /* the runs of a single row */
    int runs, pieces;
    dt_cpu_piece_sort sort;
    void *sort_ctx;
    _Atomic int failed;
} runs_ctx;

/* rows [begin, end): copied into dst, then sorted there */
static void sort_rows(int64_t begin, int64_t end, void *ctx)
{
    runs_ctx *c = (runs_ctx *)ctx;
    size_t row_bytes = (size_t)c->n * (size_t)c->item;
    memcpy(c->dst + begin * row_bytes, c->src + begin * row_bytes, (size_t)(end - begin) * row_bytes);
    for (int64_t r = begin; r < end; r++)
        if (c->sort(c->dst + r * row_bytes, c->n, c->sort_ctx) != 0)
            c->failed = 1;
}

/* runs [begin, end) of the single row: copied into dst, then sorted */
static void sort_runs(int64_t begin, int64_t end, void *ctx)
{
    runs_ctx *c = (runs_ctx *)ctx;
    for (int64_t r = begin; r < end; r++) {
        int64_t lo = c->bounds[r], len = c->bounds[r + 1] - lo;
        memcpy(c->dst + lo * c->item, c->src + lo * c->item, (size_t)len * (size_t)c->item);
        if (c->sort(c->dst + lo * c->item, len, c->sort_ctx) != 0)
            c->failed = 1;
    }
}

/* one merge round: task t is piece t % pieces of pair t / pieces, runs
 * 2p and 2p + 1 of src merged into dst; a last run without a partner is
 * copied */
static void merge_tasks(int64_t begin, int64_t end, void *ctx)
{
    runs_ctx *c = (runs_ctx *)ctx;
    for (int64_t t = begin; t < end; t++) {
        int pair = (int)(t / c->pieces), piece = (int)(t % c->pieces);
        int64_t lo = c->bounds[2 * pair], mid, hi;
        if (2 * pair + 1 < c->runs) {
            mid = c->bounds[2 * pair + 1];
            hi = c->bounds[2 * pair + 2];
        } else {
            mid = hi = c->bounds[2 * pair + 1];
        }
        int64_t total = hi - lo;
        int64_t d0 = total / c->pieces * piece + (piece < total % c->pieces ? piece : total % c->pieces);
        int64_t d1 = d0 + total / c->pieces + (piece < total % c->pieces ? 1 : 0);
        merge_piece(c->dtype, c->src + lo * c->item, mid - lo, c->src + mid * c->item, hi - mid,
                    c->dst + lo * c->item, d0, d1);
    }
}

/* Note [Sort scratch from the host cache]
 * Merging needs a second buffer as long as the row.  A fresh one costs a
 * page fault per 4 KiB on every call (a quarter of the sort's time for
 * 10^6 float32), so it comes from the host block cache (Note [Host block
 * cache]) in 2 MiB steps, offered huge pages, and goes back there. */
#define SCRATCH_STEP ((size_t)2 << 20)

static void *take_scratch(size_t bytes, size_t *size)
{
    if (bytes > SIZE_MAX - SCRATCH_STEP)
        return NULL;
    *size = (bytes + SCRATCH_STEP - 1) / SCRATCH_STEP * SCRATCH_STEP;
    void *p = dt_cpu_cache_take(*size);
    if (p == NULL) {
        p = aligned_alloc(SCRATCH_STEP, *size);
#ifdef MADV_HUGEPAGE
        if (p != NULL)
            madvise(p, *size, MADV_HUGEPAGE); /* advice only */
#endif
    }
    return p;
}

static void give_scratch(void *p, size_t size)
{
    if (p != NULL && !dt_cpu_cache_give(p, size))
        free(p);
}

dt_status dt_cpu_sort_runs(dt_dtype dtype, const void *src, void *dst, int64_t rows, int64_t n,
                           dt_cpu_piece_sort sort, void *sort_ctx, dt_error *err)
{
    if (!dt_cpu_sort_runs_supports(dtype))
        return dt_error_set(err, DT_ERR_TYPE, "sort by runs: unsupported dtype %d", (int)dtype);
    runs_ctx c;
    memset(&c, 0, sizeof c);
    c.dtype = dtype;
    c.item = dt_dtype_get_info(dtype)->itemsize;
    c.src = (const char *)src;
    c.n = n;
    c.sort = sort;
    c.sort_ctx = sort_ctx;
    int threads = dt_cpu_get_num_threads();
    size_t scratch_size = 0;
    void *scratch = rows == 1 && threads > 1 && n > 1 ? take_scratch((size_t)n * (size_t)c.item, &scratch_size) : NULL;
    if (scratch == NULL) { /* rows across threads */
        c.dst = (char *)dst;
        dt_cpu_parallel_for(rows, 1, sort_rows, &c);
    } else {
        c.runs = threads < MAX_RUNS ? threads : MAX_RUNS;
        if (c.runs > n)
            c.runs = (int)n;
        for (int r = 0; r <= c.runs; r++)
            c.bounds[r] = n / c.runs * r + (r < n % c.runs ? r : n % c.runs);
        /* the sorted runs land where an odd number of rounds ends in dst */
        int rounds = 0;
        for (int r = c.runs; r > 1; r = (r + 1) / 2)
            rounds++;
        char *bufs[2] = {(char *)dst, (char *)scratch};
        int cur = rounds % 2;
        c.dst = bufs[cur];
        dt_cpu_parallel_for(c.runs, 1, sort_runs, &c);
        while (!c.failed && c.runs > 1) {
            c.src = bufs[cur];
            c.dst = bufs[1 - cur];
            int pairs = (c.runs + 1) / 2;
            c.pieces = (threads + pairs - 1) / pairs; /* a task per thread, or more */
            dt_cpu_parallel_for((int64_t)pairs * c.pieces, 1, merge_tasks, &c);
            for (int p = 0; p <= pairs; p++)
                c.bounds[p] = c.bounds[2 * p < c.runs ? 2 * p : c.runs];
            c.runs = pairs;
            cur = 1 - cur;
        }
        /* the rounds end in dst (bufs[0]) unless a sort failed before them */
    }
    give_scratch(scratch, scratch_size);
    if (c.failed)
        return dt_error_set(err, DT_ERR_NOMEM, "sort: out of memory");
    return DT_OK;
}
