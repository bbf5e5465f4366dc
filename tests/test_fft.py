"""devtensor.fft against numpy.fft on every device: the transforms on the
CPU (NumPy's own on zero-copy views) and on CUDA devices (cuFFT; the
emulated devices run the emulated cuFFT, csrc/emu/emu_fft.cpp), with
NumPy's dtypes, norms, sizes, axes, out= and errors; fftfreq, rfftfreq,
fftshift, ifftshift."""
import numpy as np
import pytest

import devtensor as dt
from helpers import ALL_DEVICES, CUDA_DEVICES, assert_same, to_np

TRANSFORMS_1D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
TRANSFORMS_ND = ["fft2", "ifft2", "fftn", "ifftn", "rfft2", "irfft2", "rfftn", "irfftn"]
DTYPES = ["float32", "float64", "complex64", "complex128", "int32", "bool", "float16"]


def _input(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    if dtype == "bool":
        return a > 0
    if dtype == "int32":
        return (a * 10).astype(np.int32)
    return a.astype(dtype)


def _close(got, expected):
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape
    # float16 results: one float16 rounding of float32 values, which pocketfft
    # and cuFFT (or its emulation, in double) compute differently
    tol = {np.dtype("float16"): 2e-3, np.dtype("float32"): 1e-4, np.dtype("complex64"): 1e-4}.get(
        expected.dtype, 1e-10)
    np.testing.assert_allclose(got, expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("device", ALL_DEVICES)
@pytest.mark.parametrize("name", TRANSFORMS_1D)
@pytest.mark.parametrize("dtype", DTYPES)
def test_1d_transforms_match_numpy(device, name, dtype):
    if name in ("rfft", "ihfft") and dtype.startswith("complex"):
        with pytest.raises(TypeError):
            getattr(np.fft, name)(_input(dtype, (4, 6)))
        with pytest.raises(TypeError):
            getattr(dt.fft, name)(dt.asarray(_input(dtype, (4, 6)), device=device))
        return
    a = _input(dtype, (4, 6))
    t = dt.asarray(a, device=device)
    for kw in ({}, {"n": 5}, {"n": 8, "axis": 0}, {"norm": "ortho"}, {"norm": "forward", "axis": -2},
               {"n": 3, "norm": "backward"}):
        r = getattr(dt.fft, name)(t, **kw)
        assert r.device == t.device
        _close(to_np(r), getattr(np.fft, name)(a, **kw))


@pytest.mark.parametrize("device", ALL_DEVICES)
@pytest.mark.parametrize("name", TRANSFORMS_ND)
def test_nd_transforms_match_numpy(device, name):
    a = _input("float64", (3, 4, 5))
    t = dt.asarray(a, device=device)
    for kw in ({}, {"axes": (0, 2)}, {"s": (4, 6), "axes": (1, 2)}, {"norm": "ortho"},
               {"axes": (2, 0)}, {"s": (2, -1), "axes": (0, 1)}, {"axes": (1, 1)}):
        if name.endswith("2") and "axes" in kw and len(kw["axes"]) != 2:
            continue
        r = getattr(dt.fft, name)(t, **kw)
        assert r.device == t.device
        _close(to_np(r), getattr(np.fft, name)(a, **kw))


@pytest.mark.parametrize("device", CUDA_DEVICES)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_fftn_over_more_than_three_axes_and_batches(device, dtype):
    # Note [FFTs on devices]: trailing axes go to cuFFT three at a time
    a = _input(dtype, (2, 3, 2, 4, 5))
    t = dt.asarray(a, device=device)
    for axes in (None, (1, 2, 3, 4), (2, 3, 4), (3, 4), (0, 1, 2, 3, 4)):
        for name in ("fftn", "ifftn"):
            _close(to_np(getattr(dt.fft, name)(t, axes=axes)), getattr(np.fft, name)(a, axes=axes))
    b = _input("float32", (5, 2, 3, 4))
    tb = dt.asarray(b, device=device)
    _close(to_np(dt.fft.rfftn(tb)), np.fft.rfftn(b))
    _close(to_np(dt.fft.irfftn(dt.fft.rfftn(tb), s=b.shape, axes=(0, 1, 2, 3))), b)


@pytest.mark.parametrize("device", CUDA_DEVICES)
@pytest.mark.parametrize("n", [1, 2, 3, 7, 12, 17, 30, 64, 97, 210])
def test_sizes_prime_and_composite(device, n):
    # every radix the emulated transform has, primes summed directly; irfft's
    # even and odd sizes (the Nyquist term)
    a = _input("complex128", (3, n), seed=n)
    t = dt.asarray(a, device=device)
    _close(to_np(dt.fft.fft(t)), np.fft.fft(a))
    _close(to_np(dt.fft.ifft(t)), np.fft.ifft(a))
    r = a.real.copy()
    _close(to_np(dt.fft.rfft(dt.asarray(r, device=device))), np.fft.rfft(r))
    spec = np.fft.rfft(r)
    _close(to_np(dt.fft.irfft(dt.asarray(spec, device=device), n=n)), np.fft.irfft(spec, n=n))


@pytest.mark.parametrize("device", CUDA_DEVICES)
def test_irfft_ignores_the_imaginary_parts_numpy_ignores(device):
    # the zero-frequency and Nyquist terms of a half spectrum are real in any
    # Hermitian spectrum; numpy.fft (and cuFFT) ignore their imaginary parts
    spec = _input("complex128", (2, 5), seed=3)
    for n in (8, 9):
        _close(to_np(dt.fft.irfft(dt.asarray(spec, device=device), n=n)), np.fft.irfft(spec, n=n))


def test_transforms_of_views_and_bfloat16():
    a = _input("float64", (6, 8))
    for device in ALL_DEVICES:
        t = dt.asarray(a, device=device)
        _close(to_np(dt.fft.fft(t.T[::2])), np.fft.fft(a.T[::2]))
        _close(to_np(dt.fft.rfft(t[:, ::3], axis=0)), np.fft.rfft(a[:, ::3], axis=0))
        b = dt.asarray(a.astype(np.float32), device=device).astype(dt.bfloat16)
        ref = np.fft.fft(to_np(b.astype(dt.float32)))
        _close(to_np(dt.fft.fft(b)), ref)


@pytest.mark.parametrize("device", CUDA_DEVICES)
def test_inputs_are_left_alone(device):
    # cuFFT's complex-to-real transform destroys its input (the emulation
    # overwrites it too): devtensor hands it a copy
    spec = np.fft.rfft(_input("float64", (4, 10)))
    t = dt.asarray(spec, device=device)
    dt.fft.irfft(t)
    dt.fft.irfftn(t)
    dt.fft.hfft(t)
    assert_same(t, spec, device=device)


def _like(m, x, n, dtype):
    """ones(n) of dtype in module m, on x's device"""
    if m is np:
        return np.ones(n, dtype)
    return dt.ones(n, dtype=getattr(dt, dtype), device=x.device)


@pytest.mark.parametrize("device", ALL_DEVICES)
def test_out_and_errors_are_numpy_s(device):
    a = _input("complex128", (8,))
    out = dt.empty(8, dtype=dt.complex128, device=device)
    r = dt.fft.fft(dt.asarray(a, device=device), out=out)
    assert r is out
    _close(to_np(out), np.fft.fft(a))
    out64 = dt.empty(8, dtype=dt.complex64, device=device)
    assert dt.fft.ifft(dt.asarray(a, device=device), out=out64) is out64
    _close(to_np(out64), np.fft.ifft(a).astype(np.complex64))
    x = dt.asarray(a, device=device)
    for call in (lambda m, x: m.fft.fft(x, n=0), lambda m, x: m.fft.fft(x, axis=3),
                 lambda m, x: m.fft.fft(x, norm="bad"), lambda m, x: m.fft.irfft(x, n=-2),
                 lambda m, x: m.fft.ihfft(x.real, norm="sideways"),
                 lambda m, x: m.fft.fftn(x, s=(4, 4), axes=(0,)),
                 lambda m, x: m.fft.fft(x, n=8.0), lambda m, x: m.fft.fft(x, n=True),
                 lambda m, x: m.fft.rfftn(x.real, s=(2.0,), axes=(0,)),
                 lambda m, x: m.fft.fft(x, out=_like(m, x, 5, "complex128")),
                 lambda m, x: m.fft.fft(x, out=_like(m, x, 8, "float64"))):
        with pytest.raises(Exception) as expected:
            call(np, a)
        # NumPy's output-casting error is a TypeError subclass of its own
        kind = TypeError if issubclass(expected.type, TypeError) else expected.type
        with pytest.raises(kind) as got:
            call(dt, x)
        if expected.type is ValueError or kind is TypeError and device != "cpu":
            assert str(got.value) == str(expected.value)


def test_axes_past_the_dimensions_are_numpy_s_index_error(device):
    """fft2 of a vector, fftn with an axis past the array's: NumPy's IndexError
    (its take of the shape), on every device."""
    from helpers import same_error
    for a, name, kw in ((np.arange(4.0), "fft2", {}), (np.arange(4.0), "rfft2", {}),
                        (np.arange(4.0), "irfft2", {}), (np.ones((2, 2)), "fftn", {"axes": (0, 3)}),
                        (np.ones((2, 2)), "rfftn", {"axes": (0, -3)}), (np.array(1.0), "fft2", {})):
        x = dt.asarray(a, device=device)
        same_error(lambda: getattr(np.fft, name)(a, **kw), lambda: getattr(dt.fft, name)(x, **kw))


def test_real_input_transforms_refuse_complex_as_numpy(device):
    """rfft and its kin of complex data: NumPy's TypeError, which names its
    ufunc of the transform length's parity, on every device."""
    from helpers import same_error
    for a, name, kw in ((np.array([1j, 2, 3]), "rfft", {}), (np.array([1j, 2, 3]), "rfft", {"n": 4}),
                        (np.ones((2, 2)) * 1j, "rfftn", {}), (np.array([1j, 2]), "ihfft", {}),
                        (np.ones((3, 3)) * 1j, "rfft2", {})):
        x = dt.asarray(a, device=device)
        same_error(lambda: getattr(np.fft, name)(a, **kw), lambda: getattr(dt.fft, name)(x, **kw))


@pytest.mark.parametrize("device", CUDA_DEVICES)
def test_transforms_of_empty_batches(device):
    a = np.zeros((0, 8), np.complex64)
    for name in ("fft", "ifft", "irfft", "hfft"):
        _close(to_np(getattr(dt.fft, name)(dt.asarray(a, device=device))), getattr(np.fft, name)(a))
    _close(to_np(dt.fft.rfft(dt.asarray(a.real, device=device))), np.fft.rfft(a.real))
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        dt.fft.fft(dt.zeros((3, 0), dtype=dt.complex64, device=device))


@pytest.mark.parametrize("device", CUDA_DEVICES)
def test_plans_past_the_cache_and_on_a_stream(device):
    # Note [cuFFT plans]: more sizes than a device keeps plans for, then the
    # first again (their plans were destroyed and are made anew)
    sizes = list(range(2, 22))
    for n in sizes + sizes[:3]:
        a = _input("complex64", (2, n), seed=n)
        _close(to_np(dt.fft.fft(dt.asarray(a, device=device))), np.fft.fft(a))
    index = dt.device(device).index
    s = dt.cuda.Stream(device=index)
    a = _input("complex128", (64, 32))
    t = dt.asarray(a, device=device)
    with dt.cuda.device(index), dt.cuda.stream(s):
        r = dt.fft.fft2(t)
    s.synchronize()
    _close(to_np(r), np.fft.fft2(a))


@pytest.mark.parametrize("device", ALL_DEVICES)
@pytest.mark.parametrize("n", [1, 2, 7, 8])
def test_frequencies_on_every_device(device, n):
    for d in (1.0, 0.25):
        r = dt.fft.fftfreq(n, d, device=device)
        assert r.device == dt.device(device)
        assert_same(r, np.fft.fftfreq(n, d), exact=False, rtol=1e-15)
        assert_same(dt.fft.rfftfreq(n, d, device=device), np.fft.rfftfreq(n, d), exact=False,
                    rtol=1e-15)
    assert dt.fft.fftfreq(n, dtype=dt.float32, device=device).dtype == dt.float32
    for bad in (0, -3):
        with pytest.raises(ValueError):
            dt.fft.fftfreq(bad)


@pytest.mark.parametrize("device", ALL_DEVICES)
def test_shifts_on_every_device(device):
    a = np.arange(30.0).reshape(5, 6)
    t = dt.asarray(a, device=device)
    for axes in (None, 0, 1, (0, 1), (1,)):
        assert_same(dt.fft.fftshift(t, axes), np.fft.fftshift(a, axes), device=device)
        assert_same(dt.fft.ifftshift(t, axes), np.fft.ifftshift(a, axes), device=device)
        assert_same(dt.fft.ifftshift(dt.fft.fftshift(t, axes), axes), a, device=device)


@pytest.mark.parametrize("device", ALL_DEVICES)
def test_out_that_is_not_a_tensor_or_on_another_device(device):
    x = dt.ones(8, dtype=dt.complex128, device=device)
    with pytest.raises(TypeError, match="devtensor.fft.fft: out must be a tensor"):
        dt.fft.fft(x, out=np.ones(8, complex))
    other = "cpu" if device != "cpu" else (CUDA_DEVICES[0] if CUDA_DEVICES else None)
    if other is not None:
        with pytest.raises(ValueError, match=f"devtensor.fft.fft: out is on {other}, the input on "
                                             f"{device}"):
            dt.fft.fft(x, out=dt.empty(8, dtype=dt.complex128, device=other))


@pytest.mark.parametrize("device", ALL_DEVICES)
def test_the_primitive_checks_its_arguments(device):
    # Note [FFTs]: dt_fft's own checks, under what devtensor.fft ever asks
    c = dt.ones((2, 4), dtype=dt.complex64, device=device)
    if device == "cpu":
        with pytest.raises(NotImplementedError, match="the cpu backend has no Fourier transforms"):
            dt._C._fft(c, dt._C.FFT_C2C, 1, 0, False)
        return
    with pytest.raises(TypeError, match="a real-input transform takes float32 or float64, not "
                                        "complex64"):
        dt._C._fft(c, dt._C.FFT_R2C, 1, 0, False)
    with pytest.raises(TypeError, match="a complex transform takes complex64 or complex128, not "
                                        "float32"):
        dt._C._fft(c.real, dt._C.FFT_C2C, 1, 0, False)
    for rank in (0, 3, 4):
        with pytest.raises(ValueError, match=f"{rank} transformed axes of a 2-dimensional tensor"):
            dt._C._fft(c, dt._C.FFT_C2C, rank, 0, False)
    with pytest.raises(ValueError, match="bad kind 7"):
        dt._C._fft(c, 7, 1, 0, False)
    with pytest.raises(ValueError, match="a transformed axis is empty"):
        dt._C._fft(dt.ones((2, 0), dtype=dt.complex64, device=device), dt._C.FFT_C2C, 1, 0, False)
    with pytest.raises(ValueError, match="a real-output transform of 9 points takes 5 values on "
                                         "its last axis, not 4"):
        dt._C._fft(c, dt._C.FFT_C2R, 1, 9, True)
