/* tensor.h - a strided view of a storage: shape, byte strides, offset, dtype.
 *
 * Views share storage; a view's base is always the storage, never a chain
 * of views.  Shapes of up to DT_INLINE_NDIM dimensions live inside the
 * struct; longer ones (up to DT_MAX_NDIM) on the heap.
 */
#ifndef DT_TENSOR_H
#define DT_TENSOR_H

#include <stdint.h>
#include "backend.h"
#include "storage.h"

#define DT_INLINE_NDIM 6

/* Note [Read-only tensors]
 * NumPy's model: a tensor over memory its owner lets us read only (bytes, a
 * read-only buffer or NumPy array, a read-only DLPack capsule) is read-only,
 * and so is every view of it; broadcast views (zero strides) and the zeros
 * that x.imag gives for a real x are read-only and can never be made
 * writeable.  Every write into an existing tensor goes through dt_launch or
 * dt_tensor_generate, which refuse a read-only destination with NumPy's
 * "assignment destination is read-only" before touching memory. */
enum {
    DT_TENSOR_READONLY = 1,        /* writes raise ValueError */
    DT_TENSOR_NEVER_WRITEABLE = 2, /* READONLY cannot be cleared */
    DT_TENSOR_ELEMENT_COPY = 4,    /* a copy of one element (t[i, j]): the Python layer's
                                      in-place PyTorch methods warn (Note [An element is a copy]) */
};

typedef struct dt_tensor {
    dt_storage *storage;      /* owned reference; NULL while uninitialised */
    int64_t offset;           /* bytes from storage->ptr to element 0 */
    int64_t numel;
    int ndim;
    dt_dtype dtype;
    int flags;                /* DT_TENSOR_* (Note [Read-only tensors]) */
    int64_t *shape;           /* points into dims_inline or to the heap */
    int64_t *strides;         /* bytes */
    int64_t dims_inline[2 * DT_INLINE_NDIM];
} dt_tensor;

/* ---- size arithmetic (all overflow-checked in 64 bits) ---- */
dt_status dt_mul_overflow_i64(int64_t a, int64_t b, int64_t *out, dt_error *err);
/* Validates 0 <= ndim <= DT_MAX_NDIM and every dim >= 0; *numel = product. */
dt_status dt_shape_check(int ndim, const int64_t *shape, int64_t *numel, dt_error *err);
/* C-contiguous byte strides; fails if numel * itemsize overflows. */
dt_status dt_contiguous_strides(int ndim, const int64_t *shape, int64_t itemsize,
                                int64_t *strides, int64_t *nbytes, dt_error *err);
/* The bytes a strided tensor reaches, [*lo, *hi) around its first element
 * (0, 0 when it is empty); validates the shape as dt_shape_check and fails
 * when a byte offset does not fit in 64 bits.  For memory from elsewhere. */
dt_status dt_strided_extent(int ndim, const int64_t *shape, const int64_t *strides,
                            int64_t itemsize, int64_t *lo, int64_t *hi, dt_error *err);

/* ---- construction ---- */
void dt_tensor_init_empty(dt_tensor *t);  /* zero the struct: no storage */
/* A view on storage (retained): checks shape and that every element lies
 * inside the storage. */
dt_status dt_tensor_init_view(dt_tensor *t, dt_storage *storage, int64_t offset, int ndim,
                              const int64_t *shape, const int64_t *strides, dt_dtype dtype,
                              dt_error *err);
/* The same, taking over the caller's reference to storage instead of
 * retaining it (released if the view fails): a new storage's first view
 * (two atomic operations fewer on the per-call path). */
dt_status dt_tensor_init_view_taking(dt_tensor *t, dt_storage *storage, int64_t offset, int ndim,
                                     const int64_t *shape, const int64_t *strides, dt_dtype dtype,
                                     dt_error *err);
/* A new contiguous tensor on a resolved device, contents uninitialised. */
dt_status dt_tensor_init_new(dt_tensor *t, dt_device device, dt_dtype dtype, int ndim,
                             const int64_t *shape, dt_error *err);
/* The same, its axes laid out in memory in the order perm gives (perm[0]
 * outermost, perm[ndim - 1] innermost, densely): C order for 0, 1, ..,
 * ndim - 1. */
dt_status dt_tensor_init_new_ordered(dt_tensor *t, dt_device device, dt_dtype dtype, int ndim,
                                     const int64_t *shape, const int *perm, dt_error *err);
void dt_tensor_clear(dt_tensor *t);       /* drop the storage and heap dims */
/* Hand src's storage and dims over to dst (whose own are not freed); src
 * is left empty. */
void dt_tensor_move(dt_tensor *dst, dt_tensor *src);

/* ---- queries ---- */
static inline char *dt_tensor_data(const dt_tensor *t)
{
    return t->storage->ptr == NULL ? NULL : (char *)t->storage->ptr + t->offset;
}
static inline dt_device dt_tensor_device(const dt_tensor *t) { return t->storage->device; }
int dt_tensor_is_contiguous(const dt_tensor *t);
int64_t dt_tensor_itemsize(const dt_tensor *t);
/* DT_OK, or ValueError "assignment destination is read-only". */
dt_status dt_tensor_check_writeable(const dt_tensor *t, dt_error *err);
/* The same for an out= argument: NumPy's "output array is read-only". */
dt_status dt_tensor_check_output(const dt_tensor *t, dt_error *err);
/* Note [Overlap is about memory]
 * Two tensors may share memory without sharing a storage object (two wraps
 * of one NumPy buffer, a DLPack round trip), so overlap is decided by
 * address ranges on one device, NumPy's may_share_memory bounds test:
 * [lo, hi) are the absolute addresses of the first and one past the last
 * byte the tensor reaches (lo == hi when it is empty). */
void dt_tensor_byte_bounds(const dt_tensor *t, uintptr_t *lo, uintptr_t *hi);
int dt_tensors_may_overlap(const dt_tensor *a, const dt_tensor *b);
/* The same elements in the same order: same data, dtype, shape and strides. */
int dt_tensors_same_view(const dt_tensor *a, const dt_tensor *b);

/* ---- data movement ---- */
/* dst[...] = src broadcast to dst's shape, cast to dst's dtype; same device.
 * Right when src overlaps dst (src is read into a temporary first). */
dt_status dt_tensor_copy_into(dt_tensor *dst, const dt_tensor *src, dt_error *err);
/* out = a new tensor on `device` (resolved) with `dtype`, holding src's
 * values; contiguous.  non_blocking as in backend.h's copy. */
dt_status dt_tensor_to(dt_tensor *out, const dt_tensor *src, dt_device device, dt_dtype dtype,
                       int non_blocking, dt_error *err);
/* Fill a new contiguous tensor (see dt_gen); gen's data, n, dtype and
 * device are taken from t. */
dt_status dt_tensor_generate(dt_tensor *t, dt_gen *gen, dt_error *err);

#endif /* DT_TENSOR_H */
