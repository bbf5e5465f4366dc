/* search.c - dt_search: checks, the empty cases, and the loop handed to
 * the backend's run_search (one thread of binary search per value on a GPU,
 * value ranges across threads on the CPU). */
#include "search.h"

#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "elementwise.h"

dt_status dt_search(const dt_tensor *sorted, const dt_tensor *values, int right, dt_tensor *out, dt_error *err)
{
    if (sorted->ndim != 1)
        return dt_error_set(err, DT_ERR_VALUE, "search: the sorted tensor must be 1-d, not %d-d", sorted->ndim);
    if (sorted->dtype != values->dtype || out->dtype != DT_INT64)
        return dt_error_set(err, DT_ERR_TYPE, "search: dtypes do not match");
    if (!dt_device_equal(dt_tensor_device(sorted), dt_tensor_device(values)) ||
        !dt_device_equal(dt_tensor_device(sorted), dt_tensor_device(out)))
        return dt_error_set(err, DT_ERR_VALUE, "search: the tensors are on different devices");
    if (out->ndim != values->ndim || !dt_tensor_is_contiguous(out))
        return dt_error_set(err, DT_ERR_VALUE, "search: the output must be contiguous, of the values' shape");
    for (int d = 0; d < values->ndim; d++)
        if (out->shape[d] != values->shape[d])
            return dt_error_set(err, DT_ERR_VALUE, "search: the output must be contiguous, of the values' shape");
    DT_TRY(dt_tensor_check_writeable(out, err));
    if (dt_tensors_may_overlap(out, values) || dt_tensors_may_overlap(out, sorted))
        return dt_error_set(err, DT_ERR_VALUE, "search: the output overlaps an input");
    if (values->numel == 0)
        return DT_OK;
    if (sorted->numel == 0) { /* every value goes at 0 */
        dt_operand zero;
        memset(&zero, 0, sizeof zero);
        zero.dtype = DT_INT64;
        return dt_launch(DT_OP_COPY, out, 1, &zero, err);
    }
    dt_device device = dt_tensor_device(values);
    const dt_backend_iface *b = dt_device_resolve(&device, err);
    if (b == NULL)
        return err->status;
    if (b->run_search == NULL)
        return dt_error_set(err, DT_ERR_NOT_IMPLEMENTED, "the %s backend has no binary search", b->name);
    int index = device.index < 0 ? 0 : device.index;
    dt_search_loop *l = (dt_search_loop *)calloc(1, sizeof *l);
    if (l == NULL)
        return dt_error_set(err, DT_ERR_NOMEM, "out of host memory for a search");
    l->device_index = index;
    l->right = right != 0;
    l->stream = b->get_stream ? b->get_stream(index) : NULL;
    l->dtype = values->dtype;
    l->n = sorted->shape[0];
    l->sorted_stride = sorted->strides[0];
    l->sorted = dt_tensor_data(sorted);
    l->values = dt_tensor_data(values);
    l->out = (int64_t *)dt_tensor_data(out);
    l->numel = values->numel;
    /* the values' dims, length-1 ones dropped (C order is kept: out is C-contiguous) */
    for (int d = 0; d < values->ndim; d++)
        if (values->shape[d] != 1) {
            l->shape[l->ndim] = values->shape[d];
            l->value_strides[l->ndim++] = values->strides[d];
        }
    if (l->ndim == 0) {
        l->shape[0] = 1;
        l->ndim = 1;
    }
    dt_status st = b->run_search(l, err);
    free(l);
    return st;
}
