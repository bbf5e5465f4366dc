/* join.c - devtensor._C._concatenate_fast, _stack_fast and _repeat_fast,
 * the per-call paths of concatenate, stack and repeat.
 *
 * Note [Joins in C]
 * concatenate is in every program's inner loops (a batch built from
 * pieces, a list of results joined at the end), and its Python form
 * (devtensor/_manipulation.py) spent 15 us on two 4-element tensors where
 * NumPy takes 2.  The common case is answered here: a list or tuple of
 * tensors of one dtype, one device and one number of dimensions (at least
 * one), an int axis, their other dimensions equal.  The result is
 * allocated and each part copied into its slice (the core's copy: each
 * device's own), as the Python form does.  stack is the same with a new
 * axis, every part of one shape.  Anything else -- other inputs,
 * dtypes to promote, out= or dtype=, axis=None, a shape mismatch -- returns
 * None and the Python form runs, with NumPy's rules and errors.
 */
#include "pydt.h"

#include <string.h>

/* each part copied into its slot of out: a slice along axis
 * (concatenate), or one index of it with the axis dropped (stack) */
static dt_status copy_parts(PyObject **items, Py_ssize_t n, long axis, int stack, dt_tensor *out, int part_ndim,
                            int64_t *part_shape, const int64_t *part_strides, dt_error *err)
{
    dt_status st = DT_OK;
    int64_t start = 0;
    for (Py_ssize_t i = 0; i < n && st == DT_OK; i++) {
        const dt_tensor *t = &((PyDtTensor *)items[i])->t;
        int64_t along = stack ? 1 : t->shape[axis];
        if (!stack)
            part_shape[axis] = along;
        if (t->numel > 0) {
            dt_tensor slot;
            dt_tensor_init_empty(&slot);
            st = dt_tensor_init_view(&slot, out->storage, out->offset + start * out->strides[axis], part_ndim,
                                     part_shape, part_strides, out->dtype, err);
            if (st == DT_OK)
                st = dt_tensor_copy_into(&slot, t, err);
            dt_tensor_clear(&slot);
        }
        start += along;
    }
    return st;
}

/* the parts (a tuple) joined along axis, an existing one (concatenate) or
 * a new one (stack), or None */
static PyObject *join(PyObject *parts, long axis, int stack)
{
    Py_ssize_t n = PyTuple_GET_SIZE(parts);
    PyObject **items = &PyTuple_GET_ITEM(parts, 0);
    if (n < 1)
        Py_RETURN_NONE;
    for (Py_ssize_t i = 0; i < n; i++)
        if (!DtTensor_Check(items[i]))
            Py_RETURN_NONE;
    const dt_tensor *first = &((PyDtTensor *)items[0])->t;
    const int ndim = first->ndim + stack; /* the result's */
    if (axis < 0)
        axis += ndim;
    if (ndim < 1 || ndim > DT_MAX_NDIM || axis < 0 || axis >= ndim)
        Py_RETURN_NONE;
    int64_t shape[DT_MAX_NDIM];
    for (int d = 0, k = 0; d < ndim; d++)
        shape[d] = stack && d == axis ? 0 : first->shape[k++];
    shape[axis] = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        const dt_tensor *t = &((PyDtTensor *)items[i])->t;
        if (t->ndim != first->ndim || t->dtype != first->dtype ||
            !dt_device_equal(dt_tensor_device(t), dt_tensor_device(first)))
            Py_RETURN_NONE;
        for (int d = 0; d < first->ndim; d++)
            if (t->shape[d] != first->shape[d] && (stack || d != axis))
                Py_RETURN_NONE;
        int64_t along = stack ? 1 : t->shape[axis];
        if (__builtin_add_overflow(shape[axis], along, &shape[axis]))
            Py_RETURN_NONE;
    }
    dt_error err;
    dt_tensor out;
    dt_tensor_init_empty(&out);
    dt_status st = dt_tensor_init_new(&out, dt_tensor_device(first), first->dtype, ndim, shape, &err);
    if (st != DT_OK)
        return dt_py_raise(&err);
    int64_t part_shape[DT_MAX_NDIM], part_strides[DT_MAX_NDIM];
    int part_ndim = 0;
    for (int d = 0; d < ndim; d++)
        if (!(stack && d == axis))
            part_shape[part_ndim] = shape[d], part_strides[part_ndim++] = out.strides[d];
    DT_PY_TENSOR_WORK(!dt_py_small_cpu_work(&out, out.numel),
                      st = copy_parts(items, n, axis, stack, &out, part_ndim, part_shape, part_strides, &err));
    if (st != DT_OK) {
        dt_tensor_clear(&out);
        return dt_py_raise(&err);
    }
    return dt_py_tensor_wrap(&out);
}

static PyObject *join_fast(const char *name, PyObject *const *args, Py_ssize_t nargs, int stack)
{
    if (nargs != 2)
        return PyErr_Format(PyExc_TypeError, "%s takes 2 arguments (%zd given)", name, nargs);
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
    PyObject *result = join(parts, axis, stack);
    Py_DECREF(parts);
    return result;
}

/* _concatenate_fast(arrays, axis): a new tensor, or None */
static PyObject *concatenate_fast(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    return join_fast("_concatenate_fast", args, nargs, 0);
}

/* _stack_fast(arrays, axis): a new tensor, or None */
static PyObject *stack_fast(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    return join_fast("_stack_fast", args, nargs, 1);
}

/* _repeat_fast(a, count, axis): repeat(a, count, axis) for a tensor, an int
 * count >= 0 and axis None or an int in range: a new tensor, or None (other
 * forms, and NumPy's errors, are _manipulation.repeat's).  As there (Note
 * [repeat by broadcast copies] in _manipulation.py): one copy of a view
 * with a zero-stride axis of length count after axis, seen with the two
 * axes merged. */
static PyObject *repeat_fast(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3)
        return PyErr_Format(PyExc_TypeError, "_repeat_fast takes 3 arguments (%zd given)", nargs);
    if (!DtTensor_Check(args[0]) || !PyLong_CheckExact(args[1]) || !(args[2] == Py_None || PyLong_CheckExact(args[2])))
        Py_RETURN_NONE;
    const dt_tensor *t = &((PyDtTensor *)args[0])->t;
    long long count = PyLong_AsLongLong(args[1]), axis = args[2] == Py_None ? 0 : PyLong_AsLongLong(args[2]);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    int flat = args[2] == Py_None || t->ndim == 0; /* the flattened a (NumPy repeats a 0-d array as 1-d) */
    int ndim = flat ? 1 : t->ndim;
    if (axis < 0)
        axis += ndim;
    if (count < 0 || axis < 0 || axis >= ndim || ndim + 1 > DT_MAX_NDIM || (flat && !dt_tensor_is_contiguous(t)))
        Py_RETURN_NONE; /* a flattening copy first: the Python form */
    int64_t shape[DT_MAX_NDIM], strides[DT_MAX_NDIM], merged[DT_MAX_NDIM], item = dt_tensor_itemsize(t), bytes;
    for (int d = 0, o = 0; d < ndim; d++) {
        shape[o] = flat ? t->numel : t->shape[d];
        strides[o++] = flat ? item : t->strides[d];
        merged[d] = shape[o - 1];
        if (d == axis) {
            shape[o] = count, strides[o++] = 0;
            if (__builtin_mul_overflow(merged[d], (int64_t)count, &merged[d]))
                Py_RETURN_NONE;
        }
    }
    dt_error err;
    dt_tensor view, copy, out;
    dt_tensor_init_empty(&view);
    dt_tensor_init_empty(&copy);
    dt_tensor_init_empty(&out);
    dt_status st = dt_tensor_init_view(&view, t->storage, t->offset, ndim + 1, shape, strides, t->dtype, &err);
    if (st == DT_OK)
        st = dt_tensor_init_new(&copy, dt_tensor_device(t), t->dtype, ndim + 1, shape, &err);
    if (st == DT_OK)
        DT_PY_TENSOR_WORK(!dt_py_small_cpu_work(&copy, copy.numel), st = dt_tensor_copy_into(&copy, &view, &err));
    if (st == DT_OK) /* the copy, contiguous, seen with the count's axis merged into axis */
        st = dt_contiguous_strides(ndim, merged, item, strides, &bytes, &err);
    if (st == DT_OK)
        st = dt_tensor_init_view(&out, copy.storage, copy.offset, ndim, merged, strides, t->dtype, &err);
    dt_tensor_clear(&view);
    dt_tensor_clear(&copy);
    if (st != DT_OK) {
        dt_tensor_clear(&out);
        return dt_py_raise(&err);
    }
    return dt_py_tensor_wrap(&out);
}

PyMethodDef dt_py_join_methods[] = {
    {"_concatenate_fast", (PyCFunction)(void (*)(void))concatenate_fast, METH_FASTCALL,
     "_concatenate_fast(arrays, axis): the tensors joined along axis, or None for Python to handle "
     "the arguments"},
    {"_stack_fast", (PyCFunction)(void (*)(void))stack_fast, METH_FASTCALL,
     "_stack_fast(arrays, axis): the tensors (of one shape) stacked along a new axis, or None for "
     "Python to handle the arguments"},
    {"_repeat_fast", (PyCFunction)(void (*)(void))repeat_fast, METH_FASTCALL,
     "_repeat_fast(a, count, axis): each element of a repeated count times along axis (the flattened a "
     "for None), or None for Python to handle the arguments"},
    {NULL, NULL, 0, NULL},
};
