/* index.c - basic indexing geometry (index.h).
 *
 * Note [Basic indexing]
 * NumPy's rules: each integer consumes an axis (negative counts from the
 * end; out of range is IndexError "index 7 is out of bounds for axis 0 with
 * size 5"), each slice consumes one and keeps it, each newaxis adds one of
 * length 1 and stride 0, and one ellipsis stands for full slices of the
 * axes the other items leave; with no ellipsis those axes trail.  Checks
 * run in NumPy's order: a second ellipsis or an integer beyond int64, in
 * the order of the items; too many indices; too many result axes; then
 * each item (bounds, and slices, which NumPy reads only then).  A slice is adjusted to its axis as
 * Python's PySlice_AdjustIndices does; an empty one starts at 0 with step
 * 1 (NumPy's strides for it), and a step's stride wraps in int64 as
 * NumPy's does: it can overflow only when the slice has at most one
 * element, whose stride is moot (np.arange(10)[::2**62]).
 */
#include "index.h"

/* start/stop of a slice clamped to an axis of length n (PySlice_AdjustIndices) */
static int64_t slice_bound(int64_t v, int64_t n, int64_t step)
{
    if (v < 0) {
        v += n;
        if (v < 0)
            v = step < 0 ? -1 : 0;
    } else if (v >= n) {
        v = step < 0 ? n - 1 : n;
    }
    return v;
}

static int64_t slice_length(int64_t start, int64_t stop, int64_t step)
{
    if (step < 0)
        return stop < start ? (int64_t)(((uint64_t)start - (uint64_t)stop - 1) / (uint64_t)(-step)) + 1 : 0;
    return start < stop ? (int64_t)(((uint64_t)stop - (uint64_t)start - 1) / (uint64_t)step) + 1 : 0;
}

dt_status dt_index_basic(int ndim, const int64_t *shape, const int64_t *strides,
                         const dt_index_item *items, int n, int *out_ndim, int64_t *out_shape,
                         int64_t *out_strides, int64_t *offset, dt_error *err)
{
    int ellipses = 0, consumed = 0, added = 0, dropped = 0;
    for (int i = 0; i < n; i++) {
        dt_index_kind k = items[i].kind;
        ellipses += k == DT_INDEX_ELLIPSIS;
        if (ellipses > 1)
            return dt_error_set(err, DT_ERR_INDEX, "an index can only have a single ellipsis ('...')");
        if (k == DT_INDEX_NOT_AN_INDEX)
            return dt_error_set(err, DT_ERR_INDEX, "only integers, slices (`:`), ellipsis (`...`), "
                                "numpy.newaxis (`None`) and integer or boolean arrays are valid indices");
        consumed += k == DT_INDEX_INTEGER || k == DT_INDEX_SLICE || k == DT_INDEX_UNREADABLE;
        added += k == DT_INDEX_NEWAXIS;
        dropped += k == DT_INDEX_INTEGER;
    }
    if (consumed > ndim)
        return dt_error_set(err, DT_ERR_INDEX,
                            "too many indices for array: array is %d-dimensional, but %d were indexed", ndim,
                            consumed);
    int result_ndim = ndim - dropped + added;
    if (result_ndim > DT_MAX_NDIM)
        return dt_error_set(err, DT_ERR_INDEX,
                            "number of dimensions must be within [0, %d], indexing result would have %d",
                            DT_MAX_NDIM, result_ndim);
    int fill = ndim - consumed; /* full slices: at the ellipsis, else at the end */
    int axis = 0, out = 0;
    int64_t off = 0;
    for (int i = 0; i <= n; i++) {
        if (i == n ? ellipses == 0 : items[i].kind == DT_INDEX_ELLIPSIS) {
            for (int j = 0; j < fill; j++, axis++, out++) {
                out_shape[out] = shape[axis];
                out_strides[out] = strides[axis];
            }
            continue;
        }
        if (i == n)
            break;
        const dt_index_item *it = &items[i];
        if (it->kind == DT_INDEX_NEWAXIS) {
            out_shape[out] = 1;
            out_strides[out++] = 0;
            continue;
        }
        if (it->kind == DT_INDEX_UNREADABLE)
            return dt_error_set(err, DT_ERR_VALUE, "index item %d could not be read", i);
        int64_t len = shape[axis], stride = strides[axis], start;
        if (it->kind == DT_INDEX_INTEGER) {
            start = it->start;
            if (start < -len || start >= len)
                return dt_error_set(err, DT_ERR_INDEX, "index %lld is out of bounds for axis %d with size %lld",
                                    (long long)start, axis, (long long)len);
            if (start < 0)
                start += len;
        } else {
            int64_t step = it->step;
            start = slice_bound(it->start, len, step);
            int64_t count = slice_length(start, slice_bound(it->stop, len, step), step);
            if (count == 0) /* NumPy's empty slice: start 0, step 1 */
                start = 0, step = 1;
            out_shape[out] = count;
            out_strides[out++] = (int64_t)((uint64_t)stride * (uint64_t)step);
        }
        int64_t moved;
        if (__builtin_mul_overflow(start, stride, &moved) || __builtin_add_overflow(off, moved, &off))
            return dt_error_set(err, DT_ERR_OVERFLOW, "the indexed element's offset overflows int64");
        axis++;
    }
    *out_ndim = out;
    *offset = off;
    return DT_OK;
}
