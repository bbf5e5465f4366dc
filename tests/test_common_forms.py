"""The common calls that skip the general Python code (outer of two tensors,
the reshape function, count_nonzero, array of a list, repeat with one count,
unravel_index of one int, nonzero's contiguous mask, t[idx] with a 1-d
integer array, Tensor.copy): each against NumPy on
every device, over layouts and the forms next to them that still take the
general path, errors included."""
import warnings

import numpy as np
import pytest

import devtensor as dt
from devtensor import _index_functions, _manipulation, _views
from helpers import ALL_DEVICES, assert_same, same_error, to_np

LAYOUTS = {
    "contiguous": lambda a: a,
    "transposed": lambda a: a.T,
    "strided": lambda a: a[::2, ::-1],
    "zero-d": lambda a: a[1, 1, ...],
}


def _pair(device, dtype="float64", layout="contiguous"):
    base = (np.arange(24) % 7 - 2).reshape(4, 6).astype(dtype)
    a = LAYOUTS[layout](base)
    t = LAYOUTS[layout](dt.asarray(base, device=device))
    return a, t


@pytest.mark.parametrize("device", ALL_DEVICES)
@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("dtype", ["int32", "float64", "complex64", "bool"])
def test_outer(device, layout, dtype):
    a, t = _pair(device, dtype, layout)
    assert_same(dt.outer(t, t), np.outer(a, a), device)
    assert_same(dt.outer(t, [1, 2]), np.outer(a, [1, 2]), device)  # general path
    want = np.outer(a, a).astype(np.complex128)  # out= casts (same_kind) into its dtype
    out = dt.empty(want.shape, dtype=dt.complex128, device=device)
    assert dt.outer(t, t, out=out) is out
    np.testing.assert_array_equal(to_np(out), want)


@pytest.mark.parametrize("device", ALL_DEVICES)
@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("shape", [(-1,), (6, 4), [3, -1], 24, (2, 3, 4), (1, 24, 1)])
def test_reshape_function(device, layout, shape):
    a, t = _pair(device, "float32", layout)
    if a.size != 24 and shape not in ((-1,),):
        shape = -1
    r = dt.reshape(t, shape)
    assert_same(r, np.reshape(a, shape), device)
    g = _views._reshape_general(t, shape)
    assert r.shape == g.shape and r.strides == g.strides
    assert dt.shares_memory(r, t) == np.shares_memory(np.reshape(a, shape), a)


@pytest.mark.parametrize("device", ALL_DEVICES)
def test_reshape_function_other_forms(device):
    a, t = _pair(device)
    assert_same(dt.reshape(t, (np.int64(8), 3)), a.reshape(8, 3), device)
    assert_same(dt.reshape(t, dt.asarray([3, 8])), a.reshape(3, 8), device)
    c = dt.reshape(t, (4, 6), copy=True)
    assert not dt.shares_memory(c, t)
    with pytest.raises(ValueError, match="Unable to avoid creating a copy"):
        dt.reshape(t.T, (24,), copy=False)
    assert_same(dt.reshape([[1, 2], [3, 4]], (4,)), np.arange(1, 5), "cpu")
    same_error(lambda: np.reshape(a, (5, 5)), lambda: dt.reshape(t, (5, 5)))
    same_error(lambda: np.reshape(a, (-1, -1)), lambda: dt.reshape(t, (-1, -1)))
    with pytest.raises(TypeError):
        dt.reshape(t, (2.0, 12))


@pytest.mark.parametrize("device", ALL_DEVICES)
@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("dtype", ["bool", "int8", "float64", "complex128", "bfloat16"])
def test_count_nonzero(device, layout, dtype):
    a, t = _pair(device, "float32" if dtype == "bfloat16" else dtype, layout)
    if dtype == "bfloat16":
        t = t.astype(dt.bfloat16)
    assert_same(dt.count_nonzero(t), np.asarray(np.count_nonzero(a)), device)
    if a.ndim:
        for axis in (0, -1, (0, 1)):
            assert_same(dt.count_nonzero(t, axis=axis), np.count_nonzero(a, axis=axis), device)
        assert_same(dt.count_nonzero(t, axis=1, keepdims=True),
                    np.count_nonzero(a, axis=1, keepdims=True), device)


@pytest.mark.parametrize("data", [[1.0, 2.0, 3.0], (1, 2), [[1, 2], [3, 4]], [True, False], [1j, 2],
                                  [], [[]], (2**63,), [1, 2.5]])
def test_array_of_python_data(data):
    want = np.array(data)
    assert_same(dt.array(data), want, "cpu")
    if any(isinstance(x, complex) for x in data):
        with pytest.raises(TypeError):
            dt.array(data, dtype=dt.float32)
    else:
        assert_same(dt.array(data, dtype=dt.float32), np.array(data, dtype=np.float32), "cpu")
    assert dt.array(data, ndmin=3).shape == np.array(data, ndmin=3).shape


def test_array_of_python_data_errors_and_copies():
    with pytest.raises(ValueError):
        dt.array([1, [2, 3]])
    with pytest.raises(TypeError):
        dt.array(["a", "b"])
    with pytest.raises(TypeError, match="NumPy would give dtype object"):
        dt.array([2**64])
    a = np.arange(3.0)
    t = dt.array(a)
    a[0] = 9
    assert to_np(t)[0] == 0  # a copy


@pytest.mark.parametrize("device", ALL_DEVICES)
@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("count", [0, 1, 3])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_repeat_one_count(device, layout, count, axis):
    a, t = _pair(device, "int16", layout)
    if a.ndim == 0 and axis == 1:  # NumPy repeats 0-d as 1-d: axis 1 is out of range
        same_error(lambda: np.repeat(a, count, axis=axis), lambda: dt.repeat(t, count, axis=axis))
        same_error(lambda: np.repeat(a, [count], axis=axis), lambda: dt.repeat(t, [count], axis=axis))
        return
    r = dt.repeat(t, count, axis=axis)
    assert_same(r, np.repeat(a, count, axis=axis), device)
    assert r.flags.writeable and r.is_contiguous()
    g = dt.repeat(t, [count], axis=axis)  # the general path, one count in a list
    assert_same(g, np.repeat(a, [count], axis=axis), device)
    if axis is not None:
        assert_same(t.repeat(count, axis), a.repeat(count, axis), device)
    else:
        assert_same(t.repeat(count), a.repeat(count), device)


@pytest.mark.parametrize("device", ALL_DEVICES)
def test_repeat_errors(device):
    a, t = _pair(device)
    same_error(lambda: np.repeat(a, -1), lambda: dt.repeat(t, -1))
    same_error(lambda: np.repeat(a, 2, axis=2), lambda: dt.repeat(t, 2, axis=2))
    assert_same(dt.repeat(t, np.int64(2), axis=0), np.repeat(a, 2, axis=0), device)
    assert_same(dt.repeat(t, True), np.repeat(a, True), device)


@pytest.mark.parametrize("index", [0, 1, 7, 15, 23, -1, 24, 2**62, -2**63, 2**63, 2**70])
@pytest.mark.parametrize("shape", [(4, 6), (2, 3, 4), [24], 24, (), (1, 1, 24), (0, 3)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_unravel_index_of_one_int(index, shape, order):
    try:
        want = np.unravel_index(index, shape, order=order)
    except Exception as e:  # noqa: BLE001 - the same exception type is expected
        with pytest.raises(type(e)):
            dt.unravel_index(index, shape, order=order)
        if isinstance(e, ValueError):
            same_error(lambda: np.unravel_index(index, shape, order=order),
                       lambda: dt.unravel_index(index, shape, order=order))
        return
    got = dt.unravel_index(index, shape, order=order)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, np.asarray(w, dtype=np.int64), "cpu")
    # the tensor form agrees with NumPy's array form (which refuses shape ())
    if shape == ():
        same_error(lambda: np.unravel_index(np.array([index]), shape, order=order),
                   lambda: dt.unravel_index(dt.asarray([index]), shape, order=order))
        return
    general = dt.unravel_index(dt.asarray([index]), shape, order=order)
    assert [int(g[0]) for g in general] == [int(g) for g in got]


def test_unravel_index_other_forms():
    same_error(lambda: np.unravel_index(1, (2, 2), order="X"),
               lambda: dt.unravel_index(1, (2, 2), order="X"))
    same_error(lambda: np.unravel_index(1, (2, 2), order="A"),
               lambda: dt.unravel_index(1, (2, 2), order="A"))
    with pytest.raises(ValueError):  # NumPy: "index 1 is out of bounds for array with size -4"
        dt.unravel_index(1, (-2, 2))
    assert [int(c) for c in dt.unravel_index(np.int64(5), (2, 3))] == [1, 2]
    with pytest.raises(TypeError, match="only int indices"):
        dt.unravel_index(1.0, (2, 3))


@pytest.mark.parametrize("device", ALL_DEVICES)
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided"])
def test_nonzero_layouts(device, layout):
    a, t = _pair(device, "float32", layout)
    got = dt.nonzero(t)
    for g, w in zip(got, np.nonzero(a), strict=True):
        assert_same(g, w, device)
    assert_same(dt.flatnonzero(t), np.flatnonzero(a), device)
    assert_same(dt.argwhere(t), np.argwhere(a), device)


def test_fast_paths_are_the_functions_called():
    # the functions above are the ones devtensor exports (no stale aliases)
    assert dt.repeat is _manipulation.repeat and dt.unravel_index is _index_functions.unravel_index
    assert dt.reshape is _views.reshape


# ---- t[idx] with a 1-d integer array or bool mask (Note [Row gathers on the CPU] in csrc/python/index.c) ----

KEYS = {
    "int64": lambda: np.array([1, 3, -1, 0, 3]),
    "int32": lambda: np.array([2, -4, 2], dtype=np.int32),
    "strided": lambda: np.array([0, 9, 1, 9, 3, 9])[::2],
    "empty": lambda: np.array([], dtype=np.int64),
    "mask": lambda: np.array([True, False, True, True]),
    "mask-strided": lambda: np.array([False, True, True, False, False, True, True, False])[::2],
    "mask-none": lambda: np.zeros(4, dtype=bool),
    "mask-bytes": lambda: np.array([0, 2, 0, 255], np.uint8).view(bool),  # any non-zero byte is True
}


@pytest.mark.parametrize("device", ALL_DEVICES)
@pytest.mark.parametrize("key", list(KEYS))
@pytest.mark.parametrize("dtype", ["bool", "int8", "float32", "complex128"])
@pytest.mark.parametrize("shape", [(4,), (4, 3), (4, 0, 2)])
def test_row_gather(device, key, dtype, shape):
    a = (np.arange(int(np.prod(shape))) % 5).reshape(shape).astype(dtype)
    t, k = dt.asarray(a, device=device), KEYS[key]()
    want = a[k]
    for kk in (k, dt.asarray(k, device=device)):
        got = t[kk]
        assert_same(got, want, device)
        assert not got._same_storage(t)  # a copy, as NumPy's
    if device == "cpu":
        assert_same(t[k.tolist()], want, device)  # a list takes the general path: the same answer
        a.flags.writeable = False
        ro = dt.asarray(a)
        got = ro[k]
        got[...] = 0  # the result of a read-only tensor is writable, as NumPy's
        assert_same(ro, a, device)


@pytest.mark.parametrize("device", ALL_DEVICES)
@pytest.mark.parametrize("key", list(KEYS))
@pytest.mark.parametrize("dtype", ["bool", "int8", "float32", "complex128"])
@pytest.mark.parametrize("shape", [(4,), (4, 3)])
@pytest.mark.parametrize("value", [0, 7, -1.5, True])
def test_row_scatter_of_a_scalar(device, key, dtype, shape, value):
    # t[idx] = scalar, t[mask] = scalar (Note [Row gathers on the CPU]):
    # NumPy's result, repeated indices included, as tensors and arrays
    a = (np.arange(int(np.prod(shape))) % 5 + 1).reshape(shape).astype(dtype)
    k = KEYS[key]()
    for kk in (k, dt.asarray(k, device=device)):
        t = dt.asarray(a, device=device)
        b = a.copy()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # NumPy's casts of -1.5 and 7 into small types
            b[k] = value
            t[kk] = value
        assert_same(t, b, device)


@pytest.mark.parametrize("device", ALL_DEVICES)
def test_row_scatter_with_a_key_in_its_own_memory(device):
    # t[t] = 0: the key is read whole before any write, as NumPy's (written
    # one by one, the key's later entries would already be overwritten)
    a = np.array([2, 5, 0, 1, 3, 4])
    t = dt.asarray(a, device=device)
    a[a] = 0
    t[t] = 0
    assert_same(t, a, device)
    b = np.array([True, False, True, True])
    u = dt.asarray(b, device=device)
    b[b] = False
    u[u] = False
    assert_same(u, b, device)
    if device == "cpu":
        c = np.array([3, 0, 1, 2])
        w = dt.asarray(c)  # shares c's memory: c is a key in w's memory
        w[c] = 9
        assert_same(w, np.full(4, 9), device)


@pytest.mark.parametrize("device", ALL_DEVICES)
def test_row_scatter_errors_write_nothing(device):
    a = np.arange(12.0).reshape(4, 3)
    t = dt.asarray(a, device=device)
    for bad in ([1, 4], [0, -5]):
        for k in (np.array(bad), dt.asarray(np.array(bad, np.int32), device=device)):
            same_error(lambda: a.copy().__setitem__(np.asarray(k.cpu() if hasattr(k, "cpu") else k), 1.0),
                       lambda: t.__setitem__(k, 1.0))
            assert_same(t, a, device)  # the bounds are checked before any write
    i = dt.zeros(4, dtype=dt.int64, device=device)
    same_error(lambda: np.zeros(4, np.int64).__setitem__(np.array([0, 2]), np.nan),
               lambda: i.__setitem__(np.array([0, 2]), float("nan")))
    assert_same(i, np.zeros(4, np.int64), device)
    same_error(lambda: a.copy().__setitem__(np.array([True, False]), 1.0),
               lambda: t.__setitem__(np.array([True, False]), 1.0))
    ro = np.arange(4.0)
    ro.flags.writeable = False
    tro = dt.asarray(ro, device=device)
    tro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        tro[np.array([1])] = 0.0
    with pytest.raises(ValueError, match="read-only"):
        tro[np.array([True, False, False, True])] = 0.0


@pytest.mark.parametrize("device", ALL_DEVICES)
def test_row_gather_errors_and_other_layouts(device):
    a = np.arange(12.0).reshape(4, 3)
    t = dt.asarray(a, device=device)
    for bad in ([1, 4], [-5], [0, 7, 2]):
        for k in (np.array(bad), np.array(bad, dtype=np.int32)):
            same_error(lambda: a[k], lambda: t[k])
            same_error(lambda: a[k], lambda: t[dt.asarray(k, device=device)])
    for view, tview in ((a.T, t.T), (a[::-1], t[::-1]), (a[:, 1], t[:, 1])):  # not C-contiguous
        k = np.array([2, 0, -1])
        assert_same(tview[k], view[k], device)
    assert_same(t[np.array([1, 0]).astype(">i8")], a[np.array([1, 0]).astype(">i8")], device)
    e = np.zeros((0, 3))
    same_error(lambda: e[np.array([0])], lambda: dt.asarray(e, device=device)[np.array([0])])
    for shape, key in (((0, 3), (np.array([0]),)), ((0,), (np.array([2]),)), ((3, 0), (slice(None), np.array([2]))),
                       ((0, 0), (np.array([0]),))):
        # an index into an axis of length 0 (the device kernels' view of it would be empty)
        z, tz = np.zeros(shape), dt.asarray(np.zeros(shape), device=device)
        same_error(lambda: z[key], lambda: tz[key])
        same_error(lambda: z.__setitem__(key, 1), lambda: tz.__setitem__(key, 1))
    assert_same(dt.asarray(e, device=device)[np.array([], dtype=np.int64)], e[np.array([], np.int64)], device)
    for m in (np.array([True, False]), np.ones(5, bool)):  # a mask of another length: NumPy's IndexError
        same_error(lambda: a[m], lambda: t[m])
        same_error(lambda: a[m], lambda: t[dt.asarray(m, device=device)])


@pytest.mark.parametrize("device", ALL_DEVICES)
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_copy_method(device, layout):
    a, t = _pair(device, "int16", layout)
    c = t.copy()
    assert_same(c, a.copy(), device)
    assert c.is_contiguous() and not c._same_storage(t) and type(c) is dt.Tensor
    c[...] = 9
    assert_same(t, a, device)
