/* buffer.c - the buffer protocol (PEP 3118) of CPU tensors.
 *
 * Note [The buffer protocol]
 * An ndarray lends its memory to memoryview, bytes(), file.write(),
 * hashlib, struct, array and PIL; NumPy reads any exporter in place
 * (np.frombuffer, np.asarray).  A CPU tensor lends its own the same way:
 * its elements where they are, its shape and byte strides (any sign; a
 * consumer that needs contiguity and does not get it gets NumPy's
 * ValueError), the struct format NumPy gives the dtype, and read-only
 * exactly when the tensor is (a writable request of a read-only tensor
 * gets NumPy's ValueError).  The export keeps a reference to the
 * tensor's storage, so the memory outlives whatever is later done to the
 * tensor (Module.to() gives a parameter new storage).  A tensor on another
 * device refuses (BufferError: no transfer nobody asked for; NumPy then
 * reads it through __array__), and so does bfloat16 when a format is asked
 * for, as memoryview, bytes() and NumPy do (struct has no bfloat16); its
 * raw bytes go to those that ask for none (file.write, hashlib).
 */
#include "pydt.h"

#include <string.h>

typedef struct {
    dt_storage *storage;              /* a reference, released with the export */
    Py_ssize_t dims[2 * DT_MAX_NDIM]; /* shape, then strides */
} export_info;

/* NumPy's format for a dtype (its 64-bit integers are C longs on LP64). */
static const char *struct_format(dt_dtype d)
{
    int long64 = sizeof(long) == 8;
    switch (d) {
    case DT_BOOL: return "?";
    case DT_INT8: return "b";
    case DT_UINT8: return "B";
    case DT_INT16: return "h";
    case DT_UINT16: return "H";
    case DT_INT32: return "i";
    case DT_UINT32: return "I";
    case DT_INT64: return long64 ? "l" : "q";
    case DT_UINT64: return long64 ? "L" : "Q";
    case DT_FLOAT16: return "e";
    case DT_FLOAT32: return "f";
    case DT_FLOAT64: return "d";
    case DT_COMPLEX64: return "Zf";
    case DT_COMPLEX128: return "Zd";
    default: return NULL; /* bfloat16 */
    }
}

/* Fortran order: the transpose's axes C-contiguous. */
static int f_contiguous(const dt_tensor *t)
{
    if (t->numel == 0)
        return 1;
    int64_t expected = dt_tensor_itemsize(t);
    for (int i = 0; i < t->ndim; i++) {
        if (t->shape[i] == 1)
            continue;
        if (t->strides[i] != expected)
            return 0;
        expected *= t->shape[i];
    }
    return 1;
}

/* The contiguity the request needs: NULL when t has it, else NumPy's
 * message. */
static const char *missing_contiguity(const dt_tensor *t, int flags)
{
    int c = dt_tensor_is_contiguous(t);
    if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !c) /* no strides to describe the layout */
        return "ndarray is not C-contiguous";
    if ((flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS && !c)
        return "ndarray is not C-contiguous";
    if ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && !f_contiguous(t))
        return "ndarray is not Fortran contiguous";
    if ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS && !c && !f_contiguous(t))
        return "ndarray is not contiguous";
    return NULL;
}

static int tensor_getbuffer(PyObject *obj, Py_buffer *view, int flags)
{
    const dt_tensor *t = &((PyDtTensor *)obj)->t;
    view->obj = NULL;
    if (dt_tensor_device(t).type != DT_DEVICE_CPU) {
        char name[32];
        dt_device_format(dt_tensor_device(t), name, sizeof name);
        PyErr_Format(PyExc_BufferError,
                     "a tensor on %s has no buffer in host memory; copy it there with Tensor.cpu() first", name);
        return -1;
    }
    if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE && (t->flags & DT_TENSOR_READONLY)) {
        PyErr_SetString(PyExc_ValueError, "buffer source array is read-only");
        return -1;
    }
    const char *format = struct_format(t->dtype);
    if ((flags & PyBUF_FORMAT) == PyBUF_FORMAT && format == NULL) {
        PyErr_SetString(PyExc_ValueError,
                        "bfloat16 has no buffer format; convert first, e.g. tensor.astype(devtensor.float32)");
        return -1;
    }
    const char *why = missing_contiguity(t, flags);
    if (why != NULL) {
        PyErr_SetString(PyExc_ValueError, why);
        return -1;
    }
    export_info *info = PyMem_Malloc(sizeof *info);
    if (info == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < t->ndim; i++) {
        info->dims[i] = (Py_ssize_t)t->shape[i];
        info->dims[t->ndim + i] = (Py_ssize_t)t->strides[i];
    }
    info->storage = t->storage;
    dt_storage_retain(info->storage);
    view->buf = dt_tensor_data(t);
    view->obj = Py_NewRef(obj);
    view->itemsize = (Py_ssize_t)dt_tensor_itemsize(t);
    view->len = (Py_ssize_t)t->numel * view->itemsize;
    view->readonly = (t->flags & DT_TENSOR_READONLY) != 0;
    view->format = (flags & PyBUF_FORMAT) == PyBUF_FORMAT ? (char *)format : NULL;
    view->ndim = (flags & PyBUF_ND) == PyBUF_ND ? t->ndim : 1; /* else bytes, as PyBuffer_FillInfo's */
    view->shape = (flags & PyBUF_ND) == PyBUF_ND ? info->dims : NULL;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? info->dims + t->ndim : NULL;
    view->suboffsets = NULL;
    view->internal = info;
    return 0;
}

static void tensor_releasebuffer(PyObject *obj, Py_buffer *view)
{
    (void)obj;
    export_info *info = view->internal;
    dt_storage_release(info->storage);
    PyMem_Free(info);
}

PyBufferProcs dt_py_tensor_as_buffer = {
    .bf_getbuffer = tensor_getbuffer,
    .bf_releasebuffer = tensor_releasebuffer,
};
