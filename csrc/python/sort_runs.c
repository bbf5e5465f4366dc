/* sort_runs.c - devtensor._C._sort_numpy_runs: NumPy's unstable sort of a
 * CPU array, across devtensor's CPU threads (Note [Sorting runs with
 * NumPy's sort] in csrc/cpu/cpu_sort_runs.c).
 */
#include "pydt.h"

#include "cpu_sort_runs.h"

typedef struct numpy_sort {
    PyArray_SortFunc *fn;
    PyArrayObject *arr; /* NumPy's sorts read the dtype from it; numeric ones do not */
} numpy_sort;

static int call_numpy_sort(void *data, int64_t n, void *ctx)
{
    const numpy_sort *s = (const numpy_sort *)ctx;
    return s->fn(data, (npy_intp)n, s->arr);
}

static int usable(PyArrayObject *a, int writable)
{
    return PyArray_IS_C_CONTIGUOUS(a) && PyArray_ISALIGNED(a) && PyArray_ISNBO(PyArray_DESCR(a)->byteorder) &&
           (!writable || PyArray_ISWRITEABLE(a));
}

/* _sort_numpy_runs(src, dst) -> bool: dst = src sorted along its last axis
 * by NumPy's quicksort, rows (or runs of one row, then merged) across the
 * CPU threads, without the GIL.  src and dst: C-contiguous aligned native
 * arrays of one shape and dtype that do not overlap, dst writable.  False (dst untouched) for
 * a dtype this does not merge: the caller sorts with NumPy. */
static PyObject *sort_numpy_runs(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 || !PyArray_Check(args[0]) || !PyArray_Check(args[1]))
        return PyErr_Format(PyExc_TypeError, "_sort_numpy_runs(src, dst) takes two ndarrays");
    PyArrayObject *src = (PyArrayObject *)args[0], *dst = (PyArrayObject *)args[1];
    int nd = PyArray_NDIM(src);
    if (nd < 1 || nd != PyArray_NDIM(dst) || !PyArray_CompareLists(PyArray_DIMS(src), PyArray_DIMS(dst), nd) ||
        !PyArray_EquivTypes(PyArray_DESCR(src), PyArray_DESCR(dst)) || !usable(src, 0) || !usable(dst, 1))
        return PyErr_Format(PyExc_ValueError,
                            "_sort_numpy_runs: src and dst must be C-contiguous, aligned native arrays of one shape "
                            "and dtype, dst writable");
    const char *s0 = PyArray_BYTES(src), *d0 = PyArray_BYTES(dst);
    if (PyArray_NBYTES(src) > 0 && s0 < d0 + PyArray_NBYTES(dst) && d0 < s0 + PyArray_NBYTES(src))
        return PyErr_Format(PyExc_ValueError, "_sort_numpy_runs: src and dst must not overlap");
    dt_dtype dtype;
    if (dt_py_dtype_from_descr(PyArray_DESCR(src), &dtype) != 0) {
        PyErr_Clear();
        Py_RETURN_FALSE;
    }
    numpy_sort s = {PyDataType_GetArrFuncs(PyArray_DESCR(src))->sort[NPY_QUICKSORT], src};
    if (s.fn == NULL || !dt_cpu_sort_runs_supports(dtype))
        Py_RETURN_FALSE;
    npy_intp n = PyArray_DIM(src, nd - 1), size = PyArray_SIZE(src);
    if (size == 0)
        Py_RETURN_TRUE;
    dt_error err;
    dt_status st;
    Py_BEGIN_ALLOW_THREADS
    st = dt_cpu_sort_runs(dtype, PyArray_DATA(src), PyArray_DATA(dst), size / n, n, call_numpy_sort, &s, &err);
    Py_END_ALLOW_THREADS
    if (st != DT_OK)
        return dt_py_raise(&err);
    Py_RETURN_TRUE;
}

PyMethodDef dt_py_sort_runs_methods[] = {
    {"_sort_numpy_runs", (PyCFunction)(void (*)(void))sort_numpy_runs, METH_FASTCALL,
     "_sort_numpy_runs(src, dst) -> bool: NumPy's unstable sort of src's rows into dst, across the CPU threads"},
    {NULL, NULL, 0, NULL},
};
