/* advanced.c - devtensor._C._take, _put and _nonzero_positions: the
 * wrappers of the core's device gather, scatter and mask positions
 * (csrc/core/gather.h), which devtensor._advanced calls once it has turned
 * a NumPy index into their form (Note [Advanced indexing on devices] in
 * csrc/core/gather.c).  Private: they check what keeps memory safe, and
 * leave NumPy's rules and messages to the Python side.
 */
#include "pydt.h"

#include "gather.h"

static PyDtTensor *tensor_arg(PyObject *obj, const char *what)
{
    if (!DtTensor_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be a tensor, not %.200s", what, Py_TYPE(obj)->tp_name);
        return NULL;
    }
    return (PyDtTensor *)obj;
}

static int int64_item(PyObject *seq, Py_ssize_t i, int64_t *out)
{
    long long v = PyLong_AsLongLong(PyTuple_GET_ITEM(seq, i));
    if (v == -1 && PyErr_Occurred())
        return -1;
    *out = v;
    return 0;
}

/* (b_start, indices, lengths, strides, axes) -> ax[]; the count, or -1 */
static int read_axes(PyObject *const *args, int *b_start, dt_index_axis *ax)
{
    long b = PyLong_AsLong(args[0]);
    if (b == -1 && PyErr_Occurred())
        return -1;
    for (int j = 1; j < 5; j++)
        if (!PyTuple_Check(args[j]))
            return PyErr_Format(PyExc_TypeError, "index axes must be given as tuples"), -1;
    Py_ssize_t n = PyTuple_GET_SIZE(args[1]);
    if (n < 1 || n > DT_MAX_NDIM || PyTuple_GET_SIZE(args[2]) != n || PyTuple_GET_SIZE(args[3]) != n ||
        PyTuple_GET_SIZE(args[4]) != n)
        return PyErr_Format(PyExc_ValueError, "index axes: 1 to %d of each, as many of each", DT_MAX_NDIM), -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyDtTensor *t = tensor_arg(PyTuple_GET_ITEM(args[1], i), "an index");
        int64_t axis;
        if (t == NULL || int64_item(args[2], i, &ax[i].length) < 0 || int64_item(args[3], i, &ax[i].stride) < 0 ||
            int64_item(args[4], i, &axis) < 0)
            return -1;
        ax[i].index = &t->t;
        ax[i].axis = (int)axis;
    }
    if (b < 0 || b > DT_MAX_NDIM)
        return PyErr_Format(PyExc_ValueError, "index: b_start %ld out of range", b), -1;
    *b_start = (int)b;
    return (int)n;
}

typedef dt_status (*move_fn)(dt_tensor *, const dt_tensor *, int, int, const dt_index_axis *, dt_error *);

static PyObject *run_move(PyObject *const *args, Py_ssize_t nargs, const char *name, move_fn fn)
{
    if (nargs != 7)
        return PyErr_Format(PyExc_TypeError, "%s takes 7 arguments (%zd given)", name, nargs);
    PyDtTensor *a = tensor_arg(args[0], "the first operand"), *b = a ? tensor_arg(args[1], "the second operand") : NULL;
    if (b == NULL)
        return NULL;
    dt_index_axis ax[DT_MAX_NDIM];
    int b_start, n = read_axes(args + 2, &b_start, ax);
    if (n < 0)
        return NULL;
    dt_error err;
    dt_status st;
    int64_t work = a->t.numel > b->t.numel ? a->t.numel : b->t.numel;
    DT_PY_TENSOR_WORK(!dt_py_small_cpu_work(&a->t, work), st = fn(&a->t, &b->t, b_start, n, ax, &err));
    if (st != DT_OK)
        return dt_py_raise(&err);
    Py_RETURN_NONE;
}

/* _take(out, src, b_start, indices, lengths, strides, axes) */
static PyObject *take(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    return run_move(args, nargs, "_take", dt_index_take);
}

/* _put(dst, values, b_start, indices, lengths, strides, axes) */
static PyObject *put(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    return run_move(args, nargs, "_put", dt_index_put);
}

/* _nonzero_positions(t) -> int64 tensor of the C-order positions of t's
 * non-zero elements.  A tensor that is not a C-contiguous bool one is first
 * cast to a contiguous bool copy on its device: casting to bool is NumPy's
 * test of non-zero (Note [count_nonzero as a cast and a sum] in reduce.c). */
static PyObject *nonzero_positions(PyObject *module, PyObject *arg)
{
    (void)module;
    PyDtTensor *mask = tensor_arg(arg, "the mask");
    if (mask == NULL)
        return NULL;
    dt_error err;
    dt_tensor out, cast;
    const dt_tensor *m = &mask->t;
    dt_tensor_init_empty(&cast);
    if (m->dtype != DT_BOOL || !dt_tensor_is_contiguous(m)) {
        if (dt_py_same_device_copy(m, DT_BOOL, &cast, &err) != DT_OK)
            return dt_py_raise(&err);
        m = &cast;
    }
    dt_status st;
    DT_PY_TENSOR_WORK(!dt_py_small_cpu_work(m, m->numel), st = dt_index_nonzero(&out, m, &err));
    dt_tensor_clear(&cast);
    if (st != DT_OK)
        return dt_py_raise(&err);
    return dt_py_tensor_wrap(&out);
}

PyMethodDef dt_py_advanced_methods[] = {
    {"_take", (PyCFunction)(void (*)(void))take, METH_FASTCALL,
     "_take(out, src, b_start, indices, lengths, strides, axes): device gather"},
    {"_put", (PyCFunction)(void (*)(void))put, METH_FASTCALL,
     "_put(dst, values, b_start, indices, lengths, strides, axes): device scatter, the last write winning"},
    {"_nonzero_positions", nonzero_positions, METH_O,
     "_nonzero_positions(t): int64 C-order positions of a tensor's non-zero elements"},
    {"_cpu_index_kernels_from", (PyCFunction)(void (*)(void))dt_py_cpu_index_kernels_from, METH_FASTCALL,
     "_cpu_index_kernels_from([n]): the key size from which CPU tensors use the index kernels; 0: always"},
    {"_advanced_keys_in_c", (PyCFunction)(void (*)(void))dt_py_advanced_keys_in_c, METH_FASTCALL,
     "_advanced_keys_in_c([on]): whether common advanced keys on devices are parsed in C; returns the previous"},
    {NULL, NULL, 0, NULL},
};
