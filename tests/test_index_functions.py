"""NumPy's indexing functions (devtensor/_index_functions.py) on every device:
values, dtypes and errors against NumPy's."""
import numpy as np
import pytest

import devtensor as dt
from helpers import CUDA_DEVICES, assert_same, given, hnp, same_error, st, to_np


def pair(a, device):
    a = np.asarray(a)
    return dt.array(a, device=device), a


def assert_all_same(got, want, device):
    assert type(got) is tuple and len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w, device=device)


@pytest.mark.parametrize("shape", [(7,), (3, 4), (2, 3, 4), (0, 3), (1,)])
def test_nonzero_argwhere_flatnonzero_where(device, shape):
    rng = np.random.default_rng(sum(shape))
    a = rng.integers(-1, 2, size=shape).astype("float32")
    x = dt.array(a, device=device)
    assert_all_same(dt.nonzero(x), np.nonzero(a), device)
    assert_all_same(x.nonzero(), a.nonzero(), device)
    assert_all_same(dt.where(x), np.where(a), device)
    assert_same(dt.argwhere(x), np.argwhere(a), device=device)
    assert_same(dt.flatnonzero(x), np.flatnonzero(a), device=device)


@given(a=hnp.arrays(np.int8, hnp.array_shapes(min_dims=1, max_dims=4, max_side=6), elements=st.integers(-1, 1)))
def test_nonzero_property(device, a):
    x = dt.array(a, device=device)
    assert_all_same(dt.nonzero(x), np.nonzero(a), device)
    assert_same(x[x != 0], a[a != 0], device=device)


@pytest.mark.parametrize("dtype", ["bool", "complex64", "uint16", "float16"])
def test_nonzero_dtypes(device, dtype):
    a = (np.arange(10) % 3 == 0).astype(dtype)
    x = dt.array(a, device=device)
    assert_all_same(dt.nonzero(x), np.nonzero(a), device)


def test_nonzero_is_a_cast_to_bool(device):
    """NaN is non-zero, -0.0 is not, a complex is when either part is; any
    layout (Note [count_nonzero as a cast and a sum])."""
    for a in (np.array([0.0, -0.0, np.nan, np.inf, 1e-300]),
              np.array([0j, complex(0, -0.0), complex(-0.0, 2), complex(np.nan, 0), 1 + 0j], np.complex64),
              np.array([[0, 5, 0], [7, 0, 0], [0, 0, 9]], np.int16).T,
              np.arange(24.0).reshape(2, 3, 4)[:, ::-1, ::2] % 3):
        x = dt.asarray(np.ascontiguousarray(a), device=device)
        x = x.T.copy().T if a.ndim > 1 else x  # a Fortran-ordered tensor of the same values
        assert_all_same(dt.nonzero(x), np.nonzero(a), device)
        assert_same(dt.flatnonzero(x), np.flatnonzero(a), device=device)
        assert_same(dt.argwhere(x), np.argwhere(a), device=device)
        assert_same(dt.extract(x, x), np.extract(a, a), device=device)
    b = dt.asarray([0.0, -0.0, 2.5, float("nan")], device=device).astype(dt.bfloat16)
    assert_all_same(dt.nonzero(b), (np.array([2, 3]),), device)


def test_nonzero_and_argwhere_of_0d(device):
    same_error(lambda: np.nonzero(np.array(1)), lambda: dt.nonzero(dt.asarray(1, device=device)))
    for v in (0, 3):
        assert_same(dt.argwhere(dt.asarray(v, device=device)), np.argwhere(np.array(v)), device=device)


def test_where_needs_both_or_neither(device):
    x, a = pair([1.0, 0.0], device)
    same_error(lambda: np.where(a > 0, a), lambda: dt.where(x > 0, x))


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_take(device, axis, mode):
    x, a = pair(np.arange(12.0).reshape(3, 4), device)
    idx = [2, 0, 2] if mode == "raise" else [5, -7, 0, 13]
    assert_same(dt.take(x, idx, axis=axis, mode=mode), np.take(a, idx, axis=axis, mode=mode), device=device)
    assert_same(x.take(dt.asarray(idx, device=device), axis, mode=mode),
                a.take(idx, axis, mode=mode), device=device)
    assert_same(dt.take(x, 1, axis=axis), np.take(a, 1, axis=axis), device=device)
    assert_same(dt.take(x, [[1], [0]], axis=axis), np.take(a, [[1], [0]], axis=axis), device=device)


def test_take_out_and_errors(device):
    x, a = pair(np.arange(5.0), device)
    out = dt.empty(2, device=device)
    r = dt.take(x, [4, 1], out=out)
    assert r is out
    assert_same(out, np.take(a, [4, 1]))
    same_error(lambda: np.take(a, [5]), lambda: dt.take(x, [5]))
    same_error(lambda: np.take(np.zeros(0), [0], mode="wrap"),
               lambda: dt.take(dt.zeros(0, device=device), [0], mode="wrap"))
    same_error(lambda: np.take(a, [0], mode="bad"), lambda: dt.take(x, [0], mode="bad"))
    # NumPy's own wrap loops 2**63 / 5 times on this index: ours returns at once
    assert_same(dt.take(x, [-2**63, -1, 12], mode="wrap"), np.take(a, [-2**63 % 5, 4, 2]))
    # NumPy converts a list to intp itself (a float truncates) and casts an
    # array 'same_kind' (bool to int; a float array is refused)
    for ix in ([0.5, 3.9], [True, False], np.array([True, False]), 2.0, [[1, 2]]):
        assert_same(dt.take(x, ix), np.take(a, ix))
    for ix in (np.array([1.5]), np.array(2.0), [1 + 0j]):
        same_error(lambda: np.take(a, ix), lambda: dt.take(x, ix))
    for ix in (np.array([1.5]), np.array(2.0)):
        same_error(lambda: np.take(a, ix), lambda: dt.take(x, dt.asarray(ix, device=device)))


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_take_and_put_along_axis(device, axis):
    a = np.random.default_rng(2).random((3, 4))
    x = dt.array(a, device=device)
    idx = np.argsort(a, axis=axis) if axis is not None else np.argsort(a, axis=None)
    assert_same(dt.take_along_axis(x, dt.asarray(idx, device=device), axis=axis),
                np.take_along_axis(a, idx, axis=axis), device=device)
    np.put_along_axis(a, idx[..., :1] if axis is not None else idx[:3], -1.0, axis=axis)
    dt.put_along_axis(x, idx[..., :1] if axis is not None else idx[:3], -1.0, axis=axis)
    assert_same(x, a)


def test_along_axis_errors(device):
    x, a = pair(np.arange(5.0), device)
    same_error(lambda: np.take_along_axis(a, np.array([[0]]), 0), lambda: dt.take_along_axis(x, [[0]], 0))
    same_error(lambda: np.take_along_axis(a, np.array([[0]]), None),
               lambda: dt.take_along_axis(x, [[0]], None))


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_put(device, mode):
    x, a = pair(np.arange(10.0), device)
    ind = [0, 3, 3, 9] if mode == "raise" else [-12, 3, 25, 3]
    np.put(a, ind, [7.0, 8.0], mode=mode)
    dt.put(x, ind, [7.0, 8.0], mode=mode)
    assert_same(x, a)
    x.put(dt.asarray([1], device=device), 99)
    a.put([1], 99)
    assert_same(x, a)
    dt.put(x, [0], [])
    assert_same(x, a)


def test_put_converts_indices_as_numpy(device):
    # a list through intp (floats truncate, bools are 0 and 1); an array or
    # tensor by 'safe' casting: bool to int, floats refused in NumPy's words
    for ix in ([1.5], [True], np.array([True, False]), 2.7):
        x, a = pair(np.arange(5.0), device)
        np.put(a, ix, 9.0)
        dt.put(x, ix, 9.0)
        assert_same(x, a)
        if isinstance(ix, np.ndarray):
            dt.put(x, dt.asarray(ix, device=device), 7.0)
            np.put(a, ix, 7.0)
            assert_same(x, a)
    x, a = pair(np.arange(5.0), device)
    for ix in (np.array([1.5]), np.array(1.0)):
        same_error(lambda: np.put(a, ix, 9.0), lambda: dt.put(x, ix, 9.0))
        same_error(lambda: np.put(a, ix, 9.0), lambda: dt.put(x, dt.asarray(ix, device=device), 9.0))
    assert_same(x, a)  # nothing written


def test_put_into_a_strided_view(device):
    x, a = pair(np.arange(12.0).reshape(3, 4), device)
    v, w = x.T, a.T
    dt.put(v, [0, 5, 11], [-1.0, -2.0, -3.0])
    np.put(w, [0, 5, 11], [-1.0, -2.0, -3.0])
    assert_same(x, a)
    same_error(lambda: np.put(a, [12], 1.0), lambda: dt.put(x, [12], 1.0))


def test_compress_and_extract(device):
    x, a = pair(np.arange(12).reshape(3, 4), device)
    for cond, axis in [([True, False, True], 0), ([0, 1, 1], 0), ([False, True], 1), ([True] * 5, None)]:
        assert_same(dt.compress(cond, x, axis=axis), np.compress(cond, a, axis=axis), device=device)
    assert_same(x.compress([True, False], 1), a.compress([True, False], 1), device=device)
    same_error(lambda: np.compress([[True]], a), lambda: dt.compress([[True]], x))
    same_error(lambda: np.compress([True] * 13, a), lambda: dt.compress([True] * 13, x))
    cond = a % 3 == 0
    assert_same(dt.extract(dt.asarray(cond, device=device), x), np.extract(cond, a), device=device)


def test_place_and_putmask(device):
    x, a = pair(np.arange(10.0), device)
    np.place(a, a > 4, [-1.0, -2.0])
    dt.place(x, x > 4, [-1.0, -2.0])
    assert_same(x, a)
    np.putmask(a, a < 3, [10.0, 20.0, 30.0, 40.0])
    dt.putmask(x, x < 3, [10.0, 20.0, 30.0, 40.0])
    assert_same(x, a)
    dt.putmask(x, x > 100, [])
    same_error(lambda: np.place(a, a > 0, []), lambda: dt.place(x, x > 0, []))
    same_error(lambda: np.place(a, [True, False], 1), lambda: dt.place(x, [True, False], 1))
    same_error(lambda: np.putmask(a, [True, False], 1), lambda: dt.putmask(x, [True, False], 1))
    assert_same(x, a)


def test_select(device):
    x, a = pair(np.arange(10), device)
    conds, choices = [a < 3, a > 5], [a, a ** 2]
    want = np.select(conds, choices, default=-1)
    got = dt.select([x < 3, x > 5], [x, x ** 2], default=-1)
    assert_same(got, want, device=device)
    f = a.astype(np.float32)
    assert_same(dt.select([x < 3], [dt.asarray(f, device=device)]), np.select([a < 3], [f]), device=device)
    same_error(lambda: np.select([a > 1], [a, a]), lambda: dt.select([x > 1], [x, x]))
    same_error(lambda: np.select([], []), lambda: dt.select([], []))
    same_error(lambda: np.select([a], [a]), lambda: dt.select([x], [x]))
    for default in (list(range(10, 20)), tuple(range(10)), np.full(10, 2.5, np.float32), [[7] * 10] * 2):
        want = np.select([a > 5], [a], default=default)
        assert_same(dt.select([x > 5], [x], default=default), want, device=device)
    # Python scalars among the choices are weak (NEP 50), as NumPy's select keeps them
    i8 = np.array([1, 2], dtype=np.int8)
    c1, c2 = np.array([True, False]), np.array([False, True])
    t1, t2 = dt.asarray(c1, device=device), dt.asarray(c2, device=device)
    for choices in ([i8, 5], [i8.astype(np.float32), 2.5], [5, i8], [i8, True]):
        tchoices = [dt.asarray(c, device=device) if isinstance(c, np.ndarray) else c for c in choices]
        assert_same(dt.select([t1, t2], tchoices), np.select([c1, c2], choices), device=device)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_choose(device, mode):
    choices = [np.arange(4), np.arange(4) * 10, np.full(4, -5)]
    idx = np.array([0, 2, 1, 0]) if mode == "raise" else np.array([0, 5, -1, 2])
    want = np.choose(idx, choices, mode=mode)
    got = dt.choose(dt.asarray(idx, device=device), [dt.asarray(c, device=device) for c in choices], mode=mode)
    assert_same(got, want, device=device)
    x = dt.asarray(idx, device=device)
    assert_same(x.choose(dt.asarray(np.stack(choices), device=device), mode=mode), idx.choose(choices, mode=mode),
                device=device)
    # broadcasting: a column of choices against a row of indices
    assert_same(dt.choose(dt.asarray([[0], [1]], device=device), [dt.asarray([1, 2, 3], device=device), 7]),
                np.choose([[0], [1]], [[1, 2, 3], 7]), device=device)
    # Python scalars among the choices are weak (NEP 50): float32 and 7.0 give float32
    for idx_ in ([0, 1], np.array([0, 1]), dt.asarray([0, 1], device=device)):
        for c0, c1 in ((np.array([1.5, 2.5], np.float32), 7.0), (np.array([1, 2], np.int8), 7)):
            assert_same(dt.choose(idx_, (dt.asarray(c0, device=device), c1)),
                        np.choose([0, 1], (c0, c1)), device=device)
    # a bool index casts to int64 safely, as NumPy's does (small CPU work is NumPy's own; not on devices)
    b = np.array([True, False, True] * 30)
    assert_same(dt.choose(dt.asarray(b, device=device), [dt.zeros(90, device=device), dt.ones(90, device=device)]),
                np.choose(b, [np.zeros(90), np.ones(90)]), device=device)


def test_choose_errors(device):
    a = np.array([0, 3])
    for idx in ([0, 3], [0, -1]):
        same_error(lambda: np.choose(np.array(idx), [[1, 2], [3, 4]]),
                   lambda: dt.choose(dt.asarray(idx, device=device), [dt.asarray([1, 2], device=device),
                                                                      dt.asarray([3, 4], device=device)]))
    with pytest.raises(TypeError):
        dt.choose(dt.asarray(a.astype(float), device=device), [[1, 2]])
    assert to_np(dt.choose(dt.asarray([1, 0], device=device), [[1, 2], [3, 4]])).tolist() == [3, 2]


@pytest.mark.parametrize("order", ["C", "F"])
def test_unravel_and_ravel_multi_index(device, order):
    flat = [0, 5, 19, 7, 12]
    got = dt.unravel_index(dt.asarray(flat, device=device), (4, 5), order=order)
    want = np.unravel_index(flat, (4, 5), order=order)
    assert len(got) == 2 and all(g.device == dt.device(device) for g in got)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g.cpu().numpy(), w)
    back = dt.ravel_multi_index(got, (4, 5), order=order)
    np.testing.assert_array_equal(back.cpu().numpy(), flat)
    coords = (dt.asarray([3, 9, -2], device=device), dt.asarray([-1, 2, 7], device=device))
    for mode in ("clip", "wrap", ("clip", "wrap")):
        np.testing.assert_array_equal(
            dt.ravel_multi_index(coords, (4, 5), mode=mode, order=order).cpu().numpy(),
            np.ravel_multi_index(([3, 9, -2], [-1, 2, 7]), (4, 5), mode=mode, order=order))
    assert tuple(int(v) for v in dt.unravel_index(dt.asarray(23, device=device), (2, 3, 4))) == \
        tuple(int(v) for v in np.unravel_index(23, (2, 3, 4)))


def test_unravel_index_of_host_data_lands_on_the_default_device(device):
    """Lists, tuples, NumPy arrays and ints give coordinates where the
    factories would put them; a CPU tensor's stay on the CPU."""
    with dt.device(device):
        for flat in ([1, 11], (3,), np.array([[1, 2], [3, 11]]), np.int64(7), 5):
            got = dt.unravel_index(flat, (3, 4))
            want = np.unravel_index(flat, (3, 4))
            assert all(g.device == dt.device(device) for g in got), flat
            for g, w in zip(got, want):
                np.testing.assert_array_equal(to_np(g), w)
        r, c = dt.unravel_index([1, 11], (3, 4))
        assert to_np(r * dt.asarray([10, 20])).tolist() == [0, 40]  # one device: no error
        got = dt.unravel_index(dt.asarray([1, 11], device="cpu"), (3, 4))
        assert all(g.device == dt.device("cpu") for g in got)


def test_unravel_and_ravel_multi_index_errors(device):
    i = dt.asarray([20], device=device)
    for call in (lambda m, v: m.unravel_index(v, (4, 5)),
                 lambda m, v: m.unravel_index(v * 0 - 1, (4, 5)),
                 lambda m, v: m.ravel_multi_index((v, v * 0), (4, 5)),
                 lambda m, v: m.ravel_multi_index((v,), (4, 5)),
                 lambda m, v: m.unravel_index(v, (4, 5), order="K"),
                 lambda m, v: m.ravel_multi_index((v, v), (4, 5), mode="bad"),
                 lambda m, v: m.unravel_index(v * 0.5, (4, 5))):
        with pytest.raises((ValueError, TypeError)) as want:
            call(np, np.asarray([20]))
        with pytest.raises(want.type, match=str(want.value)[:20]):
            call(dt, i)


def test_take_keeps_the_tensors_device_under_another_default(device):
    """NumPy's take does the work for small CPU keys; its result stays on the
    CPU tensor's device under a `with devtensor.device(...)` of another."""
    a = dt.arange(5.0)
    with dt.device(device):
        for r in (dt.take(a, dt.asarray([1, 2], device="cpu")), dt.take(a, [1, 2])):
            assert r.device == dt.device("cpu") and r.tolist() == [1.0, 2.0]


@pytest.mark.skipif(not CUDA_DEVICES, reason="needs a CUDA device (real or emulated)")
def test_put_place_putmask_copy_values_from_another_device():
    """The values written are copied over from any device, as assignment
    copies them (Note [Values from another device]); a mask or indices on
    another device are still PyTorch's error."""
    gpu = CUDA_DEVICES[0]
    x = dt.zeros(4, device=gpu)
    dt.putmask(x, x == 0, dt.arange(1.0, 3.0))
    dt.place(x, x == 1, dt.tensor([9.0]))
    dt.put(x, [3], dt.tensor([5.0]))
    assert x.device == dt.device(gpu) and to_np(x).tolist() == [9.0, 2.0, 9.0, 5.0]
    y = dt.zeros(3)
    dt.putmask(y, y == 0, dt.ones(3, device=gpu))
    assert y.device == dt.device("cpu") and y.tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(RuntimeError, match="indices should be either on cpu"):
        dt.putmask(y, dt.ones(3, dtype=dt.bool, device=gpu), 2.0)


def test_operands_on_other_devices_are_refused(device):
    """where= masks, reduceat's indices: a tensor on another device is PyTorch's
    error (they were moved silently); a 0-d one and host data go as values;
    choose's list index goes where the choices are."""
    c = dt.arange(6.0, device=device)
    for other in [d for d in ("cpu",) + tuple(CUDA_DEVICES) if d != device][:2]:
        mask = dt.asarray([True, False, True], device=other)
        same = rf"Expected all tensors to be on the same device, but found at least two devices, {device} and {other}!"
        with pytest.raises(RuntimeError, match=same):
            dt.add(c, c, where=dt.asarray([True] * 6, device=other), out=c.copy())
        with pytest.raises(RuntimeError, match=same):
            dt.add.reduce(c.reshape(2, 3), where=mask)
        with pytest.raises(RuntimeError, match=same):
            dt.sum(c.reshape(2, 3), where=mask)
        if other != "cpu":
            with pytest.raises(RuntimeError, match=same):
                dt.add.reduceat(c, dt.asarray([0, 1], device=other))
    assert_same(dt.add(c, c, where=dt.asarray(True), out=c.copy()), 2 * np.arange(6.0))
    assert_same(dt.add(c, c, where=[True, False] * 3, out=dt.zeros(6, device=device)), np.array([0.0, 0, 4, 0, 8, 0]))
    assert_same(dt.choose([0, 1, 0], [c[:3], c[3:]]), np.array([0.0, 4.0, 2.0]))
