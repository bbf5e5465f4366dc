"""devtensor.fft against numpy.fft: the transforms on the CPU (NumPy's own
on zero-copy views), NotImplementedError on CUDA devices (no cuFFT yet),
and fftfreq, rfftfreq, fftshift, ifftshift on every device."""
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
    tol = 1e-4 if expected.dtype in (np.complex64, np.float32) else 1e-10
    np.testing.assert_allclose(got, expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("name", TRANSFORMS_1D)
@pytest.mark.parametrize("dtype", DTYPES)
def test_1d_transforms_match_numpy(name, dtype):
    if name in ("rfft", "ihfft") and dtype.startswith("complex"):
        with pytest.raises(TypeError):
            getattr(np.fft, name)(_input(dtype, (4, 6)))
        with pytest.raises(TypeError):
            getattr(dt.fft, name)(dt.asarray(_input(dtype, (4, 6))))
        return
    a = _input(dtype, (4, 6))
    for kw in ({}, {"n": 5}, {"n": 8, "axis": 0}, {"norm": "ortho"}, {"norm": "forward", "axis": -2}):
        _close(to_np(getattr(dt.fft, name)(dt.asarray(a), **kw)), getattr(np.fft, name)(a, **kw))


@pytest.mark.parametrize("name", TRANSFORMS_ND)
def test_nd_transforms_match_numpy(name):
    a = _input("float64", (3, 4, 5))
    for kw in ({}, {"axes": (0, 2)}, {"s": (4, 6), "axes": (1, 2)}, {"norm": "ortho"}):
        _close(to_np(getattr(dt.fft, name)(dt.asarray(a), **kw)), getattr(np.fft, name)(a, **kw))


def test_transforms_of_views_and_bfloat16():
    a = _input("float64", (6, 8))
    t = dt.asarray(a)
    _close(to_np(dt.fft.fft(t.T[::2])), np.fft.fft(a.T[::2]))
    b = dt.asarray(a.astype(np.float32)).astype(dt.bfloat16)
    ref = np.fft.fft(to_np(b.astype(dt.float32)))
    _close(to_np(dt.fft.fft(b)), ref)


def test_out_and_errors_are_numpy_s():
    a = _input("complex128", (8,))
    out = dt.empty(8, dtype=dt.complex128)
    r = dt.fft.fft(dt.asarray(a), out=out)
    assert r is out
    _close(to_np(out), np.fft.fft(a))
    for call in (lambda m, x: m.fft.fft(x, n=0), lambda m, x: m.fft.fft(x, axis=3),
                 lambda m, x: m.fft.fft(x, norm="bad")):
        with pytest.raises(Exception) as expected:
            call(np, a)
        with pytest.raises(expected.type):
            call(dt, dt.asarray(a))


@pytest.mark.parametrize("device", CUDA_DEVICES)
def test_transforms_on_cuda_say_they_need_cufft(device):
    x = dt.ones(8, device=device)
    for name in TRANSFORMS_1D + TRANSFORMS_ND:
        y = x.reshape(2, 4) if name in TRANSFORMS_ND else x
        with pytest.raises(NotImplementedError, match="cuFFT"):
            getattr(dt.fft, name)(y)


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
