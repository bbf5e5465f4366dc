"""nn.functional.affine_grid and grid_sample (Note [Sampling grids]):
against a scalar float64 reference written from PyTorch's documented
semantics, against interpolate and rot90 where they agree, on every
device, and their errors."""
import math

import numpy as np
import pytest

import devtensor as dt
import devtensor.nn.functional as F
from helpers import to_np


# ---- the reference: one output value at a time, in float64 ----
def _unnormalise(c, size, align):
    return (c + 1) / 2 * (size - 1) if align else ((c + 1) * size - 1) / 2


def _reflect(x, twice_low, twice_high):
    if twice_low == twice_high:
        return 0.0
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    x = abs(x - low)
    if not math.isfinite(x):
        return math.nan
    extra, flips = math.fmod(x, span), math.floor(x / span)
    return extra + low if flips % 2 == 0 else span - extra + low


def _source(x, size, padding, align):
    if padding == "reflection":
        x = _reflect(x, 0, 2 * (size - 1)) if align else _reflect(x, -1, 2 * size - 1)
    if math.isnan(x):  # nothing, in every padding mode (PyTorch's CPU and CUDA kernels differ for border)
        return -100.0
    if padding != "zeros":
        x = min(size - 1, max(x, 0))
    if not math.isfinite(x) or not -2.0 ** 31 < x < 2.0 ** 31 - 1:
        return -100.0
    return x


def _read(img, idx):
    """img[idx] or 0 outside (img: spatial dims only)."""
    if all(0 <= i < s for i, s in zip(idx, img.shape)):
        return img[tuple(idx)]
    return 0.0


def _cubic(t, a=-0.75):
    def near(v):
        return ((a + 2) * v - (a + 3)) * v * v + 1

    def far(v):
        return ((a * v - 5 * a) * v + 8 * a) * v - 4 * a
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def reference_sample(img, point, mode, padding, align):
    """One channel img (spatial dims) at the normalised point (x, y[, z])."""
    n = img.ndim
    raw = [_unnormalise(point[n - 1 - d], img.shape[d], align) for d in range(n)]
    if mode == "bicubic":
        lows = [float(np.floor(r)) for r in raw]
        with np.errstate(invalid="ignore"):  # inf - inf: NaN weights, as PyTorch's
            ws = [_cubic(r - lo) for r, lo in zip(raw, lows)]
        total = 0.0
        for j in range(4):
            for i in range(4):
                y = int(_source(lows[0] - 1 + j, img.shape[0], padding, align))
                x = int(_source(lows[1] - 1 + i, img.shape[1], padding, align))
                total += _read(img, (y, x)) * ws[0][j] * ws[1][i]
        return total
    c = [_source(r, img.shape[d], padding, align) for d, r in enumerate(raw)]
    if mode == "nearest":
        return _read(img, [int(np.rint(v)) for v in c])
    lows = [math.floor(v) for v in c]
    total = 0.0
    for corner in range(2 ** n):
        idx, w = [], 1.0
        for d in range(n):
            hi = (corner >> d) & 1
            w *= (c[d] - lows[d]) if hi else (lows[d] + 1 - c[d])
            idx.append(lows[d] + hi)
        total += _read(img, idx) * w
    return total


def reference_grid_sample(x, grid, mode, padding, align):
    x, grid = np.asarray(x, np.float64), np.asarray(grid, np.float64)
    out = np.zeros(x.shape[:2] + grid.shape[1:-1])
    for b in range(x.shape[0]):
        for c in range(x.shape[1]):
            for pos in np.ndindex(*grid.shape[1:-1]):
                out[(b, c) + pos] = reference_sample(x[b, c], grid[(b,) + pos], mode, padding, align)
    return out


def reference_affine_grid(theta, size, align):
    n = len(size) - 2
    spatial = size[2:]

    def base(length):
        if length <= 1:
            return np.zeros(length)
        s = np.linspace(-1, 1, length)
        return s if align else s * (length - 1) / length
    axes = [base(spatial[n - 1 - k]) for k in range(n)]  # x, y, z
    grid = np.zeros((size[0],) + spatial + (n,))
    for b in range(size[0]):
        for pos in np.ndindex(*spatial):
            p = [axes[k][pos[n - 1 - k]] for k in range(n)] + [1.0]
            grid[(b,) + pos] = np.asarray(theta[b], np.float64) @ p
    return grid


# ---- tests ----
@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("size", [(2, 3, 4, 5), (1, 2, 3, 1, 4), (2, 1, 1, 3)])
def test_affine_grid_against_the_reference(size, align, device):
    rng = np.random.default_rng(len(size))
    n = len(size) - 2
    theta = rng.standard_normal((size[0], n, n + 1))
    got = F.affine_grid(dt.asarray(theta, device=device), size, align_corners=align)
    assert got.shape == (size[0],) + size[2:] + (n,) and got.dtype == dt.float64
    assert got.device == dt.device(device)
    np.testing.assert_allclose(to_np(got), reference_affine_grid(theta, size, align), rtol=1e-12, atol=1e-12)
    got32 = F.affine_grid(dt.asarray(theta, dtype=dt.float32, device=device), size, align_corners=align)
    assert got32.dtype == dt.float32
    np.testing.assert_allclose(to_np(got32), reference_affine_grid(theta, size, align), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [False, True])
def test_grid_sample_2d_against_the_reference(mode, padding, align, device):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 3, 4, 5))
    grid = rng.uniform(-1.6, 1.6, (2, 3, 6, 2))  # points inside and outside the input
    grid[0, 0, :4] = [[-1, -1], [1, 1], [0, 0], [1.0, -1.0]]  # the corners, exactly
    grid[1, 2, :3] = [[np.nan, 0.2], [np.inf, -np.inf], [3e10, 0.5]]  # samples nothing (bilinear, nearest)
    want = reference_grid_sample(x, grid, mode, padding, align)
    got = F.grid_sample(dt.asarray(x, device=device), dt.asarray(grid, device=device), mode=mode,
                        padding_mode=padding, align_corners=align)
    assert got.shape == (2, 3, 3, 6) and got.dtype == dt.float64 and got.device == dt.device(device)
    np.testing.assert_allclose(to_np(got), want, rtol=1e-12, atol=1e-12)
    got32 = F.grid_sample(dt.asarray(x, dtype=dt.float32, device=device),
                          dt.asarray(grid, dtype=dt.float32, device=device), mode=mode, padding_mode=padding,
                          align_corners=align)
    assert got32.dtype == dt.float32
    finite = np.isfinite(grid).all(axis=-1) & (np.abs(grid) < 1e9).all(axis=-1)
    np.testing.assert_allclose(to_np(got32)[:, :, finite[0]][0], want[:, :, finite[0]][0], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [False, True])
def test_grid_sample_3d_against_the_reference(mode, padding, align, device):
    rng = np.random.default_rng(8)
    x = rng.standard_normal((1, 2, 3, 4, 2))
    grid = rng.uniform(-1.4, 1.4, (1, 2, 3, 2, 3))
    want = reference_grid_sample(x, grid, mode, padding, align)
    got = F.grid_sample(dt.asarray(x, device=device), dt.asarray(grid, device=device), mode=mode,
                        padding_mode=padding, align_corners=align)
    assert got.shape == (1, 2, 2, 3, 2)
    np.testing.assert_allclose(to_np(got), want, rtol=1e-12, atol=1e-12)


def test_grid_sample_agrees_with_interpolate_and_rot90(device):
    rng = np.random.default_rng(9)
    x = dt.asarray(rng.standard_normal((2, 3, 5, 4)), device=device)
    identity = dt.asarray(np.tile([[1.0, 0, 0], [0, 1, 0]], (2, 1, 1)), device=device)
    for align in (False, True):  # the identity map gives the input back
        g = F.affine_grid(identity, (2, 3, 5, 4), align_corners=align)
        for mode in ("bilinear", "nearest", "bicubic"):
            np.testing.assert_allclose(to_np(F.grid_sample(x, g, mode=mode, align_corners=align)), to_np(x),
                                       rtol=1e-12, atol=1e-12)
    # a scale-up with align_corners: interpolate's (bi)linear and bicubic (which clamps taps: border padding)
    g = F.affine_grid(identity, (2, 3, 9, 7), align_corners=True)
    for mode, padding in (("bilinear", "zeros"), ("bicubic", "border")):
        np.testing.assert_allclose(
            to_np(F.grid_sample(x, g, mode=mode, padding_mode=padding, align_corners=True)),
            to_np(F.interpolate(x, size=(9, 7), mode=mode, align_corners=True)), rtol=1e-12, atol=1e-12)
    # a quarter turn of a square image: the points land on pixel centres
    sq = dt.asarray(rng.standard_normal((1, 2, 4, 4)), device=device)
    turn = dt.asarray([[[0.0, -1.0, 0.0], [1.0, 0.0, 0.0]]], device=device)
    got = F.grid_sample(sq, F.affine_grid(turn, (1, 2, 4, 4), align_corners=False), align_corners=False)
    np.testing.assert_allclose(to_np(got), np.rot90(to_np(sq), 1, axes=(2, 3)), atol=1e-12)


def test_grid_sample_half_precision_and_empty_output(device):
    x = dt.asarray(np.arange(16.0).reshape(1, 1, 4, 4), dtype=dt.float16, device=device)
    g = dt.asarray([[[[0.1, -0.3], [0.5, 0.5]]]], dtype=dt.float16, device=device)
    got = F.grid_sample(x, g, align_corners=True)
    assert got.dtype == dt.float16
    want = reference_grid_sample(np.arange(16.0).reshape(1, 1, 4, 4), to_np(g).astype(np.float64), "bilinear",
                                 "zeros", True)
    np.testing.assert_allclose(to_np(got).astype(np.float64), want, rtol=2e-3)
    empty = F.grid_sample(x, dt.zeros((1, 0, 3, 2), dtype=dt.float16, device=device))
    assert empty.shape == (1, 1, 0, 3)


def test_sampling_errors(device):
    x = dt.ones((1, 2, 3, 3), device=device)
    g = dt.zeros((1, 2, 2, 2), device=device)
    with pytest.raises(ValueError, match="expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: 'area'"):
        F.grid_sample(x, g, mode="area")
    with pytest.raises(ValueError, match="expected padding_mode to be 'zeros', 'border', or 'reflection'"):
        F.grid_sample(x, g, padding_mode="circular")
    with pytest.raises(RuntimeError, match=r"expected 4D or 5D input and grid with same number of dimensions, but "
                                           r"got input with sizes \[1, 2, 3, 3\] and grid with sizes \[2, 2, 2\]"):
        F.grid_sample(x, g[0])
    with pytest.raises(RuntimeError, match="expected grid and input to have same batch size"):
        F.grid_sample(x, dt.zeros((2, 2, 2, 2), device=device))
    with pytest.raises(RuntimeError, match="expected grid to have size 2 in last dimension"):
        F.grid_sample(x, dt.zeros((1, 2, 2, 3), device=device))
    with pytest.raises(RuntimeError, match="bicubic interpolation only supports 4D input"):
        F.grid_sample(dt.ones((1, 1, 2, 2, 2), device=device), dt.zeros((1, 1, 1, 1, 3), device=device),
                      mode="bicubic")
    with pytest.raises(RuntimeError, match="with dimension 3 being empty"):
        F.grid_sample(dt.ones((1, 2, 3, 0), device=device), g)
    with pytest.raises(RuntimeError, match="expected input and grid to have same dtype, but input has float32 and "
                                           "grid has float64"):
        F.grid_sample(x.float(), g)
    with pytest.raises(RuntimeError, match="expected floating point input and grid, but got int64"):
        F.grid_sample(dt.ones((1, 1, 2, 2), dtype=dt.int64, device=device), dt.zeros((1, 1, 1, 2), dtype=dt.int64,
                                                                                    device=device))
    with pytest.raises(TypeError, match="grid"):
        F.grid_sample(x, [[0.0, 0.0]])
    theta = dt.zeros((1, 2, 3), device=device)
    with pytest.raises(ValueError, match=r"Expected a batch of 2D affine matrices of shape Nx2x3 for size "
                                         r"\[1, 1, 2, 2\]. Got \[1, 3, 4\]."):
        F.affine_grid(dt.zeros((1, 3, 4), device=device), (1, 1, 2, 2))
    with pytest.raises(NotImplementedError, match="affine_grid only supports 4D and 5D sizes"):
        F.affine_grid(theta, (1, 1, 2))
    with pytest.raises(ValueError, match="Expected non-zero, positive output size"):
        F.affine_grid(theta, (1, 1, 0, 2))
    with pytest.raises(ValueError, match="Expected theta to have floating point type, but got int64"):
        F.affine_grid(dt.zeros((1, 2, 3), dtype=dt.int64, device=device), (1, 1, 2, 2))
    with pytest.raises(ValueError, match=r"theta holds 1 matrices but size asks for a batch of 2"):
        F.affine_grid(theta, (2, 1, 2, 2))
    if device != "cpu":
        with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
            F.grid_sample(x, g.cpu())
