/* tensor_data.c - tensors whose data can be replaced: the C side of
 * devtensor.nn.Parameter (PyTorch's `param.data = x`, and Module.to()
 * moving parameters in place), and the count of tensor work running
 * without the GIL that makes the replacement safe.
 */
#include "pydt.h"

#include <string.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <sched.h>
#endif

atomic_int dt_py_tensor_work_running;

/* Note [Replacing a tensor's data]
 * A tensor's dt_tensor struct is otherwise fixed for its life; C calls
 * rely on that when they release the GIL and use the struct meanwhile,
 * NumPy arrays made by .numpy() keep their tensor alive as their base, and
 * the asarray memo remembers a tensor by identity.  Replacing the data is
 * therefore allowed only on instances of Python subclasses (Parameter),
 * and:
 *   - waits until no call counted by DT_PY_BEGIN_TENSOR_WORK is running,
 *     and replaces the data with the GIL held from that check on (none can
 *     start meanwhile: they need the GIL to count themselves in);
 *   - builds the new view first, so a failure changes nothing;
 *   - NumPy arrays of such tensors take a plain view as their base
 *     (dt_py_tensor_stable_owner), which keeps the old storage alive;
 *   - the old storage is released like any dropped tensor's (queued
 *     device work keeps it through the caching allocator's stream rules).
 * Python code that reads p.shape and later hands p to C sees whichever
 * data p has then, as in PyTorch. */

int dt_py_tensor_data_replaceable(PyObject *obj)
{
    return DtTensor_Check(obj) && Py_TYPE(obj) != &dt_py_tensor_base_type &&
           Py_TYPE(obj) != dt_py_tensor_class();
}

PyObject *dt_py_tensor_stable_owner(PyDtTensor *self)
{
    if (!dt_py_tensor_data_replaceable((PyObject *)self))
        return Py_NewRef((PyObject *)self);
    return dt_py_tensor_view(self, self->t.ndim, self->t.shape, self->t.strides, self->t.offset);
}

/* dst = a view of src's elements (retaining src's storage); dst untouched
 * on failure. */
static int alias_into(dt_tensor *dst, const dt_tensor *src)
{
    dt_tensor v;
    dt_error err;
    if (dt_tensor_init_view(&v, src->storage, src->offset, src->ndim, src->shape, src->strides,
                            src->dtype, &err) != DT_OK) {
        dt_tensor_clear(&v);
        dt_py_raise(&err);
        return -1;
    }
    v.flags = src->flags;
    dt_tensor_move(dst, &v);
    return 0;
}

/* Returns with the GIL held and no counted call running: one that starts
 * must take the GIL first.  The GIL is let go while waiting, so a running
 * call that needs it briefly (a foreign owner's release callback takes it
 * with PyGILState_Ensure) cannot deadlock against this wait. */
static void wait_for_tensor_work(void)
{
    while (atomic_load(&dt_py_tensor_work_running) != 0) {
        Py_BEGIN_ALLOW_THREADS
#ifdef _WIN32
        SwitchToThread();
#else
        sched_yield();
#endif
        Py_END_ALLOW_THREADS
    }
}

/* _alias_as(cls): a new instance of cls, a Python subclass of Tensor,
 * viewing this tensor's elements (Parameter(t) shares t's memory). */
PyObject *dt_py_tensor_alias_as(PyDtTensor *self, PyObject *cls)
{
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, dt_py_tensor_class()) ||
        (PyTypeObject *)cls == dt_py_tensor_class())
        return PyErr_Format(PyExc_TypeError, "_alias_as expects a subclass of devtensor.Tensor");
    PyTypeObject *type = (PyTypeObject *)cls;
    PyDtTensor *obj = (PyDtTensor *)type->tp_alloc(type, 0);
    if (obj == NULL)
        return NULL;
    dt_tensor_init_empty(&obj->t);
    obj->weakreflist = NULL;
    if (alias_into(&obj->t, &self->t) < 0) {
        Py_DECREF(obj);
        return NULL;
    }
    dt_py_tensor_take_base(obj);
    return (PyObject *)obj;
}

/* _set_data_(src): this tensor becomes a view of src's elements (any
 * device, dtype or shape), sharing src's memory. */
PyObject *dt_py_tensor_set_data(PyDtTensor *self, PyObject *src)
{
    if (!DtTensor_Check(src))
        return PyErr_Format(PyExc_TypeError, "data must be a devtensor.Tensor, got %s",
                            Py_TYPE(src)->tp_name);
    if (!dt_py_tensor_data_replaceable((PyObject *)self))
        return PyErr_Format(PyExc_TypeError,
                            "only the data of a Tensor subclass such as devtensor.nn.Parameter "
                            "can be replaced");
    if ((PyObject *)self == src)
        Py_RETURN_NONE;
    dt_tensor fresh;
    dt_tensor_init_empty(&fresh);
    if (alias_into(&fresh, &((PyDtTensor *)src)->t) < 0)
        return NULL;
    wait_for_tensor_work();
    dt_py_asarray_memo_forget(self);
    PyObject *old_base = dt_py_tensor_drop_base(self);
    dt_tensor old;
    dt_tensor_move(&old, &self->t);
    dt_tensor_move(&self->t, &fresh);
    dt_py_tensor_take_base(self);
    dt_tensor_clear(&old);
    Py_XDECREF(old_base);
    Py_RETURN_NONE;
}
