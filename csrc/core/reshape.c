/* reshape.c - reshape geometry (reshape.h).
 *
 * Note [Reshape without a copy]
 * As NumPy: axes of length 1 are dropped from the old layout; then the old
 * and new axes are walked in groups whose products are equal; a group of
 * old axes can be seen as any group of new axes only if each old axis of
 * it steps over exactly the next one (stride[k] == shape[k+1] * stride[k+1]);
 * the new axes of the group get the strides of a C-ordered block ending
 * with the group's last old stride, and trailing new axes of length 1 take
 * the last stride.  A contiguous or empty tensor always reshapes in place,
 * with C-contiguous strides.
 */
#include "reshape.h"

#include <stdio.h>
#include <string.h>

#include "backend.h"

dt_status dt_reshape_infer(int64_t numel, int ndim, int64_t *shape, dt_error *err)
{
    int unknown = -1;
    int64_t known = 1;
    int overflow = 0;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0) {
            if (unknown >= 0)
                return dt_error_set(err, DT_ERR_VALUE, "can only specify one unknown dimension");
            unknown = i;
        } else if (__builtin_mul_overflow(known, shape[i], &known)) {
            overflow = 1;
        }
    }
    if (!overflow && unknown >= 0 && known != 0 && numel % known == 0) {
        shape[unknown] = numel / known;
        return DT_OK;
    }
    if (!overflow && unknown < 0 && known == numel)
        return DT_OK;
    /* NumPy's way of showing the shape: leading -1s left out, later ones as
     * newaxis, a trailing comma only for a lone first dimension */
    char shown[DT_ERROR_MSG_MAX - 64];
    size_t at = 0;
    shown[0] = '\0';
    int first = 0;
    while (first < ndim && shape[first] < 0)
        first++;
    for (int i = first; i < ndim && at < sizeof shown - 24; i++) {
        int n = shape[i] < 0 ? snprintf(shown + at, sizeof shown - at, "%snewaxis", i > first ? "," : "")
                             : snprintf(shown + at, sizeof shown - at, "%s%lld", i > first ? "," : "",
                                        (long long)shape[i]);
        at += n > 0 ? (size_t)n : 0;
    }
    return dt_error_set(err, DT_ERR_VALUE, "cannot reshape array of size %lld into shape (%s%s)", (long long)numel,
                        shown, ndim == 1 && first == 0 ? "," : "");
}

int dt_reshape_nocopy(int old_ndim, const int64_t *old_shape, const int64_t *old_strides, int64_t itemsize,
                      int64_t numel, int contiguous, int new_ndim, const int64_t *new_shape,
                      int64_t *new_strides)
{
    if (contiguous || numel == 0) {
        int64_t step = itemsize;
        for (int k = new_ndim - 1; k >= 0; k--) {
            new_strides[k] = step;
            step *= new_shape[k] ? new_shape[k] : 1;
        }
        return 1;
    }
    int64_t osh[DT_MAX_NDIM], ost[DT_MAX_NDIM];
    int on = 0;
    for (int k = 0; k < old_ndim; k++)
        if (old_shape[k] != 1) {
            osh[on] = old_shape[k];
            ost[on++] = old_strides[k];
        }
    int oi = 0, ni = 0;
    while (ni < new_ndim && oi < on) {
        int oj = oi + 1, nj = ni + 1;
        int64_t op = osh[oi], np_ = new_shape[ni];
        while (np_ != op) { /* numel != 0, so every size here is positive */
            if (np_ < op)
                np_ *= new_shape[nj++];
            else
                op *= osh[oj++];
        }
        for (int k = oi; k < oj - 1; k++)
            if (ost[k] != osh[k + 1] * ost[k + 1])
                return 0;
        new_strides[nj - 1] = ost[oj - 1];
        for (int k = nj - 1; k > ni; k--)
            new_strides[k - 1] = new_strides[k] * new_shape[k];
        ni = nj;
        oi = oj;
    }
    int64_t last = ni > 0 ? new_strides[ni - 1] : itemsize;
    for (int k = ni; k < new_ndim; k++)
        new_strides[k] = last;
    return 1;
}
