"""The helpers devtensor.random's Generator and its further laws share:
NumPy's parameter checks and messages (its check_constraint), parameters
as float64 tensors on one device, result shapes, and log k!.
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
    if isinstance(size, (int, np.integer)):
        return (int(size),)
    return tuple(operator.index(n) for n in size)


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
    return dt.where(small, dt.take(table, index), stirling)


# NumPy's parameter constraints (its check_constraint), and their messages
_NON_NEGATIVE, _POSITIVE, _POSITIVE_NOT_NAN, _IN_0_1 = range(4)


def _check(p, name, kind):
    """NumPy's ValueError when a float64 tensor p breaks the constraint kind
    (non-negative counts -0.0 as negative and lets NaN through, as NumPy)."""
    dt = _dt()
    if kind == _POSITIVE_NOT_NAN:
        if _any(dt.isnan(p)):
            raise ValueError(f"{name} must not be NaN")
        kind = _POSITIVE
    if kind == _NON_NEGATIVE:
        bad, message = dt.signbit(p) & ~dt.isnan(p), f"{name} < 0"
    elif kind == _POSITIVE:
        bad, message = p <= 0, f"{name} <= 0"
    else:
        bad, message = ~((p > 0) & (p <= 1)), f"{name} <= 0, {name} > 1 or {name} contains NaNs"
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
