"""Convolution modules: Conv1d, Conv2d and Conv3d, with PyTorch's
parameters (weight (out, in / groups, *kernel), bias), default
initialisation, padding modes (zeros, reflect, replicate, circular) and
repr (Note [Convolution as a matrix product] in _conv_functions.py); the
transposed ConvTranspose1d/2d/3d (weight (in, out / groups, *kernel),
output_size= on the call); their lazy forms; Fold and Unfold."""
import math
import operator

from .. import _C
from .._creation import empty
from . import functional as F
from ._conv_functions import _batched, _tuple
from .linear import default_init
from .module import Module
from .lazy import LazyModuleMixin
from .parameter import Parameter

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


class _ConvNd(Module):
    _n = 0
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        n = self._n
        self.in_channels, self.out_channels = operator.index(in_channels), operator.index(out_channels)
        self.groups = operator.index(groups)
        if self.groups <= 0:
            raise ValueError("groups must be a positive integer")
        if self.in_channels % self.groups:
            raise ValueError("in_channels must be divisible by groups")
        if self.out_channels % self.groups:
            raise ValueError("out_channels must be divisible by groups")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {list(_PADDING_MODES)}, but got "
                             f"padding_mode='{padding_mode}'")
        self.kernel_size = _tuple(kernel_size, n, "kernel_size")
        self.stride = _tuple(stride, n, "stride")
        self.dilation = _tuple(dilation, n, "dilation")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string '{padding}', should be one of ['valid', 'same']")
            if padding == "same" and any(s != 1 for s in self.stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
            self.padding = padding
        else:
            self.padding = _tuple(padding, n, "padding")
        self.padding_mode = padding_mode
        dtype = _C.float32 if dtype is None else dtype
        if self._transposed:
            leading = (self.in_channels, self.out_channels // self.groups)
        else:
            leading = (self.out_channels, self.in_channels // self.groups)
        self.weight = Parameter(empty(leading + self.kernel_size, dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(empty(self.out_channels, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        default_init(self.weight, self.bias, self.weight.shape[1] * math.prod(self.kernel_size))

    def forward(self, input):
        conv = getattr(F, f"conv{self._n}d")
        if self.padding_mode == "zeros" or self.padding == "valid":
            return conv(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)
        if self.padding == "same":
            total = [d * (k - 1) for d, k in zip(self.dilation, self.kernel_size)]
            pairs = [(t // 2, t - t // 2) for t in total]
        else:
            pairs = [(p, p) for p in self.padding]
        widths = tuple(w for lo_hi in reversed(pairs) for w in lo_hi)
        return conv(F.pad(input, widths, mode=self.padding_mode), self.weight, self.bias, self.stride, 0,
                    self.dilation, self.groups)

    def extra_repr(self):
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * self._n:
            s += f", padding={self.padding}"  # 'same' unquoted, as PyTorch's (and padding_mode)
        if self.dilation != (1,) * self._n:
            s += f", dilation={self.dilation}"
        if self._transposed and self.output_padding != (0,) * self._n:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class Conv1d(_ConvNd):
    _n = 1


class Conv2d(_ConvNd):
    _n = 2


class Conv3d(_ConvNd):
    _n = 3


class _ConvTransposeNd(_ConvNd):
    """y = the adjoint of a convolution with the same arguments, plus bias;
    output_padding (or output_size= on the call) picks among the output
    sizes that convolve back to the input's."""
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        if isinstance(padding, str):
            raise ValueError(f"padding='{padding}' is not supported for {type(self).__name__}")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype)
        self.output_padding = _tuple(output_padding, self._n, "output_padding")

    def _output_padding(self, input, output_size):
        n = self._n
        if output_size is None:
            return self.output_padding
        size = [operator.index(v) for v in output_size]
        if len(size) == n + 2 or (len(size) == n + 1 and input.ndim == n + 1):
            size = size[len(size) - n:]
        if len(size) != n:
            raise ValueError(f"ConvTranspose{n}D: for {input.ndim}D input, output_size must have {n} or "
                             f"{n + 2} elements (got {len(output_size)})")
        spatial = input.shape[input.ndim - n:]
        least = [(spatial[d] - 1) * self.stride[d] - 2 * self.padding[d]
                 + self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(n)]
        most = [least[d] + self.stride[d] - 1 for d in range(n)]
        if not all(least[d] <= size[d] <= most[d] for d in range(n)):
            raise ValueError(f"requested an output size of {size}, but valid sizes range from {least} to {most} "
                             f"(for an input of {list(spatial)})")
        extra = [size[d] - least[d] for d in range(n)]
        return tuple(extra)

    def forward(self, input, output_size=None):
        conv = getattr(F, f"conv_transpose{self._n}d")
        return conv(input, self.weight, self.bias, self.stride, self.padding,
                    self._output_padding(input, output_size), self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    _n = 1


class ConvTranspose2d(_ConvTransposeNd):
    _n = 2


class ConvTranspose3d(_ConvTransposeNd):
    _n = 3


class _LazyConvNd(LazyModuleMixin):
    """A convolution whose in_channels is read from its first input
    (dim 1, or dim 0 of an unbatched one): PyTorch's LazyConv*d and
    LazyConvTranspose*d take the eager module's arguments without
    in_channels (Note [Lazy modules] in lazy.py)."""
    _lazy_attr = "in_channels"

    def __init__(self, out_channels, kernel_size, *args, **kwargs):
        self.cls_to_become.__init__(self, 0, out_channels, kernel_size, *args, **kwargs)
        self._uninitialize()

    def _lazy_size(self, input):
        n = self._n
        x, batched = _batched(f"{self._get_name()}", input, n)
        size = x.shape[1]
        if size % self.groups:
            raise ValueError(f"in_channels ({size}, from the input's dim {1 if batched else 0}) must be divisible "
                             f"by groups ({self.groups})")
        return size

    def _lazy_template(self, name):
        if name == "bias":
            return (self.out_channels,)
        if self._transposed:
            return (None, self.out_channels // self.groups) + self.kernel_size
        return (self.out_channels, None) + self.kernel_size


class LazyConv1d(_LazyConvNd, Conv1d):
    cls_to_become, _lazy_per_group = Conv1d, True


class LazyConv2d(_LazyConvNd, Conv2d):
    cls_to_become, _lazy_per_group = Conv2d, True


class LazyConv3d(_LazyConvNd, Conv3d):
    cls_to_become, _lazy_per_group = Conv3d, True


class LazyConvTranspose1d(_LazyConvNd, ConvTranspose1d):
    cls_to_become = ConvTranspose1d


class LazyConvTranspose2d(_LazyConvNd, ConvTranspose2d):
    cls_to_become = ConvTranspose2d


class LazyConvTranspose3d(_LazyConvNd, ConvTranspose3d):
    cls_to_become = ConvTranspose3d


class Fold(Module):
    """Sums columns (N, C * prod(kernel_size), L) into (N, C, *output_size)."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Unfold(Module):
    """Every kernel_size window of (N, C, H, W) as a column: (N, C * kh * kw, L)."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def forward(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
                f"stride={self.stride}")


__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "Fold", "Unfold",
           "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d", "LazyConvTranspose2d",
           "LazyConvTranspose3d"]
