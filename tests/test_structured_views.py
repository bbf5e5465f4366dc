"""tri, tril, triu, diag, diagflat, meshgrid and indices; Tensor.view(dtype),
Tensor.flat and iteration: against NumPy on every device (values, dtypes,
shapes, views shared or not, and NumPy's errors)."""
import numpy as np
import pytest

import devtensor as dt
from helpers import ALL_DEVICES, assert_same, given, hnp, same_error, settings, st, to_np


def on(a, device):
    return dt.asarray(a, device=device)


# ------------------------------------------------------------------ tri, tril, triu

@pytest.mark.parametrize("args", [(3,), (3, 4), (4, 2, 1), (3, 3, -1), (2, 5, 10), (3, 0),
                                  (0,), (3, 4, 1, int), (2, 2, 0, bool), (3, 3, 1.5)], ids=repr)
def test_tri(args, device):
    assert_same(dt.tri(*args, device=device), np.tri(*args), device=device)


def test_tri_negative_and_float_sizes():
    assert_same(dt.tri(-1), np.tri(-1))
    assert_same(dt.tri(2, -3), np.tri(2, -3))
    with pytest.raises(TypeError):  # NumPy's tri(2.5) is (3, 3), an accident of arange
        dt.tri(2.5)


TRI_FLOAT_K = [("tri", (3, 3, 1.5)), ("tril_indices", (3, 0.5)), ("triu_indices", (4, -0.5, 3))]


@pytest.mark.parametrize("name,args", TRI_FLOAT_K, ids=repr)
def test_float_k_warns_as_the_installed_numpy_does(name, args, device):
    """NumPy 2.5 deprecates a k that is not an integer (a DeprecationWarning
    pointing at the caller); earlier NumPy says nothing.  The values are
    NumPy's either way."""
    import warnings
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        result = getattr(dt, name)(*args, device=device)
    with warnings.catch_warnings(record=True) as want:
        warnings.simplefilter("always")
        expected = getattr(np, name)(*args)
    assert [(w.category, str(w.message)) for w in got] == [(w.category, str(w.message)) for w in want]
    assert all(w.filename == __file__ for w in got)
    for r, e in zip(result, expected) if isinstance(expected, tuple) else [(result, expected)]:
        assert_same(r, e, device=device)


@pytest.mark.parametrize("fname", ["tril", "triu"])
@pytest.mark.parametrize("shape", [(3, 3), (3, 5), (5, 2), (2, 3, 4), (4,), (0, 3), (2, 0, 0)],
                         ids=repr)
@pytest.mark.parametrize("k", [0, 1, -2, 7])
def test_tril_triu(fname, shape, k, device):
    a = np.arange(1, 1 + int(np.prod(shape)), dtype=np.float32).reshape(shape)
    got = getattr(dt, fname)(on(a, device), k)
    assert_same(got, getattr(np, fname)(a, k), device=device)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float16", "complex128"])
def test_tril_triu_dtypes(dtype, device):
    a = (np.arange(12).reshape(3, 4) % 3).astype(dtype)
    assert_same(dt.tril(on(a, device), -1), np.tril(a, -1))
    assert_same(dt.triu(on(a, device), 1), np.triu(a, 1))


def test_tril_strided_and_lists(device):
    a = np.arange(30.0).reshape(5, 6)[::2, ::-2]
    assert_same(dt.tril(on(np.arange(30.0).reshape(5, 6), device)[::2, ::-2]), np.tril(a))
    assert_same(dt.triu([[1, 2], [3, 4]], k=1.5), np.triu([[1, 2], [3, 4]], k=1.5))


def test_tril_errors():
    same_error(lambda: np.tril(np.float64(3)), lambda: dt.tril(dt.tensor(3.0)))


@given(a=hnp.arrays(st.sampled_from([np.int16, np.float64, np.bool_]),
                    hnp.array_shapes(min_dims=1, max_dims=4, min_side=0, max_side=5)),
       k=st.integers(-6, 6), lower=st.booleans())
@settings(max_examples=40)
def test_tril_triu_property(a, k, lower):
    for device in ALL_DEVICES:
        name = "tril" if lower else "triu"
        assert_same(getattr(dt, name)(on(a, device), k), getattr(np, name)(a, k), device=device)


# ------------------------------------------------------------------ diag, diagflat

@pytest.mark.parametrize("k", [0, 1, 2, -1, -3, 5])
def test_diag_of_vector(k, device):
    v = np.arange(1, 4, dtype=np.int32)
    assert_same(dt.diag(on(v, device), k), np.diag(v, k), device=device)
    assert_same(dt.diag(on(v, device)[::-1], k), np.diag(v[::-1], k), device=device)


@pytest.mark.parametrize("shape", [(3, 3), (3, 5), (5, 2), (0, 3), (1, 1)], ids=repr)
@pytest.mark.parametrize("k", [0, 1, -1, 3, -6])
def test_diag_of_matrix_is_a_readonly_view(shape, k, device):
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    t = on(a, device)
    d = dt.diag(t, k)
    want = np.diag(a, k)
    assert_same(d, want, device=device)
    assert d.flags.writeable == want.flags.writeable  # False, as NumPy's
    if d.size:
        assert dt.shares_memory(d, t)
        with pytest.raises(ValueError, match="read-only"):
            d[0] = 1
        d.flags.writeable = True  # NumPy allows it, and then writes go through
        d[0] = -1
        assert to_np(t).flat[np.flatnonzero(to_np(t) == -1)].size == 1


def test_diag_of_transposed_matrix(device):
    a = np.arange(12.0).reshape(3, 4)
    assert_same(dt.diag(on(a, device).T, 1), np.diag(a.T, 1))


def test_diag_errors():
    same_error(lambda: np.diag(np.ones((2, 2, 2))), lambda: dt.diag(dt.ones((2, 2, 2))))
    same_error(lambda: np.diag(3), lambda: dt.diag(3))


@pytest.mark.parametrize("v", [[[1, 2], [3, 4]], [5], 7, [1.5, 2.5, 3.5]], ids=repr)
@pytest.mark.parametrize("k", [0, 1, -2])
def test_diagflat(v, k, device):
    got = dt.diagflat(on(np.array(v), device), k)
    assert_same(got, np.diagflat(v, k), device=device)
    assert got.flags.writeable


# ------------------------------------------------------------------ meshgrid, indices

@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("copy", [True, False])
@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_meshgrid(indexing, sparse, copy, n, device):
    xs = [np.arange(2 + i, dtype=[np.int32, np.float64, np.int8][i % 3]) * (i + 1)
          for i in range(n)]
    want = np.meshgrid(*xs, indexing=indexing, sparse=sparse, copy=copy)
    got = dt.meshgrid(*[on(x, device) for x in xs], indexing=indexing, sparse=sparse, copy=copy)
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w, device=device)
    if copy and n:
        got[0][...] = 0  # copies are writeable and independent
        assert to_np(got[0]).sum() == 0


def test_meshgrid_2d_inputs_and_lists():
    want = np.meshgrid([[1, 2]], [3, 4, 5])
    for g, w in zip(dt.meshgrid([[1, 2]], [3, 4, 5]), want):
        assert_same(g, w)


def test_meshgrid_errors(device):
    same_error(lambda: np.meshgrid([1, 2], indexing="xz"),
               lambda: dt.meshgrid([1, 2], indexing="xz"))
    if device != "cpu":
        with pytest.raises(RuntimeError, match="same device"):
            dt.meshgrid(dt.arange(2), dt.arange(3, device=device))


@pytest.mark.parametrize("dims", [(2, 3), (4,), (), (2, 0, 3), (1, 2, 3, 2)], ids=repr)
@pytest.mark.parametrize("dtype", [int, float, "int16"])
def test_indices(dims, dtype, device):
    assert_same(dt.indices(dims, dtype, device=device), np.indices(dims, dtype), device=device)
    got = dt.indices(dims, dtype, sparse=True, device=device)
    want = np.indices(dims, dtype, sparse=True)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w, device=device)


def test_indices_errors():
    same_error(lambda: np.indices((2, -3)), lambda: dt.indices((2, -3)))


# ------------------------------------------------------------------ view(dtype)

VIEW_CASES = [
    ((2, 3), "int32", "int16"), ((2, 4), "int32", "int64"), ((2, 4), "int32", "float64"),
    ((2, 3), "float32", "int32"), ((4,), "float64", "uint8"), ((3, 2), "complex128", "float64"),
    ((2, 2), "float32", "complex64"), ((2, 3), "int16", "float16"), ((2, 0), "int32", "int64"),
    ((), "float32", "int32"), ((3,), "int8", "bool"), ((5, 1), "int32", "int16"),
    ((2, 8), "uint8", "int32"),
]


@pytest.mark.parametrize("shape,src,dst", VIEW_CASES, ids=repr)
def test_view_dtype(shape, src, dst, device):
    a = (np.arange(int(np.prod(shape))) % 4).astype(src).reshape(shape)
    t = on(a, device)
    for spelling in (dst, np.dtype(dst), getattr(dt, dst)):
        v = t.view(spelling)
        want = a.view(dst)
        assert_same(v, want, device=device)
        assert v.strides == want.strides or t.size == 0
    v = t.view(dtype=dst)
    assert dt.shares_memory(v, t) or t.size == 0
    if t.size:  # a view: writes go through
        v[...] = 0
        assert not to_np(t).any()


@pytest.mark.parametrize("make", [
    lambda a: a.T, lambda a: a[:, :2], lambda a: a[:, ::2], lambda a: a[()], lambda a: a[:1, :1],
    lambda a: a[:, 1:3], lambda a: a[..., None],
], ids=["T", "cols", "stepped", "all", "corner", "middle", "newaxis"])
@pytest.mark.parametrize("dst", ["int16", "int64", "float32", "uint8"])
def test_view_dtype_layouts(make, dst, device):
    a = np.arange(16, dtype=np.int32).reshape(4, 4)
    t = make(on(a, device))
    try:
        want = make(a).view(dst)
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            t.view(dst)
        assert str(got.value) == str(e)
        return
    if not want.flags.aligned:  # Note [Reinterpreting a view]: we refuse unaligned views
        with pytest.raises(ValueError, match="aligned"):
            t.view(dst)
        return
    got = t.view(dst)
    assert_same(got, want, device=device)
    assert got.strides == want.strides


def test_view_dtype_errors():
    a = np.zeros((2, 3), np.int32)
    t = dt.zeros((2, 3), dtype=dt.int32)
    same_error(lambda: a.view(np.int64), lambda: t.view(dt.int64))
    same_error(lambda: a.T.view(np.int16), lambda: t.T.view(dt.int16))
    same_error(lambda: np.array(3, np.int32).view(np.int16),
               lambda: dt.tensor(3, dtype=dt.int32).view(dt.int16))
    same_error(lambda: a.view("foo"), lambda: t.view(dtype="foo"))
    with pytest.raises(ValueError, match="aligned"):  # NumPy makes it unaligned; we refuse
        dt.zeros((3, 4), dtype=dt.int8)[:, 1:3].view(dt.int16)

    class Named(np.ndarray):
        pass

    with pytest.raises(TypeError, match=r"view\(Named\): a tensor cannot be viewed as another array type"):
        t.view(Named)
    assert t.view(dt.Tensor).shape == (2, 3)  # our own type: a view
    v = t.view(dt.ndarray)  # NumPy's name for it (import devtensor as np; a.view(np.ndarray))
    assert type(v) is dt.Tensor and v.shape == (2, 3) and dt.shares_memory(v, t)
    with pytest.raises(TypeError, match="does not support the NumPy data type"):  # not "must be real numbers"
        dt.arange("2016-07", "2016-08", dtype="datetime64[D]")


def test_view_keeps_shape_views_and_readonly(device):
    t = dt.arange(6, device=device)
    assert t.view(2, 3).shape == (2, 3) and t.view(-1).shape == (6,)
    v = t.view()
    assert v.shape == t.shape and dt.shares_memory(v, t) and v is not t
    assert t.view(dt.Tensor).shape == t.shape
    ro = dt.broadcast_to(t, (2, 6))
    assert not ro.view(dt.uint64).flags.writeable


@given(a=hnp.arrays(st.sampled_from([np.int8, np.int16, np.float32, np.float64, np.complex64]),
                    hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=6)),
       dst=st.sampled_from(["uint8", "int16", "float32", "int64", "complex128"]),
       transpose=st.booleans())
@settings(max_examples=60)
def test_view_dtype_property(a, dst, transpose):
    src = a.T if transpose else a
    for device in ALL_DEVICES:
        t = on(a, device)
        t = t.T if transpose else t
        try:
            want = src.view(dst)
        except ValueError as e:
            with pytest.raises(ValueError) as got:
                t.view(dst)
            assert str(got.value) == str(e)
            continue
        bits = (lambda x: np.ascontiguousarray(x).view(np.uint8))  # NaNs compare as bytes
        np.testing.assert_array_equal(bits(to_np(t.view(dst))), bits(want))
        assert t.view(dst).shape == want.shape


# ------------------------------------------------------------------ flat

def test_flat_getitem(device):
    a = np.arange(12).reshape(3, 4).T
    t = on(np.arange(12).reshape(3, 4), device).T
    f = t.flat
    assert len(f) == a.size and f.base is t
    for i in (0, 1, 5, -1, -12, np.int64(3)):
        e = f[i]
        assert e.shape == () and e.item() == a.flat[i]
    assert_same(f[2:9:3], a.flat[2:9:3], device=device)
    assert_same(f[::-1], a.flat[::-1], device=device)
    assert_same(f[...], a.flat[...], device=device)
    assert_same(f.copy(), a.flat.copy(), device=device)
    assert_same(dt.asarray(np.asarray(f)), np.asarray(a.flat))
    got = f[1:4]
    got[0] = 100  # slices are copies
    assert t.flat[1].item() == a.flat[1]
    e, items = f[1], list(t.flat)
    e += 50  # elements are copies, as NumPy's scalars (Note [An element is a copy])
    t[...] = -1
    assert t.flat[1].item() == -1 and e.item() == a.flat[1] + 50
    assert [x.item() for x in items] == a.flatten().tolist()


def test_flat_iteration(device):
    a = np.arange(6.0).reshape(2, 3)[:, ::-1]
    t = on(np.arange(6.0).reshape(2, 3), device)[:, ::-1]
    f = t.flat
    assert f.index == 0 and f.coords == (0, 0)
    values = [x.item() for x in f]
    assert values == list(a.flat)
    assert f.index == 6
    it = t.flat
    next(it)
    next(it)
    assert it.index == 2 and it.coords == (0, 2)
    assert [x.item() for x in dt.tensor(5.0, device=device).flat] == [5.0]
    assert list(dt.zeros((2, 0), device=device).flat) == []
    for u in (on(np.arange(6.0).reshape(2, 3), device), t):  # contiguous (a 1-d view) and not
        it = u.flat
        first = next(it)
        u[0, 1] = 50.0  # the iteration reads the tensor as it is now, as NumPy's
        assert next(it).item() == 50.0 and first.ndim == 0 and first.device == u.device
        first += 1  # items are copies
        assert u[0, 0].item() != first.item()


def test_flat_errors():
    a, t = np.arange(6).reshape(2, 3), dt.arange(6).reshape(2, 3)
    same_error(lambda: a.flat[6], lambda: t.flat[6])
    same_error(lambda: a.flat[-7], lambda: t.flat[-7])
    same_error(lambda: a.flat[1, 2], lambda: t.flat[1, 2])


@pytest.mark.parametrize("key,value", [
    (4, 9), (-1, 7.5), (slice(None, 4), [1, 2]), (slice(None, None, 2), [1, 2, 3, 4, 5]),
    (slice(1, None, 3), 3), (slice(2, 4), np.array([[9]])), (slice(None), [1, 2, 3, 4, 5]),
    (slice(None, None, -1), np.arange(12)), (Ellipsis, [8, 9]), (slice(3, 3), [1]),
], ids=repr)
@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_flat_setitem(key, value, layout, device):
    a = np.zeros((3, 4))
    t = dt.zeros((3, 4), device=device)
    if layout == "transposed":
        a, t = a.T, t.T
    a.flat[key] = value
    t.flat[key] = value
    assert_same(t, a, device=device)


def test_flat_setitem_tensor_values_and_setter(device):
    t = dt.zeros((2, 3), dtype=dt.int32, device=device).T
    a = np.zeros((2, 3), dtype=np.int32).T
    t.flat[1:5] = dt.arange(2, device=device)
    a.flat[1:5] = np.arange(2)
    assert_same(t, a)
    t.flat = [7, 8]
    a.flat = [7, 8]
    assert_same(t, a)
    t.flat = 3
    a.flat = 3
    assert_same(t, a)


@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5),
       start=st.integers(-8, 8) | st.none(), stop=st.integers(-8, 8) | st.none(),
       step=st.sampled_from([None, 1, 2, 3, -1, -2]), nvalues=st.integers(1, 7),
       transpose=st.booleans())
@settings(max_examples=60)
def test_flat_slices_property(shape, start, stop, step, nvalues, transpose):
    key = slice(start, stop, step)
    base = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    values = np.arange(100, 100 + nvalues)
    for device in ALL_DEVICES:
        a = base.T.copy() if transpose else base.copy()
        t = on(base, device)
        t = t.T if transpose else t
        assert_same(t.flat[key], a.flat[key])
        a.flat[key] = values
        t.flat[key] = values
        assert_same(t, a)


# ------------------------------------------------------------------ iteration

def test_iteration_over_first_axis(device):
    a = np.arange(24).reshape(2, 3, 4)[:, ::-1]
    t = on(np.arange(24).reshape(2, 3, 4), device)[:, ::-1]
    rows = list(t)
    assert len(rows) == 2
    for r, w in zip(rows, a):
        assert_same(r, w, device=device)
        assert dt.shares_memory(r, t)
    assert [x.item() for x in dt.arange(3, device=device)] == [0, 1, 2]
    assert list(dt.zeros((0, 2), device=device)) == []
    rows[0][0, 0] = -5  # views: writes go through
    assert t[0, 0, 0].item() == -5


def test_iteration_over_0d():
    same_error(lambda: iter(np.array(3)), lambda: iter(dt.tensor(3)))
