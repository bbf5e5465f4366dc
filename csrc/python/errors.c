/* errors.c - turning the core's dt_error into Python exceptions. */
#include "pydt.h"

PyObject *dt_py_OutOfMemoryError;
PyObject *dt_py_SizeOverflowError;

PyObject *dt_py_raise(const dt_error *err)
{
    PyObject *type;
    switch (err->status) {
    case DT_ERR_VALUE: type = PyExc_ValueError; break;
    case DT_ERR_TYPE: type = PyExc_TypeError; break;
    case DT_ERR_INDEX: type = PyExc_IndexError; break;
    case DT_ERR_OVERFLOW: type = dt_py_SizeOverflowError; break;
    case DT_ERR_NOMEM: type = PyExc_MemoryError; break;
    case DT_ERR_DEVICE_OOM: type = dt_py_OutOfMemoryError; break;
    case DT_ERR_NOT_IMPLEMENTED: type = PyExc_NotImplementedError; break;
    default: type = PyExc_RuntimeError; break;
    }
    PyErr_SetString(type, err->msg);
    return NULL;
}

int dt_py_errors_init(PyObject *module)
{
    dt_py_OutOfMemoryError = PyErr_NewExceptionWithDoc(
        "devtensor.cuda.OutOfMemoryError",
        "Raised when a device has too little free memory for an allocation, after devtensor "
        "freed its cached blocks and ran the garbage collector.",
        PyExc_MemoryError, NULL);
    if (dt_py_OutOfMemoryError == NULL)
        return -1;
    /* Note [Sizes past 64 bits]: NumPy raises ValueError ("array is too
     * big", "Maximum allowed dimension exceeded") where devtensor's sizes
     * overflow; devtensor raised OverflowError.  Both catch this one. */
    PyObject *bases = PyTuple_Pack(2, PyExc_ValueError, PyExc_OverflowError);
    if (bases == NULL)
        return -1;
    dt_py_SizeOverflowError = PyErr_NewExceptionWithDoc(
        "devtensor._C.SizeOverflowError",
        "Raised when a shape, a size in bytes or a stride does not fit in 64 bits: a ValueError, as "
        "NumPy's error for an array too big, and an OverflowError.",
        bases, NULL);
    Py_DECREF(bases);
    if (dt_py_SizeOverflowError == NULL ||
        PyModule_AddObjectRef(module, "SizeOverflowError", dt_py_SizeOverflowError) < 0)
        return -1;
    return PyModule_AddObjectRef(module, "OutOfMemoryError", dt_py_OutOfMemoryError);
}
