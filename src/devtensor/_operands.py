"""How functions of several operands choose their device and take their
operands (PyTorch's rule, NumPy's data): the device of the tensor operands;
lists, NumPy arrays and Python numbers made there; a 0-d CPU tensor going
with any device as a scalar (Note [0-d CPU tensors as scalars] in
csrc/core/elementwise.c); tensors on two devices PyTorch's RuntimeError,
never a silent move of a tensor between devices.
"""
import numpy as np

from . import _C
from ._C import TensorBase


def _two_devices(a, b):
    return RuntimeError(f"Expected all tensors to be on the same device, but found at least two devices, "
                        f"{a} and {b}!")


def operands_device(*objs):
    """The device of the tensors among objs (0-d CPU tensors only when no
    other tensor is there); None when none is a tensor."""
    device = scalar_device = None
    for o in objs:
        if not isinstance(o, TensorBase):
            continue
        d = o.device
        if o.ndim == 0 and d.type == "cpu":
            scalar_device = d
        elif device is None:
            device = d
        elif d != device:
            raise _two_devices(device, d)
    return device if device is not None else scalar_device


def as_tensor(x, device=None):
    """x as a tensor on device (None: a tensor stays where it is, data goes
    to the default device): data converted there, a 0-d CPU tensor moved,
    a tensor on another device refused."""
    if isinstance(x, TensorBase):
        if device is None or x.device == device:
            return x
        if x.ndim == 0 and x.device.type == "cpu":
            return x.to(device)
        raise _two_devices(device, x.device)
    return _C.asarray(x, device=device)  # (devtensor.asarray itself; no import a call)


# Note [NumPy's loops for CPU tensors]
# Some of NumPy's functions are one loop in NumPy and several device
# operations here (frexp, spacing, packbits, convolve, small bincounts and
# interpolations).  For CPU tensors NumPy's loop runs on zero-copy views
# instead, one pass for several: the same values, dtypes and errors, and a
# CPU tensor back.  Devices (and bfloat16, which NumPy lacks) take the
# device operations.
#
# numpy_views(*objs): NumPy views of objs when every tensor among them is
# a CPU tensor NumPy can see (not bfloat16) and the rest are Python numbers
# or None; else None.  The C function itself, with no Python frame around
# it (Note [NumPy calls in C] in csrc/python/numpy_calls.c).
numpy_views = _C._numpy_views


def _numpy_sees(t):
    """Whether NumPy can view the tensor t: on the cpu, not bfloat16."""
    return not t.is_cuda and t.dtype is not _C.bfloat16


# Note [Small CPU work through NumPy's functions]
# histogram, quantile/percentile (and their NaN forms), isin, digitize,
# choose and the set functions (intersect1d, union1d, setdiff1d, setxor1d)
# are a dozen to thirty device operations here, about twice NumPy's time on a small CPU
# tensor (110 us against 60 for 16 values), and faster than NumPy's from
# about 10^5 values, where devtensor's threads pay -- but for histogram,
# whose equal bins NumPy counts in one pass (10^6 values: 27 ms against
# NumPy's 7.7 on a 2-core Xeon), so it goes to NumPy at every size
# (small_cpu_views' limit=None).  Below SMALL_CPU_WORK
# elements, CPU tensors (whose other operands are CPU tensors or plain host
# values: None, numbers, strings, flat lists of them, NumPy arrays) go to
# NumPy's own function on zero-copy views: the same values, dtypes, errors
# and warnings, at NumPy's speed.  overwrite_input is never passed on: a
# view is the caller's tensor.
SMALL_CPU_WORK = 1 << 16


def host_operand(x):
    """x as NumPy takes it, when it is a CPU tensor NumPy can see (its view)
    or a plain host value (None, a Python number or string, a flat list or
    tuple of numbers, a NumPy array or scalar): (True, that), else (False, None)."""
    if isinstance(x, TensorBase):
        return (True, x.numpy()) if _numpy_sees(x) else (False, None)
    if x is None or isinstance(x, (bool, int, float, complex, str, np.ndarray, np.generic)):
        return True, x
    if type(x) in (list, tuple) and all([isinstance(v, (bool, int, float)) for v in x]):
        return True, x
    return False, None


def small_cpu_views(a, *others, limit=SMALL_CPU_WORK):
    """NumPy's views of the CPU tensor a (under `limit` elements; None: any
    size) and of others (host_operand), or None (Note [Small CPU work
    through NumPy's functions])."""
    if not isinstance(a, TensorBase) or not _numpy_sees(a) or (limit is not None and a.size >= limit):
        return None
    views = [a.numpy()]
    for o in others:
        ok, v = host_operand(o)
        if not ok:
            return None
        views.append(v)
    return views


# Note [NumPy's loops without NumPy's warnings]
# devtensor never warns for floating-point errors, so NumPy's loops run with
# its errors ignored; np.errstate(all="ignore") costs about 1.3 us a call (it
# builds NumPy's error state on each entry), more than most of these loops
# on small tensors.  numpy_call sets an "ignore" state built once at import
# in NumPy's context variable instead, what errstate does on entry (per
# thread and task, restored on exit); where NumPy lacks that variable
# (a private name, there since NumPy 2.0) it uses errstate.
try:
    from numpy._core._ufunc_config import _extobj_contextvar as _NUMPY_ERROR_STATE
    with np.errstate(all="ignore"):
        _IGNORE_ERRORS = _NUMPY_ERROR_STATE.get()
    _C._set_numpy_error_state(_NUMPY_ERROR_STATE, _IGNORE_ERRORS)
except (ImportError, AttributeError, TypeError):  # pragma: no cover - another NumPy
    _NUMPY_ERROR_STATE = None


def numpy_call(fn, views, floats=True, **kwargs):
    """NumPy's fn of the views, its result (an array, or a tuple of them) as
    CPU tensors, zero-copy; for a function of floats (floats=True) NumPy's
    floating-point warnings silenced, as devtensor never warns for them
    (README; Note [NumPy's loops without NumPy's warnings]); in C (Note
    [NumPy calls in C] in csrc/python/numpy_calls.c)."""
    views = views if type(views) is list else list(views)
    if _NUMPY_ERROR_STATE is not None or not floats:
        return _C._numpy_call(fn, views, floats, kwargs or None)
    with np.errstate(all="ignore"):  # pragma: no cover - another NumPy
        return _C._numpy_call(fn, views, False, kwargs or None)
