/* index.h - basic indexing: the view that integers, slices, newaxis and
 * an ellipsis select (NumPy's rules and error messages), computed from a
 * tensor's shape and byte strides without touching its data, so it is the
 * same on every device.  Advanced indexing (integer arrays, masks) is not
 * here.
 */
#ifndef DT_INDEX_H
#define DT_INDEX_H

#include <stdint.h>

#include "backend.h"
#include "compat.h"
#include "error.h"

DT_EXTERN_C_BEGIN

typedef enum dt_index_kind {
    DT_INDEX_INTEGER,  /* start is the index, negative from the end */
    DT_INDEX_SLICE,    /* start, stop, step as Python's PySlice_Unpack gives
                          them (step != 0; not yet adjusted to the axis) */
    DT_INDEX_NEWAXIS,  /* None: a new axis of length 1 */
    DT_INDEX_ELLIPSIS, /* as many full slices as the other items leave */
    DT_INDEX_NOT_AN_INDEX, /* an integer too big for int64: refused in the
                              first scan, in order (NumPy's IndexError) */
    DT_INDEX_UNREADABLE, /* a slice the caller could not read (a zero step,
                            bounds that are not integers): counts as a
                            slice, and when the scan reaches it
                            dt_index_basic returns DT_ERR_VALUE, so that
                            the caller raises its own error in NumPy's order */
} dt_index_kind;

typedef struct dt_index_item {
    dt_index_kind kind;
    int64_t start, stop, step;
} dt_index_item;

/* A key has at most this many items (NumPy's limit: a longer tuple is
 * "too many indices for array" whatever it holds). */
#define DT_MAX_INDEX_ITEMS (2 * DT_MAX_NDIM)

/* The view of a tensor with ndim axes (shape, byte strides) that the key
 * items[0..n) selects: *out_ndim axes in out_shape/out_strides (room for
 * DT_MAX_NDIM each) and *offset bytes added to its first element.
 * IndexError for a second ellipsis, too many indices, an integer out of
 * range, or a result with more than DT_MAX_NDIM axes. */
dt_status dt_index_basic(int ndim, const int64_t *shape, const int64_t *strides,
                         const dt_index_item *items, int n, int *out_ndim, int64_t *out_shape,
                         int64_t *out_strides, int64_t *offset, dt_error *err);

DT_EXTERN_C_END

#endif /* DT_INDEX_H */
