/* reshape.c - Tensor.reshape(*shape) (a TensorBase method) and
 * TensorBase._reshape_geometry, over the core's reshape.c.
 *
 * Note [Reshape in C]
 * reshape(2, 3), reshape((2, 3)) and reshape([2, -1]) with Python ints
 * are read here: a view when the strides allow (Note [Reshape without a
 * copy]), else a C-contiguous copy on the same device.  Other arguments
 * (copy=, NumPy integers, tensors as shapes, bad input) go to
 * devtensor._views.reshape_method, which uses _reshape_geometry: the rules
 * live once, in the core.
 */
#include "pydt.h"

#include "reshape.h"

#include <string.h>

/* 1 with shape filled from Python ints, 0 if Python must read the arguments */
int dt_py_read_int_shape(PyObject *const *args, Py_ssize_t nargs, dt_py_shape *shape)
{
    PyObject *seq = NULL;
    if (nargs == 1 && (PyTuple_Check(args[0]) || PyList_Check(args[0]))) {
        seq = args[0];
        nargs = PySequence_Fast_GET_SIZE(seq);
        args = PySequence_Fast_ITEMS(seq);
    }
    if (nargs > DT_MAX_NDIM)
        return 0;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        if (!PyLong_CheckExact(args[i]))
            return 0;
        int overflow;
        long long n = PyLong_AsLongLongAndOverflow(args[i], &overflow);
        if (overflow || (n == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 0;
        }
        shape->dims[i] = n;
    }
    shape->ndim = (int)nargs;
    return 1;
}

/* The geometry of self seen with shape (inferred in place): 1 with
 * strides for a view, 0 when a copy is needed, -1 with an exception. */
static int geometry(PyDtTensor *self, dt_py_shape *shape, int64_t *strides)
{
    const dt_tensor *t = &self->t;
    int same = shape->ndim == t->ndim;
    for (int i = 0; same && i < t->ndim; i++)
        same = shape->dims[i] == t->shape[i];
    if (same) { /* as NumPy: its own shape keeps its strides */
        for (int i = 0; i < t->ndim; i++)
            strides[i] = t->strides[i];
        return 1;
    }
    dt_error err;
    if (dt_reshape_infer(t->numel, shape->ndim, shape->dims, &err) != DT_OK) {
        dt_py_raise(&err);
        return -1;
    }
    return dt_reshape_nocopy(t->ndim, t->shape, t->strides, dt_tensor_itemsize(t), t->numel,
                             dt_tensor_is_contiguous(t), shape->ndim, shape->dims, strides);
}

dt_status dt_py_same_device_copy(const dt_tensor *t, dt_dtype dtype, dt_tensor *out, dt_error *err)
{
    dt_status st;
    if (dtype == t->dtype && dt_tensor_is_contiguous(t) && dt_py_small_cpu_work(t, t->numel)) {
        /* t.copy() of a few contiguous CPU elements: one memcpy, no copy loop */
        DT_TRY(dt_tensor_init_new(out, dt_tensor_device(t), dtype, t->ndim, t->shape, err));
        if (t->numel > 0)
            memcpy(dt_tensor_data(out), dt_tensor_data(t), (size_t)t->numel * (size_t)dt_tensor_itemsize(t));
        return DT_OK;
    }
    DT_PY_TENSOR_WORK(!dt_py_small_cpu_work(t, t->numel),
                      st = dt_tensor_to(out, t, dt_tensor_device(t), dtype, 0, err));
    return st;
}

PyObject *dt_py_tensor_copy(PyDtTensor *self)
{
    dt_tensor copy;
    dt_error err;
    if (dt_py_same_device_copy(&self->t, self->t.dtype, &copy, &err) != DT_OK)
        return dt_py_raise(&err);
    return dt_py_tensor_wrap(&copy);
}

PyObject *dt_py_tensor_reshape(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static PyObject *slow;
    dt_py_shape shape;
    int64_t strides[DT_MAX_NDIM];
    if (kwnames == NULL && dt_py_read_int_shape(args, nargs, &shape)) {
        int r = geometry(self, &shape, strides);
        if (r < 0)
            return NULL;
        if (r > 0)
            return dt_py_tensor_view(self, shape.ndim, shape.dims, strides, self->t.offset);
        PyObject *c = dt_py_tensor_copy(self);
        if (c == NULL)
            return NULL;
        PyDtTensor *ct = (PyDtTensor *)c;
        dt_reshape_nocopy(ct->t.ndim, ct->t.shape, ct->t.strides, dt_tensor_itemsize(&ct->t), ct->t.numel, 1,
                          shape.ndim, shape.dims, strides);
        PyObject *v = dt_py_tensor_view(ct, shape.ndim, shape.dims, strides, ct->t.offset);
        Py_DECREF(c);
        return v;
    }
    if (dt_py_lazy_function("devtensor._views", "reshape_method", &slow) == NULL)
        return NULL;
    return dt_py_call_with_self(slow, (PyObject *)self, args, nargs, kwnames);
}

/* _reshape_geometry(shape): (shape with -1 filled in, byte strides of a
 * view with it, or None when a copy is needed); shape a tuple of ints. */
PyObject *dt_py_tensor_reshape_geometry(PyDtTensor *self, PyObject *arg)
{
    dt_py_shape shape;
    if (!dt_py_shape_converter(arg, &shape))
        return NULL;
    int64_t strides[DT_MAX_NDIM];
    int r = geometry(self, &shape, strides);
    if (r < 0)
        return NULL;
    PyObject *sh = PyTuple_New(shape.ndim), *st = r ? PyTuple_New(shape.ndim) : Py_NewRef(Py_None);
    if (sh == NULL || st == NULL)
        goto fail;
    for (int i = 0; i < shape.ndim; i++) {
        PyObject *n = PyLong_FromLongLong(shape.dims[i]);
        if (n == NULL)
            goto fail;
        PyTuple_SET_ITEM(sh, i, n);
        if (r) {
            PyObject *s = PyLong_FromLongLong(strides[i]);
            if (s == NULL)
                goto fail;
            PyTuple_SET_ITEM(st, i, s);
        }
    }
    return Py_BuildValue("(NN)", sh, st);
fail:
    Py_XDECREF(sh);
    Py_XDECREF(st);
    return NULL;
}
