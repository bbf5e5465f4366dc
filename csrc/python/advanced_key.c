/* advanced_key.c - x[key] and x[key] = value for a tensor on a device and
 * the advanced keys real code writes, turned into the core's gather form
 * (csrc/core/gather.h) in C.
 *
 * Note [Advanced keys in C]
 * devtensor._advanced turns any NumPy key into that form in Python, at tens
 * of microseconds a call: more than the kernels take on a GPU.  Here the
 * common keys are turned into it with no Python code: integer arrays
 * (tensors on the device or the CPU, NumPy arrays, lists) and boolean mask
 * tensors on the device, mixed with integers, slices, None and one
 * Ellipsis.
 *  - An integer stays a basic item of the view's key (it takes its axis
 *    away, so nothing is uploaded for it) but counts as advanced for
 *    NumPy's rule of where the broadcast index axes go, as NumPy counts it.
 *  - A mask over axes that can be read as one axis in C order (their
 *    strides say so) becomes one index into that merged axis: the flat
 *    positions of its true elements (dt_index_nonzero), so no coordinates
 *    are computed.
 * Any other key, and any key that would raise before the kernels run
 * (shapes that do not broadcast, too many indices, an index on another
 * device, a read-only tensor, ...), is "not handled": no exception is left
 * set, nothing has been written, and the caller hands it to
 * devtensor._advanced, so the rare cases' rules and messages live once,
 * there.  Out-of-range indices are found by the kernels and raise the
 * core's IndexError, the same as through Python.
 */
#include "pydt.h"

#include <stddef.h>
#include <string.h>

#include "gather.h"
#include "index.h"

enum { ITEM_BASIC, ITEM_INT, ITEM_ARRAY, ITEM_MASK };

/* 0: every advanced key on a device goes to devtensor._advanced (the tests'
 * variant that keeps that path covered for common keys too). */
static int keys_in_c = 1;

PyObject *dt_py_advanced_keys_in_c(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    int before = keys_in_c;
    if (nargs > 1)
        return PyErr_Format(PyExc_TypeError, "_advanced_keys_in_c takes at most 1 argument");
    if (nargs == 1) {
        int on = PyObject_IsTrue(args[0]);
        if (on < 0)
            return NULL;
        keys_in_c = on;
    }
    return PyBool_FromLong(before);
}

/* An indexed axis of W: its index tensor and where it points. */
typedef struct {
    dt_tensor index;  /* int64 on x's device, its own shape (a mask's: (n,)) */
    int w_axis;       /* its axis in W */
    int x_axis;       /* its first axis in x (for messages) */
    int key_pos;      /* its item's position in the key */
    const PyDtTensor *mask; /* the mask, for a mask item (borrowed from the key) */
    int mask_ndim;
} indexed_axis;

/* The key resolved: W (x after the basic items, each mask's axes merged),
 * the indexed axes of W and the result's shape R. */
typedef struct {
    int w_ndim;
    int64_t w_shape[DT_MAX_NDIM], w_strides[DT_MAX_NDIM], w_offset;
    int nidx;
    indexed_axis idx[DT_MAX_NDIM];
    int b_ndim, b_start;
    int64_t b_shape[DT_MAX_NDIM];
    int r_ndim;
    int64_t r_shape[DT_MAX_NDIM], r_strides[DT_MAX_NDIM];
} adv_plan;

static void plan_clear(adv_plan *p)
{
    for (int j = 0; j < p->nidx; j++)
        dt_tensor_clear(&p->idx[j].index);
    p->nidx = 0;
}

/* 1 when o is a range of at least one int (its length fits a Py_ssize_t). */
static int nonempty_range(PyObject *o)
{
    if (!PyRange_Check(o))
        return 0;
    Py_ssize_t n = PyObject_Length(o);
    if (n < 0)
        PyErr_Clear();
    return n > 0;
}

/* o as an integer index array: 1 with *arr a new reference to an int NumPy
 * array of at least one axis, *tensor borrowed for a tensor (x's device or
 * the cpu), 0 if the C path does not take it (no exception). */
static int integer_array(PyObject *o, dt_device dev, PyArrayObject **arr, PyDtTensor **tensor)
{
    *arr = NULL;
    *tensor = NULL;
    if (DtTensor_Check(o)) {
        PyDtTensor *t = (PyDtTensor *)o;
        dt_device d = dt_tensor_device(&t->t);
        if (t->t.ndim == 0 || !dt_dtype_is_integral(t->t.dtype) ||
            (d.type != DT_DEVICE_CPU && (d.type != dev.type || d.index != dev.index)))
            return 0;
        *tensor = t;
        return 1;
    }
    PyObject *a;
    if (PyArray_Check(o))
        a = Py_NewRef(o);
    else if ((PyList_CheckExact(o) && PyList_GET_SIZE(o) > 0) || nonempty_range(o))
        a = PyArray_FROM_O(o); /* t[range(3)] is t[[0, 1, 2]], as NumPy reads it */
    else
        return 0;
    if (a == NULL) {
        PyErr_Clear();
        return 0;
    }
    PyArrayObject *na = (PyArrayObject *)a;
    if (PyArray_NDIM(na) == 0 || !PyArray_ISINTEGER(na) || !PyArray_ISNOTSWAPPED(na)) {
        Py_DECREF(a);
        return 0;
    }
    *arr = na;
    return 1;
}

/* The index tensor of an integer array item, as int64 on dev. */
static int upload_index(dt_tensor *out, PyArrayObject *arr, PyDtTensor *tensor, dt_device dev)
{
    dt_error err;
    dt_status st;
    PyObject *held = NULL;
    if (arr != NULL) {
        held = dt_py_tensor_from_ndarray(arr);
        if (held == NULL) {
            PyErr_Clear();
            return 0;
        }
        tensor = (PyDtTensor *)held;
    }
    const dt_tensor *t = &tensor->t;
    dt_device d = dt_tensor_device(t);
    if (t->dtype == DT_INT64 && d.type == dev.type && d.index == dev.index)
        st = dt_tensor_init_view(out, t->storage, t->offset, t->ndim, t->shape, t->strides, DT_INT64, &err);
    else
        st = dt_tensor_to(out, t, dev, DT_INT64, 0, &err);
    Py_XDECREF(held);
    return st == DT_OK;
}

/* NumPy's broadcast of the index shapes into p->b_shape; 0 if they do not
 * broadcast or B has too many axes. */
static int broadcast_indices(adv_plan *p)
{
    int nd = 0;
    for (int j = 0; j < p->nidx; j++)
        if (p->idx[j].index.ndim > nd)
            nd = p->idx[j].index.ndim;
    for (int i = 0; i < nd; i++)
        p->b_shape[i] = 1;
    for (int j = 0; j < p->nidx; j++) {
        const dt_tensor *t = &p->idx[j].index;
        for (int i = 0; i < t->ndim; i++) {
            int64_t n = t->shape[i], *b = &p->b_shape[nd - t->ndim + i];
            if (n != *b && *b != 1 && n != 1)
                return 0;
            if (*b == 1)
                *b = n;
        }
    }
    p->b_ndim = nd;
    return 1;
}

/* A view of t (int64, shape a suffix-broadcastable to B) over B. */
static int broadcast_view(dt_tensor *out, const dt_tensor *t, int ndim, const int64_t *shape)
{
    int64_t strides[DT_MAX_NDIM];
    for (int i = 0; i < ndim; i++) {
        int k = i - (ndim - t->ndim);
        strides[i] = k < 0 || t->shape[k] != shape[i] ? 0 : t->strides[k];
    }
    dt_error err;
    return dt_tensor_init_view(out, t->storage, t->offset, ndim, shape, strides, t->dtype, &err) == DT_OK;
}

/* W from V: each mask's axes [a, a + k) merged into one, when the mask has
 * their shape, none is empty and their strides are C order's. */
static int merge_masks(adv_plan *p, int v_ndim, const int64_t *v_shape, const int64_t *v_strides)
{
    int w = 0, next = 0; /* the next indexed axis; they come in V-axis order */
    for (int v = 0; v < v_ndim; v++, w++) {
        p->w_shape[w] = v_shape[v];
        p->w_strides[w] = v_strides[v];
        if (next == p->nidx || p->idx[next].w_axis != v)
            continue;
        indexed_axis *ia = &p->idx[next++];
        ia->w_axis = w;
        if (ia->mask == NULL)
            continue;
        const dt_tensor *m = &ia->mask->t;
        int64_t length = 1;
        for (int j = 0; j < ia->mask_ndim; j++) {
            int64_t n = v_shape[v + j];
            if (m->shape[j] != n || n == 0 ||
                (j + 1 < ia->mask_ndim && v_strides[v + j] != v_strides[v + j + 1] * v_shape[v + j + 1]))
                return 0;
            length *= n; /* V's elements are x's: the product fits */
        }
        p->w_shape[w] = length;
        p->w_strides[w] = v_strides[v + ia->mask_ndim - 1];
        v += ia->mask_ndim - 1;
    }
    p->w_ndim = w;
    return 1;
}

/* Resolve key for x into p: 1 done, 0 not handled (no exception set;
 * p holds no references then).  allow_masks 0: a mask is not handled. */
static int resolve(PyDtTensor *x, PyObject *key, int allow_masks, adv_plan *p)
{
    dt_device dev = dt_tensor_device(&x->t);
    Py_ssize_t n = PyTuple_Check(key) ? PyTuple_GET_SIZE(key) : 1;
    if (n > DT_MAX_INDEX_ITEMS || !keys_in_c)
        return 0;
    int kinds[DT_MAX_INDEX_ITEMS];
    dt_index_item items[DT_MAX_INDEX_ITEMS];
    PyArrayObject *arrays[DT_MAX_INDEX_ITEMS];
    PyDtTensor *tensors[DT_MAX_INDEX_ITEMS];
    int consumed = 0, ellipses = 0, narr = 0;
    memset(p, 0, offsetof(adv_plan, idx));
    p->nidx = 0;
    int ok = 1;
    Py_ssize_t i;
    for (i = 0; i < n && ok; i++) {
        PyObject *o = PyTuple_Check(key) ? PyTuple_GET_ITEM(key, i) : key;
        arrays[i] = NULL;
        tensors[i] = NULL;
        int r = dt_py_index_parse_item(o, &items[i]);
        if (r < 0) {
            PyErr_Clear();
            ok = 0;
        } else if (r > 0) {
            dt_index_kind k = items[i].kind;
            ok = k != DT_INDEX_UNREADABLE && k != DT_INDEX_NOT_AN_INDEX;
            kinds[i] = k == DT_INDEX_INTEGER ? ITEM_INT : ITEM_BASIC;
            consumed += k == DT_INDEX_INTEGER || k == DT_INDEX_SLICE;
            ellipses += k == DT_INDEX_ELLIPSIS;
        } else if (DtTensor_Check(o) && ((PyDtTensor *)o)->t.dtype == DT_BOOL) {
            const dt_tensor *m = &((PyDtTensor *)o)->t;
            dt_device d = dt_tensor_device(m);
            ok = allow_masks && m->ndim > 0 && d.type == dev.type && d.index == dev.index && dt_tensor_is_contiguous(m);
            kinds[i] = ITEM_MASK;
            tensors[i] = (PyDtTensor *)o;
            consumed += m->ndim;
            narr++;
        } else {
            ok = integer_array(o, dev, &arrays[i], &tensors[i]);
            kinds[i] = ITEM_ARRAY;
            consumed++;
            narr++;
        }
    }
    n = i;
    ok = ok && narr > 0 && narr <= DT_MAX_NDIM && ellipses <= 1 && consumed <= x->t.ndim;
    /* V's key: arrays and masks become full slices; their V and x axes */
    dt_index_item vkey[DT_MAX_INDEX_ITEMS];
    int nv = 0, v_axis = 0, x_axis = 0, n_ell = x->t.ndim - consumed;
    for (i = 0; i < n && ok; i++) {
        int width = kinds[i] == ITEM_MASK ? tensors[i]->t.ndim : 1;
        if (kinds[i] == ITEM_BASIC || kinds[i] == ITEM_INT) {
            dt_index_kind k = items[i].kind;
            v_axis += k == DT_INDEX_SLICE || k == DT_INDEX_NEWAXIS ? 1 : k == DT_INDEX_ELLIPSIS ? n_ell : 0;
            x_axis += k == DT_INDEX_SLICE || k == DT_INDEX_INTEGER ? 1 : k == DT_INDEX_ELLIPSIS ? n_ell : 0;
            if (nv == DT_MAX_INDEX_ITEMS)
                ok = 0;
            else
                vkey[nv++] = items[i];
            continue;
        }
        indexed_axis *ia = &p->idx[p->nidx];
        ia->w_axis = v_axis; /* V's axis until merge_masks */
        ia->x_axis = x_axis;
        ia->key_pos = (int)i;
        ia->mask = kinds[i] == ITEM_MASK ? tensors[i] : NULL;
        ia->mask_ndim = width;
        dt_tensor_init_empty(&ia->index);
        p->nidx++;
        v_axis += width;
        x_axis += width;
        for (int j = 0; j < width && ok; j++) {
            if (nv == DT_MAX_INDEX_ITEMS) {
                ok = 0;
                break;
            }
            dt_index_item full = {DT_INDEX_SLICE, 0, PY_SSIZE_T_MAX, 1};
            vkey[nv++] = full;
        }
    }
    int v_ndim = 0;
    int64_t v_shape[DT_MAX_NDIM], v_strides[DT_MAX_NDIM];
    dt_error err;
    ok = ok && dt_index_basic(x->t.ndim, x->t.shape, x->t.strides, vkey, nv, &v_ndim, v_shape, v_strides,
                              &p->w_offset, &err) == DT_OK;
    ok = ok && merge_masks(p, v_ndim, v_shape, v_strides);
    /* the index tensors, on the device */
    for (int j = 0; j < p->nidx && ok; j++) {
        indexed_axis *ia = &p->idx[j];
        if (ia->mask != NULL) {
            dt_status st;
            DT_PY_TENSOR_WORK(!dt_py_small_cpu_work(&ia->mask->t, ia->mask->t.numel),
                              st = dt_index_nonzero(&ia->index, &ia->mask->t, &err));
            ok = st == DT_OK;
        } else {
            ok = upload_index(&ia->index, arrays[ia->key_pos], tensors[ia->key_pos], dev);
        }
    }
    for (i = 0; i < n; i++)
        Py_XDECREF(arrays[i]);
    ok = ok && broadcast_indices(p);
    if (!ok) {
        plan_clear(p);
        return 0;
    }
    /* NumPy's placement: B where the advanced items (integers included)
     * stand, if they stand next to each other in the key; else first */
    int first = -1, last = -1, count = 0;
    for (i = 0; i < n; i++)
        if (kinds[i] != ITEM_BASIC) {
            first = first < 0 ? (int)i : first;
            last = (int)i;
            count++;
        }
    int together = last - first + 1 == count;
    p->b_start = together ? p->idx[0].w_axis : 0;
    /* R: the non-indexed W axes around B, B's axes with stride 0 */
    int r = 0, j = 0;
    if (p->w_ndim - p->nidx + p->b_ndim > DT_MAX_NDIM) {
        plan_clear(p);
        return 0;
    }
    for (int w = 0; w <= p->w_ndim; w++) {
        if (r == p->b_start && j == 0) {
            for (int b = 0; b < p->b_ndim; b++, r++) {
                p->r_shape[r] = p->b_shape[b];
                p->r_strides[r] = 0;
            }
            j = 1;
        }
        if (w == p->w_ndim)
            break;
        int indexed = 0;
        for (int k = 0; k < p->nidx; k++)
            indexed |= p->idx[k].w_axis == w;
        if (!indexed) {
            p->r_shape[r] = p->w_shape[w];
            p->r_strides[r++] = p->w_strides[w];
        }
    }
    p->r_ndim = r;
    return 1;
}

/* The indexed axes in the core's form: each index broadcast to B (views
 * in views[], cleared by the caller). */
static int axes_of(adv_plan *p, dt_index_axis *ax, dt_tensor *views)
{
    for (int j = 0; j < p->nidx; j++) {
        if (!broadcast_view(&views[j], &p->idx[j].index, p->b_ndim, p->b_shape))
            return 0;
        ax[j].index = &views[j];
        ax[j].length = p->w_shape[p->idx[j].w_axis];
        ax[j].stride = p->w_strides[p->idx[j].w_axis];
        ax[j].axis = p->idx[j].x_axis;
    }
    return 1;
}

static void init_all(dt_tensor *ts, int n)
{
    for (int j = 0; j < n; j++)
        dt_tensor_init_empty(&ts[j]);
}

static void clear_all(dt_tensor *ts, int n)
{
    for (int j = 0; j < n; j++)
        dt_tensor_clear(&ts[j]);
}

/* x seen over R: W's non-indexed axes around B, B's with stride 0 */
static int r_view(dt_tensor *out, const PyDtTensor *x, const adv_plan *p)
{
    dt_error err;
    return dt_tensor_init_view(out, x->t.storage, x->t.offset + p->w_offset, p->r_ndim, p->r_shape, p->r_strides,
                               x->t.dtype, &err) == DT_OK;
}

PyObject *dt_py_advanced_getitem(PyDtTensor *x, PyObject *key, int *handled)
{
    adv_plan p;
    *handled = resolve(x, key, 1, &p);
    if (!*handled)
        return NULL;
    dt_index_axis ax[DT_MAX_NDIM];
    dt_tensor views[DT_MAX_NDIM], src, out;
    init_all(views, p.nidx);
    dt_tensor_init_empty(&src);
    dt_tensor_init_empty(&out);
    dt_error err;
    dt_status st = DT_OK;
    if (!axes_of(&p, ax, views) || !r_view(&src, x, &p)) {
        *handled = 0; /* a geometry the checks above should have refused: Python says why */
    } else if ((st = dt_tensor_init_new(&out, dt_tensor_device(&x->t), x->t.dtype, p.r_ndim, p.r_shape, &err)) ==
               DT_OK) {
        DT_PY_TENSOR_WORK(!dt_py_small_cpu_work(&out, out.numel),
                          st = dt_index_take(&out, &src, p.b_start, p.nidx, ax, &err));
    }
    clear_all(views, p.nidx);
    dt_tensor_clear(&src);
    plan_clear(&p);
    if (!*handled || st != DT_OK) {
        dt_tensor_clear(&out);
        return *handled ? dt_py_raise(&err) : NULL;
    }
    return dt_py_tensor_wrap(&out);
}

/* value as a tensor of x's dtype on x's device viewed over R (in *vals,
 * with *held the scalar's storage); 0 if Python must do it. */
static int values_of(PyDtTensor *x, PyObject *value, const adv_plan *p, dt_tensor *vals, dt_tensor *held)
{
    dt_weak_kind kind;
    dt_error err;
    const dt_tensor *v;
    if (dt_py_scalar_kind(value, &kind)) {
        dt_gen gen;
        memset(&gen, 0, sizeof gen);
        gen.kind = DT_GEN_FILL;
        if (dt_py_scalar_to_bytes(value, x->t.dtype, gen.value.bytes) < 0) {
            PyErr_Clear(); /* Python's path raises NumPy's error */
            return 0;
        }
        int64_t no_dims[1] = {0}; /* a 0-d tensor: the core copies zero dims from here */
        if (dt_tensor_init_new(held, dt_tensor_device(&x->t), x->t.dtype, 0, no_dims, &err) != DT_OK ||
            dt_tensor_generate(held, &gen, &err) != DT_OK)
            return 0;
        v = held;
    } else if (DtTensor_Check(value)) { /* (with a mask, resolve refused the key: NumPy has rules for it) */
        v = &((PyDtTensor *)value)->t;
        dt_device d = dt_tensor_device(v), dev = dt_tensor_device(&x->t);
        if (v->dtype != x->t.dtype || d.type != dev.type || d.index != dev.index || v->ndim > p->r_ndim)
            return 0;
        for (int i = 0; i < v->ndim; i++) {
            int r = p->r_ndim - v->ndim + i;
            if (v->shape[i] != p->r_shape[r] && v->shape[i] != 1)
                return 0;
        }
    } else {
        return 0;
    }
    return broadcast_view(vals, v, p->r_ndim, p->r_shape);
}

/* Note [Claim slots] in devtensor._advanced: a sparse view goes to Python. */
static int dense_enough(const adv_plan *p, const dt_tensor *x)
{
    int64_t span = 0, size = 1, itemsize = dt_tensor_itemsize(x);
    for (int w = 0; w < p->w_ndim; w++) {
        if (p->w_shape[w] == 0)
            return 1;
        int64_t s = p->w_strides[w] < 0 ? -p->w_strides[w] : p->w_strides[w];
        span += (p->w_shape[w] - 1) * s / itemsize; /* within the storage: no overflow */
        size *= p->w_shape[w];
    }
    return span + 1 <= 4 * size + 1024;
}

int dt_py_advanced_setitem(PyDtTensor *x, PyObject *key, PyObject *value, int *handled)
{
    adv_plan p;
    dt_error err;
    dt_weak_kind kind;
    *handled = 0;
    if (dt_tensor_check_writeable(&x->t, &err) != DT_OK || !resolve(x, key, dt_py_scalar_kind(value, &kind), &p))
        return 0;
    dt_index_axis ax[DT_MAX_NDIM];
    dt_tensor views[DT_MAX_NDIM], dst, vals, held;
    init_all(views, p.nidx);
    dt_tensor_init_empty(&dst);
    dt_tensor_init_empty(&vals);
    dt_tensor_init_empty(&held);
    dt_status st = DT_OK;
    *handled = dense_enough(&p, &x->t) && axes_of(&p, ax, views) &&
               values_of(x, value, &p, &vals, &held) && r_view(&dst, x, &p);
    if (*handled) {
        DT_PY_TENSOR_WORK(!dt_py_small_cpu_work(&dst, dst.numel > vals.numel ? dst.numel : vals.numel),
                          st = dt_index_put(&dst, &vals, p.b_start, p.nidx, ax, &err));
    }
    clear_all(views, p.nidx);
    dt_tensor_clear(&dst);
    dt_tensor_clear(&vals);
    dt_tensor_clear(&held);
    plan_clear(&p);
    if (*handled && st != DT_OK) {
        dt_py_raise(&err);
        return -1;
    }
    return 0;
}
