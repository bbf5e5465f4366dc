/* pydt.h - what the files of the CPython wrapper share: the object layouts
 * of Tensor, device and dtype, converters for argument parsing, and error
 * translation.  Only csrc/python includes Python and NumPy headers.
 */
#ifndef DT_PYDT_H
#define DT_PYDT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL devtensor_ARRAY_API
#ifndef DT_PY_IMPORTS_ARRAY
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include <stdatomic.h>

#include "elementwise.h"
#include "tensor.h"

/* ---- errors (errors.c) ---- */
extern PyObject *dt_py_OutOfMemoryError;  /* devtensor.cuda.OutOfMemoryError */
/* Set the Python exception for err; returns NULL for `return dt_py_raise(&err);`. */
PyObject *dt_py_raise(const dt_error *err);
int dt_py_errors_init(PyObject *module);
extern PyObject *dt_py_SizeOverflowError; /* ValueError and OverflowError: sizes past 64 bits */

/* ---- dtype (dtype_type.c) ---- */
typedef struct {
    PyObject_HEAD
    dt_dtype code;
} PyDtDtype;
extern PyTypeObject dt_py_dtype_type;
PyObject *dt_py_dtype_get(dt_dtype d);            /* borrowed */
/* "O&" converter: our dtype, a NumPy dtype or type, a name, or a Python
 * type (bool, int, float, complex); None gives -1. Writes an int. */
int dt_py_dtype_converter(PyObject *obj, void *out);
int dt_py_dtype_from_descr(PyArray_Descr *descr, dt_dtype *out); /* 0 or -1 with TypeError */
int dt_py_dtype_typenum(dt_dtype d);               /* NumPy type number, -1 for bfloat16 */
int dt_py_dtype_init(PyObject *module);

/* ---- device (device_type.c) ---- */
typedef struct {
    PyObject_HEAD
    dt_device dev;
} PyDtDevice;
extern PyTypeObject dt_py_device_type;
PyObject *dt_py_device_new(dt_device d);
/* "O&" converter: a device, "cpu", "cuda", "cuda:N" or an int N (cuda:N).
 * None gives the default device (the innermost `with device(...)`, else cpu). */
int dt_py_device_converter(PyObject *obj, void *out);
/* Like the converter, then resolve "cuda" to the current device and check
 * that the device exists; returns the backend or NULL with an exception. */
const dt_backend_iface *dt_py_device_resolve(dt_device *dev);
int dt_py_device_init(PyObject *module);
/* devtensor._C._default_device(): the innermost `with device(...)`, else the
 * thread's set_default_device(), else cpu (Note [Default device]). */
PyObject *dt_py_default_device(PyObject *module, PyObject *unused);
int dt_py_default_device_is_cpu(void); /* the same question, without making a device */
/* A device argument as factories read it: not given means the default. */
int dt_py_factory_device(PyObject *obj, dt_device *out);

/* ---- tensor (tensor_type.c) ---- */
typedef struct {
    PyObject_HEAD
    dt_tensor t;
    PyObject *weakreflist;
    PyObject *base; /* the tensor whose memory this one views, or NULL (Note [A view's base]) */
} PyDtTensor;
extern PyTypeObject dt_py_tensor_base_type;       /* devtensor._C.TensorBase */
/* devtensor.Tensor (TensorBase until the module is set up): most tensors'
 * type, tested first because a subtype test walks the type's MRO. */
extern PyTypeObject *dt_py_tensor_exact_type;
#define DtTensor_Check(op) \
    (Py_IS_TYPE(op, dt_py_tensor_exact_type) || PyObject_TypeCheck(op, &dt_py_tensor_base_type))
/* Wrap t in a new devtensor.Tensor, taking over t's storage and dims
 * (t is left empty); NULL with an exception on failure (t cleared). */
PyObject *dt_py_tensor_wrap(dt_tensor *t);
int dt_py_tensor_init(PyObject *module);
/* A view of self: shape, byte strides, byte offset from the storage's start. */
PyObject *dt_py_tensor_view(PyDtTensor *self, int ndim, const int64_t *shape, const int64_t *strides,
                            int64_t offset);
/* self[...] = a Python or NumPy scalar; 0, or -1 with an exception. */
int dt_py_tensor_fill(PyDtTensor *self, PyObject *value);
PyTypeObject *dt_py_tensor_class(void);           /* devtensor.Tensor (borrowed) */
/* A dead tensor's dims and storage released and its memory freed (or kept
 * on the free list); its type reference is the caller's. */
void dt_py_tensor_recycle(PyDtTensor *self);
/* Note [A view's base] in tensor_type.c: a subclass instance's base taken
 * from its storage's owner; and self's base (returned, to be released
 * last) and its ownership of its storage given up. */
void dt_py_tensor_take_base(PyDtTensor *self);
PyObject *dt_py_tensor_drop_base(PyDtTensor *self);

/* ---- tensors whose data can be replaced (tensor_data.c) ---- */
/* Note [Replacing a tensor's data] in tensor_data.c.  C calls that use
 * tensors with the GIL released run between these two macros instead of
 * Py_BEGIN_ALLOW_THREADS / Py_END_ALLOW_THREADS. */
extern atomic_int dt_py_tensor_work_running;
#define DT_PY_BEGIN_TENSOR_WORK \
    { atomic_fetch_add(&dt_py_tensor_work_running, 1); Py_BEGIN_ALLOW_THREADS
#define DT_PY_END_TENSOR_WORK \
    atomic_fetch_sub(&dt_py_tensor_work_running, 1); Py_END_ALLOW_THREADS }

/* Note [Small CPU work keeps the GIL]
 * Releasing and taking back the GIL costs more than copying or gathering
 * a few hundred elements (t.copy() of 16 float64 took 238 ns with the
 * release, NumPy's 108): work on the CPU device over fewer than
 * DT_GIL_RELEASE_NUMEL elements runs with the GIL held, as small
 * elementwise ops do (Note [Releasing the GIL] in number.c).  Work on a
 * CUDA device always releases it, since it may wait for the device (an
 * index check's flag, a transfer).  stmt runs once either way. */
#define DT_GIL_RELEASE_NUMEL 32768
static inline int dt_py_small_cpu_work(const dt_tensor *t, int64_t numel)
{
    return dt_tensor_device(t).type == DT_DEVICE_CPU && numel < DT_GIL_RELEASE_NUMEL;
}
#define DT_PY_TENSOR_WORK(release, stmt)                                                         \
    do {                                                                                         \
        if (release) {                                                                           \
            DT_PY_BEGIN_TENSOR_WORK                                                              \
            stmt;                                                                                \
            DT_PY_END_TENSOR_WORK                                                                \
        } else {                                                                                 \
            stmt;                                                                                \
        }                                                                                        \
    } while (0)
int dt_py_tensor_data_replaceable(PyObject *obj);    /* an instance of a Python subclass */
/* A new reference to an object that keeps self's current memory alive for
 * good: self, or a plain view where self's data can be replaced. */
PyObject *dt_py_tensor_stable_owner(PyDtTensor *self);
PyObject *dt_py_tensor_alias_as(PyDtTensor *self, PyObject *cls);   /* Tensor._alias_as */
PyObject *dt_py_tensor_set_data(PyDtTensor *self, PyObject *src);   /* Tensor._set_data_ */

/* op(*args) for dt_op_nin(op) operands (tensors, NumPy arrays, Python
 * numbers; at least one tensor), with NumPy's defaults; Py_NotImplemented
 * for other operands (number.c). */
PyObject *dt_py_ufunc_apply(dt_op op, PyObject *const *args);
/* devtensor._C.ufunc (ufunc_type.c) */
int dt_py_ufunc_type_init(PyObject *module);

/* ---- handing calls to the Python layer (fallback.c) ---- */
/* module.name, looked up on the first call and kept in *cache. */
PyObject *dt_py_lazy_function(const char *module, const char *name, PyObject **cache);
/* devtensor._creation.name(*args) for a creation function C did not answer (creation.c). */
PyObject *dt_py_creation_general(const char *name, PyObject **cache, PyObject *const *args, size_t nargsf,
                                 PyObject *kwnames);
/* fn(self, *args, **kwargs) for the arguments of a METH_FASTCALL | METH_KEYWORDS method. */
PyObject *dt_py_call_with_self(PyObject *fn, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames);

/* ---- movement (movement.c) ---- */
PyObject *dt_py_tensor_to(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *dt_py_tensor_cpu(PyDtTensor *self, PyObject *unused);
PyObject *dt_py_tensor_cuda(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);

/* ---- reshape (reshape.c) ---- */
PyObject *dt_py_tensor_reshape(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *dt_py_tensor_reshape_geometry(PyDtTensor *self, PyObject *arg);
/* A C-contiguous copy on self's device (a new tensor). */
PyObject *dt_py_tensor_copy(PyDtTensor *self);
/* t's values as a new C-contiguous tensor of dtype on t's device, the GIL
 * released for big or device work (Note [Small CPU work keeps the GIL]) */
dt_status dt_py_same_device_copy(const dt_tensor *t, dt_dtype dtype, dt_tensor *out, dt_error *err);

/* ---- axis views (axes.c, Note [Axis views in C]) ---- */
PyObject *dt_py_views_method(const char *name, PyObject **cache, PyDtTensor *self, PyObject *const *args,
                             Py_ssize_t nargs, PyObject *kwnames);
PyObject *dt_py_tensor_ravel(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *dt_py_tensor_flatten(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *dt_py_tensor_transpose(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *dt_py_tensor_permute(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *dt_py_tensor_swapaxes(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *dt_py_tensor_squeeze(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *dt_py_tensor_expand_dims(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames);
PyObject *dt_py_tensor_unsqueeze(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);

/* ---- indexing (index.c) ---- */
PyObject *dt_py_tensor_subscript(PyDtTensor *self, PyObject *key);
/* self[i] for 0 <= i < len(self) of a tensor of at least one dimension
 * (through a subclass's __getitem__ where it has one). */
PyObject *dt_py_tensor_row(PyDtTensor *self, int64_t i);
/* ---- iteration (tensor_iter.c) ---- */
PyObject *dt_py_tensor_iter(PyDtTensor *self); /* iter(t), Note [Iterating in C] */
int dt_py_tensor_iter_init(void);
int dt_py_tensor_ass_subscript(PyDtTensor *self, PyObject *key, PyObject *value);
PyObject *dt_py_tensor_index_basic(PyDtTensor *self, PyObject *key);
struct dt_index_item;
/* A basic index item (int, slice, None, Ellipsis) into *it: 1, 0 for any
 * other object, -1 with an exception. */
int dt_py_index_parse_item(PyObject *o, struct dt_index_item *it);
/* x[key] and x[key] = value for advanced keys on a device, in C (Note
 * [Advanced keys in C], advanced_key.c): *handled 0 (and no exception)
 * when devtensor._advanced must do it. */
PyObject *dt_py_advanced_getitem(PyDtTensor *x, PyObject *key, int *handled);
int dt_py_advanced_setitem(PyDtTensor *x, PyObject *key, PyObject *value, int *handled);
/* _C._advanced_keys_in_c([on]): whether they are (listed in advanced.c). */
PyObject *dt_py_advanced_keys_in_c(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern PyNumberMethods dt_py_tensor_as_number;     /* number.c */
extern PyBufferProcs dt_py_tensor_as_buffer;       /* buffer.c */
int dt_py_number_init(PyObject *module);           /* _ufunc and OPS */
PyObject *dt_py_tensor_richcompare(PyObject *a, PyObject *b, int op);

/* ---- Python scalars (number.c) ---- */
/* 1 if obj is a Python bool, int, float or complex (not a NumPy scalar),
 * with its kind for NEP 50 promotion; 0 otherwise. */
int dt_py_scalar_kind(PyObject *obj, dt_weak_kind *kind);
/* Store Python scalar obj as one element of dtype `to`, with NumPy 2's
 * checks: an int out of range of an integer dtype is an OverflowError. */
int dt_py_scalar_to_bytes(PyObject *obj, dt_dtype to, void *bytes);

/* ---- tensors as Python scalars (scalar_out.c) ---- */
/* One element of dtype d as a Python bool, int, float or complex (NumPy's
 * item(): float16 and bfloat16 widen to float). */
PyObject *dt_py_scalar_from_bytes(const void *bytes, dt_dtype d);
PyObject *dt_py_tensor_item(PyDtTensor *self, PyObject *unused);
PyObject *dt_py_tensor_item_at(PyDtTensor *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *dt_py_tensor_int(PyObject *self);
PyObject *dt_py_tensor_float(PyObject *self);
PyObject *dt_py_tensor_index(PyObject *self);
int dt_py_tensor_bool(PyObject *self);

/* ---- operators on one-element operands (scalar_ops.c) ---- */
/* Note [The 0-d fast path]: 1 with *result (a new reference, or NULL with
 * an exception) when a op b (x op= y when inplace) was computed here, 0
 * when declined (nothing raised: the general path takes it). */
int dt_py_scalar_op(dt_op op, PyObject *a, PyObject *b, int inplace, PyObject **result);
int dt_py_scalar_unary(dt_op op, PyObject *a, PyObject **result); /* the same for op(a) */

/* ---- NumPy interop (numpy_interop.c) ---- */
/* A CPU tensor sharing arr's memory (arr must be native-endian, of a dtype
 * devtensor has). */
PyObject *dt_py_tensor_from_ndarray(PyArrayObject *arr);
/* The same for asarray (dtype: arr's): the tensor made last time when
 * nothing changed, or its shell revived (Note [asarray of the same array]).
 * Replacing a tensor's data calls _forget; the Tensor type's dealloc calls
 * _keep, which returns 1 when the tensor became the shell (its memory is
 * then not freed) and otherwise forgets it. */
PyObject *dt_py_tensor_share_ndarray(PyArrayObject *arr, dt_dtype dtype);
void dt_py_asarray_memo_forget(PyDtTensor *tensor);
int dt_py_asarray_memo_keep(PyDtTensor *tensor);
/* A NumPy array viewing a CPU tensor's memory. */
PyObject *dt_py_tensor_to_ndarray(PyDtTensor *self);
/* Foreign storage release: Py_DECREF(owner), taking the GIL when needed. */
void dt_py_release_object(void *owner);
/* Whether s is memory lent by a NumPy array that owns it and that nothing
 * but s refers to (Note [A view's base]). */
int dt_py_storage_sole_array(const dt_storage *s);
/* Whether the interpreter is shutting down (no releasing the GIL then). */
#if PY_VERSION_HEX >= 0x030D0000
#define dt_py_finalizing() Py_IsFinalizing()
#else
#define dt_py_finalizing() _Py_IsFinalizing()
#endif
/* Make (*release, *owner) of another library's CUDA memory run only after
 * the device is done (cuda_api.c, Note [Releasing another library's device
 * memory]): they become a wrapper and its context.  0, or -1 with
 * MemoryError and nothing changed. */
int dt_py_cuda_release_after_device(int device, dt_foreign_release *release, void **owner);

/* ---- factories and helpers (creation.c) ---- */
/* Parse a shape: a sequence of ints (anything with __index__). */
int dt_py_shape_converter(PyObject *obj, void *out);
int dt_py_strides_converter(PyObject *obj, void *out); /* the same, naming "strides" */
typedef struct {
    int ndim;
    int64_t dims[DT_MAX_NDIM];
} dt_py_shape;
/* The shape from exact Python ints, each an argument or all in one tuple or
 * list: 1, or 0 (no exception) when Python must read the arguments. */
int dt_py_read_int_shape(PyObject *const *args, Py_ssize_t nargs, dt_py_shape *shape);

/* ---- DLPack (dlpack.c) and the CUDA Array Interface (cuda_array_interface.c) ---- */
extern PyMethodDef dt_py_dlpack_methods[];
extern PyMethodDef dt_py_cuda_array_interface_methods[];

/* ---- CPU threads (threads.c) ---- */
extern PyMethodDef dt_py_thread_methods[];
extern PyMethodDef dt_py_join_methods[];         /* join.c */
extern PyMethodDef dt_py_numpy_call_methods[];   /* numpy_calls.c */
extern PyMethodDef dt_py_sort_runs_methods[]; /* sort_runs.c */

/* ---- module functions from each file ---- */
extern PyMethodDef dt_py_creation_methods[];
extern PyMethodDef dt_py_conversion_methods[]; /* conversion.c */
extern PyMethodDef dt_py_advanced_methods[]; /* advanced.c */
extern PyMethodDef dt_py_reduce_methods[];   /* reduce.c */
extern PyMethodDef dt_py_matmul_methods[];   /* matmul.c */
int dt_py_linalg_init(PyObject *module);       /* linalg.c: _linalg_factor, _lu_solve */
int dt_py_fft_init(PyObject *module);          /* fft.c: _fft, FFT_C2C, FFT_R2C, FFT_C2R */
/* the @ and @= slots of the tensor type (matmul.c) */
PyObject *dt_py_nb_matmul(PyObject *a, PyObject *b);
PyObject *dt_py_nb_inplace_matmul(PyObject *a, PyObject *b);
int dt_py_reduce_init(PyObject *module);     /* _C.REDUCE_OPS */
/* _C._cpu_index_kernels_from (index.c, which reads it; listed in advanced.c). */
PyObject *dt_py_cpu_index_kernels_from(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern PyMethodDef dt_py_cuda_methods[];

/* ---- CUDA devices, streams and events (cuda_api.c, stream_type.c) ---- */
/* A CUDA device argument (None: the current device, an int, "cuda:N", a
 * device), resolved and checked to exist: its backend, and *index; NULL
 * with an exception. */
const dt_backend_iface *dt_py_cuda_index(PyObject *obj, int *index);
/* devtensor._C._CudaStream / _CudaEvent and the current-stream functions. */
int dt_py_stream_init(PyObject *module);
/* The device and backend handle (NULL: the default stream) of a
 * devtensor.cuda.Stream, kept alive by the caller's reference to it; -1 with
 * TypeError for anything else. */
int dt_py_stream_handle(PyObject *obj, int *device, void **handle);
/* 1 when DEVTENSOR_EMULATE_CUDA was set at import: the CUDA slot is (or
 * will be) devtensor._cuda_emu, whose device memory is host memory
 * (module.c). */
int dt_py_cuda_is_emulated(void);

#endif /* DT_PYDT_H */
