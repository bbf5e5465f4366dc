"""reduce, accumulate, reduceat, outer and at: the methods of devtensor's
ufunc objects (dt.add.reduce(t), dt.add.at(t, i, 1)), also reached from
NumPy's ufuncs through __array_ufunc__ (np.add.reduce(t)), on every device.

Note [ufunc methods]
Methods with a reduction or scan of their own go there: add.reduce is
sum, multiply.reduce prod, maximum/minimum.reduce max/min,
logical_and/or.reduce all/any, add/multiply.accumulate cumsum/cumprod,
minimum/maximum.accumulate the backend's MIN and MAX scans (one pass, in
order, NumPy's results to the bit on every device).
Other binary ufuncs fold with their own elementwise call: the reorderable
ones (NumPy's list: those with an identity, and maximum and minimum) in a
tree of halves (log2(n) calls; reduce) or by Hillis-Steele doubling
(accumulate), the others left to right as NumPy does ((a - b) - c: n
calls).  reduceat reduces its segments all at once (Note [Segments by
length]).  at() is unbuffered as NumPy's: a repeated index is applied once
per occurrence, in order.  add.at on integers sums each target's values in
one pass (sorted, a cumulative sum in the array's dtype, whose wrapping is
NumPy's); the ufuncs of _COMBINE reduce each target's values and apply
them once (Note [Combined at()]); any other at() ranks the occurrences of
each target (a stable sort of the targets) and applies round r to the r-th
occurrences, whose targets are distinct.  Measured on the CPU (2 cores):
add.at of 10^5 int64 indices into 10 bins 4.9 ms (NumPy's special-cased
loop: 0.1 ms); of 10^5 float64 into 10^5, 12 ms (0.2 ms).  So on the CPU
at() and reduceat are NumPy's own, on zero-copy views of the tensor, its
indices and values (Note [at() on the CPU]); other devices take the paths
above.

Note [at() on the CPU]
NumPy's reduceat reads a zero-copy view of a CPU tensor (without dtype=),
its result wrapped without a copy.  NumPy's at() writes into a.numpy(),
the tensor's own memory, with NumPy's
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
from ._operands import _two_devices, numpy_call, numpy_views

_NO_VALUE = object()
_NUMPY_UFUNCS = {}  # name -> NumPy's ufunc of the same name, filled by install()
_SCANS = {"add": _C.REDUCE_OPS.index("sum"), "multiply": _C.REDUCE_OPS.index("prod"),
          "minimum": _C.REDUCE_OPS.index("min"), "maximum": _C.REDUCE_OPS.index("max")}
IDENTITY = {"add": 0, "multiply": 1, "logical_and": True, "logical_or": False,
            "logical_xor": False, "bitwise_and": -1, "bitwise_or": 0, "bitwise_xor": 0,
            "hypot": 0, "logaddexp": -math.inf, "logaddexp2": -math.inf, "gcd": 0}
REORDERABLE = set(IDENTITY) | {"maximum", "minimum", "fmax", "fmin"}


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


def _numpy_reduce(ufunc, a, axes, dtype, keepdims, initial, where):
    """NumPy's reduce on zero-copy views of a CPU tensor and its mask, as at()
    and reduceat (Note [at() on the CPU]): NumPy's results and errors at
    NumPy's cost (bitwise_or.reduce of 16: 15 us by the folds below); or
    _NO_VALUE where NumPy cannot take the tensor (another device, bfloat16)."""
    np_ufunc = _NUMPY_UFUNCS.get(ufunc.__name__)
    view = _NO_VALUE if np_ufunc is None or ufunc.__name__ in _NUMPY_REDUCE_WRONG else _numpy_view(a)
    mask = where if where is True else _numpy_view(where)
    if view is _NO_VALUE or mask is _NO_VALUE or (dtype is not None and _C.dtype(dtype) == _C.bfloat16):
        return _NO_VALUE
    kwargs = dict(axis=axes, keepdims=keepdims, where=mask)
    if dtype is not None:
        kwargs["dtype"] = np.dtype(_C.dtype(dtype).name)
    if initial is not _NO_VALUE:
        kwargs["initial"] = initial.item() if isinstance(initial, TensorBase) else initial
    return _C._from_numpy(np.asarray(np_ufunc.reduce(view, **kwargs)))


# NumPy 2.4's reduce of a contiguous row is wrong for these: power and
# arctan2 (float32, float64) give f(first, last), float16 divide another
# value than its left fold; the folds below give the left fold.  ldexp's
# reduce (of integers, which NumPy takes) is refused on every device.
_NUMPY_REDUCE_WRONG = {"power", "arctan2", "divide", "ldexp"}


def _loop_dtype(ufunc, dtype, device, requested=None):
    """The dtype in which NumPy's reduce, accumulate and reduceat of ufunc
    work on input of dtype, and return, or with dtype=requested (Note [The
    loop of a reduction]); NumPy's TypeError where it has none (less.reduce
    of floats)."""
    np_ufunc = _NUMPY_UFUNCS.get(ufunc.__name__)
    requested = None if requested is None else _C.dtype(requested)
    if np_ufunc is not None and _C.bfloat16 not in (dtype, requested):
        npd = np.dtype(dtype.name)
        signature = (None if requested is None else np.dtype(requested.name), None, None)
        try:
            return _C.dtype(np_ufunc.resolve_dtypes((None, npd, None), signature=signature, reduction=True)[2])
        except TypeError as e:
            if requested is not None:
                raise TypeError(str(e)) from None
            try:  # NumPy's own words, which for some ufuncs (ldexp) are not resolve_dtypes'
                np_ufunc.reduce(np.zeros(1, npd))
            except TypeError as real:
                raise TypeError(str(real)) from None
            raise TypeError(str(e)) from None
    if requested is not None:
        dtype = requested
    e = _dt().empty(0, dtype=dtype, device=device)
    loop = ufunc(e, e).dtype
    if loop != dtype and not (dtype == _C.bool and loop.kind in "iuf"):
        raise TypeError(f"No loop matching the specified signature and casting was found for ufunc "
                        f"{ufunc.__name__}")
    return loop


# Note [The loop of a reduction]
# NumPy picks the loop of a reduction from the input's dtype alone
# (resolve_dtypes((None, dtype, None), reduction=True); dtype=D asks for the
# loop whose first operand is D): the loop's output must take the input's
# place, so divide of bools works in float64 and greater of floats has no
# loop.  The input is cast to the loop's dtype first, and initial and the
# identity are values of that dtype (bitwise_and's -1 is 255 in uint8;
# initial=1000 for int8 is NumPy's OverflowError).


def _identity(ufunc, loop):
    """ufunc's identity as a value of the loop's dtype, or None."""
    identity = IDENTITY.get(ufunc.__name__)
    if identity is None:
        return None
    if loop.kind == "u" and identity == -1:
        return int(_dt().iinfo(loop).max)  # all bits set, as NumPy's cast of -1
    return bool(identity) if loop == _C.bool else identity


def _initial(initial, loop):
    """initial as a value of the loop's dtype, with NumPy's errors."""
    if isinstance(initial, TensorBase):
        initial = initial.item()
    if loop == _C.bfloat16:
        return initial
    return np.asarray(initial, dtype=np.dtype(loop.name)).item()


def _masked_fold(ufunc, x, mask, start, identity):
    """ufunc folded over axis 0 of x from start, skipping the elements where
    mask is False.  Where identity is exact (x op e == x for every x), the
    masked elements become it and the fold is _fold's; otherwise each step
    keeps the running value where the mask is False (n calls)."""
    dt = _dt()
    first = dt.full((1,) + tuple(x.shape[1:]), start, dtype=x.dtype, device=x.device)
    if identity is not None and ufunc.__name__ in _EXACT_IDENTITY:
        x = dt.where(mask, x, dt.asarray(identity, dtype=x.dtype, device=x.device))
        return _fold(ufunc, dt.concatenate([first, x]))
    acc = first[0]
    for i in range(x.shape[0]):
        acc = dt.where(mask[i], ufunc(acc, x[i]), acc)
    return acc


# identities e with x op e == x for every x of every dtype (hypot's 0 and
# gcd's 0 turn a negative x into |x|)
_EXACT_IDENTITY = {"add", "multiply", "logical_and", "logical_or", "logical_xor", "bitwise_and",
                   "bitwise_or", "bitwise_xor", "logaddexp", "logaddexp2"}


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
    result = _numpy_reduce(ufunc, a, axes, dtype, keepdims, initial, where)
    if result is not _NO_VALUE:
        return _write_out(result, out, name)
    loop = _loop_dtype(ufunc, a.dtype, a.device, dtype)
    if len(axes) > 1 and name not in REORDERABLE:
        raise ValueError(f"reduction operation '{name}' is not reorderable, so at most one "
                         f"axis may be specified")
    kept = [d for d in range(a.ndim) if d not in axes]
    x = dt.permute_dims(a, axes + tuple(kept)).astype(loop, copy=False)
    rest = tuple(a.shape[d] for d in kept)
    x = x.reshape((-1,) + rest)
    identity = _identity(ufunc, loop)
    start = identity if initial is _NO_VALUE or initial is None else _initial(initial, loop)
    if where is not True:
        if start is None:
            raise ValueError(f"reduction operation '{name}' does not have an identity, so to "
                             f"use a where mask one has to specify 'initial'")
        mask = dt.broadcast_to(_tensor(where, a.device), a.shape)
        mask = dt.permute_dims(mask, axes + tuple(kept)).reshape(x.shape)
        result = _masked_fold(ufunc, x, mask, start, identity)
    elif x.shape[0] == 0:
        if start is None:
            raise ValueError(f"zero-size array to reduction operation {name} which has no "
                             f"identity")
        result = dt.full(rest, start, dtype=loop, device=a.device)
    else:  # NumPy's fold starts at initial, else at the identity: hypot.reduce([-3.]) is 3.0
        if start is not None:
            x = dt.concatenate([dt.full((1,) + rest, start, dtype=loop, device=a.device), x])
        result = _fold(ufunc, x)
    if keepdims:
        result = result.reshape(tuple(1 if d in axes else n for d, n in enumerate(a.shape)))
    return _write_out(result, out, name)


def accumulate(ufunc, array, axis=0, dtype=None, out=None):
    """NumPy's ufunc.accumulate: the running fold along one axis."""
    name = ufunc.__name__
    if dtype is None and out is None:
        op = _SCANS.get(name)
        if op is not None:  # add/multiply/minimum/maximum: the scans' per-call path, or None
            r = _C._scan_fast(op, array, axis)
            if r is not None:
                return r
        else:
            npf = getattr(np, name, None)
            if isinstance(npf, np.ufunc) and npf.nin == 2 and npf.nout == 1 and isinstance(array, TensorBase):
                views = numpy_views(array)
                if views is not None:
                    # a CPU tensor: NumPy's loop on a view, one pass, where the device
                    # way below takes log2(n) steps (maximum.accumulate of 16: 6.7 us
                    # against 0.3)
                    return numpy_call(npf.accumulate, views) if type(axis) is int and axis == 0 else \
                        numpy_call(npf.accumulate, views, True, axis=axis)
    _binary(ufunc, "accumulate")
    dt = _dt()
    a = _tensor(array)
    if a.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    if axis is None or isinstance(axis, tuple) and len(axis) != 1:
        raise ValueError("accumulate does not allow multiple axes")  # NumPy's words
    axis = normalize_axis_index(axis[0] if isinstance(axis, tuple) else axis, a.ndim)
    if name in ("add", "multiply"):
        scan = dt.cumsum if name == "add" else dt.cumprod
        return scan(a, axis=axis, dtype=dtype, out=out)
    a = a.astype(_loop_dtype(ufunc, a.dtype, a.device, dtype), copy=False)  # Note [The loop of a reduction]
    if name in ("minimum", "maximum"):  # the backend's MIN and MAX scans
        return _write_out(_C._scan_fast(_SCANS[name], a, axis), out, name)
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
    if isinstance(indices, TensorBase) and indices.device.type != "cpu" and indices.device != a.device:
        raise _two_devices(a.device, indices.device)
    idx = np.asarray(_host(indices))
    if isinstance(indices, (np.ndarray, TensorBase)) and not np.can_cast(idx.dtype, np.int64, "safe"):
        raise TypeError(f"Cannot cast array data from dtype('{idx.dtype}') to dtype('int64') according to "
                        f"the rule 'safe'")  # NumPy's: an array of indices must be integers (a list need not)
    if idx.ndim != 1:
        raise ValueError("object too deep for desired array" if idx.ndim else
                         "object of too small depth for desired array")
    idx = idx.reshape(-1)
    starts = idx.astype(np.int64) if idx.dtype.kind in "iu" else np.array([int(i) for i in idx], np.int64)
    n = a.shape[axis]
    bad = np.flatnonzero((starts < 0) | (starts >= n))
    if bad.size:
        raise IndexError(f"index {starts[bad[0]]} out-of-bounds in {ufunc.__name__}.reduceat [0, {n})")
    np_ufunc = _NUMPY_UFUNCS.get(ufunc.__name__)
    view = _numpy_view(a) if np_ufunc is not None and dtype is None else _NO_VALUE
    if view is not _NO_VALUE:  # a CPU tensor: NumPy's reduceat, as at() (Note [at() on the CPU])
        return _write_out(_C._from_numpy(np.asarray(np_ufunc.reduceat(view, starts, axis=axis))), out,
                          ufunc.__name__)
    x = dt.moveaxis(a, axis, 0)
    x = x.astype(_loop_dtype(ufunc, x.dtype, x.device, dtype), copy=False)  # Note [The loop of a reduction]
    if not starts.size:  # no segments: NumPy's empty result, of the reduction's dtype where it has an identity
        empty = reduce(ufunc, x[:0], axis=0, keepdims=True)[:0] if ufunc.identity is not None else x[:0]
        return _write_out(dt.moveaxis(empty, 0, axis), out, ufunc.__name__)
    stops = np.append(starts[1:], n)
    lengths = np.where(starts < stops, stops - starts, 1)  # NumPy's: x[start] alone where start >= stop
    result = _reduce_segments(ufunc, x, starts, lengths)
    return _write_out(dt.moveaxis(result, 0, axis), out, ufunc.__name__)


# Note [Segments by length]: padding a segment with its own last element
# does not change these reductions, and padding with these right identities
# (x op e == x) does not change the others
_IDEMPOTENT = {"maximum", "minimum", "logical_and", "logical_or", "bitwise_and", "bitwise_or"}
_RIGHT_IDENTITY = {"add": 0, "subtract": 0, "multiply": 1, "logical_xor": False, "bitwise_xor": 0}
_PADDING_AT_MOST = 8  # padded elements per element of the segments


def _reduce_segments(ufunc, x, starts, lengths):
    """ufunc.reduce over axis 0 of each segment x[s:s + k] for (s, k) in the
    host int64 arrays starts and lengths (k >= 1): len(starts) results
    stacked on axis 0, on x's device.

    Note [Segments by length]
        Segments of unequal lengths are made equal, then reduced in one
        call over the axis of their elements: padded to the longest (a
        gather of their rows, each past its end taking the segment's last
        row, or the op's right identity where that is not idempotent) when
        the padding costs at most _PADDING_AT_MOST times the elements;
        otherwise grouped by length, one gather and one reduce per distinct
        length (at most sqrt(2 N) of them for segments that cover N rows
        once), each group's results scattered to its segments' places."""
    dt = _dt()
    device, name = x.device, ufunc.__name__
    starts_dev = dt.asarray(starts, device=device)
    longest = int(lengths.max())
    if (name in _IDEMPOTENT or name in _RIGHT_IDENTITY) and \
            starts.shape[0] * longest <= _PADDING_AT_MOST * int(lengths.sum()):
        lengths_dev, step = dt.asarray(lengths, device=device), dt.arange(longest, device=device)
        last = (starts_dev + lengths_dev - 1)[:, None]
        rows = dt.minimum(starts_dev[:, None] + step, last)
        block = dt.take(x, rows, axis=0)
        if name not in _IDEMPOTENT:
            inside = (step < lengths_dev[:, None]).reshape(rows.shape + (1,) * (x.ndim - 1))
            block = dt.where(inside, block, dt.asarray(_RIGHT_IDENTITY[name], dtype=block.dtype, device=device))
        return _segment_reduce(ufunc, block)
    out = None
    for k in np.unique(lengths).tolist():
        segs = np.flatnonzero(lengths == k)
        segs_dev = dt.asarray(segs, device=device)
        rows = dt.take(starts_dev, segs_dev)[:, None] + dt.arange(k, device=device)
        red = _segment_reduce(ufunc, dt.take(x, rows, axis=0))
        if out is None:
            out = dt.empty((starts.shape[0],) + tuple(red.shape[1:]), dtype=red.dtype, device=device)
        out[segs_dev] = red
    return out


def _segment_reduce(ufunc, block):
    """block reduced over axis 1 (each segment's elements): one reduction
    kernel for the ufuncs that have one (add: sum), else the fold from each
    segment's first element (not from the identity: hypot.reduceat keeps a
    lone -5.0)."""
    if ufunc.__name__ in _ONE_KERNEL:
        return reduce(ufunc, block, axis=1)
    return _fold(ufunc, _dt().moveaxis(block, 1, 0))


_ONE_KERNEL = {"add", "multiply", "maximum", "minimum", "logical_and", "logical_or"}


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
        weak = type(b) in _WEAK_KINDS and a.dtype.kind in _WEAK_KINDS[type(b)] and ufunc.__name__ != "ldexp" and (
            type(b) is not int or a.dtype.kind not in "iu" or dt.iinfo(a.dtype).min <= b <= dt.iinfo(a.dtype).max)
        src = dt.asarray(b, dtype=a.dtype, device=a.device) if weak else _tensor(b, a.device)
        try:
            values = dt.broadcast_to(src, targets.shape).reshape(-1)
        except ValueError:
            raise ValueError("array is not broadcastable to correct shape") from None  # NumPy's at()
    targets = targets.reshape(-1)
    empty = a.reshape(-1)[:0]
    if values is None:  # NumPy's TypeError for a loop the ufunc lacks (subtract of bools), before any write
        ufunc(empty)
    else:
        ufunc(empty, values[:0])
    if not targets.shape[0]:
        return
    work = a if a.is_contiguous() else a.copy()
    flat = work.reshape(-1)
    if ufunc.__name__ == "add" and _integer_add(a, values):
        _add_integers(flat, targets, values)
    elif ufunc.__name__ in _COMBINE and dt.result_type(a.dtype, values.dtype) == a.dtype:
        _combined(ufunc, flat, targets, values.astype(a.dtype, copy=False))
    else:
        _rounds(ufunc, flat, targets, values)
    if work is not a:
        a[...] = work


# A Python scalar value takes the array's dtype where NumPy's (NEP 50) weak
# scalar would, so that at() need not cast at each application (an int out
# of an integer dtype's range stays int64: NumPy's at() wraps it; ldexp's
# power stays an integer)
_WEAK_KINDS = {bool: "biufc", int: "iufc", float: "fc", complex: "c"}


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


# Note [Combined at()]: the ufuncs whose repeated application to one target
# is one application of a reduction of the values, their own (subtract's is
# add's: a - v1 - v2 = a - (v1 + v2))
_COMBINE = {"add", "subtract", "multiply", "maximum", "minimum", "logical_and", "logical_or", "logical_xor",
            "bitwise_and", "bitwise_or", "bitwise_xor"}


def _combined(ufunc, flat, targets, values):
    """at() of a _COMBINE ufunc whose values are of the array's dtype (so no
    application casts): each target's values reduced (Note [Segments by
    length]) and applied once.

    Note [Combined at()]
        NumPy applies a repeated target's values one after the other; for
        these ufuncs that is one application of their reduction, exact for
        integers, bools, maximum and minimum, and for floats different only
        in rounding (a + (v1 + v2) against (a + v1) + v2, the reduction
        accumulating wide), as CuPy's and PyTorch's scatter-adds differ
        from NumPy.  It costs a sort, one read of the runs' starts and the
        segments' reduction, where the rounds cost a round per repetition
        (10^4 float additions into 10 bins: a thousand rounds)."""
    dt = _dt()
    order, sorted_t, first = _ranks(targets)
    starts = dt.flatnonzero(first)
    starts_host = starts.cpu().numpy()
    by = dt.add if ufunc.__name__ == "subtract" else ufunc
    combined = _reduce_segments(by, dt.take(values, order), starts_host,
                                np.diff(starts_host, append=sorted_t.shape[0]))
    where = dt.take(sorted_t, starts)
    flat[where] = ufunc(flat[where], combined)


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


def know(ufunc):
    """Note NumPy's ufunc of ufunc's name (FunctionUfunc's methods)."""
    np_ufunc = getattr(np, ufunc.__name__, None)
    if isinstance(np_ufunc, np.ufunc):
        _NUMPY_UFUNCS.setdefault(ufunc.__name__, np_ufunc)


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
