"""devtensor.Tensor: the Python half of the tensor type.

The C base (devtensor._C.TensorBase) holds the data, the attributes and the
operators; this class adds the methods whose arguments are rich: movement
with PyTorch's rules, NumPy interop, scalar conversion, printing, and
indexing and views (thin methods over devtensor/_views.py).
"""

import numpy as np

from . import _C
from ._C import TensorBase, device as _device_type, dtype as _dtype_type
from ._numpy_dispatch import (
    NotNumbers as _NotNumbers, array_function as _array_function, array_ufunc as _array_ufunc,
    direct_implementations as _direct_implementations, direct_ufunc_ops as _direct_ufunc_ops,
    direct_scan_ops as _direct_scan_ops,
    numpy_s_for_not_numbers as _numpy_s_for_not_numbers,
)
from . import _flatiter, _views
from ._views import _order_axes
from ._ndarray import ndarray as _ndarray
from ._order import order_letter


def _as_dtype(obj):
    """Our dtype for obj, or None if obj does not name one."""
    if isinstance(obj, _dtype_type):
        return obj
    if isinstance(obj, (str, type, np.dtype)):
        try:
            return _dtype_type(obj)
        except TypeError:
            return None
    return None


def _as_device(obj):
    """A device for obj (a device, 'cpu', 'cuda:N' or an int), or None."""
    if isinstance(obj, _device_type):
        return obj
    if isinstance(obj, str):
        return _device_type(obj)  # neither a dtype nor a device: raises, naming the forms
    if isinstance(obj, int) and not isinstance(obj, bool):
        return _device_type(obj)
    return None


def _to_general(self, *args, **kwargs):
    """Tensor.to(device=None, dtype=None, *, copy=False, non_blocking=False),
    to(dtype), to(other): self when the tensor already has that device and
    dtype (unless copy=True); otherwise a new tensor, leaving self untouched."""
    device, dtype, non_blocking, copy = _parse_to_args(args, kwargs)
    device = self.device if device is None else _C._resolve_device(device)
    dtype = self.dtype if dtype is None else dtype
    if device == self.device:
        if not copy and dtype == self.dtype:
            return self
        order = _dense_axis_order(self)
        if order is not None:  # PyTorch's preserve_format on the tensor's own device
            inverse = sorted(range(self.ndim), key=order.__getitem__)
            return self.permute(order)._to(device, dtype, non_blocking).permute(inverse)._own()
    return self._to(device, dtype, non_blocking)


def _dense_axis_order(t):
    """The axes of t from the largest stride to the smallest when t is not
    C-ordered but fills its memory densely in that order (a transpose, a
    Fortran-ordered tensor), else None: the layout .to() keeps on a device
    (Note [Moves keep a dense layout] in csrc/core/tensor.c)."""
    if t.ndim < 2 or t.is_contiguous():
        return None
    order = sorted(range(t.ndim), key=lambda i: -t.strides[i])
    return order if t.permute(order).is_contiguous() else None


def _cuda_general(self, device=None, non_blocking=False):
    """Tensor.cuda: this tensor on a CUDA device (default: the current one);
    self if already there."""
    if device is None:
        device = _device_type("cuda")
    as_device = _as_device(device) if not isinstance(device, _device_type) else device
    if as_device is None:
        raise TypeError(f"cuda() expects a CUDA device (an int, 'cuda:N' or a device), "
                        f"got {type(device).__name__}: {device!r}")
    if as_device.type != "cuda":
        raise ValueError(f"cuda() expects a CUDA device, got {as_device}")
    device = as_device
    return self.to(device, non_blocking=non_blocking)


def _parse_to_args(args, kwargs):
    """PyTorch's Tensor.to signatures:
    to(dtype, non_blocking=False, copy=False)
    to(device=None, dtype=None, non_blocking=False, copy=False)
    to(other, non_blocking=False, copy=False)
    """
    kwargs = dict(kwargs)
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    non_blocking = kwargs.pop("non_blocking", False)
    copy = kwargs.pop("copy", False)
    if kwargs:
        raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if device is not None:
        device = _device_type(device) if not isinstance(device, _device_type) else device
    if dtype is not None:
        dtype = _dtype_type(dtype)
    args = list(args)

    def conflict(what):
        raise TypeError(f"to() received {what} twice (positionally and by keyword)")

    if args and isinstance(args[0], TensorBase):
        other = args.pop(0)
        if device is not None or dtype is not None:
            raise TypeError("to(other) takes its device and dtype from `other`; "
                            "do not also pass device= or dtype=")
        device, dtype = other.device, other.dtype
    elif args and args[0] is not None and not isinstance(args[0], bool):
        first = args.pop(0)
        as_dtype = _as_dtype(first) if not isinstance(first, int) else None
        if as_dtype is not None:
            if dtype is not None:
                conflict("a dtype")
            dtype = as_dtype
        else:
            as_device = _as_device(first)
            if as_device is None:
                raise TypeError(f"to() expected a device, a dtype or a tensor, "
                                f"got {type(first).__name__}: {first!r}")
            if device is not None:
                conflict("a device")
            device = as_device
            if args and not isinstance(args[0], bool) and args[0] is not None:
                second = _as_dtype(args.pop(0))
                if second is None:
                    raise TypeError("to(device, dtype): the second argument must be a dtype")
                if dtype is not None:
                    conflict("a dtype")
                dtype = second
    elif args and args[0] is None:
        args.pop(0)
    if len(args) > 2:
        raise TypeError(f"to() takes at most 4 positional arguments ({len(args) + 2} given)")
    if args:
        non_blocking = args.pop(0)
    if args:
        copy = args.pop(0)
    for name, flag in (("non_blocking", non_blocking), ("copy", copy)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"to(): {name} must be a bool, got {type(flag).__name__}: {flag!r}")
    return device, dtype, bool(non_blocking), bool(copy)


def astype_general(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
    """Tensor.astype's forms other than astype(dtype) (TensorBase.astype, in C),
    NumPy's signature: the values cast to dtype on the same device; casting
    is NumPy's rule ('no', 'equiv', 'safe', 'same_kind', 'unsafe'); order
    'C' or 'F' lays the result out so, 'K' in the tensor's memory order (its
    axes by decreasing |stride|), 'A' in Fortran order for a Fortran-
    contiguous tensor, else C; subok is accepted (no subclasses to keep)."""
    order = order_letter(order, "K")
    dtype = _dtype_type(dtype)
    if not _C._can_cast(self.dtype, dtype, casting):
        raise TypeError(f"Cannot cast array data from dtype('{self.dtype}') to "
                        f"dtype('{dtype}') according to the rule '{casting}'")
    if self.dtype.is_complex and not dtype.is_complex:  # NumPy's warning (TensorBase.astype's too)
        import warnings
        warnings.warn("Casting complex values to real discards the imaginary part", np.exceptions.ComplexWarning,
                      stacklevel=2)
    fortran = order == "F" or (order in ("K", "A") and self.ndim > 1 and not self.is_contiguous()
                               and self.T.is_contiguous())
    laid_out = self.T.is_contiguous() if fortran else (order != "C" or self.is_contiguous())
    if not copy and dtype == self.dtype and laid_out:
        return self
    if fortran:
        return self.T._to(self.device, dtype).T._own()
    axes = _order_axes(self, "K") if order == "K" and self.ndim > 1 and not self.is_contiguous() else None
    if axes is not None and axes != tuple(range(self.ndim)):  # the memory order kept
        inverse = tuple(sorted(range(self.ndim), key=axes.__getitem__))
        return self.permute(axes)._to(self.device, dtype).permute(inverse)._own()
    return self._to(self.device, dtype)


def tolist_general(self):
    """Tensor.tolist for a tensor on another device than the cpu, or of
    bfloat16 (TensorBase.tolist, in C, answers the rest): the values as
    (nested) Python lists of Python scalars."""
    return self._host_view().tolist()


# the C methods' Python halves: their argument errors name the method
_cuda_general.__qualname__, astype_general.__qualname__ = "cuda", "astype"


# Note [A device view's host copy keeps its neighbours]
# NumPy code may read a view's parent memory through it: SciPy's toeplitz
# takes np.lib.stride_tricks.as_strided(vals[n - 1:], strides=(-8, 8)),
# reading vals before the slice.  A host copy of the slice alone would hand
# NumPy unrelated memory there, silently.  So the host copy of a device view
# is of the whole storage it shares (when that is at most twice the bytes the
# view reaches, plus a page: no slice of a big tensor pays for the rest),
# and NumPy's array is the view at its place in that copy.
def _host_copy_with_neighbours(t):
    offset, nbytes = t._storage_span()
    item = t.itemsize
    if offset or nbytes > t.size * item:  # a view of part of its storage
        from ._advanced import _span_elements
        reach = _span_elements(t) * item
        if 0 < reach < nbytes <= 2 * reach + 4096 and offset % item == 0 and nbytes % item == 0:
            whole = t._as_strided((nbytes // item,), (item,), -offset // item)._to("cpu", t.dtype)._numpy_view()
            return np.ndarray(t.shape, dtype=whole.dtype, buffer=whole, offset=offset, strides=t.strides)
    return t._to("cpu", t.dtype)._numpy_view()


class _TensorMethods:
    """A multi-dimensional array on a device (``cpu`` or ``cuda:N``).

    Create tensors with devtensor.tensor, asarray, zeros, ones, arange, rand, ...
    """
    # the Python half of devtensor.Tensor, a C type (Note [Tensor is a C type]
    # in csrc/python/tensor_type.c): _install_methods puts these on it

    def __new__(cls, data, dtype=None, device=None):
        from ._creation import tensor
        return tensor(data, dtype=dtype, device=device)

    # ---- movement (PyTorch's rules) ----
    # to() and cpu() are TensorBase's, in C (Note [Identity moves in C] in
    # csrc/python/movement.c), and so is cuda(); what they do not decide is
    # _to_general's and _cuda_general's.

    def pin_memory(self):
        """A copy of this cpu tensor in page-locked host memory (self if it is
        pinned already), so transfers to a GPU are fast and can be asynchronous."""
        return self if self.is_pinned() else self._pin_memory()

    def __array_namespace__(self, *, api_version=None):
        """Array API: the namespace of this tensor's functions (devtensor)."""
        from ._array_api import array_namespace
        return array_namespace(api_version)

    def to_device(self, device, /, *, stream=None):
        """Array API: this tensor on `device` (self if it is there already)."""
        return self.to(device)

    # ---- NumPy interop ----
    def numpy(self, *, force=False):
        """A NumPy array sharing this CPU tensor's memory.  For a device tensor
        this raises TypeError unless force=True, which copies to the host."""
        if force and self.device.type != "cpu":
            return self.cpu()._numpy_view()
        return self._numpy_view()

    def get(self, stream=None):
        """A NumPy copy of this tensor in host memory (CuPy's spelling)."""
        return np.array(self._host_view(), copy=True)

    def _host_view(self):
        """A NumPy array of the values: a view for CPU tensors, a host copy otherwise;
        bfloat16 values are widened to float32 (NumPy has no bfloat16)."""
        t = self
        if t.dtype == _C.bfloat16:
            t = t._to("cpu", _C.float32)
        elif t.device.type != "cpu":
            return _host_copy_with_neighbours(t)
        return t._numpy_view()

    def _host_values(self):
        """_host_view in C order, for pickles and other transports (0-d stays
        0-d, which np.ascontiguousarray would make 1-d)."""
        return np.asarray(self._host_view(), order="C")

    def __array__(self, dtype=None, copy=None):
        if self.dtype == _C.bfloat16 and dtype is None:
            raise TypeError("NumPy has no bfloat16 dtype; convert first, "
                            "e.g. np.asarray(t.astype(devtensor.float32))")
        on_host = self.device.type == "cpu"
        if copy is False and not on_host:
            raise ValueError(f"converting a tensor on {self.device} to a NumPy array needs a "
                             "copy to host memory, but copy=False was given")
        if not on_host:  # Note [Implicit transfers] in devtensor/_transfer_guard.py
            from ._transfer_guard import check
            check(self, "__array__ (np.asarray and NumPy functions)", stacklevel=2)
        arr = self._host_view()
        if dtype is not None and np.dtype(dtype) != arr.dtype:
            if copy is False:
                raise ValueError("a NumPy array of another dtype needs a copy, "
                                 "but copy=False was given")
            arr = arr.astype(dtype)
        elif copy:
            return np.array(arr, copy=True)
        if not on_host and not copy:
            # Note [Host copies NumPy did not ask for are read-only]
            # np.asarray(t) of a device tensor is a host copy the caller
            # may take for the tensor (nditer readwrite, in-place NumPy
            # functions): writes into it would be lost, so they raise
            # instead; np.array(t) (copy=True) and t.cpu() are writable.
            arr.flags.writeable = False
        return arr

    # ---- DLPack (zero-copy exchange with PyTorch, CuPy, JAX, NumPy) ----
    def __dlpack_device__(self):
        """(DLPack device type, index): (1, 0) for cpu, (2, i) for cuda:i."""
        if self.device.type == "cpu":
            return (3, 0) if self.is_pinned() else (1, 0)
        from . import cuda
        if cuda.is_emulated():
            raise BufferError("emulated CUDA devices keep host memory: DLPack cannot describe it")
        return (2, self.device.index)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule sharing this tensor's memory (copy=True exports a copy).
        For a CUDA tensor, work queued on its device is finished first, so the
        consumer's stream may read it at once; dl_device=(1, 0) asks for a host
        copy of a device tensor (refused with copy=False)."""
        if max_version is not None and (not isinstance(max_version, (tuple, list)) or len(max_version) != 2):
            raise TypeError(f"max_version must be None or a (major, minor) tuple, not {max_version!r}")
        versioned = max_version is not None and max_version[0] >= 1
        if self.device.type == "cpu" and stream is not None:
            raise BufferError(f"stream must be None to export a CPU tensor (DLPack), not {stream!r}")
        if dl_device is not None and tuple(dl_device) == (1, 0) and self.device.type != "cpu":
            # the consumer asks for host memory: a host copy, flagged as one
            if copy is False:
                raise BufferError(f"exporting a tensor on {self.device} to the CPU (DLPack "
                                  "device (1, 0)) needs a copy, but copy=False was given")
            return _C._to_dlpack(self.cpu(), versioned, True)
        kind, index = self.__dlpack_device__()
        if dl_device is not None and tuple(dl_device) != (kind, index):
            raise BufferError(f"cannot export a tensor on {self.device} to DLPack device "
                              f"{tuple(dl_device)}")
        source = self.copy() if copy else self
        if kind == 2:
            from . import cuda
            cuda.synchronize(index)
        return _C._to_dlpack(source, versioned, bool(copy))

    @property
    def __cuda_array_interface__(self):
        """Numba's CUDA Array Interface (version 3) for a tensor on a real GPU, so
        CuPy, Numba and PyTorch can use its memory without a copy.  Work queued on
        its device is finished first, so the stream is None (no wait needed).
        CPU tensors and emulated devices have none (hasattr() is False)."""
        if self.device.type != "cuda":
            raise AttributeError("__cuda_array_interface__ is only for CUDA tensors; this "
                                 f"one is on {self.device}")
        from . import cuda
        if cuda.is_emulated():
            raise AttributeError("emulated CUDA devices keep host memory: the CUDA Array "
                                 "Interface cannot describe it")
        if self.dtype == _C.bfloat16:
            raise TypeError("the CUDA Array Interface has no bfloat16 typestr")
        cuda.synchronize(self.device.index)
        return {"shape": tuple(self.shape), "typestr": self.dtype.numpy_dtype.str,
                "data": (self.data_ptr(), not self._writeable), "version": 3,
                "strides": None if self.is_contiguous() else tuple(self.strides),
                "stream": None}

    @property
    def __array_interface__(self):
        """NumPy's array interface (version 3) of a CPU tensor's memory, which
        Pillow's Image.fromarray and NumPy's byte_bounds read (NumPy itself
        takes the buffer protocol first).  Like the buffer protocol, it
        describes the memory the tensor has now: a Parameter's data replaced
        later (p.data = ...) is not what the pointer points to.  Tensors on a
        device and bfloat16 ones have none (hasattr() is False), so NumPy goes
        on to __array__, with its words and the transfer guard."""
        if self.device.type != "cpu":
            raise AttributeError(f"__array_interface__ is only for tensors in host memory; this one is on "
                                 f"{self.device} (use .cpu())")
        if self.dtype == _C.bfloat16:
            raise AttributeError("__array_interface__ has no bfloat16 typestr")
        return {"shape": tuple(self.shape), "typestr": self.dtype.numpy_dtype.str,
                "data": (self.data_ptr(), not self._writeable), "version": 3,
                "strides": None if self.is_contiguous() else tuple(self.strides)}

    # ---- Python scalars ----
    # item() is TensorBase's, in C: the value of a one-element tensor as a
    # Python scalar (float16 and bfloat16 give a float)

    # tolist() is TensorBase's, in C (tolist_general above for the other devices)

    # bool(), int(), float() and operator.index() are TensorBase's slots, in C
    # (Note [Python scalars from tensors] in csrc/python/scalar_out.c)

    def _scalar(self, kind):
        if self.size != 1:
            raise TypeError(f"only single-element tensors can be converted to Python {kind}s "
                            f"(this one has {self.size} elements)")
        return self.item()

    def _no_builtin(self, name):
        if self.ndim != 0:  # as NumPy's: arrays have no such method, its scalars (0-d results) do
            raise TypeError(f"type {type(self).__module__}.{type(self).__name__} doesn't define {name} method")

    def __round__(self, ndigits=None):
        """round() of a 0-d tensor, as of a NumPy scalar: a Python int without
        ndigits, else a 0-d tensor rounded halves to even."""
        from ._ufuncs import round as round_
        self._no_builtin("__round__")
        return int(round_(self)) if ndigits is None else round_(self, ndigits)

    def __trunc__(self):
        """math.trunc() of a 0-d tensor, as of a NumPy scalar."""
        self._no_builtin("__trunc__")
        return int(self)

    def __divmod__(self, other):
        if isinstance(other, (TensorBase, int, float)):
            return self // other, self % other  # the C number slots: floor_divide and remainder
        from ._ufuncs import divmod as divmod_
        return divmod_(self, other)

    def __rdivmod__(self, other):
        from ._ufuncs import divmod as divmod_
        return divmod_(other, self)

    def __complex__(self):
        if self.device.type != "cpu":
            from ._transfer_guard import check
            check(self, "complex()", stacklevel=2)
        return complex(self._scalar("complex"))

    # ---- parts of complex numbers (views, as NumPy's) ----
    @property
    def real(self):
        """The real part: a view for complex tensors, self otherwise."""
        return self._part_view(0) if self.dtype.is_complex else self

    @property
    def imag(self):
        """The imaginary part: a view for complex tensors; for real ones, read-only
        zeros (as NumPy's), so that writing to them raises instead of being lost."""
        if self.dtype.is_complex:
            return self._part_view(1)
        from ._creation import zeros
        z = zeros(self.shape, dtype=self.dtype, device=self.device)
        z._lock_readonly()
        return z

    @real.setter
    def real(self, value):
        """z.real = v: v written into the real parts (into self for a real tensor), NumPy's."""
        self.real[...] = value

    @imag.setter
    def imag(self, value):
        """z.imag = v: v written into the imaginary parts; a real tensor has none (NumPy's TypeError)."""
        if not self.dtype.is_complex:
            try:  # NumPy's TypeError in the installed NumPy's words (they changed in 2.5)
                np.zeros(0).imag = 0
            except TypeError as e:
                raise TypeError(str(e)) from None
            raise TypeError("Cannot set imaginary part of non-complex array.")
        self.imag[...] = value

    @property
    def flags(self):
        """NumPy's flags: writeable (settable), c_contiguous, f_contiguous."""
        return Flags(self)

    # ---- indexing and views ----
    # __getitem__ and __setitem__ are TensorBase's, in C (Note [Indexing in C]
    # in csrc/python/index.c): basic indexing gives a view, indexing every
    # axis a 0-d tensor; other keys go to devtensor/_views.py.

    def __contains__(self, value):
        """value in t: NumPy's (t == value).any(), one reduction on the tensor's
        device and its bool read (not Python's element-by-element iteration)."""
        from ._reductions import any as any_
        return bool(any_(self == value))

    # iter(t) is C's (Note [Iterating in C] in csrc/python/tensor_iter.c):
    # views of rows, and for a 1-d tensor 0-d copies of its elements

    def __reversed__(self):
        """__iter__'s subtensors, last first (NumPy's arrays reverse as sequences)."""
        return self._along_axis0(range(len(self._axis0()) - 1, -1, -1))

    def _axis0(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")  # NumPy's words
        return self

    def _along_axis0(self, positions):
        return map(self.__getitem__, positions)  # t[i] in C: a 0-d copy or a view of row i

    @property
    def flat(self):
        """NumPy's flat iterator: t.flat[i] (a 0-d copy), t.flat[a:b] (a copy),
        t.flat[key] = v, iteration in C order, len()."""
        return _flatiter.flatiter(self)

    @flat.setter
    def flat(self, value):
        _flatiter.flat_setter(self, value)

    # reshape() is TensorBase's, in C (Note [Reshape in C] in csrc/python/reshape.c)

    def view(self, *shape, dtype=None):
        """view(dtype): NumPy's reinterpretation of the bytes as another dtype
        (Note [Reinterpreting a view]); view(*shape): PyTorch's reshape that
        never copies (RuntimeError if it would have to); view(): a view of self."""
        if not shape and dtype is None:
            return self[...]
        if dtype is None and len(shape) == 1 and _as_dtype(shape[0]) is not None:
            dtype, shape = shape[0], ()
        elif dtype is None and len(shape) == 1 and isinstance(shape[0], type) and \
                (issubclass(shape[0], TensorBase) or shape[0] is _ndarray):  # NumPy's view(type): our one type
            shape = ()
        elif dtype is None and len(shape) == 1 and isinstance(shape[0], type):
            raise TypeError(f"view({shape[0].__name__}): a tensor cannot be viewed as another array "
                            "type (NumPy's ndarray subclasses are NumPy's: use a NumPy array, "
                            "t.numpy(), for those)")
        if dtype is not None:
            if shape:
                raise TypeError("view() takes either a dtype or a shape, not both")
            return _views.view_dtype(self, dtype)
        if not shape:
            return _views._view(self, self.shape, self.strides)
        return _views.view(self, _views.shape_arg(shape, "view"))

    # ravel, flatten, squeeze, expand_dims, unsqueeze, transpose, permute and
    # swapaxes are TensorBase's, in C (Note [Axis views in C] in
    # csrc/python/axes.c), with devtensor._views for the other arguments

    def broadcast_to(self, shape):
        return _views.broadcast_to(self, shape)

    def repeat(self, repeats, axis=None):
        """NumPy's repeat: each element repeated (PyTorch's Tensor.repeat is tile)."""
        from ._manipulation import repeat
        return repeat(self, repeats, axis)

    def nonzero(self, *, as_tuple=True):
        """The indices of the non-zero elements, one int64 tensor per axis
        (as_tuple=False, PyTorch's default: one row per element)."""
        from ._index_functions import nonzero
        return nonzero(self, as_tuple=as_tuple)

    def take(self, indices, axis=None, out=None, mode="raise"):
        from ._index_functions import take
        return take(self, indices, axis, out, mode)

    def put(self, indices, values, mode="raise"):
        from ._index_functions import put
        put(self, indices, values, mode)

    def compress(self, condition, axis=None, out=None):
        from ._index_functions import compress
        return compress(condition, self, axis, out)

    def choose(self, choices, out=None, mode="raise"):
        from ._index_functions import choose
        return choose(self, choices, out, mode)

    def resize(self, *new_shape, refcheck=True):
        """NumPy's in-place ndarray.resize cannot be done safely here.

        Note [No in-place resize]
            ndarray.resize reallocates the buffer under the array and every
            view of it; a tensor's storage is shared by its views and may be
            in use by queued device work, so it is never swapped in place.
            devtensor.resize(t, shape) returns the resized copy."""
        raise NotImplementedError("Tensor.resize (NumPy's in-place resize) is not supported: "
                                  "use devtensor.resize(t, new_shape), which returns a new "
                                  "tensor, or t.reshape(new_shape) for the same size")

    def contiguous(self):
        """self if C-contiguous already, else a contiguous copy."""
        return self if self.is_contiguous() else self.copy()

    # ---- copies (copy() and astype() are TensorBase's, in C) ----
    # ---- NumPy's ndarray methods that are functions elsewhere ----
    def clip(self, min=None, max=None, out=None, **kwargs):
        """NumPy's ndarray.clip (and PyTorch's Tensor.clip): devtensor.clip."""
        from ._ufuncs import clip
        if kwargs:  # NumPy's a_min/a_max spellings
            min, max = kwargs.pop("a_min", min), kwargs.pop("a_max", max)
            if kwargs:
                raise TypeError(f"clip() got an unexpected keyword argument {next(iter(kwargs))!r}")
        return clip(self, min, max, out=out)

    def conjugate(self):
        """The complex conjugate; a real tensor is returned itself, as NumPy's
        ndarray.conjugate does (the ufunc devtensor.conjugate computes)."""
        if self.dtype.kind != "c":
            return self
        from ._ufuncs import conjugate
        return conjugate(self)

    conj = conjugate

    def round(self, decimals=0, out=None):
        """NumPy's ndarray.round: devtensor.round (half to even)."""
        from ._ufuncs import round as round_
        return round_(self, decimals, out=out)

    def fill(self, value):
        """NumPy's ndarray.fill: every element set to value, in place (None)."""
        if isinstance(value, TensorBase):
            if value.size != 1:
                raise ValueError("fill value must be a scalar (one element)")
            self[...] = value.reshape(())
            return None
        self[...] = value
        return None

    def byteswap(self, inplace=False):
        """NumPy's ndarray.byteswap: each value's bytes reversed (each part's
        for complex), on the tensor's device; inplace writes them into the
        tensor and returns it."""
        if inplace and not self.flags.writeable:
            raise ValueError("array to be byte-swapped is read-only")
        if not self.is_cuda and self.dtype is not _C.bfloat16:  # NumPy's loop on the view
            view = self.numpy()
            if not inplace:
                return _C._from_numpy(view.byteswap())
            view.byteswap(inplace=True)
            return self
        parts = 2 if self.dtype.is_complex else 1
        part = self.itemsize // parts
        if part == 1:
            return self if inplace else self.copy()
        flat = self.reshape(-1) if self.is_contiguous() else self.flatten()
        raw = flat.view(dtype=_C.uint8).reshape(flat.size, parts, part)[:, :, ::-1].copy()
        swapped = raw.reshape(-1).view(dtype=self.dtype).reshape(self.shape)
        if not inplace:
            return swapped
        self[...] = swapped
        return self

    def setflags(self, write=None, align=None, uic=None):
        """NumPy's ndarray.setflags: write sets WRITEABLE (as flags.writeable
        = ...); align=True only for an aligned tensor, uic (WRITEBACKIFCOPY)
        only False: devtensor has no such arrays."""
        if uic:
            raise ValueError("cannot set WRITEBACKIFCOPY flag to True")
        if align and not self.flags.aligned:
            raise ValueError("cannot set aligned flag of mis-aligned array to True")
        if write is not None:
            self._writeable = bool(write)

    def tobytes(self, order="C"):
        """NumPy's ndarray.tobytes: the raw bytes of the values in C (or
        'F', 'A') order, read to the host for a device tensor (bfloat16 as
        its own two bytes per value)."""
        if order == "A":  # NumPy's: Fortran order for a Fortran-contiguous tensor (the copy below is C)
            order = "F" if self.ndim > 1 and self.T.is_contiguous() and not self.is_contiguous() else "C"
        t = self if self.device.type == "cpu" else self._to("cpu", self.dtype)
        if t.dtype == _C.bfloat16:
            t = t.view(dtype=_C.uint16)
        return t._numpy_view().tobytes(order)

    def tofile(self, fid, sep="", format="%s"):
        """NumPy's ndarray.tofile: the values in C order to a path or an open
        file, raw bytes (sep='') or text, read to the host for a device
        tensor (NumPy's formats have no bfloat16: cast first)."""
        from ._serialization import _host_array
        _host_array(self).tofile(fid, sep=sep, format=format)

    # ---- NumPy protocols: operators on tensors beat NumPy's ----
    __array_priority__ = 1000

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if method == "__call__" and not kwargs:
            op = _direct_ufunc_ops.get(ufunc)
            if op is not None and op[1] == len(inputs):
                return _C._ufunc(op[0], *inputs)
        elif method == "accumulate" and not kwargs and len(inputs) == 1:
            op = _direct_scan_ops.get(ufunc)
            if op is not None:
                r = _C._scan_fast(op, inputs[0], 0)
                if r is not None:
                    return r
        return _array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        """np.concatenate(...), np.sum(t), ...: devtensor's own function
        (Note [NumPy functions on tensors] in devtensor/_numpy_dispatch.py)."""
        impl = _direct_implementations.get(func)
        if impl is not None and types == _TENSOR_ONLY:  # the common call, found before
            try:
                return impl(*args, **kwargs)
            except _NotNumbers as e:
                return _numpy_s_for_not_numbers(func, args, kwargs, e)
        return _array_function(func, types, args, kwargs, self)

    # ---- copying and pickling ----
    def __copy__(self):
        """copy.copy: a copy of the values on the same device (NumPy's)."""
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce_ex__(self, protocol):
        """Pickle the values (a NumPy array; bfloat16 widened exactly to float32),
        the dtype and the device; see _rebuild_tensor."""
        return (_rebuild_tensor, (self._host_values(), self.dtype.name, str(self.device)))

    # ---- printing ----
    def __format__(self, spec):
        """0-d tensors format like NumPy scalars (format(t, '.2f')); others take
        only the empty spec, as NumPy's arrays."""
        if self.ndim == 0:
            if self.device.type != "cpu":
                from ._transfer_guard import check
                check(self, "format()", stacklevel=2)
            return format(self.item(), spec)
        if spec:
            raise TypeError("unsupported format string passed to devtensor.Tensor.__format__")
        return str(self)

    def __repr__(self):
        if self.device.type != "cpu":
            from ._transfer_guard import check
            check(self, "printing", stacklevel=2)
        from ._printing import tensor_repr
        return tensor_repr(self)

    __str__ = __repr__


class Flags:
    """A tensor's flags, read like NumPy's (t.flags.writeable, t.flags['C_CONTIGUOUS'])."""

    __slots__ = ("_t",)

    def __init__(self, t):
        self._t = t

    @property
    def writeable(self):
        return self._t._writeable

    @writeable.setter
    def writeable(self, value):
        self._t._writeable = value

    @property
    def c_contiguous(self):
        return self._t.is_contiguous()

    @property
    def f_contiguous(self):
        return self._t.T.is_contiguous()

    @property
    def aligned(self):
        """The data address and every stride (of an axis longer than 1) are
        multiples of the dtype's alignment, NumPy's dtype.alignment (2 for
        bfloat16)."""
        t = self._t
        align = t.dtype.alignment if t.dtype != _C.bfloat16 else 2
        return t.data_ptr() % align == 0 and all(s % align == 0 for s, n in zip(t.strides, t.shape)
                                                 if n > 1)

    # NumPy's older names of the two
    contiguous = c_contiguous
    fortran = f_contiguous

    @property
    def owndata(self):
        """Whether the tensor owns its memory: False for a view (t.base is
        then the tensor it views) and for memory lent by another library."""
        return self._t._owndata

    @property
    def writebackifcopy(self):
        """Always False: no tensor writes back into another on release."""
        return False

    # NumPy's derived flags (np.isfortran reads fnc)
    @property
    def fnc(self):
        return self.f_contiguous and not self.c_contiguous

    @property
    def forc(self):
        return self.f_contiguous or self.c_contiguous

    @property
    def behaved(self):
        return self.aligned and self.writeable

    @property
    def carray(self):
        return self.behaved and self.c_contiguous

    @property
    def farray(self):
        return self.behaved and self.fnc

    _NAMES = {"WRITEABLE": "writeable", "W": "writeable", "C_CONTIGUOUS": "c_contiguous",
              "CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "F_CONTIGUOUS": "f_contiguous",
              "FORTRAN": "f_contiguous", "F": "f_contiguous", "WRITEBACKIFCOPY": "writebackifcopy",
              "X": "writebackifcopy", "OWNDATA": "owndata", "O": "owndata",
              "ALIGNED": "aligned", "A": "aligned", "FNC": "fnc", "FORC": "forc", "BEHAVED": "behaved",
              "B": "behaved", "CARRAY": "carray", "CA": "carray", "FARRAY": "farray", "FA": "farray"}

    def __getitem__(self, key):
        try:
            return getattr(self, self._NAMES[key.upper()])
        except (KeyError, AttributeError):
            raise KeyError(key) from None

    def __setitem__(self, key, value):
        if self._NAMES.get(str(key).upper()) != "writeable":
            raise KeyError(f"only WRITEABLE can be set, not {key!r}")
        self.writeable = value

    def __repr__(self):
        return (f"  C_CONTIGUOUS : {self.c_contiguous}\n  F_CONTIGUOUS : {self.f_contiguous}\n"
                f"  OWNDATA : {self.owndata}\n  WRITEABLE : {self.writeable}\n"
                f"  ALIGNED : {self.aligned}\n  WRITEBACKIFCOPY : {self.writebackifcopy}")


def _rebuild_tensor(values, dtype_name, device):
    """Unpickle a tensor onto `device`, or onto the device that an enclosing
    `with devtensor.map_location(...)` names."""
    from ._pickle import unpickled_tensor
    return unpickled_tensor(values, dtype_name, device)


def _install_methods(cls, methods):
    """Put the attributes defined in the class `methods` on the C type `cls`."""
    for name, value in vars(methods).items():
        if name not in ("__dict__", "__weakref__", "__module__", "__qualname__"):
            setattr(cls, name, value)


Tensor = _C.Tensor
_TENSOR_ONLY = (Tensor,)  # __array_function__'s types when every array is an exact tensor
_install_methods(Tensor, _TensorMethods)
del _TensorMethods


def _install_reductions():
    from ._reductions import _ReductionMethods
    from ._sorting import _SortingMethods
    from ._torch_methods import _TorchMethods
    from ._torch_selection import _SelectionMethods
    from ._torch_math import _MathMethods
    from ._torch_shapes import _ShapeMethods
    _install_methods(Tensor, _ReductionMethods)
    _install_methods(Tensor, _SortingMethods)
    _install_methods(Tensor, _TorchMethods)  # Note [PyTorch's methods]
    _install_methods(Tensor, _SelectionMethods)  # Note [PyTorch's selection functions]
    _install_methods(Tensor, _MathMethods)  # Note [PyTorch's numerical functions]
    _install_methods(Tensor, _ShapeMethods)


_install_reductions()
