"""Order statistics: median, quantile, percentile and their NaN forms, with
NumPy's arguments (axis, out, keepdims, method) and results, on every device.

Note [Quantiles by sorting]
The reduced axes are moved last and merged, the data sorted along them
(devtensor._sorting; NaN sorts last), and each quantile read from the
sorted data: NumPy's virtual index for the method (the Hyndman & Fan
definitions NumPy documents) gives the two neighbours and the weight gamma,
and the result is NumPy's two-sided linear interpolation (a + (b - a) * g
below g = 0.5, b - (b - a) * (1 - g) from it).  The indices are computed on
the host from the count of each slice (the whole axis, or its non-NaN
elements for the NaN forms), which is small beside the data; the gathers
and the arithmetic run on the data's device.  A slice holding NaN gives NaN
(the NaN forms skip them; an all-NaN slice gives NaN and NumPy's warning).
median is the middle element, or the mean of the middle two, as NumPy's.
Only the elements read need their sorted places: when they are few (the
slices' counts being the whole axis, not the NaN forms' own), the data are
partitioned at them and at the last place (where NaN goes), NumPy's
introselect on the CPU (the median of 10^6 float64: 34 ms sorted, 9.5
partitioned, NumPy 9.8); a device sorts either way.  The NaN forms of data
without NaN take the same places.
The NaN forms of an empty array are NumPy's: its nanmean (NaN, with a
warning, and without q's dims).

Note [Weighted quantiles]
weights= is NumPy's: only method "inverted_cdf", non-negative weights of a's
shape or of its shape along axis.  The data are argsorted, the weights
taken in the same order, and their running sum (float64) divided by the
total is the empirical CDF; the quantile is the first element whose CDF
reaches q, found for all slices at once by counting the CDF values below
q (a reduction on the device, where NumPy runs searchsorted per slice).  As
in NumPy, leading zero weights are never picked, and a total that is zero,
inf or NaN raises.  The NaN forms give NaN's weight nothing (NaN sorts
last), which is NumPy's removal of them; an all-NaN slice gives NaN.

Note [The dtype of q]
Under NEP 50 only Python's own int and float are weak: NumPy keeps any
other q (a NumPy scalar, an array, a tensor, a list) as an array of its own
dtype, and computes the virtual indices and gamma in it, with the count a
(weak) Python int.  So float32 q picks float32 indices (method "higher" may
pick another element than in float64) and the result is the data's dtype
promoted with gamma's (float32 data and np.float64 q give float64); a weak
q's gamma is cast to the data's float dtype.  An integer q (0 or 1) with
"linear" gives integer indices: the element itself, in the data's dtype.
"""
import operator
import warnings

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from . import _C
from . import _torch_keywords as _tk
from ._C import TensorBase
from ._operands import numpy_call, small_cpu_views

__all__ = ["median", "quantile", "percentile", "nanmedian", "nanquantile", "nanpercentile"]


_modules = None


def _ops():
    """The modules this one builds on (imported on first use: they import it)."""
    global _modules
    if _modules is None:
        from . import _creation, _index_functions, _manipulation, _reductions, _sorting, _ufuncs
        _modules = _creation, _index_functions, _manipulation, _reductions, _sorting, _ufuncs
    return _modules


def _continuous(alpha, beta):
    return lambda n, q: n * q + (alpha + q * (1 - alpha - beta)) - 1


def _boundaries(index, take_previous):
    previous = np.floor(index)
    res = np.where(take_previous(index - previous, index), previous, previous + 1).astype(np.int64)
    return np.maximum(res, 0)


def _midpoint_gamma(gamma, index):
    return np.where(index % 1 == 0, 0.0, 0.5)


def _averaged_gamma(gamma, index):
    return np.where(gamma == 0, 0.5, 1.0)


# method: (virtual index of (n, q), gamma fix or None for integer indices)
_METHODS = {
    "inverted_cdf": (lambda n, q: _boundaries(n * q - 1, lambda g, i: g == 0), None),
    "averaged_inverted_cdf": (lambda n, q: n * q - 1, _averaged_gamma),
    "closest_observation": (lambda n, q: _boundaries(n * q - 1 - 0.5,
                                                     lambda g, i: (g == 0) & (np.floor(i) % 2 == 1)), None),
    "interpolated_inverted_cdf": (_continuous(0, 1), lambda g, i: g),
    "hazen": (_continuous(0.5, 0.5), lambda g, i: g),
    "weibull": (_continuous(0, 0), lambda g, i: g),
    "linear": (lambda n, q: (n - 1) * q, lambda g, i: g),
    "median_unbiased": (_continuous(1 / 3.0, 1 / 3.0), lambda g, i: g),
    "normal_unbiased": (_continuous(3 / 8.0, 3 / 8.0), lambda g, i: g),
    "lower": (lambda n, q: np.floor((n - 1) * q).astype(np.int64), None),
    "higher": (lambda n, q: np.ceil((n - 1) * q).astype(np.int64), None),
    "midpoint": (lambda n, q: 0.5 * (np.floor((n - 1) * q) + np.ceil((n - 1) * q)), _midpoint_gamma),
    "nearest": (lambda n, q: np.around((n - 1) * q).astype(np.int64), None),
}


def _tensor(x):
    from ._sorting import _tensor as tensor
    return tensor(x)


def _last(a, axis):
    """a with the reduced axes merged into its last; and the kept shape with
    keepdims' ones (the result's shape after the quantile dims)."""
    _, _, man, _, _, _ = _ops()
    if axis is None:
        return a.reshape(-1), (), (1,) * a.ndim
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    axes = [normalize_axis_index(operator.index(x), a.ndim) for x in axes]
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")  # NumPy's quantile and median say this
    kept = [d for d in range(a.ndim) if d not in axes]
    moved = man.permute_dims(a, kept + axes) if kept + axes != list(range(a.ndim)) else a
    kept_shape = tuple(a.shape[d] for d in kept)
    keep = tuple(1 if d in axes else a.shape[d] for d in range(a.ndim))
    n = 1
    for d in axes:
        n *= a.shape[d]
    return moved.reshape(kept_shape + (n,)), kept_shape, keep


def _finish(res, qshape, kept_shape, keep, keepdims, out, skip_nan):
    """res (kept..., k) to NumPy's layout: q's dims first, then kept (or keep)."""
    _, _, man, red, _, _ = _ops()
    shape = tuple(qshape) + (keep if keepdims else kept_shape)
    res = man.moveaxis(res, -1, 0).reshape(shape) if qshape else res.reshape(shape)
    if out is not None:
        if not skip_nan:  # (NumPy's nan forms assign, with the assignment's words)
            red._check_output(out)
        out[...] = res
        return out
    return res


def _valid_counts(s, stacklevel=4):
    """The non-NaN elements of each slice of s (along its last axis), on the
    host, with NumPy's warning for an all-NaN slice."""
    _, _, _, red, _, uf = _ops()
    counts = red.count_nonzero(uf.logical_not(uf.isnan(s)), axis=-1).cpu().numpy()[..., None]
    if (counts == 0).any():
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=stacklevel)
    return counts


_FEW_PLACES = 64  # partition at most this many places; past them, sort
_PARTITION_FROM = 1 << 12  # shorter slices sort (the sort's C path costs less than partition's call)


def _ordered(flat, places):
    """flat along its last axis with the elements at `places`, and the last
    one, in their sorted places (Note [Quantiles by sorting]); sorted whole
    when places is None."""
    srt = _ops()[4]
    n = flat.shape[-1]
    if n < _PARTITION_FROM or places is None:
        return srt.sort(flat, axis=-1)
    kth = sorted({min(max(int(p), 0), n - 1) for p in places} | {n - 1})
    return srt.sort(flat, axis=-1) if len(kth) > _FEW_PLACES else srt.partition(flat, kth, axis=-1)


def _quantile(a, q, scale, name, axis, out, method, keepdims, skip_nan, weights=None):
    from ._reductions import _weights_along
    from ._views import broadcast_to
    cr, ix, man, red, srt, uf = _ops()
    a = _tensor(a)
    if a.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    q, weak = _q(q, scale, name)
    if weights is not None:  # NumPy's checks, in its order
        if method != "inverted_cdf":
            raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
        axes = None if axis is None else normalize_axis_tuple(axis, a.ndim, argname="axis")
        weights = broadcast_to(_weights_along(a, axes, weights), a.shape)
        if bool(red.any(weights < 0)):
            raise ValueError("Weights must be non-negative.")
    if skip_nan and a.size == 0:
        return red.nanmean(a, axis, out=out, keepdims=keepdims)  # NumPy's answer, q's dims and all
    if method not in _METHODS:
        raise ValueError(f"{method!r} is not a valid method. Use one of: {_METHODS.keys()}")
    qshape = q.shape
    qf = q.reshape(-1)
    flat, kept_shape, keep = _last(a, axis)
    n = flat.shape[-1]
    if n == 0 and not skip_nan:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    inexact = a.dtype.kind == "f"
    if weights is not None:
        order = srt.argsort(flat, axis=-1)
        s = ix.take_along_axis(flat, order, axis=-1)
        ws = ix.take_along_axis(_last(weights, axis)[0], order, axis=-1)
        res = ix.take_along_axis(s, _weighted(s, ws, qf, skip_nan), axis=-1)
    elif skip_nan and inexact and bool(red.any(uf.isnan(flat))):
        s = srt.sort(flat, axis=-1)  # each slice's count of non-NaN elements picks its places
        res = _by_method(s, qf, weak, method, True)
    else:
        get_index = _METHODS[method][0]
        count = np.full(1, n, dtype=np.int64)
        virtual = np.floor(np.asarray(get_index(count.astype(qf.dtype) if qf.dtype.kind == "f" else count, qf),
                                      dtype=np.float64)).ravel()
        s = _ordered(flat, np.concatenate([virtual, virtual + 1]) if np.isfinite(virtual).all() else None)
        res = _by_method(s, qf, weak, method, False)
    if inexact and not skip_nan and n:
        res = uf.where(uf.isnan(s[..., -1:]), s[..., -1:], res)
    return _finish(res, qshape, kept_shape, keep, keepdims, out, skip_nan)


def _by_method(s, qf, weak, method, skip_nan):
    """The quantiles qf of the sorted slices s (along the last axis) by
    method (Note [Quantiles by sorting]); skip_nan: of their non-NaN
    elements."""
    from ._dtype_api import result_type
    cr, ix, _, _, _, uf = _ops()
    n = s.shape[-1]
    if skip_nan:
        counts = _valid_counts(s, stacklevel=5)  # at the call of nanquantile
    else:
        counts = np.full(s.shape[:-1] + (1,), n, dtype=np.int64)
    get_index, fix_gamma = _METHODS[method]
    # NumPy's count is a Python int, weak beside a float q (Note [The dtype of q])
    virtual = np.asarray(get_index(counts.astype(qf.dtype) if qf.dtype.kind == "f" else counts, qf))
    last = np.maximum(counts - 1, 0)
    if fix_gamma is None or (method == "linear" and virtual.dtype.kind in "iu"):
        idx = np.minimum(np.maximum(virtual, 0), last)
        res = ix.take_along_axis(s, cr.asarray(idx, device=s.device), axis=-1)
    else:
        below = np.floor(virtual)
        prev = np.where(virtual < 0, 0, np.where(virtual >= last, last, below)).astype(np.int64)
        nxt = np.where(virtual < 0, 0, np.where(virtual >= last, last, below + 1)).astype(np.int64)
        gamma = np.asarray(fix_gamma(virtual - below, virtual), dtype=virtual.dtype)
        lo = ix.take_along_axis(s, cr.asarray(prev, device=s.device), axis=-1)
        hi = ix.take_along_axis(s, cr.asarray(nxt, device=s.device), axis=-1)
        diff = uf.subtract(hi, lo)  # in the data's dtype, as NumPy (bool raises its TypeError)
        work = result_type(s.dtype, 0.0 if weak else gamma.dtype)
        lo, hi, diff = lo.astype(work), hi.astype(work), diff.astype(work)
        g = cr.asarray(gamma, device=s.device).astype(work)
        one_minus = cr.asarray(1 - gamma, device=s.device).astype(work)
        big = cr.asarray(gamma >= 0.5, device=s.device)
        res = uf.where(big, uf.subtract(hi, uf.multiply(diff, one_minus)), uf.add(lo, uf.multiply(diff, g)))
    return res


def _weighted(s, ws, qf, skip_nan):
    """The weighted inverted_cdf quantiles qf of the sorted slices s (along
    the last axis), ws their weights in the same order, as indices into s
    (Note [Weighted quantiles])."""
    cr, _, man, red, _, uf = _ops()
    n = s.shape[-1]
    ws = ws.astype("float64")
    if s.dtype.kind == "f" and skip_nan:
        all_nan = uf.isnan(s[..., :1])
        if bool(red.any(all_nan)):
            warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=4)
        ws = uf.where(uf.isnan(s), 0.0, ws)  # NaN sorts last: its weight leaves the sums
        ws = uf.where(all_nan, 1.0, ws)      # an all-NaN slice gives NaN, not an error
    cdf = red.cumsum(ws, axis=-1)
    cdf = uf.divide(cdf, cdf[..., -1:])
    if bool(red.any(uf.isnan(cdf[..., -1]))):
        raise ValueError("Weights included NaN, inf or were all zero.")
    if qf.dtype.kind == "f":
        cdf = cdf.astype(qf.dtype.name)
    cdf = uf.where(cdf == 0, -1.0, cdf).astype(cdf.dtype)  # leading zero weights are never picked
    qt = cr.asarray(qf.astype(cdf.dtype.name), device=s.device)
    # the first i with q <= cdf[i]: how many cdf[j] < q, at most n - 1; one
    # q at a time, so that the comparisons take the data's size, not k times it
    if qt.shape[0] == 0:
        return cr.zeros(s.shape[:-1] + (0,), dtype="int64", device=s.device)
    below = man.concatenate([red.sum(cdf < qt[j], axis=-1, keepdims=True) for j in range(qt.shape[0])], axis=-1)
    return uf.minimum(below, n - 1).astype("int64")


def _q(q, scale, name):
    """q as NumPy holds it (its own dtype; percentiles divided by 100), and
    whether it is weak (Note [The dtype of q])."""
    weak = type(q) in (int, float)  # NumPy's own test
    q = q.cpu().numpy() if isinstance(q, TensorBase) else q
    arr = np.asarray(q) if scale == 1 else np.true_divide(q, scale)
    if arr.ndim > 2:
        raise ValueError("q must be a scalar or 1d")
    if not ((arr >= 0) & (arr <= 1)).all():
        raise ValueError(f"{name} must be in the range [0, {scale}]")
    return arr, weak


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
             weights=None, dim=None, keepdim=None, interpolation=None):
    """NumPy's quantile: the q-th quantiles (0 <= q <= 1) over axis, by
    NumPy's methods (linear by default)."""
    if dim is not None or keepdim is not None or interpolation is not None:  # PyTorch's keywords
        axis, keepdims = _tk.axis("quantile", axis, dim), _tk.keep("quantile", keepdims, keepdim)
        method = interpolation or method
    views = small_cpu_views(a, q, weights) if out is None else None
    if views is not None:  # Note [Small CPU work through NumPy's functions]
        return numpy_call(np.quantile, views[:2], axis=axis, method=method, keepdims=keepdims,
                          weights=views[2])
    return _quantile(a, q, 1, "Quantiles", axis, out, method, keepdims, False, weights)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
               weights=None):
    """NumPy's percentile: quantile of q / 100."""
    views = small_cpu_views(a, q, weights) if out is None else None
    if views is not None:  # Note [Small CPU work through NumPy's functions]
        return numpy_call(np.percentile, views[:2], axis=axis, method=method, keepdims=keepdims,
                          weights=views[2])
    return _quantile(a, q, 100, "Percentiles", axis, out, method, keepdims, False, weights)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                weights=None, dim=None, keepdim=None, interpolation=None):
    """NumPy's nanquantile: quantile of the non-NaN elements (NaN for an
    empty a, as NumPy's nanmean)."""
    if dim is not None or keepdim is not None or interpolation is not None:  # PyTorch's keywords
        axis, keepdims = _tk.axis("nanquantile", axis, dim), _tk.keep("nanquantile", keepdims, keepdim)
        method = interpolation or method
    views = small_cpu_views(a, q, weights) if out is None else None
    if views is not None:  # Note [Small CPU work through NumPy's functions]
        return numpy_call(np.nanquantile, views[:2], axis=axis, method=method, keepdims=keepdims,
                          weights=views[2])
    return _quantile(a, q, 1, "Quantiles", axis, out, method, keepdims, True, weights)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                  weights=None):
    """NumPy's nanpercentile: percentile of the non-NaN elements."""
    views = small_cpu_views(a, q, weights) if out is None else None
    if views is not None:  # Note [Small CPU work through NumPy's functions]
        return numpy_call(np.nanpercentile, views[:2], axis=axis, method=method, keepdims=keepdims,
                          weights=views[2])
    return _quantile(a, q, 100, "Percentiles", axis, out, method, keepdims, True, weights)


def _mean_of_two(pair):
    """NumPy's mean of the pairs along the last axis: (a + b) / 2 in the
    mean's dtype (float32 for float16, float64 for integers), rounded once
    per step as NumPy's two-element sum is (the reductions' mean
    accumulates wider, or compensated on a GPU)."""
    _, _, _, _, _, uf = _ops()
    kind = pair.dtype.kind
    work = pair.astype(_C.float64) if kind in "biu" else \
        pair.astype(_C.float32) if pair.dtype in (_C.float16, _C.bfloat16) else pair
    res = uf.divide(uf.add(work[..., 0:1], work[..., 1:2]), 2)
    return res if kind in "biu" else res.astype(pair.dtype, copy=False)


def _median(a, axis, out, keepdims, skip_nan):
    cr, ix, man, red, srt, uf = _ops()
    a = _tensor(a)
    flat, kept_shape, keep = _last(a, axis)
    n = flat.shape[-1]
    if n == 0:
        warnings.warn("Mean of empty slice.", RuntimeWarning, stacklevel=3)
        dtype = _C.float64 if a.dtype.kind in "biu" else a.dtype
        res = cr.full(kept_shape + (1,), np.nan, dtype=dtype, device=a.device)
        return _finish(res, (), kept_shape, keep, keepdims, out, skip_nan)
    half = n // 2
    nan_slices = skip_nan and a.dtype.kind in "fc" and bool(red.any(uf.isnan(flat)))  # else median's places
    if nan_slices:  # each slice's count of non-NaN elements picks its middle; NaN sorts last, as NumPy's
        s = srt.sort(flat, axis=-1)
        counts = _valid_counts(s)
        middle = np.stack([np.maximum(counts - 1, 0) // 2, counts // 2], axis=-1)[..., 0, :]
        pair = ix.take_along_axis(s, cr.asarray(middle, device=a.device), axis=-1)
        res = _mean_of_two(pair)
        return _finish(res, (), kept_shape, keep, keepdims, out, skip_nan)
    s = _ordered(flat, [half - 1, half] if n % 2 == 0 else [half])
    if n % 2:
        res = s[..., half:half + 1]
        if a.dtype.kind in "biu":
            res = res.astype(_C.float64)
    else:
        res = _mean_of_two(s[..., half - 1:half + 1])
    if a.dtype.kind in "fc":
        res = uf.where(uf.isnan(s[..., -1:]), s[..., -1:], res)
    return _finish(res, (), kept_shape, keep, keepdims, out, skip_nan)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False, *, dim=None, keepdim=None):
    """NumPy's median: the middle element of the sorted axis, or the mean of
    the middle two; NaN where a slice holds NaN.  With PyTorch's dim=, its
    median: (values, indices), the lower of the middle two (Note [PyTorch's
    keywords])."""
    if dim is not None:
        from ._torch_math import lower_median
        return lower_median("median", a, _tk.axis("median", axis, dim), bool(keepdim), out, False)
    return _median(a, axis, out, _tk.keep("median", keepdims, keepdim), False)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False, *, dim=None, keepdim=None):
    """NumPy's nanmedian: the median of the non-NaN elements (PyTorch's
    (values, indices) with dim=, as median's)."""
    if dim is not None:
        from ._torch_math import lower_median
        return lower_median("nanmedian", a, _tk.axis("nanmedian", axis, dim), bool(keepdim), out, True)
    return _median(a, axis, out, _tk.keep("nanmedian", keepdims, keepdim), True)
