/* cpu_index.c - the CPU backend's index kernels (dt_index_loop, backend.h):
 * the same six kinds as the CUDA backend's (csrc/cuda/cuda_index.cu), with
 * the same contract, split across the thread pool (cpu_parallel.h).
 *
 * Note [Index kernels on the CPU]
 * NumPy's fancy indexing runs on one thread, so big CPU gathers, scatters
 * and masks come here (devtensor._advanced decides, by size): a chunk of
 * positions per thread, the first position of each chunk unravelled and
 * the rest walked by a counter.  CLAIM and SCATTER keep NumPy's last write
 * wins without the GPU's claim slots: an ordered SCATTER (flag NULL, as the
 * core sends for the CPU) writes every position in order on one thread,
 * at NumPy's speed (10^7 random float64: 62-65 ms with the check, against
 * NumPy 2.4's 60-68), while splitting the targets between two threads,
 * each walking every position, gained nothing (the random writes share one
 * memory bus), and claim slots with compare-and-swap were far slower
 * (660 ms); CLAIM is then only the check.  COUNT and COMPACT split
 * the mask by the core's blocks.
 *
 * Note [One value scattered]
 * When every position writes the same value (x[idx] = 0: the values'
 * strides are all 0), no order of the writes can change the result, so
 * the positions are split across threads like a gather's.  Each write is
 * a relaxed atomic store of the element (1 to 8 bytes, aligned), so two
 * threads writing one element do not race.
 */
#include "cpu_loops.h"

#include <stdint.h>
#include <string.h>

#include "cpu_parallel.h"

#define INDEX_GRAIN 16384 /* random accesses: ~5-10 ns each, so >= 80 us a chunk */

static void atomic_min_i64(int64_t *p, int64_t v)
{
    int64_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v < old && !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

static void atomic_max_i64(int64_t *p, int64_t v)
{
    int64_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v > old && !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

/* Note [Row loops read the loop once]
 * The rows below write through char pointers, which may alias anything,
 * so a field of *l read inside the loop is read again after every write.
 * Each row copies what it needs (strides, the axis, the slots) into locals
 * first: with the fields re-read, a 10^7 random float64 scatter took 92 ms
 * where the same loop with locals takes 60 (NumPy's: 65). */

/* a bad index's position i, min'ed into l->bad (the rare path) */
static void note_bad(const dt_index_loop *l, int64_t i)
{
    if (l->bad != NULL)
        atomic_min_i64(l->bad, i);
}

/* the byte offset that the index (direct) or offset at p gives, for an
 * axis of len elements stride bytes apart; 0 for a bad index */
static inline int offset_at(int direct, const char *p, int64_t len, int64_t stride, int64_t *off)
{
    int64_t v;
    memcpy(&v, p, sizeof v);
    if (!direct) { /* an offset, made by OFFSETS */
        *off = v;
        return 1;
    }
    if (v < -len || v >= len)
        return 0;
    *off = (int64_t)((uint64_t)(v < 0 ? v + len : v) * (uint64_t)stride); /* see OFFSETS */
    return 1;
}

/* One row of `run` positions from position i: p are the operands' first
 * bytes, s their strides along the row. */
typedef void (*row_fn)(const dt_index_loop *l, char *const p[3], const int64_t s[3], int64_t run, int64_t i);

/* OFFSETS and CLAIM, whose speed matters less: one loop for every case */
static void other_row(const dt_index_loop *l, char *const p[3], const int64_t s[3], int64_t run, int64_t i)
{
    const char *a = p[0], *b = p[1], *c = p[2];
    const int64_t len = l->axis_len, stride = l->axis_stride;
    for (int64_t j = 0; j < run; j++, i++, a += s[0], b += s[1], c += s[2]) {
        int64_t off;
        if (l->kind == DT_IDX_OFFSETS) {
            /* a bad index leaves 0 (defined, never used); the sums are
             * unsigned, as an empty result's offsets may wrap (never used) */
            uint64_t cur = 0;
            if (l->accumulate)
                memcpy(&cur, a, sizeof cur);
            if (offset_at(1, b, len, stride, &off))
                cur += (uint64_t)off;
            else
                note_bad(l, i);
            memcpy((char *)a, &cur, sizeof cur);
        } else if (!offset_at(l->direct, c, len, stride, &off)) { /* CLAIM */
            note_bad(l, i);
        } else if (l->flag != NULL) { /* flag NULL: only the check */
            atomic_max_i64(l->flag + (b + off - l->claim_base) / l->itemsize, i);
        }
    }
}

/* An ordered CLAIM (flag NULL) is only the check of direct indices: a
 * read of the key, no writes */
static void check_row(const dt_index_loop *l, char *const p[3], const int64_t s[3], int64_t run, int64_t i)
{
    const char *c = p[2];
    const int64_t sc = s[2], len = l->axis_len;
    if (sc == 8) { /* contiguous: the row's extremes (a loop that vectorises), scanned only if one is bad */
        int64_t lo = 0, hi = 0;
        for (int64_t j = 0; j < run; j++) {
            int64_t v;
            memcpy(&v, c + 8 * j, 8);
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        if (lo >= -len && hi < len)
            return;
    }
    for (int64_t j = 0; j < run; j++, c += sc) {
        int64_t v;
        memcpy(&v, c, sizeof v);
        if (v < -len || v >= len) {
            note_bad(l, i + j);
            return; /* the first bad one of the row is the one reported */
        }
    }
}

/* Note [Contiguous index loops]
 * x[idx] = y and x[idx] with idx and y (or the result) contiguous, the
 * common case, take loops of their own, indexed from the row's start, the
 * index adjusted first and checked with one unsigned compare: a random
 * scatter or gather is bound by how many accesses miss at once, and the
 * fewer instructions each takes, the more of them are in flight (an
 * ordered scatter of 10^7 random float64: 57 ms against the general loop's
 * 70).  A gather leaves a bad index, and the rest of its row, to the
 * general loop, which reports it. */

/* GATHER and SCATTER, one tight loop per element size and directness (the
 * hot loops: a random access each, so nothing else may stall them; Note
 * [Row loops read the loop once]) */
#define DT_INDEX_ROWS(N, D)                                                                                  \
    static void gather_row_##N##_##D(const dt_index_loop *l, char *const p[3], const int64_t s[3],           \
                                     int64_t run, int64_t i)                                                 \
    {                                                                                                        \
        char *a = p[0];                                                                                      \
        const char *b = p[1], *c = p[2];                                                                     \
        const int64_t s0 = s[0], s1 = s[1], s2 = s[2], len = l->axis_len, stride = l->axis_stride;         \
        if (s0 == N && s1 == 0 && s2 == 8) { /* Note [Contiguous index loops] */        \
            int64_t j = 0;                                                                                   \
            for (; j < run; j++) {                                                                           \
                int64_t v;                                                                                   \
                memcpy(&v, c + 8 * j, 8);                                                                    \
                if (D)                                                                                       \
                    v = v < 0 ? v + len : v;                                                                 \
                if (D && (uint64_t)v >= (uint64_t)len)                                                       \
                    break;                                                                                   \
                memcpy(a + N * j, b + (D ? (int64_t)((uint64_t)v * (uint64_t)stride) : v), N);               \
            }                                                                                                \
            a += N * j, c += 8 * j, i += j, run -= j; /* the rest, from a bad index, below */                \
        }                                                                                                    \
        for (int64_t j = 0; j < run; j++, a += s0, b += s1, c += s2) {                                       \
            int64_t off;                                                                                     \
            if (offset_at(D, c, len, stride, &off))                                                          \
                memcpy(a, b + off, N);                                                                       \
            else                                                                                             \
                note_bad(l, i + j);                                                                          \
        }                                                                                                    \
    }                                                                                                        \
    static void scatter_row_##N##_##D(const dt_index_loop *l, char *const p[3], const int64_t s[3],          \
                                      int64_t run, int64_t i)                                                \
    {                                                                                                        \
        const char *a = p[0], *c = p[2];                                                                     \
        char *b = p[1];                                                                                      \
        const int64_t s0 = s[0], s1 = s[1], s2 = s[2], len = l->axis_len, stride = l->axis_stride;         \
        int64_t *const flag = l->flag;                                                                       \
        const char *const base = l->claim_base;                                                              \
        if (flag == NULL && s0 == N && s1 == 0 && s2 == 8) { /* Note [Contiguous index loops] */     \
            for (int64_t j = 0; j < run; j++) {                                                              \
                int64_t v;                                                                                   \
                memcpy(&v, c + 8 * j, 8);                                                                    \
                if (D)                                                                                       \
                    v = v < 0 ? v + len : v;                                                                 \
                if (!D || (uint64_t)v < (uint64_t)len)                                                       \
                    memcpy(b + (D ? (int64_t)((uint64_t)v * (uint64_t)stride) : v), a + N * j, N);           \
            }                                                                                                \
            return;                                                                                          \
        }                                                                                                    \
        for (int64_t j = 0; j < run; j++, a += s0, b += s1, c += s2) {                                       \
            int64_t off;                                                                                     \
            if (!offset_at(D, c, len, stride, &off))                                                         \
                continue;                                                                                    \
            char *to = b + off;                                                                              \
            /* flag NULL: an ordered scatter, which writes every position */                                 \
            if (flag == NULL || __atomic_load_n(flag + (to - base) / N, __ATOMIC_RELAXED) == i + j)          \
                memcpy(to, a, N);                                                                            \
        }                                                                                                    \
    }
DT_INDEX_ROWS(1, 0) DT_INDEX_ROWS(1, 1) DT_INDEX_ROWS(2, 0) DT_INDEX_ROWS(2, 1) DT_INDEX_ROWS(4, 0)
DT_INDEX_ROWS(4, 1) DT_INDEX_ROWS(8, 0) DT_INDEX_ROWS(8, 1) DT_INDEX_ROWS(16, 0) DT_INDEX_ROWS(16, 1)
#undef DT_INDEX_ROWS

/* Note [One value scattered]: the value at p[0], stored everywhere */
#define DT_FILL_ROWS(N, T, D)                                                                                \
    static void fill_row_##N##_##D(const dt_index_loop *l, char *const p[3], const int64_t s[3],             \
                                   int64_t run, int64_t i)                                                   \
    {                                                                                                        \
        T v;                                                                                                 \
        memcpy(&v, p[0], N);                                                                                 \
        char *const b = p[1];                                                                                \
        const char *c = p[2];                                                                                \
        const int64_t s1 = s[1], s2 = s[2], len = l->axis_len, stride = l->axis_stride;                     \
        for (int64_t j = 0; j < run; j++, c += s2) {                                                         \
            int64_t off;                                                                                     \
            if (offset_at(D, c, len, stride, &off))                                                          \
                __atomic_store_n((T *)(b + j * s1 + off), v, __ATOMIC_RELAXED);                             \
            else                                                                                             \
                note_bad(l, i + j);                                                                          \
        }                                                                                                    \
    }
DT_FILL_ROWS(1, uint8_t, 0) DT_FILL_ROWS(1, uint8_t, 1) DT_FILL_ROWS(2, uint16_t, 0)
DT_FILL_ROWS(2, uint16_t, 1) DT_FILL_ROWS(4, uint32_t, 0) DT_FILL_ROWS(4, uint32_t, 1)
DT_FILL_ROWS(8, uint64_t, 0) DT_FILL_ROWS(8, uint64_t, 1)
#undef DT_FILL_ROWS

/* an ordered SCATTER of one value to aligned elements of at most 8 bytes */
static int one_value(const dt_index_loop *l)
{
    if (l->kind != DT_IDX_SCATTER || l->flag != NULL || l->itemsize > 8 || !l->aligned)
        return 0;
    for (int d = 0; d < l->ndim; d++)
        if (l->strides[0][d] != 0)
            return 0;
    return 1;
}

static row_fn row_for(const dt_index_loop *l)
{
    static const row_fn gather[5][2] = {{gather_row_1_0, gather_row_1_1}, {gather_row_2_0, gather_row_2_1},
                                        {gather_row_4_0, gather_row_4_1}, {gather_row_8_0, gather_row_8_1},
                                        {gather_row_16_0, gather_row_16_1}};
    static const row_fn scatter[5][2] = {{scatter_row_1_0, scatter_row_1_1}, {scatter_row_2_0, scatter_row_2_1},
                                         {scatter_row_4_0, scatter_row_4_1}, {scatter_row_8_0, scatter_row_8_1},
                                         {scatter_row_16_0, scatter_row_16_1}};
    static const row_fn fill[4][2] = {{fill_row_1_0, fill_row_1_1}, {fill_row_2_0, fill_row_2_1},
                                      {fill_row_4_0, fill_row_4_1}, {fill_row_8_0, fill_row_8_1}};
    int n = l->itemsize, k = n == 1 ? 0 : n == 2 ? 1 : n == 4 ? 2 : n == 8 ? 3 : 4, d = l->direct != 0;
    if (one_value(l))
        return fill[k][d];
    if (l->kind == DT_IDX_CLAIM && l->flag == NULL && l->direct)
        return check_row;
    return l->kind == DT_IDX_GATHER ? gather[k][d] : l->kind == DT_IDX_SCATTER ? scatter[k][d] : other_row;
}

/* positions [begin, end) of a strided loop */
static void strided_range(int64_t begin, int64_t end, void *ctx)
{
    const dt_index_loop *l = (const dt_index_loop *)ctx;
    int nd = l->ndim, nop = l->kind == DT_IDX_OFFSETS ? 2 : 3;
    int64_t idx[DT_MAX_NDIM];
    char *p[3] = {l->data[0], l->data[1], l->data[2]};
    int64_t rest = begin;
    for (int d = nd - 1; d >= 0; d--) {
        idx[d] = rest % l->shape[d];
        rest /= l->shape[d];
        for (int k = 0; k < nop; k++)
            p[k] += idx[d] * l->strides[k][d];
    }
    const int64_t n_in = l->shape[nd - 1];
    const int64_t s[3] = {l->strides[0][nd - 1], l->strides[1][nd - 1], nop == 3 ? l->strides[2][nd - 1] : 0};
    row_fn row = row_for(l);
    for (int64_t i = begin; i < end;) {
        int64_t run = n_in - idx[nd - 1];
        if (run > end - i)
            run = end - i;
        row(l, p, s, run, i);
        i += run;
        for (int k = 0; k < 3; k++)
            p[k] += run * s[k];
        /* carry into the outer dims */
        idx[nd - 1] += run;
        for (int d = nd - 1; d > 0 && idx[d] == l->shape[d]; d--) {
            idx[d] = 0;
            idx[d - 1]++;
            for (int k = 0; k < nop; k++)
                p[k] += l->strides[k][d - 1] - l->shape[d] * l->strides[k][d];
        }
    }
}

static void count_blocks(int64_t begin, int64_t end, void *ctx)
{
    const dt_index_loop *l = (const dt_index_loop *)ctx;
    const unsigned char *mask = (const unsigned char *)l->data[1];
    for (int64_t b = begin; b < end; b++) {
        int64_t start = b * l->chunk, stop = start + l->chunk < l->numel ? start + l->chunk : l->numel, n = 0;
        for (int64_t i = start; i < stop; i++)
            n += mask[i] != 0;
        l->flag[b] = n;
    }
}

static void compact_blocks(int64_t begin, int64_t end, void *ctx)
{
    const dt_index_loop *l = (const dt_index_loop *)ctx;
    const unsigned char *mask = (const unsigned char *)l->data[1];
    int64_t *out = (int64_t *)l->data[0];
    for (int64_t b = begin; b < end; b++) {
        int64_t start = b * l->chunk, stop = start + l->chunk < l->numel ? start + l->chunk : l->numel;
        int64_t at = l->flag[b], limit = l->flag[b + 1];
        for (int64_t i = start; i < stop && at < limit; i++) {
            out[at] = i; /* written always, kept when true: no branch to mispredict */
            at += mask[i] != 0;
        }
    }
}

static dt_status validate(const dt_index_loop *l, dt_error *err)
{
    if (l->kind < DT_IDX_OFFSETS || l->kind > DT_IDX_COMPACT || l->numel < 1)
        return dt_error_set(err, DT_ERR_VALUE, "run_index: bad kind %d or element count", l->kind);
    if (l->kind >= DT_IDX_COUNT) {
        if (l->nblocks < 1 || l->nblocks > DT_INDEX_MAX_BLOCKS || l->chunk < 1 ||
            (l->numel - 1) / l->chunk >= l->nblocks || l->flag == NULL || l->data[1] == NULL ||
            (l->kind == DT_IDX_COMPACT && l->data[0] == NULL))
            return dt_error_set(err, DT_ERR_VALUE, "run_index: a bad mask loop");
        return DT_OK;
    }
    int64_t numel = 1;
    if (l->ndim < 1 || l->ndim > DT_MAX_NDIM)
        return dt_error_set(err, DT_ERR_VALUE, "run_index: ndim %d out of range", l->ndim);
    for (int d = 0; d < l->ndim; d++) {
        if (l->shape[d] < 1 || numel > INT64_MAX / l->shape[d])
            return dt_error_set(err, DT_ERR_VALUE, "run_index: bad shape");
        numel *= l->shape[d];
    }
    int s = l->itemsize;
    if (numel != l->numel || (l->kind != DT_IDX_OFFSETS && s != 1 && s != 2 && s != 4 && s != 8 && s != 16))
        return dt_error_set(err, DT_ERR_VALUE, "run_index: numel or itemsize does not fit");
    int scatters = l->kind == DT_IDX_CLAIM || l->kind == DT_IDX_SCATTER; /* flag may be NULL: ordered */
    int needs_bad = l->kind == DT_IDX_OFFSETS || (l->direct && (l->kind == DT_IDX_GATHER || l->kind == DT_IDX_CLAIM));
    if ((scatters && (l->claim_base == NULL || l->slots < 1)) || (needs_bad && l->bad == NULL))
        return dt_error_set(err, DT_ERR_VALUE, "run_index: a loop without its flag memory");
    return DT_OK;
}

dt_status dt_cpu_run_index(const dt_index_loop *l, dt_error *err)
{
    if (l == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "run_index: no loop");
    DT_TRY(validate(l, err));
    void *ctx = (void *)l;
    if (l->kind == DT_IDX_COUNT) {
        dt_cpu_parallel_for(l->nblocks, 1 + INDEX_GRAIN * 4 / l->chunk, count_blocks, ctx);
        int64_t sum = 0;
        for (int b = 0; b < l->nblocks; b++) {
            int64_t c = l->flag[b];
            l->flag[b] = sum;
            sum += c;
        }
        l->flag[l->nblocks] = sum;
    } else if (l->kind == DT_IDX_COMPACT) {
        dt_cpu_parallel_for(l->nblocks, 1 + INDEX_GRAIN * 4 / l->chunk, compact_blocks, ctx);
    } else if (l->kind == DT_IDX_SCATTER && l->flag == NULL && !one_value(l)) {
        strided_range(0, l->numel, ctx); /* in order, on this thread: Note [Index kernels on the CPU] */
    } else {
        dt_cpu_parallel_for(l->numel, INDEX_GRAIN, strided_range, ctx);
    }
    return DT_OK;
}
