"""Views: basic indexing, setitem, reshape, transpose, squeeze, expand_dims and
broadcast_to, on every device, with NumPy as the oracle for values, shapes,
byte strides and errors (devtensor/_views.py)."""
import gc
import sys

import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, given, hnp, requires_cuda, same_error, st, to_np


def pair(shape, device, dtype="int64"):
    """(tensor, NumPy array) holding 0, 1, 2, ... in the given shape."""
    a = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    return dt.asarray(a, device=device), a


def assert_view(v, expected, base=None):
    """v equals the NumPy view `expected`, with the same byte strides, and
    (when base is given) shares base's storage.  Empty tensors made on a
    device may have other strides than NumPy's, so theirs are not compared.
    Where NumPy gives a scalar (an integer for every axis), v is a 0-d copy
    (Note [An element is a copy] in csrc/python/index.c)."""
    if isinstance(expected, np.generic):
        assert_same(v, np.asarray(expected))
        assert base is None or not v._same_storage(base)
        return
    if expected.size:
        assert v.strides == expected.strides, (v.strides, expected.strides)
    assert_same(v, expected)
    if base is not None:
        assert v._same_storage(base)


# ---- getitem ----

KEYS = [
    1, -1, (0, 2), (-2, -3), slice(None), slice(1, None), slice(None, None, -1),
    slice(5, -10, -2), slice(-100, 100, 3), slice(2, 1), (Ellipsis, 1), (1, Ellipsis),
    (None, 1, slice(0, 3, 2), None), (Ellipsis, None), (), Ellipsis, (slice(None), 2),
    (1, 2, 3), (1, None, 2, Ellipsis, None, 3), (slice(None, None, -1), slice(None, None, -2)),
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_getitem_matches_numpy(device, key):
    x, a = pair((2, 3, 4), device)
    assert_view(x[key], a[key], base=x)


@pytest.mark.parametrize("idx", [np.int64(1), np.uint8(1), np.array(1), np.int8(-1)], ids=repr)
def test_numpy_integers_are_ints(device, idx):
    x, a = pair((3, 2), device)
    assert_view(x[idx], a[idx], base=x)


def test_numpy_integers_in_keys_and_their_errors(device):
    x, a = pair((4, 5), device)
    for key in [(np.int32(1), slice(np.int64(1), np.uint8(4))), (Ellipsis, np.int16(-2)), np.uint64(3)]:
        assert_view(x[key], a[key], base=x)
    for key in [np.uint64(2**64 - 1), np.int64(9)]:
        with pytest.raises(Exception) as np_err:
            a[key]
        with pytest.raises(type(np_err.value), match=str(np_err.value)):
            x[key]


def test_zero_d_integer_tensor_is_an_int(device):
    x, a = pair((3, 2), device)
    assert_view(x[dt.asarray(2, device=device)], a[2], base=x)
    assert_view(x[1:, dt.asarray(-1, device=device)], a[1:, -1], base=x)


def test_full_integer_index_is_a_0d_copy(device):
    """Note [An element is a copy]: NumPy's scalar, as a 0-d tensor; the
    element itself is written through setitem, or a view (x[1, 2, ...])."""
    x, a = pair((2, 3), device)
    s = x[1, 2]
    assert isinstance(s, dt.Tensor) and s.shape == () and s.item() == 5
    s[...] = 50
    assert x.tolist()[1][2] == 5
    x[1, 2, ...][...] = 60
    assert x.tolist()[1][2] == 60
    x[1, 2] = 70
    assert x.tolist()[1][2] == 70 and s.item() == 50


def test_element_fast_path_matches_numpy(device):
    """Note [The element fast path]: Python-int keys of CPU tensors, through
    strided, reversed and transposed views and negative indices, give NumPy's
    element; anything out of range, too large or not an int takes the general
    way and NumPy's errors."""
    x, a = pair((3, 4), device, dtype="float32")
    for xv, av in ((x, a), (x[::-1, ::2], a[::-1, ::2]), (x.T, a.T), (x[1], a[1]), (x[:, -1], a[:, -1])):
        for key in np.ndindex(*av.shape):
            neg = tuple(k - n for k, n in zip(key, av.shape))
            for k in (key, neg):
                got = xv[k if len(k) > 1 else k[0]]
                assert got.shape == () and got.dtype == xv.dtype and got.item() == av[k]
    for bad, exc in (((3, 0), IndexError), ((0, -5), IndexError), (2 ** 63, OverflowError), ((0, 2 ** 64), IndexError),
                     ((0, -2 ** 63 - 1), IndexError), ((0,), None), ((0, 1, 2), IndexError), ((0, 1.0), IndexError)):
        if exc is None:
            assert_view(x[bad], a[bad])
            continue
        with pytest.raises(exc) as ours:
            x[bad]
        with pytest.raises(exc) as numpys:
            a[bad]
        assert str(ours.value) == str(numpys.value)
    assert x[1][True].shape == a[1][True].shape == (1, 4)  # a bool is a mask, not the integer 1


@given(data=st.data())
def test_getitem_property(device, data):
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5))
    x, a = pair(shape, device, dtype="int32")
    for _ in range(2):  # the second index applies to a (possibly strided) view
        key = data.draw(hnp.basic_indices(a.shape, allow_newaxis=True, allow_ellipsis=True))
        x, a = x[key], a[key]
        assert_view(x, a)


def test_writes_through_a_view_reach_the_base(device):
    x, a = pair((4, 5), device, dtype="float32")
    v = x[1:, ::-2]
    v[...] = -1.0
    a[1:, ::-2] = -1.0
    assert_same(x, a)
    x[2] = 7.0
    a[2] = 7.0
    assert_same(v, a[1:, ::-2])


def test_a_view_keeps_its_storage_alive(device):
    x, a = pair((3, 4), device)
    v = x[1:, ::2]
    del x
    gc.collect()
    dt.ones(3, 4, device=device)  # reuse freed memory, if it was freed
    assert_same(v, a[1:, ::2])


def test_views_do_not_leak_references(device):
    x, _ = pair((3, 4), device)
    before = sys.getrefcount(x)
    views = [x[1:, None, ::2].reshape(-1).T for _ in range(100)]
    del views
    assert sys.getrefcount(x) == before


def test_iteration_yields_views(device):
    x, a = pair((3, 2), device)
    rows = list(x)
    assert len(rows) == 3
    for r, e in zip(rows, a):
        assert_view(r, e, base=x)
    with pytest.raises(TypeError, match="iteration over a 0-d"):
        iter(x[0, 0])


@pytest.mark.parametrize("key, exc, msg", [
    (5, IndexError, "index 5 is out of bounds for axis 0 with size 3"),
    (-4, IndexError, "index -4 is out of bounds for axis 0 with size 3"),
    ((0, 3), IndexError, "index 3 is out of bounds for axis 1 with size 2"),
    ((0, 0, 0), IndexError,
     "too many indices for array: array is 2-dimensional, but 3 were indexed"),
    ((Ellipsis, Ellipsis), IndexError, "an index can only have a single ellipsis"),
    (slice(None, None, 0), ValueError, "slice step cannot be zero"),
    (1.0, IndexError, "only integers, slices"),
    ("a", IndexError, "only integers, slices"),
])
def test_getitem_errors(device, key, exc, msg):
    x, a = pair((3, 2), device)
    with pytest.raises(exc) as np_err:
        a[key]
    with pytest.raises(exc, match=msg.replace("(", r"\(").replace(".", r"\.")) as err:
        x[key]
    assert str(err.value) == str(np_err.value)
    with pytest.raises(exc):
        x[key] = 0


_BOUND = st.one_of(st.none(), st.integers(-8, 8), st.sampled_from([2**62, -2**62, 2**63 - 1, -2**63, 2**70]))
_ITEM = st.one_of(
    st.integers(-7, 7), st.sampled_from([2**63 - 1, -2**63, 2**64]), st.none(), st.just(Ellipsis),
    st.builds(slice, _BOUND, _BOUND, st.one_of(st.none(), st.integers(-4, 4), st.sampled_from([2**62, -2**63])))
)


@given(data=st.data())
def test_any_basic_key_matches_numpy_values_and_errors(device, data):
    """Keys of ints (huge ones too), slices (zero, huge and negative steps and
    bounds), None and Ellipsis, valid or not, in tuples of any length (Note
    [Indexing in C] in csrc/python/index.c): the same view as NumPy's or the
    same exception with the same message, for getitem and for setitem, which
    then writes nothing."""
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5))
    x, a = pair(shape, device, dtype="int32")
    key = data.draw(st.one_of(_ITEM, st.lists(_ITEM, max_size=7).map(tuple)))
    try:
        want = a[key]
    except Exception as e:  # noqa: BLE001  (the oracle's exception, compared below)
        with pytest.raises(type(e)) as err:
            x[key]
        assert str(err.value) == str(e)
        with pytest.raises(type(e)):
            x[key] = 1
        assert_same(x, a)
        return
    got = x[key]
    assert_view(got, want if isinstance(want, np.generic) else np.asarray(want), base=x)
    a[key] = -1
    x[key] = -1
    assert_same(x, a)


def test_long_keys_get_numpys_errors():
    x, a = pair((2, 3), "cpu")
    for key in [(0,) * 200, (None,) * 200, (slice(None),) * 150 + (None,) * 150]:
        with pytest.raises(IndexError) as np_err:
            a[key]
        with pytest.raises(IndexError) as err:
            x[key]
        assert str(err.value) == str(np_err.value)


def test_deleting_elements_is_refused():
    x = dt.arange(3)
    with pytest.raises(ValueError, match="cannot delete array elements"):
        del x[0]
    assert x.tolist() == [0, 1, 2]


def test_too_many_indices_1d():
    with pytest.raises(IndexError, match="array is 1-dimensional, but 2 were indexed"):
        dt.arange(3)[0, 0]


@pytest.mark.parametrize("key", [
    [0, 2], (slice(None), [1, 0]), np.array([True, False, True]), True,
    (np.array([0, 2]), 1),
], ids=repr)
def test_advanced_indexing_on_cpu_goes_through_numpy(key):
    x, a = pair((3, 2), "cpu")
    assert_same(x[key], a[key])
    x[key] = -1
    a[key] = -1
    assert_same(x, a)


def test_advanced_indexing_with_tensors_on_cpu():
    x, a = pair((5,), "cpu")
    assert_same(x[x > 2], a[a > 2])
    assert_same(x[dt.asarray([4, 0])], a[[4, 0]])
    x[x > 2] = dt.asarray(0)
    a[a > 2] = 0
    assert_same(x, a)


# ---- setitem ----

def test_setitem_scalar_fills(device):
    x, a = pair((3, 4), device, dtype="float64")
    for key, value in [(1, 5), ((slice(None), 0), 2.5), ((Ellipsis, -1), True), (..., -3.0)]:
        x[key] = value
        a[key] = value
        assert_same(x, a)


def test_setitem_broadcasts_and_casts(device):
    x, a = pair((3, 4), device, dtype="int32")
    row = dt.asarray([1.9, -2.9, 3.5, 4.0], device=device)
    x[1:] = row
    a[1:] = np.array([1.9, -2.9, 3.5, 4.0])
    assert_same(x, a)
    x[:, 1] = dt.asarray([[[7]]], device=device)  # leading length-1 axes are dropped
    a[:, 1] = np.array([[[7]]])
    assert_same(x, a)


def test_setitem_from_lists_and_numpy(device):
    x, a = pair((2, 3), device, dtype="float32")
    for key, value in [(0, [1, 2, 3]), ((slice(None), 1), np.array([9.5, 8.5])),
                       (1, np.float64(4.25)), ((0, 0), np.int8(-3))]:
        x[key] = value
        a[key] = value
        assert_same(x, a)


@pytest.mark.parametrize("dst, src", [
    (slice(1, None), slice(None, -1)), (slice(None, -1), slice(1, None)),
    (slice(None, None, -1), slice(None)), (slice(None), slice(None, None, -1)),
    (slice(0, None, 2), slice(1, None, 2)),
])
def test_setitem_overlapping_source(device, dst, src):
    x, a = pair((8,), device)
    x[dst] = x[src]
    a[dst] = a[src]
    assert_same(x, a)


def test_setitem_overlap_2d_transpose(device):
    x, a = pair((3, 3), device)
    x[...] = x.T
    a[...] = a.T
    assert_same(x, a)


@pytest.mark.parametrize("dtype, value, exc, msg", [
    ("int8", 300, OverflowError, "Python integer 300 out of bounds for int8"),
    ("uint8", -1.0, OverflowError, "Python integer -1 out of bounds for uint8"),
    ("int32", float("nan"), ValueError, "cannot convert float NaN to integer"),
    ("int32", float("inf"), OverflowError, "cannot convert float infinity to integer"),
    ("float64", 1j, TypeError, "not 'complex'"),
])
def test_setitem_scalar_errors(device, dtype, value, exc, msg):
    x = dt.zeros(3, dtype=dtype, device=device)
    with pytest.raises(exc, match=msg):
        np.zeros(3, dtype=dtype)[0] = value
    with pytest.raises(exc, match=msg):
        x[0] = value
    assert x.tolist() == [0, 0, 0]


def test_several_values_for_one_element_are_numpy_s_error(device):
    """z[0] = [1, 2]: NumPy's 'setting an array element with a sequence.'"""
    for target, key in ((dt.zeros(3, device=device), 0), (dt.zeros((2, 2), device=device), (0, 1)),
                        (dt.zeros(3, device=device)[1], ...)):
        with pytest.raises(ValueError, match="^setting an array element with a sequence.$"):
            target[key] = [1.0, 2.0]
        with pytest.raises(ValueError, match="^setting an array element with a sequence.$"):
            np.zeros(3)[0] = [1.0, 2.0]
        assert not dt.any(target)


def test_setitem_shape_mismatch(device):
    x, a = pair((3, 4), device)
    with pytest.raises(ValueError) as np_err:
        a[0] = np.ones(3)
    for value in (dt.ones(3, device=device), [1, 2, 3]):
        with pytest.raises(ValueError) as err:
            x[0] = value
        assert str(err.value) == str(np_err.value)


@requires_cuda
def test_setitem_from_another_device_copies():
    """Note [Values from another device]: t[key] = value is PyTorch's copy_,
    for every kind of key; a 0-d CPU value too (as a Python scalar would)."""
    x = dt.zeros(4, device="cuda:0")
    x[:] = dt.arange(4.0)
    assert x.device == dt.device("cuda:0") and x.tolist() == [0.0, 1.0, 2.0, 3.0]
    x[x == 0] = dt.tensor(-1.0)
    x[[1, 2]] = dt.tensor(-2.0)
    x[3:] = dt.tensor([7.0])
    assert x.tolist() == [-1.0, -2.0, -2.0, 7.0]
    y = dt.zeros(3)
    y[[0, 2]] = dt.ones(2, device="cuda:0")  # device to host: an explicit copy
    y[1] = x[3]
    assert y.device == dt.device("cpu") and y.tolist() == [1.0, 7.0, 1.0]
    x[:] = np.ones(4)  # host data (NumPy, lists) is copied to the device
    assert x.tolist() == [1.0] * 4
    ro = dt.zeros(2, device="cuda:0")
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        ro[:] = dt.ones(2)
    with pytest.raises(ValueError):  # NumPy's broadcast error, after the copy
        x[:2] = dt.ones(3)


# ---- reshape and friends ----

@pytest.mark.parametrize("shape", [(6,), (2, 3), (3, -1), (-1,), (1, 6, 1), (6, 1, 1), ()],
                         ids=repr)
def test_reshape_contiguous_is_a_view(device, shape):
    size = 1 if shape == () else 6
    x, a = pair((size,), device)
    assert_view(x.reshape(shape), a.reshape(shape), base=x)
    assert_view(dt.reshape(x, shape), np.reshape(a, shape), base=x)
    if shape:
        assert_view(x.reshape(*shape), a.reshape(*shape), base=x)


@pytest.mark.parametrize("shape", [(2, 2, 2, 1), (1, 2, 1, 2, 2), (4, 2), (8,), (2, 4)],
                         ids=repr)
def test_reshape_strided_views_and_copies_as_numpy(device, shape):
    x, a = pair((2, 3, 4), device)
    x, a = x[:, ::2, 1:3], a[:, ::2, 1:3]
    r, e = x.reshape(shape), a.reshape(shape)
    assert_same(r, e)
    assert r._same_storage(x) == np.shares_memory(e, a)
    if np.shares_memory(e, a):
        assert r.strides == e.strides


@given(data=st.data())
def test_reshape_property(device, data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=4))
    x, a = pair(shape, device, dtype="int16")
    key = data.draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True))
    if not isinstance(a[key], np.ndarray):
        key = (Ellipsis,)  # NumPy gives a scalar, which views nothing
    axes = data.draw(st.permutations(range(a[key].ndim)))
    x, a = x[key].transpose(axes), a[key].transpose(axes)
    dims = [n for n in a.shape]
    split = data.draw(st.lists(st.integers(0, len(dims)), max_size=3))
    for i in sorted(split, reverse=True):  # insert 1s, then merge neighbours
        dims.insert(i, 1)
    target = (-1,) if data.draw(st.booleans()) else tuple(dims)
    r, e = x.reshape(target), a.reshape(target)
    assert_same(r, e)
    assert r._same_storage(x) == np.shares_memory(e, a) or e.size <= 1
    if np.shares_memory(e, a):
        assert r.strides == e.strides


def test_reshape_copy_argument(device):
    x, a = pair((2, 3), device)
    c = dt.reshape(x, (3, 2), copy=True)
    assert not c._same_storage(x)
    assert_same(c, a.reshape(3, 2))
    with pytest.raises(ValueError, match="Unable to avoid creating a copy while reshaping."):
        dt.reshape(x.T, (6,), copy=False)
    assert_view(dt.reshape(x, (6,), copy=False), a.reshape(6), base=x)


@pytest.mark.parametrize("shape, exc, msg", [
    ((4,), ValueError, r"cannot reshape array of size 6 into shape \(4,\)"),
    ((4, -1), ValueError, r"cannot reshape array of size 6 into shape \(4,newaxis\)"),
    ((-1, -1), ValueError, "can only specify one unknown dimension"),
    ((2.0, 3), TypeError, "'float' object cannot be interpreted as an integer"),
])
def test_reshape_errors(device, shape, exc, msg):
    x, a = pair((6,), device)
    with pytest.raises(exc, match=msg):
        a.reshape(shape)
    with pytest.raises(exc, match=msg):
        x.reshape(shape)


def test_view_never_copies(device):
    x, a = pair((2, 3), device)
    assert_view(x.view(3, 2), a.reshape(3, 2), base=x)
    assert_view(x.view(-1), a.reshape(-1), base=x)
    with pytest.raises(RuntimeError, match=r"Use \.reshape"):
        x.T.view(6)


def test_flatten_copies_and_ravel_views(device):
    x, a = pair((2, 3), device)
    f = x.flatten()
    assert_same(f, a.flatten())
    assert not f._same_storage(x)
    assert_view(x.ravel(), a.ravel(), base=x)
    assert_view(dt.ravel(x), np.ravel(a), base=x)
    r = x.T.ravel()
    assert_same(r, a.T.ravel())
    assert not r._same_storage(x)


def test_contiguous(device):
    x, a = pair((2, 3), device)
    assert x.contiguous() is x
    c = x.T.contiguous()
    assert c.is_contiguous() and not c._same_storage(x)
    assert_same(c, np.ascontiguousarray(a.T))


def test_squeeze(device):
    x, a = pair((1, 3, 1, 2), device)
    for axis in (None, 0, -2, (0, 2)):
        assert_view(x.squeeze(axis), a.squeeze(axis), base=x)
        assert_view(dt.squeeze(x, axis), np.squeeze(a, axis), base=x)
    with pytest.raises(ValueError, match="cannot select an axis to squeeze out"):
        x.squeeze(1)
    with pytest.raises(np.exceptions.AxisError, match="axis 4 is out of bounds"):
        x.squeeze(4)


def test_expand_dims_and_unsqueeze(device):
    x, a = pair((2, 3), device)
    for axis in (0, 2, -1, (0, 3), [1, -1]):
        assert_view(x.expand_dims(axis), np.expand_dims(a, axis), base=x)
        assert_view(dt.expand_dims(x, axis), np.expand_dims(a, axis), base=x)
    s, e = x[:, ::2], a[:, ::2]
    assert_view(s.unsqueeze(1), np.expand_dims(e, 1), base=x)
    assert_view(s.unsqueeze(-1), np.expand_dims(e, -1), base=x)
    with pytest.raises(np.exceptions.AxisError):
        x.unsqueeze(3)
    with pytest.raises(ValueError, match="repeated axis"):
        x.expand_dims((0, 0))


def test_transpose_permute_swapaxes(device):
    x, a = pair((2, 3, 4), device)
    assert_view(x.transpose(), a.transpose(), base=x)
    assert_view(x.T, a.T, base=x)
    assert_view(x.transpose(1, 0, 2), a.transpose(1, 0, 2), base=x)
    assert_view(x.transpose((2, 0, 1)), a.transpose((2, 0, 1)), base=x)
    assert_view(x.transpose(None), a.transpose(None), base=x)
    assert_view(x.permute(2, 0, 1), a.transpose(2, 0, 1), base=x)
    assert_view(x.permute((-1, 0, 1)), a.transpose(-1, 0, 1), base=x)
    assert_view(x.swapaxes(0, 2), a.swapaxes(0, 2), base=x)
    assert_view(dt.transpose(x), np.transpose(a), base=x)
    assert_view(dt.transpose(x, (1, 2, 0)), np.transpose(a, (1, 2, 0)), base=x)
    assert_view(dt.permute_dims(x, (1, 2, 0)), np.permute_dims(a, (1, 2, 0)), base=x)
    assert_view(dt.swapaxes(x, -1, 0), np.swapaxes(a, -1, 0), base=x)


@pytest.mark.parametrize("call, exc, msg", [
    (lambda t: t.transpose(0), ValueError, "axes don't match array"),
    (lambda t: t.transpose((0, 0)), ValueError, "repeated axis in transpose"),  # (0, 0) apart: PyTorch's t
    (lambda t: t.transpose(0, 2), np.exceptions.AxisError, "axis 2 is out of bounds"),
    (lambda t: t.swapaxes(0, 2), np.exceptions.AxisError, "axis2: axis 2 is out of bounds"),
])
def test_transpose_errors(device, call, exc, msg):
    x, a = pair((2, 3), device)
    with pytest.raises(exc, match=msg):
        call(a)
    with pytest.raises(exc, match=msg):
        call(x)


def test_broadcast_to(device):
    x, a = pair((3, 1), device)
    for shape in [(3, 1), (3, 4), (2, 3, 4), (0, 3, 1)]:
        assert_view(x.broadcast_to(shape), np.broadcast_to(a, shape), base=x)
        assert_view(dt.broadcast_to(x, shape), np.broadcast_to(a, shape), base=x)
    assert_view(dt.broadcast_to(x[0, 0, ...], 5), np.broadcast_to(a[0, 0, ...], 5), base=x)
    assert_view(dt.broadcast_to(x[0, 0], 5), np.broadcast_to(a[0, 0], 5))  # of a copy


@pytest.mark.parametrize("shape", [(4, 2), (3,), (), (-1, 3), (2, 0)], ids=repr)
def test_broadcast_to_errors(device, shape):
    x, a = pair((3, 1), device)
    with pytest.raises(ValueError) as np_err:
        np.broadcast_to(a, shape)
    with pytest.raises(ValueError) as err:
        x.broadcast_to(shape)
    assert str(err.value) == str(np_err.value)


def test_module_functions_accept_lists():
    assert_same(dt.reshape([[1, 2], [3, 4]], (4,)), np.reshape([[1, 2], [3, 4]], (4,)))
    assert_same(dt.transpose([[1, 2]]), np.transpose([[1, 2]]))
    assert_same(dt.squeeze([[1]]), np.squeeze([[1]]))
    assert_same(dt.broadcast_to(1.5, (2,)), np.broadcast_to(1.5, (2,)))


def test_views_of_device_tensors_stay_on_the_device(device):
    x, _ = pair((2, 3), device)
    for v in (x[1], x.T, x.reshape(3, 2), x[None], x.broadcast_to((4, 2, 3)), x.squeeze()):
        assert v.device == dt.device(device)
    assert to_np(x[:, 1:]).tolist() == [[1, 2], [4, 5]]



AXIS_CALLS = [
    ("ravel", ()), ("flatten", ()), ("transpose", ()), ("transpose", (None,)), ("transpose", (2, 0, 1, 3)),
    ("transpose", ((1, 2, 0, 3),)), ("transpose", ([-1, 0, 1, 2],)), ("transpose", (0, 0, 1, 2)),
    ("transpose", (0, 1)), ("transpose", ((),)), ("transpose", ([],)), ("transpose", (np.int64(1), 0, 2, 3)), ("transpose", (0, 1, 2, 4)), ("swapaxes", (0, 2)),
    ("swapaxes", (-1, 1)), ("swapaxes", (0, 4)), ("swapaxes", (np.int32(0), 1)), ("squeeze", ()), ("squeeze", (1,)),
    ("squeeze", (-1,)), ("squeeze", ((1, 3),)), ("squeeze", (0,)), ("squeeze", (None,)), ("expand_dims", (0,)),
    ("expand_dims", (4,)), ("expand_dims", (-1,)), ("expand_dims", (6,)), ("expand_dims", ((0, 2),)),
    ("expand_dims", (np.int64(1),)),
]


def _laid_out(base, layout, device):
    """(NumPy array, tensor) with the same values, shape and layout."""
    if layout == "transposed":
        return base.T.copy().T, dt.asarray(np.ascontiguousarray(base.T), device=device).T
    if layout == "strided":
        wide = np.repeat(base, 2, axis=2)
        return wide[:, :, ::2], dt.asarray(wide, device=device)[:, :, ::2]
    return base, dt.asarray(base, device=device)


@pytest.mark.parametrize("name,args", AXIS_CALLS, ids=repr)
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided"])
def test_axis_views_in_c_match_numpy(device, name, args, layout):
    """Note [Axis views in C]: every form (the C path's and the ones it
    leaves to Python), as a method and as a function, gives NumPy's shape,
    strides (of the axes longer than one), values and exception type; the
    views share memory, flatten copies."""
    a, t = _laid_out(np.arange(2 * 1 * 3 * 1, dtype=np.float64).reshape(2, 1, 3, 1), layout, device)
    method = (lambda x, *a_: getattr(x, name)(*a_))
    pairs = [(method, np.expand_dims if name == "expand_dims" else method)]
    if name != "flatten":  # and the functions
        pairs.append((getattr(dt, name), getattr(np, name)))
    if name == "transpose" and len(args) == 2:  # Note [PyTorch's transpose]: two dims of a 4-d tensor swap
        pairs = [(method, np.swapaxes), (dt.transpose, np.swapaxes)]
    for call, want_fn in pairs:
        try:
            want = want_fn(a, *args)
        except Exception as e:  # noqa: BLE001  (the same exception type)
            with pytest.raises(type(e)):
                call(t, *args)
            continue
        got = call(t, *args)
        assert got.shape == want.shape and got.tolist() == want.tolist(), (got.shape, want.shape)
        assert got.device == t.device
        if name not in ("ravel", "flatten"):
            assert [s for s, n in zip(got.strides, got.shape) if n > 1] == \
                [s for s, n in zip(want.strides, want.shape) if n > 1]
            if t.device.type == "cpu":
                assert np.shares_memory(got.numpy(), t.numpy())
    if name == "flatten":
        f = t.flatten()
        assert f.shape == (a.size,) and f.is_contiguous()
        if t.device.type == "cpu":
            assert not np.shares_memory(f.numpy(), t.numpy())


def test_basic_setitem_with_a_tensor_broadcasts_as_numpy(device):
    """A tensor value that broadcasts to the view is copied in C (assign_basic
    in csrc/python/index.c); one with extra leading length-1 axes, or one that
    does not broadcast, goes to _views.assign and NumPy's error."""
    for shape in ((), (1,), (4,), (1, 4), (3, 1), (3, 4), (1, 3, 4), (1, 1, 1, 4)):
        a = np.arange(20.0).reshape(5, 4)
        x = dt.asarray(a, device=device)
        v = np.arange(100, 100 + int(np.prod(shape)), dtype=np.int32).reshape(shape)
        x[1:4] = dt.asarray(v, device=device)
        a[1:4] = v
        assert_same(x, a, device=device)
        x[::-2, 1] = dt.asarray(v.reshape(-1)[:1], device=device)  # a strided view, a cast
        a[::-2, 1] = v.reshape(-1)[:1]
        assert_same(x, a, device=device)
    x = dt.zeros((3, 4), device=device)
    for shape in ((2, 4), (4, 3), (2, 1, 4)):
        same_error(lambda: np.zeros((3, 4)).__setitem__(slice(None), np.ones(shape)),
                   lambda: x.__setitem__(slice(None), dt.ones(shape, device=device)))
    with pytest.raises(ValueError, match="read-only"):
        dt.broadcast_to(dt.zeros(4, device=device), (3, 4))[...] = dt.ones(4, device=device)


ORDER_VIEWS = [lambda a: a, lambda a: a.transpose(1, 2, 0), lambda a: a.transpose(1, 2, 0)[:, ::-1],
               lambda a: a.T, lambda a: a[:, 1:, ::2], lambda a: a[0, :, 1], lambda a: a[0, 0, 0]]


@pytest.mark.parametrize("make", ORDER_VIEWS)
def test_order_arguments_match_numpy(device, make):
    """Note [Index orders] (devtensor/_views.py): ravel, flatten, copy,
    reshape and asarray with NumPy's order= ('C', 'F', 'A', 'K', None) on
    views of every layout, values and (for copies) layouts as NumPy's."""
    base = np.arange(24.0).reshape(2, 3, 4)
    a, t = make(base), make(dt.asarray(base, device=device))
    assert t.strides == a.strides
    for order in ["C", "F", "A", "K", None]:
        for fn in ["ravel", "flatten", "copy"]:
            got, want = getattr(t, fn)(order), getattr(a, fn)(order)
            assert got.device == t.device
            np.testing.assert_array_equal(got.cpu().numpy(), want)
            if fn == "copy":
                assert (got.is_contiguous(), got.T.is_contiguous()) == (want.flags.c_contiguous,
                                                                        want.flags.f_contiguous)
        np.testing.assert_array_equal(dt.ravel(t, order=order).cpu().numpy(), np.ravel(a, order=order))
        got, want = dt.copy(t, order=order), np.copy(a, order=order)
        np.testing.assert_array_equal(got.cpu().numpy(), want)
        assert (got.is_contiguous(), got.T.is_contiguous()) == (want.flags.c_contiguous, want.flags.f_contiguous)
    for order in ["C", "F", "A"]:
        shape = (-1,) if a.ndim < 2 else (a.size // 2, -1) if a.size % 2 == 0 else (a.size,)
        want = np.reshape(a, shape, order=order)
        for got in [t.reshape(shape, order=order), dt.reshape(t, shape, order=order)]:
            np.testing.assert_array_equal(got.cpu().numpy(), want)
    for order in ["C", "F"]:
        got = dt.asarray(t, order=order)
        assert (got.is_contiguous() if order == "C" else got.T.is_contiguous())
        np.testing.assert_array_equal(got.cpu().numpy(), a)


def test_order_errors():
    t = dt.arange(6.0).reshape(2, 3)
    for call in [lambda: t.ravel("X"), lambda: t.flatten(order="X"), lambda: t.copy("X"), lambda: dt.ravel(t, "X"),
                 lambda: dt.asarray(t, order="X")]:
        with pytest.raises(ValueError, match=r"order must be one of 'C', 'F', 'A', or 'K' \(got 'X'\)"):
            call()
    with pytest.raises(ValueError, match="order 'K' is not permitted for reshaping"):
        t.reshape(3, 2, order="K")
    with pytest.raises(ValueError, match="a copy is needed for order='C'"):
        dt.asarray(t.T, order="C", copy=False)
    assert dt.asarray(t.T, order="F").data_ptr() == t.data_ptr()


@pytest.mark.parametrize("window, axis", [(3, None), ((2, 2), None), (2, 0), ((2, 3), (1, 1)), (4, -1)])
def test_sliding_window_view(device, window, axis):
    """NumPy's sliding_window_view (also reached as np.lib.stride_tricks's on
    a tensor): a read-only view of the windows, on the tensor's device."""
    a = np.arange(30.0).reshape(5, 6) if axis is not None or np.ndim(window) else np.arange(10.0)
    t = dt.asarray(a, device=device)
    want = np.lib.stride_tricks.sliding_window_view(a, window, axis)
    for got in [dt.lib.stride_tricks.sliding_window_view(t, window, axis),
                np.lib.stride_tricks.sliding_window_view(t, window, axis)]:
        assert isinstance(got, dt.Tensor) and got.device == t.device and not got.flags.writeable
        assert got.shape == want.shape and got.strides == want.strides
        np.testing.assert_array_equal(got.cpu().numpy(), want)
    with pytest.raises(ValueError, match="window shape cannot be larger than input array shape"):
        np.lib.stride_tricks.sliding_window_view(t, 99, 0)
    with pytest.raises(ValueError, match="`window_shape` cannot contain negative values"):
        np.lib.stride_tricks.sliding_window_view(t, -1, 0)


@pytest.mark.parametrize("shape, strides", [((2, 2), (32, 32)), ((3,), (32,)), ((2, 3), (8, 8)), ((4,), (0,)),
                                            ((2, 2), (-8, 32))])
def test_as_strided(device, shape, strides):
    """devtensor.lib.stride_tricks.as_strided (what np.lib.stride_tricks.as_strided
    is with `import devtensor as np`): a view with NumPy's strides from the
    tensor's first element, on its device; a view reaching outside the
    storage is a ValueError instead of NumPy's read of whatever lies there."""
    a = np.arange(12.0).reshape(3, 4)
    t = dt.asarray(a, device=device)
    base_np, base = (a[1:, 1], t[1:, 1]) if strides[0] < 0 else (a[:, 0], t[:, 0])
    want = np.lib.stride_tricks.as_strided(base_np, shape, strides)
    got = dt.lib.stride_tricks.as_strided(base, shape, strides)
    assert isinstance(got, dt.Tensor) and got.device == t.device and got.strides == want.strides
    np.testing.assert_array_equal(got.cpu().numpy(), want)
    assert got.flags.writeable and not dt.lib.stride_tricks.as_strided(base, shape, strides,
                                                                        writeable=False).flags.writeable


def test_as_strided_defaults_writes_and_bounds(device):
    t = dt.arange(12.0, device=device)
    same = dt.lib.stride_tricks.as_strided(t)
    assert same.shape == t.shape and same.strides == t.strides and same.data_ptr() == t.data_ptr()
    v = dt.lib.stride_tricks.as_strided(t, (3, 4), (32, 8))
    v[1, 1] = -1.0  # a view: the write lands in t
    assert t[5].item() == -1.0
    for shape, strides in [((13,), (8,)), ((2, 2), (96, 8)), ((2,), (-8,))]:
        with pytest.raises(ValueError, match="outside its storage"):
            dt.lib.stride_tricks.as_strided(t, shape, strides)
    with pytest.raises(ValueError, match="mismatch in length of strides and shape"):
        dt.lib.stride_tricks.as_strided(t, (2, 2), (8,))
    assert dt.lib.NumpyVersion is np.lib.NumpyVersion  # numpy.lib's other names
