"""Array manipulation (devtensor/_manipulation.py) against NumPy on every device:
values, dtypes, shapes and errors; results stay on the inputs' device and
inputs are left unmodified.  Hypothesis covers the core functions over
shapes, axes and dtypes."""
import numpy as np
import pytest
from hypothesis import given, strategies as st
from numpy.exceptions import AxisError

import devtensor as dt
from helpers import CUDA_DEVICES, assert_same, to_np

DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64",
          "complex64"]


def make(shape, dtype="float64", seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(-5, 6, size=shape)
    return (a > 0) if dtype == "bool" else a.astype(dtype)


def on(a, device):
    return dt.asarray(a, device=device)


def check(fn_dt, fn_np, arrays, device, exact=True):
    """fn_dt on tensors equals fn_np on the arrays (to rounding with
    exact=False); the inputs are unchanged."""
    ts = [on(a, device) for a in arrays]
    got = fn_dt(*ts)
    want = fn_np(*arrays)
    kw = {} if exact else dict(exact=False, rtol=1e-6)
    if isinstance(want, (list, tuple)):
        assert type(got) is type(want) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w, device, **kw)
    else:
        assert_same(got, want, device, **kw)
    for t, a in zip(ts, arrays):
        assert_same(t, a, device)
    return got


def same_error(fn_dt, fn_np):
    with pytest.raises(Exception) as want:
        fn_np()
    with pytest.raises(type(want.value)) as got:
        fn_dt()
    assert str(got.value) == str(want.value)


def shapes(min_dims=1, max_dims=4):
    return st.lists(st.integers(0, 4), min_size=min_dims, max_size=max_dims).map(tuple)


# ---- joining ----

@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_concatenate(device, axis):
    a, b = make((2, 3), "int32"), make((2, 3), "float32", 1)
    if axis == 0:
        b = make((4, 3), "float32", 1)
    check(lambda x, y: dt.concatenate([x, y], axis=axis),
          lambda x, y: np.concatenate([x, y], axis=axis), [a, b], device)
    check(lambda x, y: dt.concat((x, y), axis=axis),
          lambda x, y: np.concat((x, y), axis=axis), [a, b], device)


def test_concatenate_out_dtype_casting(device):
    a, b = make((2, 2)), make((1, 2), seed=1)
    out = dt.zeros((3, 2), dtype="float32", device=device)
    r = dt.concatenate([on(a, device), on(b, device)], out=out)
    assert r is out
    assert_same(out, np.concatenate([a, b]).astype(np.float32), device)
    assert_same(dt.concatenate([on(a, device)], dtype="int8", casting="unsafe"),
                np.concatenate([a], dtype="int8", casting="unsafe"), device)
    x = on(a, device)
    same_error(lambda: dt.concatenate([x], dtype="int64"),
               lambda: np.concatenate([a], dtype="int64"))
    same_error(lambda: dt.concatenate([x], out=out, dtype=float),
               lambda: np.concatenate([a], out=np.zeros((3, 2)), dtype=float))
    same_error(lambda: dt.concatenate([x], out=out),
               lambda: np.concatenate([a], out=np.zeros((3, 2))))
    same_error(lambda: dt.concatenate([x, x], out=dt.zeros(4, 2, dtype=dt.int64, device=device)),
               lambda: np.concatenate([a, a], out=np.zeros((4, 2), np.int64)))
    same_error(lambda: dt.stack([x], out=dt.zeros(1, 3, device=device)),
               lambda: np.stack([a], out=np.zeros((1, 3))))


def test_concatenate_lists_and_promotion(device):
    x = on(np.ones(2, np.float32), device)
    r = dt.concatenate([x, [1, 2]])
    assert_same(r, np.concatenate([np.ones(2, np.float32), [1, 2]]), device)
    assert_same(dt.concatenate([[1, 2], [3]]), np.concatenate([[1, 2], [3]]), "cpu")


def test_join_errors(device):
    a2, a1, a0 = make((2, 2)), make(2), np.float64(1.0)
    t2, t1, t0 = on(a2, device), on(a1, device), dt.asarray(1.0, device=device)
    same_error(lambda: dt.concatenate([t2, t1]), lambda: np.concatenate([a2, a1]))
    same_error(lambda: dt.concatenate([t2, on(make((3, 3)), device)]),
               lambda: np.concatenate([a2, make((3, 3))]))
    same_error(lambda: dt.concatenate([t0, t0]), lambda: np.concatenate([a0, a0]))
    same_error(lambda: dt.concatenate([]), lambda: np.concatenate([]))
    same_error(lambda: dt.concatenate([t2], axis=2), lambda: np.concatenate([a2], axis=2))
    same_error(lambda: dt.stack([]), lambda: np.stack([]))
    same_error(lambda: dt.stack([t2, t1]), lambda: np.stack([a2, a1]))
    same_error(lambda: dt.stack([t1], axis=2), lambda: np.stack([a1], axis=2))


@pytest.mark.parametrize("fn", ["concatenate", "stack", "vstack", "hstack", "dstack",
                                "column_stack"])
def test_cross_device(fn):
    if not CUDA_DEVICES:
        pytest.skip("needs a CUDA device (real or emulated)")
    a, b = dt.ones(2, device=CUDA_DEVICES[0]), dt.ones(2)
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device, "
                       "but found at least two devices, cuda:0 and cpu!"):
        getattr(dt, fn)([a, b])


@pytest.mark.parametrize("fn", ["vstack", "hstack", "dstack", "column_stack"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 2)])
def test_stack_family(device, fn, shape):
    a, b = make(shape, "int64"), make(shape, "float32", 1)
    check(lambda x, y: getattr(dt, fn)([x, y]), lambda x, y: getattr(np, fn)([x, y]),
          [a, b], device)


def test_vstack_hstack_dtype(device):
    a = make((2, 2))
    for fn in ("vstack", "hstack"):
        assert_same(getattr(dt, fn)([on(a, device)], dtype="float32"),
                    getattr(np, fn)([a], dtype="float32"), device)


@pytest.mark.parametrize("fn", ["atleast_1d", "atleast_2d", "atleast_3d"])
def test_atleast(device, fn):
    arrays = [make(s) for s in [(), (3,), (2, 3), (2, 3, 2), (1, 2, 3, 4)]]
    for a in arrays:
        got = getattr(dt, fn)(on(a, device))
        assert_same(got, getattr(np, fn)(a), device)
    check(lambda *t: getattr(dt, fn)(*t), lambda *a: getattr(np, fn)(*a), arrays[:3], device)


def test_append(device):
    a, b = make((2, 3)), make((1, 3), "int32", 1)
    check(dt.append, np.append, [a, b], device)
    check(lambda x, y: dt.append(x, y, axis=0), lambda x, y: np.append(x, y, axis=0),
          [a, b], device)


# ---- splitting ----

@pytest.mark.parametrize("fn", ["split", "array_split"])
@pytest.mark.parametrize("arg", [1, 2, [1, 3], [-1, 10], [3, 1], []])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_split(device, fn, arg, axis):
    a = make((4, 6, 2))
    if fn == "split" and isinstance(arg, int) and a.shape[axis] % arg:
        return
    got = check(lambda x: getattr(dt, fn)(x, arg, axis=axis),
                lambda x: getattr(np, fn)(x, arg, axis=axis), [a], device)
    t = on(a, device)
    for part in getattr(dt, fn)(t, arg, axis=axis):  # views
        assert part.size == 0 or dt.shares_memory(part, t)
    assert isinstance(got, list)


def test_split_errors(device):
    a = make((3, 4))
    t = on(a, device)
    same_error(lambda: dt.split(t, 2), lambda: np.split(a, 2))
    same_error(lambda: dt.array_split(t, 0), lambda: np.array_split(a, 0))
    with pytest.raises(AxisError, match="axis 3 is out of bounds"):  # NumPy: IndexError,
        dt.split(t, 2, axis=3)  # 'tuple index out of range' (AxisError is an IndexError)
    same_error(lambda: dt.hsplit(dt.asarray(1.0), 1), lambda: np.hsplit(np.float64(1), 1))
    same_error(lambda: dt.vsplit(on(make(3), device), 1), lambda: np.vsplit(make(3), 1))
    same_error(lambda: dt.dsplit(t, 1), lambda: np.dsplit(a, 1))


@pytest.mark.parametrize("fn,shape", [("hsplit", (4,)), ("hsplit", (2, 4)), ("vsplit", (4, 2)),
                                      ("dsplit", (2, 2, 4))])
def test_hvd_split(device, fn, shape):
    a = make(shape)
    check(lambda x: getattr(dt, fn)(x, 2), lambda x: getattr(np, fn)(x, 2), [a], device)
    check(lambda x: getattr(dt, fn)(x, [1]), lambda x: getattr(np, fn)(x, [1]), [a], device)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_unstack(device, axis):
    a = make((2, 3, 4))
    check(lambda x: dt.unstack(x, axis=axis), lambda x: np.unstack(x, axis=axis), [a], device)
    same_error(lambda: dt.unstack(dt.asarray(1.0)), lambda: np.unstack(np.float64(1)))


# ---- views: flip, rot90, moveaxis, broadcasting ----

@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), ()])
def test_flip(device, axis):
    a = make((2, 3, 4))
    check(lambda x: dt.flip(x, axis), lambda x: np.flip(x, axis), [a], device)
    t = on(a, device)
    v = dt.flip(t, axis)
    assert dt.shares_memory(v, t)  # a view, as NumPy's
    check(dt.fliplr, np.fliplr, [a], device)
    check(dt.flipud, np.flipud, [a], device)
    same_error(lambda: dt.fliplr(on(make(3), device)), lambda: np.fliplr(make(3)))
    same_error(lambda: dt.flipud(dt.asarray(1.0)), lambda: np.flipud(np.float64(1)))
    same_error(lambda: dt.flip(t, 3), lambda: np.flip(a, 3))


@pytest.mark.parametrize("k", [-1, 0, 1, 2, 3, 5])
@pytest.mark.parametrize("axes", [(0, 1), (1, 0), (2, 0), (-1, 1)])
def test_rot90(device, k, axes):
    a = make((2, 3, 4))
    check(lambda x: dt.rot90(x, k, axes), lambda x: np.rot90(x, k, axes), [a], device)


def test_rot90_errors(device):
    a = make((2, 3))
    t = on(a, device)
    for axes in [(0,), (1, 1), (0, 2), (0, -2)]:
        same_error(lambda: dt.rot90(t, 1, axes), lambda: np.rot90(a, 1, axes))


@pytest.mark.parametrize("src,dst", [(0, -1), (-1, 0), ([0, 1], [-1, -2]), ((0, 2), (2, 0)),
                                     ([], [])])
def test_moveaxis(device, src, dst):
    a = make((2, 3, 4))
    check(lambda x: dt.moveaxis(x, src, dst), lambda x: np.moveaxis(x, src, dst), [a], device)


def test_moveaxis_errors(device):
    a = make((2, 3))
    t = on(a, device)
    same_error(lambda: dt.moveaxis(t, [0, 1], [0]), lambda: np.moveaxis(a, [0, 1], [0]))
    same_error(lambda: dt.moveaxis(t, 2, 0), lambda: np.moveaxis(a, 2, 0))
    same_error(lambda: dt.moveaxis(t, 0, -3), lambda: np.moveaxis(a, 0, -3))
    same_error(lambda: dt.moveaxis(t, [0, 0], [0, 1]), lambda: np.moveaxis(a, [0, 0], [0, 1]))


def test_broadcast(device):
    a, b, c = make((3, 1)), make((1, 4), "int32"), make((3, 4), "float32")
    check(dt.broadcast_arrays, np.broadcast_arrays, [a, b, c], device)
    ts = [on(x, device) for x in (a, b, c)]
    r = dt.broadcast_arrays(*ts)
    assert r[2] is ts[2]  # already of the shape: the input itself, as NumPy
    assert dt.broadcast_shapes((3, 1), (4,), ()) == np.broadcast_shapes((3, 1), (4,), ())
    same_error(lambda: dt.broadcast_arrays(on(make(2), device), on(make(3), device)),
               lambda: np.broadcast_arrays(make(2), make(3)))
    same_error(lambda: dt.broadcast_shapes((2,), (3,)), lambda: np.broadcast_shapes((2,), (3,)))
    if device != "cpu":  # a 0-d CPU tensor joins the device, as in arithmetic; a longer one does not
        s, x = dt.asarray(2.0), dt.ones(3, device=device)
        r = dt.broadcast_arrays(s, x)
        assert r[0].device == x.device and to_np(r[0]).tolist() == [2.0] * 3 and r[1] is x
        with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
            dt.broadcast_arrays(dt.ones(3), x)


def test_ascontiguousarray(device):
    a = make((3, 4))
    t = on(a, device)
    r = dt.ascontiguousarray(t.T)
    assert r.is_contiguous() and r.device == t.device
    assert_same(r, np.ascontiguousarray(a.T), device)
    assert dt.ascontiguousarray(t) is t
    assert_same(dt.ascontiguousarray(dt.asarray(2.0, device=device)),
                np.ascontiguousarray(np.float64(2.0)), device)
    assert_same(dt.ascontiguousarray(t, dtype="float32"), np.ascontiguousarray(a, "float32"),
                device)


# ---- tile, repeat, resize, roll ----

@pytest.mark.parametrize("reps", [2, (2, 1), (1, 3), (2, 1, 2), 0, (0, 2), ()])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_tile(device, reps, shape):
    a = make(shape, "int32")
    check(lambda x: dt.tile(x, reps), lambda x: np.tile(x, reps), [a], device)


def test_tile_errors(device):
    same_error(lambda: dt.tile(on(make(2), device), -1), lambda: np.tile(make(2), -1))


@pytest.mark.parametrize("repeats,axis", [(2, None), (0, None), (3, 0), (2, 1), ([1], 1),
                                          ([1, 0, 2], 1), ([2, 2, 1], -1), ([0, 0], 0),
                                          (np.array([3, 1, 1, 1, 0, 2]), None)])
def test_repeat(device, repeats, axis):
    a = make((2, 3), "int64")
    check(lambda x: dt.repeat(x, repeats, axis), lambda x: np.repeat(x, repeats, axis),
          [a], device)
    check(lambda x: x.repeat(repeats, axis), lambda x: x.repeat(repeats, axis), [a], device)


@pytest.mark.parametrize("dtype", ["bool", "float32", "complex128"])
def test_repeat_one_count_in_c_and_python(device, dtype):
    # _C._repeat_fast (an int count, a tensor, axis None or an int) against
    # NumPy, and the forms it leaves to Python: 0-d, strided and reversed
    # views, negative axes, three dimensions, a bool count, an empty axis
    a = (np.arange(24) % 5).reshape(2, 3, 4).astype(dtype)
    t = on(a, device)
    for view, tview in ((a, t), (a[:, ::-1, ::2], t[:, ::-1, ::2]), (a.transpose(2, 0, 1), t.permute(2, 0, 1)),
                        (a[0, 0, 0], t[0, 0, 0]), (a[:, :0], t[:, :0])):
        for count in (0, 1, 3):
            for axis in (None, 0, -1, view.ndim - 1 if view.ndim else None):
                assert_same(dt.repeat(tview, count, axis), np.repeat(view, count, axis), device)
    assert_same(dt.repeat(t, True, 1), np.repeat(a, True, 1), device)
    same_error(lambda: np.repeat(a, 2, axis=3), lambda: dt.repeat(t, 2, axis=3))
    same_error(lambda: np.repeat(a, 2, axis=-4), lambda: dt.repeat(t, 2, axis=-4))
    same_error(lambda: np.repeat(a, -2), lambda: dt.repeat(t, -2))


def test_repeat_many_different_counts_is_one_gather(device):
    # past eight runs of equal counts, repeat is a gather (Note [repeat by
    # broadcast copies]): counts with zeros at both ends and in the middle,
    # along each axis and flattened, counts given as a list, an array or a tensor
    rng = np.random.default_rng(5)
    a = rng.standard_normal((4, 30))
    t = on(a, device)
    counts = rng.integers(0, 4, 30)
    counts[[0, 7, 29]] = 0
    for reps in (counts.tolist(), counts, dt.asarray(counts, device=device)):
        assert_same(dt.repeat(t, reps, axis=1), np.repeat(a, counts, axis=1), device)
        assert_same(dt.repeat(t.T, reps, axis=0), np.repeat(a.T, counts, axis=0), device)
    flat = rng.integers(0, 3, 120)
    assert_same(dt.repeat(t, flat), np.repeat(a, flat), device)
    assert_same(dt.repeat(t, np.zeros(120, np.int64)), np.repeat(a, np.zeros(120, np.int64)), device)


def test_repeat_counts_on_device(device):
    a = make((3,))
    counts = dt.asarray([1, 0, 2], device=device)
    assert_same(dt.repeat(on(a, device), counts), np.repeat(a, [1, 0, 2]), device)


def test_repeat_errors(device):
    a = make(3)
    t = on(a, device)
    for reps in ([1, 2], -1, [-1, 1, 1], np.array([1.5, 2, 2]), [[1, 2, 2]]):
        same_error(lambda: dt.repeat(t, reps), lambda: np.repeat(a, reps))
    same_error(lambda: dt.repeat(t, 2, axis=1), lambda: np.repeat(a, 2, axis=1))


@pytest.mark.parametrize("new_shape", [0, 5, (2, 5), (3, 2), (1,), (2, 0)])
@pytest.mark.parametrize("shape", [(2, 3), (0,), ()])
def test_resize(device, new_shape, shape):
    a = make(shape)
    check(lambda x: dt.resize(x, new_shape), lambda x: np.resize(x, new_shape), [a], device)


def test_resize_errors(device):
    t = on(make(3), device)
    same_error(lambda: dt.resize(t, -1), lambda: np.resize(make(3), -1))
    with pytest.raises(NotImplementedError, match="devtensor.resize"):
        t.resize((3,))


@pytest.mark.parametrize("shift,axis", [(1, None), (-7, None), (2, 0), (-1, 1), ((1, 2), (0, 1)),
                                        ((1, 1), (1, 1)), (5, -1), (0, 0), (3, (0, 1))])
def test_roll(device, shift, axis):
    a = make((3, 4), "float32")
    check(lambda x: dt.roll(x, shift, axis), lambda x: np.roll(x, shift, axis), [a], device)


def test_roll_errors(device):
    a = make(2)
    t = on(a, device)
    same_error(lambda: dt.roll(t, [1, 2], axis=[0, 0, 0]),
               lambda: np.roll(a, [1, 2], axis=[0, 0, 0]))
    same_error(lambda: dt.roll(t, 1, axis=1), lambda: np.roll(a, 1, axis=1))


# ---- insert, delete, trim_zeros ----

@pytest.mark.parametrize("obj,values,axis", [
    (1, 9, None), (-1, [7, 8], None), (1, [7, 8, 9], 1), (1, [[7], [8]], 0), ([1], [7, 8, 9], 1),
    ([0, 2, 2], [7, 8, 9], 1), ([3, 0], [7, 8], 1), (slice(0, 3), 5, 1),
    ([2, 0, 1], 5, 0), (4, 5, 1), ([], [], 1), (np.array([1, -1]), [[5, 6]], 1),
    ([1], [[5], [6], [7]], 1),
    (np.array([True, False, True, True]), [7, 8, 9], 1), (np.array(2), [[1, 2, 3, 4]], 0)])
def test_insert(device, obj, values, axis):
    a = make((3, 4), "int32")
    check(lambda x: dt.insert(x, obj, values, axis), lambda x: np.insert(x, obj, values, axis),
          [a], device)


@pytest.mark.parametrize("obj,axis", [(1, None), (-1, 0), ([0, 2], 1), (slice(None, None, 2), 1),
                                      (slice(3, 0, -2), 1), (np.array([True, False, True]), 0),
                                      ([], 0), ([1, 1], 1), (slice(5, 9), 1)])
def test_delete(device, obj, axis):
    a = make((3, 4))
    check(lambda x: dt.delete(x, obj, axis), lambda x: np.delete(x, obj, axis), [a], device)


def test_insert_delete_many_runs(device):
    """Past _FEW_RUNS runs of kept indices, one gather (Note [insert and delete
    by host index arithmetic]); CPU tensors this large skip NumPy's own."""
    rng = np.random.default_rng(5)
    a = rng.standard_normal(70_000)
    t = on(a, device)
    mask = rng.random(70_000) < 0.4
    np.testing.assert_array_equal(to_np(dt.delete(t, on(mask, device))), np.delete(a, mask))
    np.testing.assert_array_equal(to_np(dt.delete(t, slice(None, None, 3))), np.delete(a, slice(None, None, 3)))
    where = np.arange(0, 70_000, 7)
    np.testing.assert_array_equal(to_np(dt.insert(t, where, 2.5)), np.insert(a, where, 2.5))
    vals = rng.integers(-9, 9, where.size)  # int values into a float tensor
    np.testing.assert_array_equal(to_np(dt.insert(t, where, on(vals, device))), np.insert(a, where, vals))
    m = rng.integers(-100, 100, (300, 250)).astype(np.int32)
    rows = rng.random(300) < 0.5
    np.testing.assert_array_equal(to_np(dt.delete(on(m, device), on(rows, device), axis=0)),
                                  np.delete(m, rows, axis=0))
    np.testing.assert_array_equal(to_np(dt.insert(on(m, device), [0, 5, 5, 9, 17, 40, 41, 100, 120, 121, 130,
                                                                  150, 160, 170, 180, 200, 210, 250, 299],
                                                  [[7.9] * 250], axis=0)),  # float rows into int32: cast
                                  np.insert(m, [0, 5, 5, 9, 17, 40, 41, 100, 120, 121, 130, 150, 160, 170, 180,
                                                200, 210, 250, 299], [[7.9] * 250], axis=0))
    got = dt.insert(on(m, device), slice(None), -1, axis=1)
    assert got.dtype == dt.int32 and got.device == dt.device(device)
    np.testing.assert_array_equal(to_np(got), np.insert(m, slice(None), -1, axis=1))


def test_insert_delete_of_one_index_or_a_slice(device):
    """One integer (Python's or NumPy's) or a step-1 slice: the runs are
    known without an index array; every position, both ends, negative
    ones, axes, values broadcast and cast, and NumPy's IndexError."""
    a = np.random.default_rng(2).standard_normal(70_001)  # past the small-CPU path on the CPU too
    m = np.arange(70_000, dtype=np.int32).reshape(350, 200)
    t, tm = on(a, device), on(m, device)
    for i in (0, 1, 35_000, -1, 70_000, -70_001, np.int64(7), np.uint8(3)):
        np.testing.assert_array_equal(to_np(dt.insert(t, i, -2.5)), np.insert(a, i, -2.5))
        if i != 70_000:
            np.testing.assert_array_equal(to_np(dt.delete(t, i)), np.delete(a, i))
    for obj in (slice(5, 100), slice(None, 10), slice(-3, None), slice(10, 5), slice(0, None), slice(7, 7)):
        np.testing.assert_array_equal(to_np(dt.delete(t, obj)), np.delete(a, obj))
    np.testing.assert_array_equal(to_np(dt.insert(t, 3, [1, 2, 3])), np.insert(a, 3, [1, 2, 3]))
    for axis, values in ((0, 7.9), (1, [[1], [2]] * 175), (0, np.arange(200)), (1, -1)):
        got = dt.insert(tm, 5, values if np.isscalar(values) else on(np.asarray(values), device), axis=axis)
        assert got.dtype == dt.int32
        np.testing.assert_array_equal(to_np(got), np.insert(m, 5, values, axis=axis))
        np.testing.assert_array_equal(to_np(dt.delete(tm, -2, axis=axis)), np.delete(m, -2, axis=axis))
    for call, want in [(lambda x: dt.insert(x, 70_002, 0.0), "index 70002 is out of bounds for axis 0 with size 70001"),
                       (lambda x: dt.insert(x, -70_002, 0.0), "index -70002 is out of bounds for axis 0"),
                       (lambda x: dt.delete(x, 70_001), "index 70001 is out of bounds for axis 0 with size 70001"),
                       (lambda x: dt.delete(x, -70_002), "index -70002 is out of bounds for axis 0")]:
        with pytest.raises(IndexError, match=want):
            call(t)
    with pytest.raises(IndexError, match="index 350 is out of bounds for axis 0 with size 350"):
        dt.delete(tm, 350, axis=0)


def test_insert_delete_errors(device):
    a = make((3, 2))
    t = on(a, device)
    same_error(lambda: dt.insert(t, 7, 1, axis=0), lambda: np.insert(a, 7, 1, axis=0))
    same_error(lambda: dt.insert(t, [[1, 2]], 1, axis=0), lambda: np.insert(a, [[1, 2]], 1, axis=0))
    same_error(lambda: dt.insert(t, [[1]], 1, axis=0), lambda: np.insert(a, [[1]], 1, axis=0))
    same_error(lambda: dt.insert(t, [2, 0], [[7], [8]], axis=1),
               lambda: np.insert(a, [2, 0], [[7], [8]], axis=1))
    same_error(lambda: dt.delete(t, 5, axis=0), lambda: np.delete(a, 5, axis=0))
    same_error(lambda: dt.delete(t, [5], axis=1), lambda: np.delete(a, [5], axis=1))
    same_error(lambda: dt.delete(t, [1.0], axis=0), lambda: np.delete(a, [1.0], axis=0))
    same_error(lambda: dt.delete(t, 0, axis=2), lambda: np.delete(a, 0, axis=2))


@pytest.mark.parametrize("trim", ["fb", "f", "b", "BF"])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1)])
@pytest.mark.parametrize("case", range(5))
def test_trim_zeros(device, trim, axis, case):
    a = [np.array([[0, 0, 0, 0, 0], [0, 0, 2, 0, 0], [0, 1, 0, 0, 0], [0, 0, 0, 0, 0]]),
         np.zeros((3, 4)), np.ones((2, 3)), np.array([[0, 0, 5]]), np.zeros((2, 0))][case]
    check(lambda x: dt.trim_zeros(x, trim, axis), lambda x: np.trim_zeros(x, trim, axis),
          [a], device)


def test_trim_zeros_1d(device):
    for a in ([0, 0, 1, 2, 0], [0.0, 0.0], [3], [0, 5, 0, 0, 7, 0, 0, 0]):
        arr = np.array(a)
        check(lambda x: dt.trim_zeros(x), np.trim_zeros, [arr], device)
    assert dt.trim_zeros([0, 0, 1, 2, 0]) == [1, 2]
    same_error(lambda: dt.trim_zeros(dt.ones(3, device=device), "x"),
               lambda: np.trim_zeros(np.ones(3), "x"))


# ---- pad ----

MODES = ["constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp", "maximum", "minimum", "mean", "median"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("width", [0, 1, 3, (1, 2), ((2, 5), (7, 3)), ((0, 0), (9, 0))])
def test_pad(device, mode, width):
    a = make((3, 4), "int32")
    check(lambda x: dt.pad(x, width, mode), lambda x: np.pad(x, width, mode), [a], device)


@pytest.mark.parametrize("width", [{0: (1, 2)}, {-1: 3}, {0: 2, 1: (0, 3)}, {}], ids=repr)
def test_pad_width_as_dict(device, width):
    """NumPy's {axis: width or (before, after)}, the other axes unpadded."""
    check(lambda x: dt.pad(x, width, "reflect"), lambda x: np.pad(x, width, "reflect"),
          [make((3, 4), "int32")], device)


def test_pad_width_dict_errors(device):
    t = dt.ones((2, 3), device=device)
    with pytest.raises(np.exceptions.AxisError):
        dt.pad(t, {2: 1})
    for width in (1.5, (1, 2, 3), (1, None)):
        with pytest.raises(TypeError, match="integer or a pair of integers"):
            dt.pad(t, {0: width})
    same_error(lambda: dt.pad(t, {0: -1}), lambda: np.pad(np.ones((2, 3)), {0: -1}))


def test_pad_options(device):
    a = make((3, 4), "float32")
    for kw in ({"constant_values": 7}, {"constant_values": ((1, 2), (3, 4))},
               {"constant_values": 2.5}):
        check(lambda x: dt.pad(x, ((2, 1), (1, 3)), "constant", **kw),
              lambda x: np.pad(x, ((2, 1), (1, 3)), "constant", **kw), [a], device)
    for mode in ("reflect", "symmetric"):
        check(lambda x: dt.pad(x, ((5, 7), (9, 2)), mode, reflect_type="odd"),
              lambda x: np.pad(x, ((5, 7), (9, 2)), mode, reflect_type="odd"), [a], device)
    r = dt.pad(on(a, device), 2, "empty")
    assert r.shape == (7, 8) and r.device == dt.device(device)
    assert_same(r[2:-2, 2:-2], a, device)
    for mode in MODES:  # length-1 and length-0 axes
        check(lambda x: dt.pad(x, ((0, 0), (3, 2)), mode),
              lambda x: np.pad(x, ((0, 0), (3, 2)), mode), [make((0, 1))], device)


def test_pad_errors(device):
    a = make(3)
    t = on(a, device)
    for args, kw in [((-1,), {}), ((1.5,), {}), ((1, "foo"), {}),
                     ((1, "edge"), {"constant_values": 1}), (((1, 2), (3, 4)), {})]:
        same_error(lambda: dt.pad(t, *args, **kw), lambda: np.pad(a, *args, **kw))
    same_error(lambda: dt.pad(dt.ones(0, device=device), 1, "edge"),
               lambda: np.pad(np.ones(0), 1, "edge"))
    same_error(lambda: dt.pad(t, 1, "maximum", stat_length=0), lambda: np.pad(a, 1, "maximum", stat_length=0))
    same_error(lambda: dt.pad(t, 1, "mean", stat_length=-1), lambda: np.pad(a, 1, "mean", stat_length=-1))
    same_error(lambda: dt.pad(t, 1, "mean", end_values=1), lambda: np.pad(a, 1, "mean", end_values=1))


def test_pad_stat_length_and_end_values(device):
    check(lambda x: dt.pad(x, 1, "mean"), lambda x: np.pad(x, 1, "mean"),
          [np.array([True, True, False, False])], device)  # a bool mean of 0.5 is True: no rounding
    for dtype in ("int32", "float64", "uint8"):
        a = make((5, 6), dtype)
        for mode in ("maximum", "minimum", "mean", "median"):
            for kw in ({"stat_length": 2}, {"stat_length": ((1, 3), (2, 9))}, {"stat_length": None}):
                check(lambda x: dt.pad(x, ((2, 3), (4, 1)), mode, **kw),
                      lambda x: np.pad(x, ((2, 3), (4, 1)), mode, **kw), [a], device,
                      exact=mode != "mean" or dtype != "float64")
        for ends in (5, ((1, 2), (3, 4)), (0, 9)):
            check(lambda x: dt.pad(x, ((2, 3), (4, 1)), "linear_ramp", end_values=ends),
                  lambda x: np.pad(x, ((2, 3), (4, 1)), "linear_ramp", end_values=ends), [a], device)


# ---- hypothesis: the core functions over shapes, axes and dtypes ----

@given(shape=shapes(), n=st.integers(1, 3), data=st.data(),
       dtypes=st.lists(st.sampled_from(DTYPES), min_size=3, max_size=3))
def test_hyp_concatenate_stack(device, shape, n, data, dtypes):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    arrays = []
    for i in range(n):
        s = list(shape)
        s[axis] = data.draw(st.integers(0, 3))
        arrays.append(make(tuple(s), dtypes[i], i))
    check(lambda *t: dt.concatenate(t, axis=axis), lambda *a: np.concatenate(a, axis=axis),
          arrays, device)
    same = [make(shape, d, i) for i, d in enumerate(dtypes[:n])]
    saxis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    check(lambda *t: dt.stack(t, axis=saxis), lambda *a: np.stack(a, axis=saxis), same, device)


@given(shape=shapes(), n=st.integers(1, 4), data=st.data(), dtype=st.sampled_from(DTYPES + ["bfloat16"]),
       layout=st.sampled_from(["contiguous", "transposed", "reversed", "strided"]))
def test_hyp_concatenate_in_c(device, shape, n, data, dtype, layout):
    """Note [Joins in C]: tensors of one dtype and device, in any layout,
    joined by the per-call path, equal NumPy's join and the Python form's."""
    from devtensor import _C
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    arrays = []
    for i in range(n):
        s = list(shape)
        s[axis] = data.draw(st.integers(0, 3))
        arrays.append(make(tuple(s), "float32" if dtype == "bfloat16" else dtype, i))
    views = {"contiguous": lambda a: a, "transposed": lambda a: a.T.copy().T,
             "reversed": lambda a: a[::-1], "strided": lambda a: np.repeat(a, 2, axis=0)[::2]}
    arrays = [views[layout](a) for a in arrays]
    ts = [dt.asarray(a, device=device).astype(dtype) for a in arrays]
    got = _C._concatenate_fast(ts, axis)
    assert got is not None
    want = np.concatenate(arrays, axis=axis)
    assert got.shape == want.shape and got.dtype == dt.dtype(dtype) and got.device == ts[0].device
    assert dt.concatenate(tuple(ts), axis=axis).tolist() == got.tolist()
    ref = got.astype(dt.float32) if dtype == "bfloat16" else got
    assert_same(ref, want.astype(np.float32) if dtype == "bfloat16" else want, device)


@given(shape=shapes(0, 3), n=st.integers(1, 4), data=st.data(), dtype=st.sampled_from(DTYPES),
       layout=st.sampled_from(["contiguous", "reversed", "strided"]))
def test_hyp_stack_in_c(device, shape, n, data, dtype, layout):
    """Note [Joins in C]: stack of tensors of one shape, dtype and device."""
    from devtensor import _C
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    views = {"contiguous": lambda a: a, "reversed": lambda a: a[::-1] if a.ndim else a,
             "strided": lambda a: np.repeat(a, 2, axis=0)[::2] if a.ndim else a}
    arrays = [views[layout](make(shape, dtype, i)) for i in range(n)]
    ts = [dt.asarray(a, device=device) for a in arrays]
    got = _C._stack_fast(ts, axis)
    assert got is not None
    assert_same(got, np.stack(arrays, axis=axis), device)
    assert_same(dt.stack(ts, axis=axis), np.stack(arrays, axis=axis), device)


def test_stack_in_c_leaves_the_rest_to_python(device):
    from devtensor import _C
    x, y = dt.ones((2, 3), device=device), dt.ones((2, 3), dtype=dt.float32, device=device)
    for args in (([x, y], 0), ([x, x], 3), ([x, x], -4), ([x, dt.ones((3, 2), device=device)], 0), ([], 0),
                 ([x, [[1, 2, 3]] * 2], 0), (x, 0), ([x, x], np.int64(0)), ([x, x], None)):
        assert _C._stack_fast(*args) is None, args
    assert dt.stack([x, y]).dtype == dt.float64
    same_error(lambda: dt.stack([x, dt.ones((3, 2), device=device)]), lambda: np.stack([np.ones((2, 3)),
                                                                                       np.ones((3, 2))]))
    same_error(lambda: dt.stack([x], axis=3), lambda: np.stack([np.ones((2, 3))], axis=3))


def test_concatenate_in_c_leaves_the_rest_to_python(device):
    """The forms the per-call path declines (None): NumPy's errors and
    promotions then come from the Python form."""
    from devtensor import _C
    x, y = dt.ones((2, 3), device=device), dt.ones((2, 3), dtype=dt.float32, device=device)
    for args in (([x, y], 0), ([x, x], 2), ([x, x], -3), ([x, x], None), ([x, x], np.int64(0)), ([], 0),
                 ([x, dt.ones(3, device=device)], 0), ([x, dt.ones((2, 4), device=device)], 0),
                 ([dt.asarray(1.0, device=device)] * 2, 0), ([x, [[1, 2, 3]]], 0), (x, 0), ((x for _ in "ab"), 0),
                 ([x, x], True), ([x, x], 2 ** 70)):
        assert _C._concatenate_fast(*args) is None, args
    assert dt.concatenate([x, y]).dtype == dt.float64
    assert dt.concatenate([x, x], axis=np.int64(1)).shape == (2, 6)
    with pytest.raises(TypeError, match="The first input argument needs to be a sequence"):  # NumPy's refusal
        dt.concatenate((t for t in [x, x]))
    r = dt.concatenate([x[:, :0], x[:, :0]], axis=1)  # empty parts
    assert r.shape == (2, 0) and r.device == x.device
    ro = dt.asarray(np.ones(3))
    ro_view = dt.asarray(np.broadcast_to(np.arange(3.0), (2, 3)))  # read-only, zero strides
    assert dt.concatenate([ro_view, ro_view]).tolist() == [[0.0, 1.0, 2.0]] * 4
    assert dt.concatenate([ro, ro]).tolist() == [1.0] * 6
    with pytest.raises(TypeError):
        _C._concatenate_fast([x])


@given(shape=shapes(), data=st.data(), dtype=st.sampled_from(DTYPES))
def test_hyp_split(device, shape, data, dtype):
    a = make(shape, dtype)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    arg = data.draw(st.one_of(st.integers(1, 5),
                              st.lists(st.integers(-6, 6), max_size=4)))
    check(lambda x: dt.array_split(x, arg, axis), lambda x: np.array_split(x, arg, axis),
          [a], device)
    if isinstance(arg, list) or a.shape[axis] % arg == 0:
        check(lambda x: dt.split(x, arg, axis), lambda x: np.split(x, arg, axis), [a], device)


@given(shape=shapes(0), data=st.data(), dtype=st.sampled_from(DTYPES))
def test_hyp_flip_roll(device, shape, data, dtype):
    a = make(shape, dtype)
    axes = st.integers(-len(shape), len(shape) - 1) if shape else st.nothing()
    axis = data.draw(st.one_of(st.none(), axes, st.lists(axes, unique_by=lambda x: x % len(shape),
                                                         max_size=3).map(tuple))
                     if shape else st.none())
    check(lambda x: dt.flip(x, axis), lambda x: np.flip(x, axis), [a], device)
    if axis is None or isinstance(axis, int):
        shift = data.draw(st.integers(-10, 10))
    else:
        shift = tuple(data.draw(st.integers(-10, 10)) for _ in axis)
    check(lambda x: dt.roll(x, shift, axis), lambda x: np.roll(x, shift, axis), [a], device)


@given(shape=shapes(0, 3), data=st.data(), dtype=st.sampled_from(DTYPES),
       mode=st.sampled_from(MODES))
def test_hyp_pad(device, shape, data, dtype, mode):
    a = make(shape, dtype)
    width = data.draw(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)),
                               min_size=len(shape), max_size=len(shape)))
    width = tuple(width) if shape else 2
    if mode != "constant" and shape and any(n == 0 and any(w) for n, w in zip(shape, width)):
        return  # NumPy's error, checked in test_pad_errors
    exact = mode != "mean" or np.dtype(dtype).kind not in "fc"  # a sum in another order than NumPy's
    check(lambda x: dt.pad(x, width, mode), lambda x: np.pad(x, width, mode), [a], device, exact)


@given(shape=shapes(0, 3), data=st.data(), dtype=st.sampled_from(DTYPES))
def test_hyp_repeat_tile(device, shape, data, dtype):
    a = make(shape, dtype)
    axis = data.draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1))
                     if shape else st.none())
    n = a.size if axis is None else a.shape[axis]
    repeats = data.draw(st.one_of(st.integers(0, 3), st.lists(st.integers(0, 3), min_size=n,
                                                              max_size=n)))
    check(lambda x: dt.repeat(x, repeats, axis), lambda x: np.repeat(x, repeats, axis),
          [a], device)
    reps = data.draw(st.one_of(st.integers(0, 3), st.lists(st.integers(0, 3), max_size=4)))
    check(lambda x: dt.tile(x, reps), lambda x: np.tile(x, reps), [a], device)


def test_block_and_rollaxis(device):
    a, b, c = make((2, 2)), make((2, 1)), make((1, 3))
    cases = [lambda m, x, y, z: m.block([[x, y], [z]]), lambda m, x, y, z: m.block([x[0], y[:, 0], 7]),
             lambda m, x, y, z: m.block(x), lambda m, x, y, z: m.block([[[x]], [[x]]]),
             lambda m, x, y, z: m.block([[x, x], [x, x]])]
    for f in cases:
        check(lambda *ts: f(dt, *ts), lambda *arrs: f(np, *arrs), [a, b, c], device)
    t = on(a, device)
    for bad in [lambda m, x: m.block([]), lambda m, x: m.block([[x], x]), lambda m, x: m.block((x, x)),
                lambda m, x: m.block([[x], []])]:
        same_error(lambda: bad(dt, t), lambda: bad(np, a))
    x = make((2, 3, 4, 5))
    for axis, start in [(3, 0), (2, 4), (0, 3), (-1, 1), (1, 1), (1, -2)]:
        check(lambda v: dt.rollaxis(v, axis, start), lambda v: np.rollaxis(v, axis, start), [x], device)
    same_error(lambda: dt.rollaxis(on(x, device), 0, 6), lambda: np.rollaxis(x, 0, 6))


def test_pad_with_a_function_is_numpys_on_cpu_tensors(device):
    """A function as mode (NumPy's padding callback on host rows): NumPy's
    result for a CPU tensor, with its keyword arguments; a device tensor
    is refused with how to do it instead."""
    def border(vector, width, axis, kwargs):
        vector[:width[0]] = kwargs.get("value", -1)
        if width[1]:
            vector[-width[1]:] = 2 * kwargs.get("value", -1)
    a = np.arange(12).reshape(3, 4)
    t = dt.asarray(a, device=device)
    if device != "cpu":
        with pytest.raises(TypeError, match=r"t\.cpu\(\)"):
            dt.pad(t, 1, border)
        return
    assert_same(dt.pad(t, ((1, 2), (0, 1)), border), np.pad(a, ((1, 2), (0, 1)), border))
    assert_same(dt.pad(t, 1, border, value=7), np.pad(a, 1, border, value=7))
    assert a.tolist() == np.arange(12).reshape(3, 4).tolist()  # the input untouched
