"""devtensor.fft: NumPy's numpy.fft and the array API's fft extension.

On the CPU every transform is NumPy's own (pocketfft) applied to a
zero-copy view of the tensor, with NumPy's arguments, result dtypes and
errors (issue 11 allows FFT on the CPU from NumPy); the result array is
wrapped without a copy.  On CUDA devices the transforms run on the device
through cuFFT (csrc/cuda/cuda_fft.c, Note [FFTs] in csrc/core/fft.c), with
NumPy's arguments, dtypes, errors and results: this module does what
numpy.fft does around its one-dimensional kernels (Note [FFTs on
devices]).  fftfreq, rfftfreq, fftshift and ifftshift are device code
(arange and roll) and work on every device.

Note [FFT dtypes]
    As NumPy 2's: float32 and complex64 stay single precision (complex64
    results), float64, integers and bool give complex128; float16 is
    computed in single precision as NumPy does; bfloat16, which NumPy
    lacks, is widened to float32 first.

Note [FFTs on devices]
    numpy.fft computes every transform as one-dimensional ones along each
    axis in turn (fftn the last axis first; rfftn the real one last, then
    the others; irfftn the other way round), each cropped or zero-padded
    to its n, scaled by its norm, with hfft and ihfft as irfft and rfft of
    conjugates.  On a device the same steps run, each axis moved last for
    the transform and back (a view); where fftn's axes are the trailing
    ones in order, up to three of them go to cuFFT as one transform
    (the result is the same: the axes' transforms commute).
"""
import operator

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from . import _C
from ._C import TensorBase
from ._creation import arange, asarray, zeros
from ._manipulation import moveaxis
from ._ufuncs import conjugate
from ._views import _tensor

__all__ = [
    "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn",
    "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift",
]

_FLOAT32 = _C.dtype("float32")
_FLOAT64 = _C.dtype("float64")
_COMPLEX64 = _C.dtype("complex64")
_COMPLEX128 = _C.dtype("complex128")
_SINGLE = ("float16", "bfloat16", "float32", "complex64")


def _host_view(x, name):
    """x as a NumPy array sharing its memory (CPU tensors; Note [FFT dtypes])."""
    if str(x.dtype) == "bfloat16":
        x = x.astype(_FLOAT32)
    return x.numpy()


def _out_array(out, name):
    if out is None:
        return None
    if not isinstance(out, TensorBase):
        raise TypeError(f"devtensor.fft.{name}: out must be a tensor")
    if out.device.type != "cpu":
        raise ValueError(f"devtensor.fft.{name}: out is on {out.device}, the input on cpu")
    return _host_view(out, name)


# ---- the device path (Note [FFTs on devices]) ----

_NORMS = ("backward", "ortho", "forward")
_SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _check_norm(norm, spaced=True):
    """numpy.fft's check; its two messages differ by a space (the forward
    transforms' has none after the first comma)."""
    if norm is not None and norm not in _NORMS:
        sep = ", " if spaced else ","
        raise ValueError(f'Invalid norm value {norm}; should be "backward"{sep}"ortho" or '
                         f'"forward".')


def _swap(norm):
    _check_norm(norm)
    return _SWAP[norm]


def _factor(norm, n, forward, real):
    """The scale of an n-point transform: numpy.fft's norm rules, the factor
    rounded to the precision `real` (NumPy's real_dtype: float16 data is
    scaled by a float16 factor)."""
    _check_norm(norm)
    if not forward:
        norm = _SWAP[norm]
    if norm in (None, "backward"):
        return 1.0
    f = 1.0 / np.sqrt(n) if norm == "ortho" else 1.0 / n
    return float(np.asarray(f, dtype=real))


def _real_dtype(dtype):
    """NumPy's result_type(a.real.dtype, 1.0) (bfloat16: float32)."""
    d = str(dtype)
    if d == "float16":
        return "float16"
    return "float32" if d in _SINGLE else "float64"


def _complex_input(x):
    d = str(x.dtype)
    if d in ("complex64", "complex128"):
        return x
    return x.astype(_COMPLEX64 if d in _SINGLE else _COMPLEX128)


def _real_input(x, n):
    """x for an n-point real-input transform; complex x is NumPy's TypeError,
    which names its ufunc of n's parity."""
    d = str(x.dtype)
    if d.startswith("complex"):
        raise TypeError(f"ufunc 'rfft_n_{'even' if n % 2 == 0 else 'odd'}' not supported for the input types, "
                        f"and the inputs could not be safely coerced to any supported types according to the "
                        f"casting rule ''safe''")
    return x if d in ("float32", "float64") else x.astype(_FLOAT32 if d in _SINGLE else _FLOAT64)


def _resize(x, n, axis):
    """x cropped or zero-padded to n along axis."""
    have = x.shape[axis]
    if have == n:
        return x
    index = [slice(None)] * x.ndim
    index[axis] = slice(0, min(have, n))
    if have > n:
        return x[tuple(index)]
    shape = list(x.shape)
    shape[axis] = n
    padded = zeros(tuple(shape), dtype=x.dtype, device=x.device)
    padded[tuple(index)] = x
    return padded


def _points(n):
    if isinstance(n, (bool, np.bool_)):
        raise TypeError("an integer is required")
    n = operator.index(n)  # NumPy's TypeError for floats and strings
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return n


def _raw(x, n, axis, kind, forward, norm, name):
    """One numpy.fft step on a device tensor: an n-point transform along
    axis, with NumPy's dtypes (Note [FFT dtypes]) and scale."""
    n = _points(n)
    _check_norm(norm, spaced=not forward)
    axis = normalize_axis_index(axis, x.ndim)
    real = _real_dtype(x.dtype)
    if kind == _C.FFT_R2C:
        x = _resize(_real_input(x, n), n, axis)
    else:
        x = _resize(_complex_input(x), n // 2 + 1 if kind == _C.FFT_C2R else n, axis)
    moved = axis != x.ndim - 1
    if moved:
        x = moveaxis(x, axis, -1)
    r = _C._fft(x, kind, 1, n, not forward)
    if moved:
        r = moveaxis(r, -1, axis)
    f = _factor(norm, n, forward, real)
    if f != 1.0:
        r = r * f
    if kind == _C.FFT_C2R and real == "float16":  # scaled in float32, then rounded once
        r = r.astype(_C.dtype("float16"))
    return r


def _finish(r, out, name):
    if out is None:
        return r
    if not isinstance(out, TensorBase):
        raise TypeError(f"devtensor.fft.{name}: out must be a tensor")
    if out.device != r.device:
        raise ValueError(f"devtensor.fft.{name}: out is on {out.device}, the input on {r.device}")
    if tuple(out.shape) != tuple(r.shape):
        raise ValueError("output array has wrong shape.")
    from . import can_cast
    if not can_cast(r.dtype, out.dtype, casting="same_kind"):
        raise TypeError(f"Cannot cast ufunc '{name}' output from dtype('{r.dtype}') to "
                        f"dtype('{out.dtype}') with casting rule 'same_kind'")
    out[...] = r
    return out


def _device_1d(name, x, n, axis, norm):
    if name in ("fft", "ifft"):
        return _raw(x, x.shape[axis] if n is None else n, axis, _C.FFT_C2C, name == "fft", norm,
                    name)
    if name in ("rfft", "ihfft"):
        n = x.shape[axis] if n is None else n
        if name == "ihfft":
            return conjugate(_raw(x, n, axis, _C.FFT_R2C, True, _swap(norm), name))
        return _raw(x, n, axis, _C.FFT_R2C, True, norm, name)
    default = (x.shape[normalize_axis_index(axis, x.ndim)] - 1) * 2
    if name == "hfft":
        norm = _swap(norm)
        x = conjugate(x)
    return _raw(x, default if n is None else n, axis, _C.FFT_C2R, False, norm, name)


def _sizes_along(x, axes):
    """x's sizes along axes, with the IndexError of NumPy's take(x.shape, axes)."""
    if x.ndim == 0 and len(axes):
        raise IndexError("cannot do a non-empty take from an empty axes.")
    for a in axes:
        if not -x.ndim <= operator.index(a) < x.ndim:
            raise IndexError(f"index {a} is out of bounds for axis 0 with size {x.ndim}")
    return [x.shape[a] for a in axes]


def _cook(x, s, axes, invreal=False):
    """numpy.fft's sizes and axes of an n-dimensional transform."""
    shapeless = s is None
    if s is None:
        s = list(x.shape) if axes is None else _sizes_along(x, axes)
    s = list(s)
    if axes is None:
        if not shapeless:
            import warnings
            warnings.warn("`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy "
                          "2.0). In a future version of NumPy, this will raise an error and `s[i]` "
                          "will correspond to the size along the transformed axis specified by "
                          "`axes[i]`. To retain current behaviour, pass a sequence [0, ..., k-1] "
                          "to `axes` for an array of dimension k.", DeprecationWarning,
                          stacklevel=4)
        axes = list(range(-len(s), 0))
    axes = list(axes)
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if invreal and shapeless:
        s[-1] = (x.shape[axes[-1]] - 1) * 2
    s = [x.shape[a] if n == -1 else n for n, a in zip(s, axes)]
    return s, axes


def _c2c_nd(x, s, axes, forward, norm):
    """fftn / ifftn: trailing axes in order as batched transforms of up to three."""
    ax = [normalize_axis_index(a, x.ndim) for a in axes]
    k = len(ax)
    if k == 0 or ax != list(range(x.ndim - k, x.ndim)):
        for i in reversed(range(k)):
            x = _raw(x, s[i], axes[i], _C.FFT_C2C, forward, norm, "fftn")
        return x
    real = _real_dtype(x.dtype)
    x = _complex_input(x)
    for n, a in zip(s, ax):
        x = _resize(x, _points(n), a)
    _check_norm(norm, spaced=not forward)
    # numpy.fft scales its first step (the last axis) in the input's real
    # dtype, the others in the complex result's
    f = _factor(norm, s[-1], forward, real)
    for n in s[:-1]:
        f *= _factor(norm, n, forward, _real_dtype(x.dtype))
    done = 0
    while done < k:
        rank = min(3, k - done)
        y = x if done == 0 else moveaxis(x, tuple(range(x.ndim - done, x.ndim)),
                                           tuple(range(x.ndim - k, x.ndim - k + done)))
        r = _C._fft(y, _C.FFT_C2C, rank, 0, not forward)
        x = r if done == 0 else moveaxis(r, tuple(range(x.ndim - k, x.ndim - k + done)),
                                           tuple(range(x.ndim - done, x.ndim)))
        done += rank
    return x if f == 1.0 else x * f


def _device_nd(name, x, s, axes, norm):
    base = name.rstrip("2n")
    if base in ("fft", "ifft"):
        s, axes = _cook(x, s, axes)
        return _c2c_nd(x, s, axes, base == "fft", norm)
    if base == "rfft":
        s, axes = _cook(x, s, axes)
        x = _raw(x, s[-1], axes[-1], _C.FFT_R2C, True, norm, name)
        return _c2c_nd(x, s[:-1], axes[:-1], True, norm)
    s, axes = _cook(x, s, axes, invreal=True)
    x = _c2c_nd(x, s[:-1], axes[:-1], False, norm)
    return _raw(x, s[-1], axes[-1], _C.FFT_C2R, False, norm, name)


def _transform(name):
    fn = getattr(np.fft, name)
    multi = name.endswith(("2", "n"))

    if multi:
        def transform(a, s=None, axes=(-2, -1) if name.endswith("2") else None, norm=None,
                      out=None, *, dim=None):
            if dim is not None:  # PyTorch's name of axes
                axes = (dim,) if isinstance(dim, int) else tuple(dim)
            a = _tensor(a)
            if a.device.type != "cpu":
                return _finish(_device_nd(name, a, s, axes, norm), out, name)
            r = fn(_host_view(a, name), s=s, axes=axes, norm=norm, out=_out_array(out, name))
            return out if out is not None else asarray(r, device="cpu")
    else:
        def transform(a, n=None, axis=-1, norm=None, out=None, *, dim=None):
            if dim is not None:  # PyTorch's name of axis
                axis = dim
            a = _tensor(a)
            if a.device.type != "cpu":
                return _finish(_device_1d(name, a, n, axis, norm), out, name)
            r = fn(_host_view(a, name), n=n, axis=axis, norm=norm, out=_out_array(out, name))
            return out if out is not None else asarray(r, device="cpu")
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = (f"NumPy's numpy.fft.{name}: NumPy's own on CPU tensors, cuFFT on CUDA "
                         f"devices (Note [FFT dtypes], Note [FFTs on devices]).")
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
    x = _tensor(x)
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [sign * (n // 2) for n in x.shape]
    elif isinstance(axes, int):
        shift = sign * (x.shape[axes] // 2)
    else:
        axes = tuple(axes)
        shift = [sign * (x.shape[a] // 2) for a in axes]
    return roll(x, shift, axes)


def fftshift(x, axes=None, dim=None):
    """The zero frequency moved to the middle (NumPy's fftshift), on x's
    device; dim= is PyTorch's name for axes."""
    return _shift(x, _shift_axes("fftshift", axes, dim), 1)


def ifftshift(x, axes=None, dim=None):
    """The inverse of fftshift, on x's device."""
    return _shift(x, _shift_axes("ifftshift", axes, dim), -1)


def _shift_axes(name, axes, dim):
    from . import _torch_keywords as _tk
    return _tk.axis(name, axes, dim)
