"""devtensor.linalg: NumPy's numpy.linalg and the array API's linalg
extension, on every device.

Factorizations are the core's (csrc/core/linalg.c: LAPACK through
OpenBLAS on the CPU, cuSOLVER on CUDA): LU, Cholesky, QR, Hermitian
eigen-decomposition, SVD and general eigen-decomposition.
Everything else is built here from them and from devtensor's products,
reductions and views, so a CUDA tensor's work stays on its device; what the
host reads is info (to raise LinAlgError as NumPy does, which waits for the
device) and, for matrix_rank and lstsq's rank, one count.

Note [Linalg dtypes]
    As NumPy's: integer and bool input is computed in float64; float32,
    float64, complex64 and complex128 keep their dtype; float16 and
    bfloat16 are refused ("array type float16 is unsupported in linalg"),
    as NumPy refuses float16.  Results of two operands (solve, lstsq) take
    their promoted dtype.  Norms are real.  NumPy computes float32 and
    complex64 in double precision and rounds the result; devtensor computes
    them in their own precision (LAPACK's and cuSOLVER's s and c routines),
    so those results are NumPy's to float32's precision.  As NumPy's, the
    checks of shapes (at least two axes, square) come before the dtype's.

Note [Empty matrices]
    A matrix with a zero-length side never reaches the backend (Note
    [Factorizations] in csrc/core/linalg.c); the answers here are NumPy's:
    det 1, inv an empty matrix, svd's full U and V identities.

Note [NaN in the SVD]
    NumPy's SVD (LAPACK's gesdd) refuses a matrix with a NaN, so svd,
    svdvals, pinv, matrix_rank, cond and the 2 and nuclear norms raise
    LinAlgError("SVD did not converge") for one, and lstsq (gelsd) refuses
    a NaN or an infinity in a ("... in Linear Least Squares"); elsewhere NaN
    propagates.  Backends differ here (cuSOLVER does not check), so the
    input is checked here first: one more read on the host.

Note [lstsq's rcond]
    NumPy's default cut-off for lstsq's singular values is max(m, n) times
    the machine epsilon of the precision it computes in, which is always
    double.  devtensor computes float32 in float32 (Note [Linalg dtypes]),
    whose singular values of a rank-deficient matrix are float32 rounding
    (~1e-7), not double's (~1e-16): the default cut-off takes float32's
    epsilon for float32 and complex64 input, so the rank found is the one
    NumPy finds.  float64 and complex128 use NumPy's cut-off exactly.
"""
import builtins
import collections
import math
import operator
import warnings
from collections import namedtuple

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple
from numpy.linalg import LinAlgError

from . import _C
from ._creation import eye
from ._operands import as_tensor as _tensor, operands_device
from ._products import _shape_str

__all__ = [
    "LinAlgError", "cholesky", "cond", "cross", "det", "diagonal", "eig", "eigh", "eigvals",
    "eigvalsh", "inv", "lstsq", "matmul", "matrix_norm", "matrix_power", "matrix_rank",
    "matrix_transpose", "multi_dot", "norm", "outer", "pinv", "qr", "slogdet", "solve", "svd",
    "svdvals", "tensordot", "tensorinv", "tensorsolve", "trace", "vecdot", "vector_norm",
]

EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
QRResult = namedtuple("QRResult", ["Q", "R"])
SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])

_NO_VALUE = object()  # pinv's rtol not given (NumPy's _NoValue)


# ---- helpers ----

def _dt():
    import devtensor
    return devtensor


_FLOAT_DTYPES = {}  # dtypes -> their linalg dtype (Note [Linalg dtypes])


def _float_dtype(*dtypes):
    """Note [Linalg dtypes]"""
    try:
        return _FLOAT_DTYPES[dtypes]
    except KeyError:
        pass
    out = None
    for d in dtypes:
        name = str(d)
        if name in ("float16", "bfloat16"):
            raise TypeError(f"array type {name} is unsupported in linalg")
        if name not in ("float32", "float64", "complex64", "complex128"):
            name = "float64"
        out = name if out is None else str(np.result_type(out, name))
    _FLOAT_DTYPES[dtypes] = out = _C.dtype(out)
    return out


def _stacked_2d(a):
    """NumPy's check that a is a stack of matrices."""
    if a.ndim < 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least "
                          f"two-dimensional")


def _stacked_square(a):
    """NumPy's check that a is a stack of square matrices."""
    _stacked_2d(a)
    if a.shape[-1] != a.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")


def _two_d(a):
    if a.ndim != 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be two-dimensional")


def _cast(x, d):
    return x if x.dtype == d else x.astype(d)


def _as_float(x, square=False):
    """x as stacked (square) matrices in its linalg dtype, checked in NumPy's
    order (Note [Linalg dtypes])."""
    x = _tensor(x)
    (_stacked_square if square else _stacked_2d)(x)
    return _cast(x, _float_dtype(x.dtype))


def _is_complex(x):
    return str(x.dtype).startswith("complex")


def _real_dtype(d):
    return {"complex64": _C.dtype("float32"), "complex128": _C.dtype("float64")}.get(str(d), d)


def _eps(d):
    return float(np.finfo(str(_real_dtype(d))).eps)


def _check(info, message):
    """LinAlgError when any matrix's LAPACK info is positive (waits for the device)."""
    if info is None or not info.size:
        return
    if info.item() > 0 if info.ndim == 0 else bool(_dt().any(info > 0)):
        raise LinAlgError(message)


def _mH(x):
    return _dt().conj(x.mT) if _is_complex(x) else x.mT


def _factor(kind, a, vectors=False, full=False):
    return _C._linalg_factor(kind, a, vectors, full)


def _solve_shapes(sa, sb, vector):
    """NumPy's gufunc errors for solve(a, b) of these shapes: signature
    (m,m),(m)->(m) when b is 1-D (NumPy's solve1), else (m,m),(m,n)->(m,n);
    the batch axes broadcast."""
    name, signature, core = (("solve1", "(m,m),(m)->(m)", 1) if vector else
                             ("solve", "(m,m),(m,n)->(m,n)", 2))
    if len(sb) < core:
        raise ValueError(f"{name}: Input operand 1 does not have enough dimensions (has "
                         f"{len(sb)}, gufunc core with signature {signature} requires {core})")
    m, bm = sa[-1], sb[len(sb) - core]
    if bm != m:
        raise ValueError(f"{name}: Input operand 1 has a mismatch in its core dimension 0, with "
                         f"gufunc signature {signature} (size {bm} is different from {m})")
    loops = (tuple(sa[:-2]), tuple(sb[:len(sb) - core]))
    if loops[0] == loops[1]:
        return
    try:
        np.broadcast_shapes(*loops)
    except ValueError:
        nd = builtins.max(len(lp) for lp in loops)
        out_core = [m] + list(sb[-1:] if core == 2 else [])
        # each operand's loop axes right-aligned, new axes for the output's core
        remapped = [[None] * (nd - len(lp)) + list(lp) + [None] * len(out_core) for lp in loops]
        ops = " ".join(f"{_shape_str(s)}->{_shape_str(r)}" for s, r in zip((sa, sb), remapped))
        raise ValueError(f"operands could not be broadcast together with remapped shapes "
                         f"[original->remapped]: {ops}  and requested shape "
                         f"{_shape_str([None] * nd + out_core)}") from None


def _broadcast_batch(a, b):
    """a (..., n, n) and b (..., n, k) with their batch axes broadcast."""
    if a.shape[:-2] == b.shape[:-2]:
        return a, b
    dt = _dt()
    batch = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    return (dt.broadcast_to(a, batch + tuple(a.shape[-2:])),
            dt.broadcast_to(b, batch + tuple(b.shape[-2:])))


# ---- factorizations ----

def _lu(a):
    lu, piv, _, _, _, info = _factor(_C.LINALG_LU, a)
    return lu, piv, info


def solve(a, b):
    """x with a @ x == b for square a: NumPy 2's rule, b a stack of vectors
    only when 1-D, else of matrices; the batch axes broadcast.  Where that
    rule refuses b and b is a's shape less its last axis, PyTorch's batch of
    vectors (solve(A (2, 3, 3), B (2, 3)))."""
    device = operands_device(a, b)
    a = _tensor(a, device)
    _stacked_square(a)
    b = _tensor(b, device)
    d = _float_dtype(a.dtype, b.dtype)
    a, b = _cast(a, d), _cast(b, d)
    vector = b.ndim == 1
    try:
        _solve_shapes(a.shape, b.shape, vector)
    except ValueError:
        if b.ndim < 2 or b.shape != a.shape[:-1]:
            raise
        return solve(a, b[..., None])[..., 0]
    if vector:
        b = b[:, None]
    a, b = _broadcast_batch(a, b)
    lu, piv, info = _lu(a)
    _check(info, "Singular matrix")
    x = _C._lu_solve(lu, piv, b)
    return x[..., 0] if vector else x


def _inverse(a):
    """(the inverses of the square float matrices a, LAPACK's info of each)."""
    lu, piv, info = _lu(a)
    ident = eye(a.shape[-1], dtype=a.dtype, device=a.device)
    if a.ndim > 2:
        ident = _dt().broadcast_to(ident, a.shape)
    return _C._lu_solve(lu, piv, ident), info


def inv(a):
    """The inverse of each square matrix (LinAlgError if one is singular)."""
    a = _as_float(a, square=True)
    if a.size == 0:
        return _dt().empty(a.shape, dtype=a.dtype, device=a.device)
    x, info = _inverse(a)
    _check(info, "Singular matrix")
    return x


def det(a):
    """The determinant of each square matrix: sign * exp(log|det|), as
    NumPy computes it (Note [Determinants from LU] in csrc/core/linalg.c)."""
    a = _as_float(a, square=True)
    return _C._linalg_det(a, True)


def slogdet(a):
    """(sign, log|det|) of each square matrix; (0, -inf) where singular."""
    a = _as_float(a, square=True)
    return SlogdetResult(*_C._linalg_det(a, False))


def cholesky(a, /, *, upper=False):
    """L with a = L L^H, from a's lower triangle; upper=True: U with
    a = U^H U, from a's upper triangle (the factor of a^H's lower one)."""
    a = _as_float(a, square=True)
    L, _, _, _, _, info = _factor(_C.LINALG_CHOLESKY, _mH(a) if upper else a)
    _check(info, "Matrix is not positive definite")
    return _mH(L) if upper else L


def qr(a, mode="reduced"):
    """Q with orthonormal columns and upper-triangular R, a = Q R; modes
    'reduced', 'complete' and 'r' (NumPy's 'full' and 'economic' with its
    DeprecationWarning; 'raw' and 'economic' give LAPACK's reflectors,
    which devtensor does not)."""
    if mode not in ("reduced", "complete", "r", "raw"):
        if mode in ("f", "full"):
            warnings.warn("The 'full' option is deprecated in favor of 'reduced'.\n"
                          "For backward compatibility let mode default.", DeprecationWarning,
                          stacklevel=2)
            mode = "reduced"
        elif mode in ("e", "economic"):
            warnings.warn("The 'economic' option is deprecated.", DeprecationWarning,
                          stacklevel=2)
            mode = "economic"
        else:
            raise ValueError(f"Unrecognized mode '{mode}'")
    if mode in ("raw", "economic"):
        raise NotImplementedError(f"qr(mode='{mode}') (LAPACK's Householder reflectors) is not "
                                  f"supported by devtensor; use 'reduced', 'complete' or 'r'")
    a = _as_float(a)
    m, n = a.shape[-2], a.shape[-1]
    k = builtins.min(m, n)
    dt = _dt()
    if k == 0:  # Note [Empty matrices]
        batch = tuple(a.shape[:-2])
        if mode == "complete":
            q = dt.broadcast_to(eye(m, dtype=a.dtype, device=a.device), batch + (m, m)).copy()
        else:
            q = dt.zeros(batch + (m, k), dtype=a.dtype, device=a.device)
        r = dt.zeros(batch + ((m if mode == "complete" else k), n), dtype=a.dtype,
                     device=a.device)
        return r if mode == "r" else QRResult(q, r)
    r, _, _, q, _, _ = _factor(_C.LINALG_QR, a, False, mode == "complete")
    if mode != "complete":
        r = r[..., :k, :]
    return r if mode == "r" else QRResult(q, r)


def _uplo_lower(UPLO):
    """Whether UPLO (NumPy's, either case) asks for the lower triangle."""
    UPLO = UPLO.upper()
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return UPLO == "L"


def eigh(a, UPLO="L"):
    """Eigenvalues (ascending, real) and eigenvectors (columns) of each
    Hermitian matrix, from its lower (UPLO='L') or upper triangle."""
    lower = _uplo_lower(UPLO)
    a = _as_float(a, square=True)
    v, _, w, _, _, info = _factor(_C.LINALG_EIGH, a if lower else _mH(a), True)
    _check(info, "Eigenvalues did not converge")
    return EighResult(w, v)


def eigvalsh(a, UPLO="L"):
    """The eigenvalues of each Hermitian matrix, ascending (real)."""
    lower = _uplo_lower(UPLO)
    a = _as_float(a, square=True)
    _, _, w, _, _, info = _factor(_C.LINALG_EIGH, a if lower else _mH(a), False)
    _check(info, "Eigenvalues did not converge")
    return w


def _check_finite(a, message="Array must not contain infs or NaNs"):
    if a.size and not bool(_dt().all(_dt().isfinite(a))):
        raise LinAlgError(message)


def _refuse_nan(a, message):
    """Note [NaN in the SVD]"""
    if a.size and bool(_dt().any(_dt().isnan(a))):
        raise LinAlgError(message)


def eig(a):
    """Eigenvalues and unit eigenvectors (columns) of each square matrix,
    complex always (NumPy 2.5's rule and the array API's: no dtype that
    depends on the values, so no read back from a device; NumPy 2.4 and
    older gave real results when every eigenvalue was real: take .real, or
    eigh for a symmetric matrix).  LAPACK's geev on the CPU,
    cuSOLVER's Xgeev on CUDA devices (CUDA 12.6 and later; an older
    cuSOLVER raises NotImplementedError saying so)."""
    a = _as_float(a, square=True)
    _check_finite(a)
    _, _, w, v, _, info = _factor(_C.LINALG_EIG, a, True)
    _check(info, "Eigenvalues did not converge")
    return EigResult(w, v)


def eigvals(a):
    """The eigenvalues of each square matrix (complex, as eig's)."""
    a = _as_float(a, square=True)
    _check_finite(a)
    _, _, w, _, _, info = _factor(_C.LINALG_EIG, a, False)
    _check(info, "Eigenvalues did not converge")
    return w


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """U, S (descending), V^H with a = U diag(S) V^H; hermitian=True goes
    through eigh as NumPy's: U the eigenvectors by |eigenvalue|, descending,
    the eigenvalues' signs moved into V^H."""
    dt = _dt()
    if hermitian:
        if not compute_uv:
            return dt.flip(dt.sort(dt.abs(eigvalsh(a)), axis=-1), axis=-1)
        w, u = eigh(a)
        sgn = dt.copysign(1.0, w)  # not sign(): a zero eigenvalue keeps its vector
        s = dt.abs(w)
        order = dt.flip(dt.argsort(s, axis=-1), axis=-1)
        s = dt.take_along_axis(s, order, axis=-1)
        sgn = dt.take_along_axis(sgn, order, axis=-1)
        u = dt.take_along_axis(u, order[..., None, :], axis=-1)
        return SVDResult(u, s, _mH(u * sgn[..., None, :].astype(u.dtype)))
    a = _as_float(a)
    m, n = a.shape[-2], a.shape[-1]
    if builtins.min(m, n) == 0:
        s = dt.zeros(a.shape[:-2] + (0,), dtype=_real_dtype(a.dtype), device=a.device)
        if not compute_uv:
            return s

        def ident(k, cols):
            e = eye(k, cols, dtype=a.dtype, device=a.device)
            return dt.broadcast_to(e, a.shape[:-2] + (k, cols)).copy()
        if full_matrices:
            return SVDResult(ident(m, m), s, ident(n, n))
        return SVDResult(ident(m, 0), s, ident(0, n))
    _refuse_nan(a, "SVD did not converge")
    _, _, s, u, vt, info = _factor(_C.LINALG_SVD, a, compute_uv, full_matrices)
    _check(info, "SVD did not converge")
    return SVDResult(u, s, vt) if compute_uv else s


def svdvals(x, /):
    """The singular values of each matrix, descending."""
    return svd(x, compute_uv=False)


def pinv(a, rcond=None, hermitian=False, *, rtol=_NO_VALUE):
    """The Moore-Penrose pseudo-inverse through the SVD: singular values at
    most rcond (or rtol) times the largest count as zero.  As NumPy 2's, the
    default cut-off is 1e-15; rtol=None asks max(m, n) * eps."""
    a = _tensor(a)
    dt = _dt()
    if rcond is None:
        if rtol is _NO_VALUE:
            rcond = 1e-15
        elif rtol is None:
            rcond = builtins.max(a.shape[-2:]) * float(np.finfo(str(a.dtype)).eps)
        else:
            rcond = rtol
    elif rtol is not _NO_VALUE:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    if a.size == 0 and math.prod(a.shape[-2:]) == 0:  # NumPy: a's own dtype, even an integer
        m, n = a.shape[-2:]
        return dt.empty(a.shape[:-2] + (n, m), dtype=a.dtype, device=a.device)
    u, s, vt = svd(a, full_matrices=False, hermitian=hermitian)
    cut = _tensor(rcond, device=s.device)
    limit = cut[..., None] * dt.max(s, axis=-1, keepdims=True)
    keep = s > limit
    inv_s = dt.where(keep, 1 / dt.where(keep, s, 1), 0).astype(u.dtype)
    return dt.matmul(_mH(vt) * inv_s[..., None, :], _mH(u))


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None, atol=None):
    """The number of singular values above tol (default: rtol, or max(m, n)
    * eps, times the largest); a Python int for fewer than two axes.
    PyTorch's atol=: the tolerance max(atol, rtol * largest), rtol 0 unless
    given."""
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    if atol is not None:
        if tol is not None:
            raise ValueError("`tol` and `atol` can't be both set.")
        A = _tensor(A)
        if A.ndim >= 2:
            dt = _dt()
            S = svd(A, compute_uv=False, hermitian=hermitian)
            largest = dt.max(S, axis=-1, keepdims=True, initial=0)
            limit = dt.maximum(_tensor(atol, device=S.device)[..., None],
                               largest * (0 if rtol is None else _tensor(rtol, device=S.device)[..., None]))
            return dt.count_nonzero(S > limit, axis=-1)
    A = _tensor(A)
    dt = _dt()
    if A.ndim < 2:
        return int(not bool(dt.all(A == 0)))
    S = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = builtins.max(A.shape[-2:]) * _eps(S.dtype)
        else:
            rtol = _tensor(rtol, device=S.device)[..., None]
        tol = dt.max(S, axis=-1, keepdims=True, initial=0) * rtol
    else:
        tol = _tensor(tol, device=S.device)[..., None]
    return dt.count_nonzero(S > tol, axis=-1)


# NumPy's tuple (x, residuals, rank, s), with PyTorch's field names
LstsqResult = collections.namedtuple("LstsqResult", ["solution", "residuals", "rank", "singular_values"])


def lstsq(a, b, rcond=None):
    """NumPy's lstsq through the SVD: (x, residuals, rank, s); residuals
    only where a has full column rank and more rows than columns (Note
    [lstsq's rcond] for the default cut-off)."""
    device = operands_device(a, b)
    a = _tensor(a, device)
    b = _tensor(b, device)
    dt = _dt()
    vector = b.ndim == 1
    B = b[:, None] if vector else b
    _two_d(a)
    _two_d(B)
    m, n = a.shape
    if B.shape[0] != m:
        raise LinAlgError("Incompatible dimensions")
    d = _float_dtype(a.dtype, B.dtype)
    real = _real_dtype(d)
    a, B = _cast(a, d), _cast(B, d)
    if rcond is None:
        rcond = _eps(d) * builtins.max(m, n)
    _check_finite(a, "SVD did not converge in Linear Least Squares")  # Note [NaN in the SVD]
    none = dt.zeros((0,), dtype=real, device=a.device)
    if builtins.min(m, n) == 0:
        x, rank, s = dt.zeros((n, B.shape[1]), dtype=d, device=a.device), 0, none
        # rank == n == 0 < m: the residuals are all of b
        residuals = dt.sum(dt.abs(B) ** 2, axis=0) if n == 0 and m > 0 else none
    else:
        u, s, vt = svd(a, full_matrices=False)
        keep = s > rcond * dt.max(s)
        rank = int(dt.count_nonzero(keep))
        inv_s = dt.where(keep, 1 / dt.where(keep, s, 1), 0).astype(d)
        x = dt.matmul(_mH(vt), inv_s[:, None] * dt.matmul(_mH(u), B))
        residuals = none
        if rank == n and m > n:
            r = B - dt.matmul(a, x)
            residuals = dt.sum(dt.real(r * dt.conj(r)) if _is_complex(r) else r * r, axis=0)
    return LstsqResult(x[:, 0] if vector else x, _cast(residuals, real), np.int32(rank), s)  # NumPy's int32 rank


# ---- norms ----

_REAL_FLOATS = tuple(_C.dtype(n) for n in ("float16", "bfloat16", "float32", "float64"))


def _as_norm_input(x):
    """x as NumPy's norm takes it: inexact dtypes kept, others float64."""
    x = _tensor(x)
    if str(x.dtype) in ("float16", "bfloat16", "float32", "float64", "complex64", "complex128"):
        return x
    return x.astype(_C.dtype("float64"))


def _vector_norm(x, ord, axis, keepdims):
    """NumPy's vector norms of x along axis (an int or a tuple)."""
    dt = _dt()
    if ord == math.inf:
        return dt.max(dt.abs(x), axis=axis, keepdims=keepdims, initial=0)
    if ord == -math.inf:
        return dt.min(dt.abs(x), axis=axis, keepdims=keepdims)
    if ord == 0:
        return dt.sum((x != 0).astype(_real_dtype(x.dtype)), axis=axis, keepdims=keepdims)
    if ord == 1:
        return dt.sum(dt.abs(x), axis=axis, keepdims=keepdims)
    if ord is None or ord == 2:
        return dt.sqrt(dt.sum(_abs2(x), axis=axis, keepdims=keepdims))
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    return dt.sum(dt.abs(x) ** ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)


def _abs2(x):
    """|x|^2, real."""
    dt = _dt()
    return dt.real(x) ** 2 + dt.imag(x) ** 2 if _is_complex(x) else x * x


def vector_norm(x, /, ord=2, dim=None, keepdim=None, *, axis=None, keepdims=False, dtype=None):
    """The array API's vector norm: over every axis (axis=None), one, or
    several taken as one vector (PyTorch's dim=, keepdim= and dtype= too,
    and its positional ord, dim and keepdim)."""
    from . import _torch_keywords as _tk
    axis, keepdims = _tk.axis("vector_norm", axis, dim), _tk.keep("vector_norm", keepdims, keepdim)
    x = _as_norm_input(x if dtype is None else _dt().asarray(x).astype(dtype))
    if axis is None:
        axes = tuple(range(x.ndim))
        out = _vector_norm(x.reshape(-1), ord, 0, False)
    else:
        axes = normalize_axis_tuple(axis, x.ndim)
        out = _vector_norm(x, ord, axes, False)
    if keepdims:
        out = out.reshape(tuple(1 if i in axes else n for i, n in enumerate(x.shape)))
    return out


def matrix_norm(x, /, ord="fro", dim=(-2, -1), keepdim=None, *, keepdims=False):
    """The array API's matrix norm of the last two axes (PyTorch's dim= the
    two others; its ord, dim and keepdim may come by position)."""
    from . import _torch_keywords as _tk
    return norm(x, ord=ord, axis=tuple(dim), keepdims=_tk.keep("matrix_norm", keepdims, keepdim))


def _svd_norm(x, row, col, which):
    """max, min or sum of the singular values of the matrices on axes (row, col)."""
    dt = _dt()
    s = svd(dt.moveaxis(x, (row, col), (-2, -1)), compute_uv=False)
    if which == "max":
        return dt.max(s, axis=-1, initial=0)
    return dt.min(s, axis=-1) if which == "min" else dt.sum(s, axis=-1)


def _matrix_norm(x, ord, axis, keepdims):
    """NumPy's matrix norms of x on the two axes `axis`."""
    dt = _dt()
    nd = x.ndim
    row, col = (normalize_axis_index(a, nd) for a in axis)
    if row == col:
        raise ValueError("Duplicate axes given.")
    if ord == 2:
        out = _svd_norm(x, row, col, "max")
    elif ord == -2:
        out = _svd_norm(x, row, col, "min")
    elif ord in (1, -1):
        reduce = dt.max if ord == 1 else dt.min
        extra = {"initial": 0} if ord == 1 else {}
        out = reduce(dt.sum(dt.abs(x), axis=row), axis=col - (col > row), **extra)
    elif ord in (math.inf, -math.inf):
        reduce = dt.max if ord == math.inf else dt.min
        extra = {"initial": 0} if ord == math.inf else {}
        out = reduce(dt.sum(dt.abs(x), axis=col), axis=row - (row > col), **extra)
    elif ord in (None, "fro", "f"):
        out = dt.sqrt(dt.sum(_abs2(x), axis=axis))
    elif ord == "nuc":
        out = _svd_norm(x, row, col, "sum")
    else:
        raise ValueError("Invalid norm order for matrices.")
    if keepdims:
        shape = list(x.shape)
        shape[row] = shape[col] = 1
        out = out.reshape(tuple(shape))
    return out


def norm(x, ord=None, axis=None, keepdims=False, *, dim=None, keepdim=None):
    """NumPy's norm: a vector norm over one axis, a matrix norm over two;
    the 2-norm of everything flattened by default (PyTorch's dim= and
    keepdim= too)."""
    if dim is not None or keepdim is not None:
        from . import _torch_keywords as _tk
        axis, keepdims = _tk.axis("norm", axis, dim), _tk.keep("norm", keepdims, keepdim)
    dt = _dt()
    if ord is None and axis is None and not keepdims and isinstance(x, _C.TensorBase) and \
            x.dtype in _REAL_FLOATS:
        flat = x.reshape(-1)
        return dt.sqrt(dt.dot(flat, flat))  # NumPy's own sqrt(x . x): BLAS, no x * x temporary
    x = _as_norm_input(x)
    if axis is None:
        nd = x.ndim
        if ord is None or (ord in ("f", "fro") and nd == 2) or (ord == 2 and nd == 1):
            out = dt.sqrt(dt.sum(_abs2(x.reshape(-1))))
            return out.reshape((1,) * nd) if keepdims else out
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        try:
            axis = (int(axis),)
        except Exception:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from None
    if len(axis) == 1:
        return _vector_norm(x, ord, axis, keepdims)
    if len(axis) == 2:
        return _matrix_norm(x, ord, axis, keepdims)
    raise ValueError("Improper number of dimensions to norm.")


def cond(x, p=None):
    """The condition number of each matrix in norm p: the ratio of extreme
    singular values (p None, 2, -2), else norm(x) * norm(inv(x)) for
    square x.  Singular matrices give inf (NaN only where x has NaN), as
    NumPy's."""
    x = _tensor(x)
    if x.size == 0 and math.prod(x.shape[-2:]) == 0:
        raise LinAlgError("cond is not defined on empty arrays")
    dt = _dt()
    if p is None or p in (2, -2):
        x = _as_float(x)
        s = svd(x, compute_uv=False)
        r = s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    else:
        x = _as_float(x, square=True)
        xinv, info = _inverse(x)
        xinv = dt.where((info > 0)[..., None, None], math.nan, xinv)  # NumPy's, for singular x
        r = norm(x, p, axis=(-2, -1)) * norm(xinv, p, axis=(-2, -1))
    return dt.where(dt.isnan(r) & ~dt.any(dt.isnan(x), axis=(-2, -1)), math.inf, r)


# ---- products built on matmul ----

def matrix_power(a, n):
    """a to the integer power n by repeated squaring (n == 0: the identity
    in a's dtype; n < 0: powers of inv(a)); n == 1 gives a itself, as
    NumPy's."""
    a = _tensor(a)
    _stacked_square(a)
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    dt = _dt()
    if n == 0:
        return dt.broadcast_to(eye(a.shape[-1], dtype=a.dtype, device=a.device), a.shape).copy()
    if n < 0:
        a = inv(a)
        n = -n
    result, base = None, a
    while n:
        if n & 1:
            result = base if result is None else dt.matmul(result, base)
        n >>= 1
        if n:
            base = dt.matmul(base, base)
    return result


def multi_dot(arrays, *, out=None):
    """The product of several matrices in the cheapest order (NumPy's
    dynamic programme over the chain's shapes); the first and last may be
    vectors.  Two arrays are dot's; out= is the last dot's, as NumPy's."""
    dt = _dt()
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    device = operands_device(*arrays)
    arrays = [_tensor(x, device) for x in arrays]
    if n == 2:
        return dt.dot(arrays[0], arrays[1], out=out)
    first_vec, last_vec = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if first_vec:
        arrays[0] = arrays[0][None, :]
    if last_vec:
        arrays[-1] = arrays[-1][:, None]
    for x in arrays:
        _two_d(x)
    dims = [arrays[0].shape[0]] + [x.shape[1] for x in arrays]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k

    def chain(i, j, out=None):
        if i == j:
            return arrays[i]
        k = split[i][j]
        return dt.dot(chain(i, k), chain(k + 1, j), out=out)
    r = chain(0, n - 1, out)
    if first_vec and last_vec:
        return r[0, 0]
    return r.reshape(-1) if first_vec or last_vec else r


def tensorinv(a, ind=2):
    """The inverse of a as the square matrix of its first ind axes by the
    rest; the result has shape a.shape[ind:] + a.shape[:ind]."""
    a = _tensor(a)
    old = tuple(a.shape)
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    prod = math.prod(old[ind:])
    return inv(a.reshape(prod, -1)).reshape(old[ind:] + old[:ind])


def tensorsolve(a, b, axes=None):
    """x with tensordot(a, x, x.ndim) == b; axes= moves those axes of a to
    the end first."""
    dt = _dt()
    device = operands_device(a, b)
    a = _tensor(a, device)
    b = _tensor(b, device)
    an = a.ndim
    if axes is not None:
        allaxes = list(range(an))
        for k in axes:
            allaxes.remove(k)
            allaxes.insert(an, k)
        a = dt.permute_dims(a, tuple(allaxes))
    old = tuple(a.shape[-(an - b.ndim):])
    prod = math.prod(old)
    if a.size != prod ** 2:
        raise LinAlgError("Input arrays must satisfy the requirement             "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")  # NumPy's words
    return solve(a.reshape(prod, prod), b.reshape(-1)).reshape(old)


# ---- the array API's names for functions defined elsewhere ----

def diagonal(x, /, *, offset=0):
    """The array API's linalg.diagonal: the diagonal of the last two axes,
    a read-only view (devtensor.diagonal)."""
    return _dt().diagonal(x, offset, -2, -1)


def matmul(x1, x2, /):
    return _dt().matmul(x1, x2)


def matrix_transpose(x, /):
    return _dt().matrix_transpose(x)


def outer(x1, x2, /):
    """The outer product of two 1-D arrays."""
    x1, x2 = _tensor(x1), _tensor(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are x1.ndim={x1.ndim} "
                         f"and x2.ndim={x2.ndim}.")
    return _dt().outer(x1, x2)


def tensordot(x1, x2, /, *, axes=2):
    return _dt().tensordot(x1, x2, axes=axes)


def trace(x, /, *, offset=0, dtype=None):
    """The array API's linalg.trace: the sums of the diagonals of the last two axes."""
    return _dt().trace(x, offset, -2, -1, dtype)


def vecdot(x1, x2, /, *, axis=-1):
    return _dt().vecdot(x1, x2, axis=axis)


def cross(x1, x2, /, *, axis=-1, dim=None):
    """The cross product of 3-element vectors along axis (the array API's:
    2-element vectors are refused; PyTorch's dim= for axis)."""
    if dim is not None:
        from . import _torch_keywords as _tk
        axis = _tk.axis_with_default("cross", axis, -1, dim)
    x1, x2 = _tensor(x1), _tensor(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(f"Both input arrays must be (arrays of) 3-dimensional vectors, but they "
                         f"are {x1.shape[axis]} and {x2.shape[axis]} dimensional instead.")
    return _dt().cross(x1, x2, axis=axis)
