"""Advanced indexing of device tensors: x[idx], x[mask], x[idx] = v and any
mix with basic indices, by NumPy's rules, without a trip through the host.

CPU tensors index through NumPy unless the key is big (Note [Big indices on
the CPU] in devtensor._views); here a tensor's key
is turned into the form of the core's gather and scatter (Note [Advanced
indexing on devices] in csrc/core/gather.c):

* a basic view V: the key with every advanced item replaced by full slices
  (a 0-d boolean by a new axis), Ellipsis expanded;
* one int64 index tensor per indexed axis of V, on the device: integer
  arrays as they are, integers as 0-d arrays, boolean masks as the
  coordinates of their true elements (found on the device, or by NumPy when
  the mask lives on the host);
* the broadcast index shape B and the result shape R: B replaces the indexed
  axes where they are next to each other in the key, else goes first
  (NumPy's rule; integers count as advanced indices there).

Index arrays may be on the host (lists, NumPy arrays, CPU tensors: PyTorch
accepts a CPU index for a CUDA tensor) or on the tensor's device; they are
checked on the device (Note [Bounds on the device] in cuda_index.cu).

On devices the common keys never come here: they are turned into the same
form in C (Note [Advanced keys in C] in csrc/python/advanced_key.c), which
hands this module the rest (rare keys, and every key that raises before the
kernels run, so that NumPy's messages are made here only).
"""
import numpy as np

from . import _C
from ._C import TensorBase
from ._views import _BAD_INDEX, _as_int, _broadcast_value, _fmt, _view

# Note [Claim slots]
# A scatter's CLAIM pass (Note [Last write wins] in cuda_index.cu) needs one int64
# slot per element of the span of memory the targets lie in: for a contiguous
# view that is one per element.  A sparse view (x[::1000][idx] = v) would need
# far more, so above this many slots per element (and 1024 more) the scatter
# goes into a contiguous copy of the view, which is then written back.
_SPARSE_VIEW_FACTOR = 4
_NOT_INTEGER = "arrays used as indices must be of integer (or boolean) type"


class _Adv:
    """One advanced item: the V axes it indexes and, once read, its index tensors."""
    __slots__ = ("kind", "value", "v_axis", "arr_axis", "ndim")

    def __init__(self, kind, value, ndim):
        self.kind, self.value, self.ndim = kind, value, ndim


def _classify(k, device):
    """An advanced item for k (or None for a basic one)."""
    if k is None or k is Ellipsis or isinstance(k, slice):
        return None
    if isinstance(k, (bool, np.bool_)):
        return _Adv("bool0", bool(k), 0)
    i = _as_int(k)
    if i is not None:
        return _Adv("int", i, 1)
    if isinstance(k, TensorBase):
        if k.device != device and k.device.type != "cpu":
            raise RuntimeError(f"indices should be either on cpu or on the same device as the "
                               f"indexed tensor ({device}), not on {k.device}")
        if k.dtype.kind == "b":
            return _Adv("mask", k, k.ndim) if k.ndim else _Adv("bool0", bool(k.item()), 0)
        if k.dtype.kind not in "iu":
            raise IndexError(_NOT_INTEGER)
        return _Adv("array", k, 1)
    if isinstance(k, (list, tuple, range, np.ndarray)):
        a = np.asarray(k)
        if a.size == 0 and a.dtype.kind == "f" and not isinstance(k, np.ndarray):
            a = a.astype(np.intp)  # NumPy reads an empty list as an integer index
        if a.dtype.kind == "b":
            return _Adv("mask", a, a.ndim) if a.ndim else _Adv("bool0", bool(a), 0)
        if a.dtype.kind not in "iu":
            raise IndexError(_NOT_INTEGER if isinstance(k, np.ndarray) else _BAD_INDEX)
        return _Adv("array", a, 1)
    raise IndexError(_BAD_INDEX)


def _parse(x, key):
    """(basic key for V, advanced items with their V and array axes)."""
    key = key if isinstance(key, tuple) else (key,)
    items = [(k, _classify(k, x.device)) for k in key]
    if sum(k is Ellipsis for k, _ in items) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(1 if a is None and isinstance(k, slice) else a.ndim if a is not None else 0
                   for k, a in items)
    if consumed > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but "
                         f"{consumed} were indexed")
    basic, advs, v_axis, arr_axis = [], [], 0, 0
    for k, a in items:
        if a is None:
            if k is Ellipsis:
                n = x.ndim - consumed
                basic += [slice(None)] * n
                v_axis, arr_axis = v_axis + n, arr_axis + n
            elif k is None:
                basic.append(None)
                v_axis += 1
            else:
                basic.append(k)
                v_axis, arr_axis = v_axis + 1, arr_axis + 1
            continue
        a.v_axis, a.arr_axis = v_axis, arr_axis
        if a.kind == "bool0":  # a new axis, indexed by [0] or []
            basic.append(None)
            v_axis += 1
        else:
            basic += [slice(None)] * a.ndim
            v_axis, arr_axis = v_axis + a.ndim, arr_axis + a.ndim
        advs.append(a)
    indexed = sum(1 if a.kind == "bool0" else a.ndim for a in advs)
    b_ndim = max(1 if a.kind in ("mask", "bool0") else getattr(a.value, "ndim", 0) for a in advs)
    result_ndim = v_axis - indexed + b_ndim
    if result_ndim > _C.MAX_NDIM or v_axis > _C.MAX_NDIM:
        # (Note [Indexing is NumPy's, with few differences] in _views.py)
        raise IndexError(f"number of dimensions must be within [0, {_C.MAX_NDIM}], indexing "
                         f"result would have {result_ndim}")
    return tuple(basic), advs


def _device_int64(a, device):
    """a (NumPy array or tensor of integers) as an int64 tensor on device."""
    from ._creation import asarray
    if isinstance(a, TensorBase):
        if a.dtype != np.int64:
            a = a.astype(np.int64)
        return a if a.device == device else a.to(device)
    return asarray(np.asarray(a, dtype=np.int64), device=device)


def _check_mask_shape(mask, shape, a):
    """NumPy's error for a mask that does not fit V's axes `shape`."""
    for j, (n, m) in enumerate(zip(shape, mask.shape)):
        if n != m and m != 0:  # NumPy lets an empty mask axis pass (it selects nothing)
            raise IndexError(f"boolean index did not match indexed array along axis "
                             f"{a.arr_axis + j}; size of axis is {n} but size of corresponding "
                             f"boolean axis is {m}")


def _mask_coordinates(mask):
    """The index tensors (one per mask axis) of a boolean mask over V's axes
    (nonzero's: a tensor of another dtype counts its non-zero elements)."""
    if not isinstance(mask, TensorBase):
        return list(np.nonzero(mask))  # read where it lives; uploaded by the caller
    pos = _C._nonzero_positions(mask)
    if mask.ndim == 1:
        return [pos]
    coords, rest = [], pos
    for n in reversed(mask.shape[1:]):  # C order: the last axis varies fastest
        coords.append(rest % n)
        rest = rest // n
    coords.append(rest)
    return coords[::-1]


def _one_merged_mask(x, v, advs):
    """_resolve's result for a key whose one advanced item is a mask tensor
    over V axes that merge into one (C-ordered among themselves, as a whole
    contiguous tensor's are): V viewed with those axes as one, indexed by
    the mask's flat positions.

    Note [Masks over mergeable axes]
        M[B] with B of M's shape is the commonest mask of all.  Its general
        form turns the mask's flat positions into one coordinate tensor per
        axis (a division and a remainder each) and gathers with all of them;
        over axes that merge, the flat positions index the merged axis
        directly (1000 x 1000 float64 on the CPU: 4.6 ms -> about NumPy's
        1.2)."""
    if len(advs) != 1 or advs[0].kind != "mask" or advs[0].ndim < 2 or not isinstance(advs[0].value, TensorBase):
        return None
    a = advs[0]
    lo, hi = a.v_axis, a.v_axis + a.ndim
    if any(v.strides[d] != v.strides[d + 1] * v.shape[d + 1] for d in range(lo, hi - 1)):
        return None
    span = 1
    for n in v.shape[lo:hi]:
        span *= n
    flat = v._as_strided(v.shape[:lo] + (span,) + v.shape[hi:], v.strides[:lo] + (v.strides[hi - 1],) +
                         v.strides[hi:], 0)
    pos = _device_int64(_C._nonzero_positions(a.value), x.device)
    return flat, [(lo, a.arr_axis)], [pos], tuple(pos.shape)


def _resolve(x, key):
    """(V, advanced items each with .value an int64 device tensor, B) for a device x."""
    basic, advs = _parse(x, key)
    v = x._index_basic(basic)
    for a in advs:  # NumPy checks every mask's shape before any integer's bounds
        if a.kind == "mask":
            _check_mask_shape(a.value, v.shape[a.v_axis:a.v_axis + a.ndim], a)
    merged = _one_merged_mask(x, v, advs)
    if merged is not None:
        return merged
    axes, indices = [], []
    for a in advs:
        if a.kind == "int":
            n = v.shape[a.v_axis]
            if not -n <= a.value < n:
                raise IndexError(f"index {a.value} is out of bounds for axis {a.arr_axis} "
                                 f"with size {n}")
            found = [np.int64(a.value)]
        elif a.kind == "bool0":
            found = [np.zeros(1 if a.value else 0, np.int64)]
        elif a.kind == "mask":
            found = _mask_coordinates(a.value)
        else:
            found = [a.value]
        for j, f in enumerate(found):
            axes.append((a.v_axis + j, a.arr_axis + (j if a.kind == "mask" else 0)))
            indices.append(_device_int64(f, x.device))
    shapes = [t.shape for t in indices]
    try:
        b_shape = np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                         "with shapes " + "".join(_fmt(s) + " " for s in shapes)) from None
    return v, axes, indices, tuple(b_shape)


def _check_empty_axes(v, axes, indices):
    """NumPy's IndexError for an index into an axis of length 0: the kernels'
    view of V would reach past its empty storage, so the kernels cannot say it."""
    for (va, aa), t in zip(axes, indices):
        if v.shape[va] == 0 and t.size > 0:
            first = int(t.reshape(-1)[0].item())
            raise IndexError(f"index {first} is out of bounds for axis {aa} with size 0")


def _geometry(v, axes, b_shape):
    """(R, b_start, V's strides seen over R) for the indexed V axes `axes`."""
    indexed = [va for va, _ in axes]
    rest = [d for d in range(v.ndim) if d not in set(indexed)]
    together = indexed == list(range(indexed[0], indexed[0] + len(indexed)))
    b_start = indexed[0] if together else 0
    before = [d for d in rest if d < b_start] if together else []
    after = [d for d in rest if d not in before]
    shape = tuple(v.shape[d] for d in before) + b_shape + tuple(v.shape[d] for d in after)
    strides = (tuple(v.strides[d] for d in before) + (0,) * len(b_shape) +
               tuple(v.strides[d] for d in after))
    if len(shape) > _C.MAX_NDIM:
        raise IndexError(f"number of dimensions must be within [0, {_C.MAX_NDIM}]")
    return shape, b_start, strides


def _axis_args(v, axes, indices, b_shape):
    from ._views import broadcast_to
    idx = tuple(t if t.shape == b_shape else broadcast_to(t, b_shape) for t in indices)
    return (idx, tuple(v.shape[va] for va, _ in axes), tuple(v.strides[va] for va, _ in axes),
            tuple(aa for _, aa in axes))


def getitem(x, key):
    """x[key] for a device tensor x and a key with advanced items: a new tensor."""
    from ._creation import empty
    v, axes, indices, b_shape = _resolve(x, key)
    _check_empty_axes(v, axes, indices)
    shape, b_start, strides = _geometry(v, axes, b_shape)
    out = empty(shape, dtype=x.dtype, device=x.device)
    _C._take(out, _view(v, shape, strides), b_start, *_axis_args(v, axes, indices, b_shape))
    return out


def _is_whole_mask(x, key):
    """key is one boolean array of x's shape (NumPy's own path, with its messages)."""
    if isinstance(key, tuple):
        if len(key) != 1:
            return False
        key = key[0]
    dtype = getattr(key, "dtype", None)
    return (dtype is not None and dtype.kind == "b" and getattr(key, "ndim", 0) == x.ndim
            and x.ndim > 0)


def _values(x, value, shape, whole_mask=False):
    """value as a tensor of x's dtype on x's device, broadcast to shape."""
    from ._creation import asarray, empty
    from ._views import assign
    if isinstance(value, (bool, int, float, complex, np.generic)):
        held = empty((), dtype=x.dtype, device=x.device)
        assign(held, value)  # NumPy's checks (Note [Storing a float in an integer])
        return _broadcast_value(held, shape)
    if not isinstance(value, TensorBase):
        value = asarray(np.asarray(value), device=x.device)
    elif value.device != x.device:
        raise RuntimeError(f"Expected all tensors to be on the same device, but found at "
                           f"least two devices, {x.device} and {value.device}!")
    if value.dtype != x.dtype:  # cast as NumPy's setitem does (unsafe)
        held = empty(value.shape, dtype=x.dtype, device=x.device)
        held._copy_from(value)
        value = held
    if whole_mask:  # NumPy's rules for x[mask] = v with a mask of x's shape
        if value.ndim > 1:
            raise TypeError(f"NumPy boolean array indexing assignment requires a 0 or "
                            f"1-dimensional input, input has {value.ndim} dimensions")
        if value.ndim == 1 and value.shape[0] not in (1, shape[0]):
            raise ValueError(f"NumPy boolean array indexing assignment cannot assign "
                             f"{value.shape[0]} input values to the {shape[0]} output values "
                             f"where the mask is true")
    try:
        return _broadcast_value(value, shape)
    except ValueError:
        raise ValueError(f"shape mismatch: value array of shape {_fmt(value.shape)} could not "
                         f"be broadcast to indexing result of shape {_fmt(shape)}") from None


def _span_elements(v):
    """Elements of v's itemsize between v's lowest and highest byte, plus one."""
    if v.size == 0:
        return 0
    return sum(abs((n - 1) * s) for n, s in zip(v.shape, v.strides)) // v.itemsize + 1


def setitem(x, key, value):
    """x[key] = value for a device tensor x and a key with advanced items.

    As NumPy: value is broadcast to x[key]'s shape and cast to x's dtype; where
    an element is indexed more than once the last value wins, so x[idx] += 1
    adds one once per distinct index."""
    if not x._writeable:
        raise ValueError("assignment destination is read-only")
    v, axes, indices, b_shape = _resolve(x, key)
    _check_empty_axes(v, axes, indices)
    shape, b_start, strides = _geometry(v, axes, b_shape)
    vals = _values(x, value, shape, _is_whole_mask(x, key))
    args = _axis_args(v, axes, indices, b_shape)
    if _span_elements(v) <= _SPARSE_VIEW_FACTOR * v.size + 1024:
        _C._put(_view(v, shape, strides), vals, b_start, *args)
        return
    # Note [Claim slots]
    from ._creation import empty
    dense = empty(v.shape, dtype=v.dtype, device=v.device)
    dense._copy_from(v)
    args = _axis_args(dense, axes, indices, b_shape)
    _, _, dense_strides = _geometry(dense, axes, b_shape)
    _C._put(_view(dense, shape, dense_strides), vals, b_start, *args)
    v._copy_from(dense)
