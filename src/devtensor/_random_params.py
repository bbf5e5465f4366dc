"""The helpers devtensor.random's Generator and its further laws share:
NumPy's parameter checks and messages (its check_constraint), parameters
as float64 tensors on one device, result shapes, log k!, and integer
bounds for integers() with NumPy's checks for every integer dtype.
"""
import math
import operator

import numpy as np

from . import _C
from ._C import TensorBase

_LOG_FACTORIALS = [math.lgamma(k + 1) for k in range(10)]
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)
_POISSON_LAM_MAX = 9.223372006484771e18  # NumPy's: int64 max - 10 sqrt(int64 max)


_RANDOM = None


def _random():
    """devtensor.random (imported on first use: it imports this module)."""
    global _RANDOM
    if _RANDOM is None:
        from . import random
        _RANDOM = random
    return _RANDOM


def _dt():
    import devtensor
    return devtensor


def _shape(size):
    if size is None:
        return None
    if isinstance(size, (int, np.integer)) or getattr(size, "ndim", None) == 0:  # a 0-d array or tensor too
        return (operator.index(size),)
    return tuple(operator.index(n) for n in size)


def _count(x):
    """x as a Python int when it is an integer: a Python or NumPy integer, or a
    0-d integer array or tensor (what np.sum or np.argmax of integers gives, which
    NumPy code passes to rand(n), choice(n), permutation(n)); None otherwise (bool
    included)."""
    if isinstance(x, bool):
        return None
    if isinstance(x, (int, np.integer)):
        return operator.index(x)
    if getattr(x, "ndim", None) == 0 and getattr(getattr(x, "dtype", None), "kind", None) in ("i", "u"):
        return operator.index(x)
    return None


def _is_array(x):
    return isinstance(x, (TensorBase, np.ndarray, list, tuple))


def _device_of(device, *params):
    if device is not None:
        return _C._resolve_device(device if isinstance(device, _C.device) else _C.device(device))
    for p in params:
        if isinstance(p, TensorBase):
            return p.device
    return None


def _float_param(x, device):
    return _dt().asarray(x, device=device).astype(_C.float64, copy=False)


def _result_shape(size, *params):
    shapes = [tuple(p.shape) for p in params if isinstance(p, TensorBase)]
    if size is not None:
        np.broadcast_shapes(size, *shapes)  # NumPy: parameters must broadcast to size
        return size
    return np.broadcast_shapes(*shapes) if shapes else ()


def _take(a, indices, axis=None):
    """devtensor.take (its result on a's device whatever the default device is)."""
    return _dt().take(a, indices, axis=axis)


def _any(t):
    return bool(_dt().any(t))


def _log_factorial(k):
    """log k! for k >= 0 (float64 tensor): exact below 10, Stirling above."""
    dt = _dt()
    table = dt.asarray(_LOG_FACTORIALS, device=k.device)
    small = k < 10
    kk = dt.maximum(k, 10.0)
    inv = 1.0 / kk
    inv2 = inv * inv
    stirling = ((kk + 0.5) * dt.log(kk) - kk + _HALF_LOG_2PI +
                inv * (1.0 / 12 - inv2 * (1.0 / 360 - inv2 * (1.0 / 1260 - inv2 / 1680))))
    index = dt.where(small, dt.maximum(k, 0.0), 0.0).astype(_C.int64)
    return dt.where(small, _take(table, index), stirling)


# NumPy's parameter constraints (its check_constraint), and their messages
_NON_NEGATIVE, _POSITIVE, _POSITIVE_NOT_NAN, _IN_0_1, _IN_0_1_OPEN, _ABOVE_1, _AT_LEAST_1 = range(7)


def _check(p, name, kind, scalar=False):
    """NumPy's ValueError when a float64 tensor p breaks the constraint kind
    (non-negative counts -0.0 as negative and lets NaN through, as NumPy).
    NumPy words the NaN of the newer bounds "is NaN" when every parameter of
    the call is a scalar (0-d), else "contains NaNs": scalar says which."""
    dt = _dt()
    nan = "is NaN" if scalar else "contains NaNs"
    if kind == _POSITIVE_NOT_NAN:
        if _any(dt.isnan(p)):
            raise ValueError(f"{name} must not be NaN")
        kind = _POSITIVE
    if kind == _NON_NEGATIVE:
        bad, message = dt.signbit(p) & ~dt.isnan(p), f"{name} < 0"
    elif kind == _POSITIVE:
        bad, message = p <= 0, f"{name} <= 0"
    elif kind == _IN_0_1:
        bad, message = ~((p > 0) & (p <= 1)), f"{name} <= 0, {name} > 1 or {name} contains NaNs"
    elif kind == _IN_0_1_OPEN:
        bad, message = ~((p >= 0) & (p < 1)), f"{name} < 0, {name} >= 1 or {name} {nan}"
    elif kind == _ABOVE_1:
        bad, message = ~(p > 1), f"{name} <= 1 or {name} {nan}"
    else:
        bad, message = ~(p >= 1), f"{name} < 1 or {name} {nan}"
    if _any(bad):
        raise ValueError(message)


def _trial_counts(n, device):
    """n as whole float64 counts (truncated), with NumPy's errors for NaN and
    infinity (its cast to int64)."""
    dt = _dt()
    trials = _float_param(n, device)
    if _any(~dt.isfinite(trials)):
        if _any(dt.isnan(trials)):
            raise ValueError("cannot convert float NaN to integer")
        raise OverflowError("cannot convert float infinity to integer")
    return dt.trunc(trials)


def _to_int64(k):
    """Float counts as int64, int64's maximum from 2^63 on (NumPy's cap)."""
    dt = _dt()
    big = k >= 9.223372036854775807e18
    return dt.where(big, 2 ** 63 - 1, dt.where(big, 0.0, k).astype(_C.int64))


def _pvals_sum_message(pvals, ndim):
    """NumPy's message for multinomial's pvals[..., :-1] summing above 1."""
    part = "[:-1]" if ndim == 1 else "[...,:-1]"
    dtype = getattr(pvals, "dtype", None)
    if (isinstance(pvals, (np.ndarray, TensorBase)) and dtype.kind == "f" and dtype != np.float64
            and float(pvals.sum()) < 1.0001):
        return (f"sum(pvals{part}.astype(np.float64)) > 1.0. The pvals array is cast to 64-bit floating "
                "point prior to checking the sum. Precision changes when casting may cause problems even "
                "if the sum of the original pvals is valid.")
    return f"sum(pvals{part}) > 1.0"


# ---- integer bounds (Note [Integers over the whole range] in _generator.py) ----
_INT_LIMITS = {}


def _int_limits(dtype):
    """(lowest, highest) of an integer dtype or bool, as Python ints."""
    limits = _INT_LIMITS.get(dtype)
    if limits is None:
        info = np.iinfo(dtype.numpy_dtype) if dtype.kind != "b" else None
        limits = _INT_LIMITS[dtype] = (0, 1) if info is None else (int(info.min), int(info.max))
    return limits


def _as_int(x):
    """A scalar bound as a Python int: floats truncated, as NumPy's int(np.array(x))."""
    try:
        return operator.index(x)
    except TypeError:
        return int(np.asarray(x))


def _int_bound(x, device):
    """An array bound: (its values modulo 2^64 as a uint64 tensor on device, its
    smallest and its largest value as Python ints, None when empty).  Host data
    is checked on the host (a list's elements as Python ints: NumPy would make
    [2**63, 5] float64), a tensor by two reductions on its device; floats are
    truncated."""
    dt = _dt()
    if isinstance(x, TensorBase):
        t = x if device is None or x.device == device else dt.asarray(x, device=device)
        if t.dtype.kind not in "iu":
            t = t.astype(_C.int64)
        if t.size == 0:
            return t.astype(_C.uint64), None, None
        return t.astype(_C.uint64), int(dt.min(t)), int(dt.max(t))
    a = x if isinstance(x, np.ndarray) and x.dtype.kind in "iu" else np.array(x, dtype=object)
    if a.size == 0:
        return dt.asarray(np.zeros(a.shape, np.uint64), device=device), None, None
    if a.dtype.kind in "iu":
        return dt.asarray(a.astype(np.uint64), device=device), int(a.min()), int(a.max())
    values = [int(v) for v in a.ravel()]
    modular = np.array([v % 2 ** 64 for v in values], dtype=np.uint64).reshape(a.shape)
    return dt.asarray(modular, device=device), min(values), max(values)


def _check_int_bounds(low, high, dtype, message, shapes=None):
    """NumPy's checks of integers() bounds in its order, from the extremes of
    low and of high (the closed high: high - 1 without endpoint), each a pair
    (smallest, largest) of Python ints, None when empty, and for array bounds
    their shapes; message is NumPy's for low > high.  Returns whether an
    element by element check of low > high is still needed: not when either
    is empty, nor when the extremes tell."""
    lowest, highest = _int_limits(dtype)
    if low[0] is not None and low[0] < lowest:
        raise ValueError(f"low is out of bounds for {dtype}")
    if high[1] is not None and high[1] > highest:
        raise ValueError(f"high is out of bounds for {dtype}")
    if shapes is not None:
        try:
            np.broadcast_shapes(*shapes)
        except ValueError:
            raise ValueError(f"operands could not be broadcast together with shapes {shapes[0]} {shapes[1]} ") from None
    if low[0] is None or high[0] is None:
        return False
    if high[0] < lowest or low[1] > highest or low[0] > high[1]:  # every low meets every high
        raise ValueError(message)
    return low[1] > high[0]


def _mulhi(x, s):
    """The high 64 bits of x * s for a uint64 tensor x and a uint64 tensor or
    Python int s (philox.h's dt_mulhi64, in 32-bit halves: no product overflows)."""
    m = 0xFFFFFFFF
    x_lo, x_hi, s_lo, s_hi = x & m, x >> 32, s & m, s >> 32
    hi_lo = x_hi * s_lo
    cross = ((x_lo * s_lo) >> 32) + (hi_lo & m) + x_lo * s_hi
    return x_hi * s_hi + (hi_lo >> 32) + (cross >> 32)
