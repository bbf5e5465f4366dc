"""median, quantile, percentile and their NaN forms (devtensor._quantiles)
against NumPy on every device: every method, axes (int, tuple, None),
keepdims, scalar and array q, NaN slices, dtypes, out, and errors."""
import warnings

import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, given, same_error, settings, st

METHODS = ["linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf", "averaged_inverted_cdf",
           "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
           "normal_unbiased"]


def data(dtype, nan):
    rng = np.random.default_rng(abs(hash((dtype, nan))) % 2**32)
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
    with pytest.warns(DeprecationWarning):
        check(dt.quantile(t, 0.2, interpolation="lower"), np.quantile(a, 0.2, method="lower"))
