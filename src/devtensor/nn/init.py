"""devtensor.nn.init: PyTorch's in-place initialisers, drawing on the
tensor's own device from devtensor.random, or from the Generator passed as
generator= (Note [Reproducible on every device]: one seed gives the same
values on every device)."""
import math
import operator
import warnings

from .. import random as _random
from .. import _C
from .._C import Tensor, float32

_GAIN_ONE = {"linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
             "conv_transpose3d", "sigmoid"}


def calculate_gain(nonlinearity, param=None):
    """PyTorch's recommended gain for a nonlinearity."""
    if nonlinearity in _GAIN_ONE:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    if tensor.ndim < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 "
                         "dimensions")
    receptive = math.prod(tensor.shape[2:])
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _fan(tensor, mode):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def _floating(tensor, name):
    if not isinstance(tensor, Tensor):
        raise TypeError(f"{name}() expects a devtensor.Tensor, got {type(tensor).__name__}")
    if not tensor.dtype.is_floating_point:
        raise TypeError(f"{name}() fills floating point tensors, got {tensor.dtype}")


def _fill_with(tensor, values):
    """tensor[...] = values, in place on tensor's device."""
    if tensor.size:
        tensor._copy_from(values)
    return tensor


def _draw_dtype(tensor):
    # float16 and bfloat16 draws are made in float32 and rounded, as PyTorch does
    return tensor.dtype if tensor.dtype.itemsize >= 4 else float32


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    """Fill with values drawn uniformly from [a, b) (a + (b - a) * u rounded
    to the tensor's dtype, which can reach b in float32, as NumPy's and
    PyTorch's can)."""
    _floating(tensor, "uniform_")
    return _fill_with(tensor, _draws(generator).uniform(a, b, size=tensor.shape, dtype=_draw_dtype(tensor),
                                                        device=tensor.device))


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    """Fill with values drawn from N(mean, std^2)."""
    _floating(tensor, "normal_")
    return _fill_with(tensor, _draws(generator).normal(mean, std, size=tensor.shape, dtype=_draw_dtype(tensor),
                                                       device=tensor.device))


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Fill with draws of N(mean, std^2) conditioned on [a, b] (a and b are
    values, not deviations, as PyTorch's): draws outside are drawn again,
    on the tensor's device, until none is left."""
    _floating(tensor, "trunc_normal_")
    source = _draws(generator)
    if not a < b:
        raise ValueError(f"trunc_normal_ needs a < b, got a={a} and b={b}")
    from .. import _ufuncs, any as any_
    x = source.normal(mean, std, size=tensor.shape, dtype=_C.float64, device=tensor.device)
    for _ in range(10000):
        outside = (x < a) | (x > b)
        if not bool(any_(outside)):
            return _fill_with(tensor, x.astype(_draw_dtype(tensor)))
        redraw = source.normal(mean, std, size=tensor.shape, dtype=_C.float64, device=tensor.device)
        x = _ufuncs.where(outside, redraw, x)
    raise RuntimeError(f"trunc_normal_: [{a}, {b}] holds too little of N({mean}, {std}^2) to draw from by "
                       f"rejection")


def constant_(tensor, val):
    if not isinstance(tensor, Tensor):
        raise TypeError(f"constant_() expects a devtensor.Tensor, got {type(tensor).__name__}")
    tensor._fill_(val)
    return tensor


def zeros_(tensor):
    return constant_(tensor, 0)


def ones_(tensor):
    return constant_(tensor, 1)


def _zero_element(tensor):
    if tensor.size == 0:
        warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=3)
        return True
    return False


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He et al. (2015): U(-bound, bound), bound = gain * sqrt(3 / fan)."""
    _floating(tensor, "kaiming_uniform_")
    if _zero_element(tensor):
        return tensor
    bound = math.sqrt(3.0) * calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode))
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He et al. (2015): N(0, std^2), std = gain / sqrt(fan)."""
    _floating(tensor, "kaiming_normal_")
    if _zero_element(tensor):
        return tensor
    return normal_(tensor, 0.0, calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode)),
                   generator)


def xavier_uniform_(tensor, gain=1.0, generator=None):
    """Glorot and Bengio (2010): U(-a, a), a = gain * sqrt(6 / (fan_in + fan_out))."""
    _floating(tensor, "xavier_uniform_")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out)) if fan_in + fan_out else 0.0
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    """Glorot and Bengio (2010): N(0, std^2), std = gain * sqrt(2 / (fan_in + fan_out))."""
    _floating(tensor, "xavier_normal_")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / (fan_in + fan_out)) if fan_in + fan_out else 0.0
    return normal_(tensor, 0.0, std, generator)


def eye_(tensor):
    """The identity in a 2-d tensor (ones on the main diagonal, zeros elsewhere)."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"eye_() expects a devtensor.Tensor, got {type(tensor).__name__}")
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    from .._creation import eye
    return _fill_with(tensor, eye(*tensor.shape, dtype=tensor.dtype, device=tensor.device))


def orthogonal_(tensor, gain=1, generator=None):
    """PyTorch's orthogonal_: the Q of a normal matrix's QR (signs made R's
    diagonal positive), of the tensor's first dim by the rest, times gain."""
    _floating(tensor, "orthogonal_")
    if tensor.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.size == 0:
        return tensor
    from .. import linalg
    from .._ufuncs import sign, where
    rows = tensor.shape[0]
    cols = tensor.size // rows
    flat = _draws(generator).normal(0.0, 1.0, size=(rows, cols), dtype=_draw_dtype(tensor),
                                    device=tensor.device)
    if rows < cols:
        flat = flat.T
    q, r = linalg.qr(flat)
    d = linalg.diagonal(r)
    q = q * where(d == 0, 1, sign(d))  # a zero pivot (never drawn) keeps its column
    if rows < cols:
        q = q.T
    return _fill_with(tensor, (q * gain).reshape(tensor.shape))


def dirac_(tensor, groups=1):
    """The identity of a convolution: tensor (out, in, *kernel) zero but for
    a 1 at the kernel's centre of each channel d < min(out / groups, in),
    in each of the groups, so a convolution with it keeps its input."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"dirac_() expects a devtensor.Tensor, got {type(tensor).__name__}")
    if tensor.ndim not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    groups = operator.index(groups)
    if groups <= 0 or tensor.shape[0] % groups:
        raise ValueError("dim 0 must be divisible by groups")
    per_group = tensor.shape[0] // groups
    channels = min(per_group, tensor.shape[1])
    from .._creation import zeros
    values = zeros(tensor.shape, dtype=tensor.dtype, device=tensor.device)
    centre = tuple(k // 2 for k in tensor.shape[2:])
    for g in range(groups):
        for d in range(channels):
            values[(g * per_group + d, d) + centre] = 1
    return _fill_with(tensor, values)


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """A 2-d tensor from N(0, std^2) with ceil(sparsity * rows) zeros placed
    at random in each column (Martens, 2010)."""
    _floating(tensor, "sparse_")
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    zeros_per_column = int(math.ceil(sparsity * rows))
    draws = _draws(generator)
    values = draws.normal(0.0, std, size=(rows, cols), dtype=_draw_dtype(tensor), device=tensor.device)
    if zeros_per_column and rows and cols:
        from .._index_functions import put_along_axis
        from .._sorting import argsort
        order = argsort(draws.uniform(0.0, 1.0, size=(rows, cols), dtype=_draw_dtype(tensor),
                                      device=tensor.device), axis=0)  # a random permutation of each column
        put_along_axis(values, order[:zeros_per_column], 0, axis=0)
    return _fill_with(tensor, values)


class _FromGenerator:
    """A devtensor.random.Generator's draws with devtensor.random's signature
    (dtype=): the initialisers' generator= argument, as PyTorch's."""

    def __init__(self, generator):
        self.generator = generator

    def uniform(self, a, b, size, dtype, device):
        return self.generator.uniform(a, b, size, device=device).astype(dtype, copy=False)

    def normal(self, mean, std, size, dtype, device):
        return self.generator.normal(mean, std, size, device=device).astype(dtype, copy=False)


def _draws(generator):
    """What draws: the global stream, or the Generator given."""
    if generator is None:
        return _random
    if not isinstance(generator, _random.Generator):
        raise TypeError(f"generator must be a devtensor.random.Generator (devtensor.Generator), not "
                        f"{type(generator).__name__}")
    return _FromGenerator(generator)


__all__ = ["calculate_gain", "uniform_", "normal_", "constant_", "zeros_", "ones_",
           "kaiming_uniform_", "kaiming_normal_", "xavier_uniform_", "xavier_normal_", "eye_",
           "orthogonal_", "trunc_normal_", "dirac_", "sparse_"]
