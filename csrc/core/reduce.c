/* reduce.c - dt_reduce: checks, NumPy's empty cases, and the geometry of
 * a reduction, handed to the backend as a dt_reduce_loop.
 *
 * Note [Reductions]
 * A reduction splits src's axes in two groups: the kept axes, one output
 * element per coordinate, and the reduced ones, walked for each output.
 * Length-1 axes are dropped; each group is ordered by falling |stride| of
 * src (the order memory is best read in) and adjacent axes that walk as
 * one are merged, so a reduction over every axis of a contiguous tensor is
 * one run and sum(axis=0) of a C-order matrix is one kept and one reduced
 * axis.  ARGMIN and ARGMAX report a position in C order of the reduced
 * axes, so their reduced group keeps its order (only merging).
 * The backend picks its own strategy from the strides (a contiguous
 * reduced run, or a contiguous kept run with the reduced axes outside it:
 * Note [Two reduction loops] in cpu_reduce.c, Note [Reduction kernels] in
 * cuda_reduce.cu).  An empty reduced space never reaches it: the identity
 * is filled here, or NumPy's error raised for the ops that have none.
 */
#include "reduce.h"

#include <stdlib.h>
#include <string.h>

#include "elementwise.h"
#include "thread_exit.h"

static const char *const reduce_names[] = {
#define DT_REDUCE_NAME_(ID, NAME) NAME,
    DT_REDUCE_LIST(DT_REDUCE_NAME_)
#undef DT_REDUCE_NAME_
};

const char *dt_reduce_name(dt_reduce_op op)
{
    return (unsigned)op < DT_NUM_REDUCE_OPS ? reduce_names[op] : "?";
}

static int is_integer(dt_dtype d)
{
    dt_dtype_kind k = dt_dtype_get_info(d)->kind;
    return k == DT_KIND_INT || k == DT_KIND_UINT;
}

dt_dtype dt_reduce_result_dtype(dt_reduce_op op, dt_dtype in)
{
    switch (op) {
    case DT_REDUCE_SUM:
    case DT_REDUCE_PROD:
        switch (in) {
        case DT_BOOL: case DT_INT8: case DT_INT16: case DT_INT32:
            return DT_INT64;
        case DT_UINT8: case DT_UINT16: case DT_UINT32:
            return DT_UINT64;
        default:
            return in;
        }
    case DT_REDUCE_ARGMIN:
    case DT_REDUCE_ARGMAX:
        return DT_INT64;
    case DT_REDUCE_ANY:
    case DT_REDUCE_ALL:
        return DT_BOOL;
    default:
        return in;
    }
}

int dt_reduce_takes(dt_reduce_op op, dt_dtype in, dt_dtype out)
{
    if (out == dt_reduce_result_dtype(op, in))
        return 1;
    if (op != DT_REDUCE_SUM && op != DT_REDUCE_PROD)
        return 0;
    return out == in || ((in == DT_BOOL || is_integer(in)) && is_integer(out));
}

/* the identity of op in out's dtype, as bytes */
static void identity(dt_reduce_op op, dt_dtype d, unsigned char *bytes)
{
    int64_t one = op == DT_REDUCE_PROD || op == DT_REDUCE_ALL;
    dt_scalar_cast(DT_INT64, &one, d, bytes);
}

static dt_status fill_identity(dt_reduce_op op, dt_tensor *out, dt_error *err)
{
    dt_operand v;
    memset(&v, 0, sizeof v);
    v.dtype = out->dtype;
    identity(op, out->dtype, v.value.bytes);
    return dt_launch(DT_OP_COPY, out, 1, &v, err);
}

typedef struct {
    int64_t shape, in_stride, out_stride;
} red_dim;

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

/* order by falling |in_stride| (insertion sort: stable, at most 64 dims) */
static void order_dims(red_dim *d, int n)
{
    for (int i = 1; i < n; i++) {
        red_dim x = d[i];
        int j = i - 1;
        while (j >= 0 && abs64(d[j].in_stride) < abs64(x.in_stride)) {
            d[j + 1] = d[j];
            j--;
        }
        d[j + 1] = x;
    }
}

/* merge neighbours that walk as one (outer = inner * inner's length) */
static int merge_dims(red_dim *d, int n)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && d[m - 1].in_stride == d[i].in_stride * d[i].shape &&
            d[m - 1].out_stride == d[i].out_stride * d[i].shape) {
            d[m - 1].shape *= d[i].shape;
            d[m - 1].in_stride = d[i].in_stride;
            d[m - 1].out_stride = d[i].out_stride;
        } else {
            d[m++] = d[i];
        }
    }
    return m;
}

/* what reductions and scans ask of their output besides its shape */
static dt_status check_output(const char *what, dt_reduce_op op, const dt_tensor *src, const dt_tensor *out,
                              dt_error *err)
{
    if (!dt_device_equal(dt_tensor_device(src), dt_tensor_device(out)))
        return dt_error_set(err, DT_ERR_VALUE, "%s: the output is on another device", what);
    if (!dt_reduce_takes(op, src->dtype, out->dtype))
        return dt_error_set(err, DT_ERR_TYPE, "%s: %s does not give %s from %s", what, dt_reduce_name(op),
                            dt_dtype_get_info(out->dtype)->name, dt_dtype_get_info(src->dtype)->name);
    DT_TRY(dt_tensor_check_output(out, err));
    if (dt_tensors_may_overlap(src, out))
        return dt_error_set(err, DT_ERR_VALUE, "%s: the output overlaps the input", what);
    return DT_OK;
}

/* Note [A spare reduction loop]
 * A dt_reduce_loop is ~2.6 KB (kept off the stack), past malloc's fast
 * small-block cache: allocating and freeing it cost ~40 ns of a 16-element
 * reduction's ~300.  Each thread keeps the last one freed for its next
 * reduction (a reduction inside one, were there any, allocates its own). */
static __thread dt_reduce_loop *spare_loop;
static __thread int spare_loop_kept; /* freed at the thread's end */

/* Note [Per-thread caches end with their thread] in thread_exit.c */
static void free_spare_loop(void)
{
    free(spare_loop);
    spare_loop = NULL;
    spare_loop_kept = 0; /* a reduction after this asks again */
}

static dt_reduce_loop *take_loop(void)
{
    dt_reduce_loop *l = spare_loop;
    spare_loop = NULL;
    return l != NULL ? l : (dt_reduce_loop *)malloc(sizeof *l);
}

static void give_loop(dt_reduce_loop *l)
{
    if (spare_loop == NULL && (spare_loop_kept || (spare_loop_kept = dt_at_thread_exit(free_spare_loop) == 0)))
        spare_loop = l;
    else
        free(l);
}

/* Device memory of DT_REDUCE_WORK_BYTES for a loop's `work` on a device
 * (none on the cpu); *ptr is its data.  Clearing it after the launch is
 * safe: the caching allocator reuses a block in stream order. */
static dt_status work_memory(dt_device device, dt_tensor *work, void **ptr, dt_error *err)
{
    dt_tensor_init_empty(work);
    *ptr = NULL;
    if (device.type == DT_DEVICE_CPU)
        return DT_OK;
    int64_t n = DT_REDUCE_WORK_BYTES;
    DT_TRY(dt_tensor_init_new(work, device, DT_UINT8, 1, &n, err));
    *ptr = dt_tensor_data(work);
    return DT_OK;
}

static dt_status check(dt_reduce_op op, const dt_tensor *src, uint64_t axes, const dt_tensor *out,
                       dt_error *err)
{
    if ((unsigned)op >= DT_NUM_REDUCE_OPS)
        return dt_error_set(err, DT_ERR_VALUE, "reduce: unknown op %d", (int)op);
    if (src->ndim < 64 && (axes >> src->ndim) != 0)
        return dt_error_set(err, DT_ERR_VALUE, "reduce: an axis beyond the tensor's %d", src->ndim);
    int kept = 0;
    for (int d = 0; d < src->ndim; d++)
        if (!((axes >> d) & 1)) {
            if (kept >= out->ndim || out->shape[kept] != src->shape[d])
                return dt_error_set(err, DT_ERR_VALUE, "reduce: the output's shape does not match");
            kept++;
        }
    if (kept != out->ndim)
        return dt_error_set(err, DT_ERR_VALUE, "reduce: the output's shape does not match");
    return check_output("reduce", op, src, out, err);
}

static dt_status empty_reduction(dt_reduce_op op, dt_tensor *out, dt_error *err)
{
    switch (op) {
    case DT_REDUCE_MIN:
    case DT_REDUCE_MAX:
        return dt_error_set(err, DT_ERR_VALUE, "zero-size array to reduction operation %s which has no identity",
                            dt_reduce_name(op));
    case DT_REDUCE_ARGMIN:
    case DT_REDUCE_ARGMAX:
        return dt_error_set(err, DT_ERR_VALUE, "attempt to get %s of an empty sequence", dt_reduce_name(op));
    default:
        return fill_identity(op, out, err);
    }
}

/* fill l's groups from src and out (Note [Reductions]) */
static void geometry(dt_reduce_loop *l, dt_reduce_op op, const dt_tensor *src, uint64_t axes, const dt_tensor *out)
{
    red_dim kept[DT_MAX_NDIM], red[DT_MAX_NDIM];
    int nk = 0, nr = 0, o = 0;
    for (int d = 0; d < src->ndim; d++) {
        int reduced = (axes >> d) & 1;
        red_dim x = {src->shape[d], src->strides[d], reduced ? 0 : out->strides[o]};
        o += !reduced;
        if (x.shape == 1)
            continue;
        if (reduced)
            red[nr++] = x;
        else
            kept[nk++] = x;
    }
    order_dims(kept, nk);
    nk = merge_dims(kept, nk);
    if (op != DT_REDUCE_ARGMIN && op != DT_REDUCE_ARGMAX)
        order_dims(red, nr);
    nr = merge_dims(red, nr);
    if (nr == 0)
        red[nr++] = (red_dim){1, 0, 0};
    l->kept_ndim = nk;
    l->red_ndim = nr;
    l->n_out = l->n_red = 1;
    for (int i = 0; i < nk; i++) {
        l->kept_shape[i] = kept[i].shape;
        l->kept_in_strides[i] = kept[i].in_stride;
        l->kept_out_strides[i] = kept[i].out_stride;
        l->n_out *= kept[i].shape;
    }
    for (int i = 0; i < nr; i++) {
        l->red_shape[i] = red[i].shape;
        l->red_strides[i] = red[i].in_stride;
        l->n_red *= red[i].shape;
    }
}

dt_status dt_reduce(dt_reduce_op op, const dt_tensor *src, uint64_t axes, dt_tensor *out, dt_error *err)
{
    DT_TRY(check(op, src, axes, out, err));
    int64_t n_red = 1;
    for (int d = 0; d < src->ndim; d++)
        if ((axes >> d) & 1)
            n_red *= src->shape[d]; /* <= src's numel, which fits */
    if (out->numel == 0)
        return (n_red == 0 && op >= DT_REDUCE_MIN && op <= DT_REDUCE_ARGMAX) ? empty_reduction(op, out, err)
                                                                            : DT_OK;
    if (n_red == 0)
        return empty_reduction(op, out, err);
    dt_device device = dt_tensor_device(src);
    const dt_backend_iface *b = dt_device_resolve(&device, err);
    if (b == NULL)
        return err->status;
    if (b->run_reduce == NULL)
        return dt_error_set(err, DT_ERR_NOT_IMPLEMENTED, "the %s backend has no reductions", b->name);
    int index = device.index < 0 ? 0 : device.index;
    dt_reduce_loop *l = take_loop(); /* Note [A spare reduction loop] */
    if (l == NULL)
        return dt_error_set(err, DT_ERR_NOMEM, "out of host memory for a reduction");
    memset(l, 0, offsetof(dt_reduce_loop, kept_shape));
    l->op = op;
    l->device_index = index;
    l->stream = b->get_stream ? b->get_stream(index) : NULL;
    l->in_dtype = src->dtype;
    l->out_dtype = out->dtype;
    l->in = dt_tensor_data(src);
    l->out = dt_tensor_data(out);
    geometry(l, op, src, axes, out);
    dt_tensor work;
    dt_status st = work_memory(device, &work, &l->work, err);
    if (st == DT_OK)
        st = b->run_reduce(l, err);
    dt_tensor_clear(&work);
    give_loop(l);
    return st;
}

/* ---- scans ---- */

dt_status dt_scan(dt_reduce_op op, const dt_tensor *src, int axis, dt_tensor *out, dt_error *err)
{
    if (op != DT_REDUCE_SUM && op != DT_REDUCE_PROD && op != DT_REDUCE_MIN && op != DT_REDUCE_MAX)
        return dt_error_set(err, DT_ERR_VALUE, "scan: only sum, prod, min and max scan, not %s",
                            dt_reduce_name(op));
    if (axis < 0 || axis >= src->ndim)
        return dt_error_set(err, DT_ERR_VALUE, "scan: axis %d out of range", axis);
    if (out->ndim != src->ndim)
        return dt_error_set(err, DT_ERR_VALUE, "scan: the output's shape does not match");
    for (int d = 0; d < src->ndim; d++)
        if (out->shape[d] != src->shape[d])
            return dt_error_set(err, DT_ERR_VALUE, "scan: the output's shape does not match");
    DT_TRY(check_output("scan", op, src, out, err));
    if (src->numel == 0)
        return DT_OK;
    dt_device device = dt_tensor_device(src);
    const dt_backend_iface *b = dt_device_resolve(&device, err);
    if (b == NULL)
        return err->status;
    if (b->run_scan == NULL)
        return dt_error_set(err, DT_ERR_NOT_IMPLEMENTED, "the %s backend has no scans", b->name);
    int index = device.index < 0 ? 0 : device.index;
    dt_scan_loop *l = (dt_scan_loop *)malloc(sizeof *l);
    if (l == NULL)
        return dt_error_set(err, DT_ERR_NOMEM, "out of host memory for a scan");
    memset(l, 0, offsetof(dt_scan_loop, outer_shape));
    l->op = op;
    l->device_index = index;
    l->stream = b->get_stream ? b->get_stream(index) : NULL;
    l->in_dtype = src->dtype;
    l->out_dtype = out->dtype;
    l->in = dt_tensor_data(src);
    l->out = dt_tensor_data(out);
    l->len = src->shape[axis];
    l->in_stride = src->strides[axis];
    l->out_stride = out->strides[axis];
    red_dim rows[DT_MAX_NDIM];
    int n = 0;
    for (int d = 0; d < src->ndim; d++)
        if (d != axis && src->shape[d] != 1)
            rows[n++] = (red_dim){src->shape[d], src->strides[d], out->strides[d]};
    n = merge_dims(rows, n);
    l->outer_ndim = n;
    l->n_rows = 1;
    for (int i = 0; i < n; i++) {
        l->outer_shape[i] = rows[i].shape;
        l->outer_in_strides[i] = rows[i].in_stride;
        l->outer_out_strides[i] = rows[i].out_stride;
        l->n_rows *= rows[i].shape;
    }
    dt_tensor work;
    dt_status st = work_memory(device, &work, &l->work, err);
    if (st == DT_OK)
        st = b->run_scan(l, err);
    dt_tensor_clear(&work);
    free(l);
    return st;
}
