/* fallback.c - how the C fast paths hand a call to the Python layer: a
 * devtensor function looked up once, and a call of it with the tensor
 * prepended to the arguments the C method received (Note [Indexing in C],
 * [Identity moves in C], [Reshape in C], [Conversions in C]).
 */
#include "pydt.h"

PyObject *dt_py_lazy_function(const char *module, const char *name, PyObject **cache)
{
    if (*cache == NULL) {
        PyObject *mod = PyImport_ImportModule(module);
        if (mod == NULL)
            return NULL;
        *cache = PyObject_GetAttrString(mod, name);
        Py_DECREF(mod);
    }
    return *cache;
}

PyObject *dt_py_call_with_self(PyObject *fn, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames)
{
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    PyObject *small[DT_MAX_NDIM + 8], **all = small;
    if (nargs + nkw + 1 > (Py_ssize_t)(sizeof small / sizeof *small)) {
        all = PyMem_Malloc((size_t)(nargs + nkw + 1) * sizeof *all);
        if (all == NULL)
            return PyErr_NoMemory();
    }
    all[0] = self;
    for (Py_ssize_t i = 0; i < nargs + nkw; i++)
        all[i + 1] = args[i];
    PyObject *res = PyObject_Vectorcall(fn, all, (size_t)(nargs + 1), kwnames);
    if (all != small)
        PyMem_Free(all);
    return res;
}
