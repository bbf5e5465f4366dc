/* fft.c - Fourier transforms from Python: devtensor._C._fft, the primitive
 * devtensor/fft.py builds numpy.fft's functions on for devices other than
 * the CPU (the core's fft.c does the work, Note [FFTs] there). */
#include "pydt.h"

#include "fft.h"

/* Note [Releasing the GIL] (number.c): transforms of at least this many
 * elements run without the GIL */
#define DT_FFT_GIL_RELEASE_NUMEL 4096

/* _fft(x, kind, rank, n_last, inverse) */
static PyObject *py_fft(PyObject *m, PyObject *args)
{
    (void)m;
    PyObject *x;
    int kind, rank, inverse;
    long long n_last;
    if (!PyArg_ParseTuple(args, "O!iiLp:_fft", &dt_py_tensor_base_type, &x, &kind, &rank, &n_last,
                          &inverse))
        return NULL;
    const dt_tensor *t = &((PyDtTensor *)x)->t;
    dt_tensor out;
    dt_error err;
    dt_status st;
    if (t->numel >= DT_FFT_GIL_RELEASE_NUMEL) {
        DT_PY_BEGIN_TENSOR_WORK
        st = dt_fft((dt_fft_kind)kind, t, rank, (int64_t)n_last, inverse, &out, &err);
        DT_PY_END_TENSOR_WORK
    } else {
        st = dt_fft((dt_fft_kind)kind, t, rank, (int64_t)n_last, inverse, &out, &err);
    }
    if (st != DT_OK)
        return dt_py_raise(&err);
    return dt_py_tensor_wrap(&out);
}

static PyMethodDef fft_methods[] = {
    {"_fft", py_fft, METH_VARARGS,
     "_fft(x, kind, rank, n_last, inverse): the unnormalised transform over x's last rank axes"},
    {NULL, NULL, 0, NULL},
};

int dt_py_fft_init(PyObject *module)
{
    if (PyModule_AddFunctions(module, fft_methods) < 0 ||
        PyModule_AddIntConstant(module, "FFT_C2C", DT_FFT_C2C) < 0 ||
        PyModule_AddIntConstant(module, "FFT_R2C", DT_FFT_R2C) < 0 ||
        PyModule_AddIntConstant(module, "FFT_C2R", DT_FFT_C2R) < 0)
        return -1;
    return 0;
}
