"""PyTorch's selection and splitting along a dimension: gather, scatter,
scatter_add, index_select, index_add, index_fill, index_copy, masked_fill,
masked_select, topk, kthvalue, cummax, cummin, narrow, chunk, split (the
method), unbind, movedim, as Tensor methods and (but split) as functions,
on the tensor's device.

Note [PyTorch's selection functions]
    NumPy has no functions of these names, so PyTorch code that calls them
    runs with devtensor as it is.  Each is built on devtensor's own
    operations (take_along_axis, take, advanced indexing, add.at,
    argpartition), so each runs on every device with their kernels.  They
    take PyTorch's arguments (dim, keepdim) and give PyTorch's results:
    gather's index may be shorter than the input on the other dimensions
    (it does not broadcast), topk and kthvalue return (values, indices)
    named tuples and count NaN as the largest value, chunk may give fewer
    pieces than asked.  Negative indices are PyTorch's too (Note [Negative
    indices in PyTorch's functions]).  What differs: an index past the end is
    NumPy's IndexError, where PyTorch's is a RuntimeError; topk's choice
    among equal values at the k-th place may differ from PyTorch's, and
    between devices (PyTorch leaves it unspecified too).

Note [Negative indices in PyTorch's functions]
    gather, index_select, scatter_, scatter_add_, scatter_reduce_,
    index_add_, index_copy_ and nn's embedding refuse a negative index, as
    PyTorch's do; taken as NumPy's (counting from the end), an embedding
    lookup of a -1 sentinel or a gather of an ignore label read the last
    row without a word.  The check is a min reduction and one scalar read
    (a synchronisation on a device, as the bounds check's).  index_fill_,
    take, take_along_dim, put_ and indexing count from the end, as
    PyTorch's do.
"""
import collections
import math
import numbers
import operator

import numpy as np

from . import _C
from ._C import TensorBase
from ._operands import _two_devices

topk_result = collections.namedtuple("topk", ["values", "indices"])
kthvalue_result = collections.namedtuple("kthvalue", ["values", "indices"])
cummax_result = collections.namedtuple("cummax", ["values", "indices"])
cummin_result = collections.namedtuple("cummin", ["values", "indices"])


def _dt():
    import devtensor
    return devtensor


def _dim(dim, ndim):
    """dim as an axis index of a tensor of ndim dimensions (PyTorch's
    message for one out of range; a 0-d tensor has dims -1 and 0); nn's
    functions use it too."""
    dim = operator.index(dim)
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


def _fill_value(value, name, too_long):
    """value, a number or a 0-d tensor, which is all PyTorch's fill_ and
    masked_fill_ take; too_long: the message for a longer tensor ({} its ndim)."""
    if isinstance(value, TensorBase):
        if value.ndim != 0:
            raise RuntimeError(too_long.format(value.ndim))
    elif not isinstance(value, (numbers.Number, np.generic)):
        raise TypeError(f"{name}() expects a number or a 0-d tensor, got {type(value).__name__}")
    return value


def _integer_index(index, self, name):
    if not isinstance(index, TensorBase):
        index = _dt().asarray(index, device=self.device)
    _same_device(self, index)
    if index.dtype.kind not in "iu":
        raise TypeError(f"{name}(): Expected an integer index tensor, got {index.dtype}")
    return index


def _refuse_negative(index, dim, size, error=RuntimeError, prefix=""):
    """PyTorch's error for a negative index (Note [Negative indices in
    PyTorch's functions])."""
    if index.size and index.dtype.kind == "i":
        low = index.min()
        if low < 0:
            raise error(f"{prefix}index {int(low)} is out of bounds for dimension {dim} with size {size}")


def _same_device(self, other):
    """PyTorch's rule for gather, index_select and scatter: the index and src
    tensors on self's device (indexing, t[idx], also takes CPU indices)."""
    if other.device != self.device:
        raise _two_devices(self.device, other.device)


def _along(self, dim, index, name):
    """self cut to index's shape on every dimension but dim (PyTorch's gather
    and scatter read and write only there), with index checked."""
    if index.ndim != self.ndim:
        raise RuntimeError(f"{name}(): Index tensor must have the same number of dimensions as "
                           f"{'input' if name == 'gather' else 'self'} tensor")
    for d in range(self.ndim):
        if d != dim and index.shape[d] > self.shape[d]:
            raise RuntimeError(f"Size does not match at dimension {d} expected index {list(index.shape)} "
                               f"to be smaller than self {list(self.shape)} apart from dimension {dim}")
    return self[tuple(slice(None) if d == dim else slice(0, index.shape[d]) for d in range(self.ndim))]


def _positions(index, dim):
    """The full advanced index of each element of index along dim: index
    itself there, its own coordinates on the other dimensions."""
    dt = _dt()
    return tuple(index if d == dim else
                 dt.arange(n, device=index.device).reshape((1,) * d + (n,) + (1,) * (index.ndim - d - 1))
                 for d, n in enumerate(index.shape))


def _source(src, index, self, name):
    """scatter's values: a number, or src cut to index's shape."""
    if isinstance(src, (numbers.Number, np.generic)):
        return src
    if not isinstance(src, TensorBase):
        raise TypeError(f"{name}(): src must be a tensor or a number, got {type(src).__name__}")
    _same_device(self, src)
    if src.ndim != index.ndim or any(i > s for i, s in zip(index.shape, src.shape)):
        raise RuntimeError(f"Expected index {list(index.shape)} to be smaller than src {list(src.shape)} "
                           f"on every dimension, with as many dimensions")
    return src[tuple(slice(0, n) for n in index.shape)]


def gather(input, dim, index):
    """PyTorch's gather: out[i][j] = input[i][index[i][j]] along dim (the
    index no longer than input on the other dimensions)."""
    _input_tensor("gather", input)
    dim = _dim(dim, input.ndim)
    index = _integer_index(index, input, "gather")
    _refuse_negative(index, dim, input.shape[dim] if input.ndim else 1)
    if input.ndim == 0:
        return _dt().take(input.reshape(1), index)
    return _dt().take_along_axis(_along(input, dim, index, "gather"), index, axis=dim)


def index_select(input, dim, index):
    """PyTorch's index_select: the slices of input at the positions in the
    1-d (or 0-d) index along dim (a 0-d input stays 0-d)."""
    _input_tensor("index_select", input)
    dim = _dim(dim, input.ndim)
    index = _integer_index(index, input, "index_select")
    if index.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    _refuse_negative(index, dim, input.shape[dim] if input.ndim else 1)
    if input.ndim == 0:
        if index.size != 1:
            raise IndexError("index_select(): Index to scalar can have only 1 value, got "
                             f"{index.size} value(s)")
        return _dt().take(input.reshape(1), index.reshape(-1)).reshape(())
    return _dt().take(input, index.reshape(-1), axis=dim)


def _representable(value, dtype):
    """NumPy's error (as t[mask] = value gives) for a float that an integer
    dtype cannot hold: NaN, infinity or out of range.  where() casts
    unsafely, which would store garbage."""
    if isinstance(value, (float, np.floating)) and not (dtype.is_floating_point or dtype.is_complex
                                                          or dtype == _C.bool):
        _C.empty((), dtype=dtype)[()] = value


def masked_fill(input, mask, value):
    """A copy of input, broadcast with the bool mask, with value where the
    mask is True."""
    _input_tensor("masked_fill", input)
    dt = _dt()
    mask = _bool_mask(mask, input, "masked_fill")
    shape = input.shape if mask.shape == input.shape else tuple(dt.broadcast_shapes(input.shape, mask.shape))
    if type(value) in (int, float, bool):  # the common call: one pass of the core's where
        _representable(value, input.dtype)
        out = _C.empty(shape, dtype=input.dtype, device=input.device)
        return _C._ufunc(_WHERE, mask, value, input, out=out, casting="unsafe")
    out = input.clone() if shape == input.shape else dt.broadcast_to(input, shape).copy()
    return out.masked_fill_(mask, value)


def masked_select(input, mask):
    """The elements of input (broadcast with the bool mask) where it is True, in a 1-d tensor."""
    _input_tensor("masked_select", input)
    mask = _bool_mask(mask, input, "masked_select")
    a, m = _dt().broadcast_arrays(input, mask)
    return a[m]


_WHERE = _C.OPS["where"]


def _bool_mask(mask, self, name):
    if not isinstance(mask, TensorBase):
        mask = _dt().asarray(mask, device=self.device)
    if mask.dtype != _C.bool:
        raise RuntimeError(f"{name} only supports boolean masks, but got mask with dtype {mask.dtype}")
    if mask.device != self.device:  # masked_fill and masked_fill_ alike (copyto would move it)
        raise _two_devices(self.device, mask.device)
    return mask


def topk(input, k, dim=-1, largest=True, sorted=True):
    """PyTorch's topk: the k largest (or smallest) values along dim and their
    indices, largest first (smallest first for largest=False); NaN counts
    as the largest value."""
    _input_tensor("topk", input)
    dt = _dt()
    x = input.reshape(1) if input.ndim == 0 else input
    dim = _dim(dim, x.ndim)
    k = operator.index(k)
    n = x.shape[dim]
    if not 0 <= k <= n:
        raise RuntimeError("selected index k out of range")
    if k == 1 and (largest or not (x.dtype.is_floating_point or x.dtype.is_complex)) and not x.dtype.is_complex:
        # one reduction: argmax's first NaN or first maximum is the stable sort's first (argmin's
        # NaN rule differs from topk's, so the smallest float goes through the sort)
        indices = (dt.argmax if largest else dt.argmin)(x, axis=dim, keepdims=True)
        values = dt.take_along_axis(x, indices, axis=dim)
    elif 0 < 4 * k < n and (n >= _PARTITION_FROM or x.size >= _PARTITION_TOTAL) and x.device.type == "cpu":
        # the k (unordered) by a partition, then ordered: less work than a sort
        part = dt.argpartition(x, n - k if largest else k - 1, axis=dim)
        part = part[_upto(dim, slice(n - k, n) if largest else slice(0, k))]
        values = dt.take_along_axis(x, part, axis=dim)
        order = dt.argsort(values, axis=dim, descending=largest, stable=True)
        indices = dt.take_along_axis(part, order, axis=dim)
        values = dt.take_along_axis(values, order, axis=dim)
    else:  # one stable sort (a partition on a device is a sort: Note [Sorting through the backend]),
        # cheaper below about 1000 elements than the partition's calls
        indices = dt.argsort(x, axis=dim, descending=largest, stable=True)
        if k < n:
            indices = indices[_upto(dim, slice(0, k))]
        values = x[indices] if x.ndim == 1 else dt.take_along_axis(x, indices, axis=dim)
    if input.ndim == 0:
        values, indices = values.reshape(()), indices.reshape(())
    return topk_result(values, indices)


# Below _PARTITION_FROM elements along dim, and _PARTITION_TOTAL in all, topk sorts: a partition
# and a sort cost more calls.  Many short rows partition (4096 rows of 1000 float32, k = 5:
# 17 ms against 102 ms sorting; 100 rows of 200: 0.22 ms against 0.73 ms).
_PARTITION_FROM = 1024
_PARTITION_TOTAL = 8192


def _upto(dim, part):
    """The index taking `part` (a slice) of dimension dim."""
    return (slice(None),) * dim + (part,)


def kthvalue(input, k, dim=-1, keepdim=False):
    """PyTorch's kthvalue: the k-th smallest value along dim (k from 1) and
    its index; NaN counts as the largest value."""
    _input_tensor("kthvalue", input)
    dt = _dt()
    x = input.reshape(1) if input.ndim == 0 else input
    dim = _dim(dim, x.ndim)
    k = operator.index(k)
    if not 1 <= k <= x.shape[dim]:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {dim}")
    index = dt.argpartition(x, k - 1, axis=dim)[_upto(dim, slice(k - 1, k))]
    values = dt.take_along_axis(x, index, axis=dim)
    if not keepdim or input.ndim == 0:
        values, index = values.squeeze(dim), index.squeeze(dim)
    return kthvalue_result(values, index)


def cummax(input, dim):
    """PyTorch's cummax: the running maximum along dim and where it was
    found, the later of equal values (and the last NaN, which wins)."""
    return cummax_result(*_running_extreme("cummax", input, dim, True))


def cummin(input, dim):
    """PyTorch's cummin: the running minimum along dim and where it was
    found, the later of equal values (and the last NaN, which wins)."""
    return cummin_result(*_running_extreme("cummin", input, dim, False))


def _running_extreme(name, input, dim, largest):
    """(values, indices) of cummax or cummin.  Note [Running extremes and
    their positions]: m = maximum.accumulate(x) (one scan) changes only where
    x[i] is a new maximum, so the last j <= i with x[j] == m[i] (NaN matching
    NaN) is the last j <= i where x[j] == m[j]: a second scan, of those
    positions.  The values are x at them, PyTorch's bits (-0.0 and 0.0 tie,
    the later wins)."""
    _input_tensor(name, input)
    dt = _dt()
    x = input.reshape(1) if input.ndim == 0 else input
    dim = _dim(dim, x.ndim)
    if x.dtype.kind == "c":
        raise RuntimeError(f"{name} does not support complex tensors ({x.dtype}), as PyTorch's")
    m = (dt.maximum if largest else dt.minimum).accumulate(x, axis=dim)
    hit = dt.equal(x, m)
    if x.dtype.kind == "f":
        hit |= dt.isnan(x) & dt.isnan(m)
    n = x.shape[dim]
    positions = dt.arange(n, dtype=dt.int64, device=x.device).reshape((n,) + (1,) * (x.ndim - dim - 1))
    indices = dt.maximum.accumulate(dt.where(hit, positions, 0), axis=dim)
    values = dt.take_along_axis(x, indices, axis=dim)
    if input.ndim == 0:
        values, indices = values.reshape(()), indices.reshape(())
    return values, indices


def narrow(input, dim, start, length):
    """A view of length elements of input from start (negative: from the
    end) along dim."""
    _input_tensor("narrow", input)
    _at_least_1d("narrow() cannot be applied to a 0-dim tensor.", input)
    dim = _dim(dim, input.ndim)
    n = input.shape[dim]
    start, length = operator.index(start), operator.index(length)
    if not -n <= start <= n:
        raise IndexError(f"start out of range (expected to be in range of [{-n}, {n}], but got {start})")
    if start < 0:
        start += n
    if length < 0 or start + length > n:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({n}).")
    return input[(slice(None),) * dim + (slice(start, start + length),)]


def _input_tensor(name, input):
    """input, which must be a tensor: PyTorch's TypeError (not an
    AttributeError from deep inside); _torch_names' functions use it too."""
    if not isinstance(input, TensorBase):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return input


def _at_least_1d(message, input):
    if input.ndim == 0:
        raise RuntimeError(message)


def _pieces(input, sizes, dim):
    out, at = [], 0
    for size in sizes:
        out.append(input[(slice(None),) * dim + (slice(at, at + size),)])
        at += size
    return tuple(out)


def chunk(input, chunks, dim=0):
    """PyTorch's chunk: pieces of ceil(n / chunks) along dim (the last one
    shorter, and fewer pieces than asked when they run out)."""
    _input_tensor("chunk", input)
    _at_least_1d("chunk expects at least a 1-dimensional tensor", input)
    chunks = operator.index(chunks)
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    dim = _dim(dim, input.ndim)
    n = input.shape[dim]
    if n == 0:
        return tuple(input[(slice(None),) * dim + (slice(0, 0),)] for _ in range(chunks))
    size = -(-n // chunks)
    return _pieces(input, [min(size, n - at) for at in range(0, n, size)], dim)


def split_method(input, split_size_or_sections, dim=0):
    """Tensor.split, PyTorch's: pieces of split_size along dim (the last one
    shorter), or of the given sizes, which must add up to the length.
    (devtensor.split, the function, is NumPy's: sections or indices.)"""
    _input_tensor("split", input)
    _at_least_1d("split expects at least a 1-dimensional tensor", input)
    dim = _dim(dim, input.ndim)
    n = input.shape[dim]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [operator.index(s) for s in split_size_or_sections]
        if sum(sizes) != n or any(s < 0 for s in sizes):
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's "
                               f"size at dimension {dim}), but got split_sizes={sizes}")
        return _pieces(input, sizes, dim)
    size = operator.index(split_size_or_sections)
    if size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={size}")
    if size == 0 and n > 0:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}")
    if n == 0:
        return (input,)
    return _pieces(input, [min(size, n - at) for at in range(0, n, size)], dim)


def unbind(input, dim=0):
    """The slices of input along dim, each without it."""
    _input_tensor("unbind", input)
    _at_least_1d("unbind(): cannot be applied to a 0-dim tensor", input)
    dim = _dim(dim, input.ndim)
    return tuple(input[(slice(None),) * dim + (i,)] for i in range(input.shape[dim]))


def movedim(input, source, destination):
    """PyTorch's name of moveaxis."""
    return _dt().moveaxis(input, source, destination)


class _SelectionMethods:
    """Installed on devtensor.Tensor (Note [PyTorch's selection functions])."""

    gather = gather
    index_select = index_select
    masked_fill = masked_fill
    masked_select = masked_select
    topk = topk
    kthvalue = kthvalue
    cummax = cummax
    cummin = cummin
    narrow = narrow
    chunk = chunk
    split = split_method
    unbind = unbind
    movedim = movedim

    def masked_fill_(self, mask, value):
        """value where the bool mask (broadcast to self) is True, in place."""
        mask = _bool_mask(mask, self, "masked_fill_")
        _fill_value(value, "masked_fill_", "masked_fill_ only supports a 0-dimensional value tensor, but got "
                                           "tensor with {} dimension(s).")
        _representable(value, self.dtype)
        _dt().copyto(self, value, casting="unsafe", where=mask)
        return self

    def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
        """self[index[i][j]][j] = src[i][j] along dim (PyTorch's scatter_; a
        number for src, or value=, fills); for repeated positions one write
        wins.  reduce='add' or 'multiply' combines every write instead."""
        dim = _dim(dim, self.ndim)
        index = _integer_index(index, self, "scatter")
        if (src is None) == (value is None):
            raise TypeError("scatter_() takes src or value=, one of them")
        if reduce not in (None, "add", "multiply"):
            raise RuntimeError(f"reduce argument must be either add or multiply, got {reduce}")
        _along(self, dim, index, "scatter")
        _refuse_negative(index, dim, self.shape[dim] if self.ndim else 1)
        values = _source(src if value is None else value, index, self, "scatter")
        if reduce is None:
            self[_positions(index, dim)] = values
        else:
            (_dt().add if reduce == "add" else _dt().multiply).at(self, _positions(index, dim), values)
        return self

    def scatter(self, dim, index, src=None, *, value=None, reduce=None):
        return self.clone().scatter_(dim, index, src, value=value, reduce=reduce)

    def scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
        """Every src[i][j] combined into self[index[i][j]][j] along dim with
        reduce ('sum', 'prod', 'mean', 'amax', 'amin'); include_self=False
        leaves self's own value out of the positions written (Note
        [scatter_reduce])."""
        dt = _dt()
        dim = _dim(dim, self.ndim)
        index = _integer_index(index, self, "scatter_reduce")
        if reduce not in _SCATTER_REDUCE:
            raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
        if not isinstance(src, TensorBase):
            raise TypeError(f"scatter_reduce(): argument 'src' must be Tensor, not {type(src).__name__}")
        _along(self, dim, index, "scatter_reduce")
        _refuse_negative(index, dim, self.shape[dim] if self.ndim else 1)
        values = _source(src, index, self, "scatter_reduce")
        where = _positions(index, dim)
        if not include_self:
            self[where] = _identity(reduce, self.dtype)
        if reduce != "mean":
            with np.errstate(all="ignore"):  # PyTorch does not warn of NaN (NumPy's at() on the CPU would)
                _SCATTER_REDUCE[reduce]().at(self, where, values)
            return self
        count = dt.full(self.shape, 1 if include_self else 0, dtype=self.dtype, device=self.device)
        with np.errstate(all="ignore"):
            dt.add.at(self, where, values)
        dt.add.at(count, where, 1)
        count[count == 0] = 1
        if self.dtype.is_floating_point or self.dtype.is_complex:
            self /= count
        else:
            self //= count
        return self

    def scatter_reduce(self, dim, index, src, reduce, *, include_self=True):
        return self.clone().scatter_reduce_(dim, index, src, reduce, include_self=include_self)

    def masked_scatter_(self, mask, source):
        """source's first elements, in order, where the bool mask (broadcast
        to self) is True, in place (PyTorch's masked_scatter_)."""
        mask = _bool_mask(mask, self, "masked_scatter_")
        if not isinstance(source, TensorBase):
            raise TypeError(f"masked_scatter_(): argument 'source' must be Tensor, not {type(source).__name__}")
        _same_device(self, source)
        if source.dtype != self.dtype:
            raise RuntimeError(f"masked_scatter_: expected self and source to have same dtypes but got "
                               f"{self.dtype} and {source.dtype}")
        mask = _dt().broadcast_to(mask, self.shape)
        count = int(_dt().count_nonzero(mask))
        if count > source.size:
            raise RuntimeError(f"masked_scatter_: expected source to have at least as many elements as the "
                               f"mask's True values ({count}), got {source.size}")
        self[mask] = source.reshape(-1)[:count]
        return self

    def masked_scatter(self, mask, source):
        return self.clone().masked_scatter_(mask, source)

    def scatter_add_(self, dim, index, src):
        """self[index[i][j]][j] += src[i][j] along dim, every repeat added."""
        dim = _dim(dim, self.ndim)
        index = _integer_index(index, self, "scatter_add")
        _along(self, dim, index, "scatter_add")
        _refuse_negative(index, dim, self.shape[dim] if self.ndim else 1)
        _dt().add.at(self, _positions(index, dim), _source(src, index, self, "scatter_add"))
        return self

    def scatter_add(self, dim, index, src):
        return self.clone().scatter_add_(dim, index, src)

    def index_add_(self, dim, index, source, *, alpha=1):
        """self's slices at index along dim += alpha * source's slices in
        order, every repeat added (PyTorch's index_add_)."""
        target, where, source = _index_slices(self, dim, index, source, "index_add_")
        _dt().add.at(target, where, source if alpha == 1 else source * alpha)
        return self

    def index_add(self, dim, index, source, *, alpha=1):
        return self.clone().index_add_(dim, index, source, alpha=alpha)

    def index_copy_(self, dim, index, source):
        """self's slices at index along dim = source's slices in order
        (PyTorch's index_copy_; of repeated positions one write wins)."""
        target, where, source = _index_slices(self, dim, index, source, "index_copy_")
        target[where] = source
        return self

    def index_copy(self, dim, index, source):
        return self.clone().index_copy_(dim, index, source)

    def index_fill_(self, dim, index, value):
        """value in self's slices at index along dim (PyTorch's index_fill_)."""
        target, where, _ = _index_slices(self, dim, index, None, "index_fill_")
        target[where] = _fill_value(value, "index_fill_", "index_fill_ only supports a 0-dimensional value tensor, "
                                                        "but got tensor with {} dimension(s).")
        return self

    def index_fill(self, dim, index, value):
        return self.clone().index_fill_(dim, index, value)


# Note [scatter_reduce]
#     Each reduction is its ufunc's unbuffered at() on the positions that
#     scatter writes, so repeated positions combine every value on every
#     device.  include_self=False first overwrites the written positions with
#     the reduction's identity; 'mean' sums and counts the values (self's
#     own counted once when included) and divides, rounding down for
#     integers, as PyTorch's does.
def _scatter_ufunc(name):
    return lambda: getattr(_dt(), name)


_SCATTER_REDUCE = {"sum": _scatter_ufunc("add"), "prod": _scatter_ufunc("multiply"), "mean": None,
                   "amax": _scatter_ufunc("maximum"), "amin": _scatter_ufunc("minimum")}


def _identity(reduce, dtype):
    """The value that reduce leaves unchanged, in dtype."""
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype == _C.bool:
        return reduce == "amin"
    if dtype.is_floating_point:
        return -math.inf if reduce == "amax" else math.inf
    info = _dt().iinfo(dtype)
    return info.min if reduce == "amax" else info.max


def _index_slices(self, dim, index, source, name):
    """The tensor to write (self, or a 1-d view of a 0-d self), the index of
    its slices at the 1-d (or 0-d) index along dim, and source checked to
    hold one slice per index (its other dims self's)."""
    dim = _dim(dim, self.ndim)
    index = _integer_index(index, self, name)
    if index.ndim > 1:
        raise IndexError(f"{name}(): Index is supposed to be a vector")
    index = index.reshape(-1)
    target = self if self.ndim else self.reshape(1)
    if name != "index_fill_":  # Note [Negative indices in PyTorch's functions]
        _refuse_negative(index, dim, target.shape[dim], IndexError if name == "index_copy_" else RuntimeError,
                         f"{name}(): " if name == "index_copy_" else "")
    if source is not None:
        if not isinstance(source, TensorBase):
            raise TypeError(f"{name}(): argument 'source' must be Tensor, not {type(source).__name__}")
        _same_device(self, source)
        want = target.shape[:dim] + (index.size,) + target.shape[dim + 1:]
        if source.shape != want and source.size == index.size and source.ndim <= 1 and target.ndim == 1:
            source = source.reshape(want)  # a 0-d source for one index, as PyTorch's
        if source.shape != want:
            raise RuntimeError(f"{name}(): source tensor shape {list(source.shape)} must match self tensor shape "
                               f"{list(self.shape)}, excluding the specified dimension {dim}, with one slice per "
                               f"index ({index.size})")
    return target, (slice(None),) * dim + (index,), source


def index_add(input, dim, index, source, *, alpha=1):
    return _input_tensor("index_add", input).index_add(dim, index, source, alpha=alpha)


def index_copy(input, dim, index, source):
    return _input_tensor("index_copy", input).index_copy(dim, index, source)


def index_fill(input, dim, index, value):
    return _input_tensor("index_fill", input).index_fill(dim, index, value)


def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    return _input_tensor("scatter", input).scatter(dim, index, src, value=value, reduce=reduce)


def scatter_add(input, dim, index, src):
    return _input_tensor("scatter_add", input).scatter_add(dim, index, src)


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    return _input_tensor("scatter_reduce", input).scatter_reduce(dim, index, src, reduce, include_self=include_self)


def masked_scatter(input, mask, source):
    return _input_tensor("masked_scatter", input).masked_scatter(mask, source)


__all__ = ["gather", "index_select", "index_add", "index_copy", "index_fill", "scatter", "scatter_add",
           "scatter_reduce", "masked_scatter", "masked_fill", "masked_select", "topk", "kthvalue", "cummax", "cummin",
           "narrow", "chunk", "unbind", "movedim"]
