/* number.c - Python operators on tensors and the conversion of Python
 * scalars (NEP 50: Python scalars are "weak" and take the tensor's dtype).
 *
 * Note [Operand kinds]
 * Beside a tensor, an operand may be a Python bool/int/float/complex (weak,
 * follows the tensor's device and dtype), a NumPy array or NumPy scalar
 * (strong, like a CPU tensor; with a CUDA tensor it is an error that says
 * how to move it), or anything else (NotImplemented, so Python can try the
 * other operand).
 */
#include "pydt.h"
#include "scalar.h"

#include <string.h>

int dt_py_scalar_kind(PyObject *obj, dt_weak_kind *kind)
{
    if (PyArray_IsScalar(obj, Generic))
        return 0; /* NumPy scalars (np.float64 subclasses float) are strong */
    if (PyBool_Check(obj))
        *kind = DT_WEAK_BOOL;
    else if (PyLong_Check(obj))
        *kind = DT_WEAK_INT;
    else if (PyFloat_Check(obj))
        *kind = DT_WEAK_FLOAT;
    else if (PyComplex_Check(obj))
        *kind = DT_WEAK_COMPLEX;
    else
        return 0;
    return 1;
}

/* Integer range of a dtype, for NumPy 2's "Python integer out of bounds". */
static void int_range(dt_dtype d, long long *lo, unsigned long long *hi)
{
    int bits = 8 * dt_dtype_get_info(d)->itemsize;
    if (dt_dtype_get_info(d)->kind == DT_KIND_UINT) {
        *lo = 0;
        *hi = bits == 64 ? ~0ull : (1ull << bits) - 1;
    } else {
        *lo = bits == 64 ? INT64_MIN : -(1ll << (bits - 1));
        *hi = bits == 64 ? (unsigned long long)INT64_MAX : (1ull << (bits - 1)) - 1;
    }
}

static int int_to_bytes(PyObject *obj, dt_dtype to, void *bytes)
{
    const dt_dtype_info *info = dt_dtype_get_info(to);
    if (info->kind == DT_KIND_INT || info->kind == DT_KIND_UINT) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
        unsigned long long uv = 0;
        if (v == -1 && PyErr_Occurred())
            return -1;
        long long lo;
        unsigned long long hi;
        int_range(to, &lo, &hi);
        int in_range;
        if (overflow > 0) {
            uv = PyLong_AsUnsignedLongLong(obj);
            if (uv == (unsigned long long)-1 && PyErr_Occurred()) {
                PyErr_Clear();
                in_range = 0;
            } else {
                in_range = uv <= hi;
            }
        } else {
            in_range = overflow == 0 && v >= lo && (v < 0 || (unsigned long long)v <= hi);
        }
        if (!in_range) {
            PyErr_Format(PyExc_OverflowError, "Python integer %R out of bounds for %s", obj,
                         info->name);
            return -1;
        }
        if (overflow > 0)
            dt_scalar_cast(DT_UINT64, &uv, to, bytes);
        else
            dt_scalar_cast(DT_INT64, &v, to, bytes);
        return 0;
    }
    if (info->kind == DT_KIND_BOOL) {
        int truth = PyObject_IsTrue(obj);
        if (truth < 0)
            return -1;
        ((unsigned char *)bytes)[0] = (unsigned char)truth;
        return 0;
    }
    double d = PyLong_AsDouble(obj); /* OverflowError past float64, as NumPy */
    if (d == -1.0 && PyErr_Occurred())
        return -1;
    dt_scalar_cast(DT_FLOAT64, &d, to, bytes);
    return 0;
}

int dt_py_scalar_to_bytes(PyObject *obj, dt_dtype to, void *bytes)
{
    dt_weak_kind kind;
    if (!dt_py_scalar_kind(obj, &kind)) {
        /* NumPy scalars and 0-d arrays: convert through NumPy, then cast */
        if (PyArray_IsScalar(obj, Generic) || PyArray_Check(obj)) {
            PyArrayObject *arr = (PyArrayObject *)PyArray_FROM_O(obj);
            if (arr == NULL)
                return -1;
            dt_dtype from;
            int ok = PyArray_SIZE(arr) == 1 && dt_py_dtype_from_descr(PyArray_DESCR(arr), &from) == 0;
            if (ok) {
                unsigned char tmp[16];
                memcpy(tmp, PyArray_DATA(arr), (size_t)dt_dtype_get_info(from)->itemsize);
                dt_scalar_cast(from, tmp, to, bytes);
            } else if (!PyErr_Occurred()) {
                PyErr_Format(PyExc_ValueError, "expected a single value, got an array of size %zd",
                             (Py_ssize_t)PyArray_SIZE(arr));
            }
            Py_DECREF(arr);
            return ok ? 0 : -1;
        }
        PyErr_Format(PyExc_TypeError, "expected a number, got %.100s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    switch (kind) {
    case DT_WEAK_BOOL: {
        unsigned char b = obj == Py_True;
        dt_scalar_cast(DT_BOOL, &b, to, bytes);
        return 0;
    }
    case DT_WEAK_INT:
        return int_to_bytes(obj, to, bytes);
    case DT_WEAK_FLOAT: {
        double d = PyFloat_AS_DOUBLE(obj);
        dt_scalar_cast(DT_FLOAT64, &d, to, bytes);
        return 0;
    }
    default: {
        Py_complex c = PyComplex_AsCComplex(obj);
        dt_c128 z = {c.real, c.imag};
        dt_scalar_cast(DT_COMPLEX128, &z, to, bytes);
        return 0;
    }
    }
}

/* ---- building operands ---- */

/* Fills op from obj, beside a tensor of dtype `peer` on `device`.
 * Returns 1 on success, 0 for "not an operand" (NotImplemented), -1 on error.
 * *keep receives a new reference that must outlive the operand. */
static int make_operand(PyObject *obj, dt_dtype peer, dt_device device, dt_op opcode,
                        dt_operand *op, PyObject **keep)
{
    int comparison = opcode >= DT_OP_EQ;
    memset(op, 0, sizeof *op);
    *keep = NULL;
    if (DtTensor_Check(obj)) {
        op->tensor = &((PyDtTensor *)obj)->t;
        return 1;
    }
    dt_weak_kind kind;
    if (dt_py_scalar_kind(obj, &kind)) {
        /* true division of integers computes in float64: the scalar goes
         * there directly (NumPy picks the float loop before NEP 50 applies) */
        if (opcode == DT_OP_DIV && !dt_dtype_is_floating(peer) && !dt_dtype_is_complex(peer))
            peer = DT_FLOAT64;
        op->dtype = dt_promote_weak(peer, kind);
        if (dt_py_scalar_to_bytes(obj, op->dtype, op->value.bytes) == 0)
            return 1;
        if (!comparison || !PyErr_ExceptionMatches(PyExc_OverflowError))
            return -1;
        /* NumPy 2 compares with out-of-range Python ints exactly: widen */
        PyErr_Clear();
        op->dtype = DT_INT64;
        if (int_to_bytes(obj, DT_INT64, op->value.bytes) == 0)
            return 1;
        PyErr_Clear();
        op->dtype = DT_FLOAT64;
        return int_to_bytes(obj, DT_FLOAT64, op->value.bytes) == 0 ? 1 : -1;
    }
    if (PyArray_Check(obj) || PyArray_IsScalar(obj, Generic)) {
        if (device.type != DT_DEVICE_CPU) {
            char name[32];
            dt_device_format(device, name, sizeof name);
            PyErr_Format(PyExc_RuntimeError,
                         "Expected all tensors to be on the same device, but found a NumPy array "
                         "(cpu) and a tensor on %s; move the array first with "
                         "devtensor.asarray(array, device='%s')", name, name);
            return -1;
        }
        PyObject *arr = PyArray_FROM_OF(obj, NPY_ARRAY_NOTSWAPPED);
        if (arr == NULL)
            return -1;
        PyObject *t = dt_py_tensor_from_ndarray((PyArrayObject *)arr);
        Py_DECREF(arr);
        if (t == NULL)
            return -1;
        *keep = t;
        op->tensor = &((PyDtTensor *)t)->t;
        return 1;
    }
    return 0;
}

/* Note [Releasing the GIL]
 * Ops on at least this many elements run without the GIL, so other Python
 * threads (and notebooks' event loops) keep going. */
#define DT_GIL_RELEASE_NUMEL 32768

static PyObject *binary(PyObject *a, PyObject *b, dt_op op)
{
    PyObject *tensor_obj = DtTensor_Check(a) ? a : b;
    const dt_tensor *t = &((PyDtTensor *)tensor_obj)->t;
    dt_device device = dt_tensor_device(t);
    dt_operand ops[2];
    PyObject *keep[2] = {NULL, NULL};
    PyObject *result = NULL;
    for (int k = 0; k < 2; k++) {
        int r = make_operand(k == 0 ? a : b, t->dtype, device, op, &ops[k], &keep[k]);
        if (r <= 0) {
            if (r == 0)
                result = Py_NewRef(Py_NotImplemented);
            goto done;
        }
    }
    dt_tensor out;
    dt_error err;
    dt_status st;
    dt_tensor_init_empty(&out);
    int64_t work = (ops[0].tensor ? ops[0].tensor->numel : 1) + (ops[1].tensor ? ops[1].tensor->numel : 1);
    if (work >= DT_GIL_RELEASE_NUMEL) {
        Py_BEGIN_ALLOW_THREADS
        st = dt_binary(op, &ops[0], &ops[1], &out, &err);
        Py_END_ALLOW_THREADS
    } else {
        st = dt_binary(op, &ops[0], &ops[1], &out, &err);
    }
    result = st == DT_OK ? dt_py_tensor_wrap(&out) : dt_py_raise(&err);
done:
    Py_XDECREF(keep[0]);
    Py_XDECREF(keep[1]);
    return result;
}

static PyObject *nb_add(PyObject *a, PyObject *b) { return binary(a, b, DT_OP_ADD); }
static PyObject *nb_sub(PyObject *a, PyObject *b) { return binary(a, b, DT_OP_SUB); }
static PyObject *nb_mul(PyObject *a, PyObject *b) { return binary(a, b, DT_OP_MUL); }
static PyObject *nb_div(PyObject *a, PyObject *b) { return binary(a, b, DT_OP_DIV); }

PyNumberMethods dt_py_tensor_as_number = {
    .nb_add = nb_add,
    .nb_subtract = nb_sub,
    .nb_multiply = nb_mul,
    .nb_true_divide = nb_div,
};

PyObject *dt_py_tensor_richcompare(PyObject *a, PyObject *b, int op)
{
    static const dt_op ops[] = {
        [Py_LT] = DT_OP_LT, [Py_LE] = DT_OP_LE, [Py_EQ] = DT_OP_EQ,
        [Py_NE] = DT_OP_NE, [Py_GT] = DT_OP_GT, [Py_GE] = DT_OP_GE,
    };
    return binary(a, b, ops[op]);
}
