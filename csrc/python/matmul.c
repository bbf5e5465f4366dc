/* matmul.c - the matrix product from Python: the @ and @= operators,
 * devtensor._C._matmul, and the settings of the CPU's OpenBLAS and of
 * TensorFloat-32 (the core's dt_matmul does the work).
 *
 * Note [@ in C]
 * tensor @ tensor is called in loops (D2L's thousand small products), so
 * it goes from the operator slot to dt_matmul with no Python code.  An
 * operand that is not a tensor (a NumPy array, a list, a Python number)
 * is handed to devtensor._products._matmul_operator, which converts it as
 * NumPy would and comes back here; anything else is NotImplemented, so
 * Python tries the other operand's __rmatmul__.  a @= b is computed into
 * a new tensor and copied into a (devtensor._products._imatmul, which
 * checks NumPy's shape and same_kind rules), so a may be an operand.
 */
#include "pydt.h"

#include "matmul.h"
#include "cpu_blas.h"

/* Note [Releasing the GIL] (number.c): products with at least this many
 * multiply-adds run without the GIL */
#define DT_MATMUL_GIL_RELEASE_FLOPS 32768.0

static PyObject *product(PyDtTensor *a, PyDtTensor *b, dt_dtype dtype)
{
    dt_tensor out;
    dt_error err;
    dt_status st;
    double n = b->t.ndim > 0 ? (double)b->t.shape[b->t.ndim - 1] : 1.0;
    if ((double)a->t.numel * n >= DT_MATMUL_GIL_RELEASE_FLOPS) {
        DT_PY_BEGIN_TENSOR_WORK
        st = dt_matmul(&a->t, &b->t, dtype, &out, &err);
        DT_PY_END_TENSOR_WORK
    } else {
        st = dt_matmul(&a->t, &b->t, dtype, &out, &err);
    }
    if (st != DT_OK)
        return dt_py_raise(&err);
    return dt_py_tensor_wrap(&out);
}

static PyObject *operator_fn, *imatmul_fn;

static int is_operand(PyObject *o)
{
    return DtTensor_Check(o) || PyArray_Check(o) || PyList_Check(o) || PyTuple_Check(o) ||
           PyLong_Check(o) || PyFloat_Check(o) || PyComplex_Check(o) ||
           PyArray_IsScalar(o, Generic);
}

PyObject *dt_py_nb_matmul(PyObject *a, PyObject *b)
{
    if (DtTensor_Check(a) && DtTensor_Check(b)) {
        PyDtTensor *x = (PyDtTensor *)a, *y = (PyDtTensor *)b;
        return product(x, y, dt_promote_types(x->t.dtype, y->t.dtype));
    }
    if (!is_operand(a) || !is_operand(b))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *fn = dt_py_lazy_function("devtensor._products", "_matmul_operator", &operator_fn);
    return fn ? PyObject_CallFunctionObjArgs(fn, a, b, NULL) : NULL;
}

PyObject *dt_py_nb_inplace_matmul(PyObject *a, PyObject *b)
{
    if (!DtTensor_Check(a) || !is_operand(b))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *fn = dt_py_lazy_function("devtensor._products", "_imatmul", &imatmul_fn);
    return fn ? PyObject_CallFunctionObjArgs(fn, a, b, NULL) : NULL;
}

/* _C._matmul(a, b, dtype): both tensors; dtype None for NumPy's promotion */
static PyObject *py_matmul(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    (void)m;
    if (nargs != 3 || !DtTensor_Check(args[0]) || !DtTensor_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "_matmul(a, b, dtype): a and b must be tensors");
        return NULL;
    }
    PyDtTensor *a = (PyDtTensor *)args[0], *b = (PyDtTensor *)args[1];
    dt_dtype d = dt_promote_types(a->t.dtype, b->t.dtype);
    if (args[2] != Py_None && !dt_py_dtype_converter(args[2], &d))
        return NULL;
    return product(a, b, d);
}

/* _C._matmul_into(a, b, dtype, out): dt_matmul_into; whether out had the
 * result's shape and was written */
static PyObject *py_matmul_into(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    (void)m;
    if (nargs != 4 || !DtTensor_Check(args[0]) || !DtTensor_Check(args[1]) || !DtTensor_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "_matmul_into(a, b, dtype, out): a, b and out must be tensors");
        return NULL;
    }
    PyDtTensor *a = (PyDtTensor *)args[0], *b = (PyDtTensor *)args[1], *out = (PyDtTensor *)args[3];
    dt_dtype d = dt_promote_types(a->t.dtype, b->t.dtype);
    if (args[2] != Py_None && !dt_py_dtype_converter(args[2], &d))
        return NULL;
    dt_error err;
    dt_status st;
    int written = 0;
    double n = b->t.ndim > 0 ? (double)b->t.shape[b->t.ndim - 1] : 1.0;
    if ((double)a->t.numel * n >= DT_MATMUL_GIL_RELEASE_FLOPS) {
        DT_PY_BEGIN_TENSOR_WORK
        st = dt_matmul_into(&a->t, &b->t, d, &out->t, &written, &err);
        DT_PY_END_TENSOR_WORK
    } else {
        st = dt_matmul_into(&a->t, &b->t, d, &out->t, &written, &err);
    }
    if (st != DT_OK)
        return dt_py_raise(&err);
    return PyBool_FromLong(written);
}

static PyObject *py_set_blas_library(PyObject *m, PyObject *arg)
{
    (void)m;
    const char *path = PyUnicode_AsUTF8(arg);
    if (path == NULL)
        return NULL;
    dt_error err;
    if (dt_cpu_blas_set_library(path, &err) != DT_OK)
        return dt_py_raise(&err);
    Py_RETURN_NONE;
}

static PyObject *py_allow_tf32(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    (void)m;
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "_allow_tf32([flag])");
        return NULL;
    }
    int before = dt_matmul_get_allow_tf32();
    if (nargs == 1) {
        int on = PyObject_IsTrue(args[0]);
        if (on < 0)
            return NULL;
        dt_matmul_set_allow_tf32(on);
    }
    return PyBool_FromLong(before);
}

PyMethodDef dt_py_matmul_methods[] = {
    {"_matmul", (PyCFunction)(void (*)(void))py_matmul, METH_FASTCALL,
     "_matmul(a, b, dtype): NumPy's matmul of two tensors, computed in dtype (None: promoted)"},
    {"_matmul_into", (PyCFunction)(void (*)(void))py_matmul_into, METH_FASTCALL,
     "_matmul_into(a, b, dtype, out): matmul written into out when out has the result's shape; whether it had"},
    {"_set_blas_library", py_set_blas_library, METH_O,
     "_set_blas_library(path): where OpenBLAS is (opened on the first product on the CPU)"},
    {"_allow_tf32", (PyCFunction)(void (*)(void))py_allow_tf32, METH_FASTCALL,
     "_allow_tf32([flag]): whether float32 products may use TensorFloat-32; returns the old value"},
    {NULL, NULL, 0, NULL},
};
