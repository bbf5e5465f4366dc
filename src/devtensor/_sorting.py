"""Searching sorted data: searchsorted and digitize, with NumPy's arguments
and results, on every device.

The search is the core's dt_search (csrc/core/search.c, through
_C._search): one binary search per value, in NumPy's sort order (NaN last;
complex by real, then imaginary part).  Like NumPy's, it assumes `a` is
sorted and does not check: unsorted input gives positions in [0, len(a)]
that mean nothing, never an error.
"""
import operator

import numpy as np

from . import _C
from ._C import TensorBase

__all__ = ["searchsorted", "digitize"]


def _tensor(x, device=None):
    from ._creation import asarray
    if isinstance(x, TensorBase):
        return x if device is None or x.device == device else x.to(device)
    return asarray(x, device=device)


def searchsorted(a, v, side="left", sorter=None):
    """NumPy's searchsorted: where the values v go in the 1-d sorted a to keep
    it sorted (before equal elements for side='left', after for 'right');
    sorter, the argsort of an unsorted a.  An int64 tensor of v's shape on
    a's device."""
    from ._creation import empty
    from ._dtype_api import result_type
    a = _tensor(a)
    if a.ndim != 1:
        raise ValueError("object too deep for desired array" if a.ndim > 1 else
                         "object of too small depth for desired array")
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right' (got {side!r})")
    scalar_v = not isinstance(v, (TensorBase, np.ndarray, list, tuple))
    v = _tensor(v, a.device)
    if sorter is not None:
        from ._index_functions import take
        sorter = _tensor(sorter, a.device)
        if sorter.ndim != 1 or sorter.shape != a.shape:
            raise ValueError("sorter.size must equal a.size")
        if sorter.dtype.kind not in "iu":
            raise TypeError("sorter must only contain integers")
        a = take(a, sorter)
    common = result_type(a.dtype, v.dtype)
    a = a if a.dtype == common else a.astype(common)
    v = v if v.dtype == common else v.astype(common)
    out = empty(v.shape, dtype=_C.int64, device=a.device)
    _C._search(a, v, side == "right", out)
    return out if not scalar_v else out.reshape(())


def digitize(x, bins, right=False):
    """NumPy's digitize: the index of the bin of each x, for bins that
    increase or decrease monotonically (checked, as NumPy does)."""
    from . import _reductions, _ufuncs
    bins = _tensor(bins)
    x = _tensor(x, bins.device)
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    if bins.ndim != 1:
        raise ValueError("bins must be one-dimensional" if bins.ndim > 1 else
                         "object of too small depth for desired array")
    if bins.size > 1:
        step = _ufuncs.subtract(bins[1:], bins[:-1]) if bins.dtype != _C.bool else \
            _ufuncs.subtract(bins[1:].astype(_C.int8), bins[:-1].astype(_C.int8))
        increasing = bool(_reductions.all(_ufuncs.greater_equal(step, 0)))
        if not increasing and not bool(_reductions.all(_ufuncs.less_equal(step, 0))):
            raise ValueError("bins must be monotonically increasing or decreasing")
    else:
        increasing = True
    side = "left" if right else "right"
    if increasing:
        return searchsorted(bins, x, side=side)
    return _ufuncs.subtract(operator.index(bins.size), searchsorted(bins[::-1], x, side=side))


class _SortingMethods:
    """Tensor methods (installed by devtensor._tensor)."""

    def searchsorted(self, v, side="left", sorter=None):
        return searchsorted(self, v, side, sorter)
