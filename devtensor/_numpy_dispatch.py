"""NumPy's ufuncs applied to tensors (the __array_ufunc__ protocol).

Ufuncs that devtensor implements run on the tensor's device and return
tensors; the others return NotImplemented, so NumPy raises TypeError rather
than silently copying device data to the host.  The C operators are called
directly: going through `a + b` would send NumPy's own operator back here.
"""
import numpy as np

from ._C import TensorBase

# ufunc: (method when the tensor is first, method when it is second)
_BINARY = {
    np.add: ("__add__", "__radd__"),
    np.subtract: ("__sub__", "__rsub__"),
    np.multiply: ("__mul__", "__rmul__"),
    np.true_divide: ("__truediv__", "__rtruediv__"),
    np.equal: ("__eq__", "__eq__"),
    np.not_equal: ("__ne__", "__ne__"),
    np.less: ("__lt__", "__gt__"),
    np.less_equal: ("__le__", "__ge__"),
    np.greater: ("__gt__", "__lt__"),
    np.greater_equal: ("__ge__", "__le__"),
}


def array_ufunc(ufunc, method, inputs, kwargs):
    if method != "__call__" or kwargs or ufunc not in _BINARY or len(inputs) != 2:
        return NotImplemented
    a, b = inputs
    forward, reflected = _BINARY[ufunc]
    if isinstance(a, TensorBase):
        return getattr(TensorBase, forward)(a, b)
    return getattr(TensorBase, reflected)(b, a)
