"""reduce, accumulate, reduceat, outer and at: the methods of devtensor's
ufunc objects (dt.add.reduce(t), dt.add.at(t, i, 1)), also reached from
NumPy's ufuncs through __array_ufunc__ (np.add.reduce(t)), on every device.

Note [ufunc methods]
Methods with a reduction or scan of their own go there: add.reduce is
sum, multiply.reduce prod, maximum/minimum.reduce max/min,
logical_and/or.reduce all/any, add/multiply.accumulate cumsum/cumprod.
Other binary ufuncs fold with their own elementwise call: the reorderable
ones (NumPy's list: those with an identity, and maximum and minimum) in a
tree of halves (log2(n) calls; reduce) or by Hillis-Steele doubling
(accumulate), the others left to right as NumPy does ((a - b) - c: n
calls).  at() is unbuffered as NumPy's: a repeated index is applied once per
occurrence, in order.  It ranks the occurrences of each target (a stable
sort of the targets) and applies round r to the r-th occurrences, whose
targets are distinct; add.at on integers sums each target's values in one
pass (sorted, a cumulative sum in the array's dtype, whose wrapping is
NumPy's), so a histogram-like add.at costs a sort.  Measured on the CPU
(2 cores): add.at of 10^5 int64 indices into 10 bins 4.9 ms (NumPy's
special-cased loop: 0.1 ms); of 10^5 float64 into 10^5, 12 ms (0.2 ms);
float add.at with heavy repetition runs a round per repetition (10^4
indices into 10 bins: 53 ms).  So on the CPU at() is NumPy's own, on
zero-copy views of the tensor, its indices and values (Note [at() on the
CPU]); on other devices it is exact but not fast, until the backends have a
scatter kernel that combines.

Note [at() on the CPU]
NumPy's at() writes into a.numpy(), the tensor's own memory, with NumPy's
results, casts and errors, and it checks every index before it writes
(an IndexError leaves the tensor as it was).  Only what NumPy can view
goes there: a CPU tensor of a NumPy dtype (not bfloat16), a ufunc NumPy
has, and indices and values that are CPU tensors, NumPy arrays or Python
objects; anything on another device, or bfloat16, takes the rounds below.
"""
import builtins
import math
import types

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from . import _C
from ._C import TensorBase

_NO_VALUE = object()
_NUMPY_UFUNCS = {}  # name -> NumPy's ufunc of the same name, filled by install()
_SCANS = {"add": _C.REDUCE_OPS.index("sum"), "multiply": _C.REDUCE_OPS.index("prod")}
IDENTITY = {"add": 0, "multiply": 1, "logical_and": True, "logical_or": False,
            "logical_xor": False, "bitwise_and": -1, "bitwise_or": 0, "bitwise_xor": 0,
            "hypot": 0, "logaddexp": -math.inf}
REORDERABLE = set(IDENTITY) | {"maximum", "minimum"}


def _dt():
    import devtensor
    return devtensor


def _tensor(x, device=None):
    return x if isinstance(x, TensorBase) else _dt().asarray(x, device=device)


def _binary(ufunc, method):
    if ufunc.nin != 2:
        raise ValueError(f"{'outer product' if method == 'outer' else method} only supported "
                         f"for binary functions")


def _write_out(result, out, name):
    if out is None:
        return result
    if isinstance(out, tuple):
        (out,) = out
    if tuple(out.shape) != tuple(result.shape):
        raise ValueError(f"output parameter for reduction operation {name} has the wrong "
                         f"shape")
    out[...] = result
    return out


def _fold(ufunc, x):
    """ufunc folded over axis 0 of x (at least one element there)."""
    if ufunc.__name__ in REORDERABLE:
        while x.shape[0] > 1:
            half = x.shape[0] // 2
            y = ufunc(x[:half], x[half:2 * half])
            x = y if x.shape[0] % 2 == 0 else _dt().concatenate([y, x[2 * half:]])
        return x[0]
    acc = x[0]
    for i in range(1, x.shape[0]):
        acc = ufunc(acc, x[i])
    return acc


_FAST_REDUCE = {}  # add.reduce -> sum and the like, filled by install()


def reduce(ufunc, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NO_VALUE,
           where=True):
    """NumPy's ufunc.reduce: ufunc folded over the given axes."""
    fast = _FAST_REDUCE.get(ufunc.__name__)
    if fast is not None and type(axis) is int and dtype is None and out is None and not keepdims and \
            initial is _NO_VALUE and where is True and isinstance(array, TensorBase):
        return fast(array, axis)  # the common call, without the checks below: the same result
    _binary(ufunc, "reduce")
    dt = _dt()
    name = ufunc.__name__
    a = _tensor(array)
    axes = tuple(range(a.ndim)) if axis is None else normalize_axis_tuple(axis, a.ndim)
    if len(axes) > 1 and name not in REORDERABLE:
        raise ValueError(f"reduction operation '{name}' is not reorderable, so at most one "
                         f"axis may be specified")
    kwargs = dict(axis=axes, out=out, keepdims=keepdims, where=where)
    if initial is not _NO_VALUE:
        kwargs["initial"] = initial
    fast = {"add": dt.sum, "multiply": dt.prod, "maximum": dt.max, "minimum": dt.min}
    if name in fast:
        if name in ("maximum", "minimum") and dtype is not None:
            a = a.astype(dtype)
        elif dtype is not None:
            kwargs["dtype"] = dtype
        return fast[name](a, **kwargs)
    if name in ("logical_and", "logical_or") and dtype is None and initial is _NO_VALUE:
        return (dt.all if name == "logical_and" else dt.any)(a, **kwargs)
    if dtype is not None:
        a = a.astype(dtype)
    kept = [d for d in range(a.ndim) if d not in axes]
    x = dt.permute_dims(a, axes + tuple(kept))
    rest = tuple(a.shape[d] for d in kept)
    x = x.reshape((-1,) + rest)
    identity = IDENTITY.get(name)
    if where is not True:
        fill = initial if initial is not _NO_VALUE else identity
        if fill is None:
            raise ValueError(f"reduction operation '{name}' does not have an identity, so to "
                             f"use a where mask one has to specify 'initial'")
        mask = dt.broadcast_to(_tensor(where, a.device), a.shape)
        mask = dt.permute_dims(mask, axes + tuple(kept)).reshape(x.shape)
        x = dt.where(mask, x, fill).astype(x.dtype)
    if x.shape[0] == 0:
        start = initial if initial is not _NO_VALUE else identity
        if start is None:
            raise ValueError(f"zero-size array to reduction operation {name} which has no "
                             f"identity")
        result = dt.full(rest, start, dtype=ufunc(x[:0], x[:0]).dtype, device=a.device)
    else:
        if initial is not _NO_VALUE:  # the fold's first element: ((initial op x0) op x1) ...
            x = dt.concatenate([dt.full((1,) + rest, initial, dtype=x.dtype, device=a.device),
                                x])
        result = _fold(ufunc, x)
    if keepdims:
        result = result.reshape(tuple(1 if d in axes else n for d, n in enumerate(a.shape)))
    return _write_out(result, out, name)


def accumulate(ufunc, array, axis=0, dtype=None, out=None):
    """NumPy's ufunc.accumulate: the running fold along one axis."""
    op = _SCANS.get(ufunc.__name__) if dtype is None and out is None else None
    if op is not None:  # add/multiply: cumsum's and cumprod's per-call path, or None
        r = _C._scan_fast(op, array, axis)
        if r is not None:
            return r
    _binary(ufunc, "accumulate")
    dt = _dt()
    name = ufunc.__name__
    a = _tensor(array)
    if a.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    axis = normalize_axis_index(axis, a.ndim)
    if name in ("add", "multiply"):
        scan = dt.cumsum if name == "add" else dt.cumprod
        return scan(a, axis=axis, dtype=dtype, out=out)
    if dtype is not None:
        a = a.astype(dtype)
    x = dt.moveaxis(a, axis, 0)
    n = x.shape[0]
    if n == 0:
        result = ufunc(x, x)
    elif name in REORDERABLE:  # Hillis-Steele: after the step of k, y[i] folds x[i-2k+1..i]
        first = x[:1].astype(ufunc(x[:1], x[:1]).dtype)  # in the result dtype
        y = dt.concatenate([first, ufunc(x[:-1], x[1:])])
        k = 2
        while k < n:
            y = dt.concatenate([y[:k], ufunc(y[:-k], y[k:])])
            k *= 2
        result = y
    else:
        first = ufunc(x[0], x[0]).dtype
        result = dt.empty(x.shape, dtype=first, device=a.device)
        result[0] = x[0]
        for i in range(1, n):
            result[i] = ufunc(result[i - 1], x[i])
    result = dt.moveaxis(result, 0, axis)
    return _write_out(result, out, name)


def reduceat(ufunc, array, indices, axis=0, dtype=None, out=None):
    """NumPy's ufunc.reduceat: reductions over the slices indices[i]:indices[i+1]
    (a single element where indices[i] >= indices[i+1]; the last runs to the end)."""
    _binary(ufunc, "reduceat")
    dt = _dt()
    a = _tensor(array)
    axis = normalize_axis_index(axis, a.ndim)
    idx = [int(i) for i in np.asarray(_host(indices)).reshape(-1)]
    n = a.shape[axis]
    for i in idx:
        if not 0 <= i < n:
            raise IndexError(f"index {i} out-of-bounds in {ufunc.__name__}.reduceat [0, {n})")
    x = dt.moveaxis(a if dtype is None else a.astype(dtype), axis, 0)
    parts = []
    for j, start in enumerate(idx):
        stop = idx[j + 1] if j + 1 < len(idx) else n
        piece = x[start:stop] if start < stop else x[start:start + 1]
        parts.append(reduce(ufunc, piece, axis=0, keepdims=True))
    result = dt.moveaxis(dt.concatenate(parts) if parts else x[:0], 0, axis)
    return _write_out(result, out, ufunc.__name__)


def _host(x):
    return x.cpu().numpy() if isinstance(x, TensorBase) else x


def outer(ufunc, A, B, /, **kwargs):
    """NumPy's ufunc.outer: ufunc(A[..., None, ...], B) over every pair."""
    _binary(ufunc, "outer")
    a = _tensor(A, B.device if isinstance(B, TensorBase) else None)
    b = _tensor(B, a.device)
    return ufunc(a.reshape(tuple(a.shape) + (1,) * b.ndim), b, **kwargs)


def at(ufunc, a, indices, b=None):
    """NumPy's unbuffered ufunc.at, in place: a[indices] = ufunc(a[indices], b),
    once per occurrence of a repeated index (Note [ufunc methods])."""
    dt = _dt()
    if not isinstance(a, TensorBase):
        raise TypeError(f"{ufunc.__name__}.at: the first argument must be a devtensor.Tensor, "
                        f"got {type(a).__name__}")
    if ufunc.nin == 2 and b is None:
        raise ValueError("second operand needed for ufunc")
    if ufunc.nin == 1 and b is not None:
        raise ValueError("second operand provided when ufunc is unary")
    if not a._writeable:
        raise ValueError("assignment destination is read-only")
    if _numpy_at(ufunc, a, indices, b):
        return
    # the targets' positions in a contiguous copy (or a itself), with NumPy's
    # indexing rules and IndexError for an index out of range
    targets = dt.arange(a.size, device=a.device).reshape(a.shape)[indices]
    values = None
    if ufunc.nin == 2:
        values = dt.broadcast_to(_tensor(b, a.device), targets.shape).reshape(-1)
    targets = targets.reshape(-1)
    if not targets.shape[0]:
        return
    work = a if a.is_contiguous() else a.copy()
    flat = work.reshape(-1)
    if ufunc.__name__ == "add" and _integer_add(a, values):
        _add_integers(flat, targets, values)
    else:
        _rounds(ufunc, flat, targets, values)
    if work is not a:
        a[...] = work


def _numpy_view(x):
    """x as NumPy can take it without a copy, or _NO_VALUE (Note [at() on the CPU])."""
    if isinstance(x, TensorBase):
        try:
            return x._numpy_view()  # TypeError off the CPU, and for bfloat16
        except TypeError:
            return _NO_VALUE
    return x


def _numpy_at(ufunc, a, indices, b):
    """NumPy's at() on views of a CPU tensor; False if it cannot take the call."""
    np_ufunc = _NUMPY_UFUNCS.get(ufunc.__name__)
    target = _NO_VALUE if np_ufunc is None else _numpy_view(a)
    if target is _NO_VALUE:
        return False
    if isinstance(indices, tuple):
        key = tuple(map(_numpy_view, indices))
        if builtins.any(k is _NO_VALUE for k in key):
            return False
    else:
        key = _numpy_view(indices)
    value = _numpy_view(b)
    if key is _NO_VALUE or value is _NO_VALUE:
        return False
    if b is None:
        np_ufunc.at(target, key)
    else:
        np_ufunc.at(target, key, value)
    return True


def _integer_add(a, values):
    kinds = "iub"
    return a.dtype.kind in "iu" and values is not None and values.dtype.kind in kinds and \
        _C._can_cast(values.dtype, a.dtype, "same_kind")


def _ranks(targets):
    """order (a stable sort of targets), the sorted targets, and where each
    run of equal targets starts in the sorted order."""
    dt = _dt()
    order = dt.argsort(targets, stable=True)
    sorted_t = dt.take(targets, order)
    first = dt.ones(sorted_t.shape, dtype=_C.bool, device=targets.device)
    if sorted_t.shape[0] > 1:
        first[1:] = sorted_t[1:] != sorted_t[:-1]
    return order, sorted_t, first


def _add_integers(flat, targets, values):
    dt = _dt()
    order, sorted_t, first = _ranks(targets)
    v = dt.take(values, order).astype(flat.dtype)
    total = dt.cumsum(v, dtype=flat.dtype)
    starts = dt.flatnonzero(first)
    ends = dt.concatenate([starts[1:], dt.asarray([v.shape[0]], device=v.device)]) - 1
    before = dt.concatenate([dt.zeros(1, dtype=flat.dtype, device=v.device), total])
    sums = dt.take(before, ends + 1) - dt.take(before, starts)  # wrapping, as NumPy's adds
    where = dt.take(sorted_t, starts)
    flat[where] = flat[where] + sums


def _rounds(ufunc, flat, targets, values):
    dt = _dt()
    order, sorted_t, first = _ranks(targets)
    pos = dt.arange(sorted_t.shape[0], device=targets.device)
    run = dt.cumsum(first.astype(_C.int64)) - 1
    rank_sorted = pos - dt.take(dt.flatnonzero(first), run)
    rank = dt.empty(rank_sorted.shape, dtype=_C.int64, device=targets.device)
    rank[order] = rank_sorted
    for r in range(int(dt.max(rank)) + 1):
        sel = dt.flatnonzero(rank == r)
        where = dt.take(targets, sel)
        if values is None:
            result = ufunc(flat[where])
        else:
            result = ufunc(flat[where], dt.take(values, sel))
        flat[where] = result  # cast as NumPy's at() does: unsafely


def install(ufuncs):
    """Put the methods and NumPy's attributes (identity, types, ntypes) on the
    ufunc objects (their instance dicts: the C type has none of them)."""
    from . import _reductions
    _FAST_REDUCE.update(add=_reductions.sum, multiply=_reductions.prod, maximum=_reductions.max,
                        minimum=_reductions.min)
    for u in ufuncs:
        for method in (reduce, accumulate, reduceat, outer, at):
            setattr(u, method.__name__, types.MethodType(method, u))
        np_ufunc = getattr(np, u.__name__, None)
        if isinstance(np_ufunc, np.ufunc):
            _NUMPY_UFUNCS[u.__name__] = np_ufunc
        u.identity = IDENTITY.get(u.__name__)
        u.signature = None  # NumPy's: None for elementwise ufuncs (Dask reads it)
        loops = [t for t in getattr(np_ufunc, "types", []) if builtins.all(
            c in "?bhilqBHILQefdFD->" for c in t)]
        u.types = loops
        u.ntypes = len(loops)
