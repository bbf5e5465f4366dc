/* device_type.c - devtensor.device, PyTorch's torch.device for devtensor.
 *
 * device('cpu'), device('cuda'), device('cuda:1'), device('cuda', 1),
 * device(1) and device(other_device) construct without touching any
 * hardware.  As a context manager it sets the device on which factory
 * functions create tensors (a per-thread stack); _set_default_device sets
 * the thread's default under the blocks (Note [Default device]).
 */
#include "pydt.h"

#include <string.h>

PyObject *dt_py_device_new(dt_device d)
{
    PyDtDevice *self = PyObject_New(PyDtDevice, &dt_py_device_type);
    if (self != NULL)
        self->dev = d;
    return (PyObject *)self;
}

static int device_from_index(PyObject *obj, dt_device *out)
{
    long long i = PyLong_AsLongLong(obj);
    if (i == -1 && PyErr_Occurred())
        return 0;
    if (i < 0 || i > DT_MAX_DEVICE_INDEX) {
        PyErr_Format(PyExc_RuntimeError,
                     "Device index must be between 0 and %d, got %lld", DT_MAX_DEVICE_INDEX, i);
        return 0;
    }
    out->type = DT_DEVICE_CUDA;
    out->index = (int16_t)i;
    return 1;
}

/* Parses into *out; None leaves out->type = -1 ("not given"). */
int dt_py_device_converter(PyObject *obj, void *out)
{
    dt_device *d = out;
    if (obj == Py_None) {
        d->type = -1;
        d->index = DT_INDEX_NONE;
        return 1;
    }
    if (PyObject_TypeCheck(obj, &dt_py_device_type)) {
        *d = ((PyDtDevice *)obj)->dev;
        return 1;
    }
    if (PyUnicode_Check(obj)) {
        Py_ssize_t len;
        const char *s = PyUnicode_AsUTF8AndSize(obj, &len);
        if (s == NULL)
            return 0;
        if ((size_t)len != strlen(s)) { /* 'cpu\0junk' must not read as 'cpu' */
            PyErr_Format(PyExc_RuntimeError, "Invalid device string: %R (it contains a NUL "
                         "character); expected 'cpu', 'cuda' or 'cuda:N'", obj);
            return 0;
        }
        dt_error err;
        if (dt_device_parse(s, d, &err) != DT_OK) {
            dt_py_raise(&err);
            return 0;
        }
        return 1;
    }
    if (PyLong_Check(obj) && !PyBool_Check(obj))
        return device_from_index(obj, d);
    PyErr_Format(PyExc_TypeError,
                 "expected a device (devtensor.device, 'cpu', 'cuda', 'cuda:N' or an int), got %.100s",
                 Py_TYPE(obj)->tp_name);
    return 0;
}

const dt_backend_iface *dt_py_device_resolve(dt_device *dev)
{
    dt_error err;
    const dt_backend_iface *b = dt_device_resolve(dev, &err);
    if (b == NULL)
        dt_py_raise(&err);
    return b;
}

/* ---- the type ---- */

static PyObject *device_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    (void)type;
    static char *kwlist[] = {"type", "index", NULL};
    PyObject *what, *index = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:device", kwlist, &what, &index))
        return NULL;
    if (PyObject_TypeCheck(what, &dt_py_device_type) && index == Py_None)
        return Py_NewRef(what);
    if (what == Py_None)
        return PyErr_Format(PyExc_TypeError,
                            "device(None): expected 'cpu', 'cuda', 'cuda:N', an int or a device");
    if (index != Py_None && !PyUnicode_Check(what))
        return PyErr_Format(PyExc_TypeError, "device(type, index): type must be a string");
    dt_device d;
    if (!dt_py_device_converter(what, &d))
        return NULL;
    if (index != Py_None) {
        if (d.index != DT_INDEX_CURRENT) {
            if (d.type == DT_DEVICE_CPU)
                return PyErr_Format(PyExc_RuntimeError,
                                    "device('cpu', index): the cpu device takes no index");
            return PyErr_Format(PyExc_RuntimeError,
                                "device(%R, %R): type (string) must not include an index because "
                                "index was passed explicitly", what, index);
        }
        if (!PyLong_Check(index) || PyBool_Check(index))
            return PyErr_Format(PyExc_TypeError, "device index must be an int, got %.100s",
                                Py_TYPE(index)->tp_name);
        if (!device_from_index(index, &d))
            return NULL;
    }
    return dt_py_device_new(d);
}

static PyObject *device_get_type(PyDtDevice *self, void *c)
{
    (void)c;
    return PyUnicode_FromString(dt_device_type_name((dt_device_type)self->dev.type));
}

static PyObject *device_get_index(PyDtDevice *self, void *c)
{
    (void)c;
    if (self->dev.index < 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(self->dev.index);
}

static PyObject *device_repr(PyDtDevice *self)
{
    const char *type = dt_device_type_name((dt_device_type)self->dev.type);
    if (self->dev.index < 0)
        return PyUnicode_FromFormat("device(type='%s')", type);
    return PyUnicode_FromFormat("device(type='%s', index=%d)", type, (int)self->dev.index);
}

static PyObject *device_str(PyDtDevice *self)
{
    char buf[32];
    dt_device_format(self->dev, buf, sizeof buf);
    return PyUnicode_FromString(buf);
}

static PyObject *device_richcompare(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, &dt_py_device_type))
        Py_RETURN_NOTIMPLEMENTED;
    int equal = dt_device_equal(((PyDtDevice *)a)->dev, ((PyDtDevice *)b)->dev);
    return PyBool_FromLong(op == Py_EQ ? equal : !equal);
}

static Py_hash_t device_hash(PyDtDevice *self)
{
    Py_hash_t h = (Py_hash_t)(self->dev.type * 100003 + self->dev.index + 7);
    return h == -1 ? -2 : h;
}

/* ---- the default device of factory functions ---- */

/* Note [Default device]
 * Factories given device=None create on the innermost open `with device:`
 * block of the calling thread, else on the thread's set_default_device()
 * device, else on cpu: PyTorch's rules (its torch.set_default_device is
 * per thread too).  Both live in the thread's state dict: a list of the
 * open blocks' devices, and one device for the default.  `overrides`
 * counts the open blocks and the threads that set a default (changed
 * with the GIL held): while it is 0 the answer is cpu without a look at
 * the thread's dict (the factories' and asarray's per-call path).  A
 * thread that ends with a default set leaves the count above 0: only the
 * per-call path is slower, the answers stay right. */
static long overrides;

static PyObject *thread_key(PyObject **key, const char *name)
{
    if (*key == NULL)
        *key = PyUnicode_InternFromString(name);
    return *key;
}

/* The thread's list of open blocks (created when create is set), borrowed;
 * NULL with an exception set, or without one when there is none. */
static PyObject *device_stack(int create)
{
    static PyObject *key;
    PyObject *tdict = PyThreadState_GetDict();
    if (tdict == NULL || thread_key(&key, "devtensor.device_stack") == NULL)
        return NULL;
    PyObject *stack = PyDict_GetItemWithError(tdict, key); /* borrowed */
    if (stack == NULL && PyErr_Occurred())
        return NULL;
    if (stack == NULL && create) {
        stack = PyList_New(0);
        if (stack == NULL || PyDict_SetItem(tdict, key, stack) < 0) {
            Py_XDECREF(stack);
            return NULL;
        }
        Py_DECREF(stack); /* the dict holds it */
    }
    return stack;
}

static PyObject *thread_default_key(void)
{
    static PyObject *key;
    return thread_key(&key, "devtensor.default_device");
}

static PyObject *device_enter(PyDtDevice *self, PyObject *unused)
{
    (void)unused;
    PyObject *stack = device_stack(1);
    if (stack == NULL || PyList_Append(stack, (PyObject *)self) < 0)
        return NULL;
    overrides++;
    return Py_NewRef(self);
}

static PyObject *device_exit(PyDtDevice *self, PyObject *args)
{
    (void)self;
    (void)args;
    PyObject *stack = device_stack(0);
    Py_ssize_t n = stack ? PyList_GET_SIZE(stack) : 0;
    if (n > 0) {
        if (PyList_SetSlice(stack, n - 1, n, NULL) < 0)
            return NULL;
        overrides--;
    }
    Py_RETURN_FALSE;
}

/* The calling thread's default device (a new reference; never NULL unless
 * memory runs out): Note [Default device]. */
static PyObject *default_device(void)
{
    if (overrides > 0) {
        PyObject *stack = device_stack(0);
        if (stack != NULL && PyList_GET_SIZE(stack) > 0)
            return Py_NewRef(PyList_GET_ITEM(stack, PyList_GET_SIZE(stack) - 1));
        PyObject *tdict = PyThreadState_GetDict(), *key = thread_default_key(), *set = NULL;
        if (tdict != NULL && key != NULL)
            set = PyDict_GetItemWithError(tdict, key); /* borrowed */
        if (set != NULL)
            return Py_NewRef(set);
        PyErr_Clear();
    }
    return dt_py_device_new(dt_device_cpu());
}

int dt_py_default_device_is_cpu(void)
{
    if (overrides == 0)
        return 1;
    PyObject *d = default_device();
    if (d == NULL) {
        PyErr_Clear();
        return 1;
    }
    int cpu = ((PyDtDevice *)d)->dev.type == DT_DEVICE_CPU;
    Py_DECREF(d);
    return cpu;
}

PyObject *dt_py_default_device(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return default_device();
}

/* _set_default_device(device): this thread's default outside `with device:`
 * blocks; None (or 'cpu') goes back to cpu. */
static PyObject *py_set_default_device(PyObject *module, PyObject *obj)
{
    (void)module;
    dt_device d;
    if (!dt_py_device_converter(obj, &d))
        return NULL;
    PyObject *tdict = PyThreadState_GetDict(), *key = thread_default_key();
    if (tdict == NULL || key == NULL)
        return NULL;
    int had = PyDict_Contains(tdict, key);
    if (had < 0)
        return NULL;
    if (d.type < 0 || d.type == DT_DEVICE_CPU) {
        if (had) {
            if (PyDict_DelItem(tdict, key) < 0)
                return NULL;
            overrides--;
        }
        Py_RETURN_NONE;
    }
    PyObject *dev = dt_py_device_new(d);
    if (dev == NULL)
        return NULL;
    int rc = PyDict_SetItem(tdict, key, dev);
    Py_DECREF(dev);
    if (rc < 0)
        return NULL;
    if (!had)
        overrides++;
    Py_RETURN_NONE;
}

/* _resolve_device(device): the concrete device a request names ('cuda' is
 * the current CUDA device); RuntimeError if it does not exist. */
static PyObject *py_resolve_device(PyObject *module, PyObject *obj)
{
    (void)module;
    dt_device d;
    if (!dt_py_device_converter(obj, &d))
        return NULL;
    if (d.type < 0)
        return PyErr_Format(PyExc_TypeError, "_resolve_device(None): a device is needed");
    if (dt_py_device_resolve(&d) == NULL)
        return NULL;
    return dt_py_device_new(d);
}

static PyObject *device_reduce(PyDtDevice *self, PyObject *unused)
{
    (void)unused;
    PyObject *s = device_str(self);
    if (s == NULL)
        return NULL;
    return Py_BuildValue("(O(N))", (PyObject *)Py_TYPE(self), s);
}

static PyMethodDef device_methods[] = {
    {"__enter__", (PyCFunction)device_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)device_exit, METH_VARARGS, NULL},
    {"__reduce__", (PyCFunction)device_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef device_getset[] = {
    {"type", (getter)device_get_type, NULL, "'cpu' or 'cuda'", NULL},
    {"index", (getter)device_get_index, NULL, "the device index, or None", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject dt_py_device_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "devtensor.device",
    .tp_basicsize = sizeof(PyDtDevice),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "device(type, index=None): where a tensor lives ('cpu', 'cuda', 'cuda:N').\n\n"
              "Constructing a device never touches hardware.  As a context manager it sets the\n"
              "device on which factory functions create tensors.",
    .tp_new = device_new,
    .tp_repr = (reprfunc)device_repr,
    .tp_str = (reprfunc)device_str,
    .tp_hash = (hashfunc)device_hash,
    .tp_richcompare = device_richcompare,
    .tp_methods = device_methods,
    .tp_getset = device_getset,
};

static PyMethodDef device_module_methods[] = {
    {"_resolve_device", py_resolve_device, METH_O,
     "the concrete device a request names, checked to exist"},
    {"_set_default_device", py_set_default_device, METH_O,
     "this thread's default device for factories, outside `with device:` blocks"},
    {NULL, NULL, 0, NULL},
};

int dt_py_device_init(PyObject *module)
{
    if (PyType_Ready(&dt_py_device_type) < 0 ||
        PyModule_AddFunctions(module, device_module_methods) < 0)
        return -1;
    return PyModule_AddObjectRef(module, "device", (PyObject *)&dt_py_device_type);
}
