/* sort.c - dt_sort: checks, a contiguous aligned copy of a strided or
 * misaligned input, the work memory, and the loop handed to the backend's
 * run_sort. */
#include "sort.h"

#include <stdint.h>
#include <string.h>

#include "backend.h"
#include "elementwise.h"

/* the alignment the backends' loads and stores need: the element's (a
 * complex part's), at most 8 */
static int64_t alignment(dt_dtype d)
{
    const dt_dtype_info *info = dt_dtype_get_info(d);
    int64_t a = info->kind == DT_KIND_COMPLEX ? info->itemsize / 2 : info->itemsize;
    return a > 8 ? 8 : a;
}

static int is_aligned(const dt_tensor *t) { return (uintptr_t)dt_tensor_data(t) % (uintptr_t)alignment(t->dtype) == 0; }

static dt_status check(const dt_tensor *src, int arg, const dt_tensor *out, dt_error *err)
{
    if (out->dtype != (arg ? DT_INT64 : src->dtype))
        return dt_error_set(err, DT_ERR_TYPE, "sort: the output's dtype does not match");
    if (!dt_device_equal(dt_tensor_device(src), dt_tensor_device(out)))
        return dt_error_set(err, DT_ERR_VALUE, "sort: the tensors are on different devices");
    if (out->ndim != src->ndim || !dt_tensor_is_contiguous(out))
        return dt_error_set(err, DT_ERR_VALUE, "sort: the output must be contiguous, of the input's shape");
    for (int d = 0; d < src->ndim; d++)
        if (out->shape[d] != src->shape[d])
            return dt_error_set(err, DT_ERR_VALUE, "sort: the output must be contiguous, of the input's shape");
    DT_TRY(dt_tensor_check_writeable(out, err));
    if (dt_tensors_may_overlap(out, src))
        return dt_error_set(err, DT_ERR_VALUE, "sort: the output overlaps the input");
    if (out->numel > 0 && !is_aligned(out))
        return dt_error_set(err, DT_ERR_VALUE, "sort: the output is not aligned to %lld bytes",
                            (long long)alignment(out->dtype));
    if (src->numel > DT_SORT_MAX_NUMEL)
        return dt_error_set(err, DT_ERR_VALUE, "sort: %lld elements are more than one sort takes",
                            (long long)src->numel);
    return DT_OK;
}

dt_status dt_sort(const dt_tensor *src, int descending, int arg, dt_tensor *out, dt_error *err)
{
    DT_TRY(check(src, arg, out, err));
    if (src->numel == 0)
        return DT_OK;
    dt_device device = dt_tensor_device(src);
    const dt_backend_iface *b = dt_device_resolve(&device, err);
    if (b == NULL)
        return err->status;
    if (b->run_sort == NULL)
        return dt_error_set(err, DT_ERR_NOT_IMPLEMENTED, "the %s backend has no sort", b->name);
    int index = device.index < 0 ? 0 : device.index;
    dt_tensor dense, work;
    dt_tensor_init_empty(&dense);
    dt_tensor_init_empty(&work);
    const dt_tensor *in = src;
    dt_status st = DT_OK;
    if (src->dtype == DT_BOOL) { /* keys of 0 and 1 only: src != false (Note [Bool bytes] in ops.h) */
        dt_operand ins[2] = {{0}, {0}};
        ins[0].tensor = src;
        ins[1].dtype = DT_BOOL;
        st = dt_tensor_init_new(&dense, device, DT_BOOL, src->ndim, src->shape, err);
        if (st == DT_OK)
            st = dt_ufunc(DT_OP_NE, ins, &dense, 1, -1, DT_CASTING_SAME_KIND, err);
        in = &dense;
    } else if (!dt_tensor_is_contiguous(src) || !is_aligned(src)) { /* a dense, aligned copy */
        st = dt_tensor_init_new(&dense, device, src->dtype, src->ndim, src->shape, err);
        if (st == DT_OK)
            st = dt_tensor_copy_into(&dense, src, err);
        in = &dense;
    }
    int64_t bytes = DT_SORT_WORK_BYTES(src->numel);
    if (st == DT_OK)
        st = dt_tensor_init_new(&work, device, DT_UINT8, 1, &bytes, err);
    if (st == DT_OK) {
        dt_sort_loop l;
        memset(&l, 0, sizeof l);
        l.device_index = index;
        l.descending = descending != 0;
        l.arg = arg != 0;
        l.stream = b->get_stream ? b->get_stream(index) : NULL;
        l.dtype = src->dtype;
        l.len = src->ndim > 0 ? src->shape[src->ndim - 1] : 1;
        l.n_rows = src->numel / l.len;
        l.in = dt_tensor_data(in);
        l.out = dt_tensor_data(out);
        l.work = dt_tensor_data(&work);
        st = b->run_sort(&l, err);
    }
    dt_tensor_clear(&work);
    dt_tensor_clear(&dense);
    return st;
}
