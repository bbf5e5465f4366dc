"""NumPy's indexing functions: nonzero, argwhere, flatnonzero, one-argument
where, take, take_along_axis, put, put_along_axis, compress, extract, place,
putmask, select and choose, with NumPy's results and errors.

Each is built on advanced indexing (devtensor._advanced on devices, NumPy on
the CPU) and elementwise operations, so it runs on the tensor's device: an
index or mask never travels to the host, except for the size of a mask's
result (Note [Advanced indexing on devices] in csrc/core/gather.c).
"""
import math
import operator

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from . import _C, _creation, _dtype_api, _manipulation, _reductions, _ufuncs, _views
from ._C import TensorBase, tensor
from ._advanced import _mask_coordinates
from ._operands import SMALL_CPU_WORK, as_tensor, host_operand, numpy_call, numpy_views, small_cpu_views
from ._views import _tensor
from ._order import order_letter

_MODES = ("raise", "wrap", "clip")


def _like(x, obj, dtype=None):
    """obj as a tensor on x's device (a tensor elsewhere is refused by the ops)."""
    if isinstance(obj, TensorBase):
        return obj if dtype is None or obj.dtype == dtype else obj.astype(dtype)
    return _creation.asarray(obj, dtype=dtype, device=x.device)


def _values_like(x, values, dtype):
    """The values put, place and putmask write into x: on x's device (a tensor
    from another device copied over, as assignment does: Note [Values from
    another device] in csrc/python/index.c) and of dtype."""
    if isinstance(values, TensorBase) and values.device != x.device:
        values = values.to(x.device)
    return _like(x, values, dtype=dtype)


# The int64 C-order positions of a tensor's non-zero elements, on its device.
_positions = _C._nonzero_positions


def nonzero(a, *, as_tuple=True):
    """The indices of a's non-zero elements, one int64 tensor per axis
    (as_tuple=False, PyTorch's default: one row per element, argwhere)."""
    a = _tensor(a)
    if not as_tuple:
        return argwhere(a)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                         "np.atleast_1d(scalar).nonzero() instead.")
    return tuple(_mask_coordinates(a))


def flatnonzero(a):
    """The indices of the non-zero elements of a.ravel()."""
    a = _tensor(a)
    return _positions(a)


def argwhere(a):
    """The indices of a's non-zero elements as an (N, a.ndim) tensor."""
    a = _tensor(a)
    if a.ndim == 0:
        return argwhere(a.reshape(1))[:, :0]
    return _manipulation.stack(nonzero(a), axis=1)


def _check_mode(mode):
    if mode not in _MODES:
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")


def _mode_indices(indices, n, mode):
    """indices for take/put/choose under mode: wrapped or clipped, else as given."""
    _check_mode(mode)
    if mode == "raise":
        return indices
    if n == 0:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    return indices % n if mode == "wrap" else _ufuncs.clip(indices, 0, n - 1)


def _write_out(result, out):
    if out is None:
        return result
    out[...] = result
    return out


def _int_indices(x, indices, rule):
    """Indices as an integer tensor on device, converted as NumPy's take and
    put convert them: a list or scalar to intp as np.array(..., intp) does
    (Python floats truncate), an array or tensor by casting (bool to int64;
    floats refused, in the words of NumPy's casting rule, which is
    'same_kind' for take and 'safe' for put), on x's device."""
    if not isinstance(indices, (TensorBase, np.ndarray)):
        return _like(x, np.asarray(indices, dtype=np.intp))
    idx = _like(x, indices)
    if idx.dtype.kind == "b":
        return idx.astype(np.int64)
    if idx.dtype.kind not in "iu":
        what = "scalar" if idx.ndim == 0 else "array data"
        raise TypeError(f"Cannot cast {what} from dtype('{idx.dtype}') to dtype('int64') "
                        f"according to the rule '{rule}'")
    return idx


_NESTED = frozenset((list, tuple))  # take's short flat lists hold none of these


def take(a, indices, axis=None, out=None, mode="raise"):
    """Elements of a at indices along axis (of a.ravel() when axis is None)."""
    if (out is None and mode == "raise" and isinstance(a, TensorBase) and isinstance(indices, TensorBase)
            and indices.dtype.kind in "iu" and indices.device == a.device and type(axis) in (int, type(None))):
        # the common call: an integer index tensor is C indexing's (its checks, its errors)
        if axis is None:
            return (a if a.ndim == 1 else a.reshape(-1))[indices]
        return a[(slice(None),) * normalize_axis_index(axis, a.ndim) + (indices,)]
    a = _tensor(a)
    if (out is None and a.device.type == "cpu" and a.dtype is not _C.bfloat16 and
            not (isinstance(indices, TensorBase) and indices.device.type != "cpu")):
        # Note [Big indices on the CPU]: NumPy's take for small keys, whose
        # conversions and errors are NumPy's own
        ix = indices.numpy() if isinstance(indices, TensorBase) else indices
        if type(ix) is list and len(ix) < 64 and _NESTED.isdisjoint(map(type, ix)):
            small = True  # flat and short: NumPy converts it itself
        else:
            if not isinstance(ix, np.ndarray):
                ix = np.asarray(ix, dtype=np.intp)
            small = not _views._use_index_kernels(a, ix)
        if small and mode != "wrap":  # NumPy's wrap adds n to an index until it is not negative:
            return numpy_call(np.take, [a.numpy(), ix], False, axis=axis, mode=mode)  # -2**63 never ends
    if axis is None:
        a, axis = a.reshape(-1), 0
    axis = normalize_axis_index(operator.index(axis), a.ndim)
    idx = _int_indices(a, indices, "same_kind")
    _check_mode(mode)
    if mode != "raise" and idx.size:
        idx = _mode_indices(idx, a.shape[axis], mode)
    key = (slice(None),) * axis + (idx if idx.ndim else idx.reshape(1),)
    result = a[key]
    if idx.ndim == 0:  # a 0-d index takes one slice: drop the axis it kept
        result = result[(slice(None),) * axis + (0,)].copy()
    return _write_out(result, out)


def _along_axis_key(arr, indices, axis):
    if indices.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    if indices.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    key = []
    for d in range(arr.ndim):
        if d == axis:
            key.append(indices)
        else:
            shape = [1] * arr.ndim
            shape[d] = arr.shape[d]
            key.append(_creation.arange(arr.shape[d], device=arr.device).reshape(shape))
    return tuple(key)


def _along_axis_args(arr, indices, axis):
    arr = _tensor(arr)
    indices = _like(arr, indices)
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        return arr.reshape(-1), indices, 0
    return arr, indices, normalize_axis_index(operator.index(axis), arr.ndim)


def take_along_axis(arr, indices, axis=-1):
    """arr's values at 1-d indices along axis, matched over the other axes."""
    arr, indices, axis = _along_axis_args(arr, indices, axis)
    return arr[_along_axis_key(arr, indices, axis)]


def put_along_axis(arr, indices, values, axis):
    """arr's values at 1-d indices along axis = values, in place."""
    if not isinstance(arr, TensorBase):
        raise TypeError(f"put_along_axis() argument 1 must be a devtensor tensor, not "
                        f"{type(arr).__name__}")
    flat, indices, axis2 = _along_axis_args(arr, indices, axis)
    if axis is None:
        _flat_put(arr, indices, values)
        return
    arr[_along_axis_key(arr, indices, axis2)] = values


def _flat_put(a, positions, values):
    """a.flat[positions] = values, on a's device, a's order C."""
    if a.is_contiguous():
        a.reshape(-1)[positions] = values
        return
    flat = a.reshape(-1)  # a copy: written back
    flat[positions] = values
    a[...] = flat.reshape(a.shape)


def _cycled(values, n):
    """values (flattened) repeated to n elements, as put/place/putmask use them."""
    v = values.reshape(-1)
    if v.size == n:
        return v
    return v[_creation.arange(n, device=v.device) % v.size]


def put(a, ind, v, mode="raise"):
    """a.flat[ind] = v in place, v repeated as needed; the last write wins."""
    if not isinstance(a, TensorBase):
        raise TypeError(f"put() argument 1 must be a devtensor tensor, not {type(a).__name__}")
    if not a._writeable:
        raise ValueError("put: output array is read-only")
    ind = _int_indices(a, ind, "safe").reshape(-1)
    v = _values_like(a, v, a.dtype)
    _check_mode(mode)
    if ind.size == 0 or v.size == 0:
        return
    ind = _mode_indices(ind, a.size, mode)
    _flat_put(a, ind, _cycled(v, ind.size))


def compress(condition, a, axis=None, out=None):
    """The slices of a along axis where condition (1-d) is true."""
    a = _tensor(a)
    cond = _like(a, condition)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    return take(a, _positions(cond), axis=axis, out=out)


def extract(condition, arr):
    """arr.ravel()'s elements where condition.ravel() is non-zero."""
    arr = _tensor(arr)
    cond = _like(arr, condition)
    return take(arr.reshape(-1), _positions(cond))


def place(arr, mask, vals):
    """arr's elements where mask is true = vals in order, repeated as needed."""
    if not isinstance(arr, TensorBase):
        raise TypeError(f"argument 1 must be a devtensor tensor, not {type(arr).__name__}")
    mask = _like(arr, mask)
    if mask.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    pos = _positions(mask)
    vals = _values_like(arr, vals, arr.dtype)
    if pos.size == 0:
        return
    if vals.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    _flat_put(arr, pos, _cycled(vals, pos.size))


def putmask(a, mask, values):
    """a.flat[n] = values.flat[n % len(values)] wherever mask.flat[n] is true."""
    if not isinstance(a, TensorBase):
        raise TypeError(f"argument a of putmask must be a devtensor tensor, not "
                        f"{type(a).__name__}")
    if not a._writeable:
        raise ValueError("putmask: output array is read-only")
    mask = _like(a, mask)
    if mask.size != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    values = _values_like(a, values, a.dtype).reshape(-1)
    if values.size == 0:
        return
    pos = _positions(mask)
    if pos.size:
        _flat_put(a, pos, values[pos % values.size] if values.size != a.size else values[pos])


def _weak_scalars(given, tensors):
    """The operands of a result_type: the Python int, float and complex
    scalars that were given (weak, NEP 50), the tensors made of the rest."""
    return [g if type(g) in (int, float, complex) else t for g, t in zip(given, tensors)]


def select(condlist, choicelist, default=0):
    """choicelist[i]'s element where condlist[i] is the first true condition, else default."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    first = next((c for c in list(condlist) + list(choicelist) if isinstance(c, TensorBase)), None)
    conds = [_tensor(c) if first is None else _like(first, c) for c in condlist]
    choices = [_tensor(c) if first is None else _like(first, c) for c in choicelist]
    for i, c in enumerate(conds):
        if c.dtype.kind != "b":
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    if not isinstance(default, (bool, int, float, complex, TensorBase)):  # a list, an array: a tensor
        default = _tensor(default) if first is None else _like(first, default)
    # Python scalars (int, float, complex: not bool) are weak, as in NumPy's select
    dtype = _dtype_api.result_type(*_weak_scalars(choicelist, choices), default)
    result = _like(choices[0], default).astype(dtype)  # cast unsafely, as NumPy's full
    for c, v in zip(reversed(conds), reversed(choices)):
        result = _ufuncs.where(c, v, result)
    return result.astype(dtype, copy=False)


def choose(a, choices, out=None, mode="raise"):
    """choices[a[i]][i] for every i, everything broadcast together."""
    views = small_cpu_views(a) if out is None and type(choices) in (list, tuple) else None
    if views is not None:  # Note [Small CPU work through NumPy's functions]
        hosts = [host_operand(c) for c in choices]
        if all(ok for ok, _ in hosts):
            return numpy_call(np.choose, [views[0], [v for _, v in hosts]], floats=False, mode=mode)
    if not isinstance(a, TensorBase):  # data goes where the choices are
        a = as_tensor(a, next((c.device for c in choices if isinstance(c, TensorBase)), None))
    a = _tensor(a)
    if a.dtype.kind not in "biu":  # bool casts to int64 safely, as NumPy's choose takes it
        raise TypeError(f"Cannot cast array data from dtype('{a.dtype}') to dtype('int64') "
                        f"according to the rule 'safe'")
    if isinstance(choices, TensorBase):
        choices = list(choices)
    given = list(choices)
    choices = [_like(a, c) for c in given]
    n = len(choices)
    if n == 0:
        raise ValueError("0-length sequence.")
    dtype = _dtype_api.result_type(*_weak_scalars(given, choices))  # Python scalars weak, as NumPy's
    parts = _manipulation.broadcast_arrays(a, *choices)
    idx, stacked = parts[0].astype("int64"), _manipulation.stack([p.astype(dtype) for p in parts[1:]])
    if mode == "raise":
        idx = _ufuncs.where(idx < 0, n, idx)  # a negative entry is invalid too
    else:
        idx = _mode_indices(idx, n, mode)
    try:
        result = take_along_axis(stacked, idx.reshape((1,) + idx.shape), axis=0)[0]
    except IndexError:
        raise ValueError("invalid entry in choice array") from None
    return _write_out(result, out)


def _dims(shape):
    if type(shape) is not tuple:
        shape = (shape,) if isinstance(shape, (int, np.integer)) or getattr(shape, "ndim", None) == 0 else tuple(shape)
    dims = shape
    for n in shape:  # Python ints, the common case, as they are
        if type(n) is not int:
            dims = tuple(map(operator.index, shape))
            break
    if dims and min(dims) < 0:
        raise ValueError("dimensions must be non-negative")
    return dims


def _order(order):
    order = order_letter(order)
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    return order


def _integer_tensor(x):
    t = _tensor(x)
    if t.dtype.kind not in "iu":
        if t.size == 0 and t.dtype.kind == "f":  # NumPy accepts an empty float list
            return t.astype(_C.int64)
        raise TypeError("only int indices permitted")
    return t.astype(_C.int64, copy=False)


def unravel_index(indices, shape, order="C"):
    """NumPy's unravel_index: the coordinates in an array of `shape` of flat
    indices, a tuple of int64 tensors of indices' shape on its device."""
    dims = _dims(shape)
    order = _order(order)
    if type(indices) is int and -(1 << 63) <= indices < (1 << 63):
        # one flat index: the coordinates in Python, then 0-d tensors
        size = math.prod(dims)
        if not 0 <= indices < size:
            raise ValueError(f"index {indices} is out of bounds for array with size {size}")
        coords, rest = [], indices
        for n in (reversed(dims) if order == "C" else dims):
            coords.append(rest % n)  # n > 0: size > indices >= 0
            rest //= n
        return tuple(map(tensor, reversed(coords) if order == "C" else coords))
    if (not indices.is_cuda and indices.dtype.kind in "iu" if isinstance(indices, TensorBase)
            else isinstance(indices, (np.ndarray, list, tuple, np.integer))):
        # Note [unravel_index on the CPU]: host indices are NumPy's work (its
        # checks, errors and speed), on a zero-copy view of a CPU tensor;
        # the coordinates are wrapped, not copied (host data's go to the
        # default device, as the factories' do).
        on_cpu = isinstance(indices, TensorBase)
        coords = np.unravel_index(indices._numpy_view() if on_cpu else indices, dims, order)
        if coords and type(coords[0]) is not np.ndarray:  # NumPy's scalars, for 0-d indices
            coords = map(np.asarray, coords)
        return tuple([_C._from_numpy(c) if on_cpu else _creation.asarray(c) for c in coords])
    t = _integer_tensor(indices)
    size = 1
    for n in dims:
        size *= n
    if t.size and bool(_reductions.any((t < 0) | (t >= size))):
        bad = t[(t < 0) | (t >= size)].ravel()[0].item()
        raise ValueError(f"index {bad} is out of bounds for array with size {size}")
    coords = []
    rest = t
    for n in (reversed(dims) if order == "C" else dims):
        coords.append(rest % n if n else rest)
        rest = rest // n if n else rest
    return tuple(reversed(coords)) if order == "C" else tuple(coords)


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """NumPy's ravel_multi_index: flat indices of coordinate arrays in an
    array of shape `dims`; mode 'raise', 'wrap' or 'clip' (one, or one per
    axis); int64 on the coordinates' device."""
    views = numpy_views(*multi_index) if type(multi_index) in (list, tuple) and multi_index else None
    if views is not None and all(isinstance(v, np.ndarray) for v in views) and \
            sum(v.size for v in views) < SMALL_CPU_WORK:  # Note [Small CPU work through NumPy's functions]
        return numpy_call(np.ravel_multi_index, [views], floats=False, dims=dims, mode=mode, order=order)
    dims = _dims(dims)
    order = _order(order)
    coords = list(multi_index)
    if len(coords) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    modes = [mode] * len(dims) if isinstance(mode, str) else list(mode)
    if len(modes) != len(dims):
        raise ValueError("parameter mode must be a string or a sequence of length "
                         f"{len(dims)}")
    device = next((c.device for c in coords if isinstance(c, TensorBase)), None)
    coords = [_integer_tensor(c if isinstance(c, TensorBase) else _creation.asarray(c, device=device))
              for c in coords]
    size = 1
    for n in dims:
        size *= n
    if size > 2 ** 63 - 1:
        raise ValueError("invalid dims: array size defined by dims is larger than the maximum "
                         "possible size.")
    coords = _manipulation.broadcast_arrays(*coords) if coords else coords
    if size == 0 and coords and coords[0].size:  # in every mode: no index fits (NumPy's words)
        raise ValueError("cannot unravel if shape has zero entries (is empty).")
    flat = None
    stride = 1
    axes = range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))
    for k in axes:
        c, n, m = coords[k], dims[k], modes[k]
        _check_mode(m)
        if m == "raise":
            if c.size and bool(_reductions.any((c < 0) | (c >= n))):
                raise ValueError("invalid entry in coordinates array")
        elif m == "wrap":
            c = c % n if n else c
        else:
            c = _ufuncs.clip(c, 0, max(n - 1, 0))
        term = c * stride
        flat = term if flat is None else flat + term
        stride *= n
    if flat is None:
        raise ValueError("parameter multi_index must be a sequence of length 0")
    return flat
