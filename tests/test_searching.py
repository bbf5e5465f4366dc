"""searchsorted and digitize (devtensor._sorting, csrc/core/search.c, the
CPU and CUDA binary searches) against NumPy on every device: every dtype,
NaN and complex order, both sides, sorter, strided values, and errors."""
import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, given, settings, st, to_np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
          "float32", "float64", "complex64", "complex128"]


def sample(rng, n, dtype):
    kind = np.dtype(dtype).kind
    if kind == "b":
        return rng.random(n) < 0.5
    if kind in "iu":
        return rng.integers(0, 20, n).astype(dtype)
    a = np.round(rng.standard_normal(n) * 3).astype(dtype)  # ties
    if kind == "c":
        a = a + 1j * np.round(rng.standard_normal(n)).astype(dtype)
    pick = rng.random(n)
    a[pick < 0.1] = np.nan
    if kind == "c":
        a[pick > 0.9] = complex(1.0, np.nan)
    return a


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_every_dtype(device, dtype, side):
    rng = np.random.default_rng(1)
    a = np.sort(sample(rng, 40, dtype))
    v = sample(rng, (3, 7), dtype)
    got = dt.searchsorted(dt.asarray(a, device=device), dt.asarray(v, device=device), side=side)
    assert_same(got, np.searchsorted(a, v, side=side))
    assert got.device == dt.device(device)


def test_searchsorted_bfloat16(device):
    a = np.array([-2.0, -1, 0, 0, 3, np.nan], np.float32)
    v = np.array([0.0, 5, np.nan, -3], np.float32)
    t = dt.asarray(a, device=device).astype("bfloat16")
    for side in ("left", "right"):
        assert_same(dt.searchsorted(t, dt.asarray(v, device=device).astype("bfloat16"), side=side),
                    np.searchsorted(a, v, side=side))


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_searchsorted_matches_numpy(device, data):
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    n = data.draw(st.integers(0, 30), label="n")
    a = np.sort(sample(rng, n, dtype))
    shape = tuple(data.draw(st.lists(st.integers(0, 4), max_size=3), label="shape"))
    v = sample(rng, int(np.prod(shape)), dtype).reshape(shape)
    side = data.draw(st.sampled_from(["left", "right"]), label="side")
    tv = dt.asarray(v, device=device)
    if v.ndim and data.draw(st.booleans(), label="transposed"):
        tv, v = dt.asarray(np.ascontiguousarray(v.T), device=device).T, v
    use_sorter = data.draw(st.booleans(), label="sorter") and n > 0
    if use_sorter:
        perm = rng.permutation(n)
        shuffled = a[perm]
        sorter = np.argsort(perm)  # shuffled[sorter] == a
        got = dt.searchsorted(dt.asarray(shuffled, device=device), tv, side=side,
                              sorter=dt.asarray(sorter, device=device))
        exp = np.searchsorted(shuffled, v, side=side, sorter=sorter)
    else:
        got = dt.searchsorted(dt.asarray(a, device=device), tv, side=side)
        exp = np.searchsorted(a, v, side=side)
    assert_same(got, exp)


def test_mixed_dtypes_scalars_and_methods(device):
    a = np.array([1, 3, 5, 7])
    t = dt.asarray(a, device=device)
    assert_same(dt.searchsorted(t, 4.5), np.searchsorted(a, 4.5))
    assert_same(t.searchsorted([0, 3, 9], side="right"), a.searchsorted([0, 3, 9], side="right"))
    assert_same(dt.searchsorted(t, dt.asarray(np.array([2.5, 7.0], np.float32), device=device)),
                np.searchsorted(a, np.array([2.5, 7.0], np.float32)))
    assert_same(dt.searchsorted(dt.asarray(np.zeros(0), device=device), [1.0, 2.0]),
                np.searchsorted(np.zeros(0), [1.0, 2.0]))
    # unsorted input: a position, never an error (documented)
    got = dt.searchsorted(dt.asarray(np.array([5, 1, 4, 2]), device=device), [3])
    assert 0 <= int(got[0]) <= 4


def test_digitize(device):
    x = np.array([-1.0, 0.0, 0.5, 1.0, 2.5, 10.0, 11.0, np.nan])
    for bins in (np.array([0.0, 1.0, 2.5, 10.0]), np.array([10.0, 2.5, 1.0, 0.0]), np.array([3.0]),
                 np.array([1.0, 1.0, 2.0])):
        for right in (False, True):
            got = dt.digitize(dt.asarray(x, device=device), dt.asarray(bins, device=device), right=right)
            assert_same(got, np.digitize(x, bins, right=right))
    with pytest.raises(ValueError, match="monotonically increasing or decreasing"):
        dt.digitize(dt.asarray(x, device=device), dt.asarray(np.array([0.0, 2.0, 1.0]), device=device))


def test_bad_arguments(device):
    t = dt.asarray(np.arange(6.0).reshape(2, 3), device=device)
    with pytest.raises(RuntimeError, match="first N-1 dimensions"):  # a batched search (PyTorch's) needs rows
        dt.searchsorted(t, 1.0)
    with pytest.raises(ValueError, match="side must be"):
        dt.searchsorted(t[0], 1.0, side="middle")
    with pytest.raises(ValueError, match="sorter.size must equal a.size"):
        dt.searchsorted(t[0], 1.0, sorter=dt.asarray(np.array([0, 1]), device=device))
    with pytest.raises(TypeError):
        dt._C._search(t[0], dt.asarray(np.array([1], np.int32), device=device), False,
                      dt.empty((1,), dtype="int64", device=device))
    with pytest.raises(ValueError):
        dt._C._search(t, t, False, dt.empty((2, 3), dtype="int64", device=device))


def test_more_bad_arguments(device):
    t = dt.asarray(np.arange(4.0), device=device)
    with pytest.raises(TypeError, match="sorter must only contain integers"):
        dt.searchsorted(t, 1.0, sorter=dt.asarray(np.arange(4.0), device=device))
    with pytest.raises(TypeError, match="x may not be complex"):
        dt.digitize(dt.asarray(np.array([1j]), device=device), t)
    with pytest.raises(ValueError, match="object too deep for desired array"):  # NumPy's words
        dt.digitize(t, t.reshape(2, 2))
    with pytest.raises(ValueError, match="object of too small depth for desired array"):
        dt.digitize(t, dt.asarray(1.0, device=device))


def test_searchsorted_per_call_forms(device):
    """_C._search_fast's forms (a tensor of a's dtype and device, a Python
    float for float64, a Python int for int64) and the ones it leaves to
    Python give NumPy's answers."""
    from devtensor import _C
    a = np.array([-1.5, 0.0, 0.0, 2.0, 7.0, np.nan])
    i = np.array([-4, 0, 3, 3, 9])
    ta, ti = dt.asarray(a, device=device), dt.asarray(i, device=device)
    for side in ("left", "right"):
        for x in (0.0, -2.0, 7.0, 100.0, float("nan"), float("inf"), -0.0):
            got = dt.searchsorted(ta, x, side=side)
            assert got.shape == () and got.dtype == dt.int64 and got.device == ta.device
            assert int(got) == np.searchsorted(a, x, side=side), (x, side)
        for x in (3, -5, 10, 2 ** 62, 3.5, True):  # (2 ** 70: no object dtype here)
            assert_same(dt.searchsorted(ti, x, side=side), np.searchsorted(i, x, side=side))
        assert_same(dt.searchsorted(ta[::2], ta, side=side), np.searchsorted(a[::2], a, side=side))
        assert_same(dt.searchsorted(ti, ti[::-1], side=side), np.searchsorted(i, i[::-1], side=side))
    assert _C._search_fast(ti, 2 ** 70, False) is None
    assert _C._search_fast(ti, 3.5, False) is None
    assert _C._search_fast(ta, ti, False) is None
    assert _C._search_fast(ta, 1.0, 1) is None  # side must arrive as a bool
    assert _C._search_fast(dt.asarray(np.ones((2, 2)), device=device), 1.0, False) is None
    with pytest.raises(ValueError, match="side must be 'left' or 'right'"):
        dt.searchsorted(ta, 1.0, side="middle")
    with pytest.raises(RuntimeError, match="first N-1 dimensions"):
        dt.searchsorted(dt.asarray(np.ones((2, 2)), device=device), 1.0)


def test_batched_searchsorted_is_pytorchs(device):
    """A sorted sequence of more than one axis (PyTorch's batched search,
    NeRF's sampling; NumPy refuses it): row i of v in row i of a, as NumPy's
    1-d search of each row gives (Note [Batched searchsorted by one sort]),
    ties on both sides, NaN, sorter=, int32 results, PyTorch's shape error."""
    rng = np.random.default_rng(4)
    for shape, m in [((3, 7), 5), ((2, 3, 10), 4), ((4, 1), 3), ((5, 6), 0), ((1, 50), 200), ((2, 0), 3)]:
        a = np.sort(rng.integers(0, 10, shape).astype(np.float64), axis=-1)
        v = rng.integers(-1, 11, shape[:-1] + (m,)).astype(np.float64)
        if v.size:
            v.flat[0] = np.nan
        rows_a = a.reshape(int(np.prod(shape[:-1])), shape[-1])
        rows_v = v.reshape(rows_a.shape[0], m)
        for side in ("left", "right"):
            want = np.stack([np.searchsorted(ra, rv, side) for ra, rv in zip(rows_a, rows_v)]).reshape(v.shape) \
                if rows_a.shape[0] else np.zeros(v.shape, dtype=np.int64)
            got = dt.searchsorted(dt.asarray(a, device=device), dt.asarray(v, device=device), side=side)
            assert got.dtype == dt.int64 and got.device == dt.device(device)
            np.testing.assert_array_equal(to_np(got), want)
            got = dt.searchsorted(dt.asarray(a, device=device), dt.asarray(v, device=device),
                                  right=side == "right", out_int32=True)
            assert got.dtype == dt.int32
            np.testing.assert_array_equal(to_np(got), want)
    a = np.array([[5.0, 1.0, 3.0], [2.0, 9.0, 4.0]])
    order = np.argsort(a, axis=-1)
    got = dt.searchsorted(dt.asarray(a, device=device), dt.asarray([[3.0, 0.0], [4.5, 10.0]], device=device),
                          sorter=dt.asarray(order, device=device))
    assert got.tolist() == [[1, 0], [2, 3]]
    x = dt.asarray([[1.0, 2.0], [3.0, 4.0]], device=device)
    for bad in (dt.asarray([1.0, 2.0], device=device), dt.asarray([[1.0], [2.0], [3.0]], device=device)):
        with pytest.raises(RuntimeError, match="first N-1 dimensions of boundaries tensor and input value tensor"):
            dt.searchsorted(x, bad)
    assert dt.searchsorted(dt.asarray([[1, 3, 5]], device=device), dt.asarray([[2.5]], device=device)).tolist() == [[1]]
