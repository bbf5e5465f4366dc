"""Elementwise functions: every one of the array API standard (2025.12) under
its standard name, with NumPy's names and aliases beside them.

Each is a devtensor.ufunc object (Note [ufunc objects] in
csrc/python/ufunc_type.c) over devtensor._C._ufunc, which broadcasts,
promotes (NEP 50), honours out=, dtype= and casting=, and runs the op on the
device of its tensor operands; plain calls reach the core without Python.  Python numbers and NumPy arrays are accepted where
NumPy accepts them; with no tensor at all the first input becomes one.
"""
import builtins
import math
import operator
import re
import types

import numpy as np

from . import _C
from ._C import TensorBase
from ._operands import _two_devices, numpy_call, numpy_views
from ._index_functions import nonzero as _nonzero  # where(condition); imports no ufunc module

_ufunc = _C._ufunc
_OPS = _C.OPS


_PYTHON_NUMBERS = (int, float, complex, builtins.bool)


def _first_tensor(args):
    """NumPy's functions accept plain data: nested sequences become tensors on
    the device of the tensor operands; with no tensor at all, every array
    and sequence becomes one on the default device (all of them: an array
    left beside a CUDA tensor would be refused), or else the first operand."""
    tensor = False
    for a in args:  # the common call first: tensors and scalars, nothing to convert
        if isinstance(a, (list, tuple)):
            break
        tensor = tensor or isinstance(a, TensorBase)
    else:
        if tensor:
            return args
        if all(type(a) in _PYTHON_NUMBERS for a in args):  # dt.sqrt(2.0): the first a 0-d tensor, the rest weak
            return (_C.asarray(args[0]),) + args[1:]
    from ._creation import asarray
    device = next((a.device for a in args if isinstance(a, TensorBase)), None)
    data = (list, tuple) if device is not None else (list, tuple, np.ndarray)
    args = tuple(asarray(a, device=device) if isinstance(a, data) else a for a in args)
    if any(isinstance(a, TensorBase) for a in args):
        return args
    # scalars only: the first that is not a Python number (NEP 50's weak ones) becomes the tensor
    i = next((k for k, a in enumerate(args) if type(a) not in _PYTHON_NUMBERS), 0)
    return args[:i] + (asarray(args[i]),) + args[i + 1:]


# Note [Operands that override ufuncs]
# NumPy's ufuncs hand a call to an operand whose type defines
# __array_ufunc__ (NEP 13): np.sin(dask_array) is a Dask array.  devtensor's
# ufuncs do the same for operands that are neither tensors, NumPy arrays nor
# Python data, so that `import devtensor as np` code keeps Dask arrays (and
# other array containers) lazy: dt.sin(dask_array) is Dask's
# elemwise(dt.sin, ...), whose chunks then call dt.sin on tensors.  Only the
# Python path checks; plain tensor calls never get here.
_PLAIN = (TensorBase, int, float, complex, builtins.bool, list, tuple)


def _override(ufunc_name, args, kwargs):
    """The result of a foreign operand's __array_ufunc__, or NotImplemented."""
    for a in args:
        if isinstance(a, _PLAIN) or isinstance(a, np.ndarray) or isinstance(a, np.generic):
            continue
        handler = getattr(type(a), "__array_ufunc__", None)
        if handler is None:
            continue
        kwargs = {k: v for k, v in kwargs.items() if v is not None}
        if "out" in kwargs:
            kwargs["out"] = (kwargs["out"],)
        r = handler(a, _UFUNCS[ufunc_name], "__call__", *args, **kwargs)
        if r is not NotImplemented:
            return r
    return NotImplemented


def _masked(op, inputs, out, where, dtype, casting):
    """A ufunc call with where= (NumPy's): out keeps its values where the
    mask is False; without out those elements are undefined, as NumPy warns.
    The result is computed whole into a tensor of out's dtype (the core
    checks the cast and the shapes), then taken where the mask holds by the
    core's where, written into out (about 0.9 us a call at 16 elements).
    The mask goes to the result's device (an input may be a 0-d CPU tensor)."""
    if out is None:
        import warnings
        from ._manipulation import broadcast_shapes
        from ._views import broadcast_to
        r = _ufunc(op, *inputs, dtype=dtype, casting=casting)
        mask = _bool_mask(where, r.device)
        warnings.warn("'where' used without 'out', expect uninitialized memory in output. If this is "
                      "intentional, use out=None.", UserWarning, stacklevel=3)
        return broadcast_to(r, broadcast_shapes(r.shape, mask.shape)).copy()
    target = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    if not isinstance(target, TensorBase):
        raise TypeError("return arrays must be of ArrayType")
    mask = _bool_mask(where, target.device)
    r = _ufunc(op, *inputs, out=_C.empty(target.shape, dtype=target.dtype, device=target.device),
               dtype=dtype, casting=casting)
    return _ufunc(_OPS["where"], mask, r, target, out=target)


def _bool_mask(where, device):
    if isinstance(where, TensorBase) and where.ndim and where.device != device:
        raise _two_devices(device, where.device)  # a 0-d one goes as a value
    mask = _C.asarray(where, device=device)
    if mask.dtype != _C.bool:
        raise TypeError(f"Cannot cast array data from dtype('{mask.dtype}') to dtype('bool') according "
                        "to the rule 'safe'")
    return mask


def _make(numpy_name, public_name):
    op = _OPS[numpy_name]
    nin = 2 if numpy_name not in _UNARY else 1

    if nin == 1:
        def fn(x, /, out=None, *, where=True, dtype=None, casting="same_kind", order="K", subok=True):
            if not isinstance(x, TensorBase):
                r = _override(numpy_name, (x,), {"out": out, "dtype": dtype})
                if r is not NotImplemented:
                    return r
                (x,) = _first_tensor((x,))
            if order != "K" or subok is not True:
                return _laid_out(fn, (x,), dict(out=out, where=where, dtype=dtype, casting=casting), order, subok)
            if where is not True:
                return _masked(op, (x,), out, where, dtype, casting)
            return _ufunc(op, x, out=out, dtype=dtype, casting=casting)
    else:
        def fn(x1, x2, /, out=None, *, where=True, dtype=None, casting="same_kind", order="K", subok=True):
            if not (isinstance(x1, TensorBase) and isinstance(x2, TensorBase)):
                r = _override(numpy_name, (x1, x2), {"out": out, "dtype": dtype})
                if r is not NotImplemented:
                    return r
                x1, x2 = _first_tensor((x1, x2))
            if order != "K" or subok is not True:
                return _laid_out(fn, (x1, x2), dict(out=out, where=where, dtype=dtype, casting=casting), order,
                                 subok)
            if where is not True:
                return _masked(op, (x1, x2), out, where, dtype, casting)
            return _ufunc(op, x1, x2, out=out, dtype=dtype, casting=casting)
    if numpy_name == "angle":  # NumPy's angle is a function: angle(z, deg=False)
        ufunc_call = fn

        def fn(z, deg=False, *, out=None, where=True, dtype=None, casting="same_kind"):
            a = ufunc_call(z, out=out, where=where, dtype=dtype, casting=casting)
            return _ufunc(_OPS["multiply"], a, 180 / math.pi, out=a if out is not None else None) if deg else a
    if numpy_name in ("add", "subtract"):  # PyTorch's add(input, other, alpha=): input + alpha * other
        plain = fn

        def fn(x1, x2, /, out=None, *, alpha=1, **kwargs):
            if alpha != 1:
                from ._torch_methods import _scaled
                x2 = _scaled(x1, x2, alpha)
            return plain(x1, x2, out, **kwargs)
    fn.__name__ = fn.__qualname__ = public_name
    fn.__doc__ = (f"{public_name}(...): NumPy's {numpy_name}, elementwise, on the operands' "
                  "device.\n\nKeywords: out= (a tensor written in place), where= (a bool mask: out "
                  "keeps its values where it is False), dtype= (the loop's dtype), casting= (NumPy's "
                  "casting rule, default 'same_kind'), order= (the new result's layout: 'K' as the "
                  "inputs, 'C', 'F', or 'A'), subok= (accepted: results are tensors).")
    return fn


def _laid_out(fn, inputs, kwargs, order, subok):
    """fn(*inputs, **kwargs) with NumPy's order= and subok= checked; a new
    result laid out in order ('A': F where every tensor input is F-contiguous
    and not C-contiguous, else C); out= is written as it is laid out."""
    if not isinstance(subok, builtins.bool):
        raise TypeError("'subok' must be a boolean")
    if order is None:
        order = "K"
    if not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    if order.upper() not in ("K", "A", "C", "F"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    order = order.upper()
    r = fn(*inputs, **kwargs)
    if kwargs["out"] is not None or order == "K":
        return r
    if order == "A":
        tensors = [x for x in inputs if isinstance(x, TensorBase)]
        order = "F" if tensors and all(x.flags.f_contiguous and not x.flags.c_contiguous for x in tensors) else "C"
    from ._manipulation import ascontiguousarray, asfortranarray
    return ascontiguousarray(r) if order == "C" else asfortranarray(r)


_UNARY = {name for name, op in _OPS.items() if name not in {
    "add", "subtract", "multiply", "divide", "equal", "not_equal", "less", "less_equal",
    "greater", "greater_equal", "floor_divide", "remainder", "power", "maximum", "minimum",
    "arctan2", "hypot", "copysign", "nextafter", "logaddexp", "bitwise_and", "bitwise_or",
    "bitwise_xor", "left_shift", "right_shift", "logical_and", "logical_or", "logical_xor",
    "where", "fmod", "fmax", "fmin", "gcd", "lcm", "heaviside", "logaddexp2"}}

# public name -> NumPy's name of the op
# ldexp: _bits.py; real and imag: _numeric.py (NumPy's are functions returning views, not ufuncs)
_NAMES = {name: name for name in _OPS if name not in ("where", "ldexp", "real", "imag")}
_NAMES.update({
    # array API names
    "abs": "absolute", "acos": "arccos", "acosh": "arccosh", "asin": "arcsin",
    "asinh": "arcsinh", "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh",
    "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
    "bitwise_invert": "invert", "conj": "conjugate", "pow": "power",
    # NumPy's aliases
    "true_divide": "divide", "mod": "remainder", "bitwise_not": "invert",
    "radians": "deg2rad", "degrees": "rad2deg",
})

__all__ = sorted(_NAMES) + ["where", "clip", "round", "around", "divmod", "modf", "float_power"]

# One ufunc object per NumPy op, its aliases naming the same object (as
# np.abs is np.absolute); each calls the core directly for plain calls and
# its Python function for the rest (Note [ufunc objects] in
# csrc/python/ufunc_type.c).
_UFUNCS = {numpy: _C.ufunc(_OPS[numpy], numpy, _make(numpy, numpy)) for numpy in set(_NAMES.values())}
for _public, _numpy in _NAMES.items():
    globals()[_public] = _UFUNCS[_numpy]
from . import _ufunc_methods  # noqa: E402  (reduce, accumulate, outer, at, reduceat)
_ufunc_methods.install(_UFUNCS.values())


def where(condition, x=None, y=None, /):
    """Elements of x where condition is true, else of y (broadcast, promoted);
    with the condition alone, its non-zero elements' indices (nonzero)."""
    if x is None and y is None:
        return _nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    condition, x, y = _first_tensor((condition, x, y))
    return _ufunc(_OPS["where"], condition, x, y)


def _clamp_bound(x, bound):
    """NumPy 2's clip keeps x's dtype: a Python int outside an integer dtype's
    range is clamped to it instead of raising."""
    if isinstance(bound, int) and not isinstance(bound, bool) and x.dtype.kind in "iu":
        from ._dtype_api import iinfo
        info = iinfo(x.dtype)
        return min(max(bound, int(info.min)), int(info.max))
    return bound


_UNSET = object()


def clip(x, /, min=None, max=None, out=None, *, a_min=_UNSET, a_max=_UNSET):
    """x limited to [min, max] elementwise (NaN propagates, as in NumPy): the
    array API's signature (None: no bound), out third as NumPy's, and
    NumPy's older names a_min=/a_max= for a bound not given otherwise."""
    if (a_min is not _UNSET and min is not None) or (a_max is not _UNSET and max is not None):
        raise ValueError("Passing `min` or `max` keyword argument when `a_min` and `a_max` are "
                         "provided is forbidden.")
    min = a_min if a_min is not _UNSET else min
    max = a_max if a_max is not _UNSET else max
    if not isinstance(x, TensorBase):
        (x,) = _first_tensor((x,))
    if min is None and max is None:
        if x.dtype.kind == "b":
            raise TypeError("clip() of a bool tensor needs a bound (NumPy has no bool loop)")
        return _ufunc(_OPS["positive"], x, out=out)
    r = x
    try:
        if min is not None:
            r = _ufunc(_OPS["maximum"], r, _clamp_bound(x, min), out=out if max is None else None)
        if max is not None:
            r = _ufunc(_OPS["minimum"], r, _clamp_bound(x, max), out=out)
    except TypeError as e:  # a cast refused: NumPy's message names clip, given both bounds
        if min is not None and max is not None and str(e).startswith("Cannot cast ufunc"):
            raise TypeError(re.sub(r"^Cannot cast ufunc '(maximum|minimum)'", "Cannot cast ufunc 'clip'",
                                   str(e))) from None
        raise
    except ValueError as e:  # NumPy's clip broadcasts its three operands at once and names them all
        if min is not None and max is not None and str(e).startswith("operands could not be broadcast"):
            shapes = " ".join(_shape_text(v.shape if isinstance(v, TensorBase) else np.shape(v))
                              for v in (x, min, max))
            raise ValueError(f"operands could not be broadcast together with shapes {shapes} ") from None
        raise
    return r


def _shape_text(shape):
    """A shape as NumPy's broadcast messages write it: (3,4), (3,), ()."""
    return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _power_of_ten(n):
    """10.0 ** n for n >= 0, inf where that overflows (round(x, 400) is then NaN,
    as NumPy's)."""
    return 10.0 ** n if n <= 308 else math.inf


def round(x, /, decimals=0, out=None):
    """Round to the given number of decimals, halves to even (NumPy's round:
    complex parts separately; integers to negative decimals through float64)."""
    if not isinstance(x, TensorBase):
        (x,) = _first_tensor((x,))
    decimals = operator.index(decimals)  # round(x, 1.5) is a TypeError, as NumPy's
    kind = x.dtype.kind
    if kind == "b" and decimals != 0:
        raise TypeError("round() of a bool tensor to non-zero decimals is not supported")
    if kind == "c":
        from ._creation import empty
        result = empty(x.shape, dtype=x.dtype, device=x.device) if out is None else out
        result.real._copy_from(round(x.real, decimals))
        result.imag._copy_from(round(x.imag, decimals))
        return result
    if kind in "iu":
        if decimals >= 0:
            return x.copy() if out is None else _ufunc(_OPS["positive"], x, out=out)
        scale = _power_of_ten(-decimals)
        y = _ufunc(_OPS["rint"], _ufunc(_OPS["divide"], x, scale))
        y = _ufunc(_OPS["multiply"], y, scale)
        return y.astype(x.dtype) if out is None else _ufunc(_OPS["positive"], y, out=out,
                                                            casting="unsafe")
    if decimals == 0:
        return _ufunc(_OPS["rint"], x, out=out)
    # NumPy's order of operations, rounding in x's dtype at each step
    first, then = ("multiply", "divide") if decimals > 0 else ("divide", "multiply")
    scale = _power_of_ten(builtins.abs(decimals))
    y = _ufunc(_OPS["rint"], _ufunc(_OPS[first], x, scale))
    return _ufunc(_OPS[then], y, scale, out=out)


around = round


# NumPy's two-output ufuncs and float_power, as functions of the ufuncs above
# (so they run on every device): the same values as NumPy's loops.

def two_outputs(inputs, out):
    """The outputs (out1, out2) of a two-output ufunc, each None or a tensor
    checked as NumPy checks it, before anything is computed or written, so
    that a refused call writes neither (Note [Both outputs or neither]):
    a tuple of two, tensors, writeable, on the inputs' device, and of the
    shape the inputs and outputs broadcast to."""
    if not isinstance(out, tuple):
        raise TypeError("'out' must be a tuple of arrays")
    if len(out) != 2:
        raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    given = [o for o in out if o is not None]
    if not given:
        return out
    if any(not isinstance(o, TensorBase) for o in given):
        raise TypeError("return arrays must be of ArrayType")
    shapes = [getattr(x, "shape", ()) for x in inputs] + [o.shape for o in given]
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        listed = " ".join(f"({','.join(map(str, s))}{',' if len(s) == 1 else ''})" for s in shapes)
        raise ValueError(f"operands could not be broadcast together with shapes {listed} ") from None
    devices = {x.device for x in inputs if isinstance(x, TensorBase) and not (x.ndim == 0 and x.device.type == "cpu")}
    for o in given:
        if o.shape != shape:
            raise ValueError(f"non-broadcastable output operand with shape {o.shape} doesn't match the "
                             f"broadcast shape {shape}")
        for d in devices:
            if d != o.device:
                raise _two_devices(d, o.device)
        if not o.flags.writeable:
            raise ValueError("output array is read-only")
    return out


def into_outputs(name, results, out):
    """results written into the checked outputs (two_outputs), after a
    same_kind check of both casts: both written, or neither."""
    for i, (r, o) in enumerate(zip(results, out)):
        if o is not None and not _C._can_cast(r.dtype, o.dtype, "same_kind"):
            raise TypeError(f"Cannot cast ufunc '{name}' output {i} from dtype('{r.dtype}') to "
                            f"dtype('{o.dtype}') with casting rule 'same_kind'")
    written = []
    for r, o in zip(results, out):
        if o is not None:
            o[...] = r
        written.append(r if o is None else o)
    return tuple(written)


# Note [Both outputs or neither]
# divmod, modf and frexp compute both results into new tensors, then write
# them into out= after both outputs were checked (two_outputs, into_outputs):
# a refused second output leaves the first untouched, as NumPy's ufuncs do.

def divmod(x1, x2, /, out=(None, None)):
    """NumPy's divmod: (floor_divide(x1, x2), remainder(x1, x2)), its two loops' values."""
    out = two_outputs((x1, x2), out)
    x1, x2 = _first_tensor((x1, x2))  # (two devtensor loops beat NumPy's divmod on small CPU tensors)
    results = (_ufunc(_OPS["floor_divide"], x1, x2), _ufunc(_OPS["remainder"], x1, x2))
    return into_outputs("divmod", results, out)


_NO_LOOP = ("ufunc '{}' not supported for the input types, and the inputs could not be safely "
            "coerced to any supported types according to the casting rule ''safe''")


def float_operand(x, name):
    """x as a tensor of NumPy's float loop dtype for it ('e', 'f', 'd' loops):
    floats keep theirs, bool and 1-byte integers give float16, 2-byte
    float32, wider float64; complex is NumPy's TypeError naming the ufunc."""
    if not isinstance(x, TensorBase):
        (x,) = _first_tensor((x,))
    kind = x.dtype.kind
    if kind == "c":
        raise TypeError(_NO_LOOP.format(name))
    if kind in "biu":
        size = x.dtype.itemsize
        return x.astype(_C.float16 if size == 1 else _C.float32 if size == 2 else _C.float64)
    return x


def modf(x, /, out=(None, None)):
    """NumPy's modf: (fractional part, integral part), both with x's sign
    (modf(-2.0) is (-0.0, -2.0); modf(inf) is (0.0, inf)); integers in float64."""
    out = two_outputs((x,), out)
    views = numpy_views(x) if out[0] is None and out[1] is None else None
    if views is not None:  # Note [NumPy's loops for CPU tensors] in _operands.py
        return numpy_call(np.modf, views)
    x = float_operand(x, "modf")
    whole = _ufunc(_OPS["trunc"], x)
    frac = _ufunc(_OPS["subtract"], x, whole)
    frac = where(_ufunc(_OPS["isinf"], x), 0.0, frac).astype(x.dtype)
    frac = _ufunc(_OPS["copysign"], frac, x)
    return into_outputs("modf", (frac, whole), out)


def float_power(x1, x2, /, out=None):
    """NumPy's float_power: power computed in float64 (complex128 for
    complex operands), whatever the inputs' dtypes."""
    x1, x2 = _first_tensor((x1, x2))
    complex_ = any(isinstance(v, complex) or (isinstance(v, TensorBase) and v.dtype.kind == "c")
                   for v in (x1, x2))
    target = _C.complex128 if complex_ else _C.float64
    x1 = x1.astype(target) if isinstance(x1, TensorBase) else x1
    x2 = x2.astype(target) if isinstance(x2, TensorBase) else x2
    return _ufunc(_OPS["power"], x1, x2, out=out)


class FunctionUfunc:
    """NumPy's ufuncs that devtensor computes as functions of its core ones
    (divmod, modf, float_power here; ldexp, frexp and spacing in _bits.py):
    NumPy's attributes nin, nout, nargs, identity and __name__, outer for two
    inputs (the function of a[..., None, ...] and b), and reduce,
    accumulate, reduceat and at (_ufunc_methods.py's, which call the
    function) for one output, on the operands' device."""

    def __init__(self, fn, nin, nout):
        import functools
        functools.update_wrapper(self, fn)
        self._fn, self.nin, self.nout, self.nargs, self.identity = fn, nin, nout, nin + nout, None

    def __call__(self, *args, **kwargs):
        if len(args) > self.nin:  # NumPy's outputs by position: modf(x, frac, whole)
            if len(args) > self.nargs:
                raise TypeError(f"{self.__name__}() takes from {self.nin} to {self.nargs} positional "
                                f"arguments but {len(args)} were given")
            if "out" in kwargs:
                raise TypeError("cannot specify 'out' as both a positional and keyword argument")
            outs = args[self.nin:] + (None,) * (self.nargs - len(args))
            args, kwargs = args[:self.nin], dict(kwargs, out=outs if self.nout > 1 else outs[0])
        return self._fn(*args, **kwargs)

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def __getattr__(self, name):
        if name == "outer" and self.nin == 2:
            return self._outer
        if name in ("reduce", "accumulate", "reduceat", "at"):
            return types.MethodType(_function_ufunc_method, (self, name))
        raise AttributeError(f"'ufunc' object {self.__name__!r} has no attribute {name!r}")

    def _outer(self, a, b, /, **kwargs):
        from ._operands import as_tensor, operands_device
        device = operands_device(a, b)
        a, b = as_tensor(a, device), as_tensor(b, device)
        return self._fn(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)


def _function_ufunc_method(bound, *args, **kwargs):
    """ufunc.reduce(...) and the like of a FunctionUfunc: NumPy's ValueError for
    two outputs, else _ufunc_methods' method with the function as the ufunc."""
    ufunc, name = bound
    if ufunc.nout != 1:
        raise ValueError("Only single output ufuncs supported at this time" if name == "at" else
                         f"{name} only supported for functions returning a single value")
    _ufunc_methods.know(ufunc)
    return getattr(_ufunc_methods, name)(ufunc, *args, **kwargs)


divmod = FunctionUfunc(divmod, 2, 2)
modf = FunctionUfunc(modf, 1, 2)
float_power = FunctionUfunc(float_power, 2, 1)
