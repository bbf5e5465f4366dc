"""erf, erfc and lgamma (core ops, ABI 14) and devtensor.special, on every
device and in every float dtype, against Python's math module."""
import math

import numpy as np
import pytest

import devtensor as dt
from helpers import to_np

X = np.array([-30.0, -6.0, -2.5, -1.0, -0.5, -1e-300, 0.0, 1e-8, 0.3, 1.0, 2.5, 6.0, 27.0])
FLOATS = [(dt.float64, np.float64, 4e-16), (dt.float32, np.float32, 2.5e-7), (dt.float16, np.float16, 1e-3),
          (dt.bfloat16, None, 8e-3)]


def _reference(fn, values):
    def one(v):
        try:
            return fn(v)
        except ValueError:  # math.lgamma at a pole
            return math.inf
    return np.array([one(float(v)) for v in values])


@pytest.mark.parametrize("name, fn", [("erf", math.erf), ("erfc", math.erfc), ("lgamma", math.lgamma)])
@pytest.mark.parametrize("dtype, np_dtype, rel", FLOATS)
def test_core_special_ops_against_math(device, name, fn, dtype, np_dtype, rel):
    values = X if name != "lgamma" else np.array([-2.5, -0.5, 1e-300, 1e-8, 0.3, 1.0, 2.0, 2.5, 6.0, 27.0, 170.5, 1e300])
    t = dt.asarray(values, device=device).astype(dtype)
    got = getattr(dt, name)(t)
    assert got.dtype == dtype and got.device == dt.device(device)
    rounded = to_np(t.astype(dt.float64))  # the values the dtype holds
    expected = _reference(fn, rounded)
    got64 = to_np(got.astype(dt.float64))
    finite = np.isfinite(expected) & (np.abs(expected) < (6e4 if dtype == dt.float16 else 3e38 if
                                                             dtype != dt.float64 else np.inf))
    tiny = np.abs(expected) < (6e-5 if dtype == dt.float16 else 1e-38 if dtype != dt.float64 else 1e-300)
    ok = finite & ~tiny
    # Python's lgamma (Lanczos) is itself ~1e-14 off for negative arguments, where C's is closer
    np.testing.assert_allclose(got64[ok], expected[ok], rtol=max(rel * 4, 1e-13 if name == "lgamma" else 0), atol=0)


def test_special_values_and_dtypes(device):
    t = dt.asarray([np.inf, -np.inf, np.nan, 0.0, -0.0], device=device)
    assert to_np(dt.erf(t)).tolist()[:2] == [1.0, -1.0] and np.isnan(to_np(dt.erf(t))[2])
    assert np.signbit(to_np(dt.erf(t))[4])  # erf(-0) is -0
    assert to_np(dt.erfc(t)).tolist()[:2] == [0.0, 2.0]
    lg = to_np(dt.lgamma(dt.asarray([0.0, -1.0, np.inf, -np.inf, 1.0, 2.0], device=device)))
    assert lg.tolist() == [np.inf, np.inf, np.inf, np.inf, 0.0, 0.0]
    assert dt.erf(dt.arange(3, device=device)).dtype == dt.float64  # NumPy's rule for integer inputs of float ops
    assert dt.erf(dt.asarray([True], device=device)).dtype == dt.float16
    with pytest.raises(TypeError, match="erf"):
        dt.erf(dt.asarray([1 + 1j], device=device))
    out = dt.empty(3, device=device)
    assert dt.erfc(dt.zeros(3, device=device), out=out) is out and out.tolist() == [1.0, 1.0, 1.0]
    assert isinstance(dt.erf, dt.ufunc) and dt.erf.nin == 1 and dt.lgamma.__name__ == "lgamma"


def test_lgamma_from_threads():
    """lgamma_r on the CPU: many threads, no shared signgam to race on (the
    values are checked; a sanitizer build would flag a race)."""
    x = dt.asarray(np.linspace(-50.5, 50.5, 400_000))
    dt.set_num_threads(2)
    got = to_np(dt.lgamma(x))
    idx = np.arange(0, 400_000, 9973)
    np.testing.assert_allclose(got[idx], _reference(math.lgamma, to_np(x)[idx]), rtol=1e-14)


def test_special_module(device):
    a = np.array([-37.0, -5.0, -1.0, 0.0, 0.5, 3.0])
    t = dt.asarray(a, device=device)
    sp = dt.special
    np.testing.assert_allclose(to_np(sp.ndtr(t)), [0.5 * math.erfc(-v / math.sqrt(2)) for v in a], rtol=1e-14)
    assert to_np(sp.ndtr(t))[0] > 0  # the far tail keeps its relative accuracy
    np.testing.assert_allclose(to_np(sp.expit(t)), 1 / (1 + np.exp(-a)), rtol=1e-15)
    np.testing.assert_allclose(to_np(sp.gammaln(dt.asarray([0.5, 10.0], device=device))),
                               [math.lgamma(0.5), math.lgamma(10.0)], rtol=1e-15)
    p = dt.asarray([0.0, 0.25, 1.0, -1.0, np.nan], device=device)
    e = to_np(sp.entr(p))
    assert e[0] == 0 and e[1] == -0.25 * math.log(0.25) and e[2] == 0 and e[3] == -np.inf and np.isnan(e[4])
    r = to_np(sp.xlog1py(dt.asarray([0.0, 2.0, 0.0], device=device), dt.asarray([-1.0, 1.0, np.nan], device=device)))
    assert r[0] == 0 and r[1] == 2 * math.log1p(1.0) and np.isnan(r[2])
    assert sp.expit(dt.arange(2, device=device)).dtype == dt.float32
    np.testing.assert_allclose(to_np(sp.softmax(t, 0)), np.exp(a - a.max()) / np.exp(a - a.max()).sum(), rtol=1e-14)
    assert sp.logit is dt.logit and sp.erf is dt.erf and sp.xlogy is dt.xlogy
    with pytest.raises(TypeError, match=r"special.ndtr\(\): argument 'input' \(position 1\) must be Tensor, not list"):
        sp.ndtr([1.0])
    with pytest.raises(TypeError, match="expected a tensor for x or y"):
        sp.xlog1py(1.0, 2.0)


def test_gelu_uses_erfc_on_every_dtype(device):
    x = dt.asarray([-8.0, -1.0, 0.5, 3.0], device=device)
    for dtype in (dt.float16, dt.bfloat16, dt.float32, dt.float64):
        g = dt.nn.functional.gelu(x.astype(dtype))
        assert g.dtype == dtype
        expected = [v * 0.5 * math.erfc(-v / math.sqrt(2)) for v in to_np(x.astype(dtype).astype(dt.float64))]
        half = dtype in (dt.float16, dt.bfloat16)
        np.testing.assert_allclose(to_np(g.astype(dt.float64)), expected, rtol=1e-2 if half else 1e-6,
                                   atol=1e-6 if half else 0)
