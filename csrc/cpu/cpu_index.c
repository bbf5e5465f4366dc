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
 * core sends for the CPU) gives each thread a share of the targets, and
 * each walks all the positions in order (random writes dominate, and each
 * target is written by one thread); CLAIM is then only the check.  COUNT
 * and COMPACT split the mask by the core's blocks.
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

/* the byte offset that the index or offset at p gives; 0 for a bad index */
static int offset_at(const dt_index_loop *l, const char *p, int64_t i, int64_t *off)
{
    int64_t v;
    memcpy(&v, p, sizeof v);
    if (l->kind != DT_IDX_OFFSETS && !l->direct) { /* an offset, made by OFFSETS */
        *off = v;
        return 1;
    }
    if (v < -l->axis_len || v >= l->axis_len) {
        if (l->bad != NULL)
            atomic_min_i64(l->bad, i);
        return 0;
    }
    *off = (v < 0 ? v + l->axis_len : v) * l->axis_stride;
    return 1;
}

static void move_bytes(char *to, const char *from, int n)
{
    switch (n) { /* constant sizes: the compiler moves them in one or two words */
    case 1: memcpy(to, from, 1); break;
    case 2: memcpy(to, from, 2); break;
    case 4: memcpy(to, from, 4); break;
    case 8: memcpy(to, from, 8); break;
    default: memcpy(to, from, 16); break;
    }
}

/* An ordered scatter's share: the targets in slots [first_slot, end_slot). */
typedef struct {
    const dt_index_loop *loop;
    int64_t first_slot, end_slot;
    int64_t shares; /* how many shares the targets are cut into */
} share;

/* positions [begin, end) of a strided loop, writing only part's targets
 * when it is an ordered scatter */
static void strided_part(int64_t begin, int64_t end, const dt_index_loop *l, const share *part)
{
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
    const int64_t s0 = l->strides[0][nd - 1], s1 = l->strides[1][nd - 1],
                  s2 = nop == 3 ? l->strides[2][nd - 1] : 0;
    const int size = l->itemsize;
    int64_t *winner = l->flag;
    for (int64_t i = begin; i < end;) {
        int64_t run = n_in - idx[nd - 1];
        if (run > end - i)
            run = end - i;
        for (int64_t j = 0; j < run; j++, i++, p[0] += s0, p[1] += s1, p[2] += s2) {
            int64_t off;
            switch (l->kind) {
            case DT_IDX_OFFSETS:
                if (offset_at(l, p[1], i, &off)) {
                    int64_t cur = 0;
                    if (l->accumulate)
                        memcpy(&cur, p[0], sizeof cur);
                    cur += off;
                    memcpy(p[0], &cur, sizeof cur);
                }
                break;
            case DT_IDX_GATHER:
                if (offset_at(l, p[2], i, &off))
                    move_bytes(p[0], p[1] + off, size);
                break;
            case DT_IDX_CLAIM: /* with flag NULL: only the check */
                if (offset_at(l, p[2], i, &off) && winner != NULL)
                    atomic_max_i64(winner + (p[1] + off - l->claim_base) / size, i);
                break;
            default: /* DT_IDX_SCATTER */
                if (offset_at(l, p[2], i, &off)) {
                    char *to = p[1] + off;
                    int64_t slot = (to - l->claim_base) / size;
                    if (winner != NULL ? __atomic_load_n(winner + slot, __ATOMIC_RELAXED) == i
                                       : slot >= part->first_slot && slot < part->end_slot)
                        move_bytes(to, p[0], size);
                }
                break;
            }
        }
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

static void strided_range(int64_t begin, int64_t end, void *ctx)
{
    share all = {(const dt_index_loop *)ctx, 0, INT64_MAX, 1};
    strided_part(begin, end, all.loop, &all);
}

/* Note [Index kernels on the CPU]: an ordered scatter (flag NULL) splits
 * the targets, not the positions: share k walks every position in order
 * and writes the targets in its slots, so the last write wins with no
 * atomics and no claim slots; the indices are read once per thread. */
static void ordered_shares(int64_t begin, int64_t end, void *ctx)
{
    const share *all = (const share *)ctx;
    const dt_index_loop *l = all->loop;
    int64_t n = all->shares, q = l->slots / n, r = l->slots % n;
    for (int64_t k = begin; k < end; k++) {
        share part = {l, q * k + (k < r ? k : r), 0, n};
        part.end_slot = part.first_slot + q + (k < r);
        strided_part(0, l->numel, l, &part);
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
    } else if (l->kind == DT_IDX_SCATTER && l->flag == NULL) {
        int64_t shares = dt_cpu_get_num_threads();
        if (shares > l->slots)
            shares = l->slots;
        if (l->numel < 4 * INDEX_GRAIN || shares < 1)
            shares = 1;
        share all = {l, 0, 0, shares};
        dt_cpu_parallel_for(shares, 1, ordered_shares, &all);
    } else {
        dt_cpu_parallel_for(l->numel, INDEX_GRAIN, strided_range, ctx);
    }
    return DT_OK;
}
