"""median, quantile, percentile and their NaN forms (devtensor._quantiles)
against NumPy on every device: every method, axes (int, tuple, None),
keepdims, scalar and array q, NaN slices, dtypes, out, and errors."""
import warnings
import zlib

import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, given, same_error, settings, st, to_np

METHODS = ["linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf", "averaged_inverted_cdf",
           "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
           "normal_unbiased"]


def data(dtype, nan):
    rng = np.random.default_rng(zlib.crc32(f"{dtype} {nan}".encode()))  # not hash(): salted per run
    a = (rng.standard_normal((4, 5, 6)) * 10).astype(dtype)
    if nan:
        a[0, 0, :3] = np.nan
        a[1, 2, :] = np.nan
    return a


def check(got, want):
    # NumPy's own arithmetic, replayed: equal to the last bit
    assert_same(got, np.asarray(want))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int16"])
def test_quantile_every_method(device, method, dtype):
    a = data(dtype, False)
    t = dt.asarray(a, device=device)
    for axis in (None, 0, -1, (0, 2)):
        for q in (0.3, [0.0, 0.25, 0.5, 0.99, 1.0]):
            for keepdims in ((False, True) if axis == (0, 2) else (False,)):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    check(dt.quantile(t, q, axis=axis, method=method, keepdims=keepdims),
                          np.quantile(a, q, axis=axis, method=method, keepdims=keepdims))
    check(dt.percentile(t, [10, 90], axis=1, method=method), np.percentile(a, [10, 90], axis=1, method=method))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_nanquantile_every_method(device, method, dtype):
    a = data(dtype, True)
    t = dt.asarray(a, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for axis in (None, 0, -1, (1, 2)):
            for q in (0.3, [0.1, 0.5, 1.0]):
                check(dt.nanquantile(t, q, axis=axis, method=method), np.nanquantile(a, q, axis=axis, method=method))
                check(dt.quantile(t, q, axis=axis, method=method), np.quantile(a, q, axis=axis, method=method))
        check(dt.nanpercentile(t, 40, axis=-1, method=method, keepdims=True),
              np.nanpercentile(a, 40, axis=-1, method=method, keepdims=True))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8", "bool"])
def test_median(device, dtype):
    a = data(dtype, False) if dtype != "bool" else data("float32", False) > 0
    t = dt.asarray(a, device=device)
    for axis in (None, 0, 1, -1, (0, 1)):
        for keepdims in (False, True):
            check(dt.median(t, axis=axis, keepdims=keepdims), np.median(a, axis=axis, keepdims=keepdims))
    even = a[:, :, :4]
    check(dt.median(dt.asarray(even, device=device), axis=-1), np.median(even, axis=-1))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_median_nan(device, dtype):
    a = data(dtype, True)
    t = dt.asarray(a, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for axis in (None, 0, -1, (0, 2)):
            check(dt.median(t, axis=axis), np.median(a, axis=axis))
            check(dt.nanmedian(t, axis=axis), np.nanmedian(a, axis=axis))
    with pytest.warns(RuntimeWarning, match="All-NaN slice"):
        dt.nanmedian(t, axis=-1)
    with pytest.warns(RuntimeWarning, match="All-NaN slice"):
        dt.nanquantile(t, 0.5, axis=-1)


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_quantile_matches_numpy(device, data):
    shape = tuple(data.draw(st.lists(st.integers(1, 5), min_size=1, max_size=3), label="shape"))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    a = np.round(rng.standard_normal(shape) * 4, 1)
    nan = data.draw(st.booleans(), label="nan")
    if nan:
        a[rng.random(shape) < 0.3] = np.nan
    nd = len(shape)
    axis = data.draw(st.one_of(st.none(), st.integers(-nd, nd - 1)), label="axis")
    q = data.draw(st.one_of(st.floats(0, 1), st.lists(st.floats(0, 1), min_size=1, max_size=3)), label="q")
    method = data.draw(st.sampled_from(METHODS), label="method")
    fn = data.draw(st.sampled_from(["quantile", "nanquantile"]), label="fn")
    t = dt.asarray(a, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check(getattr(dt, fn)(t, q, axis=axis, method=method), getattr(np, fn)(a, q, axis=axis, method=method))


def test_quantile_out_and_errors(device):
    a = data("float64", False)
    t = dt.asarray(a, device=device)
    out = dt.empty((5, 6), dtype="float64", device=device)
    assert dt.quantile(t, 0.5, axis=0, out=out) is out
    check(out, np.quantile(a, 0.5, axis=0))
    out = dt.empty((), dtype="float64", device=device)
    assert dt.median(t, out=out) is out
    check(out, np.median(a))
    same_error(lambda: np.quantile(a, 1.5), lambda: dt.quantile(t, 1.5))
    same_error(lambda: np.quantile(a, [-0.1]), lambda: dt.quantile(t, [-0.1]))
    same_error(lambda: np.percentile(a, 101), lambda: dt.percentile(t, 101))
    same_error(lambda: np.quantile(a, 0.5, axis=3), lambda: dt.quantile(t, 0.5, axis=3))
    same_error(lambda: np.quantile(a, 0.5, axis=(0, 0)), lambda: dt.quantile(t, 0.5, axis=(0, 0)))
    same_error(lambda: np.median(a, axis=-4), lambda: dt.median(t, axis=-4))
    with pytest.raises(ValueError, match="is not a valid method"):
        dt.quantile(t, 0.5, method="bogus")
    with pytest.raises(TypeError):
        dt.quantile(dt.asarray(a + 1j, device=device), 0.5)
    with pytest.warns(RuntimeWarning):
        got = dt.median(dt.asarray(np.array([], np.float32), device=device))
    assert got.dtype == dt.float32 and np.isnan(float(got))
    # NumPy 2.4 removed `interpolation=`; quantile and nanquantile take it as PyTorch's name of method
    # (Note [PyTorch's keywords]), percentile keeps NumPy's TypeError; interpolating a bool array is its
    # boolean subtract's TypeError
    assert to_np(dt.quantile(t, 0.2, interpolation="lower")).tolist() == np.quantile(a, 0.2, method="lower").tolist()
    same_error(lambda: np.nanpercentile(a, 20, interpolation="lower"),
               lambda: dt.nanpercentile(t, 20, interpolation="lower"))
    b = np.array([True, False, True])
    tb = dt.asarray(b, device=device)
    same_error(lambda: np.quantile(b, 0.5), lambda: dt.quantile(tb, 0.5))
    same_error(lambda: np.percentile(b, 30, method="hazen"), lambda: dt.percentile(tb, 30, method="hazen"))
    check(dt.quantile(tb, 0.5, method="lower"), np.quantile(b, 0.5, method="lower"))


def test_quantile_q_dtype(device):
    # NEP 50 (Note [The dtype of q]): only Python's int and float are weak, NumPy scalars and
    # arrays keep their dtype: the result's dtype, and float32 indices for float32 q
    f32 = np.array([1.0, 2, 4, 7.5, 100], np.float32)
    qs = [0.3, 1, np.float64(0.3), np.float32(0.3), np.float32(0.4), np.float16(0.3), np.int64(1), [0, 1],
          np.array([0.3, 0.9], np.float32), dt.asarray(np.array([0.25], np.float32), device=device)]
    for a in (f32, f32.astype(np.float16), np.array([1, 2, 4, 9]), np.arange(21.0)):
        t = dt.asarray(a, device=device)
        for q in qs:
            qn = to_np(q) if isinstance(q, dt.Tensor) else q
            for method in ("linear", "higher", "hazen", "midpoint", "averaged_inverted_cdf"):
                check(dt.quantile(t, q, method=method), np.quantile(a, qn, method=method))
                check(dt.nanquantile(t, q, method=method), np.nanquantile(a, qn, method=method))
        for q in (30, 40.0, np.float32(40), np.float64(30), np.array([10, 95], np.float32)):
            check(dt.percentile(t, q), np.percentile(a, q))
            check(dt.nanpercentile(t, q, method="higher"), np.nanpercentile(a, q, method="higher"))
    n = data("float32", True)
    tn = dt.asarray(n, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for q in (np.float32(0.3), np.float64(0.7), np.array([0.1, 0.45], np.float32)):
            check(dt.nanquantile(tn, q, axis=-1), np.nanquantile(n, q, axis=-1))
            check(dt.nanquantile(tn, q, axis=0, method="nearest"), np.nanquantile(n, q, axis=0, method="nearest"))


def test_nanquantile_empty(device):
    # NumPy's NaN forms of an empty array are its nanmean: NaN with its warning, q's dims dropped
    def warned(fn):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            res = fn()
        return res, sorted(str(x.message) for x in w)

    for shape, axis in [((0,), None), ((0, 3), 0), ((0, 3), 1), ((3, 0), 0), ((0, 3), None)]:
        for dtype in ("float32", "float64"):
            a = np.empty(shape, dtype)
            t = dt.asarray(a, device=device)
            for fn, q, kw in [("nanquantile", 0.5, {}), ("nanquantile", [0.2, 0.7], {}),
                              ("nanpercentile", 50, {"keepdims": True})]:
                got, got_w = warned(lambda: getattr(dt, fn)(t, q, axis=axis, **kw))
                want, want_w = warned(lambda: getattr(np, fn)(a, q, axis=axis, **kw))
                check(got, want)
                assert got_w == want_w
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        check(dt.nanquantile(dt.asarray(np.array([]), device=device), 0.5), np.float64(np.nan))
    same_error(lambda: np.quantile(np.array([]), 0.5),
               lambda: dt.quantile(dt.asarray(np.array([]), device=device), 0.5))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16"])
def test_weighted_inverted_cdf(device, dtype):
    """weights= (Note [Weighted quantiles]): a's shape or a's shape along
    axis, ties, zero weights (leading ones never picked), q as a float32,
    NaN slices in the NaN forms and not."""
    rng = np.random.default_rng(5)
    a = np.round(rng.standard_normal((4, 5, 6)) * 3).astype(dtype)  # many ties
    w = rng.integers(1, 4, a.shape).astype(np.float64)
    w[0, 1, 0] = w[2, 3, 4] = w[1, 0, 5] = 0  # zero weights, no slice all zero
    w.flat[np.argmin(a)] = 0  # a leading zero in the sorted order (axis=None)
    t = dt.asarray(a, device=device)
    cases = [(None, w), (0, w), (-1, w), (1, w[0, :, 1]), (-1, w[0, 0]), ((0, 2), w[:, 0, :]),
             ((2, 0), w[:, 0, :].T), (None, w * 0.37)]
    for axis, ww in cases:
        for q in (0.0, 0.5, [0.0, 0.2, 0.75, 1.0], np.float32(0.3), []):
            for keepdims in (False, True):
                got = dt.quantile(t, q, axis=axis, method="inverted_cdf", weights=ww, keepdims=keepdims)
                assert_same(got, np.asarray(np.quantile(a, q, axis=axis, method="inverted_cdf", weights=ww,
                                                        keepdims=keepdims)))
    assert_same(dt.percentile(t, [10, 90], axis=1, method="inverted_cdf", weights=w[0, :, 1]),
                np.percentile(a, [10, 90], axis=1, method="inverted_cdf", weights=w[0, :, 1]))
    if dtype != "int16":
        an = a.copy()
        an[0, 0, :3] = np.nan
        an[1, 2, :] = np.nan
        tn = dt.asarray(an, device=device)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            for f in ("quantile", "nanquantile"):
                assert_same(getattr(dt, f)(tn, [0.2, 0.9], axis=-1, method="inverted_cdf", weights=w),
                            getattr(np, f)(an, [0.2, 0.9], axis=-1, method="inverted_cdf", weights=w))
            # (NumPy 2.4's nan forms fail on 1-d weights over a 3-d a: full ones here)
            assert_same(dt.nanpercentile(tn, 50, axis=-1, method="inverted_cdf", weights=w),
                        np.nanpercentile(an, 50, axis=-1, method="inverted_cdf", weights=w))
        with pytest.warns(RuntimeWarning, match="All-NaN slice"):
            dt.nanquantile(tn, 0.5, axis=-1, method="inverted_cdf", weights=w)


def test_weighted_errors(device):
    a = np.arange(12.0).reshape(3, 4)
    t = dt.asarray(a, device=device)
    w = np.ones((3, 4))
    for kwargs in ({"weights": w},                                              # only inverted_cdf
                   {"weights": -w, "method": "inverted_cdf"},                   # negative
                   {"weights": np.ones(4), "method": "inverted_cdf"},           # axis needed
                   {"weights": np.ones(3), "axis": 1, "method": "inverted_cdf"},  # wrong length
                   {"weights": 0 * w, "method": "inverted_cdf"},                # all zero
                   {"weights": w * np.inf, "method": "inverted_cdf"}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            same_error(lambda: np.quantile(a, 0.5, **kwargs), lambda: dt.quantile(t, 0.5, **kwargs))


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint", "hazen",
                                    "inverted_cdf", "closest_observation", "weibull"])
def test_partitioned_order_statistics(device, method):
    """Past the small-CPU path, median and quantiles partition at the places
    they read and the last (Note [Quantiles by sorting]): odd and even
    counts, ties, NaN slices, the NaN forms with and without NaN, axes,
    several q and q beyond the places' limit, against NumPy."""
    rng = np.random.default_rng(7)
    n = 70_001 if device == "cpu" else 3_001
    a = rng.standard_normal(n)
    m = rng.integers(0, 50, (300 if device == "cpu" else 30, 251)).astype(np.float64)  # ties
    q = [0.0, 0.1, 0.5, 0.77, 1.0]
    for x in (a, a[:-1], m):
        t = dt.asarray(x, device=device)
        np.testing.assert_allclose(to_np(dt.quantile(t, q, method=method)), np.quantile(x, q, method=method),
                                   rtol=1e-13)
        np.testing.assert_allclose(to_np(dt.nanquantile(t, 0.3, method=method)),
                                   np.nanquantile(x, 0.3, method=method), rtol=1e-13)
    np.testing.assert_allclose(to_np(dt.quantile(dt.asarray(m, device=device), q, axis=1, method=method)),
                               np.quantile(m, q, axis=1, method=method), rtol=1e-13)
    many = np.linspace(0, 1, 101)
    np.testing.assert_allclose(to_np(dt.quantile(dt.asarray(a, device=device), many, method=method)),
                               np.quantile(a, many, method=method), rtol=1e-13)
    if method != "linear":
        return
    for x in (a, a[:-1], m, m.astype(np.int32), m[:, :-1]):
        t = dt.asarray(x, device=device)
        for axis in (None, 0, -1):
            assert_same(dt.median(t, axis=axis), np.median(x, axis=axis), device)
            assert_same(dt.nanmedian(t, axis=axis), np.nanmedian(x, axis=axis), device)
    b = m.copy()
    b[3, 7] = np.nan
    b[5] = np.nan
    t = dt.asarray(b, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for axis in (None, 0, 1):
            assert_same(dt.median(t, axis=axis), np.median(b, axis=axis), device)
            assert_same(dt.nanmedian(t, axis=axis), np.nanmedian(b, axis=axis), device)
            assert_same(dt.quantile(t, 0.25, axis=axis), np.quantile(b, 0.25, axis=axis), device)
            assert_same(dt.nanquantile(t, 0.25, axis=axis), np.nanquantile(b, 0.25, axis=axis), device)
