"""NumPy's small utilities that real code calls, on tensors of any device:
isclose, allclose, array_equal, array_equiv, isscalar, ndim, shape, size,
isfortran, min_scalar_type, copyto, iterable; errstate, seterr and geterr;
the print options.

Note [Floating-point error settings]
devtensor's operations never warn or raise on division by zero, overflow,
underflow or invalid operations: on a GPU such checks would cost a
reduction and a synchronisation per operation, and no GPU array library
makes them.  seterr, geterr and errstate keep and return the settings with
NumPy's names, values and validation, so NumPy code that sets them runs
unchanged; the settings do not change what operations do.
"""
import cmath
import contextlib
import contextvars
import operator
import sys
import warnings

import numpy as np

from . import _C
from ._C import TensorBase
from ._creation import asarray
from ._dtype_api import _CASTINGS, can_cast, result_type
from ._operands import as_tensor, operands_device
from ._reductions import all as all_
from ._ufuncs import _bool_mask, absolute, isfinite, isnan
from ._views import _np_shape

_ERR_KINDS = ("divide", "over", "under", "invalid")
_ERR_MODES = ("ignore", "warn", "raise", "call", "print", "log")
# in a context variable, as NumPy 2's: a thread (or asyncio task) that sets them,
# or opens `with errstate(...)`, changes no other's
_err = contextvars.ContextVar("devtensor floating-point error settings",
                              default={"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"})


def _operands(a, b):
    """a and b as tensors on the tensors' one device (tensors on two devices
    are PyTorch's RuntimeError, as in every operation; data goes there)."""
    device = operands_device(a, b)
    return as_tensor(a, device), as_tensor(b, device)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|a - b| <= atol + rtol * |b| elementwise (NumPy's test: not symmetric;
    infinities are close only to themselves; NaN only with equal_nan)."""
    if isinstance(b, (int, float, complex)) and not isinstance(a, (int, float, complex)):
        # a Python b stays weak, as in NumPy's isclose (NEP 50): float32 a is compared in float32
        x = as_tensor(a, a.device if isinstance(a, TensorBase) else None)
        y = complex(b) if isinstance(b, complex) else float(b)
        abs_y, finite_y, nan_y = abs(y), cmath.isfinite(y), cmath.isnan(y)
    else:
        x, y = _operands(a, b)
        y = y.astype(result_type(y, 1.0), copy=False)  # no abs(INT_MIN) overflow
        abs_y, finite_y, nan_y = absolute(y), isfinite(y), isnan(y)
    result = ((absolute(x - y) <= atol + rtol * abs_y) & finite_y) | (x == y)
    if equal_nan:
        result = result | (isnan(x) & nan_y)
    return result


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether isclose holds everywhere (a Python bool)."""
    return bool(all_(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def array_equal(a1, a2, equal_nan=False):
    """True if both have the same shape and elements (NaNs equal with equal_nan);
    data that is not numbers (strings, datetimes) and no tensor: NumPy's answer."""
    try:
        x, y = _operands(a1, a2)
    except (TypeError, ValueError):
        if not isinstance(a1, TensorBase) and not isinstance(a2, TensorBase):
            return bool(np.array_equal(a1, a2, equal_nan=equal_nan))
        return False
    if x.shape != y.shape:
        return False
    if not equal_nan or not (x.dtype.is_floating_point or x.dtype.is_complex or
                             y.dtype.is_floating_point or y.dtype.is_complex):
        return bool(all_(x == y))
    xn, yn = isnan(x), isnan(y)
    return bool(all_(xn == yn)) and bool(all_((x == y) | xn))


def array_equiv(a1, a2):
    """True if a1 and a2 broadcast to one shape and are equal there (NumPy's
    answer for data that is not numbers, given no tensor)."""
    try:
        x, y = _operands(a1, a2)
    except (TypeError, ValueError):
        if not isinstance(a1, TensorBase) and not isinstance(a2, TensorBase):
            return bool(np.array_equiv(a1, a2))
        return False
    try:
        np.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        return False
    return bool(all_(x == y))


def isscalar(element):
    """NumPy's isscalar: Python and NumPy scalars (a tensor, even 0-d, is not one)."""
    return np.isscalar(element)


def ndim(a):
    return a.ndim if isinstance(a, TensorBase) else np.ndim(a)


def shape(a):
    return tuple(a.shape) if isinstance(a, TensorBase) else np.shape(a)


def size(a, axis=None):
    if not isinstance(a, TensorBase):
        return np.size(a, axis)
    if axis is None:
        return a.size
    from numpy.lib.array_utils import normalize_axis_index
    return a.shape[normalize_axis_index(operator.index(axis), a.ndim)]


def isfortran(a):
    """NumPy's isfortran: Fortran-contiguous and not C-contiguous."""
    return a.flags.fnc if isinstance(a, TensorBase) else np.isfortran(a)


def min_scalar_type(a, /):
    """NumPy's min_scalar_type: an array's own dtype; for a scalar (a 0-d
    tensor read as float(t) reads one) the smallest dtype holding its value."""
    if isinstance(a, TensorBase):
        if a.ndim:
            return a.dtype
        a = a.item()
    found = np.min_scalar_type(a)
    return _C.dtype(found) if found.kind in "biufc" else found


def iterable(y):
    """Whether iter(y) works (a 0-d tensor is not iterable)."""
    try:
        iter(y)
    except TypeError:
        return False
    return True


def copyto(dst, src, casting="same_kind", where=True):
    """dst[...] = src broadcast to dst's shape, where `where` holds, after
    checking NumPy's casting rule (dst must be a tensor; src goes to its device)."""
    if not isinstance(dst, TensorBase):
        raise TypeError(f"copyto() argument 1 must be a devtensor.Tensor, not "
                        f"{type(dst).__name__}")
    if type(src) in _WEAK_TYPES and casting in _CASTINGS:  # the common call, checked cheaply
        if casting == "same_kind" and dst.dtype.kind in _SAME_KIND_FOR[type(src)]:
            pass  # a Python number of a kind dst holds: NEP 50 keeps dst's dtype
        elif casting != "unsafe" and not _C._can_cast(result_type(dst.dtype, src), dst.dtype, casting):
            raise TypeError(f"Cannot cast scalar from dtype('{result_type(dst.dtype, src)}') to "
                            f"dtype('{dst.dtype}') according to the rule '{casting}'")
        scalar = True
    elif np.isscalar(src) and not isinstance(src, (str, bytes)):
        # a Python or NumPy scalar: NumPy 2's promotion decides, and setitem
        # raises OverflowError for a Python int out of dst's range
        # Python int, float and complex are weak (NEP 50); bool and NumPy scalars are not
        weak = isinstance(src, (int, float, complex)) and not isinstance(src, (bool, np.generic))
        from_dtype = result_type(dst.dtype, src) if weak else asarray(src).dtype
        if not can_cast(from_dtype, dst.dtype, casting):
            raise TypeError(f"Cannot cast scalar from dtype('{from_dtype}') to "
                            f"dtype('{dst.dtype}') according to the rule '{casting}'")
        scalar = True
    else:
        value = asarray(src, device=dst.device)
        if not _C._can_cast(value.dtype, dst.dtype, casting):
            raise TypeError(f"Cannot cast array data from dtype('{value.dtype}') to "
                            f"dtype('{dst.dtype}') according to the rule '{casting}'")
        src_shape = value.shape
        scalar = False
    if scalar:
        value, src_shape = src, ()
        if isinstance(src, (complex, np.complexfloating)) and not dst.dtype.is_complex:  # only 'unsafe'
            warnings.warn("Casting complex values to real discards the imaginary part",
                          np.exceptions.ComplexWarning, stacklevel=2)
            value = src.real
        if casting == "unsafe" and dst.dtype.kind in "iub" and isinstance(value, (float, np.floating)):
            # an array's C cast, as NumPy's (-1.5 into uint8 is 255); setitem's int() rule refuses it
            value, scalar = asarray(value, dtype=_C.float64, device=dst.device), False
    if where is True:
        if not scalar and not dst.shape and value.size != 1:
            _check_broadcasts(value.shape, dst.shape, "input array")  # NumPy's copyto words, not setitem's
        dst[...] = value
        return
    if (scalar and casting == "same_kind" and type(where) is type(dst) and where.dtype is _C.bool
            and where.shape == dst.shape and where.device == dst.device and not dst.is_cuda):
        # a mask of dst's shape and one value on the CPU: NumPy's boolean assignment, in half the
        # time (on a GPU, the where kernel below needs no count of the mask's elements).  Only
        # same_kind: it stores a float into an integer element by int()'s rules, the where kernel
        # (and NumPy's copyto) unsafely, which 'unsafe' asks for
        dst[where] = value
        return
    # lists and scalars are read as bool, as NumPy does
    mask = _bool_mask(where if isinstance(where, (TensorBase, np.ndarray)) else np.asarray(where, dtype=bool),
                      dst.device)
    _check_broadcasts(mask.shape, dst.shape, "where mask")
    if src_shape != () or isinstance(value, TensorBase):
        extra = len(src_shape) - dst.ndim  # NumPy drops a source's leading length-1 axes
        if extra > 0 and all(n == 1 for n in src_shape[:extra]):
            value = value.reshape(src_shape[extra:])
        _check_broadcasts(value.shape, dst.shape, "input array")
        value = value.astype(dst.dtype)  # a copy: dst may overlap src
    # the core's where, written into dst (its own input, element by element)
    _C._ufunc(_WHERE, mask, value, dst, out=dst, casting="unsafe")


def _check_broadcasts(shape, to, what):
    """NumPy's copyto error for a source or mask that does not broadcast to dst."""
    if shape != to and (len(shape) > len(to) or
                        any(s not in (1, t) for s, t in zip(reversed(shape), reversed(to)))):
        raise ValueError(f"could not broadcast {what} from shape {_np_shape(shape)} into shape "
                         f"{_np_shape(to)}")


_WEAK_TYPES = (int, float, complex)
# the dtype kinds a Python number keeps under NEP 50 (result_type(dst, number) == dst)
_SAME_KIND_FOR = {int: "iufc", float: "fc", complex: "c"}
_WHERE = _C.OPS["where"]


# ---- floating-point error settings (Note [Floating-point error settings]) ----
def geterr():
    """The floating-point error settings (kept for NumPy code; devtensor never raises)."""
    return dict(_err.get())


def seterr(all=None, divide=None, over=None, under=None, invalid=None):
    """Set the floating-point error settings; returns the old ones."""
    old = geterr()
    _err.set(_settings(old, all, divide, over, under, invalid))
    return old


def _settings(old, all, divide, over, under, invalid):
    """old updated by seterr's arguments, checked."""
    new = dict(old)
    for kind, mode in (("divide", divide), ("over", over), ("under", under),
                       ("invalid", invalid)):
        mode = all if mode is None else mode
        if mode is not None:
            if mode not in _ERR_MODES:
                raise ValueError(f"invalid error mode {mode!r} for {kind}: one of "
                                 f"{', '.join(_ERR_MODES)}")
            new[kind] = mode
    return new


class errstate(contextlib.ContextDecorator):
    """with errstate(divide='ignore'): ... (also a decorator): the settings
    within the block, restored after it.  As NumPy 2's: the settings are the
    thread's (and asyncio task's), an errstate object is entered once (a
    decorator makes one per call)."""

    def __init__(self, *, call=None, all=None, divide=None, over=None, under=None,
                 invalid=None):
        self.call = call
        self.kwargs = dict(all=all, divide=divide, over=over, under=under, invalid=invalid)
        self._token = None

    def _recreate_cm(self):  # the decorator's: a fresh errstate for each call
        return errstate(call=self.call, **self.kwargs)

    def __enter__(self):
        if self._token is not None:
            raise TypeError("Cannot enter `errstate` twice.")
        self._token = _err.set(_settings(geterr(), **self.kwargs))
        return self

    def __exit__(self, *exc):
        _err.reset(self._token)
        return False


# ---- print options (used by devtensor/_printing.py) ----
# in a context variable, as NumPy's: a thread (or asyncio task) that sets
# them, or opens `with printoptions(...)`, changes no other's
_print_options = contextvars.ContextVar("devtensor print options", default=dict(np.get_printoptions()))


def get_printoptions():
    """The options tensors are printed with (NumPy's names and defaults)."""
    return dict(_print_options.get())


_UNSET = object()  # set_printoptions' sci_mode not given (None given means automatic)
_PROFILES = {  # PyTorch's set_printoptions(profile=); 'default' is devtensor's default, NumPy's
    "default": dict(np.get_printoptions()),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(threshold=sys.maxsize),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     suppress=None, nanstr=None, infstr=None, formatter=None, sign=None,
                     floatmode=None, *, legacy=None, override_repr=None, profile=None, sci_mode=_UNSET):
    """NumPy's set_printoptions, for tensors (NumPy's own arrays keep theirs);
    override_repr, NumPy's hook for its arrays' repr, is kept and handed back
    (set_printoptions(**get_printoptions()) restores), tensors print their way.
    PyTorch's keywords too: profile ('default': NumPy's defaults, 'short',
    'full': no summarising), applied first, and sci_mode (False: fixed
    point, NumPy's suppress; True: every float in scientific notation;
    None, given: chosen per tensor, NumPy's default)."""
    given = dict(precision=precision, threshold=threshold, edgeitems=edgeitems,
                 linewidth=linewidth, suppress=suppress, nanstr=nanstr, infstr=infstr,
                 formatter=formatter, sign=sign, floatmode=floatmode, legacy=legacy,
                 override_repr=override_repr)
    new = dict(_print_options.get())
    if profile is not None:
        if profile not in _PROFILES:
            raise ValueError(f"profile must be 'default', 'short' or 'full', got {profile!r}")
        new.update(_PROFILES[profile])
    if sci_mode is not _UNSET and suppress is None:
        given["suppress"] = sci_mode is False
    if sci_mode is True and formatter is None:
        given["formatter"] = {"float_kind": _scientific}
    new.update({k: v for k, v in given.items() if v is not None})
    if given["formatter"] is None:  # NumPy's rule: a call without a formatter removes it (sci_mode's too)
        new["formatter"] = None
    with np.printoptions(**_numpy_form(new)):  # NumPy validates every value
        checked = dict(np.get_printoptions())
    _print_options.set(checked)


def _scientific(x):
    """A float in scientific notation at the current precision (sci_mode=True)."""
    return f"{x:.{_print_options.get()['precision']}e}"


def _numpy_form(options):
    return {k: v for k, v in options.items() if k in np.get_printoptions()}


@contextlib.contextmanager
def printoptions(*args, **kwargs):
    """with printoptions(precision=3): ... prints tensors with those options."""
    token = _print_options.set(_print_options.get())
    try:
        set_printoptions(*args, **kwargs)
        yield get_printoptions()
    finally:
        _print_options.reset(token)


def active_printoptions():
    """NumPy's printoptions context for the current tensor options."""
    return np.printoptions(**_numpy_form(_print_options.get()))


__all__ = ["isclose", "allclose", "array_equal", "array_equiv", "isscalar", "ndim", "shape",
           "size", "isfortran", "min_scalar_type", "iterable", "copyto", "geterr", "seterr", "errstate",
           "get_printoptions", "set_printoptions", "printoptions"]
