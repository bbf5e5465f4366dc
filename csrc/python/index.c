/* index.c - Tensor.__getitem__ and __setitem__ (the mapping slots of
 * TensorBase) and TensorBase._index_basic.
 *
 * Note [Indexing in C]
 * A key made only of Python ints, NumPy integers, slices, None and Ellipsis
 * (alone or in a tuple) is parsed here and becomes a view through the core's
 * dt_index_basic (csrc/core/index.c), with no Python code on the way: the
 * common t[3], t[1:5], t[:, None] and t[1] = 2 cost about what NumPy's do.
 * An advanced key on a CPU tensor that NumPy would index as fast as our
 * kernels goes to NumPy from here (Note [Small advanced keys on the CPU]).
 * A 0-d integer CPU tensor is an integer here too (Note [0-d integer
 * keys]).  Every other key -- device tensors, other 0-d tensors, other
 * objects with __index__, bad keys -- goes to devtensor._views,
 * which normalises what is basic (through _index_basic, so the rules live
 * once, in the core) and runs advanced indexing.  Assigning a Python
 * scalar to a basic key fills the view here; other values go to
 * _views.assign with the view.
 */
#include "pydt.h"

#include "cpu_parallel.h"
#include "index.h"

#include <string.h>

/* A NumPy integer scalar's value (np.int64(3) indexes as 3); *overflow
 * set for a uint64 beyond int64. */
static long long index_of_numpy_integer(PyObject *o, int *overflow)
{
    PyObject *v = PyNumber_Index(o);
    if (v == NULL)
        return -1;
    long long r = PyLong_AsLongLongAndOverflow(v, overflow);
    Py_DECREF(v);
    return r;
}

/* 1 if o is a basic item this file handles (stored in *it), 0 if Python
 * must look at it, -1 with an exception (a slice with bad bounds). */
int dt_py_index_parse_item(PyObject *o, dt_index_item *it)
{
    if (o == Py_None) {
        it->kind = DT_INDEX_NEWAXIS;
        return 1;
    }
    if (o == Py_Ellipsis) {
        it->kind = DT_INDEX_ELLIPSIS;
        return 1;
    }
    if (PySlice_Check(o)) {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(o, &start, &stop, &step) < 0) {
            it->kind = DT_INDEX_UNREADABLE; /* Note [Unreadable slices] */
            return 1;
        }
        it->kind = DT_INDEX_SLICE;
        it->start = start;
        it->stop = stop;
        it->step = step;
        return 1;
    }
    if (PyLong_CheckExact(o) || PyArray_IsScalar(o, Integer)) { /* not bool, which indexes as a mask */
        int overflow;
        long long v = PyLong_CheckExact(o) ? PyLong_AsLongLongAndOverflow(o, &overflow)
                                           : index_of_numpy_integer(o, &overflow);
        if (overflow > 0 && PyLong_CheckExact(o)) { /* NumPy's error for 2**63 <= o < 2**64 */
            PyLong_AsUnsignedLongLong(o);
            if (!PyErr_Occurred())
                overflow = 2;
            PyErr_Clear();
        }
        if (overflow != 0 && (!PyLong_CheckExact(o) || overflow == 2)) { /* and for np.uint64(2**64 - 1) */
            PyErr_SetString(PyExc_OverflowError, "Python int too large to convert to C long");
            return -1;
        }
        if (overflow != 0) {
            it->kind = DT_INDEX_NOT_AN_INDEX; /* refused in order by the core */
            return 1;
        }
        if (v == -1 && PyErr_Occurred())
            return -1;
        it->kind = DT_INDEX_INTEGER;
        it->start = v;
        return 1;
    }
    /* Note [0-d integer keys]
     * NumPy indexes with a 0-d integer array as with its value (a basic
     * index: K[i] is a view), and so did devtensor._views; but code such as
     * K[tris[e, a], tris[e, b]] += Ke or dist[u] with u = argmin(...) paid
     * 2-7 us of Python a call for it (18-24x NumPy's).  A CPU tensor's value
     * is read here instead; a device tensor's needs a transfer, which the
     * transfer guard governs, so it still goes to Python. */
    if (DtTensor_Check(o)) {
        const dt_tensor *t = &((PyDtTensor *)o)->t;
        if (t->ndim != 0 || !dt_dtype_is_integral(t->dtype) || dt_tensor_device(t).type != DT_DEVICE_CPU)
            return 0;
        PyObject *v = dt_py_tensor_item((PyDtTensor *)o, NULL);
        if (v == NULL)
            return -1;
        int overflow;
        long long value = PyLong_AsLongLongAndOverflow(v, &overflow);
        Py_DECREF(v);
        if (overflow != 0) /* a uint64 past int64: Python's error path */
            return 0;
        it->kind = DT_INDEX_INTEGER;
        it->start = value;
        return 1;
    }
    return 0;
}

/* Note [Unreadable slices]
 * NumPy counts a key's items before it reads any slice, so
 * zeros(())[::0] is "too many indices", not "slice step cannot be zero".
 * A slice PySlice_Unpack refuses is kept as DT_INDEX_UNREADABLE (its
 * error cleared); the core counts it as a slice and stops when it reaches
 * the first one, which is then unpacked again to raise its error. */
typedef struct {
    dt_index_item items[DT_MAX_INDEX_ITEMS];
    int n;
    PyObject *unreadable; /* borrowed from the key: the first unreadable slice */
} parsed_key;

static int parse_one(PyObject *o, parsed_key *k, int i)
{
    int r = dt_py_index_parse_item(o, &k->items[i]);
    if (r > 0 && k->items[i].kind == DT_INDEX_UNREADABLE) {
        PyErr_Clear();
        if (k->unreadable == NULL)
            k->unreadable = o;
    }
    return r;
}

/* 1 with k filled for a basic key, 0 for a key Python must handle, -1 on
 * error (NumPy refuses a tuple longer than DT_MAX_INDEX_ITEMS outright). */
static int parse_key(PyObject *key, parsed_key *k)
{
    k->unreadable = NULL;
    if (!PyTuple_Check(key)) {
        k->n = 1;
        return parse_one(key, k, 0);
    }
    Py_ssize_t len = PyTuple_GET_SIZE(key);
    if (len > DT_MAX_INDEX_ITEMS) {
        PyErr_SetString(PyExc_IndexError, "too many indices for array");
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        int r = parse_one(PyTuple_GET_ITEM(key, i), k, (int)i);
        if (r <= 0)
            return r;
    }
    k->n = (int)len;
    return 1;
}

/* The view self[k] selects (basic k), as a tensor on self's storage with
 * self's flags; 0, or -1 with an exception. */
static int basic_view_of(PyDtTensor *self, const parsed_key *k, dt_tensor *v)
{
    int64_t shape[DT_MAX_NDIM], strides[DT_MAX_NDIM], offset;
    int ndim;
    dt_error err;
    dt_tensor_init_empty(v);
    if (dt_index_basic(self->t.ndim, self->t.shape, self->t.strides, k->items, k->n, &ndim, shape, strides,
                       &offset, &err) != DT_OK) {
        Py_ssize_t start, stop, step;
        if (err.status == DT_ERR_VALUE && k->unreadable != NULL &&
            PySlice_Unpack(k->unreadable, &start, &stop, &step) < 0) /* Note [Unreadable slices] */
            return -1;
        dt_py_raise(&err);
        return -1;
    }
    if (dt_tensor_init_view(v, self->t.storage, self->t.offset + offset, ndim, shape, strides, self->t.dtype,
                            &err) != DT_OK) {
        dt_tensor_clear(v);
        dt_py_raise(&err);
        return -1;
    }
    v->flags |= self->t.flags; /* a view of read-only memory is read-only */
    return 0;
}

static PyObject *basic_view(PyDtTensor *self, const parsed_key *k)
{
    dt_tensor v;
    return basic_view_of(self, k, &v) < 0 ? NULL : dt_py_tensor_wrap(&v);
}

/* Note [An element is a copy]
 * NumPy's a[i, j] -- an integer for every axis, no Ellipsis, no None -- is
 * a scalar, a copy of the element; a 0-d view there (PyTorch's and CuPy's
 * answer) silently changes what NumPy programs compute: the swap
 * a[0], a[2] = a[2], a[0] writes one value twice, `s = a[0]; s += v`
 * changes a[0], and a history list of p[0] holds one value many times.
 * So getitem of such a key is a 0-d tensor holding a copy of the element,
 * on the tensor's device (a one-element copy there, no transfer).  Setitem
 * of the same key still writes into the tensor, and a[i, ...] (Ellipsis)
 * is NumPy's 0-d view.  The copy carries DT_TENSOR_ELEMENT_COPY: PyTorch
 * code's v[0].zero_() would change nothing silently, so PyTorch's in-place
 * methods warn on it (_torch_methods.py). */
static int selects_an_element(const PyDtTensor *self, const parsed_key *k)
{
    if (k->n != self->t.ndim)
        return 0;
    for (int i = 0; i < k->n; i++)
        if (k->items[i].kind != DT_INDEX_INTEGER)
            return 0;
    return 1;
}

/* A 0-d tensor holding a copy of the element offset bytes into the CPU
 * tensor self. */
static PyObject *cpu_element(PyDtTensor *self, int64_t offset)
{
    dt_tensor c;
    dt_error err;
    if (dt_tensor_init_new(&c, dt_tensor_device(&self->t), self->t.dtype, 0, NULL, &err) != DT_OK)
        return dt_py_raise(&err);
    memcpy(dt_tensor_data(&c), (char *)dt_tensor_data(&self->t) + offset, (size_t)dt_tensor_itemsize(&c));
    c.flags |= DT_TENSOR_ELEMENT_COPY;
    return dt_py_tensor_wrap(&c);
}

PyObject *dt_py_tensor_row(PyDtTensor *self, int64_t i)
{
    int own_getitem = Py_TYPE(self)->tp_as_mapping->mp_subscript == (binaryfunc)dt_py_tensor_subscript;
    if (own_getitem && self->t.ndim == 1 && dt_tensor_device(&self->t).type == DT_DEVICE_CPU)
        return cpu_element(self, i * self->t.strides[0]);
    PyObject *key = PyLong_FromLongLong(i);
    if (key == NULL)
        return NULL;
    PyObject *r = PyObject_GetItem((PyObject *)self, key); /* a subclass's __getitem__ too */
    Py_DECREF(key);
    return r;
}

static PyObject *element_copy(PyDtTensor *self, const parsed_key *k)
{
    dt_tensor v, c;
    dt_error err;
    if (dt_tensor_device(&self->t).type == DT_DEVICE_CPU) { /* the element's bytes, without a view first */
        int64_t shape[DT_MAX_NDIM], strides[DT_MAX_NDIM], offset;
        int ndim;
        if (dt_index_basic(self->t.ndim, self->t.shape, self->t.strides, k->items, k->n, &ndim, shape, strides,
                           &offset, &err) != DT_OK)
            return dt_py_raise(&err);
        return cpu_element(self, offset);
    }
    if (basic_view_of(self, k, &v) < 0)
        return NULL;
    dt_status st = dt_py_same_device_copy(&v, v.dtype, &c, &err);
    dt_tensor_clear(&v);
    if (st != DT_OK)
        return dt_py_raise(&err);
    c.flags |= DT_TENSOR_ELEMENT_COPY;
    return dt_py_tensor_wrap(&c);
}

/* Note [The element fast path]
 * t[i] of a 1-d tensor and t[i, j] with a Python int for every axis are
 * most of the getitem calls of a NumPy program's loops.  For a CPU tensor
 * the element's offset is computed here, without parsing the key into
 * items first; a key with anything else in it, or an index out of range,
 * goes the general way, which raises NumPy's errors. */
static int element_offset(const dt_tensor *t, PyObject *key, int64_t *offset)
{
    PyObject *const *items = &key;
    Py_ssize_t n = 1;
    if (PyTuple_CheckExact(key)) {
        n = PyTuple_GET_SIZE(key);
        items = ((PyTupleObject *)key)->ob_item;
    }
    if (n != t->ndim)
        return 0;
    int64_t off = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int overflow;
        if (!PyLong_CheckExact(items[i]))
            return 0;
        long long v = PyLong_AsLongLongAndOverflow(items[i], &overflow);
        if (overflow != 0)
            return 0;
        if (v < 0)
            v += t->shape[i];
        if (v < 0 || v >= t->shape[i])
            return 0;
        off += v * t->strides[i]; /* inside the tensor: no overflow */
    }
    *offset = off;
    return 1;
}

/* Note [Small advanced keys on the CPU]
 * For a CPU tensor, devtensor._views would hand an advanced key to NumPy
 * anyway (Note [Big indices on the CPU]) -- after microseconds of Python.
 * So the same decision is made here: when self and every array in the key
 * are CPU arrays NumPy has, no array is 0-d (an integer, which _views
 * indexes as a view) and none is big enough for the CPU kernels, self and
 * the key's tensors become NumPy arrays sharing their memory and NumPy
 * indexes them; its result and errors are the Python path's, at close to
 * NumPy's cost.  Anything else returns 0 and goes to Python. */
static Py_ssize_t cpu_kernels_from = (Py_ssize_t)1 << 16; /* Note [Big indices on the CPU] */

static int numpy_has(const PyDtTensor *t)
{
    return dt_tensor_device(&t->t).type == DT_DEVICE_CPU && t->t.dtype != DT_BFLOAT16;
}

/* _cpu_index_kernels_from([n]): the key size from which CPU tensors use the
 * index kernels (with more than one thread); 0 sends every advanced key on
 * the CPU to them (the tests' kernel variant).  Returns the previous value. */
PyObject *dt_py_cpu_index_kernels_from(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    Py_ssize_t before = cpu_kernels_from;
    if (nargs > 1)
        return PyErr_Format(PyExc_TypeError, "_cpu_index_kernels_from takes at most 1 argument");
    if (nargs == 1) {
        Py_ssize_t n = PyNumber_AsSsize_t(args[0], PyExc_OverflowError);
        if (n == -1 && PyErr_Occurred())
            return NULL;
        if (n < 0)
            return PyErr_Format(PyExc_ValueError, "_cpu_index_kernels_from: n must be >= 0");
        cpu_kernels_from = n;
    }
    return PyLong_FromSsize_t(before);
}

/* An item of an advanced key as NumPy takes it: a new reference in *out
 * and 1, 0 if Python must see the key, -1 on error. */
static int numpy_key_item(PyObject *o, int threaded, PyObject **out)
{
    if (DtTensor_Check(o)) {
        PyDtTensor *t = (PyDtTensor *)o;
        if (!numpy_has(t) || t->t.ndim == 0 || (threaded && t->t.numel >= cpu_kernels_from))
            return 0;
        *out = dt_py_tensor_to_ndarray(t);
        return *out == NULL ? -1 : 1;
    }
    if (PyArray_Check(o)) {
        PyArrayObject *a = (PyArrayObject *)o;
        if (PyArray_NDIM(a) == 0 || (threaded && PyArray_SIZE(a) >= cpu_kernels_from))
            return 0;
    } else if (!(PyList_CheckExact(o) || PyRange_Check(o) || PyBool_Check(o) || PyArray_IsScalar(o, Bool) || o == Py_None ||
                 o == Py_Ellipsis || PySlice_Check(o) || PyLong_CheckExact(o) || PyArray_IsScalar(o, Integer))) {
        return 0;
    }
    *out = Py_NewRef(o);
    return 1;
}

/* The key with its CPU tensors as NumPy arrays, or NULL: *ok 0 if Python
 * must see it (or on error, with an exception set). */
static PyObject *numpy_key(PyObject *key, int *ok)
{
    int threaded = dt_cpu_get_num_threads() > 1;
    PyObject *item = NULL;
    *ok = 0;
    if (cpu_kernels_from == 0)
        return NULL;
    if (!PyTuple_CheckExact(key)) {
        int r = numpy_key_item(key, threaded, &item);
        *ok = r > 0;
        return r > 0 ? item : NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(key);
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        int r = numpy_key_item(PyTuple_GET_ITEM(key, i), threaded, &item);
        if (r <= 0) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, item);
    }
    *ok = 1;
    return tuple;
}

/* self[key] through NumPy; NULL with *handled 0 if Python must do it. */
static PyObject *numpy_getitem(PyDtTensor *self, PyObject *key, int *handled)
{
    *handled = 0;
    if (!numpy_has(self))
        return NULL;
    int ok;
    PyObject *nkey = numpy_key(key, &ok);
    if (!ok)
        return NULL; /* an error set while converting is raised by the caller */
    *handled = 1;
    PyObject *arr = dt_py_tensor_to_ndarray(self), *res = NULL;
    if (arr != NULL) {
        PyObject *r = PyObject_GetItem(arr, nkey);
        if (r != NULL && PyArray_Check(r))
            res = dt_py_tensor_from_ndarray((PyArrayObject *)r);
        else if (r != NULL)
            PyErr_SetString(PyExc_SystemError, "NumPy's advanced indexing returned a non-array");
        Py_XDECREF(r);
        Py_DECREF(arr);
    }
    Py_DECREF(nkey);
    return res;
}

/* Note [Row gathers on the CPU]
 * t[idx], with idx a 1-d array of int64 or int32 (a CPU tensor or a NumPy
 * array) and t a C-contiguous CPU tensor -- a batch drawn by index, an
 * embedding lookup -- is the advanced key programs use most.  Its rows are
 * copied here, after NumPy's bounds check with NumPy's IndexError, at
 * about NumPy's cost: the NumPy route of Note [Small advanced keys on the
 * CPU] spent three array conversions on it (320 ns where NumPy takes 95 for
 * three of 16 float64).  Keys as big as the threaded kernels take (Note
 * [Big indices on the CPU]) still go there.  A 1-d bool mask as long as
 * axis 0 (t[t_mask], rows kept where it is true) is done here too, and so
 * is the scatter of a Python scalar into the rows of either key (t[idx] =
 * 0, t[mask] = 0.0), with NumPy's checks of the value (Note [Storing a
 * float in an integer] in number.c), the bounds checked before any write. */
typedef struct row_key {
    const char *p;          /* the key's first element */
    int64_t n, stride;      /* its length and byte stride */
    int wide, mask;         /* int64 (else int32) indices; a bool mask */
} row_key;

/* element i of a 1-d int64 (wide) or int32 index */
static int64_t index_at(const row_key *k, int64_t i)
{
    if (k->wide) {
        int64_t v;
        memcpy(&v, k->p + i * k->stride, sizeof v);
        return v;
    }
    int32_t v32;
    memcpy(&v32, k->p + i * k->stride, sizeof v32);
    return v32;
}

/* 1 if key is a 1-d key of rows of t done here (above), 0 if not */
static int row_key_of(const dt_tensor *t, PyObject *key, row_key *k)
{
    if (DtTensor_Check(key)) {
        const dt_tensor *kt = &((PyDtTensor *)key)->t;
        if (dt_tensor_device(kt).type != DT_DEVICE_CPU || kt->ndim != 1 ||
            (kt->dtype != DT_INT64 && kt->dtype != DT_INT32 && kt->dtype != DT_BOOL))
            return 0;
        k->p = dt_tensor_data(kt), k->n = kt->shape[0], k->stride = kt->strides[0];
        k->wide = kt->dtype == DT_INT64, k->mask = kt->dtype == DT_BOOL;
    } else if (PyArray_CheckExact(key)) {
        PyArrayObject *a = (PyArrayObject *)key;
        int kind = PyArray_DESCR(a)->kind, size = (int)PyArray_ITEMSIZE(a);
        k->mask = kind == 'b';
        if (PyArray_NDIM(a) != 1 || !(k->mask || (kind == 'i' && (size == 8 || size == 4) && PyArray_ISNOTSWAPPED(a))))
            return 0;
        k->p = PyArray_BYTES(a), k->n = PyArray_DIM(a, 0), k->stride = PyArray_STRIDE(a, 0), k->wide = size == 8;
    } else {
        return 0;
    }
    return dt_tensor_device(t).type == DT_DEVICE_CPU && t->ndim >= 1 && dt_tensor_is_contiguous(t) &&
           cpu_kernels_from != 0 && !(dt_cpu_get_num_threads() > 1 && k->n >= cpu_kernels_from) &&
           !(k->mask && k->n != t->shape[0]); /* a mask of another length: NumPy's IndexError */
}

/* whether row i of the key selects a row (a mask), and which: the row, or
 * -1 past the key's rows */
static int64_t selected_row(const row_key *k, int64_t i, int64_t size)
{
    if (k->mask)
        return k->p[i * k->stride] != 0 ? i : -1; /* any non-zero byte, as NumPy reads a bool */
    int64_t v = index_at(k, i);
    return v < 0 ? v + size : v;
}

/* NumPy's IndexError for the first index of k out of [-size, size), or 0 */
static int check_rows(const row_key *k, int64_t size)
{
    for (int64_t i = 0; i < k->n && !k->mask; i++) {
        int64_t v = index_at(k, i);
        if (v < -size || v >= size) {
            PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for axis 0 with size %lld", (long long)v,
                         (long long)size);
            return -1;
        }
    }
    return 0;
}

/* t's rows (bytes each) and the shape of n of them; 0 if a size overflows */
static int row_shape(const dt_tensor *t, int64_t n, int64_t *row, int64_t *shape)
{
    int64_t bytes;
    *row = (int64_t)dt_tensor_itemsize(t);
    shape[0] = n;
    for (int d = 1; d < t->ndim; d++)
        if (__builtin_mul_overflow(*row, t->shape[d], row))
            return 0;
    memcpy(shape + 1, t->shape + 1, (size_t)(t->ndim - 1) * sizeof *shape);
    return !__builtin_mul_overflow(*row, n, &bytes);
}

static PyObject *take_rows(PyDtTensor *self, PyObject *key, int *handled)
{
    const dt_tensor *t = &self->t;
    row_key k;
    int64_t count = 0, row, shape[DT_MAX_NDIM], size = t->ndim > 0 ? t->shape[0] : 0;
    *handled = row_key_of(t, key, &k);
    if (!*handled)
        return NULL;
    if (check_rows(&k, size) < 0)
        return NULL;
    for (int64_t i = 0; i < k.n; i++)
        count += selected_row(&k, i, size) >= 0;
    if (!row_shape(t, count, &row, shape))
        return PyErr_Format(PyExc_ValueError, "array is too big");
    dt_tensor out;
    dt_error err;
    if (dt_tensor_init_new(&out, dt_device_cpu(), t->dtype, t->ndim, shape, &err) != DT_OK)
        return dt_py_raise(&err);
    char *dst = dt_tensor_data(&out);
    const char *src = dt_tensor_data(t);
    for (int64_t i = 0; i < k.n; i++) {
        int64_t r = selected_row(&k, i, size);
        if (r >= 0) {
            memcpy(dst, src + r * row, (size_t)row);
            dst += row;
        }
    }
    return dt_py_tensor_wrap(&out);
}

/* 1 if the key's bytes may lie in t's memory */
static int key_in(const row_key *k, const dt_tensor *t)
{
    uintptr_t lo, hi, first = (uintptr_t)k->p;
    uintptr_t span = (uintptr_t)((k->n - 1) * (k->stride < 0 ? -k->stride : k->stride));
    uintptr_t klo = k->stride < 0 ? first - span : first;
    uintptr_t khi = (k->stride < 0 ? first : first + span) + (k->mask ? 1 : k->wide ? 8 : 4);
    dt_tensor_byte_bounds(t, &lo, &hi);
    return k->n > 0 && klo < hi && lo < khi;
}

/* t[key] = value for a row key and a Python scalar: 1 done, 0 not this
 * kind, -1 on error (nothing written). */
static int put_rows(PyDtTensor *self, PyObject *key, PyObject *value)
{
    dt_tensor *t = &self->t;
    row_key k;
    dt_weak_kind kind;
    int64_t row, shape[DT_MAX_NDIM], size = t->ndim > 0 ? t->shape[0] : 0;
    if (!dt_py_scalar_kind(value, &kind) || !row_key_of(t, key, &k) || !row_shape(t, k.n, &row, shape) ||
        key_in(&k, t))
        return 0; /* a key in t's own memory (t[t] = 0) is read whole first: NumPy's route */
    dt_error err;
    unsigned char bytes[16];
    const int64_t item = (int64_t)dt_tensor_itemsize(t);
    if (dt_tensor_check_writeable(t, &err) != DT_OK) {
        dt_py_raise(&err);
        return -1;
    }
    if (check_rows(&k, size) < 0 || dt_py_scalar_to_bytes(value, t->dtype, bytes) < 0)
        return -1;
    char *base = dt_tensor_data(t);
    for (int64_t i = 0; i < k.n; i++) {
        int64_t r = selected_row(&k, i, size);
        for (int64_t e = 0; r >= 0 && e < row; e += item)
            memcpy(base + r * row + e, bytes, (size_t)item);
    }
    return 1;
}

PyObject *dt_py_tensor_subscript(PyDtTensor *self, PyObject *key)
{
    static PyObject *getitem;
    int64_t offset;
    if (dt_tensor_device(&self->t).type == DT_DEVICE_CPU && element_offset(&self->t, key, &offset))
        return cpu_element(self, offset); /* Note [The element fast path] */
    parsed_key k;
    int r = parse_key(key, &k), handled = 0;
    PyObject *res = NULL;
    if (r > 0)
        res = selects_an_element(self, &k) ? element_copy(self, &k) : basic_view(self, &k);
    else if (r == 0 && ((res = take_rows(self, key, &handled)) != NULL || handled))
        return res; /* Note [Row gathers on the CPU] */
    else if (r == 0 && ((res = numpy_getitem(self, key, &handled)) != NULL || handled || PyErr_Occurred()))
        return res;
    else if (r == 0 && dt_tensor_device(&self->t).type != DT_DEVICE_CPU &&
             ((res = dt_py_advanced_getitem(self, key, &handled)) != NULL || handled))
        return res; /* Note [Advanced keys in C] */
    else if (r == 0 && dt_py_lazy_function("devtensor._views", "getitem", &getitem) != NULL)
        res = PyObject_CallFunctionObjArgs(getitem, (PyObject *)self, key, NULL);
    return res;
}

/* t[i, j] = 2 on a CPU tensor: the element's bytes written in place, with
 * the checks of a fill (Note [Storing a float in an integer] in number.c);
 * 1 if done, 0 if the key or tensor is not of that kind, -1 on error. */
static int store_element(PyDtTensor *self, const parsed_key *k, PyObject *value)
{
    if (k->n != self->t.ndim || dt_tensor_device(&self->t).type != DT_DEVICE_CPU)
        return 0;
    for (int i = 0; i < k->n; i++)
        if (k->items[i].kind != DT_INDEX_INTEGER)
            return 0;
    int64_t shape[DT_MAX_NDIM], strides[DT_MAX_NDIM], offset;
    int ndim;
    dt_error err;
    if (dt_index_basic(self->t.ndim, self->t.shape, self->t.strides, k->items, k->n, &ndim, shape, strides,
                       &offset, &err) != DT_OK ||
        dt_tensor_check_writeable(&self->t, &err) != DT_OK) {
        dt_py_raise(&err);
        return -1;
    }
    unsigned char bytes[16];
    if (DtTensor_Check(value)) /* a 0-d CPU tensor of self's dtype (assign_basic) */
        memcpy(bytes, dt_tensor_data(&((PyDtTensor *)value)->t), (size_t)dt_tensor_itemsize(&self->t));
    else if (dt_py_scalar_to_bytes(value, self->t.dtype, bytes) < 0)
        return -1;
    memcpy(dt_tensor_data(&self->t) + offset, bytes, (size_t)dt_tensor_itemsize(&self->t));
    return 1;
}

/* value is a 0-d CPU tensor of self's dtype: t[i, j] = t[k, l] stores its
 * bytes as a Python scalar's (the element loops of NumPy programs). */
static int same_dtype_element(const PyDtTensor *self, PyObject *value)
{
    if (!DtTensor_Check(value))
        return 0;
    const dt_tensor *v = &((const PyDtTensor *)value)->t;
    return v->ndim == 0 && v->dtype == self->t.dtype && dt_tensor_device(v).type == DT_DEVICE_CPU;
}

/* 1 if src's shape broadcasts to dst's by NumPy's rules without dropping
 * leading axes of src (devtensor._views takes those, and the errors). */
static int broadcasts_to(const dt_tensor *src, const dt_tensor *dst)
{
    int extra = dst->ndim - src->ndim;
    if (extra < 0)
        return 0;
    for (int d = 0; d < src->ndim; d++)
        if (src->shape[d] != 1 && src->shape[d] != dst->shape[extra + d])
            return 0;
    return 1;
}

/* dst = self[k] (basic) and dst[...] = value: a Python scalar fills it
 * here, and so does a tensor that broadcasts to dst. */
static int assign_basic(PyDtTensor *self, const parsed_key *k, PyObject *value)
{
    static PyObject *assign;
    dt_weak_kind kind;
    if (dt_py_scalar_kind(value, &kind) || same_dtype_element(self, value)) {
        int r = store_element(self, k, value);
        if (r != 0)
            return r < 0 ? -1 : 0;
    }
    dt_tensor to;
    if (basic_view_of(self, k, &to) < 0)
        return -1;
    if (DtTensor_Check(value) && broadcasts_to(&((PyDtTensor *)value)->t, &to)) {
        /* what _views.assign does with a tensor it broadcasts without dropping axes, on a view
         * that needs no Python object */
        const dt_tensor *from = &((PyDtTensor *)value)->t;
        dt_error err;
        dt_status cs;
        DT_PY_TENSOR_WORK(!dt_py_small_cpu_work(&to, to.numel) || !dt_py_small_cpu_work(from, from->numel),
                          cs = dt_tensor_copy_into(&to, from, &err));
        dt_tensor_clear(&to);
        return cs == DT_OK ? 0 : (dt_py_raise(&err), -1);
    }
    PyObject *dst = dt_py_tensor_wrap(&to);
    if (dst == NULL)
        return -1;
    int st;
    if (dt_py_scalar_kind(value, &kind)) {
        st = dt_py_tensor_fill((PyDtTensor *)dst, value);
    } else {
        PyObject *res = dt_py_lazy_function("devtensor._views", "assign", &assign) == NULL
                            ? NULL
                            : PyObject_CallFunctionObjArgs(assign, dst, value, NULL);
        st = res == NULL ? -1 : 0;
        Py_XDECREF(res);
    }
    Py_DECREF(dst);
    return st;
}

/* The value of self[key] = value as NumPy takes it (a new reference), or
 * NULL (no exception) if Python must see it: Python scalars, NumPy arrays
 * and CPU tensors NumPy has; NumPy floating scalars as Python floats, as
 * _views.setitem passes them (so that NaN into an integer raises). */
static PyObject *numpy_value(PyObject *value)
{
    if (PyBool_Check(value) || PyLong_CheckExact(value) || PyFloat_CheckExact(value) ||
        PyComplex_CheckExact(value) || PyArray_Check(value))
        return Py_NewRef(value);
    if (PyArray_IsScalar(value, Floating) && !PyArray_IsScalar(value, LongDouble))
        return PyFloat_FromDouble(PyFloat_AsDouble(value));
    if (DtTensor_Check(value) && numpy_has((PyDtTensor *)value))
        return dt_py_tensor_to_ndarray((PyDtTensor *)value);
    return NULL;
}

/* self[key] = value through NumPy: 1 done, 0 for Python, -1 on error. */
static int numpy_setitem(PyDtTensor *self, PyObject *key, PyObject *value)
{
    if (!numpy_has(self))
        return 0;
    int ok;
    PyObject *nkey = numpy_key(key, &ok);
    if (!ok)
        return PyErr_Occurred() ? -1 : 0;
    PyObject *nvalue = numpy_value(value);
    if (nvalue == NULL) {
        Py_DECREF(nkey);
        return PyErr_Occurred() ? -1 : 0;
    }
    PyObject *arr = dt_py_tensor_to_ndarray(self);
    int st = arr == NULL ? -1 : PyObject_SetItem(arr, nkey, nvalue);
    Py_XDECREF(arr);
    Py_DECREF(nkey);
    Py_DECREF(nvalue);
    return st < 0 ? -1 : 1;
}

int dt_py_tensor_ass_subscript(PyDtTensor *self, PyObject *key, PyObject *value)
{
    static PyObject *setitem;
    if (value == NULL) {
        PyErr_SetString(PyExc_ValueError, "cannot delete array elements"); /* NumPy's words */
        return -1;
    }
    /* Note [Values from another device]
     * t[key] = value with a tensor value on another device is PyTorch's
     * copy_: the value is copied to t's device first (a CPU tensor as a NumPy
     * array or a list would be), for every kind of key; elementwise
     * operations still refuse operands on two devices. */
    PyObject *moved = NULL;
    if (DtTensor_Check(value) &&
        !dt_device_equal(dt_tensor_device(&((PyDtTensor *)value)->t), dt_tensor_device(&self->t))) {
        PyObject *device = dt_py_device_new(dt_tensor_device(&self->t));
        moved = device == NULL ? NULL : PyObject_CallMethod(value, "to", "O", device);
        Py_XDECREF(device);
        if (moved == NULL)
            return -1;
        value = moved;
    }
    parsed_key k;
    int r = parse_key(key, &k), st = -1, handled;
    if (r > 0) {
        st = assign_basic(self, &k, value);
    } else if (r == 0 && (handled = put_rows(self, key, value)) != 0) { /* Note [Row gathers on the CPU] */
        st = handled < 0 ? -1 : 0;
    } else if (r == 0 && (handled = numpy_setitem(self, key, value)) != 0) {
        st = handled < 0 ? -1 : 0;
    } else if (r == 0 && dt_tensor_device(&self->t).type != DT_DEVICE_CPU &&
               (st = dt_py_advanced_setitem(self, key, value, &handled), handled)) {
        /* Note [Advanced keys in C] */
    } else if (r == 0 && dt_py_lazy_function("devtensor._views", "setitem", &setitem) != NULL) {
        PyObject *res = PyObject_CallFunctionObjArgs(setitem, (PyObject *)self, key, value, NULL);
        st = res == NULL ? -1 : 0;
        Py_XDECREF(res);
    }
    Py_XDECREF(moved);
    return st;
}

/* _index_basic(items): the view a tuple of Python ints, slices, None and
 * Ellipsis selects (devtensor._views normalises other basic items to
 * these first). */
PyObject *dt_py_tensor_index_basic(PyDtTensor *self, PyObject *key)
{
    if (!PyTuple_Check(key))
        return PyErr_Format(PyExc_TypeError, "_index_basic takes a tuple");
    parsed_key k;
    int r = parse_key(key, &k);
    PyObject *res = NULL;
    if (r > 0)
        res = basic_view(self, &k);
    else if (r == 0)
        PyErr_SetString(PyExc_IndexError, "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis "
                                          "(`None`) and integer or boolean arrays are valid indices");
    return res;
}
