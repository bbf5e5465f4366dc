"""NumPy's polynomial functions on coefficient tensors, highest power first:
vander, polyval, polyfit, poly, roots, polyadd, polysub, polymul, polydiv,
polyder and polyint, with NumPy's arguments, dtypes and errors.

Each is built from devtensor's own operations (slicing, convolve, lstsq,
eigvals), so it runs on the device of its operands; they were NumPy
fallbacks that ran only on CPU tensors (Note [NumPy names devtensor lacks]).
A leading-zero trim, roots' count of zeros and polydiv's remainder trim
read a few values on the host, as NumPy's do; the rest stays on the device.
NumPy's poly1d class is NumPy's (its methods call these functions through
__array_function__).
"""
import warnings

import numpy as np

from ._operands import as_tensor as _tensor, operands_device as _device_of


def _dt():
    import devtensor
    return devtensor


def _one_d(x, device=None):
    """x as a tensor of at least one dimension (NumPy's atleast_1d)."""
    x = _tensor(x, device)
    return _dt().reshape(x, (1,)) if x.ndim == 0 else x


def _trim_leading_zeros(a):
    """a without its leading zeros, [0] when all are zero (NumPy's poly1d)."""
    dt = _dt()
    nonzero = dt.flatnonzero(a)
    if nonzero.shape[0] == 0:
        return dt.zeros((1,), dtype=a.dtype, device=a.device)
    return a[int(nonzero[0]):]


def vander(x, N=None, increasing=False):
    """NumPy's vander: columns x**(N-1), ..., x, 1 (reversed when increasing)."""
    dt = _dt()
    x = _tensor(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    if N is None:
        N = x.shape[0]
    dtype = dt.promote_types(x.dtype, dt.int64)
    v = dt.empty((x.shape[0], N), dtype=dtype, device=x.device)
    if N > 0:
        v[:, 0] = 1
        if N > 1:
            v[:, 1:] = x[:, None]
            v[:, 1:] = dt.multiply.accumulate(v[:, 1:], axis=1)
    return v if increasing else v[:, ::-1]


def polyval(p, x):
    """NumPy's polyval by Horner's rule: p[0] * x**(N-1) + ... + p[N-1]."""
    dt = _dt()
    device = _device_of(p, x)
    p = _tensor(p, device)
    x = _tensor(x, device)
    if p.ndim == 0:
        raise TypeError("iteration over a 0-d array")  # NumPy's, which loops over p
    y = dt.zeros_like(x)
    for k in range(p.shape[0]):
        y = y * x + p[k]
    return y


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """NumPy's polyfit: the least-squares polynomial of degree deg through
    (x, y) (y 1-d or one column per data set), by lstsq on the scaled
    Vandermonde matrix; full=True adds residuals, rank, singular values and
    rcond; cov=True the covariance of the coefficients."""
    dt = _dt()
    order = int(deg) + 1
    device = _device_of(x, y, w)
    x = _tensor(x, device) + 0.0  # NumPy's: integers become float64
    y = _tensor(y, device) + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.shape[0] == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = x.shape[0] * float(np.finfo(np.dtype(x.dtype.name)).eps)
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = _tensor(w, device) + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w if rhs.ndim == 1 else w[:, None])
    scale = dt.sqrt(dt.sum(lhs * lhs, axis=0))
    lhs = lhs / scale
    c, resids, rank, s = dt.linalg.lstsq(lhs, rhs, rcond=rcond)
    c = (c.T / scale).T
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning, stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        Vbase = dt.linalg.inv(dt.matmul(lhs.T, lhs))
        Vbase = Vbase / dt.outer(scale, scale)
        if cov == "unscaled":
            fac = 1
        else:
            if x.shape[0] <= order:
                raise ValueError("the number of data points must exceed order to scale the covariance matrix")
            fac = resids / (x.shape[0] - order)
        if y.ndim == 1:
            return c, Vbase * fac
        return c, Vbase[:, :, None] * fac
    return c


def _real_float(dtype):
    """NumPy's mintypecode for poly's zeros: float32, float64, complex64 and
    complex128 stay, everything else becomes float64."""
    dt = _dt()
    return dtype if dtype in (dt.float32, dt.float64, dt.complex64, dt.complex128) else dt.float64


def poly(seq_of_zeros):
    """The coefficients of the monic polynomial with the given zeros (or of
    a square matrix's characteristic polynomial); real when the zeros come
    in conjugate pairs; 1.0 for no zeros (NumPy's poly)."""
    dt = _dt()
    zeros = _one_d(seq_of_zeros)
    shape = zeros.shape
    if len(shape) == 2 and shape[0] == shape[1] and shape[0] != 0:
        zeros = dt.linalg.eigvals(zeros)
    elif len(shape) == 1:
        zeros = zeros.astype(_real_float(zeros.dtype))
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if zeros.shape[0] == 0:
        return 1.0
    a = dt.ones((1,), dtype=zeros.dtype, device=zeros.device)
    factor = dt.ones((2,), dtype=zeros.dtype, device=zeros.device)
    for k in range(zeros.shape[0]):
        factor[1] = -zeros[k]
        a = dt.convolve(a, factor, mode="full")
    if a.dtype.kind == "c":
        r = zeros.astype(dt.complex128)
        if dt.all(dt.sort(r) == dt.sort(dt.conj(r))):
            a = a.real.copy()
    return a


def roots(p):
    """The roots of the polynomial with coefficients p, as the eigenvalues of
    its companion matrix, zeros for its trailing zero coefficients
    (NumPy's roots)."""
    dt = _dt()
    p = _one_d(p)
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    nonzero = dt.flatnonzero(p)
    if nonzero.shape[0] == 0:
        return dt.zeros((0,), dtype=dt.float64, device=p.device)
    first, last = int(nonzero[0]), int(nonzero[-1])
    trailing = p.shape[0] - last - 1
    p = p[first:last + 1]
    if p.dtype.kind not in "fc":
        p = p.astype(dt.float64)
    n = p.shape[0]
    if n > 1:
        companion = dt.diag(dt.ones((n - 2,), dtype=p.dtype, device=p.device), -1)
        companion[0, :] = -p[1:] / p[0]
        found = dt.linalg.eigvals(companion)
        if p.dtype.kind != "c" and not bool(dt.any(dt.imag(found) != 0)):
            found = dt.real(found).copy()  # NumPy's roots: real when every root is (eig no longer is)
    else:
        found = dt.zeros((0,), dtype=dt.float64, device=p.device)
    return dt.concatenate([found, dt.zeros((trailing,), dtype=found.dtype, device=p.device)])


def _padded_pair(a1, a2):
    """a1 and a2 as 1-d tensors of one length, the shorter padded in front
    with zeros of its dtype."""
    dt = _dt()
    device = _device_of(a1, a2)
    a1, a2 = _one_d(a1, device), _one_d(a2, device)
    diff = a2.shape[0] - a1.shape[0]
    if diff > 0:
        a1 = dt.concatenate([dt.zeros((diff,), dtype=a1.dtype, device=a1.device), a1])
    elif diff < 0:
        a2 = dt.concatenate([dt.zeros((-diff,), dtype=a2.dtype, device=a2.device), a2])
    return a1, a2


def polyadd(a1, a2):
    """The sum of two polynomials (NumPy's polyadd)."""
    a1, a2 = _padded_pair(a1, a2)
    return a1 + a2


def polysub(a1, a2):
    """The difference of two polynomials (NumPy's polysub)."""
    a1, a2 = _padded_pair(a1, a2)
    return a1 - a2


def polymul(a1, a2):
    """The product of two polynomials, their leading zeros trimmed first
    (NumPy's polymul)."""
    dt = _dt()
    device = _device_of(a1, a2)
    a1 = _trim_leading_zeros(_one_d(a1, device))
    a2 = _trim_leading_zeros(_one_d(a2, device))
    return dt.convolve(a1, a2)


def polydiv(u, v):
    """(quotient, remainder) of the long division of u by v, in floats, the
    remainder's leading near-zeros dropped (NumPy's polydiv)."""
    dt = _dt()
    device = _device_of(u, v)
    u = _one_d(u, device) + 0.0
    v = _one_d(v, device) + 0.0
    dtype = dt.result_type(u, v)
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = 1.0 / v[0]
    q = dt.zeros((max(m - n + 1, 1),), dtype=dtype, device=u.device)
    r = u.astype(dtype)
    for k in range(m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k:k + n + 1] -= d * v
    while r.shape[0] > 1 and dt.allclose(r[0], 0, rtol=1e-14):
        r = r[1:]
    return q, r


def _sized(p):
    """p, which must have a length (NumPy's len(p) of a 0-d array fails so)."""
    if p.ndim == 0:
        raise TypeError("len() of unsized object")
    return p


def polyder(p, m=1):
    """The m-th derivative of a polynomial (NumPy's polyder)."""
    dt = _dt()
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    p = _sized(_tensor(p))
    for _ in range(m):
        n = p.shape[0] - 1
        p = p[:-1] * dt.arange(n, 0, -1, device=p.device)
    return p


def polyint(p, m=1, k=None):
    """The m-th antiderivative of a polynomial, k the integration constants
    (a scalar for all, or one per order, the first for the first
    integration; zeros by default), NumPy's polyint."""
    dt = _dt()
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    p = _sized(_tensor(p))
    k = _one_d(dt.zeros((m,), dtype=dt.float64, device=p.device) if k is None else k, p.device)
    if k.shape[0] == 1 and m > 1:
        k = k[0] * dt.ones((m,), dtype=dt.float64, device=p.device)
    if k.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    for i in range(m):
        p = dt.concatenate([p / dt.arange(p.shape[0], 0, -1, device=p.device), k[i:i + 1]])
    return p


__all__ = ["vander", "polyval", "polyfit", "poly", "roots", "polyadd", "polysub", "polymul", "polydiv",
           "polyder", "polyint"]
