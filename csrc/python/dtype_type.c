/* dtype_type.c - devtensor.dtype: the Python face of the core's dtypes.
 *
 * Note [dtype equality]
 * A devtensor dtype compares equal to itself, to the matching NumPy dtype
 * or scalar type and to any name NumPy accepts for it
 * (x.dtype == numpy.float32 == 'float32' == 'f4').  Its hash is the NumPy
 * dtype's, so mixed dict keys work; bfloat16 (no NumPy dtype) hashes its name.
 */
#include "pydt.h"

#include <string.h>

static PyObject *instances[DT_NUM_DTYPES];

static const int typenums[DT_NUM_DTYPES] = {
    [DT_BOOL] = NPY_BOOL, [DT_INT8] = NPY_INT8, [DT_INT16] = NPY_INT16,
    [DT_INT32] = NPY_INT32, [DT_INT64] = NPY_INT64, [DT_UINT8] = NPY_UINT8,
    [DT_UINT16] = NPY_UINT16, [DT_UINT32] = NPY_UINT32, [DT_UINT64] = NPY_UINT64,
    [DT_FLOAT16] = NPY_FLOAT16, [DT_BFLOAT16] = -1, [DT_FLOAT32] = NPY_FLOAT32,
    [DT_FLOAT64] = NPY_FLOAT64, [DT_COMPLEX64] = NPY_COMPLEX64, [DT_COMPLEX128] = NPY_COMPLEX128,
};

int dt_py_dtype_typenum(dt_dtype d) { return typenums[d]; }

PyObject *dt_py_dtype_get(dt_dtype d) { return instances[d]; }

int dt_py_dtype_from_descr(PyArray_Descr *descr, dt_dtype *out)
{
    if (PyDataType_ISBYTESWAPPED(descr) == 0 || PyDataType_ELSIZE(descr) == 1) {
        switch (descr->type_num) { /* the exact type numbers first: every array's */
        case NPY_FLOAT64: *out = DT_FLOAT64; return 0;
        case NPY_FLOAT32: *out = DT_FLOAT32; return 0;
        case NPY_INT64: *out = DT_INT64; return 0;
        case NPY_INT32: *out = DT_INT32; return 0;
        case NPY_BOOL: *out = DT_BOOL; return 0;
        default: break;
        }
        for (int i = 0; i < DT_NUM_DTYPES; i++) /* the other exact type numbers */
            if (typenums[i] >= 0 && typenums[i] == descr->type_num) {
                *out = (dt_dtype)i;
                return 0;
            }
        for (int i = 0; i < DT_NUM_DTYPES; i++) /* aliases: long long for long, ... */
            if (typenums[i] >= 0 && PyArray_EquivTypenums(typenums[i], descr->type_num)) {
                *out = (dt_dtype)i;
                return 0;
            }
    }
    PyObject *r = PyObject_Repr((PyObject *)descr);
    PyErr_Format(PyExc_TypeError, "devtensor does not support the NumPy data type %S", r);
    Py_XDECREF(r);
    return -1;
}

int dt_py_dtype_converter(PyObject *obj, void *out)
{
    int *code = out;
    if (obj == Py_None) {
        *code = -1;
        return 1;
    }
    if (PyObject_TypeCheck(obj, &dt_py_dtype_type)) {
        *code = ((PyDtDtype *)obj)->code;
        return 1;
    }
    if (PyUnicode_Check(obj) && PyUnicode_CompareWithASCIIString(obj, "bfloat16") == 0) {
        *code = DT_BFLOAT16;
        return 1;
    }
    PyArray_Descr *descr = NULL;
    if (!PyArray_DescrConverter(obj, &descr))
        return 0;
    dt_dtype d;
    int r = dt_py_dtype_from_descr(descr, &d);
    Py_DECREF(descr);
    if (r < 0)
        return 0;
    *code = d;
    return 1;
}

static PyObject *dtype_repr(PyDtDtype *self)
{
    return PyUnicode_FromFormat("devtensor.%s", dt_dtype_get_info(self->code)->name);
}

static PyObject *dtype_str(PyDtDtype *self)
{
    return PyUnicode_FromString(dt_dtype_get_info(self->code)->name);
}

static PyObject *dtype_richcompare(PyDtDtype *self, PyObject *other, int op)
{
    if (op != Py_EQ && op != Py_NE)
        Py_RETURN_NOTIMPLEMENTED;
    int code;
    if (!dt_py_dtype_converter(other, &code)) {
        PyErr_Clear(); /* not a dtype at all: simply unequal */
        code = -2;
    }
    int equal = code == (int)self->code;
    return PyBool_FromLong(op == Py_EQ ? equal : !equal);
}

static Py_hash_t dtype_hash(PyDtDtype *self)
{
    if (typenums[self->code] < 0) {
        PyObject *name = PyUnicode_FromString(dt_dtype_get_info(self->code)->name);
        if (name == NULL)
            return -1;
        Py_hash_t h = PyObject_Hash(name);
        Py_DECREF(name);
        return h;
    }
    PyArray_Descr *descr = PyArray_DescrFromType(typenums[self->code]);
    Py_hash_t h = PyObject_Hash((PyObject *)descr);
    Py_DECREF(descr);
    return h;
}

static PyObject *dtype_get_name(PyDtDtype *self, void *c)
{
    (void)c;
    return PyUnicode_FromString(dt_dtype_get_info(self->code)->name);
}

static PyObject *dtype_get_itemsize(PyDtDtype *self, void *c)
{
    (void)c;
    return PyLong_FromLong(dt_dtype_get_info(self->code)->itemsize);
}

static PyObject *dtype_get_kind(PyDtDtype *self, void *c)
{
    (void)c;
    static const char kinds[] = {'b', 'i', 'u', 'f', 'c'};
    return PyUnicode_FromFormat("%c", kinds[dt_dtype_get_info(self->code)->kind]);
}

static PyObject *dtype_get_is_floating_point(PyDtDtype *self, void *c)
{
    (void)c;
    return PyBool_FromLong(dt_dtype_is_floating(self->code));
}

static PyObject *dtype_get_is_complex(PyDtDtype *self, void *c)
{
    (void)c;
    return PyBool_FromLong(dt_dtype_is_complex(self->code));
}

/* The matching NumPy dtype (None for bfloat16). */
static PyObject *dtype_get_numpy(PyDtDtype *self, void *c)
{
    (void)c;
    if (typenums[self->code] < 0)
        Py_RETURN_NONE;
    return (PyObject *)PyArray_DescrFromType(typenums[self->code]);
}

/* Note [np.dtype of a devtensor dtype]
 * NumPy converts any object whose `dtype` attribute is a NumPy dtype, so
 * np.dtype(devtensor.float32) and np.zeros(3, dtype=devtensor.int8) work,
 * and so does code that normalises dtypes through np.dtype (Dask does, for
 * every array it is given).  bfloat16 has no NumPy dtype: the attribute is
 * absent, and NumPy says it cannot interpret it. */
static PyObject *dtype_get_dtype_protocol(PyDtDtype *self, void *c)
{
    (void)c;
    if (typenums[self->code] < 0)
        return PyErr_Format(PyExc_AttributeError, "devtensor.%s has no NumPy dtype",
                            dt_dtype_get_info(self->code)->name);
    return (PyObject *)PyArray_DescrFromType(typenums[self->code]);
}

/* NumPy's dtype attributes that code written for np.dtype reads (Dask
 * does; so do `x.dtype.str`-style checks): the scalar type, the one-letter
 * code, the array-interface string, byte order, ...  The closure names the
 * attribute, read off the matching NumPy dtype.  Absent for bfloat16, which
 * has no NumPy dtype. */
static PyObject *dtype_get_numpy_attr(PyDtDtype *self, void *attr)
{
    PyObject *descr = dtype_get_dtype_protocol(self, NULL);
    if (descr == NULL)
        return NULL;
    PyObject *v = PyObject_GetAttrString(descr, (const char *)attr);
    Py_DECREF(descr);
    return v;
}

/* A plain dtype has no sub-array: no dimensions, and is its own base. */
static PyObject *dtype_get_ndim(PyDtDtype *self, void *c)
{
    (void)self, (void)c;
    return PyLong_FromLong(0);
}

static PyObject *dtype_get_shape(PyDtDtype *self, void *c)
{
    (void)self, (void)c;
    return PyTuple_New(0);
}

static PyObject *dtype_get_base(PyDtDtype *self, void *c)
{
    (void)c;
    return Py_NewRef(self);
}

static PyObject *dtype_get_fields(PyDtDtype *self, void *c)
{
    (void)self, (void)c;
    Py_RETURN_NONE;
}

static PyObject *dtype_get_hasobject(PyDtDtype *self, void *c)
{
    (void)self, (void)c;
    Py_RETURN_FALSE;
}

static PyObject *dtype_reduce(PyDtDtype *self, PyObject *unused)
{
    (void)unused;
    return PyUnicode_FromString(dt_dtype_get_info(self->code)->name);
}

static PyGetSetDef dtype_getset[] = {
    {"name", (getter)dtype_get_name, NULL, "NumPy's name of the dtype", NULL},
    {"__name__", (getter)dtype_get_name, NULL, "the name, as NumPy's scalar types have it", NULL},
    {"itemsize", (getter)dtype_get_itemsize, NULL, "bytes per element", NULL},
    {"kind", (getter)dtype_get_kind, NULL, "NumPy's kind character: b, i, u, f or c", NULL},
    {"is_floating_point", (getter)dtype_get_is_floating_point, NULL, NULL, NULL},
    {"is_complex", (getter)dtype_get_is_complex, NULL, NULL, NULL},
    {"numpy_dtype", (getter)dtype_get_numpy, NULL, "the NumPy dtype, None for bfloat16", NULL},
    {"dtype", (getter)dtype_get_dtype_protocol, NULL,
     "the NumPy dtype, for np.dtype() (absent for bfloat16)", NULL},
    {"type", (getter)dtype_get_numpy_attr, NULL, "NumPy's scalar type (absent for bfloat16)", "type"},
    {"char", (getter)dtype_get_numpy_attr, NULL, "NumPy's one-letter code (absent for bfloat16)", "char"},
    {"num", (getter)dtype_get_numpy_attr, NULL, "NumPy's type number (absent for bfloat16)", "num"},
    {"str", (getter)dtype_get_numpy_attr, NULL, "the array-interface string, '<f4' (absent for bfloat16)",
     "str"},
    {"descr", (getter)dtype_get_numpy_attr, NULL, "the array-interface description (absent for bfloat16)",
     "descr"},
    {"byteorder", (getter)dtype_get_numpy_attr, NULL, "'=' or '|', as NumPy's (absent for bfloat16)",
     "byteorder"},
    {"alignment", (getter)dtype_get_numpy_attr, NULL, NULL, "alignment"},
    {"isnative", (getter)dtype_get_numpy_attr, NULL, NULL, "isnative"},
    {"isbuiltin", (getter)dtype_get_numpy_attr, NULL, NULL, "isbuiltin"},
    {"subdtype", (getter)dtype_get_numpy_attr, NULL, "None: no sub-array dtypes", "subdtype"},
    {"names", (getter)dtype_get_numpy_attr, NULL, "None: no structured dtypes", "names"},
    {"metadata", (getter)dtype_get_numpy_attr, NULL, NULL, "metadata"},
    {"ndim", (getter)dtype_get_ndim, NULL, "0: no sub-array dtypes", NULL},
    {"shape", (getter)dtype_get_shape, NULL, "(): no sub-array dtypes", NULL},
    {"base", (getter)dtype_get_base, NULL, "the dtype itself: no sub-array dtypes", NULL},
    {"fields", (getter)dtype_get_fields, NULL, "None: no structured dtypes", NULL},
    {"hasobject", (getter)dtype_get_hasobject, NULL, "False: no object dtype", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* Note [dtypes as NumPy's scalar types]
 * With `import devtensor as np`, np.float64 is a devtensor dtype where
 * NumPy code expects NumPy's scalar type: isinstance(v, np.float64),
 * issubclass(t, np.integer)-style checks and np.float32.__name__.  The
 * checks are NumPy's own, against the dtype's scalar type (a bfloat16
 * check is always False: NumPy has no such scalars). */
static PyObject *scalar_type_check(PyDtDtype *self, PyObject *obj, int subclass)
{
    if (typenums[self->code] < 0)
        Py_RETURN_FALSE;
    PyObject *type = dtype_get_numpy_attr(self, "type");
    if (type == NULL)
        return NULL;
    int r = subclass ? PyObject_IsSubclass(obj, type) : PyObject_IsInstance(obj, type);
    Py_DECREF(type);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

static PyObject *dtype_instancecheck(PyDtDtype *self, PyObject *obj) { return scalar_type_check(self, obj, 0); }

static PyObject *dtype_subclasscheck(PyDtDtype *self, PyObject *obj) { return scalar_type_check(self, obj, 1); }

static PyMethodDef dtype_methods[] = {
    {"__reduce__", (PyCFunction)dtype_reduce, METH_NOARGS, NULL},
    {"__instancecheck__", (PyCFunction)dtype_instancecheck, METH_O, "isinstance(v, dtype): v is of NumPy's scalar type"},
    {"__subclasscheck__", (PyCFunction)dtype_subclasscheck, METH_O, "issubclass(t, dtype): t is NumPy's scalar type or one of its subclasses"},
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, "dtype[float64]: a generic alias for annotations, as NumPy's"},
    {NULL, NULL, 0, NULL},
};

static PyObject *dtype_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    (void)type;
    PyObject *obj;
    static char *kwlist[] = {"dtype", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:dtype", kwlist, &obj))
        return NULL;
    int code;
    if (!dt_py_dtype_converter(obj, &code))
        return NULL;
    if (code < 0)
        return PyErr_Format(PyExc_TypeError, "dtype(None) is not a data type");
    return Py_NewRef(instances[code]);
}

/* Note [Calling a dtype]
 * np.float32(x) is NumPy code's cast: a NumPy scalar of a number or string,
 * an array of an array.  Called, a devtensor dtype does the same through
 * devtensor._dtype_api._call: a tensor is cast on its own device
 * (t.astype), anything else becomes NumPy's scalar of that type. */
static PyObject *dtype_call(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static PyObject *call;
    int typenum = typenums[((PyDtDtype *)self)->code];
    if (kwargs == NULL && PyTuple_GET_SIZE(args) == 1 && typenum >= 0) {
        PyObject *x = PyTuple_GET_ITEM(args, 0);
        if (PyFloat_CheckExact(x) || PyLong_CheckExact(x) || PyBool_Check(x) || PyComplex_CheckExact(x)) {
            /* a Python number: NumPy's scalar type called on it, as _call does */
            PyArray_Descr *descr = PyArray_DescrFromType(typenum);
            if (descr == NULL)
                return NULL;
            PyObject *r = PyObject_CallOneArg((PyObject *)descr->typeobj, x);
            Py_DECREF(descr);
            return r;
        }
    }
    if (dt_py_lazy_function("devtensor._dtype_api", "_call", &call) == NULL)
        return NULL;
    PyObject *head = PyTuple_Pack(1, self);
    PyObject *all = head == NULL ? NULL : PySequence_Concat(head, args);
    Py_XDECREF(head);
    PyObject *r = all == NULL ? NULL : PyObject_Call(call, all, kwargs);
    Py_XDECREF(all);
    return r;
}

PyTypeObject dt_py_dtype_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "devtensor.dtype",
    .tp_basicsize = sizeof(PyDtDtype),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The element type of a tensor: devtensor.float32, devtensor.int64, ...",
    .tp_repr = (reprfunc)dtype_repr,
    .tp_str = (reprfunc)dtype_str,
    .tp_hash = (hashfunc)dtype_hash,
    .tp_richcompare = (richcmpfunc)dtype_richcompare,
    .tp_call = dtype_call,
    .tp_getset = dtype_getset,
    .tp_methods = dtype_methods,
    .tp_new = dtype_new,
};

/* ---- promotion primitives for devtensor's result_type & co ---- */

static PyObject *py_promote_types(PyObject *m, PyObject *args)
{
    (void)m;
    int a, b;
    if (!PyArg_ParseTuple(args, "O&O&:_promote_types", dt_py_dtype_converter, &a,
                          dt_py_dtype_converter, &b))
        return NULL;
    if (a < 0 || b < 0)
        return PyErr_Format(PyExc_TypeError, "_promote_types needs two dtypes");
    return Py_NewRef(instances[dt_promote_types((dt_dtype)a, (dt_dtype)b)]);
}

/* _promote_weak(dtype, kind): kind is 'bool', 'int', 'float' or 'complex'. */
static PyObject *py_promote_weak(PyObject *m, PyObject *args)
{
    (void)m;
    int a;
    const char *kind;
    if (!PyArg_ParseTuple(args, "O&s:_promote_weak", dt_py_dtype_converter, &a, &kind))
        return NULL;
    static const char *const kinds[] = {"bool", "int", "float", "complex"};
    for (int k = 0; k < 4; k++)
        if (a >= 0 && strcmp(kind, kinds[k]) == 0)
            return Py_NewRef(instances[dt_promote_weak((dt_dtype)a, (dt_weak_kind)k)]);
    return PyErr_Format(PyExc_ValueError, "_promote_weak(dtype, kind): kind must be bool, int, "
                        "float or complex");
}

/* _can_cast(from, to, casting): NumPy's casting rules 'no', 'equiv',
 * 'safe', 'same_kind', 'unsafe'. */
static PyObject *py_can_cast(PyObject *m, PyObject *args)
{
    (void)m;
    int a, b;
    const char *casting = "safe";
    if (!PyArg_ParseTuple(args, "O&O&|s:_can_cast", dt_py_dtype_converter, &a,
                          dt_py_dtype_converter, &b, &casting))
        return NULL;
    if (a < 0 || b < 0)
        return PyErr_Format(PyExc_TypeError, "_can_cast needs two dtypes");
    int ok;
    if (strcmp(casting, "no") == 0 || strcmp(casting, "equiv") == 0)
        ok = a == b;
    else if (strcmp(casting, "safe") == 0)
        ok = dt_can_cast_safe((dt_dtype)a, (dt_dtype)b);
    else if (strcmp(casting, "same_kind") == 0)
        ok = dt_can_cast_same_kind((dt_dtype)a, (dt_dtype)b);
    else if (strcmp(casting, "unsafe") == 0)
        ok = 1;
    else
        return PyErr_Format(PyExc_ValueError,
                            "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or "
                            "'unsafe'");
    return PyBool_FromLong(ok);
}

static PyMethodDef dtype_module_methods[] = {
    {"_promote_types", py_promote_types, METH_VARARGS, "NumPy 2's promote_types on two dtypes"},
    {"_promote_weak", py_promote_weak, METH_VARARGS, "NEP 50: dtype op (Python scalar of a kind)"},
    {"_can_cast", py_can_cast, METH_VARARGS, "NumPy's can_cast between two dtypes"},
    {NULL, NULL, 0, NULL},
};

int dt_py_dtype_init(PyObject *module)
{
    if (PyModule_AddFunctions(module, dtype_module_methods) < 0)
        return -1;
    if (PyType_Ready(&dt_py_dtype_type) < 0)
        return -1;
    if (PyModule_AddObjectRef(module, "dtype", (PyObject *)&dt_py_dtype_type) < 0)
        return -1;
    for (int i = 0; i < DT_NUM_DTYPES; i++) {
        PyDtDtype *d = PyObject_New(PyDtDtype, &dt_py_dtype_type);
        if (d == NULL)
            return -1;
        d->code = (dt_dtype)i;
        instances[i] = (PyObject *)d;
        if (PyModule_AddObjectRef(module, dt_dtype_get_info((dt_dtype)i)->name, (PyObject *)d) < 0)
            return -1;
    }
    return 0;
}
