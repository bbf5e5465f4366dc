"""NumPy's small utilities on tensors (devtensor/_utilities.py) against NumPy:
isclose, allclose, array_equal, array_equiv, isscalar, ndim, shape, size,
iterable, copyto, the floating-point error settings and the print options."""
import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, same_error, to_np

SPECIAL = [1.0, np.nan, np.inf, -np.inf, 1e-9, 100.0, 0.0, -0.0]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int64", "bool"])
def test_isclose_and_allclose(device, dtype):
    if dtype == "bool":
        a, b = np.array([True, False, True]), np.array([True, True, True])
    elif dtype == "int64":
        a = np.array([0, 5, -2 ** 63, 2 ** 62], dtype=dtype)
        b = np.array([0, 6, -2 ** 63, 2 ** 62 + 1], dtype=dtype)
    else:
        a = np.array(SPECIAL, dtype=dtype)
        b = np.array([1.0 + 1e-6, np.nan, np.inf, np.inf, 0.0, 100.001, -0.0, 1e-300],
                     dtype=dtype)
    t = dt.asarray(a, device=device)
    for kw in ({}, {"equal_nan": True}, {"rtol": 0.0, "atol": 1e-3}, {"rtol": 1e-2}):
        assert_same(dt.isclose(t, b, **kw), np.isclose(a, b, **kw), device)
        assert_same(dt.isclose(b, t, **kw), np.isclose(b, a, **kw), device)  # not symmetric
        assert dt.allclose(t, b, **kw) is np.allclose(a, b, **kw)
    assert_same(dt.isclose(t, a[0]), np.isclose(a, a[0]), device)  # broadcast scalar
    # a Python b stays weak (NEP 50): a float32 a is compared in float32, as NumPy's
    for b_ in (1 + 1e-9, 1, True, np.inf, -np.inf, np.nan, 0, 1j, 1e-8):
        for kw in ({}, {"rtol": 0, "atol": 0}, {"equal_nan": True}):
            with np.errstate(all="ignore"):
                assert_same(dt.isclose(t, b_, **kw), np.isclose(a, b_, **kw), device)
    assert dt.allclose(t, t, equal_nan=True)


@pytest.mark.skipif(not dt.cuda.is_available(), reason="needs (emulated) CUDA devices")
def test_comparisons_of_tensors_on_two_devices_are_refused():
    """As every operation: tensors on two devices are PyTorch's error (they
    were copied over quietly); data and a 0-d CPU tensor go to the tensor's."""
    c = dt.ones(2, device="cuda:0")
    others = [dt.ones(2)] + ([c.to("cuda:1")] if dt.cuda.device_count() > 1 else [])
    for other in others:
        for call in (dt.isclose, dt.allclose, dt.array_equal, dt.array_equiv):
            with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
                call(c, other)
            with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
                call(other, c)
    assert dt.allclose(c, [1.0, 1.0]) and dt.allclose(c, np.ones(2)) and dt.allclose(c, dt.asarray(1.0))
    assert dt.array_equal(c, np.ones(2)) and not dt.array_equal(c, dt.ones(3, device="cuda:0"))


def test_isclose_of_plain_python_data():
    assert_same(dt.isclose([1.0, 2.0], 1.0), np.isclose([1.0, 2.0], 1.0))
    assert dt.allclose(1.0, 1.0 + 1e-9) is True


@pytest.mark.parametrize("equal_nan", [False, True])
def test_array_equal_and_equiv(device, equal_nan):
    a = np.array([[1.0, np.nan], [3.0, 4.0]])
    t = dt.asarray(a, device=device)
    cases = [(t, a), (t, a.copy()), (t, a[:1]), (t, a.astype(np.float32)),
             (t, np.array([[1.0, 2.0], [3.0, 4.0]])), (t, [1.0, np.nan]), (t, a.T)]
    for x, y in cases:
        ny = y if not isinstance(y, dt.Tensor) else to_np(y)
        assert dt.array_equal(x, y, equal_nan=equal_nan) is np.array_equal(a, ny,
                                                                          equal_nan=equal_nan)
    i = dt.asarray([[1, 2], [1, 2]], device=device)
    assert dt.array_equal(i, i, equal_nan=equal_nan) is True  # integers have no NaN
    assert dt.array_equiv(i, [1, 2]) is np.array_equiv([[1, 2], [1, 2]], [1, 2]) is True
    assert dt.array_equiv(i, [1, 2, 3]) is np.array_equiv([[1, 2], [1, 2]], [1, 2, 3]) is False
    assert dt.array_equiv(i, [[1, 3]]) is False
    assert dt.array_equal(i, [1, 2]) is False


def test_shape_helpers(device):
    t = dt.ones((2, 3, 4), device=device)
    assert dt.ndim(t) == 3 and dt.shape(t) == (2, 3, 4) and dt.size(t) == 24
    assert dt.size(t, 1) == 3 and dt.size(t, -1) == 4
    with pytest.raises(np.exceptions.AxisError, match="axis 3 is out of bounds for array of "
                                                       "dimension 3"):
        dt.size(t, 3)
    assert dt.ndim([[1, 2]]) == 2 and dt.shape([[1, 2]]) == (1, 2) and dt.size([[1, 2]], 1) == 2
    assert dt.isscalar(3.0) and dt.isscalar(np.float32(1)) and dt.isscalar("a")
    assert not dt.isscalar(dt.asarray(1.0)) and not dt.isscalar([1]) and not dt.isscalar(t)
    assert dt.iterable(t) and dt.iterable([1]) and not dt.iterable(dt.asarray(1.0))
    assert not dt.iterable(3)


@pytest.mark.parametrize("value", [5, 1000, -129, 2.5, 3j, True, [1.5, 2, 3], [1, 2],
                                   [[1, 2, 3]] * 2, np.float64(2.5), np.int16(7), -1.5, 300.7, 1e20,
                                   np.float32(-200.5), float("nan"), -7.5 + 1j])
@pytest.mark.parametrize("casting", ["same_kind", "unsafe", "safe", "no"])
def test_copyto_against_numpy(device, value, casting):
    a = np.zeros(3, np.int8)
    t = dt.zeros(3, dtype=dt.int8, device=device)
    try:
        with np.errstate(invalid="ignore"):  # NumPy's warning for NaN and 1e20 into int8
            np.copyto(a, value, casting=casting)
    except Exception:
        same_error(lambda: np.copyto(np.zeros(3, np.int8), value, casting=casting),
                   lambda: dt.copyto(t, value, casting=casting))
        assert to_np(t).tolist() == [0, 0, 0]  # nothing written
        return
    dt.copyto(t, value, casting=casting)
    assert_same(t, a, device)
    if casting == "unsafe":  # under a mask too (an out-of-range float wraps as NumPy's C cast does)
        mask = np.array([True, False, True])
        a2, t2 = np.zeros(3, np.int8), dt.zeros(3, dtype=dt.int8, device=device)
        with np.errstate(invalid="ignore"):
            np.copyto(a2, value, casting=casting, where=mask)
        dt.copyto(t2, value, casting=casting, where=dt.asarray(mask, device=device))
        assert_same(t2, a2, device)


def test_copyto_tensors_and_where(device):
    t = dt.zeros((2, 3), device=device)
    src = dt.arange(3.0, device=device)
    dt.copyto(t, src, where=[[True, False, True], [False, True, False]])
    a = np.zeros((2, 3))
    np.copyto(a, np.arange(3.0), where=[[True, False, True], [False, True, False]])
    assert_same(t, a, device)
    dt.copyto(t, 7, where=dt.asarray([True, False, False], device=device))
    np.copyto(a, 7, where=[True, False, False])
    assert_same(t, a, device)
    same_error(lambda: np.copyto(np.zeros(3), np.ones(3), where=np.array([1, 0, 1])),
               lambda: dt.copyto(dt.zeros(3, device=device), dt.ones(3, device=device),
                                 where=dt.asarray([1, 0, 1], device=device)))
    u = dt.zeros(3, device=device)
    dt.copyto(u, 2.0, where=[1, 0, 1])  # a list is read as bool
    assert to_np(u).tolist() == [2.0, 0.0, 2.0]
    with pytest.raises(TypeError, match="argument 1 must be a devtensor.Tensor"):
        dt.copyto(np.zeros(3), t)
    same_error(lambda: np.copyto(np.zeros(3, np.float32), np.ones(3), casting="safe"),
               lambda: dt.copyto(dt.zeros(3, dtype=dt.float32, device=device),
                                 dt.ones(3, device=device), casting="safe"))


def test_several_values_into_a_0d_tensor_are_numpy_s_broadcast_error(device):
    """copyto and full into a 0-d tensor say NumPy's copyto words; only
    setitem says 'setting an array element with a sequence.'"""
    same_error(lambda: np.copyto(np.zeros(()), np.array([1.0, 2.0])),
               lambda: dt.copyto(dt.zeros((), device=device), dt.asarray([1.0, 2.0], device=device)))
    same_error(lambda: np.full((), [1, 2]), lambda: dt.full((), [1, 2], device=device))
    same_error(lambda: np.zeros(3).__setitem__(0, [1, 2]),
               lambda: dt.zeros(3, device=device).__setitem__(0, [1, 2]))


def test_copyto_one_value_under_a_mask_of_dst_s_shape(device):
    """copyto(dst, number, where=mask) with mask shaped as dst (boolean
    assignment underneath): NumPy's values and errors, for each dtype kind."""
    rng = np.random.default_rng(4)
    mask_np = rng.random((3, 4)) > 0.5
    mask = dt.asarray(mask_np, device=device)
    for dtype in ("uint8", "int32", "float32", "float64", "complex64", "bool"):
        for value in (3, -1, 300, 2.5, 1 + 2j, True):
            a = np.zeros((3, 4), dtype)
            t = dt.zeros((3, 4), dtype=dtype, device=device)
            try:
                np.copyto(a, value, where=mask_np)
            except Exception as e:
                with pytest.raises(type(e)) as got:
                    dt.copyto(t, value, where=mask)
                assert str(got.value) == str(e) or "out of bounds" in str(e)
                assert not to_np(t).any()  # nothing written
                continue
            dt.copyto(t, value, where=mask)
            assert_same(t, a, device)


@pytest.mark.parametrize("dst_shape, src_shape, mask_shape", [
    ((2, 3), None, (3, 2, 3)), ((2, 3), (4,), (2, 3)), ((3,), (1, 1, 3), (3,)), ((3,), (2, 1, 3), (3,)),
    ((3,), None, (1, 3)), ((3,), (), (3,)), ((), (3,), ()), ((2, 3), (2, 1), (1, 3))])
def test_copyto_broadcasting_with_where(device, dst_shape, src_shape, mask_shape):
    """A source and a mask broadcast to dst as NumPy's copyto has them (a
    source may have extra leading length-1 axes, a mask may not), with
    NumPy's error text otherwise and nothing written."""
    rng = np.random.default_rng(len(dst_shape) + 10 * len(mask_shape))
    src = 7.5 if src_shape is None else rng.standard_normal(src_shape)
    mask = rng.random(mask_shape) < 0.5
    a = np.zeros(dst_shape)
    t = dt.zeros(dst_shape, device=device)
    tsrc = src if src_shape is None else dt.asarray(src, device=device)
    try:
        np.copyto(a, src, where=mask)
    except ValueError:
        same_error(lambda: np.copyto(np.zeros(dst_shape), src, where=mask),
                   lambda: dt.copyto(t, tsrc, where=dt.asarray(mask, device=device)))
        assert not to_np(t).any()
        return
    dt.copyto(t, tsrc, where=dt.asarray(mask, device=device))
    assert_same(t, a, device)


def test_copyto_where_from_an_overlapping_view(device):
    a = np.arange(8.0)
    t = dt.arange(8.0, device=device)
    np.copyto(a[1:], a[:-1], where=np.arange(7) % 2 == 0)
    dt.copyto(t[1:], t[:-1], where=dt.arange(7, device=device) % 2 == 0)
    assert_same(t, a, device)


def test_error_settings():
    before = dt.geterr()
    assert before == {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
    old = dt.seterr(all="ignore")
    assert old == before and set(dt.geterr().values()) == {"ignore"}
    dt.seterr(**old)
    with dt.errstate(divide="raise", under="warn"):
        assert dt.geterr()["divide"] == "raise" and dt.geterr()["under"] == "warn"
        (dt.ones(2) / 0)  # settings are kept, never acted on: no FloatingPointError
    assert dt.geterr() == before

    @dt.errstate(invalid="ignore")
    def inside():
        return dt.geterr()["invalid"]
    assert inside() == "ignore" and dt.geterr() == before
    with pytest.raises(ValueError, match="invalid error mode 'bad' for divide"):
        dt.seterr(divide="bad")
    assert dt.geterr() == before
    assert np.geterr()["divide"] == "warn"  # NumPy's own settings are untouched


def test_print_options():
    t = dt.asarray([1.23456789, 1e-9, np.nan])
    assert repr(t) == "tensor([1.23456789e+00, 1.00000000e-09,            nan])"
    with dt.printoptions(precision=3, suppress=True, nanstr="NaN") as opts:
        assert opts["precision"] == 3
        assert repr(t) == "tensor([1.235, 0.   ,   NaN])"
    assert repr(t) == "tensor([1.23456789e+00, 1.00000000e-09,            nan])"
    big = dt.arange(2000)
    assert "..." in repr(big)
    with dt.printoptions(threshold=5000):
        assert "..." not in repr(big)
    with dt.printoptions(edgeitems=1):
        assert repr(big) == "tensor([   0, ..., 1999])"
    dt.set_printoptions(linewidth=20)
    try:
        assert repr(dt.arange(10)).count("\n") >= 2
        assert dt.get_printoptions()["linewidth"] == 20
    finally:
        dt.set_printoptions(linewidth=75)
    with pytest.raises((TypeError, ValueError)):
        dt.set_printoptions(precision="x")
    with pytest.raises(ValueError):
        dt.set_printoptions(sign="?")
    assert dt.get_printoptions()["precision"] == 8 and dt.get_printoptions()["sign"] == "-"
    assert np.get_printoptions()["precision"] == 8  # NumPy's own options are untouched


def test_array_equal_of_data_that_is_not_numbers():
    """NumPy string and datetime arrays are no tensors: array_equal and
    array_equiv give NumPy's answer (they returned False, a silent wrong
    answer, for equal strings)."""
    s = np.array(["a", "b"])
    assert dt.array_equal(s, s) is True and dt.array_equiv(s, s) is True
    assert dt.array_equal(["x"], ["x"]) is True and dt.array_equal(s, np.array(["a", "c"])) is False
    d = np.array(["2024-01-01"], dtype="datetime64[D]")
    assert dt.array_equal(d, d) is True
    assert dt.array_equal(s, dt.arange(2)) is False  # a tensor beside strings: not equal
    assert dt.array_equiv([1, 2], [[1, 2]]) is True and dt.array_equal([1, 2], [1, 2, 3]) is False
