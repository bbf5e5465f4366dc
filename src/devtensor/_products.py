"""Matrix products: matmul with NumPy's signature, and what the @ and @=
operators hand over when an operand is not a tensor (Note [@ in C] in
csrc/python/matmul.c).  The work is the core's dt_matmul (_C._matmul):
NumPy's rules for 1-D operands and broadcast batch axes, BLAS on the CPU
(OpenBLAS) and on CUDA (cuBLAS), our own loops for integers and bool.

On top of it, NumPy's product family (dot, vdot, inner, outer, tensordot,
vecdot, matrix_transpose, kron, diagonal, trace, cross) and PyTorch's (mm,
bmm, mv), with their signatures, result dtypes and errors, and the Tensor
methods dot, diagonal, trace, matmul, mm, bmm and mv (mT is
the C type's).  einsum is
devtensor/_einsum.py.

Note [Products from device primitives]
    Every product here is one matmul, or elementwise ufuncs and a sum, of
    views of its operands: permuted, reshaped (a copy on the device only
    where the strides do not allow a view), diagonals as strided views.  So
    each runs on the operands' device, with no device data through the host.
    The host computes shapes, axes and the checks that give NumPy's errors.
"""
import builtins
import functools
import math
import operator
import warnings

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from . import _C
from ._C import TensorBase
from ._creation import asarray, empty
from ._dtype_api import _CASTINGS
from ._manipulation import _as_tensors, broadcast_shapes, moveaxis
from ._reductions import _check_output, sum
from ._structured import _same_device
from ._tensor import Tensor, _install_methods
from ._ufuncs import conj, multiply, negative, subtract
from ._views import (
    _fmt, _view, broadcast_to, expand_dims, permute_dims, reshape, swapaxes,
)

__all__ = ["matmul", "dot", "vdot", "inner", "outer", "tensordot", "vecdot", "matvec", "vecmat", "matrix_transpose",
           "kron", "diagonal", "trace", "cross", "mm", "bmm", "mv"]


def _operands(x1, x2):
    """Both as tensors on one device (non-tensors converted as NumPy would,
    on the tensors' device; Note [Lists as inputs] in _manipulation.py)."""
    tensors = [x for x in (x1, x2) if isinstance(x, TensorBase)]
    device = _same_device(tensors)
    return [x if isinstance(x, TensorBase) else asarray(x, device=device) for x in (x1, x2)]


def matmul(x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True, axes=None,
           axis=None):
    """NumPy's matmul: the matrix product of two arrays, 1-D operands
    promoted to a row (left) or a column (right) and their axis dropped,
    batch axes broadcast.  out= is checked as NumPy's gufunc checks it
    (Note [matmul's out=]) and may add broadcast loop axes.  axes= names
    each operand's core axes, as NumPy's gufunc keyword (views moved, no
    copies)."""
    if (out is None and dtype is None and axes is None and axis is None and casting == "same_kind"
            and isinstance(x1, TensorBase) and isinstance(x2, TensorBase)):
        return _C._matmul(x1, x2, None)  # the common call, at @'s cost (the checks below pass)
    if (dtype is None and axes is None and axis is None and casting == "same_kind" and isinstance(out, TensorBase)
            and isinstance(x1, TensorBase) and isinstance(x2, TensorBase) and x1.dtype == x2.dtype == out.dtype):
        try:  # out= of the result's dtype (no cast to check), written in C where it has the result's shape
            if _C._matmul_into(x1, x2, None, out):
                return out
        except (ValueError, RuntimeError):
            pass  # the checks below raise NumPy's error, in NumPy's order
    if axis is not None:
        raise TypeError(f"matmul: axis can only be used with a single shared core dimension, not with the 3 "
                        f"distinct ones implied by signature {_MATMUL_SIGNATURE}.")
    out = _gufunc_out(out)
    _check_casting(casting)
    a, b = _operands(x1, x2)
    dtype = _ufunc_dtype("matmul", (a, b), dtype, casting)
    if axes is not None:
        return _matmul_with_axes(a, b, out, dtype, casting, axes)
    if out is None:
        return _C._matmul(a, b, dtype)
    return _matmul_into(a, b, out, dtype, casting)


def _matmul_with_axes(a, b, out, dtype, casting, axes):
    """matmul(a, b, axes=[a's core axes, b's, the result's]): each
    operand's core axes moved last (views), the product, and the result's
    core axes moved where axes puts them (or out= seen so).  NumPy's checks
    and words."""
    cores = [min(x.ndim, 2) for x in (a, b)]
    cores.append((cores[0] == 2) + (cores[1] == 2))
    loop = builtins.max(a.ndim - cores[0], b.ndim - cores[1])
    ndims = (a.ndim, b.ndim, loop + cores[2] if out is None else out.ndim)
    if not isinstance(axes, list):
        raise TypeError("axes should be a list.")
    if len(axes) != 3:  # the signature's output has (optional) core axes: never omitted
        raise ValueError("axes should be a list with an entry for all 3 inputs and outputs; entries for "
                         "outputs can only be omitted if none of them has core axes.")
    moved = []
    for i, (entry, ndim, core) in enumerate(zip(axes, ndims, cores)):
        entry = tuple(entry) if isinstance(entry, (tuple, list)) else (entry,)
        if len(entry) != core:
            raise np.exceptions.AxisError(f"matmul: operand {i} has {core} core dimensions, but {len(entry)} "
                                          f"dimensions are specified by axes tuple.")
        where = tuple(normalize_axis_index(operator.index(x), ndim) for x in entry)
        if len(set(where)) != len(where):
            raise ValueError(f"axes item {i} has value {entry[where.index(where[-1])]} repeated")
        moved.append(where)
    last = [tuple(range(-core, 0)) for core in cores]
    a, b = moveaxis(a, moved[0], last[0]), moveaxis(b, moved[1], last[1])
    if out is not None:
        _matmul_into(a, b, moveaxis(out, moved[2], last[2]) if cores[2] else out, dtype, casting)
        return out
    r = _C._matmul(a, b, dtype)
    return moveaxis(r, last[2], moved[2]) if cores[2] else r


def _matmul_operator(x1, x2):
    """x1 @ x2 where one side is not a tensor (a NumPy array, a list, a
    number): converted as NumPy would, on the tensor's device."""
    a, b = _operands(x1, x2)
    return _C._matmul(a, b, None)


def _imatmul(x, y):
    """x @= y: NumPy computes matmul(x, y, out=x) with axes= that keep x's
    core axes (so y must have two), casting to x's dtype with same_kind."""
    a, b = _operands(x, y)
    return _matmul_into(a, b, x, _C._promote_types(a.dtype, b.dtype), "same_kind",
                        inplace=True)


# Note [matmul's out=]
#     NumPy's matmul is a gufunc, (n?,k),(k,m?)->(n?,m?), and checks out=
#     in three steps, each with its own words, which _matmul_shapes
#     follows in order:
#     1. operands with fewer axes than their core drop the optional n and
#        m, for every operand (an out= of ndim 1 drops n even when a is a
#        matrix, so a's rows become a loop axis); too few left is "does not
#        have enough dimensions";
#     2. each core size must equal the first one seen with its label, in
#        operand order a, b, out ("mismatch in its core dimension");
#     3. the loop axes (those before the core ones) broadcast, the output's
#        with the inputs' ("could not be broadcast together with remapped
#        shapes"), and out must have every loop axis, at full size: an axis
#        out lacks is "requires a reduction", one of size 1 "non-
#        broadcastable output operand" (NumPy's nditer, which prints the
#        remapped shape reversed, as here).
#     x @= y is matmul(x, y, out=x, axes=...): y with one axis is refused
#     with NumPy's own message before step 2.
_MATMUL_SIGNATURE = "(n?,k),(k,m?)->(n?,m?)"
_MATMUL_CORES = (("n", "k"), ("k", "m"), ("n", "m"))


def _shape_str(dims):
    """NumPy's convert_shape_to_string: None (a new axis) written
    'newaxis', leading ones left out; one axis written (n,) only when it
    is the only one."""
    i = 0
    while i < len(dims) and dims[i] is None:
        i += 1
    if i == len(dims):
        return "()"
    body = ",".join("newaxis" if d is None else str(d) for d in dims[i:])
    return f"({body},)" if len(dims) == 1 else f"({body})"


def _matmul_shapes(sa, sb, so, inplace=False):
    """NumPy's errors for matmul(a, b, out=o) of these shapes (Note
    [matmul's out=]); gives (n missing, m missing)."""
    shapes = (tuple(sa), tuple(sb), tuple(so))
    missing = {"n": False, "m": False}

    def core(i):
        return [d for d in _MATMUL_CORES[i] if not missing.get(d)]

    def name(i):
        return f"Input operand {i}" if i < 2 else "Output operand 0"
    for i, shape in enumerate(shapes):
        for d in _MATMUL_CORES[i]:
            if len(shape) >= len(core(i)):
                break
            if d in missing and not missing[d]:
                missing[d] = True
        if len(shape) < len(core(i)):
            raise ValueError(f"matmul: {name(i)} does not have enough dimensions (has "
                             f"{len(shape)}, gufunc core with signature {_MATMUL_SIGNATURE} "
                             f"requires {len(core(i))})")
    if inplace and len(sb) < 2:
        raise ValueError("inplace matrix multiplication requires the first operand to have at "
                         "least one and the second at least two dimensions.")
    sizes = {}
    for i, shape in enumerate(shapes):
        labels = core(i)
        for j, (d, size) in enumerate(zip(labels, shape[len(shape) - len(labels):])):
            if sizes.setdefault(d, size) != size:
                raise ValueError(f"matmul: {name(i)} has a mismatch in its core dimension {j}, "
                                 f"with gufunc signature {_MATMUL_SIGNATURE} (size {size} is "
                                 f"different from {sizes[d]})")
    loops = [shape[:len(shape) - len(core(i))] for i, shape in enumerate(shapes)]
    nd = max(len(lp) for lp in loops)
    out_core = [sizes[d] for d in core(2)]
    # each operand's iterator axes: its loop axes right-aligned, then out's core
    remapped = [[None] * (nd - len(lp)) + list(lp) + [None] * len(out_core) for lp in loops]
    remapped[2][nd:] = out_core
    full = [1] * nd
    for lp in loops:
        for ax, size in enumerate(lp, nd - len(lp)):
            if size != 1:
                if full[ax] == 1:
                    full[ax] = size
                elif full[ax] != size:
                    ops = " ".join(f"{_shape_str(s)}->{_shape_str(r)}"
                                   for s, r in zip(shapes, remapped))
                    raise ValueError(f"operands could not be broadcast together with remapped "
                                     f"shapes [original->remapped]: {ops}  and requested shape "
                                     f"{_shape_str([None] * nd + out_core)}")
    for ax in reversed(range(nd)):
        size = remapped[2][ax]
        if full[ax] == 1 or (size is not None and size != 1):
            continue
        if size is None:
            raise ValueError("output operand requires a reduction along dimension -1, but the "
                             "reduction is not enabled. The dimension size of 1 does not match "
                             "the expected output shape.")
        raise ValueError(f"non-broadcastable output operand with shape {_shape_str(so)} "
                         f"[remapped to {_shape_str(remapped[2][::-1])}] doesn't match the "
                         f"broadcast shape {_shape_str(full + out_core)}")
    return missing["n"], missing["m"]


def _matmul_into(a, b, out, dtype, casting, inplace=False):
    """matmul(a, b, out=out) in dtype: NumPy's cast and shape checks (Note
    [matmul's out=]), the product of a and b seen as the gufunc sees them,
    written into out with its broadcast loop axes."""
    _same_device([a, out])
    if not _C._can_cast(dtype, out.dtype, casting):
        raise TypeError(f"Cannot cast ufunc 'matmul' output from dtype('{dtype}') to "
                        f"dtype('{out.dtype}') with casting rule '{casting}'")
    if not inplace:  # out of the result's shape: written in C, no copy where it can be written
        try:
            if _C._matmul_into(a, b, dtype, out):
                return out
        except (ValueError, RuntimeError):
            pass  # NumPy's checks below raise NumPy's error, in NumPy's order
    n_missing, m_missing = _matmul_shapes(a.shape, b.shape, out.shape, inplace)
    if inplace and _C._matmul_into(a, b, dtype, out):  # (otherwise tried above: out's shape is another)
        return out
    r = _C._matmul(expand_dims(a, -2) if n_missing else a,
                   expand_dims(b, -1) if m_missing else b, dtype)  # (..., n, m)
    if n_missing:
        r = r[..., 0, :]
    if m_missing:
        r = r[..., 0]
    if r.ndim > out.ndim:  # loop axes out lacks have size 1 (checked)
        r = reshape(r, r.shape[r.ndim - out.ndim:])
    _check_output(out)
    out._copy_from(broadcast_to(r, out.shape))
    return out


def _gufunc_out(out):
    """out= of a one-output gufunc: None, a tensor, or a 1-tuple of one."""
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        out = out[0]
    if out is not None and not isinstance(out, TensorBase):
        raise TypeError("return arrays must be of ArrayType")
    return out


def _check_casting(casting):
    if not isinstance(casting, str):
        raise TypeError(f"casting must be str, not {type(casting).__name__}")
    if casting not in _CASTINGS:
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' "
                         f"(got {casting!r})")


# ---- helpers ----

def _index_arg(value):
    """An integer argument, refused with NumPy's words when it is not one."""
    if isinstance(value, (bool, np.bool_)) or not hasattr(type(value), "__index__"):
        raise TypeError(f"integer argument expected, got {type(value).__name__}")
    return operator.index(value)


def _diagonal(a, offset=0, axis1=0, axis2=1):
    """NumPy's a.diagonal(offset, axis1, axis2) as a strided view: the
    other axes in order, then the diagonal (one stride, the sum of the two)."""
    if a.ndim == 2 and offset == 0 and axis1 == 0 and axis2 == 1:  # a matrix's main diagonal
        return a._as_strided((min(a.shape),), (a.strides[0] + a.strides[1],), 0)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    axis1 = normalize_axis_index(axis1, a.ndim, "axis1")
    axis2 = normalize_axis_index(axis2, a.ndim, "axis2")
    if axis1 == axis2:
        raise ValueError("axis1 and axis2 cannot be the same")
    n1, n2 = a.shape[axis1], a.shape[axis2]
    s1, s2 = a.strides[axis1], a.strides[axis2]
    if offset >= 0:
        length, start = max(0, min(n1, n2 - offset)), offset * s2
    else:
        length, start = max(0, min(n1 + offset, n2)), -offset * s1
    keep = [d for d in range(a.ndim) if d not in (axis1, axis2)]
    shape = [a.shape[d] for d in keep] + [length]
    strides = [a.strides[d] for d in keep] + [s1 + s2]
    return _view(a, shape, strides, start if math.prod(shape) else 0)


def _conj_if_complex(x):
    return conj(x) if x.dtype.is_complex else x


def _check_dot_out(out, r):
    """NumPy's dot/vdot checks of out=: a tensor of exactly the result's
    dtype and shape, C-contiguous, on the operands' device."""
    if not isinstance(out, TensorBase):
        raise TypeError("'out' must be an array")
    _same_device([r, out])
    if out.dtype != r.dtype or out.ndim != r.ndim or not out.is_contiguous() or not out._writeable:
        raise ValueError("output array is not acceptable (must have the right datatype, number "
                         "of dimensions, and be a C-Array)")
    if tuple(out.shape) != tuple(r.shape):
        raise ValueError("output array has wrong dimensions")
    out._copy_from(r)
    return out


# ---- NumPy's products ----

def dot(a, b, out=None):
    """NumPy's dot: a product for 0-d operands, the inner product of 1-D
    ones, the matrix product of 2-D ones, and for N-D the sum over a's last
    axis and b's second-to-last (shape a.shape[:-1] + b.shape[:-2] +
    b.shape[-1:]).  out= must have the result's dtype and shape and be
    C-contiguous, as NumPy's."""
    if out is None and isinstance(a, TensorBase) and isinstance(b, TensorBase):  # the per-call path
        na, nb = a.ndim, b.ndim
        if na and 0 < nb <= 2 and a.shape[-1] == b.shape[-nb]:
            return _C._matmul(a, b, None)  # the same shape as dot's here
    a, b = _as_tensors((a, b))
    if a.ndim == 0 or b.ndim == 0:
        r = multiply(a, b)
    else:
        ka, kb = a.shape[-1], b.shape[-2 if b.ndim > 1 else 0]
        if ka != kb:
            raise ValueError(f"shapes {_fmt(a.shape)} and {_fmt(b.shape)} not "
                             f"aligned: {ka} (dim {a.ndim - 1}) != {kb} (dim {max(b.ndim - 2, 0)})")
        if a.ndim == 1 or b.ndim <= 2:
            r = _C._matmul(a, b, None)  # the same shape as dot's here
        else:
            r = tensordot(a, b, ([a.ndim - 1], [b.ndim - 2]))
    return r if out is None else _check_dot_out(out, r)


def vdot(a, b, /):
    """NumPy's vdot: the inner product of the flattened operands, the first
    one conjugated (a 0-d tensor)."""
    if isinstance(a, TensorBase) and isinstance(b, TensorBase) and a.ndim == b.ndim == 1 and \
            a.shape == b.shape and a.dtype.kind != "c":
        return _C._matmul(a, b, None)  # the plain call: two real vectors
    a, b = (reshape(t, (-1,)) for t in _as_tensors((a, b)))
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"cannot reshape array of size {b.shape[0]} into shape ({a.shape[0]},)")
    return _C._matmul(_conj_if_complex(a), b, None)


def inner(a, b, /):
    """NumPy's inner: a product for 0-d operands, else the sum over both
    last axes (shape a.shape[:-1] + b.shape[:-1])."""
    a, b = _as_tensors((a, b))
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        # NumPy names b with its last two axes swapped
        bs = b.shape[:-2] + b.shape[-1:] + b.shape[-2:-1]
        raise ValueError(f"shapes {_fmt(a.shape)} and {_fmt(bs)} not aligned: "
                         f"{a.shape[-1]} (dim {a.ndim - 1}) != {b.shape[-1]} "
                         f"(dim {max(b.ndim - 2, 0)})")
    if b.ndim <= 2:
        return _C._matmul(a, swapaxes(b, -1, -2) if b.ndim == 2 else b, None)
    return tensordot(a, b, ([-1], [-1]))


def outer(a, b, out=None):
    """NumPy's outer: the flattened a as a column times the flattened b as
    a row (out= as multiply's)."""
    if not (isinstance(a, TensorBase) and isinstance(b, TensorBase)):
        a, b = _as_tensors((a, b))
    return multiply(a.reshape(-1, 1), b.reshape(1, -1), out=out)  # multiply checks the devices


def _axis_list(axes):
    try:
        return list(axes)
    except TypeError:
        return [axes]


def tensordot(a, b, axes=2, *, dims=None):
    """NumPy's tensordot: the sum over a's axes axes[0] and b's axes[1]
    (an int n: a's last n axes and b's first n); the result has a's other
    axes then b's.  One matrix product of the operands permuted (and copied
    only where their strides do not allow a reshape).  PyTorch's dims= is axes."""
    if dims is not None:
        axes = dims.tolist() if isinstance(dims, TensorBase) else dims
    try:
        axes_a, axes_b = axes
    except TypeError:  # an int
        axes_a, axes_b = range(-axes, 0), range(axes)
    axes_a, axes_b = _axis_list(axes_a), _axis_list(axes_b)
    if len(set(axes_a)) != len(axes_a) or len(set(axes_b)) != len(axes_b):
        raise ValueError("duplicate axes are not allowed in tensordot")
    a, b = _as_tensors((a, b))
    if len(axes_a) != len(axes_b) or any(
            a.shape[i] != b.shape[j] for i, j in zip(axes_a, axes_b)):
        raise ValueError("shape-mismatch for sum")
    axes_a = [i % a.ndim for i in axes_a]  # in range: a.shape[i] was read
    axes_b = [j % b.ndim for j in axes_b]
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    free_b = [j for j in range(b.ndim) if j not in axes_b]
    shape_a = [a.shape[i] for i in free_a]
    shape_b = [b.shape[j] for j in free_b]
    k = math.prod(a.shape[i] for i in axes_a)
    a2 = reshape(permute_dims(a, free_a + axes_a), (math.prod(shape_a), k))
    b2 = reshape(permute_dims(b, axes_b + free_b), (k, math.prod(shape_b)))
    return reshape(_C._matmul(a2, b2, None), shape_a + shape_b)


def _ufunc_dtype(name, tensors, dtype, casting):
    """The dtype a gufunc computes in, dtype= or the inputs' promotion, each
    input castable to it by `casting` (NumPy's error otherwise: casting='no'
    refuses mixed inputs)."""
    if dtype is None:
        dtype = functools.reduce(_C._promote_types, [t.dtype for t in tensors])
    dtype = dtype if isinstance(dtype, _C.dtype) else _C.dtype(dtype)
    for i, t in enumerate(tensors):
        if not _C._can_cast(t.dtype, dtype, casting):
            raise TypeError(f"Cannot cast ufunc '{name}' input {i} from dtype('{t.dtype}') to "
                            f"dtype('{dtype}') with casting rule '{casting}'")
    return dtype


def _ufunc_out(name, r, out, casting):
    """r written into out= as a gufunc does: out may add broadcast loop axes;
    its dtype must be reachable by `casting`."""
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        out = out[0]
    if not isinstance(out, TensorBase):
        raise TypeError("return arrays must be of ArrayType")
    _same_device([r, out])
    if not _C._can_cast(r.dtype, out.dtype, casting):
        raise TypeError(f"Cannot cast ufunc '{name}' output from dtype('{r.dtype}') to "
                        f"dtype('{out.dtype}') with casting rule '{casting}'")
    _check_output(out)
    out._copy_from(broadcast_to(r, out.shape))
    return out


def vecdot(x1, x2, /, out=None, *, axis=-1, keepdims=False, dtype=None, casting="same_kind", order="K",
           subok=True):
    """NumPy 2's vecdot (and the array API's): the sum of conj(x1) * x2
    along `axis` of each, the other axes broadcast; one batched matrix
    product of rows by columns."""
    a, b = _as_tensors((x1, x2))
    for i, t in enumerate((a, b)):
        if t.ndim == 0:
            raise ValueError(f"vecdot: Input operand {i} does not have enough dimensions (has 0, "
                             f"gufunc core with signature (n),(n)->() requires 1)")
    shapes = (a.shape, b.shape)
    a = moveaxis(a, normalize_axis_index(axis, a.ndim), -1)
    b = moveaxis(b, normalize_axis_index(axis, b.ndim), -1)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"vecdot: Input operand 1 has a mismatch in its core dimension 0, with "
                         f"gufunc signature (n),(n)->() (size {b.shape[-1]} is different from "
                         f"{a.shape[-1]})")
    try:
        batch = np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
    except ValueError:
        raise ValueError(f"operands could not be broadcast together with remapped shapes "
                         f"[original->remapped]: {_fmt(shapes[0])}->{_fmt(a.shape[:-1])} "
                         f"{_fmt(shapes[1])}->{_fmt(b.shape[:-1])}  and requested shape ()"
                         ) from None
    dtype = _ufunc_dtype("vecdot", (a, b), dtype, casting)
    row = expand_dims(_conj_if_complex(a), -2)  # (..., 1, n)
    col = expand_dims(b, -1)                    # (..., n, 1)
    r = reshape(_C._matmul(row, col, dtype), batch)
    if keepdims:  # NumPy's gufunc keepdims: a length-1 axis where `axis` was
        r = expand_dims(r, normalize_axis_index(axis, len(batch) + 1))
    return r if out is None else _ufunc_out("vecdot", r, out, casting)


def _matrix_vector(name, signature, core_ndims, x1, x2, out, dtype, casting):
    """matvec and vecmat: the operands checked as NumPy's gufuncs check them."""
    a, b = _as_tensors((x1, x2))
    for i, (t, need) in enumerate(zip((a, b), core_ndims)):
        if t.ndim < need:
            raise ValueError(f"{name}: Input operand {i} does not have enough dimensions (has {t.ndim}, "
                             f"gufunc core with signature {signature} requires {need})")
    n1 = a.shape[-1]
    n2 = b.shape[-1] if name == "matvec" else b.shape[-2]
    if n1 != n2:
        raise ValueError(f"{name}: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                         f"signature {signature} (size {n2} is different from {n1})")
    batch1, batch2 = a.shape[:a.ndim - core_ndims[0]], b.shape[:b.ndim - core_ndims[1]]
    try:
        np.broadcast_shapes(batch1, batch2)
    except ValueError:
        raise ValueError(f"operands could not be broadcast together with remapped shapes "
                         f"[original->remapped]: {_fmt(a.shape)}->{_fmt(batch1)} "
                         f"{_fmt(b.shape)}->{_fmt(batch2)}  and requested shape ()") from None
    return a, b, _ufunc_dtype(name, (a, b), dtype, casting)


def matvec(x1, x2, /, out=None, *, dtype=None, casting="same_kind", order="K", subok=True):
    """NumPy 2.2's matvec: matrices (..., m, n) times vectors (..., n), giving
    (..., m), the batch axes broadcast; one batched matrix product."""
    signature = "(m,n),(n)->(m)"
    a, b, dtype = _matrix_vector("matvec", signature, (2, 1), x1, x2, out, dtype, casting)
    r = _C._matmul(a, expand_dims(b, -1), dtype)
    r = reshape(r, r.shape[:-1])
    return r if out is None else _ufunc_out("matvec", r, out, casting)


def vecmat(x1, x2, /, out=None, *, dtype=None, casting="same_kind", order="K", subok=True):
    """NumPy 2.2's vecmat: conjugated vectors (..., n) times matrices
    (..., n, m), giving (..., m), the batch axes broadcast."""
    signature = "(n),(n,m)->(m)"
    a, b, dtype = _matrix_vector("vecmat", signature, (1, 2), x1, x2, out, dtype, casting)
    r = _C._matmul(expand_dims(_conj_if_complex(a), -2), b, dtype)
    r = reshape(r, r.shape[:-2] + r.shape[-1:])
    return r if out is None else _ufunc_out("vecmat", r, out, casting)


def matrix_transpose(x, /):
    """NumPy 2's matrix_transpose (x.mT): the last two axes swapped, a view."""
    x = _as_tensors((x,))[0]
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}")
    return swapaxes(x, -1, -2)


def kron(a, b):
    """NumPy's kron: the Kronecker product, block (i, j, ...) being
    a[i, j, ...] * b; the shorter shape is padded with leading ones.  One
    broadcast multiply of interleaved views, whose contiguous result is
    reshaped without a copy."""
    a, b = _as_tensors((a, b))
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + tuple(a.shape)
    sb = (1,) * (nd - b.ndim) + tuple(b.shape)
    a = reshape(a, [n for s in sa for n in (s, 1)])  # (a0, 1, a1, 1, ...)
    b = reshape(b, [n for s in sb for n in (1, s)])  # (1, b0, 1, b1, ...)
    return reshape(multiply(a, b), [m * n for m, n in zip(sa, sb)])


def diagonal(a, offset=0, axis1=0, axis2=1, *, dim1=None, dim2=None):
    """NumPy's diagonal: the diagonal of axes axis1 and axis2 (offset above
    or below it) as the last axis after the others, a view that is not
    writeable, as NumPy 2's (Note [diag of a matrix is a read-only view] in
    _structured.py: its writeable flag may be set to True).  PyTorch's dim1=
    and dim2= are axis1 and axis2."""
    if dim1 is not None or dim2 is not None:
        from ._torch_keywords import axis_with_default
        axis1 = axis1 if dim1 is None else axis_with_default("diagonal", axis1, 0, dim1)
        axis2 = axis2 if dim2 is None else axis_with_default("diagonal", axis2, 1, dim2)
    a = _as_tensors((a,))[0]
    d = _diagonal(a, operator.index(offset), axis1, axis2)
    d._writeable = False
    return d


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """NumPy's trace: the sum along the diagonal of axes axis1 and axis2
    (offset above or below it), in sum's dtype (int64 for small ints) unless
    dtype= says; out= as sum's."""
    a = _as_tensors((a,))[0]
    d = _diagonal(a, _index_arg(offset), axis1, axis2)
    if dtype is None and out is None:
        return d.sum(-1)  # the C method's plain call
    return sum(d, axis=-1, dtype=dtype, out=out)


def _cross_term(x, y, u, v):
    """x*y - u*v, a missing component (None) counting as zero."""
    if u is None or v is None:
        return multiply(x, y)
    if x is None or y is None:
        return negative(multiply(u, v))
    return subtract(multiply(x, y), multiply(u, v))


# NumPy 2.5 expired the deprecation of 2-element vectors in cross
_NUMPY_REFUSES_2D_CROSS = np.lib.NumpyVersion(np.__version__) >= "2.5.0"


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None, *, dim=None):
    """NumPy's cross: the cross product of 3-element vectors along axisa
    of a and axisb of b (axisc of the result; axis= sets all three), the
    other axes broadcast.  With NumPy 2.0 to 2.4 installed, 2-element
    vectors count as having a zero third component, with their
    DeprecationWarning (two of them give the z component alone); NumPy 2.5
    refuses them, and so does devtensor with it.  PyTorch's dim= is axis."""
    if dim is not None:
        axis = dim
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = _as_tensors((a, b))
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    a = moveaxis(a, normalize_axis_index(axisa, a.ndim, "axisa"), -1)
    b = moveaxis(b, normalize_axis_index(axisb, b.ndim, "axisb"), -1)
    na, nb = a.shape[-1], b.shape[-1]
    if _NUMPY_REFUSES_2D_CROSS and (na != 3 or nb != 3):
        raise ValueError(f"Both input arrays must be (arrays of) 3-dimensional vectors, but they are {na} and "
                         f"{nb} dimensional instead.")
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n"
                         "(dimension must be 2 or 3)")
    if na == 2 or nb == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=2)
    shape = broadcast_shapes(a.shape[:-1], b.shape[:-1])
    dtype = _C._promote_types(a.dtype, b.dtype)
    a, b = a.astype(dtype, copy=False), b.astype(dtype, copy=False)
    a0, a1, a2 = (a[..., i] if i < na else None for i in range(3))
    b0, b1, b2 = (b[..., i] if i < nb else None for i in range(3))
    if na == nb == 2:
        return _cross_term(a0, b1, a1, b0)
    axisc = normalize_axis_index(axisc, len(shape) + 1, "axisc")
    c = empty(shape + (3,), dtype=dtype, device=a.device)
    c[..., 0] = _cross_term(a1, b2, a2, b1)
    c[..., 1] = _cross_term(a2, b0, a0, b2)
    c[..., 2] = _cross_term(a0, b1, a1, b0)
    return moveaxis(c, -1, axisc)


# ---- PyTorch's products ----

# Note [PyTorch's dtype names]
#     PyTorch's mm, bmm and mv take one dtype (no promotion) and name a
#     mismatch in its C++ words: mm by the element type's C++ name, bmm and
#     mv by the ScalarType's.  These tables give those names to our dtypes.
#     Two float (or complex) dtypes are promoted instead, as matmul's are:
#     devtensor's default float is float64 where PyTorch's is float32, so
#     PyTorch code that mixes a default-dtype tensor with a float32 one
#     (D2L's attention: torch.normal queries, arange(dtype=float32) values,
#     then bmm) would fail here only.  Integers and bools beside floats are
#     refused, as PyTorch refuses them.
_TORCH_SCALAR_TYPE = {
    "bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int",
    "int64": "Long", "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64",
    "float16": "Half", "bfloat16": "BFloat16", "float32": "Float", "float64": "Double",
    "complex64": "ComplexFloat", "complex128": "ComplexDouble",
}
_TORCH_CPP_TYPE = {
    "bool": "bool", "uint8": "unsigned char", "int8": "signed char", "int16": "short int",
    "int32": "int", "int64": "long int", "uint16": "short unsigned int",
    "uint32": "unsigned int", "uint64": "long unsigned int", "float16": "c10::Half",
    "bfloat16": "c10::BFloat16", "float32": "float", "float64": "double",
    "complex64": "c10::complex<float>", "complex128": "c10::complex<double>",
}


def _inexact_pair(a, b):
    """a and b in their promoted dtype when both are float or complex and
    differ (Note [PyTorch's dtype names]); else as they are."""
    if a.dtype == b.dtype or a.dtype.kind not in "fc" or b.dtype.kind not in "fc":
        return a, b
    from ._dtype_api import result_type
    common = result_type(a.dtype, b.dtype)
    return a.astype(common, copy=False), b.astype(common, copy=False)


def _torch_operands(name, *args):
    """PyTorch's functions take tensors only, on one device."""
    for i, (arg_name, x) in enumerate(args, 1):
        if not isinstance(x, TensorBase):
            raise TypeError(f"{name}(): argument '{arg_name}' (position {i}) must be Tensor, "
                            f"not {type(x).__name__}")
    tensors = [x for _, x in args]
    _same_device(tensors)
    return tensors


def mm(input, mat2):
    """PyTorch's mm: the product of two matrices of one dtype, or of two
    float dtypes promoted (Note [PyTorch's dtype names]); no broadcasting,
    no 1-D operands."""
    a, b = _torch_operands("mm", ("input", input), ("mat2", mat2))
    if a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} "
                           f"and {b.shape[0]}x{b.shape[1]})")
    a, b = _inexact_pair(a, b)
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{_TORCH_CPP_TYPE[a.dtype.name]} != {_TORCH_CPP_TYPE[b.dtype.name]}")
    return _C._matmul(a, b, None)


def bmm(input, mat2):
    """PyTorch's bmm: batched matrix products of (b, n, m) and (b, m, p)
    tensors of one dtype (no broadcasting)."""
    a, b = _torch_operands("bmm", ("input", input), ("mat2", mat2))
    if a.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if b.shape[0] != a.shape[0] or b.shape[1] != a.shape[2]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")
    a, b = _inexact_pair(a, b)
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected scalar type {_TORCH_SCALAR_TYPE[a.dtype.name]} but found "
                           f"{_TORCH_SCALAR_TYPE[b.dtype.name]}")
    return _C._matmul(a, b, None)


def mv(input, vec):
    """PyTorch's mv: a matrix times a vector, both of one dtype."""
    a, v = _torch_operands("mv", ("input", input), ("vec", vec))
    if a.ndim != 2 or v.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.ndim}, {v.ndim}")
    if a.shape[1] != v.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x"
                           f"{a.shape[1]}), vec ({v.shape[0]})")
    a, v = _inexact_pair(a, v)
    if a.dtype != v.dtype:
        names = [_TORCH_SCALAR_TYPE[d.name] for d in (v.dtype, a.dtype, v.dtype)]
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {names[0]}, "
                           f"{names[1]}, and {names[2]}")
    return _C._matmul(a, v, None)


# ---- Tensor methods ----

class _ProductMethods:
    """Tensor methods (installed below on devtensor.Tensor)."""

    def dot(self, b, out=None):
        """NumPy's ndarray.dot."""
        return dot(self, b, out)

    def diagonal(self, offset=0, axis1=0, axis2=1, *, dim1=None, dim2=None):
        """NumPy's ndarray.diagonal: a read-only view (PyTorch's dim1=, dim2= too)."""
        return diagonal(self, offset, axis1, axis2, dim1=dim1, dim2=dim2)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        """NumPy's ndarray.trace."""
        return trace(self, offset, axis1, axis2, dtype, out)

    def matmul(self, other):
        """PyTorch's Tensor.matmul: self @ other."""
        return matmul(self, other)

    def mm(self, mat2):
        """PyTorch's Tensor.mm."""
        return mm(self, mat2)

    def bmm(self, mat2):
        """PyTorch's Tensor.bmm."""
        return bmm(self, mat2)

    def mv(self, vec):
        """PyTorch's Tensor.mv."""
        return mv(self, vec)


_install_methods(Tensor, _ProductMethods)

# NumPy's gufuncs' signatures, which code reads to tell their core dimensions
for _fn, _signature in ((matmul, "(n?,k),(k,m?)->(n?,m?)"), (vecdot, "(n),(n)->()"),
                        (matvec, "(m,n),(n)->(m)"), (vecmat, "(n),(n,m)->(m)")):
    _fn.signature, _fn.nin, _fn.nout, _fn.nargs = _signature, 2, 1, 3
