"""devtensor.nn's padding modules (ZeroPad, ConstantPad, ReflectionPad,
ReplicationPad, CircularPad in 1, 2 and 3 dims) against numpy.pad, on every
device."""
import numpy as np
import pytest

import devtensor as dt
from devtensor import nn
from helpers import assert_same

NP_MODE = {"Reflection": "reflect", "Replication": "edge", "Circular": "wrap"}


def np_widths(padding, ndim):
    """numpy.pad's widths for PyTorch's padding ((left, right) from the last dim backwards)."""
    widths = [(0, 0)] * ndim
    for i in range(len(padding) // 2):
        widths[ndim - 1 - i] = (padding[2 * i], padding[2 * i + 1])
    return widths


def sample(shape, dtype=np.float32):
    return (np.arange(int(np.prod(shape))) * 3 % 17 - 5).astype(dtype).reshape(shape)


CASES = [  # (n, padding, input shapes: unbatched and batched)
    (1, 2, [(3, 5), (2, 3, 5)]),
    (1, (3, 1), [(2, 4), (2, 2, 4)]),
    (2, 1, [(2, 3, 4), (2, 2, 3, 4)]),
    (2, (1, 2, 0, 2), [(1, 3, 4), (2, 1, 3, 4)]),
    (3, 1, [(1, 2, 3, 4), (2, 1, 2, 3, 4)]),
    (3, (0, 1, 2, 1, 1, 0), [(2, 3, 3, 4), (1, 2, 3, 3, 4)]),
]


@pytest.mark.parametrize("kind", ["Reflection", "Replication", "Circular"])
@pytest.mark.parametrize("n,padding,shapes", CASES)
def test_non_constant_padding_matches_numpy(device, kind, n, padding, shapes):
    module = getattr(nn, f"{kind}Pad{n}d")(padding)
    widths = (padding,) * (2 * n) if isinstance(padding, int) else padding
    assert module.padding == widths
    for shape in shapes:
        x = sample(shape)
        expected = np.pad(x, np_widths(widths, x.ndim), NP_MODE[kind])
        assert_same(module(dt.asarray(x, device=device)), expected, device)


@pytest.mark.parametrize("n,padding,shapes", CASES)
def test_zero_and_constant_padding_match_numpy(device, n, padding, shapes):
    widths = (padding,) * (2 * n) if isinstance(padding, int) else padding
    for shape in shapes:
        x = sample(shape)
        t = dt.asarray(x, device=device)
        assert_same(getattr(nn, f"ZeroPad{n}d")(padding)(t), np.pad(x, np_widths(widths, x.ndim)), device)
        expected = np.pad(x, np_widths(widths, x.ndim), constant_values=-2.5)
        assert_same(getattr(nn, f"ConstantPad{n}d")(padding, -2.5)(t), expected, device)


def test_known_values_and_dtypes(device):
    x = dt.arange(8, device=device).reshape(1, 2, 4)  # int64 stays int64
    assert nn.ReflectionPad1d(2)(x).tolist() == [[[2, 1, 0, 1, 2, 3, 2, 1], [6, 5, 4, 5, 6, 7, 6, 5]]]
    assert nn.ReplicationPad1d((3, 1))(x).tolist() == [[[0, 0, 0, 0, 1, 2, 3, 3], [4, 4, 4, 4, 5, 6, 7, 7]]]
    assert nn.CircularPad1d((1, 2))(x).tolist() == [[[3, 0, 1, 2, 3, 0, 1], [7, 4, 5, 6, 7, 4, 5]]]
    assert nn.ConstantPad1d((1, 0), 9)(x).tolist() == [[[9, 0, 1, 2, 3], [9, 4, 5, 6, 7]]]
    y = nn.ZeroPad2d((1, 0, 0, 1))(dt.ones((2, 2), dtype=dt.int32, device=device))
    assert y.dtype == dt.int32 and y.device == dt.device(device)
    assert y.tolist() == [[0, 1, 1], [0, 1, 1], [0, 0, 0]]
    z = nn.ConstantPad2d(1, 3.5)(dt.zeros((1, 1, 1), device=device))
    assert z.dtype == dt.float64 and z.tolist() == [[[3.5, 3.5, 3.5], [3.5, 0.0, 3.5], [3.5, 3.5, 3.5]]]


def test_negative_constant_padding_crops(device):
    x = sample((2, 3, 5))
    out = nn.ZeroPad2d((-1, 2, 1, -2))(dt.asarray(x, device=device))
    expected = np.pad(x[:, :-2, 1:], [(0, 0), (1, 0), (0, 2)])
    assert_same(out, expected, device)
    assert nn.ConstantPad1d((-2, -1), 0.0)(dt.asarray(x, device=device)).shape == (2, 3, 2)


def test_reprs():
    assert repr(nn.ZeroPad2d((1, 1, 2, 0))) == "ZeroPad2d((1, 1, 2, 0))"
    assert repr(nn.ZeroPad1d(2)) == "ZeroPad1d((2, 2))"
    assert repr(nn.ZeroPad3d(1)) == "ZeroPad3d((1, 1, 1, 1, 1, 1))"
    assert repr(nn.ConstantPad1d(2, 3.5)) == "ConstantPad1d(padding=(2, 2), value=3.5)"
    assert repr(nn.ConstantPad2d((3, 0, 2, 1), 3.5)) == "ConstantPad2d(padding=(3, 0, 2, 1), value=3.5)"
    assert repr(nn.ConstantPad3d(1, -1)) == "ConstantPad3d(padding=(1, 1, 1, 1, 1, 1), value=-1)"
    assert repr(nn.ReflectionPad2d(1)) == "ReflectionPad2d((1, 1, 1, 1))"
    assert repr(nn.ReplicationPad1d((3, 1))) == "ReplicationPad1d((3, 1))"
    assert repr(nn.CircularPad3d(2)) == "CircularPad3d((2, 2, 2, 2, 2, 2))"
    assert nn.ZeroPad2d(1).value == 0.0 and isinstance(nn.ZeroPad2d(1), nn.ConstantPad2d)
    seq = nn.Sequential(nn.ReflectionPad2d(1), nn.ZeroPad2d(1))
    assert "(0): ReflectionPad2d((1, 1, 1, 1))" in repr(seq)


def test_input_dimension_checks(device):
    x2 = dt.ones((3, 3), device=device)
    x5 = dt.ones((1, 1, 2, 2, 2), device=device)
    with pytest.raises(ValueError, match=r"expected 3D or 4D input \(got 2D input\)"):
        nn.CircularPad2d(1)(x2)
    with pytest.raises(ValueError, match=r"expected 2D or 3D input \(got 5D input\)"):
        nn.CircularPad1d(1)(x5)
    with pytest.raises(ValueError, match=r"expected 4D or 5D input \(got 2D input\)"):
        nn.CircularPad3d(1)(x2)
    for module in (nn.ReflectionPad2d(1), nn.ReplicationPad2d(1)):
        name = type(module).__name__
        with pytest.raises(ValueError, match=name + r": expected 3D or 4D input \(got 2D input\)"):
            module(x2)
        with pytest.raises(ValueError, match=name + r": expected 3D or 4D input \(got 5D input\)"):
            module(x5)
    with pytest.raises(ValueError, match=r"ReflectionPad1d: expected 2D or 3D input \(got 1D input\)"):
        nn.ReflectionPad1d(1)(dt.ones((4,), device=device))
    with pytest.raises(NotImplementedError, match="Only 2D, 3D, 4D, 5D padding with non-constant padding"):
        nn.ReflectionPad2d((1,) * 8)(dt.ones((1, 2, 3, 3), device=device))  # 8 widths
    # constant padding takes any input with enough dims
    assert nn.ZeroPad2d(1)(x2).shape == (5, 5) and nn.ConstantPad1d(1, 2.0)(x5).shape == (1, 1, 2, 2, 4)
    with pytest.raises(RuntimeError, match="Padding length should be less than or equal to two times"):
        nn.ZeroPad3d(1)(x2)


def test_padding_size_errors(device):
    x = dt.ones((1, 2, 3), device=device)
    with pytest.raises(RuntimeError, match="Padding size should be less than the corresponding input dimension"):
        nn.ReflectionPad1d(3)(x)
    with pytest.raises(RuntimeError, match="wrapping around more than once"):
        nn.CircularPad1d(4)(x)
    with pytest.raises(RuntimeError, match="Padding length must be divisible by 2"):
        nn.ZeroPad1d((1, 2, 3))(x)
    # a tuple is kept as given (PyTorch's _ntuple): two widths pad the last dim only
    assert nn.ReflectionPad2d((1, 1))(x).tolist() == [[[1.0] * 5] * 2]
