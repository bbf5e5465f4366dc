/* stream_type.c - devtensor.cuda.Stream and devtensor.cuda.Event: the Python
 * objects that own the CUDA backend's stream and event handles, and the
 * per-thread current stream of each device.
 *
 * Note [Stream and event ownership]
 * A backend stream or event handle is owned by exactly one Python object,
 * a devtensor.cuda.Stream or devtensor.cuda.Event (C types, not
 * subclassable), which creates it in tp_new and destroys it exactly once,
 * in tp_dealloc.  Everything else holds a reference to the object, never a
 * copy of the handle:
 *   - Handles never cross into Python.  No function of _C takes or returns
 *     an integer handle: the functions and methods that act on a stream or
 *     an event take the object and type-check it, so the handle that reaches
 *     the backend is always the live handle of a live owner (validated by
 *     construction; a forged value is a TypeError).
 *   - The current stream.  The backend keeps a per-thread raw pointer per
 *     device (get_stream/set_stream, read by the core for every launch:
 *     elementwise.c, storage.c, tensor.c).  Beside it, this file keeps a
 *     strong reference to the owning object, per thread and per device, in a
 *     list in the thread state's dict (cleared, and the references dropped,
 *     when the thread ends).  So a Stream that is current in any thread
 *     cannot be freed, and the raw pointer the core reads is never
 *     dangling.  current_stream() returns that same object.
 *   - The default stream of a device (handle NULL) is one object per device,
 *     created on first use and kept for the life of the process; it owns
 *     nothing, and is what current_stream() returns when no Stream is set.
 *   - `with s:` remembers the stream that was current (a strong reference,
 *     in the entering thread's stack for s, in the thread state's dict: one
 *     Stream, the default one above all, may be entered by several threads
 *     at once) and makes it current again on exit, in that thread.
 *   - copy.copy and copy.deepcopy return the object itself (a handle cannot
 *     be duplicated); pickling raises TypeError (a handle means nothing in
 *     another process).  Equality is identity: one handle, one object.
 *   - An Event holds no reference to the streams it was recorded on: CUDA
 *     defers an event's destruction until its recorded work completes, and a
 *     stream's destruction synchronises it (Note [Stream handles] in
 *     csrc/cuda/cuda_stream.c).
 * The object also keeps the backend that made the handle, so that it is
 * destroyed by that backend.  Destroying a stream may block (the real
 * backend synchronises it): the GIL is released around it, except while the
 * interpreter finalises.
 */
#include "pydt.h"

#include <structmember.h>

#define DT_PY_MAX_CUDA_DEVICES 64

typedef struct {
    PyObject_HEAD
    const dt_backend_iface *backend;
    void *handle;            /* backend stream; NULL: the device's default stream */
    int device;
    int priority;
    PyObject *weakreflist;
} PyDtStream;

typedef struct {
    PyObject_HEAD
    const dt_backend_iface *backend;
    void *handle;            /* backend event, never NULL once constructed */
    int device;
    int timing;
    int recorded;            /* recorded at least once (Note [Events bind at their first record]) */
    int device_given;        /* Event(device=...): bound for good */
    PyObject *weakreflist;
} PyDtEvent;

static PyTypeObject stream_type;
static PyTypeObject event_type;

#define Stream_Check(op) Py_IS_TYPE(op, &stream_type)
#define Event_Check(op) Py_IS_TYPE(op, &event_type)

static PyObject *default_streams[DT_PY_MAX_CUDA_DEVICES]; /* strong, never released */
static Py_ssize_t live_streams, live_events;                /* owned handles (under the GIL) */
static PyObject *slots_key;                                 /* interned thread-dict key */
static PyObject *entries_key;                               /* interned thread-dict key */

#define NEED_SLOT(b, slot, fail)                                                           \
    do {                                                                                   \
        if ((b)->slot == NULL) {                                                           \
            PyErr_Format(PyExc_NotImplementedError, "the %s backend has no %s",            \
                         (b)->name, #slot);                                                \
            fail;                                                                          \
        }                                                                                  \
    } while (0)

static int check_index_range(int index)
{
    if (index < 0 || index >= DT_PY_MAX_CUDA_DEVICES) {
        PyErr_Format(PyExc_RuntimeError, "cuda:%d: at most %d CUDA devices are supported", index,
                     DT_PY_MAX_CUDA_DEVICES);
        return -1;
    }
    return 0;
}

static int type_error(PyObject *obj, const char *what)
{
    PyErr_Format(PyExc_TypeError, "expected a %s, got %.100s", what, Py_TYPE(obj)->tp_name);
    return -1;
}

static PyObject *refuse_pickle(PyObject *self, PyObject *unused)
{
    (void)unused;
    return PyErr_Format(PyExc_TypeError,
                        "cannot pickle a %s: it is a handle to device state in this process",
                        Py_TYPE(self)->tp_name);
}

static PyObject *return_self(PyObject *self, PyObject *unused)
{
    (void)unused;
    return Py_NewRef(self);
}

/* ---- the default stream objects and the per-thread current stream ---- */

/* The default stream object of a device (new reference). */
static PyObject *default_stream(const dt_backend_iface *b, int index)
{
    if (check_index_range(index) < 0)
        return NULL;
    if (default_streams[index] == NULL) {
        PyDtStream *s = PyObject_GC_New(PyDtStream, &stream_type);
        if (s == NULL)
            return NULL;
        s->backend = b;
        s->handle = NULL;
        s->device = index;
        s->priority = 0;
        s->weakreflist = NULL;
        PyObject_GC_Track(s);
        default_streams[index] = (PyObject *)s;
    }
    return Py_NewRef(default_streams[index]);
}

/* This thread's list of current streams (borrowed), one item per device:
 * None (the default stream) or a Stream.  NULL with an exception. */
static PyObject *current_slots(void)
{
    PyObject *dict = PyThreadState_GetDict();
    if (dict == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "no thread state to hold the current stream");
        return NULL;
    }
    PyObject *list = PyDict_GetItemWithError(dict, slots_key);
    if (list != NULL || PyErr_Occurred())
        return list;
    list = PyList_New(DT_PY_MAX_CUDA_DEVICES);
    if (list == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < DT_PY_MAX_CUDA_DEVICES; i++)
        PyList_SET_ITEM(list, i, Py_NewRef(Py_None));
    int rc = PyDict_SetItem(dict, slots_key, list);
    Py_DECREF(list);
    return rc < 0 ? NULL : list; /* the dict holds it */
}

/* The current stream of a device in this thread (new reference). */
static PyObject *current_stream(const dt_backend_iface *b, int index)
{
    if (check_index_range(index) < 0)
        return NULL;
    PyObject *slots = current_slots();
    if (slots == NULL)
        return NULL;
    PyObject *s = PyList_GET_ITEM(slots, index);
    if (s == Py_None)
        return default_stream(b, index);
    return Py_NewRef(s);
}

/* Make s the current stream of its device in this thread: the backend's raw
 * pointer and our strong reference change together. */
static int make_current(PyDtStream *s)
{
    const dt_backend_iface *b = s->backend;
    PyObject *slots = current_slots();
    if (slots == NULL)
        return -1;
    NEED_SLOT(b, set_stream, return -1);
    dt_error err;
    if (b->set_stream(s->device, s->handle, &err) != DT_OK) {
        dt_py_raise(&err);
        return -1;
    }
    PyObject *item = s->handle == NULL ? Py_None : (PyObject *)s;
    /* drops the previous current stream, which may destroy it: it is no
     * longer the backend's current stream, so that is safe */
    PyList_SetItem(slots, s->device, Py_NewRef(item));
    return 0;
}

/* ---- Stream ---- */

static PyObject *stream_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"device", "priority", NULL};
    PyObject *dev = Py_None;
    int priority = 0, index;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|Oi:Stream", kwlist, &dev, &priority))
        return NULL;
    const dt_backend_iface *b = dt_py_cuda_index(dev, &index);
    if (b == NULL || check_index_range(index) < 0)
        return NULL;
    NEED_SLOT(b, stream_create, return NULL);
    PyDtStream *self = (PyDtStream *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->backend = b;
    self->device = index;
    self->priority = priority;
    dt_error err;
    void *h = NULL;
    if (b->stream_create(index, priority, &h, &err) != DT_OK) {
        Py_DECREF(self); /* handle NULL: owns nothing */
        return dt_py_raise(&err);
    }
    self->handle = h;
    live_streams++;
    return (PyObject *)self;
}

/* A Stream holds no Python references (its entries live in the threads'
 * dicts); it stays a GC type, as the objects it is stored beside are. */
static int stream_traverse(PyDtStream *self, visitproc visit, void *arg)
{
    (void)self;
    (void)visit;
    (void)arg;
    return 0;
}

static int stream_clear(PyDtStream *self)
{
    (void)self;
    return 0;
}

static void stream_dealloc(PyDtStream *self)
{
    PyObject_GC_UnTrack(self);
    if (self->weakreflist != NULL)
        PyObject_ClearWeakRefs((PyObject *)self);
    stream_clear(self);
    if (self->handle != NULL) {
        const dt_backend_iface *b = self->backend;
        /* Note [Stream and event ownership]: a current stream is referenced
         * by its thread's slot, so this happens only when a thread ends and
         * its slots are cleared (in that thread) */
        if (b->get_stream != NULL && b->set_stream != NULL &&
            b->get_stream(self->device) == self->handle) {
            dt_error err;
            (void)b->set_stream(self->device, NULL, &err);
        }
        if (b->stream_destroy != NULL) {
            if (dt_py_finalizing()) {
                b->stream_destroy(self->device, self->handle);
            } else {
                Py_BEGIN_ALLOW_THREADS
                b->stream_destroy(self->device, self->handle);
                Py_END_ALLOW_THREADS
            }
        }
        self->handle = NULL;
        live_streams--;
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *stream_synchronize(PyDtStream *self, PyObject *unused)
{
    (void)unused;
    const dt_backend_iface *b = self->backend;
    NEED_SLOT(b, stream_synchronize, return NULL);
    dt_error err;
    dt_status st;
    Py_BEGIN_ALLOW_THREADS
    st = b->stream_synchronize(self->device, self->handle, &err);
    Py_END_ALLOW_THREADS
    if (st != DT_OK)
        return dt_py_raise(&err);
    Py_RETURN_NONE;
}

static PyObject *stream_query(PyDtStream *self, PyObject *unused)
{
    (void)unused;
    const dt_backend_iface *b = self->backend;
    NEED_SLOT(b, stream_query, return NULL);
    dt_error err;
    int done = 0;
    if (b->stream_query(self->device, self->handle, &done, &err) != DT_OK)
        return dt_py_raise(&err);
    return PyBool_FromLong(done);
}

static PyObject *stream_wait_event(PyDtStream *self, PyObject *event)
{
    if (!Event_Check(event)) {
        type_error(event, "devtensor.cuda.Event");
        return NULL;
    }
    const dt_backend_iface *b = self->backend;
    NEED_SLOT(b, stream_wait_event, return NULL);
    dt_error err;
    if (b->stream_wait_event(self->device, self->handle, ((PyDtEvent *)event)->handle, &err) !=
        DT_OK)
        return dt_py_raise(&err);
    Py_RETURN_NONE;
}

/* Record e on stream s.  backend.h's event_record reads a NULL stream as
 * "the current stream" (Note [NULL streams] in csrc/cuda/cuda_stream.c), so
 * recording on the default stream object while another stream is current
 * makes the default stream current around the call. */
/* Note [Events bind at their first record]
 * As PyTorch's, an Event made without device= belongs to the device of the
 * stream it is first recorded on (record() with no stream: the current
 * stream of the current device): the handle made at construction, on the
 * then current device, is replaced by one on the stream's device before
 * that first record.  After it, or with device= given, recording on
 * another device's stream is the backend's error. */
static int bind_to(PyDtEvent *e, PyDtStream *s, dt_error *err)
{
    const dt_backend_iface *b = e->backend;
    if (e->recorded || e->device_given || e->device == s->device || s->backend != b ||
        b->event_destroy == NULL)
        return 0;
    void *h = NULL;
    if (b->event_create(s->device, e->timing, &h, err) != DT_OK)
        return -1;
    b->event_destroy(e->device, e->handle);
    e->handle = h;
    e->device = s->device;
    return 0;
}

static int record_on(PyDtEvent *e, PyDtStream *s)
{
    const dt_backend_iface *b = e->backend;
    NEED_SLOT(b, event_record, return -1);
    dt_error err;
    if (bind_to(e, s, &err) < 0)
        goto fail;
    void *cur = b->get_stream != NULL ? b->get_stream(s->device) : NULL;
    if (s->handle == NULL && cur != NULL && b->set_stream != NULL) {
        if (b->set_stream(s->device, NULL, &err) != DT_OK)
            goto fail;
        dt_status st = b->event_record(s->device, e->handle, NULL, &err);
        dt_error err2;
        (void)b->set_stream(s->device, cur, &err2); /* cur is alive: its slot holds it */
        if (st != DT_OK)
            goto fail;
        e->recorded = 1;
        return 0;
    }
    if (b->event_record(s->device, e->handle, s->handle, &err) == DT_OK) {
        e->recorded = 1;
        return 0;
    }
fail:
    dt_py_raise(&err);
    return -1;
}

static PyObject *event_new_on(const dt_backend_iface *b, int index, int timing);

int dt_py_stream_handle(PyObject *obj, int *device, void **handle)
{
    if (!Stream_Check(obj)) {
        type_error(obj, "devtensor.cuda.Stream");
        return -1;
    }
    *device = ((PyDtStream *)obj)->device;
    *handle = ((PyDtStream *)obj)->handle;
    return 0;
}

static PyObject *stream_wait_stream(PyDtStream *self, PyObject *other)
{
    if (!Stream_Check(other)) {
        type_error(other, "devtensor.cuda.Stream");
        return NULL;
    }
    PyObject *e = event_new_on(((PyDtStream *)other)->backend, ((PyDtStream *)other)->device, 0);
    if (e == NULL)
        return NULL;
    PyObject *r = NULL;
    if (record_on((PyDtEvent *)e, (PyDtStream *)other) == 0)
        r = stream_wait_event(self, e);
    Py_DECREF(e);
    return r;
}

static PyObject *stream_record_event(PyDtStream *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"event", NULL};
    PyObject *e = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:record_event", kwlist, &e))
        return NULL;
    if (e == Py_None) {
        e = event_new_on(self->backend, self->device, 0);
        if (e == NULL)
            return NULL;
    } else if (!Event_Check(e)) {
        type_error(e, "devtensor.cuda.Event or None");
        return NULL;
    } else {
        Py_INCREF(e);
    }
    if (record_on((PyDtEvent *)e, self) < 0) {
        Py_DECREF(e);
        return NULL;
    }
    return e;
}

/* this thread's stack of the streams current before each `with self` (a
 * new reference; NULL: none yet and !create, or an error set).  It lives in
 * the thread state's dict, {stream: list}, so it ends with the thread and no
 * later thread (an ident reused) can see it. */
static PyObject *thread_entries(PyDtStream *self, int create)
{
    PyObject *td = PyThreadState_GetDict();
    if (td == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "no thread state to hold the stream's entries");
        return NULL;
    }
    PyObject *all = PyDict_GetItemWithError(td, entries_key);
    if (all == NULL) {
        if (PyErr_Occurred() || !create || (all = PyDict_New()) == NULL)
            return NULL;
        int rc = PyDict_SetItem(td, entries_key, all);
        Py_DECREF(all); /* the thread's dict holds it */
        if (rc < 0)
            return NULL;
    }
    PyObject *list = PyDict_GetItemWithError(all, (PyObject *)self);
    if (list != NULL)
        return Py_NewRef(list);
    if (PyErr_Occurred() || !create || (list = PyList_New(0)) == NULL)
        return NULL;
    if (PyDict_SetItem(all, (PyObject *)self, list) < 0) {
        Py_DECREF(list);
        return NULL;
    }
    return list;
}

/* the thread's entries of self, now empty, dropped */
static int forget_entries(PyDtStream *self)
{
    PyObject *td = PyThreadState_GetDict();
    PyObject *all = td == NULL ? NULL : PyDict_GetItemWithError(td, entries_key);
    return all == NULL ? (PyErr_Occurred() ? -1 : 0) : PyDict_DelItem(all, (PyObject *)self);
}

static PyObject *stream_enter(PyDtStream *self, PyObject *unused)
{
    (void)unused;
    PyObject *entries = thread_entries(self, 1);
    if (entries == NULL)
        return NULL;
    PyObject *prev = current_stream(self->backend, self->device);
    int rc = prev == NULL ? -1 : PyList_Append(entries, prev);
    Py_XDECREF(prev);
    if (rc == 0 && make_current(self) < 0) {
        Py_ssize_t n = PyList_GET_SIZE(entries);
        (void)PyList_SetSlice(entries, n - 1, n, NULL);
        rc = -1;
    }
    Py_DECREF(entries);
    return rc < 0 ? NULL : Py_NewRef(self);
}

static PyObject *stream_exit(PyDtStream *self, PyObject *args)
{
    (void)args;
    PyObject *entries = thread_entries(self, 0);
    if (entries == NULL && PyErr_Occurred())
        return NULL;
    Py_ssize_t n = entries == NULL ? 0 : PyList_GET_SIZE(entries);
    if (n == 0) {
        Py_XDECREF(entries);
        return PyErr_Format(PyExc_RuntimeError, "Stream.__exit__ without a matching __enter__ in this thread");
    }
    PyObject *prev = Py_NewRef(PyList_GET_ITEM(entries, n - 1));
    int rc = PyList_SetSlice(entries, n - 1, n, NULL);
    Py_DECREF(entries);
    if (rc == 0 && n == 1)
        rc = forget_entries(self);
    if (rc == 0)
        rc = make_current((PyDtStream *)prev);
    Py_DECREF(prev);
    if (rc < 0)
        return NULL;
    Py_RETURN_FALSE;
}

static PyObject *stream_repr(PyDtStream *self)
{
    if (self->handle == NULL)
        return PyUnicode_FromFormat("<devtensor.cuda.Stream device=cuda:%d (default)>",
                                    self->device);
    return PyUnicode_FromFormat("<devtensor.cuda.Stream device=cuda:%d priority=%d at %p>",
                                self->device, self->priority, (void *)self);
}

static PyObject *stream_get_device(PyDtStream *self, void *closure)
{
    (void)closure;
    return dt_py_device_new((dt_device){DT_DEVICE_CUDA, (int16_t)self->device});
}

/* The stream's CUDA handle (cudaStream_t) as an int, PyTorch's
 * Stream.cuda_stream: 0 for the default stream, else what
 * torch.cuda.ExternalStream and cupy.cuda.ExternalStream take.  The
 * handle lives as long as this object. */
static PyObject *stream_get_cuda_stream(PyDtStream *self, void *closure)
{
    (void)closure;
    const dt_backend_iface *b = self->backend;
    if (b->stream_native == NULL)
        return PyErr_Format(PyExc_NotImplementedError, "the %s backend has no native streams", b->name);
    uintptr_t native;
    dt_error err;
    if (b->stream_native(self->device, self->handle, &native, &err) != DT_OK)
        return dt_py_raise(&err);
    return PyLong_FromUnsignedLongLong((unsigned long long)native);
}

static PyMethodDef stream_methods[] = {
    {"synchronize", (PyCFunction)stream_synchronize, METH_NOARGS,
     "wait until all work queued on the stream is done"},
    {"query", (PyCFunction)stream_query, METH_NOARGS,
     "True if all work queued on the stream is done"},
    {"wait_event", (PyCFunction)stream_wait_event, METH_O,
     "make future work on this stream wait for the event"},
    {"wait_stream", (PyCFunction)stream_wait_stream, METH_O,
     "make future work on this stream wait for the work queued so far on another"},
    {"record_event", (PyCFunction)(void (*)(void))stream_record_event,
     METH_VARARGS | METH_KEYWORDS, "record an event (a new one if None) on this stream; returns it"},
    {"__enter__", (PyCFunction)stream_enter, METH_NOARGS,
     "make this the current stream of its device"},
    {"__exit__", (PyCFunction)stream_exit, METH_VARARGS,
     "make the stream current before __enter__ current again"},
    {"__copy__", return_self, METH_NOARGS, "the stream itself: a handle cannot be duplicated"},
    {"__deepcopy__", return_self, METH_O, "the stream itself: a handle cannot be duplicated"},
    {"__reduce__", refuse_pickle, METH_NOARGS, "refused: TypeError"},
    {"__reduce_ex__", refuse_pickle, METH_O, "refused: TypeError"},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef stream_members[] = {
    {"device_index", T_INT, offsetof(PyDtStream, device), READONLY, "the device's index"},
    {"priority", T_INT, offsetof(PyDtStream, priority), READONLY,
     "the priority asked for at creation (lower is higher)"},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef stream_getset[] = {
    {"device", (getter)stream_get_device, NULL, "the stream's device", NULL},
    {"cuda_stream", (getter)stream_get_cuda_stream, NULL,
     "the CUDA handle (cudaStream_t) as an int, 0 for the default stream", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject stream_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "devtensor.cuda.Stream",
    .tp_basicsize = sizeof(PyDtStream),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Stream(device=None, priority=0): a CUDA stream on a device; work queued on it runs\n"
              "in order.  The object owns the stream (Note [Stream and event ownership]): it is\n"
              "destroyed when the object is, never while it is a current stream.  Copies are\n"
              "the object itself; pickling is refused.",
    .tp_new = stream_new,
    .tp_dealloc = (destructor)stream_dealloc,
    .tp_traverse = (traverseproc)stream_traverse,
    .tp_clear = (inquiry)stream_clear,
    .tp_repr = (reprfunc)stream_repr,
    .tp_weaklistoffset = offsetof(PyDtStream, weakreflist),
    .tp_methods = stream_methods,
    .tp_members = stream_members,
    .tp_getset = stream_getset,
};

/* ---- Event ---- */

static PyObject *event_make(PyTypeObject *type, const dt_backend_iface *b, int index, int timing)
{
    NEED_SLOT(b, event_create, return NULL);
    PyDtEvent *self = (PyDtEvent *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->backend = b;
    self->device = index;
    self->timing = timing;
    dt_error err;
    void *h = NULL;
    if (b->event_create(index, timing, &h, &err) != DT_OK) {
        Py_DECREF(self); /* handle NULL: owns nothing */
        return dt_py_raise(&err);
    }
    self->handle = h;
    live_events++;
    return (PyObject *)self;
}

static PyObject *event_new_on(const dt_backend_iface *b, int index, int timing)
{
    return event_make(&event_type, b, index, timing);
}

static PyObject *event_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"enable_timing", "device", NULL};
    PyObject *dev = Py_None;
    int timing = 0, index;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|pO:Event", kwlist, &timing, &dev))
        return NULL;
    const dt_backend_iface *b = dt_py_cuda_index(dev, &index);
    if (b == NULL || check_index_range(index) < 0)
        return NULL;
    PyObject *e = event_make(type, b, index, timing);
    if (e != NULL)
        ((PyDtEvent *)e)->device_given = dev != Py_None;
    return e;
}

static void event_dealloc(PyDtEvent *self)
{
    if (self->weakreflist != NULL)
        PyObject_ClearWeakRefs((PyObject *)self);
    if (self->handle != NULL) {
        if (self->backend->event_destroy != NULL)
            self->backend->event_destroy(self->device, self->handle);
        self->handle = NULL;
        live_events--;
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The stream argument of record/wait: a Stream, or None for the current
 * stream of the event's device (new reference). */
static PyDtStream *stream_arg(PyDtEvent *self, PyObject *s)
{
    if (s == Py_None) {
        int device = self->device;
        dt_error err;
        if (!self->recorded && !self->device_given && self->backend->get_device != NULL &&
            self->backend->get_device(&device, &err) != DT_OK) /* Note [Events bind at their first record] */
            return (PyDtStream *)dt_py_raise(&err);
        return (PyDtStream *)current_stream(self->backend, device);
    }
    if (!Stream_Check(s)) {
        type_error(s, "devtensor.cuda.Stream or None");
        return NULL;
    }
    return (PyDtStream *)Py_NewRef(s);
}

static PyObject *event_record(PyDtEvent *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"stream", NULL};
    PyObject *s = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:record", kwlist, &s))
        return NULL;
    PyDtStream *st = stream_arg(self, s);
    if (st == NULL)
        return NULL;
    int rc = record_on(self, st);
    Py_DECREF(st);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *event_wait(PyDtEvent *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"stream", NULL};
    PyObject *s = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:wait", kwlist, &s))
        return NULL;
    PyDtStream *st = stream_arg(self, s);
    if (st == NULL)
        return NULL;
    PyObject *r = stream_wait_event(st, (PyObject *)self);
    Py_DECREF(st);
    return r;
}

static PyObject *event_synchronize(PyDtEvent *self, PyObject *unused)
{
    (void)unused;
    const dt_backend_iface *b = self->backend;
    NEED_SLOT(b, event_synchronize, return NULL);
    dt_error err;
    dt_status st;
    Py_BEGIN_ALLOW_THREADS
    st = b->event_synchronize(self->handle, &err);
    Py_END_ALLOW_THREADS
    if (st != DT_OK)
        return dt_py_raise(&err);
    Py_RETURN_NONE;
}

static PyObject *event_query(PyDtEvent *self, PyObject *unused)
{
    (void)unused;
    const dt_backend_iface *b = self->backend;
    NEED_SLOT(b, event_query, return NULL);
    dt_error err;
    int done = 0;
    if (b->event_query(self->handle, &done, &err) != DT_OK)
        return dt_py_raise(&err);
    return PyBool_FromLong(done);
}

static PyObject *event_elapsed_time(PyDtEvent *self, PyObject *end)
{
    if (!Event_Check(end)) {
        type_error(end, "devtensor.cuda.Event");
        return NULL;
    }
    const dt_backend_iface *b = self->backend;
    NEED_SLOT(b, event_elapsed_ms, return NULL);
    dt_error err;
    float ms = 0;
    if (b->event_elapsed_ms(self->handle, ((PyDtEvent *)end)->handle, &ms, &err) != DT_OK)
        return dt_py_raise(&err);
    return PyFloat_FromDouble(ms);
}

static PyObject *event_repr(PyDtEvent *self)
{
    return PyUnicode_FromFormat("<devtensor.cuda.Event device=cuda:%d%s at %p>", self->device,
                                self->timing ? " enable_timing=True" : "", (void *)self);
}

static PyObject *event_get_device(PyDtEvent *self, void *closure)
{
    (void)closure;
    return dt_py_device_new((dt_device){DT_DEVICE_CUDA, (int16_t)self->device});
}

static PyMethodDef event_methods[] = {
    {"record", (PyCFunction)(void (*)(void))event_record, METH_VARARGS | METH_KEYWORDS,
     "record the event on a stream (None: the current stream of its device)"},
    {"wait", (PyCFunction)(void (*)(void))event_wait, METH_VARARGS | METH_KEYWORDS,
     "make future work on a stream (None: the current one) wait for this event"},
    {"synchronize", (PyCFunction)event_synchronize, METH_NOARGS,
     "wait until the work recorded before the event is done"},
    {"query", (PyCFunction)event_query, METH_NOARGS,
     "True if the work recorded before the event is done"},
    {"elapsed_time", (PyCFunction)event_elapsed_time, METH_O,
     "milliseconds between this event and end_event (both recorded, with timing)"},
    {"__copy__", return_self, METH_NOARGS, "the event itself: a handle cannot be duplicated"},
    {"__deepcopy__", return_self, METH_O, "the event itself: a handle cannot be duplicated"},
    {"__reduce__", refuse_pickle, METH_NOARGS, "refused: TypeError"},
    {"__reduce_ex__", refuse_pickle, METH_O, "refused: TypeError"},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef event_members[] = {
    {"device_index", T_INT, offsetof(PyDtEvent, device), READONLY, "the device's index"},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef event_getset[] = {
    {"device", (getter)event_get_device, NULL, "the event's device", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject event_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "devtensor.cuda.Event",
    .tp_basicsize = sizeof(PyDtEvent),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Event(enable_timing=False, device=None): a marker in a stream, for synchronisation\n"
              "and timing.  The object owns the event (Note [Stream and event ownership]);\n"
              "copies are the object itself; pickling is refused.",
    .tp_new = event_new,
    .tp_dealloc = (destructor)event_dealloc,
    .tp_repr = (reprfunc)event_repr,
    .tp_weaklistoffset = offsetof(PyDtEvent, weakreflist),
    .tp_methods = event_methods,
    .tp_members = event_members,
    .tp_getset = event_getset,
};

/* ---- module functions ---- */

static PyObject *py_current_stream(PyObject *m, PyObject *arg)
{
    (void)m;
    int index;
    const dt_backend_iface *b = dt_py_cuda_index(arg, &index);
    return b == NULL ? NULL : current_stream(b, index);
}

static PyObject *py_default_stream(PyObject *m, PyObject *arg)
{
    (void)m;
    int index;
    const dt_backend_iface *b = dt_py_cuda_index(arg, &index);
    return b == NULL ? NULL : default_stream(b, index);
}

static PyObject *py_set_stream(PyObject *m, PyObject *s)
{
    (void)m;
    if (!Stream_Check(s)) {
        type_error(s, "devtensor.cuda.Stream");
        return NULL;
    }
    if (make_current((PyDtStream *)s) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *py_live_handles(PyObject *m, PyObject *u)
{
    (void)m; (void)u;
    return Py_BuildValue("(nn)", live_streams, live_events);
}

static PyMethodDef stream_module_methods[] = {
    {"_cuda_current_stream", py_current_stream, METH_O,
     "the current Stream of a device in this thread (its default stream if none was set)"},
    {"_cuda_default_stream", py_default_stream, METH_O, "the default Stream of a device"},
    {"_cuda_set_stream", py_set_stream, METH_O,
     "make a Stream the current stream of its device in this thread"},
    {"_cuda_live_handles", py_live_handles, METH_NOARGS,
     "(streams, events): backend handles now owned by Stream and Event objects"},
    {NULL, NULL, 0, NULL},
};

int dt_py_stream_init(PyObject *module)
{
    if (slots_key == NULL &&
        (slots_key = PyUnicode_InternFromString("devtensor.cuda.current_streams")) == NULL)
        return -1;
    if (entries_key == NULL &&
        (entries_key = PyUnicode_InternFromString("devtensor.cuda.stream_entries")) == NULL)
        return -1;
    if (PyType_Ready(&stream_type) < 0 || PyType_Ready(&event_type) < 0 ||
        PyModule_AddFunctions(module, stream_module_methods) < 0 ||
        PyModule_AddObjectRef(module, "_CudaStream", (PyObject *)&stream_type) < 0 ||
        PyModule_AddObjectRef(module, "_CudaEvent", (PyObject *)&event_type) < 0)
        return -1;
    return 0;
}
