"""Pooling and resizing modules: MaxPool1d/2d/3d, MaxUnpool1d/2d/3d,
AvgPool1d/2d/3d, AdaptiveAvgPool1d/2d/3d, AdaptiveMaxPool1d/2d/3d and
Upsample, each one nn.functional call with its settings and PyTorch's
repr."""
from . import functional as F
from ._conv_functions import _tuple
from .module import Module


class _MaxPoolNd(Module):
    _n = 0

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input):
        return getattr(F, f"max_pool{self._n}d")(input, self.kernel_size, self.stride, self.padding, self.dilation,
                                                 ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    _n = 1


class MaxPool2d(_MaxPoolNd):
    _n = 2


class MaxPool3d(_MaxPoolNd):
    _n = 3


class _MaxUnpoolNd(Module):
    _n = 0

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = _tuple(kernel_size, self._n, "kernel_size")
        self.stride = self.kernel_size if stride is None else _tuple(stride, self._n, "stride")
        self.padding = _tuple(padding, self._n, "padding")

    def forward(self, input, indices, output_size=None):
        unpool = getattr(F, f"max_unpool{self._n}d")
        return unpool(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    _n = 1


class MaxUnpool2d(_MaxUnpoolNd):
    _n = 2


class MaxUnpool3d(_MaxUnpoolNd):
    _n = 3


class _AvgPoolNd(Module):
    _n = 0

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input):
        from ._conv_functions import _avg_pool
        return _avg_pool(self._n, input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                         self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    _n = 1


class AvgPool2d(_AvgPoolNd):
    _n = 2


class AvgPool3d(_AvgPoolNd):
    _n = 3


class _LPPoolNd(Module):
    """The p-norm of each window (F.lp_pool1d/2d/3d)."""
    _n = 0

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def forward(self, input):
        return getattr(F, f"lp_pool{self._n}d")(input, float(self.norm_type), self.kernel_size, self.stride,
                                                self.ceil_mode)

    def extra_repr(self):
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
                f"ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    _n = 1


class LPPool2d(_LPPoolNd):
    _n = 2


class LPPool3d(_LPPoolNd):
    _n = 3


class _Adaptive(Module):
    _function = None

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def forward(self, input):
        if self.return_indices:
            return getattr(F, self._function)(input, self.output_size, True)
        return getattr(F, self._function)(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_Adaptive):
    _function = "adaptive_avg_pool1d"

    def __init__(self, output_size):
        super().__init__(output_size)


class AdaptiveAvgPool2d(_Adaptive):
    _function = "adaptive_avg_pool2d"

    def __init__(self, output_size):
        super().__init__(output_size)


class AdaptiveAvgPool3d(_Adaptive):
    _function = "adaptive_avg_pool3d"

    def __init__(self, output_size):
        super().__init__(output_size)


class AdaptiveMaxPool1d(_Adaptive):
    _function = "adaptive_max_pool1d"


class AdaptiveMaxPool2d(_Adaptive):
    _function = "adaptive_max_pool2d"


class AdaptiveMaxPool3d(_Adaptive):
    _function = "adaptive_max_pool3d"


class Upsample(Module):
    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def forward(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             self.recompute_scale_factor)

    def extra_repr(self):
        info = f"size={self.size}" if self.size is not None else f"scale_factor={float(self.scale_factor)}" \
            if not isinstance(self.scale_factor, tuple) else f"scale_factor={self.scale_factor}"
        return info + f", mode='{self.mode}'"


class _FractionalMaxPoolNd(Module):
    """Max pooling over pseudo-random windows (F.fractional_max_pool2d/3d,
    Note [Fractional max pooling]); _random_samples fixes the draws."""
    _n = 0

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        name = type(self).__name__
        if output_size is None and output_ratio is None:
            raise ValueError(f"{name} requires specifying either an output size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if output_ratio is not None:
            ratios = tuple(output_ratio) if isinstance(output_ratio, (tuple, list)) else (output_ratio,) * self._n
            if not all(0 < r < 1 for r in ratios):
                raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")
        self.kernel_size, self.output_size, self.output_ratio = kernel_size, output_size, output_ratio
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)

    def forward(self, input):
        return getattr(F, f"fractional_max_pool{self._n}d")(input, self.kernel_size, self.output_size,
                                                             self.output_ratio, self.return_indices,
                                                             self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    _n = 2


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    _n = 3


class UpsamplingNearest2d(Upsample):
    """Upsample(mode='nearest') of 4-D inputs (PyTorch's older name)."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """Upsample(mode='bilinear', align_corners=True) of 4-D inputs (PyTorch's older name)."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


__all__ = ["MaxPool1d", "MaxPool2d", "MaxPool3d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "AvgPool1d",
           "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d",
           "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d",
           "Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d", "LPPool1d", "LPPool2d", "LPPool3d",
           "FractionalMaxPool2d", "FractionalMaxPool3d"]
