"""NumPy's numerical helpers that NumPy programs call between their ufuncs and
reductions: nan_to_num, cov, corrcoef, gradient, trapezoid, ediff1d,
convolve, correlate, ix_, fill_diagonal, apply_along_axis,
apply_over_axes, piecewise, sinc, isposinf, isneginf, fix, unwrap, and the
complex-or-real tests iscomplex, isreal, iscomplexobj, isrealobj,
real_if_close and common_type, and vectorize, with NumPy's arguments,
results and errors.

Each is built from devtensor's own operations (slicing, ufuncs, reductions,
matmul, lstsq), so it runs on the device of its operands; they were NumPy
fallbacks that ran only on CPU tensors (Note [NumPy names devtensor lacks]).
convolve and correlate of CPU tensors are NumPy's loops on views (Note
[NumPy's loops for CPU tensors] in _operands.py); vectorize runs its
Python function on the host, as it must.

Note [Correlation by shifted products]
correlate(a, v) and convolve(a, v) are the full correlation
c[k] = sum_j a[k - (m - 1) + j] * w[j] over the j where a has an element
(w = conj(v) for correlate, v reversed for convolve), one multiply-add of
w[j] * a into the slice of c it reaches per element of the shorter
operand, then NumPy's slice of it for 'valid' and 'same'.  That is NumPy's
direct sum (the same products, in another order), not an FFT, so results
agree to rounding, and a NaN or inf in w reaches only the outputs whose
products hold it (padding a with zeros made 0 * NaN of every output on
devices); the cost is min(n, m) device calls.
"""
import math
import warnings

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from ._C import TensorBase
from ._operands import as_tensor as _tensor, numpy_call, numpy_views, operands_device as _device_of


def _dt():
    import devtensor
    return devtensor


def _inexact(dtype):
    return dtype.kind in "fc"


# ---- nan_to_num ----

def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN -> nan, +inf -> posinf (the dtype's largest value by default),
    -inf -> neginf (its most negative); real and imaginary parts alike.
    Integer and bool tensors come back unchanged (a copy unless copy=False)."""
    dt = _dt()
    x = _tensor(x)
    if not _inexact(x.dtype):
        return x.copy() if copy else x
    out = x.copy() if copy else x
    info = dt.finfo(x.dtype)
    big = float(info.max) if posinf is None else posinf
    small = float(info.min) if neginf is None else neginf
    parts = [out.real, out.imag] if x.dtype.kind == "c" else [out]
    for p in parts:  # each test reads p itself: a replacement (nan=inf) is never replaced again
        fixed = dt.where(p == -math.inf, small, p)
        fixed = dt.where(p == math.inf, big, fixed)
        p[...] = dt.where(dt.isnan(p), nan, fixed)
    return out


# ---- small elementwise helpers NumPy builds from its ufuncs ----

def sinc(x):
    """NumPy's sinc: sin(pi x) / (pi x), 1 at 0 (where pi x is 0, the dtype's
    eps takes its place, as in NumPy: 1e-20 would be 0 in float16)."""
    dt = _dt()
    x = math.pi * _tensor(x)
    eps = dt.finfo(x.dtype).eps if x.dtype.kind == "f" else 1e-20
    y = dt.where(x == 0, eps, x)
    return dt.sin(y) / y


def _signed_infinity(x, negative, out):
    dt = _dt()
    x = _tensor(x)
    if x.dtype.kind == "c":
        raise TypeError("This operation is not supported for complex values because it would be ambiguous.")
    result = dt.isinf(x) & (dt.signbit(x) if negative else ~dt.signbit(x))
    if out is not None:
        out[...] = result
        return out
    return result


def isposinf(x, out=None):
    """NumPy's isposinf: x is +inf (complex refused, as NumPy's)."""
    return _signed_infinity(x, False, out)


def isneginf(x, out=None):
    """NumPy's isneginf: x is -inf."""
    return _signed_infinity(x, True, out)


def fix(x, out=None):
    """NumPy's fix: rounding toward zero (trunc, -0.0 kept)."""
    return _dt().trunc(_tensor(x), out=out)


def unwrap(p, discont=None, axis=-1, *, period=2 * math.pi):
    """NumPy's unwrap: jumps larger than max(discont, period/2) between
    neighbours along axis replaced by their period complement."""
    dt = _dt()
    p = _tensor(p)
    nd = p.ndim
    axis = normalize_axis_index(axis, nd)
    dd = dt.diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    head = tuple(slice(1, None) if d == axis else slice(None) for d in range(nd))
    integer = dd.dtype.kind in "iu" and isinstance(period, int)
    if integer:
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = dt.mod(dd - interval_low, period) + interval_low
    if boundary_ambiguous:
        ddmod = dt.where((ddmod == interval_low) & (dd > 0), interval_high, ddmod)
    ph_correct = ddmod - dd
    ph_correct = dt.where(dt.absolute(dd) < discont, 0, ph_correct)
    up = p.astype(dt.result_type(p, ph_correct), copy=True)
    up[head] = p[head] + dt.cumsum(ph_correct, axis=axis)
    return up


# ---- covariance and correlation ----

def _as_2d(m, dtype, device):
    dt = _dt()
    x = _tensor(m, device)
    if x.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if dtype is None:
        dtype = dt.result_type(x, dt.float64)
    x = x.astype(dtype)
    return x.reshape(1, -1) if x.ndim < 2 else x


def _weights(X, fweights, aweights):
    """NumPy's cov weights (their checks and messages): w or None."""
    dt = _dt()
    w = None
    n = X.shape[1]
    if fweights is not None:
        fw = _tensor(fweights, X.device)
        if not dt.all(fw == dt.around(fw)).item():
            raise TypeError("fweights must be integer")
        if fw.ndim > 1:
            raise RuntimeError("cannot handle multidimensional fweights")
        if fw.shape[0] != n:
            raise RuntimeError("incompatible numbers of samples and fweights")
        if dt.any(fw < 0).item():
            raise ValueError("fweights cannot be negative")
        w = fw.astype(dt.float64)
    if aweights is not None:
        aw = _tensor(aweights, X.device).astype(dt.float64)
        if aw.ndim > 1:
            raise RuntimeError("cannot handle multidimensional aweights")
        if aw.shape[0] != n:
            raise RuntimeError("incompatible numbers of samples and aweights")
        if dt.any(aw < 0).item():
            raise ValueError("aweights cannot be negative")
        w = aw if w is None else w * aw
    return w


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None,
        correction=None):
    """NumPy's cov: the covariance matrix of the variables in the rows of m
    (columns with rowvar=False), y's appended; bias, ddof, frequency and
    reliability weights as NumPy's, with its warnings and errors.
    PyTorch's correction= is ddof."""
    dt = _dt()
    if correction is not None:
        if ddof is not None:
            raise TypeError("cov() got both ddof and correction (NumPy's and PyTorch's name for the same argument)")
        ddof = correction
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    device = _device_of(m, y)
    m = _tensor(m, device)
    X = _as_2d(m, dtype, device)
    if not rowvar and m.ndim != 1:  # NumPy 2's rule: a 2-D m of one row is one observation
        X = X.T
    if X.shape[0] == 0:
        return dt.empty((0, 0), dtype=X.dtype, device=X.device)
    if y is not None:
        Y = _as_2d(y, dtype if dtype is not None else dt.result_type(_tensor(y, device), X.dtype), device)
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        common = dt.result_type(X, Y)
        X = dt.concatenate((X.astype(common), Y.astype(common)), axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    w = _weights(X, fweights, aweights)
    if w is None:
        avg = dt.mean(X, axis=1)
        fact = X.shape[1] - ddof
    else:
        w_sum = dt.sum(w)
        avg = dt.sum(X * w, axis=1) / w_sum
        w_sum = w_sum.item()
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * dt.sum(w * _tensor(aweights, X.device)).item() / w_sum
    if fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    X = X - avg[:, None]
    X_T = (X if w is None else X * w).T
    c = dt.matmul(X, X_T.conj())
    c = c * (1.0 / fact if fact else math.inf)  # NumPy's true_divide(1, 0) is inf: 0 * inf is NaN
    return dt.squeeze(c)


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """NumPy's corrcoef: cov normalised by the standard deviations, clipped
    to [-1, 1] (each part of a complex result)."""
    dt = _dt()
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:  # one variable: NumPy's c / c
        with dt.errstate(divide="ignore", invalid="ignore"):
            return c / c
    d = dt.diagonal(c)
    stddev = dt.sqrt(d.real)
    c = c / stddev[:, None]
    c = c / stddev[None, :]
    dt.clip(c.real, -1, 1, out=c.real)
    if c.dtype.kind == "c":
        dt.clip(c.imag, -1, 1, out=c.imag)
    return c


# ---- differences and integrals ----

def _spacings(f, varargs, axes):
    """gradient's spacing per axis: a Python number, or a tensor of the
    differences of coordinates (NumPy's rules and errors)."""
    dt = _dt()
    n = len(varargs)
    if n == 0:
        return [1.0] * len(axes)
    if n == 1 and np.ndim(varargs[0]) == 0:
        return [varargs[0]] * len(axes)
    if n != len(axes):
        raise TypeError("invalid number of arguments")
    out = []
    for i, distances in enumerate(varargs):
        if np.ndim(distances) == 0:
            out.append(distances)
            continue
        d = _tensor(distances, f.device)
        if d.ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if d.shape[0] != f.shape[axes[i]]:
            raise ValueError("when 1d, distances must match the length of the corresponding dimension")
        if d.dtype.kind in "iub":
            d = d.astype(dt.float64)
        diffx = dt.diff(d)
        if dt.all(diffx == diffx[0]).item():
            diffx = diffx[0]
        out.append(diffx)
    return out


def gradient(f, *varargs, axis=None, edge_order=1):
    """NumPy's gradient: second-order central differences inside, first- or
    second-order one-sided ones at the edges (edge_order), uniform or
    coordinate spacings; one tensor for one axis, else a tuple."""
    dt = _dt()
    f = _tensor(f)
    N = f.ndim
    axes = tuple(range(N)) if axis is None else normalize_axis_tuple(axis, N)
    dx = _spacings(f, varargs, axes)
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f.dtype
    if otype.kind in "iu":  # bool stays: its subtraction raises, as in NumPy
        f = f.astype(dt.float64)
        otype = dt.float64
    outvals = []
    for ax, ax_dx in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, "
                             "at least (edge_order + 1) elements are required.")

        def sl(s, ax=ax):
            key = [slice(None)] * N
            key[ax] = s
            return tuple(key)
        out = dt.empty(f.shape, dtype=otype, device=f.device)
        uniform = not isinstance(ax_dx, TensorBase) or ax_dx.ndim == 0
        if uniform:
            out[sl(slice(1, -1))] = (f[sl(slice(2, None))] - f[sl(slice(None, -2))]) / (2.0 * ax_dx)
        else:
            shape = [1] * N
            shape[ax] = -1
            dx1, dx2 = ax_dx[0:-1], ax_dx[1:]
            a = (-(dx2) / (dx1 * (dx1 + dx2))).reshape(shape)
            b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
            c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
            out[sl(slice(1, -1))] = a * f[sl(slice(None, -2))] + b * f[sl(slice(1, -1))] + c * f[sl(slice(2, None))]
        if edge_order == 1:
            d0 = ax_dx if uniform else ax_dx[0]
            out[sl(slice(0, 1))] = (f[sl(slice(1, 2))] - f[sl(slice(0, 1))]) / d0
            dn = ax_dx if uniform else ax_dx[-1]
            out[sl(slice(-1, None))] = (f[sl(slice(-1, None))] - f[sl(slice(-2, -1))]) / dn
        else:
            if uniform:
                a, b, c = -1.5 / ax_dx, 2.0 / ax_dx, -0.5 / ax_dx
            else:
                dx1, dx2 = ax_dx[0], ax_dx[1]
                a = -(2.0 * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = -dx1 / (dx2 * (dx1 + dx2))
            out[sl(slice(0, 1))] = a * f[sl(slice(0, 1))] + b * f[sl(slice(1, 2))] + c * f[sl(slice(2, 3))]
            if uniform:
                a, b, c = 0.5 / ax_dx, -2.0 / ax_dx, 1.5 / ax_dx
            else:
                dx1, dx2 = ax_dx[-2], ax_dx[-1]
                a = dx2 / (dx1 * (dx1 + dx2))
                b = -(dx2 + dx1) / (dx1 * dx2)
                c = (2.0 * dx2 + dx1) / (dx2 * (dx1 + dx2))
            out[sl(slice(-1, None))] = (a * f[sl(slice(-3, -2))] + b * f[sl(slice(-2, -1))] +
                                        c * f[sl(slice(-1, None))])
        outvals.append(out)
    return outvals[0] if len(axes) == 1 else tuple(outvals)


def trapezoid(y, x=None, dx=1.0, axis=-1, *, dim=None):
    """NumPy's trapezoid rule along axis, with sample points x (1-d, or y's
    shape) or a uniform spacing dx (PyTorch's dim= is axis)."""
    if dim is not None:
        from ._torch_keywords import axis_with_default
        axis = axis_with_default("trapezoid", axis, -1, dim)
    dt = _dt()
    y = _tensor(y)
    nd = y.ndim
    axis = normalize_axis_index(axis, nd)
    if x is None:
        d = dx
    else:
        x = _tensor(x, y.device)
        if x.ndim == 1:
            d = dt.diff(x)
            shape = [1] * nd
            shape[axis] = d.shape[0]
            d = d.reshape(shape)
        else:
            d = dt.diff(x, axis=axis)
    lo = [slice(None)] * nd
    hi = [slice(None)] * nd
    lo[axis], hi[axis] = slice(1, None), slice(None, -1)
    return dt.sum(d * (y[tuple(lo)] + y[tuple(hi)]) / 2.0, axis=axis)


def ediff1d(ary, to_end=None, to_begin=None):
    """NumPy's ediff1d: the differences of the flattened ary, to_begin and
    to_end around them (cast to ary's dtype under 'same_kind')."""
    dt = _dt()
    ary = _tensor(ary).ravel()
    parts = []
    for extra, name in ((to_begin, "to_begin"), (to_end, "to_end")):
        if extra is None:
            parts.append(None)
            continue
        e = _tensor(extra, ary.device)
        if not dt.can_cast(e.dtype, ary.dtype, casting="same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under the "
                            "`same_kind` rule.")
        parts.append(e.ravel().astype(ary.dtype))
    middle = ary[1:] - ary[:-1]
    pieces = [p for p in (parts[0], middle, parts[1]) if p is not None]
    return dt.concatenate(pieces) if len(pieces) > 1 else middle


def _full_correlation(a, w):
    """Note [Correlation by shifted products]: c[k] = sum_j a[k - (m-1) + j] * w[j]."""
    dt = _dt()
    n, m = a.shape[0], w.shape[0]
    dtype = dt.result_type(a, w)
    a, w = a.astype(dtype), w.astype(dtype)
    out = dt.zeros(n + m - 1, dtype=dtype, device=a.device)
    for j in range(m):
        out[m - 1 - j:m - 1 - j + n] += w[j] * a
    return out


def _mode_slice(full, n, m, mode, correlate):
    s, l = min(n, m), max(n, m)
    if mode == "full":
        return full
    if mode == "valid":
        return full[s - 1:s - 1 + l - s + 1]
    start = s // 2 if correlate and n < m else (s - 1) // 2
    return full[start:start + l]


def _check_mode(mode):
    """NumPy's reading of mode: 0, 1, 2 or a string read by its first letter."""
    key = mode.lower()[:1] if isinstance(mode, str) else mode
    modes = {0: "valid", 1: "same", 2: "full", "v": "valid", "s": "same", "f": "full"}
    if key not in modes:
        raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
    return modes[key]


def _one_d(x, device, name):
    t = _tensor(x, device)
    if t.ndim != 1:
        t = t.reshape(-1) if t.ndim == 0 else t
        if t.ndim != 1:
            raise ValueError("object too deep for desired array")
    if t.shape[0] == 0:
        raise ValueError(f"{name} cannot be empty")
    return t


def correlate(a, v, mode="valid"):
    """NumPy's correlate: sum over n of a[n + k] * conj(v[n]) (Note
    [Correlation by shifted products])."""
    views = numpy_views(a, v)
    if views is not None:  # Note [NumPy's loops for CPU tensors] in _operands.py
        return numpy_call(np.correlate, views, mode=mode)
    mode = _check_mode(mode)
    device = _device_of(a, v)
    a, v = _one_d(a, device, "first array argument"), _one_d(v, device, "second array argument")
    w = v.conj() if v.dtype.kind == "c" else v
    full = _full_correlation(a, w)
    return _mode_slice(full, a.shape[0], v.shape[0], mode, correlate=True)


def convolve(a, v, mode="full"):
    """NumPy's convolve: the discrete linear convolution of two 1-d
    sequences (Note [Correlation by shifted products])."""
    views = numpy_views(a, v)
    if views is not None:  # Note [NumPy's loops for CPU tensors] in _operands.py
        return numpy_call(np.convolve, views, mode=mode)
    mode = _check_mode(mode)
    device = _device_of(a, v)
    a, v = _one_d(a, device, "a"), _one_d(v, device, "v")
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    full = _full_correlation(a, v[::-1])
    return _mode_slice(full, a.shape[0], v.shape[0], mode, correlate=False)


# ---- index helpers ----

def ix_(*args):
    """NumPy's ix_: open-mesh index tensors (a bool sequence as its nonzero
    positions; an empty one as int64)."""
    dt = _dt()
    out = []
    nd = len(args)
    device = _device_of(*args)
    for k, new in enumerate(args):
        t = new if isinstance(new, TensorBase) else dt.asarray(new, device=device)
        if not isinstance(new, TensorBase) and t.size == 0:
            t = t.astype(dt.int64)
        if t.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if t.dtype == dt.bool:
            (t,) = dt.nonzero(t)
        out.append(t.reshape((1,) * k + (t.shape[0],) + (1,) * (nd - k - 1)))
    return tuple(out)


def fill_diagonal(a, val, wrap=False):
    """NumPy's fill_diagonal, in place: a[i, ..., i] = val (repeated as
    needed); a 2-d tall tensor wraps after N columns when wrap=True."""
    dt = _dt()
    if not isinstance(a, TensorBase):
        raise TypeError(f"fill_diagonal needs a devtensor.Tensor to write into, not {type(a).__name__}")
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    end = None
    if a.ndim == 2:
        step = a.shape[1] + 1
        if not wrap:
            end = a.shape[1] * a.shape[1]
    else:
        if any(n != a.shape[0] for n in a.shape):
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(np.cumprod(a.shape[:-1]).sum())
    count = len(range(0, a.size if end is None else min(end, a.size), step))
    values = _tensor(val, a.device).astype(a.dtype).ravel()
    if values.shape[0] == 0:
        return None
    if values.shape[0] != count:  # NumPy's flat assignment repeats the values, or takes the first
        values = dt.tile(values, -(-count // values.shape[0]))[:count]
    a.flat[:end:step] = values
    return None


# ---- piecewise ----

def piecewise(x, condlist, funclist, *args, **kw):
    """NumPy's piecewise: y[cond_i] = funclist[i](x[cond_i]) (or the value
    funclist[i]), later conditions winning; one more function than
    conditions is the default where none holds; zeros elsewhere."""
    dt = _dt()
    x = _tensor(x)
    n2 = len(funclist)
    if np.isscalar(condlist) or isinstance(condlist, TensorBase) and condlist.ndim == x.ndim or (
            not isinstance(condlist, TensorBase) and not isinstance(condlist[0], (list, tuple, np.ndarray, TensorBase))
            and x.ndim != 0):
        condlist = [condlist]
    conds = [dt.asarray(c, device=x.device).astype(dt.bool) for c in condlist]
    n = len(conds)
    if n == n2 - 1:
        otherwise = ~dt.any(dt.stack([dt.broadcast_to(c, x.shape) for c in conds]), axis=0)
        conds.append(otherwise)
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = dt.zeros_like(x)
    for cond, func in zip(conds, funclist):
        cond = dt.broadcast_to(cond, x.shape)
        if not callable(func):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


# ---- apply_along_axis ----

def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """NumPy's apply_along_axis: func1d on each 1-d slice along axis (a
    Python loop over the other axes, each call on the tensor's device).  As
    in NumPy, the first result sets the output's dtype and shape; each later
    one is assigned into it (cast as setitem casts, broadcast), and the
    result's own axes stand where the axis was."""
    dt = _dt()
    arr = _tensor(arr)
    axis = normalize_axis_index(axis, arr.ndim)
    moved = dt.moveaxis(arr, axis, -1)
    outer = moved.shape[:-1]
    if any(n == 0 for n in outer):
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    indices = np.ndindex(*outer)
    first_index = next(indices)
    first = _tensor(func1d(moved[first_index], *args, **kwargs), arr.device)
    out = dt.empty(outer + first.shape, dtype=first.dtype, device=arr.device)
    out[first_index] = first
    for index in indices:
        out[index] = func1d(moved[index], *args, **kwargs)
    src = tuple(range(len(outer), len(outer) + first.ndim))
    dst = tuple(range(axis, axis + first.ndim))
    return dt.moveaxis(out, src, dst) if first.ndim else out


def apply_over_axes(func, a, axes):
    """NumPy's apply_over_axes: func(a, axis) for each axis in turn, a result
    one dimension short given that dimension back (keepdims)."""
    dt = _dt()
    a = _tensor(a)
    for axis in [axes] if isinstance(axes, int) else axes:
        axis = axis + a.ndim if axis < 0 else axis
        res = func(a, axis)
        if res.ndim != a.ndim:
            res = dt.expand_dims(res, axis)
            if res.ndim != a.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        a = res
    return a


# ---- vectorize ----

class vectorize:
    """NumPy's vectorize: a Python function applied element by element with
    broadcasting, otypes, excluded, cache and signature as NumPy's (its own
    vectorize does the work).  The function runs on the host, as any Python
    function must: tensor arguments on a device are read there as NumPy
    reads them (np.asarray, under the transfer guard), and the results come
    back as tensors on the arguments' device.  As NumPy's, it is a decorator
    with or without arguments."""

    def __init__(self, pyfunc=None, otypes=None, doc=None, excluded=None, cache=False, signature=None):
        from ._numpy_fallback import _host  # devtensor dtypes among otypes as NumPy's
        self._options = dict(otypes=_host(otypes), doc=doc, excluded=excluded, cache=cache, signature=signature)
        self._numpy = None if pyfunc is None else np.vectorize(pyfunc, **self._options)
        if pyfunc is not None:
            self.__doc__ = self._numpy.__doc__
            if hasattr(self._numpy, "__name__"):  # the decorated function's name, as NumPy's
                self.__name__ = self._numpy.__name__

    def __getattr__(self, name):  # pyfunc, otypes, excluded, signature, ...: NumPy's object's
        if name.startswith("_") or self.__dict__.get("_numpy") is None:
            raise AttributeError(name)
        return getattr(self._numpy, name)

    def __setattr__(self, name, value):  # f.otypes = 'i' after construction: NumPy's object's too
        if not name.startswith("_") and self.__dict__.get("_numpy") is not None:
            if name == "otypes":
                from ._numpy_fallback import _host
                value = _host(value)
            setattr(self._numpy, name, value)
        else:
            object.__setattr__(self, name, value)

    def __call__(self, *args, **kwargs):
        if self._numpy is None:  # @vectorize(otypes=...): the function comes now
            return vectorize(args[0], **self._options)
        device = _device_of(*args, *kwargs.values())
        result = self._numpy(*[np.asarray(a) if isinstance(a, TensorBase) else a for a in args],
                             **{k: np.asarray(v) if isinstance(v, TensorBase) else v for k, v in kwargs.items()})
        return _on(result, device)


def _on(result, device):
    """vectorize's result (a tuple of them for several outputs) as tensors on device."""
    if isinstance(result, tuple):
        return tuple(_on(r, device) for r in result)
    return _dt().asarray(result, device=device) if isinstance(result, np.ndarray) else result


# ---- complex or real ----

def iscomplexobj(x):
    """Whether x has a complex dtype (its values are not read)."""
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        dtype = _dt().asarray(x).dtype
    return dtype.kind == "c"


def isrealobj(x):
    """Whether x has no complex dtype."""
    return not iscomplexobj(x)


def iscomplex(x):
    """Elementwise: the imaginary part is non-zero (False everywhere for real dtypes)."""
    dt = _dt()
    x = _tensor(x)
    if x.dtype.kind == "c":
        return x.imag != 0
    return dt.zeros(x.shape, dtype=dt.bool, device=x.device)


def isreal(x):
    """Elementwise: the imaginary part is zero (True everywhere for real dtypes)."""
    dt = _dt()
    x = _tensor(x)
    if x.dtype.kind == "c":
        return x.imag == 0
    return dt.ones(x.shape, dtype=dt.bool, device=x.device)


def _part(val, name):
    """Note [real and imag are views]: NumPy's np.real(a) and np.imag(a) are
    a.real and a.imag, views of a complex array's memory (writes reach it;
    np.real of a real array is the array itself), as CuPy's and PyTorch's
    are, not ufuncs that copy.  Python numbers give their own part, as in
    NumPy; anything else becomes a tensor first."""
    if not isinstance(val, (TensorBase, int, float, complex)):
        val = _tensor(val)
    return getattr(val, name)


def real(val):
    """The real part: val.real, a view of a complex tensor (Note [real and imag are views])."""
    return _part(val, "real")


def imag(val):
    """The imaginary part: val.imag, a view of a complex tensor (Note [real and imag are views])."""
    return _part(val, "imag")


def real_if_close(a, tol=100):
    """a's real part when every imaginary part is below tol (in machine
    epsilons of a's dtype when tol > 1), else a (NumPy's real_if_close)."""
    dt = _dt()
    a = _tensor(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = float(dt.finfo(a.dtype).eps) * tol
    return a.real if bool(dt.all(dt.abs(a.imag) < tol)) else a


def common_type(*arrays):
    """NumPy's common_type, as a devtensor dtype: the inexact dtype that holds
    every array's values (integers count as float64); bool is a TypeError."""
    dt = _dt()
    precision, is_complex = 0, False
    sizes = {2: dt.float16, 4: dt.float32, 8: dt.float64}
    for a in arrays:
        kind = a.dtype.kind
        if kind == "c":
            is_complex = True
            size = a.dtype.itemsize // 2
        elif kind == "f":
            size = 4 if a.dtype == dt.bfloat16 else a.dtype.itemsize
        elif kind in "iu":
            size = 8
        else:
            raise TypeError("can't get common type for non-numeric array")
        precision = max(precision, size)
    real = sizes.get(precision, dt.float16)
    if is_complex:
        return dt.complex128 if real == dt.float64 else dt.complex64
    return real


__all__ = ["nan_to_num", "cov", "corrcoef", "gradient", "trapezoid", "ediff1d", "correlate", "convolve", "ix_",
           "fill_diagonal", "apply_along_axis", "apply_over_axes", "piecewise", "sinc", "isposinf",
           "isneginf", "fix", "unwrap", "iscomplexobj", "isrealobj", "iscomplex", "isreal", "real", "imag", "real_if_close",
           "common_type", "vectorize"]
