"""Reductions with NumPy's arguments and results: sum, prod, min/amin,
max/amax, argmin, argmax, any, all, mean, var, std, ptp, count_nonzero, on
every device.

The work is the core's dt_reduce (csrc/core/reduce.c, through
_C._reduce), one backend kernel per call; this module turns axis,
keepdims, dtype, out, initial and where into its form:

* axes are normalised with NumPy's errors (AxisError, "duplicate value in
  'axis'", TypeError for a bool); the core gets the reduced axes and an
  output of the kept shape, keepdims is a reshape of it;
* sum and prod run in NumPy's result dtype (int64 for small ints, uint64
  for small unsigned); dtype= that the kernels cannot reach directly casts
  the input first, as NumPy's loop would cast each element;
* where= (a bool mask) replaces masked elements with the identity (or
  `initial`, which min and max then need, as in NumPy); initial= is cast
  to the result dtype, as NumPy casts it, and folded in after;
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
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from . import _C
from . import _torch_keywords as _tk
from ._C import TensorBase
from ._operands import _two_devices

_OPS = {name: i for i, name in enumerate(_C.REDUCE_OPS)}
_SUM, _PROD, _MIN, _MAX, _ARGMIN, _ARGMAX, _ANY, _ALL = (_OPS[n] for n in (
    "sum", "prod", "min", "max", "argmin", "argmax", "any", "all"))
# Note [Plain reductions in C]: with no dtype, out, initial or where (and
# keepdims True or False), a tensor's reduction is made by _C._reduce_fast,
# which reads the axis itself (None when Python must: a bad axis, to raise
# NumPy's error).
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


def _index(axis, what=""):
    """axis as an int; NumPy refuses a bool ("an integer is required")."""
    if isinstance(axis, bool):
        raise TypeError("an integer is required" + what)
    return operator.index(axis)


def _axes(axis, ndim, ufunc=False):
    """The reduced axes, sorted, as NumPy normalises them.

    Note [Axis 0 of a 0-d tensor]
        A ufunc's reduce (sum, prod, min, max, any, all and what is built on
        them) takes axis 0 or -1 of a 0-d array as no axis, where mean, var
        and std refuse it (AxisError); argmin, argmax and the scans take a
        0-d array as 1-d. ufunc=True asks for the first rule.
    """
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, tuple):
        axes = [normalize_axis_index(_index(a), ndim) for a in axis]
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
        return tuple(sorted(axes))
    axis = _index(axis)
    if ufunc and ndim == 0 and axis in (0, -1):
        return ()
    return (normalize_axis_index(axis, ndim),)


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
    return _C._empty(tuple(shape), dtype, device)


def _check_output(out):
    """NumPy's error for an out= that is not a tensor or cannot be written."""
    if not isinstance(out, TensorBase):
        raise TypeError(f"return arrays must be of ArrayType, not {type(out).__name__}")
    if not out._writeable:
        raise ValueError("output array is read-only")


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
        raise _two_devices(res.device, out.device)
    _check_output(out)
    out._copy_from(res)
    return out


def _mask(where, device):
    """where= as a bool tensor on device: NumPy casts it safely, so a tensor or
    array that is not bool is a TypeError (a list or Python scalar is not)."""
    if isinstance(where, (TensorBase, np.ndarray)) and where.dtype != bool:
        raise TypeError(f"Cannot cast array data from dtype('{where.dtype}') to dtype('bool') "
                        f"according to the rule 'safe'")
    if isinstance(where, TensorBase) and where.ndim and where.device != device:
        raise _two_devices(device, where.device)  # a 0-d one goes as a value
    return (where if isinstance(where, TensorBase) else _tensor(np.asarray(where, dtype=bool))).to(device)


def _masked(x, where, fill):
    """x with the elements where `where` is False replaced by fill."""
    from ._ufuncs import where as _where
    res = _where(_mask(where, x.device), x, fill)
    if res.dtype != x.dtype:
        res = res.astype(x.dtype)
    return res


def _run(name, x, axis, keepdims=False, dtype=None, out=None, initial=None, where=True):
    x = _tensor(x)
    axes = _axes(axis, x.ndim, ufunc=True)
    rd = _result_dtype(name, x.dtype) if dtype is None else _C.dtype(dtype)
    if initial is not None and rd.kind in "biu":
        initial = rd.numpy_dtype.type(initial).item()  # NumPy's cast (int(2.5), its OverflowError)
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


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True, dim=None, keepdim=None):
    """NumPy's sum: int64 for bool and small ints (uint64 for small unsigned);
    floats accumulate wide (Note [Accumulating wide] in csrc/core/reduce_ops.h)."""
    if _tk.is_bool(dtype):  # x.sum(1, True): PyTorch's keepdim
        dtype, keepdim = None, _tk.positional("sum", dtype, keepdim)
    if dim is not None or keepdim is not None:  # Note [PyTorch's keywords]
        axis, keepdims = _tk.axis("sum", axis, dim), _tk.keep("sum", keepdims, keepdim)
    if dtype is None and out is None and (keepdims is False or keepdims is True) and initial is None and where is True:
        r = _fast(_SUM, a, axis, keepdims)
        if r is not None:
            return r
    return _run("sum", a, axis, keepdims, dtype, out, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True, dim=None,
         keepdim=None):
    if _tk.is_bool(dtype):  # x.prod(1, True): PyTorch's keepdim
        dtype, keepdim = None, _tk.positional("prod", dtype, keepdim)
    if dim is not None or keepdim is not None:  # Note [PyTorch's keywords]
        axis, keepdims = _tk.axis("prod", axis, dim), _tk.keep("prod", keepdims, keepdim)
    if dtype is None and out is None and (keepdims is False or keepdims is True) and initial is None and where is True:
        r = _fast(_PROD, a, axis, keepdims)
        if r is not None:
            return r
    return _run("prod", a, axis, keepdims, dtype, out, initial, where)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=True, dim=None, keepdim=None):
    """NumPy's max: NaN propagates; an empty reduction needs `initial`.  With
    PyTorch's dim= or keepdim=, PyTorch's (values, indices), and with a tensor
    as the second argument PyTorch's elementwise max (Note [PyTorch's
    keywords])."""
    if _tk.is_other_tensor(axis):
        from ._ufuncs import maximum
        return maximum(a, axis, out=out)
    if _tk.is_bool(out):  # x.max(1, True): PyTorch's keepdim, (values, indices)
        out, keepdim = None, _tk.positional("max", out, keepdim)
    if dim is not None or keepdim is not None:
        axis, dim = _tk.axis_as_dim(axis, dim, keepdim)
        keepdims = _tk.keep("max", keepdims, keepdim)
        if dim is not None:
            _tk.axis("max", axis, dim)
            return _tk.extreme(_tk.max_result, max, argmax, a, dim, keepdims, out, initial, where)
    if out is None and (keepdims is False or keepdims is True) and initial is None and where is True:
        r = _fast(_MAX, a, axis, keepdims)
        if r is not None:
            return r
    return _run("max", a, axis, keepdims, None, out, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=True, dim=None, keepdim=None):
    """NumPy's min: NaN propagates; an empty reduction needs `initial`.  With
    PyTorch's dim= or keepdim=, PyTorch's (values, indices), and with a tensor
    as the second argument PyTorch's elementwise min (Note [PyTorch's
    keywords])."""
    if _tk.is_other_tensor(axis):
        from ._ufuncs import minimum
        return minimum(a, axis, out=out)
    if _tk.is_bool(out):  # x.min(1, True): PyTorch's keepdim, (values, indices)
        out, keepdim = None, _tk.positional("min", out, keepdim)
    if dim is not None or keepdim is not None:
        axis, dim = _tk.axis_as_dim(axis, dim, keepdim)
        keepdims = _tk.keep("min", keepdims, keepdim)
        if dim is not None:
            _tk.axis("min", axis, dim)
            return _tk.extreme(_tk.min_result, min, argmin, a, dim, keepdims, out, initial, where)
    if out is None and (keepdims is False or keepdims is True) and initial is None and where is True:
        r = _fast(_MIN, a, axis, keepdims)
        if r is not None:
            return r
    return _run("min", a, axis, keepdims, None, out, initial, where)


def amax(a, axis=None, out=None, keepdims=False, initial=None, where=True, dim=None, keepdim=None):
    """NumPy's amax (max), PyTorch's amax with dim= and keepdim= (the values only)."""
    if _tk.is_bool(out):  # x.amax(1, True): PyTorch's keepdim
        out, keepdim = None, _tk.positional("amax", out, keepdim)
    if dim is not None or keepdim is not None:  # Note [PyTorch's keywords]
        axis, keepdims = _tk.axis("amax", axis, dim), _tk.keep("amax", keepdims, keepdim)
    if out is None and (keepdims is False or keepdims is True) and initial is None and where is True:
        r = _fast(_MAX, a, axis, keepdims)  # max's fast path here too: no second frame per call
        if r is not None:
            return r
    return _run("max", a, axis, keepdims, None, out, initial, where)


def amin(a, axis=None, out=None, keepdims=False, initial=None, where=True, dim=None, keepdim=None):
    """NumPy's amin (min), PyTorch's amin with dim= and keepdim= (the values only)."""
    if _tk.is_bool(out):  # x.amin(1, True): PyTorch's keepdim
        out, keepdim = None, _tk.positional("amin", out, keepdim)
    if dim is not None or keepdim is not None:  # Note [PyTorch's keywords]
        axis, keepdims = _tk.axis("amin", axis, dim), _tk.keep("amin", keepdims, keepdim)
    if out is None and (keepdims is False or keepdims is True) and initial is None and where is True:
        r = _fast(_MIN, a, axis, keepdims)  # min's fast path here too: no second frame per call
        if r is not None:
            return r
    return _run("min", a, axis, keepdims, None, out, initial, where)


def any(a, axis=None, out=None, keepdims=False, dim=None, keepdim=None, *, where=True):
    if _tk.is_bool(out):  # x.any(1, True): PyTorch's keepdim
        out, keepdim = None, _tk.positional("any", out, keepdim)
    if dim is not None or keepdim is not None:  # Note [PyTorch's keywords]
        axis, keepdims = _tk.axis("any", axis, dim), _tk.keep("any", keepdims, keepdim)
    if out is None and (keepdims is False or keepdims is True) and where is True:
        r = _fast(_ANY, a, axis, keepdims)
        if r is not None:
            return r
    return _run("any", a, axis, keepdims, None, out, None, where)


def all(a, axis=None, out=None, keepdims=False, dim=None, keepdim=None, *, where=True):
    if _tk.is_bool(out):  # x.all(1, True): PyTorch's keepdim
        out, keepdim = None, _tk.positional("all", out, keepdim)
    if dim is not None or keepdim is not None:  # Note [PyTorch's keywords]
        axis, keepdims = _tk.axis("all", axis, dim), _tk.keep("all", keepdims, keepdim)
    if out is None and (keepdims is False or keepdims is True) and where is True:
        r = _fast(_ALL, a, axis, keepdims)
        if r is not None:
            return r
    return _run("all", a, axis, keepdims, None, out, None, where)


def _arg(name, a, axis, out, keepdims):
    x = _tensor(a)
    if axis is None:
        axes = tuple(range(x.ndim))
    else:  # a 0-d tensor is 1-d here (Note [Axis 0 of a 0-d tensor])
        ax = normalize_axis_index(_index(axis, " for the axis"), x.ndim or 1)
        axes = (ax,) if x.ndim else ()
    if isinstance(out, TensorBase) and not _C._can_cast(out.dtype, _C.int64, "safe"):
        raise TypeError(f"Cannot cast array data from dtype('{out.dtype}') to dtype('int64') "
                        f"according to the rule 'safe'")
    res = _empty(_kept_shape(x.shape, axes, False), _C.int64, x.device)
    _C._reduce(_OPS[name], x, axes, res)
    if keepdims:
        res = res.reshape(_kept_shape(x.shape, axes, True))
    return _deliver(res, out, name)


def argmax(a, axis=None, out=None, dim=None, keepdim=None, *, keepdims=False):
    """NumPy's argmax: the first maximum (or first NaN), in C order when axis is None."""
    if _tk.is_bool(out):  # x.argmax(1, True): PyTorch's keepdim
        out, keepdim = None, _tk.positional("argmax", out, keepdim)
    if dim is not None or keepdim is not None:  # Note [PyTorch's keywords]
        axis, keepdims = _tk.axis("argmax", axis, dim), _tk.keep("argmax", keepdims, keepdim)
    if out is None and keepdims is False:
        r = _fast(_ARGMAX, a, axis)
        if r is not None:
            return r
    return _arg("argmax", a, axis, out, keepdims)


def argmin(a, axis=None, out=None, dim=None, keepdim=None, *, keepdims=False):
    if _tk.is_bool(out):  # x.argmin(1, True): PyTorch's keepdim
        out, keepdim = None, _tk.positional("argmin", out, keepdim)
    if dim is not None or keepdim is not None:  # Note [PyTorch's keywords]
        axis, keepdims = _tk.axis("argmin", axis, dim), _tk.keep("argmin", keepdims, keepdim)
    if out is None and keepdims is False:
        r = _fast(_ARGMIN, a, axis)
        if r is not None:
            return r
    return _arg("argmin", a, axis, out, keepdims)


def ptp(a, axis=None, out=None, keepdims=False):
    from ._ufuncs import subtract
    x = _tensor(a)
    return _deliver(subtract(max(x, axis, keepdims=keepdims), min(x, axis, keepdims=keepdims)), out, "ptp")


def count_nonzero(a, axis=None, dim=None, *, keepdims=False):
    """The number of non-zero elements (int64; a 0-d tensor for axis=None)."""
    if dim is not None:  # Note [PyTorch's keywords]
        axis = _tk.axis("count_nonzero", axis, dim)
    if keepdims is False or keepdims is True:
        r = _C._count_nonzero_fast(a, axis, keepdims)
        if r is not None:
            return r
    x = _tensor(a)
    return sum(x if x.dtype == _C.bool else x != 0, axis, keepdims=keepdims)


def _count(x, axes, where):
    """The number of elements reduced per output (a tensor when where= masks)."""
    if where is True:
        n = 1
        for d in axes:
            n *= x.shape[d]
        return n
    from ._views import broadcast_to
    return sum(broadcast_to(_mask(where, x.device), x.shape), tuple(axes), keepdims=True)


def _warn_if(n, bad, message):
    """NumPy's warning when a count n (an int, or a tensor under where=) is
    bad(n) for some slice: "Mean of empty slice", "Degrees of freedom <= 0".

    Note [Warnings of empty slices]
        NumPy's mean, var and std warn (RuntimeWarning) before dividing by a
        count of 0, or by n - ddof <= 0; the division's own "invalid value
        encountered in divide" is not given: devtensor's elementwise ops do
        not raise floating-point warnings.
    """
    if bad(n) if not isinstance(n, TensorBase) else builtins.bool(any(bad(n))):
        _warn(message, 4)


_REAL_OF = {_C.complex64: _C.float32, _C.complex128: _C.float64}


def _real_dtype(d):
    """The real dtype of the same precision (var and std of complex are real)."""
    return _REAL_OF.get(d, d)


def _mean_dtype(d, dtype):
    if dtype is not None:
        return _C.dtype(dtype)
    return _C.float64 if d.kind in "biu" else d


def mean(a, axis=None, dtype=None, out=None, keepdims=False, dim=None, keepdim=None, *, where=True):
    """NumPy's mean: float64 for integers; float16 summed in float32."""
    if _tk.is_bool(dtype):  # x.mean(1, True): PyTorch's keepdim
        dtype, keepdim = None, _tk.positional("mean", dtype, keepdim)
    if dim is not None or keepdim is not None:  # Note [PyTorch's keywords]
        axis, keepdims = _tk.axis("mean", axis, dim), _tk.keep("mean", keepdims, keepdim)
    if (dtype is None and out is None and (keepdims is False or keepdims is True) and where is True
            and isinstance(a, TensorBase) and a.dtype.kind in "fc" and a.dtype.itemsize > 2):
        total = _fast(_SUM, a, axis, keepdims)  # Note [Plain reductions in C]
        if total is not None:
            n = a.size // total.size if total.size else 1
            if not n:
                _warn("Mean of empty slice")
            if a.dtype == _C.complex64:  # NumPy divides by its intp count: in complex128, then casts
                return (total.astype(_C.complex128) / n).astype(_C.complex64)
            return total / n
    from ._ufuncs import true_divide
    x = _tensor(a)
    axes = _axes(axis, x.ndim)
    rd = _mean_dtype(x.dtype, dtype)
    work = _C.float32 if rd == _C.float16 else rd
    total = sum(x, axes, dtype=work, keepdims=True, where=where)
    n = _count(x, axes, where)
    _warn_if(n, lambda n: n == 0, "Mean of empty slice")
    if total.dtype == _C.complex64:  # as above: NumPy's complex64 / intp is a complex128 division
        total = total.astype(_C.complex128)
    res = true_divide(total, n).astype(rd, copy=False)
    if not keepdims:
        res = res.reshape(_kept_shape(x.shape, axes, False))
    return _deliver(res, out, "mean")


def _plain_var(a, axis, ddof):
    """Note [Plain variances]
    var and std of a float32 or float64 tensor over all of it or its first
    axis, with no other argument: the sum's result then broadcasts against
    the tensor as it is, so the general path's steps (sum, divide, subtract,
    square, sum, divide) run without its keepdims shapes, counts and dtype
    handling -- the same operations on the same values, so the same result.
    None when the count is at most ddof (the general path warns)."""
    total = _fast(_SUM, a, axis)
    if total is None:
        return None
    n = a.size // total.size if total.size else 0
    if n <= ddof or type(ddof) is not int:
        return None
    dev = a - total / n
    return _fast(_SUM, dev * dev, axis) / (n - ddof)


def var(a, axis=None, dtype=None, out=None, ddof=_tk.DDOF, keepdims=False, dim=None, keepdim=None,
        unbiased=None, *, where=True, mean=None, correction=None):
    """NumPy's var (ddof, or the array API's correction): the mean of
    |x - mean|**2 over n - ddof; inf or NaN, with NumPy's warning, when
    n - ddof <= 0. A dtype= is the result's, complex too, as NumPy's.
    PyTorch's dim=, keepdim= and unbiased= divide by n - 1 by default
    (Note [PyTorch's keywords])."""
    if _tk.is_bool(dtype):  # x.var(0, True[, True]): PyTorch's unbiased (and keepdim)
        dtype, unbiased = None, _tk.positional("var", dtype, unbiased, "unbiased")
        if _tk.is_bool(out):
            out, keepdim = None, _tk.positional("var", out, keepdim)
    if dim is not None or keepdim is not None or unbiased is not None:  # Note [PyTorch's keywords]
        axis, keepdims = _tk.axis("var", axis, dim), _tk.keep("var", keepdims, keepdim)
        ddof, correction = _tk.variance("var", ddof, correction, unbiased), None
    elif ddof is _tk.DDOF:
        ddof = 0
    if (dtype is None and out is None and keepdims is False and where is True and mean is None
            and correction is None and isinstance(a, TensorBase) and a.dtype.kind == "f" and a.dtype.itemsize > 2
            and (axis is None or axis == 0 or axis == -a.ndim)):
        r = _plain_var(a, axis, ddof)  # Note [Plain variances]
        if r is not None:
            return r
    from . import _ufuncs
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    x = _tensor(a)
    axes = _axes(axis, x.ndim)
    rd = _mean_dtype(x.dtype, dtype)
    work = _C.float32 if rd == _C.float16 else rd
    n = _count(x, axes, where)
    _warn_if(n, lambda n: n <= ddof, "Degrees of freedom <= 0 for slice")
    m = _ufuncs.true_divide(sum(x, axes, dtype=work, keepdims=True, where=where), n).astype(work, copy=False) \
        if mean is None else _tensor(mean)  # not mean(), which would warn of an empty slice too
    dev = _ufuncs.subtract(x.astype(work, copy=False), m)
    sq = _ufuncs.multiply(dev, _ufuncs.conjugate(dev)).real if dev.dtype.kind == "c" else \
        _ufuncs.multiply(dev, dev)
    denom = _ufuncs.maximum(_ufuncs.subtract(n, ddof), 0) if isinstance(n, TensorBase) else builtins.max(n - ddof, 0)
    res = _ufuncs.true_divide(sum(sq, axes, keepdims=True, where=where), denom)
    res = res.astype(_real_dtype(rd) if dtype is None else rd, copy=False)
    if not keepdims:
        res = res.reshape(_kept_shape(x.shape, axes, False))
    return _deliver(res, out, "var")


def std(a, axis=None, dtype=None, out=None, ddof=_tk.DDOF, keepdims=False, dim=None, keepdim=None,
        unbiased=None, *, where=True, mean=None, correction=None):
    """NumPy's std: the square root of var (PyTorch's keywords as var's)."""
    from ._ufuncs import sqrt
    if _tk.is_bool(dtype):  # x.std(0, True[, True]): PyTorch's unbiased (and keepdim)
        dtype, unbiased = None, _tk.positional("std", dtype, unbiased, "unbiased")
        if _tk.is_bool(out):
            out, keepdim = None, _tk.positional("std", out, keepdim)
    if dim is not None or keepdim is not None or unbiased is not None:  # Note [PyTorch's keywords]
        axis, keepdims = _tk.axis("std", axis, dim), _tk.keep("std", keepdims, keepdim)
        ddof, correction = _tk.variance("std", ddof, correction, unbiased), None
    v = var(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean, correction=correction)
    return sqrt(v) if out is None else _deliver(sqrt(v), out, "std")


class _ReductionMethods:
    """Tensor methods (installed by devtensor._tensor).  sum, prod, min, max,
    argmin, argmax, any and all are C methods of TensorBase that hand what
    they do not answer to the functions above (Note [Reduction methods in C]
    in csrc/python/reduce.c)."""

    def mean(self, axis=None, dtype=None, out=None, keepdims=False, dim=None, keepdim=None, *, where=True):
        return mean(self, axis, dtype, out, keepdims, where=where, dim=dim, keepdim=keepdim)

    def var(self, axis=None, dtype=None, out=None, ddof=_tk.DDOF, keepdims=False, dim=None, keepdim=None,
            unbiased=None, *, where=True, mean=None, correction=None):
        if dim is None and keepdim is None and unbiased is None and not _tk.is_bool(dtype):  # NumPy's call
            return var(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction)
        return var(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction,
                   dim=dim, keepdim=keepdim, unbiased=unbiased)

    def std(self, axis=None, dtype=None, out=None, ddof=_tk.DDOF, keepdims=False, dim=None, keepdim=None,
            unbiased=None, *, where=True, mean=None, correction=None):
        if dim is None and keepdim is None and unbiased is None and not _tk.is_bool(dtype):
            return std(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction)
        return std(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction,
                   dim=dim, keepdim=keepdim, unbiased=unbiased)


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


def _warn(message, stacklevel=3):
    import warnings
    warnings.warn(message, RuntimeWarning, stacklevel=stacklevel)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True, dim=None,
           keepdim=None):
    if _tk.is_bool(dtype):  # x.nansum(1, True): PyTorch's keepdim
        dtype, keepdim = None, _tk.positional("nansum", dtype, keepdim)
    if dim is not None or keepdim is not None:  # Note [PyTorch's keywords]
        axis, keepdims = _tk.axis("nansum", axis, dim), _tk.keep("nansum", keepdims, keepdim)
    x, _ = _nan_replaced(_tensor(a), 0)
    return sum(x, axis, dtype, out, keepdims, initial, where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    x, _ = _nan_replaced(_tensor(a), 1)
    return prod(x, axis, dtype, out, keepdims, initial, where)


def _nan_extreme(name, a, axis, out, keepdims, initial, where):
    """Note [nanmax is fmax.reduce]
        NumPy's nanmax is fmax.reduce(a, initial=, where=), with its errors
        (naming fmax) when there is no initial: NaN is skipped, initial too
        when it is NaN, and a slice left with nothing (all NaN, masked out
        or empty) gives `initial`, or NaN with the "All-NaN slice" warning.
        Here NaN becomes -inf for max, the identity a NaN initial stands for.
        First, without initial= or where=, the plain max, which keeps NaN:
        where no slice held one it is the answer, one reduction where the
        NaN-replaced one took three passes (10^6 float64: 0.82 ms, NumPy's
        0.13).
    """
    from . import _ufuncs
    x = _tensor(a)
    if initial is None and where is True and out is None and x.size and x.dtype.kind in "fc":
        plain = _run(name, x, axis, keepdims, None, None, None, True)
        if not bool(_ufuncs.isnan(plain).any()):
            return plain
    fill = float("-inf") if name == "max" else float("inf")
    if initial is None:
        f = "fmax" if name == "max" else "fmin"
        if where is not True:
            raise ValueError(f"reduction operation '{f}' does not have an identity, so to use a where mask "
                             f"one has to specify 'initial'")
        if x.size == 0 and 0 in [x.shape[d] for d in _axes(axis, x.ndim, ufunc=True)]:
            raise ValueError(f"zero-size array to reduction operation {f} which has no identity")
    y, mask = _nan_replaced(x, fill)
    nan_initial = mask is not None and initial is not None and initial != initial
    res = _run(name, y, axis, keepdims, None, None, fill if nan_initial else initial, where)
    if mask is not None and res.size and (initial is None or nan_initial):
        all_nan = all(mask, axis, keepdims=keepdims, where=where)
        if bool(any(all_nan)):
            _warn("All-NaN slice encountered")
            res = _ufuncs.where(all_nan, float("nan"), res).astype(res.dtype, copy=False)
    return _deliver(res, out, name)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """NumPy's nanmax: NaN ignored; an all-NaN slice gives `initial`, or NaN
    (with a RuntimeWarning): Note [nanmax is fmax.reduce]."""
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


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, dim=None, keepdim=None, *, where=True):
    """NumPy's nanmean: the mean of the non-NaN elements; NaN (with a
    RuntimeWarning) where there are none."""
    if dim is not None or keepdim is not None:  # Note [PyTorch's keywords]
        axis, keepdims = _tk.axis("nanmean", axis, dim), _tk.keep("nanmean", keepdims, keepdim)
    from . import _ufuncs
    x = _tensor(a)
    if x.dtype.kind not in "fc":
        return mean(x, axis, dtype, out, keepdims, where=where)
    _check_inexact(dtype, out)
    valid = _ufuncs.logical_not(_ufuncs.isnan(x))
    if where is not True:
        valid = _ufuncs.logical_and(valid, _mask(where, x.device))
    return _nan_mean_of(x, valid, axis, dtype, out, keepdims)


def _check_inexact(dtype, out):
    """NumPy's nanmean, nanvar and nanstd of inexact input want an inexact dtype= and out=."""
    if dtype is not None and _C.dtype(dtype).kind not in "fc":
        raise TypeError("If a is inexact, then dtype must be inexact")
    if isinstance(out, TensorBase) and out.dtype.kind not in "fc":
        raise TypeError("If a is inexact, then out must be inexact")


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
    _check_inexact(dtype, out)
    valid = _ufuncs.logical_not(_ufuncs.isnan(x))
    if where is not True:
        valid = _ufuncs.logical_and(valid, _mask(where, x.device))
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
    # a dtype= is the result's, complex too, as var's
    res = res.astype(_real_dtype(x.dtype) if dtype is None else _C.dtype(dtype), copy=False)
    if not keepdims:
        res = res.reshape(_kept_shape(x.shape, _axes(axis, x.ndim, ufunc=True), False))
    return _deliver(res, out, "nanvar")


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
           correction=None):
    from ._ufuncs import sqrt
    x = _tensor(a)
    if x.dtype.kind in "fc":
        _check_inexact(dtype, out)
    v = nanvar(x, axis, dtype, None, ddof, keepdims, where=where, mean=mean, correction=correction)
    return _deliver(sqrt(v), out, "nanstd")


def _weights_along(x, axis, weights):
    """NumPy's check of weights (average's, quantile's): x's shape, or x's
    shape along axis (None or a normalized tuple, in its order); returned on
    x's device, shaped to broadcast against x."""
    w = _tensor(weights).to(x.device)
    if w.shape != x.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        if w.shape != tuple(x.shape[d] for d in axis):
            raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
        w = w.transpose(sorted(range(len(axis)), key=axis.__getitem__))
        w = w.reshape(tuple(n if d in axis else 1 for d, n in enumerate(x.shape)))
    return w


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """NumPy's average: the mean, or with weights sum(a * w) / sum(w) (weights
    of a's shape, or of its shape along axis, in axis's order); `returned`
    adds the sum of weights."""
    from . import _ufuncs
    x = _tensor(a)
    if axis is not None:  # NumPy's errors here ("axis: axis 2 is out of bounds ...")
        axis = normalize_axis_tuple(axis, x.ndim, argname="axis")
    if weights is None:
        avg = mean(x, axis, keepdims=keepdims)
        n = x.size / avg.size  # NumPy's ZeroDivisionError when avg is empty
        if returned:
            from ._creation import full
            return avg, full(avg.shape, n, dtype=avg.dtype, device=avg.device)
        return avg
    w = _weights_along(x, axis, weights)
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
    if axis is None or x.ndim == 0:  # NumPy's flattened, C-order scan; 0-d as 1-d
        x = x.reshape(-1)
    ax = 0 if axis is None else normalize_axis_index(_index(axis, " for the axis"), x.ndim)
    rd = _result_dtype(name, x.dtype) if dtype is None else _C.dtype(dtype)
    src = x if _kernel_takes(name, x.dtype, rd) else x.astype(rd)
    res = _empty(x.shape, rd, x.device)
    _C._scan(op, src, ax, res)
    if out is not None and not isinstance(out, TensorBase):
        raise TypeError(f"output must be a devtensor tensor, not {type(out).__name__}")
    return _deliver_scan(res, out)


def cumsum(a, axis=None, dtype=None, out=None, dim=None):
    """NumPy's cumsum: the running sum along axis (of the flattened tensor
    when axis is None), in sum's result dtype."""
    if dim is not None:  # Note [PyTorch's keywords]
        axis = _tk.axis("cumsum", axis, dim)
    if dtype is None and out is None:  # _C._scan_fast: the per-call path, or None
        r = _C._scan_fast(_SUM, a, axis)
        if r is not None:
            return r
    return _scan(_SUM, "sum", a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None, dim=None):
    if dim is not None:  # Note [PyTorch's keywords]
        axis = _tk.axis("cumprod", axis, dim)
    if dtype is None and out is None:
        r = _C._scan_fast(_PROD, a, axis)
        if r is not None:
            return r
    return _scan(_PROD, "prod", a, axis, dtype, out)


def _cumulative(op, name, x, axis, dtype, out, include_initial):
    x = _tensor(x)
    if axis is not None:
        axis = _index(axis)
    elif x.ndim > 1:
        raise ValueError("For arrays which have more than one dimension ``axis`` argument is required.")
    else:
        axis = 0
    if x.ndim == 0:  # NumPy's cumulative_sum takes it as 1-d
        x = x.reshape(1)
    res = _scan(op, name, x, axis, dtype, None)
    if include_initial:
        from ._manipulation import concatenate
        ax = normalize_axis_index(axis, x.ndim)
        shape = tuple(1 if d == ax else n for d, n in enumerate(res.shape))
        from ._creation import full
        first = full(shape, 1 if op == _PROD else 0, dtype=res.dtype, device=res.device)
        res = concatenate([first, res], axis=ax)
    return _deliver_scan(res, out)


def _deliver_scan(res, out):
    """res into out, with NumPy's errors for an out of another shape."""
    if out is None:
        return res
    if isinstance(out, tuple) and len(out) == 1:  # NumPy's ufunc form of out
        out = out[0]
    if not isinstance(out, TensorBase):
        raise TypeError("return arrays must be of ArrayType")
    if out.shape != res.shape and (out.ndim != res.ndim or res.ndim == 1):
        raise ValueError("provided out is the wrong size for the accumulation.")
    if out.shape != res.shape:
        o, r = (str(tuple(s)).replace(" ", "") for s in (out.shape, res.shape))
        raise ValueError(f"operands could not be broadcast together with remapped shapes "
                         f"[original->remapped]: {o}->{o} {r}->{r} ")
    _check_output(out)
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


def diff(a, n=1, axis=-1, prepend=np._NoValue, append=np._NoValue, *, dim=None):
    """NumPy's diff: the n-th discrete difference along axis (not_equal for
    bool), with values put before or after first (prepend, append).  With
    PyTorch's dim=, a prepend or append of None is none, as PyTorch's."""
    if dim is not None:
        axis = _tk.axis_with_default("diff", axis, -1, dim)
        prepend = np._NoValue if prepend is None else prepend
        append = np._NoValue if append is None else append
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
                from ._views import broadcast_to
                e = broadcast_to(e, tuple(1 if d == ax else s for d, s in enumerate(x.shape)))
            parts.append(e)
    if len(parts) > 1:
        from ._manipulation import concatenate
        x = concatenate(parts, axis=ax)
    op = _C.OPS["not_equal" if x.dtype == _C.bool else "subtract"]
    lo = (slice(None),) * ax
    # past the length, every step gives the same empty result (NumPy takes all n of them)
    for _ in range(n if n <= x.shape[ax] else x.shape[ax] + 1):
        x = _C._ufunc(op, x[lo + (slice(1, None),)], x[lo + (slice(None, -1),)])
    return x


def _install_scan_methods():
    def cumsum_(self, axis=None, dtype=None, out=None, dim=None):
        if dim is not None:  # Note [PyTorch's keywords]
            axis = _tk.axis("cumsum", axis, dim)
        if dtype is None and out is None:
            r = _C._scan_fast(_SUM, self, axis)
            if r is not None:
                return r
        return _scan(_SUM, "sum", self, axis, dtype, out)

    def cumprod_(self, axis=None, dtype=None, out=None, dim=None):
        if dim is not None:  # Note [PyTorch's keywords]
            axis = _tk.axis("cumprod", axis, dim)
        if dtype is None and out is None:
            r = _C._scan_fast(_PROD, self, axis)
            if r is not None:
                return r
        return _scan(_PROD, "prod", self, axis, dtype, out)

    _ReductionMethods.cumsum = cumsum_
    _ReductionMethods.cumprod = cumprod_


_install_scan_methods()

__all__ += ["cumsum", "cumprod", "cumulative_sum", "cumulative_prod", "nancumsum", "nancumprod", "diff"]
