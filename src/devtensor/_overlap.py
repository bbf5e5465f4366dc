"""may_share_memory and shares_memory: whether two tensors reach the same
bytes (Note [Overlap is about memory] in csrc/core/tensor.h).

may_share_memory is the bounds test the C core uses for setitem, out= and
in-place operators.  shares_memory answers exactly with NumPy's solver
(np.shares_memory), given arrays that describe the tensors' address layout:
they are built from the addresses alone, through __array_interface__, and
their memory is never read, so this works for device tensors too.
"""
import numpy as np

from ._C import TensorBase


def _tensor(x):
    if isinstance(x, TensorBase):
        return x
    from ._creation import asarray
    return asarray(x)


class _Layout:
    """The address layout of a tensor, as an __array_interface__ (never read)."""

    def __init__(self, t):
        self.__array_interface__ = {
            "version": 3, "shape": tuple(t.shape), "strides": tuple(t.strides),
            "typestr": f"|V{t.itemsize}", "data": (t.data_ptr() or 0, True),
        }


def may_share_memory(a, b, /, max_work=None):
    """NumPy's may_share_memory: False if a and b certainly do not reach the same
    bytes (other devices, or disjoint byte ranges); True if they might.  With
    max_work, shares_memory's exact answer within that budget."""
    a, b = _tensor(a), _tensor(b)
    if max_work is not None:
        return shares_memory(a, b, max_work=max_work)
    return a._may_share_memory(b)


def shares_memory(a, b, /, max_work=None):
    """NumPy's shares_memory: whether some element of a and some element of b
    use the same byte, exactly (numpy.exceptions.TooHardError past max_work)."""
    a, b = _tensor(a), _tensor(b)
    if not a._may_share_memory(b):
        return False
    return bool(np.shares_memory(np.asarray(_Layout(a)), np.asarray(_Layout(b)),
                                 max_work=max_work))
