"""Convolution modules: Conv1d, Conv2d and Conv3d, with PyTorch's
parameters (weight (out, in / groups, *kernel), bias), default
initialisation, padding modes (zeros, reflect, replicate, circular) and
repr (Note [Convolution as a matrix product] in _conv_functions.py)."""
import math
import operator

from .. import _C
from .._creation import empty
from . import functional as F
from ._conv_functions import _tuple
from .linear import default_init
from .module import Module
from .parameter import Parameter

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


class _ConvNd(Module):
    _n = 0

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
        self.weight = Parameter(empty((self.out_channels, self.in_channels // self.groups) + self.kernel_size,
                                      dtype=dtype, device=device))
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
            s += f", padding={self.padding!r}" if isinstance(self.padding, str) else f", padding={self.padding}"
        if self.dilation != (1,) * self._n:
            s += f", dilation={self.dilation}"
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


__all__ = ["Conv1d", "Conv2d", "Conv3d"]
