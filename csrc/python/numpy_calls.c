/* numpy_calls.c - the per-call path of the functions that run NumPy's own
 * function on zero-copy views of CPU tensors (devtensor._operands'
 * numpy_views and numpy_call; Note [NumPy's loops for CPU tensors]).
 *
 * Note [NumPy calls in C]
 * Written in Python, the views and the call around NumPy's function cost
 * about 1 us (a 16-element ldexp took 2.0 us against NumPy's 0.53): a loop
 * of isinstance tests, NumPy's error state set and reset through its
 * context variable, and each result wrapped.  Here they are one C call
 * each.  The error state is the "ignore" one devtensor._operands builds at
 * import and gives to _set_numpy_error_state, with NumPy's context
 * variable; until then (or where NumPy lacks that variable) _numpy_call
 * with floats refuses, and the Python layer keeps its own way.
 */
#include "pydt.h"

static PyObject *error_state_var;  /* NumPy's _extobj_contextvar */
static PyObject *ignore_errors;    /* its value inside np.errstate(all="ignore") */

/* _set_numpy_error_state(var, value) */
static PyObject *py_set_numpy_error_state(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 || !PyContextVar_CheckExact(args[0]))
        return PyErr_Format(PyExc_TypeError, "_set_numpy_error_state(var, value): var must be a ContextVar");
    Py_XSETREF(error_state_var, Py_NewRef(args[0]));
    Py_XSETREF(ignore_errors, Py_NewRef(args[1]));
    Py_RETURN_NONE;
}

/* _numpy_views(*objs): a list of NumPy views of objs when every tensor
 * among them is a CPU tensor NumPy can see (not bfloat16) and the rest are
 * Python numbers or None; else None (also when there is no tensor). */
static PyObject *py_numpy_views(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    int tensors = 0;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyObject *o = args[i];
        if (DtTensor_Check(o)) {
            const dt_tensor *t = &((PyDtTensor *)o)->t;
            if (dt_tensor_device(t).type != DT_DEVICE_CPU || t->dtype == DT_BFLOAT16)
                Py_RETURN_NONE;
            tensors = 1;
        } else if (!(o == Py_None || PyBool_Check(o) || PyLong_Check(o) || PyFloat_Check(o) || PyComplex_Check(o))) {
            Py_RETURN_NONE;
        }
    }
    if (!tensors)
        Py_RETURN_NONE;
    PyObject *views = PyList_New(nargs);
    if (views == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyObject *v = DtTensor_Check(args[i]) ? dt_py_tensor_to_ndarray((PyDtTensor *)args[i]) : Py_NewRef(args[i]);
        if (v == NULL) {
            Py_DECREF(views);
            return NULL;
        }
        PyList_SET_ITEM(views, i, v);
    }
    return views;
}

/* a NumPy result as a CPU tensor sharing its memory (a NumPy scalar, or
 * an ndarray subclass, as a base-class array first) */
static PyObject *result_tensor(PyObject *r)
{
    if (Py_TYPE(r) == &PyArray_Type)
        return dt_py_tensor_from_ndarray((PyArrayObject *)r);
    PyObject *arr = PyArray_FromAny(r, NULL, 0, 0, NPY_ARRAY_ENSUREARRAY, NULL);
    if (arr == NULL)
        return NULL;
    PyObject *t = dt_py_tensor_from_ndarray((PyArrayObject *)arr);
    Py_DECREF(arr);
    return t;
}

/* _numpy_call(fn, views, floats, kwargs): fn(*views, **kwargs) (views a
 * list, kwargs a dict or None), under NumPy's "ignore" error state when
 * floats is true; its result, an array or a tuple of them, as CPU tensors
 * sharing their memory. */
static PyObject *py_numpy_call(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4 || !PyList_CheckExact(args[1]) || !(args[3] == Py_None || PyDict_Check(args[3])))
        return PyErr_Format(PyExc_TypeError, "_numpy_call(fn, views, floats, kwargs): views a list, kwargs a "
                                             "dict or None");
    int floats = PyObject_IsTrue(args[2]);
    if (floats < 0)
        return NULL;
    if (floats && error_state_var == NULL)
        return PyErr_Format(PyExc_RuntimeError, "_numpy_call: no NumPy error state was given");
    PyObject *token = NULL;
    if (floats && (token = PyContextVar_Set(error_state_var, ignore_errors)) == NULL)
        return NULL;
    PyObject *kwargs = args[3] == Py_None ? NULL : args[3];
    PyObject *r = PyObject_VectorcallDict(args[0], PySequence_Fast_ITEMS(args[1]), PyList_GET_SIZE(args[1]),
                                          kwargs);
    if (token != NULL) {
        PyObject *exc, *value, *tb;
        PyErr_Fetch(&exc, &value, &tb); /* fn's error, kept over a failed reset's */
        int failed = PyContextVar_Reset(error_state_var, token) < 0;
        Py_DECREF(token);
        if (exc != NULL) {
            if (failed)
                PyErr_Clear();
            PyErr_Restore(exc, value, tb);
        } else if (failed) {
            Py_CLEAR(r);
        }
    }
    if (r == NULL)
        return NULL;
    if (!PyTuple_CheckExact(r)) {
        PyObject *t = result_tensor(r);
        Py_DECREF(r);
        return t;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(r);
    PyObject *out = PyTuple_New(n);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        PyObject *t = result_tensor(PyTuple_GET_ITEM(r, i));
        if (t == NULL)
            Py_CLEAR(out);
        else
            PyTuple_SET_ITEM(out, i, t);
    }
    Py_DECREF(r);
    return out;
}

PyMethodDef dt_py_numpy_call_methods[] = {
    {"_set_numpy_error_state", (PyCFunction)(void (*)(void))py_set_numpy_error_state, METH_FASTCALL,
     "_set_numpy_error_state(var, value): NumPy's error-state context variable and its 'ignore' value"},
    {"_numpy_views", (PyCFunction)(void (*)(void))py_numpy_views, METH_FASTCALL,
     "_numpy_views(*objs): NumPy views of CPU tensors among plain numbers, or None"},
    {"_numpy_call", (PyCFunction)(void (*)(void))py_numpy_call, METH_FASTCALL,
     "_numpy_call(fn, views, floats, kwargs): NumPy's fn of the views, its results as CPU tensors"},
    {NULL, NULL, 0, NULL},
};
