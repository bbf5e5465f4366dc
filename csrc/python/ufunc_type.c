/* ufunc_type.c - devtensor._C.ufunc: the type of devtensor's elementwise
 * functions (dt.exp, dt.add, ...).
 *
 * Note [ufunc objects]
 * dt.exp(t) is called as often as t + 1, so it must cost about the same:
 * a ufunc object calls the core directly (vectorcall) when it gets exactly
 * its nin operands and no keywords, the operands being tensors, NumPy
 * arrays or Python numbers with at least one tensor.  Every other call --
 * out=, dtype=, casting=, lists, no tensor at all, the wrong number of
 * arguments -- goes to the Python function the object wraps
 * (devtensor._ufuncs), which has NumPy's signature and errors.  Calls on
 * Python numbers alone (dt.sqrt(2.0), dt.maximum(1.0, x) in a scalar
 * loop) stay here too when the default device is the CPU: the first
 * becomes a 0-d tensor of its natural dtype (bool, int64, float64,
 * complex128, as asarray makes it), the rest stay weak (NEP 50), as the
 * Python function does; an int beyond int64 goes there for its error.  The object
 * has NumPy's attributes __name__, nin, nout and nargs and pickles by name;
 * devtensor/_ufunc_methods.py puts reduce, accumulate, reduceat, outer, at,
 * identity, types and ntypes in each object's __dict__.
 */
#include "pydt.h"

#include <structmember.h>

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    dt_op op;
    int nin;
    PyObject *name;   /* the public name: "abs" for absolute */
    PyObject *python; /* the full implementation */
    PyObject *dict;   /* __doc__ and friends */
} PyDtUfunc;

/* The dtype asarray gives obj when it is exactly a Python bool, int,
 * float or complex (subclasses take the Python path); 0 when it is not. */
static int python_number_dtype(PyObject *obj, dt_dtype *dtype)
{
    static const dt_dtype of_kind[] = {[DT_WEAK_BOOL] = DT_BOOL, [DT_WEAK_INT] = DT_INT64,
                                       [DT_WEAK_FLOAT] = DT_FLOAT64, [DT_WEAK_COMPLEX] = DT_COMPLEX128};
    PyTypeObject *type = Py_TYPE(obj);
    dt_weak_kind kind;
    if ((type != &PyFloat_Type && type != &PyBool_Type && type != &PyLong_Type && type != &PyComplex_Type) ||
        !dt_py_scalar_kind(obj, &kind))
        return 0;
    *dtype = of_kind[kind];
    return 1;
}

/* op on Python numbers alone (Note [ufunc objects]); NULL with nothing
 * raised when it is not such a call. */
static PyObject *apply_to_numbers(PyDtUfunc *u, PyObject *const *args)
{
    dt_dtype dtype, ignored;
    if (!python_number_dtype(args[0], &dtype) || (u->nin == 2 && !python_number_dtype(args[1], &ignored))
        || !dt_py_default_device_is_cpu())
        return NULL;
    dt_tensor t;
    dt_error err;
    if (dt_tensor_init_new(&t, dt_device_cpu(), dtype, 0, NULL, &err) != DT_OK)
        return dt_py_raise(&err);
    if (dt_py_scalar_to_bytes(args[0], dtype, dt_tensor_data(&t)) < 0) {
        PyErr_Clear(); /* an int beyond int64: the Python path says what NumPy says */
        dt_tensor_clear(&t);
        return NULL;
    }
    PyObject *first = dt_py_tensor_wrap(&t);
    if (first == NULL)
        return NULL;
    PyObject *operands[2] = {first, u->nin == 2 ? args[1] : NULL};
    PyObject *r = dt_py_ufunc_apply(u->op, operands);
    Py_DECREF(first);
    return r;
}

static PyObject *ufunc_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyDtUfunc *u = (PyDtUfunc *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs == u->nin && kwnames == NULL) {
        int tensor = 0;
        for (Py_ssize_t i = 0; i < nargs; i++)
            tensor |= DtTensor_Check(args[i]);
        if (tensor) {
            PyObject *r = dt_py_ufunc_apply(u->op, args);
            if (r != Py_NotImplemented)
                return r;
            Py_DECREF(r);
        } else {
            PyObject *r = apply_to_numbers(u, args);
            if (r != NULL && r != Py_NotImplemented)
                return r;
            if (r != NULL)
                Py_DECREF(r);
            else if (PyErr_Occurred())
                return NULL;
        }
    }
    return PyObject_Vectorcall(u->python, args, nargsf, kwnames);
}

/* ufunc(op, name, python): op an id of devtensor._C.OPS */
static PyObject *ufunc_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"op", "name", "python", NULL};
    int op;
    PyObject *name, *python;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iUO:ufunc", kwlist, &op, &name, &python))
        return NULL;
    if (op <= DT_OP_COPY || op >= DT_NUM_OPS)
        return PyErr_Format(PyExc_ValueError, "unknown op %d", op);
    if (!PyCallable_Check(python))
        return PyErr_Format(PyExc_TypeError, "ufunc: python must be callable");
    PyDtUfunc *u = (PyDtUfunc *)type->tp_alloc(type, 0);
    if (u == NULL)
        return NULL;
    u->vectorcall = ufunc_vectorcall;
    u->op = (dt_op)op;
    u->nin = dt_op_nin((dt_op)op);
    u->name = Py_NewRef(name);
    u->python = Py_NewRef(python);
    u->dict = PyDict_New();
    if (u->dict == NULL) {
        Py_DECREF(u);
        return NULL;
    }
    PyObject *doc = PyObject_GetAttrString(python, "__doc__");
    PyObject *module = PyUnicode_FromString("devtensor");
    int bad = doc == NULL || module == NULL || PyDict_SetItemString(u->dict, "__doc__", doc) < 0 ||
              PyDict_SetItemString(u->dict, "__module__", module) < 0;
    Py_XDECREF(doc);
    Py_XDECREF(module);
    if (bad) {
        Py_DECREF(u);
        return NULL;
    }
    return (PyObject *)u;
}

static int ufunc_traverse(PyDtUfunc *u, visitproc visit, void *arg)
{
    Py_VISIT(u->python);
    Py_VISIT(u->dict);
    return 0;
}

static int ufunc_clear(PyDtUfunc *u)
{
    Py_CLEAR(u->python);
    Py_CLEAR(u->dict);
    Py_CLEAR(u->name);
    return 0;
}

static void ufunc_dealloc(PyDtUfunc *u)
{
    PyObject_GC_UnTrack(u);
    ufunc_clear(u);
    Py_TYPE(u)->tp_free((PyObject *)u);
}

static PyObject *ufunc_repr(PyDtUfunc *u)
{
    return PyUnicode_FromFormat("<ufunc '%U'>", u->name);
}

static PyObject *get_nout(PyDtUfunc *u, void *c) { (void)u, (void)c; return PyLong_FromLong(1); }
static PyObject *get_nargs(PyDtUfunc *u, void *c) { (void)c; return PyLong_FromLong(u->nin + 1); }
static PyObject *get_name(PyDtUfunc *u, void *c) { (void)c; return Py_NewRef(u->name); }

static PyObject *ufunc_reduce_pickle(PyDtUfunc *u, PyObject *unused)
{
    (void)unused;
    return Py_NewRef(u->name); /* pickled by name, as functions are: devtensor.<name> */
}

static PyGetSetDef ufunc_getset[] = {
    {"__name__", (getter)get_name, NULL, "the function's name", NULL},
    {"__qualname__", (getter)get_name, NULL, "the function's name", NULL},
    {"nout", (getter)get_nout, NULL, "number of outputs", NULL},
    {"nargs", (getter)get_nargs, NULL, "number of arguments: inputs and outputs", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef ufunc_members[] = {
    {"nin", T_INT, offsetof(PyDtUfunc, nin), READONLY, "number of inputs"},
    {"_op", T_INT, offsetof(PyDtUfunc, op), READONLY, "the op id (devtensor._C.OPS)"},
    {NULL, 0, 0, 0, NULL},
};

static PyMethodDef ufunc_methods[] = {
    {"__reduce__", (PyCFunction)ufunc_reduce_pickle, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ufunc_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "devtensor.ufunc",
    .tp_basicsize = sizeof(PyDtUfunc),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "An elementwise function of devtensor (NumPy's ufunc): ufunc(op, name, python).",
    .tp_new = ufunc_new,
    .tp_dealloc = (destructor)ufunc_dealloc,
    .tp_traverse = (traverseproc)ufunc_traverse,
    .tp_clear = (inquiry)ufunc_clear,
    .tp_repr = (reprfunc)ufunc_repr,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(PyDtUfunc, vectorcall),
    .tp_dictoffset = offsetof(PyDtUfunc, dict),
    .tp_getset = ufunc_getset,
    .tp_members = ufunc_members,
    .tp_methods = ufunc_methods,
};

int dt_py_ufunc_type_init(PyObject *module)
{
    if (PyType_Ready(&ufunc_type) < 0)
        return -1;
    return PyModule_AddObjectRef(module, "ufunc", (PyObject *)&ufunc_type);
}
