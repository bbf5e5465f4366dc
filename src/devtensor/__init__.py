"""devtensor: device-aware tensors with NumPy's API and PyTorch's device semantics.

    import devtensor as dt
    x = dt.ones(2, 3, device=dt.try_gpu())
    y = x.cuda(0) if dt.cuda.is_available() else x
"""
from . import _C
from . import _blas
from ._C import (  # noqa: F401  (dtypes and the device type)
    bfloat16, bool, complex64, complex128, device, dtype, float16, float32, float64,
    int8, int16, int32, int64, uint8, uint16, uint32, uint64, ufunc,
)
from ._tensor import Tensor
from ._creation import (  # noqa: F401
    arange, array, asarray, copy, empty, empty_like, eye, from_dlpack, from_numpy, frombuffer,
    fromiter, full, full_like, geomspace, identity, linspace, logspace, ones, ones_like, tensor,
    zeros, zeros_like,
)
from ._structured import (  # noqa: F401
    diag, diag_indices, diag_indices_from, diagflat, fromfunction, indices, mask_indices, meshgrid, tri, tril,
    tril_indices, tril_indices_from, triu, triu_indices, triu_indices_from,
)
from ._flatiter import flatiter  # noqa: F401
from . import backends, cuda, random  # noqa: F401
from .random import rand, randn  # noqa: F401
from ._C import _get_num_threads as get_num_threads  # noqa: F401
from ._C import _set_num_threads as set_num_threads  # noqa: F401
from ._d2l import num_gpus, try_all_gpus, try_gpu  # noqa: F401
from ._default_device import get_default_device, set_default_device  # noqa: F401
from ._creation import NotNumbers  # noqa: F401  (the TypeError for data that is not numbers)
from ._torch_names import (  # noqa: F401  (PyTorch's names NumPy has none of)
    as_tensor, cat, enable_grad, inference_mode, is_grad_enabled, is_tensor, manual_seed, no_grad, randperm,
    set_grad_enabled, clamp, sigmoid, relu, softmax, log_softmax, logsumexp, unsqueeze, flatten, permute, div,
    mul, sub, rsqrt, eq, ne, gt, ge, lt, le, rand_like, randn_like, randint, is_floating_point, is_complex, numel,
    clone, t, swapdims, sgn, take_along_dim, msort, is_nonzero, is_same_size, logcumsumexp, normal, bernoulli,
    poisson, randint_like, det, inverse, pinverse, logdet, cholesky, svd, neg, norm, dist,
)
from . import _ufuncs
from ._ufuncs import *  # noqa: F401,F403  (the elementwise functions)
from ._views import (  # noqa: F401
    broadcast_to, expand_dims, permute_dims, ravel, reshape, squeeze, swapaxes, transpose,
)
from . import _manipulation
from . import _index_functions
from ._index_functions import (  # noqa: F401
    argwhere, choose, compress, extract, flatnonzero, nonzero, place, put, put_along_axis,
    putmask, ravel_multi_index, select, take, take_along_axis, unravel_index,
)
from ._manipulation import *  # noqa: F401,F403  (joining, splitting, tiling, padding, ...)
from . import _reductions
from ._reductions import *  # noqa: F401,F403  (sum, mean, argmax, ...: NumPy's names)
from . import _sorting
from ._sorting import *  # noqa: F401,F403  (sort, argsort, searchsorted, ...)
from . import _sets
from . import _quantiles
from ._quantiles import *  # noqa: F401,F403  (median, quantile, percentile and NaN forms)
from ._sets import *  # noqa: F401,F403  (unique, isin, bincount, histogram, ...)
from . import _products
from ._products import *  # noqa: F401,F403  (matmul, dot, tensordot, mm, ...)
from ._interp import interp  # noqa: F401
from . import _numeric
from ._numeric import *  # noqa: F401,F403  (cov, gradient, convolve, nan_to_num, polyfit, ...)
from . import _polynomials
from ._polynomials import *  # noqa: F401,F403  (polyfit, polyval, roots, polyder, ...)
from . import _windows
from ._windows import *  # noqa: F401,F403  (i0, hanning, kaiser, ...)
from . import _bits
from ._bits import *  # noqa: F401,F403  (ldexp, frexp, spacing, packbits, unpackbits)
from . import _torch_selection
from ._torch_selection import *  # noqa: F401,F403  (gather, index_select, topk, chunk, ...: PyTorch's)
from . import _torch_math, _torch_setup, _torch_shapes
from ._torch_setup import *  # noqa: F401,F403  (Generator, Size, autocast, ...: PyTorch's setup names)
from ._torch_setup import compile  # noqa: F401,A001  (not in __all__: Python's compile stays)
from ._torch_math import *  # noqa: F401,F403  (std_mean, addmm, cdist, multinomial, ...: PyTorch's)
from ._torch_shapes import *  # noqa: F401,F403  (tensor_split, block_diag, diag_embed, ...: PyTorch's)
from . import _einsum
from ._einsum import einsum, einsum_path  # noqa: F401
from . import linalg  # noqa: F401  (numpy.linalg and the array API's linalg extension)
from . import fft  # noqa: F401  (numpy.fft and the array API's fft extension)
from . import emath  # noqa: F401  (numpy.emath: sqrt, log, ... complex outside the real domain)
from . import special  # noqa: F401  (torch.special's and scipy.special's shared names)
from .special import erfinv  # noqa: F401,E402  (torch.erfinv)
from ._dtype_api import can_cast, finfo, iinfo, isdtype, issubdtype, promote_types, result_type  # noqa: F401
from ._overlap import may_share_memory, shares_memory  # noqa: F401
from ._pickle import map_location  # noqa: F401
from . import _utilities
from ._array_api import array_namespace_info as __array_namespace_info__  # noqa: F401
from ._array_api import astype  # noqa: F401
from ._transfer_guard import (  # noqa: F401  (Note [Implicit transfers])
    TransferGuardError, TransferWarning, get_transfer_guard, set_transfer_guard, transfer_guard,
)
from ._utilities import *  # noqa: F401,F403  (isclose, allclose, errstate, printoptions, ...)
from . import nn  # noqa: F401  (PyTorch's module API)
from . import utils  # noqa: F401  (PyTorch's utils.data: datasets and loaders)
from . import lib  # noqa: F401  (numpy.lib's namespace: stride_tricks on tensors)
from ._serialization import load, save, savetxt, savez, savez_compressed  # noqa: F401  (safetensors and NumPy's files)
from ._printing import array2string, array_repr, array_str  # noqa: F401

_blas._register()

# Dask and distributed: registered when (and if) a program imports them
# (Note [Registering with libraries devtensor does not import])
from . import _after_import  # noqa: E402
_after_import.when_imported("dask.array", lambda: __import__("devtensor.dask"))
_after_import.when_imported("distributed", lambda: __import__("devtensor._dask_distributed"))

from . import version  # noqa: E402
from .version import __version__  # noqa: E402,F401
__array_api_version__ = "2025.12"  # the array API standard devtensor follows

# NumPy's constants: plain Python floats, and None for newaxis
e = 2.718281828459045
pi = 3.141592653589793
euler_gamma = 0.5772156649015329
inf = float("inf")
nan = float("nan")
newaxis = None

__all__ = [
    "Tensor", "device", "dtype", "tensor", "asarray", "from_dlpack", "from_numpy", "zeros",
    "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like", "arange",
    "linspace", "eye", "rand", "randn", "randint", "random", "cuda", "try_gpu", "try_all_gpus",
    "num_gpus", "get_default_device", "set_default_device", "as_tensor", "cat", "enable_grad",
    "inference_mode", "is_grad_enabled", "is_tensor", "manual_seed", "no_grad", "randperm",
    "set_grad_enabled", "clone", "swapdims", "sgn", "take_along_dim", "msort", "is_nonzero", "is_same_size",
    "logcumsumexp", "normal", "bernoulli", "poisson", "randint_like", "det", "inverse", "pinverse", "logdet",
    "cholesky", "svd", "neg", "norm", "dist", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128", "set_num_threads",
    "get_num_threads", "result_type", "promote_types", "can_cast", "finfo", "iinfo", "isdtype", "issubdtype",
    "reshape", "transpose", "permute_dims", "swapaxes", "squeeze", "expand_dims", "ravel",
    "broadcast_to", "may_share_memory", "shares_memory", "map_location", "array", "copy",
    "identity", "fromiter", "frombuffer", "logspace", "geomspace", "tri", "tril", "triu", "diag", "tril_indices",
    "triu_indices", "tril_indices_from", "triu_indices_from",
    "diagflat", "diag_indices", "diag_indices_from", "mask_indices", "fromfunction", "meshgrid", "indices", "flatiter", "e", "pi", "euler_gamma", "inf", "nan",
    "newaxis", "ufunc", "argwhere", "choose", "compress", "extract", "flatnonzero", "nonzero",
    "place", "put", "put_along_axis", "putmask", "select", "take", "take_along_axis", "linalg", "fft", "emath", "special", "erfinv", "nn", "save", "load", "savez", "savez_compressed", "savetxt",
    "array2string", "array_repr", "array_str", "astype", "transfer_guard",
    "set_transfer_guard", "get_transfer_guard", "TransferGuardError", "TransferWarning",
] + _ufuncs.__all__ + _manipulation.__all__ + _reductions.__all__ + _sorting.__all__ + _sets.__all__ + _quantiles.__all__ + _products.__all__ + _einsum.__all__ + _utilities.__all__ + _numeric.__all__ + _bits.__all__ + _polynomials.__all__ + _windows.__all__ + _torch_selection.__all__ + _torch_math.__all__ + _torch_shapes.__all__ + _torch_setup.__all__


def _star_names(own):
    """`from devtensor import *` gives every name `from numpy import *` gives
    (NumPy's that devtensor lacks resolve through __getattr__, Note [NumPy
    names devtensor lacks]): mgrid, genfromtxt, True_, ...; before, only
    devtensor's own names came, and NumPy scripts written that way stopped."""
    import numpy
    known = set(own)
    return own + [n for n in numpy.__all__ if n not in known]


__all__ = _star_names(__all__)


def __getattr__(name):
    """NumPy's names devtensor does not define (Note [NumPy names devtensor lacks]),
    kept as module attributes once found: a module __getattr__ runs after a
    failed lookup, ~2 us, on every dt.floating or dt.issubdtype otherwise."""
    from ._numpy_fallback import module_getattr
    obj = module_getattr(name)
    globals()[name] = obj
    return obj
