"""nn's convolutions, pooling and interpolate (nn/_conv_functions.py,
conv.py, pooling.py) on every device, against direct loops over the
output positions written here from PyTorch's definitions."""
import itertools
import math

import numpy as np
import pytest

import devtensor as dt
import devtensor.nn as nn
import devtensor.nn.functional as F
from helpers import to_np
from devtensor.nn._conv_functions import _tuple

RNG = np.random.default_rng(21)


def close(t, expected, device, rtol=1e-12, atol=1e-12):
    assert isinstance(t, dt.Tensor) and t.device == dt.device(device)
    np.testing.assert_allclose(to_np(t), expected, rtol=rtol, atol=atol)


def reference_conv(x, w, b, stride, pads, dilation, groups):
    """PyTorch's cross-correlation, one output position at a time."""
    n = w.ndim - 2
    x = np.pad(x, ((0, 0), (0, 0)) + tuple(pads))
    batch, channels = x.shape[:2]
    out_ch, per_group = w.shape[0], channels // groups
    og = out_ch // groups
    out = tuple((x.shape[2 + d] - dilation[d] * (w.shape[2 + d] - 1) - 1) // stride[d] + 1 for d in range(n))
    y = np.zeros((batch, out_ch) + out)
    for pos in itertools.product(*[range(o) for o in out]):
        window = tuple(slice(pos[d] * stride[d], pos[d] * stride[d] + dilation[d] * (w.shape[2 + d] - 1) + 1,
                             dilation[d]) for d in range(n))
        for g in range(groups):
            patch = x[(slice(None), slice(g * per_group, (g + 1) * per_group)) + window]
            y[(slice(None), slice(g * og, (g + 1) * og)) + pos] = np.tensordot(
                patch, w[g * og:(g + 1) * og], axes=(list(range(1, n + 2)), list(range(1, n + 2))))
    return y if b is None else y + b.reshape((out_ch,) + (1,) * n)


CONVS = [  # (input shape, weight shape, stride, padding, dilation, groups)
    ((2, 3, 9), (4, 3, 3), (1,), 0, (1,), 1),
    ((2, 4, 9), (6, 2, 2), (2,), 1, (3,), 2),
    ((2, 4, 7, 6), (6, 2, 3, 2), (2, 1), 1, (1, 2), 2),
    ((1, 3, 5, 5), (2, 3, 1, 1), (1, 1), 0, (1, 1), 1),
    ((1, 2, 4, 5, 3), (2, 1, 2, 3, 2), (1, 2, 1), (1, 0, 1), (1, 1, 1), 2),
    # depthwise (one input channel per group: Note [Depthwise convolution]), with a channel multiplier
    ((2, 3, 8, 7), (6, 1, 3, 3), (2, 1), 1, (1, 2), 3),
    ((2, 4, 9), (4, 1, 3), (1,), 2, (2,), 4),
]


@pytest.mark.parametrize("case", range(len(CONVS)))
def test_conv_against_direct_loops(device, case):
    xs, ws, stride, padding, dilation, groups = CONVS[case]
    n = len(ws) - 2
    x, w, b = RNG.standard_normal(xs), RNG.standard_normal(ws), RNG.standard_normal(ws[0])
    pads = tuple((p, p) for p in (padding if isinstance(padding, tuple) else (padding,) * n))
    conv = getattr(F, f"conv{n}d")
    r = conv(dt.asarray(x, device=device), dt.asarray(w, device=device), dt.asarray(b, device=device), stride,
             padding, dilation, groups)
    close(r, reference_conv(x, w, b, stride, pads, dilation, groups), device)
    unbatched = conv(dt.asarray(x[0], device=device), dt.asarray(w, device=device), None, stride, padding, dilation,
                     groups)
    close(unbatched, reference_conv(x[:1], w, None, stride, pads, dilation, groups)[0], device)


def test_conv_same_padding_and_modules(device):
    x, w = RNG.standard_normal((2, 3, 8)), RNG.standard_normal((2, 3, 4))
    r = F.conv1d(dt.asarray(x, device=device), dt.asarray(w, device=device), padding="same", dilation=2)
    assert r.shape == (2, 2, 8)
    close(r, reference_conv(x, w, None, (1,), ((3, 3),), (2,), 1), device)  # total 6 split evenly
    r = F.conv1d(dt.asarray(x, device=device), dt.asarray(w[..., :2], device=device), padding="same")
    close(r, reference_conv(x, w[..., :2], None, (1,), ((0, 1),), (1,), 1), device)  # the extra one on the right
    m = nn.Conv2d(3, 4, 3, padding=1, padding_mode="reflect", dtype=dt.float64).to(device)
    x2 = RNG.standard_normal((1, 3, 5, 6))
    expected = reference_conv(np.pad(x2, ((0, 0), (0, 0), (1, 1), (1, 1)), "reflect"), to_np(m.weight),
                              to_np(m.bias), (1, 1), ((0, 0), (0, 0)), (1, 1), 1)
    close(m(dt.asarray(x2, device=device)), expected, device)
    assert list(m.state_dict()) == ["weight", "bias"] and m.weight.shape == (4, 3, 3, 3)
    assert repr(m) == "Conv2d(3, 4, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), padding_mode=reflect)"
    bound = 1 / math.sqrt(3 * 9)
    assert float(dt.abs(m.weight).max()) <= bound and float(dt.abs(m.bias).max()) <= bound
    c = nn.Conv1d(4, 2, 3, groups=2, bias=False)
    assert c.weight.shape == (2, 2, 3) and c.bias is None and c(dt.ones((4, 5), dtype=dt.float32)).shape == (2, 3)


def test_conv_refusals():
    x, w = dt.ones((1, 4, 5, 5)), dt.ones((2, 3, 3, 3))
    with pytest.raises(RuntimeError, match="expected input\\[1, 4, 5, 5\\] to have 3 channels, but got 4"):
        F.conv2d(x, w)
    with pytest.raises(RuntimeError, match="Expected 3D \\(unbatched\\) or 4D \\(batched\\) input to conv2d"):
        F.conv2d(dt.ones((5, 5)), w)
    with pytest.raises(RuntimeError, match="Kernel size can't be greater than actual input size"):
        F.conv2d(dt.ones((1, 3, 2, 2)), w)
    mixed = F.conv2d(dt.ones((1, 3, 5, 5), dtype=dt.float64), w.astype(dt.float32))  # promoted, as linear's
    assert mixed.dtype == dt.float64 and float(mixed[0, 0, 0, 0]) == 27.0
    with pytest.raises(RuntimeError, match="padding='same' is not supported for strided convolutions"):
        F.conv2d(dt.ones((1, 3, 5, 5)), w, padding="same", stride=2)
    with pytest.raises(RuntimeError, match="expected bias to be 1-dimensional with 2 elements"):
        F.conv2d(dt.ones((1, 3, 5, 5)), w, dt.ones(3))
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        nn.Conv2d(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match="padding_mode must be one of"):
        nn.Conv2d(3, 4, 3, padding_mode="edge")


def reference_pool(x, k, s, p, reduce, fill, ceil_mode=False, dil=(1, 1)):
    """Windows of x (N, C, H, W) padded by p with fill, reduced by reduce."""
    xp = np.pad(x, ((0, 0), (0, 0), (p[0], p[0] + k[0]), (p[1], p[1] + k[1])), constant_values=fill)
    out = []
    for d in range(2):
        span = x.shape[2 + d] + 2 * p[d] - dil[d] * (k[d] - 1) - 1
        o = (-(-span // s[d]) if ceil_mode else span // s[d]) + 1
        if ceil_mode and (o - 1) * s[d] >= x.shape[2 + d] + p[d]:
            o -= 1
        out.append(o)
    y = np.zeros(x.shape[:2] + tuple(out))
    for i, j in itertools.product(range(out[0]), range(out[1])):
        win = xp[:, :, i * s[0]:i * s[0] + dil[0] * (k[0] - 1) + 1:dil[0], j * s[1]:j * s[1] + dil[1] * (k[1] - 1) + 1:dil[1]]
        y[:, :, i, j] = reduce(win, i, j)
    return y


@pytest.mark.parametrize("k, s, p, ceil_mode, dil", [((3, 3), (2, 2), (1, 1), False, (1, 1)),
                                                    ((2, 3), (2, 1), (0, 1), True, (1, 1)),
                                                    ((3, 2), (3, 2), (1, 0), True, (1, 1)),
                                                    ((2, 2), (1, 1), (0, 0), False, (2, 1))])
def test_max_pool(device, k, s, p, ceil_mode, dil):
    x = RNG.standard_normal((2, 3, 7, 6))
    expected = reference_pool(x, k, s, p, lambda w, i, j: w.max(axis=(2, 3)), -np.inf, ceil_mode, dil)
    v, idx = F.max_pool2d(dt.asarray(x, device=device), k, s, p, dil, ceil_mode, return_indices=True)
    close(v, expected, device)
    flat = x.reshape(2, 3, -1)
    assert np.array_equal(np.take_along_axis(flat, to_np(idx).reshape(2, 3, -1), 2).reshape(v.shape), expected)
    assert idx.dtype == dt.int64
    m = nn.MaxPool2d(k, s, p, dil, ceil_mode=ceil_mode)
    close(m(dt.asarray(x, device=device)), expected, device)


def test_max_pool_1d_3d_and_errors(device):
    x = RNG.standard_normal((2, 3, 8))
    close(F.max_pool1d(dt.asarray(x, device=device), 3, 2), np.stack([x[..., i:i + 3].max(-1) for i in (0, 2, 4)], -1),
          device)
    x3 = RNG.standard_normal((1, 2, 4, 4, 4))
    close(nn.MaxPool3d(2)(dt.asarray(x3, device=device)), x3.reshape(1, 2, 2, 2, 2, 2, 2, 2).max(axis=(3, 5, 7)),
          device)
    with pytest.raises(RuntimeError, match="pad should be at most half of effective kernel size"):
        F.max_pool2d(dt.ones((1, 1, 4, 4)), 2, padding=2)
    with pytest.raises(RuntimeError, match="Output size is too small"):
        F.max_pool2d(dt.ones((1, 1, 1, 1)), 3)


@pytest.mark.parametrize("k, s, p, ceil_mode, include", [((3, 3), (2, 2), (1, 1), False, True),
                                                        ((3, 3), (2, 2), (1, 1), False, False),
                                                        ((2, 3), (2, 2), (1, 1), True, True),
                                                        ((2, 3), (2, 2), (1, 1), True, False)])
def test_avg_pool(device, k, s, p, ceil_mode, include):
    x = RNG.standard_normal((2, 3, 7, 6))
    H, W = x.shape[2:]

    def mean(w, i, j):
        rows = [r for r in range(i * s[0] - p[0], i * s[0] - p[0] + k[0])]
        cols = [c for c in range(j * s[1] - p[1], j * s[1] - p[1] + k[1])]
        lo_r, lo_c = (-p[0], -p[1]) if include else (0, 0)
        hi_r, hi_c = (H + p[0], W + p[1]) if include else (H, W)
        count = sum(lo_r <= r < hi_r for r in rows) * sum(lo_c <= c < hi_c for c in cols)
        return w.sum(axis=(2, 3)) / count

    expected = reference_pool(x, k, s, p, mean, 0.0, ceil_mode)
    r = F.avg_pool2d(dt.asarray(x, device=device), k, s, p, ceil_mode, include)
    close(r, expected, device)
    close(nn.AvgPool2d(k, s, p, ceil_mode, include)(dt.asarray(x, device=device)), expected, device)
    close(F.avg_pool2d(dt.asarray(x, device=device), k, s, p, ceil_mode, include, divisor_override=2),
          reference_pool(x, k, s, p, lambda w, i, j: w.sum(axis=(2, 3)) / 2, 0.0, ceil_mode), device)


def test_avg_pool_refuses_integers():
    with pytest.raises(RuntimeError, match="\"avg_pool2d\" not implemented for 'int64'"):
        F.avg_pool2d(dt.ones((1, 1, 4, 4), dtype=dt.int64), 2)


def test_adaptive_pools(device):
    x = RNG.standard_normal((2, 3, 7, 5))
    t = dt.asarray(x, device=device)

    def ranges(L, o):
        return [(i * L // o, -(-(i + 1) * L // o)) for i in range(o)]

    for (oh, ow) in ((3, 2), (1, 1), (7, 5), (4, 9)):
        avg = np.array([[x[:, :, a:b, c:d].mean(axis=(2, 3)) for (c, d) in ranges(5, ow)] for (a, b) in ranges(7, oh)])
        close(F.adaptive_avg_pool2d(t, (oh, ow)), avg.transpose(2, 3, 0, 1), device)
        mx = np.array([[x[:, :, a:b, c:d].max(axis=(2, 3)) for (c, d) in ranges(5, ow)] for (a, b) in ranges(7, oh)])
        close(nn.AdaptiveMaxPool2d((oh, ow))(t), mx.transpose(2, 3, 0, 1), device)
    close(nn.AdaptiveAvgPool2d((None, 1))(t), x.mean(axis=3, keepdims=True), device)
    close(F.adaptive_avg_pool1d(dt.asarray(x[:, :, 0], device=device), 1), x[:, :, 0].mean(-1, keepdims=True), device)
    for n, shape, size in ((1, (2, 3, 7), 3), (2, (2, 3, 7, 5), (3, 2)), (3, (2, 2, 5, 4, 3), (2, 3, 2))):
        a = RNG.standard_normal(shape)
        a[0, 0].flat[0] = np.nan  # NaN wins, as PyTorch's
        pool = getattr(F, f"adaptive_max_pool{n}d")
        values, where = pool(dt.asarray(a, device=device), size, return_indices=True)
        close(values, to_np(pool(dt.asarray(a, device=device), size)), device, rtol=0, atol=0)
        assert where.dtype == dt.int64 and where.device == values.device
        picked = np.take_along_axis(a.reshape(shape[:2] + (-1,)), to_np(where).reshape(shape[:2] + (-1,)), 2)
        np.testing.assert_array_equal(picked.reshape(values.shape), to_np(values))
        inside = [ranges(length, o) for length, o in zip(shape[2:], values.shape[2:])]
        for cell in np.ndindex(*values.shape[2:]):  # each index lies in its own window
            coords = np.unravel_index(to_np(where)[(slice(None), slice(None)) + cell], shape[2:])
            assert all(((inside[d][cell[d]][0] <= coords[d]) & (coords[d] < inside[d][cell[d]][1])).all()
                       for d in range(n))
    unbatched, where = nn.AdaptiveMaxPool3d(1, return_indices=True)(dt.asarray(x[0, :, :, :, None], device=device))
    assert unbatched.shape == (3, 1, 1, 1) and to_np(where).ravel().tolist() == [
        int(np.argmax(x[0, c])) for c in range(3)]


def test_interpolate(device):
    x = RNG.standard_normal((1, 2, 3, 4))
    t = dt.asarray(x, device=device)
    close(F.interpolate(t, scale_factor=2), x.repeat(2, axis=2).repeat(2, axis=3), device)
    close(F.interpolate(t, size=(2, 3)), x[:, :, [0, 1]][:, :, :, [0, 1, 2]], device)  # floor(i * 3/2), floor(j * 4/3)
    close(F.interpolate(t, size=(2, 3), mode="nearest-exact"), x[:, :, [0, 2]][:, :, :, [0, 2, 3]], device)
    line = dt.arange(4.0, device=device).reshape(1, 1, 4)
    close(F.interpolate(line, scale_factor=2, mode="linear"), [[[0, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3]]], device)
    close(F.interpolate(line, size=7, mode="linear", align_corners=True), [[np.linspace(0, 3, 7)]], device)
    r = F.interpolate(t, size=(5, 7), mode="bilinear", align_corners=True)
    ys, xs = np.linspace(0, 2, 5), np.linspace(0, 3, 7)
    rows = np.array([[np.interp(xs, np.arange(4), x[0, c, i]) for i in range(3)] for c in range(2)])
    expected = np.array([[np.interp(ys, np.arange(3), rows[c][:, j]) for j in range(7)] for c in range(2)])
    close(r, expected.transpose(0, 2, 1)[None], device)
    close(nn.Upsample(scale_factor=2, mode="bilinear")(t), to_np(F.interpolate(t, scale_factor=2, mode="bilinear")),
          device)
    ramp = dt.arange(26.0, device=device).astype(dt.float32).reshape(1, 1, 26)  # PyTorch's float32 index arithmetic
    assert to_np(F.interpolate(ramp, size=22)).ravel()[10:13].tolist() == [11.0, 12.0, 14.0]
    with pytest.raises(ValueError, match="only one of size or scale_factor should be defined"):
        F.interpolate(t)
    with pytest.raises(ValueError, match="align_corners option can only be set with the interpolating modes"):
        F.interpolate(t, scale_factor=2, align_corners=True)
    with pytest.raises(NotImplementedError, match="mode 'lanczos' is not implemented in devtensor"):
        F.interpolate(t, scale_factor=2, mode="lanczos")
    with pytest.raises(NotImplementedError, match="Got 3D input, but bicubic mode needs 4D input"):
        F.interpolate(line, scale_factor=2, mode="bicubic")
    with pytest.raises(RuntimeError, match="\"upsample_area"):
        F.interpolate(dt.ones((1, 1, 4), dtype=dt.int32), size=2, mode="area")


def reference_bicubic(image, size, align_corners):
    """PyTorch's upsample_bicubic2d, one output pixel at a time: Keys' cubic
    convolution (a = -0.75) over the 4 x 4 neighbours, clamped at the edges."""
    def near(v):
        return (1.25 * v - 2.25) * v * v + 1

    def far(v):
        return ((-0.75 * v + 3.75) * v - 6) * v + 3

    def source(i, length, o):
        if align_corners:
            return i * (length - 1) / (o - 1) if o > 1 else 0.0
        return (i + 0.5) * length / o - 0.5

    out = np.zeros(size)
    h, w = image.shape
    for i, j in np.ndindex(*size):
        ry, rx = source(i, h, size[0]), source(j, w, size[1])
        fy, fx = math.floor(ry), math.floor(rx)
        ty, tx = ry - fy, rx - fx
        wy, wx = (far(ty + 1), near(ty), near(1 - ty), far(2 - ty)), (far(tx + 1), near(tx), near(1 - tx), far(2 - tx))
        out[i, j] = sum(wy[a] * wx[b] * image[min(max(fy - 1 + a, 0), h - 1), min(max(fx - 1 + b, 0), w - 1)]
                        for a in range(4) for b in range(4))
    return out


def test_interpolate_bicubic_and_area(device):
    square = dt.arange(1.0, 5.0, device=device).reshape(1, 1, 2, 2)
    close(F.interpolate(square, scale_factor=2, mode="bicubic")[0, 0, 0],  # PyTorch's documented-by-use output
          [0.68359375, 1.015625, 1.5625, 1.89453125], device)
    image = RNG.standard_normal((2, 5, 7))
    t = dt.asarray(image[None], device=device)
    for size, corners in (((9, 4), False), ((3, 13), True), ((12, 12), False), ((5, 7), False)):
        r = F.interpolate(t, size=size, mode="bicubic", align_corners=corners)
        close(r, np.stack([reference_bicubic(image[c], size, corners) for c in range(2)])[None], device)
    half = F.interpolate(t.astype(dt.float16), scale_factor=1.5, mode="bicubic")
    assert half.dtype == dt.float16 and half.shape == (1, 2, 7, 10)
    close(F.interpolate(t, size=(2, 3), mode="area"), to_np(F.adaptive_avg_pool2d(t, (2, 3))), device)
    close(F.interpolate(t, scale_factor=0.5, mode="area"), to_np(F.adaptive_avg_pool2d(t, (2, 3))), device)


def test_a_small_cnn_runs(device):
    net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Conv2d(4, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
    net = net.to(device).eval()
    out = net(dt.ones((5, 1, 12, 12), dtype=dt.float32, device=device))
    assert out.shape == (5, 10) and out.dtype == dt.float32 and out.device == dt.device(device)
    assert np.allclose(to_np(out), to_np(out)[0])  # equal inputs, equal outputs


def test_more_conv_and_pool_refusals():
    x = dt.ones((1, 2, 5, 5))
    w = dt.ones((2, 2, 3, 3))
    with pytest.raises(RuntimeError, match="Invalid padding string: 'full'"):
        F.conv2d(x, w, padding="full")
    with pytest.raises(RuntimeError, match="negative padding is not supported"):
        F.conv2d(x, w, padding=-1)
    with pytest.raises(RuntimeError, match="non-positive stride is not supported"):
        F.conv2d(x, w, stride=0)
    with pytest.raises(RuntimeError, match="dilation should be greater than zero"):
        F.conv2d(x, w, dilation=0)
    with pytest.raises(RuntimeError, match="non-positive groups is not supported"):
        F.conv2d(x, w, groups=0)
    with pytest.raises(RuntimeError, match="weight of conv2d must be 4-dimensional"):
        F.conv2d(x, dt.ones((2, 2, 3)))
    with pytest.raises(RuntimeError, match="expected stride to be a single integer value or a list of 2 values"):
        F.conv2d(x, w, stride=(1, 1, 1))
    with pytest.raises(RuntimeError, match="kernel_size must be greater than zero"):
        F.max_pool2d(x, 0)
    with pytest.raises(RuntimeError, match="stride must be greater than zero"):
        F.avg_pool2d(x, 2, stride=0)
    with pytest.raises(RuntimeError, match="complex input is not supported"):
        F.max_pool1d(dt.ones((1, 1, 4), dtype=dt.complex64), 2)
    with pytest.raises(RuntimeError, match="elements of output_size must be greater than or equal to 0"):
        F.adaptive_avg_pool2d(x, -1)
    with pytest.raises(ValueError, match="Only 3D, 4D and 5D input Tensors supported \\(got 2D\\)"):
        F.interpolate(dt.ones((2, 2)), scale_factor=2)
    with pytest.raises(RuntimeError, match="\"upsample_bilinear2d\" is not implemented for 'int64'"):
        F.interpolate(dt.ones((1, 1, 2, 2), dtype=dt.int64), scale_factor=2, mode="bilinear")
    with pytest.raises(NotImplementedError, match="Got 3D input, but bilinear mode needs 4D input"):
        F.interpolate(dt.ones((1, 1, 2)), scale_factor=2, mode="bilinear")
    with pytest.raises(NotImplementedError, match="antialias=True"):
        F.interpolate(x, scale_factor=2, mode="bilinear", antialias=True)
    with pytest.raises(ValueError, match="Input and scale_factor must have the same number of spatial dimensions"):
        F.interpolate(x, scale_factor=(2, 2, 2))
    with pytest.raises(RuntimeError, match="divisible by the square of upscale_factor"):
        F.pixel_shuffle(dt.ones((1, 3, 2, 2)), 2)
    with pytest.raises(RuntimeError, match="pixel_unshuffle expects height and width to be divisible"):
        F.pixel_unshuffle(dt.ones((1, 1, 3, 4)), 2)
    with pytest.raises(RuntimeError, match="calculated shape of the array of sliding blocks"):
        F.unfold(dt.ones((1, 1, 2, 2)), 3)
    with pytest.raises(ValueError, match="Invalid padding string 'full'"):
        nn.Conv2d(2, 2, 3, padding="full")
    with pytest.raises(ValueError, match="padding='same' is not supported for strided convolutions"):
        nn.Conv2d(2, 2, 3, padding="same", stride=2)
    with pytest.raises(ValueError, match="groups must be a positive integer"):
        nn.Conv1d(2, 2, 3, groups=0)


def reference_conv_transpose(x, w, b, stride, padding, output_padding, dilation, groups):
    """PyTorch's transposed convolution from its definition: every input value
    times the kernel, added into the output at position * stride + tap *
    dilation, then padding cropped from each side."""
    n = w.ndim - 2
    batch, channels = x.shape[:2]
    per_group, og = channels // groups, w.shape[1]
    full = tuple((x.shape[2 + d] - 1) * stride[d] + dilation[d] * (w.shape[2 + d] - 1) + 1 + output_padding[d]
                 for d in range(n))
    y = np.zeros((batch, og * groups) + full)
    for pos in itertools.product(*[range(s) for s in x.shape[2:]]):
        for tap in itertools.product(*[range(k) for k in w.shape[2:]]):
            at = tuple(pos[d] * stride[d] + tap[d] * dilation[d] for d in range(n))
            for c in range(channels):
                g = c // per_group
                y[(slice(None), slice(g * og, (g + 1) * og)) + at] += (
                    x[(slice(None), c) + pos][:, None] * w[(c, slice(None)) + tap][None])
    y = y[(slice(None), slice(None)) + tuple(slice(padding[d], full[d] - padding[d]) for d in range(n))]
    return y if b is None else y + b.reshape((-1,) + (1,) * n)


TRANSPOSED = [  # (input shape, weight shape, stride, padding, output_padding, dilation, groups)
    ((2, 3, 5), (3, 2, 3), (1,), (0,), (0,), (1,), 1),
    ((2, 4, 5), (4, 3, 4), (2,), (1,), (1,), (1,), 2),
    ((2, 4, 4, 3), (4, 2, 3, 2), (2, 3), (1, 0), (1, 2), (1, 1), 1),
    ((1, 2, 3, 4), (2, 3, 2, 3), (1, 2), (2, 1), (0, 1), (2, 2), 2),
    ((1, 2, 2, 3, 2), (2, 1, 2, 2, 3), (2, 1, 2), (0, 0, 1), (1, 0, 0), (1, 1, 1), 1),
]


@pytest.mark.parametrize("case", range(len(TRANSPOSED)))
def test_conv_transpose_against_its_definition(device, case):
    xs, ws, stride, padding, extra, dilation, groups = TRANSPOSED[case]
    n = len(ws) - 2
    x, w, b = RNG.standard_normal(xs), RNG.standard_normal(ws), RNG.standard_normal(ws[1] * groups)
    conv = getattr(F, f"conv_transpose{n}d")
    r = conv(dt.asarray(x, device=device), dt.asarray(w, device=device), dt.asarray(b, device=device), stride,
             padding, extra, groups, dilation)
    close(r, reference_conv_transpose(x, w, b, stride, padding, extra, dilation, groups), device)
    unbatched = conv(dt.asarray(x[0], device=device), dt.asarray(w, device=device), None, stride, padding, extra,
                     groups, dilation)
    close(unbatched, reference_conv_transpose(x[:1], w, None, stride, padding, extra, dilation, groups)[0], device)


def test_conv_transpose_is_the_adjoint_of_conv(device):
    # <conv2d(x), y> == <x, conv_transpose2d(y)> for the same weight and geometry
    x, w = RNG.standard_normal((2, 3, 9, 8)), RNG.standard_normal((5, 3, 3, 3))
    cx = F.conv2d(dt.asarray(x, device=device), dt.asarray(w, device=device), stride=2, padding=1)
    y = RNG.standard_normal(cx.shape)
    ty = F.conv_transpose2d(dt.asarray(y, device=device), dt.asarray(w, device=device), stride=2, padding=1,
                            output_padding=(0, 1))
    assert ty.shape == x.shape
    assert math.isclose(float((to_np(cx) * y).sum()), float((x * to_np(ty)).sum()), rel_tol=1e-12)


def test_conv_transpose_modules(device):
    dt.manual_seed(3)
    m = nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, groups=2, device=device)
    assert m.weight.shape == (4, 3, 3, 3) and m.bias.shape == (6,)
    assert repr(m) == "ConvTranspose2d(4, 6, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), groups=2)"
    bound = 1 / math.sqrt(3 * 9)  # fan_in is weight.shape[1] * kernel, as PyTorch's
    assert float(m.weight.abs().max()) <= bound and float(m.bias.abs().max()) <= bound
    x = dt.asarray(RNG.standard_normal((2, 4, 5, 5)), dtype=dt.float32, device=device)
    assert m(x).shape == (2, 6, 9, 9)
    assert m(x, output_size=(10, 10)).shape == (2, 6, 10, 10) == m(x, output_size=[2, 6, 10, 10]).shape
    expected = F.conv_transpose2d(x, m.weight, m.bias, 2, 1, (1, 0), 2)
    close(m(x, output_size=(10, 9)), to_np(expected), device, rtol=0, atol=0)
    with pytest.raises(ValueError, match=r"requested an output size of \[12, 12\], but valid sizes range from "
                                         r"\[9, 9\] to \[10, 10\] \(for an input of \[5, 5\]\)"):
        m(x, output_size=(12, 12))
    m1 = nn.ConvTranspose1d(3, 2, 4, stride=2, output_padding=1, bias=False)
    assert repr(m1) == "ConvTranspose1d(3, 2, kernel_size=(4,), stride=(2,), output_padding=(1,), bias=False)"
    assert m1(dt.ones((3, 7), dtype=dt.float32)).shape == (2, 17)
    assert nn.ConvTranspose3d(2, 2, 2, stride=2, device=device)(
        dt.ones((1, 2, 3, 3, 3), dtype=dt.float32, device=device)).shape == (1, 2, 6, 6, 6)
    with pytest.raises(ValueError, match='Only "zeros" padding mode is supported for ConvTranspose2d'):
        nn.ConvTranspose2d(2, 2, 3, padding_mode="reflect")


def test_conv_transpose_refusals():
    x, w = dt.ones((1, 4, 3, 3)), dt.ones((4, 2, 3, 3))
    with pytest.raises(RuntimeError, match="output padding must be smaller than either stride or dilation"):
        F.conv_transpose2d(x, w, stride=2, output_padding=2)
    with pytest.raises(RuntimeError, match="expected weight to be divisible by 3 at dimension 0"):
        F.conv_transpose2d(x, w, groups=3)
    with pytest.raises(RuntimeError, match=r"expected input\[1, 3, 3, 3\] to have 4 channels, but got 3"):
        F.conv_transpose2d(dt.ones((1, 3, 3, 3)), w)
    with pytest.raises(RuntimeError, match="expected bias to be 1-dimensional with 2 elements"):
        F.conv_transpose2d(x, w, dt.ones(3))
    with pytest.raises(RuntimeError, match="negative padding is not supported"):
        F.conv_transpose2d(x, w, padding=-1)
    with pytest.raises(RuntimeError, match="Output size is too small"):
        F.conv_transpose2d(x, dt.ones((4, 2, 1, 1)), padding=2)
    with pytest.raises(RuntimeError, match=r"Expected 3D \(unbatched\) or 4D \(batched\) input to "
                                           r"conv_transpose2d"):
        F.conv_transpose2d(dt.ones((4, 3)), w)


def test_fold_is_the_adjoint_of_unfold(device):
    x = RNG.standard_normal((2, 3, 7, 6))
    geometry = dict(kernel_size=(3, 2), padding=1, stride=(2, 1), dilation=(1, 2))
    cols = F.unfold(dt.asarray(x, device=device), **geometry)
    y = RNG.standard_normal(cols.shape)
    folded = F.fold(dt.asarray(y, device=device), (7, 6), **geometry)
    assert folded.shape == x.shape
    assert math.isclose(float((to_np(cols) * y).sum()), float((x * to_np(folded)).sum()), rel_tol=1e-12)
    # fold(unfold(x)) is x times the number of windows covering each position
    counts = F.fold(F.unfold(dt.ones((1, 1, 7, 6), dtype=dt.float64, device=device), **geometry), (7, 6),
                    **geometry)
    close(F.fold(cols, (7, 6), **geometry), x * to_np(counts), device)
    close(nn.Fold((7, 6), **geometry)(cols[0]), (x * to_np(counts))[0], device)
    assert repr(nn.Unfold(2)) == "Unfold(kernel_size=2, dilation=1, padding=0, stride=1)"
    with pytest.raises(RuntimeError, match=r"expected size of input's dimension 2 to match the calculated number "
                                           r"of sliding blocks 4 \* 6 = 24, but got input.size\(2\)=17"):
        F.fold(dt.ones((1, 6, 17)), (7, 6), **geometry)
    with pytest.raises(RuntimeError, match="divisible by the product of kernel_size"):
        F.fold(dt.ones((1, 5, 24)), (7, 6), **geometry)


def test_pools_with_indices_of_empty_batches_and_string_padding(device):
    for pool, x, size in ((F.adaptive_max_pool2d, dt.zeros((0, 3, 5, 5), device=device), 2),
                          (F.adaptive_max_pool1d, dt.zeros((2, 0, 5), device=device), 2),
                          (F.max_pool2d, dt.zeros((0, 2, 4, 4), device=device), 2)):
        values, where = pool(x, size, return_indices=True)
        assert values.size == 0 and values.shape == where.shape and where.dtype == dt.int64
    assert F.max_pool2d(dt.zeros((0, 2, 4, 4), device=device), 2, return_indices=True)[1].shape == (0, 2, 2, 2)
    with pytest.raises(TypeError, match="conv_transpose2d: padding must be an int or a tuple of ints"):
        F.conv_transpose2d(dt.ones((1, 2, 3, 3), device=device), dt.ones((2, 2, 3, 3), device=device),
                           padding="same")


def test_max_unpool_inverts_max_pool_where_the_maxima_were(device):
    for n, shape in ((1, (2, 3, 7)), (2, (2, 3, 6, 5)), (3, (1, 2, 4, 4, 6))):
        a = RNG.standard_normal(shape)
        x = dt.asarray(a, device=device)
        values, where = getattr(F, f"max_pool{n}d")(x, 2, return_indices=True)
        back = getattr(F, f"max_unpool{n}d")(values, where, 2, output_size=shape)
        assert back.shape == shape and back.device == x.device
        b = to_np(back)
        kept = b != 0
        np.testing.assert_array_equal(b[kept], a[kept])  # each maximum in its place
        assert kept.sum() == values.size  # zeros everywhere else
        flat = b.reshape(shape[:2] + (-1,))
        np.testing.assert_array_equal(np.take_along_axis(flat, to_np(where).reshape(shape[:2] + (-1,)), 2),
                                      to_np(values).reshape(shape[:2] + (-1,)))
    m = nn.MaxUnpool2d(2)
    assert repr(m) == "MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))"
    x = dt.asarray(RNG.standard_normal((2, 3, 4, 6)), device=device)
    values, where = nn.MaxPool2d(2, return_indices=True)(x)
    assert m(values, where).shape == (2, 3, 4, 6) and m(values[0], where[0]).shape == (3, 4, 6)
    with pytest.raises(RuntimeError, match="found an invalid max index"):
        m(values, where * 100)
    with pytest.raises(RuntimeError, match="expected indices of the input's shape"):
        m(values, where[:, :1])


def test_fold_and_unpool_argument_refusals():
    with pytest.raises(RuntimeError, match="fold: kernel_size, dilation and stride must be positive"):
        F.fold(dt.ones((1, 4, 4)), (3, 3), 2, stride=0)
    with pytest.raises(RuntimeError, match="Expected 2D or 3D \\(batch mode\\) tensor for input"):
        F.fold(dt.ones(4), (3, 3), 2)
    with pytest.raises(ValueError, match="max_unpool2d: output_size must have 2 or 4 elements, got \\[5\\]"):
        F.max_unpool2d(dt.ones((1, 1, 2, 2)), dt.zeros((1, 1, 2, 2), dtype=dt.int64), 2, output_size=[5])
    with pytest.raises(ValueError, match="ConvTranspose2D: for 4D input, output_size must have 2 or 4 elements"):
        nn.ConvTranspose2d(1, 1, 2)(dt.ones((1, 1, 2, 2), dtype=dt.float32), output_size=[3])


# ---- fractional max pooling, channel shuffle ----
def _fractional_reference(x, kernel, out, samples):
    """Loops over each plane and window, the starts from PyTorch's formula in
    the input's dtype (sample 0 for W and 1 for H in 2-D; D, H, W in 3-D)."""
    n = len(kernel)
    order = (1, 0) if n == 2 else (0, 1, 2)
    dtype = x.dtype.type
    values = np.empty(x.shape[:2] + out, x.dtype)
    indices = np.empty(x.shape[:2] + out, np.int64)
    for b, c in np.ndindex(*x.shape[:2]):
        starts = []
        for d in range(n):
            u, length, k, o = dtype(samples[b, c, order[d]]), x.shape[2 + d], kernel[d], out[d]
            seq = [length - k] * o
            if o > 1:
                alpha = dtype(length - k) / dtype(o - 1)
                for i in range(o - 1):
                    seq[i] = int((dtype(i) + u) * alpha) - int(u * alpha)
            starts.append(seq)
        for pos in np.ndindex(*out):
            lo = [starts[d][pos[d]] for d in range(n)]
            window = x[(b, c) + tuple(slice(s, s + k) for s, k in zip(lo, kernel))]
            a = int(np.argmax(window))
            local = np.unravel_index(a, kernel)
            values[(b, c) + pos] = window[local]
            indices[(b, c) + pos] = np.ravel_multi_index(tuple(s + l for s, l in zip(lo, local)), x.shape[2:])
    return values, indices


@pytest.mark.parametrize("n, shape, kernel, out", [(2, (2, 3, 10, 9), (3, 2), (4, 5)), (2, (1, 2, 5, 5), 2, (4, 4)),
                                                   (2, (1, 1, 6, 7), 3, (1, 2)),
                                                   (3, (1, 2, 7, 6, 8), 2, (3, 4, 2))])
def test_fractional_max_pool_against_loops(n, shape, kernel, out, device):
    rng = np.random.default_rng(21)
    for dtype in (np.float64, np.float32):
        x = rng.standard_normal(shape).astype(dtype)
        samples = rng.random(shape[:2] + (n,)).astype(dtype)
        samples[0, 0] = [0.0] * n if n == 2 else [0.999, 0.0, 0.5]
        want_v, want_i = _fractional_reference(x, _tuple(kernel, n, "kernel_size"), out, samples)
        f = getattr(F, f"fractional_max_pool{n}d")
        got_v, got_i = f(dt.asarray(x, device=device), kernel, output_size=out, return_indices=True,
                         _random_samples=dt.asarray(samples, device=device))
        np.testing.assert_array_equal(to_np(got_v), want_v)
        np.testing.assert_array_equal(to_np(got_i), want_i)
        assert got_i.dtype == dt.int64 and got_v.device == dt.device(device)
        unbatched = f(dt.asarray(x[0], device=device), kernel, output_size=out,
                      _random_samples=dt.asarray(samples[:1], device=device))
        np.testing.assert_array_equal(to_np(unbatched), want_v[0])
    m = getattr(nn, f"FractionalMaxPool{n}d")(kernel, output_ratio=0.5)
    drawn = m(dt.asarray(rng.standard_normal(shape), device=device))
    assert drawn.shape == shape[:2] + tuple(int(s * 0.5) for s in shape[2:])


def test_fractional_max_pool_errors_and_draws(device):
    x = dt.asarray(np.random.default_rng(3).standard_normal((4, 5, 9, 9)), device=device)
    a, b = F.fractional_max_pool2d(x, 2, output_size=5), F.fractional_max_pool2d(x, 2, output_size=5)
    assert a.shape == (4, 5, 5, 5) and not np.array_equal(to_np(a), to_np(b))  # fresh draws a call
    with pytest.raises(ValueError, match="requires specifying either an output size, or a pooling ratio"):
        nn.FractionalMaxPool2d(2)
    with pytest.raises(ValueError, match=r"output_ratio must be between 0 and 1 \(got 1.5\)"):
        nn.FractionalMaxPool2d(2, output_ratio=1.5)
    with pytest.raises(RuntimeError, match="need an input of at least 10 along spatial dim 0, got 9"):
        F.fractional_max_pool2d(x, 2, output_size=9)
    with pytest.raises(RuntimeError, match=r"expected _random_samples of shape \[4, 5, 2\]"):
        F.fractional_max_pool2d(x, 2, output_size=4, _random_samples=dt.zeros((4, 5, 3), device=device))
    if device != "cpu":  # the samples on another device: PyTorch's error, no copy behind the caller's back
        with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
            F.fractional_max_pool2d(x, 2, output_size=4, _random_samples=dt.zeros((4, 5, 2)))
    with pytest.raises(RuntimeError, match="\"fractional_max_pool2d\" not implemented for 'int64'"):
        F.fractional_max_pool2d(dt.ones((1, 1, 4, 4), dtype=dt.int64, device=device), 2, output_size=2)


def test_channel_shuffle(device):
    x = np.arange(2 * 12 * 3).reshape(2, 12, 3)
    got = F.channel_shuffle(dt.asarray(x, device=device), 3)
    np.testing.assert_array_equal(to_np(got), x.reshape(2, 3, 4, 3).transpose(0, 2, 1, 3).reshape(2, 12, 3))
    m = nn.ChannelShuffle(4)
    assert repr(m) == "ChannelShuffle(groups=4)"
    np.testing.assert_array_equal(to_np(m(dt.asarray(x, device=device))),
                                  x.reshape(2, 4, 3, 3).transpose(0, 2, 1, 3).reshape(2, 12, 3))
    with pytest.raises(RuntimeError,
                       match="Number of channels must be divisible by groups. Got 12 channels and 5 groups."):
        F.channel_shuffle(dt.asarray(x, device=device), 5)
    with pytest.raises(RuntimeError, match="at least 3 dimensions"):
        F.channel_shuffle(dt.ones((2, 4), device=device), 2)
