/* numpy_interop.c - zero-copy views between CPU tensors and NumPy arrays. */
#include "pydt.h"

/* Foreign storage release: drop the Python object that owns the memory (a
 * NumPy array, another library's CUDA array).  May run on a thread without
 * the GIL (see Note [Releasing the GIL]). */
void dt_py_release_object(void *owner)
{
    if (PyGILState_Check()) { /* the usual case: a tensor's deallocation */
        Py_DECREF((PyObject *)owner);
        return;
    }
    PyGILState_STATE g = PyGILState_Ensure();
    Py_DECREF((PyObject *)owner);
    PyGILState_Release(g);
}

PyObject *dt_py_tensor_from_ndarray(PyArrayObject *arr)
{
    dt_dtype dtype;
    if (dt_py_dtype_from_descr(PyArray_DESCR(arr), &dtype) < 0)
        return NULL;
    int ndim = PyArray_NDIM(arr);
    if (ndim > DT_MAX_NDIM)
        return PyErr_Format(PyExc_ValueError, "maximum supported dimension for a tensor is %d, found %d",
                            DT_MAX_NDIM, ndim);
    int64_t shape[DT_MAX_NDIM], strides[DT_MAX_NDIM];
    int64_t itemsize = PyArray_ITEMSIZE(arr), lo = 0, hi = 0, numel = 1;
    for (int i = 0; i < ndim; i++) {
        shape[i] = PyArray_DIMS(arr)[i];
        strides[i] = PyArray_STRIDES(arr)[i];
        numel *= shape[i];
    }
    /* the storage spans the bytes the array reaches: [lo, hi) around data */
    if (numel > 0) {
        for (int i = 0; i < ndim; i++) {
            int64_t span = strides[i] * (shape[i] - 1);
            if (span < 0)
                lo += span;
            else
                hi += span;
        }
        hi += itemsize;
    }
    char *data = PyArray_BYTES(arr);
    dt_storage *s;
    dt_error err;
    Py_INCREF(arr);
    if (dt_storage_wrap(data + lo, (size_t)(hi - lo), dt_device_cpu(), dt_py_release_object, arr, &s,
                        &err) != DT_OK) {
        Py_DECREF(arr);
        return dt_py_raise(&err);
    }
    s->readonly = !PyArray_ISWRITEABLE(arr); /* Note [Read-only tensors] */
    dt_tensor t;
    dt_status st = dt_tensor_init_view_taking(&t, s, -lo, ndim, shape, strides, dtype, &err);
    if (st != DT_OK) {
        dt_tensor_clear(&t);
        return dt_py_raise(&err);
    }
    return dt_py_tensor_wrap(&t);
}

/* Note [asarray of the same array]
 * np.asarray(a) returns a itself; dt.asarray(a) must make a tensor, which
 * costs an object and a storage (~100 ns).  Code that converts its inputs
 * calls asarray on one array again and again, so the last tensor asarray
 * made is remembered (borrowed: its dealloc forgets it, and its storage
 * keeps the array alive, so the array pointer cannot be reused meanwhile)
 * and returned again while nothing a fresh wrap would see has changed:
 * the array's data pointer, dtype, shape, strides and writeability, and
 * the tensor's flags (writeable can be set on a tensor).  Tensors have no
 * other mutable state, so the remembered one is indistinguishable from a
 * fresh one but by identity, as np.asarray(a) is a. */
static struct {
    PyArrayObject *array;
    PyDtTensor *tensor;
    void *data;
    PyArray_Descr *descr;
    int array_writeable, tensor_flags;
} memo;

void dt_py_asarray_memo_forget(PyDtTensor *tensor)
{
    if (memo.tensor == tensor)
        memo.tensor = NULL;
}

static int memo_matches(PyArrayObject *arr)
{
    const dt_tensor *t = &memo.tensor->t;
    int ndim = PyArray_NDIM(arr);
    if (memo.array != arr || PyArray_BYTES(arr) != memo.data || PyArray_DESCR(arr) != memo.descr ||
        (PyArray_ISWRITEABLE(arr) != 0) != memo.array_writeable || t->flags != memo.tensor_flags || t->ndim != ndim)
        return 0;
    for (int i = 0; i < ndim; i++)
        if (t->shape[i] != PyArray_DIMS(arr)[i] || t->strides[i] != PyArray_STRIDES(arr)[i])
            return 0;
    return 1;
}

PyObject *dt_py_tensor_share_ndarray(PyArrayObject *arr)
{
    if (memo.tensor != NULL && memo_matches(arr))
        return Py_NewRef((PyObject *)memo.tensor);
    PyObject *t = dt_py_tensor_from_ndarray(arr);
    if (t != NULL && Py_TYPE(t) != &dt_py_tensor_base_type) {
        memo.array = arr;
        memo.tensor = (PyDtTensor *)t;
        memo.data = PyArray_BYTES(arr);
        memo.descr = PyArray_DESCR(arr);
        memo.array_writeable = PyArray_ISWRITEABLE(arr) != 0;
        memo.tensor_flags = memo.tensor->t.flags;
    }
    return t;
}

PyObject *dt_py_tensor_to_ndarray(PyDtTensor *self)
{
    const dt_tensor *t = &self->t;
    if (dt_tensor_device(t).type != DT_DEVICE_CPU) {
        char name[32];
        dt_device_format(dt_tensor_device(t), name, sizeof name);
        return PyErr_Format(PyExc_TypeError,
                            "can't convert %s device type tensor to numpy. Use Tensor.cpu() to "
                            "copy the tensor to host memory first.", name);
    }
    int typenum = dt_py_dtype_typenum(t->dtype);
    if (typenum < 0)
        return PyErr_Format(PyExc_TypeError,
                            "NumPy has no bfloat16 dtype; convert first, e.g. "
                            "tensor.astype(devtensor.float32)");
    npy_intp dims[DT_MAX_NDIM], strides[DT_MAX_NDIM];
    for (int i = 0; i < t->ndim; i++) {
        dims[i] = (npy_intp)t->shape[i];
        strides[i] = (npy_intp)t->strides[i];
    }
    PyArray_Descr *descr = PyArray_DescrFromType(typenum);
    if (descr == NULL)
        return NULL;
    PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, descr, t->ndim, dims, strides,
                                         dt_tensor_data(t),
                                         (t->flags & DT_TENSOR_READONLY) ? 0 : NPY_ARRAY_WRITEABLE,
                                         NULL);
    if (arr == NULL)
        return NULL;
    PyObject *owner = dt_py_tensor_stable_owner(self); /* Note [Replacing a tensor's data] */
    if (owner == NULL) {
        Py_DECREF(arr);
        return NULL;
    }
    if (PyArray_SetBaseObject((PyArrayObject *)arr, owner) < 0) {
        Py_DECREF(arr);
        return NULL;
    }
    return arr;
}
