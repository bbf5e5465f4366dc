"""Array manipulation: joining, splitting, tiling, repeating, rolling,
flipping, rotating, padding, inserting and deleting, with NumPy 2's
signatures, result dtypes and errors.

Every function is built from three device primitives: views (basic
indexing and devtensor/_views.py), allocation (``empty``) and the core's
device copy (``dst._copy_from(src)``, which broadcasts and casts on the
tensors' device).  A result is one ``empty`` of its shape followed by copies
into slice views of it, so no device data goes through the host.  What the
host computes is geometry: shapes, slices and, where NumPy takes index lists
(split points, repeat counts, insert/delete positions), those lists; where
that needs NumPy's own checks, NumPy runs them on a zero-size or index-only
host array, so the errors are NumPy's words.

Note [Lists as inputs]
    As in NumPy, anything that is not a tensor (lists, scalars, NumPy
    arrays) is converted with devtensor.asarray, on the device of the tensor
    inputs (the default device when there are none).  Tensors on two devices
    raise PyTorch's RuntimeError.
"""
import builtins
import itertools
import operator

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from . import _C
from . import _torch_keywords as _tk
from ._C import TensorBase, dtype as _dtype_type
from ._creation import arange, asarray, empty, zeros
from ._operands import numpy_call, small_cpu_views
from ._structured import _same_device
from ._views import (
    _broadcast_value, _fmt, _tensor, _view, broadcast_to, permute_dims, reshape, squeeze,
    transpose,
)

_FULL = slice(None)


# ---- helpers ----

def _along(x, axis, sl):
    """x[:, ..., sl, ...] with sl on `axis` (a basic-index view)."""
    return x[(_FULL,) * axis + (sl,)]


def _as_tensors(arrays):
    """The inputs as tensors on one device (Note [Lists as inputs])."""
    arrays = list(arrays)
    tensors = [a for a in arrays if isinstance(a, TensorBase)]
    device = _same_device(tensors)
    if len(tensors) == len(arrays):
        return arrays
    return [a if isinstance(a, TensorBase) else asarray(a, device=device) for a in arrays]


def _check_cast(dtypes, to, casting):
    for d in dtypes:
        if not _C._can_cast(d, to, casting):
            raise TypeError(f"Cannot cast array data from dtype('{d}') to dtype('{to}') "
                            f"according to the rule '{casting}'")


def _result(tensors, shape, out, dtype, casting, name):
    """The tensor a join writes into: out (checked) or a new one of the promoted dtype."""
    from ._dtype_api import result_type
    if out is not None and dtype is not None:
        raise TypeError(f"{name}() only takes `out` or `dtype` as an argument, but both were "
                        f"provided.")
    dtypes = list({t.dtype: None for t in tensors})  # distinct, in order: joins of many tensors
    if out is not None:
        if not isinstance(out, TensorBase):
            raise TypeError(f"{name}(): out must be a devtensor.Tensor, got "
                            f"{type(out).__name__}")
        _same_device(tensors + [out])
        if out.ndim != len(shape):
            raise ValueError("Output array has wrong dimensionality")
        if tuple(out.shape) != tuple(shape):
            raise ValueError("Output array is the wrong shape")
        _check_cast(dtypes, out.dtype, casting)
        return out
    if dtype is None:
        return empty(shape, dtype=result_type(*dtypes), device=tensors[0].device)
    dtype = _dtype_type(dtype)
    _check_cast(dtypes, dtype, casting)
    return empty(shape, dtype=dtype, device=tensors[0].device)


# ---- joining ----

def concatenate(arrays, /, axis=0, out=None, dim=None, *, dtype=None, casting="same_kind"):
    """Join a sequence of tensors along an existing axis (axis=None: flattened
    first).  out= or dtype= (with NumPy's casting rule) choose the result."""
    if dim is not None:  # Note [PyTorch's keywords]
        axis = _tk.axis_with_default("concatenate", axis, 0, dim)
    if out is None and dtype is None:  # Note [Joins in C] (csrc/python/join.c), or None
        r = _C._concatenate_fast(arrays, axis)
        if r is not None:
            return r
    if isinstance(arrays, TensorBase):
        arrays = list(arrays)
    elif not hasattr(arrays, "__getitem__"):  # a generator, a set: NumPy's refusal
        raise TypeError("The first input argument needs to be a sequence")
    tensors = _as_tensors(arrays)
    if not tensors:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        tensors = [reshape(t, (-1,)) for t in tensors]
        axis = 0
    first = tensors[0]
    if first.ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = normalize_axis_index(axis, first.ndim)
    for i, t in enumerate(tensors[1:], 1):
        if t.ndim != first.ndim:
            raise ValueError(f"all the input arrays must have same number of dimensions, but "
                             f"the array at index 0 has {first.ndim} dimension(s) and the array "
                             f"at index {i} has {t.ndim} dimension(s)")
        for d, (n, m) in enumerate(zip(first.shape, t.shape)):
            if d != axis and n != m:
                raise ValueError(f"all the input array dimensions except for the concatenation "
                                 f"axis must match exactly, but along dimension {d}, the array "
                                 f"at index 0 has size {n} and the array at index {i} has size "
                                 f"{m}")
    shape = list(first.shape)
    shape[axis] = builtins.sum(t.shape[axis] for t in tensors)
    result = _result(tensors, shape, out, dtype, casting, "concatenate")
    start = 0
    for t in tensors:
        n = t.shape[axis]
        if n:
            _along(result, axis, slice(start, start + n))._copy_from(t)
        start += n
    return result


def concat(arrays, /, *, axis=0, dim=None):
    """Array API: concatenate (axis=None flattens); PyTorch's concat(dim=)."""
    if dim is not None:  # Note [PyTorch's keywords]
        axis = _tk.axis_with_default("concat", axis, 0, dim)
    return concatenate(arrays, axis=axis)


def stack(arrays, axis=0, out=None, dim=None, *, dtype=None, casting="same_kind"):
    """Join tensors of one shape along a new axis."""
    if dim is not None:  # Note [PyTorch's keywords]
        axis = _tk.axis_with_default("stack", axis, 0, dim)
        _tk.equal_sizes("stack", arrays)
    if out is None and dtype is None:  # Note [Joins in C] (csrc/python/join.c), or None
        r = _C._stack_fast(arrays, axis)
        if r is not None:
            return r
    arrays = _seq(arrays, "stack")
    tensors = _as_tensors(arrays)
    if not tensors:
        raise ValueError("need at least one array to stack")
    shape = tensors[0].shape
    if any(t.shape != shape for t in tensors):
        raise ValueError("all input arrays must have the same shape")
    axis = normalize_axis_index(axis, len(shape) + 1)
    result = _result(tensors, shape[:axis] + (len(tensors),) + shape[axis:], out, dtype,
                     casting, "stack")
    # one copy per input into its slot: no expand_dims views, no per-input concatenate checks
    slots = result if axis == 0 else moveaxis(result, axis, 0)
    for i, t in enumerate(tensors):
        slots[i, ...]._copy_from(t)  # a view even of a 1-d result (Note [An element is a copy])
    return result


def atleast_1d(*arys):
    """Inputs as tensors of at least one dimension (one tensor, or a tuple)."""
    res = [t.reshape(1) if t.ndim == 0 else t for t in _as_tensors(arys)]
    return res[0] if len(res) == 1 else tuple(res)


def atleast_2d(*arys):
    """Inputs with at least two dimensions: 0-d -> (1, 1), (N,) -> (1, N)."""
    if len(arys) == 1 and isinstance(arys[0], TensorBase):  # the plain call
        t = arys[0]
        return t if t.ndim >= 2 else t.reshape((1,) * (2 - t.ndim) + t.shape)
    res = [t.reshape((1,) * (2 - t.ndim) + t.shape) if t.ndim < 2 else t for t in _as_tensors(arys)]
    return res[0] if len(res) == 1 else tuple(res)


def atleast_3d(*arys):
    """Inputs with at least three dimensions: 0-d -> (1, 1, 1), (N,) -> (1, N, 1),
    (M, N) -> (M, N, 1)."""
    def up(t):
        if t.ndim == 0:
            return t.reshape(1, 1, 1)
        if t.ndim == 1:
            return t.reshape(1, t.shape[0], 1)
        if t.ndim == 2:
            return t.reshape(t.shape + (1,))
        return t
    res = [up(t) for t in _as_tensors(arys)]
    return res[0] if len(res) == 1 else tuple(res)


def rollaxis(a, axis, start=0):
    """NumPy's rollaxis: axis moved to just before position start (a view)."""
    a = _tensor(a)
    n = a.ndim
    axis = normalize_axis_index(axis, n)
    if not -n <= start <= n:
        raise np.exceptions.AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in")
    start = start + n if start < 0 else start
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    return moveaxis(a, axis, start)


def _block_depth(arrays, index=()):
    """(nesting depth of the lists, index of the first innermost item), with
    NumPy's errors for tuples, empty lists and mismatched depths."""
    if type(arrays) is tuple:
        raise TypeError(f"{_block_where(index)} is a tuple. Only lists can be used to arrange blocks, and "
                        "np.block does not allow implicit conversion from tuple to ndarray.")
    if type(arrays) is not list:
        return 0, index
    if not arrays:
        raise ValueError(f"List at {_block_where(index)} cannot be empty")
    depths = [_block_depth(a, index + (i,)) for i, a in enumerate(arrays)]
    first = depths[0]
    for depth, where in depths[1:]:
        if depth != first[0]:
            raise ValueError(f"List depths are mismatched. First element was at depth {first[0] + 1}, but there "
                             f"is an element at depth {depth + 1} ({_block_where(where)})")
    return first[0] + 1, first[1]


def _block_where(index):
    return "arrays" + "".join(f"[{i}]" for i in index)


def block(arrays):
    """NumPy's block: nested lists of tensors joined innermost along the last
    axis, outward along earlier ones, each block first given the result's
    number of dimensions (leading length-1 axes), on the blocks' device."""
    depth, _ = _block_depth(arrays)

    def leaves(x, d):
        return [x] if d == 0 else [t for e in x for t in leaves(e, d - 1)]
    tensors = _as_tensors(leaves(arrays, depth))
    ndim = builtins.max([depth] + [t.ndim for t in tensors])
    it = iter(t.reshape((1,) * (ndim - t.ndim) + t.shape) for t in tensors)

    def join(x, d):
        if d == 0:
            return next(it)
        return concatenate([join(e, d - 1) for e in x], axis=-d)
    return join(arrays, depth) if depth else next(it).copy()


def _seq(tup, name):
    """The arrays to join as a list; a generator or a set is NumPy's TypeError
    (it takes sequences only: an iterator would be read before the checks)."""
    if not isinstance(tup, TensorBase) and not hasattr(tup, "__getitem__"):
        raise TypeError(f'arrays to {name} must be passed as a "sequence" type such as list or tuple.')
    try:
        return list(tup)
    except TypeError:
        raise TypeError(f"arrays to {name} must be passed as a sequence") from None


def vstack(tup, *, dtype=None, casting="same_kind"):
    """Stack row-wise (along axis 0, after atleast_2d)."""
    arrs = atleast_2d(*_seq(tup, "stack"))
    arrs = arrs if isinstance(arrs, tuple) else [arrs]
    return concatenate(arrs, 0, dtype=dtype, casting=casting)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    """NumPy's deprecated alias of vstack, with its DeprecationWarning."""
    import warnings
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.", DeprecationWarning, stacklevel=2)
    return vstack(tup, dtype=dtype, casting=casting)


def hstack(tup, *, dtype=None, casting="same_kind"):
    """Stack column-wise (axis 1; axis 0 for 1-d inputs)."""
    arrs = _seq(tup, "stack")
    if not all(isinstance(a, TensorBase) and a.ndim for a in arrs):  # else nothing for atleast_1d to do
        arrs = atleast_1d(*arrs)
        arrs = arrs if isinstance(arrs, tuple) else [arrs]
    axis = 0 if arrs and arrs[0].ndim == 1 else 1
    return concatenate(arrs, axis, dtype=dtype, casting=casting)


def dstack(tup):
    """Stack depth-wise (axis 2, after atleast_3d)."""
    arrs = atleast_3d(*_seq(tup, "stack"))
    arrs = arrs if isinstance(arrs, tuple) else [arrs]
    return concatenate(arrs, 2)


def column_stack(tup):
    """Stack 1-d tensors as columns of a 2-d one (others as hstack does)."""
    arrs = [reshape(t, (-1, 1)) if t.ndim < 2 else t
            for t in _as_tensors(_seq(tup, "stack"))]
    return concatenate(arrs, 1)


def append(arr, values, axis=None):
    """arr with values appended along axis (both flattened when axis is None)."""
    arr, values = _as_tensors([arr, values])
    if axis is None:
        arr = reshape(arr, (-1,)) if arr.ndim != 1 else arr
        values = reshape(values, (-1,))
        axis = arr.ndim - 1
    return concatenate((arr, values), axis=axis)


# ---- splitting ----

def array_split(ary, indices_or_sections, axis=0):
    """Views of ary split along axis into sections (as equal as can be) or at
    the given indices (NumPy's: out-of-range indices give empty pieces)."""
    ary = _tensor(ary)
    axis_n = normalize_axis_index(axis, ary.ndim) if ary.ndim else axis
    total = ary.shape[axis_n] if ary.ndim else 0
    try:
        points = [0] + list(indices_or_sections) + [total]
    except TypeError:
        sections = operator.index(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        each, extras = divmod(total, sections)
        sizes = [0] + extras * [each + 1] + (sections - extras) * [each]
        points = list(itertools.accumulate(sizes))
    if ary.ndim == 0:
        normalize_axis_index(axis, 0)  # NumPy's AxisError
    return [_along(ary, axis_n, slice(a, b)) for a, b in zip(points[:-1], points[1:])]


def split(ary, indices_or_sections, axis=0, *, dim=None):
    """array_split that requires an equal division for an integer count.
    With PyTorch's dim=, PyTorch's split: pieces of a size, or of the given
    sizes (Note [PyTorch's keywords])."""
    if dim is not None:
        from ._torch_selection import split_method
        return split_method(ary, indices_or_sections, _tk.axis_with_default("split", axis, 0, dim))
    try:
        len(indices_or_sections)
    except TypeError:
        sections = operator.index(indices_or_sections)
        ary = _tensor(ary)
        n = ary.shape[normalize_axis_index(axis, ary.ndim)] if ary.ndim else 0
        if sections and n % sections:
            raise ValueError("array split does not result in an equal division") from None
    return array_split(ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    """split along axis 1 (axis 0 for 1-d)."""
    ary = _tensor(ary)
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """split along axis 0 of a tensor of at least 2 dimensions."""
    ary = _tensor(ary)
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """split along axis 2 of a tensor of at least 3 dimensions."""
    ary = _tensor(ary)
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)


def unstack(x, /, *, axis=0):
    """Array API: x[..., i, ...] along axis, as a tuple (views; for a 1-d x
    0-d copies of the elements, as NumPy's scalars)."""
    x = _tensor(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    axis = normalize_axis_index(axis, x.ndim)
    return tuple(_along(x, axis, i) for i in range(x.shape[axis]))


# ---- rearranging (views) ----

_REVERSED = slice(None, None, -1)


def flip(m, axis=None, *, dims=None):
    """m reversed along axis (all axes when None; an int or a tuple): a view
    with negative strides, as NumPy's.  PyTorch's dims= names the axes."""
    m = _tensor(m)
    if dims is not None:
        axis = _tk.axis("flip", axis, dims)
    if type(axis) is int or axis is None and m.ndim:  # the common calls: a reversing slice in C
        if axis is None:
            return m[(_REVERSED,) * m.ndim]
        return m[(slice(None),) * normalize_axis_index(axis, m.ndim) + (_REVERSED,)]
    axes = (range(m.ndim) if axis is None else normalize_axis_tuple(axis, m.ndim))
    strides, offset = list(m.strides), 0
    for a in axes:
        if m.shape[a] > 0:
            offset += (m.shape[a] - 1) * strides[a]
        strides[a] = -strides[a]
    return _view(m, m.shape, strides, offset)


def fliplr(m):
    """m reversed along axis 1."""
    m = _tensor(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return flip(m, 1)


def flipud(m):
    """m reversed along axis 0."""
    m = _tensor(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return flip(m, 0)


def rot90(m, k=1, axes=(0, 1), dims=None):
    """m rotated by 90 degrees k times in the plane of axes (a view; dims=
    is PyTorch's name for axes)."""
    if dims is not None:  # Note [PyTorch's keywords]
        if tuple(axes) != (0, 1):
            raise TypeError("rot90() got both axes and dims (NumPy's and PyTorch's name for the same argument)")
        axes = dims
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = _tensor(m)
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if not all(-m.ndim <= a < m.ndim for a in axes):
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    k = operator.index(k) % 4
    if k == 0:
        return m[:]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    perm = list(range(m.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return transpose(flip(m, axes[1]), perm)
    return flip(transpose(m, perm), axes[1])


def moveaxis(a, source, destination):
    """a with the axes in source moved to the positions in destination (a view)."""
    a = _tensor(a)
    if type(source) is int and type(destination) is int:
        src = normalize_axis_index(source, a.ndim, "source")
        order = [n for n in range(a.ndim) if n != src]
        order.insert(normalize_axis_index(destination, a.ndim, "destination"), src)
        return permute_dims(a, order)
    source = normalize_axis_tuple(source, a.ndim, "source")
    destination = normalize_axis_tuple(destination, a.ndim, "destination")
    if len(source) != len(destination):
        raise ValueError("`source` and `destination` arguments must have the same number of "
                         "elements")
    order = [n for n in range(a.ndim) if n not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return permute_dims(a, order)


def broadcast_shapes(*args):
    """The shape the given shapes broadcast to (NumPy's rules and errors)."""
    return np.broadcast_shapes(*args)


def broadcast_arrays(*args, subok=False):
    """Read-only views of the inputs broadcast to one shape (inputs already
    of that shape are returned as they are, as NumPy does); a tuple."""
    device = next((a.device for a in args if isinstance(a, TensorBase) and a.device.type != "cpu"), None)
    if device is not None:  # a 0-d CPU tensor joins a device's tensors, as in their arithmetic
        args = [a.to(device) if isinstance(a, TensorBase) and a.ndim == 0 and a.device.type == "cpu" else a
                for a in args]
    tensors = _as_tensors(args)
    shape = np.broadcast_shapes(*(t.shape for t in tensors))
    return tuple(t if t.shape == shape else broadcast_to(t, shape) for t in tensors)


def ascontiguousarray(a, dtype=None, *, like=None, device=None):
    """a as a C-contiguous tensor of at least one dimension (a copy only if needed)."""
    t = asarray(a, dtype=dtype, device=device)
    if t.ndim == 0:
        t = reshape(t, (1,))
    return t if t.is_contiguous() else t.copy()


def asfortranarray(a, dtype=None, *, like=None, device=None):
    """a as a Fortran-contiguous tensor of at least one dimension (a copy only
    if needed), NumPy's asfortranarray."""
    if isinstance(a, TensorBase) and dtype is None and device is None and a.ndim:
        rev = a.transpose()  # a Fortran-ordered tensor is the reverse of a C-ordered one
        return a if rev.is_contiguous() else rev.copy().transpose()._own()
    t = asarray(a, dtype=dtype, device=device, order="F")
    return reshape(t, (1,)) if t.ndim == 0 else t


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """NumPy's asanyarray: devtensor has no tensor subclasses to keep, so asarray."""
    if order is None:
        return asarray(a, dtype=dtype, device=device, copy=copy)
    return asarray(a, dtype=dtype, device=device, copy=copy, order=order)


def asarray_chkfinite(a, dtype=None, order=None):
    """asarray, and NumPy's ValueError when a float or complex result holds an
    inf or a NaN (one value read from the device)."""
    t = asarray(a, dtype=dtype, order=order)
    if t.dtype.kind in "fc":
        from ._reductions import all as all_
        from ._ufuncs import isfinite
        if not bool(all_(isfinite(t))):
            raise ValueError("array must not contain infs or NaNs")
    return t


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
                 "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O",
                 "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """NumPy's require: a as a tensor of dtype meeting the requirements
    ('C'/'F' contiguous, 'W' writeable, 'O' owning its data: a copy each
    when a does not; 'A' aligned and 'E' an array always hold)."""
    t = asarray(a, dtype=dtype)
    if not requirements:
        return t
    wanted = {_REQUIREMENTS[r.upper()] for r in requirements}  # a string: one flag per letter, as NumPy's
    if {"C", "F"} <= wanted:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "C" if "C" in wanted else "F" if "F" in wanted else "K"
    copied = False
    if order == "C" and not t.is_contiguous() or order == "F" and not t.T.is_contiguous():
        t, copied = t.copy(order), True
    if not copied and ("O" in wanted and not t.flags.owndata or "W" in wanted and not t.flags.writeable):
        from ._creation import copy
        t = copy(t, order=order)
    return t


# ---- tiling and repeating ----

def tile(A, reps):
    """A repeated reps times along each axis (NumPy's tile: reps and A.ndim
    are padded with leading ones to the same length).

    Note [tile as one broadcast copy]
        The result, viewed as (r0, n0, r1, n1, ...), is A's view with a
        zero-stride axis before each of its axes: one copy, no host data."""
    A = _tensor(A)
    try:
        reps = tuple(operator.index(r) for r in reps)
    except TypeError:
        reps = (operator.index(reps),)
    d = builtins.max(len(reps), A.ndim)
    reps = (1,) * (d - len(reps)) + reps
    shape = (1,) * (d - A.ndim) + tuple(A.shape)
    strides = (0,) * (d - A.ndim) + tuple(A.strides)
    if any(r < 0 for r in reps):
        raise ValueError("negative dimensions are not allowed")
    out = empty(tuple(r * n for r, n in zip(reps, shape)), dtype=A.dtype, device=A.device)
    if out.size:
        src = _view(A, [x for p in zip(reps, shape) for x in p],
                    [x for p in zip((0,) * d, strides) for x in p])
        reshape(out, src.shape)._copy_from(src)
    return out


def _repeat_counts(repeats, n):
    """repeats as a host int64 array of n counts, or an int; NumPy's checks and errors.

    Note [repeat counts are read on the host]
        The result's shape depends on the counts, so they are needed on the
        host, as in NumPy and CuPy: lists and NumPy arrays are there already;
        a tensor of counts on a device is read back (one small transfer)."""
    if isinstance(repeats, TensorBase):
        repeats = repeats._host_view()
    # NumPy's own checks (cast to intp, broadcasting, negative counts), on a
    # zero-size host array so that nothing is copied
    np.repeat(np.empty((n, 0)), repeats, axis=0)
    counts = np.asarray(repeats)
    if counts.size == 1:
        return int(counts.reshape(()))
    return counts.astype(np.int64).reshape(-1)


_RUN_COPIES_AT_MOST = 8  # Note [repeat by broadcast copies]


def repeat(a, repeats, axis=None):
    """Each element of a repeated (along axis; of the flattened a when None).

    Note [repeat by broadcast copies]
        A count c for every element is one copy of a view with a zero-stride
        axis of length c after `axis`.  Per-element counts are done run by
        run: elements next to each other with the same count share one such
        copy, so equal counts cost one copy.  Past _RUN_COPIES_AT_MOST runs
        (all counts different: a copy per element) it is one gather: the
        source position of output j is the number of cumulative counts <= j
        (searchsorted of arange(total) in cumsum(counts), side='right'),
        all on the device but the counts' upload.  A CPU tensor with counts
        per element takes NumPy's repeat on a zero-copy view: one O(total)
        pass where the search is O(total log n) (10^6 elements: 98 ms
        against NumPy's 3.6)."""
    r = _C._repeat_fast(a, repeats, axis)  # the common call (an int count, a tensor), or None
    if r is not None:
        return r
    a = _tensor(a)
    if axis is None or a.ndim == 0:  # NumPy repeats a 0-d array as a 1-d one
        a = reshape(a, (-1,))
        axis = 0 if axis is None else axis
    axis = normalize_axis_index(axis, a.ndim)
    n = a.shape[axis]
    if isinstance(repeats, TensorBase):
        repeats = repeats._host_view()  # Note [repeat counts are read on the host]
    if a.device.type == "cpu" and a.dtype != _C.bfloat16 and np.size(repeats) > 1:
        return asarray(np.repeat(a.numpy(), repeats, axis=axis))  # NumPy's loop (and checks) on a zero-copy view
    counts = _repeat_counts(repeats, n)
    if isinstance(counts, int):
        return _repeat_each(a, counts, axis)
    starts = np.flatnonzero(np.diff(counts, prepend=-1))  # where each run of equal counts begins
    total = int(counts.sum())
    if len(starts) > _RUN_COPIES_AT_MOST:
        from ._index_functions import take
        from ._reductions import cumsum
        from ._sorting import searchsorted
        ends = cumsum(asarray(counts, dtype=_C.int64, device=a.device))
        return take(a, searchsorted(ends, arange(total, device=a.device), side="right"), axis=axis)
    shape = list(a.shape)
    shape[axis] = total
    out = empty(shape, dtype=a.dtype, device=a.device)
    pos = 0
    for start, stop in zip(starts.tolist(), starts[1:].tolist() + [n]):
        k, c = stop - start, int(counts[start])
        if c and k:
            src = _along(a, axis, slice(start, stop))
            src = _view(src, src.shape[:axis + 1] + (c,) + src.shape[axis + 1:],
                        src.strides[:axis + 1] + (0,) + src.strides[axis + 1:])
            dst = _along(out, axis, slice(pos, pos + k * c))
            reshape(dst, src.shape)._copy_from(src)
        pos += k * c
    return out


def _repeat_each(a, c, axis):
    """repeat with one count c for every element: one copy of a broadcast view
    (Note [repeat by broadcast copies]), without the per-element run search."""
    if axis is None or a.ndim == 0:  # NumPy repeats a 0-d array as a 1-d one
        a = a.reshape(-1)
        axis = 0 if axis is None else axis
    axis = normalize_axis_index(axis, a.ndim)
    shape, strides = a.shape, a.strides
    src = _view(a, shape[:axis + 1] + (c,) + shape[axis + 1:],
                strides[:axis + 1] + (0,) + strides[axis + 1:])
    out = empty(src.shape, dtype=a.dtype, device=a.device)
    out._copy_from(src)
    return out.reshape(shape[:axis] + (shape[axis] * c,) + shape[axis + 1:])


def resize(a, new_shape):
    """NumPy's resize: a's flattened values repeated (or cut) to fill new_shape
    (zeros when a is empty)."""
    a = _tensor(a)
    if isinstance(new_shape, (int, np.integer)) or getattr(new_shape, "ndim", None) == 0:
        new_shape = (new_shape,)  # a 0-d tensor too: np.resize(x, counts[0])
    new_shape = tuple(operator.index(n) for n in new_shape)
    size = 1
    for n in new_shape:
        size *= n
        if n < 0:
            raise ValueError("all elements of `new_shape` must be non-negative")
    flat = reshape(a, (-1,))
    if a.size == 0 or size == 0:
        return zeros(new_shape, dtype=a.dtype, device=a.device)
    out = empty((size,), dtype=a.dtype, device=a.device)
    whole, rest = divmod(size, a.size)
    if whole:
        reshape(out[:whole * a.size], (whole, a.size))._copy_from(flat)
    if rest:
        out[whole * a.size:]._copy_from(flat[:rest])
    return reshape(out, new_shape)


def roll(a, shift=None, axis=None, *, shifts=None, dims=None):
    """a's elements shifted along axis (cyclically; of the flattened a when
    None); PyTorch's shifts= and dims= name shift and axis.

    Note [roll as slice copies]
        Along each rolled axis the result is two slices of a, so a roll over
        k axes is at most 2**k copies of slice views into a new tensor."""
    a = _tensor(a)
    if shifts is not None:
        if shift is not None:
            raise TypeError("roll() got both shift and shifts (NumPy's and PyTorch's name for the same argument)")
        shift = shifts
    if shift is None:
        raise TypeError("roll() missing required argument 'shift'")
    axis = _tk.axis("roll", axis, dims)
    if axis is None:
        return reshape(roll(reshape(a, (-1,)), shift, 0), a.shape)
    axis = normalize_axis_tuple(axis, a.ndim, allow_duplicate=True)
    pairs = np.broadcast(shift, axis)
    if pairs.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    shifts = {ax: 0 for ax in range(a.ndim)}
    for sh, ax in pairs:
        shifts[ax] += operator.index(sh)
    parts = [[(_FULL, _FULL)]] * a.ndim
    for ax, sh in shifts.items():
        n = a.shape[ax]
        sh = sh % n if n else 0
        if sh:
            parts[ax] = [(slice(None, -sh), slice(sh, None)), (slice(-sh, None), slice(None, sh))]
    out = empty(a.shape, dtype=a.dtype, device=a.device)
    for combo in itertools.product(*parts):
        src = a[tuple(s for s, _ in combo)]
        out[tuple(d for _, d in combo) + (Ellipsis,)]._copy_from(src)  # a view, even of a 0-d out
    return out


# ---- inserting, deleting, trimming ----

def _runs(index, split_at=None):
    """[(first position, first source index, length)] of the runs of
    consecutive source indices in the NumPy int array index (a run also
    ends before split_at), or None if there are more than _FEW_RUNS."""
    if index.size == 0:
        return []
    ends = np.diff(index) != 1
    if split_at is not None:
        ends |= index[1:] == split_at
    starts = np.flatnonzero(ends)
    if len(starts) >= _FEW_RUNS:
        return None
    starts = np.r_[0, starts + 1]
    lengths = np.diff(np.r_[starts, index.size])
    return list(zip(starts.tolist(), index[starts].tolist(), lengths.tolist()))


_FEW_RUNS = 16  # more runs than this: one gather (Note [insert and delete by host index arithmetic])


def _one_index(obj, n, axis, top):
    """obj as a position in [0, top] when it is one integer (Python's or
    NumPy's, not a bool), checked as NumPy checks it (IndexError past
    -n..top); None for any other obj (Note [insert and delete by host index
    arithmetic])."""
    if type(obj) is not int and not isinstance(obj, np.integer):
        return None
    i = int(obj)
    if not -n <= i <= top:
        raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
    return i + n if i < 0 else i


def _host_index(n, ndim, axis):
    """np.arange(n) shaped to lie along axis of an ndim-d array (host, indices only)."""
    return np.arange(n).reshape((1,) * axis + (n,) + (1,) * (ndim - axis - 1))


def _flat_axis(arr, axis):
    arr = _tensor(arr)
    if axis is None:
        return (reshape(arr, (-1,)) if arr.ndim != 1 else arr), 0
    return arr, normalize_axis_index(axis, arr.ndim)


def delete(arr, obj, axis=None):
    """arr without the sub-arrays at obj (an int, a slice, ints or a boolean
    mask) along axis (of the flattened arr when None): a new tensor.

    Note [insert and delete by host index arithmetic]
        NumPy's own insert/delete run on the host over an index array of the
        axis (n integers, no tensor data), which gives NumPy's results and
        errors for every form of obj; the tensor is then assembled on its
        device from one slice copy per run of consecutive kept indices, or,
        past _FEW_RUNS runs, by one gather (take) of them all: a run's copy
        per scattered index made delete of 10^5 values 35 times NumPy's time.
        A small CPU tensor is NumPy's own delete of its view (Note [Small CPU
        work through NumPy's functions] in _operands.py).  One integer, or a
        slice of step 1, leaves two runs known without the index array (its
        n integers made delete of one element of 10^6 cost 30 times NumPy's
        two copies)."""
    views = small_cpu_views(arr, obj)
    if views is not None:
        return numpy_call(np.delete, views, floats=False, axis=axis)
    arr, axis = _flat_axis(arr, axis)
    if isinstance(obj, TensorBase):
        obj = obj._host_view()
    n = arr.shape[axis]
    i = _one_index(obj, n, axis, n - 1)
    if i is None and isinstance(obj, slice) and obj.indices(n)[2] == 1:
        start, stop, _ = obj.indices(n)
        stop = max(start, stop)
        runs, length = [(0, 0, start), (start, stop, n - stop)], n - (stop - start)
    elif i is not None:
        runs, length = [(0, 0, i), (i, i + 1, n - i - 1)], n - 1
    else:
        kept = np.delete(_host_index(n, arr.ndim, axis), obj, axis=axis).ravel()
        runs, length = _runs(kept), len(kept)
        if runs is None:
            from ._index_functions import take
            return take(arr, asarray(kept, device=arr.device), axis=axis)
    shape = list(arr.shape)
    shape[axis] = length
    out = empty(shape, dtype=arr.dtype, device=arr.device)
    for p, v, k in runs:
        if k:
            _along(out, axis, slice(p, p + k))._copy_from(_along(arr, axis, slice(v, v + k)))
    return out


def insert(arr, obj, values, axis=None):
    """arr with values inserted before the indices obj along axis (of the
    flattened arr when None); NumPy's broadcasting of values (see
    Note [insert and delete by host index arithmetic])."""
    views = small_cpu_views(arr, obj, values)
    if views is not None:
        return numpy_call(np.insert, views, floats=False, axis=axis)
    arr, axis = _flat_axis(arr, axis)
    ndim, n = arr.ndim, arr.shape[axis]
    if isinstance(obj, TensorBase):
        obj = obj._host_view()
    if not isinstance(values, TensorBase):
        values = asarray(values, dtype=None if isinstance(values, np.ndarray) else arr.dtype,
                         device=arr.device)
    _same_device([arr, values])
    indices = np.arange(*obj.indices(n)) if isinstance(obj, slice) else np.asarray(obj)
    if indices.dtype == np.bool_ and indices.ndim == 1:
        indices = np.flatnonzero(indices)  # NumPy's: a mask inserts before its True places
    if indices.size == 1 and indices.dtype != np.bool_:
        # NumPy: values get at least arr.ndim axes; a scalar obj moves their first to axis
        if values.ndim < ndim:
            values = reshape(values, (1,) * (ndim - values.ndim) + values.shape)
        if indices.ndim == 0:
            values = moveaxis(values, 0, axis)
        numnew = values.shape[axis]
        marker = -1 - np.arange(numnew)
        marker = marker.reshape((numnew,) + (1,) * (ndim - 1)) if indices.ndim == 0 else \
            marker.reshape((1,) * axis + (numnew,) + (1,) * (ndim - axis - 1))
    else:
        numnew = len(indices) if indices.ndim else 1
        marker = (-1 - np.arange(numnew)).reshape((1,) * axis + (numnew,) +
                                                  (1,) * (ndim - axis - 1))
    at = _one_index(obj, n, axis, n) if indices.ndim == 0 else None
    if at is None:
        placed = np.insert(_host_index(n, ndim, axis), obj, marker, axis=axis).ravel()
        numnew = len(placed) - n
    slot = list(arr.shape)
    slot[axis] = numnew
    try:
        values = _broadcast_value(values, slot)
    except ValueError:
        if indices.size == 1 and indices.dtype != np.bool_:
            raise
        raise ValueError(f"shape mismatch: value array of shape {_fmt(values.shape)} could not "
                         f"be broadcast to indexing result of shape {_fmt(slot)}") from None
    if at is not None:  # one integer: arr's part before it, the values, the rest (no index array)
        runs = [(0, 0, at), (at, n, numnew), (at + numnew, at, n - at)]
    else:
        source = np.where(placed >= 0, placed, n - 1 - placed)  # arr's indices, then values' from n on
        runs = _runs(source, split_at=n)
        if runs is None:
            both = concatenate([arr, values.astype(arr.dtype, copy=False)], axis=axis)
            from ._index_functions import take
            return take(both, asarray(source, device=arr.device), axis=axis)
    shape = list(arr.shape)
    shape[axis] = n + numnew
    out = empty(shape, dtype=arr.dtype, device=arr.device)
    for p, v, k in runs:
        src, v = (arr, v) if v < n else (values, v - n)
        if k:
            _along(out, axis, slice(p, p + k))._copy_from(_along(src, axis, slice(v, v + k)))
    return out


def _reduce_axis(ufunc, x, axis):
    """ufunc reduced over axis of x by halving (log2 n elementwise calls on
    x's device); the axis is kept with length 1.  x.shape[axis] must be > 0."""
    while x.shape[axis] > 1:
        n = x.shape[axis]
        h = n // 2
        r = ufunc(_along(x, axis, slice(0, h)), _along(x, axis, slice(h, 2 * h)))
        if n % 2:
            head = _along(r, axis, slice(0, 1))
            head._copy_from(ufunc(head, _along(x, axis, slice(n - 1, n))))
        x = r
    return x


def trim_zeros(filt, trim="fb", axis=None):
    """filt without its leading ('f') and/or trailing ('b') zeros: on every
    axis of axis (all when None), the smallest box holding the non-zeros; a
    view (a list slice for 1-d list input, as NumPy's).

    Note [trim_zeros reads its bounds on the host]
        The result's shape depends on the data, so the bounds must reach the
        host, as in CuPy: they are found on the device (a non-zero mask,
        reduced by halving: log2 n elementwise calls per axis) and read back
        in one transfer of 2 * ndim integers."""
    from ._ufuncs import logical_or, maximum, minimum, not_equal, where
    t = filt if isinstance(filt, TensorBase) else asarray(filt)
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    axes = tuple(range(t.ndim)) if axis is None else normalize_axis_tuple(axis, t.ndim, "axis")
    if not axes:
        return filt
    if t.size == 0:
        start = stop = [0] * t.ndim
    else:
        mask = not_equal(t, 0)
        bounds = []
        for ax in range(t.ndim):
            m = mask
            for other in range(t.ndim):
                if other != ax:
                    m = _reduce_axis(logical_or, m, other)
            n = t.shape[ax]
            pos = reshape(arange(n, device=t.device), m.shape)
            bounds.append(reshape(_reduce_axis(minimum, where(m, pos, n), ax), (1,)))
            bounds.append(reshape(_reduce_axis(maximum, where(m, pos, -1), ax), (1,)))
        host = concatenate(bounds).tolist()
        start, stop = host[0::2], [s + 1 for s in host[1::2]]
        if start[0] == t.shape[0]:  # all zero: NumPy's empty slices
            start = stop = [0] * t.ndim
        else:
            if "f" not in trim:
                start = [None] * t.ndim
            if "b" not in trim:
                stop = [None] * t.ndim
    sl = tuple(slice(start[ax], stop[ax]) if ax in axes else _FULL for ax in range(t.ndim))
    if len(sl) == 1:
        return filt[sl[0]]
    return t[sl]


# ---- padding ----

_PAD_KWARGS = {"constant": {"constant_values"}, "edge": set(), "wrap": set(),
               "reflect": {"reflect_type"}, "symmetric": {"reflect_type"}, "empty": set(),
               "linear_ramp": {"end_values"}, "maximum": {"stat_length"}, "mean": {"stat_length"},
               "median": {"stat_length"}, "minimum": {"stat_length"}}


def _as_pairs(x, ndim, as_index=False):
    """x broadcast to (ndim, 2) pairs on the host (NumPy's _as_pairs)."""
    if x is None:
        return ((None, None),) * ndim
    x = np.array(x)
    if as_index:
        x = np.round(x).astype(np.intp, copy=False)
    if x.ndim < 3:
        if x.size == 1:
            x = x.ravel()
            if as_index and x < 0:
                raise ValueError("index can't contain negative values")
            return ((x[0], x[0]),) * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.ravel()
            if as_index and (x[0] < 0 or x[1] < 0):
                raise ValueError("index can't contain negative values")
            return ((x[0], x[1]),) * ndim
    if as_index and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return np.broadcast_to(x, (ndim, 2)).tolist()


def _pad_widths_of_dict(pad_width, ndim):
    """NumPy's pad_width as a dict: {axis: width or (before, after)}, the
    other axes unpadded."""
    from numpy.exceptions import AxisError
    seq = [(0, 0)] * ndim
    for axis, width in pad_width.items():
        if not -ndim <= operator.index(axis) < ndim:
            raise AxisError(axis, ndim)
        if isinstance(width, (int, np.integer)) and not isinstance(width, bool):
            seq[axis] = (width, width)
        elif (isinstance(width, tuple) and len(width) == 2
              and all(isinstance(w, (int, np.integer)) and not isinstance(w, bool) for w in width)):
            seq[axis] = width
        else:
            raise TypeError(f"pad(): the width of axis {axis} must be an integer or a pair of "
                            f"integers (before, after), got {width!r}")
    return seq


def pad(array, pad_width, mode="constant", **kwargs):
    """NumPy's pad: the modes constant, edge, reflect, symmetric (with
    reflect_type 'even' or 'odd'), wrap, empty, linear_ramp (end_values) and
    the statistics maximum, minimum, mean and median (stat_length): a new
    tensor on array's device; a function as mode is NumPy's (CPU tensors).

    Note [pad by slice copies]
        The centre is one copy; then, axis by axis (NumPy's order, so the
        corners come out as NumPy's), each border is filled from slices of
        what is already in place: constant by a fill, edge by a broadcast
        copy of the edge slice, reflect/symmetric/wrap by copies of chunks of
        the valid area, repeated while the border is wider than the axis
        (NumPy's algorithm, done with device copies)."""
    if isinstance(array, TensorBase):
        t = array
    else:
        t = asarray(array)
    if isinstance(pad_width, dict):
        pad_width = _pad_widths_of_dict(pad_width, t.ndim)
    if isinstance(pad_width, TensorBase):
        pad_width = pad_width._host_view()
    pw = np.asarray(pad_width)
    if not pw.dtype.kind == "i":
        raise TypeError("`pad_width` must be of integral type.")
    widths = [tuple(map(int, p)) for p in _as_pairs(pw, t.ndim, as_index=True)]
    if callable(mode):
        # NumPy calls the function on 1-d host rows of its own padded array:
        # for a CPU tensor that is NumPy's pad on its view; a device tensor
        # would go through the host row by row, so it is refused, saying how
        if t.is_cuda or t.dtype == _C.bfloat16:
            raise TypeError(f"pad with a function as mode runs the function on host rows: "
                            f"pad a CPU tensor (t.cpu()) and move the result back"
                            f"{'' if t.is_cuda else ' (and of a NumPy dtype, not bfloat16)'}")
        return numpy_call(np.pad, [t.numpy(), widths, mode], floats=False, **kwargs)
    if mode not in _PAD_KWARGS:
        raise ValueError(f"mode '{mode}' is not supported")
    unsupported = set(kwargs) - _PAD_KWARGS[mode]
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")
    shape = tuple(n + a + b for n, (a, b) in zip(t.shape, widths))
    out = empty(shape, dtype=t.dtype, device=t.device)
    centre = tuple(slice(a, a + n) for n, (a, b) in zip(t.shape, widths))
    out[centre + (Ellipsis,)]._copy_from(t)  # a view, even of a 0-d out
    if mode == "empty":
        return out
    if mode == "constant":
        values = _as_pairs(kwargs.get("constant_values", 0), t.ndim)
        for ax, ((a, b), (va, vb)) in enumerate(zip(widths, values)):
            roi = out[(_FULL,) * (ax + 1) + centre[ax + 1:]]
            if a:
                _along(roi, ax, slice(0, a))[...] = va
            if b:
                _along(roi, ax, slice(roi.shape[ax] - b, None))[...] = vb
        return out
    if t.size == 0:
        for ax, w in enumerate(widths):
            if t.shape[ax] == 0 and any(w):
                raise ValueError(f"can't extend empty axis {ax} using modes other than "
                                 f"'constant' or 'empty'")
        return out
    if mode == "linear_ramp":
        for ax, (w, ends) in enumerate(zip(widths, _as_pairs(kwargs.get("end_values", 0), t.ndim))):
            _pad_linear_ramp(out[(_FULL,) * (ax + 1) + centre[ax + 1:]], ax, w, ends)
        return out
    if mode in _PAD_STATS:
        lengths = _as_pairs(kwargs.get("stat_length"), t.ndim, as_index=True)
        for ax, (w, ls) in enumerate(zip(widths, lengths)):
            _pad_stat(out[(_FULL,) * (ax + 1) + centre[ax + 1:]], ax, w, ls, mode)
        return out
    method = kwargs.get("reflect_type", "even")
    if method not in ("even", "odd"):
        raise ValueError(f"reflect_type must be 'even' or 'odd', got {method!r}")
    for ax, (a, b) in enumerate(widths):
        roi = out[(_FULL,) * (ax + 1) + centre[ax + 1:]]
        n = t.shape[ax]
        if mode == "edge" or (mode in ("reflect", "symmetric") and n == 1):
            _fill_edges(roi, ax, a, b)
        elif mode == "wrap":
            while a or b:
                a, b = _wrap_both(roi, ax, a, b, n)
        else:
            while a or b:
                a, b = _reflect_both(roi, ax, a, b, method, n, mode == "symmetric")
    return out


_PAD_STATS = {"maximum": "amax", "minimum": "amin", "mean": "mean", "median": "median"}


def _pad_stat(roi, ax, widths, lengths, mode):
    """NumPy's stat modes on one axis: each border filled with the statistic
    of the stat_length values next to it (all of them by default), rounded
    half to even for an integer tensor."""
    from . import _quantiles, _reductions
    from ._ufuncs import around
    a, b = widths
    lo, hi = a, roi.shape[ax] - b
    n = hi - lo
    la = n if lengths[0] is None or n < lengths[0] else lengths[0]
    lb = n if lengths[1] is None or n < lengths[1] else lengths[1]
    if (la == 0 or lb == 0) and mode in ("maximum", "minimum"):
        raise ValueError("stat_length of 0 yields no value for padding")
    stat = getattr(_quantiles if mode == "median" else _reductions, _PAD_STATS[mode])

    def value(chunk):
        v = stat(chunk, axis=ax, keepdims=True)
        return around(v) if roi.dtype.kind in "iu" and v.dtype.kind == "f" else v  # NumPy rounds integers, not bool
    left = value(_along(roi, ax, slice(lo, lo + la)))
    right = left if la == lb == n else value(_along(roi, ax, slice(hi - lb, hi)))
    if a:
        _along(roi, ax, slice(0, a))[...] = left
    if b:
        _along(roi, ax, slice(hi, None))[...] = right


def _pad_linear_ramp(roi, ax, widths, ends):
    """NumPy's linear_ramp on one axis: from each end value to the edge (not
    reached), in the tensor's dtype."""
    from ._creation import linspace
    a, b = widths
    hi = roi.shape[ax] - b
    for width, end, edge, sl, flip in ((a, ends[0], slice(a, a + 1), slice(0, a), False),
                                       (b, ends[1], slice(hi - 1, hi), slice(hi, None), True)):
        if not width:
            continue
        ramp = linspace(end, squeeze(_along(roi, ax, edge), ax), width, endpoint=False, dtype=roi.dtype,
                        axis=ax)
        _along(roi, ax, sl)[...] = _along(ramp, ax, slice(None, None, -1)) if flip else ramp


def _fill_edges(roi, ax, a, b):
    n = roi.shape[ax]
    if a:
        _along(roi, ax, slice(0, a))._copy_from(_along(roi, ax, slice(a, a + 1)))
    if b:
        _along(roi, ax, slice(n - b, n))._copy_from(_along(roi, ax, slice(n - b - 1, n - b)))


def _reflect_both(padded, ax, left, right, method, period, include_edge):
    """One step of NumPy's _set_reflect_both: a chunk of reflected values on each side."""
    old = padded.shape[ax] - right - left
    if include_edge:
        old = old // period * period
        edge = 1
    else:
        old = (old - 1) // (period - 1) * (period - 1)  # the edge is left out
        edge = 0
    if left > 0:
        k = builtins.min(old, left)
        stop = left - edge
        chunk = _along(padded, ax, _rev_slice(stop + k, stop))
        if method == "odd":
            chunk = 2 * _along(padded, ax, slice(left, left + 1)) - chunk
        _along(padded, ax, slice(left - k, left))._copy_from(chunk)
        left -= k
    if right > 0:
        n = padded.shape[ax]
        k = builtins.min(old, right)
        start = n - right + edge - 2  # as a non-negative index
        chunk = _along(padded, ax, _rev_slice(start, start - k))
        if method == "odd":
            chunk = 2 * _along(padded, ax, slice(n - right - 1, n - right)) - chunk
        _along(padded, ax, slice(n - right, n - right + k))._copy_from(chunk)
        right -= k
    return left, right


def _rev_slice(start, stop):
    """slice(start, stop, -1) for non-negative start > stop >= -1 (stop -1: down to 0)."""
    return slice(start, stop if stop >= 0 else None, -1)


def _wrap_both(padded, ax, left, right, original_period):
    """One step of NumPy's _set_wrap_both: a chunk of wrapped values on each side."""
    n = padded.shape[ax]
    period = (n - right - left) // original_period * original_period
    new_left = new_right = 0
    if left > 0:
        end = left + period
        chunk = _along(padded, ax, slice(end - builtins.min(period, left), end))
        if left > period:
            area = slice(left - period, left)
            new_left = left - period
        else:
            area = slice(0, left)
        _along(padded, ax, area)._copy_from(chunk)
    if right > 0:
        start = n - right - period
        chunk = _along(padded, ax, slice(start, start + builtins.min(period, right)))
        if right > period:
            area = slice(n - right, n - right + period)
            new_right = right - period
        else:
            area = slice(n - right, n)
        _along(padded, ax, area)._copy_from(chunk)
    return new_left, new_right


__all__ = [
    "concatenate", "concat", "stack", "vstack", "hstack", "dstack", "column_stack", "split",
    "array_split", "hsplit", "vsplit", "dsplit", "unstack", "tile", "repeat", "roll", "flip",
    "fliplr", "flipud", "rot90", "moveaxis", "pad", "broadcast_arrays", "broadcast_shapes",
    "atleast_1d", "atleast_2d", "atleast_3d", "ascontiguousarray", "append", "insert", "delete",
    "resize", "trim_zeros", "rollaxis", "block", "asfortranarray", "asanyarray", "asarray_chkfinite",
    "require", "row_stack",
]
