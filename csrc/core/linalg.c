/* linalg.c - dt_linalg_factor and dt_linalg_lu_solve: checks, the
 * column-major copies LAPACK and cuSOLVER work in, the outputs, and the
 * loop handed to the backend's run_linalg.
 *
 * Note [Factorizations]
 * LAPACK (the CPU, through OpenBLAS) and cuSOLVER (CUDA) overwrite their
 * input and read matrices column by column, so every factorization first
 * copies a into a fresh buffer of shape (..., n, m), C-contiguous: its
 * matrices are a's in column-major order.  Results are handed back as
 * views of such buffers with the last two axes swapped: (..., m, n)
 * tensors whose strides say column-major, so no copy is made to turn
 * them back (NumPy's own linalg returns Fortran-ordered results too).
 * Where a matrix or the batch is empty the backend is not called: the
 * outputs have their shapes and info is zero; devtensor/linalg.py gives
 * NumPy's answers for those cases (an identity U of an empty SVD, ...).
 * info is left on the device: devtensor.linalg reads it to raise
 * LinAlgError as NumPy does, which waits for the work (as cuSOLVER's
 * callers must to learn of a singular matrix).
 *
 * Note [Determinants from LU]
 * det and slogdet are LU followed by one pass over each matrix's pivots
 * and diagonal (the backend's LU_DET), as NumPy's umath_linalg computes
 * them: the sign starts at -1 for an odd number of row swaps, each
 * diagonal element multiplies it by its sign (a real NaN leaves it
 * alone) or by e / |e| (complex), and log|det| sums log|e| in order;
 * info > 0 (an exactly zero pivot) gives (0, -inf); det is
 * sign * exp(log|det|), so it overflows to inf where the determinant does
 * rather than where a product of pivots would.  One call from Python and
 * one launch on CUDA, where composing it from views, log, sum, prod and
 * where took a dozen of each.
 */
#include "linalg.h"

#include <string.h>

#include "backend.h"

void dt_linalg_result_init(dt_linalg_result *r)
{
    dt_tensor_init_empty(&r->a);
    dt_tensor_init_empty(&r->piv);
    dt_tensor_init_empty(&r->w);
    dt_tensor_init_empty(&r->q);
    dt_tensor_init_empty(&r->vt);
    dt_tensor_init_empty(&r->info);
}

void dt_linalg_result_clear(dt_linalg_result *r)
{
    dt_tensor_clear(&r->a);
    dt_tensor_clear(&r->piv);
    dt_tensor_clear(&r->w);
    dt_tensor_clear(&r->q);
    dt_tensor_clear(&r->vt);
    dt_tensor_clear(&r->info);
}

static dt_dtype real_of(dt_dtype d)
{
    return d == DT_COMPLEX64 ? DT_FLOAT32 : d == DT_COMPLEX128 ? DT_FLOAT64 : d;
}

static dt_dtype complex_of(dt_dtype d)
{
    return d == DT_FLOAT32 || d == DT_COMPLEX64 ? DT_COMPLEX64 : DT_COMPLEX128;
}

static const char *const kind_names[] = {"lu", "lu_solve", "cholesky", "qr", "eigh", "svd", "eig",
                                          "lu_det"};

/* *view = a new column-major (batch..., rows, cols) tensor: a view of a
 * C-contiguous (batch..., cols, rows) buffer (Note [Factorizations]). */
static dt_status col_major_new(dt_tensor *view, dt_device device, dt_dtype dtype, int nb,
                               const int64_t *batch, int64_t rows, int64_t cols, dt_error *err)
{
    int64_t shape[DT_MAX_NDIM];
    memcpy(shape, batch, (size_t)nb * sizeof *shape);
    shape[nb] = cols, shape[nb + 1] = rows;
    dt_tensor buf;
    DT_TRY(dt_tensor_init_new(&buf, device, dtype, nb + 2, shape, err));
    int64_t strides[DT_MAX_NDIM];
    memcpy(strides, buf.strides, (size_t)(nb + 2) * sizeof *strides);
    shape[nb] = rows, shape[nb + 1] = cols;
    strides[nb] = buf.strides[nb + 1], strides[nb + 1] = buf.strides[nb];
    dt_status st = dt_tensor_init_view(view, buf.storage, buf.offset, nb + 2, shape, strides, dtype,
                                       err);
    dt_tensor_clear(&buf);
    return st;
}

/* a fresh column-major copy of src (..., rows, cols) in src's dtype */
static dt_status col_major_copy(dt_tensor *view, const dt_tensor *src, dt_error *err)
{
    int nb = src->ndim - 2;
    DT_TRY(col_major_new(view, dt_tensor_device(src), src->dtype, nb, src->shape,
                         src->shape[nb], src->shape[nb + 1], err));
    dt_status st = dt_tensor_copy_into(view, src, err);
    if (st != DT_OK)
        dt_tensor_clear(view);
    return st;
}

static dt_status new_batch(dt_tensor *t, dt_device device, dt_dtype dtype, int nb,
                           const int64_t *batch, int extra, int64_t len, dt_error *err)
{
    int64_t shape[DT_MAX_NDIM];
    memcpy(shape, batch, (size_t)nb * sizeof *shape);
    if (extra)
        shape[nb] = len;
    return dt_tensor_init_new(t, device, dtype, nb + extra, shape, err);
}

/* t (float32, float64, complex64, complex128 or int64) := v, a real value */
static dt_status fill_real(dt_tensor *t, double v, dt_error *err)
{
    if (t->storage == NULL || t->numel == 0)
        return DT_OK;
    dt_gen gen;
    memset(&gen, 0, sizeof gen);
    gen.kind = DT_GEN_FILL;
    gen.dtype = t->dtype;
    float f = (float)v;
    int64_t i = (int64_t)v;
    if (t->dtype == DT_FLOAT32 || t->dtype == DT_COMPLEX64)
        memcpy(gen.value.bytes, &f, sizeof f);
    else if (t->dtype == DT_INT64)
        memcpy(gen.value.bytes, &i, sizeof i);
    else
        memcpy(gen.value.bytes, &v, sizeof v);
    return dt_tensor_generate(t, &gen, err);
}

static dt_status check_float(const char *name, const dt_tensor *t, int min_ndim, dt_error *err)
{
    dt_dtype d = t->dtype;
    if (d != DT_FLOAT32 && d != DT_FLOAT64 && d != DT_COMPLEX64 && d != DT_COMPLEX128)
        return dt_error_set(err, DT_ERR_TYPE, "%s: the matrix must be float32, float64, complex64 "
                            "or complex128, not %s", name, dt_dtype_get_info(d)->name);
    if (t->ndim < min_ndim)
        return dt_error_set(err, DT_ERR_VALUE, "%s: %d-dimensional array given. Array must be at "
                            "least two-dimensional", name, t->ndim);
    return DT_OK;
}

static dt_status run(const dt_linalg_loop *proto, dt_device device, dt_error *err)
{
    const dt_backend_iface *be = dt_device_resolve(&device, err);
    if (be == NULL)
        return err->status;
    if (be->run_linalg == NULL)
        return dt_error_set(err, DT_ERR_NOT_IMPLEMENTED, "the %s backend has no factorizations",
                            be->name);
    dt_linalg_loop l = *proto;
    l.device_index = device.index < 0 ? 0 : device.index;
    l.stream = be->get_stream ? be->get_stream(l.device_index) : NULL;
    return be->run_linalg(&l, err);
}

dt_status dt_linalg_factor(dt_linalg_kind kind, const dt_tensor *a, int vectors, int full,
                           dt_linalg_result *out, dt_error *err)
{
    dt_linalg_result_init(out);
    if (kind == DT_LINALG_LU_SOLVE || (unsigned)kind > DT_LINALG_EIG)  /* not LU_DET either */
        return dt_error_set(err, DT_ERR_VALUE, "dt_linalg_factor: bad kind %d", (int)kind);
    const char *name = kind_names[kind];
    DT_TRY(check_float(name, a, 2, err));
    int nb = a->ndim - 2;
    int64_t m = a->shape[nb], n = a->shape[nb + 1], k = m < n ? m : n;
    if (kind != DT_LINALG_QR && kind != DT_LINALG_SVD && m != n)
        return dt_error_set(err, DT_ERR_VALUE, "%s: Last 2 dimensions of the array must be square",
                            name);
    dt_device device = dt_tensor_device(a);
    dt_dtype d = a->dtype;
    dt_status st = col_major_copy(&out->a, a, err);
    if (st == DT_OK)
        st = new_batch(&out->info, device, DT_INT64, nb, a->shape, 0, 0, err);
    if (st == DT_OK && kind == DT_LINALG_LU)
        st = new_batch(&out->piv, device, DT_INT64, nb, a->shape, 1, n, err);
    if (st == DT_OK && kind == DT_LINALG_QR)
        st = col_major_new(&out->q, device, d, nb, a->shape, m, full ? m : k, err);
    if (st == DT_OK && (kind == DT_LINALG_EIGH || kind == DT_LINALG_SVD || kind == DT_LINALG_EIG))
        st = new_batch(&out->w, device, kind == DT_LINALG_EIG ? complex_of(d) : real_of(d), nb,
                       a->shape, 1, kind == DT_LINALG_SVD ? k : n, err);
    if (st == DT_OK && kind == DT_LINALG_SVD && vectors) {
        st = col_major_new(&out->q, device, d, nb, a->shape, m, full ? m : k, err);
        if (st == DT_OK)
            st = col_major_new(&out->vt, device, d, nb, a->shape, full ? n : k, n, err);
    }
    if (st == DT_OK && kind == DT_LINALG_EIG && vectors)
        st = col_major_new(&out->q, device, complex_of(d), nb, a->shape, n, n, err);
    if (st == DT_OK)
        st = fill_real(&out->info, 0, err);
    int64_t count = out->info.numel;
    if (st == DT_OK && count > 0 && k > 0) {
        dt_linalg_loop l;
        memset(&l, 0, sizeof l);
        l.kind = kind;
        l.dtype = d;
        l.vectors = vectors != 0;
        l.full = full != 0;
        l.count = count;
        l.m = m, l.n = n;
        l.a = dt_tensor_data(&out->a);
        l.info = (int64_t *)dt_tensor_data(&out->info);
        l.piv = out->piv.storage ? (int64_t *)dt_tensor_data(&out->piv) : NULL;
        l.w = out->w.storage ? dt_tensor_data(&out->w) : NULL;
        l.q = out->q.storage ? dt_tensor_data(&out->q) : NULL;
        l.vt = out->vt.storage ? dt_tensor_data(&out->vt) : NULL;
        st = run(&l, device, err);
    }
    if (st != DT_OK)
        dt_linalg_result_clear(out);
    return st;
}

/* t is (..., rows, cols) column-major and dense, matrix after matrix */
static int is_col_major_dense(const dt_tensor *t)
{
    int nb = t->ndim - 2;
    int64_t s = dt_tensor_itemsize(t), expect = s;
    if (t->shape[nb] > 1 && t->strides[nb] != expect)
        return 0;
    expect *= t->shape[nb];
    if (t->shape[nb + 1] > 1 && t->strides[nb + 1] != expect)
        return 0;
    expect *= t->shape[nb + 1];
    for (int d = nb - 1; d >= 0; d--) {
        if (t->shape[d] > 1 && t->strides[d] != expect)
            return 0;
        expect *= t->shape[d];
    }
    return 1;
}

dt_status dt_linalg_lu_solve(const dt_tensor *lu, const dt_tensor *piv, const dt_tensor *b,
                             dt_linalg_result *out, dt_error *err)
{
    dt_linalg_result_init(out);
    DT_TRY(check_float("lu_solve", lu, 2, err));
    int nb = lu->ndim - 2;
    int64_t n = lu->shape[nb];
    int ok = lu->shape[nb + 1] == n && b->dtype == lu->dtype && b->ndim == lu->ndim &&
             b->shape[nb] == n && piv->dtype == DT_INT64 && piv->ndim == nb + 1 &&
             piv->shape[nb] == n;
    for (int d = 0; ok && d < nb; d++)
        ok = b->shape[d] == lu->shape[d] && piv->shape[d] == lu->shape[d];
    if (!ok)
        return dt_error_set(err, DT_ERR_VALUE, "lu_solve: the factors and the right-hand side "
                            "do not match");
    dt_device device = dt_tensor_device(lu);
    if (!dt_device_equal(device, dt_tensor_device(b)) || !dt_device_equal(device, dt_tensor_device(piv)))
        return dt_error_set(err, DT_ERR_RUNTIME, "lu_solve: the tensors are on different devices");
    dt_tensor lu_dense, piv_dense;
    dt_tensor_init_empty(&lu_dense);
    dt_tensor_init_empty(&piv_dense);
    const dt_tensor *A = lu, *P = piv;
    dt_status st = col_major_copy(&out->a, b, err);
    if (st == DT_OK && !is_col_major_dense(lu)) {
        st = col_major_copy(&lu_dense, lu, err);
        A = &lu_dense;
    }
    if (st == DT_OK && !dt_tensor_is_contiguous(piv)) {
        st = dt_tensor_init_new(&piv_dense, device, DT_INT64, piv->ndim, piv->shape, err);
        if (st == DT_OK)
            st = dt_tensor_copy_into(&piv_dense, piv, err);
        P = &piv_dense;
    }
    int64_t count = 1;
    for (int d = 0; d < nb; d++)
        count *= lu->shape[d];
    if (st == DT_OK && count > 0 && n > 0 && b->shape[nb + 1] > 0) {
        dt_linalg_loop l;
        memset(&l, 0, sizeof l);
        l.kind = DT_LINALG_LU_SOLVE;
        l.dtype = lu->dtype;
        l.count = count;
        l.m = l.n = n;
        l.nrhs = b->shape[nb + 1];
        l.a = dt_tensor_data(A);
        l.b = dt_tensor_data(&out->a);
        l.piv = (int64_t *)dt_tensor_data(P);
        st = run(&l, device, err);
    }
    dt_tensor_clear(&lu_dense);
    dt_tensor_clear(&piv_dense);
    if (st != DT_OK)
        dt_linalg_result_clear(out);
    return st;
}

dt_status dt_linalg_det(const dt_tensor *a, int want_det, dt_linalg_result *out, dt_error *err)
{
    dt_linalg_result_init(out);
    dt_linalg_result lu;
    DT_TRY(dt_linalg_factor(DT_LINALG_LU, a, 0, 0, &lu, err));
    int nb = a->ndim - 2;
    int64_t n = a->shape[nb];
    dt_device device = dt_tensor_device(a);
    dt_status st = new_batch(&out->q, device, a->dtype, nb, a->shape, 0, 0, err);
    if (st == DT_OK && !want_det)
        st = new_batch(&out->w, device, real_of(a->dtype), nb, a->shape, 0, 0, err);
    int64_t count = out->q.numel;
    if (st == DT_OK && count > 0 && n > 0) {
        dt_linalg_loop l;
        memset(&l, 0, sizeof l);
        l.kind = DT_LINALG_LU_DET;
        l.dtype = a->dtype;
        l.full = want_det != 0;
        l.count = count;
        l.m = l.n = n;
        l.a = dt_tensor_data(&lu.a);
        l.piv = (int64_t *)dt_tensor_data(&lu.piv);
        l.info = (int64_t *)dt_tensor_data(&lu.info);
        l.q = dt_tensor_data(&out->q);
        l.w = want_det ? NULL : dt_tensor_data(&out->w);
        st = run(&l, device, err);
    } else if (st == DT_OK) { /* empty matrices: det 1, log|det| 0 (NumPy's) */
        st = fill_real(&out->q, 1, err);
        if (st == DT_OK)
            st = fill_real(&out->w, 0, err);
    }
    dt_linalg_result_clear(&lu);
    if (st != DT_OK)
        dt_linalg_result_clear(out);
    return st;
}
