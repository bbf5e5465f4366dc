/* tensor_type.c - devtensor._C.TensorBase: the C half of devtensor.Tensor.
 *
 * The object embeds a core dt_tensor.  Attributes, views, movement and the
 * fills that factories use live here; the Python subclass devtensor.Tensor
 * (devtensor/_tensor.py) adds the argument-rich methods (to, cuda, numpy,
 * printing).  Operators are in number.c.
 */
#include "pydt.h"

#include <string.h>

PyTypeObject *dt_py_tensor_exact_type = &dt_py_tensor_base_type; /* devtensor.Tensor once made */
#define tensor_class dt_py_tensor_exact_type

PyTypeObject *dt_py_tensor_class(void) { return tensor_class; }

/* Note [Tensor free list]
 * Most calls make a tensor and most tensors die young, so the memory of up
 * to DT_TENSOR_FREE_MAX dead devtensor.Tensor objects (exactly that type,
 * not subclasses) is kept and reused, as CPython does for floats: a view
 * such as t[3] then costs no allocator call.  The list is only touched
 * with the GIL held (wrapping and deallocation are Python object work). */
#define DT_TENSOR_FREE_MAX 16
static PyDtTensor *free_list[DT_TENSOR_FREE_MAX];
static int n_free;

/* Note [A view's base]
 * NumPy's a.base: the array whose memory a view shares (v = a[1:], then
 * v.base is a, and so is v[1:].base: never a chain), None for an array
 * that owns its memory.  The first devtensor.Tensor made over a storage
 * owns it (storage->wrapper, a borrowed pointer cleared when that tensor
 * dies); every later tensor made over the storage holds a reference to the
 * owner as its base, so the owner lives as long as its views, as in NumPy.
 *   - An owner is an exact devtensor.Tensor made by dt_py_tensor_wrap: its
 *     base is NULL for life (only subclasses' data can be replaced), so
 *     bases never form a chain or a cycle, which matters because exact
 *     tensors are not garbage-collected (Note [Tensor is a C type]).
 *     Instances of subclasses (nn.Parameter) take a base, never own.
 *   - The first tensor over memory lent by another library (asarray of a
 *     NumPy array, DLPack) has base None, as torch.from_numpy's has; it
 *     owns the memory (flags.owndata) only when the lender is a NumPy
 *     array owning it that nothing else refers to: the CPU results that
 *     NumPy computes for us, not a user's array, nor frombuffer's bytes.
 *   - A copy (t[i, j], t.copy(), a move to another device) owns its memory,
 *     also one made in C order and permuted into another (Tensor._own).
 * The cost: a view takes one reference, and a dying owner one compare. */
static void take_base(PyDtTensor *self, int may_own)
{
    dt_storage *s = self->t.storage;
    if (s == NULL)
        return;
    if (s->wrapper == NULL) {
        if (may_own)
            s->wrapper = self;
    } else if (s->wrapper != self) {
        self->base = Py_NewRef((PyObject *)s->wrapper);
    }
}

void dt_py_tensor_take_base(PyDtTensor *self) { take_base(self, 0); }

PyObject *dt_py_tensor_drop_base(PyDtTensor *self)
{
    PyObject *base = self->base;
    self->base = NULL;
    if (self->t.storage != NULL && self->t.storage->wrapper == self)
        self->t.storage->wrapper = NULL;
    return base;
}

PyObject *dt_py_tensor_wrap(dt_tensor *t)
{
    PyDtTensor *self;
    if (n_free > 0 && tensor_class != &dt_py_tensor_base_type) {
        self = free_list[--n_free];
        PyObject_Init((PyObject *)self, tensor_class); /* type (a new reference), refcount 1 */
        self->weakreflist = NULL;
        self->base = NULL;
    } else {
        self = (PyDtTensor *)tensor_class->tp_alloc(tensor_class, 0);
        if (self == NULL) {
            dt_tensor_clear(t);
            return NULL;
        }
    }
    dt_tensor_move(&self->t, t);
    take_base(self, 1);
    return (PyObject *)self;
}

static void tensor_dealloc(PyDtTensor *self)
{
    if (self->weakreflist != NULL)
        PyObject_ClearWeakRefs((PyObject *)self);
    PyObject *base = dt_py_tensor_drop_base(self);
    dt_tensor_clear(&self->t);
    Py_TYPE(self)->tp_free((PyObject *)self);
    Py_XDECREF(base);
}

/* Tensors hash by identity, as PyTorch's do (so they can key dicts and
 * fill sets), although == compares elementwise. */
static Py_hash_t tensor_hash(PyObject *self)
{
    return PyBaseObject_Type.tp_hash(self);
}

static PyObject *tensor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    (void)type; (void)args; (void)kwargs;
    return PyErr_Format(PyExc_TypeError,
                        "TensorBase cannot be constructed directly; use devtensor.tensor() or "
                        "devtensor.asarray()");
}

/* ---- attributes ---- */

static PyObject *int64_tuple(int n, const int64_t *v)
{
    PyObject *tup = PyTuple_New(n);
    if (tup == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (x == NULL) {
            Py_DECREF(tup);
            return NULL;
        }
        PyTuple_SET_ITEM(tup, i, x);
    }
    return tup;
}

static PyObject *get_shape(PyDtTensor *self, void *c) { (void)c; return int64_tuple(self->t.ndim, self->t.shape); }
/* t.shape = ...: NumPy (before 2.5, which deprecates it) reshapes in place;
 * a tensor's geometry is fixed for its life (Note [Replacing a tensor's
 * data] in tensor_data.c), so the error says what to write instead. */
static int set_shape(PyDtTensor *self, PyObject *value, void *c)
{
    (void)self, (void)value, (void)c;
    PyErr_SetString(PyExc_AttributeError,
                    "a tensor's shape cannot be set in place (NumPy 2.5 deprecates setting arr.shape "
                    "too); use t = t.reshape(new_shape), a view whenever NumPy's would be one");
    return -1;
}
static PyObject *get_strides(PyDtTensor *self, void *c) { (void)c; return int64_tuple(self->t.ndim, self->t.strides); }
static PyObject *get_ndim(PyDtTensor *self, void *c) { (void)c; return PyLong_FromLong(self->t.ndim); }
/* t.size: the element count as devtensor._element_count.ElementCount,
 * which PyTorch code may call (Note [A size that can be called]).  The
 * object holds the shape, not the tensor, so one serves every tensor of
 * that shape: the last ones made are kept in a small table by shape, and
 * reading t.size of a shape seen before costs a compare (about 25 ns where
 * making the object costs 150). */
#define COUNT_CACHE 64
static struct {
    int ndim;
    int64_t dims[DT_MAX_NDIM];
    PyObject *count;
} count_cache[COUNT_CACHE];

static PyObject *get_size(PyDtTensor *self, void *c)
{
    (void)c;
    static PyObject *count_type, *shape_name;
    const dt_tensor *t = &self->t;
    uint64_t h = (uint64_t)t->ndim;
    for (int i = 0; i < t->ndim; i++)
        h = (h * 1000003u) ^ (uint64_t)t->shape[i];
    size_t slot = (size_t)(h % COUNT_CACHE);
    if (count_cache[slot].count != NULL && count_cache[slot].ndim == t->ndim &&
        memcmp(count_cache[slot].dims, t->shape, (size_t)t->ndim * sizeof(int64_t)) == 0)
        return Py_NewRef(count_cache[slot].count);
    if (dt_py_lazy_function("devtensor._element_count", "ElementCount", &count_type) == NULL)
        return NULL;
    if (shape_name == NULL && (shape_name = PyUnicode_InternFromString("_shape")) == NULL)
        return NULL;
    PyObject *n = PyLong_FromLongLong(t->numel);
    if (n == NULL)
        return NULL;
    PyObject *count = PyObject_CallOneArg(count_type, n), *shape = NULL;
    Py_DECREF(n);
    if (count == NULL || (shape = int64_tuple(t->ndim, t->shape)) == NULL ||
        PyObject_SetAttr(count, shape_name, shape) < 0) {
        Py_XDECREF(shape);
        Py_XDECREF(count);
        return NULL;
    }
    Py_DECREF(shape);
    count_cache[slot].ndim = t->ndim;
    memcpy(count_cache[slot].dims, t->shape, (size_t)t->ndim * sizeof(int64_t));
    Py_XSETREF(count_cache[slot].count, Py_NewRef(count));
    return count;
}
static PyObject *get_itemsize(PyDtTensor *self, void *c) { (void)c; return PyLong_FromLongLong(dt_tensor_itemsize(&self->t)); }
static PyObject *get_nbytes(PyDtTensor *self, void *c)
{
    (void)c;
    return PyLong_FromLongLong(self->t.numel * dt_tensor_itemsize(&self->t));
}
static PyObject *get_dtype(PyDtTensor *self, void *c) { (void)c; return Py_NewRef(dt_py_dtype_get(self->t.dtype)); }
static PyObject *get_device(PyDtTensor *self, void *c) { (void)c; return dt_py_device_new(dt_tensor_device(&self->t)); }
static PyObject *get_is_cuda(PyDtTensor *self, void *c)
{
    (void)c;
    return PyBool_FromLong(dt_tensor_device(&self->t).type == DT_DEVICE_CUDA);
}

/* A view of self with the given shape, byte strides and byte offset
 * (from the storage's start). */
PyObject *dt_py_tensor_view(PyDtTensor *self, int ndim, const int64_t *shape, const int64_t *strides,
                            int64_t offset)
{
    dt_tensor v;
    dt_error err;
    if (dt_tensor_init_view(&v, self->t.storage, offset, ndim, shape, strides, self->t.dtype,
                            &err) != DT_OK) {
        dt_tensor_clear(&v);
        return dt_py_raise(&err);
    }
    v.flags |= self->t.flags; /* a view of read-only memory is read-only */
    return dt_py_tensor_wrap(&v);
}

static PyObject *get_T(PyDtTensor *self, void *c)
{
    (void)c;
    int n = self->t.ndim;
    int64_t shape[DT_MAX_NDIM], strides[DT_MAX_NDIM];
    for (int i = 0; i < n; i++) {
        shape[i] = self->t.shape[n - 1 - i];
        strides[i] = self->t.strides[n - 1 - i];
    }
    return dt_py_tensor_view(self, n, shape, strides, self->t.offset);
}

/* mT: the last two axes swapped, a view (NumPy 2's ndarray.mT, PyTorch's
 * Tensor.mT); in C because nn.functional.linear takes it on every call. */
static PyObject *get_mT(PyDtTensor *self, void *c)
{
    (void)c;
    int n = self->t.ndim;
    if (n < 2)
        return PyErr_Format(PyExc_ValueError, "matrix transpose with ndim < 2 is undefined");
    int64_t shape[DT_MAX_NDIM], strides[DT_MAX_NDIM];
    memcpy(shape, self->t.shape, (size_t)n * sizeof(int64_t));
    memcpy(strides, self->t.strides, (size_t)n * sizeof(int64_t));
    shape[n - 2] = self->t.shape[n - 1];
    shape[n - 1] = self->t.shape[n - 2];
    strides[n - 2] = self->t.strides[n - 1];
    strides[n - 1] = self->t.strides[n - 2];
    return dt_py_tensor_view(self, n, shape, strides, self->t.offset);
}

/* _part_view(part): the real (0) or imaginary (1) part of a complex tensor
 * as a view of the real dtype, NumPy's x.real / x.imag. */
static PyObject *tensor_part_view(PyDtTensor *self, PyObject *arg)
{
    long part = PyLong_AsLong(arg);
    if (part == -1 && PyErr_Occurred())
        return NULL;
    dt_dtype d = self->t.dtype;
    if (!dt_dtype_is_complex(d) || (part != 0 && part != 1))
        return PyErr_Format(PyExc_ValueError, "_part_view needs a complex tensor and part 0 or 1");
    dt_dtype real = d == DT_COMPLEX64 ? DT_FLOAT32 : DT_FLOAT64;
    dt_tensor v;
    dt_error err;
    int64_t offset = self->t.offset + part * dt_dtype_get_info(real)->itemsize;
    if (dt_tensor_init_view(&v, self->t.storage, offset, self->t.ndim, self->t.shape,
                            self->t.strides, real, &err) != DT_OK) {
        dt_tensor_clear(&v);
        return dt_py_raise(&err);
    }
    v.flags |= self->t.flags;
    return dt_py_tensor_wrap(&v);
}

/* _writeable: False for read-only tensors (Note [Read-only tensors]);
 * settable, except to True where the memory or the view forbids it. */
static PyObject *get_writeable(PyDtTensor *self, void *c)
{
    (void)c;
    return PyBool_FromLong(!(self->t.flags & DT_TENSOR_READONLY));
}

static int set_writeable(PyDtTensor *self, PyObject *value, void *c)
{
    (void)c;
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete the writeable flag");
        return -1;
    }
    int on = PyObject_IsTrue(value);
    if (on < 0)
        return -1;
    if (!on) {
        self->t.flags |= DT_TENSOR_READONLY;
        return 0;
    }
    if (self->t.flags & DT_TENSOR_NEVER_WRITEABLE) {
        PyErr_SetString(PyExc_ValueError, "cannot set WRITEABLE flag to True of this array");
        return -1;
    }
    self->t.flags &= ~DT_TENSOR_READONLY;
    return 0;
}

/* _element_copy: whether the tensor is t[i, j]'s copy of one element (or a
 * view of one), which PyTorch's in-place methods warn about (Note [An
 * element is a copy] in index.c) */
static PyObject *get_element_copy(PyDtTensor *self, void *c)
{
    (void)c;
    return PyBool_FromLong((self->t.flags & DT_TENSOR_ELEMENT_COPY) != 0);
}

/* _own(): self, made the owner of its memory when its base is a tensor
 * that nothing else refers to and that has the same elements: a copy made
 * in C order and then permuted into the order asked for (order='F', a
 * transposed tensor's copy) is the copy the caller sees, as in NumPy. */
static PyObject *tensor_own(PyDtTensor *self, PyObject *unused)
{
    (void)unused;
    PyObject *base = self->base;
    if (base != NULL && Py_REFCNT(base) == 1 && self->t.storage->wrapper == (void *)base &&
        Py_IS_TYPE(self, tensor_class)) { /* owners are exact tensors (Note [A view's base]) */
        const dt_tensor *b = &((PyDtTensor *)base)->t;
        if (b->numel == self->t.numel && b->dtype == self->t.dtype && b->offset == self->t.offset) {
            self->t.storage->wrapper = self;
            self->base = NULL;
            Py_DECREF(base);
        }
    }
    return Py_NewRef((PyObject *)self);
}

/* base and _owndata: Note [A view's base] */
static PyObject *get_base(PyDtTensor *self, void *c)
{
    (void)c;
    return Py_NewRef(self->base != NULL ? self->base : Py_None);
}

static PyObject *get_owndata(PyDtTensor *self, void *c)
{
    (void)c;
    const dt_storage *s = self->t.storage;
    return PyBool_FromLong(self->base == NULL && s != NULL &&
                           (s->backend != NULL || dt_py_storage_sole_array(s)));
}

static PyGetSetDef tensor_getset[] = {
    {"base", (getter)get_base, NULL,
     "the tensor whose memory this view shares, None if it owns its memory (NumPy's ndarray.base)",
     NULL},
    {"_owndata", (getter)get_owndata, NULL, "whether the tensor owns its memory (NumPy's flags.owndata)",
     NULL},
    {"_writeable", (getter)get_writeable, (setter)set_writeable,
     "whether the tensor may be written (NumPy's flags.writeable)", NULL},
    {"_element_copy", (getter)get_element_copy, NULL, "whether the tensor is t[i, j]'s copy of one element",
     NULL},
    {"shape", (getter)get_shape, (setter)set_shape, "the dimensions, a tuple", NULL},
    {"strides", (getter)get_strides, NULL, "bytes to step in each dimension (NumPy's convention)", NULL},
    {"ndim", (getter)get_ndim, NULL, "number of dimensions", NULL},
    {"size", (getter)get_size, NULL, "number of elements", NULL},
    {"itemsize", (getter)get_itemsize, NULL, "bytes per element", NULL},
    {"nbytes", (getter)get_nbytes, NULL, "bytes of the elements", NULL},
    {"dtype", (getter)get_dtype, NULL, "element type", NULL},
    {"device", (getter)get_device, NULL, "the device the tensor lives on", NULL},
    {"is_cuda", (getter)get_is_cuda, NULL, "True if the tensor lives on a CUDA device", NULL},
    {"T", (getter)get_T, NULL, "the view with the axes reversed", NULL},
    {"mT", (getter)get_mT, NULL, "the view with the last two axes swapped", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- methods used by the Python layer ---- */

/* _to(device, dtype, non_blocking): always a new tensor. */
static PyObject *tensor_to_impl(PyDtTensor *self, PyObject *args)
{
    PyObject *devobj, *dtypeobj;
    int non_blocking = 0;
    if (!PyArg_ParseTuple(args, "OO|p:_to", &devobj, &dtypeobj, &non_blocking))
        return NULL;
    dt_device dev;
    int dtype;
    if (!dt_py_device_converter(devobj, &dev) || !dt_py_dtype_converter(dtypeobj, &dtype))
        return NULL;
    if (dev.type < 0)
        dev = dt_tensor_device(&self->t);
    if (dtype < 0)
        dtype = self->t.dtype;
    if (dt_py_device_resolve(&dev) == NULL)
        return NULL;
    dt_tensor out;
    dt_error err;
    dt_status st;
    DT_PY_TENSOR_WORK(dev.type != DT_DEVICE_CPU || !dt_py_small_cpu_work(&self->t, self->t.numel),
                      st = dt_tensor_to(&out, &self->t, dev, (dt_dtype)dtype, non_blocking, &err));
    if (st != DT_OK)
        return dt_py_raise(&err);
    return dt_py_tensor_wrap(&out);
}

/* _numpy_view(): a NumPy array sharing a CPU tensor's memory. */
static PyObject *tensor_numpy_view(PyDtTensor *self, PyObject *unused)
{
    (void)unused;
    return dt_py_tensor_to_ndarray(self);
}

/* self[...] = value for a Python or NumPy scalar value, with NumPy's
 * checks (Note [Storing a float in an integer] in number.c). */
/* n elements of item bytes at p = the element at v (a loop per size: a
 * memcpy call per element would cost more than the rest of the fill) */
static void fill_small(char *p, int64_t n, size_t item, const unsigned char *v)
{
    uint16_t v2;
    uint32_t v4;
    uint64_t v8;
    switch (item) {
    case 1:
        memset(p, v[0], (size_t)n);
        break;
    case 2:
        memcpy(&v2, v, 2);
        for (int64_t i = 0; i < n; i++)
            memcpy(p + 2 * i, &v2, 2);
        break;
    case 4:
        memcpy(&v4, v, 4);
        for (int64_t i = 0; i < n; i++)
            memcpy(p + 4 * i, &v4, 4);
        break;
    case 8:
        memcpy(&v8, v, 8);
        for (int64_t i = 0; i < n; i++)
            memcpy(p + 8 * i, &v8, 8);
        break;
    default:
        for (int64_t i = 0; i < n; i++)
            memcpy(p + (size_t)i * item, v, item);
    }
}

int dt_py_tensor_fill(PyDtTensor *self, PyObject *value)
{
    dt_operand in = {0};
    in.dtype = self->t.dtype;
    if (dt_py_scalar_to_bytes(value, self->t.dtype, in.value.bytes) < 0)
        return -1;
    dt_error err;
    dt_status st;
    if (dt_tensor_is_contiguous(&self->t) && dt_py_small_cpu_work(&self->t, self->t.numel)) {
        /* zeros(16), ones(3), t.fill(0): their few elements written here,
         * without the backend's generate call */
        if (dt_tensor_check_writeable(&self->t, &err) != DT_OK) {
            dt_py_raise(&err);
            return -1;
        }
        fill_small(dt_tensor_data(&self->t), self->t.numel, dt_tensor_itemsize(&self->t), in.value.bytes);
        return 0;
    }
    if (dt_tensor_is_contiguous(&self->t)) {
        dt_gen gen;
        memset(&gen, 0, sizeof gen);
        gen.kind = DT_GEN_FILL;
        memcpy(gen.value.bytes, in.value.bytes, sizeof gen.value.bytes);
        st = dt_tensor_generate(&self->t, &gen, &err);
    } else {
        st = dt_launch(DT_OP_COPY, &self->t, 1, &in, &err);
    }
    if (st != DT_OK) {
        dt_py_raise(&err);
        return -1;
    }
    return 0;
}

/* _fill_(value): every element = value (a Python scalar), in place, any strides. */
static PyObject *tensor_fill(PyDtTensor *self, PyObject *value)
{
    if (dt_py_tensor_fill(self, value) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* _generate_(kind, a, b, seed=0, offset=0): fill a contiguous tensor.
 * AFFINE: a=start, b=step (ints for integer dtypes); UNIFORM: [a, b);
 * NORMAL: mean a, std b; RANDINT: [a, b). */
static PyObject *tensor_generate(PyDtTensor *self, PyObject *args)
{
    int kind;
    PyObject *a, *b;
    unsigned long long seed = 0, offset = 0;
    if (!PyArg_ParseTuple(args, "iOO|KK:_generate_", &kind, &a, &b, &seed, &offset))
        return NULL;
    if (!dt_tensor_is_contiguous(&self->t))
        return PyErr_Format(PyExc_ValueError, "_generate_ needs a contiguous tensor");
    dt_gen gen;
    memset(&gen, 0, sizeof gen);
    gen.kind = kind;
    gen.seed = seed;
    gen.offset = offset;
    switch (kind) {
    case DT_GEN_AFFINE:
        if (PyLong_Check(a) && PyLong_Check(b)) {
            gen.istart = PyLong_AsLongLong(a);
            gen.istep = PyLong_AsLongLong(b);
        }
        gen.start = PyFloat_AsDouble(a);
        gen.step = PyFloat_AsDouble(b);
        break;
    case DT_GEN_UNIFORM:
    case DT_GEN_NORMAL:
        gen.low = PyFloat_AsDouble(a);
        gen.high = PyFloat_AsDouble(b);
        break;
    case DT_GEN_RANDINT:
        gen.ilow = PyLong_AsLongLong(a);
        gen.ihigh = PyLong_AsLongLong(b);
        if (!PyErr_Occurred() && gen.ihigh <= gen.ilow)
            return PyErr_Format(PyExc_ValueError, "low >= high");
        break;
    default:
        return PyErr_Format(PyExc_ValueError, "unknown generator kind %d", kind);
    }
    if (PyErr_Occurred())
        return NULL;
    dt_error err;
    dt_status st;
    DT_PY_TENSOR_WORK(!dt_py_small_cpu_work(&self->t, self->t.numel),
                      st = dt_tensor_generate(&self->t, &gen, &err));
    if (st != DT_OK)
        return dt_py_raise(&err);
    Py_RETURN_NONE;
}

/* _as_strided(shape, strides, offset): a view, in elements (offset in
 * elements from this tensor's first element, strides in bytes). */
static PyObject *tensor_as_strided(PyDtTensor *self, PyObject *args)
{
    dt_py_shape shape, strides;
    long long offset;
    if (!PyArg_ParseTuple(args, "O&O&L:_as_strided", dt_py_shape_converter, &shape,
                          dt_py_strides_converter, &strides, &offset))
        return NULL;
    if (shape.ndim != strides.ndim)
        return PyErr_Format(PyExc_ValueError, "shape and strides differ in length");
    int64_t byte_offset;
    if (__builtin_mul_overflow(offset, dt_tensor_itemsize(&self->t), &byte_offset) ||
        __builtin_add_overflow(byte_offset, self->t.offset, &byte_offset))
        return PyErr_Format(PyExc_OverflowError, "offset overflows");
    return dt_py_tensor_view(self, shape.ndim, shape.dims, strides.dims, byte_offset);
}

/* _reinterpret(dtype, shape, strides): a view of the same first byte with
 * another dtype, shape and byte strides: NumPy's x.view(dtype), whose shape
 * rules live in the Python layer (_views.view_dtype); the core checks that
 * the view stays inside the storage. */
static PyObject *tensor_reinterpret(PyDtTensor *self, PyObject *args)
{
    PyObject *dtypeobj;
    dt_py_shape shape, strides;
    int dtype;
    if (!PyArg_ParseTuple(args, "OO&O&:_reinterpret", &dtypeobj, dt_py_shape_converter, &shape,
                          dt_py_strides_converter, &strides))
        return NULL;
    if (!dt_py_dtype_converter(dtypeobj, &dtype))
        return NULL;
    if (dtype < 0 || shape.ndim != strides.ndim)
        return PyErr_Format(PyExc_ValueError, "_reinterpret needs a dtype, and shape and "
                            "strides of one length");
    dt_tensor v;
    dt_error err;
    if (dt_tensor_init_view(&v, self->t.storage, self->t.offset, shape.ndim, shape.dims,
                            strides.dims, (dt_dtype)dtype, &err) != DT_OK) {
        dt_tensor_clear(&v);
        return dt_py_raise(&err);
    }
    v.flags |= self->t.flags; /* a view of read-only memory is read-only */
    return dt_py_tensor_wrap(&v);
}

/* _copy_from(src): self[...] = src (broadcast, cast; same device). */
static PyObject *tensor_copy_from(PyDtTensor *self, PyObject *src)
{
    if (!DtTensor_Check(src))
        return PyErr_Format(PyExc_TypeError, "_copy_from expects a tensor");
    dt_error err;
    dt_status st;
    const dt_tensor *from = &((PyDtTensor *)src)->t;
    DT_PY_TENSOR_WORK(!dt_py_small_cpu_work(&self->t, self->t.numel) || !dt_py_small_cpu_work(from, from->numel),
                      st = dt_tensor_copy_into(&self->t, from, &err));
    if (st != DT_OK)
        return dt_py_raise(&err);
    Py_RETURN_NONE;
}

static PyObject *tensor_is_contiguous(PyDtTensor *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(dt_tensor_is_contiguous(&self->t));
}

/* _pin_memory(): a contiguous copy of a CPU tensor in page-locked memory. */
static PyObject *tensor_pin_memory(PyDtTensor *self, PyObject *unused)
{
    (void)unused;
    const dt_tensor *t = &self->t;
    if (dt_tensor_device(t).type != DT_DEVICE_CPU) {
        char name[32];
        dt_device_format(dt_tensor_device(t), name, sizeof name);
        return PyErr_Format(PyExc_RuntimeError, "cannot pin a tensor on %s: only cpu tensors "
                            "can be pinned", name);
    }
    int64_t strides[DT_MAX_NDIM], nbytes;
    dt_storage *s = NULL;
    dt_tensor out;
    dt_error err;
    dt_status st = dt_contiguous_strides(t->ndim, t->shape, dt_tensor_itemsize(t), strides,
                                         &nbytes, &err);
    if (st == DT_OK)
        st = dt_storage_alloc_pinned((size_t)nbytes, &s, &err);
    if (st != DT_OK)
        return dt_py_raise(&err);
    st = dt_tensor_init_view_taking(&out, s, 0, t->ndim, t->shape, strides, t->dtype, &err);
    if (st == DT_OK)
        st = dt_tensor_copy_into(&out, t, &err);
    if (st != DT_OK) {
        dt_tensor_clear(&out);
        return dt_py_raise(&err);
    }
    return dt_py_tensor_wrap(&out);
}

static PyObject *tensor_is_pinned(PyDtTensor *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(self->t.storage->pinned);
}

static PyObject *tensor_data_ptr(PyDtTensor *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromVoidPtr(dt_tensor_data(&self->t));
}

/* _same_storage(other): the same storage object. */
static PyObject *tensor_same_storage(PyDtTensor *self, PyObject *other)
{
    if (!DtTensor_Check(other))
        Py_RETURN_FALSE;
    return PyBool_FromLong(self->t.storage == ((PyDtTensor *)other)->t.storage);
}

/* _storage_span(): (bytes from the storage's start to element 0, the
 * storage's bytes): where a view sits in the memory it shares. */
static PyObject *tensor_storage_span(PyDtTensor *self, PyObject *unused)
{
    (void)unused;
    if (self->t.storage == NULL)
        return PyErr_Format(PyExc_RuntimeError, "an uninitialised tensor has no storage");
    return Py_BuildValue("(LK)", (long long)self->t.offset, (unsigned long long)self->t.storage->nbytes);
}

/* _may_share_memory(other): the byte ranges overlap on one device
 * (Note [Overlap is about memory]). */
static PyObject *tensor_may_share_memory(PyDtTensor *self, PyObject *other)
{
    if (!DtTensor_Check(other))
        return PyErr_Format(PyExc_TypeError, "_may_share_memory expects a tensor");
    return PyBool_FromLong(dt_tensors_may_overlap(&self->t, &((PyDtTensor *)other)->t));
}

/* _record_stream(stream): PyTorch's record_stream: the memory of this CUDA
 * tensor is not reused for another tensor until the work queued on `stream`
 * so far is done.  Foreign memory (DLPack) is never reused by us: nothing to
 * record. */
static PyObject *tensor_record_stream(PyDtTensor *self, PyObject *stream)
{
    int device;
    void *handle;
    if (dt_py_stream_handle(stream, &device, &handle) < 0)
        return NULL;
    dt_storage *s = self->t.storage;
    char name[32];
    dt_device_format(s->device, name, sizeof name);
    if (s->device.type != DT_DEVICE_CUDA)
        return PyErr_Format(PyExc_RuntimeError, "record_stream expects a CUDA tensor, got a "
                            "tensor on %s", name);
    if (device != s->device.index)
        return PyErr_Format(PyExc_RuntimeError, "record_stream: the stream is on cuda:%d, the "
                            "tensor on %s", device, name);
    if (s->backend == NULL || s->backend->record_stream == NULL || s->pinned)
        Py_RETURN_NONE;
    dt_error err;
    if (s->backend->record_stream(device, s->ptr, s->alloc_ctx, handle, &err) != DT_OK)
        return dt_py_raise(&err);
    Py_RETURN_NONE;
}

/* _lock_readonly(): read-only for good (broadcast views, x.imag of a real x). */
static PyObject *tensor_lock_readonly(PyDtTensor *self, PyObject *unused)
{
    (void)unused;
    self->t.flags |= DT_TENSOR_READONLY | DT_TENSOR_NEVER_WRITEABLE;
    Py_RETURN_NONE;
}

/* copy(): a C-contiguous copy on the same device (NumPy's ndarray.copy(),
 * PyTorch's clone()) */
static PyObject *tensor_copy(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static PyObject *ordered;
    if (nargs > 0 || kwnames != NULL)
        return dt_py_views_method("copy_method", &ordered, self, args, nargs, kwnames);
    return dt_py_tensor_copy(self);
}

/* astype(dtype): the common call (one dtype, any spelling: dt.float32,
 * float, 'f4', np.float32; NumPy's defaults casting="unsafe" and
 * copy=True) in C; every other form goes to devtensor._tensor
 * .astype_general, with NumPy's rules and errors. */
/* NumPy's ComplexWarning for a cast of complex values to a real dtype
 * (devtensor._tensor.astype_general warns the same) */
static int warn_complex_discarded(void)
{
    static PyObject *category;
    if (dt_py_lazy_function("numpy.exceptions", "ComplexWarning", &category) == NULL)
        return -1;
    return PyErr_WarnEx(category, "Casting complex values to real discards the imaginary part", 1);
}

static PyObject *tensor_astype(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static PyObject *general;
    /* astype(dtype) in C, but for a tensor that is not C-contiguous: NumPy's
     * order='K' keeps a Fortran layout (astype_general) */
    int code = -1;
    if (nargs == 1 && kwnames == NULL && args[0] != Py_None &&
        (self->t.ndim < 2 || dt_tensor_is_contiguous(&self->t))) {
        if (!dt_py_dtype_converter(args[0], &code)) {
            PyErr_Clear(); /* not a dtype: astype_general says so */
            code = -1;
        }
    }
    if (code >= 0) {
        dt_tensor out;
        dt_error err;
        if (dt_dtype_is_complex(self->t.dtype) && !dt_dtype_is_complex((dt_dtype)code) && warn_complex_discarded() < 0)
            return NULL;
        if (dt_py_same_device_copy(&self->t, (dt_dtype)code, &out, &err) != DT_OK)
            return dt_py_raise(&err);
        return dt_py_tensor_wrap(&out);
    }
    if (dt_py_lazy_function("devtensor._tensor", "astype_general", &general) == NULL)
        return NULL;
    return dt_py_call_with_self(general, (PyObject *)self, args, nargs, kwnames);
}

/* tolist(): a CPU tensor's values through NumPy's tolist on a view of
 * them, in C; other devices and bfloat16 go to devtensor._tensor.
 * tolist_general (the host copy, float32 for bfloat16). */
static PyObject *tensor_tolist(PyDtTensor *self, PyObject *unused)
{
    (void)unused;
    static PyObject *general;
    if (dt_tensor_device(&self->t).type == DT_DEVICE_CPU && self->t.dtype != DT_BFLOAT16) {
        PyObject *arr = dt_py_tensor_to_ndarray(self);
        if (arr == NULL)
            return NULL;
        PyObject *r = PyArray_ToList((PyArrayObject *)arr);
        Py_DECREF(arr);
        return r;
    }
    if (dt_py_lazy_function("devtensor._tensor", "tolist_general", &general) == NULL)
        return NULL;
    return PyObject_CallOneArg(general, (PyObject *)self);
}

static PyMethodDef tensor_methods[] = {
    {"_to", (PyCFunction)tensor_to_impl, METH_VARARGS, "_to(device, dtype, non_blocking=False): a new tensor"},
    {"_numpy_view", (PyCFunction)tensor_numpy_view, METH_NOARGS, "a NumPy array viewing a CPU tensor"},
    {"_fill_", (PyCFunction)tensor_fill, METH_O, "fill with a Python scalar, in place"},
    {"_generate_", (PyCFunction)tensor_generate, METH_VARARGS, "fill a contiguous tensor (dt_gen)"},
    {"_part_view", (PyCFunction)tensor_part_view, METH_O, "real (0) or imaginary (1) part view"},
    {"_own", (PyCFunction)tensor_own, METH_NOARGS, "self, owning its memory when its base is hidden"},
    {"to", (PyCFunction)(void (*)(void))dt_py_tensor_to, METH_FASTCALL | METH_KEYWORDS,
     "to(device=None, dtype=None, non_blocking=False, copy=False), to(dtype), to(other): self when "
     "nothing changes, else a new tensor"},
    {"reshape", (PyCFunction)(void (*)(void))dt_py_tensor_reshape, METH_FASTCALL | METH_KEYWORDS,
     "reshape(2, 3) or reshape((2, 3)), one entry may be -1: a view when possible, else a copy; copy=True "
     "always copies, copy=False raises rather than copy"},
    {"copy", (PyCFunction)(void (*)(void))tensor_copy, METH_FASTCALL | METH_KEYWORDS,
     "copy($self, /, order='C')\n--\n\nA copy on the same device, C-contiguous (or as order= says: NumPy's "
     "'C', 'F', 'A', 'K')."},
    {"tolist", (PyCFunction)tensor_tolist, METH_NOARGS,
     "tolist($self, /)\n--\n\nThe values as (nested) Python lists of Python scalars."},
    {"astype", (PyCFunction)(void (*)(void))tensor_astype, METH_FASTCALL | METH_KEYWORDS,
     "astype($self, /, dtype, order='K', casting='unsafe', subok=True, copy=True)\n--\n\nThe values cast to "
     "dtype on the same device (NumPy's signature); casting is NumPy's rule ('no', 'equiv', 'safe', "
     "'same_kind', 'unsafe'), order lays the result out ('K' keeps a Fortran layout)"},
    {"ravel", (PyCFunction)(void (*)(void))dt_py_tensor_ravel, METH_FASTCALL | METH_KEYWORDS,
     "ravel($self, /, order='C')\n--\n\nx as 1-d: a view when possible (NumPy's ravel, and its order=)"},
    {"flatten", (PyCFunction)(void (*)(void))dt_py_tensor_flatten, METH_FASTCALL | METH_KEYWORDS,
     "flatten($self, /, order='C')\n--\n\nA 1-d copy (NumPy's flatten and its order=; ravel() gives a view "
     "when possible); flatten(start_dim, end_dim=-1) is PyTorch's."},
    {"transpose", (PyCFunction)(void (*)(void))dt_py_tensor_transpose, METH_FASTCALL | METH_KEYWORDS,
     "NumPy's transpose: transpose() reverses the axes, transpose(1, 0, 2) or transpose((1, 0, 2)) "
     "permutes them.  PyTorch's two-axis swap is swapaxes."},
    {"permute", (PyCFunction)(void (*)(void))dt_py_tensor_permute, METH_FASTCALL | METH_KEYWORDS,
     "PyTorch's permute: the axes in the order given (permute(1, 0, 2) or permute((1, 0, 2)))."},
    {"swapaxes", (PyCFunction)(void (*)(void))dt_py_tensor_swapaxes, METH_FASTCALL | METH_KEYWORDS,
     "The view with two axes exchanged (PyTorch's Tensor.transpose(dim0, dim1))."},
    {"squeeze", (PyCFunction)(void (*)(void))dt_py_tensor_squeeze, METH_FASTCALL | METH_KEYWORDS,
     "The view without length-1 axes (all of them, or those in axis)."},
    {"expand_dims", (PyCFunction)(void (*)(void))dt_py_tensor_expand_dims, METH_FASTCALL | METH_KEYWORDS,
     "The view with new length-1 axes at the positions in axis (NumPy's expand_dims)."},
    {"unsqueeze", (PyCFunction)(void (*)(void))dt_py_tensor_unsqueeze, METH_FASTCALL | METH_KEYWORDS,
     "PyTorch's spelling of expand_dims for one axis."},
    {"_reshape_geometry", (PyCFunction)dt_py_tensor_reshape_geometry, METH_O,
     "(shape with -1 filled in, byte strides of a view or None)"},
    {"cuda", (PyCFunction)(void (*)(void))dt_py_tensor_cuda, METH_FASTCALL | METH_KEYWORDS,
     "cuda(device=None, non_blocking=False): this tensor on a CUDA device (default: the current one); "
     "self if already there"},
    {"cpu", (PyCFunction)dt_py_tensor_cpu, METH_NOARGS, "this tensor on the cpu: self if it is there"},
    {"item", (PyCFunction)(void (*)(void))dt_py_tensor_item_at, METH_FASTCALL,
     "item(*args): an element as a Python scalar -- of a one-element tensor, at a flat index in C order, "
     "or at one index per axis (NumPy's)"},
    {"_as_strided", (PyCFunction)tensor_as_strided, METH_VARARGS, "a view with other shape and strides"},
    {"_reinterpret", (PyCFunction)tensor_reinterpret, METH_VARARGS, "a view with another dtype, shape and strides"},
    {"_index_basic", (PyCFunction)dt_py_tensor_index_basic, METH_O, "the view a tuple of basic index items selects"},
    {"_copy_from", (PyCFunction)tensor_copy_from, METH_O, "self[...] = src on one device"},
    {"_same_storage", (PyCFunction)tensor_same_storage, METH_O, "whether other shares this storage"},
    {"_storage_span", (PyCFunction)tensor_storage_span, METH_NOARGS,
     "(bytes from the storage's start to element 0, the storage's bytes)"},
    {"_may_share_memory", (PyCFunction)tensor_may_share_memory, METH_O, "whether the byte ranges overlap"},
    {"_lock_readonly", (PyCFunction)tensor_lock_readonly, METH_NOARGS, "make read-only for good"},
    {"record_stream", (PyCFunction)tensor_record_stream, METH_O,
     "record_stream(stream): do not reuse this CUDA tensor's memory until the work queued on "
     "stream so far is done (PyTorch's)"},
    {"is_contiguous", (PyCFunction)tensor_is_contiguous, METH_NOARGS, "whether the elements are C-contiguous"},
    {"_pin_memory", (PyCFunction)tensor_pin_memory, METH_NOARGS, "a pinned host copy"},
    {"is_pinned", (PyCFunction)tensor_is_pinned, METH_NOARGS, "whether the memory is page-locked host memory"},
    {"data_ptr", (PyCFunction)tensor_data_ptr, METH_NOARGS, "address of the first element"},
    {"_alias_as", (PyCFunction)dt_py_tensor_alias_as, METH_O,
     "_alias_as(cls): an instance of the Tensor subclass cls viewing these elements"},
    {"_set_data_", (PyCFunction)dt_py_tensor_set_data, METH_O,
     "_set_data_(src): become a view of src's elements (Tensor subclasses only)"},
    {NULL, NULL, 0, NULL},
};

/* ---- sequence protocol: len() ---- */

static Py_ssize_t tensor_length(PyDtTensor *self)
{
    if (self->t.ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of unsized object"); /* NumPy's words */
        return -1;
    }
    return (Py_ssize_t)self->t.shape[0];
}

static PySequenceMethods tensor_as_sequence = {
    .sq_length = (lenfunc)tensor_length,
};

static PyMappingMethods tensor_as_mapping = {
    .mp_length = (lenfunc)tensor_length,
    .mp_subscript = (binaryfunc)dt_py_tensor_subscript,            /* index.c */
    .mp_ass_subscript = (objobjargproc)dt_py_tensor_ass_subscript, /* index.c */
};

PyTypeObject dt_py_tensor_base_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "devtensor._C.TensorBase",
    .tp_basicsize = sizeof(PyDtTensor),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The C base of devtensor.Tensor.",
    .tp_dealloc = (destructor)tensor_dealloc,
    .tp_new = tensor_new,
    .tp_getset = tensor_getset,
    .tp_methods = tensor_methods,
    .tp_as_number = &dt_py_tensor_as_number,
    .tp_as_buffer = &dt_py_tensor_as_buffer, /* Note [The buffer protocol] */
    .tp_as_sequence = &tensor_as_sequence,
    .tp_as_mapping = &tensor_as_mapping,
    .tp_richcompare = dt_py_tensor_richcompare,
    .tp_iter = (getiterfunc)dt_py_tensor_iter, /* tensor_iter.c */
    .tp_hash = tensor_hash,
    .tp_weaklistoffset = offsetof(PyDtTensor, weakreflist),
};

/* Note [Tensor is a C type]
 * devtensor.Tensor, the class of every tensor C code makes, is created here
 * from a spec: a heap type without Py_TPFLAGS_HAVE_GC.  A class statement in
 * Python would make it garbage-collected, and tracking and untracking each
 * tensor costs about 25 ns per tensor made (a fifth of t[3]), for nothing: a
 * tensor refers to no Python object but its type, for foreign memory the
 * owner, and for a view the tensor owning its memory (Note [A view's
 * base]), none of which can refer back to it.  devtensor/_tensor.py
 * puts its Python methods on this type.  Subclasses made in Python are
 * garbage-collected as usual. */
void dt_py_tensor_recycle(PyDtTensor *self)
{
    PyObject *base = dt_py_tensor_drop_base(self);
    dt_tensor_clear(&self->t);
    if (Py_TYPE(self) == tensor_class && n_free < DT_TENSOR_FREE_MAX) /* Note [Tensor free list] */
        free_list[n_free++] = self;
    else
        Py_TYPE(self)->tp_free((PyObject *)self);
    Py_XDECREF(base); /* last: the owner's release may run code */
}

static void tensor_heap_dealloc(PyDtTensor *self)
{
    PyTypeObject *type = Py_TYPE(self);
    /* asarray's tensor is kept as its shell, or forgotten before weak
     * reference callbacks run (Note [asarray of the same array]) */
    if (!dt_py_asarray_memo_keep(self)) {
        if (self->weakreflist != NULL)
            PyObject_ClearWeakRefs((PyObject *)self);
        dt_py_tensor_recycle(self);
    }
    Py_DECREF(type); /* instances of heap types own a reference to it */
}

static PyType_Slot tensor_slots[] = {
    {Py_tp_dealloc, (void *)tensor_heap_dealloc},
    {Py_tp_doc, (void *)"A multi-dimensional array on a device (cpu or cuda:N)."},
    {0, NULL},
};

static PyType_Spec tensor_spec = {
    .name = "devtensor.Tensor",
    .basicsize = sizeof(PyDtTensor),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = tensor_slots,
};

int dt_py_tensor_init(PyObject *module)
{
    if (PyType_Ready(&dt_py_tensor_base_type) < 0 || dt_py_tensor_iter_init() < 0)
        return -1;
    if (PyModule_AddObjectRef(module, "TensorBase", (PyObject *)&dt_py_tensor_base_type) < 0)
        return -1;
    PyObject *cls = PyType_FromSpecWithBases(&tensor_spec, (PyObject *)&dt_py_tensor_base_type);
    if (cls == NULL)
        return -1;
    tensor_class = (PyTypeObject *)cls; /* kept for the life of the process */
    return PyModule_AddObjectRef(module, "Tensor", cls);
}
