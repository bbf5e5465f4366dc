"""Sets and counting: unique (and the array API's unique_all, unique_counts,
unique_inverse, unique_values), isin, intersect1d, union1d, setdiff1d,
setxor1d, bincount, histogram and histogram_bin_edges (with NumPy's bin
width estimators), with NumPy's arguments and results, on every device.

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
import builtins
import math
import operator
import warnings
from collections import namedtuple

import numpy as np

from . import _C
from ._C import TensorBase
from ._operands import numpy_call, numpy_views, small_cpu_views
from ._quantiles import _ops  # the modules both build on, imported once

__all__ = ["unique", "unique_all", "unique_counts", "unique_inverse", "unique_values", "isin",
           "intersect1d", "union1d", "setdiff1d", "setxor1d", "bincount", "histogram",
           "histogram_bin_edges", "histogramdd", "histogram2d"]

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def _tensor(x, device=None):
    from ._sorting import _tensor as tensor
    return tensor(x, device)


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
    perm = None
    if ar.ndim == 1 and not (return_index or return_inverse):
        s = srt.sort(ar)  # the values alone: no permutation to keep (a third of a stable argsort's time)
    elif ar.ndim == 1:
        perm = srt.argsort(ar, stable=bool(return_index))  # the first of equal elements for return_index
    else:
        perm = srt.lexsort([ar[:, j] for j in range(ar.shape[1] - 1, -1, -1)]) if ar.shape[1] else \
            cr.arange(n, device=ar.device)
    if perm is not None:
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


# Note [Small sets through NumPy]
# Sorting and compacting as Note [Sets by sorting] says costs a dozen
# device calls, 16 us per unique of 16 elements where NumPy's takes 3; below
# about a thousand elements NumPy's unique is faster, above it ours (the
# radix sort across threads) is, by 3x at 4096 elements and more beyond.
# So a small CPU tensor's unique (axis=None) is NumPy's on a zero-copy
# view, its results wrapped as they come: the same values, order and dtypes.
_NUMPY_UNIQUE_BELOW = 1024


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True, dim=None):
    """NumPy's unique: the sorted distinct elements (rows, along axis), and
    optionally the first positions, the inverse (of ar's shape for
    axis=None) and the counts.  equal_nan: all NaN count as one.  PyTorch's
    dim= is axis."""
    if dim is not None:
        from ._torch_keywords import axis as _torch_axis
        axis = _torch_axis("unique", axis, dim)
    if (axis is None and isinstance(ar, TensorBase) and ar.size < _NUMPY_UNIQUE_BELOW
            and ar.device.type == "cpu" and ar.dtype != _C.bfloat16):  # Note [Small sets through NumPy]
        res = np.unique(ar.numpy(), return_index, return_inverse, return_counts, equal_nan=equal_nan)
        return tuple(_C._from_numpy(r) for r in res) if isinstance(res, tuple) else _C._from_numpy(res)
    from numpy.lib.array_utils import normalize_axis_index
    _, _, man, _, _, _ = _ops()
    ar = _tensor(ar)
    if axis is not None and ar.ndim == 1:  # NumPy's rows of one element follow its elements' rule: NaN as one
        normalize_axis_index(operator.index(axis), 1)
        axis = None
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
    views = small_cpu_views(element, test_elements)
    if views is not None:  # Note [Small CPU work through NumPy's functions]
        return numpy_call(np.isin, views, floats=False, assume_unique=assume_unique, invert=invert, kind=kind)
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
    found = _isin_table(element, test, kind == "table") if kind != "sort" else None
    if found is None:
        s = srt.sort(test, stable=True)
        pos = srt.searchsorted(s, element)
        found = uf.equal(ix.take(s, uf.minimum(pos, s.shape[0] - 1)), element)
    if beyond is not None:
        found = uf.logical_and(found, uf.logical_not(beyond))
    return uf.logical_not(found) if invert else found


def _isin_table(element, test, forced):
    """isin of integers by a table (NumPy's kind='table', and its choice for
    kind=None): a bool per value from test's min to its max, set at test's
    values (a scatter), read at each element's (a gather); None where the
    table would be larger than NumPy allows (6 entries per element of both
    inputs, or past int64) and kind was not 'table'."""
    cr, ix, _, red, _, uf = _ops()
    if element.dtype.kind not in "iub" or test.dtype.kind not in "iub":
        return None
    if element.dtype == _C.bool:
        element, test = element.astype(_C.uint8), test.astype(_C.uint8)
    lo_t, hi_t = red.min(test), red.max(test)  # 0-d, of the inputs' one dtype
    span = int(hi_t) - int(lo_t)
    if span > np.iinfo(np.int64).max or (not forced and span > 6 * (element.size + test.size)):
        return None
    # offsets from the minimum in 64 bits (uint64 for uint64, whose values past
    # int64 a Python int could not take part in; int64 for the rest, where the
    # dtype itself would wrap: int8's 100 - -100)
    wide = _C.uint64 if test.dtype == _C.uint64 else _C.int64
    lo_w = lo_t.astype(wide)
    table = cr.zeros((span + 1,), dtype=_C.bool, device=element.device)
    table[uf.subtract(test.astype(wide), lo_w).astype(_C.int64)] = True  # below span
    inside = uf.logical_and(uf.greater_equal(element, lo_t), uf.less_equal(element, hi_t))
    at = uf.where(inside, uf.subtract(element.astype(wide), lo_w).astype(_C.int64), 0)  # garbage outside: masked
    return uf.logical_and(inside, ix.take(table, at))


def _unique_1d(a, assume_unique):
    a = _tensor(a).reshape(-1)
    return a if assume_unique else unique(a)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """NumPy's intersect1d: the sorted common values (and, with
    return_indices, their first positions in each input)."""
    views = small_cpu_views(ar1, ar2)
    if views is not None:
        return numpy_call(np.intersect1d, views, floats=False, assume_unique=assume_unique,
                          return_indices=return_indices)
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
    views = small_cpu_views(ar1, ar2)
    if views is not None:
        return numpy_call(np.union1d, views, floats=False)
    _, _, man, _, _, _ = _ops()
    ar1 = _tensor(ar1).reshape(-1)
    ar2 = _tensor(ar2, ar1.device).reshape(-1)
    return unique(man.concatenate([ar1, ar2]))


def setdiff1d(ar1, ar2, assume_unique=False):
    """NumPy's setdiff1d: the distinct values of ar1 not in ar2 (sorted
    unless assume_unique)."""
    views = small_cpu_views(ar1, ar2)
    if views is not None:
        return numpy_call(np.setdiff1d, views, floats=False, assume_unique=assume_unique)
    a = _unique_1d(ar1, assume_unique)
    return a[isin(a, _tensor(ar2, a.device), invert=True)]


def setxor1d(ar1, ar2, assume_unique=False):
    """NumPy's setxor1d: the sorted values in exactly one of the inputs."""
    views = small_cpu_views(ar1, ar2)
    if views is not None:
        return numpy_call(np.setxor1d, views, floats=False, assume_unique=assume_unique)
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
    views = numpy_views(x, weights) if isinstance(x, TensorBase) and x.dtype.kind in "ib" else None
    if views is not None:  # Note [NumPy's loops for CPU tensors] in _operands.py; its checks too
        return numpy_call(np.bincount, views, floats=False, minlength=minlength)
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
    if x.device.type == "cpu":  # NumPy's counting loop on the views (a sort below otherwise)
        return from_numpy(np.bincount(x.numpy(), None if weights is None else weights.numpy(), minlength))
    x = x.astype(_C.int64)
    edges = arange(length + 1, dtype=_C.int64, device=x.device)
    if weights is None:
        return red.diff(srt.searchsorted(srt.sort(x, stable=True), edges))
    if n == 0:
        return cr.zeros((length,), dtype=_C.float64, device=x.device)
    # each bin's weights summed on their own (a difference of running sums
    # loses a bin's value beside large earlier ones: 1e17 then 1.0): the
    # weights in value order, one segment per bin, a trailing 0 so that
    # every segment's start is an index; empty bins are 0
    order = srt.argsort(x, stable=True)
    bounds = srt.searchsorted(x[order], edges)
    w = man.concatenate([weights[order], cr.zeros((1,), dtype=_C.float64, device=x.device)])
    sums = uf.add.reduceat(w, bounds[:-1])
    return uf.where(bounds[1:] > bounds[:-1], sums, 0.0)


# Histograms: the bin edges (shared by histogram and histogram_bin_edges),
# NumPy's bin width estimators, and the counting.

_ESTIMATORS = ("auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt")


def _host(t):
    """A tensor's values on the host as NumPy's (a scalar for a 0-d tensor;
    bfloat16, which NumPy lacks, as float32)."""
    return (t.astype(_C.float32) if t.dtype == _C.bfloat16 else t).cpu().numpy()[()]


def _span(hi, lo):
    """hi - lo (hi >= lo) of host scalars in their common type, signed
    integers subtracted in the unsigned type of their size (as NumPy does) so
    that a wide span cannot overflow."""
    common = np.result_type(hi, lo)
    if common.kind != "i":
        return np.subtract(hi, lo, dtype=common)
    return np.subtract(np.asarray(hi, common), np.asarray(lo, common), dtype=np.dtype(f"u{common.itemsize}"),
                       casting="unsafe")


def _ravel_for_histogram(a, weights):
    """a and weights (checked to have a's shape) flattened; bool data as
    uint8, with NumPy's warning."""
    a = _tensor(a)
    if a.dtype == _C.bool:
        warnings.warn(f"Converting input from bool to {np.uint8} for compatibility.", RuntimeWarning, stacklevel=3)
        a = a.astype(_C.uint8)
    if weights is not None:
        weights = _tensor(weights, a.device)
        if weights.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
        weights = weights.reshape(-1)
    return a.reshape(-1), weights


def _outer_edges(a, range):
    """The first and last edge on the host: `range`, or the data's extremes
    (0 and 1 for no data), an empty span widened by 1/2 either side."""
    if range is not None:
        lo, hi = range
        if lo > hi:
            raise ValueError("max must be larger than min in range parameter.")
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise ValueError(f"supplied range of [{lo}, {hi}] is not finite")
    elif a.shape[0] == 0:
        lo, hi = 0, 1
    else:
        # the data's own scalars: the edges then compute in their dtype
        # (float32 data gives float32 edges)
        _, _, _, red, _, _ = _ops()
        lo, hi = _host(red.min(a)), _host(red.max(a))
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise ValueError(f"autodetected range of [{lo}, {hi}] is not finite")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return lo, hi


def _equal_edges(a, lo, hi, count):
    """`count` equal bins from lo to hi for the data a: NumPy's linspace on
    the host, in the data's float type (float64 for integers)."""
    from ._creation import asarray
    edge_type = np.result_type(lo, hi, np.empty(0, np.float32 if a.dtype == _C.bfloat16 else a.dtype.name))
    if edge_type.kind in "iub":
        edge_type = np.result_type(edge_type, float)
    edges = np.linspace(lo, hi, count + 1, endpoint=True, dtype=edge_type)
    if np.any(edges[:-1] >= edges[1:]):
        raise ValueError(f"Too many bins for data range. Cannot create {count} finite-sized bins.")
    return asarray(edges, device=a.device)


# Note [Bin estimators]
# A string `bins` names one of NumPy's estimators of the bin width h; the
# bins are then ceil((last - first) / h) equal bins of the outer edges (one
# bin where h is 0: constant data, a zero interquartile range, too few
# points, or no data in range), h at least 1 for integer data.  The
# estimators read only the data in range, through a few statistics reduced
# on its device (size, extremes, std, the third moment, the quartiles by
# devtensor's percentile); those scalars come to the host as NumPy scalars,
# and the formulas are evaluated there with NumPy's expressions, so that the
# width, hence the count, has NumPy's dtype and rounding (a float32 span
# over a Python float stays float32).  'stone' minimises an estimate of the
# integrated squared error, (2 - (n+1) sum p_k^2) / h, over 1 to
# max(100, sqrt n) bins: the data are sorted once, each candidate's counts
# are a binary search of its edges (NumPy's counts: left-closed bins, the
# last one closed), and the costs are compared on the device, the first
# minimum winning as in NumPy.

def _bin_width(name, x, lo, hi):
    """The estimator `name`'s bin width for the non-empty data x in [lo, hi],
    a host scalar (Note [Bin estimators])."""
    from ._quantiles import percentile
    cr, ix, man, red, srt, uf = _ops()
    n = x.shape[0]
    if name == "scott":
        return (24.0 * np.pi ** 0.5 / n) ** (1.0 / 3.0) * _host(red.std(x))
    if name in ("fd", "auto"):
        q75, q25 = _host(percentile(x, [75, 25]))
        fd = 2.0 * (q75 - q25) * n ** (-1.0 / 3.0)
        if name == "fd":
            return fd
    ptp = _span(_host(red.max(x)), _host(red.min(x)))
    sturges, root = ptp / (np.log2(n) + 1.0), ptp / np.sqrt(n)
    if name == "auto":  # Freedman-Diaconis, kept under sqrt n / 2 bins, or Sturges' if finer
        return min(max(fd, root / 2), sturges)
    if name == "sturges":
        return sturges
    if name == "sqrt":
        return root
    if name == "rice":
        return ptp / (2.0 * n ** (1.0 / 3))
    if name == "doane":
        if n <= 2:
            return 0.0
        sigma = red.std(x)
        if not _host(sigma) > 0.0:
            return 0.0
        g1 = _host(red.mean(uf.power(uf.divide(uf.subtract(x, red.mean(x)), sigma), 3)))
        sg1 = np.sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)))
        return ptp / (1.0 + np.log2(n) + np.log2(1.0 + np.absolute(g1) / sg1))
    # stone
    if n <= 1 or ptp == 0:
        return 0
    top = max(100, int(np.sqrt(n)))
    s = srt.sort(x)
    sumsq = []
    for k in range(1, top + 1):
        s, e = _common(s, _equal_edges(x, lo, hi, k))
        bounds = man.concatenate([srt.searchsorted(s, e[:-1]), srt.searchsorted(s, e[-1:], side="right")])
        p = uf.divide(red.diff(bounds), n)
        sumsq.append(red.sum(uf.multiply(p, p)))
    widths = cr.asarray(np.array([ptp / k for k in range(1, top + 1)]), device=x.device)
    cost = uf.divide(uf.subtract(2, uf.multiply(n + 1, man.stack(sumsq))), widths)
    best = int(red.argmin(cost)) + 1
    if best == top:
        warnings.warn("The number of bins estimated may be suboptimal.", RuntimeWarning, stacklevel=4)
    return ptp / best


def _one_number(bins):
    """Whether bins is a count rather than edges (NumPy's np.ndim(bins) == 0):
    a 0-d tensor counts too (bins=labels.max() + 1)."""
    return bins.ndim == 0 if isinstance(bins, TensorBase) else np.ndim(bins) == 0


def _bin_edges(a, bins, range, weights):
    """NumPy's bin edges for the flattened data a: `bins` equal bins of the
    outer edges for a count or an estimator's name, else `bins` itself as
    the increasing edges."""
    _, _, _, red, _, uf = _ops()
    if isinstance(bins, str):
        if bins not in _ESTIMATORS:
            raise ValueError(f"{bins!r} is not a valid estimator for `bins`")
        if weights is not None:
            raise TypeError("Automated estimation of the number of bins is not supported for weighted data")
        lo, hi = _outer_edges(a, range)
        x = a if range is None else a[uf.logical_and(uf.greater_equal(a, lo), uf.less_equal(a, hi))]
        count, width = 1, _bin_width(bins, x, lo, hi) if x.shape[0] else 0
        if width:
            if x.dtype.kind in "iu" and width < 1:
                width = 1
            count = int(np.ceil(_span(hi, lo) / width))
        return _equal_edges(a, lo, hi, count)
    if _one_number(bins):
        try:
            count = operator.index(bins)
        except TypeError:
            raise TypeError("`bins` must be an integer, a string, or an array") from None
        if count < 1:
            raise ValueError("`bins` must be positive, when an integer")
        return _equal_edges(a, *_outer_edges(a, range), count)
    edges = _tensor(bins, a.device)
    if edges.ndim != 1:
        raise ValueError("`bins` must be 1d, when an array")
    if edges.shape[0] > 1 and bool(red.any(uf.less(edges[1:], edges[:-1]))):
        raise ValueError("`bins` must increase monotonically, when an array")
    return edges


def _equal_bin_of(v, e, nb):
    """The bin of each value v (inside the edges e) among nb equal bins, by
    NumPy's arithmetic instead of a search: (v - first) / (last - first) * nb
    truncated, then moved by one where it lies across its bin's edges
    (the division may be an ulp off), the last edge in the last bin."""
    _, ix, _, _, _, uf = _ops()
    first, last = e[0], e[-1]
    which = uf.multiply(uf.divide(uf.subtract(v, first), uf.subtract(last, first)), nb).astype(_C.int64)
    which = uf.subtract(which, uf.equal(which, nb))
    which = uf.subtract(which, uf.less(v, ix.take(e, which)))
    above = uf.logical_and(uf.greater_equal(v, ix.take(e, uf.add(which, 1))), uf.not_equal(which, nb - 1))
    return uf.add(which, above)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """NumPy's histogram_bin_edges: the edges histogram uses for a's
    flattened values, `bins` a count, an estimator's name ('auto', 'fd',
    'doane', 'scott', 'stone', 'rice', 'sturges', 'sqrt') or the edges."""
    a, weights = _ravel_for_histogram(a, weights)
    return _bin_edges(a, bins, range, weights)


def histogram(a, bins=10, range=None, density=None, weights=None):
    """NumPy's histogram: (hist, bin_edges) of a's flattened values, over
    `bins` equal bins of `range` (the data's by default; their number given
    or estimated by name, see histogram_bin_edges) or the given increasing
    edges; the last bin includes its right edge."""
    views = small_cpu_views(a, bins, range, density, weights, limit=None)
    if views is not None:  # Note [Small CPU work through NumPy's functions], at every size:
        return numpy_call(np.histogram, views)  # 10^6 values took 27 ms here against NumPy's 7.7
    cr, ix, man, red, srt, uf = _ops()
    a, weights = _ravel_for_histogram(a, weights)
    edges = _bin_edges(a, bins, range, weights)
    nb = edges.shape[0] - 1
    vals, e = _common(a, edges)
    inside = uf.logical_and(uf.greater_equal(vals, e[0]), uf.less_equal(vals, e[-1]))
    vals = vals[inside]
    w = weights[inside] if weights is not None else None
    if nb > 0 and _one_number(bins):  # equal bins
        which = _equal_bin_of(vals, e, nb)
    else:
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


def _dd_edges(column, bins, rng, i):
    """histogramdd's edges along one dimension (NumPy's rules and errors):
    NumPy's linspace of the outer edges, whose dtype is theirs (float32 for
    float32 data and no range, float64 for a range of Python floats)."""
    from ._creation import asarray
    cr, ix, man, red, srt, uf = _ops()
    if _one_number(bins):
        if bins < 1:
            raise ValueError(f"`bins[{i}]` must be positive, when an integer")
        lo, hi = _outer_edges(column, rng)
        try:
            count = operator.index(bins)
        except TypeError:
            raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from None
        return asarray(np.linspace(lo, hi, count + 1), device=column.device)
    edges = asarray(bins, device=column.device)
    if edges.ndim != 1:
        raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
    if edges.shape[0] > 1 and red.any(uf.less(edges[1:], edges[:-1])).item():
        raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
    return edges


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """NumPy's histogramdd: counts (or weight sums) of the N points of an
    (N, D) sample (or D arrays of N) in a D-dimensional grid of bins, each
    dimension's last bin including its right edge; (hist, edges) on the
    sample's device."""
    from ._creation import asarray
    cr, ix, man, red, srt, uf = _ops()
    if isinstance(sample, (list, tuple)) and not isinstance(sample, TensorBase):
        sample = man.stack([asarray(c) for c in sample], axis=1) if len(sample) and np.ndim(sample[0]) else (
            asarray(sample))
    sample = _tensor(sample)
    if sample.ndim < 2:
        sample = sample.reshape(-1, 1)
    n, d = sample.shape
    if weights is not None:
        weights = _tensor(weights, sample.device)
    try:
        m = len(bins)
        if m != d:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    except TypeError:
        bins = d * [bins]
    if range is None:
        range = (None,) * d
    elif len(range) != d:
        raise ValueError("range argument must have one entry per dimension")
    edges = [_dd_edges(sample[:, i], bins[i], range[i], i) for i in builtins.range(d)]
    nbin = [e.shape[0] + 1 for e in edges]  # an outlier bin on each side
    flat = cr.zeros((n,), dtype=_C.int64, device=sample.device)
    for i, e in enumerate(edges):
        col = sample[:, i]
        where = srt.searchsorted(e, col, side="right")
        where = uf.subtract(where, uf.equal(col, e[-1]).astype(_C.int64))  # the last edge: the last bin
        flat = uf.add(uf.multiply(flat, nbin[i]), where)
    total = int(np.prod(nbin))
    hist = bincount(flat, weights, minlength=total).reshape(nbin)
    hist = hist[(slice(1, -1),) * d].astype(_C.float64)
    if density:
        s = red.sum(hist)
        for i, e in enumerate(edges):
            shape = [1] * d
            shape[i] = nbin[i] - 2
            hist = uf.divide(hist, red.diff(e).reshape(shape))
        hist = uf.divide(hist, s)
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """NumPy's histogram2d: (hist, xedges, yedges) of the points (x[i], y[i]);
    bins an int, a pair of ints, edges or a pair of edges."""
    from ._creation import asarray
    cr, ix, man, red, srt, uf = _ops()
    x = _tensor(x)
    y = asarray(y, device=x.device)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError("x and y must have the same length." if x.ndim == 1 else "x and y must be 1-d")
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n != 1 and n != 2:  # NumPy's reading: one sequence of edges for both dimensions
        bins = [bins, bins]
    hist, edges = histogramdd(man.stack([x, y], axis=1), bins, range, density, weights)
    return hist, edges[0], edges[1]
