"""Structured creation: tri, tril, triu, diag, diagflat, meshgrid and indices,
with NumPy's signatures, dtypes and errors.

Each result is made on its input's (or the requested) device from device
operations only: aranges compared under broadcasting, `where`, views and
copies into views.  No device data goes through the host.
"""
import operator
import warnings

import numpy as np

from . import _C
from ._C import TensorBase, dtype as _dtype_type
from ._creation import arange, empty, zeros
from ._views import _tensor, _view, broadcast_to, reshape


def _same_device(tensors):
    """The one device of the tensors, or PyTorch's error for two."""
    if not tensors:
        return None
    first = tensors[0].device
    for t in tensors[1:]:
        if t.device != first:
            raise RuntimeError(f"Expected all tensors to be on the same device, but found at "
                               f"least two devices, {first} and {t.device}!")
    return first


# ---- triangles ----

def _tri_mask(N, M, k, device):
    """(N, M) bool: NumPy's greater_equal.outer(arange(N), arange(-k, M-k)), both
    aranges integer (so a float k counts as NumPy's arange casts it)."""
    from ._ufuncs import greater_equal
    rows = reshape(arange(N, device=device), (-1, 1))  # a negative N or M gives 0 rows
    cols = reshape(arange(-k, M - k, dtype=_C.int64, device=device), (1, -1))
    return greater_equal(rows, cols)


# NumPy 2.5 deprecates a k that is not an integer (tri and what calls it)
_NUMPY_DEPRECATES_FLOAT_K = np.lib.NumpyVersion(np.__version__) >= "2.5.0"


def _warn_float_k(k, stacklevel=3):
    """The installed NumPy's DeprecationWarning for a k it cannot take as an
    integer (NumPy 2.5 and later), in its words; the value is used as before."""
    if not _NUMPY_DEPRECATES_FLOAT_K or isinstance(k, (int, np.integer)):
        return
    try:
        operator.index(k)
    except TypeError:
        warnings.warn(f"Cannot convert {type(k).__name__} safely to an integer."
                      "This will raise an error in future versions (Deprecated NumPy 2.5)",
                      DeprecationWarning, stacklevel=stacklevel)


def tri(N, M=None, k=0, dtype=float, *, device=None):
    """An (N, M) tensor with ones at and below the k-th diagonal (NumPy's tri;
    as NumPy's, a negative N or M gives no rows or columns; unlike NumPy's,
    a float N or M is a TypeError; a float k is NumPy 2.5's
    DeprecationWarning where that NumPy is installed)."""
    _warn_float_k(k)
    N = operator.index(N)
    M = N if M is None else operator.index(M)
    mask = _tri_mask(N, M, k, device)
    dtype = _dtype_type(dtype)
    return mask if dtype == _C.bool else mask.astype(dtype)


def _triangle(m, k, lower):
    """NumPy's tril/triu: where(tri(k), m, 0) / where(tri(k - 1), 0, m) on the
    last two axes (a 1-d m is taken as its own rows, giving (n, n))."""
    m = _tensor(m)
    if m.ndim == 0:  # NumPy's error: tri(*m.shape[-2:]) gets no N
        raise TypeError("tri() missing 1 required positional argument: 'N'")
    N, M = m.shape[-2:] if m.ndim > 1 else (m.shape[0], m.shape[0])
    from ._ufuncs import where
    zero = zeros((), dtype=m.dtype, device=m.device)
    if lower:
        return where(_tri_mask(N, M, k, m.device), m, zero)
    return where(_tri_mask(N, M, k - 1, m.device), zero, m)


def tril(m, k=0, *, diagonal=None):
    """m with the elements above the k-th diagonal zeroed (on its last two
    axes); PyTorch's diagonal= names k."""
    return _triangle(m, k if diagonal is None else diagonal, True)


def triu(m, k=0, *, diagonal=None):
    """m with the elements below the k-th diagonal zeroed (on its last two
    axes); PyTorch's diagonal= names k."""
    return _triangle(m, k if diagonal is None else diagonal, False)


# ---- diagonals ----

def _diagonal_view(x, k):
    """The k-th diagonal of the 2-d x, a view."""
    n0, n1 = x.shape
    s0, s1 = x.strides
    length = max(0, min(n0, n1 - k) if k >= 0 else min(n0 + k, n1))
    offset = (k * s1 if k >= 0 else -k * s0) if length else 0
    return _view(x, (length,), (s0 + s1,), offset)


def diag(v, k=0):
    """NumPy's diag: a 2-d tensor with the 1-d v on its k-th diagonal (zeros
    elsewhere), or the k-th diagonal of the 2-d v.

    Note [diag of a matrix is a read-only view]
        As NumPy's (since 1.9), the diagonal of a 2-d input is a view that is
        not writeable; its writeable flag may be set to True, as in NumPy."""
    v = _tensor(v)
    k = operator.index(k)
    if v.ndim == 1:
        n = v.shape[0] + abs(k)
        out = zeros((n, n), dtype=v.dtype, device=v.device)
        _diagonal_view(out, k)._copy_from(v)
        return out
    if v.ndim == 2:
        d = _diagonal_view(v, k)
        d._writeable = False
        return d
    raise ValueError("Input must be 1- or 2-d.")


def diagflat(v, k=0):
    """A 2-d tensor with the flattened input on its k-th diagonal (NumPy's diagflat)."""
    return diag(reshape(_tensor(v), (-1,)), k)


# ---- grids ----

def meshgrid(*xi, copy=True, sparse=False, indexing=None):
    """Coordinate tensors from 1-d coordinate vectors (NumPy's meshgrid: a
    tuple; indexing 'xy', the default, swaps the first two axes; sparse
    keeps length-1 axes; copy=False gives read-only broadcast views).
    PyTorch's form, one list or tuple of tensors, defaults to 'ij' as
    PyTorch's does; tensors passed one by one keep NumPy's 'xy'."""
    if len(xi) == 1 and isinstance(xi[0], (list, tuple)) and xi[0] and \
            all(isinstance(x, TensorBase) for x in xi[0]):
        xi = tuple(xi[0])
        indexing = "ij" if indexing is None else indexing
    indexing = "xy" if indexing is None else indexing
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    xs = [_tensor(x) for x in xi]
    _same_device(xs)
    ndim = len(xs)
    ones = (1,) * ndim
    out = [reshape(x, ones[:i] + (-1,) + ones[i + 1:]) for i, x in enumerate(xs)]
    if indexing == "xy" and ndim > 1:
        out[0] = reshape(out[0], (1, -1) + ones[2:])
        out[1] = reshape(out[1], (-1, 1) + ones[2:])
    if not sparse:
        shape = np.broadcast_shapes(*(o.shape for o in out))
        out = [broadcast_to(o, shape) for o in out]
    if copy:
        out = [o.copy() for o in out]
    return tuple(out)


def indices(dimensions, dtype=int, sparse=False, *, device=None):
    """The indices of a grid (NumPy's indices): a (N, *dimensions) tensor, or
    with sparse=True a tuple of N tensors with length-1 axes."""
    dimensions = tuple(operator.index(d) for d in dimensions)
    if any(d < 0 for d in dimensions):
        raise ValueError("negative dimensions are not allowed")
    n = len(dimensions)
    ones = (1,) * n
    dtype = _dtype_type(dtype)
    parts = [reshape(arange(d, dtype=dtype, device=device), ones[:i] + (d,) + ones[i + 1:])
             for i, d in enumerate(dimensions)]
    if sparse:
        return tuple(parts)
    out = empty((n,) + dimensions, dtype=dtype, device=device)
    for i, part in enumerate(parts):
        out[i] = part
    return out


def _tri_positions(n, k, m, lower, device):
    from ._index_functions import nonzero
    _warn_float_k(k, stacklevel=4)
    mask = _tri_mask(operator.index(n), operator.index(n if m is None else m), k if lower else k - 1, device)
    return nonzero(mask if lower else ~mask)


def tril_indices(n, k=0, m=None, *, device=None, offset=None, dtype=None):
    """NumPy's tril_indices: the (rows, columns) of the lower triangle of an
    (n, m) array, in C order, as int64 tensors on device.  With PyTorch's
    offset= or dtype=, PyTorch's tril_indices(row, col, offset): one
    2 x N tensor (the positional forms are NumPy's: n, k, m)."""
    return _tri_indices(n, k, m, True, device, offset, dtype)


def triu_indices(n, k=0, m=None, *, device=None, offset=None, dtype=None):
    """NumPy's triu_indices: the (rows, columns) of the upper triangle
    (PyTorch's triu_indices(row, col, offset=...) as tril_indices')."""
    return _tri_indices(n, k, m, False, device, offset, dtype)


def _tri_indices(n, k, m, lower, device, offset, dtype):
    if offset is None and dtype is None:
        return _tri_positions(n, k, m, lower, device)
    if m is not None:
        raise TypeError("tril_indices/triu_indices take (row, col) with offset= or dtype= (PyTorch's form), "
                        "or NumPy's (n, k, m) without them")
    from ._manipulation import stack
    rows, cols = _tri_positions(n, 0 if offset is None else offset, k, lower, device)
    r = stack([rows, cols])
    return r if dtype is None else r.astype(dtype)


def _square_from(arr, name):
    arr = _tensor(arr)
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return arr


def tril_indices_from(arr, k=0):
    """tril_indices of a 2-d tensor's shape, on its device."""
    arr = _square_from(arr, "tril_indices_from")
    return _tri_positions(arr.shape[-2], k, arr.shape[-1], True, arr.device)


def triu_indices_from(arr, k=0):
    """triu_indices of a 2-d tensor's shape, on its device."""
    arr = _square_from(arr, "triu_indices_from")
    return _tri_positions(arr.shape[-2], k, arr.shape[-1], False, arr.device)


def diag_indices(n, ndim=2, *, device=None):
    """NumPy's diag_indices: ndim copies of arange(n), the indices of the main
    diagonal of an n x ... x n array (the same tensor, as NumPy's)."""
    idx = arange(operator.index(n), device=device)
    return (idx,) * operator.index(ndim)


def diag_indices_from(arr):
    """diag_indices of an array whose dimensions are all equal, on its device."""
    arr = _tensor(arr)
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim, device=arr.device)


def mask_indices(n, mask_func, k=0, *, device=None):
    """NumPy's mask_indices: the indices where mask_func(ones((n, n)), k) is
    non-zero (mask_func such as triu or tril)."""
    from ._creation import ones
    from ._index_functions import nonzero
    return nonzero(mask_func(ones((operator.index(n),) * 2, dtype=_C.int64, device=device), k) != 0)


def fromfunction(function, shape, *, dtype=float, like=None, device=None, **kwargs):
    """NumPy's fromfunction: function called once with the index grids of
    shape (indices(shape, dtype)) on device, its result returned as is."""
    return function(*indices(shape, dtype=dtype, device=device), **kwargs)


__all__ = ["tri", "tril", "triu", "diag", "diagflat", "meshgrid", "indices", "tril_indices", "triu_indices",
           "tril_indices_from", "triu_indices_from", "diag_indices", "diag_indices_from", "mask_indices",
           "fromfunction"]
