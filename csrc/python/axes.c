/* axes.c - Tensor.ravel, flatten, transpose, permute, swapaxes, squeeze,
 * expand_dims and unsqueeze: TensorBase methods, views of the tensor.
 *
 * Note [Axis views in C]
 * Issue 9's per-call goal covers these views, and in Python each cost 3-7
 * us (t.ravel() 3.5 us where NumPy takes 0.09).  Their plain forms are
 * answered here from the shape and strides alone: ravel (through reshape's
 * C path, a copy where no view exists), flatten (a contiguous copy seen
 * as 1-d), transpose/permute with no axes or a permutation of Python ints,
 * swapaxes of two Python ints, squeeze with no axis or one int axis of
 * length one, expand_dims/unsqueeze of one int axis (reshape's geometry,
 * so the strides are the ones reshape gives).  Every other argument --
 * NumPy integers, tuples of axes to squeeze or insert, axes out of range,
 * repeated axes -- goes to the Python forms in devtensor._views (the
 * _-prefixed ones), which raise NumPy's errors; the module functions
 * (devtensor.transpose, squeeze, ...) call these methods first.
 */
#include "pydt.h"

/* the fallback: devtensor._views.<name>(self, *args, **kwargs) */
static PyObject *slow(const char *name, PyObject **cache, PyDtTensor *self, PyObject *const *args,
                      Py_ssize_t nargs, PyObject *kwnames)
{
    if (dt_py_lazy_function("devtensor._views", name, cache) == NULL)
        return NULL;
    return dt_py_call_with_self(*cache, (PyObject *)self, args, nargs, kwnames);
}

/* a Python int as an axis of ndim axes, negative from the end: 1, or 0
 * when it is not an exact int in range (Python then raises) */
static int axis_of(PyObject *o, int ndim, int *axis)
{
    if (!PyLong_CheckExact(o))
        return 0;
    int overflow = 0;
    long a = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || (a == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    if (a < 0)
        a += ndim;
    if (a < 0 || a >= ndim)
        return 0;
    *axis = (int)a;
    return 1;
}

/* A method call with arguments (an order: Note [Index orders] in
 * devtensor/_views.py) goes to _views.<name>; the plain call is answered
 * here. */
PyObject *dt_py_views_method(const char *name, PyObject **cache, PyDtTensor *self, PyObject *const *args,
                             Py_ssize_t nargs, PyObject *kwnames)
{
    if (dt_py_lazy_function("devtensor._views", name, cache) == NULL)
        return NULL;
    return dt_py_call_with_self(*cache, (PyObject *)self, args, nargs, kwnames);
}

PyObject *dt_py_tensor_ravel(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static PyObject *ordered;
    if (nargs > 0 || kwnames != NULL)
        return dt_py_views_method("ravel_method", &ordered, self, args, nargs, kwnames);
    if (dt_tensor_is_contiguous(&self->t)) { /* the common case: a 1-d view, no reshape to work out */
        int64_t n = self->t.numel, stride = dt_tensor_itemsize(&self->t);
        return dt_py_tensor_view(self, 1, &n, &stride, self->t.offset);
    }
    /* NumPy's ravel is contiguous: a copy unless the tensor is (even where
     * reshape(-1) could be a strided view, as for a[::2]) */
    return dt_py_tensor_flatten(self, args, nargs, kwnames);
}

PyObject *dt_py_tensor_flatten(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static PyObject *ordered;
    if (nargs > 0 || kwnames != NULL)
        return dt_py_views_method("flatten_method", &ordered, self, args, nargs, kwnames);
    dt_tensor copy, flat;
    dt_error err;
    if (dt_py_same_device_copy(&self->t, self->t.dtype, &copy, &err) != DT_OK)
        return dt_py_raise(&err);
    int64_t n = copy.numel, stride = dt_tensor_itemsize(&copy);
    dt_tensor_init_empty(&flat);
    dt_status st = dt_tensor_init_view(&flat, copy.storage, copy.offset, 1, &n, &stride, copy.dtype, &err);
    dt_tensor_clear(&copy);
    if (st != DT_OK)
        return dt_py_raise(&err);
    return dt_py_tensor_wrap(&flat);
}

/* the view of self with its axes in the order perm */
static PyObject *permuted(PyDtTensor *self, const int *perm)
{
    const dt_tensor *t = &self->t;
    int64_t shape[DT_MAX_NDIM], strides[DT_MAX_NDIM];
    for (int i = 0; i < t->ndim; i++)
        shape[i] = t->shape[perm[i]], strides[i] = t->strides[perm[i]];
    return dt_py_tensor_view(self, t->ndim, shape, strides, t->offset);
}

/* transpose() / transpose(1, 0, 2) / transpose((1, 0, 2)); permute the same */
static PyObject *axes_view(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                           int reverse_when_empty)
{
    const int ndim = self->t.ndim;
    int perm[DT_MAX_NDIM], seen[DT_MAX_NDIM] = {0};
    if (kwnames != NULL)
        return NULL;
    int given = nargs > 0; /* axes given: an empty sequence is a permutation of no axes, not "reverse" */
    if (nargs == 1 && (PyTuple_CheckExact(args[0]) || PyList_CheckExact(args[0]))) {
        nargs = PySequence_Fast_GET_SIZE(args[0]);
        args = PySequence_Fast_ITEMS(args[0]);
    } else if (nargs == 1 && args[0] == Py_None) {
        nargs = 0, given = 0;
    }
    if (nargs == 0) {
        if ((given || !reverse_when_empty) && ndim != 0)
            return NULL;
        for (int i = 0; i < ndim; i++)
            perm[i] = ndim - 1 - i;
        return permuted(self, perm);
    }
    if (nargs != ndim)
        return NULL;
    for (int i = 0; i < ndim; i++) {
        if (!axis_of(args[i], ndim, &perm[i]) || seen[perm[i]]++)
            return NULL;
    }
    return permuted(self, perm);
}

PyObject *dt_py_tensor_transpose(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static PyObject *cache;
    int a, b;
    if (self->t.ndim == 2 && nargs == 2 && kwnames == NULL && axis_of(args[0], 2, &a) && axis_of(args[1], 2, &b)) {
        int perm[2] = {a == b ? 0 : 1, a == b ? 1 : 0}; /* PyTorch's swap (Note [PyTorch's transpose]) */
        return permuted(self, perm);
    }
    PyObject *r = axes_view(self, args, nargs, kwnames, 1);
    return r != NULL || PyErr_Occurred() ? r : slow("transpose_method", &cache, self, args, nargs, kwnames);
}

PyObject *dt_py_tensor_permute(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static PyObject *cache;
    PyObject *r = axes_view(self, args, nargs, kwnames, 0);
    return r != NULL || PyErr_Occurred() ? r : slow("permute_method", &cache, self, args, nargs, kwnames);
}

PyObject *dt_py_tensor_swapaxes(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static PyObject *cache;
    const int ndim = self->t.ndim;
    int a, b, perm[DT_MAX_NDIM];
    if (kwnames == NULL && nargs == 2 && axis_of(args[0], ndim, &a) && axis_of(args[1], ndim, &b)) {
        for (int i = 0; i < ndim; i++)
            perm[i] = i;
        perm[a] = b, perm[b] = a;
        return permuted(self, perm);
    }
    return slow("_swapaxes", &cache, self, args, nargs, kwnames);
}

PyObject *dt_py_tensor_squeeze(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static PyObject *cache;
    const dt_tensor *t = &self->t;
    int only = -1; /* the one axis to drop, or -1: every axis of length one */
    if (kwnames != NULL || nargs > 1 || (nargs == 1 && args[0] != Py_None &&
                                         (!axis_of(args[0], t->ndim, &only) || t->shape[only] != 1)))
        return slow("_squeeze", &cache, self, args, nargs, kwnames);
    int64_t shape[DT_MAX_NDIM], strides[DT_MAX_NDIM];
    int n = 0;
    for (int i = 0; i < t->ndim; i++)
        if (only >= 0 ? i != only : t->shape[i] != 1)
            shape[n] = t->shape[i], strides[n++] = t->strides[i];
    return dt_py_tensor_view(self, n, shape, strides, t->offset);
}

/* expand_dims(axis) and unsqueeze(dim) of one int: reshape to the shape
 * with a 1 inserted (Note [Axis views in C]) */
static PyObject *insert_axis(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                             const char *fallback, PyObject **cache)
{
    const dt_tensor *t = &self->t;
    int axis;
    if (kwnames != NULL || nargs != 1 || t->ndim >= DT_MAX_NDIM || !axis_of(args[0], t->ndim + 1, &axis))
        return slow(fallback, cache, self, args, nargs, kwnames);
    PyObject *shape = PyTuple_New(t->ndim + 1);
    if (shape == NULL)
        return NULL;
    for (int i = 0, k = 0; i <= t->ndim; i++) {
        PyObject *n = PyLong_FromLongLong(i == axis ? 1 : t->shape[k++]);
        if (n == NULL) {
            Py_DECREF(shape);
            return NULL;
        }
        PyTuple_SET_ITEM(shape, i, n);
    }
    PyObject *r = dt_py_tensor_reshape(self, &shape, 1, NULL);
    Py_DECREF(shape);
    return r;
}

PyObject *dt_py_tensor_expand_dims(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames)
{
    static PyObject *cache;
    return insert_axis(self, args, nargs, kwnames, "_expand_dims", &cache);
}

PyObject *dt_py_tensor_unsqueeze(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static PyObject *cache;
    return insert_axis(self, args, nargs, kwnames, "unsqueeze_method", &cache);
}
