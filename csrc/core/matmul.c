/* matmul.c - dt_matmul: NumPy's matmul rules (1-D operands, broadcast
 * batch axes, NumPy's errors), casts and layout copies where a backend
 * needs them, and the loop handed to the backend's run_matmul.
 *
 * Note [Matrix products]
 * The product of a (..., m, k) and b (..., k, n) is the signature
 * (n?,k),(k,m?)->(n?,m?) of NumPy's matmul gufunc: a 1-D a is a (1, k)
 * row and a 1-D b a (k, 1) column, whose length-1 axis the result drops;
 * the batch axes before the last two broadcast.  The backend sees one
 * dtype, m, n, k >= 1, each operand's row and column strides and the
 * batch (coalesced, broadcast axes with stride 0, so a broadcast operand
 * is never copied out), and writes a fresh C-contiguous out.
 * Floating and complex products go to a BLAS (OpenBLAS on the CPU, cuBLAS
 * on CUDA), which takes a matrix only with a unit stride along one axis
 * and a leading dimension no smaller than the other extent: a transposed
 * operand (a.T, a.mT) is passed as it is, with its transpose flag, and
 * only a layout no BLAS takes (two non-unit strides, negative or zero
 * strides, misalignment) is copied to a contiguous tensor first.  The
 * length-1 axes of a row or column get the stride that makes the layout
 * valid, since BLAS reads nothing along them.  An empty result is
 * returned as it is; k == 0 gives zeros (NumPy's sum over nothing).
 */
#include "matmul.h"

#include <stdio.h>
#include <string.h>

#include "elementwise.h"

static int allow_tf32 = 0;

int dt_matmul_get_allow_tf32(void) { return allow_tf32; }
void dt_matmul_set_allow_tf32(int allow) { allow_tf32 = allow != 0; }

#define SIGNATURE "(n?,k),(k,m?)->(n?,m?)"

/* One operand as the backend reads it: its matrix and its batch axes. */
typedef struct operand {
    const dt_tensor *t;
    int64_t rows, cols, rs, cs; /* the matrix: a 1-D operand is a row or a column */
    int batch_ndim;             /* t's axes before the matrix */
} operand;

static void describe(operand *o, const dt_tensor *t, int is_left)
{
    o->t = t;
    if (t->ndim == 1) {
        int64_t len = t->shape[0], st = t->strides[0];
        o->batch_ndim = 0;
        if (is_left) { /* (1, k) */
            o->rows = 1, o->cols = len, o->rs = 0, o->cs = st;
        } else {       /* (k, 1) */
            o->rows = len, o->cols = 1, o->rs = st, o->cs = 0;
        }
        return;
    }
    o->batch_ndim = t->ndim - 2;
    o->rows = t->shape[t->ndim - 2], o->cols = t->shape[t->ndim - 1];
    o->rs = t->strides[t->ndim - 2], o->cs = t->strides[t->ndim - 1];
}

static int is_blas_dtype(dt_dtype d)
{
    dt_dtype_kind k = dt_dtype_get_info(d)->kind;
    return k == DT_KIND_FLOAT || k == DT_KIND_COMPLEX;
}

static int64_t alignment(dt_dtype d)
{
    const dt_dtype_info *info = dt_dtype_get_info(d);
    int64_t a = info->kind == DT_KIND_COMPLEX ? info->itemsize / 2 : info->itemsize;
    return a > 8 ? 8 : a;
}

/* Give a row-major or column-major layout BLAS takes to o's matrix, fixing
 * the strides of length-1 axes; 0 if it has none (Note [Matrix products]). */
static int blas_layout(operand *o, int64_t s)
{
    int64_t R = o->rows, C = o->cols;
    if ((C == 1 || o->cs == s) && (R == 1 || (o->rs % s == 0 && o->rs >= C * s))) {
        o->cs = s;
        if (R == 1)
            o->rs = C * s;
        return 1;
    }
    if ((R == 1 || o->rs == s) && (C == 1 || (o->cs % s == 0 && o->cs >= R * s))) {
        o->rs = s;
        if (C == 1)
            o->cs = R * s;
        return 1;
    }
    return 0;
}

static int usable(operand *o, dt_dtype dtype)
{
    if (!is_blas_dtype(dtype))
        return 1;
    int64_t s = dt_dtype_get_info(dtype)->itemsize;
    if ((uintptr_t)dt_tensor_data(o->t) % (uintptr_t)alignment(dtype) != 0)
        return 0;
    for (int d = 0; d < o->batch_ndim; d++)
        if (o->t->strides[d] % s != 0)
            return 0;
    return blas_layout(o, s);
}

/* A contiguous copy of src in dtype, on src's device, into *tmp. */
static dt_status dense_copy(dt_tensor *tmp, const dt_tensor *src, dt_dtype dtype, dt_error *err)
{
    DT_TRY(dt_tensor_init_new(tmp, dt_tensor_device(src), dtype, src->ndim, src->shape, err));
    return dt_tensor_copy_into(tmp, src, err);
}

/* NumPy's error for batch axes that do not broadcast: "operands could not
 * be broadcast together with remapped shapes [original->remapped]: ...". */
static dt_status batch_error(const dt_tensor *a, const dt_tensor *b, dt_error *err)
{
    char msg[DT_ERROR_MSG_MAX];
    size_t used = (size_t)snprintf(msg, sizeof msg, "operands could not be broadcast together "
                                   "with remapped shapes [original->remapped]:");
    const dt_tensor *ops[2] = {a, b};
    for (int k = 0; k < 2 && used < sizeof msg; k++) {
        const dt_tensor *t = ops[k];
        used += (size_t)snprintf(msg + used, sizeof msg - used, " (");
        for (int d = 0; d < t->ndim && used < sizeof msg; d++)
            used += (size_t)snprintf(msg + used, sizeof msg - used, "%s%lld", d ? "," : "",
                                     (long long)t->shape[d]);
        if (used < sizeof msg)
            used += (size_t)snprintf(msg + used, sizeof msg - used, "%s->(",
                                     t->ndim == 1 ? ",)" : ")");
        for (int d = 0; d + 2 < t->ndim && used < sizeof msg; d++)
            used += (size_t)snprintf(msg + used, sizeof msg - used, "%lld,", (long long)t->shape[d]);
        if (used < sizeof msg)
            used += (size_t)snprintf(msg + used, sizeof msg - used, "newaxis,newaxis)");
    }
    if (used < sizeof msg)
        snprintf(msg + used, sizeof msg - used, "  and requested shape (%lld,%lld)",
                 (long long)a->shape[a->ndim - 2], (long long)b->shape[b->ndim - 1]);
    return dt_error_set(err, DT_ERR_VALUE, "%s", msg);
}

/* Merge batch axes that walk as one for a, b and out; drop length-1 ones. */
static void coalesce_batch(dt_matmul_loop *l)
{
    int nd = 0;
    for (int d = 0; d < l->batch_ndim; d++) {
        if (l->batch_shape[d] == 1)
            continue;
        if (nd > 0) {
            int merge = 1;
            for (int k = 0; k < 3; k++)
                if (l->batch_strides[k][nd - 1] != l->batch_strides[k][d] * l->batch_shape[d])
                    merge = 0;
            if (merge) {
                l->batch_shape[nd - 1] *= l->batch_shape[d];
                for (int k = 0; k < 3; k++)
                    l->batch_strides[k][nd - 1] = l->batch_strides[k][d];
                continue;
            }
        }
        l->batch_shape[nd] = l->batch_shape[d];
        for (int k = 0; k < 3; k++)
            l->batch_strides[k][nd] = l->batch_strides[k][d];
        nd++;
    }
    l->batch_ndim = nd;
}

static dt_status fill_zero(dt_tensor *out, dt_error *err)
{
    dt_gen gen;
    memset(&gen, 0, sizeof gen);
    gen.kind = DT_GEN_FILL;
    gen.dtype = out->dtype;
    return dt_tensor_generate(out, &gen, err);
}

/* a @ b before it is computed: the operands as the loop sees them, the
 * batch's dims and the result's shape, the device */
typedef struct plan {
    operand A, B;
    int bnd, nd;
    int64_t shape[DT_MAX_NDIM];
    dt_device device;
} plan;

static dt_status make_plan(const dt_tensor *a, const dt_tensor *b, plan *p, dt_error *err)
{
    dt_operand ops[2] = {{0}};
    ops[0].tensor = a, ops[1].tensor = b;
    DT_TRY(dt_operands_device(2, ops, &p->device, err));
    for (int k = 0; k < 2; k++) {
        int nd = k ? b->ndim : a->ndim;
        if (nd < 1)
            return dt_error_set(err, DT_ERR_VALUE, "matmul: Input operand %d does not have enough "
                                "dimensions (has 0, gufunc core with signature " SIGNATURE
                                " requires 1)", k);
    }
    operand *A = &p->A, *B = &p->B;
    describe(A, a, 1);
    describe(B, b, 0);
    if (A->cols != B->rows)
        return dt_error_set(err, DT_ERR_VALUE, "matmul: Input operand 1 has a mismatch in its core "
                            "dimension 0, with gufunc signature " SIGNATURE " (size %lld is "
                            "different from %lld)", (long long)B->rows, (long long)A->cols);
    /* the batch: broadcast, right-aligned */
    p->bnd = A->batch_ndim > B->batch_ndim ? A->batch_ndim : B->batch_ndim;
    for (int d = 0; d < p->bnd; d++) {
        int da = d - (p->bnd - A->batch_ndim), db = d - (p->bnd - B->batch_ndim);
        int64_t sa = da >= 0 ? a->shape[da] : 1, sb = db >= 0 ? b->shape[db] : 1;
        if (sa != sb && sa != 1 && sb != 1)
            return batch_error(a, b, err);
        p->shape[d] = sa == 1 ? sb : sa;
    }
    p->nd = p->bnd;
    if (a->ndim > 1)
        p->shape[p->nd++] = A->rows;
    if (b->ndim > 1)
        p->shape[p->nd++] = B->cols;
    return DT_OK;
}

/* out (C-contiguous, of p's shape and of dtype, on p's device, overlapping
 * neither operand) = the product */
static dt_status run_plan(plan *p, dt_dtype dtype, dt_tensor *out, dt_error *err)
{
    operand *A = &p->A, *B = &p->B;
    if (out->numel == 0)
        return DT_OK;
    if (A->cols == 0)
        return fill_zero(out, err);
    dt_device device = p->device;
    const dt_backend_iface *be = dt_device_resolve(&device, err);
    if (be == NULL)
        return err->status;
    if (be->run_matmul == NULL)
        return dt_error_set(err, DT_ERR_NOT_IMPLEMENTED, "the %s backend has no matrix product", be->name);
    dt_tensor tmp[2];
    dt_tensor_init_empty(&tmp[0]);
    dt_tensor_init_empty(&tmp[1]);
    operand *o[2] = {A, B};
    dt_status st = DT_OK;
    for (int k = 0; k < 2 && st == DT_OK; k++) {
        const dt_tensor *t = o[k]->t;
        if (t->dtype == dtype && usable(o[k], dtype))
            continue;
        st = dense_copy(&tmp[k], t, dtype, err);
        if (st == DT_OK) {
            describe(o[k], &tmp[k], k == 0);
            if (!usable(o[k], dtype)) /* a contiguous tensor always is */
                st = dt_error_set(err, DT_ERR_RUNTIME, "matmul: internal error: no BLAS layout");
        }
    }
    if (st == DT_OK) {
        dt_matmul_loop l;
        memset(&l, 0, sizeof l);
        int index = device.index < 0 ? 0 : device.index;
        l.device_index = index;
        l.allow_tf32 = allow_tf32;
        l.stream = be->get_stream ? be->get_stream(index) : NULL;
        l.dtype = dtype;
        l.m = A->rows, l.n = B->cols, l.k = A->cols;
        l.a = dt_tensor_data(A->t), l.b = dt_tensor_data(B->t), l.out = dt_tensor_data(out);
        l.a_rs = A->rs, l.a_cs = A->cs, l.b_rs = B->rs, l.b_cs = B->cs;
        int bnd = p->bnd;
        l.batch_ndim = bnd;
        int64_t step = dt_tensor_itemsize(out) * l.m * l.n;
        for (int d = bnd - 1; d >= 0; d--) {
            int da = d - (bnd - A->batch_ndim), db = d - (bnd - B->batch_ndim);
            l.batch_shape[d] = p->shape[d];
            l.batch_strides[0][d] = da >= 0 && A->t->shape[da] != 1 ? A->t->strides[da] : 0;
            l.batch_strides[1][d] = db >= 0 && B->t->shape[db] != 1 ? B->t->strides[db] : 0;
            l.batch_strides[2][d] = step;
            step *= p->shape[d];
        }
        coalesce_batch(&l);
        st = be->run_matmul(&l, err);
    }
    dt_tensor_clear(&tmp[0]);
    dt_tensor_clear(&tmp[1]);
    return st;
}

dt_status dt_matmul(const dt_tensor *a, const dt_tensor *b, dt_dtype dtype, dt_tensor *out,
                    dt_error *err)
{
    dt_tensor_init_empty(out);
    plan p;
    DT_TRY(make_plan(a, b, &p, err));
    DT_TRY(dt_tensor_init_new(out, p.device, dtype, p.nd, p.shape, err));
    if (run_plan(&p, dtype, out, err) == DT_OK)
        return DT_OK;
    dt_tensor_clear(out);
    return err->status;
}

dt_status dt_matmul_into(const dt_tensor *a, const dt_tensor *b, dt_dtype dtype, dt_tensor *out, int *written,
                         dt_error *err)
{
    *written = 0;
    plan p;
    DT_TRY(make_plan(a, b, &p, err));
    if (out->ndim != p.nd || memcmp(out->shape, p.shape, (size_t)p.nd * sizeof(int64_t)) != 0)
        return DT_OK;
    if (!dt_device_equal(dt_tensor_device(out), p.device))
        return dt_error_set(err, DT_ERR_RUNTIME, "matmul: out= is on another device than the operands");
    DT_TRY(dt_tensor_check_output(out, err));
    *written = 1;
    if (out->dtype == dtype && dt_tensor_is_contiguous(out) && !dt_tensors_may_overlap(out, a) &&
        !dt_tensors_may_overlap(out, b))
        return run_plan(&p, dtype, out, err);
    dt_tensor r; /* computed apart, then cast and copied into out */
    DT_TRY(dt_tensor_init_new(&r, p.device, dtype, p.nd, p.shape, err));
    dt_status st = run_plan(&p, dtype, &r, err);
    if (st == DT_OK)
        st = dt_tensor_copy_into(out, &r, err);
    dt_tensor_clear(&r);
    return st;
}
