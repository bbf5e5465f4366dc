"""devtensor.emath (NumPy's np.emath, numpy.lib.scimath) against NumPy on every device: results complex
only where an input leaves the real domain, NumPy's dtypes, 0-d, empty and special values, NumPy's errors,
and NumPy's own np.emath functions reaching devtensor's through __array_function__."""
import warnings

import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, requires_devices

UNARY = ["sqrt", "log", "log2", "log10", "arccos", "arcsin", "arctanh"]
DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16", "float32", "float64",
          "complex64", "complex128"]
# tolerance by the result's dtype: devtensor's math library is not NumPy's
RTOL = {"float16": 2e-3, "float32": 2e-6, "complex64": 2e-6, "float64": 1e-12, "complex128": 1e-12}


def values(func, dtype, outside):
    """Values of dtype inside (or, with outside, partly outside) func's real domain; None where dtype has none."""
    arc = func in ("arccos", "arcsin", "arctanh")
    if dtype == "bool":
        return None if outside else [False, True]
    if dtype.startswith("uint"):
        return ([0, 1, 3] if outside else [0, 1]) if arc else (None if outside else [0, 1, 2, 9])
    if arc:
        vals = [-3, 0, 2] if outside else [-1, 0, 1]
        return vals + ([-0.5, 0.25] if dtype[0] in "fc" else [])
    vals = [-3, -1, 0, 2] if outside else [0, 1, 2, 9]
    return vals + ([0.5, -0.25 if outside else 0.25] if dtype[0] in "fc" else [])


def numpy_emath(name, *args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(np.emath, name)(*args)


def check(got, want, device):
    """got is a tensor on device of want's dtype, shape and values (complex ones part by part)."""
    want = np.asarray(want)
    rtol = RTOL.get(want.dtype.name, 0)
    if rtol == 0:
        return assert_same(got, want, device=device)
    assert isinstance(got, dt.Tensor) and got.device == dt.device(device), (type(got), got.device)
    assert (got.dtype, got.shape) == (want.dtype, want.shape), (got.dtype, got.shape, want.dtype, want.shape)
    got = got.cpu().numpy()
    for part in (np.real, np.imag) if want.dtype.kind == "c" else (np.real,):
        np.testing.assert_allclose(part(got), part(want), rtol=rtol, atol=rtol, equal_nan=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("func", UNARY)
def test_unary_like_numpy(device, func, dtype):
    for outside in (False, True):
        vals = values(func, dtype, outside)
        if vals is None:
            continue
        a = np.asarray(vals, dtype=dtype)
        want = numpy_emath(func, a)
        assert (want.dtype.kind == "c") == (outside or dtype.startswith("complex"))
        check(getattr(dt.emath, func)(dt.asarray(a, device=device)), want, device)


@pytest.mark.parametrize("func", UNARY)
def test_bfloat16(device, func):
    """bfloat16, which NumPy lacks: bfloat16 results inside the domain, complex64 (float32's) outside."""
    for outside, dtype in ((False, dt.bfloat16), (True, dt.complex64)):
        a = np.asarray(values(func, "float32", outside), dtype=np.float32)
        got = getattr(dt.emath, func)(dt.asarray(a, device=device).astype(dt.bfloat16))
        assert got.dtype == dtype and got.device == dt.device(device)
        want = numpy_emath(func, a)
        np.testing.assert_allclose(got.astype(dt.complex64 if outside else dt.float32).cpu().numpy(), want,
                                   rtol=2e-2, atol=2e-2, equal_nan=True)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("func", UNARY)
def test_special_values(device, func, dtype):
    """nan is not out of the domain, -0.0 is not below 0, -inf is."""
    for vals in ([np.nan, -0.0, 0.0, 1.0], [np.nan, -0.0, np.inf, -np.inf, 0.5], [np.nan, np.inf, 0.5]):
        a = np.asarray(vals, dtype=dtype)
        check(getattr(dt.emath, func)(dt.asarray(a, device=device)), numpy_emath(func, a), device)


@pytest.mark.parametrize("func", UNARY)
def test_zero_d_and_python_scalars(device, func):
    for value in (-4.0, 0.5, 3, -2):
        want = numpy_emath(func, np.asarray(value))
        check(getattr(dt.emath, func)(dt.asarray(value, device=device)), want, device)
        check(getattr(dt.emath, func)(value), want, "cpu")  # NumPy gives a scalar, devtensor a 0-d tensor
    check(getattr(dt.emath, func)([[-2.0], [0.5]]), numpy_emath(func, [[-2.0], [0.5]]), "cpu")


@pytest.mark.parametrize("shape", [(0,), (0, 3)])
@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex64"])
def test_empty(device, dtype, shape):
    a = np.zeros(shape, dtype=dtype)
    for func in UNARY:
        check(getattr(dt.emath, func)(dt.asarray(a, device=device)), numpy_emath(func, a), device)
    check(dt.emath.power(dt.asarray(a, device=device), -2), numpy_emath("power", a, -2), device)
    check(dt.emath.logn(2, dt.asarray(a, device=device)), numpy_emath("logn", 2, a), device)


def operands(device):
    """(devtensor operand, NumPy operand) pairs for logn's and power's arguments."""
    arrays = [np.array([1, 2, 4]), np.array([-2, 3, 4]), np.array([0.5, 2.0, 8.0], dtype=np.float32),
              np.array([-0.5, 2.0, 8.0], dtype=np.float32), np.array([[2.0], [-3.0]]),
              np.array([1 + 1j, -2, 0.5]), np.array([3, 9, 1], dtype=np.uint8), np.array([-1, 2, 3], dtype=np.int8),
              np.array(-2.0), np.array([True, False, True])]
    return [(dt.asarray(a, device=device), a) for a in arrays] + [(s, s) for s in (2, -2, 0.5, -0.5, 3j)]


def test_power_like_numpy(device):
    for x, nx in operands(device):
        for p, npp in operands(device):
            if not isinstance(x, dt.Tensor) and not isinstance(p, dt.Tensor):
                continue
            check(dt.emath.power(x, p), numpy_emath("power", nx, npp), device)


def test_logn_like_numpy(device):
    for n, nn in operands(device):
        for x, nx in operands(device):
            if not isinstance(x, dt.Tensor) and not isinstance(n, dt.Tensor):
                continue
            check(dt.emath.logn(n, x), numpy_emath("logn", nn, nx), device)


def test_integers_to_negative_powers(device):
    x = dt.asarray([1, 2, 4], device=device)
    check(dt.emath.power(x, dt.asarray([-1, 2, -2], device=device)), [1.0, 4.0, 0.0625], device)
    check(dt.emath.power(x, 2), np.array([1, 4, 16]), device)
    check(dt.emath.power(dt.asarray([-8, 8], device=device), 1 / 3), numpy_emath("power", np.array([-8, 8]), 1 / 3),
          device)


def test_errors_are_numpys(device):
    x = dt.asarray([1.0, -2.0], device=device)
    for bad in ("abc", None, {}, [1, "a"]):
        with pytest.raises(TypeError):
            numpy_emath("sqrt", bad)
        with pytest.raises(TypeError):
            dt.emath.sqrt(bad)
    with pytest.raises(ValueError):
        numpy_emath("sqrt", [[1, 2], [3]])
    with pytest.raises(ValueError):
        dt.emath.sqrt([[1, 2], [3]])
    for name, args in (("power", (x, dt.ones(3, device=device))), ("logn", (dt.ones(3, device=device), x))):
        with pytest.raises(ValueError, match="could not be broadcast"):
            numpy_emath(name, *(a.cpu().numpy() for a in args))
        with pytest.raises(ValueError, match="could not be broadcast"):
            getattr(dt.emath, name)(*args)
    with pytest.raises(TypeError):
        dt.emath.sqrt(x, x)
    with pytest.raises(TypeError):
        dt.emath.power(x)


@requires_devices(2)
def test_tensors_on_two_devices_are_refused():
    with pytest.raises(RuntimeError, match="same device"):
        dt.emath.power(dt.asarray([-1.0, 2.0], device="cuda:0"), dt.asarray([2.0, 3.0], device="cuda:1"))


def test_device_data_is_read_explicitly(device):
    """The out-of-domain check reads one bool with .item(): allowed under transfer_guard("disallow")."""
    x = dt.asarray([-4.0, 4.0], device=device)
    with dt.transfer_guard("disallow"):
        got = [dt.emath.sqrt(x), dt.emath.arcsin(x), dt.emath.power(x, -1), dt.emath.logn(x, x)]
    assert [str(g.dtype) for g in got] == ["complex128"] * 4
    check(got[0], [2j, 2], device)


def test_names():
    import devtensor.emath
    assert dt.emath is devtensor.emath and "emath" in dt.__all__
    assert sorted(dt.emath.__all__) == sorted(np.emath.__all__)
    for name in np.emath.__all__:
        assert getattr(dt.emath, name).__module__ == "devtensor.emath"


@pytest.mark.parametrize("namespace", ["emath", "lib.scimath"])
def test_numpys_emath_on_tensors_is_devtensors(device, namespace):
    """NumPy's np.emath functions dispatch (__array_function__): on tensors they are devtensor's."""
    module = np.emath if namespace == "emath" else np.lib.scimath
    x = dt.asarray([-4.0, 0.5, 4.0], device=device)
    for name in UNARY:
        got = getattr(module, name)(x)
        assert isinstance(got, dt.Tensor) and got.device == dt.device(device)
        check(got, numpy_emath(name, x.cpu().numpy()), device)
    check(module.power(x, 2), numpy_emath("power", x.cpu().numpy(), 2), device)
    check(module.logn(np.array(2.0), x), numpy_emath("logn", 2.0, x.cpu().numpy()), device)
    check(module.power(np.array([-1.0, 2.0, 3.0]), x), numpy_emath("power", [-1.0, 2.0, 3.0], x.cpu().numpy()),
          device)
    check(dt.lib.scimath.sqrt(x), numpy_emath("sqrt", x.cpu().numpy()), device)  # numpy.lib.scimath's
