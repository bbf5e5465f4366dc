"""Elementwise functions: every one of the array API standard (2025.12) under
its standard name, with NumPy's names and aliases beside them.

Each is a thin wrapper over devtensor._C._ufunc, which broadcasts, promotes
(NEP 50), honours out=, dtype= and casting=, and runs the op on the device
of its tensor operands.  Python numbers and NumPy arrays are accepted where
NumPy accepts them; with no tensor at all the first input becomes one.
"""
from . import _C
from ._C import TensorBase

_ufunc = _C._ufunc
_OPS = _C.OPS


def _first_tensor(args):
    """Make sure one operand is a tensor (NumPy's functions accept plain data)."""
    if any(isinstance(a, TensorBase) for a in args):
        return args
    from ._creation import asarray
    return (asarray(args[0]),) + tuple(args[1:])


def _make(numpy_name, public_name):
    op = _OPS[numpy_name]
    nin = 2 if numpy_name not in _UNARY else 1

    if nin == 1:
        def fn(x, /, out=None, *, dtype=None, casting="same_kind"):
            if not isinstance(x, TensorBase):
                (x,) = _first_tensor((x,))
            return _ufunc(op, x, out=out, dtype=dtype, casting=casting)
    else:
        def fn(x1, x2, /, out=None, *, dtype=None, casting="same_kind"):
            if not isinstance(x1, TensorBase) and not isinstance(x2, TensorBase):
                x1, x2 = _first_tensor((x1, x2))
            return _ufunc(op, x1, x2, out=out, dtype=dtype, casting=casting)
    fn.__name__ = fn.__qualname__ = public_name
    fn.__doc__ = (f"{public_name}(...): NumPy's {numpy_name}, elementwise, on the operands' "
                  "device.\n\nKeywords: out= (a tensor written in place), dtype= (the loop's "
                  "dtype), casting= (NumPy's casting rule, default 'same_kind').")
    return fn


_UNARY = {name for name, op in _OPS.items() if name not in {
    "add", "subtract", "multiply", "divide", "equal", "not_equal", "less", "less_equal",
    "greater", "greater_equal", "floor_divide", "remainder", "power", "maximum", "minimum",
    "arctan2", "hypot", "copysign", "nextafter", "logaddexp", "bitwise_and", "bitwise_or",
    "bitwise_xor", "left_shift", "right_shift", "logical_and", "logical_or", "logical_xor",
    "where"}}

# public name -> NumPy's name of the op
_NAMES = {name: name for name in _OPS if name != "where"}
_NAMES.update({
    # array API names
    "abs": "absolute", "acos": "arccos", "acosh": "arccosh", "asin": "arcsin",
    "asinh": "arcsinh", "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh",
    "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
    "bitwise_invert": "invert", "conj": "conjugate", "pow": "power",
    # NumPy's aliases
    "true_divide": "divide", "mod": "remainder", "bitwise_not": "invert",
})

__all__ = sorted(_NAMES) + ["where", "clip", "round", "around"]

for _public, _numpy in _NAMES.items():
    globals()[_public] = _make(_numpy, _public)


def where(condition, x, y, /):
    """Elements of x where condition is true, else of y (broadcast, promoted)."""
    if not any(isinstance(a, TensorBase) for a in (condition, x, y)):
        from ._creation import asarray
        condition = asarray(condition)
    return _ufunc(_OPS["where"], condition, x, y)


def clip(x, /, min=None, max=None, out=None):
    """x limited to [min, max] elementwise (NaN propagates, as in NumPy)."""
    if not isinstance(x, TensorBase):
        (x,) = _first_tensor((x,))
    if min is None and max is None:
        return _ufunc(_OPS["positive"], x, out=out) if x.dtype.kind != "b" else x.copy()
    r = x
    if min is not None:
        r = _ufunc(_OPS["maximum"], r, min, out=out if max is None else None)
    if max is not None:
        r = _ufunc(_OPS["minimum"], r, max, out=out)
    return r


def round(x, /, decimals=0, out=None):
    """Round to the given number of decimals, halves to even (NumPy's round)."""
    if not isinstance(x, TensorBase):
        (x,) = _first_tensor((x,))
    if x.dtype.kind in "iu":
        if decimals >= 0:
            return x.copy() if out is None else _ufunc(_OPS["positive"], x, out=out)
        raise NotImplementedError("round() of integers to negative decimals")
    if decimals == 0:
        return _ufunc(_OPS["rint"], x, out=out)
    scale = 10.0 ** decimals
    y = _ufunc(_OPS["rint"], _ufunc(_OPS["multiply"], x, scale))
    return _ufunc(_OPS["divide"], y, scale, out=out)


around = round
