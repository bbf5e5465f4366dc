"""The padding modules: ZeroPad, ConstantPad, ReflectionPad, ReplicationPad
and CircularPad in 1, 2 and 3 dimensions, PyTorch's, over functional.pad.

padding is an int (the same width on every side of the last n dims) or a
tuple of (left, right) pairs from the last dim backwards, kept as given, as
PyTorch keeps it (its length is checked by pad when the module runs).  The
reflection, replication and circular modules take an input of n + 1 or
n + 2 dims (ValueError naming the module otherwise, as PyTorch's
CircularPad modules say) and 2, 4 or 6 widths (NotImplementedError
otherwise, PyTorch's pad's message); constant padding takes any input of
at least len(padding) / 2 dims.
"""
import collections.abc

from . import functional as F
from .module import Module


def _widths(padding, n):
    """padding as a tuple: an iterable kept (PyTorch's _ntuple), an int repeated n times."""
    if isinstance(padding, collections.abc.Iterable):
        return tuple(padding)
    return (padding,) * n


def _check_non_constant(input, padding):
    """PyTorch's pad for reflect, replicate and circular: 2 widths for a 2-d or
    3-d input, 4 for 3-d or 4-d, 6 for 4-d or 5-d."""
    if (len(padding) // 2 <= input.ndim and len(padding) % 2 == 0
            and not (len(padding) in (2, 4, 6) and input.ndim - len(padding) // 2 in (1, 2))):
        raise NotImplementedError("Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now")


class _ConstantPadNd(Module):
    """input padded with value (negative widths crop)."""
    _n = 0

    def __init__(self, padding, value):
        super().__init__()
        self.padding = _widths(padding, 2 * self._n)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pads the last dim with value: padding = (left, right)."""
    _n = 1


class ConstantPad2d(_ConstantPadNd):
    """Pads the last 2 dims with value: padding = (left, right, top, bottom)."""
    _n = 2


class ConstantPad3d(_ConstantPadNd):
    """Pads the last 3 dims with value: padding = (left, right, top, bottom, front, back)."""
    _n = 3


class ZeroPad1d(ConstantPad1d):
    """Pads the last dim with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """Pads the last 2 dims with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    """Pads the last 3 dims with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class _PadNd(Module):
    """input padded in mode (reflect, replicate or circular)."""
    _n = 0
    _mode = ""

    def __init__(self, padding):
        super().__init__()
        self.padding = _widths(padding, 2 * self._n)

    def _check_input_dim(self, input):
        if input.ndim not in (self._n + 1, self._n + 2):
            raise ValueError(f"{type(self).__name__}: expected {self._n + 1}D or {self._n + 2}D input (got "
                             f"{input.ndim}D input)")

    def forward(self, input):
        self._check_input_dim(input)
        _check_non_constant(input, self.padding)
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        return f"{self.padding}"


class ReflectionPad1d(_PadNd):
    """Pads the last dim with its reflection (the edge not repeated): 2-d or 3-d input."""
    _n, _mode = 1, "reflect"


class ReflectionPad2d(_PadNd):
    """Pads the last 2 dims with their reflection: 3-d or 4-d input."""
    _n, _mode = 2, "reflect"


class ReflectionPad3d(_PadNd):
    """Pads the last 3 dims with their reflection: 4-d or 5-d input."""
    _n, _mode = 3, "reflect"


class ReplicationPad1d(_PadNd):
    """Pads the last dim with copies of its edge values: 2-d or 3-d input."""
    _n, _mode = 1, "replicate"


class ReplicationPad2d(_PadNd):
    """Pads the last 2 dims with copies of their edges: 3-d or 4-d input."""
    _n, _mode = 2, "replicate"


class ReplicationPad3d(_PadNd):
    """Pads the last 3 dims with copies of their edges: 4-d or 5-d input."""
    _n, _mode = 3, "replicate"


class _CircularPadNd(_PadNd):
    """Pads with the values of the other end (wrapping around at most once)."""
    _mode = "circular"


class CircularPad1d(_CircularPadNd):
    """Circular padding of the last dim: 2-d or 3-d input."""
    _n = 1


class CircularPad2d(_CircularPadNd):
    """Circular padding of the last 2 dims: 3-d or 4-d input."""
    _n = 2


class CircularPad3d(_CircularPadNd):
    """Circular padding of the last 3 dims: 4-d or 5-d input."""
    _n = 3


__all__ = ["CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
           "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d"]
