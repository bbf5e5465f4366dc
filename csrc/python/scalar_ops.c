/* scalar_ops.c - arithmetic and comparisons of one-element operands (0-d
 * CPU tensors of float64 or int64, Python floats and ints) computed here,
 * without the ufunc machinery: the element loops of NumPy programs.
 *
 * Note [The 0-d fast path]
 * `s += x`, `x * 1.5 + 2`, `t[i] > t[j]` in a Python loop are operators on
 * 0-d tensors.  Through dt_ufunc (operands built, types resolved, a loop
 * launched) each took about 400 ns, five times NumPy's scalar arithmetic.
 * When both operands are 0-d CPU tensors of float64 or int64, or Python
 * floats or ints that fit in int64 (with at least one tensor), and the
 * operator is + - * / // % or a comparison, the result is computed here
 * into a new 0-d tensor (for x op= y, into x); so are -x, +x, abs(x) and
 * the powers x ** 2, x ** -1 and x ** 0.5 of Note [Fast scalar powers].
 * The rules are the general path's: NEP 50 (a Python number takes the
 * tensor's kind, so int64 with a Python float is float64), int64
 * arithmetic wraps, int64 / int64 is float64, and neither path gives
 * floating-point warnings.  Everything
 * else -- other dtypes, bools, NumPy scalars, devices, Python ints beyond
 * int64, integer // or % by zero (or INT64_MIN // -1), float // and %,
 * in-place ops whose result is not x's dtype -- is declined and takes the
 * general path, which also raises the errors.  tests/test_scalar_ops.py
 * checks every operator and operand pairing against that path and NumPy.
 */
#include "pydt.h"

#include <math.h>
#include <string.h>

typedef struct {
    int is_float; /* the value is f, else i */
    double f;
    int64_t i;
} scalar_value;

/* 1 when obj is an operand this path takes (its value in *v), else 0. */
static int read_operand(PyObject *obj, scalar_value *v, int *is_tensor)
{
    if (DtTensor_Check(obj)) {
        const dt_tensor *t = &((PyDtTensor *)obj)->t;
        if (t->ndim != 0 || t->storage == NULL || dt_tensor_device(t).type != DT_DEVICE_CPU)
            return 0;
        *is_tensor = 1;
        if (t->dtype == DT_FLOAT64) {
            v->is_float = 1;
            memcpy(&v->f, dt_tensor_data(t), sizeof v->f);
            return 1;
        }
        if (t->dtype == DT_INT64) {
            v->is_float = 0;
            memcpy(&v->i, dt_tensor_data(t), sizeof v->i);
            return 1;
        }
        return 0;
    }
    *is_tensor = 0;
    if (PyFloat_CheckExact(obj)) {
        v->is_float = 1;
        v->f = PyFloat_AS_DOUBLE(obj);
        return 1;
    }
    if (PyLong_CheckExact(obj)) {
        int overflow;
        long long x = PyLong_AsLongLongAndOverflow(obj, &overflow);
        if (overflow || (x == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 0;
        }
        v->is_float = 0;
        v->i = (int64_t)x;
        return 1;
    }
    return 0;
}

static int is_comparison(dt_op op)
{
    return op == DT_OP_LT || op == DT_OP_LE || op == DT_OP_GT || op == DT_OP_GE || op == DT_OP_EQ ||
           op == DT_OP_NE;
}

/* a op b for a comparison op, of two values of one C type */
#define COMPARE(op, a, b)                                                                        \
    ((op) == DT_OP_LT ? (a) < (b) : (op) == DT_OP_LE ? (a) <= (b) : (op) == DT_OP_GT ? (a) > (b) \
     : (op) == DT_OP_GE ? (a) >= (b) : (op) == DT_OP_EQ ? (a) == (b) : (a) != (b))

/* a op b for int64 operands into *out (as *dtype); 0 when declined. */
static int integer_op(dt_op op, int64_t a, int64_t b, dt_dtype *dtype, void *out)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b; /* wrapping arithmetic, as NumPy's */
    int64_t r;
    switch (op) {
    case DT_OP_ADD: r = (int64_t)(ua + ub); break;
    case DT_OP_SUB: r = (int64_t)(ua - ub); break;
    case DT_OP_MUL: r = (int64_t)(ua * ub); break;
    case DT_OP_DIV: {
        double q = (double)a / (double)b;
        *dtype = DT_FLOAT64;
        memcpy(out, &q, sizeof q);
        return 1;
    }
    case DT_OP_FLOOR_DIVIDE:
    case DT_OP_REMAINDER: {
        if (b == 0 || (a == INT64_MIN && b == -1))
            return 0;
        int64_t q = a / b, m = a % b;
        if (m != 0 && ((m < 0) != (b < 0))) { /* Python's floor, as NumPy's */
            q -= 1;
            m += b;
        }
        r = op == DT_OP_FLOOR_DIVIDE ? q : m;
        break;
    }
    default:
        return 0;
    }
    *dtype = DT_INT64;
    memcpy(out, &r, sizeof r);
    return 1;
}

static int float_op(dt_op op, double a, double b, void *out)
{
    double r;
    switch (op) {
    case DT_OP_ADD: r = a + b; break;
    case DT_OP_SUB: r = a - b; break;
    case DT_OP_MUL: r = a * b; break;
    case DT_OP_DIV: r = a / b; break;
    default: return 0;
    }
    memcpy(out, &r, sizeof r);
    return 1;
}

/* Declined: 0, else *dtype and *out set (1). */
static int unary_value(dt_op op, const scalar_value *x, dt_dtype *dtype, void *out)
{
    if (x->is_float) {
        double r;
        switch (op) {
        case DT_OP_NEGATIVE: r = -x->f; break;
        case DT_OP_POSITIVE: r = x->f; break;
        case DT_OP_ABS: r = fabs(x->f); break;
        case DT_OP_SQUARE: r = x->f * x->f; break; /* Note [Fast scalar powers] in number.c */
        case DT_OP_RECIPROCAL: r = 1.0 / x->f; break;
        case DT_OP_SQRT: r = sqrt(x->f); break;
        default: return 0;
        }
        *dtype = DT_FLOAT64;
        memcpy(out, &r, sizeof r);
        return 1;
    }
    uint64_t u = (uint64_t)x->i;
    int64_t r;
    switch (op) {
    case DT_OP_NEGATIVE: r = (int64_t)(0u - u); break; /* INT64_MIN stays, as NumPy's wraps */
    case DT_OP_POSITIVE: r = x->i; break;
    case DT_OP_ABS: r = x->i < 0 ? (int64_t)(0u - u) : x->i; break;
    default: return 0;
    }
    *dtype = DT_INT64;
    memcpy(out, &r, sizeof r);
    return 1;
}

/* A new 0-d CPU tensor of dtype holding the bytes at value. */
static PyObject *new_scalar(dt_dtype dtype, const void *value)
{
    dt_tensor c;
    dt_error err;
    if (dt_tensor_init_new(&c, dt_device_cpu(), dtype, 0, NULL, &err) != DT_OK)
        return dt_py_raise(&err);
    memcpy(dt_tensor_data(&c), value, (size_t)dt_tensor_itemsize(&c));
    return dt_py_tensor_wrap(&c);
}

int dt_py_scalar_unary(dt_op op, PyObject *a, PyObject **result)
{
    scalar_value x;
    int is_tensor;
    dt_dtype dtype;
    union {
        double f;
        int64_t i;
    } r;
    if (!read_operand(a, &x, &is_tensor) || !is_tensor || !unary_value(op, &x, &dtype, &r))
        return 0;
    *result = new_scalar(dtype, &r);
    return 1;
}

int dt_py_scalar_op(dt_op op, PyObject *a, PyObject *b, int inplace, PyObject **result)
{
    scalar_value x, y;
    int a_tensor, b_tensor;
    if (!read_operand(a, &x, &a_tensor) || !read_operand(b, &y, &b_tensor) || !(a_tensor || b_tensor))
        return 0;
    dt_dtype dtype;
    union {
        double f;
        int64_t i;
        unsigned char b;
    } r;
    if (is_comparison(op)) {
        dtype = DT_BOOL;
        if (x.is_float || y.is_float) {
            double fa = x.is_float ? x.f : (double)x.i, fb = y.is_float ? y.f : (double)y.i;
            r.b = (unsigned char)COMPARE(op, fa, fb);
        } else {
            r.b = (unsigned char)COMPARE(op, x.i, y.i);
        }
    } else if (x.is_float || y.is_float) {
        dtype = DT_FLOAT64;
        if (!float_op(op, x.is_float ? x.f : (double)x.i, y.is_float ? y.f : (double)y.i, &r))
            return 0;
    } else if (!integer_op(op, x.i, y.i, &dtype, &r)) {
        return 0;
    }
    if (inplace) {
        dt_tensor *t = &((PyDtTensor *)a)->t;
        if (!a_tensor || t->dtype != dtype || (t->flags & DT_TENSOR_READONLY))
            return 0;
        memcpy(dt_tensor_data(t), &r, (size_t)dt_tensor_itemsize(t));
        *result = Py_NewRef(a);
        return 1;
    }
    *result = new_scalar(dtype, &r);
    return 1;
}
