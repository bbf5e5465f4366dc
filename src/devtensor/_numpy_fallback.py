"""devtensor.<name> for the NumPy names devtensor has no implementation of,
so that `import devtensor as np` code finds them (the module's __getattr__).

Note [NumPy names devtensor lacks]
A function (np.convolve, np.polyfit, np.interp, np.gcd, ...) becomes a
wrapper that runs NumPy's own on zero-copy views of CPU tensors and gives
NumPy arrays back as tensors, the policy __array_function__ has for NumPy's
functions on tensors (Note [NumPy functions on tensors]); with a tensor on
a device it raises TypeError naming the function and how to move the data,
instead of copying behind the caller's back (a 0-d device tensor, a
scalar, is read as float(t) reads it).  devtensor dtypes passed as
arguments become NumPy's.  NumPy's scalar type names become devtensor's
dtypes (bool_ -> bool, intp -> int64, double -> float64, ...), ndarray is
a type every tensor is an instance of (devtensor._ndarray), and the rest (np.floating and the type hierarchy,
np.s_, np.newaxis, submodules such as np.polynomial) are NumPy's objects.
The index helpers c_, r_, mgrid and ogrid give tensors.
"""
import functools
import importlib
import types

import numpy as np

from . import _C
from ._C import TensorBase
from ._numpy_dispatch import _as_tensors, _devices, _rebuild, _walk, refuse_device_tensors

_TYPE_ALIASES = {
    "bool_": "bool", "intp": "int64", "uintp": "uint64", "double": "float64",
    "single": "float32", "half": "float16", "cdouble": "complex128", "csingle": "complex64",
    "longlong": "int64", "ulonglong": "uint64", "intc": "int32", "uintc": "uint32",
    "short": "int16", "ushort": "uint16", "byte": "int8", "ubyte": "uint8",
    "long": "int64", "ulong": "uint64", "int_": "int64", "uint": "uint64",  # NumPy 2's, on Linux
}
# PyTorch's dtypes whose names were NumPy 1's float64, Python int and complex128
_AMBIGUOUS_TYPE_NAMES = {"float": ("float32", "float64"), "int": ("int32", "int64"),
                         "cfloat": ("complex64", "complex128")}
_wrapped = {}


def _host(obj):
    """obj with tensors as NumPy views (CPU) and devtensor dtypes as NumPy's."""
    if isinstance(obj, TensorBase):
        return obj._host_view()
    if isinstance(obj, _C.dtype):
        return obj.numpy_dtype if obj != _C.bfloat16 else np.dtype(np.float32)
    if isinstance(obj, (list, tuple)):
        return _rebuild(obj, [_host(o) for o in obj])
    if isinstance(obj, dict):
        return {k: _host(v) for k, v in obj.items()}
    return obj


def _device_scalars_read(obj):
    """obj with its 0-d tensors read to NumPy scalars of their dtype (as
    float(t) reads one, under the transfer guard, off the CPU): NumPy's
    scalar functions (binary_repr, format_float_positional, ...) take them,
    and a 0-d array view would be formatted as float64."""

    def read(t):
        if t.ndim != 0 or t.dtype == _C.bfloat16:
            return t
        if t.device.type == "cpu":
            return t._host_view()[()]
        from ._transfer_guard import check
        check(t, "a NumPy function of a scalar", stacklevel=4)
        return t.cpu().numpy()[()]
    return _walk(obj, read)


# Note [Plain arguments of NumPy's names]
# Most calls of a wrapped NumPy name hold no tensor and no container to
# look into: np.issubdtype(t.dtype, np.floating), np.binary_repr(5).  Their
# arguments are checked in one pass by type (scalars, strings, types, NumPy
# dtypes; our dtypes become NumPy's) and handed straight to NumPy, which
# costs ~1 us where the walks below cost ~15 us; the result is treated as
# the walks' would be (arrays made without tensors go to the default device).
_PLAIN = frozenset({int, float, complex, bool, str, bytes, type(None), type, np.dtype, slice,
                    type(Ellipsis)})


def _plain(values):
    """values as NumPy takes them when each is plain (above), else None."""
    out = []
    for v in values:
        kind = type(v)
        if kind is _C.dtype:
            v = _host(v)
        elif kind not in _PLAIN:
            return None
        out.append(v)
    return out


def _wrap(name, fn):
    @functools.wraps(fn)
    def on_the_host(*args, **kwargs):
        plain = _plain(args)
        if plain is not None:
            plain_kwargs = _plain(kwargs.values()) if kwargs else ()
            if plain_kwargs is not None:  # Note [Plain arguments of NumPy's names]
                return _as_tensors(fn(*plain, **dict(zip(kwargs, plain_kwargs))), None)
        args, kwargs = _device_scalars_read(args), _device_scalars_read(kwargs)
        devices = refuse_device_tensors(name, args, kwargs)
        return _as_tensors(fn(*_host(args), **_host(kwargs)), "cpu" if devices else None)
    on_the_host.__doc__ = (f"NumPy's {name}, run by NumPy on CPU tensors (Note [NumPy names "
                           f"devtensor lacks]).\n\n" + (fn.__doc__ or ""))
    on_the_host.__wrapped__ = fn
    on_the_host._numpy_fallback = True  # not an implementation of devtensor's own (_numpy_dispatch)
    return on_the_host


class _IndexHelper:
    """np.c_, np.r_, np.mgrid, np.ogrid, giving tensors."""

    def __init__(self, helper):
        self._helper = helper

    def __getitem__(self, key):
        devices = _devices(key, set())  # the tensors' one device, else the default
        return _as_tensors(self._helper[_host(key)], next(iter(devices)) if len(devices) == 1 else None)

    def __len__(self):
        return len(self._helper)


def module_getattr(name):
    """What devtensor.<name> is when devtensor does not define it."""
    if name in _TYPE_ALIASES:
        return getattr(_C, _TYPE_ALIASES[name])
    if name == "ndarray":  # NumPy's constructor, and a type every tensor belongs to
        from ._ndarray import ndarray
        return ndarray
    if name.startswith("__"):
        raise AttributeError(f"module 'devtensor' has no attribute {name!r}")
    if name == "testing":  # devtensor/testing.py, imported when first asked for (numpy.testing costs ~20 ms)
        return importlib.import_module("devtensor.testing")
    try:
        obj = getattr(np, name)
    except AttributeError as e:
        if name in _AMBIGUOUS_TYPE_NAMES:
            torch, numpy1 = _AMBIGUOUS_TYPE_NAMES[name]
            raise AttributeError(f"module 'devtensor' has no attribute {name!r}: PyTorch's {name} is "
                                 f"{torch} and NumPy 1's was {numpy1}, so name the one you mean "
                                 f"(devtensor.{torch} or devtensor.{numpy1})") from None
        msg = str(e)  # removed in NumPy 2: NumPy's advice (`np.float_` ... Use `np.float64`)
        if "`np." in msg:
            raise AttributeError(msg.replace("module 'numpy'", "module 'devtensor'")) from None
        raise AttributeError(f"module 'devtensor' has no attribute {name!r}") from None
    if name in ("c_", "r_", "mgrid", "ogrid"):
        return _wrapped.setdefault(name, _IndexHelper(obj))
    if isinstance(obj, (types.ModuleType, type)) or not callable(obj):
        return obj
    if name not in _wrapped:
        _wrapped[name] = _wrap(name, obj)
    return _wrapped[name]
