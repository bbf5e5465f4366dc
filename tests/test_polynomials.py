"""devtensor._polynomials and devtensor._windows against NumPy on every
device: poly, roots, polyadd, polysub, polymul, polydiv, polyder, polyint,
the window functions and i0 -- values, dtypes, shapes and NumPy's errors.
(vander, polyval and polyfit: tests/test_numeric.py.)"""
import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, same_error, to_np

COEFFICIENTS = {
    "cubic": np.array([1.0, -6.0, 11.0, -6.0]),
    "ints with zeros": np.array([0, 3, 0, 2, 0, 0]),
    "complex": np.array([1, 2j, 3]),
    "float32": np.array([2.0, 1.0, -4.0], dtype=np.float32),
    "constant": np.array([5]),
    "all zero": np.array([0.0, 0.0]),
}


def T(a, device):
    return dt.asarray(np.asarray(a), device=device)


def close(got, want, device, rtol=1e-10):
    assert_same(got, want, device, exact=False, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("name", COEFFICIENTS)
def test_derivatives_and_integrals(device, name):
    p = COEFFICIENTS[name]
    for m in (0, 1, 2, 5):
        assert_same(dt.polyder(T(p, device), m), np.polyder(p, m), device)
    for m, k in ((1, None), (2, None), (2, [1, 2]), (3, 7.0), (0, None)):
        close(dt.polyint(T(p, device), m, k=k), np.polyint(p, m, k=k), device)


@pytest.mark.parametrize("name", COEFFICIENTS)
def test_arithmetic(device, name):
    p, q = COEFFICIENTS[name], np.array([2.0, 0.0, 1.0])
    for f in ("polyadd", "polysub", "polymul"):
        close(getattr(dt, f)(T(p, device), T(q, device)), getattr(np, f)(p, q), device)
        close(getattr(dt, f)(T(q, device), T(p, device)), getattr(np, f)(q, p), device)
    if np.any(p):
        got = dt.polydiv(T(p, device), T(q[:2] + 1, device))
        want = np.polydiv(p, q[:2] + 1)
        close(got[0], want[0], device)
        close(got[1], want[1], device)


def test_polydiv_trims_the_remainder_and_polymul_leading_zeros(device):
    for u, v in (([3.0, 5, 2], [2.0, 1]), ([1.0, 0, -1], [1.0, -1]), ([1.0, 2], [1.0, 2, 3])):
        q, r = dt.polydiv(T(u, device), T(v, device))
        wq, wr = np.polydiv(u, v)
        close(q, wq, device)
        close(r, wr, device)
    assert_same(dt.polymul(T([0, 0, 1, 2], device), T([0], device)), np.polymul([0, 0, 1, 2], [0]), device)
    assert_same(dt.polyadd(T([1, 2], device), [1.5]), np.polyadd([1, 2], [1.5]), device)


def sorted_complex(t):
    """Roots in an order that rounding cannot change (by value rounded to 6 decimals)."""
    r = np.asarray(to_np(t) if isinstance(t, dt.Tensor) else t, dtype=complex)
    return r[np.lexsort((np.round(r.imag, 6), np.round(r.real, 6)))]


@pytest.mark.parametrize("name", [n for n in COEFFICIENTS if n != "all zero"])
def test_roots(device, name):
    p = COEFFICIENTS[name]
    got, want = dt.roots(T(p, device)), np.roots(p)
    assert got.device == dt.device(device) and got.shape == want.shape
    assert got.dtype == want.dtype or want.dtype.kind == got.dtype.kind == "c", (got.dtype, want.dtype)
    np.testing.assert_allclose(sorted_complex(got), sorted_complex(want), rtol=1e-7, atol=1e-9)


def test_roots_corners_and_errors(device):
    assert_same(dt.roots(T([0.0, 0.0], device)), np.roots(np.array([0.0, 0.0])), device)
    assert_same(dt.roots(T([1.0, -2.0], device)), np.roots(np.array([1.0, -2.0])), device)
    same_error(lambda: np.roots(np.zeros((2, 2))), lambda: dt.roots(T(np.zeros((2, 2)), device)))
    same_error(lambda: np.polyder([1.0], -1), lambda: dt.polyder(T([1.0], device), -1))
    same_error(lambda: np.polyint([1.0], -1), lambda: dt.polyint(T([1.0], device), -1))
    same_error(lambda: np.polyint([1.0], 3, k=[1, 2]), lambda: dt.polyint(T([1.0], device), 3, k=[1, 2]))


def test_poly(device):
    for zeros in ([1.0, 2.0, 3.0], [1 + 1j, 1 - 1j], [2j, 1.0], np.array([1, 2], np.int8),
                  np.array([0.5, 2.0], np.float32)):
        zeros = np.asarray(zeros)
        close(dt.poly(T(zeros, device)), np.poly(zeros), device, rtol=1e-6)
    m = np.array([[0, 1 / 3], [-1 / 2, 0]])
    close(dt.poly(T(m, device)), np.poly(m), device)
    assert dt.poly(T(np.zeros(0), device)) == np.poly(np.zeros(0)) == 1.0
    same_error(lambda: np.poly(np.zeros((2, 3))), lambda: dt.poly(T(np.zeros((2, 3)), device)))
    # the characteristic polynomial's roots are the eigenvalues
    c = dt.poly(T(np.diag([1.0, 2.0, 4.0]), device))
    np.testing.assert_allclose(sorted_complex(dt.roots(c)).real, [1.0, 2.0, 4.0])


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
def test_windows(device, name):
    for M in (-1, 0, 1, 2, 5, 12, 7.0):
        close(getattr(dt, name)(M, device=device), getattr(np, name)(M), device, rtol=1e-13)


def test_kaiser(device):
    for M, beta in ((1, 5.0), (0, 3.0), (5, 0.0), (12, 14.0), (7, 8.6), (30, 2.0)):
        close(dt.kaiser(M, beta, device=device), np.kaiser(M, beta), device, rtol=1e-12)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "bool"])
def test_i0(device, dtype):
    x = np.array([0, 1, 2, 7.9, 8, 8.1, 30, -3, np.nan, np.inf, -np.inf, 700, 1e4, 1e-300])
    a = x > 1 if dtype == "bool" else x.astype(dtype) if dtype != "int32" else x[np.isfinite(x)].astype(dtype)
    with np.errstate(all="ignore"):
        want = np.i0(a)
    # float32: NumPy's exp and the backends' differ by an ulp, which the series amplifies
    close(dt.i0(T(a, device)), want, device, rtol=1e-13 if want.dtype == np.float64 else 2e-6)
    same_error(lambda: np.i0(np.array([1j])), lambda: dt.i0(T([1j], device)))


def test_numpys_functions_reach_them(device):
    t = T([1.0, -3.0, 2.0], device)
    for r in (np.polyder(t), np.polyint(t), np.roots(t), np.polymul(t, t), np.i0(t), np.polydiv(t, t)[0]):
        assert isinstance(r, dt.Tensor) and r.device == dt.device(device)
