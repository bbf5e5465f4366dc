"""Sorting and searching: sort, argsort, partition, argpartition, lexsort,
searchsorted and digitize, with NumPy's arguments and results (and the
array API's `descending` and `stable`), on every device.

Note [Sorting through the backend]
Every sort is the core's dt_sort (csrc/core/sort.c, through _C._sort): a
stable radix sort along the last axis (Note [Radix keys] in
csrc/core/sort_keys.h), in NumPy's order (NaN last; complex by real, then
imaginary part); `descending` is the stable sort of the reverse order (NaN
first, as PyTorch's and the array API's).  One exception: on the CPU a
values sort that need not be stable (NumPy's default kind) is NumPy's own
sort on zero-copy views, which is faster there (x86-simd-sort) and gives
NumPy's values, run across devtensor's threads (Note [Sorting runs with
NumPy's sort] in csrc/cpu/cpu_sort_runs.c), but for the dtypes NumPy has
no vectorised sort of (_radix_first): 1-byte dtypes (a counting sort,
Note [Counting sort of bytes] in csrc/cpu/cpu_sort.c: 10^6 int8 in 0.35
ms against NumPy's 32 ms on a 2-core Xeon, bool 0.6 against 11) and long
float16 rows (4.0 ms against 6.6 for 10^6, 0.22 against 0.31 for
50,000).  Wider dtypes stay NumPy's: measured there, the radix sort of
10^6 int64 in a range of 2^24 took 6.2 ms against NumPy's 7.1, but 24 ms
against 7.5 once three elements are the least int64 (a sentinel), and a
sample of the row cannot tell.  An argsort is not: NumPy's
default argsort of 10^6 float32 took 35 ms on a 2-core AVX2 EPYC against
17 ms for the radix sort (12 on two threads), and a stable order is also a
valid unstable one.  partition and argpartition are NumPy's on a CPU tensor
(introselect, O(n): the top 10 of 10^5 float64 took 2.2 ms as a full sort
against NumPy's 0.13), and sort fully on a device: a sorted array is a
valid partition for every kth, at O(n log n) instead of O(n).

The search is the core's dt_search (csrc/core/search.c, through
_C._search): one binary search per value, in NumPy's sort order (NaN last;
complex by real, then imaginary part).  Like NumPy's, it assumes `a` is
sorted and does not check: unsorted input gives positions in [0, len(a)]
that mean nothing, never an error.  A sorter is checked whole, on a's
device (one small read): an index out of [0, len(a)) raises NumPy's error,
where NumPy notices it only if its search reads it.

Note [Monotonic bins]
digitize checks the bins as NumPy's _monotonicity does, in float64: the
first adjacent pair that differs (NaN differs from everything) sets the
direction, increasing if it rises, and no pair may go the other way.  The
pairs are compared, not subtracted, so integer bins cannot overflow; bins
[0, nan] are decreasing, as NumPy finds them.
"""
import operator

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from . import _C
from . import _torch_keywords as _tk
from ._C import TensorBase
from ._creation import empty, zeros
from ._manipulation import moveaxis
from ._operands import (SMALL_CPU_WORK, as_tensor as _tensor, numpy_call, numpy_views, operands_device,
                        small_cpu_views)

__all__ = ["sort", "argsort", "partition", "argpartition", "lexsort", "searchsorted", "digitize", "sort_complex"]


def searchsorted(a, v, side="left", sorter=None, *, right=None, out_int32=False):
    """NumPy's searchsorted: where the values v go in the 1-d sorted a to keep
    it sorted (before equal elements for side='left', after for 'right');
    sorter, the argsort of an unsorted a.  An int64 tensor of v's shape on
    a's device.  PyTorch's keywords: right=True is side='right', out_int32
    an int32 result."""
    if right is not None or out_int32:
        if right is False and side == "right":  # side='left', the default, yields to right=True
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of "
                               "right while right was False")
        r = searchsorted(a, v, "right" if right else side, sorter)
        return r.astype(_C.int32) if out_int32 else r
    if sorter is None and (side == "left" or side == "right"):  # the per-call path, or None
        r = _C._search_fast(a, v, side == "right")
        if r is not None:
            return r
    from . import _reductions, _ufuncs
    from ._dtype_api import result_type
    device = operands_device(a, v, sorter)
    a = _tensor(a, device)
    if side not in ("left", "right"):
        raise ValueError(f"search side must be 'left' or 'right' (got {side!r})")
    if a.ndim > 1:
        return _batched_search(a, _tensor(v, a.device), side == "right", sorter)
    if a.ndim != 1:
        raise ValueError("object of too small depth for desired array")
    scalar_v = not isinstance(v, (TensorBase, np.ndarray, list, tuple))
    v = _tensor(v, a.device)
    if sorter is not None:
        from ._index_functions import take
        sorter = _tensor(sorter, a.device)
        if sorter.ndim != 1 or sorter.shape != a.shape:
            raise ValueError("sorter.size must equal a.size")
        if sorter.dtype.kind not in "iu":
            raise TypeError("sorter must only contain integers")
        if v.size and bool(_reductions.any(_ufuncs.logical_or(_ufuncs.less(sorter, 0),
                                                              _ufuncs.greater_equal(sorter, a.shape[0])))):
            raise ValueError("Sorter index out of range.")
        a = take(a, sorter)
    common = result_type(a.dtype, v.dtype)
    a = a if a.dtype == common else a.astype(common)
    v = v if v.dtype == common else v.astype(common)
    out = empty(v.shape, dtype=_C.int64, device=a.device)
    _C._search(a, v, side == "right", out)
    return out if not scalar_v else out.reshape(())


def _batched_search(a, v, right, sorter):
    """PyTorch's searchsorted of a sorted sequence of more than one axis
    (NumPy's refuses it): row i of v searched in row i of a, their leading
    axes equal.

    Note [Batched searchsorted by one sort]
        Each row of v is appended to its row of a (before it for side
        'left', so a value sorts ahead of elements equal to it; after it for
        'right') and the rows are stably argsorted at once; a value's answer
        is its sorted place less the values sorted before it, which a
        running count of the values gives.  So every row is searched by the
        batched sort kernels of the device, not a call per row.  NaN sorts
        last, as in the 1-d search."""
    from . import _index_functions, _reductions, _ufuncs
    from ._dtype_api import result_type
    if v.ndim != a.ndim or v.shape[:-1] != a.shape[:-1]:
        raise RuntimeError(f"torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                           f"dimensions of boundaries tensor and input value tensor must match, but we got "
                           f"boundaries tensor {list(a.shape)} and input value tensor {list(v.shape)}")
    if sorter is not None:
        a = _index_functions.take_along_axis(a, _tensor(sorter, a.device), axis=-1)
    common = result_type(a.dtype, v.dtype)
    a, v = a.astype(common, copy=False), v.astype(common, copy=False)
    n, m = a.shape[-1], v.shape[-1]
    from ._manipulation import concatenate
    order = argsort(concatenate([a, v] if right else [v, a], axis=-1), axis=-1, kind="stable")
    sorted_is_value = order >= n if right else order < m  # where the values went
    values_before = _reductions.cumsum(sorted_is_value, axis=-1, dtype=_C.int64) - sorted_is_value
    place = _C.arange(n + m, dtype=_C.int64, device=a.device)
    found = _ufuncs.subtract(place, values_before)  # for a value: the elements of a sorted before it
    out = _C.empty(v.shape, dtype=_C.int64, device=a.device)
    if v.size:
        column = order - n if right else order  # a value's column in its row of v
        row = _C.arange(v.size // m, dtype=_C.int64, device=a.device).reshape(v.shape[:-1] + (1,))
        out.reshape(-1)[(row * m + column)[sorted_is_value]] = found[sorted_is_value]
    return out


def digitize(x, bins, right=False):
    """NumPy's digitize: the index of the bin of each x, for bins that
    increase or decrease monotonically (checked, Note [Monotonic bins])."""
    views = small_cpu_views(x, bins)
    if views is not None:  # Note [Small CPU work through NumPy's functions]
        return numpy_call(np.digitize, views, floats=False, right=right)
    from . import _reductions, _ufuncs
    device = operands_device(x, bins)
    bins = _tensor(bins, device)
    x = _tensor(x, device)
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    if bins.ndim != 1:
        raise ValueError("object too deep for desired array" if bins.ndim > 1 else
                         "object of too small depth for desired array")  # NumPy's words
    if bins.dtype.kind == "c":
        raise TypeError(f"Cannot cast array data from dtype('{bins.dtype}') to dtype('float64') "
                        "according to the rule 'safe'")
    increasing = True
    if bins.size > 1:
        b = bins.astype(_C.float64)
        lo, hi = b[:-1], b[1:]
        increasing = bool(_ufuncs.less_equal(lo, hi)[_reductions.argmax(_ufuncs.not_equal(lo, hi))])
        if bool(_reductions.any(_ufuncs.greater(lo, hi) if increasing else _ufuncs.less(lo, hi))):
            raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    if increasing:
        return searchsorted(bins, x, side=side)
    return _ufuncs.subtract(operator.index(bins.size), searchsorted(bins[::-1], x, side=side))


_KINDS = (None, "quicksort", "quick", "mergesort", "merge", "heapsort", "heap", "stable")


def _stable(kind, stable):
    if kind is not None and stable is not None:
        raise ValueError("`kind` and keyword parameters can't be provided at the same time. "
                         "Use only one of them.")  # NumPy's words
    if kind not in _KINDS:
        raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})")
    return bool(stable) or kind in ("mergesort", "merge", "stable")


# Note [Sorting runs with NumPy's sort] in csrc/cpu/cpu_sort_runs.c: from
# this many elements a CPU sort goes across threads (below it, sort and
# argsort's plain calls are _C._sort_fast's: SORT_FAST_MAX in
# csrc/python/reduce.c is this number)
_THREADED_SORT_MIN = 1 << 16
_MERGED = "?bhilqBHILQfd"  # the dtypes the merge knows (dt_cpu_sort_runs_supports)


def _numpy_sort(view):
    """NumPy's unstable sort of a CPU array along its last axis (a tensor),
    across devtensor's threads when it is big enough."""
    if view.size >= _THREADED_SORT_MIN and view.dtype.char in _MERGED and _C._get_num_threads() > 1:
        src = view if view.flags.c_contiguous and view.flags.aligned else view.copy()
        out = empty(view.shape, dtype=view.dtype)
        if _C._sort_numpy_runs(src, out.numpy()):
            return out
    return _C._from_numpy(np.sort(view, axis=-1))  # native, of the tensor's dtype: no checks needed


def _radix_first(dtype, row):
    """Whether the core's sort beats NumPy's for an unstable CPU values sort
    of rows of `row` elements of dtype (Note [Sorting through the backend]):
    bfloat16 (NumPy has none), 1-byte dtypes from 256 elements, float16
    from 2^15 (core_sort_first in csrc/python/reduce.c asks the same)."""
    return (dtype == _C.bfloat16 or (dtype.itemsize == 1 and row >= 256) or
            (dtype == _C.float16 and row >= 1 << 15))


def _sorted_last(x, descending, arg, stable):
    """x sorted (or its argsort) along the last axis: a new contiguous tensor."""
    if (not (stable or descending or arg) and x.device.type == "cpu" and
            not _radix_first(x.dtype, x.shape[-1])):
        return _numpy_sort(x.numpy())
    out = empty(x.shape, dtype=_C.int64 if arg else x.dtype, device=x.device)
    _C._sort(x, descending, arg, out)
    return out


def _along(a, axis, descending, arg, stable):
    if type(axis) is int and isinstance(a, TensorBase) and a.ndim and (axis == -1 or axis == a.ndim - 1):
        return _sorted_last(a, descending, arg, stable)  # the common call, checked no further
    a = _tensor(a)
    if axis is None:
        a = a.reshape(-1)
        axis = -1
    elif a.ndim == 0:
        if not arg:
            raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension 0")
        a = a.reshape(1)  # NumPy's argsort (and argpartition) take a 0-d array as 1-d
    ax = normalize_axis_index(operator.index(axis), a.ndim)
    if ax == a.ndim - 1:
        return _sorted_last(a, descending, arg, stable)
    if not descending and a.device.type == "cpu" and a.size < _THREADED_SORT_MIN and \
            not _radix_first(a.dtype, a.shape[ax]):
        # NumPy's sort, or its stable argsort (devtensor's argsort is stable)
        kind = "stable" if stable or arg else None
        return _C._from_numpy((np.argsort if arg else np.sort)(a.numpy(), axis=ax, kind=kind))
    res = _sorted_last(moveaxis(a, ax, -1), descending, arg, stable)
    return moveaxis(res, -1, ax).copy()


def _no_order(order):
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")


def sort(a, axis=-1, kind=None, order=None, dim=None, *, stable=None, descending=False):
    """NumPy's sort (kind, stable) with the array API's descending: a sorted
    copy along axis (the flattened array for axis=None).  With PyTorch's
    dim=, PyTorch's (values, indices) (Note [PyTorch's keywords])."""
    if dim is not None:  # one argsort: the values are a's at the indices, bit for bit
        from ._index_functions import take_along_axis
        dim = _tk.axis_with_default("sort", axis, -1, dim)
        indices = argsort(a, dim, kind, order, stable=stable, descending=descending)
        return _tk.sort_result(take_along_axis(_tensor(a), indices, dim), indices)
    if kind is None and order is None:
        r = _C._sort_fast(a, axis, False, stable, descending)
        if r is not None:
            return r
    _no_order(order)
    return _along(a, axis, bool(descending), False, _stable(kind, stable))


def argsort(a, axis=-1, kind=None, order=None, dim=None, *, stable=None, descending=False):
    """NumPy's argsort (kind, stable) with the array API's descending: the
    int64 positions that sort a along axis."""
    if dim is not None:  # Note [PyTorch's keywords]
        axis = _tk.axis_with_default("argsort", axis, -1, dim)
    if kind is None and order is None:
        r = _C._sort_fast(a, axis, True, stable, descending)
        if r is not None:
            return r
    _no_order(order)
    return _along(a, axis, bool(descending), True, _stable(kind, stable))


def sort_complex(a):
    """NumPy's sort_complex: a sorted along its last axis as complex numbers
    (real part first, then imaginary): complex64 for 1- and 2-byte integers,
    complex128 for other real dtypes, a complex dtype kept."""
    a = _tensor(a)
    if a.dtype.kind != "c":
        small = a.dtype.kind in "iu" and a.dtype.itemsize <= 2
        a = a.astype(_C.complex64 if small else _C.complex128)
    return sort(a)


def _check_kth(kth, n, empty=False):
    """kth checked as NumPy does: integers, inside [-n, n) unless the array is
    empty (then any integer: there is nothing to place)."""
    if type(kth) is int and (-n <= kth < n or empty):  # the common call
        return kth
    ks = np.asarray(kth.cpu() if isinstance(kth, TensorBase) else kth)
    if ks.dtype.kind == "b":
        raise ValueError("Booleans unacceptable as partition index")
    if ks.dtype.kind not in "iu" or ks.ndim > 1:
        raise TypeError("Partition index must be integer")
    for k in ks.reshape(-1):
        k = int(k)
        if not -n <= k < n and not empty:
            raise ValueError(f"kth(={k + n if k < 0 else k}) out of bounds ({n})")  # NumPy's, wrapped
    return ks


def _partitioned(a, kth, axis, kind, order, arg):
    _no_order(order)
    if kind != "introselect":
        raise ValueError(f"select kind must be 'introselect' (got {kind!r})")
    a = _tensor(a)
    if axis is None:
        a, axis = a.reshape(-1), -1
    if a.ndim == 0:
        if not arg:
            raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension 0")
        a = a.reshape(1)  # as in NumPy's argpartition
    ks = _check_kth(kth, a.shape[normalize_axis_index(operator.index(axis), a.ndim)], a.size == 0)
    if a.device.type == "cpu" and a.dtype is not _C.bfloat16:  # NumPy's introselect: O(n), not a sort
        return numpy_call(np.argpartition if arg else np.partition, [a.numpy(), ks], False, axis=axis)
    return _along(a, axis, False, arg, arg)


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """NumPy's partition: element kth in its sorted place, smaller ones
    before, larger after (Note [Sorting through the backend]: NumPy's on
    the CPU, fully sorted on a device)."""
    return _partitioned(a, kth, axis, kind, order, False)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """NumPy's argpartition: the positions that partition a (NumPy's on the
    CPU, a full stable argsort on a device: Note [Sorting through the
    backend])."""
    return _partitioned(a, kth, axis, kind, order, True)


def _small_cpu_keys(keys):
    """lexsort's keys as NumPy sees them when they are small CPU tensors (one
    tensor of keys, or a list or tuple of them), else None."""
    if isinstance(keys, TensorBase):
        views = numpy_views(keys) if keys.ndim > 0 and keys.size < SMALL_CPU_WORK else None
        return None if views is None else views[0]
    if type(keys) in (list, tuple) and keys and isinstance(keys[0], TensorBase) and \
            keys[0].size * len(keys) < SMALL_CPU_WORK:
        views = numpy_views(*keys)  # (keys of other shapes: NumPy's error)
        if views is not None and all([type(v) is np.ndarray for v in views]):
            return views
    return None


def lexsort(keys, axis=-1):
    """NumPy's lexsort: the positions that sort by the last key, then the one
    before it, ...: stable argsorts, from the first key to the last."""
    small = _small_cpu_keys(keys)
    if small is not None:  # Note [Small CPU work through NumPy's functions] in _operands.py
        return numpy_call(np.lexsort, [small], floats=False, axis=axis)
    from ._index_functions import take_along_axis
    if isinstance(keys, TensorBase):
        if keys.ndim == 0:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        keys = [keys[i] for i in range(keys.shape[0])]
    else:
        keys = list(keys)
    if len(keys) == 0:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    device = next((k.device for k in keys if isinstance(k, TensorBase)), None)
    keys = [_tensor(k, device) for k in keys]
    shape = keys[0].shape
    if any(k.shape != shape for k in keys):
        raise ValueError("all keys need to be the same shape")
    if len(shape) == 0:  # scalar keys (a 1-d array's elements): NumPy's 0, for axis 0 or -1
        if operator.index(axis) not in (0, -1):
            raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension 0")
        return zeros((), dtype=_C.int64, device=keys[0].device)
    ax = normalize_axis_index(operator.index(axis), len(shape))
    idx = argsort(keys[0], axis=ax, stable=True)
    for k in keys[1:]:
        step = argsort(take_along_axis(k, idx, axis=ax), axis=ax, stable=True)
        idx = take_along_axis(idx, step, axis=ax)
    return idx


class _SortingMethods:
    """Tensor methods (installed by devtensor._tensor)."""

    def sort(self, axis=-1, kind=None, order=None, dim=None, *, stable=None, descending=None):
        """NumPy's ndarray.sort: sorts in place (axis an integer), returns None;
        with PyTorch's dim= or descending= (ndarray.sort has no descending),
        PyTorch's: (values, indices), the tensor left as it is (Note
        [PyTorch's keywords])."""
        if dim is not None or descending is not None:
            return sort(self, -1 if dim is None else axis, kind, order, stable=stable,
                        descending=bool(descending), dim=axis if dim is None else dim)
        if not self._writeable:
            raise ValueError("sort array is read-only")
        self[...] = sort(self, operator.index(axis), kind, order, stable=stable)

    def argsort(self, axis=-1, kind=None, order=None, dim=None, *, stable=None, descending=False):
        return argsort(self, axis, kind, order, stable=stable, descending=descending, dim=dim)

    def partition(self, kth, axis=-1, kind="introselect", order=None):
        """NumPy's ndarray.partition: in place (axis an integer), returns None."""
        if not self._writeable:
            raise ValueError("partition array is read-only")
        self[...] = partition(self, kth, operator.index(axis), kind, order)

    def argpartition(self, kth, axis=-1, kind="introselect", order=None):
        return argpartition(self, kth, axis, kind, order)

    def searchsorted(self, v, side="left", sorter=None):
        return searchsorted(self, v, side, sorter)
