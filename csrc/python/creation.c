/* creation.c - the primitives behind the factory functions: empty tensors
 * of a shape, dtype and device, and zero-copy wrapping of NumPy arrays.
 * The argument-rich factories (zeros, arange, rand, ...) are Python
 * (devtensor/_creation.py) on top of these and TensorBase._generate_. */
#include "pydt.h"

#include <stdio.h>

/* A sequence of int64 (anything with __index__) into out; `what` names it
 * in errors ("shape" or "strides"). */
static int int64_sequence(PyObject *obj, dt_py_shape *out, const char *what)
{
    char not_a_sequence[64];
    snprintf(not_a_sequence, sizeof not_a_sequence, "%s must be a sequence of integers", what);
    PyObject *seq = PySequence_Fast(obj, not_a_sequence);
    if (seq == NULL)
        return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > DT_MAX_NDIM) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "maximum supported dimension for a tensor is %d, found %zd",
                     DT_MAX_NDIM, n);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (PyBool_Check(item) || !PyIndex_Check(item)) {
            PyErr_Format(PyExc_TypeError, "%s must contain integers, got '%.100s' at position %zd",
                         what, Py_TYPE(item)->tp_name, i);
            Py_DECREF(seq);
            return 0;
        }
        PyObject *index = PyNumber_Index(item);
        long long v = index ? PyLong_AsLongLong(index) : -1;
        Py_XDECREF(index);
        if (v == -1 && PyErr_Occurred()) {
            if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_OverflowError, "entry %zd of the %s (%R) does not fit in 64 "
                             "bits", i, what, item);
            }
            Py_DECREF(seq);
            return 0;
        }
        out->dims[i] = v;
    }
    out->ndim = (int)n;
    Py_DECREF(seq);
    return 1;
}

int dt_py_shape_converter(PyObject *obj, void *out) { return int64_sequence(obj, out, "shape"); }
int dt_py_strides_converter(PyObject *obj, void *out) { return int64_sequence(obj, out, "strides"); }

int dt_py_factory_device(PyObject *obj, dt_device *out)
{
    if (obj == Py_None) {
        PyObject *d = dt_py_default_device(NULL, NULL);
        if (d == NULL)
            return -1;
        *out = ((PyDtDevice *)d)->dev;
        Py_DECREF(d);
    } else if (!dt_py_device_converter(obj, out)) {
        return -1;
    }
    return dt_py_device_resolve(out) == NULL ? -1 : 0;
}

/* _empty(shape, dtype=None, device=None) */
static PyObject *py_empty(PyObject *module, PyObject *args, PyObject *kwargs)
{
    (void)module;
    static char *kwlist[] = {"shape", "dtype", "device", NULL};
    dt_py_shape shape;
    int dtype = -1;
    PyObject *devobj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|O&O:_empty", kwlist, dt_py_shape_converter,
                                     &shape, dt_py_dtype_converter, &dtype, &devobj))
        return NULL;
    dt_device dev;
    if (dt_py_factory_device(devobj, &dev) < 0)
        return NULL;
    dt_tensor t;
    dt_error err;
    if (dt_tensor_init_new(&t, dev, dtype < 0 ? DT_FLOAT64 : (dt_dtype)dtype, shape.ndim,
                           shape.dims, &err) != DT_OK)
        return dt_py_raise(&err);
    return dt_py_tensor_wrap(&t);
}

/* _from_numpy(array): a CPU tensor sharing the array's memory.  The array
 * must be native-endian and of a supported dtype. */
static PyObject *py_from_numpy(PyObject *module, PyObject *arr)
{
    (void)module;
    if (!PyArray_Check(arr))
        return PyErr_Format(PyExc_TypeError, "expected a numpy.ndarray, got %.100s",
                            Py_TYPE(arr)->tp_name);
    if (!PyArray_ISNOTSWAPPED((PyArrayObject *)arr))
        return PyErr_Format(PyExc_ValueError, "array is not in native byte order");
    return dt_py_tensor_from_ndarray((PyArrayObject *)arr);
}

PyMethodDef dt_py_creation_methods[] = {
    {"_empty", (PyCFunction)(void (*)(void))py_empty, METH_VARARGS | METH_KEYWORDS,
     "_empty(shape, dtype=None, device=None): an uninitialised contiguous tensor"},
    {"_from_numpy", py_from_numpy, METH_O, "_from_numpy(array): a zero-copy CPU tensor"},
    {"_default_device", dt_py_default_device, METH_NOARGS,
     "the device factories use when device=None"},
    {NULL, NULL, 0, NULL},
};
