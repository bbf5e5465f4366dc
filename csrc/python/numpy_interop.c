/* numpy_interop.c - zero-copy views between CPU tensors and NumPy arrays. */
#include "pydt.h"

/* Foreign storage release: drop the Python object that owns the memory (a
 * NumPy array, another library's CUDA array).  May run on a thread without
 * the GIL (see Note [Releasing the GIL]). */
void dt_py_release_object(void *owner)
{
    if (owner == NULL) /* an asarray shell's storage (Note [asarray of the same array]) */
        return;
    if (PyGILState_Check()) { /* the usual case: a tensor's deallocation */
        Py_DECREF((PyObject *)owner);
        return;
    }
    PyGILState_STATE g = PyGILState_Ensure();
    Py_DECREF((PyObject *)owner);
    PyGILState_Release(g);
}

int dt_py_storage_sole_array(const dt_storage *s)
{
    PyObject *owner = (PyObject *)s->owner;
    return s->release == dt_py_release_object && owner != NULL && PyArray_Check(owner) &&
           PyArray_CHKFLAGS((PyArrayObject *)owner, NPY_ARRAY_OWNDATA) && Py_REFCNT(owner) == 1;
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
 * fresh one but by identity, as np.asarray(a) is a.
 *
 * Most such tensors die before the next call (x = np.asarray(x) at the top
 * of a function), so when the remembered tensor dies as it was made (its
 * flags unchanged, no weak reference, the only user of its storage) it is
 * kept as a shell: the object and storage stay built, the array reference
 * is dropped (the array may die; nothing keeps it alive longer than a
 * fresh tensor would).  The next asarray of an array that would give the
 * same wrap (its data pointer, dtype, shape, strides and writeability; the
 * array object may even be a new one at the old address) revives the
 * shell, taking a reference to that array.  Any other asarray frees it. */
typedef struct {
    PyDtTensor *tensor;
    PyArrayObject *array; /* borrowed; for the shell, perhaps dead: compared, never read */
    void *data;
    dt_dtype dtype;
    int array_writeable, tensor_flags;
} memo_entry;
static memo_entry live, shell;

void dt_py_asarray_memo_forget(PyDtTensor *tensor)
{
    if (live.tensor == tensor)
        live.tensor = NULL;
}

static int memo_matches(const memo_entry *m, PyArrayObject *arr, dt_dtype dtype)
{
    const dt_tensor *t = &m->tensor->t;
    int ndim = PyArray_NDIM(arr);
    if (m->array != arr || PyArray_BYTES(arr) != m->data || dtype != m->dtype ||
        (PyArray_ISWRITEABLE(arr) != 0) != m->array_writeable || t->flags != m->tensor_flags || t->ndim != ndim)
        return 0;
    for (int i = 0; i < ndim; i++)
        if (t->shape[i] != PyArray_DIMS(arr)[i] || t->strides[i] != PyArray_STRIDES(arr)[i])
            return 0;
    return 1;
}

static void shell_free(void)
{
    PyDtTensor *t = shell.tensor;
    shell.tensor = NULL;
    if (t != NULL)
        dt_py_tensor_recycle(t); /* its storage's owner is NULL: nothing to release */
}

int dt_py_asarray_memo_keep(PyDtTensor *tensor)
{
    if (live.tensor != tensor)
        return 0;
    live.tensor = NULL;
    dt_storage *s = tensor->t.storage;
    if (tensor->weakreflist != NULL || tensor->base != NULL || tensor->t.flags != live.tensor_flags || s == NULL ||
        atomic_load(&s->refcount) != 1 || s->release != dt_py_release_object || s->owner != live.array)
        return 0;
    shell_free();
    shell = live;
    shell.tensor = tensor;
    s->owner = NULL;
    Py_DECREF(live.array); /* last: it may run code, which finds the shell complete */
    return 1;
}

PyObject *dt_py_tensor_share_ndarray(PyArrayObject *arr, dt_dtype dtype)
{
    if (live.tensor != NULL && memo_matches(&live, arr, dtype))
        return Py_NewRef((PyObject *)live.tensor);
    if (shell.tensor != NULL) {
        if (memo_matches(&shell, arr, dtype)) {
            PyDtTensor *t = shell.tensor;
            shell.tensor = NULL;
            t->t.storage->owner = Py_NewRef((PyObject *)arr);
            PyObject_Init((PyObject *)t, dt_py_tensor_class()); /* refcount 1, a type reference */
            live = shell;
            live.tensor = t;
            return (PyObject *)t;
        }
        shell_free();
    }
    PyObject *t = dt_py_tensor_from_ndarray(arr);
    if (t != NULL && Py_TYPE(t) == dt_py_tensor_class()) {
        live.tensor = (PyDtTensor *)t;
        live.array = arr;
        live.data = PyArray_BYTES(arr);
        live.dtype = dtype;
        live.array_writeable = PyArray_ISWRITEABLE(arr) != 0;
        live.tensor_flags = live.tensor->t.flags;
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
