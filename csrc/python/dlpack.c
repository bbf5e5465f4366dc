/* dlpack.c - zero-copy exchange with other array libraries through DLPack
 * (https://dmlc.github.io/dlpack): export a tensor as a "dltensor" capsule
 * and import one from NumPy, PyTorch, CuPy, JAX, ...
 *
 * Both forms are spoken: the legacy DLManagedTensor ("dltensor"), which
 * every consumer accepts, and DLPack 1.x's DLManagedTensorVersioned
 * ("dltensor_versioned"), which carries a read-only flag, exported when the
 * consumer asks with max_version >= (1, 0).  A read-only tensor is exported
 * only in the versioned form (the legacy one cannot say "read-only"), and a
 * read-only capsule imports as a read-only tensor (Note [Read-only tensors]).
 * The struct layouts below are DLPack's ABI.
 *
 * Note [DLPack lifetimes]
 * Export: the capsule owns a manager holding a reference to the tensor's
 * storage; the consumer calls the deleter when done (or the capsule's
 * destructor does, if nobody consumed it).  Import: the storage keeps the
 * producer's DLManagedTensor and calls its deleter when the last view dies
 * (for CUDA memory once the device is done with it: Note [Releasing
 * another library's device memory] in cuda_api.c).
 */
#include "pydt.h"

#include <stdlib.h>
#include <string.h>

/* ---- DLPack's ABI ---- */
typedef struct { int32_t device_type, device_id; } DLDevice;
typedef struct { uint8_t code, bits; uint16_t lanes; } DLDataType;
typedef struct {
    void *data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides; /* in elements; NULL means C-contiguous */
    uint64_t byte_offset;
} DLTensor;
typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

typedef struct { uint32_t major, minor; } DLPackVersion;
typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;
#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 0
#define DLPACK_FLAG_BITMASK_READ_ONLY (1ull << 0)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1ull << 1)

enum { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3 };
enum { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLComplex = 5, kDLBool = 6 };

static DLDataType to_dl_dtype(dt_dtype d)
{
    static const uint8_t codes[DT_NUM_DTYPES] = {
        [DT_BOOL] = kDLBool, [DT_INT8] = kDLInt, [DT_INT16] = kDLInt, [DT_INT32] = kDLInt,
        [DT_INT64] = kDLInt, [DT_UINT8] = kDLUInt, [DT_UINT16] = kDLUInt, [DT_UINT32] = kDLUInt,
        [DT_UINT64] = kDLUInt, [DT_FLOAT16] = kDLFloat, [DT_BFLOAT16] = kDLBfloat,
        [DT_FLOAT32] = kDLFloat, [DT_FLOAT64] = kDLFloat, [DT_COMPLEX64] = kDLComplex,
        [DT_COMPLEX128] = kDLComplex,
    };
    DLDataType t = {codes[d], (uint8_t)(8 * dt_dtype_get_info(d)->itemsize), 1};
    return t;
}

static int from_dl_dtype(DLDataType t, dt_dtype *out)
{
    for (int d = 0; d < DT_NUM_DTYPES; d++) {
        DLDataType c = to_dl_dtype((dt_dtype)d);
        if (t.lanes == 1 && c.code == t.code && c.bits == t.bits) {
            *out = (dt_dtype)d;
            return 0;
        }
    }
    PyErr_Format(PyExc_BufferError, "devtensor has no dtype for DLPack type code %d, %d bits, "
                 "%d lanes", t.code, t.bits, t.lanes);
    return -1;
}

/* ---- export ---- */

typedef struct {
    DLManagedTensor managed;             /* the legacy form, or */
    DLManagedTensorVersioned versioned;  /* the versioned one */
    dt_storage *storage;                 /* retained */
    int64_t dims[2 * DT_MAX_NDIM];
} export_ctx;

static void export_free(export_ctx *ctx)
{
    dt_storage_release(ctx->storage);
    free(ctx);
}
static void export_deleter(DLManagedTensor *m) { export_free(m->manager_ctx); }
static void export_deleter_versioned(DLManagedTensorVersioned *m) { export_free(m->manager_ctx); }

static void export_capsule_destructor(PyObject *capsule)
{
    if (PyCapsule_IsValid(capsule, "dltensor")) {
        DLManagedTensor *m = PyCapsule_GetPointer(capsule, "dltensor");
        if (m != NULL && m->deleter != NULL)
            m->deleter(m);
    } else if (PyCapsule_IsValid(capsule, "dltensor_versioned")) {
        DLManagedTensorVersioned *m = PyCapsule_GetPointer(capsule, "dltensor_versioned");
        if (m != NULL && m->deleter != NULL)
            m->deleter(m);
    } /* else consumed: the consumer owns it now */
}

/* _to_dlpack(tensor, versioned=False, copied=False): a capsule sharing the
 * tensor's memory, "dltensor_versioned" (DLPack 1.0) or legacy "dltensor". */
static PyObject *to_dlpack(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *obj;
    int versioned = 0, copied = 0;
    if (!PyArg_ParseTuple(args, "O!|pp:_to_dlpack", &dt_py_tensor_base_type, &obj, &versioned,
                          &copied))
        return NULL;
    const dt_tensor *t = &((PyDtTensor *)obj)->t;
    int readonly = (t->flags & DT_TENSOR_READONLY) != 0;
    if (readonly && !versioned)
        return PyErr_Format(PyExc_BufferError, "cannot export a read-only tensor through the "
                            "legacy DLPack protocol, which has no read-only flag; ask for "
                            "max_version=(1, 0) or copy it first");
    int64_t itemsize = dt_tensor_itemsize(t);
    for (int i = 0; i < t->ndim; i++)
        if (t->strides[i] % itemsize != 0)
            return PyErr_Format(PyExc_BufferError, "DLPack needs strides that are whole "
                                "elements; this view's are not (copy it first)");
    export_ctx *ctx = calloc(1, sizeof *ctx);
    if (ctx == NULL)
        return PyErr_NoMemory();
    DLTensor *dl = versioned ? &ctx->versioned.dl_tensor : &ctx->managed.dl_tensor;
    dt_device dev = dt_tensor_device(t);
    dl->data = t->storage->ptr;
    dl->byte_offset = (uint64_t)t->offset;
    dl->device.device_type = dev.type == DT_DEVICE_CUDA ? kDLCUDA
                             : t->storage->pinned ? kDLCUDAHost : kDLCPU;
    dl->device.device_id = dev.index < 0 ? 0 : dev.index;
    dl->ndim = t->ndim;
    dl->dtype = to_dl_dtype(t->dtype);
    dl->shape = ctx->dims;
    dl->strides = ctx->dims + DT_MAX_NDIM;
    for (int i = 0; i < t->ndim; i++) {
        dl->shape[i] = t->shape[i];
        dl->strides[i] = t->strides[i] / itemsize;
    }
    dt_storage_retain(t->storage);
    ctx->storage = t->storage;
    void *managed;
    if (versioned) {
        ctx->versioned.version.major = DLPACK_MAJOR_VERSION;
        ctx->versioned.version.minor = DLPACK_MINOR_VERSION;
        ctx->versioned.manager_ctx = ctx;
        ctx->versioned.deleter = export_deleter_versioned;
        ctx->versioned.flags = (readonly ? DLPACK_FLAG_BITMASK_READ_ONLY : 0) |
                               (copied ? DLPACK_FLAG_BITMASK_IS_COPIED : 0);
        managed = &ctx->versioned;
    } else {
        ctx->managed.manager_ctx = ctx;
        ctx->managed.deleter = export_deleter;
        managed = &ctx->managed;
    }
    PyObject *capsule = PyCapsule_New(managed, versioned ? "dltensor_versioned" : "dltensor",
                                      export_capsule_destructor);
    if (capsule == NULL)
        export_free(ctx);
    return capsule;
}

/* ---- import ---- */

/* producers' deleters may touch Python: call them with the GIL */
static void release_managed(void *owner)
{
    DLManagedTensor *m = owner;
    if (m->deleter == NULL)
        return;
    PyGILState_STATE g = PyGILState_Ensure();
    m->deleter(m);
    PyGILState_Release(g);
}

static void release_managed_versioned(void *owner)
{
    DLManagedTensorVersioned *m = owner;
    if (m->deleter == NULL)
        return;
    PyGILState_STATE g = PyGILState_Ensure();
    m->deleter(m);
    PyGILState_Release(g);
}

/* _from_dlpack(capsule): a tensor sharing the producer's memory. */
static PyObject *from_dlpack(PyObject *module, PyObject *capsule)
{
    (void)module;
    void *m;
    DLTensor *dl;
    dt_foreign_release release;
    int versioned = PyCapsule_IsValid(capsule, "dltensor_versioned"), readonly = 0;
    if (versioned) {
        DLManagedTensorVersioned *mv = PyCapsule_GetPointer(capsule, "dltensor_versioned");
        if (mv->version.major != DLPACK_MAJOR_VERSION)
            return PyErr_Format(PyExc_BufferError, "DLPack version %u.%u is not supported "
                                "(devtensor speaks %d.x)", mv->version.major, mv->version.minor,
                                DLPACK_MAJOR_VERSION);
        m = mv;
        dl = &mv->dl_tensor;
        release = release_managed_versioned;
        readonly = (mv->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
    } else if (PyCapsule_IsValid(capsule, "dltensor")) {
        DLManagedTensor *ml = PyCapsule_GetPointer(capsule, "dltensor");
        m = ml;
        dl = &ml->dl_tensor;
        release = release_managed;
    } else {
        return PyErr_Format(PyExc_BufferError, "expected an unconsumed DLPack capsule "
                            "(\"dltensor\" or \"dltensor_versioned\")");
    }
    dt_dtype dtype;
    if (from_dl_dtype(dl->dtype, &dtype) < 0)
        return NULL;
    dt_device dev;
    switch (dl->device.device_type) {
    case kDLCPU: case kDLCUDAHost:
        dev = dt_device_cpu();
        break;
    case kDLCUDA: {
        const dt_backend_iface *b = dt_backend_get(DT_DEVICE_CUDA);
        if (b == NULL || b->device_count() == 0)
            return PyErr_Format(PyExc_BufferError, "a CUDA DLPack tensor, but CUDA is not "
                                "available: %s", dt_backend_unavailable_reason(DT_DEVICE_CUDA));
        if (dt_py_cuda_is_emulated())
            return PyErr_Format(PyExc_BufferError, "emulated CUDA devices (DEVTENSOR_EMULATE_CUDA) "
                                "keep host memory: they cannot hold memory of a real GPU");
        dev.type = DT_DEVICE_CUDA;
        dev.index = (int16_t)dl->device.device_id;
        break;
    }
    default:
        return PyErr_Format(PyExc_BufferError, "devtensor cannot use DLPack device type %d",
                            dl->device.device_type);
    }
    if (dl->ndim < 0 || dl->ndim > DT_MAX_NDIM)
        return PyErr_Format(PyExc_BufferError, "DLPack tensor has %d dimensions", dl->ndim);
    int64_t itemsize = dt_dtype_get_info(dtype)->itemsize, shape[DT_MAX_NDIM],
            strides[DT_MAX_NDIM], nbytes, lo, hi;
    dt_error err;
    if (dt_contiguous_strides(dl->ndim, dl->shape, itemsize, strides, &nbytes, &err) != DT_OK)
        return dt_py_raise(&err);
    for (int i = 0; i < dl->ndim; i++) {
        shape[i] = dl->shape[i];
        if (dl->strides != NULL &&
            __builtin_mul_overflow(dl->strides[i], itemsize, &strides[i]))
            return PyErr_Format(PyExc_BufferError, "DLPack strides overflow");
    }
    if (dt_strided_extent(dl->ndim, shape, strides, itemsize, &lo, &hi, &err) != DT_OK)
        return PyErr_Format(PyExc_BufferError, "DLPack strides overflow");
    /* from here on devtensor owns m: failures call its deleter */
    if (PyCapsule_SetName(capsule, versioned ? "used_dltensor_versioned" : "used_dltensor") < 0)
        return NULL;
    char *first = (char *)dl->data + dl->byte_offset;
    void *owner = m;
    /* CUDA memory: the deleter runs once the device is done with it */
    if (dev.type == DT_DEVICE_CUDA && dt_py_cuda_release_after_device(dev.index, &release, &owner) < 0) {
        release(m);
        return NULL;
    }
    dt_storage *s;
    if (dt_storage_wrap(first + lo, (size_t)(hi - lo), dev, release, owner, &s, &err) != DT_OK) {
        release(owner);
        return dt_py_raise(&err);
    }
    s->readonly = readonly;
    dt_tensor t;
    /* the view holds s, or it is gone with m */
    dt_status st = dt_tensor_init_view_taking(&t, s, -lo, dl->ndim, shape, strides, dtype, &err);
    if (st != DT_OK) {
        dt_tensor_clear(&t);
        return dt_py_raise(&err);
    }
    return dt_py_tensor_wrap(&t);
}

PyMethodDef dt_py_dlpack_methods[] = {
    {"_to_dlpack", to_dlpack, METH_VARARGS,
     "_to_dlpack(tensor, versioned=False, copied=False): a DLPack capsule"},
    {"_from_dlpack", from_dlpack, METH_O, "_from_dlpack(capsule): a tensor"},
    {NULL, NULL, 0, NULL},
};
