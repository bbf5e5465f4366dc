"""interp: NumPy's one-dimensional piecewise-linear interpolation, on the
device of its operands (searchsorted, then a gather and a fused line).

NumPy's rules: xp increasing (not checked), fp of its length; left and
right (default fp[0] and fp[-1]) outside [xp[0], xp[-1]]; x equal to a
sample point gives that point's fp exactly; period= wraps x and xp first.
The result is float64, or complex128 for complex fp, of x's shape.
"""
import numpy as np

from ._C import TensorBase, _from_numpy, bfloat16


def _device(*operands):
    for o in operands:
        if isinstance(o, TensorBase):
            return o.device
    return None


# Note [Interpolations on the CPU through NumPy]
# The device form below is about 25 device calls: 38 us for 16 points where
# NumPy's interp takes 1.4, and for 10^6 queries into 1000 points (2 cores)
# 65 ms against NumPy's 10 when the queries are sorted (NumPy's loop starts
# each search at the previous bracket) and 148 ms against 96 when they are
# not.  So CPU tensors always go to NumPy's own interp on zero-copy views
# (the rules above are NumPy's, its errors are the ones this module copies);
# the device form serves CUDA tensors and bfloat16.


def _numpy_interp(x, xp, fp, left, right, period):
    """NumPy's interp of CPU tensors (x may be a Python number), or None when
    the arguments are not that."""
    if not (isinstance(xp, TensorBase) and isinstance(fp, TensorBase)) or xp.is_cuda or fp.is_cuda:
        return None
    if xp.dtype is bfloat16 or fp.dtype is bfloat16:
        return None
    if isinstance(x, TensorBase):
        if x.is_cuda or x.dtype is bfloat16:
            return None
    elif not isinstance(x, (int, float)):
        return None
    if not (left is None and right is None and period is None):
        for v in (left, right, period):
            if v is not None and not isinstance(v, (int, float, complex)):
                return None
    x = x.numpy() if isinstance(x, TensorBase) else x
    r = np.interp(x, xp.numpy(), fp.numpy(), left, right, period)
    return _from_numpy(r if type(r) is np.ndarray else np.asarray(r))


def interp(x, xp, fp, left=None, right=None, period=None):
    """NumPy's interp: values at x of the piecewise-linear function through
    the points (xp, fp)."""
    r = _numpy_interp(x, xp, fp, left, right, period)  # Note [Interpolations on the CPU through NumPy]
    if r is not None:
        return r
    import devtensor as dt
    device = _device(x, xp, fp)
    x = dt.asarray(x, device=device)
    xp = dt.asarray(xp, device=device).astype(dt.float64)
    fp = dt.asarray(fp, device=device)
    if fp.dtype.is_complex:
        return _complex_interp(x, xp, fp, left, right, period, device)
    fp = fp.astype(dt.float64)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("object too deep for desired array")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if xp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    xf = x.astype(dt.float64)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        xf = xf % period
        xp = xp % period
        order = dt.argsort(xp, stable=True)
        xp, fp = xp[order], fp[order]
        xp = dt.concatenate([xp[-1:] - period, xp, xp[:1] + period])
        fp = dt.concatenate([fp[-1:], fp, fp[:1]])
    n = xp.shape[0]
    below = fp[0] if left is None else dt.asarray(left, device=xp.device).astype(fp.dtype)
    above = fp[-1] if right is None else dt.asarray(right, device=xp.device).astype(fp.dtype)
    if n == 1:
        inside = dt.broadcast_to(fp[0], xf.shape)
    else:
        j = dt.clip(dt.searchsorted(xp, xf, side="right") - 1, 0, n - 2)
        x0, x1, y0, y1 = xp[j], xp[j + 1], fp[j], fp[j + 1]
        slope = (y1 - y0) / (x1 - x0)
        inside = slope * (xf - x0) + y0
        # NumPy's fallbacks where the line is not finite: from the right end,
        # then the common value of a flat step
        inside = dt.where(dt.isnan(inside), slope * (xf - x1) + y1, inside)
        inside = dt.where(dt.isnan(inside) & (y0 == y1) & ~dt.isnan(xf), y0, inside)  # a NaN x stays NaN
        inside = dt.where(xf == x0, y0, inside)
    result = dt.where(xf == xp[-1], fp[-1], inside)
    result = dt.where(xf < xp[0], below, dt.where(xf > xp[-1], above, result))
    return result if result.ndim or isinstance(x, TensorBase) else result[()]


def _complex_interp(x, xp, fp, left, right, period, device):
    """Complex fp: the real and imaginary parts interpolated apart, as NumPy
    does (a complex slope would turn an infinite part into NaN + NaN j)."""
    import devtensor as dt
    parts = []
    for part in (dt.real, dt.imag):
        ends = [None if v is None else part(dt.asarray(v, device=device).astype(dt.complex128))
                for v in (left, right)]
        parts.append(dt.asarray(interp(x, xp, part(fp), ends[0], ends[1], period), device=device))
    result = dt.empty(parts[0].shape, dtype=dt.complex128, device=parts[0].device)
    result.real[...] = parts[0]
    result.imag[...] = parts[1]
    return result if result.ndim or isinstance(x, TensorBase) else result[()]
