"""devtensor.ndarray: NumPy's name for the array type, for `import devtensor
as np` code.

isinstance(t, devtensor.ndarray) and issubclass(devtensor.Tensor,
devtensor.ndarray) hold for every tensor (type(t) stays devtensor.Tensor).
Calling it is NumPy's low-level constructor, ndarray(shape, dtype=float,
buffer=None, offset=0, strides=None, order=None): an uninitialised tensor
(on the default device, or device=), or with a buffer a CPU tensor over
that memory, with NumPy's checks of buffer, offset and strides.
"""
import types

import numpy as np

from . import _C
from ._C import TensorBase


class _TensorTypeCheck(type):
    """isinstance and issubclass answer for devtensor's tensors."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, TensorBase)

    def __subclasscheck__(cls, sub):
        return (isinstance(sub, type) and issubclass(sub, TensorBase)) or type.__subclasscheck__(cls, sub)


class ndarray(metaclass=_TensorTypeCheck):
    """NumPy's ndarray for devtensor: every tensor is one, and
    ndarray(shape, dtype=float, buffer=None, offset=0, strides=None,
    order=None, *, device=None) makes one as NumPy's constructor does."""

    # ndarray[Any, dtype[float64]] in annotations, as NumPy's
    __class_getitem__ = classmethod(types.GenericAlias)

    def __new__(cls, shape, dtype=float, buffer=None, offset=0, strides=None, order=None, *,
                device=None):
        from ._creation import asarray, empty
        if buffer is None and strides is None and offset == 0:
            return empty(shape, dtype=dtype, order=order or "C", device=device)
        dtype = _C.dtype(dtype)
        if dtype == _C.bfloat16:
            raise TypeError("ndarray(buffer=...) of bfloat16, which NumPy does not have: "
                            "make a uint16 one and .view(devtensor.bfloat16)")
        arr = np.ndarray(shape, np.dtype(str(dtype)), buffer, offset, strides, order)
        if buffer is None:  # NumPy's own memory, laid out by strides: a copy on the device
            return asarray(arr, device=device).copy()
        if device is not None and _C._resolve_device(device) != _C.device("cpu"):
            raise ValueError("ndarray(buffer=...) views host memory: it is a cpu tensor "
                             "(move it with .to(device))")
        return _C._from_numpy(arr)  # over the buffer, read-only if it is
