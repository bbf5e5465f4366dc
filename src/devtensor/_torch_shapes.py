"""PyTorch's functions that build or cut tensors and that NumPy has no
function of the same name for: tensor_split, broadcast_tensors,
cartesian_prod, combinations, block_diag, diag_embed, unflatten,
repeat_interleave, and the Tensor methods unfold, H, mH, ndimension and
nelement.  Each is built on devtensor's views, indexing and joins, so it
runs on every device, with PyTorch's arguments, results and errors.
"""
import itertools
import operator

from . import _C
from ._C import TensorBase
from ._torch_selection import _dim, _input_tensor, _same_device

__all__ = ["tensor_split", "broadcast_tensors", "cartesian_prod", "combinations", "block_diag", "diag_embed",
           "unflatten", "repeat_interleave", "unique_consecutive"]


def _dt():
    import devtensor
    return devtensor


def tensor_split(input, indices_or_sections, dim=0):
    """Views of input along dim: in sections nearly equal pieces (the first
    n % sections one longer), or cut at the given indices (a list, tuple or
    1-d integer tensor; a 0-d one is a number of sections), PyTorch's
    tensor_split (NumPy's array_split, as a tuple)."""
    _input_tensor("tensor_split", input)
    if input.ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    dim = _dim(dim, input.ndim)
    cuts = indices_or_sections
    if isinstance(cuts, TensorBase):
        if cuts.dtype.kind not in "iu" or cuts.ndim > 1:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                               f"one-dimensional tensor of integers, but got a tensor with {cuts.ndim} dims of "
                               f"{cuts.dtype}")
        cuts = int(cuts) if cuts.ndim == 0 else [int(i) for i in cuts.tolist()]
    if isinstance(cuts, (list, tuple)):
        cuts = [operator.index(i) for i in cuts]
    else:
        cuts = operator.index(cuts)
        if cuts <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {cuts}")
    return tuple(_dt().array_split(input, cuts, axis=dim))


def broadcast_tensors(*tensors):
    """The tensors broadcast against each other, as views (PyTorch's
    broadcast_tensors, NumPy's broadcast_arrays)."""
    for t in tensors:
        _input_tensor("broadcast_tensors", t)
    return tuple(_dt().broadcast_arrays(*tensors))


def _vector(name, t):
    _input_tensor(name, t)
    if t.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")


def cartesian_prod(*tensors):
    """Every combination of one element of each 1-d tensor, as the rows of
    a (n1 * n2 * ..., k) tensor (itself for one tensor), PyTorch's
    cartesian_prod."""
    if not tensors:
        raise RuntimeError("cartesian_prod expects at least one tensor")
    for t in tensors:
        _vector("cartesian_prod", t)
    if len(tensors) == 1:
        return tensors[0]
    dt = _dt()
    grids = dt.meshgrid(*tensors, indexing="ij")
    return dt.stack([g.reshape(-1) for g in grids], axis=1)


def combinations(input, r=2, with_replacement=False):
    """The r-element combinations of the 1-d input's elements, in
    itertools' order, as the rows of a tensor (PyTorch's combinations)."""
    _vector("combinations", input)
    r = operator.index(r)
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    dt = _dt()
    if r == 0:
        return dt.empty((0,), dtype=input.dtype, device=input.device)
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = list(pick(range(input.shape[0]), r))
    index = dt.asarray(rows, dtype=_C.int64, device=input.device).reshape(len(rows), r)
    return input[index]


def block_diag(*tensors):
    """The tensors (at most 2-d; a 0-d one is 1x1, a 1-d one a row) as the
    blocks down the diagonal of a matrix of zeros, in their common dtype
    (PyTorch's block_diag)."""
    dt = _dt()
    if not tensors:
        return dt.empty((1, 0), dtype=_C.float32)
    blocks = []
    for i, t in enumerate(tensors):
        _input_tensor("block_diag", t)
        if t.ndim > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{t.ndim} dimensions")
        if i:
            _same_device(tensors[0], t)
        blocks.append(t.reshape(1, -1) if t.ndim == 1 else t.reshape(1, 1) if t.ndim == 0 else t)
    rows, cols = sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)
    out = dt.zeros((rows, cols), dtype=dt.result_type(*blocks), device=tensors[0].device)
    r = c = 0
    for b in blocks:
        out[r:r + b.shape[0], c:c + b.shape[1]] = b
        r, c = r + b.shape[0], c + b.shape[1]
    return out


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """A tensor whose (dim1, dim2) planes have input's last dimension on
    their offset diagonal and zeros elsewhere (PyTorch's diag_embed)."""
    _input_tensor("diag_embed", input)
    dt = _dt()
    nd = input.ndim + 1
    d1, d2 = _dim(dim1, nd), _dim(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    x = input.reshape(1) if input.ndim == 0 else input
    n = x.shape[-1]
    offset = operator.index(offset)
    m = n + abs(offset)
    out = dt.zeros(x.shape[:-1] + (m, m), dtype=x.dtype, device=x.device)
    i = dt.arange(n, device=x.device)
    out[..., i + max(-offset, 0), i + max(offset, 0)] = x
    return dt.moveaxis(out, (-2, -1), (d1, d2))


def unflatten(input, dim, sizes):
    """dim of input split into sizes (one may be -1), PyTorch's unflatten."""
    return _input_tensor("unflatten", input).unflatten(dim, sizes)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element of input (or slice along dim) repeated repeats times
    (a number or one count per element), NumPy's repeat; with only a
    tensor of counts, the indices 0, 1, ... each repeated that often
    (PyTorch's repeat_interleave(repeats))."""
    dt = _dt()
    _input_tensor("repeat_interleave", input)
    if repeats is None:
        if input.ndim > 1 or input.dtype.kind not in "iu":
            raise RuntimeError("repeat_interleave: repeats must be a 0-dim or 1-dim tensor of integers")
        counts = input.reshape(-1)
        return dt.repeat(dt.arange(counts.shape[0], device=input.device), counts)
    r = dt.repeat(input, repeats, dim)
    if output_size is not None and r.shape[0 if dim is None else _dim(dim, input.ndim)] != output_size:
        raise RuntimeError(f"repeat_interleave: output_size {output_size} does not match the repeats' total")
    return r


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """input with each run of equal consecutive elements (slices along dim)
    kept once, PyTorch's unique_consecutive (NaN never equals NaN); with
    return_inverse, each element's run number, with return_counts, each
    run's length."""
    dt = _dt()
    _input_tensor("unique_consecutive", input)
    x = input.reshape(-1) if dim is None else dt.moveaxis(input, _dim(dim, input.ndim), 0)
    n = x.shape[0] if x.ndim else 1
    if x.ndim == 0:
        x = x.reshape(1)
    differs = x[1:] != x[:-1]
    if x.ndim > 1:
        differs = dt.any(differs.reshape(n - 1 if n else 0, -1), axis=1)
    starts = dt.concatenate([dt.ones(min(n, 1), dtype=_C.bool, device=x.device), differs])
    out = x[starts]
    if dim is not None:
        out = dt.moveaxis(out, 0, _dim(dim, input.ndim))
    extra = []
    if return_inverse:
        run = dt.cumsum(starts.astype(_C.int64)) - 1
        extra.append(run.reshape(input.shape) if dim is None else run)
    if return_counts:
        first = dt.flatnonzero(starts)
        extra.append(dt.diff(dt.concatenate([first, dt.asarray([n], device=x.device)])))
    return (out, *extra) if extra else out


class _ShapeMethods:
    """Installed on devtensor.Tensor."""

    tensor_split = tensor_split
    diag_embed = diag_embed
    unique_consecutive = unique_consecutive

    def unfold(self, dimension, size, step):
        """A view of every window of size elements, step apart, along
        dimension, as a new last dimension (PyTorch's Tensor.unfold)."""
        d = _dim(dimension, self.ndim)
        size, step = operator.index(size), operator.index(step)
        n = self.shape[d] if self.ndim else 1
        if size < 0:
            raise RuntimeError(f"size is {size} but must be >= 0")
        if size > n:
            raise RuntimeError(f"maximum size for tensor at dimension {d} is {n} but size is {size}")
        if step <= 0:
            raise RuntimeError(f"step is {step} but must be > 0")
        if self.ndim == 0:
            return self.reshape(1)
        shape = self.shape[:d] + ((n - size) // step + 1,) + self.shape[d + 1:] + (size,)
        strides = self.strides[:d] + (self.strides[d] * step,) + self.strides[d + 1:] + (self.strides[d],)
        return self._as_strided(shape, strides, 0)

    def swapdims(self, dim0, dim1):
        return self.swapaxes(dim0, dim1)

    def moveaxis(self, source, destination):
        return _dt().moveaxis(self, source, destination)

    def ndimension(self):
        return self.ndim

    def nelement(self):
        return self.size

    @property
    def H(self):
        """The conjugate transpose of a matrix (PyTorch's Tensor.H; a 0-d tensor is its own)."""
        if self.ndim not in (0, 2):
            raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self.ndim}-D tensor.")
        t = self.T
        return t.conj() if self.dtype.is_complex else t

    @property
    def mH(self):
        """The conjugate transpose of the last two dimensions (PyTorch's Tensor.mH)."""
        if self.ndim < 2:
            raise RuntimeError("tensor.mH is only supported on matrices or batches of matrices. Got "
                               f"{self.ndim}-D tensor.")
        t = self.mT
        return t.conj() if self.dtype.is_complex else t
