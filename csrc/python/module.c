/* module.c - devtensor._C: module initialisation and the CUDA loader.
 *
 * Import registers the CPU backend and installs a loader for the CUDA
 * slot; it never touches CUDA (Note [Lazy CUDA] in backend.c).  The loader
 * fills the slot with devtensor._cuda_emu's vtable (the real CUDA backend
 * executed on the CPU, csrc/emu) when DEVTENSOR_EMULATE_CUDA=N was set at
 * import, else with devtensor._cuda's (both hand it over in a capsule).
 */
#define DT_PY_IMPORTS_ARRAY
#include "pydt.h"

#include <limits.h>
#include <stdlib.h>
#include "env.h"
#include "cpu_backend.h"
#include "cpu_parallel.h"

static int emulated; /* DEVTENSOR_EMULATE_CUDA was set at import: load _cuda_emu */
static char load_error[512];

int dt_py_cuda_is_emulated(void) { return emulated; }

static const dt_backend_iface *load_cuda(const char **reason)
{
    PyGILState_STATE g = PyGILState_Ensure();
    const dt_backend_iface *b = NULL;
    PyObject *mod = PyImport_ImportModule(emulated ? "devtensor._cuda_emu" : "devtensor._cuda");
    PyObject *cap = mod ? PyObject_GetAttrString(mod, "_BACKEND_API") : NULL;
    if (cap != NULL)
        b = PyCapsule_GetPointer(cap, DT_CUDA_CAPSULE_NAME);
    if (b == NULL) {
        if (mod == NULL && PyErr_ExceptionMatches(PyExc_ModuleNotFoundError)) {
            snprintf(load_error, sizeof load_error, "%s", emulated
                     ? "devtensor was built without the CUDA emulation (no devtensor._cuda_emu: "
                       "no C++ compiler was found when it was installed)"
                     : "devtensor was built without CUDA support (no devtensor._cuda: nvcc was "
                       "not found when it was installed)");
        } else {
            PyObject *type, *value, *tb;
            PyErr_Fetch(&type, &value, &tb);
            PyObject *text = value ? PyObject_Str(value) : NULL;
            const char *s = text ? PyUnicode_AsUTF8(text) : NULL;
            snprintf(load_error, sizeof load_error, "devtensor._cuda failed to load: %s",
                     s ? s : "unknown error");
            Py_XDECREF(text);
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(tb);
        }
        *reason = load_error;
    }
    PyErr_Clear();
    Py_XDECREF(cap);
    /* mod stays imported (sys.modules holds it), so the vtable outlives us */
    Py_XDECREF(mod);
    PyGILState_Release(g);
    return b;
}

/* Note [Out of memory]: before a failed device allocation is retried, run
 * the garbage collector: unreachable cycles may hold device tensors.  It
 * runs even where gc.disable() was called (PyGC_Collect alone then does
 * nothing), and gc is left as it was. */
static void collect_garbage(void)
{
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    int was_enabled = PyGC_Enable();
    PyGC_Collect();
    if (!was_enabled)
        PyGC_Disable();
    PyErr_Restore(type, value, tb);
    PyGILState_Release(g);
}

/* Note [Retired variables]
 * DEVTENSOR_SIMULATE_CUDA=N and DEVTENSOR_SIMULATE_CUDA_MEMORY chose a
 * simulated CUDA backend (host memory, the CPU loops) that was removed: the
 * emulation runs the real CUDA backend instead (DEVTENSOR_EMULATE_CUDA=N).
 * A script that still sets them would silently get no devices, or a real
 * GPU where it asked for test devices, so import warns once, naming the
 * replacement; the variables have no other effect. */

/* Warn once, at import, about each malformed setting that the C code will
 * ignore (Note [Environment variables]) and each retired one. */
static int warn_about_environment(void)
{
    static const struct { const char *name, *what, *instead; long long lo, hi; } ints[] = {
        {"DEVTENSOR_NUM_THREADS", "threads", "one thread per CPU available", 1,
         DT_CPU_MAX_THREADS},
        {"DEVTENSOR_CPU_CACHE_BYTES", "bytes", "the default budget of 512 MiB", 0, LLONG_MAX},
    };
    static const struct { const char *name, *instead; } flags[] = {
        {"DEVTENSOR_CUDA_NO_CACHE", "0: the caching allocator is on"},
        {"DEVTENSOR_CUDA_STAGING", "1: staging is on"},
        {"DEVTENSOR_CUDA_OWN_SORT", "0: CUB's radix sort on a GPU"},
        {"DEVTENSOR_CPU_WIDE_PAIRS", "0: packed pairs"},
        {"DEVTENSOR_CPU_AVX512", "1: AVX-512 where the CPU has it"},
    };
    static const struct { const char *name, *instead; } retired[] = {
        {"DEVTENSOR_SIMULATE_CUDA", "DEVTENSOR_EMULATE_CUDA=N for N CUDA devices emulated on the CPU"},
        {"DEVTENSOR_SIMULATE_CUDA_MEMORY", "DEVTENSOR_EMULATE_CUDA=N with "
                                           "DEVTENSOR_EMULATE_CUDA_MEMORY=size (e.g. 512M, 4G)"},
    };
    long long v;
    int f;
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (dt_env_int(ints[i].name, ints[i].lo, ints[i].hi, &v) < 0 &&
            PyErr_WarnFormat(PyExc_RuntimeWarning, 1, "%s='%s' is not a whole number of %s from "
                             "%lld to %lld; it is ignored (using %s)", ints[i].name,
                             getenv(ints[i].name), ints[i].what, ints[i].lo, ints[i].hi,
                             ints[i].instead) < 0)
            return -1;
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (dt_env_flag(flags[i].name, &f) < 0 &&
            PyErr_WarnFormat(PyExc_RuntimeWarning, 1, "%s='%s' is not 0 or 1; it is ignored "
                             "(using %s)", flags[i].name, getenv(flags[i].name),
                             flags[i].instead) < 0)
            return -1;
    for (size_t i = 0; i < sizeof retired / sizeof retired[0]; i++) {
        const char *s = getenv(retired[i].name);
        if (s != NULL && *s != '\0' &&
            PyErr_WarnFormat(PyExc_RuntimeWarning, 1, "%s='%s' is ignored: devtensor's simulated "
                             "CUDA devices were removed; use %s",
                             retired[i].name, s, retired[i].instead) < 0)
            return -1;
    }
    return 0;
}

static PyObject *is_emulated(PyObject *m, PyObject *u)
{
    (void)m; (void)u;
    return PyBool_FromLong(emulated);
}

static PyMethodDef module_methods[] = {
    {"_cuda_is_emulated", is_emulated, METH_NOARGS,
     "whether DEVTENSOR_EMULATE_CUDA asks for the CUDA backend executed on the CPU"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "devtensor._C",
    .m_doc = "devtensor's C core: tensors, devices, dtypes and the CPU backend.",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__C(void)
{
    import_array();
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL)
        return NULL;
    const char *e = getenv("DEVTENSOR_EMULATE_CUDA");
    emulated = e != NULL && *e != '\0'; /* the emulated runtime checks the value */
    if (warn_about_environment() < 0 || dt_py_errors_init(m) < 0 || dt_py_dtype_init(m) < 0 ||
        dt_py_device_init(m) < 0 || dt_py_tensor_init(m) < 0 || dt_py_number_init(m) < 0 || dt_py_ufunc_type_init(m) < 0 ||
        PyModule_AddFunctions(m, dt_py_creation_methods) < 0 ||
        PyModule_AddFunctions(m, dt_py_conversion_methods) < 0 ||
        PyModule_AddFunctions(m, dt_py_advanced_methods) < 0 ||
        PyModule_AddFunctions(m, dt_py_reduce_methods) < 0 || dt_py_reduce_init(m) < 0 ||
        PyModule_AddFunctions(m, dt_py_matmul_methods) < 0 || dt_py_linalg_init(m) < 0 ||
        dt_py_fft_init(m) < 0 ||
        PyModule_AddFunctions(m, dt_py_cuda_methods) < 0 || dt_py_stream_init(m) < 0 ||
        PyModule_AddFunctions(m, dt_py_thread_methods) < 0 ||
        PyModule_AddFunctions(m, dt_py_sort_runs_methods) < 0 ||
        PyModule_AddFunctions(m, dt_py_join_methods) < 0 ||
        PyModule_AddFunctions(m, dt_py_numpy_call_methods) < 0 ||
        PyModule_AddFunctions(m, dt_py_dlpack_methods) < 0 ||
        PyModule_AddFunctions(m, dt_py_cuda_array_interface_methods) < 0 ||
        PyModule_AddIntConstant(m, "MAX_NDIM", DT_MAX_NDIM) < 0 ||
        PyModule_AddIntConstant(m, "GEN_AFFINE", DT_GEN_AFFINE) < 0 ||
        PyModule_AddIntConstant(m, "GEN_UNIFORM", DT_GEN_UNIFORM) < 0 ||
        PyModule_AddIntConstant(m, "GEN_NORMAL", DT_GEN_NORMAL) < 0 ||
        PyModule_AddIntConstant(m, "GEN_RANDINT", DT_GEN_RANDINT) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    dt_backend_register(DT_DEVICE_CPU, &dt_cpu_backend);
    dt_backend_set_loader(DT_DEVICE_CUDA, load_cuda);
    dt_storage_set_oom_handler(collect_garbage);
    return m;
}
