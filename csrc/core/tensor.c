/* tensor.c - tensor construction, size checks and data movement (see tensor.h). */
#include "tensor.h"

#include <stdlib.h>
#include <string.h>
#include "elementwise.h"

/* ---- size arithmetic ---- */

dt_status dt_mul_overflow_i64(int64_t a, int64_t b, int64_t *out, dt_error *err)
{
    if (__builtin_mul_overflow(a, b, out))
        return dt_error_set(err, DT_ERR_OVERFLOW,
                            "size overflow: %lld * %lld does not fit in 64 bits",
                            (long long)a, (long long)b);
    return DT_OK;
}

dt_status dt_shape_check(int ndim, const int64_t *shape, int64_t *numel, dt_error *err)
{
    if (ndim < 0 || ndim > DT_MAX_NDIM)
        return dt_error_set(err, DT_ERR_VALUE,
                            "maximum supported dimension for a tensor is %d, found %d",
                            DT_MAX_NDIM, ndim);
    /* NumPy's rule: the product of the non-zero dimensions must fit, even
     * when another dimension is 0 (so every view's strides stay finite) */
    for (int i = 0; i < ndim; i++)
        if (shape[i] < 0)
            return dt_error_set(err, DT_ERR_VALUE, "negative dimensions are not allowed"); /* NumPy's */
    int64_t n = 1;
    int empty = 0;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == 0)
            empty = 1;
        else if (__builtin_mul_overflow(n, shape[i], &n))
            return dt_error_set(err, DT_ERR_OVERFLOW,
                                "tensor is too big: its number of elements does not fit in 64 bits");
    }
    *numel = empty ? 0 : n;
    return DT_OK;
}

dt_status dt_contiguous_strides(int ndim, const int64_t *shape, int64_t itemsize,
                                int64_t *strides, int64_t *nbytes, dt_error *err)
{
    int64_t numel, total, span = 1;
    DT_TRY(dt_shape_check(ndim, shape, &numel, err));
    for (int i = 0; i < ndim; i++)
        if (shape[i] > 0)
            span *= shape[i]; /* checked by dt_shape_check */
    if (__builtin_mul_overflow(span, itemsize, &total))
        return dt_error_set(err, DT_ERR_OVERFLOW,
                            "tensor is too big: %lld elements of %lld bytes do not fit in 64 bits",
                            (long long)span, (long long)itemsize);
    if (numel == 0)
        total = 0;
    /* NumPy's convention: an empty tensor has all-zero strides */
    int64_t stride = numel == 0 ? 0 : itemsize;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = stride;
        if (shape[i] > 1)
            stride *= shape[i]; /* cannot overflow: bounded by total */
    }
    *nbytes = total;
    return DT_OK;
}

dt_status dt_strided_extent(int ndim, const int64_t *shape, const int64_t *strides,
                            int64_t itemsize, int64_t *lo, int64_t *hi, dt_error *err)
{
    int64_t numel;
    *lo = *hi = 0;
    DT_TRY(dt_shape_check(ndim, shape, &numel, err));
    if (numel == 0)
        return DT_OK;
    int64_t low = 0, high = itemsize;
    for (int i = 0; i < ndim; i++) {
        int64_t span;
        if (__builtin_mul_overflow(strides[i], shape[i] - 1, &span) ||
            __builtin_add_overflow(span < 0 ? low : high, span, span < 0 ? &low : &high))
            return dt_error_set(err, DT_ERR_OVERFLOW, "the strides of axis %d reach beyond 64-bit "
                                "byte offsets", i);
    }
    int64_t width;
    if (__builtin_sub_overflow(high, low, &width))
        return dt_error_set(err, DT_ERR_OVERFLOW, "the strides reach beyond 64-bit byte offsets");
    *lo = low;
    *hi = high;
    return DT_OK;
}

/* ---- construction ---- */

void dt_tensor_init_empty(dt_tensor *t)
{
    /* the dims are written before they are read: only the header is reset */
    t->storage = NULL;
    t->offset = 0;
    t->numel = 0;
    t->ndim = 0;
    t->dtype = DT_BOOL;
    t->flags = 0;
    t->shape = t->dims_inline;
    t->strides = t->dims_inline + DT_INLINE_NDIM;
}

static dt_status set_dims(dt_tensor *t, int ndim, dt_error *err)
{
    if (ndim < 0 || ndim > DT_MAX_NDIM)
        return dt_error_set(err, DT_ERR_VALUE,
                            "maximum supported dimension for a tensor is %d, found %d",
                            DT_MAX_NDIM, ndim);
    if (ndim > DT_INLINE_NDIM) {
        int64_t *dims = malloc(2 * (size_t)ndim * sizeof(int64_t));
        if (dims == NULL)
            return dt_error_set(err, DT_ERR_NOMEM, "out of host memory for tensor dimensions");
        t->shape = dims;
        t->strides = dims + ndim;
    }
    t->ndim = ndim;
    return DT_OK;
}

void dt_tensor_clear(dt_tensor *t)
{
    if (t->shape != t->dims_inline)
        free(t->shape);
    dt_storage_release(t->storage);
    dt_tensor_init_empty(t);
}

void dt_tensor_move(dt_tensor *dst, dt_tensor *src)
{
    *dst = *src;
    if (src->shape == src->dims_inline) { /* inline dims move with the struct */
        dst->shape = dst->dims_inline;
        dst->strides = dst->dims_inline + DT_INLINE_NDIM;
    }
    dt_tensor_init_empty(src);
}

/* Every element of the view must lie inside the storage. */
static dt_status check_extent(const dt_storage *s, int64_t offset, int ndim, const int64_t *shape,
                              const int64_t *strides, int64_t itemsize, int64_t numel,
                              dt_error *err)
{
    if (numel == 0)
        return DT_OK;
    int64_t lo = offset, hi = offset;
    for (int i = 0; i < ndim; i++) {
        int64_t span;
        if (shape[i] == 0)
            continue;
        if (__builtin_mul_overflow(strides[i], shape[i] - 1, &span))
            return dt_error_set(err, DT_ERR_OVERFLOW, "strides overflow 64 bits");
        if (__builtin_add_overflow(span < 0 ? lo : hi, span, span < 0 ? &lo : &hi))
            return dt_error_set(err, DT_ERR_OVERFLOW, "strides overflow 64 bits");
    }
    if (lo < 0 || __builtin_add_overflow(hi, itemsize, &hi) || (uint64_t)hi > s->nbytes)
        return dt_error_set(err, DT_ERR_VALUE,
                            "view reaches outside its storage: bytes [%lld, %lld) of %llu",
                            (long long)lo, (long long)hi, (unsigned long long)s->nbytes);
    return DT_OK;
}

static dt_status init_view(dt_tensor *t, dt_storage *storage, int64_t offset, int ndim, const int64_t *shape,
                           const int64_t *strides, dt_dtype dtype, dt_error *err)
{
    dt_tensor_init_empty(t);
    if (!dt_dtype_is_valid((int)dtype))
        return dt_error_set(err, DT_ERR_TYPE, "invalid dtype code %d", (int)dtype);
    int64_t numel;
    DT_TRY(dt_shape_check(ndim, shape, &numel, err));
    DT_TRY(check_extent(storage, offset, ndim, shape, strides,
                        dt_dtype_get_info(dtype)->itemsize, numel, err));
    DT_TRY(set_dims(t, ndim, err));
    memcpy(t->shape, shape, (size_t)ndim * sizeof(int64_t));
    memcpy(t->strides, strides, (size_t)ndim * sizeof(int64_t));
    t->numel = numel;
    t->dtype = dtype;
    t->offset = offset;
    t->flags = storage->readonly ? DT_TENSOR_READONLY | DT_TENSOR_NEVER_WRITEABLE : 0;
    t->storage = storage; /* the caller's reference, or a new one (below) */
    return DT_OK;
}

dt_status dt_tensor_init_view(dt_tensor *t, dt_storage *storage, int64_t offset, int ndim,
                              const int64_t *shape, const int64_t *strides, dt_dtype dtype,
                              dt_error *err)
{
    DT_TRY(init_view(t, storage, offset, ndim, shape, strides, dtype, err));
    dt_storage_retain(storage);
    return DT_OK;
}

dt_status dt_tensor_init_view_taking(dt_tensor *t, dt_storage *storage, int64_t offset, int ndim,
                                     const int64_t *shape, const int64_t *strides, dt_dtype dtype,
                                     dt_error *err)
{
    dt_status st = init_view(t, storage, offset, ndim, shape, strides, dtype, err);
    if (st != DT_OK)
        dt_storage_release(storage);
    return st;
}

/* A new dense tensor whose axes lie in memory in perm's order (perm[0]
 * outermost; NULL: C order), contents uninitialised. */
static dt_status init_dense(dt_tensor *t, dt_device device, dt_dtype dtype, int ndim, const int64_t *shape,
                            const int *perm, dt_error *err)
{
    dt_tensor_init_empty(t);
    if (!dt_dtype_is_valid((int)dtype))
        return dt_error_set(err, DT_ERR_TYPE, "invalid dtype code %d", (int)dtype);
    if (ndim == 0) { /* a 0-d tensor (elements, reductions' results) needs no shape checks */
        dt_storage *s;
        DT_TRY(dt_storage_alloc(device, (size_t)dt_dtype_get_info(dtype)->itemsize, &s, err));
        t->storage = s;
        t->numel = 1;
        t->dtype = dtype;
        return DT_OK;
    }
    if (ndim < 0 || ndim > DT_MAX_NDIM)
        return dt_error_set(err, DT_ERR_VALUE, "maximum supported dimension for a tensor is %d, found %d",
                            DT_MAX_NDIM, ndim);
    /* the C-order strides of the shape in memory order, then put back */
    int64_t laid[DT_MAX_NDIM], laid_strides[DT_MAX_NDIM], strides[DT_MAX_NDIM], nbytes;
    for (int i = 0; i < ndim; i++)
        laid[i] = shape[perm ? perm[i] : i];
    DT_TRY(dt_contiguous_strides(ndim, laid, dt_dtype_get_info(dtype)->itemsize, laid_strides, &nbytes, err));
    for (int i = 0; i < ndim; i++)
        strides[perm ? perm[i] : i] = laid_strides[i];
    if ((uint64_t)nbytes > (uint64_t)SIZE_MAX)
        return dt_error_set(err, DT_ERR_OVERFLOW, "tensor of %lld bytes is too big", (long long)nbytes);
    dt_storage *s;
    DT_TRY(dt_storage_alloc(device, (size_t)nbytes, &s, err));
    return dt_tensor_init_view_taking(t, s, 0, ndim, shape, strides, dtype, err);
}

dt_status dt_tensor_init_new(dt_tensor *t, dt_device device, dt_dtype dtype, int ndim,
                             const int64_t *shape, dt_error *err)
{
    return init_dense(t, device, dtype, ndim, shape, NULL, err);
}

dt_status dt_tensor_init_new_ordered(dt_tensor *t, dt_device device, dt_dtype dtype, int ndim,
                                     const int64_t *shape, const int *perm, dt_error *err)
{
    return init_dense(t, device, dtype, ndim, shape, perm, err);
}

/* ---- queries ---- */

int64_t dt_tensor_itemsize(const dt_tensor *t) { return dt_dtype_get_info(t->dtype)->itemsize; }

dt_status dt_tensor_check_writeable(const dt_tensor *t, dt_error *err)
{
    if (t->flags & DT_TENSOR_READONLY)
        return dt_error_set(err, DT_ERR_VALUE, "assignment destination is read-only");
    return DT_OK;
}

dt_status dt_tensor_check_output(const dt_tensor *t, dt_error *err)
{
    if (t->flags & DT_TENSOR_READONLY)
        return dt_error_set(err, DT_ERR_VALUE, "output array is read-only");
    return DT_OK;
}

void dt_tensor_byte_bounds(const dt_tensor *t, uintptr_t *lo, uintptr_t *hi)
{
    /* the extent was checked against the storage when the view was made */
    uintptr_t base = (uintptr_t)dt_tensor_data(t);
    *lo = *hi = base;
    if (t->numel == 0)
        return;
    int64_t below = 0, above = dt_tensor_itemsize(t);
    for (int i = 0; i < t->ndim; i++) {
        int64_t span = t->strides[i] * (t->shape[i] - 1);
        if (span < 0)
            below += span;
        else
            above += span;
    }
    *lo = base + (uintptr_t)below; /* wraps to base - |below| */
    *hi = base + (uintptr_t)above;
}

int dt_tensors_may_overlap(const dt_tensor *a, const dt_tensor *b)
{
    if (!dt_device_equal(dt_tensor_device(a), dt_tensor_device(b)))
        return 0;
    uintptr_t alo, ahi, blo, bhi;
    dt_tensor_byte_bounds(a, &alo, &ahi);
    dt_tensor_byte_bounds(b, &blo, &bhi);
    return alo < ahi && blo < bhi && alo < bhi && blo < ahi;
}

int dt_tensors_same_view(const dt_tensor *a, const dt_tensor *b)
{
    if (dt_tensor_data(a) != dt_tensor_data(b) || a->ndim != b->ndim || a->dtype != b->dtype ||
        !dt_device_equal(dt_tensor_device(a), dt_tensor_device(b)))
        return 0;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i] || a->strides[i] != b->strides[i])
            return 0;
    return 1;
}

int dt_tensor_is_contiguous(const dt_tensor *t)
{
    if (t->numel == 0) /* as NumPy: an empty tensor is contiguous whatever its strides */
        return 1;
    int64_t expected = dt_tensor_itemsize(t);
    for (int i = t->ndim - 1; i >= 0; i--) {
        if (t->shape[i] == 1)
            continue;
        if (t->shape[i] == 0)
            return 1;
        if (t->strides[i] != expected)
            return 0;
        expected *= t->shape[i];
    }
    return 1;
}

/* ---- data movement ---- */

dt_status dt_tensor_copy_into(dt_tensor *dst, const dt_tensor *src, dt_error *err)
{
    dt_operand in = {0};
    in.tensor = src;
    dt_operands_lift_cpu_scalars(1, &in, dst); /* x_cuda[0] = np.sqrt(2) */
    if (in.tensor == NULL)
        return dt_launch(DT_OP_COPY, dst, 1, &in, err);
    dt_device d;
    dt_operand both[2] = {{0}, in};
    both[0].tensor = dst;
    DT_TRY(dt_operands_device(2, both, &d, err));
    DT_TRY(dt_tensor_check_writeable(dst, err));
    if (dt_tensors_same_view(src, dst))
        return DT_OK;
    if (!dt_tensors_may_overlap(src, dst))
        return dt_launch(DT_OP_COPY, dst, 1, &in, err);
    /* x[1:] = x[:-1] reads what it overwrites: read src first */
    dt_tensor tmp;
    dt_status st = dt_tensor_init_new(&tmp, d, src->dtype, src->ndim, src->shape, err);
    if (st == DT_OK)
        st = dt_launch(DT_OP_COPY, &tmp, 1, &in, err);
    in.tensor = &tmp;
    if (st == DT_OK)
        st = dt_launch(DT_OP_COPY, dst, 1, &in, err);
    dt_tensor_clear(&tmp);
    return st;
}

static dt_copy_kind copy_kind(dt_device from, dt_device to)
{
    if (from.type == DT_DEVICE_CPU)
        return DT_COPY_HOST_TO_DEVICE;
    return to.type == DT_DEVICE_CPU ? DT_COPY_DEVICE_TO_HOST : DT_COPY_DEVICE_TO_DEVICE;
}

/* Note [Moves keep a dense layout]
 * PyTorch's .to(), .cuda() and .cpu() keep the strides of a tensor whose
 * elements fill their memory without gaps in some order of its axes (its
 * "preserve_format"): x.T.cuda() is x.T's layout on the device, F-ordered,
 * moved as the bytes it is (no packing into C order first), and a cast on
 * the way keeps it too.  A tensor with gaps, overlaps or reversed axes is
 * packed in C order first, as before, and a copy or cast that stays on its
 * device is C-ordered here (t.copy(), ascontiguousarray and other callers
 * rely on that); .to(dtype) and .to(copy=True) on the tensor's own device
 * keep a dense layout in devtensor/_tensor.py (_dense_axis_order).
 * dense_order: 1 when t is such a tensor, perm its axes from the largest
 * stride to the smallest (C order for a C-contiguous t; else unit axes
 * first, the others by falling stride, stably). */
static int dense_order(const dt_tensor *t, int *perm)
{
    int n = t->ndim, k = 0;
    if (dt_tensor_is_contiguous(t)) {
        for (int i = 0; i < n; i++)
            perm[i] = i;
        return 1;
    }
    for (int i = 0; i < n; i++) /* unit axes outermost: their strides matter to nobody */
        if (t->shape[i] == 1)
            perm[k++] = i;
    int first = k;
    for (int i = 0; i < n; i++) { /* the others by falling stride, stably */
        if (t->shape[i] == 1)
            continue;
        int j = k++;
        while (j > first && t->strides[perm[j - 1]] < t->strides[i]) {
            perm[j] = perm[j - 1];
            j--;
        }
        perm[j] = i;
    }
    int64_t expected = dt_tensor_itemsize(t);
    for (int i = n - 1; i >= first; i--) {
        if (t->strides[perm[i]] != expected)
            return 0;
        expected *= t->shape[perm[i]];
    }
    return 1;
}

/* Bytes of a dense tensor (dense_order) from its device to a new tensor on
 * `to` with its layout. */
static dt_status transfer(dt_tensor *out, const dt_tensor *src, dt_device to, int non_blocking,
                          dt_error *err)
{
    dt_device from = dt_tensor_device(src);
    int perm[DT_MAX_NDIM];
    if (!dense_order(src, perm))
        return dt_error_set(err, DT_ERR_VALUE, "transfer: the tensor is not dense");
    DT_TRY(dt_tensor_init_new_ordered(out, to, src->dtype, src->ndim, src->shape, perm, err));
    if (src->numel == 0)
        return DT_OK;
    size_t nbytes = (size_t)(src->numel * dt_tensor_itemsize(src));
    dt_device gpu = from.type == DT_DEVICE_CPU ? to : from;
    const dt_backend_iface *b = dt_backend_get((dt_device_type)gpu.type);
    dt_status st;
    if (from.type == DT_DEVICE_CPU && to.type == DT_DEVICE_CPU) {
        memcpy(dt_tensor_data(out), dt_tensor_data(src), nbytes);
        st = DT_OK;
    } else {
        void *stream = b->get_stream ? b->get_stream(to.type == DT_DEVICE_CPU ? from.index : to.index) : NULL;
        st = b->copy(copy_kind(from, to), dt_tensor_data(out), to.index < 0 ? 0 : to.index,
                     dt_tensor_data(src), from.index < 0 ? 0 : from.index, nbytes, stream,
                     non_blocking, err);
    }
    if (st != DT_OK)
        dt_tensor_clear(out);
    return st;
}

dt_status dt_tensor_to(dt_tensor *out, const dt_tensor *src, dt_device device, dt_dtype dtype,
                       int non_blocking, dt_error *err)
{
    dt_tensor_init_empty(out);
    dt_device from = dt_tensor_device(src);
    if (dt_device_resolve(&device, err) == NULL || dt_device_resolve(&from, err) == NULL)
        return err->status;
    int same_device = dt_device_equal(from, device);
    dt_tensor a, b;
    dt_tensor_init_empty(&a);
    dt_tensor_init_empty(&b);
    const dt_tensor *cur = src;
    dt_status st = DT_OK;

    /* Cast where the data is smaller: before the move when narrowing, after
     * it when widening; a strided source is packed before it moves. */
    int64_t out_size = dt_dtype_get_info(dtype)->itemsize;
    int cast_first = same_device || out_size < dt_tensor_itemsize(src);
    int perm[DT_MAX_NDIM], dense = dense_order(src, perm); /* Note [Moves keep a dense layout] */
    if (!dense || same_device) /* a copy on the device is C-ordered (t.copy(), ascontiguousarray) */
        for (int i = 0; i < src->ndim; i++)
            perm[i] = i; /* packed in C order */
    if (cast_first || (!same_device && !dense)) {
        dt_dtype first = cast_first ? dtype : src->dtype;
        st = dt_tensor_init_new_ordered(&a, from, first, src->ndim, src->shape, perm, err);
        if (st == DT_OK)
            st = dt_tensor_copy_into(&a, src, err);
        cur = &a;
    }
    if (st == DT_OK && !same_device) {
        st = transfer(&b, cur, device, non_blocking, err);
        cur = &b;
    }
    if (st == DT_OK && cur->dtype != dtype) {
        st = dt_tensor_init_new_ordered(out, device, dtype, src->ndim, src->shape, perm, err);
        if (st == DT_OK)
            st = dt_tensor_copy_into(out, cur, err);
    } else if (st == DT_OK) {
        dt_tensor_move(out, cur == &a ? &a : &b);
    }
    dt_tensor_clear(&a);
    dt_tensor_clear(&b);
    if (st != DT_OK)
        dt_tensor_clear(out);
    return st;
}

dt_status dt_tensor_generate(dt_tensor *t, dt_gen *gen, dt_error *err)
{
    DT_TRY(dt_tensor_check_writeable(t, err));
    if (t->numel == 0)
        return DT_OK;
    dt_device device = dt_tensor_device(t);
    const dt_backend_iface *b = dt_device_resolve(&device, err);
    if (b == NULL)
        return err->status;
    gen->dtype = t->dtype;
    gen->device_index = device.index < 0 ? 0 : device.index;
    gen->stream = b->get_stream ? b->get_stream(gen->device_index) : NULL;
    gen->data = dt_tensor_data(t);
    gen->n = t->numel;
    return b->generate(gen, err);
}
