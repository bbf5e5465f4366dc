/* scalar_out.c - tensors as Python scalars: item(), and the bool(),
 * int(), float() and operator.index() slots (complex() is the Python
 * layer's __complex__, which calls item()).
 *
 * Note [Python scalars from tensors]
 * NumPy's and PyTorch's rules: item() takes a tensor of exactly one
 * element (any shape) and gives a Python bool, int, float or complex;
 * int() and float() convert that value as Python's int() and float() do
 * (so int(nan) is ValueError and float(complex) TypeError); index()
 * wants an integer dtype; bool() is the truth of the one element, and
 * NumPy's ValueError for none or several.  A device tensor's element is
 * copied to the host after the work queued before it.
 */
#include "pydt.h"
#include "scalar.h"

#include <string.h>

PyObject *dt_py_scalar_from_bytes(const void *bytes, dt_dtype d)
{
#define DT_LOAD(T) (*(T *)memcpy(&(T){0}, bytes, sizeof(T)))
    switch (d) {
    case DT_BOOL: return PyBool_FromLong(DT_LOAD(uint8_t) != 0);
    case DT_INT8: return PyLong_FromLong(DT_LOAD(int8_t));
    case DT_INT16: return PyLong_FromLong(DT_LOAD(int16_t));
    case DT_INT32: return PyLong_FromLong(DT_LOAD(int32_t));
    case DT_INT64: return PyLong_FromLongLong(DT_LOAD(int64_t));
    case DT_UINT8: return PyLong_FromUnsignedLong(DT_LOAD(uint8_t));
    case DT_UINT16: return PyLong_FromUnsignedLong(DT_LOAD(uint16_t));
    case DT_UINT32: return PyLong_FromUnsignedLong(DT_LOAD(uint32_t));
    case DT_UINT64: return PyLong_FromUnsignedLongLong(DT_LOAD(uint64_t));
    case DT_FLOAT16: return PyFloat_FromDouble(dt_half_to_float(DT_LOAD(dt_half)));
    case DT_BFLOAT16: return PyFloat_FromDouble(dt_bf16_to_float(DT_LOAD(dt_bf16)));
    case DT_FLOAT32: return PyFloat_FromDouble(DT_LOAD(float));
    case DT_FLOAT64: return PyFloat_FromDouble(DT_LOAD(double));
    case DT_COMPLEX64: {
        dt_c64 c = DT_LOAD(dt_c64);
        return PyComplex_FromDoubles(c.re, c.im);
    }
    case DT_COMPLEX128: {
        dt_c128 c = DT_LOAD(dt_c128);
        return PyComplex_FromDoubles(c.re, c.im);
    }
    default: return PyErr_Format(PyExc_SystemError, "dt_py_scalar_from_bytes: bad dtype %d", (int)d);
    }
#undef DT_LOAD
}

/* item(): the value of a one-element tensor as a Python scalar, NumPy's
 * item() (float16 and bfloat16 give a float); a device tensor's element
 * is copied to the host, after the work queued before it. */
static PyObject *item_of(const dt_tensor *t)
{
    if (t->numel != 1)
        return PyErr_Format(PyExc_ValueError, "can only convert an array of size 1 to a Python scalar");
    if (dt_tensor_device(t).type == DT_DEVICE_CPU)
        return dt_py_scalar_from_bytes(dt_tensor_data(t), t->dtype);
    dt_tensor host;
    dt_error err;
    dt_status st;
    DT_PY_BEGIN_TENSOR_WORK
    st = dt_tensor_to(&host, t, dt_device_cpu(), t->dtype, 0, &err);
    DT_PY_END_TENSOR_WORK
    if (st != DT_OK)
        return dt_py_raise(&err);
    PyObject *value = dt_py_scalar_from_bytes(dt_tensor_data(&host), host.dtype);
    dt_tensor_clear(&host);
    return value;
}

PyObject *dt_py_tensor_item(PyDtTensor *self, PyObject *unused)
{
    (void)unused;
    return item_of(&self->t);
}

/* one index of item(*args) as NumPy reads it (__index__), in [-n, n) */
static int item_index(PyObject *o, int64_t n, int axis, int64_t *out)
{
    PyObject *i = PyNumber_Index(o);
    long long v = i == NULL ? -1 : PyLong_AsLongLong(i);
    Py_XDECREF(i);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < -n || v >= n) {
        if (axis < 0)
            PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for size %lld", v, (long long)n);
        else
            PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for axis %d with size %lld", v, axis,
                         (long long)n);
        return -1;
    }
    *out = v < 0 ? v + n : v;
    return 0;
}

/* item(*args): NumPy's -- no argument (a one-element tensor), a flat index
 * in C order, or one index per axis (also as one tuple). */
PyObject *dt_py_tensor_item_at(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs)
{
    const dt_tensor *t = &self->t;
    if (nargs == 1 && PyTuple_Check(args[0])) {
        nargs = PyTuple_GET_SIZE(args[0]);
        args = &PyTuple_GET_ITEM(args[0], 0);
    }
    if (nargs == 0)
        return item_of(t);
    int64_t at = 0; /* bytes from element 0 */
    if (nargs == 1 && t->ndim != 1) {
        int64_t flat;
        if (item_index(args[0], t->numel, -1, &flat) < 0)
            return NULL;
        for (int d = t->ndim - 1; d >= 0; d--) {
            at += (flat % t->shape[d]) * t->strides[d];
            flat /= t->shape[d];
        }
    } else if (nargs != t->ndim) {
        return PyErr_Format(PyExc_ValueError, "incorrect number of indices for array");
    } else {
        for (int d = 0; d < t->ndim; d++) {
            int64_t i;
            if (item_index(args[d], t->shape[d], d, &i) < 0)
                return NULL;
            at += i * t->strides[d];
        }
    }
    dt_tensor element;
    dt_error err;
    const int64_t none[1] = {0}; /* a 0-d view: no shape or strides (not NULL: memcpy's arguments) */
    if (dt_tensor_init_view(&element, t->storage, t->offset + at, 0, none, none, t->dtype, &err) != DT_OK)
        return dt_py_raise(&err);
    PyObject *value = item_of(&element);
    dt_tensor_clear(&element);
    return value;
}

/* Note [Implicit transfers] (devtensor/_transfer_guard.py): int(), float(),
 * operator.index() and bool() of a device tensor ask the guard first;
 * item() is explicit and does not. */
static int guard_transfer(PyObject *self, const char *what)
{
    if (dt_tensor_device(&((PyDtTensor *)self)->t).type == DT_DEVICE_CPU)
        return 0;
    static PyObject *check;
    PyObject *fn = dt_py_lazy_function("devtensor._transfer_guard", "check", &check);
    if (fn == NULL)
        return -1;
    PyObject *r = PyObject_CallFunction(fn, "Os", self, what);
    Py_XDECREF(r);
    return r == NULL ? -1 : 0;
}

static PyObject *one_element(PyObject *self, const char *kind)
{
    int64_t n = ((PyDtTensor *)self)->t.numel;
    if (n != 1)
        return PyErr_Format(PyExc_TypeError,
                            "only single-element tensors can be converted to Python %ss (this one has %lld "
                            "elements)", kind, (long long)n);
    if (guard_transfer(self, kind[0] == 'i' ? "int()" : "float()") < 0)
        return NULL;
    return dt_py_tensor_item((PyDtTensor *)self, NULL);
}

PyObject *dt_py_tensor_int(PyObject *self)
{
    PyObject *v = one_element(self, "int");
    PyObject *r = v == NULL ? NULL : PyNumber_Long(v);
    Py_XDECREF(v);
    return r;
}

PyObject *dt_py_tensor_float(PyObject *self)
{
    PyObject *v = one_element(self, "float");
    PyObject *r = v == NULL ? NULL : PyNumber_Float(v);
    Py_XDECREF(v);
    return r;
}

PyObject *dt_py_tensor_index(PyObject *self)
{
    const dt_tensor *t = &((PyDtTensor *)self)->t;
    if (t->numel != 1 || !dt_dtype_is_integral(t->dtype))
        return PyErr_Format(PyExc_TypeError, "only integer tensors of a single element can be converted to an "
                            "index");
    if (guard_transfer(self, "operator.index()") < 0)
        return NULL;
    return dt_py_tensor_item((PyDtTensor *)self, NULL);
}

int dt_py_tensor_bool(PyObject *self)
{
    int64_t n = ((PyDtTensor *)self)->t.numel;
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "The truth value of an empty array is ambiguous. Use `array.size > 0` "
                                          "to check that an array is not empty.");
        return -1;
    }
    if (n > 1) {
        PyErr_SetString(PyExc_ValueError, "The truth value of an array with more than one element is "
                                          "ambiguous. Use a.any() or a.all()");
        return -1;
    }
    if (guard_transfer(self, "bool()") < 0)
        return -1;
    PyObject *v = dt_py_tensor_item((PyDtTensor *)self, NULL);
    if (v == NULL)
        return -1;
    int r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}
