"""devtensor.fft: NumPy's numpy.fft and the array API's fft extension.

On the CPU every transform is NumPy's own (pocketfft) applied to a
zero-copy view of the tensor, with NumPy's arguments, result dtypes and
errors (issue 11 allows FFT on the CPU from NumPy); the result array is
wrapped without a copy.  On CUDA devices the transforms need cuFFT, which
devtensor does not call yet: they raise NotImplementedError saying so,
rather than moving the data through the host behind the caller's back.
fftfreq, rfftfreq, fftshift and ifftshift are device code (arange and
roll) and work on every device.

Note [FFT dtypes]
    As NumPy 2's: float32 and complex64 stay single precision (complex64
    results), float64, integers and bool give complex128; float16 is
    computed in single precision as NumPy does; bfloat16, which NumPy
    lacks, is widened to float32 first.
"""
import numpy as np

from . import _C
from ._C import TensorBase
from ._creation import arange, asarray

__all__ = [
    "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn",
    "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift",
]


def _host_view(x, name):
    """x as a NumPy array sharing its memory (CPU tensors; Note [FFT dtypes])."""
    if not isinstance(x, TensorBase):
        x = asarray(x)
    if x.device.type != "cpu":
        raise NotImplementedError(
            f"devtensor.fft.{name} on {x.device}: FFTs on CUDA devices need cuFFT, which "
            f"devtensor does not call yet; move the tensor with .cpu() first")
    if str(x.dtype) == "bfloat16":
        x = x.astype(_C.dtype("float32"))
    return x.numpy()


def _out_array(out, name):
    if out is None:
        return None
    if not isinstance(out, TensorBase):
        raise TypeError(f"devtensor.fft.{name}: out must be a tensor")
    return _host_view(out, name)


def _transform(name):
    fn = getattr(np.fft, name)
    multi = name.endswith(("2", "n"))

    if multi:
        def transform(a, s=None, axes=(-2, -1) if name.endswith("2") else None, norm=None,
                      out=None):
            r = fn(_host_view(a, name), s=s, axes=axes, norm=norm, out=_out_array(out, name))
            return out if out is not None else asarray(r)
    else:
        def transform(a, n=None, axis=-1, norm=None, out=None):
            r = fn(_host_view(a, name), n=n, axis=axis, norm=norm, out=_out_array(out, name))
            return out if out is not None else asarray(r)
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"NumPy's numpy.fft.{name} (CPU tensors; Note [FFT dtypes])."
    return transform


fft, ifft = _transform("fft"), _transform("ifft")
fft2, ifft2 = _transform("fft2"), _transform("ifft2")
fftn, ifftn = _transform("fftn"), _transform("ifftn")
rfft, irfft = _transform("rfft"), _transform("irfft")
rfft2, irfft2 = _transform("rfft2"), _transform("irfft2")
rfftn, irfftn = _transform("rfftn"), _transform("irfftn")
hfft, ihfft = _transform("hfft"), _transform("ihfft")


def _positive_int(n, name):
    try:
        n = int(n.__index__())
    except AttributeError:
        raise ValueError(f"n should be an integer, not {type(n).__name__}") from None
    if n <= 0:
        raise ValueError(f"{name}: n must be positive, not {n}")
    return n


def fftfreq(n, d=1.0, *, device=None, dtype=None):
    """The sample frequencies of an n-point FFT with sample spacing d, on `device`."""
    n = _positive_int(n, "fftfreq")
    k = arange(n, device=device, dtype=_C.dtype("int64"))
    k = k - n * (k >= (n + 1) // 2).astype(_C.dtype("int64"))
    r = k / (n * d)
    return r if dtype is None else r.astype(dtype)


def rfftfreq(n, d=1.0, *, device=None, dtype=None):
    """The sample frequencies of rfft's n-point output."""
    n = _positive_int(n, "rfftfreq")
    r = arange(n // 2 + 1, device=device, dtype=_C.dtype("int64")) / (n * d)
    return r if dtype is None else r.astype(dtype)


def _shift(x, axes, sign):
    from . import roll
    if not isinstance(x, TensorBase):
        x = asarray(x)
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [sign * (n // 2) for n in x.shape]
    elif isinstance(axes, int):
        shift = sign * (x.shape[axes] // 2)
    else:
        axes = tuple(axes)
        shift = [sign * (x.shape[a] // 2) for a in axes]
    return roll(x, shift, axes)


def fftshift(x, axes=None):
    """The zero frequency moved to the middle (NumPy's fftshift), on x's device."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None):
    """The inverse of fftshift, on x's device."""
    return _shift(x, axes, -1)
