/* creation.c - the primitives behind the factory functions: empty tensors
 * of a shape, dtype and device, and zero-copy wrapping of NumPy arrays.
 * The argument-rich factories (zeros, arange, rand, ...) are Python
 * (devtensor/_creation.py) on top of these and TensorBase._generate_. */
#include "pydt.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A sequence of int64 (anything with __index__) into out; `what` names it
 * in errors ("shape" or "strides"). */
static int int64_sequence(PyObject *obj, dt_py_shape *out, const char *what)
{
    PyObject *seq;
    if (PyTuple_CheckExact(obj)) {
        seq = Py_NewRef(obj); /* the common case, without formatting the message below */
    } else {
        char not_a_sequence[64];
        snprintf(not_a_sequence, sizeof not_a_sequence, "%s must be a sequence of integers", what);
        seq = PySequence_Fast(obj, not_a_sequence);
        if (seq != NULL && PyList_Check(seq)) { /* a snapshot: an __index__ below may change a list */
            Py_SETREF(seq, PyList_AsTuple(seq));
        }
        if (seq == NULL)
            return 0;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > DT_MAX_NDIM) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "maximum supported dimension for a tensor is %d, found %zd",
                     DT_MAX_NDIM, n);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (PyLong_CheckExact(item)) { /* an int: no __index__ call */
            int overflow = 0;
            long long v = PyLong_AsLongLongAndOverflow(item, &overflow);
            if (!overflow && !(v == -1 && PyErr_Occurred())) {
                out->dims[i] = v;
                continue;
            }
            PyErr_Clear(); /* the general path below reports it */
        }
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
                PyErr_Format(dt_py_SizeOverflowError, "entry %zd of the %s (%R) does not fit in 64 "
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

/* _empty(shape, dtype=None, device=None), positional only: the allocation
 * under every Python-level factory, so its arguments are read directly */
static PyObject *py_empty(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs < 1 || nargs > 3)
        return PyErr_Format(PyExc_TypeError, "_empty takes 1 to 3 positional arguments (%zd given)",
                            nargs);
    dt_py_shape shape;
    int dtype = -1;
    PyObject *devobj = nargs > 2 ? args[2] : Py_None;
    if (!dt_py_shape_converter(args[0], &shape) || (nargs > 1 && !dt_py_dtype_converter(args[1], &dtype)))
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

/* The Python layer's general form of a creation function (devtensor
 * ._creation.NAME), called with the arguments C could not answer. */
PyObject *dt_py_creation_general(const char *name, PyObject **cache, PyObject *const *args, size_t nargsf,
                                 PyObject *kwnames)
{
    if (dt_py_lazy_function("devtensor._creation", name, cache) == NULL)
        return NULL;
    return PyObject_Vectorcall(*cache, args, nargsf, kwnames);
}


/* Note [Factories in C]
 * empty, zeros and ones are called in every program, often on small
 * shapes, and the Python layer's argument handling (Note [Varargs shape or
 * positional dtype] in _creation.py) cost six times NumPy's call.  Their
 * common forms are answered here: the shape as exact ints (zeros(3),
 * ones(2, 3)) or one tuple or list of them, a devtensor dtype positional
 * after a shape (zeros((2, 2), dt.float32)) or as dtype=, and device=.
 * Everything else (another dtype spelling, order, shape=, a shape of
 * NumPy integers, a bad argument) goes to _creation's general function,
 * with its rules and errors; the fast path builds the same tensor through
 * the same calls (_C._empty's allocation, then _fill_). */

static int exact_int(PyObject *o) { return PyLong_CheckExact(o); }

static int is_dtype_object(PyObject *o) { return PyObject_TypeCheck(o, &dt_py_dtype_type); }

/* fill < 0: empty; else zeros (0) or ones (1).  NULL with no error set:
 * not a fast form (the caller goes to the general function). */
static PyObject *factory_fast(int fill, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *dtype_obj = NULL, *device_obj = Py_None, *shape_obj = NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k), *value = args[nargs + k];
        int is_dtype = PyUnicode_CompareWithASCIIString(name, "dtype") == 0;
        if (is_dtype && (value == Py_None || is_dtype_object(value)))
            dtype_obj = value == Py_None ? NULL : value;
        else if (PyUnicode_CompareWithASCIIString(name, "device") == 0)
            device_obj = value;
        else if (nargs == 0 && shape_obj == NULL && (PyUnicode_CompareWithASCIIString(name, "shape") == 0 ||
                                                     PyUnicode_CompareWithASCIIString(name, "size") == 0))
            shape_obj = value; /* zeros(shape=(2, 3)), PyTorch's zeros(size=(2, 3)) */
        else
            return NULL;
    }
    dt_py_shape shape;
    if (shape_obj != NULL) {
        if (!dt_py_read_int_shape(&shape_obj, 1, &shape))
            return NULL;
    } else if (nargs < 1) {
        return NULL;
    } else if (nargs == 2 && !exact_int(args[1])) { /* zeros(shape, dtype) */
        if (!is_dtype_object(args[1]) || dtype_obj != NULL || !dt_py_read_int_shape(args, 1, &shape))
            return NULL;
        dtype_obj = args[1];
    } else if (!dt_py_read_int_shape(args, nargs, &shape)) {
        return NULL;
    }
    dt_device dev;
    if (dt_py_factory_device(device_obj, &dev) < 0)
        return NULL;
    dt_tensor t;
    dt_error err;
    dt_dtype dtype = dtype_obj ? (dt_dtype)((PyDtDtype *)dtype_obj)->code : DT_FLOAT64;
    if (dt_tensor_init_new(&t, dev, dtype, shape.ndim, shape.dims, &err) != DT_OK)
        return dt_py_raise(&err);
    if (fill == 0 && dt_py_small_cpu_work(&t, t.numel)) { /* zero bits are every dtype's zero */
        memset(dt_tensor_data(&t), 0, (size_t)t.numel * dt_tensor_itemsize(&t));
        return dt_py_tensor_wrap(&t);
    }
    PyObject *out = dt_py_tensor_wrap(&t);
    if (out != NULL && fill >= 0) {
        PyObject *value = PyLong_FromLong(fill);
        int r = value ? dt_py_tensor_fill((PyDtTensor *)out, value) : -1;
        Py_XDECREF(value);
        if (r < 0)
            Py_CLEAR(out);
    }
    return out;
}

/* NumPy's error for a call without a shape (the general function would
 * name itself); shape= (NumPy's, the array API's) and size= (PyTorch's)
 * are shapes too (factory_fast reads the simple ones) */
static int has_shape(const char *name, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw && nargs == 0; k++)
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, k), "shape") == 0 ||
            PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, k), "size") == 0)
            return 1;
    if (nargs == 0)
        PyErr_Format(PyExc_TypeError, "%s() missing required argument 'shape' (pos 1)", name);
    return nargs > 0;
}

#define DT_FACTORY(FN, NAME, FILL)                                                                   \
    static PyObject *FN(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) \
    {                                                                                                \
        (void)module;                                                                                \
        static PyObject *general;                                                                    \
        if (!has_shape(NAME, nargs, kwnames))                                                        \
            return NULL;                                                                             \
        PyObject *t = factory_fast(FILL, args, nargs, kwnames);                                      \
        if (t != NULL || PyErr_Occurred())                                                           \
            return t;                                                                                \
        return dt_py_creation_general("_" NAME "_general", &general, args, (size_t)nargs, kwnames);        \
    }
DT_FACTORY(py_empty_fast, "empty", -1)
DT_FACTORY(py_zeros, "zeros", 0)
DT_FACTORY(py_ones, "ones", 1)
#undef DT_FACTORY

/* Note [arange in C]
 * arange of exact ints and floats (one to three of them, by position or by
 * the names start, stop and step, no dtype or the default one (int64 for
 * ints, float64 when a bound is a float), any device) is answered here, as
 * _creation._arange_general answers it: NumPy's length ceil((stop - start)
 * / step) (for floats in doubles, a quotient that underflows to zero giving
 * one value or none) and the core's affine fill, for floats from start with
 * NumPy's delta (start + step) - start (a start of -0.0 goes on: it stays
 * the first value there).
 * Other dtypes, a zero step, bounds past int64, a length that is NaN,
 * infinite or past int64, a bound given twice or no stop go to that
 * function (its errors are NumPy's).  As NumPy's, a lone positional bound
 * is the stop (arange(5), arange(2, step=2)). */
typedef struct {
    int is_float;
    long long i; /* the int, when !is_float */
    double d;    /* the value as a double (an int's too) */
} arange_bound;

static int read_arange_bound(PyObject *obj, arange_bound *out)
{
    if (PyFloat_CheckExact(obj)) {
        out->is_float = 1;
        out->d = PyFloat_AS_DOUBLE(obj);
        return 1;
    }
    if (!exact_int(obj))
        return 0;
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow || (x == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    out->is_float = 0;
    out->i = x;
    out->d = (double)x; /* float(x): both round to nearest */
    return 1;
}

/* NumPy's length for int bounds; 0 when the general function must answer. */
static int int_arange_length(long long start, long long stop, long long step, long long *length)
{
    long long diff;
    if (step == 0 || __builtin_sub_overflow(stop, start, &diff) || (diff == LLONG_MIN && step == -1))
        return 0; /* (LLONG_MIN / -1 overflows: a length of 2**63, the general path's error) */
    *length = diff / step;
    if (diff % step != 0 && (diff > 0) == (step > 0))
        (*length)++;
    if (*length < 0)
        *length = 0;
    return 1;
}

/* NumPy's length for float bounds (_creation._arange_length); 0 when the
 * general function must answer. */
static int float_arange_length(double start, double stop, double step, long long *length)
{
    double delta = stop - start, quotient = delta / step;
    if (step == 0.0 || isnan(quotient) || isinf(quotient))
        return 0;
    if (quotient == 0.0 && delta != 0.0) {
        *length = signbit(quotient) ? 0 : 1;
        return 1;
    }
    double n = ceil(quotient);
    if (n >= 9223372036854775808.0)
        return 0;
    *length = n > 0 ? (long long)n : 0;
    return 1;
}

static PyObject *arange_fast(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[3] = {"start", "stop", "step"};
    PyObject *device_obj = Py_None, *dtype_obj = Py_None;
    arange_bound v[3] = {{0, 0, 0.0}, {0, 0, 0.0}, {0, 1, 1.0}}; /* start, stop, step */
    int given[3] = {0, 0, 0};
    if (nargs > 3)
        return NULL;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        if (!read_arange_bound(args[i], &v[i]))
            return NULL;
        given[i] = 1;
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k), *value = args[nargs + k];
        if (PyUnicode_CompareWithASCIIString(name, "dtype") == 0) {
            if (value != Py_None && !is_dtype_object(value))
                return NULL;
            dtype_obj = value;
            continue;
        }
        if (PyUnicode_CompareWithASCIIString(name, "device") == 0) {
            device_obj = value;
            continue;
        }
        int slot = 0;
        while (slot < 3 && PyUnicode_CompareWithASCIIString(name, names[slot]) != 0)
            slot++;
        if (slot == 3 || given[slot] || !read_arange_bound(value, &v[slot]))
            return NULL;
        given[slot] = 2; /* by name */
    }
    if (!given[1]) {
        if (given[0] != 1) /* no stop, and no lone positional bound to be it */
            return NULL;
        v[1] = v[0];
        v[0] = (arange_bound){0, 0, 0.0};
    }
    int floats = v[0].is_float || v[1].is_float || v[2].is_float;
    dt_dtype dtype = floats ? DT_FLOAT64 : DT_INT64;
    if ((dtype_obj != Py_None && ((PyDtDtype *)dtype_obj)->code != dtype) ||
        (floats && v[0].d == 0.0 && signbit(v[0].d))) /* -0.0 first: the general function's fill */
        return NULL;
    long long length;
    if (!(floats ? float_arange_length(v[0].d, v[1].d, v[2].d, &length)
                 : int_arange_length(v[0].i, v[1].i, v[2].i, &length)))
        return NULL;
    dt_device dev;
    if (dt_py_factory_device(device_obj, &dev) < 0)
        return NULL;
    dt_tensor t;
    dt_error err;
    int64_t shape[1] = {length};
    if (dt_tensor_init_new(&t, dev, dtype, 1, shape, &err) != DT_OK)
        return dt_py_raise(&err);
    dt_status st = DT_OK;
    if (length > 0) {
        dt_gen gen;
        memset(&gen, 0, sizeof gen);
        gen.kind = DT_GEN_AFFINE;
        gen.istart = v[0].i, gen.istep = v[2].i;
        gen.start = v[0].d;
        /* NumPy's delta, (start + step) - start; one value is start alone */
        gen.step = !floats ? v[2].d : length > 1 ? (v[0].d + v[2].d) - v[0].d : 0.0;
        DT_PY_TENSOR_WORK(!dt_py_small_cpu_work(&t, t.numel), st = dt_tensor_generate(&t, &gen, &err));
    }
    if (st != DT_OK) {
        dt_tensor_clear(&t);
        return dt_py_raise(&err);
    }
    return dt_py_tensor_wrap(&t);
}

static PyObject *py_arange(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    (void)module;
    static PyObject *general;
    PyObject *t = arange_fast(args, nargs, kwnames);
    if (t != NULL || PyErr_Occurred())
        return t;
    return dt_py_creation_general("_arange_general", &general, args, (size_t)nargs, kwnames);
}

PyMethodDef dt_py_creation_methods[] = {
    {"arange", (PyCFunction)(void (*)(void))py_arange, METH_FASTCALL | METH_KEYWORDS,
     "arange($module, start, stop=None, step=1, dtype=None, device=None)\n--\n\n"
     "Evenly spaced values in [start, stop), NumPy's arange (int64 for ints, float64 when any bound "
     "is a float)."},
    {"empty", (PyCFunction)(void (*)(void))py_empty_fast, METH_FASTCALL | METH_KEYWORDS,
     "empty($module, shape, *more, dtype=None, order='C', device=None)\n--\n\n"
     "empty(shape, dtype=None, order='C', *, device=None) or empty(*shape): "
     "uninitialised values (float64 by default)."},
    {"zeros", (PyCFunction)(void (*)(void))py_zeros, METH_FASTCALL | METH_KEYWORDS,
     "zeros($module, shape, *more, dtype=None, order='C', device=None)\n--\n\n"
     "zeros(shape, dtype=None, order='C', *, device=None) or zeros(*shape): "
     "a new tensor of zeros (float64 by default)."},
    {"ones", (PyCFunction)(void (*)(void))py_ones, METH_FASTCALL | METH_KEYWORDS,
     "ones($module, shape, *more, dtype=None, order='C', device=None)\n--\n\n"
     "ones(shape, dtype=None, order='C', *, device=None) or ones(*shape): "
     "a new tensor of ones (float64 by default)."},
    {"_empty", (PyCFunction)(void (*)(void))py_empty, METH_FASTCALL,
     "_empty(shape, dtype=None, device=None): an uninitialised contiguous tensor"},
    {"_from_numpy", py_from_numpy, METH_O, "_from_numpy(array): a zero-copy CPU tensor"},
    {"_default_device", dt_py_default_device, METH_NOARGS,
     "the device factories use when device=None"},
    {NULL, NULL, 0, NULL},
};
