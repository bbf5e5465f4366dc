"""NumPy's functions applied to tensors (__array_function__, Note [NumPy
functions on tensors]): devtensor's own function on the tensors' device, NumPy's
on zero-copy views for CPU tensors where devtensor has none, and a TypeError
for device tensors there."""
import re

import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, same_error, to_np


def pair(shape, device, seed=0):
    a = np.random.default_rng(seed).standard_normal(shape)
    return a, dt.asarray(a, device=device)


CALLS = [
    ("concatenate", lambda m, x, y: m.concatenate([x, y], axis=1)),
    ("stack", lambda m, x, y: m.stack([x, y])),
    ("sum", lambda m, x, y: m.sum(x, axis=0)),
    ("mean", lambda m, x, y: m.mean(x, axis=1, keepdims=True)),
    ("where", lambda m, x, y: m.where(x > 0, x, y)),
    ("reshape", lambda m, x, y: m.reshape(x, (-1,))),
    ("transpose", lambda m, x, y: m.transpose(x)),
    ("sort", lambda m, x, y: m.sort(x, axis=0)),
    ("cumsum", lambda m, x, y: m.cumsum(x, axis=1)),
    ("clip", lambda m, x, y: m.clip(x, -0.5, 0.5)),
    ("dot", lambda m, x, y: m.dot(x, y.T)),
    ("einsum", lambda m, x, y: m.einsum("ij,kj->ik", x, y)),
    ("isclose", lambda m, x, y: m.isclose(x, y)),
    ("linalg.norm", lambda m, x, y: m.linalg.norm(x)),
    ("linalg.inv", lambda m, x, y: m.linalg.inv(x[:, :3])),
    ("fft.rfft", lambda m, x, y: m.fft.rfft(x, axis=1)),
    ("median", lambda m, x, y: m.median(x, axis=0)),
    ("unique", lambda m, x, y: m.unique(m.round(x))),
]


@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
def test_numpy_functions_run_devtensors_own(device, name, call):
    a, t = pair((3, 4), device)
    b, u = pair((3, 4), device, seed=1)
    got = call(np, t, u)
    want = call(np, a, b)
    assert isinstance(got, dt.Tensor), type(got)
    assert got.device == dt.device(device)  # stayed on the device
    assert_same(got, want, device, exact=False, rtol=1e-12, atol=1e-12)


def test_mixed_tensor_and_ndarray(device):
    a, t = pair((2, 3), device)
    got = np.concatenate([t, a])
    assert isinstance(got, dt.Tensor) and got.device == dt.device(device)
    assert_same(got, np.concatenate([a, a]), device)
    assert np.allclose(t, a) is True and np.array_equal(t, a) is True


def test_missing_functions_run_numpys_on_cpu_views():
    a, t = pair((5,), "cpu")
    h, ex, ey = np.histogram2d(t, t, bins=3)
    wh, wex, wey = np.histogram2d(a, a, bins=3)
    for got, want in ((h, wh), (ex, wex), (ey, wey)):
        assert isinstance(got, dt.Tensor)
        assert_same(got, want)
    idx = np.unravel_index(dt.asarray([3, 4]), (2, 3))
    assert isinstance(idx, tuple) and all(isinstance(i, dt.Tensor) for i in idx)
    assert [to_np(i).tolist() for i in idx] == [[1, 1], [0, 1]]
    assert np.array2string(t) == np.array2string(a)
    out = np.apply_along_axis(lambda r: r * 2, 0, t)  # NumPy's loop over views of t
    assert isinstance(out, dt.Tensor)
    assert_same(out, a * 2)


def test_data_that_is_not_numbers_gets_numpys_answer(device):
    """Note [NumPy's answer for data that is not numbers]: NumPy's function
    on CPU tensors and data devtensor has no dtype for (matplotlib's bar()
    broadcasts its hatch=None) runs NumPy's on views: tensors stay tensors,
    the rest NumPy's arrays; beside a device tensor the error stands."""
    x, h = dt.arange(3, device=device), dt.arange(3.0, device=device)
    if device != "cpu":
        for _ in range(2):
            with pytest.raises(TypeError, match="cannot make a tensor of NoneType data"):
                np.broadcast_arrays(x, h, None)
        return
    for _ in range(2):  # the first call finds devtensor's function, the second calls it directly
        r = np.broadcast_arrays(x, h, 0.8, None)
        assert [type(v) for v in r] == [dt.Tensor, dt.Tensor, dt.Tensor, np.ndarray]
        assert r[2].tolist() == [0.8] * 3 and r[3].tolist() == [None] * 3 and r[3].dtype == object
        assert np.concatenate([x, ["a"]]).tolist() == ["0", "1", "2", "a"]


def test_numpy_save_is_numpys(tmp_path):
    # devtensor.save writes safetensors files; np.save(t) must still write .npy
    a, t = pair((2, 2), "cpu")
    np.save(tmp_path / "t.npy", t)
    np.testing.assert_array_equal(np.load(tmp_path / "t.npy"), a)


def test_device_tensors_are_not_copied_behind_the_callers_back(device, monkeypatch):
    """A NumPy function devtensor lacks (here: as if it lacked np.roll) runs
    on CPU tensors and refuses device tensors."""
    from devtensor import _numpy_dispatch
    monkeypatch.setitem(_numpy_dispatch._implementations, np.roll, None)
    _, t = pair((5,), device)
    if device == "cpu":
        assert to_np(np.roll(t, 1)).tolist() == np.roll(to_np(t), 1).tolist()
        return
    assert dt.binary_repr is not None  # devtensor keeps NumPy's wrapped names: still not its own
    with pytest.raises(TypeError) as info:
        np.roll(t, 1)
    assert str(info.value) == (f"devtensor has no numpy.roll for tensors on {device}: "
                               f"move them to the host first (t.cpu(), or t.numpy(force=True)) "
                               f"to use NumPy's, or use a devtensor function")
    assert np.roll(t.cpu(), 1).device == dt.device("cpu")  # the way it says


def test_isfortran_and_min_scalar_type(device):
    a = np.arange(6.0).reshape(2, 3)
    for x in (a, a.T, a[:, ::2], a[:1]):
        t = dt.asarray(x, device=device)
        assert np.isfortran(t) == dt.isfortran(t)
        ref = np.lib.stride_tricks.as_strided(np.zeros(16), t.shape, t.strides)  # t's layout (a move packs gaps)
        assert np.isfortran(t) == np.isfortran(ref)
        assert (t.flags.fnc, t.flags.forc, t.flags["FNC"]) == (ref.flags.fnc, ref.flags.forc, ref.flags["FNC"])
        for name in ("contiguous", "fortran", "writebackifcopy"):  # NumPy's older names, both ways
            assert getattr(t.flags, name) == getattr(ref.flags, name)
            assert t.flags[name.upper()] == ref.flags[name.upper()]
        assert t.flags["X"] is ref.flags["X"] is False
        assert np.min_scalar_type(t) == np.min_scalar_type(x)
    for v in (3, 300, -1, 1e300, 2.5, 1j):
        t = dt.asarray(v, device=device)
        assert np.min_scalar_type(t) == np.min_scalar_type(v) == dt.min_scalar_type(v)


def test_other_array_types_are_left_to_numpy():
    class Other:
        def __array_function__(self, func, types, args, kwargs):
            return NotImplemented

    with pytest.raises(TypeError, match="no implementation found for 'numpy.concatenate'"):
        np.concatenate([dt.ones(2), Other()])


def test_errors_are_devtensors():
    with pytest.raises(np.exceptions.AxisError):
        np.sum(dt.ones(3), axis=2)
    with pytest.raises(ValueError, match="all the input array dimensions except for the "
                                         "concatenation axis must match exactly"):
        np.concatenate([dt.ones((2, 3)), dt.ones((3, 2))])


def test_like_creates_on_the_like_tensors_device(device):
    """Note [NumPy's like= on tensors]."""
    t = dt.ones(2, device=device)
    for r in (np.asarray([1, 2], like=t), np.array([1.5], like=t), np.zeros(3, like=t),
              np.ones((2, 2), like=t), np.full(2, 3.0, like=t), np.arange(4, like=t)):
        assert isinstance(r, dt.Tensor) and r.device == dt.device(device)
    np.testing.assert_array_equal(np.asarray([1, 2], like=t).cpu().numpy(), [1, 2])
    assert type(np.asarray(t)) is np.ndarray  # t itself given: NumPy's array, not like=


def test_interp_is_numpys(device):
    rng = np.random.default_rng(3)
    xp = np.sort(rng.uniform(0, 10, 15))
    xp[4] = xp[5]
    fp = rng.standard_normal(15)
    x = np.concatenate([rng.uniform(-2, 12, 60), xp, [np.nan, np.inf, -np.inf]])
    dx, dxp, dfp = (dt.asarray(v, device=device) for v in (x, xp, fp))
    for kw in ({}, {"left": -5.0, "right": 7.0}, {"period": 3.0}):
        with np.errstate(invalid="ignore"):  # NaN and infinities % period: NumPy's own warning on the CPU
            got = dt.interp(dx, dxp, dfp, **kw)
            want = np.interp(x, xp, fp, **kw)
        assert got.device == dt.device(device) and got.dtype == dt.float64
        np.testing.assert_array_equal(got.cpu().numpy(), want)
    c = dt.interp(dt.asarray([0.5, 1.5], device=device), [0, 1, 2], [1j, 2, 3 + 1j])
    np.testing.assert_array_equal(c.cpu().numpy(), np.interp([0.5, 1.5], [0, 1, 2], [1j, 2, 3 + 1j]))
    assert float(dt.interp(2.5, [1, 2, 3], [3, 2, 0])) == np.interp(2.5, [1, 2, 3], [3, 2, 0])
    # a NaN x is NaN on a flat step too, and infinite parts of a complex fp
    # are interpolated part by part (the device form: x a list, or on a device)
    for x_, xp_, fp_, kw in (([np.nan, 0.5, 1.5], [0.0, 1, 2], [0.0, 10, 10], {}),
                            ([0.5, -1, 3, np.nan], [0.0, 1], [0, -np.inf + 0j], {"left": 1 + 2j, "right": 3j}),
                            ([0.25, 1.5], [0.0, 1, 2], [complex(1, np.inf), 2j, complex(np.inf, 0)], {})):
        with np.errstate(invalid="ignore"):
            want = np.interp(x_, xp_, fp_, **kw)
            for got in (dt.interp(x_, dt.asarray(xp_, device=device), dt.asarray(fp_, device=device), **kw),
                        dt.interp(dt.asarray(x_, device=device), dt.asarray(xp_, device=device),
                                  dt.asarray(fp_, device=device), **kw)):
                assert got.device == dt.device(device) and got.dtype == want.dtype
                np.testing.assert_array_equal(got.cpu().numpy(), want)
    assert float(dt.interp(2.5, dt.asarray([1.0, 2, 3], device=device), dt.asarray([3.0, 2, 0], device=device))) == 1.0
    with pytest.raises(ValueError, match="same length"):
        dt.interp(dx, dxp, dfp[:-1])
    with pytest.raises(ValueError, match="empty"):
        dt.interp(dx, dxp[:0], dfp[:0])
    with pytest.raises(ValueError, match="non-zero"):
        dt.interp(dx, dxp, dfp, period=0)


@pytest.mark.parametrize("n", [100, 1 << 16])
def test_interp_through_numpy_and_the_device_form(device, n):
    """Note [Interpolations on the CPU through NumPy]: a CPU interp is
    NumPy's own, a device's the device form; both give NumPy's values
    (left/right, complex fp, NaN and infinities), small and large."""
    rng = np.random.default_rng(n)
    xp = np.sort(rng.uniform(0, 10, 40))
    fp = rng.standard_normal(40)
    x = rng.uniform(-2, 12, n)
    x[:3] = [np.nan, np.inf, -np.inf]
    dx, dxp, dfp = dt.asarray(x, device=device), dt.asarray(xp, device=device), dt.asarray(fp, device=device)
    for kw in ({}, {"left": -5.0, "right": 7.0}):
        with np.errstate(invalid="ignore"):
            np.testing.assert_array_equal(to_np(dt.interp(dx, dxp, dfp, **kw)), np.interp(x, xp, fp, **kw))
    c = dt.interp(dx, dxp, dt.asarray(fp + 1j * fp[::-1], device=device))
    assert c.dtype == dt.complex128 and c.device == dt.device(device)
    with np.errstate(invalid="ignore"):
        np.testing.assert_allclose(to_np(c), np.interp(x, xp, fp + 1j * fp[::-1]), rtol=1e-15, atol=1e-15)


@pytest.mark.parametrize("dtype", ["int8", "int64", "float32", "float64", "complex128", "bool"])
def test_ndarray_methods_clip_round_conj_fill_tobytes(device, dtype):
    """NumPy's ndarray methods that code calls on arrays: clip (a_min/a_max
    too), round, conj/conjugate, fill (in place, None, NumPy's casting and
    overflow error) and tobytes (every order, views, bfloat16's own bytes)."""
    rng = np.random.default_rng(7)
    a = (rng.standard_normal((3, 4)) * 4).astype(dtype) if dtype != "bool" else rng.random((3, 4)) < 0.5
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal((3, 4))
    t = dt.asarray(a, device=device)
    if dtype not in ("bool", "complex128"):
        assert_same(t.clip(-1, 2), a.clip(-1, 2), device)
        assert_same(t.clip(a_min=0, a_max=None), a.clip(0, None), device)
        assert_same(t.clip(max=1), np.clip(a, None, 1), device)
        assert_same(t.round(1), a.round(1), device)
    assert_same(t.conj(), a.conj(), device)
    assert_same(t.conjugate(), a.conjugate(), device)
    assert (t.conj() is t) == (a.conj() is a)  # NumPy's: a real array itself
    for order in ("C", "F", "A"):
        assert t.tobytes(order) == a.tobytes(order)
        assert t.T.tobytes(order) == a.T.tobytes(order)
        assert t[::2, 1:].tobytes(order) == a[::2, 1:].tobytes(order)
    u, b = dt.zeros((2, 3), dtype=dtype, device=device), np.zeros((2, 3), dtype)
    for value in (True, 3, 2.75):
        if dtype == "bool" or (np.dtype(dtype).kind == "i" and isinstance(value, float)):
            continue
        assert u.fill(value) is None
        b.fill(value)
        assert_same(u, b, device)
    u.fill(dt.asarray(1, device=device))
    assert to_np(u).tolist() == np.ones((2, 3), dtype).tolist()
    if dtype == "int8":
        with pytest.raises(OverflowError, match="out of bounds for int8"):
            u.fill(300)
    with pytest.raises(TypeError, match="unexpected keyword argument 'low'"):
        t.clip(low=0)


def test_tobytes_bfloat16(device):
    a = np.array([1.5, -2.0, 3.0], np.float32)
    t = dt.asarray(a, device=device).astype("bfloat16")
    assert t.tobytes() == (a.view(np.uint32) >> 16).astype(np.uint16).tobytes()


def test_clip_takes_numpys_bound_keywords(device):
    a = np.arange(6) - 2
    t = dt.asarray(a, device=device)
    assert_same(dt.clip(t, a_min=0, a_max=2), np.clip(a=a, a_min=0, a_max=2))
    assert_same(dt.clip(t, 0, 2), np.clip(a, 0, 2))
    assert_same(dt.clip(t, max=1), np.clip(a, max=1))
    for bounds in [(2.5, 7), (2.5, None), (None, 7.5)]:  # NumPy's names in a refused cast: clip given both
        with pytest.raises(TypeError) as want:
            np.clip(a, *bounds, out=np.zeros(6, dtype=np.int64))
        with pytest.raises(TypeError, match=re.escape(str(want.value))):
            dt.clip(t, *bounds, out=dt.zeros(6, dtype=dt.int64, device=device))
    b = np.ones((3, 4))
    for bounds in [(np.ones(3), 5), ([1, 2, 3], np.ones((2, 1, 1)))]:  # NumPy names the three shapes
        same_error(lambda: np.clip(b, *bounds),
                   lambda: dt.clip(dt.asarray(b, device=device),
                                   *[dt.asarray(v, device=device) if isinstance(v, np.ndarray) else v for v in bounds]))


def test_function_ufuncs_take_outputs_by_position(device):
    """NumPy's ufuncs take their outputs by position too: modf(x, frac, whole)."""
    x = dt.asarray([1.5, -2.25], device=device)
    frac, whole = dt.zeros(2, device=device), dt.zeros(2, device=device)
    r = dt.modf(x, frac, whole)
    assert r[0] is frac and r[1] is whole and to_np(frac).tolist() == [0.5, -0.25] and to_np(whole).tolist() == [1.0, -2.0]
    q = dt.zeros(2, device=device)
    r = dt.divmod(x, 2, q)  # the second output left to the call
    assert r[0] is q and to_np(q).tolist() == [0.0, -2.0] and to_np(r[1]).tolist() == [1.5, 1.75]
    assert dt.float_power(x, 2, q) is q
    for call in (lambda m, v: m.modf(v, v, v, v), lambda m, v: m.modf(v, v, out=(v, v))):
        with pytest.raises(TypeError) as want:
            call(np, np.zeros(2))
        with pytest.raises(TypeError, match=str(want.value).replace("(", r"\(").replace(")", r"\)")):
            call(dt, x)
    assert dt.matmul.signature == np.matmul.signature and dt.vecdot.signature == np.vecdot.signature
