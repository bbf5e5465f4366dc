"""devtensor._numeric against NumPy on every device: nan_to_num, cov,
corrcoef, gradient, trapezoid, ediff1d, convolve, correlate, ix_,
fill_diagonal, vander, polyval, polyfit, apply_along_axis -- values,
dtypes, shapes and NumPy's errors."""
import warnings

import numpy as np
import pytest

import devtensor as dt
from helpers import to_np


def close(got, want, device, rtol=1e-12, atol=0.0):
    """got: a tensor on device with want's dtype and shape and values to rtol."""
    want = np.asarray(want)
    assert isinstance(got, dt.Tensor) and got.device == dt.device(device), (type(got), getattr(got, "device", None))
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype, got.shape, want.shape)
    np.testing.assert_allclose(to_np(got), want, rtol=rtol, atol=atol, equal_nan=True)


def T(a, device):
    return dt.asarray(np.asarray(a), device=device)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "int32", "bool"])
def test_nan_to_num(device, dtype):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        a = np.array([np.nan, np.inf, -np.inf, 1.5, -0.0]) if dtype != "bool" else np.array([True, False])
        if dtype.startswith("complex"):
            a = a + np.array([np.inf, np.nan, 1, -np.inf, 0]) * 1j
        a = a.astype(dtype)
    for kw in [{}, dict(nan=-1.0, posinf=9.0, neginf=-9.0)]:
        close(dt.nan_to_num(T(a, device), **kw), np.nan_to_num(a, **kw), device)
    # a replacement is never replaced again: nan=inf stays inf, posinf=-inf stays -inf
    for kw in [dict(nan=np.inf, posinf=999.0), dict(posinf=-np.inf, neginf=7.0), dict(nan=-np.inf, neginf=3.0)]:
        close(dt.nan_to_num(T(a, device), **kw), np.nan_to_num(a, **kw), device)
    t = T(a, device)
    r = dt.nan_to_num(t, copy=False)
    if a.dtype.kind in "fc":
        assert r.data_ptr() == t.data_ptr()
    close(t, np.nan_to_num(a), device)


@pytest.mark.parametrize("rowvar", [True, False])
def test_cov_and_corrcoef(device, rowvar):
    rng = np.random.default_rng(0)
    m = rng.random((3, 7))
    y = rng.random((2, 7)) if rowvar else rng.random((7, 2))
    m = m if rowvar else m.T
    fw = rng.integers(1, 4, 7)
    aw = rng.random(7)
    for kw in [{}, dict(bias=True), dict(ddof=2), dict(fweights=fw), dict(aweights=aw),
               dict(fweights=fw, aweights=aw, ddof=1), dict(fweights=fw, aweights=aw, ddof=0)]:
        tkw = {k: (T(v, device) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
        close(dt.cov(T(m, device), rowvar=rowvar, **tkw), np.cov(m, rowvar=rowvar, **kw), device)
    close(dt.cov(T(m, device), T(y, device), rowvar=rowvar), np.cov(m, y, rowvar=rowvar), device)
    close(dt.corrcoef(T(m, device), rowvar=rowvar), np.corrcoef(m, rowvar=rowvar), device)
    close(dt.corrcoef(T(m, device), T(y, device), rowvar=rowvar), np.corrcoef(m, y, rowvar=rowvar), device)
    x = rng.random(6)
    close(dt.cov(T(x, device)), np.cov(x), device)
    close(dt.corrcoef(T(x, device)), np.corrcoef(x), device)
    c = rng.random((2, 5)) + 1j * rng.random((2, 5))
    close(dt.cov(T(c, device)), np.cov(c), device)
    close(dt.corrcoef(T(c, device)), np.corrcoef(c), device)
    close(dt.cov(T(m.astype(np.float32), device)), np.cov(m.astype(np.float32)), device, rtol=1e-5)
    close(dt.cov(T(m, device), dtype=dt.float32), np.cov(m, dtype=np.float32), device, rtol=1e-5)
    close(dt.cov(T(np.arange(12).reshape(3, 4), device)), np.cov(np.arange(12).reshape(3, 4)), device)


def test_cov_of_one_observation_with_rowvar_false(device):
    """NumPy 2: a 2-D m of one row with rowvar=False is one observation of
    each column's variable (a matrix of NaN, with the warning), not one
    variable."""
    for m in ([[1.0, 2.0, 3.0]], [1.0, 2.0, 3.0], [[1.0], [2.0], [3.0]], [[1.0, 2.0], [3.0, 5.0]]):
        for rowvar in (True, False):
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                close(dt.cov(T(m, device), rowvar=rowvar), np.cov(m, rowvar=rowvar), device)
                close(dt.corrcoef(T(m, device), rowvar=rowvar), np.corrcoef(m, rowvar=rowvar), device)


def test_cov_errors_and_warnings(device):
    m = T(np.arange(6.0).reshape(2, 3), device)
    with pytest.raises(ValueError, match="m has more than 2 dimensions"):
        dt.cov(T(np.zeros((2, 2, 2)), device))
    with pytest.raises(TypeError, match="fweights must be integer"):
        dt.cov(m, fweights=[1.5, 1, 1])
    with pytest.raises(ValueError, match="fweights cannot be negative"):
        dt.cov(m, fweights=[-1, 1, 1])
    with pytest.raises(RuntimeError, match="incompatible numbers of samples and aweights"):
        dt.cov(m, aweights=[1.0, 1.0])
    with pytest.raises(ValueError, match="ddof must be integer"):
        dt.cov(m, ddof=1.5)
    with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0"):
        got = dt.cov(m, ddof=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        close(got, np.cov(np.arange(6.0).reshape(2, 3), ddof=3), device)


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient(device, edge_order):
    rng = np.random.default_rng(1)
    f = rng.random((5, 6))
    x = np.cumsum(rng.random(6))
    for args, kw in [((), {}), ((2.0,), {}), ((0.5, 2.0), {}), ((1.0, x), {}), ((), dict(axis=1)),
                     ((x,), dict(axis=-1)), ((), dict(axis=(0, 1)))]:
        targs = tuple(T(a, device) if isinstance(a, np.ndarray) else a for a in args)
        got = dt.gradient(T(f, device), *targs, edge_order=edge_order, **kw)
        want = np.gradient(f, *args, edge_order=edge_order, **kw)
        if isinstance(want, np.ndarray):
            close(got, want, device)
        else:
            assert isinstance(got, tuple) and len(got) == len(want)
            for g, w in zip(got, want):
                close(g, w, device)
    close(dt.gradient(T(np.arange(5) ** 2, device)), np.gradient(np.arange(5) ** 2), device)
    close(dt.gradient(T(np.arange(5.0, dtype=np.float32) ** 2, device)),
          np.gradient(np.arange(5.0, dtype=np.float32) ** 2), device, rtol=1e-6)
    close(dt.gradient(T(f[0], device), T(np.arange(6), device)), np.gradient(f[0], np.arange(6)), device)
    with pytest.raises(ValueError, match="Shape of array too small"):
        dt.gradient(T(np.ones(2), device), edge_order=2)
    with pytest.raises(TypeError, match="invalid number of arguments"):
        dt.gradient(T(f, device), 1.0, 2.0, 3.0)
    with pytest.raises(ValueError, match="distances must match the length"):
        dt.gradient(T(f, device), 1.0, T(np.arange(3.0), device))
    with pytest.raises(ValueError, match="'edge_order' greater than 2 not supported"):
        dt.gradient(T(f, device), edge_order=3)


def test_trapezoid_and_ediff1d(device):
    rng = np.random.default_rng(2)
    y = rng.random((4, 5))
    x = np.cumsum(rng.random(5))
    for kw in [{}, dict(dx=0.5), dict(axis=0), dict(x=x), dict(x=np.cumsum(rng.random((4, 5)), axis=1))]:
        tkw = {k: (T(v, device) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
        close(dt.trapezoid(T(y, device), **tkw), np.trapezoid(y, **kw), device)
    close(dt.trapezoid(T(np.arange(6), device)), np.trapezoid(np.arange(6)), device)
    a = np.array([[1, 4], [9, 16]])
    close(dt.ediff1d(T(a, device)), np.ediff1d(a), device)
    close(dt.ediff1d(T(a, device), to_begin=-99, to_end=[88, 99]), np.ediff1d(a, to_begin=-99, to_end=[88, 99]),
          device)
    with pytest.raises(TypeError, match="dtype of `to_end` must be compatible"):
        dt.ediff1d(T(a, device), to_end=1.5)


@pytest.mark.parametrize("dtype", ["float64", "int64", "complex128", "float32"])
def test_convolve_and_correlate(device, dtype):
    rng = np.random.default_rng(3)
    for n, m in [(1, 1), (5, 3), (3, 5), (6, 6), (7, 2), (2, 7), (4, 5)]:
        a = (rng.random(n) * 10).astype(dtype)
        v = (rng.random(m) * 10).astype(dtype)
        if dtype.startswith("complex"):
            a, v = a + 1j * rng.random(n), v - 2j * rng.random(m)
        for mode in ["full", "same", "valid"]:
            rtol = 1e-5 if dtype == "float32" else 1e-12
            close(dt.convolve(T(a, device), T(v, device), mode), np.convolve(a, v, mode), device, rtol=rtol)
            close(dt.correlate(T(a, device), T(v, device), mode), np.correlate(a, v, mode), device, rtol=rtol)
    close(dt.convolve(T(np.array([1, 2, 3]), device), T(np.array([0.5]), device)),
          np.convolve([1, 2, 3], [0.5]), device)
    for fn, first, second in [("convolve", "a", "v"), ("correlate", "first array argument", "second array argument")]:
        with pytest.raises(ValueError, match=f"^{second} cannot be empty$"):  # NumPy's words on every device
            getattr(dt, fn)(T(np.ones(3), device), T(np.ones(0), device))
        with pytest.raises(ValueError, match=f"^{first} cannot be empty$"):
            getattr(dt, fn)(T(np.ones(0), device), T(np.ones(3), device))
    with pytest.raises(ValueError, match="mode must be one of"):
        dt.convolve(T(np.ones(3), device), T(np.ones(2), device), mode="bogus")


def test_convolve_and_correlate_keep_nan_and_inf_where_numpy_does(device):
    """A NaN or inf in either operand reaches only the outputs whose
    products hold it (padding with zeros gave 0 * NaN everywhere on
    devices); poly builds on convolve."""
    for a, v in [([1.0, 2, 3, 4], [1.0, np.nan, 1.0]), ([1.0, np.inf, 3, 4, 5], [2.0, np.nan]),
                 ([np.nan, 1.0, 2.0], [1.0, 2.0, 3.0, 4.0, 5.0]), ([1.0, 2.0], [np.inf, 0.0, -1.0])]:
        for mode in ["full", "same", "valid"]:
            for fn in ("convolve", "correlate"):
                for x, y in ((a, v), (v, a)):
                    got = to_np(getattr(dt, fn)(T(np.array(x), device), T(np.array(y), device), mode))
                    np.testing.assert_array_equal(got, getattr(np, fn)(x, y, mode))
    np.testing.assert_array_equal(to_np(dt.poly(T(np.array([3.0, np.inf, 2.0]), device))),
                                  np.poly([3.0, np.inf, 2.0]))


def test_ix_and_fill_diagonal(device):
    a = np.arange(20).reshape(4, 5)
    t = T(a, device)
    idx = dt.ix_([0, 2], T(np.array([True, False, True, False, True]), device))
    want = np.ix_([0, 2], np.array([True, False, True, False, True]))
    for g, w in zip(idx, want):
        close(g, w, device)
    close(t[idx], a[want], device)
    with pytest.raises(ValueError, match="Cross index must be 1 dimensional"):
        dt.ix_(T(np.ones((2, 2), int), device))
    for shape, val, wrap in [((4, 4), 7, False), ((6, 3), [1, 2], True), ((6, 3), 5, False), ((3, 3, 3), 9, False),
                             ((3, 5), [1, 2, 3, 4], False)]:
        b = np.zeros(shape)
        u = T(b, device)
        np.fill_diagonal(b, val, wrap=wrap)
        assert dt.fill_diagonal(u, val, wrap=wrap) is None
        close(u, b, device)
    with pytest.raises(ValueError, match="All dimensions of input must be of equal length"):
        dt.fill_diagonal(T(np.zeros((2, 3, 3)), device), 1)
    with pytest.raises(ValueError, match="array must be at least 2-d"):
        dt.fill_diagonal(T(np.zeros(3), device), 1)


def test_polynomials(device):
    rng = np.random.default_rng(4)
    x = np.linspace(-1, 2, 9)
    for a, kw in [(x, {}), (x, dict(N=3)), (x, dict(increasing=True)), (np.arange(4), {}),
                  (np.arange(4, dtype=np.float32), {})]:
        close(dt.vander(T(a, device), **kw), np.vander(a, **kw), device)
    p = np.array([2.0, -1.0, 0.5])
    close(dt.polyval(T(p, device), T(x, device)), np.polyval(p, x), device)
    y = np.polyval(p, x) + 0.01 * rng.random(9)
    close(dt.polyfit(T(x, device), T(y, device), 2), np.polyfit(x, y, 2), device, rtol=1e-9)
    Y = np.stack([y, 2 * y], axis=1)
    close(dt.polyfit(T(x, device), T(Y, device), 1), np.polyfit(x, Y, 1), device, rtol=1e-9)
    w = rng.random(9)
    close(dt.polyfit(T(x, device), T(y, device), 2, w=T(w, device)), np.polyfit(x, y, 2, w=w), device, rtol=1e-9)
    got, want = dt.polyfit(T(x, device), T(y, device), 2, full=True), np.polyfit(x, y, 2, full=True)
    for g, wv in zip(got, want):
        if isinstance(wv, np.ndarray):
            close(g, wv, device, rtol=1e-8, atol=1e-15)
        else:
            assert int(g) == wv if isinstance(wv, (int, np.integer)) else abs(float(g) - wv) < 1e-12
    c, V = dt.polyfit(T(x, device), T(y, device), 2, cov=True)
    cw, Vw = np.polyfit(x, y, 2, cov=True)
    close(V, Vw, device, rtol=1e-7)
    with pytest.raises(ValueError, match="expected deg >= 0"):
        dt.polyfit(T(x, device), T(y, device), -1)
    with pytest.raises(TypeError, match="expected x and y to have same length"):
        dt.polyfit(T(x, device), T(y[:3], device), 1)


def test_apply_along_axis(device):
    a = np.arange(24.0).reshape(2, 3, 4)
    t = T(a, device)
    close(dt.apply_along_axis(lambda r: r.sum(), 1, t), np.apply_along_axis(lambda r: r.sum(), 1, a), device)
    close(dt.apply_along_axis(lambda r: r[::-1] * 2, 2, t), np.apply_along_axis(lambda r: r[::-1] * 2, 2, a), device)
    close(dt.apply_along_axis(lambda r, k: dt.outer(r, r)[:k], 0, t, 1),
          np.apply_along_axis(lambda r, k: np.outer(r, r)[:k], 0, a, 1), device)



def test_apply_along_axis_first_result_decides(device):
    """NumPy's rule: the first result sets the dtype and shape; later ones are
    cast (0.5 into int64 is 0) and broadcast (a scalar fills its row) into it."""
    a = np.array([[1, 2], [0, 3], [4, 5]])
    t = T(a, device)
    for fn in [lambda r: r.sum() if r[0] > 0 else 0.5, lambda r: r * 2 if r[0] > 0 else 0,
               lambda r: [r.min(), r.max()]]:
        for axis in (0, 1):
            close(dt.apply_along_axis(fn, axis, t), np.apply_along_axis(fn, axis, a), device)
    with pytest.raises(ValueError, match="broadcast"):
        dt.apply_along_axis(lambda r: r if r[0] > 0 else r[:1].repeat(3), 1, t)

def test_names_are_devtensors_own():
    modules = {"devtensor._numeric": ["nan_to_num", "cov", "corrcoef", "gradient", "trapezoid", "ediff1d",
                                      "convolve", "correlate", "ix_", "fill_diagonal", "apply_along_axis",
                                      "apply_over_axes", "piecewise", "iscomplex", "real_if_close"],
               "devtensor._polynomials": ["vander", "polyval", "polyfit", "roots", "polyder"],
               "devtensor._windows": ["i0", "kaiser", "hanning"],
               "devtensor._bits": ["ldexp", "frexp", "spacing", "packbits"]}
    for module, names in modules.items():
        for name in names:
            assert name in vars(dt) and getattr(dt, name).__module__ == module
            assert getattr(np, name)  # NumPy's name


def test_piecewise(device):
    a = np.arange(6.0) - 2.5
    x = T(a, device)
    for conds, funcs in [(lambda v: [v < 0, v > 0], [-1, 1]), (lambda v: [v < 0], [lambda v: -v, lambda v: v * 10]),
                         (lambda v: v < 0, [lambda v: -v, 7]), (lambda v: [v > 9], [lambda v: v, 3.5])]:
        close(dt.piecewise(x, conds(x), funcs), np.piecewise(a, conds(a), funcs), device)
    with pytest.raises(ValueError, match=r"with 2 condition\(s\), either 2 or 3 functions are expected"):
        dt.piecewise(x, [x < 0, x > 0], [1])


@pytest.mark.parametrize("dtype", ["float16", "float32", "complex64", "int64"])
def test_sinc_at_zero_in_every_dtype(device, dtype):
    """sinc(0) is 1 in every dtype: NumPy puts the dtype's eps where pi x is 0
    (1e-20 is 0 in float16, which made 0/0)."""
    x = np.array([0.0, -0.0, 0.5, -1.5, 1e-30, 3.0]).astype(dtype)
    got = dt.sinc(T(x, device))
    want = np.sinc(x)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(to_np(got), want, rtol=2e-3 if dtype == "float16" else 1e-6, atol=1e-7)
    assert to_np(got)[0] == 1


def test_sinc_signed_infinities_fix_unwrap(device):
    x = np.array([-2.0, -0.5, 0.0, -0.0, 0.25, np.inf, -np.inf, np.nan, 3.0])
    t = T(x, device)
    with np.errstate(all="ignore"):
        close(dt.sinc(t), np.sinc(x), device, rtol=1e-15, atol=1e-16)
    close(dt.isposinf(t), np.isposinf(x), device)
    close(dt.isneginf(t), np.isneginf(x), device)
    close(dt.isposinf(T(np.arange(3), device)), np.isposinf(np.arange(3)), device)
    out = dt.zeros(9, dtype=dt.bool, device=device)
    assert dt.isneginf(t, out=out) is out
    got = dt.fix(t)
    close(got, np.fix(x), device)
    assert np.array_equal(np.signbit(to_np(got)), np.signbit(np.fix(x)))
    close(dt.fix(T(np.arange(-3, 3), device)), np.fix(np.arange(-3, 3)), device)
    with pytest.raises(TypeError, match="not supported for complex values"):
        dt.isposinf(T(np.array([1j]), device))
    rng = np.random.default_rng(6)
    p = np.cumsum(rng.normal(0, 2.5, (3, 20)), axis=1)
    wrapped = np.angle(np.exp(1j * p))
    for kw in [{}, dict(axis=0), dict(discont=4.0), dict(period=4.0)]:
        close(dt.unwrap(T(wrapped, device), **kw), np.unwrap(wrapped, **kw), device, rtol=1e-12, atol=1e-12)
    close(dt.unwrap(T(np.array([0, 7, 14, 1]), device), period=8), np.unwrap(np.array([0, 7, 14, 1]), period=8),
          device)


def test_gradient_of_bool_raises_numpys_error(device):
    """bool is not made float (NumPy makes only integers float): its
    subtraction raises NumPy's TypeError."""
    from helpers import same_error
    a = np.array([True, False, True])
    same_error(lambda: np.gradient(a), lambda: dt.gradient(dt.asarray(a, device=device)))
