"""PyTorch's keywords on NumPy's reductions, scans, sorts and joins: dim=,
keepdim= and unbiased= (Note [PyTorch's keywords]).

Note [PyTorch's keywords]
    NumPy's functions never take dim, keepdim or unbiased; PyTorch code
    passes them to the same names: x.sum(dim=1, keepdim=True), x.std(dim=0),
    x.max(dim=1), dt.stack(ts, dim=1).  A call with one of them is PyTorch's
    and gets PyTorch's meaning: dim is the axis (a list of dims a tuple),
    keepdim keepdims; max and min with dim= return (values, indices), and so
    does sort, which then leaves the tensor as it is; var and std with dim=,
    keepdim= or unbiased= divide by n - 1 unless unbiased=False, correction=
    or ddof (0 included) says otherwise.  Positional arguments keep NumPy's
    meaning (x.max(1) is the maxima, x.std() divides by n, x.sort() sorts in
    place): README lists these differences.  Before, PyTorch's keywords were
    refused ("unexpected keyword argument 'dim'") or, passed positionally,
    silently meant NumPy's.  One positional form is PyTorch's too: a bool
    where NumPy takes dtype or out (x.sum(1, True), x.max(1, True),
    x.std(0, True, True)), which NumPy refuses, is PyTorch's keepdim (for
    var and std, unbiased then keepdim).
"""
import collections

import numpy as np

max_result = collections.namedtuple("max", ["values", "indices"])
min_result = collections.namedtuple("min", ["values", "indices"])
sort_result = collections.namedtuple("sort", ["values", "indices"])


def is_bool(value):
    """Whether a positional argument is a bool where NumPy takes dtype or
    out: PyTorch's keepdim (or var's and std's unbiased)."""
    return value is True or value is False


def positional(name, value, keyword, keyword_name="keepdim"):
    """A positional bool as PyTorch's keepdim (or unbiased), refused beside
    the same keyword."""
    if keyword is not None:
        raise TypeError(f"{name}() got multiple values for argument '{keyword_name}'")
    return value


def axis(name, axis, dim):
    """The axis of a call that passed PyTorch's dim= (a list a tuple; an
    empty one every dimension, as PyTorch's dim=() is)."""
    if dim is None:
        return axis
    if axis is not None:
        raise TypeError(f"{name}() got both axis and dim (NumPy's and PyTorch's name for the "
                        f"same argument)")
    if isinstance(dim, (list, tuple)):
        return tuple(dim) if dim else None
    return dim


def axis_as_dim(axis, dim, keepdim):
    """(axis, dim) of max/min: PyTorch's x.max(1, keepdim=True) is its
    max(dim=1, keepdim=True), (values, indices) (one int dim, with keepdim=)."""
    if dim is None and keepdim is not None and axis is not None and not isinstance(axis, (tuple, list)):
        return None, axis
    return axis, dim


def is_other_tensor(axis):
    """Whether max/min's second argument is PyTorch's `other` tensor
    (torch.max(a, b): elementwise), not an axis: a tensor that is not a 0-d
    integer one."""
    from ._C import TensorBase
    return isinstance(axis, TensorBase) and (axis.ndim != 0 or axis.dtype.kind not in "iu")


def axis_with_default(name, axis, default, dim):
    """The axis of a call whose NumPy axis has a default (sort's -1, stack's
    0) and that passed PyTorch's dim=."""
    if dim is None:
        return axis
    if axis != default:
        raise TypeError(f"{name}() got both axis and dim (NumPy's and PyTorch's name for the "
                        f"same argument)")
    return dim


def equal_sizes(name, arrays):
    """PyTorch's error for a stack (dim=) of tensors of different shapes,
    naming the first two that differ (NumPy's names none)."""
    shapes = [getattr(a, "shape", None) for a in arrays] if isinstance(arrays, (list, tuple)) else []
    for i, shape in enumerate(shapes[1:], 1):
        if shape is not None and shapes[0] is not None and shape != shapes[0]:
            raise RuntimeError(f"{name} expects each tensor to be equal size, but got {list(shapes[0])} at entry 0 "
                               f"and {list(shape)} at entry {i}")


def keep(name, keepdims, keepdim):
    """keepdims from PyTorch's keepdim= (None: not passed)."""
    if keepdim is None:
        return keepdims
    if keepdims is not False:
        raise TypeError(f"{name}() got both keepdims and keepdim (NumPy's and PyTorch's name "
                        f"for the same argument)")
    return keepdim


class _DefaultDdof(int):
    """var's and std's default ddof, 0, told apart from a ddof=0 the caller
    passed: with PyTorch's keywords only the default means n - 1."""
    __slots__ = ()

    def __repr__(self):
        return "0"


DDOF = _DefaultDdof(0)


def variance(name, ddof, correction, unbiased):
    """The correction of var/std called the PyTorch way: unbiased=True (and
    PyTorch's default) is 1, unbiased=False 0; correction= and a ddof passed
    (0 included) are kept as given."""
    if unbiased is not None:
        if correction is not None or ddof is not DDOF:
            raise TypeError(f"{name}() got unbiased with correction or ddof: pass one of them")
        if not isinstance(unbiased, (bool, np.bool_)):
            raise TypeError(f"{name}(): unbiased must be a bool, not {type(unbiased).__name__}")
        return int(unbiased)
    if correction is None and ddof is DDOF:
        return 1
    return correction if correction is not None else int(ddof)


def extreme(result, values, positions, a, dim, keepdims, out, initial, where):
    """max/min(a, dim=...): PyTorch's (values, indices) along one dim."""
    if isinstance(dim, (tuple, list)):
        raise TypeError(f"{result.__name__}(dim=) takes one dimension, as PyTorch's (amax and "
                        f"amin take several), not {dim!r}")
    if out is not None or initial is not None or where is not True:
        raise TypeError(f"{result.__name__}(dim=) returns (values, indices): out=, initial= and "
                        f"where= are not supported there")
    return result(values(a, dim, keepdims=keepdims), positions(a, dim, keepdims=keepdims))
