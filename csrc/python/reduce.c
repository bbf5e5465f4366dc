/* reduce.c - devtensor._C._reduce, the wrapper of the core's dt_reduce
 * (csrc/core/reduce.h), the wrappers _scan, _search and _sort beside it,
 * and _C.REDUCE_OPS, the ops' names in the order of their numbers.
 * devtensor._reductions turns NumPy's arguments (axis, keepdims, dtype,
 * out, initial, where) into its form.
 */
#include "pydt.h"

#include "reduce.h"
#include "search.h"
#include "sort.h"

#include <string.h>

/* Note [The GIL in reductions]: a small reduction costs less than
 * releasing and taking back the GIL, so only big ones release it. */
#define RELEASE_FROM 32768

/* _reduce(op, src, axes, out): out = op over src's axes (a tuple of
 * distinct non-negative ints); out preallocated as dt_reduce says. */
static PyObject *reduce(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4)
        return PyErr_Format(PyExc_TypeError, "_reduce takes 4 arguments (%zd given)", nargs);
    long op = PyLong_AsLong(args[0]);
    if (op == -1 && PyErr_Occurred())
        return NULL;
    if (op < 0 || op >= DT_NUM_REDUCE_OPS)
        return PyErr_Format(PyExc_ValueError, "_reduce: unknown op %ld", op);
    if (!DtTensor_Check(args[1]) || !DtTensor_Check(args[3]))
        return PyErr_Format(PyExc_TypeError, "_reduce: src and out must be tensors");
    if (!PyTuple_Check(args[2]))
        return PyErr_Format(PyExc_TypeError, "_reduce: axes must be a tuple");
    const dt_tensor *src = &((PyDtTensor *)args[1])->t;
    dt_tensor *out = &((PyDtTensor *)args[3])->t;
    uint64_t axes = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args[2]); i++) {
        long d = PyLong_AsLong(PyTuple_GET_ITEM(args[2], i));
        if (d == -1 && PyErr_Occurred())
            return NULL;
        if (d < 0 || d >= src->ndim || ((axes >> d) & 1))
            return PyErr_Format(PyExc_ValueError, "_reduce: axis %ld is out of range or repeated", d);
        axes |= (uint64_t)1 << d;
    }
    dt_error err;
    dt_status st;
    DT_PY_TENSOR_WORK(src->numel >= RELEASE_FROM, st = dt_reduce((dt_reduce_op)op, src, axes, out, &err));
    if (st != DT_OK)
        return dt_py_raise(&err);
    Py_RETURN_NONE;
}

/* axis (None, an int or a tuple of ints) as a bit mask over ndim axes: 1;
 * 0 if it is anything else, out of range or repeated (Python then raises
 * NumPy's error). */
static int axes_of(PyObject *axis, int ndim, uint64_t *axes)
{
    *axes = 0;
    if (axis == Py_None) {
        for (int d = 0; d < ndim; d++)
            *axes |= (uint64_t)1 << d;
        return 1;
    }
    Py_ssize_t n = PyTuple_CheckExact(axis) ? PyTuple_GET_SIZE(axis) : 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PyTuple_CheckExact(axis) ? PyTuple_GET_ITEM(axis, i) : axis;
        if (!PyLong_CheckExact(a))
            return 0;
        long d = PyLong_AsLong(a);
        if (d == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        if (d < 0)
            d += ndim;
        if (d < 0 || d >= ndim || ((*axes >> d) & 1))
            return 0;
        *axes |= (uint64_t)1 << d;
    }
    return 1;
}

/* A new tensor: op over the axes of src set in `axes`, in NumPy's result
 * dtype, those axes kept as length one when keepdims. */
static PyObject *reduce_new(dt_reduce_op op, const dt_tensor *src, uint64_t axes, int keepdims)
{
    int64_t shape[DT_MAX_NDIM];
    int ndim = 0;
    for (int d = 0; d < src->ndim; d++)
        if (!((axes >> d) & 1))
            shape[ndim++] = src->shape[d];
    dt_error err;
    dt_tensor out;
    dt_tensor_init_empty(&out);
    dt_status st = dt_tensor_init_new(&out, dt_tensor_device(src), dt_reduce_result_dtype(op, src->dtype), ndim, shape,
                                      &err);
    if (st == DT_OK)
        DT_PY_TENSOR_WORK(src->numel >= RELEASE_FROM, st = dt_reduce(op, src, axes, &out, &err));
    if (st != DT_OK) {
        dt_tensor_clear(&out);
        return dt_py_raise(&err);
    }
    PyObject *r = dt_py_tensor_wrap(&out);
    if (r == NULL || !keepdims)
        return r;
    /* the same values seen with the reduced axes as length one (contiguous) */
    int64_t kept[DT_MAX_NDIM], strides[DT_MAX_NDIM], nbytes;
    for (int d = 0; d < src->ndim; d++)
        kept[d] = (axes >> d) & 1 ? 1 : src->shape[d];
    PyDtTensor *rt = (PyDtTensor *)r;
    PyObject *v = NULL;
    if (dt_contiguous_strides(src->ndim, kept, dt_tensor_itemsize(&rt->t), strides, &nbytes, &err) != DT_OK)
        dt_py_raise(&err);
    else
        v = dt_py_tensor_view(rt, src->ndim, kept, strides, rt->t.offset);
    Py_DECREF(r);
    return v;
}

/* The tensor and reduced axes of a fast call's (src, axis[, keepdims])
 * starting at args[0]: 1, or 0 when Python must look at the arguments (src
 * not a tensor, axis not plainly valid, keepdims not a bool). */
static int fast_arguments(PyObject *const *args, Py_ssize_t nargs, int one_axis, const dt_tensor **src,
                          uint64_t *axes, int *keepdims)
{
    if ((nargs == 3 && !PyBool_Check(args[2])) || !DtTensor_Check(args[0]))
        return 0;
    *keepdims = nargs == 3 && args[2] == Py_True;
    *src = &((PyDtTensor *)args[0])->t;
    return !(one_axis && PyTuple_Check(args[1])) && axes_of(args[1], (*src)->ndim, axes);
}

/* _reduce_fast(op, src, axis, keepdims=False): a new tensor, op over axis in
 * NumPy's result dtype, the reduced axes kept as length one when keepdims
 * is True (no dtype, out, initial or where: devtensor._reductions takes
 * those), or None when axis is not plainly valid or keepdims not a bool,
 * and Python must look at them (and raise NumPy's error). */
static PyObject *reduce_fast(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3 && nargs != 4)
        return PyErr_Format(PyExc_TypeError, "_reduce_fast takes 3 or 4 arguments (%zd given)", nargs);
    long op = PyLong_AsLong(args[0]);
    if (op == -1 && PyErr_Occurred())
        return NULL;
    if (op < 0 || op >= DT_NUM_REDUCE_OPS)
        return PyErr_Format(PyExc_ValueError, "_reduce_fast: unknown op %ld", op);
    const dt_tensor *src;
    uint64_t axes;
    int keepdims; /* argmin/argmax take one axis, as NumPy's */
    if (!fast_arguments(args + 1, nargs - 1, op == DT_REDUCE_ARGMIN || op == DT_REDUCE_ARGMAX, &src, &axes,
                        &keepdims))
        Py_RETURN_NONE;
    return reduce_new((dt_reduce_op)op, src, axes, keepdims);
}

/* _count_nonzero_fast(src, axis, keepdims=False): count_nonzero's per-call
 * path, or None as _reduce_fast.  Note [count_nonzero as a cast and a sum]:
 * casting to bool is NumPy's test of non-zero (NaN is non-zero, -0.0 is
 * not, a complex is when either part is), so the count is the int64 sum
 * of src cast to bool: two kernels and no Python in between. */
/* Non-zero elements among n contiguous ones of dtype d in host memory, by
 * their bits: any bit but a float's sign bit set (so NaN counts and -0.0
 * does not, as a cast to bool has it; a complex counts when either part
 * does).  count_nonzero of a few CPU elements over every axis takes this
 * instead of the cast and the sum (a tenth of their cost). */
/* whether the value of `bytes` bytes at q (an integer, or a float without
 * its sign bit) is not zero */
static int bits_nonzero(const char *q, int64_t bytes, int floating)
{
    uint64_t v = 0, sign = floating ? (uint64_t)1 << (8 * bytes - 1) : 0;
    memcpy(&v, q, (size_t)bytes); /* little-endian: the value's low bytes */
    return (v & ~sign) != 0;
}

static int64_t count_nonzero_host(const char *p, int64_t n, dt_dtype d)
{
    const int64_t item = dt_dtype_get_info(d)->itemsize;
    const int complex_ = dt_dtype_is_complex(d), floating = complex_ || dt_dtype_is_floating(d);
    const int64_t part = complex_ ? item / 2 : item;
    int64_t count = 0;
    for (int64_t i = 0; i < n; i++)
        count += bits_nonzero(p + i * item, part, floating) || (complex_ && bits_nonzero(p + i * item + part, part, 1));
    return count;
}

static PyObject *count_nonzero_fast(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 && nargs != 3)
        return PyErr_Format(PyExc_TypeError, "_count_nonzero_fast takes 2 or 3 arguments (%zd given)", nargs);
    const dt_tensor *src;
    uint64_t axes;
    int keepdims;
    if (!fast_arguments(args, nargs, 0, &src, &axes, &keepdims))
        Py_RETURN_NONE;
    if (axes == (src->ndim ? ~(uint64_t)0 >> (64 - src->ndim) : 0) && dt_tensor_is_contiguous(src) &&
        dt_py_small_cpu_work(src, src->numel)) {
        int64_t ones[DT_MAX_NDIM], count = count_nonzero_host(dt_tensor_data(src), src->numel, src->dtype);
        for (int d = 0; d < src->ndim; d++)
            ones[d] = 1;
        dt_tensor out;
        dt_error err;
        if (dt_tensor_init_new(&out, dt_tensor_device(src), DT_INT64, keepdims ? src->ndim : 0, ones, &err) != DT_OK)
            return dt_py_raise(&err);
        memcpy(dt_tensor_data(&out), &count, sizeof count);
        return dt_py_tensor_wrap(&out);
    }
    if (src->dtype == DT_BOOL)
        return reduce_new(DT_REDUCE_SUM, src, axes, keepdims);
    dt_tensor nonzero;
    dt_error err;
    if (dt_py_same_device_copy(src, DT_BOOL, &nonzero, &err) != DT_OK)
        return dt_py_raise(&err);
    PyObject *r = reduce_new(DT_REDUCE_SUM, &nonzero, axes, keepdims);
    dt_tensor_clear(&nonzero);
    return r;
}

/* _scan(op, src, axis, out): out = the running op of src along axis (a
 * non-negative int); out preallocated as dt_scan says. */
static PyObject *scan(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4)
        return PyErr_Format(PyExc_TypeError, "_scan takes 4 arguments (%zd given)", nargs);
    long op = PyLong_AsLong(args[0]), axis = op == -1 && PyErr_Occurred() ? -1 : PyLong_AsLong(args[2]);
    if (PyErr_Occurred())
        return NULL;
    if (!DtTensor_Check(args[1]) || !DtTensor_Check(args[3]))
        return PyErr_Format(PyExc_TypeError, "_scan: src and out must be tensors");
    if (op < 0 || op >= DT_NUM_REDUCE_OPS || axis < 0 || axis >= DT_MAX_NDIM)
        return PyErr_Format(PyExc_ValueError, "_scan: bad op %ld or axis %ld", op, axis);
    const dt_tensor *src = &((PyDtTensor *)args[1])->t;
    dt_tensor *out = &((PyDtTensor *)args[3])->t;
    dt_error err;
    dt_status st;
    DT_PY_TENSOR_WORK(src->numel >= RELEASE_FROM, st = dt_scan((dt_reduce_op)op, src, (int)axis, out, &err));
    if (st != DT_OK)
        return dt_py_raise(&err);
    Py_RETURN_NONE;
}

/* _scan_fast(op, src, axis): a new tensor, the running op of src along
 * axis (an int, negative counting from the end; None for a tensor of at
 * most one dimension) in NumPy's result dtype, or None when Python must
 * handle the arguments (another axis form, a flattening, a 0-d src) and
 * raise NumPy's errors: the per-call path of cumsum, cumprod and
 * add/multiply/minimum/maximum.accumulate. */
static PyObject *scan_fast(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3)
        return PyErr_Format(PyExc_TypeError, "_scan_fast takes 3 arguments (%zd given)", nargs);
    long op = PyLong_AsLong(args[0]);
    if (op == -1 && PyErr_Occurred())
        return NULL;
    if (op != DT_REDUCE_SUM && op != DT_REDUCE_PROD && op != DT_REDUCE_MIN && op != DT_REDUCE_MAX)
        return PyErr_Format(PyExc_ValueError, "_scan_fast: op %ld is not a sum, product, minimum or maximum", op);
    if (!DtTensor_Check(args[1]))
        Py_RETURN_NONE;
    const dt_tensor *src = &((PyDtTensor *)args[1])->t;
    long axis = 0;
    if (src->ndim == 0 || (args[2] == Py_None && src->ndim > 1))
        Py_RETURN_NONE;
    if (args[2] != Py_None) {
        if (!PyLong_CheckExact(args[2]))
            Py_RETURN_NONE;
        axis = PyLong_AsLong(args[2]);
        if (axis == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
        if (axis < 0)
            axis += src->ndim;
        if (axis < 0 || axis >= src->ndim)
            Py_RETURN_NONE;
    }
    dt_error err;
    dt_tensor out;
    dt_tensor_init_empty(&out);
    int perm[DT_MAX_NDIM]; /* NumPy's accumulate lays its result out as src (order='K') */
    dt_tensor_k_order(src, perm);
    dt_status st = dt_tensor_init_new_ordered(&out, dt_tensor_device(src),
                                              dt_reduce_result_dtype((dt_reduce_op)op, src->dtype),
                                              src->ndim, src->shape, perm, &err);
    if (st == DT_OK)
        DT_PY_TENSOR_WORK(src->numel >= RELEASE_FROM,
                          st = dt_scan((dt_reduce_op)op, src, (int)axis, &out, &err));
    if (st != DT_OK) {
        dt_tensor_clear(&out);
        return dt_py_raise(&err);
    }
    return dt_py_tensor_wrap(&out);
}

/* _search(sorted, values, right, out): out = dt_search's positions */
static PyObject *search(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4)
        return PyErr_Format(PyExc_TypeError, "_search takes 4 arguments (%zd given)", nargs);
    if (!DtTensor_Check(args[0]) || !DtTensor_Check(args[1]) || !DtTensor_Check(args[3]))
        return PyErr_Format(PyExc_TypeError, "_search: sorted, values and out must be tensors");
    int right = PyObject_IsTrue(args[2]);
    if (right < 0)
        return NULL;
    const dt_tensor *sorted = &((PyDtTensor *)args[0])->t, *values = &((PyDtTensor *)args[1])->t;
    dt_tensor *out = &((PyDtTensor *)args[3])->t;
    dt_error err;
    dt_status st;
    DT_PY_TENSOR_WORK(!dt_py_small_cpu_work(sorted, sorted->numel) || !dt_py_small_cpu_work(values, values->numel),
                      st = dt_search(sorted, values, right, out, &err));
    if (st != DT_OK)
        return dt_py_raise(&err);
    Py_RETURN_NONE;
}

/* _search_fast(a, v, right): searchsorted's per-call path: a new int64
 * tensor of v's shape, where v's values go in the 1-d a, for v a tensor of
 * a's dtype and device, or a Python float (a float64) or int (an int64 a)
 * as a 0-d tensor; None for everything else (Python converts, promotes
 * and raises NumPy's errors). */
static PyObject *search_fast(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3)
        return PyErr_Format(PyExc_TypeError, "_search_fast takes 3 arguments (%zd given)", nargs);
    if (!DtTensor_Check(args[0]) || !PyBool_Check(args[2]))
        Py_RETURN_NONE;
    const dt_tensor *sorted = &((PyDtTensor *)args[0])->t;
    if (sorted->ndim != 1)
        Py_RETURN_NONE;
    PyObject *v = args[1], *scalar = NULL;
    if (DtTensor_Check(v)) {
        const dt_tensor *vt = &((PyDtTensor *)v)->t;
        if (vt->dtype != sorted->dtype || !dt_device_equal(dt_tensor_device(vt), dt_tensor_device(sorted)))
            Py_RETURN_NONE;
    } else if ((PyFloat_CheckExact(v) && sorted->dtype == DT_FLOAT64) ||
               (PyLong_CheckExact(v) && sorted->dtype == DT_INT64)) {
        if (PyLong_CheckExact(v)) {
            int overflow = 0;
            long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
            if (overflow || (x == -1 && PyErr_Occurred())) {
                PyErr_Clear();
                Py_RETURN_NONE;
            }
        }
        dt_error err;
        dt_tensor t;
        int64_t no_dims[1] = {0}; /* a 0-d shape, never NULL (the core copies it with memcpy) */
        if (dt_tensor_init_new(&t, dt_tensor_device(sorted), sorted->dtype, 0, no_dims, &err) != DT_OK)
            return dt_py_raise(&err);
        scalar = dt_py_tensor_wrap(&t);
        if (scalar == NULL || dt_py_tensor_fill((PyDtTensor *)scalar, v) < 0) {
            Py_XDECREF(scalar);
            return NULL;
        }
        v = scalar;
    } else {
        Py_RETURN_NONE;
    }
    const dt_tensor *values = &((PyDtTensor *)v)->t;
    dt_error err;
    dt_tensor out;
    dt_tensor_init_empty(&out);
    dt_status st = dt_tensor_init_new(&out, dt_tensor_device(sorted), DT_INT64, values->ndim, values->shape,
                                      &err);
    if (st == DT_OK)
        DT_PY_TENSOR_WORK(sorted->numel + values->numel >= RELEASE_FROM,
                          st = dt_search(sorted, values, args[2] == Py_True, &out, &err));
    Py_XDECREF(scalar);
    if (st != DT_OK) {
        dt_tensor_clear(&out);
        return dt_py_raise(&err);
    }
    return dt_py_tensor_wrap(&out);
}

/* _sort(src, descending, arg, out): out = dt_sort's values or positions */
static PyObject *sort(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4)
        return PyErr_Format(PyExc_TypeError, "_sort takes 4 arguments (%zd given)", nargs);
    if (!DtTensor_Check(args[0]) || !DtTensor_Check(args[3]))
        return PyErr_Format(PyExc_TypeError, "_sort: src and out must be tensors");
    int descending = PyObject_IsTrue(args[1]);
    if (descending < 0)
        return NULL;
    int arg = PyObject_IsTrue(args[2]); /* only now: no Python code runs with an exception set */
    if (arg < 0)
        return NULL;
    const dt_tensor *src = &((PyDtTensor *)args[0])->t;
    dt_tensor *out = &((PyDtTensor *)args[3])->t;
    dt_error err;
    dt_status st;
    DT_PY_TENSOR_WORK(src->numel >= RELEASE_FROM, st = dt_sort(src, descending, arg, out, &err));
    if (st != DT_OK)
        return dt_py_raise(&err);
    Py_RETURN_NONE;
}

/* The per-call path of sort and argsort below this many elements; bigger
 * CPU sorts go to devtensor._sorting, which spreads NumPy's sort over
 * threads from its _THREADED_SORT_MIN (the same number). */
#define SORT_FAST_MAX (1 << 16)

/* whether the core's sort beats NumPy's for an unstable CPU values sort
 * of rows of `row` elements (_radix_first in devtensor/_sorting.py, which
 * says why, asks the same): bfloat16 (NumPy has none), 1-byte dtypes from
 * 256 elements, float16 from 2^15 */
static int core_sort_first(dt_dtype dtype, int64_t row)
{
    return dtype == DT_BFLOAT16 || (dt_dtype_get_info(dtype)->itemsize == 1 && row >= 256) ||
           (dtype == DT_FLOAT16 && row >= (1 << 15));
}

/* _sort_fast(a, axis, arg, stable, descending): sort's (argsort's, arg
 * True) per-call path for a tensor of at least one dimension sorted along
 * any axis (an int), stable None or a bool, descending a bool: a new
 * C-ordered tensor, or None for devtensor._sorting to take the call.  As
 * there (Note [Sorting through the backend] in devtensor/_sorting.py): an
 * unstable ascending values sort on the CPU is NumPy's, in place on our
 * contiguous copy, but where core_sort_first; everything else is the
 * core's stable dt_sort. */
static PyObject *sort_fast(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 5)
        return PyErr_Format(PyExc_TypeError, "_sort_fast takes 5 arguments (%zd given)", nargs);
    if (!DtTensor_Check(args[0]) || !PyLong_CheckExact(args[1]) || !PyBool_Check(args[2]) ||
        !(args[3] == Py_None || PyBool_Check(args[3])) || !PyBool_Check(args[4]))
        Py_RETURN_NONE;
    PyDtTensor *self = (PyDtTensor *)args[0];
    const dt_tensor *src = &self->t;
    long axis = PyLong_AsLong(args[1]);
    if (axis == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    if (src->ndim == 0 || src->numel >= SORT_FAST_MAX)
        Py_RETURN_NONE;
    const int arg = args[2] == Py_True, descending = args[4] == Py_True;
    const int nd = src->ndim;
    if (axis < -nd || axis >= nd)
        Py_RETURN_NONE; /* _sorting raises NumPy's AxisError */
    const int ax = (int)(axis < 0 ? axis + nd : axis);
    dt_error err;
    dt_tensor out;
    if (!arg && !descending && args[3] != Py_True && dt_tensor_device(src).type == DT_DEVICE_CPU &&
        !core_sort_first(src->dtype, src->shape[ax])) {
        if (nd > 1 && !dt_tensor_is_contiguous(src))
            Py_RETURN_NONE; /* NumPy's sort keeps a Fortran (any) layout: _sorting's np.sort */
        if (dt_py_same_device_copy(src, src->dtype, &out, &err) != DT_OK)
            return dt_py_raise(&err);
        PyObject *r = dt_py_tensor_wrap(&out);
        PyObject *view = r == NULL ? NULL : dt_py_tensor_to_ndarray((PyDtTensor *)r);
        if (view == NULL || PyArray_Sort((PyArrayObject *)view, ax, NPY_QUICKSORT) < 0)
            Py_CLEAR(r);
        Py_XDECREF(view);
        return r;
    }
    /* the core sorts along the last axis: another one is moved there in a
     * view, and the sorted result moved back and copied to C order */
    dt_tensor moved, sorted, back;
    dt_tensor_init_empty(&moved);
    dt_tensor_init_empty(&sorted);
    dt_tensor_init_empty(&back);
    dt_tensor_init_empty(&out);
    int64_t shape[DT_MAX_NDIM], strides[DT_MAX_NDIM];
    for (int d = 0, k = 0; d < nd; d++)
        if (d != ax)
            shape[k] = src->shape[d], strides[k++] = src->strides[d];
    shape[nd - 1] = src->shape[ax], strides[nd - 1] = src->strides[ax];
    dt_status st = ax == nd - 1 ? DT_OK
                 : dt_tensor_init_view(&moved, src->storage, src->offset, nd, shape, strides, src->dtype, &err);
    const dt_tensor *in = ax == nd - 1 ? src : &moved;
    dt_tensor *result = ax == nd - 1 ? &out : &sorted;
    if (st == DT_OK)
        st = dt_tensor_init_new(result, dt_tensor_device(src), arg ? DT_INT64 : src->dtype, nd, in->shape,
                                &err);
    if (st == DT_OK)
        DT_PY_TENSOR_WORK(!dt_py_small_cpu_work(src, src->numel), st = dt_sort(in, descending, arg, result, &err));
    if (st == DT_OK && ax != nd - 1) {
        for (int d = 0, k = 0; d < nd; d++)
            shape[d] = src->shape[d], strides[d] = d == ax ? sorted.strides[nd - 1] : sorted.strides[k++];
        st = dt_tensor_init_view(&back, sorted.storage, sorted.offset, nd, shape, strides, sorted.dtype, &err);
        if (st == DT_OK)
            st = dt_py_same_device_copy(&back, back.dtype, &out, &err);
    }
    dt_tensor_clear(&moved);
    dt_tensor_clear(&sorted);
    dt_tensor_clear(&back);
    if (st != DT_OK) {
        dt_tensor_clear(&out);
        return dt_py_raise(&err);
    }
    return dt_py_tensor_wrap(&out);
}

/* Note [Reduction methods in C]
 * t.sum(), t.max(axis=0), t.argmax() and their kin are called in every
 * loop; as Python methods they paid a frame (~100 ns) before reaching
 * _reduce_fast, and t.argmax() of 16 elements took twice NumPy's time.
 * These C methods answer the plain forms -- axis (None, an int or a tuple
 * of ints; one int for argmin/argmax) positional or by keyword, and
 * keepdims=True/False (not for argmin/argmax) -- and hand every other call,
 * unchanged, to devtensor._reductions' function of the same name, which
 * has NumPy's signature, rules and errors. */
static PyObject *reduce_method(PyObject *self, dt_reduce_op op, const char *name, PyObject **fallback,
                               PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    int arg_op = op == DT_REDUCE_ARGMIN || op == DT_REDUCE_ARGMAX, keepdims = 0, fast = nargs <= 1;
    PyObject *axis = nargs == 1 ? args[0] : Py_None;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw && fast; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k), *value = args[nargs + k];
        if (nargs == 0 && PyUnicode_CompareWithASCIIString(key, "axis") == 0)
            axis = value;
        else if (!arg_op && PyBool_Check(value) && PyUnicode_CompareWithASCIIString(key, "keepdims") == 0)
            keepdims = value == Py_True;
        else
            fast = 0;
    }
    const dt_tensor *src = &((PyDtTensor *)self)->t;
    uint64_t axes;
    if (fast && !(arg_op && PyTuple_Check(axis)) && axes_of(axis, src->ndim, &axes))
        return reduce_new(op, src, axes, keepdims);
    PyObject *f = dt_py_lazy_function("devtensor._reductions", name, fallback);
    if (f == NULL)
        return NULL;
    Py_ssize_t n = nargs + nkw;
    PyObject *small[16], **stack = n + 1 <= 16 ? small : PyMem_Malloc((size_t)(n + 1) * sizeof(PyObject *));
    if (stack == NULL)
        return PyErr_NoMemory();
    stack[0] = self;
    memcpy(stack + 1, args, (size_t)n * sizeof(PyObject *));
    PyObject *r = PyObject_Vectorcall(f, stack, (size_t)(nargs + 1), kwnames);
    if (stack != small)
        PyMem_Free(stack);
    return r;
}

#define DT_REDUCE_METHOD(NAME, OP)                                                                \
    static PyObject *method_##NAME(PyObject *self, PyObject *const *args, Py_ssize_t nargs,      \
                                   PyObject *kwnames)                                            \
    {                                                                                            \
        static PyObject *fallback;                                                               \
        return reduce_method(self, OP, #NAME, &fallback, args, nargs, kwnames);                  \
    }
DT_REDUCE_METHOD(sum, DT_REDUCE_SUM)
DT_REDUCE_METHOD(prod, DT_REDUCE_PROD)
DT_REDUCE_METHOD(min, DT_REDUCE_MIN)
DT_REDUCE_METHOD(max, DT_REDUCE_MAX)
DT_REDUCE_METHOD(argmin, DT_REDUCE_ARGMIN)
DT_REDUCE_METHOD(argmax, DT_REDUCE_ARGMAX)
DT_REDUCE_METHOD(any, DT_REDUCE_ANY)
DT_REDUCE_METHOD(all, DT_REDUCE_ALL)
#undef DT_REDUCE_METHOD

#define DT_METHOD_FLAGS METH_FASTCALL | METH_KEYWORDS
static PyMethodDef tensor_reduce_methods[] = {
    {"sum", (PyCFunction)(void (*)(void))method_sum, DT_METHOD_FLAGS,
     "sum($self, /, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True)\n--\n\nNumPy's sum"},
    {"prod", (PyCFunction)(void (*)(void))method_prod, DT_METHOD_FLAGS,
     "prod($self, /, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True)\n--\n\nNumPy's prod"},
    {"min", (PyCFunction)(void (*)(void))method_min, DT_METHOD_FLAGS,
     "min($self, /, axis=None, out=None, keepdims=False, initial=None, where=True)\n--\n\nNumPy's min"},
    {"max", (PyCFunction)(void (*)(void))method_max, DT_METHOD_FLAGS,
     "max($self, /, axis=None, out=None, keepdims=False, initial=None, where=True)\n--\n\nNumPy's max"},
    {"argmin", (PyCFunction)(void (*)(void))method_argmin, DT_METHOD_FLAGS,
     "argmin($self, /, axis=None, out=None, *, keepdims=False)\n--\n\nNumPy's argmin"},
    {"argmax", (PyCFunction)(void (*)(void))method_argmax, DT_METHOD_FLAGS,
     "argmax($self, /, axis=None, out=None, *, keepdims=False)\n--\n\nNumPy's argmax"},
    {"any", (PyCFunction)(void (*)(void))method_any, DT_METHOD_FLAGS,
     "any($self, /, axis=None, out=None, keepdims=False, *, where=True)\n--\n\nNumPy's any"},
    {"all", (PyCFunction)(void (*)(void))method_all, DT_METHOD_FLAGS,
     "all($self, /, axis=None, out=None, keepdims=False, *, where=True)\n--\n\nNumPy's all"},
    {NULL, NULL, 0, NULL},
};
#undef DT_METHOD_FLAGS

/* The methods above, on TensorBase (Note [Reduction methods in C]). */
static int add_tensor_methods(void)
{
    PyObject *dict = dt_py_tensor_base_type.tp_dict;
    for (PyMethodDef *d = tensor_reduce_methods; d->ml_name != NULL; d++) {
        PyObject *descr = PyDescr_NewMethod(&dt_py_tensor_base_type, d);
        int r = descr == NULL ? -1 : PyDict_SetItemString(dict, d->ml_name, descr);
        Py_XDECREF(descr);
        if (r < 0)
            return -1;
    }
    PyType_Modified(&dt_py_tensor_base_type);
    return 0;
}

PyMethodDef dt_py_reduce_methods[] = {
    {"_sort_fast", (PyCFunction)(void (*)(void))sort_fast, METH_FASTCALL,
     "_sort_fast(a, axis, arg, stable, descending): a new tensor, or None for Python to take the call"},
    {"_sort", (PyCFunction)(void (*)(void))sort, METH_FASTCALL,
     "_sort(src, descending, arg, out): src sorted stably along its last axis (csrc/core/sort.h)"},
    {"_search_fast", (PyCFunction)(void (*)(void))search_fast, METH_FASTCALL,
     "_search_fast(a, v, right): searchsorted's positions, or None for Python to handle the arguments"},
    {"_search", (PyCFunction)(void (*)(void))search, METH_FASTCALL,
     "_search(sorted, values, right, out): where values go in the sorted 1-d tensor (csrc/core/search.h)"},
    {"_scan", (PyCFunction)(void (*)(void))scan, METH_FASTCALL,
     "_scan(op, src, axis, out): out = the running sum, product, minimum or maximum of src along axis"},
    {"_scan_fast", (PyCFunction)(void (*)(void))scan_fast, METH_FASTCALL,
     "_scan_fast(op, src, axis): a new tensor, or None for Python to handle the arguments"},
    {"_count_nonzero_fast", (PyCFunction)(void (*)(void))count_nonzero_fast, METH_FASTCALL,
     "_count_nonzero_fast(src, axis, keepdims=False): a new int64 tensor, or None for Python to handle the "
     "arguments"},
    {"_reduce_fast", (PyCFunction)(void (*)(void))reduce_fast, METH_FASTCALL,
     "_reduce_fast(op, src, axis, keepdims=False): a new tensor, or None for Python to handle the "
     "arguments"},
    {"_reduce", (PyCFunction)(void (*)(void))reduce, METH_FASTCALL,
     "_reduce(op, src, axes, out): out = op over src's axes (csrc/core/reduce.h)"},
    {NULL, NULL, 0, NULL},
};

/* _C.REDUCE_OPS: ("sum", "prod", ...), lower-case, in dt_reduce_op order */
int dt_py_reduce_init(PyObject *module)
{
    static const char *const names[] = {
#define DT_REDUCE_ID_(ID, NAME) #ID,
        DT_REDUCE_LIST(DT_REDUCE_ID_)
#undef DT_REDUCE_ID_
    };
    PyObject *t = PyTuple_New(DT_NUM_REDUCE_OPS);
    if (t == NULL)
        return -1;
    for (int i = 0; i < DT_NUM_REDUCE_OPS; i++) {
        char low[16];
        size_t n = strlen(names[i]);
        for (size_t k = 0; k <= n && k < sizeof low; k++)
            low[k] = (char)(names[i][k] >= 'A' && names[i][k] <= 'Z' ? names[i][k] - 'A' + 'a' : names[i][k]);
        low[sizeof low - 1] = '\0';
        PyObject *s = PyUnicode_FromString(low);
        if (s == NULL) {
            Py_DECREF(t);
            return -1;
        }
        PyTuple_SET_ITEM(t, i, s);
    }
    int r = PyModule_AddObjectRef(module, "REDUCE_OPS", t);
    Py_DECREF(t);
    return r < 0 ? r : add_tensor_methods();
}
