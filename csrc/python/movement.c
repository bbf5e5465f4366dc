/* movement.c - Tensor.to(), .cpu() and .cuda() (TensorBase methods).
 *
 * Note [Identity moves in C]
 * x.to(device), x.cpu() and x.cuda() return x itself when it is already there, and
 * that is the common call in device-agnostic code (`x = x.to(device)` in
 * every step), so it must cost next to nothing: a device object, a device
 * string or a dtype as the only argument is compared here with the
 * tensor's own.  Every other form of to() -- keywords, two arguments,
 * another tensor, an int, a real move -- is the Python layer's
 * (devtensor._tensor._to_general), with PyTorch's rules and errors.
 */
#include "pydt.h"

/* 1 if x.to(arg) is x itself, 0 if not or if Python must decide, -1 on error */
static int is_identity(PyDtTensor *self, PyObject *arg)
{
    if (PyObject_TypeCheck(arg, &dt_py_dtype_type))
        return ((PyDtDtype *)arg)->code == self->t.dtype;
    if (!PyObject_TypeCheck(arg, &dt_py_device_type) && !PyUnicode_Check(arg))
        return 0;
    dt_device d;
    if (!dt_py_device_converter(arg, &d) || dt_py_device_resolve(&d) == NULL) {
        PyErr_Clear(); /* the Python layer raises its own error */
        return 0;
    }
    return dt_device_equal(d, dt_tensor_device(&self->t));
}

PyObject *dt_py_tensor_to(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static PyObject *slow;
    if (nargs == 1 && kwnames == NULL) {
        int r = is_identity(self, args[0]);
        if (r < 0)
            return NULL;
        if (r > 0)
            return Py_NewRef((PyObject *)self);
    }
    if (dt_py_lazy_function("devtensor._tensor", "_to_general", &slow) == NULL)
        return NULL;
    return dt_py_call_with_self(slow, (PyObject *)self, args, nargs, kwnames);
}

/* cuda(device=None, non_blocking=False): self when it is on that CUDA
 * device (the current one by default); the rest is _cuda_general's. */
PyObject *dt_py_tensor_cuda(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static PyObject *slow;
    dt_device here = dt_tensor_device(&self->t);
    if (kwnames == NULL && nargs <= 1 && here.type == DT_DEVICE_CUDA) {
        dt_device d = {DT_DEVICE_CUDA, DT_INDEX_CURRENT};
        int ok = nargs == 0 || (args[0] != Py_None && (PyLong_CheckExact(args[0]) || PyUnicode_Check(args[0]) ||
                                                      PyObject_TypeCheck(args[0], &dt_py_device_type)) &&
                                dt_py_device_converter(args[0], &d));
        if (ok && d.type == DT_DEVICE_CUDA && dt_py_device_resolve(&d) != NULL && dt_device_equal(d, here))
            return Py_NewRef((PyObject *)self);
        PyErr_Clear(); /* the Python layer decides, and raises its own errors */
    }
    if (dt_py_lazy_function("devtensor._tensor", "_cuda_general", &slow) == NULL)
        return NULL;
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nargs > 2 || nargs + nkw > 3)
        return PyErr_Format(PyExc_TypeError, "cuda() takes at most 2 arguments (%zd given)", nargs + nkw);
    return dt_py_call_with_self(slow, (PyObject *)self, args, nargs, kwnames);
}

PyObject *dt_py_tensor_cpu(PyDtTensor *self, PyObject *unused)
{
    (void)unused;
    static PyObject *slow, *cpu;
    if (dt_tensor_device(&self->t).type == DT_DEVICE_CPU)
        return Py_NewRef((PyObject *)self);
    if (dt_py_lazy_function("devtensor._tensor", "_to_general", &slow) == NULL)
        return NULL;
    if (cpu == NULL && (cpu = PyUnicode_InternFromString("cpu")) == NULL)
        return NULL;
    return PyObject_CallFunctionObjArgs(slow, (PyObject *)self, cpu, NULL);
}
