/* cuda_api.c - the functions behind devtensor.cuda: devices, memory
 * statistics, streams and events, over whatever fills the CUDA slot
 * (devtensor._cuda, or devtensor._cuda_emu on emulated devices).  Streams
 * and events are in stream_type.c (Note [Stream and event ownership]).
 */
#include "pydt.h"

/* The CUDA backend with at least one device, or NULL with RuntimeError. */
static const dt_backend_iface *cuda_backend(void)
{
    const dt_backend_iface *b = dt_backend_get(DT_DEVICE_CUDA);
    if (b == NULL || b->device_count() == 0) {
        PyErr_Format(PyExc_RuntimeError, "CUDA is not available: %s",
                     dt_backend_unavailable_reason(DT_DEVICE_CUDA));
        return NULL;
    }
    return b;
}

/* Note [Releasing another library's device memory]
 * A tensor over another library's CUDA memory (CUDA Array Interface,
 * DLPack) hands it back when its last view dies, and the library may give
 * it out again at once, on a stream devtensor's queued work is not ordered
 * with (a CuPy or PyTorch side stream, or devtensor's own non-blocking
 * streams on the other side).  devtensor cannot record its use of the
 * memory in the other library's allocator, so the release waits for the
 * device to finish what is queued on it, then lets the owner go.  A
 * device sync per foreign storage released, never per operation.  The
 * wait releases the GIL (but at interpreter exit). */
static void release_wait(int device)
{
    const dt_backend_iface *b = dt_backend_get(DT_DEVICE_CUDA);
    if (b == NULL || b->synchronize == NULL || device < 0 || device >= b->device_count())
        return;
    dt_error err;
    dt_status st;
    if (dt_py_finalizing()) {
        st = b->synchronize(device, &err);
    } else {
        Py_BEGIN_ALLOW_THREADS
        st = b->synchronize(device, &err);
        Py_END_ALLOW_THREADS
    }
    (void)st; /* a broken device: nothing more can be waited for, the owner goes anyway */
}

typedef struct {
    dt_foreign_release release; /* the import's own release, and its owner */
    void *owner;
    int device;
} after_device;

static void release_after_device(void *p)
{
    after_device *a = p;
    PyGILState_STATE g = PyGILState_Ensure();
    release_wait(a->device);
    PyGILState_Release(g);
    a->release(a->owner);
    PyMem_RawFree(a);
}

int dt_py_cuda_release_after_device(int device, dt_foreign_release *release, void **owner)
{
    after_device *a = PyMem_RawMalloc(sizeof *a);
    if (a == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *a = (after_device){*release, *owner, device};
    *release = release_after_device;
    *owner = a;
    return 0;
}

/* Parse a device index argument (None: current) and check it (pydt.h). */
const dt_backend_iface *dt_py_cuda_index(PyObject *obj, int *index)
{
    dt_device d = {DT_DEVICE_CUDA, DT_INDEX_CURRENT};
    if (obj != Py_None) {
        if (!dt_py_device_converter(obj, &d))
            return NULL;
        if (d.type != DT_DEVICE_CUDA) {
            PyErr_Format(PyExc_ValueError, "expected a CUDA device, got %R", obj);
            return NULL;
        }
    }
    const dt_backend_iface *b = dt_py_device_resolve(&d);
    *index = d.index;
    return b;
}

#define NEED_SLOT(b, slot)                                                                 \
    do {                                                                                   \
        if ((b)->slot == NULL)                                                             \
            return PyErr_Format(PyExc_NotImplementedError, "the %s backend has no %s",     \
                                (b)->name, #slot);                                         \
    } while (0)

#define CALL(expr)                                   \
    do {                                             \
        dt_error err_;                               \
        if ((expr) != DT_OK)                         \
            return dt_py_raise(&err_);               \
    } while (0)
#define ERR (&err_)

static PyObject *device_count(PyObject *m, PyObject *u)
{
    (void)m; (void)u;
    return PyLong_FromLong(dt_backend_device_count(DT_DEVICE_CUDA));
}

static PyObject *why_unavailable(PyObject *m, PyObject *u)
{
    (void)m; (void)u;
    if (dt_backend_device_count(DT_DEVICE_CUDA) > 0)
        Py_RETURN_NONE;
    return PyUnicode_FromString(dt_backend_unavailable_reason(DT_DEVICE_CUDA));
}

static PyObject *backend_name(PyObject *m, PyObject *u)
{
    (void)m; (void)u;
    const dt_backend_iface *b = dt_backend_get(DT_DEVICE_CUDA);
    if (b == NULL)
        Py_RETURN_NONE;
    return PyUnicode_FromString(b->name);
}

static PyObject *current_device(PyObject *m, PyObject *u)
{
    (void)m; (void)u;
    const dt_backend_iface *b = cuda_backend();
    if (b == NULL)
        return NULL;
    int index = 0;
    CALL(b->get_device(&index, ERR));
    return PyLong_FromLong(index);
}

static PyObject *set_device(PyObject *m, PyObject *arg)
{
    (void)m;
    int index;
    const dt_backend_iface *b = dt_py_cuda_index(arg, &index);
    if (b == NULL)
        return NULL;
    NEED_SLOT(b, set_device);
    CALL(b->set_device(index, ERR));
    Py_RETURN_NONE;
}

static PyObject *synchronize(PyObject *m, PyObject *arg)
{
    (void)m;
    int index;
    const dt_backend_iface *b = dt_py_cuda_index(arg, &index);
    if (b == NULL)
        return NULL;
    dt_error err;
    dt_status st;
    Py_BEGIN_ALLOW_THREADS
    st = b->synchronize(index, &err);
    Py_END_ALLOW_THREADS
    if (st != DT_OK)
        return dt_py_raise(&err);
    Py_RETURN_NONE;
}

/* (name, total_memory, multi_processor_count, major, minor) */
static PyObject *device_properties(PyObject *m, PyObject *arg)
{
    (void)m;
    int index;
    const dt_backend_iface *b = dt_py_cuda_index(arg, &index);
    if (b == NULL)
        return NULL;
    NEED_SLOT(b, device_props);
    dt_device_props p;
    CALL(b->device_props(index, &p, ERR));
    return Py_BuildValue("(sKiii)", p.name, (unsigned long long)p.total_memory,
                         p.multi_processor_count, p.major, p.minor);
}

static PyObject *can_access_peer(PyObject *m, PyObject *args)
{
    (void)m;
    PyObject *a, *bobj;
    if (!PyArg_ParseTuple(args, "OO", &a, &bobj))
        return NULL;
    int i, j;
    const dt_backend_iface *b = dt_py_cuda_index(a, &i);
    if (b == NULL || dt_py_cuda_index(bobj, &j) == NULL)
        return NULL;
    NEED_SLOT(b, can_access_peer);
    int out = 0;
    CALL(b->can_access_peer(i, j, &out, ERR));
    return PyBool_FromLong(out);
}

static PyObject *memory_stats(PyObject *m, PyObject *arg)
{
    (void)m;
    int index;
    const dt_backend_iface *b = dt_py_cuda_index(arg, &index);
    if (b == NULL)
        return NULL;
    NEED_SLOT(b, memory_stats);
    dt_memory_stats s;
    CALL(b->memory_stats(index, &s, ERR));
    return Py_BuildValue("{sKsKsKsKsKsK}", "allocated_bytes", (unsigned long long)s.allocated,
                         "max_allocated_bytes", (unsigned long long)s.max_allocated,
                         "reserved_bytes", (unsigned long long)s.reserved,
                         "max_reserved_bytes", (unsigned long long)s.max_reserved,
                         "num_alloc", (unsigned long long)s.alloc_count,
                         "num_device_alloc", (unsigned long long)s.device_alloc_count);
}

static PyObject *reset_peak(PyObject *m, PyObject *arg)
{
    (void)m;
    int index;
    const dt_backend_iface *b = dt_py_cuda_index(arg, &index);
    if (b == NULL)
        return NULL;
    NEED_SLOT(b, reset_peak_stats);
    CALL(b->reset_peak_stats(index, ERR));
    Py_RETURN_NONE;
}

static PyObject *empty_cache(PyObject *m, PyObject *u)
{
    (void)m; (void)u;
    const dt_backend_iface *b = dt_backend_get(DT_DEVICE_CUDA);
    int n = b == NULL ? 0 : b->device_count();
    for (int i = 0; i < n && b->empty_cache != NULL; i++)
        CALL(b->empty_cache(i, ERR));
    Py_RETURN_NONE;
}

static PyObject *mem_get_info(PyObject *m, PyObject *arg)
{
    (void)m;
    int index;
    const dt_backend_iface *b = dt_py_cuda_index(arg, &index);
    if (b == NULL)
        return NULL;
    NEED_SLOT(b, mem_get_info);
    size_t free_b = 0, total_b = 0;
    CALL(b->mem_get_info(index, &free_b, &total_b, ERR));
    return Py_BuildValue("(nn)", (Py_ssize_t)free_b, (Py_ssize_t)total_b);
}

PyMethodDef dt_py_cuda_methods[] = {
    {"_cuda_device_count", device_count, METH_NOARGS, NULL},
    {"_cuda_why_unavailable", why_unavailable, METH_NOARGS, NULL},
    {"_cuda_backend_name", backend_name, METH_NOARGS, NULL},
    {"_cuda_current_device", current_device, METH_NOARGS, NULL},
    {"_cuda_set_device", set_device, METH_O, NULL},
    {"_cuda_synchronize", synchronize, METH_O, NULL},
    {"_cuda_device_properties", device_properties, METH_O, NULL},
    {"_cuda_can_access_peer", can_access_peer, METH_VARARGS, NULL},
    {"_cuda_memory_stats", memory_stats, METH_O, NULL},
    {"_cuda_reset_peak_memory_stats", reset_peak, METH_O, NULL},
    {"_cuda_empty_cache", empty_cache, METH_NOARGS, NULL},
    {"_cuda_mem_get_info", mem_get_info, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};
