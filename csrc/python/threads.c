/* threads.c - devtensor._C._set_num_threads / _get_num_threads: the size
 * of the CPU backend's thread pool (csrc/cpu/cpu_parallel.h), exposed by
 * devtensor as set_num_threads / get_num_threads (PyTorch's names).
 */
#include "pydt.h"

#include "cpu_parallel.h"

#define DT_STR_(x) #x
#define DT_STR(x) DT_STR_(x)

/* _set_num_threads(n): threads for big CPU ops, 1 <= n <= DT_CPU_MAX_THREADS. */
static PyObject *set_num_threads(PyObject *module, PyObject *arg)
{
    (void)module;
    if (PyBool_Check(arg) || !PyIndex_Check(arg))
        return PyErr_Format(PyExc_TypeError,
                            "set_num_threads expects an int number of threads, got %.200s",
                            Py_TYPE(arg)->tp_name);
    PyObject *index = PyNumber_Index(arg);
    if (index == NULL)
        return NULL;
    int overflow = 0;
    long long n = PyLong_AsLongLongAndOverflow(index, &overflow);
    Py_DECREF(index);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (overflow != 0 || n < 1 || n > DT_CPU_MAX_THREADS || dt_cpu_set_num_threads((int)n) != 0)
        return PyErr_Format(PyExc_ValueError,
                            "set_num_threads expects a number of threads from 1 to %d, got %R",
                            DT_CPU_MAX_THREADS, arg);
    Py_RETURN_NONE;
}

static PyObject *get_num_threads(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyLong_FromLong(dt_cpu_get_num_threads());
}

PyMethodDef dt_py_thread_methods[] = {
    {"_set_num_threads", set_num_threads, METH_O,
     "_set_num_threads(n): use n threads (1 to " DT_STR(DT_CPU_MAX_THREADS) ") for big CPU operations"},
    {"_get_num_threads", get_num_threads, METH_NOARGS,
     "_get_num_threads(): threads used for big CPU operations (default: the CPUs available "
     "to this process, or DEVTENSOR_NUM_THREADS, else OMP_NUM_THREADS)"},
    {NULL, NULL, 0, NULL},
};
