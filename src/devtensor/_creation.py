"""Factory functions: tensor, asarray, zeros, ones, empty, full, the _like
forms, arange, linspace and eye.

Every factory creates the tensor directly on its device (device=None means
the innermost ``with devtensor.device(...)``, else the cpu); fills run on
that device through the backend, never on the host followed by a copy.
"""
import builtins
import math
import operator

import numpy as np

from . import _C
from ._C import TensorBase, device as _device_type, dtype as _dtype_type
from ._operands import operands_device
from ._views import _order_axes
from ._order import order_letter


def _int_scalar_tensor(x):
    """A 0-d integer tensor, which NumPy takes as a size (zeros(x.argmax()))."""
    return isinstance(x, TensorBase) and x.ndim == 0 and x.dtype.kind in "iu"


def _shape(args, name):
    """Shape from varargs (ones(2, 3)) or one sequence (ones((2, 3)))."""
    if len(args) == 1 and not isinstance(args[0], (int, np.integer)) and not _int_scalar_tensor(args[0]) and not (
            hasattr(args[0], "__index__") and not hasattr(args[0], "__len__")):
        shape = args[0]
        if isinstance(shape, TensorBase):
            shape = shape.tolist()
        if not hasattr(shape, "__len__"):
            raise TypeError(f"{name}(): shape must be an int or a sequence of ints, "
                            f"got {type(shape).__name__}")
        return tuple(shape)
    return tuple(args)


def _like_device(like, device):
    """NumPy's like= (NEP 35): a creation for a tensor's sake lands on its
    device unless device= says otherwise; anything else changes nothing."""
    return like.device if device is None and isinstance(like, TensorBase) else device


def _dtype_or(dtype, default):
    return default if dtype is None else _dtype_type(dtype)


def _is_index(x):
    """An integer that can be a dimension (not a bool, not a dtype such as np.int64)."""
    if isinstance(x, (bool, np.bool_, type, _dtype_type, np.dtype)):
        return False
    return isinstance(x, (int, np.integer)) or _int_scalar_tensor(x) or (
        hasattr(type(x), "__index__") and not hasattr(x, "__len__"))


def _factory_args(args, dtype, order, name):
    """(shape, dtype, order) from a factory's positional arguments.

    Note [Varargs shape or positional dtype]
        NumPy's factories are zeros(shape, dtype=None, order='C'), PyTorch's
        are zeros(*size).  Both spellings work: when every positional argument
        is an integer they are the dimensions (ones(2, 3)); otherwise the first
        is the shape and the next ones are NumPy's dtype and order
        (ones((2, 3), np.complex64), ones(3, "float32"), zeros(2, None, 'F')).
        The first parameter is `shape`, positional or keyword (the array
        API's zeros(shape=(2, 3))), the rest collected by *more.
        An integer can never be a dtype, so the two never collide; a dtype
        given both ways is NumPy's TypeError."""
    if len(args) == 1:  # the common cases first: zeros((2, 3)), zeros(4)
        return _shape(args, name), dtype, order
    if not args:
        raise TypeError(f"{name}() missing required argument 'shape' (pos 1)")
    if builtins.all(type(a) is int or _is_index(a) for a in args):
        return _shape(args, name), dtype, order
    rest = args[1:]
    if len(rest) > 2:
        raise TypeError(f"{name}() takes at most 3 positional arguments ({len(args)} given)")
    if rest:
        if dtype is not None:
            raise TypeError(f"argument for {name}() given by name ('dtype') and position "
                            "(position 1)")
        dtype = rest[0]
    if len(rest) == 2:
        order = rest[1]
    return _shape(args[:1], name), dtype, order


def _order(order, name):
    """'C' or 'F' (NumPy's order argument of the factories; None is 'C')."""
    order = order_letter(order, "C")
    if order in ("A", "K"):
        raise ValueError("only 'C' or 'F' order is permitted")
    return order


def _new(shape, dtype, device, order="C"):
    """An uninitialised tensor in C order, in Fortran order (a transposed C
    one), or, for order a permutation of the axes, laid out as the C order
    of the tensor with its axes so permuted (Note [Index orders] in _views.py)."""
    if isinstance(order, tuple):
        inverse = tuple(sorted(range(len(order)), key=order.__getitem__))
        return _C._empty(tuple(shape[a] for a in order), dtype, device).permute(inverse)._own()
    if order != "C" and len(shape) > 1:
        return _C._empty(tuple(shape)[::-1], dtype, device).T._own()
    return _C._empty(tuple(shape), dtype, device)


_NO_SHAPE = object()


def _bounds_device(*values):
    """The device of the tensors among a factory's bounds; the default
    device when they are 0-d CPU tensors only, which count as numbers, or
    when there are none."""
    device = operands_device(*values)
    if device is None or (device.type == "cpu" and all(v.ndim == 0 for v in values if isinstance(v, TensorBase))):
        return _C._default_device()
    return device


def _positional(shape, more):
    return () if shape is _NO_SHAPE else (shape,) + more


def _with_size(args, size, name):
    """The positional arguments args of a factory, with PyTorch's size=
    keyword (zeros(size=(2, 3))) standing for the shape."""
    if size is None:
        return args
    if args:
        raise TypeError(f"{name}() got multiple values for argument 'size' (the shape)")
    return (size,)


def _empty_general(shape=_NO_SHAPE, *more, dtype=None, order="C", device=None, like=None, pin_memory=False,
                   size=None):
    """empty(shape, dtype=None, order='C', *, device=None, pin_memory=False) or empty(*shape):
    uninitialised values (float64 by default)."""
    device = _like_device(like, device)
    shape, dtype, order = _factory_args(_with_size(_positional(shape, more), size, "empty"), dtype, order, "empty")
    t = _new(shape, _dtype_or(dtype, _C.float64), device, _order(order, "empty"))
    return _pinned(t, pin_memory, "empty")


def _zeros_general(shape=_NO_SHAPE, *more, dtype=None, order="C", device=None, like=None, pin_memory=False,
                   size=None):
    """zeros(shape, dtype=None, order='C', *, device=None, pin_memory=False) or zeros(*shape):
    a new tensor of zeros (float64 by default)."""
    device = _like_device(like, device)
    shape, dtype, order = _factory_args(_with_size(_positional(shape, more), size, "zeros"), dtype, order, "zeros")
    t = _new(shape, _dtype_or(dtype, _C.float64), device, _order(order, "zeros"))
    t._fill_(0)
    return _pinned(t, pin_memory, "zeros")


def _ones_general(shape=_NO_SHAPE, *more, dtype=None, order="C", device=None, like=None, pin_memory=False,
                  size=None):
    """ones(shape, dtype=None, order='C', *, device=None, pin_memory=False) or ones(*shape):
    a new tensor of ones (float64 by default)."""
    device = _like_device(like, device)
    shape, dtype, order = _factory_args(_with_size(_positional(shape, more), size, "ones"), dtype, order, "ones")
    t = _new(shape, _dtype_or(dtype, _C.float64), device, _order(order, "ones"))
    t._fill_(1)
    return _pinned(t, pin_memory, "ones")


def _pinned(t, pin_memory, name):
    """t, in page-locked memory when pin_memory (PyTorch's factories' keyword; CPU only)."""
    if not pin_memory:
        return t
    if t.device.type != "cpu":
        raise RuntimeError(f"{name}(pin_memory=True): only CPU tensors can be pinned, not one on {t.device}")
    return t.pin_memory()


def _scalar_dtype(value):
    """NumPy's dtype for a fill value given no dtype."""
    if isinstance(value, TensorBase):
        return value.dtype
    return _dtype_type(np.asarray(value).dtype)


_SCALAR_DTYPES = {float: _C.float64, bool: _C.bool, complex: _C.complex128}  # full's, as NumPy's
_SCALAR_TYPES = (float, bool, complex, int)


def full(shape=_NO_SHAPE, fill_value=_NO_SHAPE, dtype=None, order="C", *, device=None, like=None, pin_memory=False,
         size=None):
    """A new tensor filled with fill_value; the dtype follows fill_value as in NumPy
    (pin_memory=True: in page-locked memory, as PyTorch's keyword).

    Note [full with an array]
        As NumPy's, fill_value may be an array broadcast to the shape.  A
        tensor fill_value is copied on the device (no .item() through the
        host), and with device=None the result is on the tensor's device."""
    if size is not None or shape is _NO_SHAPE:  # PyTorch's full(size=, fill_value=)
        (shape,) = _with_size(_positional(shape, ()), size, "full") or (None,)
        if shape is None:
            raise TypeError("full() missing required argument 'shape' (pos 1)")
    if fill_value is _NO_SHAPE:
        raise TypeError("full() missing required argument 'fill_value' (pos 2)")
    device = _like_device(like, device)
    if (type(shape) is int or type(shape) is tuple) and (order == "C" or order is None):
        kind = type(fill_value)  # the per-call path: a Python scalar, no dtype to infer through NumPy
        if dtype is None:
            fast = _SCALAR_DTYPES.get(kind)
            if kind is int and -2 ** 63 <= fill_value < 2 ** 63:
                fast = _C.int64
        else:
            fast = dtype if type(dtype) is _dtype_type and kind in _SCALAR_TYPES else None
        if fast is not None:
            t = _C._empty((shape,) if type(shape) is int else shape, fast, device)
            t._fill_(fill_value)
            return _pinned(t, pin_memory, "full")
    if _is_index(shape):
        shape = (shape,)
    dtype = _scalar_dtype(fill_value) if dtype is None else _dtype_type(dtype)
    order = _order(order, "full")
    if isinstance(fill_value, (bool, int, float, complex, np.generic)):
        t = _new(_shape((shape,), "full"), dtype, device, order)
        t._fill_(fill_value)
        return _pinned(t, pin_memory, "full")
    if not isinstance(fill_value, TensorBase):
        fill_value = asarray(fill_value, device=device)
    elif device is None:
        device = fill_value.device
    t = _new(_shape((shape,), "full"), dtype, device, order)
    if fill_value.device != t.device:
        raise RuntimeError(f"Expected all tensors to be on the same device, but found at "
                           f"least two devices, {t.device} and {fill_value.device}!")
    from ._views import _broadcast_value
    t._copy_from(_broadcast_value(fill_value, t.shape))
    return _pinned(t, pin_memory, "full")


def _like(x, dtype, device, shape, order):
    """(shape, dtype, device, order) of a *_like result: x's unless given;
    NumPy's order: 'A' keeps a Fortran-contiguous x's layout, and 'K' (or
    None) x's memory order (its axes by decreasing |stride|) when the shape
    has x's number of axes, returned as that permutation of the axes (see
    _new) where it is neither C's nor Fortran's."""
    x = asarray(x)
    order = order_letter(order, "K")
    shape = x.shape if shape is None else _shape((shape,), "shape")
    if order in ("K", None) and len(shape) == x.ndim > 1 and not x.is_contiguous():
        order = _order_axes(x, "K")
        if order == tuple(range(x.ndim)):
            order = "C"
        elif order == tuple(range(x.ndim))[::-1]:
            order = "F"
    elif order != "F":
        order = "F" if (order == "A" and len(shape) == x.ndim > 1 and x.T.is_contiguous()
                        and not x.is_contiguous()) else "C"
    return shape, (x.dtype if dtype is None else dtype), (x.device if device is None else device), order


def _plain_like(x, dtype, order, shape, device):
    """Whether a *_like call is the common one: a C-contiguous tensor, and
    nothing but dtype given (its result: C order, x's shape and device)."""
    return (type(x) is _C.Tensor and order == "K" and shape is None and device is None and
            (dtype is None or type(dtype) is _dtype_type) and x.is_contiguous())


def empty_like(prototype, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """NumPy's empty_like (and the array API's): x's shape, dtype, device and layout unless given."""
    if _plain_like(prototype, dtype, order, shape, device):
        return _C._empty(prototype.shape, dtype or prototype.dtype, prototype.device)
    shape, dtype, device, order = _like(prototype, dtype, device, shape, order)
    if order == "C":  # the C factory's fast path takes no order=
        return empty(shape, dtype=dtype, device=device)
    return _new(shape, _dtype_type(dtype), device, order)


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """NumPy's zeros_like (and the array API's)."""
    if _plain_like(a, dtype, order, shape, device):
        t = _C._empty(a.shape, dtype or a.dtype, a.device)
        t._fill_(0)
        return t
    shape, dtype, device, order = _like(a, dtype, device, shape, order)
    if order == "C":  # the C factory's fast path takes no order=
        return zeros(shape, dtype=dtype, device=device)
    t = _new(shape, _dtype_type(dtype), device, order)
    t._fill_(0)
    return t


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """NumPy's ones_like (and the array API's)."""
    if _plain_like(a, dtype, order, shape, device):
        t = _C._empty(a.shape, dtype or a.dtype, a.device)
        t._fill_(1)
        return t
    shape, dtype, device, order = _like(a, dtype, device, shape, order)
    if order == "C":  # the C factory's fast path takes no order=
        return ones(shape, dtype=dtype, device=device)
    t = _new(shape, _dtype_type(dtype), device, order)
    t._fill_(1)
    return t


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """NumPy's full_like (and the array API's)."""
    shape, dtype, device, order = _like(a, dtype, device, shape, order)
    if not isinstance(order, tuple):
        return full(shape, fill_value, dtype=dtype, device=device, order=order)
    t = _new(shape, _dtype_type(dtype), device, order)
    t[...] = full(shape, fill_value, dtype=dtype, device=device)
    return t


# ---- from data ----

class NotNumbers(TypeError):
    """Data devtensor has no dtype for (None, strings, objects, dates): a
    TypeError, which NumPy's functions on CPU tensors answer with NumPy's
    own implementation (Note [NumPy's answer for data that is not numbers]
    in _numpy_dispatch.py)."""


NotNumbers.__module__ = "devtensor"  # tracebacks print devtensor.NotNumbers, a public name


def _to_numpy(obj, np_dtype=None, copy=False):
    """A NumPy array for Python data (nested lists, scalars, buffers); NumPy's
    default dtypes and NumPy 2's range checks for Python ints; object and
    string data are refused.  Buffers (bytes, bytearray, memoryview, array)
    are read through the buffer protocol: bytes become uint8, and without
    copy=True the array shares the buffer (read-only if the buffer is)."""
    if isinstance(obj, (bytes, bytearray)):
        obj = memoryview(obj)
    try:
        arr = np.array(obj, dtype=np_dtype, copy=True) if copy else \
            np.asarray(obj, dtype=np_dtype)
    except ValueError as e:  # ragged nested sequences: NumPy's words
        raise ValueError(str(e)) from None
    if arr.dtype.kind not in "biufc":
        if arr.dtype == object and arr.size and all(type(v) is int for v in arr.flat):
            raise NotNumbers(f"cannot make a tensor of {type(obj).__name__} data: Python integer "
                             f"{max(arr.flat, key=abs)} is out of bounds for int64 and uint64 (NumPy "
                             f"would give dtype object)")
        raise NotNumbers(f"cannot make a tensor of {type(obj).__name__} data: its elements are "
                         f"not numbers (NumPy would give dtype {arr.dtype})")
    if not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="))
    return arr


def _asarray_general(obj, dtype=None, device=None, copy=None, *, order=None, like=None):
    """obj as a tensor: tensors and CPU NumPy arrays are shared, not copied, when
    dtype and device already match and copy is not True; copy=False raises
    ValueError when a copy is needed; order='C' or 'F' copies one that is not
    contiguous in that order ('A', 'K' and None keep any layout)."""
    device = _like_device(like, device)
    order = order_letter(order, "K")
    t = _asarray_any_order(obj, dtype, device, copy)
    if order in ("C", "F") and not (t.is_contiguous() if order == "C" else t.T.is_contiguous()):
        if copy is False:
            raise ValueError(f"asarray(copy=False): a copy is needed for order={order!r}")
        t = t.copy(order)
    return t


def _asarray_any_order(obj, dtype=None, device=None, copy=None):
    if isinstance(obj, TensorBase):
        target_dtype = obj.dtype if dtype is None else _dtype_type(dtype)
        target_device = obj.device if device is None else _C._resolve_device(device)
        if not copy and target_device == obj.device and target_dtype == obj.dtype:
            return obj
        if copy is False:
            raise ValueError(f"asarray(copy=False): a copy is needed to make a {target_dtype} "
                             f"tensor on {target_device} from a {obj.dtype} tensor on {obj.device}")
        if target_device == obj.device and not obj.is_contiguous():  # NumPy's copy keeps the layout ('K')
            t = copy_(obj, order="K")
            return t if t.dtype == target_dtype else t.astype(target_dtype, order="K")
        return obj._to(target_device, target_dtype)
    if not isinstance(obj, (np.ndarray, np.generic, list, tuple, int, float, complex)):
        foreign = _foreign_cuda_tensor(obj)
        if foreign is not None:
            return _asarray_any_order(foreign, dtype, device, copy)
    if isinstance(obj, (list, tuple)):
        inside = _C._devices_inside(obj)  # Note [Tensors inside Python data] in conversion.c
        if len(inside) > 1 and device is None:
            raise RuntimeError(f"Expected all tensors to be on the same device, but found at "
                               f"least two devices, {inside[0]} and {inside[1]}!")
        if inside and (device is None or _C._resolve_device(device) == inside[0]):
            if copy is False:
                raise ValueError(f"asarray(copy=False): a {type(obj).__name__} cannot be shared "
                                 "without a copy")
            t = _from_nested_on_device(obj, inside[0])
            return t if dtype is None else t.astype(dtype, copy=False)
    if dtype is not None and _dtype_type(dtype) == _C.bfloat16:
        base = _to_numpy(obj)
        dev = _C._default_device() if device is None else device
        base = np.asarray(base, order="C")  # not ascontiguousarray: it makes a 0-d array 1-d
        return _C._from_numpy(base)._to(dev, _C.bfloat16)
    np_dtype = None if dtype is None else _dtype_type(dtype).numpy_dtype
    if isinstance(obj, np.ndarray) and obj.dtype.kind in "biufc" and obj.dtype.isnative:
        arr = obj if np_dtype is None or obj.dtype == np_dtype else None
        if arr is None:
            if copy is False:
                raise ValueError(f"asarray(copy=False): a copy is needed to cast {obj.dtype} "
                                 f"to {np_dtype}")
            arr = obj.astype(np_dtype)
            copy = None  # the cast made the copy
        # a read-only array is shared as a read-only tensor (Note [Read-only tensors])
    elif copy is False:
        arr = _shared_buffer(obj, np_dtype)
    else:
        arr = _to_numpy(obj, np_dtype, copy=bool(copy))
        copy = None
    if arr.ndim > _C.MAX_NDIM:
        raise ValueError(f"maximum supported dimension for a tensor is {_C.MAX_NDIM}, "
                         f"found {arr.ndim}")
    t = _C._from_numpy(arr)
    dev = _C._default_device() if device is None else _device_type(device)
    if dev.type != "cpu":
        if copy is False:
            raise ValueError(f"asarray(copy=False): moving host data to {dev} needs a copy")
        return t.to(dev)
    return copy_(t, order="K") if copy else t  # NumPy's copy keeps the layout ('K')


def _shared_buffer(obj, np_dtype):
    """asarray(obj, copy=False) of a non-ndarray: an object with the buffer
    protocol (bytearray, memoryview, array.array, ...) is shared as NumPy
    shares it; anything else, or a buffer that needs a cast, raises."""
    kind = type(obj).__name__
    if isinstance(obj, (bytes, bytearray)):
        obj = memoryview(obj)  # uint8, as asarray reads them (bytes read-only)
    try:
        memoryview(obj).release()
    except TypeError:
        raise ValueError(f"asarray(copy=False): a {kind} cannot be shared without a copy") from None
    try:
        arr = np.asarray(obj, dtype=np_dtype, copy=False)
    except ValueError:
        raise ValueError(f"asarray(copy=False): a {kind} of another dtype than {np_dtype} cannot "
                         "be shared without a copy") from None
    if arr.dtype.kind not in "biufc" or not arr.dtype.isnative:
        raise ValueError(f"asarray(copy=False): a buffer of {arr.dtype} cannot be shared without "
                         "a copy (devtensor has no such dtype)")
    return arr


def _from_nested_on_device(obj, device):
    """Nested lists and tuples holding tensors on device as one tensor there
    (Note [Tensors inside Python data] in csrc/python/conversion.c): each
    level stacked, tensors moved to device, other data converted as NumPy
    converts it, the dtypes promoted as in NumPy's conversion (a list's
    elements are all strong: [float32 scalar tensor, 1.0] gives float64)."""
    from ._manipulation import stack
    if isinstance(obj, (list, tuple)):
        if len(obj) == 0:
            return _asarray_any_order(obj, None, device, None)
        parts = [_from_nested_on_device(o, device) for o in obj]
        shapes = sorted({p.shape for p in parts})
        if len(shapes) > 1:
            raise ValueError(f"cannot make a tensor of this data: a nested sequence holds elements "
                             f"of different shapes {', '.join(map(str, shapes))} (NumPy: inhomogeneous shape)")
        return stack(parts)
    if isinstance(obj, TensorBase):
        return obj if obj.device == device else obj.to(device)
    return _asarray_any_order(obj, None, device, None)


def _foreign_cuda_tensor(obj):
    """A tensor over the CUDA memory of another library's array (CuPy, Numba,
    PyTorch, JAX), without a copy, or None when obj has none: through its
    __cuda_array_interface__, else its DLPack capsule of a CUDA device."""
    dlpack = hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__") and \
        obj.__dlpack_device__()[0] == 2
    try:
        cai = obj.__cuda_array_interface__
    except AttributeError:  # none, or a CPU tensor of a library that has it for CUDA ones
        cai = None
    except Exception:  # a producer that cannot describe this array (an unmapped dtype)
        if not dlpack:
            raise
        cai = None
    if cai is not None:
        try:
            return _from_cuda_array_interface(obj, cai)
        except BufferError:
            # DLPack may say what the interface cannot (PyTorch exports bfloat16 as "<V2")
            if not dlpack or not str(cai.get("typestr", "")).lstrip("<>|=").startswith("V"):
                raise
    return from_dlpack(obj) if dlpack else None


def _from_cuda_array_interface(owner, cai):
    """A CUDA tensor over the memory a CUDA Array Interface dictionary (version
    3 and earlier) describes, keeping owner alive (Note [Foreign device memory]
    in csrc/python/cuda_array_interface.c).  The tensor is read-only when the
    producer says so; work pending on the producer's "stream" is waited for on
    devtensor's current stream."""
    if not isinstance(cai, dict):
        raise BufferError(f"__cuda_array_interface__ must be a dict, got {type(cai).__name__}")
    missing = [k for k in ("shape", "typestr", "data") if k not in cai]
    if missing:
        raise BufferError(f"__cuda_array_interface__ has no {missing[0]!r}")
    if cai.get("mask") is not None:
        raise BufferError("__cuda_array_interface__: masked arrays are not supported")
    version = cai.get("version", 3)
    if type(version) is not int or not 0 <= version <= 3:
        raise BufferError(f"__cuda_array_interface__: version {version!r} is not one of 0 to 3")
    typestr = cai["typestr"]
    try:
        if not isinstance(typestr, str):  # np.dtype(None) would be float64
            raise TypeError
        np_dtype = np.dtype(typestr)
        dtype = _dtype_type(np_dtype) if np_dtype.kind in "biufc" and np_dtype.isnative else None
    except TypeError:
        np_dtype = dtype = None
    if dtype is None:
        raise BufferError(f"__cuda_array_interface__: devtensor has no dtype for typestr {typestr!r} "
                          f"(a NumPy type string of a number in the machine's byte order)")
    data = cai["data"]
    if not isinstance(data, tuple) or len(data) != 2:
        raise BufferError("__cuda_array_interface__: data must be a tuple (address, read-only)")
    stream = cai.get("stream")
    if stream is not None:
        if isinstance(stream, bool):
            raise BufferError("__cuda_array_interface__: stream must be an int or None")
        stream = operator.index(stream)
        if stream == 0:
            raise BufferError("__cuda_array_interface__: stream 0 is disallowed (it does not "
                              "say which default stream); use 1 (legacy) or 2 (per-thread)")
        if stream < 0:
            raise BufferError(f"__cuda_array_interface__: stream {stream} is not a stream handle")
    address = operator.index(data[0])
    if address < 0:
        raise BufferError(f"__cuda_array_interface__: address {address} is negative")
    strides = cai.get("strides")
    return _C._from_cuda_pointer(owner, address, tuple(cai["shape"]),
                                 None if strides is None else tuple(strides),
                                 dtype, bool(data[1]), stream)


def _tensor_general(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor holding a copy of data (nested lists, scalars, arrays,
    tensors); requires_grad=True is refused (Note [No autograd] in
    _torch_methods.py), pin_memory=True gives page-locked CPU memory."""
    if requires_grad:
        from ._torch_methods import NO_AUTOGRAD
        raise NotImplementedError(NO_AUTOGRAD)
    if pin_memory:
        return _pinned(_tensor_general(data, dtype, device), True, "tensor")
    if isinstance(data, TensorBase):
        dtype = data.dtype if dtype is None else dtype
        device = _tensor_device(data) if device is None else device
        return data.to(device, dtype, copy=True)
    return asarray(data, dtype=dtype, device=device, copy=True)


def _tensor_device(t):
    """Where tensor(t) and as_tensor(t) put a tensor given no device.

    Note [tensor() under a default device]
        PyTorch's tensor(t) and as_tensor(t) keep t's device, but its
        set_default_device applies to them as to every factory, so under a
        default device they create there.  devtensor's default is cpu
        until one is set: a default other than cpu takes the tensor there
        (asarray and array, NumPy's and the array API's, keep its device)."""
    default = _C._default_device()
    return t.device if default.type == "cpu" else default


# the common calls are answered in C, the rest by the functions above
# (Note [Conversions in C] in csrc/python/conversion.c)
asarray = _C.asarray
array = _C.array
tensor = _C.tensor
empty = _C.empty  # Note [Factories in C] in csrc/python/creation.c; else _empty_general
zeros = _C.zeros
ones = _C.ones
arange = _C.arange  # Note [arange in C] in csrc/python/creation.c; else _arange_general


_NO_COPY = "Unable to avoid copy while creating an array as requested."


def _array_general(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, device=None, like=None):
    """array (_C.array; its common call, a list or tuple alone, is answered in C)."""
    device = _like_device(like, device)
    order = order_letter(order, "K")
    ndmin = operator.index(ndmin)
    if ndmin > _C.MAX_NDIM:
        raise ValueError(f"ndmin must be <= ndmax ({_C.MAX_NDIM})")
    if copy is not None:
        copy = builtins.bool(copy)
    if order == "A":  # Fortran order for a Fortran-contiguous source, else C
        flags = getattr(object, "flags", None)
        order = "F" if flags is not None and flags.f_contiguous and not flags.c_contiguous else "C"
    try:
        t = asarray(object, dtype=dtype, device=device, copy=copy)
    except ValueError as e:
        if copy is False and str(e).startswith("asarray(copy=False)"):
            raise ValueError(_NO_COPY) from None
        raise
    if order == "F" and t.ndim > 1 and not t.T.is_contiguous():
        if copy is False:
            raise ValueError(_NO_COPY)
        t = _copy_in_order(t, "F", t.device)
    elif order == "C" and not t.is_contiguous():  # a copy keeps its source's layout ('K')
        if copy is False:
            raise ValueError(_NO_COPY)
        t = t.copy()
    if t.ndim < ndmin:
        t = t.reshape((1,) * (ndmin - t.ndim) + t.shape)
    return t


# the general functions answer to the public names in Python's messages
# ("asarray() missing 1 required positional argument: 'obj'")
_asarray_general.__qualname__, _array_general.__qualname__, _tensor_general.__qualname__ = (
    "asarray", "array", "tensor")


def _copy_in_order(t, order, device):
    out = _new(t.shape, t.dtype, device, order)
    out._copy_from(t)
    return out


def copy(a, order="K", subok=False):
    """NumPy's copy: a copy of a on its device, laid out as order says (C,
    Fortran, 'A' or its own layout 'K', the default); data that is not a
    tensor becomes a tensor on the default device."""
    t = a if isinstance(a, TensorBase) else asarray(a)
    order = order_letter(order, "K")
    if order == "C" or (order != "F" and t.is_contiguous()):
        return t.copy()
    return t.copy(order or "K")  # Note [Index orders] in _views.py; None is 'K' here, as NumPy's


copy_ = copy  # for functions with a parameter named copy


def identity(n, dtype=None, *, device=None, like=None):
    """The n x n identity matrix (float64 by default)."""
    device = _like_device(like, device)
    return eye(n, dtype=dtype, device=device)


def _from_host(arr, dtype, device):
    """A tensor on device for the host array arr (one copy to a device; a
    bfloat16 dtype is a cast on the device)."""
    t = asarray(arr, device=device)
    return t if dtype is None or dtype == t.dtype else t.astype(dtype)


def _host_dtype(dtype):
    """(NumPy dtype to read host data in, our dtype to end with or None)."""
    if dtype is None:
        return np.float64, None
    dtype = _dtype_type(dtype)
    if dtype == _C.bfloat16:
        return np.float32, dtype
    return dtype.numpy_dtype, None


def fromiter(iter, dtype, count=-1, *, device=None, like=None):
    """A 1-d tensor of the values an iterable yields (NumPy's fromiter: the
    dtype is required; count=-1 reads them all)."""
    device = _like_device(like, device)
    np_dtype, cast = _host_dtype(dtype)
    return _from_host(np.fromiter(iter, np_dtype, operator.index(count)), cast, device)


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, device=None, like=None):
    """A 1-d tensor of a buffer's bytes read as dtype (NumPy's frombuffer).
    On the cpu it shares the buffer's memory (read-only when the buffer is);
    on a device it is a copy."""
    device = _like_device(like, device)
    np_dtype, cast = _host_dtype(dtype)
    if cast is not None:  # bfloat16: the bytes are read as uint16 and reinterpreted
        arr = np.frombuffer(buffer, np.uint16, operator.index(count), operator.index(offset))
        t = asarray(arr, device=device)
        return t._reinterpret(cast, t.shape, t.strides)
    arr = np.frombuffer(buffer, np_dtype, operator.index(count), operator.index(offset))
    return asarray(arr, device=device)


def _consumer_stream(index):
    """The DLPack stream number of devtensor's current stream of CUDA device
    index: its handle, or 1 (the legacy default stream) for the default one."""
    try:
        from . import cuda
        return cuda.current_stream(index).cuda_stream or 1
    except (RuntimeError, ValueError, TypeError):  # no such device here: from_dlpack says why
        return 1


def from_dlpack(x, /, *, device=None, copy=None):
    """A tensor sharing the memory of any DLPack producer (a PyTorch or CuPy
    tensor, a NumPy array, a JAX array, ...); copy=True copies it, device=
    moves it (a copy, which copy=False refuses with BufferError, as the array
    API asks). A devtensor tensor is taken as it is, with no capsule: a new
    tensor sharing its memory, on any device (emulated ones have no DLPack)."""
    if isinstance(x, TensorBase):
        t = x.view()
    elif not hasattr(x, "__dlpack__"):
        raise TypeError(f"from_dlpack() needs an object with __dlpack__, got {type(x).__name__}")
    else:
        t = _from_dlpack_producer(x)
    if device is not None:
        target = _C._resolve_device(device)
        if target != t.device:
            if copy is False:
                raise BufferError(f"from_dlpack(copy=False): the data is on {t.device}, and moving "
                                  f"it to {target} needs a copy")
            return t.to(target)
    return t.copy() if copy else t


def _from_dlpack_producer(x):
    """The tensor imported from x.__dlpack__(), asked for DLPack 1.x first."""
    kind, index = x.__dlpack_device__() if hasattr(x, "__dlpack_device__") else (1, 0)
    # CUDA producers order their work before the consumer's stream: devtensor's
    # current stream of that device (1, the legacy stream, for its default one)
    kwargs = {"stream": _consumer_stream(index)} if kind == 2 else {}
    try:  # DLPack 1.x (with a read-only flag); older producers take no max_version
        capsule = x.__dlpack__(max_version=(1, 0), **kwargs)
    except TypeError:
        capsule = x.__dlpack__(**kwargs)
    return _C._from_dlpack(capsule)


def from_numpy(array):
    """A CPU tensor sharing the NumPy array's memory (PyTorch's torch.from_numpy)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    return asarray(array, copy=False, device="cpu")  # whatever the default device


# ---- ranges ----

def _is_int(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _arange_length(start, stop, step, all_int):
    """NumPy's arange length: ceil((stop - start) / step), with NumPy's rule for a
    quotient that underflows to zero (an infinite step gives one value, [start])."""
    if all_int:  # NumPy's: the exact difference over step, correctly rounded to a float
        length = max(0, math.ceil((stop - start) / step))
        if length > _INT64_MAX:
            raise ValueError("Maximum allowed size exceeded")
        return length
    delta = float(stop) - float(start)
    quotient = delta / float(step)
    if math.isnan(quotient):
        raise ValueError("arange: cannot compute length")
    if math.isinf(quotient):
        raise ValueError("Maximum allowed size exceeded")
    if quotient == 0.0 and delta != 0.0:
        return 0 if math.copysign(1.0, quotient) < 0 else 1
    return max(0, math.ceil(quotient))


_INTEGER_RANGES = {}


def _check_arange_values(dtype, values):
    """NumPy's check of arange's first two values (Python ints) in an
    integer dtype: past 64 bits its conversion's OverflowError, else the
    dtype's own; the values after them wrap, as NumPy's."""
    bounds = _INTEGER_RANGES.get(dtype)
    if bounds is None:
        info = np.iinfo(dtype.numpy_dtype)
        bounds = _INTEGER_RANGES[dtype] = (int(info.min), int(info.max))
    for v in values:
        if not bounds[0] <= v <= bounds[1]:
            if not (-_INT64_MAX - 1 <= v <= _INT64_MAX or (dtype == _C.uint64 and 0 <= v <= 2 * _INT64_MAX + 1)):
                raise OverflowError("Python int too large to convert to C long")
            raise OverflowError(f"Python integer {v} out of bounds for {dtype}")


def _wrap64(v):
    """v's low 64 bits as a signed int (v itself within int64)."""
    return (v + 2 ** 63) % 2 ** 64 - 2 ** 63


_ARANGE_PARAMETERS = ("start", "stop", "step", "dtype", "device")
_INT64_MAX = 2**63 - 1


def _arange_general(*args, like=None, **kwargs):
    """arange([start,] stop[, step,], dtype=None, device=None, *, like=None):
    evenly spaced values in [start, stop), NumPy's arange (int64 for ints,
    float64 when any bound is a float).  As NumPy, the values are
    first + i * (second - first), where first = start and second = start + step
    are computed once and cast to the dtype: so arange(0.5, 5, 1.5,
    dtype=int32) is [0, 2, 4].  As NumPy's, arange(stop=5) starts at 0 and a
    lone positional bound is the stop (arange(5)), but arange(start=5) needs
    a stop: hence the parameters are parsed here."""
    names = _ARANGE_PARAMETERS
    if len(args) > len(names):
        raise TypeError(f"arange() takes at most {len(names)} positional arguments ({len(args)} given)")
    for k in kwargs:
        if k not in names:
            raise TypeError(f"arange() got an unexpected keyword argument '{k}'")
        if names.index(k) < len(args):
            raise TypeError(f"argument for arange() given by name ('{k}') and position "
                            f"(position {names.index(k)})")
    given = dict(zip(names, args), **kwargs)
    start, stop, step = given.get("start"), given.get("stop"), given.get("step")
    dtype, device = given.get("dtype"), _like_device(like, given.get("device"))
    if stop is None:
        if not args or start is None:
            raise TypeError("arange() requires stop to be specified.")
        start, stop = 0, start
    elif start is None:
        start = 0
    if step is None:
        step = 1
    if device is None:  # bounds that are 0-d tensors: their device, as linspace's
        device = _bounds_device(start, stop, step)
    start, stop, step = (int(v) if isinstance(v, (bool, np.bool_)) else
                         v.item() if isinstance(v, TensorBase) and v.ndim == 0 and v.dtype.kind in "biuf" else v
                         for v in (start, stop, step))
    for v in (start, stop, step):
        if not isinstance(v, (int, float, np.integer, np.floating)):
            if dtype is not None:
                _dtype_type(dtype)  # an unsupported dtype (datetime64[D]) says so first
            raise TypeError(f"arange() arguments must be real numbers, got {type(v).__name__}")
    all_int = _is_int(start) and _is_int(stop) and _is_int(step)
    if step == 0:  # NumPy's words: Python's for its division
        raise ZeroDivisionError("division by zero" if all_int else "float division by zero")
    if all_int:
        start, stop, step = operator.index(start), operator.index(stop), operator.index(step)
    length = _arange_length(start, stop, step, all_int)
    if dtype is None:
        dtype = _C.int64 if all_int else _C.float64
        if all_int and not all(-_INT64_MAX - 1 <= v <= _INT64_MAX for v in (start, stop, step)):
            if not all(-_INT64_MAX - 1 <= v <= 2 * _INT64_MAX + 1 for v in (start, stop, step)):
                raise TypeError("arange() of integers beyond 64 bits needs NumPy's object dtype, which "
                                "devtensor does not have")
            dtype = _C.float64  # NumPy's int64 with uint64: float64 (the length still counted exactly)
    dtype = _dtype_type(dtype)
    if dtype == _C.bool and length > 2:
        raise TypeError("arange() is only supported for booleans when the result has at most "
                        "length 2.")
    t = _C._empty((length,), dtype, device)
    if length == 0:
        return t
    if dtype.kind in "iu":
        if not all_int:  # first and second cast to the integer dtype (truncation)
            first = int(float(start))
            start, step = first, int(float(start) + float(step)) - first
        _check_arange_values(dtype, (start, start + step) if length > 1 else (start,))
        # in 64 wrapping bits (backend.h's DT_GEN_AFFINE): the first two values
        # are the dtype's, and a uint64 start past int64's range (or a step
        # past it) passes as its two's complement
        t._generate_(_C.GEN_AFFINE, _wrap64(start), _wrap64(step))
    elif dtype.kind == "b":  # at most two values: start and start + step, as truths
        t = arange(start, stop, step, device=device)
        return t.astype(_C.bool)
    else:
        # NumPy fills start + i * delta with delta = (start + step) - start
        # (one value is start alone, even for an infinite step)
        delta = (float(start) + float(step)) - float(start) if length > 1 else 0.0
        t._generate_(_C.GEN_AFFINE, float(start), delta)
        if float(start) == 0.0 and math.copysign(1.0, float(start)) < 0:
            t._as_strided((1,), (t.itemsize,), 0)._fill_(-0.0)  # -0.0 + 0 * delta is +0.0
    return t


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None, steps=None):
    """num evenly spaced values from start to stop (NumPy's linspace): real
    or complex bounds, or arrays of them (a sequence along axis); retstep
    also returns the spacing.  PyTorch's steps= names num."""
    if steps is not None:
        num = steps
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = (num - 1) if endpoint else num
    if not (isinstance(start, (int, float)) and isinstance(stop, (int, float))) or axis != 0:
        return _linspace_general(start, stop, num, div, endpoint, retstep, dtype, axis, device)
    start, stop = float(start), float(stop)
    step = (stop - start) / div if div > 0 else math.nan
    dtype = _C.float64 if dtype is None else _dtype_type(dtype)
    t = _C._empty((num,), _C.float64, device)
    if num > 0:
        t._generate_(_C.GEN_AFFINE, start, 0.0 if div == 0 else step)
        if endpoint and num > 1:
            t._as_strided((1,), (8,), num - 1)._fill_(stop)
    if dtype.kind in "iu":  # NumPy floors before casting to an integer dtype
        from ._ufuncs import floor
        t = floor(t)
    t = t if dtype == _C.float64 else t.astype(dtype)
    if div > 0:
        step = np.float64(step)  # NumPy's step: a float64 scalar (a Python nan without steps)
    return (t, step) if retstep else t


def _linspace_general(start, stop, num, div, endpoint, retstep, dtype, axis, device):
    """linspace of arrays or complex bounds, or along another axis: NumPy's
    formula (start + i * step, the last value stop) in tensors on the bounds'
    device (or device=)."""
    from ._manipulation import moveaxis
    from ._reductions import any as any_
    from ._ufuncs import floor
    if device is None:
        device = _bounds_device(start, stop)
    from ._dtype_api import result_type
    # NumPy's float type of the bounds: Python numbers are weak (float32
    # bounds and a float stop stay float32), integers give float64
    work = result_type(*(v if isinstance(v, (int, float, complex)) else asarray(v, device=device)
                         for v in (start, stop)))
    if work.kind in "biu":
        work = _C.float64
    start = asarray(start, device=device).astype(work)
    stop = asarray(stop, device=device).astype(work)
    dtype = work if dtype is None else _dtype_type(dtype)
    delta = stop - start
    y = arange(0, num, dtype=work, device=start.device).reshape((-1,) + (1,) * delta.ndim)
    if div > 0:
        step = delta / div
        if any_(step == 0).item():
            y = y / div * delta
        else:
            y = y * step
    else:
        step = math.nan
        y = y * delta
    y = y + start
    if endpoint and num > 1:
        y[-1, ...] = stop
    if axis != 0:
        y = moveaxis(y, 0, axis)
    if dtype.kind in "iu":
        y = floor(y)
    y = y.astype(dtype)
    if retstep and isinstance(step, TensorBase) and step.ndim == 0:
        step = step.item()
    return (y, step) if retstep else y


def _real_scalar(x, name):
    """x as a host scalar of NumPy (a Python number, a NumPy scalar or 0-d
    array, or a 0-d cpu tensor); device tensors are refused rather than read
    back to the host."""
    if isinstance(x, TensorBase):
        if x.ndim != 0 or x.device.type != "cpu":
            raise TypeError(f"{name}(): start and stop must be scalars on the host "
                            f"(got a {x.ndim}-d tensor on {x.device})")
        x = x.numpy()
    x = np.asarray(x)
    if x.ndim != 0 or x.dtype.kind not in "biuf":
        raise TypeError(f"{name}(): start and stop must be real scalars (array and complex "
                        f"bounds are not supported yet), got {x.dtype} of shape {x.shape}")
    return x[()]


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, *,
             device=None):
    """base ** linspace(start, stop, num, endpoint), computed on the device
    (NumPy's logspace; an integer dtype truncates, as NumPy's astype).
    Array or complex bounds and bases broadcast, the sequence along axis."""
    if not all(_is_host_real_scalar(v) for v in (start, stop, base)):
        return _logspace_general(start, stop, num, endpoint, base, dtype, axis, device)
    start, stop = _real_scalar(start, "logspace"), _real_scalar(stop, "logspace")
    _check_axis(axis, "logspace")
    # NumPy's linspace works in the bounds' float type (float32 bounds stay
    # float32); float64 work takes linspace's path for Python floats
    work = np.result_type(start, stop, float(num))
    if work == np.float64:
        start, stop = float(start), float(stop)
    y = linspace(start, stop, num, endpoint, dtype=work, device=device)
    from ._ufuncs import power
    out = power(_real_scalar(base, "logspace").item(), y)
    return out if dtype is None else out.astype(dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0, *, device=None):
    """A geometric sequence from start to stop (NumPy's geomspace: the
    endpoints are exact, negative bounds give negative values, an integer
    dtype floors).  Array or complex bounds broadcast, the sequence along
    axis."""
    if not (_is_host_real_scalar(start) and _is_host_real_scalar(stop)):
        return _geomspace_general(start, stop, num, endpoint, dtype, axis, device)
    start, stop = _real_scalar(start, "geomspace"), _real_scalar(stop, "geomspace")
    _check_axis(axis, "geomspace")
    num = operator.index(num)
    if start == 0 or stop == 0:
        raise ValueError("Geometric sequence cannot include zero")
    work = np.result_type(start, stop, float(num),
                          np.zeros((), _host_dtype(dtype)[0] if dtype is not None else None))
    dtype = _dtype_type(work) if dtype is None else _dtype_type(dtype)
    # Note [geomspace on the host's scalars]: the bounds are host scalars, so
    # their sign and logarithms are NumPy's own (with its warning and NaN for
    # bounds of opposite signs); only the sequence is made on the device.
    start, stop = np.asarray(start, work), np.asarray(stop, work)
    sign = np.sign(start)
    start, stop = start / sign, stop / sign
    out = logspace(np.log10(start), np.log10(stop), num, endpoint, device=device)
    out = out.astype(_dtype_type(work), copy=False)
    if num > 0:
        out[0] = start.item()
        if num > 1 and endpoint:
            out[-1] = stop.item()
    if sign != 1:
        out = out * sign.item()
    if dtype.kind in "iu":
        from ._ufuncs import floor
        out = floor(out)
    return out.astype(dtype, copy=False)


def _is_host_real_scalar(x):
    """x is a real number on the host (a Python or NumPy scalar, a 0-d array
    or a 0-d cpu tensor): the bounds the scalar paths of logspace and
    geomspace take."""
    if isinstance(x, TensorBase):
        return x.ndim == 0 and x.device.type == "cpu" and x.dtype.kind in "biuf"
    if isinstance(x, (int, float, np.integer, np.floating)):
        return True
    return isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "biuf"


def _bounds_as_tensors(values, device):
    """Tensors of logspace/geomspace's array bounds on one device (the
    tensors', a 0-d CPU one going with the others; or device=), each with
    the broadcast number of dimensions, as NumPy's ndmin."""
    if device is None:
        device = _bounds_device(*values)
    values = [asarray(v, device=device) for v in values]
    ndim = builtins.max(v.ndim for v in values)
    return [v.reshape((1,) * (ndim - v.ndim) + v.shape) for v in values]


def _logspace_general(start, stop, num, endpoint, base, dtype, axis, device):
    """logspace of array or complex bounds or bases, as NumPy's: an array of
    bases broadcasts with the bounds and gets the sequence's axis; a Python
    number base leaves the bounds' float type (float32 bounds stay float32)."""
    from ._ufuncs import power
    from ._views import expand_dims
    if not isinstance(base, (float, int)) and np.ndim(base):
        start, stop, base = _bounds_as_tensors((start, stop, base), device)
        base = expand_dims(base, axis)
    y = linspace(start, stop, num, endpoint, axis=axis, device=device)
    out = power(base, y)
    return out if dtype is None else out.astype(dtype, copy=False)


def _geomspace_general(start, stop, num, endpoint, dtype, axis, device):
    """geomspace of array or complex bounds, NumPy's algorithm on the bounds'
    device: the sequence of the bounds divided by start's sign (z/|z| for
    complex), exact endpoints, then the sign back."""
    from ._dtype_api import result_type
    from ._manipulation import moveaxis
    from ._reductions import any as any_
    from ._ufuncs import floor, log10, sign
    start, stop = _bounds_as_tensors((start, stop), device)
    if any_(start == 0).item() or any_(stop == 0).item():
        raise ValueError("Geometric sequence cannot include zero")
    num = operator.index(num)
    work = result_type(start, stop, float(num), _C.float64 if dtype is None else _dtype_type(dtype))
    dtype = work if dtype is None else _dtype_type(dtype)
    start, stop = start.astype(work), stop.astype(work)
    out_sign = sign(start)
    start, stop = start / out_sign, stop / out_sign
    out = logspace(log10(start), log10(stop), num, endpoint, dtype=work)
    if num > 0:
        out[0] = start
        if num > 1 and endpoint:
            out[-1] = stop
    out = out_sign * out
    if axis != 0:
        out = moveaxis(out, 0, axis)
    if dtype.kind in "iu":
        out = floor(out)
    return out.astype(dtype, copy=False)


def _check_axis(axis, name):
    """The 1-d sequences of scalar bounds have only axis 0 (or -1)."""
    if operator.index(axis) not in (0, -1):
        from numpy.exceptions import AxisError
        raise AxisError(axis, 1)


def eye(N, M=None, k=0, dtype=None, device=None, *, m=None, n_cols=None, order="C", like=None):
    """A 2-D tensor with ones on the k-th diagonal and zeros elsewhere.
    The number of columns is NumPy's M, PyTorch's m or the array API's n_cols."""
    device = _like_device(like, device)
    given = [c for c in (M, m, n_cols) if c is not None]
    if len(given) > 1:
        raise TypeError("eye(): give the number of columns once (M, m or n_cols)")
    M = given[0] if given else None
    N = operator.index(N)
    M = N if M is None else operator.index(M)
    k = operator.index(k)
    t = zeros((N, M), dtype=dtype, device=device)
    length = builtins.max(0, builtins.min(N, M - k) if k >= 0 else builtins.min(N + k, M))
    if length > 0:
        first = k if k >= 0 else -k * M
        t._as_strided((length,), ((M + 1) * t.itemsize,), first)._fill_(1)
    if _order(order, "eye") == "F":
        return _copy_in_order(t, "F", t.device)
    return t


# The general functions answer the C factories' calls they leave (Note
# [Conversions in C]): Python's errors for their arguments name the public
# function ("zeros() got an unexpected keyword argument ..."), not ours.
for _general, _public in ((_empty_general, "empty"), (_zeros_general, "zeros"), (_ones_general, "ones"),
                          (_asarray_general, "asarray"), (_tensor_general, "tensor"), (_array_general, "array"),
                          (_arange_general, "arange")):
    _general.__qualname__ = _public
del _general, _public
