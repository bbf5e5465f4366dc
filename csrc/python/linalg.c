/* linalg.c - the factorizations from Python: devtensor._C._linalg_factor,
 * _lu_solve and _linalg_det, the primitives devtensor/linalg.py builds NumPy's and
 * the array API's linalg on (the core's linalg.c does the work). */
#include "pydt.h"

#include "linalg.h"

/* Note [Releasing the GIL] (number.c): factorizations of matrices with at
 * least this many elements run without the GIL */
#define DT_LINALG_GIL_RELEASE_NUMEL 4096

static PyObject *wrap_or_none(dt_tensor *t)
{
    if (t->storage == NULL)
        Py_RETURN_NONE;
    return dt_py_tensor_wrap(t);
}

/* (a, piv, w, q, vt, info) with None for what the kind does not give; the
 * result's tensors are taken over */
static PyObject *result_tuple(dt_linalg_result *r)
{
    dt_tensor *parts[6] = {&r->a, &r->piv, &r->w, &r->q, &r->vt, &r->info};
    PyObject *tuple = PyTuple_New(6);
    if (tuple == NULL) {
        dt_linalg_result_clear(r);
        return NULL;
    }
    for (int i = 0; i < 6; i++) {
        PyObject *o = wrap_or_none(parts[i]);
        if (o == NULL) {
            Py_DECREF(tuple);
            dt_linalg_result_clear(r);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, o);
    }
    return tuple;
}

/* _linalg_factor(kind, a, vectors, full) */
static PyObject *py_factor(PyObject *m, PyObject *args)
{
    (void)m;
    int kind, vectors, full;
    PyObject *a;
    if (!PyArg_ParseTuple(args, "iO!pp:_linalg_factor", &kind, &dt_py_tensor_base_type, &a, &vectors,
                          &full))
        return NULL;
    dt_linalg_result r;
    dt_error err;
    dt_status st;
    const dt_tensor *t = &((PyDtTensor *)a)->t;
    if (t->numel >= DT_LINALG_GIL_RELEASE_NUMEL) {
        DT_PY_BEGIN_TENSOR_WORK
        st = dt_linalg_factor((dt_linalg_kind)kind, t, vectors, full, &r, &err);
        DT_PY_END_TENSOR_WORK
    } else {
        st = dt_linalg_factor((dt_linalg_kind)kind, t, vectors, full, &r, &err);
    }
    if (st != DT_OK)
        return dt_py_raise(&err);
    return result_tuple(&r);
}

/* _lu_solve(lu, piv, b) */
static PyObject *py_lu_solve(PyObject *m, PyObject *args)
{
    (void)m;
    PyObject *lu, *piv, *b;
    if (!PyArg_ParseTuple(args, "O!O!O!:_lu_solve", &dt_py_tensor_base_type, &lu,
                          &dt_py_tensor_base_type, &piv, &dt_py_tensor_base_type, &b))
        return NULL;
    dt_linalg_result r;
    dt_error err;
    dt_status st;
    const dt_tensor *tl = &((PyDtTensor *)lu)->t;
    if (tl->numel >= DT_LINALG_GIL_RELEASE_NUMEL) {
        DT_PY_BEGIN_TENSOR_WORK
        st = dt_linalg_lu_solve(tl, &((PyDtTensor *)piv)->t, &((PyDtTensor *)b)->t, &r, &err);
        DT_PY_END_TENSOR_WORK
    } else {
        st = dt_linalg_lu_solve(tl, &((PyDtTensor *)piv)->t, &((PyDtTensor *)b)->t, &r, &err);
    }
    if (st != DT_OK)
        return dt_py_raise(&err);
    dt_tensor_clear(&r.piv); /* only x is given */
    return dt_py_tensor_wrap(&r.a);
}

/* _linalg_det(a, det): det a if det, else (sign, log|det a|) */
static PyObject *py_det(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    (void)m;
    int want_det;
    if (nargs != 2 || !PyObject_TypeCheck(args[0], &dt_py_tensor_base_type) ||
        (want_det = PyObject_IsTrue(args[1])) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "_linalg_det(a, det): a tensor and a flag");
        return NULL;
    }
    dt_linalg_result r;
    dt_error err;
    dt_status st;
    const dt_tensor *t = &((PyDtTensor *)args[0])->t;
    if (t->numel >= DT_LINALG_GIL_RELEASE_NUMEL) {
        DT_PY_BEGIN_TENSOR_WORK
        st = dt_linalg_det(t, want_det, &r, &err);
        DT_PY_END_TENSOR_WORK
    } else {
        st = dt_linalg_det(t, want_det, &r, &err);
    }
    if (st != DT_OK)
        return dt_py_raise(&err);
    if (want_det)
        return dt_py_tensor_wrap(&r.q);
    PyObject *sign = dt_py_tensor_wrap(&r.q);
    PyObject *logdet = dt_py_tensor_wrap(&r.w);
    PyObject *pair = sign != NULL && logdet != NULL ? PyTuple_New(2) : NULL;
    if (pair == NULL) {
        Py_XDECREF(sign);
        Py_XDECREF(logdet);
        return NULL;
    }
    PyTuple_SET_ITEM(pair, 0, sign);
    PyTuple_SET_ITEM(pair, 1, logdet);
    return pair;
}

PyMethodDef dt_py_linalg_methods[] = {
    {"_linalg_factor", py_factor, METH_VARARGS,
     "_linalg_factor(kind, a, vectors, full): (a, piv, w, q, vt, info), None where absent"},
    {"_lu_solve", py_lu_solve, METH_VARARGS, "_lu_solve(lu, piv, b): x of A x = b from LU factors"},
    {"_linalg_det", (PyCFunction)(void (*)(void))py_det, METH_FASTCALL,
     "_linalg_det(a, det): det a if det, else (sign, log|det a|), from LU factors"},
    {NULL, NULL, 0, NULL},
};

int dt_py_linalg_init(PyObject *module)
{
    static const struct { const char *name; int value; } kinds[] = {
        {"LINALG_LU", DT_LINALG_LU}, {"LINALG_CHOLESKY", DT_LINALG_CHOLESKY},
        {"LINALG_QR", DT_LINALG_QR}, {"LINALG_EIGH", DT_LINALG_EIGH},
        {"LINALG_SVD", DT_LINALG_SVD}, {"LINALG_EIG", DT_LINALG_EIG},
    };
    if (PyModule_AddFunctions(module, dt_py_linalg_methods) < 0)
        return -1;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (PyModule_AddIntConstant(module, kinds[i].name, kinds[i].value) < 0)
            return -1;
    return 0;
}
