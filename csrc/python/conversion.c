/* conversion.c - asarray, array and tensor: data of any kind (tensors,
 * NumPy arrays, Python data) as a tensor.  Their common calls are answered
 * here; the rest go to devtensor._creation's general functions. */
#include "pydt.h"

#include <string.h>

/* Note [Conversions in C]
 * asarray(obj, dtype=None, copy=None), array(obj, dtype=None, copy=True)
 * and tensor(data, dtype=None), the dtype by position or name, a device
 * by name, are the first line of most functions ("x = np.asarray(x,
 * dtype=float)"), so they are answered here when obj is
 *   - a tensor: itself when its dtype (and device) is asked for and no copy
 *     is; a copy (cast on the way) on its device when it is contiguous;
 *   - a native NumPy array, for the CPU (named, or the default device):
 *     shared when its dtype is asked for, else NumPy's own copy or cast in
 *     the array's layout ('K') taken over by the tensor;
 *   - Python data (lists, tuples, numbers, NumPy scalars) holding no tensor
 *     off the CPU, for the CPU: NumPy's conversion, taken over.
 * Everything else (order=, ndmin=, like=, a move to another device,
 * bfloat16, copy=False where a copy is needed, a conversion NumPy refuses,
 * subclasses) goes to the general functions, which give devtensor's
 * results and errors; this file only answers what they would, faster. */

typedef struct {
    PyObject *obj;
    int dtype; /* a dt_dtype, or -1: obj's own */
    int copy;  /* 1 always, 0 never (an error when needed), -1 when needed */
    int has_device; /* device= named one (else: a tensor's own, or the default) */
    int tensor_to_default; /* a tensor goes to a default device other than the cpu (tensor()) */
    dt_device device;
} conversion;

static int is_name(PyObject *name, const char *ascii)
{
    return PyUnicode_CompareWithASCIIString(name, ascii) == 0;
}

/* The arguments (obj, dtype=None, ...) with keywords among dtype, copy (when
 * the function has it) and device into *c; 0 when the call is not of that
 * form (nothing raised: the general function reads it). */
static int conversion_parse(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int copy_default,
                            int takes_copy, conversion *c)
{
    if (nargs < 1 || nargs > 2)
        return 0;
    c->obj = args[0];
    c->copy = copy_default;
    c->has_device = 0;
    PyObject *dtype = nargs == 2 ? args[1] : Py_None, *device = Py_None;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k), *value = args[nargs + k];
        if (nargs == 1 && is_name(name, "dtype"))
            dtype = value;
        else if (takes_copy && is_name(name, "copy") && (value == Py_None || PyBool_Check(value)))
            c->copy = value == Py_None ? -1 : value == Py_True;
        else if (is_name(name, "device"))
            device = value;
        else
            return 0;
    }
    if (device != Py_None) {
        if (!dt_py_device_converter(device, &c->device) || dt_py_device_resolve(&c->device) == NULL) {
            PyErr_Clear(); /* not a device, or none such: the general function says so */
            return 0;
        }
        c->has_device = 1;
    }
    c->dtype = -1;
    if (dtype != Py_None && !dt_py_dtype_converter(dtype, &c->dtype)) {
        PyErr_Clear(); /* not a dtype: the general function says so */
        return 0;
    }
    return 1;
}

/* A native NumPy array of a dtype we have (*own), which a CPU tensor can share. */
static int shareable_array(PyObject *obj, dt_dtype *own)
{
    if (!PyArray_CheckExact(obj) || !PyArray_ISNOTSWAPPED((PyArrayObject *)obj))
        return 0;
    dt_dtype d;
    if (dt_py_dtype_from_descr(PyArray_DESCR((PyArrayObject *)obj), &d) < 0) {
        PyErr_Clear();
        return 0;
    }
    if (own)
        *own = d;
    return 1;
}

/* A tensor taking over a fresh array (its only owner), NULL with nothing
 * raised when we have no dtype for NumPy's result (the general function's
 * error); the array reference is consumed. */
static PyObject *take_array(PyObject *arr)
{
    if (arr == NULL)
        return NULL;
    PyObject *t = shareable_array(arr, NULL) ? dt_py_tensor_from_ndarray((PyArrayObject *)arr) : NULL;
    Py_DECREF(arr);
    return t;
}

static PyObject *convert_tensor(const conversion *c)
{
    const dt_tensor *t = &((PyDtTensor *)c->obj)->t;
    dt_dtype dtype = c->dtype < 0 ? t->dtype : (dt_dtype)c->dtype;
    if (dtype == t->dtype && c->copy != 1)
        return Py_NewRef(c->obj);
    if (c->copy == 0 || !dt_tensor_is_contiguous(t)) /* an error, or a copy in t's layout */
        return NULL;
    dt_tensor out;
    dt_error err;
    if (dt_py_same_device_copy(t, dtype, &out, &err) != DT_OK)
        return dt_py_raise(&err);
    return dt_py_tensor_wrap(&out);
}

static PyObject *convert_array(const conversion *c, dt_dtype own)
{
    PyArrayObject *arr = (PyArrayObject *)c->obj;
    if (c->dtype < 0 || c->dtype == (int)own) {
        if (c->copy != 1)
            return dt_py_tensor_share_ndarray(arr, own);
        return take_array(PyArray_NewCopy(arr, NPY_KEEPORDER));
    }
    if (c->copy == 0)
        return NULL;
    PyArray_Descr *descr = PyArray_DescrFromType(dt_py_dtype_typenum((dt_dtype)c->dtype));
    if (descr == NULL)
        return NULL;
    PyObject *cast = PyArray_NewLikeArray(arr, NPY_KEEPORDER, descr, 0); /* takes descr */
    if (cast != NULL && PyArray_CopyInto((PyArrayObject *)cast, arr) < 0) /* astype's unsafe cast */
        Py_CLEAR(cast);
    return take_array(cast);
}

static int is_python_data(PyObject *obj)
{
    return PyList_CheckExact(obj) || PyTuple_CheckExact(obj) || PyFloat_CheckExact(obj) ||
           PyLong_CheckExact(obj) || PyBool_Check(obj) || PyComplex_CheckExact(obj) ||
           PyArray_IsScalar(obj, Generic);
}

/* Note [Tensors inside Python data]
 * np.asarray([x.sum(), x.max()]) and np.array([t1, t2]) with tensors on a
 * device must give a tensor on that device, built there (_creation
 * ._from_nested_on_device), not NumPy's conversion, which would read each
 * tensor to the host.  The nested lists and tuples are scanned here in C
 * (the scan costs little beside NumPy's own walk): the first device other
 * than the CPU found, and whether a second one is there. */

/* 0 none, 1 one device (*first), 2 two distinct ones (*first, *second) */
static int non_cpu_devices(PyObject *seq, int depth, dt_device *first, dt_device *second)
{
    if (depth > DT_MAX_NDIM + 1)
        return 0; /* deeper than a tensor can be: NumPy's conversion says what is wrong */
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    int found = 0;
    for (Py_ssize_t i = 0; i < n && found < 2; i++) {
        PyObject *o = items[i];
        if (DtTensor_Check(o)) {
            dt_device d = dt_tensor_device(&((PyDtTensor *)o)->t);
            if (d.type == DT_DEVICE_CPU || (found == 1 && dt_device_equal(d, *first)))
                continue;
            *(found == 0 ? first : second) = d;
            found++;
        } else if (PyList_CheckExact(o) || PyTuple_CheckExact(o)) {
            dt_device a, b;
            int inner = non_cpu_devices(o, depth + 1, &a, &b);
            for (int k = 0; k < inner && found < 2; k++) {
                dt_device d = k == 0 ? a : b;
                if (found == 1 && dt_device_equal(d, *first))
                    continue;
                *(found == 0 ? first : second) = d;
                found++;
            }
        }
    }
    return found;
}

/* _devices_inside(seq): () when the nested lists and tuples of seq hold no
 * tensor off the CPU, else the (one or two) devices found */
static PyObject *py_devices_inside(PyObject *module, PyObject *seq)
{
    (void)module;
    if (!(PyList_CheckExact(seq) || PyTuple_CheckExact(seq)))
        return PyTuple_New(0);
    dt_device a, b;
    int found = non_cpu_devices(seq, 0, &a, &b);
    if (found == 0)
        return PyTuple_New(0);
    PyObject *da = dt_py_device_new(a), *db = found == 2 ? dt_py_device_new(b) : NULL;
    PyObject *r = (da == NULL || (found == 2 && db == NULL)) ? NULL
                  : found == 2 ? PyTuple_Pack(2, da, db) : PyTuple_Pack(1, da);
    Py_XDECREF(da);
    Py_XDECREF(db);
    return r;
}

static PyObject *convert_python_data(const conversion *c)
{
    dt_device a, b;
    if (c->copy == 0 ||
        ((PyList_CheckExact(c->obj) || PyTuple_CheckExact(c->obj)) && non_cpu_devices(c->obj, 0, &a, &b) > 0))
        return NULL;
    PyArray_Descr *descr = NULL;
    if (c->dtype >= 0 && (descr = PyArray_DescrFromType(dt_py_dtype_typenum((dt_dtype)c->dtype))) == NULL)
        return NULL;
    PyObject *arr = PyArray_FromAny(c->obj, descr, 0, 0, NPY_ARRAY_DEFAULT, NULL); /* takes descr */
    if (arr == NULL) { /* ragged, out of range, ...: the general function's error */
        PyErr_Clear();
        return NULL;
    }
    return take_array(arr);
}

/* The conversion, or NULL with nothing raised where the general function
 * must answer (Note [Conversions in C]). */
static PyObject *convert(const conversion *c)
{
    if (DtTensor_Check(c->obj)) {
        if (!c->has_device && c->tensor_to_default && !dt_py_default_device_is_cpu())
            return NULL; /* Note [tensor() under a default device] in _creation.py: maybe a move */
        return c->has_device && !dt_device_equal(c->device, dt_tensor_device(&((PyDtTensor *)c->obj)->t))
                   ? NULL /* a move */
                   : convert_tensor(c);
    }
    if (c->dtype == DT_BFLOAT16 ||
        (c->has_device ? c->device.type != DT_DEVICE_CPU : !dt_py_default_device_is_cpu()))
        return NULL;
    dt_dtype own;
    if (shareable_array(c->obj, &own))
        return convert_array(c, own);
    return is_python_data(c->obj) ? convert_python_data(c) : NULL;
}

static PyObject *conversion_call(const char *general_name, PyObject **general, int copy_default,
                                 int takes_copy, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    conversion c;
    c.tensor_to_default = !takes_copy; /* tensor(), the one without copy= */
    if (conversion_parse(args, nargs, kwnames, copy_default, takes_copy, &c)) {
        PyObject *t = convert(&c);
        if (t != NULL || PyErr_Occurred())
            return t;
    }
    return dt_py_creation_general(general_name, general, args, (size_t)nargs, kwnames);
}

static PyObject *py_asarray(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    (void)module;
    static PyObject *general;
    if (nargs == 1 && kwnames == NULL) { /* the commonest call: a tensor or an array alone */
        if (DtTensor_Check(args[0]))
            return Py_NewRef(args[0]);
        dt_dtype own;
        if (shareable_array(args[0], &own) && dt_py_default_device_is_cpu())
            return dt_py_tensor_share_ndarray((PyArrayObject *)args[0], own);
    }
    return conversion_call("_asarray_general", &general, -1, 1, args, nargs, kwnames);
}

static PyObject *py_array(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    (void)module;
    static PyObject *general;
    return conversion_call("_array_general", &general, 1, 1, args, nargs, kwnames);
}

static PyObject *py_tensor(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    (void)module;
    static PyObject *general;
    return conversion_call("_tensor_general", &general, 1, 0, args, nargs, kwnames);
}

PyMethodDef dt_py_conversion_methods[] = {
    {"_devices_inside", (PyCFunction)py_devices_inside, METH_O,
     "the devices other than cpu of the tensors inside nested lists and tuples (Note [Tensors inside Python data])"},
    {"asarray", (PyCFunction)(void (*)(void))py_asarray, METH_FASTCALL | METH_KEYWORDS,
     "asarray(obj, dtype=None, device=None, copy=None): obj as a tensor; tensors and CPU NumPy arrays "
     "are shared, not copied, when dtype and device already match and copy is not True; copy=False "
     "raises ValueError when a copy is needed."},
    {"array", (PyCFunction)(void (*)(void))py_array, METH_FASTCALL | METH_KEYWORDS,
     "array($module, object, dtype=None, *, copy=True, order='K', subok=False, ndmin=0, device=None)\n--\n\n"
     "NumPy's array: a new tensor holding a copy of object (nested sequences, scalars, NumPy arrays, buffers, "
     "tensors); copy=None copies only when needed, copy=False raises ValueError when a copy is needed.  A "
     "tensor stays on its device unless device= is given; ndmin prepends length-1 axes (a view)."},
    {"tensor", (PyCFunction)(void (*)(void))py_tensor, METH_FASTCALL | METH_KEYWORDS,
     "tensor(data, dtype=None, device=None): a new tensor holding a copy of data (nested lists, "
     "scalars, arrays, tensors)."},
    {NULL, NULL, 0, NULL},
};
