"""devtensor.special: the special functions PyTorch's torch.special and
SciPy's scipy.special share, on every device: erf, erfc and gammaln (core
ops), ndtr, expit, logit, xlogy, xlog1py, entr, sinc, i0, and the
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

__all__ = ["erf", "erfc", "gammaln", "ndtr", "expit", "logit", "xlogy", "xlog1py", "entr", "sinc", "i0", "expm1",
           "exp2", "log1p", "round", "logsumexp", "softmax", "log_softmax"]


def _floating(x, name):
    """x, which must be a tensor, with integers and bools in float32."""
    return _as_float(_input_tensor(f"special.{name}", x))


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
