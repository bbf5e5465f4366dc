/* cuda_array_interface.c - tensors over another library's CUDA memory, from
 * the CUDA Array Interface (version 3) that CuPy, Numba and PyTorch export.
 * The Python layer (_creation.py, _from_cuda_array_interface) reads the
 * dictionary; this file checks the memory and wraps it without a copy.
 *
 * Note [Foreign device memory]
 * The interface gives a bare address.  Before wrapping it:
 *   - the bytes the tensor can reach, [first + lo, first + hi), are
 *     computed with overflow checks (dt_strided_extent), and the address
 *     and strides must be multiples of the itemsize: devtensor's kernels
 *     and the CUDA libraries load whole elements;
 *   - the backend asks CUDA which device holds both the lowest and the
 *     highest byte (cudaPointerGetAttributes, backend slot
 *     pointer_device): host memory, pinned or not, and addresses CUDA does
 *     not know are refused, and the tensor's device is the memory's own,
 *     whatever the current device.  A producer that lies about the size of
 *     a device allocation cannot be caught on a GPU; on the emulated
 *     devices an address past the end of a cudaMalloc is refused, which
 *     with the caching allocator (a block inside a bigger reservation)
 *     catches only what leaves the reservation: DEVTENSOR_CUDA_NO_CACHE=1
 *     makes every tensor its own allocation;
 *   - a "stream" other than None is a producer stream with work pending on
 *     the memory: devtensor's current stream of that device is made to
 *     wait for it (an event, no host synchronisation), as the interface
 *     asks of consumers.  The handle is the producer's word (CUDA cannot
 *     validate a cudaStream_t), and it must be a stream of the memory's
 *     device: the event is recorded there (CuPy exports the current
 *     device's stream; for an array of another device the import then
 *     fails with CUDA's invalid-handle error, cleanly).
 * The storage keeps a reference to the exporting object, so the memory
 * lives as long as any view of the tensor, and its release waits for the
 * device (Note [Releasing another library's device memory] in cuda_api.c).
 * Empty arrays may have address 0: they become empty tensors on the
 * current CUDA device.
 */
#include "pydt.h"

static PyObject *buffer_error(const dt_error *err)
{
    return PyErr_Format(PyExc_BufferError, "__cuda_array_interface__: %s", err->msg);
}

/* _from_cuda_pointer(owner, address, shape, strides, dtype, readonly, stream) */
static PyObject *from_cuda_pointer(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *owner, *address_obj, *strides_obj, *stream_obj;
    dt_py_shape shape, strides;
    int dtype_code = -1, readonly;
    if (!PyArg_ParseTuple(args, "OOO&OO&pO:_from_cuda_pointer", &owner, &address_obj,
                          dt_py_shape_converter, &shape, &strides_obj, dt_py_dtype_converter,
                          &dtype_code, &readonly, &stream_obj))
        return NULL;
    if (dtype_code < 0)
        return PyErr_Format(PyExc_TypeError, "_from_cuda_pointer needs a dtype");
    dt_dtype dtype = (dt_dtype)dtype_code;
    unsigned long long address = PyLong_AsUnsignedLongLong(address_obj);
    if (address == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    unsigned long long stream = 0;
    if (stream_obj != Py_None) {
        stream = PyLong_AsUnsignedLongLong(stream_obj);
        if (stream == (unsigned long long)-1 && PyErr_Occurred())
            return NULL;
    }
    int64_t itemsize = dt_dtype_get_info(dtype)->itemsize, lo, hi, nbytes;
    int64_t byte_strides[DT_MAX_NDIM];
    dt_error err;
    if (dt_contiguous_strides(shape.ndim, shape.dims, itemsize, byte_strides, &nbytes, &err) != DT_OK)
        return buffer_error(&err);
    if (strides_obj != Py_None) {
        if (dt_py_strides_converter(strides_obj, &strides) == 0)
            return NULL;
        if (strides.ndim != shape.ndim)
            return PyErr_Format(PyExc_BufferError, "__cuda_array_interface__: %d strides for "
                                "%d dimensions", strides.ndim, shape.ndim);
        memcpy(byte_strides, strides.dims, sizeof(int64_t) * (size_t)shape.ndim);
    }
    if (dt_strided_extent(shape.ndim, shape.dims, byte_strides, itemsize, &lo, &hi, &err) != DT_OK)
        return buffer_error(&err);
    const dt_backend_iface *b = dt_backend_get(DT_DEVICE_CUDA);
    if (b == NULL || b->device_count() == 0)
        return PyErr_Format(PyExc_BufferError, "__cuda_array_interface__: CUDA is not available: %s",
                            dt_backend_unavailable_reason(DT_DEVICE_CUDA));
    dt_device dev = {.type = DT_DEVICE_CUDA, .index = 0};
    int index;
    if (hi == lo) { /* empty: any address, even 0 */
        if (b->get_device(&index, &err) != DT_OK)
            return dt_py_raise(&err);
        dev.index = (int16_t)index;
        dt_tensor t;
        if (dt_tensor_init_new(&t, dev, dtype, shape.ndim, shape.dims, &err) != DT_OK)
            return dt_py_raise(&err);
        return dt_py_tensor_wrap(&t);
    }
    if (address % (unsigned long long)itemsize != 0)
        return PyErr_Format(PyExc_BufferError, "__cuda_array_interface__: address %p is not "
                            "a multiple of the itemsize %lld", (void *)(uintptr_t)address,
                            (long long)itemsize);
    for (int i = 0; i < shape.ndim; i++)
        if (shape.dims[i] > 1 && byte_strides[i] % itemsize != 0)
            return PyErr_Format(PyExc_BufferError, "__cuda_array_interface__: stride %lld of axis "
                                "%d is not a multiple of the itemsize %lld",
                                (long long)byte_strides[i], i, (long long)itemsize);
    /* the lowest and highest byte reached must not wrap around the address space */
    if ((lo < 0 && address < (unsigned long long)-lo) ||
        (uint64_t)hi - 1 > UINT64_MAX - address)
        return PyErr_Format(PyExc_BufferError, "__cuda_array_interface__: address %p with "
                            "these strides wraps around the address space", (void *)(uintptr_t)address);
    char *first = (char *)(uintptr_t)address;
    if (b->pointer_device(first + lo, first + hi - 1, &index, &err) != DT_OK)
        return buffer_error(&err);
    dev.index = (int16_t)index;
    if (stream_obj != Py_None &&
        b->wait_native_stream(index, b->get_stream(index), (uintptr_t)stream, &err) != DT_OK)
        return dt_py_raise(&err);
    dt_foreign_release release = dt_py_release_object;
    void *ctx = owner;
    if (dt_py_cuda_release_after_device(index, &release, &ctx) < 0)
        return NULL;
    Py_INCREF(owner);
    dt_storage *s;
    if (dt_storage_wrap(first + lo, (size_t)(hi - lo), dev, release, ctx, &s, &err) != DT_OK) {
        release(ctx);
        return dt_py_raise(&err);
    }
    s->readonly = readonly; /* Note [Read-only tensors] */
    dt_tensor t;
    /* the view holds s, or the owner is released with it */
    dt_status st = dt_tensor_init_view_taking(&t, s, -lo, shape.ndim, shape.dims, byte_strides, dtype, &err);
    if (st != DT_OK) {
        dt_tensor_clear(&t);
        return dt_py_raise(&err);
    }
    return dt_py_tensor_wrap(&t);
}

PyMethodDef dt_py_cuda_array_interface_methods[] = {
    {"_from_cuda_pointer", from_cuda_pointer, METH_VARARGS,
     "_from_cuda_pointer(owner, address, shape, strides, dtype, readonly, stream): a CUDA tensor "
     "over another library's memory, kept alive by owner (Note [Foreign device memory])"},
    {NULL, NULL, 0, NULL},
};
