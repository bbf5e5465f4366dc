"""Reductions with NumPy's arguments and results: sum, prod, min/amin,
max/amax, argmin, argmax, any, all, mean, var, std, ptp, count_nonzero, on
every device.

The work is the core's dt_reduce (csrc/core/reduce.c, through
_C._reduce), one backend kernel per call; this module turns axis,
keepdims, dtype, out, initial and where into its form:

* axes are normalised with NumPy's errors (AxisError, "duplicate value in
  'axis'"); the core gets the reduced axes and an output of the kept shape,
  keepdims is a reshape of it;
* sum and prod run in NumPy's result dtype (int64 for small ints, uint64
  for small unsigned); dtype= that the kernels cannot reach directly casts
  the input first, as NumPy's loop would cast each element;
* where= replaces masked elements with the identity (or `initial`, which
  min and max then need, as in NumPy); initial= is folded in after;
* out= receives the result with NumPy's unsafe cast of reductions, after
  NumPy's shape check.

Note [Reductions return 0-d tensors]
    Reducing every axis gives a 0-d tensor on the input's device, not a
    NumPy scalar (CuPy's and PyTorch's choice): a GPU result stays on the
    GPU until float(), int() or .item() asks for it.
"""
import builtins
import operator

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from . import _C
from ._C import TensorBase

_OPS = {name: i for i, name in enumerate(_C.REDUCE_OPS)}
_SUM, _PROD, _MIN, _MAX, _ARGMIN, _ARGMAX, _ANY, _ALL = (_OPS[n] for n in (
    "sum", "prod", "min", "max", "argmin", "argmax", "any", "all"))
# Note [Plain reductions in C]: with no keepdims, dtype, out, initial or
# where, a tensor's reduction is made by _C._reduce_fast, which reads the
# axis itself (None when Python must: a bad axis, to raise NumPy's error).
_fast = _C._reduce_fast
_UFUNC_NAMES = {"sum": "add", "prod": "multiply", "min": "minimum", "max": "maximum",
                "any": "logical_or", "all": "logical_and"}

__all__ = ["sum", "prod", "min", "max", "amin", "amax", "argmin", "argmax", "any", "all", "mean",
           "var", "std", "ptp", "count_nonzero"]


def _tensor(x):
    if isinstance(x, TensorBase):
        return x
    from ._creation import asarray
    return asarray(x)


def _axes(axis, ndim):
    """The reduced axes, sorted, as NumPy normalises them."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, tuple):
        axes = [normalize_axis_index(operator.index(a), ndim) for a in axis]
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
        return tuple(sorted(axes))
    return (normalize_axis_index(operator.index(axis), ndim),)


def _kept_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if d in axes else n for d, n in enumerate(shape))
    return tuple(n for d, n in enumerate(shape) if d not in axes)


def _is_integer(d):
    return d.kind in "iu"


def _result_dtype(name, d):
    """NumPy's result dtype of a reduction of dtype d (reduce.h's rule)."""
    if name in ("sum", "prod"):
        if d.kind == "b" or (d.kind == "i" and d.itemsize < 8):
            return _C.int64
        if d.kind == "u" and d.itemsize < 8:
            return _C.uint64
        return d
    if name in ("argmin", "argmax"):
        return _C.int64
    if name in ("any", "all"):
        return _C.bool
    return d


def _kernel_takes(name, d, out):
    """reduce.h's dt_reduce_takes."""
    if out == _result_dtype(name, d):
        return True
    if name not in ("sum", "prod"):
        return False
    return out == d or ((d.kind == "b" or _is_integer(d)) and _is_integer(out))


def _empty(shape, dtype, device):
    from ._creation import empty
    return empty(shape, dtype=dtype, device=device)


def _deliver(res, out, name):
    """res into out (NumPy's shape check, unsafe cast), or res itself."""
    if out is None:
        return res
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry")
        out = out[0]
    if not isinstance(out, TensorBase):
        raise TypeError(f"output must be a devtensor tensor, not {type(out).__name__}")
    if out.shape != res.shape:
        if out.ndim != res.ndim:
            raise ValueError(f"output parameter for reduction operation {_UFUNC_NAMES.get(name, name)} "
                             f"has the wrong number of dimensions: Found {out.ndim} but expected {res.ndim}")
        raise ValueError(f"output parameter for reduction operation {_UFUNC_NAMES.get(name, name)} has a "
                         f"non-reduction dimension not equal to the output: {out.shape} vs {res.shape}")
    if out.device != res.device:
        raise RuntimeError(f"Expected all tensors to be on the same device, but found at least two "
                           f"devices, {res.device} and {out.device}!")
    out._copy_from(res)
    return out


def _masked(x, where, fill):
    """x with the elements where `where` is False replaced by fill."""
    from ._ufuncs import where as _where
    if not isinstance(where, TensorBase):
        where = _tensor(np.asarray(where, dtype=bool)).to(x.device)
    elif where.dtype != _C.bool:
        where = where.astype(_C.bool)
    res = _where(where, x, fill)
    if res.dtype != x.dtype:
        res = res.astype(x.dtype)
    return res


def _run(name, x, axis, keepdims=False, dtype=None, out=None, initial=None, where=True):
    x = _tensor(x)
    axes = _axes(axis, x.ndim)
    rd = _result_dtype(name, x.dtype) if dtype is None else _C.dtype(dtype)
    src = x
    if not _kernel_takes(name, x.dtype, rd):
        src = x.astype(rd)
    if where is not True:
        if initial is None and name in ("min", "max"):
            raise ValueError(f"reduction operation '{_UFUNC_NAMES[name]}' does not have an identity, "
                             f"so to use a where mask one has to specify 'initial'")
        fill = initial if name in ("min", "max") else {"sum": 0, "prod": 1, "any": False, "all": True}[name]
        src = _masked(src, where, fill)
    n_red = 1
    for d in axes:
        n_red *= x.shape[d]
    shape = _kept_shape(x.shape, axes, False)
    if initial is not None and name in ("min", "max") and n_red == 0:
        from ._creation import full
        res = full(shape, initial, dtype=rd, device=x.device)
    else:
        res = _empty(shape, rd, x.device)
        _C._reduce(_OPS[name], src, axes, res)
    if initial is not None:
        from . import _ufuncs
        fold = {"sum": _ufuncs.add, "prod": _ufuncs.multiply, "min": _ufuncs.minimum,
                "max": _ufuncs.maximum}[name]
        res = fold(res, initial).astype(rd, copy=False)
    if keepdims:
        res = res.reshape(_kept_shape(x.shape, axes, True))
    return _deliver(res, out, name)


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """NumPy's sum: int64 for bool and small ints (uint64 for small unsigned);
    floats accumulate wide (Note [Accumulating wide] in csrc/core/reduce_ops.h)."""
    if dtype is None and out is None and keepdims is False and initial is None and where is True:
        r = _fast(_SUM, a, axis)
        if r is not None:
            return r
    return _run("sum", a, axis, keepdims, dtype, out, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    if dtype is None and out is None and keepdims is False and initial is None and where is True:
        r = _fast(_PROD, a, axis)
        if r is not None:
            return r
    return _run("prod", a, axis, keepdims, dtype, out, initial, where)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """NumPy's max: NaN propagates; an empty reduction needs `initial`."""
    if out is None and keepdims is False and initial is None and where is True:
        r = _fast(_MAX, a, axis)
        if r is not None:
            return r
    return _run("max", a, axis, keepdims, None, out, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    if out is None and keepdims is False and initial is None and where is True:
        r = _fast(_MIN, a, axis)
        if r is not None:
            return r
    return _run("min", a, axis, keepdims, None, out, initial, where)


amax, amin = max, min


def any(a, axis=None, out=None, keepdims=False, *, where=True):
    if out is None and keepdims is False and where is True:
        r = _fast(_ANY, a, axis)
        if r is not None:
            return r
    return _run("any", a, axis, keepdims, None, out, None, where)


def all(a, axis=None, out=None, keepdims=False, *, where=True):
    if out is None and keepdims is False and where is True:
        r = _fast(_ALL, a, axis)
        if r is not None:
            return r
    return _run("all", a, axis, keepdims, None, out, None, where)


def _arg(name, a, axis, out, keepdims):
    x = _tensor(a)
    if axis is None:
        axes = tuple(range(x.ndim))
    else:
        axes = (normalize_axis_index(operator.index(axis), x.ndim),)
    res = _empty(_kept_shape(x.shape, axes, False), _C.int64, x.device)
    _C._reduce(_OPS[name], x, axes, res)
    if keepdims:
        res = res.reshape(_kept_shape(x.shape, axes, True))
    return _deliver(res, out, name)


def argmax(a, axis=None, out=None, *, keepdims=False):
    """NumPy's argmax: the first maximum (or first NaN), in C order when axis is None."""
    if out is None and keepdims is False:
        r = _fast(_ARGMAX, a, axis)
        if r is not None:
            return r
    return _arg("argmax", a, axis, out, keepdims)


def argmin(a, axis=None, out=None, *, keepdims=False):
    if out is None and keepdims is False:
        r = _fast(_ARGMIN, a, axis)
        if r is not None:
            return r
    return _arg("argmin", a, axis, out, keepdims)


def ptp(a, axis=None, out=None, keepdims=False):
    from ._ufuncs import subtract
    x = _tensor(a)
    return _deliver(subtract(max(x, axis, keepdims=keepdims), min(x, axis, keepdims=keepdims)), out, "ptp")


def count_nonzero(a, axis=None, *, keepdims=False):
    from ._ufuncs import not_equal
    x = _tensor(a)
    return sum(x if x.dtype == _C.bool else not_equal(x, 0), axis, keepdims=keepdims)


def _count(x, axes, where):
    """The number of elements reduced per output (a tensor when where= masks)."""
    if where is True:
        n = 1
        for d in axes:
            n *= x.shape[d]
        return n
    from ._views import broadcast_to
    w = _tensor(where).to(x.device)
    return sum(broadcast_to(w, x.shape), tuple(axes), keepdims=True)


_REAL_OF = {_C.complex64: _C.float32, _C.complex128: _C.float64}


def _real_dtype(d):
    """The real dtype of the same precision (var and std of complex are real)."""
    return _REAL_OF.get(d, d)


def _mean_dtype(d, dtype):
    if dtype is not None:
        return _C.dtype(dtype)
    return _C.float64 if d.kind in "biu" else d


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """NumPy's mean: float64 for integers; float16 summed in float32."""
    if (dtype is None and out is None and keepdims is False and where is True and isinstance(a, TensorBase)
            and a.dtype.kind in "fc" and a.dtype.itemsize > 2):  # Note [Plain reductions in C]
        total = _fast(_SUM, a, axis)
        if total is not None:
            return total / (a.size // total.size if total.size else 0)
    from ._ufuncs import true_divide
    x = _tensor(a)
    axes = _axes(axis, x.ndim)
    rd = _mean_dtype(x.dtype, dtype)
    work = _C.float32 if rd == _C.float16 else rd
    total = sum(x, axes, dtype=work, keepdims=True, where=where)
    res = true_divide(total, _count(x, axes, where)).astype(rd, copy=False)
    if not keepdims:
        res = res.reshape(_kept_shape(x.shape, axes, False))
    return _deliver(res, out, "mean")


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    """NumPy's var (ddof, or the array API's correction): the mean of
    |x - mean|**2 over n - ddof; NaN (NumPy warns) when n - ddof <= 0."""
    from . import _ufuncs
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    x = _tensor(a)
    axes = _axes(axis, x.ndim)
    rd = _mean_dtype(x.dtype, dtype)
    work = _C.float32 if rd == _C.float16 else rd
    m = globals()["mean"](x, axes, dtype=work, keepdims=True, where=where) if mean is None else _tensor(mean)
    dev = _ufuncs.subtract(x.astype(work, copy=False), m)
    sq = _ufuncs.multiply(dev, _ufuncs.conjugate(dev)).real if dev.dtype.kind == "c" else \
        _ufuncs.multiply(dev, dev)
    n = _count(x, axes, where)
    denom = _ufuncs.maximum(_ufuncs.subtract(n, ddof), 0) if isinstance(n, TensorBase) else builtins.max(n - ddof, 0)
    res = _ufuncs.true_divide(sum(sq, axes, keepdims=True, where=where), denom)
    res = res.astype(_real_dtype(rd), copy=False)
    if not keepdims:
        res = res.reshape(_kept_shape(x.shape, axes, False))
    return _deliver(res, out, "var")


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    from ._ufuncs import sqrt
    v = var(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean, correction=correction)
    return _deliver(sqrt(v), out, "std")


class _ReductionMethods:
    """Tensor methods (installed by devtensor._tensor)."""

    def sum(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
        if dtype is None and out is None and keepdims is False and initial is None and where is True:
            r = _fast(_SUM, self, axis)
            if r is not None:
                return r
        return sum(self, axis, dtype, out, keepdims, initial, where)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
        if dtype is None and out is None and keepdims is False and initial is None and where is True:
            r = _fast(_PROD, self, axis)
            if r is not None:
                return r
        return prod(self, axis, dtype, out, keepdims, initial, where)

    def max(self, axis=None, out=None, keepdims=False, initial=None, where=True):
        if out is None and keepdims is False and initial is None and where is True:
            r = _fast(_MAX, self, axis)
            if r is not None:
                return r
        return max(self, axis, out, keepdims, initial, where)

    def min(self, axis=None, out=None, keepdims=False, initial=None, where=True):
        if out is None and keepdims is False and initial is None and where is True:
            r = _fast(_MIN, self, axis)
            if r is not None:
                return r
        return min(self, axis, out, keepdims, initial, where)

    def argmax(self, axis=None, out=None, *, keepdims=False):
        if out is None and keepdims is False:
            r = _fast(_ARGMAX, self, axis)
            if r is not None:
                return r
        return argmax(self, axis, out, keepdims=keepdims)

    def argmin(self, axis=None, out=None, *, keepdims=False):
        if out is None and keepdims is False:
            r = _fast(_ARGMIN, self, axis)
            if r is not None:
                return r
        return argmin(self, axis, out, keepdims=keepdims)

    def any(self, axis=None, out=None, keepdims=False, *, where=True):
        if out is None and keepdims is False and where is True:
            r = _fast(_ANY, self, axis)
            if r is not None:
                return r
        return any(self, axis, out, keepdims, where=where)

    def all(self, axis=None, out=None, keepdims=False, *, where=True):
        if out is None and keepdims is False and where is True:
            r = _fast(_ALL, self, axis)
            if r is not None:
                return r
        return all(self, axis, out, keepdims, where=where)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
        return mean(self, axis, dtype, out, keepdims, where=where)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
            correction=None):
        return var(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
            correction=None):
        return std(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction)


# ---- NaN-ignoring forms and average (NumPy's nanfunctions and average),
# built on the reductions above and the elementwise ops, so they run on
# every device ----

def _nan_replaced(x, value):
    """(x with NaN replaced by value, the NaN mask) for inexact x; (x, None) otherwise."""
    from . import _ufuncs
    if x.dtype.kind not in "fc":
        return x, None
    mask = _ufuncs.isnan(x)
    return _ufuncs.where(mask, value, x).astype(x.dtype, copy=False), mask


def _warn(message):
    import warnings
    warnings.warn(message, RuntimeWarning, stacklevel=3)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    x, _ = _nan_replaced(_tensor(a), 0)
    return sum(x, axis, dtype, out, keepdims, initial, where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    x, _ = _nan_replaced(_tensor(a), 1)
    return prod(x, axis, dtype, out, keepdims, initial, where)


def _nan_extreme(name, a, axis, out, keepdims, initial, where):
    from . import _ufuncs
    x = _tensor(a)
    fill = float("-inf") if name == "max" else float("inf")
    y, mask = _nan_replaced(x, fill)
    res = _run(name, y, axis, keepdims, None, None, initial, where)
    if mask is not None and res.size:
        all_nan = all(mask, axis, keepdims=keepdims, where=where)
        if bool(any(all_nan)):
            _warn("All-NaN slice encountered")
            res = _ufuncs.where(all_nan, float("nan"), res).astype(res.dtype, copy=False)
    return _deliver(res, out, name)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """NumPy's nanmax: NaN ignored; an all-NaN slice gives NaN (with a RuntimeWarning)."""
    return _nan_extreme("max", a, axis, out, keepdims, initial, where)


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    return _nan_extreme("min", a, axis, out, keepdims, initial, where)


def _nan_arg(name, a, axis, out, keepdims):
    x = _tensor(a)
    y, mask = _nan_replaced(x, float("-inf") if name == "argmax" else float("inf"))
    if mask is not None and x.size and bool(any(all(mask, axis))):
        raise ValueError("All-NaN slice encountered")
    return _arg(name, y, axis, out, keepdims)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """NumPy's nanargmax: NaN ignored; ValueError for an all-NaN slice."""
    return _nan_arg("argmax", a, axis, out, keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    return _nan_arg("argmin", a, axis, out, keepdims)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """NumPy's nanmean: the mean of the non-NaN elements; NaN (with a
    RuntimeWarning) where there are none."""
    from . import _ufuncs
    x = _tensor(a)
    if x.dtype.kind not in "fc":
        return mean(x, axis, dtype, out, keepdims, where=where)
    valid = _ufuncs.logical_not(_ufuncs.isnan(x))
    if where is not True:
        valid = _ufuncs.logical_and(valid, _tensor(where).to(x.device))
    return _nan_mean_of(x, valid, axis, dtype, out, keepdims)


def _nan_mean_of(x, valid, axis, dtype, out, keepdims):
    from . import _ufuncs
    count = sum(valid, axis, keepdims=keepdims)
    total = sum(x, axis, dtype=dtype, keepdims=keepdims, where=valid)
    if count.size and not bool(all(count)):
        _warn("Mean of empty slice")
    with np.errstate(invalid="ignore", divide="ignore"):
        res = _ufuncs.true_divide(total, count).astype(total.dtype, copy=False)
    return _deliver(res, out, "nanmean")


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
           correction=None):
    """NumPy's nanvar (ddof or correction) over the non-NaN elements."""
    from . import _ufuncs
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    x = _tensor(a)
    if x.dtype.kind not in "fc":
        return var(x, axis, dtype, out, ddof, keepdims, where=where, mean=mean)
    valid = _ufuncs.logical_not(_ufuncs.isnan(x))
    if where is not True:
        valid = _ufuncs.logical_and(valid, _tensor(where).to(x.device))
    count = sum(valid, axis, keepdims=True)
    m = sum(x, axis, dtype=dtype, keepdims=True, where=valid) / _ufuncs.maximum(count, 1) if mean is None \
        else _tensor(mean)
    dev = _ufuncs.where(valid, _ufuncs.subtract(x, m), 0)
    sq = _ufuncs.multiply(dev, _ufuncs.conjugate(dev)).real if dev.dtype.kind == "c" else _ufuncs.multiply(dev, dev)
    denom = _ufuncs.subtract(count, ddof)
    if bool(any(_ufuncs.less_equal(denom, 0))):
        _warn("Degrees of freedom <= 0 for slice.")
    with np.errstate(invalid="ignore", divide="ignore"):
        res = _ufuncs.true_divide(sum(sq, axis, keepdims=True), _ufuncs.maximum(denom, 0))
    res = _ufuncs.where(_ufuncs.less_equal(denom, 0), float("nan"), res)
    res = res.astype(_real_dtype(x.dtype if dtype is None else _C.dtype(dtype)), copy=False)
    if not keepdims:
        res = res.reshape(_kept_shape(x.shape, _axes(axis, x.ndim), False))
    return _deliver(res, out, "nanvar")


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
           correction=None):
    from ._ufuncs import sqrt
    v = nanvar(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean, correction=correction)
    return _deliver(sqrt(v), out, "nanstd")


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """NumPy's average: the mean, or with weights sum(a * w) / sum(w) (weights
    1-d along one axis, or of a's shape); `returned` adds the sum of weights."""
    from . import _ufuncs
    x = _tensor(a)
    if weights is None:
        avg = mean(x, axis, keepdims=keepdims)
        if returned:
            n = x.size // avg.size if avg.size else 0
            from ._creation import full
            scl = full(avg.shape, n, dtype=avg.dtype, device=avg.device)
            return avg, scl
        return avg
    w = _tensor(weights).to(x.device)
    if w.shape != x.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        if w.ndim != 1:
            raise TypeError("1D weights expected when shapes of a and weights differ.")
        ax = _axes(axis, x.ndim)
        if len(ax) != 1:
            raise TypeError("1D weights expected when shapes of a and weights differ.")
        if w.shape[0] != x.shape[ax[0]]:
            raise ValueError("Length of weights not compatible with specified axis.")
        shape = [1] * x.ndim
        shape[ax[0]] = w.shape[0]
        w = w.reshape(tuple(shape))
    from ._dtype_api import result_type
    rt = result_type(x.dtype, w.dtype, _C.float64 if x.dtype.kind in "biu" else x.dtype)
    from ._views import broadcast_to
    wb = broadcast_to(w, x.shape).astype(rt)
    scl = sum(wb, axis, keepdims=keepdims)
    if bool(any(_ufuncs.equal(scl, 0))):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    avg = _ufuncs.true_divide(sum(_ufuncs.multiply(x.astype(rt, copy=False), wb), axis, keepdims=keepdims), scl)
    return (avg, scl) if returned else avg


__all__ += ["nansum", "nanprod", "nanmax", "nanmin", "nanargmax", "nanargmin", "nanmean", "nanvar", "nanstd",
            "average"]


# ---- scans: the core's dt_scan (csrc/core/reduce.c), one kernel per call ----

def _scan(op, name, a, axis, dtype, out):
    x = _tensor(a)
    if axis is None:
        x = x.reshape(-1)  # NumPy's flattened, C-order scan
        ax = 0
    else:
        ax = normalize_axis_index(operator.index(axis), x.ndim)
    rd = _result_dtype(name, x.dtype) if dtype is None else _C.dtype(dtype)
    src = x if _kernel_takes(name, x.dtype, rd) else x.astype(rd)
    res = _empty(x.shape, rd, x.device)
    _C._scan(op, src, ax, res)
    if out is not None:
        if not isinstance(out, TensorBase):
            raise TypeError(f"output must be a devtensor tensor, not {type(out).__name__}")
        if out.shape != res.shape:
            raise ValueError(f"provided out is the wrong size for the {name} (got {out.shape}, need {res.shape})")
        out._copy_from(res)
        return out
    return res


def cumsum(a, axis=None, dtype=None, out=None):
    """NumPy's cumsum: the running sum along axis (of the flattened tensor
    when axis is None), in sum's result dtype."""
    return _scan(_SUM, "sum", a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    return _scan(_PROD, "prod", a, axis, dtype, out)


def _cumulative(op, name, x, axis, dtype, out, include_initial):
    x = _tensor(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"axis must be specified in cumulative_{name} for more than one dimension")
        axis = 0
    if x.ndim == 0:
        raise ValueError(f"cumulative_{name} requires an input of at least one dimension")
    res = _scan(op, name, x, axis, dtype, None)
    if include_initial:
        from ._manipulation import concatenate
        ax = normalize_axis_index(axis, x.ndim)
        shape = tuple(1 if d == ax else n for d, n in enumerate(res.shape))
        from ._creation import full
        first = full(shape, 1 if op == _PROD else 0, dtype=res.dtype, device=res.device)
        res = concatenate([first, res], axis=ax)
    return _deliver_scan(res, out, f"cumulative_{name}")


def _deliver_scan(res, out, name):
    if out is None:
        return res
    if out.shape != res.shape:
        raise ValueError(f"provided out is the wrong size for the {name} (got {out.shape}, need {res.shape})")
    out._copy_from(res)
    return out


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """The array API's (and NumPy 2's) cumulative_sum; include_initial puts the 0 first."""
    return _cumulative(_SUM, "sum", x, axis, dtype, out, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _cumulative(_PROD, "prod", x, axis, dtype, out, include_initial)


def nancumsum(a, axis=None, dtype=None, out=None):
    x, _ = _nan_replaced(_tensor(a), 0)
    return cumsum(x, axis, dtype, out)


def nancumprod(a, axis=None, dtype=None, out=None):
    x, _ = _nan_replaced(_tensor(a), 1)
    return cumprod(x, axis, dtype, out)


def diff(a, n=1, axis=-1, prepend=np._NoValue, append=np._NoValue):
    """NumPy's diff: the n-th discrete difference along axis (not_equal for
    bool), with values put before or after first (prepend, append)."""
    from . import _ufuncs
    from ._manipulation import concatenate
    from ._views import broadcast_to
    if n == 0:
        return _tensor(a)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n!r}")
    x = _tensor(a)
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    ax = normalize_axis_index(operator.index(axis), x.ndim)
    parts = []
    for extra in (prepend, None, append):
        if extra is None:
            parts.append(x)
        elif extra is not np._NoValue:
            e = _tensor(extra).to(x.device)
            if e.ndim == 0:
                e = broadcast_to(e, tuple(1 if d == ax else s for d, s in enumerate(x.shape)))
            parts.append(e)
    if len(parts) > 1:
        x = concatenate(parts, axis=ax)
    op = _ufuncs.not_equal if x.dtype == _C.bool else _ufuncs.subtract
    lo = (slice(None),) * ax
    for _ in range(n):
        x = op(x[lo + (slice(1, None),)], x[lo + (slice(None, -1),)])
    return x


def _install_scan_methods():
    def cumsum_(self, axis=None, dtype=None, out=None):
        return cumsum(self, axis, dtype, out)

    def cumprod_(self, axis=None, dtype=None, out=None):
        return cumprod(self, axis, dtype, out)

    _ReductionMethods.cumsum = cumsum_
    _ReductionMethods.cumprod = cumprod_


_install_scan_methods()

__all__ += ["cumsum", "cumprod", "cumulative_sum", "cumulative_prod", "nancumsum", "nancumprod", "diff"]
