/* cpu_scan.c - the CPU backend's scans (backend.h's dt_scan_loop): running
 * sums, products, minima and maxima along one axis for every dtype, with
 * the accumulators of csrc/core/reduce_ops.h and ops_math.h's dt_min/dt_max.
 *
 * Note [Scans on the CPU]
 * Each row is scanned in order, the running accumulator stored after each
 * element; rows are shared among threads.  One long row (few rows, more
 * than one thread) of an exact scan -- integer and bool sums and products,
 * minima and maxima -- is cut in parts: the parts' totals are found in
 * parallel, their running totals on one thread, and then every part is
 * scanned from its start.  Float and complex sums and products are not cut:
 * a part's start, from totals added in another order, rounds differently
 * from the running value before it, so at a part's first element a running
 * sum of non-negative values went down or a 0 changed it (198 times in 20
 * rows of 3e5 probabilities with two threads).  One thread gives NumPy's
 * sequential values exactly, which a CDF, a threshold search or a
 * searchsorted over the result rely on.
 *
 * Note [A scan starts at its first element]
 * As NumPy's accumulate, a row's first result is its first element, not
 * the identity combined with it: 0 + -0.0 is +0.0, and (1+0j)*(inf+0j) is
 * inf+nanj by the complex product's formula, where NumPy gives -0.0 and
 * inf+0j.  So the first part of a row is scanned "fresh", and the totals
 * of a split row's parts (here and in the CUDA chunks) start at their first
 * element too, the running totals at the first part's: a long row of only
 * -0.0 stays -0.0.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

#include "cpu_loops.h"

#include <stdint.h>
#include <string.h>

#include "cpu_parallel.h"
#include "loop_check.h"
#include "reduce_ops.h"

#define SPLIT_FROM (1 << 16) /* elements of a row worth cutting in parts */
#define TOTAL_CHAINS 8

/* Note [A part's total in independent chains]
 * A split scan's first pass only needs each part's total, not its running
 * values: a contiguous part is totalled in TOTAL_CHAINS independent
 * accumulators, each starting at an element (Note [A scan starts at its
 * first element]: a part of -0.0 totals -0.0), combined pairwise at the
 * end, so the pass runs at the speed of the loads rather than of one add's
 * latency per element, which made two threads no faster than one (both
 * passes took as long as a whole scan's half).  Only exact scans are
 * split (Note [Scans on the CPU]), so the order does not change a result. */
#define MAX_PARTS 64
#define ALIGNED(p, T) (((uintptr_t)(p) % _Alignof(T)) == 0)

typedef struct {
    _Alignas(16) unsigned char b[32];
} acc_buf;

typedef struct scanner {
    /* scan n elements into out from the accumulator *acc (from the first
     * element when fresh), leaving the end in *acc */
    void (*scan)(void *acc, int fresh, const char *in, int64_t n, int64_t is, char *out, int64_t os, dt_dtype o);
    void (*total)(void *acc, const char *in, int64_t n, int64_t is); /* *acc = the op over n elements */
    void (*combine)(void *acc, const void *later);
    void (*identity)(void *acc);
} scanner;

#define SCAN(NAME, X, ACC_T, LOADF, STOREF, NARROWF, OPF, IDF, CHAINS)                            \
    typedef ACC_T NAME##_acc_##X;                                                                 \
    static void NAME##_scan_##X(void *acc, int fresh, const char *in, int64_t n, int64_t is,      \
                                char *out, int64_t os, dt_dtype o)                                \
    {                                                                                             \
        NAME##_acc_##X a = *(NAME##_acc_##X *)acc;                                                \
        dt_T_##X v;                                                                               \
        if (fresh && n > 0) { /* Note [A scan starts at its first element] */                     \
            memcpy(&v, in, sizeof v);                                                             \
            a = LOADF(X, v);                                                                      \
            STOREF(X, out, a, o);                                                                 \
            in += is;                                                                             \
            out += os;                                                                            \
            n--;                                                                                  \
        }                                                                                         \
        if (o == DT_CODE_##X && is == (int64_t)sizeof v && os == (int64_t)sizeof v &&             \
            ALIGNED(in, dt_T_##X) && ALIGNED(out, dt_T_##X)) {                                    \
            const dt_T_##X *q = (const dt_T_##X *)in;                                             \
            dt_T_##X *r = (dt_T_##X *)out;                                                        \
            for (int64_t i = 0; i < n; i++) {                                                     \
                a = OPF(a, LOADF(X, q[i]));                                                       \
                r[i] = NARROWF(X, a);                                                             \
            }                                                                                     \
        } else {                                                                                  \
            for (int64_t i = 0; i < n; i++) {                                                     \
                memcpy(&v, in + i * is, sizeof v);                                                \
                a = OPF(a, LOADF(X, v));                                                          \
                STOREF(X, out + i * os, a, o);                                                    \
            }                                                                                     \
        }                                                                                         \
        *(NAME##_acc_##X *)acc = a;                                                               \
    }                                                                                             \
    static void NAME##_total_##X(void *acc, const char *in, int64_t n, int64_t is)                \
    {                                                                                             \
        NAME##_acc_##X a = IDF();                                                                 \
        dt_T_##X v;                                                                               \
        if (n > 0) { /* Note [A scan starts at its first element] */                              \
            memcpy(&v, in, sizeof v);                                                             \
            a = LOADF(X, v);                                                                      \
        }                                                                                         \
        int64_t i = 1;                                                                            \
        if (CHAINS && n > 2 * TOTAL_CHAINS && is == (int64_t)sizeof v && ALIGNED(in, dt_T_##X)) { \
            /* Note [A part's total in independent chains] */                                     \
            const dt_T_##X *q = (const dt_T_##X *)in;                                             \
            NAME##_acc_##X c[TOTAL_CHAINS];                                                       \
            for (int k = 0; k < TOTAL_CHAINS; k++)                                                \
                c[k] = LOADF(X, q[1 + k]);                                                        \
            for (i = 1 + TOTAL_CHAINS; i + TOTAL_CHAINS <= n; i += TOTAL_CHAINS)                  \
                for (int k = 0; k < TOTAL_CHAINS; k++)                                            \
                    c[k] = OPF(c[k], LOADF(X, q[i + k]));                                         \
            for (int w = 1; w < TOTAL_CHAINS; w *= 2)                                             \
                for (int k = 0; k + w < TOTAL_CHAINS; k += 2 * w)                                 \
                    c[k] = OPF(c[k], c[k + w]);                                                   \
            a = OPF(a, c[0]);                                                                     \
        }                                                                                         \
        for (; i < n; i++) {                                                                      \
            memcpy(&v, in + i * is, sizeof v);                                                    \
            a = OPF(a, LOADF(X, v));                                                              \
        }                                                                                         \
        *(NAME##_acc_##X *)acc = a;                                                               \
    }                                                                                             \
    static void NAME##_combine_##X(void *acc, const void *later)                                  \
    {                                                                                             \
        *(NAME##_acc_##X *)acc = OPF(*(NAME##_acc_##X *)acc, *(const NAME##_acc_##X *)later);     \
    }                                                                                             \
    static void NAME##_identity_##X(void *acc) { *(NAME##_acc_##X *)acc = IDF(); }


/* SUM and PROD: the wide accumulators of reduce_ops.h, stored as out_dtype */
#define WIDE_LOAD(X, v) DT_ACC_LOAD(X, v)
#define WIDE_STORE(X, p, a, o) DT_RPASTE(dt_store_wide_, DT_ACC_##X)(p, a, o)
#define WIDE_NARROW(X, a) DT_CAST_PASTE(DT_ACC_##X, X)(a)
/* MIN and MAX: the compute type, stored back as the input's dtype (out_dtype
 * is in_dtype); a part's total in order, not in chains, whose merging would
 * change which NaN or which of -0.0 and 0.0 comes first */
#define SAME_LOAD(X, v) dt_load_##X(v)
#define SAME_STORE(X, p, a, o)                                                                    \
    do {                                                                                          \
        dt_T_##X s_ = dt_store_##X(a);                                                            \
        (void)(o);                                                                                \
        memcpy(p, &s_, sizeof s_);                                                                \
    } while (0)
#define SAME_NARROW(X, a) dt_store_##X(a)

#define SCANNERS(CODE, X)                                                                         \
    static inline dt_C_##X extreme_start_##X(void)                                                \
    {                                                                                             \
        dt_C_##X z;                                                                               \
        memset(&z, 0, sizeof z);                                                                  \
        return z;                                                                                 \
    }                                                                                             \
    SCAN(sum, X, DT_ACC_T(X), WIDE_LOAD, WIDE_STORE, WIDE_NARROW, DT_RPASTE(dt_acc_add_, DT_ACC_##X), \
         DT_RPASTE(dt_acc_zero_, DT_ACC_##X), 1)                                                  \
    SCAN(prod, X, DT_ACC_T(X), WIDE_LOAD, WIDE_STORE, WIDE_NARROW, DT_RPASTE(dt_acc_mul_, DT_ACC_##X), \
         DT_RPASTE(dt_acc_one_, DT_ACC_##X), 1)                                                   \
    SCAN(min, X, dt_C_##X, SAME_LOAD, SAME_STORE, SAME_NARROW, dt_min_##X, extreme_start_##X, 0)  \
    SCAN(max, X, dt_C_##X, SAME_LOAD, SAME_STORE, SAME_NARROW, dt_max_##X, extreme_start_##X, 0)
DT_FOR_EACH_DTYPE(SCANNERS)

#define SCAN_ENTRY(NAME, X) {NAME##_scan_##X, NAME##_total_##X, NAME##_combine_##X, NAME##_identity_##X}
#define SCAN_ENTRIES(CODE, X) {SCAN_ENTRY(sum, X), SCAN_ENTRY(prod, X), SCAN_ENTRY(min, X), SCAN_ENTRY(max, X)},
/* indexed by dtype and by op: DT_REDUCE_SUM, PROD, MIN, MAX */
static const scanner scanners[DT_NUM_DTYPES][4] = {DT_FOR_EACH_DTYPE(SCAN_ENTRIES)};
_Static_assert(DT_REDUCE_SUM == 0 && DT_REDUCE_PROD == 1 && DT_REDUCE_MIN == 2 && DT_REDUCE_MAX == 3,
               "scanners[] is indexed by the op");

typedef struct {
    const dt_scan_loop *l;
    const scanner *s;
    int64_t per, nparts;
    const char *in; /* the row a split scan works on */
    char *out;
    acc_buf starts[MAX_PARTS];
} scan_job;

static void row_offsets(const dt_scan_loop *l, int64_t row, int64_t *in_off, int64_t *out_off)
{
    int64_t a = 0, b = 0;
    for (int d = l->outer_ndim - 1; d >= 0; d--) {
        int64_t c = row % l->outer_shape[d];
        row /= l->outer_shape[d];
        a += c * l->outer_in_strides[d];
        b += c * l->outer_out_strides[d];
    }
    *in_off = a;
    *out_off = b;
}

static void rows_range(int64_t begin, int64_t end, void *ctx)
{
    const scan_job *j = (const scan_job *)ctx;
    const dt_scan_loop *l = j->l;
    for (int64_t r = begin; r < end; r++) {
        int64_t in_off, out_off;
        acc_buf acc;
        row_offsets(l, r, &in_off, &out_off);
        j->s->identity(&acc);
        j->s->scan(&acc, 1, l->in + in_off, l->len, l->in_stride, l->out + out_off, l->out_stride, l->out_dtype);
    }
}

static void part_totals(int64_t begin, int64_t end, void *ctx)
{
    scan_job *j = (scan_job *)ctx;
    for (int64_t k = begin; k < end; k++) {
        int64_t a = k * j->per, n = j->l->len - a < j->per ? j->l->len - a : j->per;
        j->s->total(&j->starts[k], j->in + a * j->l->in_stride, n, j->l->in_stride);
    }
}

static void part_scans(int64_t begin, int64_t end, void *ctx)
{
    scan_job *j = (scan_job *)ctx;
    const dt_scan_loop *l = j->l;
    for (int64_t k = begin; k < end; k++) {
        int64_t a = k * j->per, n = l->len - a < j->per ? l->len - a : j->per;
        j->s->scan(&j->starts[k], k == 0, j->in + a * l->in_stride, n, l->in_stride, j->out + a * l->out_stride,
                   l->out_stride, l->out_dtype);
    }
}

/* Note [Scans on the CPU]: the rows one after another, each cut in parts */
static void split_rows(scan_job *j)
{
    const dt_scan_loop *l = j->l;
    int64_t threads = dt_cpu_get_num_threads();
    j->nparts = threads * 4 < MAX_PARTS ? threads * 4 : MAX_PARTS;
    j->per = (l->len + j->nparts - 1) / j->nparts;
    j->nparts = (l->len + j->per - 1) / j->per;
    for (int64_t r = 0; r < l->n_rows; r++) {
        int64_t in_off, out_off;
        row_offsets(l, r, &in_off, &out_off);
        j->in = l->in + in_off;
        j->out = l->out + out_off;
        dt_cpu_parallel_for(j->nparts, 1, part_totals, j);
        acc_buf run = j->starts[0], total; /* part 0 is scanned fresh */
        for (int64_t k = 1; k < j->nparts; k++) { /* each part starts at the total before it */
            total = j->starts[k];
            j->starts[k] = run;
            j->s->combine(&run, &total);
        }
        dt_cpu_parallel_for(j->nparts, 1, part_scans, j);
    }
}

dt_status dt_cpu_run_scan(const dt_scan_loop *l, dt_error *err)
{
    DT_TRY(dt_scan_loop_check(l, err));
    scan_job j;
    j.l = l;
    j.s = &scanners[l->in_dtype][l->op];
    int threads = dt_cpu_get_num_threads();
    dt_dtype_kind kind = dt_dtype_get_info(l->in_dtype)->kind;
    int exact = l->op == DT_REDUCE_MIN || l->op == DT_REDUCE_MAX || kind == DT_KIND_BOOL || kind == DT_KIND_INT ||
                kind == DT_KIND_UINT; /* Note [Scans on the CPU] */
    if (threads > 1 && l->len >= SPLIT_FROM && l->n_rows < threads && exact)
        split_rows(&j);
    else
        dt_cpu_parallel_for(l->n_rows, 1 + (1 << 15) / l->len, rows_range, &j);
    return DT_OK;
}
