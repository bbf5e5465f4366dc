"""devtensor.special: the special functions PyTorch's torch.special and
SciPy's scipy.special share, on every device: erf, erfc and gammaln (core
ops), erfinv, ndtr, expit, logit, xlogy, xlog1py, entr, sinc, i0, and the
softmax family; PyTorch's aliases (expm1, exp2, log1p, round,
logsumexp, softmax, log_softmax) for code written against torch.special.
"""
import math

from ._ufuncs import erf, erfc, exp2, expm1, log1p, round  # noqa: F401
from ._numeric import sinc  # noqa: F401
from ._ufuncs import lgamma as gammaln  # noqa: F401
from ._torch_math import _as_float, logit, xlogy  # noqa: F401
from ._torch_selection import _input_tensor
from ._torch_names import logsumexp  # noqa: F401
from ._windows import i0  # noqa: F401

__all__ = ["erf", "erfc", "erfinv", "gammaln", "ndtr", "expit", "logit", "xlogy", "xlog1py", "entr", "sinc", "i0", "expm1",
           "exp2", "log1p", "round", "logsumexp", "softmax", "log_softmax"]


def _floating(x, name):
    """x, which must be a tensor, with integers and bools in float32."""
    return _as_float(_input_tensor(f"special.{name}", x))


# Note [erfinv by Newton's method]
#     erfinv(y) starts from Giles's single-precision approximation
#     ("Approximating the erfinv function", 2010: a polynomial in
#     w = -log((1 - y)(1 + y)), one for w < 5 and one in sqrt(w) past it)
#     and takes four Newton steps in float64 on erf(x) = y, and where
#     |y| > 0.5 on log(erfc(|x|)) = log(1 - |y|) (1 - |y| is exact there, so
#     the tail keeps its digits; the log is nearly a parabola, so the steps
#     converge from afar), each a few elementwise ops on the input's device.  +-1
#     give +-inf, |y| > 1 and NaN give NaN; the result is rounded to the
#     input's float dtype (integers and bools in float32, as PyTorch's).
_ERFINV_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                   -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_ERFINV_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)


def erfinv(input):
    """The inverse of erf on (-1, 1) (PyTorch's torch.erfinv and
    torch.special.erfinv; Note [erfinv by Newton's method])."""
    from . import _ufuncs as uf
    from ._C import float64
    x0 = _floating(input, "erfinv")
    y = x0.astype(float64)
    a = uf.abs(y)
    inside = a < 1
    ys = uf.where(inside, y, 0.0)  # the approximation only where it is defined
    w = -uf.log((1 - ys) * (1 + ys))
    central, tail = w - 2.5, uf.sqrt(w) - 3
    pc, pt = _ERFINV_CENTRAL[0], _ERFINV_TAIL[0]
    for c, t in zip(_ERFINV_CENTRAL[1:], _ERFINV_TAIL[1:]):
        pc, pt = c + pc * central, t + pt * tail
    x = uf.where(w < 5, pc, pt) * ys
    rest = 1 - uf.abs(ys)  # exact for |y| > 0.5
    upper = rest < 0.5
    log_rest = uf.log(uf.where(upper, rest, 1.0))
    for _ in range(4):
        slope = (2 / math.sqrt(math.pi)) * uf.exp(-x * x)
        step_mid = (uf.erf(x) - ys) / slope
        tail_value = uf.erfc(uf.abs(x))  # Newton on log(erfc(|x|)) = log(1 - |y|): nearly a parabola
        step_tail = uf.sign(ys) * (log_rest - uf.log(tail_value)) * tail_value / slope
        x = x - uf.where(upper, step_tail, step_mid)
    x = uf.where(inside, x, uf.where(a == 1, uf.copysign(math.inf, y), math.nan))
    return x.astype(x0.dtype, copy=False)


def ndtr(x):
    """The standard normal CDF, erfc(-x / sqrt(2)) / 2, in float64 rounded to
    x's dtype (GELU's: Note [GELU's erf]; accurate in the lower tail too)."""
    from .nn.functional import _normal_cdf
    x = _floating(x, "ndtr")
    return _normal_cdf(x).astype(x.dtype, copy=False)


def expit(x):
    """The logistic sigmoid 1 / (1 + exp(-x)) (nn.functional.sigmoid)."""
    from .nn.functional import sigmoid
    return sigmoid(_floating(x, "expit"))


def xlog1py(x, y):
    """x * log1p(y), 0 where x is 0 and y is not NaN (one of them a tensor)."""
    from . import _ufuncs
    from ._C import TensorBase
    if not isinstance(x, TensorBase) and not isinstance(y, TensorBase):
        raise TypeError("special.xlog1py(): expected a tensor for x or y")
    r = x * _ufuncs.log1p(_floating(y, "xlog1py") if isinstance(y, TensorBase) else y)
    r = _as_float(r)
    return _ufuncs.where(_ufuncs.equal(x, 0) & ~_ufuncs.isnan(y), 0, r).astype(r.dtype, copy=False)


def entr(x):
    """-x log(x): 0 at 0, -inf for x < 0 (NaN stays NaN)."""
    from . import _ufuncs
    x = _floating(x, "entr")
    r = _ufuncs.where(x > 0, -x * _ufuncs.log(_ufuncs.where(x > 0, x, 1)), _ufuncs.where(x == 0, 0, -math.inf))
    return _ufuncs.where(_ufuncs.isnan(x), x, r).astype(x.dtype, copy=False)


def softmax(input, dim, *, dtype=None):
    from .nn.functional import softmax as _softmax
    return _softmax(input, dim, dtype)


def log_softmax(input, dim, *, dtype=None):
    from .nn.functional import log_softmax as _log_softmax
    return _log_softmax(input, dim, dtype)
