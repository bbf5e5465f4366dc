/* loop_check.h - what every backend checks of a reduction, scan or search
 * loop before it reads a pointer (backend.h's dt_reduce_loop, dt_scan_loop,
 * dt_search_loop, dt_sort_loop), written once for the CPU backend and for the CUDA one
 * (which links error.c and dtype.c, not the core).  Each returns DT_OK or a
 * ValueError naming the slot; a backend adds its own limits (the CUDA
 * kernels' axis count) and needs (work memory) after it. */
#ifndef DT_LOOP_CHECK_H
#define DT_LOOP_CHECK_H

#include <stdint.h>

#include "backend.h"
#include "compat.h"
#include "error.h"

/* 1 with *count = the product of shape[0, n) when 0 <= n <= DT_MAX_NDIM,
 * every length >= 1 and the product fits; 0 otherwise */
static DT_INLINE int dt_loop_dims_count(int n, const int64_t *shape, int64_t *count)
{
    int64_t c = 1;
    if (n < 0 || n > DT_MAX_NDIM)
        return 0;
    for (int d = 0; d < n; d++) {
        if (shape[d] < 1 || c > INT64_MAX / shape[d])
            return 0;
        c *= shape[d];
    }
    *count = c;
    return 1;
}

static DT_INLINE dt_status dt_reduce_loop_check(const dt_reduce_loop *l, dt_error *err)
{
    int64_t n_out, n_red;
    if (l == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "run_reduce: no loop");
    if ((unsigned)l->op >= DT_NUM_REDUCE_OPS || !dt_dtype_is_valid(l->in_dtype) || !dt_dtype_is_valid(l->out_dtype))
        return dt_error_set(err, DT_ERR_VALUE, "run_reduce: bad op or dtype");
    if (l->red_ndim < 1 || !dt_loop_dims_count(l->kept_ndim, l->kept_shape, &n_out) ||
        !dt_loop_dims_count(l->red_ndim, l->red_shape, &n_red))
        return dt_error_set(err, DT_ERR_VALUE, "run_reduce: bad axes");
    if (n_out != l->n_out || n_red != l->n_red || l->in == NULL || l->out == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "run_reduce: counts or pointers do not match");
    return DT_OK;
}

static DT_INLINE dt_status dt_scan_loop_check(const dt_scan_loop *l, dt_error *err)
{
    int64_t rows;
    if (l == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "run_scan: no loop");
    int extreme = l->op == DT_REDUCE_MIN || l->op == DT_REDUCE_MAX;
    if ((l->op != DT_REDUCE_SUM && l->op != DT_REDUCE_PROD && !extreme) || !dt_dtype_is_valid(l->in_dtype) ||
        !dt_dtype_is_valid(l->out_dtype) || (extreme && l->out_dtype != l->in_dtype) || l->len < 1 ||
        l->in == NULL || l->out == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "run_scan: a bad loop");
    if (!dt_loop_dims_count(l->outer_ndim, l->outer_shape, &rows) || rows != l->n_rows)
        return dt_error_set(err, DT_ERR_VALUE, "run_scan: the rows do not match their shape");
    return DT_OK;
}

static DT_INLINE dt_status dt_search_loop_check(const dt_search_loop *l, dt_error *err)
{
    int64_t numel;
    if (l == NULL || !dt_dtype_is_valid(l->dtype) || l->n < 1 || l->sorted == NULL || l->values == NULL ||
        l->out == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "run_search: a bad loop");
    if (l->ndim < 1 || !dt_loop_dims_count(l->ndim, l->shape, &numel) || numel != l->numel)
        return dt_error_set(err, DT_ERR_VALUE, "run_search: the values do not match their shape");
    return DT_OK;
}

static DT_INLINE dt_status dt_sort_loop_check(const dt_sort_loop *l, dt_error *err)
{
    if (l == NULL || !dt_dtype_is_valid(l->dtype) || l->n_rows < 1 || l->len < 1 || l->in == NULL ||
        l->out == NULL || l->work == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "run_sort: a bad loop");
    if (l->len > DT_SORT_MAX_NUMEL / l->n_rows)
        return dt_error_set(err, DT_ERR_VALUE, "run_sort: too many elements");
    return DT_OK;
}

/* a matrix BLAS takes (backend.h's dt_matmul_loop): one unit stride, the
 * other a multiple of the itemsize no smaller than the extent it spans */
static DT_INLINE int dt_matmul_blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs,
                                           int64_t s)
{
    if (cs == s)
        return rs > 0 && rs % s == 0 && rs / s >= cols;
    return rs == s && cs > 0 && cs % s == 0 && cs / s >= rows;
}

static DT_INLINE dt_status dt_matmul_loop_check(const dt_matmul_loop *l, dt_error *err)
{
    int64_t count;
    if (l == NULL || !dt_dtype_is_valid(l->dtype) || l->m < 1 || l->n < 1 || l->k < 1 ||
        l->a == NULL || l->b == NULL || l->out == NULL ||
        !dt_loop_dims_count(l->batch_ndim, l->batch_shape, &count))
        return dt_error_set(err, DT_ERR_VALUE, "run_matmul: a bad loop");
    dt_dtype_kind kind = dt_dtype_get_info(l->dtype)->kind;
    int64_t s = dt_dtype_get_info(l->dtype)->itemsize;
    if ((kind == DT_KIND_FLOAT || kind == DT_KIND_COMPLEX) &&
        (!dt_matmul_blas_layout(l->m, l->k, l->a_rs, l->a_cs, s) ||
         !dt_matmul_blas_layout(l->k, l->n, l->b_rs, l->b_cs, s)))
        return dt_error_set(err, DT_ERR_VALUE, "run_matmul: an operand without a BLAS layout");
    for (int d = 0; d < l->batch_ndim; d++)
        if (l->batch_strides[0][d] % s != 0 || l->batch_strides[1][d] % s != 0 ||
            l->batch_strides[2][d] % s != 0)
            return dt_error_set(err, DT_ERR_VALUE, "run_matmul: a batch stride is not a multiple "
                                "of the itemsize");
    return DT_OK;
}

#endif /* DT_LOOP_CHECK_H */
