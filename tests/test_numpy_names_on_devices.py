"""NumPy's smaller functions that were NumPy fallbacks (CPU tensors only) and
now run on every device, against NumPy: the complex-or-real tests,
common_type, apply_over_axes, the array conversions (asfortranarray,
asanyarray, asarray_chkfinite, require, row_stack), diag_indices,
mask_indices, fromfunction, matvec and vecmat, sort_complex, the .npz and
text writers and NumPy's formatting functions."""
import io
import warnings

import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, same_error, to_np


def T(a, device):
    return dt.asarray(np.asarray(a), device=device)


Z = np.array([3, 1 + 2j, 1 - 1j, 2.5j])
X = np.arange(24.0).reshape(2, 3, 4)


def test_complex_or_real(device):
    for a in (Z, X, X.astype(np.int8), np.array(2j)):
        for f in ("iscomplex", "isreal"):
            assert_same(getattr(dt, f)(T(a, device)), np.asarray(getattr(np, f)(a)), device)
        assert dt.iscomplexobj(T(a, device)) is np.iscomplexobj(a)
        assert dt.isrealobj(T(a, device)) is np.isrealobj(a)
    assert dt.iscomplexobj(1j) and dt.isrealobj([1, 2]) and dt.iscomplexobj(np.ones(2, complex))


def test_real_if_close(device):
    for a, tol in ((np.array([1 + 1e-15j, 2]), 100), (np.array([1 + 1e-10j]), 100), (np.array([1 + 1e-10j]), 1e-9),
                   (np.array([1 + 1e-6j], np.complex64), 100), (X, 100)):
        assert_same(dt.real_if_close(T(a, device), tol=tol), np.real_if_close(a, tol=tol), device)
    t = T(X, device)
    assert dt.real_if_close(t) is t


def test_real_and_imag_are_views(device):
    """Note [real and imag are views]: np.real(a) is a.real, a view of a
    complex array (writes reach it), the array itself for a real one."""
    for a in (Z, X, X.astype(np.int8), np.array(2j)):
        t = T(a, device)
        for f in ("real", "imag"):
            assert_same(getattr(dt, f)(t), getattr(np, f)(a), device)
            assert_same(getattr(np, f)(t), getattr(np, f)(a), device)  # np.real(t) reaches dt.real
    t = T(Z, device)
    dt.real(t)[0] = 7.0
    np.imag(t)[1] = -5.0
    assert to_np(t)[:2].tolist() == [7 + 0j, 1 - 5j]
    x = T(X, device)
    assert dt.real(x) is x and not dt.imag(x).flags.writeable
    assert dt.real(3 + 4j) == np.real(3 + 4j) == 3.0 and dt.imag(2.0) == 0.0
    assert_same(dt.imag([1 + 2j, 3]), np.imag([1 + 2j, 3]))


def test_common_type():
    cases = [(np.zeros(2, np.int8), np.zeros(2, np.float32)), (np.zeros(2, np.float16),),
             (np.zeros(2, np.complex64), np.zeros(1)), (np.zeros(2, np.complex64), np.zeros(1, np.float32)),
             (np.zeros(1, np.uint8),), ()]
    for arrays in cases:
        got = dt.common_type(*[dt.asarray(a) for a in arrays])
        assert got == dt.dtype(np.dtype(np.common_type(*arrays)).name), arrays
    assert dt.common_type(dt.ones(2, dtype=dt.bfloat16)) == dt.float32
    same_error(lambda: np.common_type(np.zeros(2, bool)), lambda: dt.common_type(dt.zeros(2, dtype=dt.bool)))


def test_apply_over_axes(device):
    for func, axes in ((np.sum, [0, 2]), (np.sum, 1), (np.mean, (-1,)), (np.max, [2, 0])):
        got = dt.apply_over_axes(getattr(dt, func.__name__), T(X, device), axes)
        assert_same(got, np.apply_over_axes(func, X, axes), device)
    with pytest.raises(ValueError, match="function is not returning an array of the correct shape"):
        dt.apply_over_axes(lambda a, axis: dt.sum(a), T(X, device), [0])


def test_array_conversions(device):
    t = T(X, device)[:, ::2]
    f = dt.asfortranarray(t)
    assert f.flags.f_contiguous and f.device == dt.device(device)
    assert_same(f, np.asfortranarray(X[:, ::2]))
    assert dt.asfortranarray(f) is f
    assert_same(dt.asfortranarray(T(3, device)), np.asfortranarray(3))
    assert dt.asanyarray(t) is t
    assert_same(dt.asanyarray([1, 2], dtype=dt.float32), np.asanyarray([1, 2], dtype=np.float32))
    assert dt.asarray_chkfinite(t) is t
    for bad in ([1.0, np.nan], [np.inf]):
        same_error(lambda: np.asarray_chkfinite(bad), lambda: dt.asarray_chkfinite(T(bad, device)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert_same(dt.row_stack([T([1, 2], device), T([3, 4], device)]), np.array([[1, 2], [3, 4]]), device)
    assert [w.category for w in caught] == [DeprecationWarning]


def test_require(device):
    t = T(X, device)[:, ::2]
    for req in (["F", "W"], "C", ["O"], ["A", "E"], None, "FW", ["F_CONTIGUOUS"]):
        got, want = dt.require(t, requirements=req), np.require(X[:, ::2], requirements=req)
        assert_same(got, want, device)
        if req:
            assert got.flags.c_contiguous == want.flags.c_contiguous
            assert got.flags.f_contiguous == want.flags.f_contiguous
    c = T(X, device)
    assert dt.require(c, requirements="C") is c
    # 'O': a copy only of what does not own its memory (on cpu, T lends X's)
    assert (dt.require(c, requirements="O") is c) == c.flags.owndata == (device != "cpu")
    Y = X.copy()
    assert np.require(Y, requirements="O") is Y and np.require(X, requirements="O") is not X
    assert_same(dt.require(c, dtype=dt.float32), np.require(X, dtype=np.float32))
    same_error(lambda: np.require(X, requirements=["C", "F"]), lambda: dt.require(c, requirements=["C", "F"]))
    with pytest.raises(KeyError):
        dt.require(c, requirements="X")


def test_index_helpers(device):
    for got, want in ((dt.diag_indices(3, device=device), np.diag_indices(3)),
                      (dt.diag_indices(2, 3, device=device), np.diag_indices(2, 3)),
                      (dt.diag_indices_from(T(np.ones((3, 3, 3)), device)), np.diag_indices_from(np.ones((3, 3, 3)))),
                      (dt.mask_indices(4, dt.triu, 1, device=device), np.mask_indices(4, np.triu, 1)),
                      (dt.mask_indices(3, dt.tril, device=device), np.mask_indices(3, np.tril))):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w, device)
    for shape in ((2, 3), (3,)):
        same_error(lambda: np.diag_indices_from(np.ones(shape)), lambda: dt.diag_indices_from(T(np.ones(shape), device)))
    a = T(np.zeros((3, 3)), device)
    a[dt.diag_indices_from(a)] = 7
    assert_same(a, np.diag([7.0, 7, 7]), device)


def test_fromfunction(device):
    got = dt.fromfunction(lambda i, j: i * 10 + j, (2, 3), device=device)
    assert_same(got, np.fromfunction(lambda i, j: i * 10 + j, (2, 3)), device)
    got = dt.fromfunction(lambda i, j, k=1: i + j + k, (2, 2), dtype=int, k=5, device=device)
    assert_same(got, np.fromfunction(lambda i, j, k=1: i + j + k, (2, 2), dtype=int, k=5), device)


@pytest.mark.parametrize("name,a_shape,b_shape", [
    ("matvec", (2, 3, 4), (4,)), ("matvec", (3, 4), (5, 4)), ("matvec", (5, 1, 3, 4), (2, 4)),
    ("vecmat", (3,), (3, 2)), ("vecmat", (5, 1, 3), (2, 3, 4)), ("vecmat", (4, 3), (3, 2)),
])
def test_matvec_vecmat(device, name, a_shape, b_shape):
    rng = np.random.default_rng(6)
    a = rng.standard_normal(a_shape) + 1j * rng.standard_normal(a_shape)
    b = rng.standard_normal(b_shape)
    f, g = getattr(np, name), getattr(dt, name)
    assert_same(g(T(a, device), T(b, device)), f(a, b), device, exact=False, rtol=1e-12)
    assert_same(g(T(a.real, device), T(b.astype(np.float32), device)), f(a.real, b.astype(np.float32)), device,
                exact=False, rtol=1e-12)
    ai, bi = np.arange(np.prod(a_shape)).reshape(a_shape), np.arange(np.prod(b_shape)).reshape(b_shape)
    assert_same(g(T(ai, device), T(bi, device)), f(ai, bi), device)
    r = f(T(a.real, device), T(b, device))  # NumPy's gufunc on tensors reaches devtensor's
    assert isinstance(r, dt.Tensor) and r.device == dt.device(device)


def test_matvec_vecmat_errors(device):
    for f, a, b in (("matvec", np.ones((2, 3)), np.ones(4)), ("matvec", np.ones(3), np.ones(3)),
                    ("vecmat", np.ones(3), np.ones((4, 2))), ("vecmat", np.ones(3), np.ones(3))):
        same_error(lambda: getattr(np, f)(a, b), lambda: getattr(dt, f)(T(a, device), T(b, device)))
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        dt.matvec(T(np.ones((2, 2, 3)), device), T(np.ones((3, 3)), device))


def test_sort_complex(device):
    for a in (Z, np.array([3, 1, 2], np.int8), np.array([[3, 1], [0, -1.0]]), np.array([3, 1], np.uint16),
              np.array([2.0, np.nan, -1.0], np.float32), np.array([True, False])):
        assert_same(dt.sort_complex(T(a, device)), np.sort_complex(a), device)


def test_npz_and_text_files_of_device_tensors(device, tmp_path):
    t = T(X, device)
    np.savez(tmp_path / "a.npz", t, y=T([1, 2], device))
    dt.savez_compressed(tmp_path / "b.npz", x=t)
    with np.load(tmp_path / "a.npz") as f:
        np.testing.assert_array_equal(f["arr_0"], X)
        np.testing.assert_array_equal(f["y"], [1, 2])
    assert_same(dt.load(tmp_path / "b.npz")["x"], X)
    buf = io.StringIO()
    np.savetxt(buf, dt.eye(2, device=device), fmt="%d")
    assert buf.getvalue() == "1 0\n0 1\n"
    with pytest.raises(TypeError, match="no bfloat16"):
        dt.savez(tmp_path / "c.npz", dt.ones(2, dtype=dt.bfloat16, device=device))


def test_numpy_formatting_of_device_tensors(device):
    t = T([0.5, 1.25, 3.0], device)
    assert dt.array2string(t) == np.array2string(X[0, 0, :3] * 0 + [0.5, 1.25, 3.0])
    assert np.array2string(t, precision=1) == np.array2string(np.array([0.5, 1.25, 3.0]), precision=1)
    assert dt.array_repr(T([1, 2], device)) == "array([1, 2])"
    assert np.array_str(t) == np.array_str(to_np(t))
    assert dt.array_str(dt.ones(2, dtype=dt.bfloat16, device=device)) == "[1. 1.]"
    if device != "cpu":
        with dt.transfer_guard("disallow"), pytest.raises(dt.TransferGuardError):
            dt.array2string(t)


def test_angle_in_degrees(device):
    z = np.array([1 + 1j, -1, 2j, -1e-300j])
    for deg in (False, True):
        assert_same(dt.angle(T(z, device), deg=deg), np.angle(z, deg=deg), device, exact=False, rtol=1e-15)
        assert_same(np.angle(T(z, device), deg), np.angle(z, deg), device, exact=False, rtol=1e-15)
    assert_same(dt.angle(T([1, -1], device), True), np.angle(np.array([1, -1]), True), device)


def test_setting_real_and_imaginary_parts(device):
    z, w = T(np.zeros(3, complex), device), np.zeros(3, complex)
    z.imag, w.imag = [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]
    z.real, w.real = 5, 5
    assert_same(z, w, device)
    x = T(np.zeros(2), device)
    x.real = T([1.5, 2.5], device)
    assert x.tolist() == [1.5, 2.5]
    same_error(lambda: setattr(np.zeros(2), "imag", 1), lambda: setattr(x, "imag", 1))
    same_error(lambda: setattr(w, "real", [1, 2]), lambda: setattr(z, "real", [1, 2]))


def test_numpy_formatting_follows_devtensors_printoptions(device):
    t = T([1.23456], device)
    with dt.printoptions(precision=2):
        assert dt.array2string(t) == "[1.23]" and dt.array_repr(t) == "array([1.23])"
    assert dt.array_str(t) == "[1.23456]"


def test_vectorize(device):
    """NumPy's vectorize does the work on the host; tensors go in, tensors on
    the arguments' device come out; a decorator with or without arguments."""
    x, a = T(np.arange(5.0), device), np.arange(5.0)

    def f(v, w=1):
        return v * 2 if v > 2 else -v + w

    for ours, numpys in ((dt.vectorize(f), np.vectorize(f)),
                         (dt.vectorize(otypes=[dt.float32])(f), np.vectorize(otypes=[np.float32])(f))):
        assert_same(ours(x), numpys(a), device)
        assert_same(ours(x, w=T(3.0, device)), numpys(a, w=3.0), device)
    two = dt.vectorize(lambda p, q: (p + q, p - q))(x, 1)
    assert isinstance(two, tuple) and all(r.device == x.device for r in two)
    assert dt.vectorize(f).otypes is None and dt.vectorize(f, otypes="d").otypes == "d"
    # NumPy's attributes: the decorated function's name, and otypes, cache or
    # excluded set after construction
    vf = dt.vectorize(f)
    assert vf.__name__ == "f" and vf.pyfunc is f
    vf.otypes = [dt.int32]
    assert_same(vf(x), np.vectorize(f, otypes=[np.int32])(a), device)
    vf.excluded.add("w")
    assert vf.excluded == {"w"}


def test_numpys_scalar_functions_read_device_scalars(device):
    x = T(np.arange(5), device)
    assert dt.binary_repr(x.argmax()) == "100" and dt.base_repr(x[3], 2) == "11"
    assert dt.format_float_positional(dt.sqrt(T(2.0, device)), precision=3) == "1.414"
    if device != "cpu":
        with dt.transfer_guard("disallow"), pytest.raises(dt.TransferGuardError):
            dt.binary_repr(x.argmax())
        with pytest.raises(TypeError, match="devtensor has no asmatrix"):
            dt.asmatrix(x)  # a tensor, not a scalar: still refused
    # a 0-d tensor is NumPy's scalar of its dtype there, on the CPU too
    f32 = T(np.array([0.1, 1 / 3], dtype=np.float32), device)
    assert dt.format_float_positional(f32[0]) == np.format_float_positional(np.float32(0.1)) == "0.1"
    assert dt.format_float_scientific(f32[1]) == np.format_float_scientific(np.float32(1 / 3))
    assert dt.format_float_positional(T(np.float16(0.1), device)) == "0.1"


def test_round_four_corners(device, tmp_path):
    """Fourth round of user-style programs: printoptions round trip, np.load
    on the default device, an npz's .f, as_strided without strides,
    accumulate's error for several axes."""
    old = dt.get_printoptions()
    dt.set_printoptions(**old)
    assert dt.get_printoptions() == old
    dt.save(tmp_path / "a.npy", dt.arange(3))
    dt.savez(tmp_path / "b.npz", x=dt.ones(2))
    with dt.device(device):
        assert dt.load(tmp_path / "a.npy").device == dt.device(device)
        assert dt.load(tmp_path / "b.npz")["x"].device == dt.device(device)
    assert dt.load(tmp_path / "a.npy").device == dt.device("cpu")
    assert dt.load(tmp_path / "b.npz").f.x.tolist() == [1.0, 1.0]
    v = dt.lib.stride_tricks.as_strided(T(np.arange(12.0), device), shape=(2, 3))
    assert_same(v, np.lib.stride_tricks.as_strided(np.arange(12.0), shape=(2, 3)), device)
    x, a = T(np.arange(6.0).reshape(2, 3), device), np.arange(6.0).reshape(2, 3)
    for axis in (None, (0, 1)):
        for ufunc in ("maximum", "add"):
            same_error(lambda: getattr(np, ufunc).accumulate(a, axis=axis),
                       lambda: getattr(dt, ufunc).accumulate(x, axis=axis))
