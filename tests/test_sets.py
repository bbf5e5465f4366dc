"""unique (and unique_all, unique_counts, unique_inverse, unique_values),
isin, intersect1d, union1d, setdiff1d, setxor1d, bincount and histogram
(devtensor._sets) against NumPy on every device: values, dtypes, shapes,
NaN, axis, return_* and errors."""
import zlib

import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, given, same_error, settings, st, to_np

DTYPES = ["bool", "int8", "int32", "int64", "uint16", "uint64", "float16", "float32", "float64", "complex64",
          "complex128"]


def sample(rng, shape, dtype, nan=True):
    kind = np.dtype(dtype).kind
    n = int(np.prod(shape))
    if kind == "b":
        return (rng.random(n) < 0.5).reshape(shape)
    a = rng.integers(0, 6, n).astype(dtype)
    if kind == "c":
        a = a + 1j * rng.integers(0, 2, n).astype(dtype)
    if kind in "fc" and nan and n:
        a[rng.random(n) < 0.15] = np.nan
    return a.reshape(shape)


def same_tuple(got, want):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w)


@pytest.mark.parametrize("dtype", DTYPES)
def test_unique_every_dtype(device, dtype):
    rng = np.random.default_rng(zlib.crc32(str(dtype).encode()))  # not hash(): salted per run
    a = sample(rng, (4, 9), dtype)
    t = dt.asarray(a, device=device)
    for flags in [(False, False, False), (True, True, True), (True, False, False), (False, True, False),
                  (False, False, True)]:
        for equal_nan in (True, False):
            got = dt.unique(t, *flags, equal_nan=equal_nan)
            want = np.unique(a, *flags, equal_nan=equal_nan)
            if flags == (False, True, False) and not equal_nan:
                # NumPy numbers distinct NaNs in its unstable sort's order: check the inverse's meaning
                assert_same(got[0], want[0])
                np.testing.assert_array_equal(to_np(got[0])[to_np(got[1])], a)
                continue
            same_tuple(got, want)
    assert dt.unique(t).device == t.device


@pytest.mark.parametrize("n", [1023, 1024, 5000])
@pytest.mark.parametrize("dtype", ["int64", "float32", "complex64", "bool", "uint8"])
def test_unique_either_side_of_numpy_threshold(device, dtype, n):
    """Note [Small sets through NumPy]: below 1024 elements a CPU tensor's
    unique is NumPy's own, from 1024 devtensor's sort and compaction; both
    give NumPy's results, every flag, a strided input."""
    from devtensor import _sets
    assert _sets._NUMPY_UNIQUE_BELOW == 1024
    rng = np.random.default_rng(n)
    t = dt.asarray(sample(rng, (2 * n,), dtype), device=device)[::2]
    a = to_np(t)
    for flags in [(False, False, False), (True, True, True), (False, False, True), (True, False, False)]:
        same_tuple(dt.unique(t, *flags), np.unique(a, *flags))


def test_unique_bfloat16(device):
    a = np.array([2.0, 1, np.nan, 2, 1, np.nan, -0.0, 0.0], np.float32)
    got = dt.unique(dt.asarray(a, device=device).astype("bfloat16"), return_counts=True)
    assert got[0].dtype == dt.bfloat16
    want = np.unique(a, return_counts=True)
    np.testing.assert_array_equal(to_np(got[0].astype("float32")), want[0])
    assert_same(got[1], want[1])


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_unique_matches_numpy(device, data):
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    shape = tuple(data.draw(st.lists(st.integers(0, 5), max_size=3), label="shape"))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    a = sample(rng, shape, dtype)
    flags = tuple(data.draw(st.lists(st.booleans(), min_size=3, max_size=3), label="flags"))
    t = dt.asarray(a, device=device)[::-1] if a.ndim else dt.asarray(a, device=device)
    a = a[::-1] if a.ndim else a
    same_tuple(dt.unique(t, *flags), np.unique(a, *flags))


def test_unique_axis(device):
    rng = np.random.default_rng(2)
    a = rng.integers(0, 2, (7, 3, 2))
    t = dt.asarray(a, device=device)
    for axis in (0, 1, -1, 2):
        same_tuple(dt.unique(t, True, True, True, axis=axis), np.unique(a, True, True, True, axis=axis))
    f = np.array([[1.0, -2], [1, -2], [-3, 4], [1, 5]])
    same_tuple(dt.unique(dt.asarray(f, device=device), axis=0, return_counts=True),
               np.unique(f, axis=0, return_counts=True))
    # a 1-d array along its axis: NumPy's rule for elements, every NaN one with equal_nan
    v = np.array([np.nan, 0.0, 0.0, np.nan, 2.0])
    for axis, equal_nan in ((0, True), (-1, True), (0, False)):
        same_tuple(dt.unique(dt.asarray(v, device=device), True, True, True, axis=axis, equal_nan=equal_nan),
                   np.unique(v, True, True, True, axis=axis, equal_nan=equal_nan))


def test_unique_array_api_forms(device):
    a = np.array([3.0, np.nan, 1, 3, np.nan, 2, 1])
    t = dt.asarray(a, device=device)
    # the array API leaves the order open (NumPy >= 2.3 gives hash order): devtensor's is sorted
    want = np.unique(a, return_index=True, return_inverse=True, return_counts=True, equal_nan=False)
    assert_same(dt.unique_values(t), want[0])
    r = dt.unique_counts(t)
    assert_same(r.values, want[0])
    assert_same(r.counts, want[3])
    r = dt.unique_inverse(t)
    assert_same(r.inverse_indices, want[2])
    r = dt.unique_all(t)
    assert r._fields == ("values", "indices", "inverse_indices", "counts")
    for g, w in zip(r, want):
        assert_same(g, w)
    m = dt.asarray(np.array([[2, 1], [1, 2]]), device=device)
    assert dt.unique_inverse(m).inverse_indices.shape == (2, 2)


def test_isin(device):
    rng = np.random.default_rng(3)
    a = rng.integers(0, 10, (3, 5))
    b = rng.integers(4, 15, 6)
    ta, tb = dt.asarray(a, device=device), dt.asarray(b, device=device)
    for invert in (False, True):
        assert_same(dt.isin(ta, tb, invert=invert), np.isin(a, b, invert=invert))
    f = np.array([1.0, np.nan, 2.5, 3])
    assert_same(dt.isin(dt.asarray(f, device=device), dt.asarray([np.nan, 3.0], device=device)),
                np.isin(f, [np.nan, 3.0]))
    assert_same(dt.isin(ta, dt.asarray(b.astype(np.float32) + 0.5, device=device)), np.isin(a, b + 0.5))
    assert_same(dt.isin(ta, dt.asarray(np.array([], np.int64), device=device)), np.isin(a, []))
    same_error(lambda: np.isin(a, b, kind="bad"), lambda: dt.isin(ta, tb, kind="bad"))


def test_isin_signed_and_uint64(device):
    # Note [Signed and unsigned]: compared exactly, not through float64
    big = 2**62
    cases = [(np.array([big + 1, big, -1, 5]), np.array([big, 2**63 + 7, 5], np.uint64)),
             (np.array([big + 1, 2**64 - 1, 2**63, 5], np.uint64), np.array([big + 1, -1, 5, -2**63])),
             (np.array([1, -1], np.int8), np.array([1, 255, 2**64 - 1], np.uint64)),
             (np.array([1, 2]), np.array([2**63], np.uint64))]
    for a, b in cases:
        for invert in (False, True):
            assert_same(dt.isin(dt.asarray(a, device=device), dt.asarray(b, device=device), invert=invert),
                        np.isin(a, b, invert=invert))


def test_isin_table_kind(device):
    for a, b in [([1.5], [1.5]), ([1], [1.5]), ([1j], [1]), (np.array([1], np.float16), [1])]:
        same_error(lambda: np.isin(a, b, kind="table"),
                   lambda: dt.isin(dt.asarray(a, device=device), dt.asarray(b, device=device), kind="table"))
    a, b = np.array([3, 1, 2]), np.array([True, False])
    assert_same(dt.isin(dt.asarray(a, device=device), dt.asarray(b, device=device), kind="table"),
                np.isin(a, b, kind="table"))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "int64", "uint32", "bool"])
def test_isin_by_table_and_by_sort_agree_with_numpy(device, dtype):
    """kind=None takes the table (a scatter and a gather) for integers of a
    small span, as NumPy does, the sort otherwise; both give NumPy's answer."""
    rng = np.random.default_rng(7)
    info = np.iinfo(dtype) if dtype != "bool" else None
    for lo, hi, n in ((0, 2, 50), (-5, 40, 300), (0, 1000, 100)):
        if info is not None and (lo < info.min or hi > info.max):
            continue
        a = rng.integers(lo, hi, n).astype(dtype)
        b = rng.integers(lo, hi, 7).astype(dtype)
        if info is not None:
            a[:2] = [info.min, info.max]  # far outside the table
        for kind in (None, "table", "sort"):
            for invert in (False, True):
                assert_same(dt.isin(dt.asarray(a, device=device), dt.asarray(b, device=device), kind=kind,
                                    invert=invert), np.isin(a, b, kind=kind, invert=invert))
    wide = np.array([-2**62, 0, 2**62])  # a span the table refuses for kind=None
    assert_same(dt.isin(dt.asarray(wide, device=device), dt.asarray(wide[:2], device=device)),
                np.isin(wide, wide[:2]))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint8"])
def test_histogram_equal_bins_at_their_edges(device, dtype):
    """Equal bins take NumPy's arithmetic (_equal_bin_of): values on every
    edge and an ulp either side land in NumPy's bins."""
    for bins, rng_ in ((10, (0.0, 1.0)), (7, (-3.3, 11.9)), (100, None), ("auto", None)):
        lo, hi = rng_ or (0.0, 255.0)
        edges = np.linspace(lo, hi, (bins if isinstance(bins, int) else 10) + 1)
        if dtype in ("int64", "uint8"):
            a = np.arange(0, 256).astype(dtype)
        else:
            e = edges.astype(dtype)
            a = np.concatenate([e, np.nextafter(e, e - 1), np.nextafter(e, e + 1),
                                np.random.default_rng(1).uniform(lo, hi, 500).astype(dtype)])
        for w in (None, np.arange(a.shape[0], dtype=np.float64)) if isinstance(bins, int) else (None,):
            got = dt.histogram(dt.asarray(a, device=device), bins, range=rng_,
                               weights=None if w is None else dt.asarray(w, device=device))
            want = np.histogram(a, bins, range=rng_, weights=w)
            assert_same(got[0], want[0])
            assert_same(got[1], want[1])


def test_unique_axis_empty(device):
    for shape in [(0, 3), (3, 0), (0, 0), (2, 0, 3), (0, 2)]:
        a = np.empty(shape)
        t = dt.asarray(a, device=device)
        for axis in range(-len(shape), len(shape)):
            same_tuple(dt.unique(t, axis=axis), np.unique(a, axis=axis))
            same_tuple(dt.unique(t, True, True, True, axis=axis), np.unique(a, True, True, True, axis=axis))


@pytest.mark.parametrize("name", ["union1d", "intersect1d", "setdiff1d", "setxor1d"])
def test_set_functions(device, name):
    rng = np.random.default_rng(4)
    for a, b in [(rng.integers(0, 10, 12), rng.integers(5, 15, 9)),
                 (np.array([1.0, np.nan, 2, np.nan, 3]), np.array([np.nan, 2.0, 4])),
                 (np.array([], np.int64), np.array([1, 2]))]:
        got = getattr(dt, name)(dt.asarray(a, device=device), dt.asarray(b, device=device))
        assert_same(got, getattr(np, name)(a, b))
    u, v = np.array([5, 1, 3]), np.array([3, 7, 5, 0])
    if name != "union1d":
        assert_same(getattr(dt, name)(dt.asarray(u, device=device), dt.asarray(v, device=device),
                                      assume_unique=True), getattr(np, name)(u, v, assume_unique=True))


def test_intersect1d_indices(device):
    a, b = np.array([4, 1, 2, 4, 7, 1]), np.array([1, 9, 4, 4, 2])
    for assume_unique in (False, True):
        x, y = (np.unique(a), np.unique(b)[::-1].copy()) if assume_unique else (a, b)
        same_tuple(dt.intersect1d(dt.asarray(x, device=device), dt.asarray(y, device=device), assume_unique,
                                  return_indices=True), np.intersect1d(x, y, assume_unique, return_indices=True))


def test_bincount(device):
    rng = np.random.default_rng(5)
    x = rng.integers(0, 9, 60)
    w = rng.standard_normal(60)
    tx = dt.asarray(x, device=device)
    assert_same(dt.bincount(tx), np.bincount(x))
    assert_same(dt.bincount(tx, minlength=15), np.bincount(x, minlength=15))
    assert_same(dt.bincount(dt.asarray(x.astype(np.uint8), device=device)), np.bincount(x.astype(np.uint8)))
    assert_same(dt.bincount(tx, dt.asarray(w, device=device)), np.bincount(x, w), exact=False, rtol=1e-12,
                atol=1e-12)
    assert_same(dt.bincount(dt.asarray(np.array([], np.int64), device=device)), np.bincount(np.array([], int)))
    assert_same(dt.bincount(dt.asarray(np.array([], np.int64), device=device), minlength=3),
                np.bincount(np.array([], int), minlength=3))
    same_error(lambda: np.bincount(np.array([1, -1])), lambda: dt.bincount(dt.asarray([1, -1], device=device)))
    same_error(lambda: np.bincount(np.ones((2, 2), int)), lambda: dt.bincount(dt.ones((2, 2), dtype="int64",
                                                                                       device=device)))
    same_error(lambda: np.bincount(np.array(3)), lambda: dt.bincount(dt.asarray(3, device=device)))
    same_error(lambda: np.bincount(np.array([1.5])), lambda: dt.bincount(dt.asarray([1.5], device=device)))
    same_error(lambda: np.bincount(x, w[:3]), lambda: dt.bincount(tx, dt.asarray(w[:3], device=device)))
    same_error(lambda: np.bincount(x, minlength=-1), lambda: dt.bincount(tx, minlength=-1))


def test_bincount_inputs_and_weights(device):
    ta = lambda x: dt.asarray(x, device=device)  # noqa: E731
    assert_same(dt.bincount([]), np.bincount([]))
    assert_same(dt.bincount((), minlength=2), np.bincount((), minlength=2))
    # an empty input is NumPy's int64 answer whatever the weights
    for w in (np.array([]), np.array([], np.float32), np.array([], complex)):
        assert_same(dt.bincount(ta(np.array([], np.int64)), ta(w)), np.bincount(np.array([], np.int64), w))
    same_error(lambda: np.bincount(np.array([])), lambda: dt.bincount(ta(np.array([]))))
    for x in (np.array([0, 3, 3, 1], np.uint64), np.array([0, 3, 1], np.uint32), np.array([True, False, True])):
        assert_same(dt.bincount(ta(x)), np.bincount(x))
        assert_same(dt.bincount(ta(x), ta(np.arange(len(x), dtype=np.float32))),
                    np.bincount(x, np.arange(len(x), dtype=np.float32)))
    same_error(lambda: np.bincount(np.array([2**63, 1], np.uint64)),
               lambda: dt.bincount(ta(np.array([2**63, 1], np.uint64))))
    x = np.array([0, 1, 1])
    for w in (np.array([1j, 2, 3]), np.array([1, 2, 3], np.complex64)):
        same_error(lambda: np.bincount(x, w), lambda: dt.bincount(ta(x), ta(w)))
    same_error(lambda: np.bincount(x, [1j, 2, 3]), lambda: dt.bincount(ta(x), [1j, 2, 3]))
    assert_same(dt.bincount(ta(x), [1.5, 2, 3]), np.bincount(x, [1.5, 2, 3]))
    assert_same(dt.bincount(ta(x), ta(np.array([1, 2, 3], np.uint64))), np.bincount(x, np.array([1, 2, 3], np.uint64)))
    same_error(lambda: np.bincount(np.array([1, -1]), [1j, 2]), lambda: dt.bincount(ta([1, -1]), ta([1j, 2])))


def test_bincount_weights_keep_each_bins_precision(device):
    """Each bin's weights are summed on their own on every device: a bin
    after a huge one keeps its value (a difference of running sums lost it)."""
    ta = lambda x: dt.asarray(x, device=device)  # noqa: E731
    for x, w in (([0, 1], [1e17, 1.0]), ([0, 1, 1, 2], [1e10, 0.1, 0.2, 0.3]), ([3, 1, 3], [1.0, 2.0, 4.0]),
                 ([2, 0, 2, 2], [1e-300, 5e300, -1e-300, 3.0]), ([0, 0, 5], [-0.0, -0.0, 1.0])):
        for minlength in (0, 9):
            got, want = dt.bincount(ta(x), ta(w), minlength=minlength), np.bincount(x, w, minlength=minlength)
            assert to_np(got).tolist() == want.tolist(), (x, w)
    rng = np.random.default_rng(3)
    x, w = rng.integers(0, 40, 3000), rng.standard_normal(3000) * 10.0 ** rng.integers(-8, 8, 3000)
    np.testing.assert_allclose(to_np(dt.bincount(ta(x), ta(w))), np.bincount(x, w), rtol=1e-12, atol=1e-5)
    h = dt.histogram(ta([0.1, 0.9, 0.95]), bins=2, range=(0, 1), weights=ta([1e17, 1.0, 2.0]))[0]
    assert to_np(h).tolist() == [1e17, 3.0]


def test_histogram_weights(device):
    rng = np.random.default_rng(7)
    y = rng.standard_normal(60)
    ty = dt.asarray(y, device=device)
    weights = [rng.integers(0, 5, 60), rng.integers(0, 5, 60).astype(np.int32), rng.integers(0, 5, 60).astype(np.uint8),
               rng.standard_normal(60) + 1j * rng.standard_normal(60),
               (rng.standard_normal(60) + 2j).astype(np.complex64)]
    for w in weights:
        tw = dt.asarray(w, device=device)
        for kw in ({}, {"bins": 3, "range": (0, 1)}, {"bins": [-1.0, 0, 0.5, 2]}, {"bins": [1.0]}):
            args = {k: dt.asarray(v, device=device) if isinstance(v, list) else v for k, v in kw.items()}
            got, want = dt.histogram(ty, weights=tw, **args), np.histogram(y, weights=w, **kw)
            assert_same(got[0], want[0], exact=w.dtype.kind in "iu", rtol=1e-6)
            assert_same(got[1], want[1])
    a = np.ones((2, 3))
    same_error(lambda: np.histogram(a, weights=np.ones(6)),
               lambda: dt.histogram(dt.asarray(a, device=device), weights=dt.asarray(np.ones(6), device=device)))
    same_tuple(dt.histogram(dt.asarray(a, device=device), weights=dt.asarray(np.ones((2, 3)), device=device)),
               np.histogram(a, weights=np.ones((2, 3))))


def test_histogram(device):
    rng = np.random.default_rng(6)
    y = rng.standard_normal(500)
    ty = dt.asarray(y, device=device)
    for kw in [{}, {"bins": 7}, {"bins": [-1.0, 0, 0.5, 2]}, {"range": (-1, 1)}, {"density": True},
               {"weights": np.abs(y)}, {"bins": 3, "range": (0, 0)}]:
        want = np.histogram(y, **kw)
        args = {k: dt.asarray(v, device=device) if isinstance(v, (np.ndarray, list)) else v for k, v in kw.items()}
        got = dt.histogram(ty, **args)
        assert_same(got[0], want[0], exact=False, rtol=1e-12)
        assert_same(got[1], want[1], exact=False, rtol=1e-15)
    i = rng.integers(0, 10, 50)
    for g, w in zip(dt.histogram(dt.asarray(i, device=device), bins=4), np.histogram(i, bins=4)):
        assert_same(g, w)
    for g, w in zip(dt.histogram(dt.asarray(y.astype(np.float32), device=device)),
                    np.histogram(y.astype(np.float32))):
        assert_same(g, w)
    same_error(lambda: np.histogram(y, bins=[1, 0]), lambda: dt.histogram(ty, bins=dt.asarray([1, 0], device=device)))
    same_error(lambda: np.histogram(y, range=(1, 0)), lambda: dt.histogram(ty, range=(1, 0)))
    same_error(lambda: np.histogram(y, bins=0), lambda: dt.histogram(ty, bins=0))
    same_error(lambda: np.histogram(y, weights=y[:3]), lambda: dt.histogram(ty, weights=dt.asarray(y[:3], device=device)))
    n = np.array([1.0, np.nan])
    same_error(lambda: np.histogram(n), lambda: dt.histogram(dt.asarray(n, device=device)))


ESTIMATORS = ["auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"]


def estimator_data():
    rng = np.random.default_rng(8)
    return {"normal": rng.standard_normal(1000), "float32": rng.standard_normal(300).astype(np.float32),
            "skewed": rng.exponential(size=400), "int64": rng.integers(-50, 50, 400),
            "int8": rng.integers(-100, 100, 200).astype(np.int8),
            "uint64": rng.integers(0, 10**4, 100).astype(np.uint64),
            "constant": np.full(20, 3.0), "empty": np.array([]), "empty_int": np.array([], np.int64),
            "two": np.array([1.0, 2.0]), "one_int": np.array([5])}


@pytest.mark.filterwarnings("ignore:The number of bins estimated may be suboptimal")
@pytest.mark.parametrize("bins", ESTIMATORS)
def test_histogram_estimators(device, bins):
    # edges to the last rounding and exact counts (the number of bins is NumPy's), with and
    # without range= (data outside it ignored, an empty range widened by 1/2)
    for name, a in estimator_data().items():
        ta = dt.asarray(a, device=device)
        for rng in (None, (-1, 2), (0.5, 0.5), (10**5, 10**6)):
            got, want = dt.histogram(ta, bins, range=rng), np.histogram(a, bins, range=rng)
            assert got[1].device == ta.device
            assert_same(got[0], want[0])
            assert_same(got[1], want[1], exact=False, rtol=1e-14)
        assert_same(dt.histogram_bin_edges(ta, bins), np.histogram_bin_edges(a, bins), exact=False, rtol=1e-14)


def test_histogram_estimators_more(device):
    rng = np.random.default_rng(9)
    a = rng.standard_normal(10**4)
    for bins in ESTIMATORS:  # the largest emulated size: stone's candidates reach sqrt(n) = 100
        assert_same(dt.histogram_bin_edges(dt.asarray(a, device=device), bins), np.histogram_bin_edges(a, bins),
                    exact=False, rtol=1e-14)
    # bool data is counted as uint8, with NumPy's warning
    b = rng.random(50) < 0.3
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        got = dt.histogram(dt.asarray(b, device=device), "auto")
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        same_tuple(got, np.histogram(b, "auto"))
    # integer data: bins at least 1 wide; a span over the int64 range
    i = np.array([-2**63, 0, 2**63 - 1])
    same_tuple(dt.histogram(dt.asarray(i, device=device), "sqrt"), np.histogram(i, "sqrt"))
    same_tuple(dt.histogram(dt.asarray(np.arange(5), device=device), "fd"), np.histogram(np.arange(5), "fd"))
    # stone warns where the best count is its upper bound
    s = np.concatenate([[0.0, 1.0], np.full(50, 0.3)])
    with pytest.warns(RuntimeWarning, match="The number of bins estimated may be suboptimal"):
        got = dt.histogram_bin_edges(dt.asarray(s, device=device), "stone")
    with pytest.warns(RuntimeWarning, match="The number of bins estimated may be suboptimal"):
        assert_same(got, np.histogram_bin_edges(s, "stone"))


def test_histogram_bin_edges(device):
    rng = np.random.default_rng(10)
    a = rng.standard_normal((20, 3))
    ta = dt.asarray(a, device=device)
    for kw in [{}, {"bins": 7}, {"bins": 3, "range": (0, 1)}, {"bins": 3, "range": (0, 0)}, {"bins": "auto"},
               {"bins": "fd", "range": (-1, 1)}, {"weights": np.ones((20, 3))}]:
        want = np.histogram_bin_edges(a, **kw)
        args = {k: dt.asarray(v, device=device) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
        assert_same(dt.histogram_bin_edges(ta, **args), want, exact=False, rtol=1e-15)
        assert_same(dt.histogram(ta, **args)[1], want, exact=False, rtol=1e-15)
    for edges in ([-1.0, 0, 0.5, 2], [1, 2, 3]):
        got = dt.histogram_bin_edges(ta, dt.asarray(edges, device=device))
        assert_same(got, np.histogram_bin_edges(a, edges), device=device)
    assert_same(dt.histogram_bin_edges(ta.astype("float32"), 4), np.histogram_bin_edges(a.astype(np.float32), 4))
    assert_same(dt.histogram_bin_edges(dt.asarray(np.arange(6), device=device), 4),
                np.histogram_bin_edges(np.arange(6), 4))
    assert_same(dt.histogram_bin_edges([]), np.histogram_bin_edges([]))


def test_histogram_counts_from_0d_tensors(device):
    """bins=labels.max() + 1 is a count: a 0-d tensor (on the data's device)
    counts as NumPy's 0-d array does, in every histogram function."""
    x = np.array([0.5, 1.5, 3.0, 2.0, 4.5])
    labels = np.array([0, 2, 1, 2, 4])
    tx, tl = dt.asarray(x, device=device), dt.asarray(labels, device=device)
    for got, want in zip(dt.histogram(tx, bins=tl.max() + 1), np.histogram(x, bins=labels.max() + 1)):
        assert_same(got, want, exact=False, rtol=1e-15)
    assert_same(dt.histogram_bin_edges(tx, tl[1]), np.histogram_bin_edges(x, labels[1]), exact=False, rtol=1e-15)
    assert_same(dt.histogram2d(tx, tx, bins=tl[1])[0], np.histogram2d(x, x, bins=labels[1])[0])
    assert_same(dt.histogram2d(tx, tx, bins=[tl[1], tl[2]])[0], np.histogram2d(x, x, bins=[2, 1])[0])
    assert_same(dt.histogramdd(dt.stack([tx, tx], 1), bins=tl[1])[0],
                np.histogramdd(np.stack([x, x], 1), bins=labels[1])[0])
    with pytest.raises(ValueError, match="`bins` must be positive"):
        dt.histogram_bin_edges(tx, tl[0])


def test_histogram_estimator_errors(device):
    a = np.arange(10.0)
    ta, tw = dt.asarray(a, device=device), dt.asarray(np.ones(10), device=device)
    for f in ("histogram", "histogram_bin_edges"):
        npf, dtf = getattr(np, f), getattr(dt, f)
        same_error(lambda: npf(a, "bogus"), lambda: dtf(ta, "bogus"))
        same_error(lambda: npf(a, "bogus", weights=np.ones(10)), lambda: dtf(ta, "bogus", weights=tw))
        for bins in ESTIMATORS:
            same_error(lambda: npf(a, bins, weights=np.ones(10)), lambda: dtf(ta, bins, weights=tw))
        same_error(lambda: npf(a, "auto", weights=np.ones(3)), lambda: dtf(ta, "auto", weights=tw[:3]))
        same_error(lambda: npf(a, "auto", range=(1, 0)), lambda: dtf(ta, "auto", range=(1, 0)))
        same_error(lambda: npf(a, "auto", range=(0, np.inf)), lambda: dtf(ta, "auto", range=(0, np.inf)))
        n = np.array([1.0, np.nan])
        same_error(lambda: npf(n, "auto"), lambda: dtf(dt.asarray(n, device=device), "auto"))
        same_error(lambda: npf(a, 2.5), lambda: dtf(ta, 2.5))
        same_error(lambda: npf(a, 0), lambda: dtf(ta, 0))
        same_error(lambda: npf(a, [[1, 2]]), lambda: dtf(ta, dt.asarray([[1, 2]], device=device)))
        t = np.array([1.0, 1.0 + 1e-15])
        same_error(lambda: npf(t, 100), lambda: dtf(dt.asarray(t, device=device), 100))


def test_histogram2d_and_histogramdd(device):
    """NumPy's histogram2d/histogramdd on the sample's device: points on the
    last edge counted, points outside the range dropped, int and edge bins,
    weights and density; NumPy's errors."""
    rng = np.random.default_rng(8)
    x = np.r_[rng.integers(0, 5, 60).astype(float), 4.0, 5.5, -1.0]
    y = np.r_[rng.integers(0, 3, 60).astype(float), 2.0, 1.0, 7.0]
    w = rng.random(x.size)
    X, Y, W = (dt.asarray(v, device=device) for v in (x, y, w))
    for kw in [{}, dict(bins=4), dict(bins=(5, 3)), dict(bins=[np.arange(6.0), np.arange(4.0)]),
               dict(range=[[0, 4], [0, 2]]), dict(bins=3, density=True), dict(weights=w), dict(bins=np.arange(4.0))]:
        tkw = {k: (dt.asarray(v, device=device) if k == "weights" else v) for k, v in kw.items()}
        got, want = dt.histogram2d(X, Y, **tkw), np.histogram2d(x, y, **kw)
        for g, v in zip(got, want):
            assert isinstance(g, dt.Tensor) and g.device == X.device and g.dtype == v.dtype and g.shape == v.shape
            np.testing.assert_allclose(g.cpu().numpy(), v, rtol=1e-12)
    s = rng.random((40, 3))
    got, want = dt.histogramdd(dt.asarray(s, device=device), bins=(2, 3, 4)), np.histogramdd(s, bins=(2, 3, 4))
    np.testing.assert_array_equal(got[0].cpu().numpy(), want[0])
    with pytest.raises(ValueError, match="must be monotonically increasing"):
        dt.histogram2d(X, Y, bins=[[0.0, 2.0, 1.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match="max must be larger than min"):
        dt.histogram2d(X, Y, range=[[2, 1], [0, 1]])



@pytest.mark.parametrize("dtype", ["float32", "float16", "int32"])
@pytest.mark.parametrize("span", [None, [(0, 1), (0.2, 0.8)]])
def test_histogramdd_edges_in_numpys_dtype(device, dtype, span):
    """NumPy's edges are linspace of the outer edges in their own dtype:
    float32 data with no range gives float32 edges (and 0.7 in bin 7, which
    float64 edges of the float32 extremes put in bin 6); a range of Python
    numbers gives float64."""
    x = np.linspace(0, 1, 11).astype(dtype) if dtype != "int32" else np.arange(11, dtype=dtype)
    want = np.histogram2d(x, x[::-1], bins=10, range=span)
    got = dt.histogram2d(dt.asarray(x, device=device), dt.asarray(x[::-1], device=device), bins=10, range=span)
    for g, v in zip(got, want):
        assert g.dtype == v.dtype
        np.testing.assert_array_equal(g.cpu().numpy(), v)
    with pytest.raises(TypeError, match=r"`bins\[0\]` must be an integer, when a scalar"):
        dt.histogramdd(dt.asarray(x, device=device), bins=2.5)

SMALL_CPU_CALLS = [
    ("histogram", lambda m, a: m.histogram(a, bins=7)),
    ("histogram range", lambda m, a: m.histogram(a, bins=[-1.0, 0.0, 0.5, 2.0], density=True)),
    ("histogram auto", lambda m, a: m.histogram(a, bins="auto", range=(-2, 2))),
    ("percentile", lambda m, a: m.percentile(a, [5, 50, 95])),
    ("quantile axis", lambda m, a: m.quantile(a.reshape(4, 6), 0.3, axis=1, keepdims=True)),
    ("quantile method", lambda m, a: m.quantile(a, 0.3, method="nearest")),
    ("nanpercentile", lambda m, a: m.nanpercentile(m.where(a > 1, m.nan, a), 40)),
    ("isin", lambda m, a: m.isin(m.floor(a * 3), [0.0, 1.0, -2.0])),
    ("isin invert", lambda m, a: m.isin(m.floor(a * 3), m.floor(a[:5] * 3), invert=True)),
]


@pytest.mark.parametrize("name,call", SMALL_CPU_CALLS, ids=[c[0] for c in SMALL_CPU_CALLS])
@pytest.mark.parametrize("threshold", ["numpy's function", "devtensor's own path"])
def test_small_cpu_work_through_numpy_or_devtensor_gives_numpys_results(name, call, threshold, monkeypatch):
    """Note [Small CPU work through NumPy's functions]: small CPU tensors take
    NumPy's function on views; with the threshold at 0 the same calls take
    devtensor's own path; both give NumPy's values and dtypes."""
    from devtensor import _operands
    if threshold != "numpy's function":
        monkeypatch.setattr(_operands, "SMALL_CPU_WORK", 0)
    a = np.random.default_rng(3).standard_normal(24)
    want, got = call(np, a), call(dt, dt.asarray(a.copy()))
    for w, g in zip(want, got) if isinstance(want, tuple) else [(want, got)]:
        assert_same(g, w, "cpu", exact=False, rtol=1e-12)


@pytest.mark.parametrize("dtype,lo,hi,values", [("int8", -100, 101, [-100, 0, 100]), ("int16", -20000, 20000, [-20000, -10000, 19999]),
                                              ("uint8", 0, 256, [0, 255, 128])])
def test_isin_table_of_narrow_integers(device, dtype, lo, hi, values):
    """The table's offsets from the minimum are taken in 64 bits: in int8
    itself, 100 - -100 wrapped and found 55 in [-100, 0, 100] (large CPU
    inputs and every device take the table)."""
    e = np.tile(np.arange(lo, hi, dtype=dtype), 1000 if device == "cpu" else 1)
    t = np.array(values, dtype)
    got = dt.isin(dt.asarray(e, device=device), dt.asarray(t, device=device))
    np.testing.assert_array_equal(got.cpu().numpy(), np.isin(e, t))
    assert dt.intersect1d(dt.asarray(e, device=device), dt.asarray(t, device=device)).tolist() == sorted(values)


def test_set_functions_of_uint64_past_int64(device):
    """isin's table offsets are taken in the inputs' dtype: uint64 values from
    2**63 (a Python int past int64 in the arithmetic raised OverflowError)."""
    u = np.uint64
    cases = [(np.array([0, 5], u), np.array([2**63], u)), (np.array([2**63, 2**64 - 1, 3], u), np.array([2**64 - 1, 2**63 + 1], u)),
             (np.array([-3, 5, 2**62], np.int64), np.array([2**63, 5], u)), (np.array([2**64 - 1, 0], u), np.array([0, 2**64 - 1], u))]
    for a, b in cases:
        x, y = dt.asarray(a, device=device), dt.asarray(b, device=device)
        for kind in (None, "sort"):
            assert dt.isin(x, y, kind=kind).tolist() == np.isin(a, b, kind=kind).tolist()
        for name in ("intersect1d", "setdiff1d", "union1d", "setxor1d"):
            got, want = getattr(dt, name)(x, y), getattr(np, name)(a, b)
            assert got.dtype == want.dtype and got.tolist() == want.tolist(), name
