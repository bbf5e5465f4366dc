/* cuda_module.c - the Python extension module devtensor._cuda.
 *
 * Its only job is to export the CUDA backend's table (cuda_backend.c) as a
 * PyCapsule named DT_CUDA_CAPSULE_NAME in the attribute _BACKEND_API, the
 * way NumPy exports _ARRAY_API; devtensor._C imports it on the first CUDA
 * request and checks abi_version before using it.  This is the only file
 * of the backend that includes Python.h.
 *
 * Importing the module must not touch CUDA (Note [No driver is a normal
 * state] in cuda_device.c): nothing here calls into the backend at import;
 * _libraries() opens the CUDA libraries when asked, without the driver.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "cuda_internal.h"

/* _libraries(): {library: None, or why it cannot be used} for the CUDA
 * libraries the backend opens on first use (Note [Libraries opened on
 * first use] in library.h), loaded here as that first use would: dlopen
 * and every symbol, no driver call.  tools/gpu_check.sh and the tests ask
 * it, so that a missing library or symbol shows before a GPU needs it. */
static PyObject *libraries(PyObject *m, PyObject *unused)
{
    (void)m;
    (void)unused;
    static const char *const names[] = {"cuBLAS", "cuSOLVER", "cuSOLVER Xgeev", "cuFFT"};
    PyObject *d = PyDict_New();
    for (int i = 0; d != NULL && i < 4; i++) {
        dt_error err;
        dt_status st;
        Py_BEGIN_ALLOW_THREADS
        st = i == 0 ? dt_cuda_blas_load(&err) : i == 1 ? dt_cuda_solver_load(0, &err)
           : i == 2 ? dt_cuda_solver_load(1, &err) : dt_cuda_fft_load(&err);
        Py_END_ALLOW_THREADS
        PyObject *v = st == DT_OK ? Py_NewRef(Py_None) : PyUnicode_FromString(err.msg);
        if (v == NULL || PyDict_SetItemString(d, names[i], v) < 0)
            Py_CLEAR(d);
        Py_XDECREF(v);
    }
    return d;
}

#ifdef DEVTENSOR_EMULATED
#include "emu_launch.h"

/* _kernel_launches(): [(name, launches)] for every kernel the emulated
 * backend has registered, so tests can see which ones never ran. */
static PyObject *kernel_launches(PyObject *m, PyObject *unused)
{
    (void)m;
    (void)unused;
    size_t n = emu_kernel_count();
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list != NULL && i < n; i++) {
        PyObject *row = Py_BuildValue("(sK)", emu_kernel_name(i), emu_kernel_launches(i));
        if (row == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, row);
    }
    return list;
}

static PyMethodDef cuda_module_methods[] = {
    {"_kernel_launches", kernel_launches, METH_NOARGS,
     "[(name, launches)] for every registered kernel (emulated builds only)"},
    {"_libraries", libraries, METH_NOARGS, "{library: None, or why it cannot be used}"},
    {NULL, NULL, 0, NULL},
};
#else
static PyMethodDef cuda_module_methods[] = {
    {"_libraries", libraries, METH_NOARGS, "{library: None, or why it cannot be used}"},
    {NULL, NULL, 0, NULL},
};
#endif

static int cuda_module_exec(PyObject *m)
{
    /* The table is const; the capsule API takes void *.  Readers must not
     * write through it. */
    PyObject *cap = PyCapsule_New((void *)dt_cuda_backend_iface(), DT_CUDA_CAPSULE_NAME, NULL);
    if (cap == NULL)
        return -1;
    if (PyModule_AddObject(m, "_BACKEND_API", cap) < 0) {
        Py_DECREF(cap);
        return -1;
    }
    if (PyModule_AddIntConstant(m, "ABI_VERSION", DT_BACKEND_ABI_VERSION) < 0)
        return -1;
    /* the CUDA runtime built against, "13.0": devtensor.version.cuda */
    char cuda_version[32];
    snprintf(cuda_version, sizeof cuda_version, "%d.%d", CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
    if (PyModule_AddStringConstant(m, "CUDA_VERSION", cuda_version) < 0)
        return -1;
    return 0;
}

static PyModuleDef_Slot cuda_module_slots[] = {
    {Py_mod_exec, (void *)cuda_module_exec},
#if defined(Py_GIL_DISABLED)
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL},
};

/* Note [Two builds of one backend]
 * The same sources build devtensor._cuda (nvcc and the CUDA runtime, for
 * GPUs) and, with DEVTENSOR_EMULATED, devtensor._cuda_emu (g++ and the CPU
 * emulation in csrc/emu, for CI); only the module's name differs. */
#ifdef DEVTENSOR_EMULATED
#define DT_CUDA_MODULE_NAME "devtensor._cuda_emu"
#define DT_CUDA_MODULE_INIT PyInit__cuda_emu
#else
#define DT_CUDA_MODULE_NAME "devtensor._cuda"
#define DT_CUDA_MODULE_INIT PyInit__cuda
#endif

static struct PyModuleDef cuda_module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = DT_CUDA_MODULE_NAME,
    .m_doc = "devtensor's CUDA backend: exports its table in the capsule _BACKEND_API.",
    .m_size = 0,
    .m_methods = cuda_module_methods,
    .m_slots = cuda_module_slots,
};

PyMODINIT_FUNC DT_CUDA_MODULE_INIT(void)
{
    return PyModuleDef_Init(&cuda_module_def);
}
