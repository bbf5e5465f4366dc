/* number.c - elementwise functions and Python operators on tensors, and the
 * conversion of Python scalars (NEP 50: Python scalars are "weak" and take
 * the dtype of the tensors beside them).
 *
 * Note [Operand kinds]
 * Beside a tensor, an operand may be a Python bool/int/float/complex (weak,
 * follows the tensors' device and dtype), a NumPy array or NumPy scalar
 * (strong, like a CPU tensor; with a CUDA tensor it is an error that says
 * how to move it), or anything else (NotImplemented for operators, so
 * Python can try the other operand; TypeError for functions).
 */
#include "pydt.h"
#include "scalar.h"

#include <math.h>
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

/* Note [Storing a float in an integer]
 * NumPy stores a Python float, or a NumPy floating scalar, in an integer
 * element as int() would: NaN is a ValueError, an infinity an OverflowError,
 * anything else is truncated and must then fit the dtype (OverflowError "Python
 * integer 3000000000 out of bounds for int32").  A Python complex cannot be
 * stored in a real element (TypeError); a NumPy complex scalar can (its
 * imaginary part is dropped, as NumPy's cast does). */
static int float_to_int_bytes(double d, dt_dtype to, void *bytes)
{
    if (isnan(d)) {
        PyErr_SetString(PyExc_ValueError, "cannot convert float NaN to integer");
        return -1;
    }
    if (isinf(d)) {
        PyErr_SetString(PyExc_OverflowError, "cannot convert float infinity to integer");
        return -1;
    }
    PyObject *as_int = PyLong_FromDouble(d); /* truncates */
    if (as_int == NULL)
        return -1;
    int r = int_to_bytes(as_int, to, bytes);
    Py_DECREF(as_int);
    return r;
}

static int is_integer_dtype(dt_dtype d)
{
    dt_dtype_kind k = dt_dtype_get_info(d)->kind;
    return k == DT_KIND_INT || k == DT_KIND_UINT;
}

int dt_py_scalar_to_bytes(PyObject *obj, dt_dtype to, void *bytes)
{
    dt_weak_kind kind;
    if (PyArray_IsScalar(obj, Floating) && is_integer_dtype(to)) {
        double d = PyFloat_AsDouble(obj);
        if (d == -1.0 && PyErr_Occurred())
            return -1;
        return float_to_int_bytes(d, to, bytes);
    }
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
        if (is_integer_dtype(to))
            return float_to_int_bytes(d, to, bytes);
        dt_scalar_cast(DT_FLOAT64, &d, to, bytes);
        return 0;
    }
    default: {
        if (is_integer_dtype(to) || dt_dtype_get_info(to)->kind == DT_KIND_FLOAT) {
            PyErr_Format(PyExc_TypeError, "%s argument must be a string%s or a real number, "
                         "not 'complex'", is_integer_dtype(to) ? "int()" : "float()",
                         is_integer_dtype(to) ? ", a bytes-like object" : "");
            return -1;
        }
        Py_complex c = PyComplex_AsCComplex(obj);
        dt_c128 z = {c.real, c.imag};
        dt_scalar_cast(DT_COMPLEX128, &z, to, bytes);
        return 0;
    }
    }
}

/* ---- building operands ---- */

/* A Python int compared with an integer tensor it does not fit: compare
 * exactly, as NumPy 2 does, in uint64 or against a float64 just outside
 * every integer's range. */
static int wide_int_operand(PyObject *obj, dt_operand *op)
{
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow == 0) {
        op->dtype = DT_INT64;
        memcpy(op->value.bytes, &v, sizeof v);
        return 0;
    }
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(obj);
        if (!(u == (unsigned long long)-1 && PyErr_Occurred())) {
            op->dtype = DT_UINT64;
            memcpy(op->value.bytes, &u, sizeof u);
            return 0;
        }
        PyErr_Clear();
    }
    double beyond = overflow > 0 ? 18446744073709551616.0 : -9223372036854777856.0;
    op->dtype = DT_FLOAT64;
    memcpy(op->value.bytes, &beyond, sizeof beyond);
    return 0;
}

static int is_strong_input(PyObject *obj)
{
    return DtTensor_Check(obj) || PyArray_Check(obj) || PyArray_IsScalar(obj, Generic);
}

static int strong_dtype(PyObject *obj, dt_dtype *d)
{
    if (DtTensor_Check(obj)) {
        *d = ((PyDtTensor *)obj)->t.dtype;
        return 0;
    }
    PyArray_Descr *descr = PyArray_Check(obj) ? PyArray_DESCR((PyArrayObject *)obj) : NULL;
    if (descr == NULL) {
        descr = PyArray_DescrFromScalar(obj);
        if (descr == NULL)
            return -1;
        int r = dt_py_dtype_from_descr(descr, d);
        Py_DECREF(descr);
        return r;
    }
    return dt_py_dtype_from_descr(descr, d);
}

/* A CPU tensor over NumPy array arr, moved to `device` when that is not the
 * cpu (a copy); new reference. */
static PyObject *array_on_device(PyObject *arr, dt_device device)
{
    PyObject *host = dt_py_tensor_from_ndarray((PyArrayObject *)arr);
    if (host == NULL || device.type == DT_DEVICE_CPU)
        return host;
    dt_tensor moved;
    dt_error err;
    dt_status st = dt_tensor_to(&moved, &((PyDtTensor *)host)->t, device,
                                ((PyDtTensor *)host)->t.dtype, 0, &err);
    Py_DECREF(host);
    if (st != DT_OK)
        return dt_py_raise(&err);
    return dt_py_tensor_wrap(&moved);
}

/* Note [Bools against 0 and 1]
 * mask != 0 and mask == 1 are common; NumPy's rules compare a bool tensor
 * with a Python int in int64, a cast of every element first (2.4x NumPy's
 * time here).  With 0 or 1 the bool loop gives the same answer for every
 * comparison and logical op (False, True order as 0, 1), so the scalar
 * becomes a bool; other ints keep NumPy's int64. */
static int bool_valued(PyObject *obj)
{
    if (PyBool_Check(obj) || !PyLong_Check(obj))
        return 0;
    int overflow;
    long v = PyLong_AsLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred())
        PyErr_Clear();
    return !overflow && (v == 0 || v == 1);
}

/* Fill ops[0..nin) from args (lists and tuples already made arrays, see
 * build_operands; from_seq[k] marks them).  Returns 1 on success, 0 for
 * "not an operand" (no exception set), -1 with an exception.  keep[k]
 * receives new references that must outlive the operands. */
static int build_operands_from(dt_op op, PyObject *const *args, const int *from_seq, int nin,
                               dt_operand *ops, PyObject **keep)
{
    dt_device device = dt_device_cpu();
    int have_peer = 0, have_device = 0;
    dt_dtype peer = DT_BOOL;
    for (int k = 0; k < nin; k++) {
        keep[k] = NULL;
        memset(&ops[k], 0, sizeof ops[k]);
        if (!have_device && DtTensor_Check(args[k])) {
            device = dt_tensor_device(&((PyDtTensor *)args[k])->t);
            have_device = 1;
        }
        if (op == DT_OP_WHERE && k == 0)
            continue; /* the condition does not take part in promotion */
        if (is_strong_input(args[k])) {
            dt_dtype d;
            if (strong_dtype(args[k], &d) < 0)
                return -1;
            peer = have_peer ? dt_promote_types(peer, d) : d;
            have_peer = 1;
        }
    }
    if (!have_device)
        return 0;
    for (int k = 0; k < nin; k++) {
        PyObject *obj = args[k];
        dt_weak_kind kind;
        if (DtTensor_Check(obj)) {
            ops[k].tensor = &((PyDtTensor *)obj)->t;
        } else if (dt_py_scalar_kind(obj, &kind)) {
            int cond = op == DT_OP_WHERE && k == 0;
            int comparison = (op >= DT_OP_EQ && op <= DT_OP_GE) || op == DT_OP_LOGICAL_AND ||
                             op == DT_OP_LOGICAL_OR || op == DT_OP_LOGICAL_XOR;
            ops[k].dtype = cond ? DT_BOOL : have_peer ? dt_ufunc_weak_dtype(op, peer, kind)
                                                      : dt_promote_weak(DT_BOOL, kind);
            if (comparison && have_peer && peer == DT_BOOL && kind == DT_WEAK_INT && bool_valued(obj))
                ops[k].dtype = DT_BOOL; /* Note [Bools against 0 and 1] */
            if (dt_py_scalar_to_bytes(obj, ops[k].dtype, ops[k].value.bytes) == 0)
                continue;
            if (!comparison || kind != DT_WEAK_INT ||
                !PyErr_ExceptionMatches(PyExc_OverflowError))
                return -1;
            PyErr_Clear();
            if (wide_int_operand(obj, &ops[k]) < 0)
                return -1;
        } else if (PyArray_IsScalar(obj, Generic)) {
            /* a NumPy scalar: strong dtype, but passed by value, so it goes
             * with tensors on any device (as in PyTorch) */
            if (strong_dtype(obj, &ops[k].dtype) < 0 ||
                dt_py_scalar_to_bytes(obj, ops[k].dtype, ops[k].value.bytes) < 0)
                return -1;
        } else if (PyArray_Check(obj) && PyArray_NDIM((PyArrayObject *)obj) == 0 &&
                   device.type != DT_DEVICE_CPU && !from_seq[k]) {
            /* a 0-d array beside a device tensor goes by value, as a NumPy
             * scalar (np.float64(1.5) < t hands NumPy's ufunc a 0-d array)
             * and a 0-d CPU tensor (PyTorch's rule) do */
            PyObject *scalar = PyArray_ToScalar(PyArray_DATA((PyArrayObject *)obj), (PyArrayObject *)obj);
            int bad = scalar == NULL || strong_dtype(scalar, &ops[k].dtype) < 0 ||
                      dt_py_scalar_to_bytes(scalar, ops[k].dtype, ops[k].value.bytes) < 0;
            Py_XDECREF(scalar);
            if (bad)
                return -1;
        } else if (PyArray_Check(obj)) {
            if (device.type != DT_DEVICE_CPU && !from_seq[k]) {
                char name[32];
                dt_device_format(device, name, sizeof name);
                PyErr_Format(PyExc_RuntimeError,
                             "Expected all tensors to be on the same device, but found a NumPy "
                             "array (cpu) and a tensor on %s; move the array first with "
                             "devtensor.asarray(array, device='%s')", name, name);
                return -1;
            }
            keep[k] = array_on_device(obj, device); /* native byte order: build_operands */
            if (keep[k] == NULL)
                return -1;
            ops[k].tensor = &((PyDtTensor *)keep[k])->t;
        } else {
            return 0;
        }
    }
    return 1;
}

/* Note [Sequences as operands]
 * As NumPy does, a list or tuple beside a tensor is np.asarray(seq): a strong
 * operand with NumPy's default dtypes (t == [0, 0, 1] compares elementwise);
 * it is copied to the tensor's device.  Sequences that NumPy cannot make a
 * numeric array of are no operand (the operator returns NotImplemented).
 * NumPy arrays in another byte order are read through a native copy. */
static int build_operands(dt_op op, PyObject *const *args, int nin, dt_operand *ops,
                          PyObject **keep)
{
    PyObject *local[DT_MAX_OPERANDS], *conv[DT_MAX_OPERANDS] = {NULL};
    int from_seq[DT_MAX_OPERANDS] = {0}, r = 1;
    for (int k = 0; k < nin; k++) {
        PyObject *obj = args[k];
        local[k] = obj;
        keep[k] = NULL;
        if (PyList_Check(obj) || PyTuple_Check(obj)) {
            conv[k] = PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
            if (conv[k] == NULL) {
                r = -1;
                break;
            }
            if (!PyTypeNum_ISNUMBER(PyArray_TYPE((PyArrayObject *)conv[k])) &&
                !PyTypeNum_ISBOOL(PyArray_TYPE((PyArrayObject *)conv[k]))) {
                r = 0;
                break;
            }
            from_seq[k] = 1;
        } else if (PyArray_Check(obj) && !PyArray_ISNOTSWAPPED((PyArrayObject *)obj)) {
            conv[k] = PyArray_FROM_OF(obj, NPY_ARRAY_NOTSWAPPED);
            if (conv[k] == NULL) {
                r = -1;
                break;
            }
        }
        if (conv[k] != NULL)
            local[k] = conv[k];
    }
    if (r == 1)
        r = build_operands_from(op, local, from_seq, nin, ops, keep);
    for (int k = 0; k < nin; k++)
        Py_XDECREF(conv[k]);
    return r;
}

/* Note [Releasing the GIL]
 * Ops on at least DT_GIL_RELEASE_NUMEL elements (pydt.h) run without the
 * GIL, so other Python threads (and notebooks' event loops) keep going. */

/* op(args) into a new tensor, or into `out` (a tensor) in place.  Returns a
 * new reference, Py_NotImplemented for foreign operands when
 * `not_implemented` is set, or NULL with an exception. */
static PyObject *apply(dt_op op, PyObject *const *args, PyObject *out_obj, int forced,
                       dt_casting casting, int not_implemented)
{
    int nin = dt_op_nin(op);
    dt_operand ops[DT_MAX_OPERANDS];
    PyObject *keep[DT_MAX_OPERANDS] = {NULL};
    PyObject *result = NULL;
    int r = build_operands(op, args, nin, ops, keep);
    if (r <= 0) {
        if (r == 0 && not_implemented)
            result = Py_NewRef(Py_NotImplemented);
        else if (r == 0)
            PyErr_Format(PyExc_TypeError, "%s(): operands must be tensors, NumPy arrays or "
                         "Python numbers, with at least one tensor", dt_op_name(op));
        goto done;
    }
    int64_t work = 0;
    for (int k = 0; k < nin; k++)
        if (ops[k].tensor && ops[k].tensor->numel > work)
            work = ops[k].tensor->numel;
    dt_tensor fresh;
    dt_tensor *out = out_obj ? &((PyDtTensor *)out_obj)->t : &fresh;
    dt_tensor_init_empty(&fresh);
    dt_error err;
    dt_status st;
    if (work >= DT_GIL_RELEASE_NUMEL) {
        DT_PY_BEGIN_TENSOR_WORK
        st = dt_ufunc(op, ops, out, out_obj != NULL, forced, casting, &err);
        DT_PY_END_TENSOR_WORK
    } else {
        st = dt_ufunc(op, ops, out, out_obj != NULL, forced, casting, &err);
    }
    if (st != DT_OK)
        result = dt_py_raise(&err);
    else
        result = out_obj ? Py_NewRef(out_obj) : dt_py_tensor_wrap(&fresh);
done:
    for (int k = 0; k < nin; k++)
        Py_XDECREF(keep[k]);
    return result;
}

static dt_op fast_scalar_power(PyObject *base, PyObject *exponent);

PyObject *dt_py_ufunc_apply(dt_op op, PyObject *const *args)
{
    dt_dtype base = DtTensor_Check(args[0]) ? ((PyDtTensor *)args[0])->t.dtype : DT_BOOL;
    if (op == DT_OP_POW && (base == DT_FLOAT32 || base == DT_FLOAT64)) {
        dt_op fast = fast_scalar_power(args[0], args[1]); /* dt.power(x, 0.5) as NumPy's: Note [Fast scalar powers] */
        if (fast != DT_OP_POW)
            return apply(fast, args, NULL, -1, DT_CASTING_SAME_KIND, 1);
    }
    return apply(op, args, NULL, -1, DT_CASTING_SAME_KIND, 1);
}

/* ---- Python operators ---- */

static PyObject *binary(PyObject *a, PyObject *b, dt_op op)
{
    PyObject *r;
    if (dt_py_scalar_op(op, a, b, 0, &r)) /* Note [The 0-d fast path] */
        return r;
    PyObject *args[2] = {a, b};
    return apply(op, args, NULL, -1, DT_CASTING_SAME_KIND, 1);
}

/* x op= y writes into x with NumPy's same_kind casting (int += float fails) */
static PyObject *inplace(PyObject *a, PyObject *b, dt_op op)
{
    if (!DtTensor_Check(a))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *r;
    if (dt_py_scalar_op(op, a, b, 1, &r))
        return r;
    PyObject *args[2] = {a, b};
    return apply(op, args, a, -1, DT_CASTING_SAME_KIND, 1);
}

static PyObject *unary(PyObject *a, dt_op op)
{
    PyObject *r;
    if (dt_py_scalar_unary(op, a, &r)) /* Note [The 0-d fast path] */
        return r;
    return apply(op, &a, NULL, -1, DT_CASTING_SAME_KIND, 1);
}

#define DT_BINARY_SLOTS(NAME, OP)                                                   \
    static PyObject *nb_##NAME(PyObject *a, PyObject *b) { return binary(a, b, OP); } \
    static PyObject *nb_inplace_##NAME(PyObject *a, PyObject *b) { return inplace(a, b, OP); }
DT_BINARY_SLOTS(add, DT_OP_ADD)
DT_BINARY_SLOTS(sub, DT_OP_SUB)
DT_BINARY_SLOTS(div, DT_OP_DIV)
DT_BINARY_SLOTS(floordiv, DT_OP_FLOOR_DIVIDE)
DT_BINARY_SLOTS(rem, DT_OP_REMAINDER)
DT_BINARY_SLOTS(and, DT_OP_BITWISE_AND)
DT_BINARY_SLOTS(or, DT_OP_BITWISE_OR)
DT_BINARY_SLOTS(xor, DT_OP_BITWISE_XOR)
DT_BINARY_SLOTS(lshift, DT_OP_LEFT_SHIFT)
DT_BINARY_SLOTS(rshift, DT_OP_RIGHT_SHIFT)

/* Note [A 0-d integer times a sequence]
 * NumPy's integer scalars repeat a list or tuple: [0] * a.max() is [0, 0]
 * and (1,) * a[0] a tuple, in code that builds Python data from array
 * values.  devtensor's stand-ins for those scalars, 0-d integer tensors,
 * do the same: the operator gives way (NotImplemented) and Python repeats
 * the sequence by the tensor's __index__.  A 0-d NumPy array multiplies
 * elementwise instead; devtensor has no separate scalar type, and the
 * scalar's behaviour is the one programs rely on.  Other dtypes and
 * shapes multiply elementwise (Note [Sequences as operands]). */
static int repeats_a_sequence(PyObject *a, PyObject *b)
{
    PyObject *t = DtTensor_Check(a) ? a : b, *seq = t == a ? b : a;
    if (!(PyList_Check(seq) || PyTuple_Check(seq)) || !DtTensor_Check(t))
        return 0;
    const dt_tensor *x = &((PyDtTensor *)t)->t;
    return x->ndim == 0 && dt_dtype_is_integral(x->dtype);
}

static PyObject *nb_mul(PyObject *a, PyObject *b)
{
    if (repeats_a_sequence(a, b))
        Py_RETURN_NOTIMPLEMENTED;
    return binary(a, b, DT_OP_MUL);
}

static PyObject *nb_inplace_mul(PyObject *a, PyObject *b)
{
    return inplace(a, b, DT_OP_MUL);
}

/* Note [Fast scalar powers]
 * As NumPy's arrays do, a float or complex tensor raised to the Python int
 * 2 or -1, or the Python float 2.0 or 0.5, is square, reciprocal, square
 * or sqrt (not the float -1.0, whose complex pow differs from reciprocal at
 * zero and infinity, nor NumPy's scalars, which are not weak): exact where
 * pow (libmvec's, within 4 ulp) is not, several times faster, and NumPy's
 * results in their corner cases ((-0.0) ** 0.5 is -0.0, (-inf) ** 0.5 is
 * nan).  Dask's variance squares every chunk this way.  A bool tensor
 * squared is NumPy's square too (int8, where power with a Python int
 * would give int64).  NumPy's power ufunc takes the same path for a
 * scalar exponent in its float32 and float64 loops, so dt.power(x, 0.5)
 * does too (not of float16 or a complex, where it is pow: power(-1+0j,
 * 0.5) is 6e-17+1j, nor of a bool, whose power(b, 2) is int64). */
static dt_op fast_scalar_power(PyObject *base, PyObject *exponent)
{
    if (!DtTensor_Check(base))
        return DT_OP_POW;
    dt_dtype d = ((PyDtTensor *)base)->t.dtype;
    int inexact = dt_dtype_is_floating(d) || dt_dtype_is_complex(d);
    if (!inexact && d != DT_BOOL)
        return DT_OP_POW;
    if (PyLong_CheckExact(exponent)) {
        int overflow = 0;
        long v = PyLong_AsLongAndOverflow(exponent, &overflow);
        if (v == -1 && PyErr_Occurred())
            PyErr_Clear();
        else if (overflow == 0 && v == 2)
            return DT_OP_SQUARE; /* bools too: NumPy's b ** 2 is int8 */
        else if (overflow == 0 && v == -1 && inexact)
            return DT_OP_RECIPROCAL;
    } else if (PyFloat_CheckExact(exponent) && inexact) {
        double e = PyFloat_AS_DOUBLE(exponent);
        if (e == 2.0)
            return DT_OP_SQUARE;
        if (e == 0.5)
            return DT_OP_SQRT;
    }
    return DT_OP_POW;
}

static PyObject *nb_pow(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None)
        Py_RETURN_NOTIMPLEMENTED;
    dt_op fast = fast_scalar_power(a, b);
    return fast == DT_OP_POW ? binary(a, b, DT_OP_POW) : unary(a, fast);
}

static PyObject *nb_inplace_pow(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None)
        Py_RETURN_NOTIMPLEMENTED;
    dt_op fast = fast_scalar_power(a, b);
    if (fast == DT_OP_POW)
        return inplace(a, b, DT_OP_POW);
    return apply(fast, &a, a, -1, DT_CASTING_SAME_KIND, 1);
}

static PyObject *nb_neg(PyObject *a) { return unary(a, DT_OP_NEGATIVE); }
static PyObject *nb_pos(PyObject *a) { return unary(a, DT_OP_POSITIVE); }
static PyObject *nb_abs(PyObject *a) { return unary(a, DT_OP_ABS); }
static PyObject *nb_invert(PyObject *a) { return unary(a, DT_OP_INVERT); }

PyNumberMethods dt_py_tensor_as_number = {
    .nb_add = nb_add, .nb_inplace_add = nb_inplace_add,
    .nb_subtract = nb_sub, .nb_inplace_subtract = nb_inplace_sub,
    .nb_multiply = nb_mul, .nb_inplace_multiply = nb_inplace_mul,
    .nb_true_divide = nb_div, .nb_inplace_true_divide = nb_inplace_div,
    .nb_floor_divide = nb_floordiv, .nb_inplace_floor_divide = nb_inplace_floordiv,
    .nb_remainder = nb_rem, .nb_inplace_remainder = nb_inplace_rem,
    .nb_power = nb_pow, .nb_inplace_power = nb_inplace_pow,
    .nb_and = nb_and, .nb_inplace_and = nb_inplace_and,
    .nb_or = nb_or, .nb_inplace_or = nb_inplace_or,
    .nb_xor = nb_xor, .nb_inplace_xor = nb_inplace_xor,
    .nb_lshift = nb_lshift, .nb_inplace_lshift = nb_inplace_lshift,
    .nb_rshift = nb_rshift, .nb_inplace_rshift = nb_inplace_rshift,
    .nb_negative = nb_neg, .nb_positive = nb_pos, .nb_absolute = nb_abs,
    .nb_invert = nb_invert,
    .nb_matrix_multiply = dt_py_nb_matmul, .nb_inplace_matrix_multiply = dt_py_nb_inplace_matmul,
    .nb_bool = dt_py_tensor_bool, .nb_int = dt_py_tensor_int, .nb_float = dt_py_tensor_float,
    .nb_index = dt_py_tensor_index, /* scalar_out.c */
};

/* t == x and t != x for an x no element can equal (None, a str, bytes, an
 * object without comparisons of its own): NumPy's elementwise answer, all
 * False (or all True), shaped as t and on its device. */
static PyObject *compare_with_other(const dt_tensor *t, int op)
{
    dt_tensor r;
    dt_error err;
    if (dt_tensor_init_new(&r, dt_tensor_device(t), DT_BOOL, t->ndim, t->shape, &err) != DT_OK)
        return dt_py_raise(&err);
    PyObject *out = dt_py_tensor_wrap(&r);
    if (out != NULL && dt_py_tensor_fill((PyDtTensor *)out, op == Py_NE ? Py_True : Py_False) < 0)
        Py_CLEAR(out);
    return out;
}

PyObject *dt_py_tensor_richcompare(PyObject *a, PyObject *b, int op)
{
    static const dt_op ops[] = {
        [Py_LT] = DT_OP_LT, [Py_LE] = DT_OP_LE, [Py_EQ] = DT_OP_EQ,
        [Py_NE] = DT_OP_NE, [Py_GT] = DT_OP_GT, [Py_GE] = DT_OP_GE,
    };
    if ((op == Py_EQ || op == Py_NE) && (a == Py_None || b == Py_None))
        return compare_with_other(&((PyDtTensor *)(a == Py_None ? b : a))->t, op);
    PyObject *r = binary(a, b, ops[op]);
    if (r != Py_NotImplemented || (op != Py_EQ && op != Py_NE))
        return r;
    PyObject *other = DtTensor_Check(a) ? b : a;
    if (PyUnicode_Check(other) || PyBytes_Check(other) ||
        Py_TYPE(other)->tp_richcompare == PyBaseObject_Type.tp_richcompare) {
        Py_DECREF(r); /* a class with comparisons of its own still gets its turn */
        return compare_with_other(&((PyDtTensor *)(other == a ? b : a))->t, op);
    }
    return r;
}

/* ---- _ufunc(op, *inputs, out=None, dtype=None, casting='same_kind') ---- */

static int casting_from(PyObject *obj, dt_casting *out)
{
    static const char *const names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
    if (obj == NULL)
        return 0;
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "casting must be str, not %.100s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    const char *s = PyUnicode_AsUTF8(obj);
    for (int i = 0; s && i < 5; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = (dt_casting)i;
            return 0;
        }
    PyErr_SetString(PyExc_ValueError,
                    "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'");
    return -1;
}

static PyObject *py_ufunc(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames)
{
    (void)module;
    if (nargs < 1)
        return PyErr_Format(PyExc_TypeError, "_ufunc(op, *inputs)");
    long opnum = PyLong_AsLong(args[0]);
    if (opnum == -1 && PyErr_Occurred())
        return NULL;
    if (opnum <= DT_OP_COPY || opnum >= DT_NUM_OPS)
        return PyErr_Format(PyExc_ValueError, "unknown op %ld", opnum);
    dt_op op = (dt_op)opnum;
    int nin = dt_op_nin(op);
    if (nargs - 1 != nin)
        return PyErr_Format(PyExc_TypeError, "%s() takes %d positional argument%s but %zd were "
                            "given", dt_op_name(op), nin, nin == 1 ? "" : "s", nargs - 1);
    PyObject *out = NULL, *dtype = NULL, *casting = NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nkw; i++) {
        const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, i));
        PyObject *value = args[nargs + i];
        if (name == NULL)
            return NULL;
        if (strcmp(name, "out") == 0)
            out = value;
        else if (strcmp(name, "dtype") == 0)
            dtype = value;
        else if (strcmp(name, "casting") == 0)
            casting = value;
        else
            return PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'",
                                dt_op_name(op), name);
    }
    if (out != NULL && PyTuple_Check(out)) { /* NumPy's out=(array,) */
        if (PyTuple_GET_SIZE(out) != 1)
            return PyErr_Format(PyExc_ValueError, "%s(): out must be a tuple of length 1 "
                                "(one output), got %zd", dt_op_name(op), PyTuple_GET_SIZE(out));
        out = PyTuple_GET_ITEM(out, 0);
    }
    if (out == Py_None)
        out = NULL;
    if (out != NULL && !DtTensor_Check(out))
        return PyErr_Format(PyExc_TypeError, "%s(): out must be a devtensor.Tensor, got %.100s",
                            dt_op_name(op), Py_TYPE(out)->tp_name);
    int forced = -1;
    if (dtype != NULL && !dt_py_dtype_converter(dtype, &forced))
        return NULL;
    dt_casting cast = DT_CASTING_SAME_KIND;
    if (casting_from(casting, &cast) < 0)
        return NULL;
    return apply(op, args + 1, out, forced, cast, 0);
}

static PyMethodDef number_methods[] = {
    {"_ufunc", (PyCFunction)(void (*)(void))py_ufunc, METH_FASTCALL | METH_KEYWORDS,
     "_ufunc(op, *inputs, out=None, dtype=None, casting='same_kind')"},
    {NULL, NULL, 0, NULL},
};

int dt_py_number_init(PyObject *module)
{
    if (PyModule_AddFunctions(module, number_methods) < 0)
        return -1;
    /* op ids by NumPy name: devtensor._C.OPS['add'] */
    PyObject *ops = PyDict_New();
    if (ops == NULL)
        return -1;
    for (int i = DT_OP_COPY + 1; i < DT_NUM_OPS; i++) {
        PyObject *v = PyLong_FromLong(i);
        if (v == NULL || PyDict_SetItemString(ops, dt_op_name((dt_op)i), v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(ops);
            return -1;
        }
        Py_DECREF(v);
    }
    int r = PyModule_AddObjectRef(module, "OPS", ops);
    Py_DECREF(ops);
    return r;
}
