"""Sets and counting: unique (and the array API's unique_all, unique_counts,
unique_inverse, unique_values), isin, intersect1d, union1d, setdiff1d,
setxor1d, bincount and histogram, with NumPy's arguments and results, on
every device.

Note [Sets by sorting]
Everything here is a stable sort (devtensor._sorting) followed by device
work: unique keeps the first of each run of equal sorted elements (a mask
of adjacent differences, then boolean indexing: compaction), its inverse
is the running count of that mask scattered back through the sort's
permutation, its counts the differences of the runs' starts.  isin is a
binary search of the sorted test elements.  bincount counts by binary
search of the sorted values for every bin edge; its weighted sums are
differences of a float64 running sum of the weights in bin order, so a
bin's sum carries the rounding of the running total (NumPy adds each bin's
weights alone); on the CPU, where NumPy's own loop is a zero-copy call
away, weighted bincount uses it.  The unique_* functions return sorted
values (the array API leaves their order open; NumPy >= 2.3 returns them in
hash order).

Note [Signed and unsigned]
Signed integers and uint64 promote to float64, which rounds above 2**53;
isin compares them exactly instead (as NumPy's table and loop methods do):
a uint64 above the int64 range equals no signed value, so such test
elements are dropped and such elements found in nothing, and the rest
compare as int64.
"""
import math
import operator
from collections import namedtuple

import numpy as np

from . import _C
from ._C import TensorBase

__all__ = ["unique", "unique_all", "unique_counts", "unique_inverse", "unique_values", "isin",
           "intersect1d", "union1d", "setdiff1d", "setxor1d", "bincount", "histogram"]

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def _tensor(x, device=None):
    from ._sorting import _tensor as tensor
    return tensor(x, device)


def _ops():
    from . import _creation, _index_functions, _manipulation, _reductions, _sorting, _ufuncs
    return _creation, _index_functions, _manipulation, _reductions, _sorting, _ufuncs


def _run_starts(s, equal_nan):
    """mask[i]: s[i] (sorted, 1-d or rows along axis 0) starts a run of equal elements."""
    cr, _, man, red, _, uf = _ops()
    n = s.shape[0]
    if n < 2:
        return cr.ones((n,), dtype=_C.bool, device=s.device)
    first = cr.ones((1,), dtype=_C.bool, device=s.device)
    differ = uf.not_equal(s[1:], s[:-1])
    if s.ndim > 1:
        differ = red.any(differ, axis=1)  # rows without columns are all equal
    elif equal_nan and s.dtype.kind in "fc":
        both_nan = uf.logical_and(uf.isnan(s[1:]), uf.isnan(s[:-1]))
        differ = uf.logical_and(differ, uf.logical_not(both_nan))
    return man.concatenate([first, differ])


def _unique_sorted(ar, return_index, return_inverse, return_counts, equal_nan):
    """unique of a 1-d tensor (or of the rows of a 2-d one): the tuple NumPy returns."""
    cr, ix, man, red, srt, uf = _ops()
    n = ar.shape[0]
    if ar.ndim == 1:
        perm = srt.argsort(ar, stable=True)
    else:
        perm = srt.lexsort([ar[:, j] for j in range(ar.shape[1] - 1, -1, -1)]) if ar.shape[1] else \
            cr.arange(n, device=ar.device)
    s = ar[perm]
    mask = _run_starts(s, equal_nan)
    res = [s[mask]]
    if return_index:
        res.append(perm[mask])
    if return_inverse:
        inv = cr.empty((n,), dtype=_C.int64, device=ar.device)
        if n:
            inv[perm] = uf.subtract(red.cumsum(mask, dtype=_C.int64), 1)
        res.append(inv)
    if return_counts:  # the runs' lengths: the differences of their starts and n
        bounds = man.concatenate([ix.flatnonzero(mask), cr.full((1,), n, dtype=_C.int64, device=ar.device)])
        res.append(red.diff(bounds))
    return res


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):
    """NumPy's unique: the sorted distinct elements (rows, along axis), and
    optionally the first positions, the inverse (of ar's shape for
    axis=None) and the counts.  equal_nan: all NaN count as one."""
    from numpy.lib.array_utils import normalize_axis_index
    _, _, man, _, _, _ = _ops()
    ar = _tensor(ar)
    if axis is None:
        res = _unique_sorted(ar.reshape(-1), return_index, return_inverse, return_counts, equal_nan)
        if return_inverse:
            k = 1 + bool(return_index)
            res[k] = res[k].reshape(ar.shape)
    else:
        ax = normalize_axis_index(operator.index(axis), ar.ndim)
        moved = man.moveaxis(ar, ax, 0)
        shape = tuple(moved.shape)
        rows = moved.reshape(shape[0], math.prod(shape[1:]))  # explicit sizes: either may be 0
        res = _unique_sorted(rows, return_index, return_inverse, return_counts, equal_nan)
        res[0] = man.moveaxis(res[0].reshape(res[0].shape[:1] + shape[1:]), 0, ax)
    return res[0] if len(res) == 1 else tuple(res)


def unique_values(x):
    """The array API's unique_values: distinct elements, NaN each distinct."""
    return unique(_tensor(x), equal_nan=False)


def unique_counts(x):
    v, c = unique(_tensor(x), return_counts=True, equal_nan=False)
    return UniqueCountsResult(v, c)


def unique_inverse(x):
    v, inv = unique(_tensor(x), return_inverse=True, equal_nan=False)
    return UniqueInverseResult(v, inv)


def unique_all(x):
    v, i, inv, c = unique(_tensor(x), return_index=True, return_inverse=True, return_counts=True,
                          equal_nan=False)
    return UniqueAllResult(v, i, inv, c)


def _common(a, b):
    from ._dtype_api import result_type
    common = result_type(a.dtype, b.dtype)
    return (a if a.dtype == common else a.astype(common)), (b if b.dtype == common else b.astype(common))


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """NumPy's isin: a bool tensor of element's shape, True where the element
    is in test_elements (NaN is in nothing)."""
    cr, ix, _, _, srt, uf = _ops()
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    element = _tensor(element)
    test = _tensor(test_elements, element.device).reshape(-1)
    if kind == "table" and not (element.dtype.kind in "iub" and test.dtype.kind in "iub"):
        raise ValueError("The 'table' method is only supported for boolean or integer arrays. "
                         "Please select 'sort' or None for kind.")
    beyond = None  # elements no test element can equal (Note [Signed and unsigned])
    if {element.dtype.kind, test.dtype.kind} == {"i", "u"} and _C.uint64 in (element.dtype, test.dtype):
        big = np.iinfo(np.int64).max
        if test.dtype.kind == "u":
            test = test[uf.less_equal(test, big)]
        else:
            beyond = uf.greater(element, big)
        element, test = element.astype(_C.int64), test.astype(_C.int64)
    else:
        element, test = _common(element, test)
    if test.shape[0] == 0:
        return cr.full(element.shape, bool(invert), dtype=_C.bool, device=element.device)
    s = srt.sort(test, stable=True)
    pos = srt.searchsorted(s, element)
    found = uf.equal(ix.take(s, uf.minimum(pos, s.shape[0] - 1)), element)
    if beyond is not None:
        found = uf.logical_and(found, uf.logical_not(beyond))
    return uf.logical_not(found) if invert else found


def _unique_1d(a, assume_unique):
    a = _tensor(a).reshape(-1)
    return a if assume_unique else unique(a)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """NumPy's intersect1d: the sorted common values (and, with
    return_indices, their first positions in each input)."""
    _, ix, _, _, srt, _ = _ops()
    ar1 = _tensor(ar1).reshape(-1)
    ar2 = _tensor(ar2, ar1.device).reshape(-1)
    ar1, ar2 = _common(ar1, ar2)
    if assume_unique:
        i1, i2 = srt.argsort(ar1, stable=True), srt.argsort(ar2, stable=True)
        u1, u2 = ar1[i1], ar2[i2]
    else:
        u1, i1 = unique(ar1, return_index=True)
        u2, i2 = unique(ar2, return_index=True)
    both = u1[isin(u1, u2)]
    if not return_indices:
        return both
    return both, ix.take(i1, srt.searchsorted(u1, both)), ix.take(i2, srt.searchsorted(u2, both))


def union1d(ar1, ar2):
    """NumPy's union1d: the sorted distinct values of both."""
    _, _, man, _, _, _ = _ops()
    ar1 = _tensor(ar1).reshape(-1)
    ar2 = _tensor(ar2, ar1.device).reshape(-1)
    return unique(man.concatenate([ar1, ar2]))


def setdiff1d(ar1, ar2, assume_unique=False):
    """NumPy's setdiff1d: the distinct values of ar1 not in ar2 (sorted
    unless assume_unique)."""
    a = _unique_1d(ar1, assume_unique)
    return a[isin(a, _tensor(ar2, a.device), invert=True)]


def setxor1d(ar1, ar2, assume_unique=False):
    """NumPy's setxor1d: the sorted values in exactly one of the inputs."""
    cr, _, man, _, srt, uf = _ops()
    a = _unique_1d(ar1, assume_unique)
    b = _unique_1d(_tensor(ar2, a.device), assume_unique)
    aux = srt.sort(man.concatenate([a, b]), stable=True)
    if aux.shape[0] == 0:
        return aux
    edge = cr.ones((1,), dtype=_C.bool, device=aux.device)
    flag = man.concatenate([edge, uf.not_equal(aux[1:], aux[:-1]), edge])
    return aux[uf.logical_and(flag[1:], flag[:-1])]


def bincount(x, weights=None, minlength=0):
    """NumPy's bincount: counts (or weight sums) of each value 0..max(x) of a
    1-d tensor of non-negative integers."""
    from ._creation import arange, from_numpy
    cr, ix, man, red, srt, uf = _ops()
    sequence = not isinstance(x, (TensorBase, np.ndarray))
    x = _tensor(x)
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if x.ndim != 1:
        raise ValueError("object too deep for desired array" if x.ndim > 1 else
                         "object of too small depth for desired array")
    if x.size == 0 and (sequence or x.dtype.kind in "iub"):  # NumPy's early answer: weights unread
        return cr.zeros((minlength,), dtype=_C.int64, device=x.device)
    if x.dtype.kind not in "iub":
        raise TypeError(f"Cannot cast array data from dtype('{x.dtype}') to dtype('int64') "
                        "according to the rule 'safe'")
    if x.dtype == _C.uint64:  # NumPy casts unsigned input unsafely: from 2**63 it is negative
        x = x.astype(_C.int64)
    n = x.shape[0]
    if n and int(red.min(x)) < 0:
        raise ValueError("'list' argument must have no negative elements")
    if weights is not None:
        # NumPy's float64 weights: a sequence through float() (its errors), arrays cast safely
        weights = _tensor(weights if isinstance(weights, (TensorBase, np.ndarray)) else
                          np.asarray(weights, dtype=np.float64), x.device)
        if weights.dtype.kind == "c":
            raise TypeError(f"Cannot cast array data from dtype('{weights.dtype}') to dtype('float64') "
                            "according to the rule 'safe'")
        if weights.shape != x.shape:
            raise ValueError("The weights and list don't have the same length.")
        weights = weights.astype(_C.float64)
    length = max(int(red.max(x)) + 1 if n else 0, minlength)
    if x.device.type == "cpu" and weights is not None:
        return from_numpy(np.bincount(x.numpy(), weights.numpy(), minlength))
    x = x.astype(_C.int64)
    edges = arange(length + 1, dtype=_C.int64, device=x.device)
    if weights is None:
        return red.diff(srt.searchsorted(srt.sort(x, stable=True), edges))
    order = srt.argsort(x, stable=True)
    bounds = srt.searchsorted(x[order], edges)
    w = weights[order]
    running = man.concatenate([cr.zeros((1,), dtype=w.dtype, device=x.device), red.cumsum(w)])
    return uf.subtract(ix.take(running, bounds[1:]), ix.take(running, bounds[:-1]))


def histogram(a, bins=10, range=None, density=None, weights=None):
    """NumPy's histogram: (hist, bin_edges) of a's flattened values, over
    `bins` equal bins of `range` (the data's by default) or the given
    increasing edges; the last bin includes its right edge."""
    from ._creation import asarray, linspace
    cr, ix, man, red, srt, uf = _ops()
    a = _tensor(a)
    if weights is not None:
        weights = _tensor(weights, a.device)
        if weights.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
        weights = weights.reshape(-1)
    a = a.reshape(-1)
    if isinstance(bins, str):
        raise NotImplementedError("histogram: bin estimators ('auto', 'fd', ...) are not supported; "
                                  "give the number of bins or their edges")
    if np.ndim(bins) == 0 and not isinstance(bins, TensorBase):
        try:
            count = operator.index(bins)
        except TypeError:
            raise TypeError("`bins` must be an integer, a string, or an array") from None
        if count < 1:
            raise ValueError("`bins` must be positive, when an integer")
        if range is not None:
            lo, hi = range
            if lo > hi:
                raise ValueError("max must be larger than min in range parameter.")
            if not (np.isfinite(lo) and np.isfinite(hi)):
                raise ValueError(f"supplied range of [{lo}, {hi}] is not finite")
        elif a.shape[0] == 0:
            lo, hi = 0, 1
        else:
            # NumPy's edges come from the data's own scalars: linspace then
            # computes in their dtype (float32 data gives float32 edges)
            lo, hi = (red.min(a).cpu().numpy()[()], red.max(a).cpu().numpy()[()]) if a.dtype != _C.bfloat16 \
                else (np.float32(red.min(a).item()), np.float32(red.max(a).item()))
            if not (np.isfinite(lo) and np.isfinite(hi)):
                raise ValueError(f"autodetected range of [{lo}, {hi}] is not finite")
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        data_dtype = np.float32 if a.dtype == _C.bfloat16 else np.dtype(a.dtype.name)
        edge_type = np.result_type(lo, hi, np.empty(0, data_dtype))
        if np.issubdtype(edge_type, np.integer) or edge_type == np.bool_:
            edge_type = np.result_type(edge_type, float)
        edges = asarray(np.linspace(lo, hi, count + 1, endpoint=True, dtype=edge_type), device=a.device)
    else:
        edges = _tensor(bins, a.device)
        if edges.ndim != 1:
            raise ValueError("`bins` must be 1d, when an array")
        if edges.shape[0] > 1 and bool(red.any(uf.less(edges[1:], edges[:-1]))):
            raise ValueError("`bins` must increase monotonically, when an array")
    nb = edges.shape[0] - 1
    vals, e = _common(a, edges)
    inside = uf.logical_and(uf.greater_equal(vals, e[0]), uf.less_equal(vals, e[-1]))
    vals = vals[inside]
    w = weights[inside] if weights is not None else None
    which = uf.subtract(srt.searchsorted(e, vals, side="right"), 1)
    which = uf.minimum(which, nb - 1)  # the last edge belongs to the last bin
    dtype = _C.int64 if w is None else w.dtype  # NumPy's sums are float64, cast to the weights' dtype
    if nb == 0:
        hist = cr.zeros((0,), dtype=dtype, device=a.device)
    elif dtype.kind == "c":  # NumPy sums the parts apart
        hist = cr.empty((nb,), dtype=dtype, device=a.device)
        hist.real[...] = bincount(which, w.real, minlength=nb)[:nb]
        hist.imag[...] = bincount(which, w.imag, minlength=nb)[:nb]
    else:
        hist = bincount(which, w, minlength=nb)[:nb].astype(dtype)
    if density:
        width = red.diff(edges).astype(_C.float64)
        hist = uf.divide(uf.divide(hist, width), red.sum(hist))
    return hist, edges
