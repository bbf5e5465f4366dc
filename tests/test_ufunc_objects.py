"""devtensor's elementwise functions are ufunc objects (Note [ufunc objects]
in csrc/python/ufunc_type.c): NumPy's attributes, aliases that are the same
object, pickling by name, and the direct path (exactly nin operands, no
keywords) giving what the full Python path gives, results and errors."""
import pickle
import sys

import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same

UNARY = ["exp", "sqrt", "negative", "absolute", "sin", "isnan", "logical_not", "invert", "exp2", "cbrt",
         "deg2rad", "rad2deg", "fabs"]
BINARY = ["add", "subtract", "multiply", "divide", "power", "maximum", "less", "bitwise_and", "arctan2",
          "fmod", "fmax", "fmin", "gcd", "lcm", "heaviside", "logaddexp2"]


def test_attributes_like_numpys():
    for name in UNARY + BINARY:
        f, g = getattr(dt, name), getattr(np, name)
        assert type(f) is dt.ufunc and repr(f) == f"<ufunc '{name}'>"
        assert (f.__name__, f.nin, f.nout, f.nargs) == (g.__name__, g.nin, g.nout, g.nargs)
        assert f.__module__ == "devtensor" and f.__doc__


def test_aliases_are_the_same_object():
    for alias, name in [("abs", "absolute"), ("acos", "arccos"), ("pow", "power"), ("conj", "conjugate"),
                        ("bitwise_left_shift", "left_shift"), ("true_divide", "divide"), ("mod", "remainder")]:
        assert getattr(dt, alias) is getattr(dt, name)
        assert getattr(dt, alias).__name__ == getattr(np, alias).__name__


def test_pickled_by_name():
    for name in UNARY + BINARY + ["abs"]:
        f = getattr(dt, name)
        assert pickle.loads(pickle.dumps(f)) is f


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "bool", "complex64"])
def test_unary_direct_path_matches_numpy(device, name, dtype):
    a = np.array([0, 1, 2, 3], dtype=dtype)
    t = dt.asarray(a, device=device)
    try:
        with np.errstate(all="ignore"):
            want = getattr(np, name)(a)
    except TypeError:
        with pytest.raises(TypeError):
            getattr(dt, name)(t)
        return
    assert_same(getattr(dt, name)(t), want, exact=False, rtol=1e-6)


@pytest.mark.parametrize("name", BINARY)
def test_binary_direct_path_with_scalars_and_arrays(device, name):
    a = np.array([1, 2, 3], dtype="int64")
    t = dt.asarray(a, device=device)
    f, g = getattr(dt, name), getattr(np, name)
    for x, y, nx, ny in [(t, t, a, a), (t, 2, a, 2), (3, t, 3, a), (t, 2.5, a, 2.5)]:
        try:
            with np.errstate(all="ignore"):
                want = g(nx, ny)
        except TypeError:
            with pytest.raises(TypeError):
                f(x, y)
            continue
        assert_same(f(x, y), want, exact=False, rtol=1e-12)


def test_other_calls_take_the_python_path(device):
    t = dt.asarray([1.0, 4.0], device=device)
    out = dt.empty(2, device=device)
    assert dt.sqrt(t, out=out) is out and out.tolist() == [1.0, 2.0]
    assert dt.sqrt(t, dtype=dt.float32).dtype == dt.float32
    assert dt.add([1, 2], t).tolist() == [2.0, 6.0]        # a list beside a tensor
    assert dt.exp([0.0]).tolist() == [1.0]                 # no tensor at all
    with pytest.raises(TypeError, match="missing 1 required positional argument"):
        dt.add(t)
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        dt.exp(t, bogus=1)
    with pytest.raises(ValueError, match="operands could not be broadcast"):
        dt.add(t, dt.ones(3, device=device))


def test_direct_path_does_not_leak():
    t, s = dt.ones(3), 2.5
    before = (sys.getrefcount(t), sys.getrefcount(s), sys.getrefcount(dt.add))
    for _ in range(1000):
        dt.add(t, s)
        dt.exp(t)
        try:
            dt.add(t, dt.ones(4))
        except ValueError:
            pass
    assert (sys.getrefcount(t), sys.getrefcount(s), sys.getrefcount(dt.add)) == before


@pytest.mark.parametrize("name", ["fmax", "fmin", "gcd", "lcm", "logaddexp2", "fmod", "heaviside"])
def test_further_ufuncs_methods_match_numpy(device, name):
    """The ufuncs NumPy code reaches for beyond the array API (fmax.reduce is
    nanmax, gcd.reduce, logaddexp2.accumulate), with NumPy's identities,
    on every device; fmod and heaviside, which NumPy cannot reorder, fold
    left to right."""
    f, g = getattr(dt, name), getattr(np, name)
    assert f.identity == g.identity
    a = np.array([[12.0, np.nan, -18.0, 4.0], [6.0, 9.0, np.nan, -2.0]])
    if name in ("gcd", "lcm"):
        a = np.array([[12, 0, -18, 4], [6, 9, 15, -2]])
    t = dt.asarray(a, device=device)
    with np.errstate(all="ignore"):
        for axis in (0, 1, None):
            try:
                want = g.reduce(a, axis=axis)
            except ValueError as e:  # not reorderable: one axis at most
                with pytest.raises(ValueError, match=str(e)):
                    f.reduce(t, axis=axis)
                continue
            assert_same(f.reduce(t, axis=axis), want, exact=False, rtol=1e-12)
        assert_same(f.accumulate(t, axis=1), g.accumulate(a, axis=1), exact=False, rtol=1e-12)
        assert_same(f.outer(t[0], t[1]), g.outer(a[0], a[1]), exact=False, rtol=1e-12)
        assert_same(f(t, t[0]), g(a, a[0]), exact=False, rtol=1e-12)
        if device == "cpu":  # NumPy's ufunc on tensors: devtensor's
            assert_same(g(t, t), g(a, a), exact=False, rtol=1e-12)
    if name == "fmax":
        assert_same(dt.fmax.reduce(dt.asarray([np.nan, np.nan], device=device)), np.nan, exact=False)
