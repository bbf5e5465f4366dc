/* join.c - devtensor._C._concatenate_fast, concatenate's per-call path.
 *
 * Note [Joins in C]
 * concatenate is in every program's inner loops (a batch built from
 * pieces, a list of results joined at the end), and its Python form
 * (devtensor/_manipulation.py) spent 15 us on two 4-element tensors where
 * NumPy takes 2.  The common case is answered here: a list or tuple of
 * tensors of one dtype, one device and one number of dimensions (at least
 * one), an int axis, their other dimensions equal.  The result is
 * allocated and each part copied into its slice (the core's copy: each
 * device's own), as the Python form does.  Anything else -- other inputs,
 * dtypes to promote, out= or dtype=, axis=None, a shape mismatch -- returns
 * None and the Python form runs, with NumPy's rules and errors.
 */
#include "pydt.h"

#include <string.h>

/* the parts (a tuple) joined along axis, or None */
static PyObject *join(PyObject *parts, long axis)
{
    Py_ssize_t n = PyTuple_GET_SIZE(parts);
    PyObject **items = &PyTuple_GET_ITEM(parts, 0);
    if (n < 1)
        Py_RETURN_NONE;
    for (Py_ssize_t i = 0; i < n; i++)
        if (!DtTensor_Check(items[i]))
            Py_RETURN_NONE;
    const dt_tensor *first = &((PyDtTensor *)items[0])->t;
    const int ndim = first->ndim;
    if (axis < 0)
        axis += ndim;
    if (ndim < 1 || axis < 0 || axis >= ndim)
        Py_RETURN_NONE;
    int64_t shape[DT_MAX_NDIM];
    memcpy(shape, first->shape, (size_t)ndim * sizeof *shape);
    shape[axis] = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        const dt_tensor *t = &((PyDtTensor *)items[i])->t;
        if (t->ndim != ndim || t->dtype != first->dtype ||
            !dt_device_equal(dt_tensor_device(t), dt_tensor_device(first)))
            Py_RETURN_NONE;
        for (int d = 0; d < ndim; d++)
            if (d != axis && t->shape[d] != first->shape[d])
                Py_RETURN_NONE;
        if (__builtin_add_overflow(shape[axis], t->shape[axis], &shape[axis]))
            Py_RETURN_NONE;
    }
    dt_error err;
    dt_tensor out;
    dt_tensor_init_empty(&out);
    dt_status st = dt_tensor_init_new(&out, dt_tensor_device(first), first->dtype, ndim, shape, &err);
    if (st != DT_OK)
        return dt_py_raise(&err);
    int64_t part_shape[DT_MAX_NDIM];
    memcpy(part_shape, shape, (size_t)ndim * sizeof *part_shape);
    int64_t start = 0;
    DT_PY_BEGIN_TENSOR_WORK
    for (Py_ssize_t i = 0; i < n && st == DT_OK; i++) {
        const dt_tensor *t = &((PyDtTensor *)items[i])->t;
        if (t->shape[axis] == 0)
            continue;
        part_shape[axis] = t->shape[axis];
        dt_tensor slice;
        dt_tensor_init_empty(&slice);
        st = dt_tensor_init_view(&slice, out.storage, out.offset + start * out.strides[axis], ndim,
                                 part_shape, out.strides, out.dtype, &err);
        if (st == DT_OK)
            st = dt_tensor_copy_into(&slice, t, &err);
        dt_tensor_clear(&slice);
        start += t->shape[axis];
    }
    DT_PY_END_TENSOR_WORK
    if (st != DT_OK) {
        dt_tensor_clear(&out);
        return dt_py_raise(&err);
    }
    return dt_py_tensor_wrap(&out);
}

/* _concatenate_fast(arrays, axis): a new tensor, or None */
static PyObject *concatenate_fast(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2)
        return PyErr_Format(PyExc_TypeError, "_concatenate_fast takes 2 arguments (%zd given)", nargs);
    if ((!PyList_CheckExact(args[0]) && !PyTuple_CheckExact(args[0])) || !PyLong_CheckExact(args[1]))
        Py_RETURN_NONE;
    long axis = PyLong_AsLong(args[1]);
    if (axis == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    /* a tuple of the parts, held while the GIL is released (a list could
     * change under us then) */
    PyObject *parts = PySequence_Tuple(args[0]);
    if (parts == NULL)
        return NULL;
    PyObject *result = join(parts, axis);
    Py_DECREF(parts);
    return result;
}

PyMethodDef dt_py_join_methods[] = {
    {"_concatenate_fast", (PyCFunction)(void (*)(void))concatenate_fast, METH_FASTCALL,
     "_concatenate_fast(arrays, axis): the tensors joined along axis, or None for Python to handle "
     "the arguments"},
    {NULL, NULL, 0, NULL},
};
