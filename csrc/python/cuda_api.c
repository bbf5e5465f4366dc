/* cuda_api.c - the functions behind devtensor.cuda: devices, memory
 * statistics, streams and events, over whatever fills the CUDA slot (the
 * real backend or the simulated one).  Streams and events cross into
 * Python as integer handles owned by devtensor.cuda.Stream / Event.
 */
#include "pydt.h"

#include <stdint.h>

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

/* Parse a device index argument (None: current) and check it. */
static const dt_backend_iface *cuda_index(PyObject *obj, int *index)
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
    const dt_backend_iface *b = cuda_index(arg, &index);
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
    const dt_backend_iface *b = cuda_index(arg, &index);
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

/* (name, total_memory, multi_processor_count, major, minor, simulated) */
static PyObject *device_properties(PyObject *m, PyObject *arg)
{
    (void)m;
    int index;
    const dt_backend_iface *b = cuda_index(arg, &index);
    if (b == NULL)
        return NULL;
    NEED_SLOT(b, device_props);
    dt_device_props p;
    CALL(b->device_props(index, &p, ERR));
    return Py_BuildValue("(sKiiiO)", p.name, (unsigned long long)p.total_memory,
                         p.multi_processor_count, p.major, p.minor,
                         p.simulated ? Py_True : Py_False);
}

static PyObject *can_access_peer(PyObject *m, PyObject *args)
{
    (void)m;
    PyObject *a, *bobj;
    if (!PyArg_ParseTuple(args, "OO", &a, &bobj))
        return NULL;
    int i, j;
    const dt_backend_iface *b = cuda_index(a, &i);
    if (b == NULL || cuda_index(bobj, &j) == NULL)
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
    const dt_backend_iface *b = cuda_index(arg, &index);
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
    const dt_backend_iface *b = cuda_index(arg, &index);
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
    const dt_backend_iface *b = cuda_index(arg, &index);
    if (b == NULL)
        return NULL;
    NEED_SLOT(b, mem_get_info);
    size_t free_b = 0, total_b = 0;
    CALL(b->mem_get_info(index, &free_b, &total_b, ERR));
    return Py_BuildValue("(nn)", (Py_ssize_t)free_b, (Py_ssize_t)total_b);
}

/* ---- streams and events: handles are addresses as ints, 0 = default stream ---- */

static void *handle(PyObject *obj)
{
    return obj == Py_None ? NULL : PyLong_AsVoidPtr(obj);
}

static PyObject *stream_create(PyObject *m, PyObject *args)
{
    (void)m;
    PyObject *dev;
    int priority = 0;
    if (!PyArg_ParseTuple(args, "O|i", &dev, &priority))
        return NULL;
    int index;
    const dt_backend_iface *b = cuda_index(dev, &index);
    if (b == NULL)
        return NULL;
    NEED_SLOT(b, stream_create);
    void *s = NULL;
    CALL(b->stream_create(index, priority, &s, ERR));
    return Py_BuildValue("(iN)", index, PyLong_FromVoidPtr(s));
}

static PyObject *stream_destroy(PyObject *m, PyObject *args)
{
    (void)m;
    int index;
    PyObject *h;
    if (!PyArg_ParseTuple(args, "iO", &index, &h))
        return NULL;
    const dt_backend_iface *b = dt_backend_get(DT_DEVICE_CUDA);
    void *s = handle(h);
    if (b != NULL && b->stream_destroy != NULL && s != NULL)
        b->stream_destroy(index, s);
    Py_RETURN_NONE;
}

static PyObject *stream_op(PyObject *args, int which)
{
    int index;
    PyObject *h, *e = Py_None;
    if (!PyArg_ParseTuple(args, "iO|O", &index, &h, &e))
        return NULL;
    const dt_backend_iface *b = cuda_backend();
    if (b == NULL)
        return NULL;
    void *s = handle(h);
    if (PyErr_Occurred())
        return NULL;
    dt_error err;
    dt_status st = DT_OK;
    int done = 0;
    switch (which) {
    case 0:
        NEED_SLOT(b, stream_synchronize);
        Py_BEGIN_ALLOW_THREADS
        st = b->stream_synchronize(index, s, &err);
        Py_END_ALLOW_THREADS
        break;
    case 1:
        NEED_SLOT(b, stream_query);
        st = b->stream_query(index, s, &done, &err);
        break;
    case 2:
        NEED_SLOT(b, stream_wait_event);
        st = b->stream_wait_event(index, s, handle(e), &err);
        break;
    default:
        NEED_SLOT(b, set_stream);
        st = b->set_stream(index, s, &err);
        break;
    }
    if (st != DT_OK)
        return dt_py_raise(&err);
    if (which == 1)
        return PyBool_FromLong(done);
    Py_RETURN_NONE;
}

static PyObject *stream_synchronize(PyObject *m, PyObject *a) { (void)m; return stream_op(a, 0); }
static PyObject *stream_query(PyObject *m, PyObject *a) { (void)m; return stream_op(a, 1); }
static PyObject *stream_wait_event(PyObject *m, PyObject *a) { (void)m; return stream_op(a, 2); }
static PyObject *set_stream(PyObject *m, PyObject *a) { (void)m; return stream_op(a, 3); }

static PyObject *current_stream(PyObject *m, PyObject *arg)
{
    (void)m;
    int index;
    const dt_backend_iface *b = cuda_index(arg, &index);
    if (b == NULL)
        return NULL;
    void *s = b->get_stream ? b->get_stream(index) : NULL;
    return Py_BuildValue("(iN)", index, PyLong_FromVoidPtr(s));
}

static PyObject *event_create(PyObject *m, PyObject *args)
{
    (void)m;
    PyObject *dev;
    int timing = 0;
    if (!PyArg_ParseTuple(args, "O|p", &dev, &timing))
        return NULL;
    int index;
    const dt_backend_iface *b = cuda_index(dev, &index);
    if (b == NULL)
        return NULL;
    NEED_SLOT(b, event_create);
    void *e = NULL;
    CALL(b->event_create(index, timing, &e, ERR));
    return Py_BuildValue("(iN)", index, PyLong_FromVoidPtr(e));
}

static PyObject *event_destroy(PyObject *m, PyObject *args)
{
    (void)m;
    int index;
    PyObject *h;
    if (!PyArg_ParseTuple(args, "iO", &index, &h))
        return NULL;
    const dt_backend_iface *b = dt_backend_get(DT_DEVICE_CUDA);
    void *e = handle(h);
    if (b != NULL && b->event_destroy != NULL && e != NULL)
        b->event_destroy(index, e);
    Py_RETURN_NONE;
}

static PyObject *event_record(PyObject *m, PyObject *args)
{
    (void)m;
    int index;
    PyObject *e, *s;
    if (!PyArg_ParseTuple(args, "iOO", &index, &e, &s))
        return NULL;
    const dt_backend_iface *b = cuda_backend();
    if (b == NULL)
        return NULL;
    NEED_SLOT(b, event_record);
    CALL(b->event_record(index, handle(e), handle(s), ERR));
    Py_RETURN_NONE;
}

static PyObject *event_synchronize(PyObject *m, PyObject *e)
{
    (void)m;
    const dt_backend_iface *b = cuda_backend();
    if (b == NULL)
        return NULL;
    NEED_SLOT(b, event_synchronize);
    dt_error err;
    dt_status st;
    void *ev = handle(e);
    Py_BEGIN_ALLOW_THREADS
    st = b->event_synchronize(ev, &err);
    Py_END_ALLOW_THREADS
    if (st != DT_OK)
        return dt_py_raise(&err);
    Py_RETURN_NONE;
}

static PyObject *event_query(PyObject *m, PyObject *e)
{
    (void)m;
    const dt_backend_iface *b = cuda_backend();
    if (b == NULL)
        return NULL;
    NEED_SLOT(b, event_query);
    int done = 0;
    CALL(b->event_query(handle(e), &done, ERR));
    return PyBool_FromLong(done);
}

static PyObject *event_elapsed(PyObject *m, PyObject *args)
{
    (void)m;
    PyObject *a, *c;
    if (!PyArg_ParseTuple(args, "OO", &a, &c))
        return NULL;
    const dt_backend_iface *b = cuda_backend();
    if (b == NULL)
        return NULL;
    NEED_SLOT(b, event_elapsed_ms);
    float ms = 0;
    CALL(b->event_elapsed_ms(handle(a), handle(c), &ms, ERR));
    return PyFloat_FromDouble(ms);
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
    {"_cuda_stream_create", stream_create, METH_VARARGS, NULL},
    {"_cuda_stream_destroy", stream_destroy, METH_VARARGS, NULL},
    {"_cuda_stream_synchronize", stream_synchronize, METH_VARARGS, NULL},
    {"_cuda_stream_query", stream_query, METH_VARARGS, NULL},
    {"_cuda_stream_wait_event", stream_wait_event, METH_VARARGS, NULL},
    {"_cuda_set_stream", set_stream, METH_VARARGS, NULL},
    {"_cuda_current_stream", current_stream, METH_O, NULL},
    {"_cuda_event_create", event_create, METH_VARARGS, NULL},
    {"_cuda_event_destroy", event_destroy, METH_VARARGS, NULL},
    {"_cuda_event_record", event_record, METH_VARARGS, NULL},
    {"_cuda_event_synchronize", event_synchronize, METH_O, NULL},
    {"_cuda_event_query", event_query, METH_O, NULL},
    {"_cuda_event_elapsed", event_elapsed, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};
