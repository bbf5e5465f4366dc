"""Views: basic indexing (getitem and setitem), reshape, transpose, squeeze,
expand_dims and broadcast_to, with NumPy's results, strides and errors.

Every view is made by one primitive, ``TensorBase._as_strided(shape, strides,
offset)``, which shares the storage and checks bounds in the C core; so these
functions only compute shapes and byte strides on the host and work the same
on every device without touching device data.

Note [Indexing is NumPy's, with few differences]
    * Indexing every axis with an integer gives a 0-d tensor holding a copy
      of the element, where NumPy gives a scalar (a copy too) and PyTorch a
      0-d view (Note [An element is a copy] in csrc/python/index.c); use
      ``.item()`` for the Python scalar.
    * Advanced indexing (integer arrays, boolean masks) gives a copy, as in
      NumPy: through the backend's gather and scatter kernels on devices and
      for big keys on the CPU (devtensor._advanced), through NumPy otherwise.
    A 0-d integer tensor used as an index on a device is read back to the host
    (one scalar), as PyTorch does.  And on devices (and for big keys on the CPU)
    an advanced key whose None items would make the intermediate view pass 64
    axes is refused even where NumPy's result would have 64 or fewer.

Note [broadcast_to is read-only]
    As NumPy's, broadcast_to views are read-only for good: writing through a
    view with zero strides would write one element many times, in an
    unspecified order on a GPU.  Copy it first if you mean to write.
"""
import operator

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from . import _C
from ._C import TensorBase
from ._order import order_letter

_ARRAYS = (TensorBase, np.ndarray)

_BAD_INDEX = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
              "integer or boolean arrays are valid indices")


def _tensor(x):
    """x itself if it is a tensor, else devtensor.asarray(x) (NumPy's functions accept lists)."""
    if isinstance(x, TensorBase):
        return x
    from ._creation import asarray
    return asarray(x)


def shape_arg(args, name):
    """A shape from varargs (reshape(2, 3)) or from one sequence (reshape((2, 3)))."""
    from ._creation import _shape
    return tuple(operator.index(n) for n in _shape(args, name))


def axes_arg(args):
    """Axes from varargs (transpose(1, 0)) or one sequence or None (transpose((1, 0)))."""
    if len(args) == 1 and (args[0] is None or hasattr(args[0], "__len__")):
        return args[0]
    return args or None


def _view(x, shape, strides, offset_bytes=0):
    return x._as_strided(tuple(shape), tuple(strides), offset_bytes // x.itemsize)


def _contiguous_strides(shape, itemsize):
    """C-order strides, as NumPy fills them (a zero-length axis counts as one)."""
    strides, step = [], itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= n or 1
    return tuple(reversed(strides))


# ---- indexing ----

def _as_int(k):
    """k as a Python int if it is a basic integer index (not bool), else None:
    ints, NumPy integers, 0-d integer arrays and tensors, and any other object
    with __index__ (as NumPy takes them)."""
    if isinstance(k, (bool, np.bool_)):
        return None
    if isinstance(k, (int, np.integer)):
        return int(k)
    if isinstance(k, (TensorBase, np.ndarray)):
        return int(k) if k.ndim == 0 and k.dtype.kind in "iu" else None
    if hasattr(type(k), "__index__"):
        return operator.index(k)
    return None


def _is_advanced(k):
    return isinstance(k, (list, range, TensorBase, np.ndarray, bool, np.bool_))  # range: a sequence, as NumPy's


def _split_key(key):
    """The key as a tuple, or None if it needs advanced indexing."""
    key = key if isinstance(key, tuple) else (key,)
    out = []
    for k in key:
        if k is None or k is Ellipsis or isinstance(k, slice):
            if k is Ellipsis and Ellipsis in out:  # NumPy's order of errors
                raise IndexError("an index can only have a single ellipsis ('...')")
            out.append(k)
            continue
        i = _as_int(k)
        if i is not None:
            out.append(i)
        elif _is_advanced(k) or isinstance(k, tuple):
            return None
        else:
            raise IndexError(_BAD_INDEX)
    return out


def _basic_view(x, key):
    """x[key] for a basic key (the list _split_key made): a view of x, made
    by the core's rules (Note [Basic indexing] in csrc/core/index.c)."""
    return x._index_basic(tuple(key))


def _wrap_i64(n):
    """n in int64 two's complement, as NumPy computes a step's stride: it can
    overflow only when the slice has at most one element, whose stride is moot
    (np.arange(10)[::2**62] is [0])."""
    return (n + 2**63) % 2**64 - 2**63


def _numpy_key(key):
    """The key with CPU tensors replaced by the NumPy arrays that share their memory."""
    conv = (lambda k: k.numpy() if isinstance(k, TensorBase) else k)
    return tuple(map(conv, key)) if isinstance(key, tuple) else conv(key)


def _advanced_on_host(x, key):
    """The NumPy array of the CPU tensor x and the key NumPy reads.  Index
    tensors on a device are PyTorch's error for a CPU tensor (a device
    tensor takes CPU indices, as in PyTorch)."""
    for k in key if isinstance(key, tuple) else (key,):
        if isinstance(k, TensorBase) and k.device.type != "cpu":
            raise RuntimeError(f"indices should be either on cpu or on the same device as the indexed "
                               f"tensor (cpu), not on {k.device}")  # _advanced.py's words
    return x.numpy(), _numpy_key(key)


# Note [Big indices on the CPU]
# NumPy's fancy indexing runs on one thread; from _C._cpu_index_kernels_from()
# index or mask elements (2**16, with more than one thread) a CPU tensor is
# indexed by the CPU backend's index kernels instead (Note [Index kernels on
# the CPU] in csrc/cpu/cpu_index.c), as devices are.  Smaller keys go to
# NumPy, whose per-call cost is lower, mostly straight from C (Note [Small
# advanced keys on the CPU] in csrc/python/index.c); bfloat16, which NumPy
# lacks, always goes to the kernels.  A threshold of 0 sends every key to them.
def _use_index_kernels(x, key):
    if x.device.type != "cpu" or x.dtype is _C.bfloat16:
        return True
    start = _C._cpu_index_kernels_from()
    if start == 0:
        return True
    if _C._get_num_threads() < 2:
        return False
    if type(key) is not tuple:
        return isinstance(key, _ARRAYS) and key.size >= start
    for k in key:
        if isinstance(k, _ARRAYS) and k.size >= start:
            return True
    return False


def getitem(x, key):
    """x[key]: a view for basic keys (see Note [Indexing is NumPy's, with few differences])."""
    parts = _split_key(key)
    if parts is not None:
        view = _basic_view(x, parts)
        if len(parts) == x.ndim and all(type(p) is int for p in parts):
            return view.copy()  # Note [An element is a copy] in csrc/python/index.c
        return view
    if _use_index_kernels(x, key):
        from . import _advanced
        return _advanced.getitem(x, key)
    from ._creation import asarray
    arr, key = _advanced_on_host(x, key)
    return asarray(arr[key], device="cpu")  # not the default device: x is a CPU tensor


def setitem(x, key, value):
    """x[key] = value, NumPy's way: broadcast, cast, and right when value overlaps x.

    value may be a Python scalar, a tensor on x's device, or anything
    devtensor.asarray takes (NumPy arrays, nested lists), which is copied to
    x's device (PyTorch's behaviour)."""
    parts = _split_key(key)
    if parts is None:
        if _use_index_kernels(x, key):
            from . import _advanced
            _advanced.setitem(x, key, value)
            return
        arr, key = _advanced_on_host(x, key)
        if isinstance(value, TensorBase) and value.device != x.device:
            raise RuntimeError(f"Expected all tensors to be on the same device, but found at "
                               f"least two devices, {x.device} and {value.device}!")
        # scalars go as Python scalars, so that NumPy's checks apply (NaN into an
        # integer raises; Note [Storing a float in an integer] in number.c)
        if isinstance(value, np.floating):
            value = float(value)
        arr[key] = value if isinstance(value, (bool, int, float, complex)) else np.asarray(value)
        return
    assign(_basic_view(x, parts), value)


def assign(dst, value):
    """dst[...] = value for a view dst of a basic key (Note [Indexing in C]
    in csrc/python/index.c sends every basic setitem but a Python scalar's
    here)."""
    if isinstance(value, (bool, int, float, complex, np.generic)):
        dst._fill_(value)  # NumPy's checks (Note [Storing a float in an integer] in number.c)
        return
    if not isinstance(value, TensorBase):
        from ._creation import asarray
        as_array = isinstance(value, np.ndarray)
        value = asarray(value, dtype=None if as_array else dst.dtype, device=dst.device)
    if not dst.shape and value.size != 1:  # several values for one element (z[0] = [1, 2])
        raise ValueError("setting an array element with a sequence.")  # NumPy's setitem words
    # an overlapping value (x[1:] = x[:-1]) is read first by the core's copy
    dst._copy_from(_broadcast_value(value, dst.shape))


def _np_shape(shape):
    """A shape as NumPy's messages print it: (2,3), (3,), ()."""
    return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _broadcast_value(value, shape):
    """value broadcast to shape for assignment; NumPy drops its leading length-1 axes."""
    extra = value.ndim - len(shape)
    if extra > 0 and all(n == 1 for n in value.shape[:extra]):
        value = _view(value, value.shape[extra:], value.strides[extra:])
    strides = _broadcast_strides(value.shape, value.strides, shape)
    if strides is None:
        raise ValueError(f"could not broadcast input array from shape {_np_shape(value.shape)} "
                         f"into shape {_np_shape(shape)}")
    return _view(value, shape, strides)


# ---- shapes ----

def _broadcast_strides(shape, strides, target):
    """Strides of a view of (shape, strides) broadcast to target, or None if impossible."""
    extra = len(target) - len(shape)
    if extra < 0:
        return None
    out = [0] * extra
    for n, s, t in zip(shape, strides, target[extra:]):
        if n == 1:  # NumPy gives length-1 input axes stride 0, even when t == 1
            out.append(0)
        elif n == t:
            out.append(s)
        else:
            return None
    return out


def broadcast_to(x, shape):
    """A read-only view of x with the given shape (NumPy's rules; Note [broadcast_to is read-only])."""
    x = _tensor(x)
    shape = shape_arg((shape,), "broadcast_to")
    if any(n < 0 for n in shape):
        raise ValueError("all elements of broadcast shape must be non-negative")
    strides = _broadcast_strides(x.shape, x.strides, shape)
    if strides is None:
        if not shape and x.ndim:
            raise ValueError("cannot broadcast a non-scalar to a scalar array")
        if x.ndim > len(shape):
            raise ValueError("input operand has more dimensions than allowed by the axis "
                             "remapping")
        raise ValueError(f"operands could not be broadcast together with remapped shapes "
                         f"[original->remapped]: {_fmt(x.shape)}  and requested shape "
                         f"{_fmt(shape)}")
    view = _view(x, shape, strides)
    view._lock_readonly()  # Note [broadcast_to is read-only]
    return view


def _fmt(shape):
    return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _reshaped(x, shape):
    """(shape with -1 filled in, the strides of a view of x with it or None),
    by the core's rules (Note [Reshape without a copy] in csrc/core/reshape.c).
    As NumPy, asking for x's own shape (before inference) keeps x's strides."""
    return x._reshape_geometry(shape)


def reshape(x, shape, order="C", *, copy=None):
    """x with a new shape (one entry may be -1): a view when the strides allow,
    else a copy; copy=True always copies, copy=False raises rather than copy;
    order='F' (or 'A') reads and writes the elements in Fortran order."""
    if copy is None and order == "C" and isinstance(x, TensorBase):
        return x.reshape(shape)  # C for Python ints (Note [Reshape in C]), else reshape_method
    return _reshape_general(x, shape, copy=copy, order=order)


def _reshape_general(x, shape, *, copy=None, order="C"):
    x = _tensor(x)
    order = _check_order(order, "CFA")
    if order == "F" or (order == "A" and _order_axes(x, "A") != tuple(range(x.ndim))):
        # Fortran order: the reversed shape of the transpose, transposed back
        shape = shape_arg((shape,), "reshape")
        return _reshape_general(x.T, tuple(shape)[::-1], copy=copy).T
    shape, strides = _reshaped(x, shape_arg((shape,), "reshape"))
    if copy or strides is None:
        if copy is False:
            raise ValueError("Unable to avoid creating a copy while reshaping.")
        x = x.copy()
        strides = _contiguous_strides(shape, x.itemsize)
    return _view(x, shape, strides)


def reshape_method(x, *shape, order="C", copy=None):
    """Tensor.reshape for the arguments its C fast path leaves to Python
    (Note [Reshape in C] in csrc/python/reshape.c)."""
    return _reshape_general(x, shape_arg(shape, "reshape"), copy=copy, order=order)


reshape_method.__qualname__ = "reshape"  # its argument errors name the method


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """NumPy's sliding_window_view: every window of window_shape over the
    axes (all of them by default) as trailing axes of a view of x, on its
    device, read-only unless writeable=True (its elements overlap)."""
    x = _tensor(x)
    window_shape = tuple(window_shape) if np.iterable(window_shape) else (window_shape,)
    if any(w < 0 for w in window_shape):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        axis = tuple(range(x.ndim))
        if len(window_shape) != len(axis):
            raise ValueError(f"Since axis is `None`, must provide window_shape for all dimensions of `x`; got "
                             f"{len(window_shape)} window_shape elements and `x.ndim` is {x.ndim}.")
    else:
        axis = normalize_axis_tuple(axis, x.ndim, allow_duplicate=True)
        if len(window_shape) != len(axis):
            raise ValueError(f"Must provide matching length window_shape and axis; got {len(window_shape)} "
                             f"window_shape elements and {len(axis)} axes elements.")
    shape = list(x.shape)
    for ax, n in zip(axis, window_shape):
        if shape[ax] < n:
            raise ValueError("window shape cannot be larger than input array shape")
        shape[ax] -= n - 1
    v = x._as_strided(tuple(shape) + window_shape, x.strides + tuple(x.strides[ax] for ax in axis), 0)
    if not writeable:
        v.flags.writeable = False
    return v


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """NumPy's as_strided: a view of x's memory, from its first element, with
    the given shape and byte strides (x's by default), on x's device.  Unlike
    NumPy's, a view reaching outside x's storage is a ValueError (the core
    checks every view), so no memory the caller did not give is read; like
    NumPy's, overlapping views written through are the caller's affair."""
    x = _tensor(x)
    shape = x.shape if shape is None else tuple(shape)
    if strides is None:  # NumPy's: a C-contiguous x is read as C-contiguous in the new shape
        strides = _contiguous_strides(shape, x.itemsize) if x.is_contiguous() else x.strides
    strides = tuple(strides)
    if len(shape) != len(strides):
        raise ValueError("mismatch in length of strides and shape")
    v = x._as_strided(shape, strides, 0)
    if not writeable:
        v.flags.writeable = False
    return v


def view(x, shape):
    """PyTorch's Tensor.view: reshape that must not copy."""
    shape, strides = _reshaped(x, shape)
    if strides is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride "
                           "(at least one dimension spans across two contiguous subspaces). "
                           "Use .reshape(...) instead.")
    return _view(x, shape, strides)


def view_dtype(x, dtype):
    """NumPy's x.view(dtype): the same bytes read as another dtype, a view.

    Note [Reinterpreting a view]
        NumPy's rules: the same itemsize keeps any layout; another itemsize
        needs at least one axis, a contiguous last axis (unless it has length
        1 or x is empty), and a whole number of new elements in it; the last
        axis is rescaled.  One difference: a view whose elements would not be
        aligned for the new dtype raises (NumPy makes an unaligned array),
        since GPU loads of misaligned elements fault."""
    dtype = _C.dtype(dtype)
    old, new = x.itemsize, dtype.itemsize
    shape, strides = list(x.shape), list(x.strides)
    if new != old:
        if x.ndim == 0:
            raise ValueError("Changing the dtype of a 0d array is only supported if the "
                             "itemsize is unchanged")
        if shape[-1] != 1 and x.size != 0 and strides[-1] != old:
            raise ValueError("To change to a dtype of a different size, the last axis must be "
                             "contiguous")
        if new < old:
            shape[-1] *= old // new
        else:
            if (shape[-1] * old) % new:
                raise ValueError("When changing to a larger dtype, its size must be a divisor "
                                 "of the total size in bytes of the last axis of the array.")
            shape[-1] = shape[-1] * old // new
        strides[-1] = new
        if x.size and (x.data_ptr() % new or any(
                s % new for n, s in zip(shape, strides) if n > 1)):
            raise ValueError(f"devtensor cannot view this {x.dtype} tensor as {dtype}: its "
                             f"elements would not be aligned to {new} bytes (copy it first)")
    return x._reinterpret(dtype, tuple(shape), tuple(strides))


# The functions below take Tensor's C methods first (Note [Axis views in C]
# in csrc/python/axes.c); the _-prefixed forms are those methods' Python
# path, for the arguments they leave alone, with NumPy's errors.

# Note [Index orders]
# NumPy's order= reads a tensor's elements in C order ('C', None), Fortran
# order ('F': the axes reversed), Fortran order only for a Fortran- but not
# C-contiguous tensor ('A'), or memory order ('K': the axes by falling
# |stride|, stably, negative strides kept).  Each is the C order of the
# tensor with its axes permuted, so ravel, flatten, reshape and copy take
# any order as a transpose around their C-order form.

def _check_order(order, allowed="CFAK"):
    order = order_letter(order, "C")
    if order not in allowed:
        raise ValueError(f"order '{order}' is not permitted for reshaping")
    return order


def _order_axes(x, order):
    """The permutation of x's axes whose C order is `order` (Note [Index orders])."""
    order = _check_order(order)
    if order == "A":
        order = "F" if x.ndim > 1 and x.T.is_contiguous() and not x.is_contiguous() else "C"
    if order == "F":
        return tuple(range(x.ndim))[::-1]
    if order == "K":
        return tuple(sorted(range(x.ndim), key=lambda d: -abs(x.strides[d])))
    return tuple(range(x.ndim))


def ravel(x, order="C"):
    """x as 1-d: a view when possible (NumPy's ravel; order= as NumPy's)."""
    x = _tensor(x)
    return x.ravel() if order == "C" else ravel_method(x, order)


def ravel_method(x, order="C"):
    """Tensor.ravel(order) for orders other than C (Note [Index orders])."""
    perm = _order_axes(x, order)
    return (x if perm == tuple(range(x.ndim)) else x.transpose(perm)).ravel()


def _torch_flatten():
    """nn.functional.flatten, imported once (nn imports this module)."""
    global _TORCH_FLATTEN
    if _TORCH_FLATTEN is None:
        from .nn.functional import flatten
        _TORCH_FLATTEN = flatten
    return _TORCH_FLATTEN


_TORCH_FLATTEN = None


def flatten_method(x, order="C", end_dim=None, *, start_dim=None):
    """Tensor.flatten(order): a 1-d copy read in that order.  Given dims (an
    int first, or start_dim=/end_dim=), PyTorch's flatten(start_dim,
    end_dim): those dims merged into one (Note [PyTorch's keywords])."""
    if (isinstance(order, int) and not isinstance(order, bool)) or start_dim is not None or end_dim is not None:
        flatten = _torch_flatten()
        if not isinstance(order, int) and order != "C":
            raise TypeError("flatten() takes NumPy's order or PyTorch's start_dim and end_dim, not both")
        start = order if isinstance(order, int) else 0
        if start_dim is not None:
            if isinstance(order, int):
                raise TypeError("flatten() got start_dim twice")
            start = start_dim
        return flatten(x, start, -1 if end_dim is None else end_dim)
    perm = _order_axes(x, order)
    return (x if perm == tuple(range(x.ndim)) else x.transpose(perm)).flatten()


def copy_method(x, order="C"):
    """Tensor.copy(order): a copy laid out in C order, Fortran order ('F',
    or 'A' of a Fortran-contiguous tensor) or x's own memory order ('K')."""
    perm = _order_axes(x, order)
    if perm == tuple(range(x.ndim)):
        return x.copy()
    inverse = tuple(sorted(range(x.ndim), key=perm.__getitem__))
    return x.transpose(perm).copy().transpose(inverse)._own()


def squeeze(x, axis=None, *, dim=None):
    """x without length-1 axes (all of them, or those in axis).  With PyTorch's
    dim=, PyTorch's: a dim of another length is left as it is."""
    x = _tensor(x)
    return x.squeeze(axis) if dim is None else _squeeze(x, axis, dim=dim)


def _squeeze(x, axis=None, *, dim=None):
    if dim is not None:  # PyTorch's keyword (Note [PyTorch's keywords]): only the dims of length 1 go
        from ._torch_keywords import axis as _torch_axis
        axis = _torch_axis("squeeze", axis, dim)
        if axis is not None:
            axis = tuple(i for i in normalize_axis_tuple(axis, x.ndim) if x.shape[i] == 1)
    if axis is None:
        drop = {i for i, n in enumerate(x.shape) if n == 1}
    else:
        drop = set(normalize_axis_tuple(axis, x.ndim))
        if any(x.shape[i] != 1 for i in drop):
            raise ValueError("cannot select an axis to squeeze out which has size not equal "
                             "to one")
    keep = [i for i in range(x.ndim) if i not in drop]
    return _view(x, [x.shape[i] for i in keep], [x.strides[i] for i in keep])


def expand_dims(x, axis):
    """x with new length-1 axes at the positions in axis (NumPy's, a view)."""
    return _tensor(x).expand_dims(axis)


def _expand_dims(x, axis):
    axis = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    axes = normalize_axis_tuple(axis, x.ndim + len(axis))
    rest = iter(x.shape)
    shape = [1 if i in axes else next(rest) for i in range(x.ndim + len(axes))]
    return reshape(x, shape)


def permute_dims(x, axes=None):
    """x with its axes reordered (axes[i] is the old axis that becomes axis
    i); without axes, reversed (NumPy 2.4's default)."""
    x = _tensor(x)
    if axes is None:
        return x.transpose()
    return x.permute(axes) if isinstance(axes, (tuple, list)) else _permute_dims(x, axes)


def _permute_dims(x, axes):
    axes = tuple(operator.index(a) for a in axes)
    if len(axes) != x.ndim:
        raise ValueError("axes don't match array")
    axes = tuple(normalize_axis_index(a, x.ndim) for a in axes)
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis in transpose")
    return _view(x, [x.shape[a] for a in axes], [x.strides[a] for a in axes])


def transpose(x, axes=None, *dims, dim0=None, dim1=None):
    """NumPy's transpose: axes reversed, or permuted by axes; PyTorch's
    transpose(x, dim0, dim1) swaps two dims (Note [PyTorch's transpose])."""
    x = _tensor(x)
    if len(dims) > 1:
        raise TypeError(f"transpose() takes from 1 to 2 positional arguments but {2 + len(dims)} were given")
    if dims:  # NumPy's function takes no third argument: PyTorch's transpose(input, dim0, dim1)
        if dim0 is not None or dim1 is not None:
            raise TypeError("transpose() takes dim0= and dim1= together, without positional dims")
        return _swapaxes(x, operator.index(axes), operator.index(dims[0]))
    if dim0 is not None or dim1 is not None:
        return transpose_method(x, dim0=dim0, dim1=dim1)
    if axes is None:
        return x.transpose()
    return x.transpose(axes) if isinstance(axes, (tuple, list)) else _permute_dims(x, axes)


def transpose_method(x, *axes, dim0=None, dim1=None):
    """Tensor.transpose for the arguments its C path leaves to Python.

    Note [PyTorch's transpose]
        NumPy's transpose(1, 0) permutes every axis; PyTorch's transpose(dim0,
        dim1) swaps two.  Two dims given apart and dim0=/dim1= are PyTorch's
        swap: attention code's x.transpose(1, 2) of a 4-d tensor (where
        NumPy's call is an error), and of a matrix too, where NumPy's
        t.transpose(0, 1) or (-2, -1) would be t itself, a call no NumPy
        program needs, while PyTorch's causal masks and unbatched attention
        (q @ k.transpose(-2, -1)) came out silently wrong.  So a matrix's
        t.transpose(0, 1) is t.T (transpose(0, 0) t itself), as PyTorch's;
        a permutation in one tuple, t.transpose((0, 1)), is NumPy's.  The
        function form transpose(x, 0, 1) swaps too (NumPy's takes no third
        argument)."""
    if dim0 is not None or dim1 is not None:
        if axes or dim0 is None or dim1 is None:
            raise TypeError("transpose() takes dim0= and dim1= together, without positional dims")
        return _swapaxes(x, operator.index(dim0), operator.index(dim1))
    if len(axes) == 2 and all(isinstance(a, int) for a in axes):
        return _swapaxes(x, axes[0], axes[1])
    axes = axes_arg(axes)
    return _permute_dims(x, range(x.ndim)[::-1] if axes is None else axes)


def permute_method(x, *dims):
    return _permute_dims(x, axes_arg(dims) or ())


def unsqueeze_method(x, dim):
    """PyTorch's spelling of expand_dims for one axis."""
    return _expand_dims(x, operator.index(dim))


def swapaxes(x, axis1, axis2):
    """x with two axes exchanged (PyTorch's Tensor.transpose(dim0, dim1))."""
    return _tensor(x).swapaxes(axis1, axis2)


def _swapaxes(x, axis1, axis2):
    a = normalize_axis_index(axis1, x.ndim, "axis1")
    b = normalize_axis_index(axis2, x.ndim, "axis2")
    axes = list(range(x.ndim))
    axes[a], axes[b] = b, a
    return _permute_dims(x, axes)

