/* gather.c - advanced indexing on a device through the backend's index
 * kernels: dt_index_take, dt_index_put and dt_index_nonzero (gather.h).
 *
 * Note [Advanced indexing on devices]
 * devtensor._advanced reduces any NumPy index with integer arrays or
 * boolean masks to: a basic view, one int64 index tensor per indexed axis
 * broadcast to the index space B, and the result's shape R, which holds B
 * at b_start (NumPy's rule for where the broadcast axes go is applied
 * there).  Masks become index tensors first, by dt_index_nonzero: COUNT
 * (true elements per chunk, then exclusive sums and the total), one read
 * of the total (the size of the result must be known on the host to
 * allocate it, as in every array library), COMPACT (positions, in order).
 * Then:
 *   1. OFFSETS, once per indexed axis, sums the wrapped indices times the
 *      axes' byte strides into one int64 offset per element of B, checking
 *      every index on the device (Note [Bounds on the device] in
 *      cuda_index.cu); one read of the per-axis flags follows, so a bad
 *      index raises IndexError before anything is written;
 *   2. a take runs GATHER over R; a put runs CLAIM then SCATTER (Note [Last
 *      write wins]), with one int64 slot per element of the targets' span.
 * With one indexed axis, step 1 is folded into step 2 (Note [Direct
 * loops]).  Nothing of the index crosses to the host but those small
 * reads.  The geometry is checked here before any launch: every address
 * the offsets can reach lies inside the storage (the offsets are trusted
 * only because step 1 or a direct loop produces in-range ones only).
 */
#include "gather.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* ---- small device helpers ---- */

static dt_status new_i64(dt_tensor *t, dt_device device, int ndim, const int64_t *shape, dt_error *err)
{
    return dt_tensor_init_new(t, device, DT_INT64, ndim, shape, err);
}

static dt_status fill_i64(dt_tensor *t, int64_t value, dt_error *err)
{
    dt_gen gen;
    memset(&gen, 0, sizeof gen);
    gen.kind = DT_GEN_FILL;
    memcpy(gen.value.bytes, &value, sizeof value);
    return dt_tensor_generate(t, &gen, err);
}

static dt_status read_back(const dt_backend_iface *b, int index, void *host, const void *dev, size_t n,
                           dt_error *err)
{
    void *stream = b->get_stream ? b->get_stream(index) : NULL;
    return b->copy(DT_COPY_DEVICE_TO_HOST, host, 0, dev, index, n, stream, 0, err);
}

static const dt_backend_iface *index_backend(const dt_tensor *t, int *index, dt_error *err)
{
    dt_device device = dt_tensor_device(t);
    const dt_backend_iface *b = dt_device_resolve(&device, err);
    if (b == NULL)
        return NULL;
    if (b->run_index == NULL) {
        dt_error_set(err, DT_ERR_NOT_IMPLEMENTED, "the %s backend has no index kernels", b->name);
        return NULL;
    }
    *index = device.index < 0 ? 0 : device.index;
    return b;
}

/* drop length-1 dims and merge dims every operand walks as one */
static void coalesce(dt_index_loop *l, int nop)
{
    int nd = 0;
    for (int d = 0; d < l->ndim; d++) {
        if (l->shape[d] == 1)
            continue;
        int merge = nd > 0;
        for (int k = 0; merge && k < nop; k++)
            merge = l->strides[k][nd - 1] == l->strides[k][d] * l->shape[d];
        if (merge) {
            l->shape[nd - 1] *= l->shape[d];
            for (int k = 0; k < nop; k++)
                l->strides[k][nd - 1] = l->strides[k][d];
            continue;
        }
        l->shape[nd] = l->shape[d];
        for (int k = 0; k < nop; k++)
            l->strides[k][nd] = l->strides[k][d];
        nd++;
    }
    if (nd == 0) {
        l->shape[0] = 1;
        for (int k = 0; k < nop; k++)
            l->strides[k][0] = 0;
        nd = 1;
    }
    l->ndim = nd;
}

static void loop_start(dt_index_loop *l, const dt_backend_iface *b, int index, int kind)
{
    memset(l, 0, offsetof(dt_index_loop, shape));
    l->kind = kind;
    l->device_index = index;
    l->stream = b->get_stream ? b->get_stream(index) : NULL;
}

/* ---- checking the request ---- */

static int same_shape(const dt_tensor *a, int ndim, const int64_t *shape)
{
    if (a->ndim != ndim)
        return 0;
    for (int i = 0; i < ndim; i++)
        if (a->shape[i] != shape[i])
            return 0;
    return 1;
}

/* lo or hi moved by (n - 1) * stride; 0 on overflow */
static int extent_add(int64_t n, int64_t stride, int64_t *lo, int64_t *hi)
{
    int64_t e;
    if (__builtin_mul_overflow(n - 1, stride, &e))
        return 0;
    return !__builtin_add_overflow(e < 0 ? *lo : *hi, e, e < 0 ? lo : hi);
}

/* The byte range [lo, hi) (from the storage's start) that the indexed side
 * `t` can reach with the axes' offsets; an error unless inside the storage. */
static dt_status reach(const dt_tensor *t, int nidx, const dt_index_axis *ax, int64_t *lo, int64_t *hi,
                       dt_error *err)
{
    int64_t l = t->offset, h = t->offset;
    int ok = 1;
    for (int d = 0; ok && d < t->ndim; d++)
        if (t->shape[d] > 0)
            ok = extent_add(t->shape[d], t->strides[d], &l, &h);
    for (int k = 0; ok && k < nidx; k++) {
        if (ax[k].length < 0)
            return dt_error_set(err, DT_ERR_VALUE, "index axis %d: negative length", ax[k].axis);
        if (ax[k].length > 0)
            ok = extent_add(ax[k].length, ax[k].stride, &l, &h);
    }
    if (ok)
        ok = !__builtin_add_overflow(h, dt_tensor_itemsize(t), &h);
    if (!ok || l < 0 || (uint64_t)h > (uint64_t)t->storage->nbytes)
        return dt_error_set(err, DT_ERR_VALUE, "indexing would reach outside the tensor's memory");
    *lo = l;
    *hi = h;
    return DT_OK;
}

/* out and src of one shape R and dtype, the indices of one shape B inside
 * R at b_start, everything on one device */
static dt_status check_request(const dt_tensor *dense, const dt_tensor *sparse, int b_start, int nidx,
                               const dt_index_axis *ax, dt_error *err)
{
    if (nidx < 1 || nidx > DT_MAX_NDIM)
        return dt_error_set(err, DT_ERR_VALUE, "index: %d indexed axes", nidx);
    if (!same_shape(sparse, dense->ndim, dense->shape) || sparse->dtype != dense->dtype)
        return dt_error_set(err, DT_ERR_VALUE, "index: the two sides differ in shape or dtype");
    dt_device device = dt_tensor_device(dense);
    if (!dt_device_equal(device, dt_tensor_device(sparse)))
        return dt_error_set(err, DT_ERR_VALUE, "index: the two sides are on different devices");
    const dt_tensor *first = ax[0].index;
    if (b_start < 0 || first->ndim > dense->ndim - b_start)
        return dt_error_set(err, DT_ERR_VALUE, "index: the index space does not fit the result");
    for (int k = 0; k < nidx; k++) {
        const dt_tensor *ix = ax[k].index;
        if (ix->dtype != DT_INT64 || !same_shape(ix, first->ndim, first->shape) ||
            !same_shape(ix, first->ndim, dense->shape + b_start))
            return dt_error_set(err, DT_ERR_VALUE, "index: the index tensors must be int64 of the index space's shape");
        if (!dt_device_equal(device, dt_tensor_device(ix)))
            return dt_error_set(err, DT_ERR_VALUE, "index: an index tensor is on another device");
    }
    return DT_OK;
}

/* ---- step 1: offsets, with the bounds checked on the device ---- */

static dt_status report_bad(const dt_backend_iface *b, int index, const dt_index_axis *a, int64_t pos,
                            dt_error *err)
{
    const dt_tensor *ix = a->index;
    const char *p = dt_tensor_data(ix);
    for (int d = ix->ndim - 1; d >= 0; d--) {
        p += (pos % ix->shape[d]) * ix->strides[d];
        pos /= ix->shape[d];
    }
    int64_t value = 0;
    DT_TRY(read_back(b, index, &value, p, sizeof value, err));
    return dt_error_set(err, DT_ERR_INDEX, "index %lld is out of bounds for axis %d with size %lld",
                        (long long)value, a->axis, (long long)a->length);
}

/* off = a new contiguous int64 tensor of shape B: the byte offset of each
 * element of the index space */
static dt_status offsets(dt_tensor *off, const dt_backend_iface *b, int index, int nidx, const dt_index_axis *ax,
                         dt_error *err)
{
    const dt_tensor *first = ax[0].index;
    dt_device device = dt_tensor_device(first);
    dt_tensor flags;
    dt_tensor_init_empty(&flags);
    int64_t n = nidx;
    dt_status st = new_i64(off, device, first->ndim, first->shape, err);
    if (st != DT_OK || off->numel == 0)
        return st;
    st = new_i64(&flags, device, 1, &n, err);
    if (st == DT_OK)
        st = fill_i64(&flags, INT64_MAX, err);
    dt_index_loop *l = (dt_index_loop *)malloc(sizeof *l);
    if (st == DT_OK && l == NULL)
        st = dt_error_set(err, DT_ERR_NOMEM, "out of host memory indexing");
    for (int k = 0; st == DT_OK && k < nidx; k++) {
        loop_start(l, b, index, DT_IDX_OFFSETS);
        l->ndim = first->ndim;
        l->numel = off->numel;
        l->data[0] = dt_tensor_data(off);
        l->data[1] = dt_tensor_data(ax[k].index);
        for (int d = 0; d < first->ndim; d++) {
            l->shape[d] = first->shape[d];
            l->strides[0][d] = off->strides[d];
            l->strides[1][d] = ax[k].index->strides[d];
        }
        l->axis_len = ax[k].length;
        l->axis_stride = ax[k].stride;
        l->accumulate = k > 0;
        l->bad = (int64_t *)dt_tensor_data(&flags) + k;
        coalesce(l, 2);
        st = b->run_index(l, err);
    }
    free(l);
    int64_t *bad = st == DT_OK ? (int64_t *)malloc((size_t)nidx * sizeof *bad) : NULL;
    if (st == DT_OK && bad == NULL)
        st = dt_error_set(err, DT_ERR_NOMEM, "out of host memory indexing");
    if (st == DT_OK)
        st = read_back(b, index, bad, dt_tensor_data(&flags), (size_t)nidx * sizeof *bad, err);
    for (int k = 0; st == DT_OK && k < nidx; k++)
        if (bad[k] != INT64_MAX)
            st = report_bad(b, index, &ax[k], bad[k], err);
    free(bad);
    dt_tensor_clear(&flags);
    if (st != DT_OK)
        dt_tensor_clear(off);
    return st;
}

/* ---- step 2: gather, or claim and scatter ---- */

static int multiple(int64_t v, int64_t a) { return v % a == 0; }

static int is_aligned(const dt_tensor *t, int64_t a)
{
    if (!multiple((int64_t)(uintptr_t)dt_tensor_data(t), a))
        return 0;
    for (int d = 0; d < t->ndim; d++)
        if (t->shape[d] > 1 && !multiple(t->strides[d], a))
            return 0;
    return 1;
}

/* every address the loop can touch is a multiple of a */
static int all_aligned(const dt_tensor *dense, const dt_tensor *sparse, int nidx, const dt_index_axis *ax,
                       int64_t a)
{
    int aligned = is_aligned(dense, a) && is_aligned(sparse, a);
    for (int k = 0; k < nidx; k++)
        aligned = aligned && (ax[k].length <= 1 || multiple(ax[k].stride, a));
    return aligned;
}

/* the dtype's alignment, which the kernels need (views keep it) */
static dt_status check_alignment(const dt_tensor *dense, const dt_tensor *sparse, int nidx,
                                 const dt_index_axis *ax, dt_error *err)
{
    const dt_dtype_info *info = dt_dtype_get_info(dense->dtype);
    int64_t a = info->kind == DT_KIND_COMPLEX ? info->itemsize / 2 : info->itemsize;
    if (a > 8)
        a = 8;
    if (!all_aligned(dense, sparse, nidx, ax, a))
        return dt_error_set(err, DT_ERR_VALUE, "indexing: the %s elements are not aligned to %lld bytes",
                            info->name, (long long)a);
    return DT_OK;
}

/* the loop over R: dense side, indexed side, and `third`: the offsets, or
 * in a direct loop the one index tensor (stride 0 outside B either way) */
static void move_loop(dt_index_loop *l, const dt_tensor *dense, const dt_tensor *sparse, const dt_tensor *third,
                      int b_start, const dt_index_axis *direct)
{
    /* complex64 is aligned to 4 bytes only, as NumPy's: its kernels move it in halves */
    l->aligned = dense->dtype != DT_COMPLEX64;
    l->ndim = dense->ndim;
    l->numel = dense->numel;
    l->itemsize = (int)dt_tensor_itemsize(dense);
    l->data[0] = dt_tensor_data(dense);
    l->data[1] = dt_tensor_data(sparse);
    l->data[2] = dt_tensor_data(third);
    if (direct != NULL) {
        l->direct = 1;
        l->axis_len = direct->length;
        l->axis_stride = direct->stride;
    }
    for (int d = 0; d < dense->ndim; d++) {
        l->shape[d] = dense->shape[d];
        l->strides[0][d] = dense->strides[d];
        l->strides[1][d] = sparse->strides[d];
        int in_b = d >= b_start && d < b_start + third->ndim;
        l->strides[2][d] = in_b ? third->strides[d - b_start] : 0;
    }
    coalesce(l, 3);
}

/* Note [Direct loops]
 * With one indexed axis (x[idx], x[mask] of a 1-d mask, take), the loop
 * reads the indices itself and checks them as it goes, with no offsets
 * pass and no offsets tensor: one pass over the indices instead of three.
 * A direct loop sees the indices only where the result is not empty, so an
 * empty result (a zero-length axis beside B) is checked by OFFSETS. */

/* a bad index found at C-order position pos of the loop over R: its
 * position in B, for report_bad */
static int64_t position_in_b(const dt_tensor *r, int b_start, int b_ndim, int64_t pos)
{
    int64_t in_b = 0, scale = 1;
    for (int d = r->ndim - 1; d >= 0; d--) {
        int64_t c = pos % r->shape[d];
        pos /= r->shape[d];
        if (d >= b_start && d < b_start + b_ndim) {
            in_b += c * scale;
            scale *= r->shape[d];
        }
    }
    return in_b;
}

/* one direct loop (GATHER or CLAIM) that checks the indices; the error
 * for the first bad one */
static dt_status run_checked(const dt_backend_iface *b, int index, dt_index_loop *l, const dt_tensor *r,
                             int b_start, const dt_index_axis *ax, dt_error *err)
{
    dt_tensor bad;
    dt_tensor_init_empty(&bad);
    int64_t one = 1, pos = INT64_MAX;
    dt_status st = new_i64(&bad, dt_tensor_device(r), 1, &one, err);
    if (st == DT_OK)
        st = fill_i64(&bad, INT64_MAX, err);
    if (st == DT_OK) {
        l->bad = (int64_t *)dt_tensor_data(&bad);
        st = b->run_index(l, err);
    }
    if (st == DT_OK)
        st = read_back(b, index, &pos, dt_tensor_data(&bad), sizeof pos, err);
    if (st == DT_OK && pos != INT64_MAX)
        st = report_bad(b, index, ax, position_in_b(r, b_start, ax->index->ndim, pos), err);
    dt_tensor_clear(&bad);
    return st;
}

/* What take and put check first: the side written, the request, and where
 * the result is not empty (an empty one touches no memory, but its indices
 * are still checked) the targets' reach [lo, hi) and alignment; their
 * backend, or NULL with err set. */
static const dt_backend_iface *prepare(const dt_tensor *written, const dt_tensor *dense, const dt_tensor *sparse,
                                       int b_start, int nidx, const dt_index_axis *ax, int64_t *lo, int64_t *hi,
                                       int *index, dt_error *err)
{
    *lo = *hi = 0;
    if (dt_tensor_check_writeable(written, err) != DT_OK ||
        check_request(dense, sparse, b_start, nidx, ax, err) != DT_OK)
        return NULL;
    if (dense->numel > 0 &&
        (reach(sparse, nidx, ax, lo, hi, err) != DT_OK || check_alignment(dense, sparse, nidx, ax, err) != DT_OK))
        return NULL;
    return index_backend(dense, index, err);
}

dt_status dt_index_take(dt_tensor *out, const dt_tensor *src, int b_start, int nidx, const dt_index_axis *ax,
                        dt_error *err)
{
    int64_t lo, hi;
    int index;
    const dt_backend_iface *b = prepare(out, out, src, b_start, nidx, ax, &lo, &hi, &index, err);
    if (b == NULL)
        return err->status;
    int direct = nidx == 1 && out->numel > 0; /* Note [Direct loops] */
    dt_tensor off;
    dt_tensor_init_empty(&off);
    if (!direct)
        DT_TRY(offsets(&off, b, index, nidx, ax, err));
    dt_status st = DT_OK;
    dt_index_loop *l = out->numel > 0 ? (dt_index_loop *)malloc(sizeof *l) : NULL;
    if (out->numel > 0 && l == NULL)
        st = dt_error_set(err, DT_ERR_NOMEM, "out of host memory indexing");
    if (l != NULL) {
        loop_start(l, b, index, DT_IDX_GATHER);
        move_loop(l, out, src, direct ? ax[0].index : &off, b_start, direct ? &ax[0] : NULL);
        st = direct ? run_checked(b, index, l, out, b_start, &ax[0], err) : b->run_index(l, err);
    }
    free(l);
    dt_tensor_clear(&off);
    return st;
}

/* CLAIM then SCATTER of val into dst (the targets' span [lo, hi) from the
 * storage's start); `third` as in move_loop.  A direct CLAIM checks the
 * indices, and SCATTER runs only if they are all good.  The CPU backend
 * writes in order and needs no claim slots (Note [Index kernels on the CPU]). */
static dt_status scatter(const dt_backend_iface *b, int index, dt_tensor *dst, const dt_tensor *val,
                         const dt_tensor *third, int b_start, const dt_index_axis *direct, int64_t lo, int64_t hi,
                         dt_error *err)
{
    int64_t itemsize = dt_tensor_itemsize(dst), slots = (hi - lo + itemsize - 1) / itemsize;
    int ordered = dt_tensor_device(dst).type == DT_DEVICE_CPU;
    dt_tensor winner;
    dt_tensor_init_empty(&winner);
    dt_status st = DT_OK;
    if (!ordered) {
        st = new_i64(&winner, dt_tensor_device(dst), 1, &slots, err);
        if (st == DT_OK)
            st = fill_i64(&winner, -1, err);
    }
    dt_index_loop *l = st == DT_OK ? (dt_index_loop *)malloc(sizeof *l) : NULL;
    if (st == DT_OK && l == NULL)
        st = dt_error_set(err, DT_ERR_NOMEM, "out of host memory indexing");
    for (int kind = DT_IDX_CLAIM; st == DT_OK && kind <= DT_IDX_SCATTER; kind++) {
        if (ordered && kind == DT_IDX_CLAIM && direct == NULL)
            continue; /* nothing to claim, nothing to check */
        loop_start(l, b, index, kind);
        move_loop(l, val, dst, third, b_start, direct);
        l->flag = ordered ? NULL : (int64_t *)dt_tensor_data(&winner);
        l->claim_base = (char *)dst->storage->ptr + lo;
        l->slots = slots;
        st = direct != NULL && kind == DT_IDX_CLAIM ? run_checked(b, index, l, val, b_start, direct, err)
                                                    : b->run_index(l, err);
    }
    free(l);
    dt_tensor_clear(&winner);
    return st;
}

/* 1 if t's bytes may lie among the targets [lo, hi) of dst's storage */
static int in_targets(const dt_tensor *t, const dt_tensor *dst, int64_t lo, int64_t hi)
{
    uintptr_t tlo, thi, base = (uintptr_t)dst->storage->ptr;
    dt_tensor_byte_bounds(t, &tlo, &thi);
    return dst->numel > 0 && tlo < base + (uintptr_t)hi && base + (uintptr_t)lo < thi;
}

dt_status dt_index_put(dt_tensor *dst, const dt_tensor *val, int b_start, int nidx, const dt_index_axis *ax,
                       dt_error *err)
{
    int64_t lo, hi;
    int index;
    const dt_backend_iface *b = prepare(dst, val, dst, b_start, nidx, ax, &lo, &hi, &index, err);
    if (b == NULL)
        return err->status;
    /* Note [Direct loops]; an index among the targets (t[t] = 0) is read
     * whole first, into the offsets, as NumPy reads it before writing */
    int direct = nidx == 1 && dst->numel > 0 && !in_targets(ax[0].index, dst, lo, hi);
    dt_tensor off, copy;
    dt_tensor_init_empty(&off);
    dt_tensor_init_empty(&copy);
    if (!direct)
        DT_TRY(offsets(&off, b, index, nidx, ax, err));
    dt_status st = DT_OK;
    if (in_targets(val, dst, lo, hi)) { /* a value that overlaps the targets is read first */
        st = dt_tensor_init_new(&copy, dt_tensor_device(val), val->dtype, val->ndim, val->shape, err);
        if (st == DT_OK)
            st = dt_tensor_copy_into(&copy, val, err);
        val = &copy;
    }
    if (st == DT_OK && dst->numel > 0)
        st = scatter(b, index, dst, val, direct ? ax[0].index : &off, b_start, direct ? &ax[0] : NULL, lo, hi,
                     err);
    dt_tensor_clear(&off);
    dt_tensor_clear(&copy);
    return st;
}

/* ---- masks ---- */

dt_status dt_index_nonzero(dt_tensor *out, const dt_tensor *mask, dt_error *err)
{
    dt_tensor_init_empty(out);
    if (mask->dtype != DT_BOOL || !dt_tensor_is_contiguous(mask))
        return dt_error_set(err, DT_ERR_VALUE, "nonzero positions: the mask must be a contiguous bool tensor");
    dt_device device = dt_tensor_device(mask);
    int64_t n = mask->numel, zero = 0;
    if (n == 0)
        return new_i64(out, device, 1, &zero, err);
    int index;
    const dt_backend_iface *b = index_backend(mask, &index, err);
    if (b == NULL)
        return err->status;
    /* chunks of at least 4096 bytes, at most DT_INDEX_MAX_BLOCKS of them */
    int64_t nblocks = (n + 4095) / 4096;
    if (nblocks > DT_INDEX_MAX_BLOCKS)
        nblocks = DT_INDEX_MAX_BLOCKS;
    int64_t chunk = (n + nblocks - 1) / nblocks, ncounts = nblocks + 1;
    nblocks = (n + chunk - 1) / chunk;
    dt_tensor counts;
    dt_tensor_init_empty(&counts);
    DT_TRY(new_i64(&counts, device, 1, &ncounts, err));
    dt_index_loop *l = (dt_index_loop *)malloc(sizeof *l);
    dt_status st = l == NULL ? dt_error_set(err, DT_ERR_NOMEM, "out of host memory indexing") : DT_OK;
    int64_t total = 0;
    for (int kind = DT_IDX_COUNT; st == DT_OK && kind <= DT_IDX_COMPACT; kind++) {
        if (kind == DT_IDX_COMPACT) {
            st = read_back(b, index, &total, (int64_t *)dt_tensor_data(&counts) + nblocks, sizeof total, err);
            if (st == DT_OK)
                st = new_i64(out, device, 1, &total, err);
            if (st != DT_OK || total == 0)
                break;
        }
        loop_start(l, b, index, kind);
        l->ndim = 1;
        l->numel = n;
        l->shape[0] = n;
        l->nblocks = (int)nblocks;
        l->chunk = chunk;
        l->data[0] = kind == DT_IDX_COMPACT ? dt_tensor_data(out) : NULL;
        l->data[1] = dt_tensor_data(mask);
        l->flag = (int64_t *)dt_tensor_data(&counts);
        st = b->run_index(l, err);
    }
    free(l);
    dt_tensor_clear(&counts);
    if (st != DT_OK)
        dt_tensor_clear(out);
    return st;
}
