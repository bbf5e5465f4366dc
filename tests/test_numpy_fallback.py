"""devtensor.<name> for NumPy names devtensor does not implement (Note [NumPy
names devtensor lacks]): NumPy's function on CPU tensors, tensors back, a
TypeError for device tensors; NumPy's type names as devtensor dtypes."""
import io

import numpy as np
import pytest

import devtensor as dt
from helpers import CUDA_DEVICES, assert_same, same_error

CALLS = [
    ("fromstring", lambda m: m.fromstring("1 2 3", sep=" ")),
    ("loadtxt", lambda m: m.loadtxt(io.StringIO("1 2\n3 4"))),
    ("genfromtxt", lambda m: m.genfromtxt(io.StringIO("1,2\n3,"), delimiter=",")),
]


@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
def test_numpy_functions_devtensor_lacks(name, call):
    assert name not in vars(dt)  # reached through devtensor.__getattr__
    got, want = call(dt), call(np)
    assert isinstance(got, dt.Tensor)
    assert_same(got, want)


# NumPy's callables devtensor leaves to NumPy (Note [NumPy names devtensor
# lacks]): files of text, strings, dates, NumPy's configuration and type
# tools; every numerical function runs on devices
STILL_NUMPYS = {
    "array_equiv", "asmatrix", "base_repr", "binary_repr", "bmat", "busday_count", "busday_offset",
    "datetime_as_string", "datetime_data", "format_float_positional", "format_float_scientific", "fromfile",
    "frompyfunc", "fromregex", "fromstring", "genfromtxt", "get_include", "getbufsize", "geterrcall", "info",
    "is_busday", "isfortran", "isnat", "loadtxt", "min_scalar_type", "mintypecode", "nested_iters",
    "setbufsize", "seterrcall", "show_config", "show_runtime", "test", "typename",
}


def test_which_numpy_names_are_left_to_numpy():
    left = set()
    for name in dir(np):
        obj = getattr(np, name)
        if name.startswith("_") or not callable(obj) or isinstance(obj, type) or name in vars(dt):
            continue
        if "NumPy names devtensor lacks" in (getattr(dt, name).__doc__ or ""):
            left.add(name)
    assert left <= STILL_NUMPYS, sorted(left - STILL_NUMPYS)


def test_star_import_gives_numpys_names():
    """`from devtensor import *` binds every name `from numpy import *` does
    (devtensor's own where it has one), as NumPy scripts written that way
    need: mgrid, genfromtxt, True_, ..."""
    ours, numpys = {}, {}
    exec("from devtensor import *", ours)
    exec("from numpy import *", numpys)
    assert set(numpys) <= set(ours)
    assert ours["sum"] is dt.sum and ours["mgrid"][0:3].tolist() == [0, 1, 2] and ours["True_"] is np.True_
    assert {"Tensor", "tensor", "cuda", "nn", "try_gpu"} <= set(ours)


def test_index_helpers_and_names():
    assert_same(dt.c_[dt.arange(3), dt.arange(3)], np.c_[np.arange(3), np.arange(3)])
    assert_same(dt.r_[dt.arange(2), 7], np.r_[np.arange(2), 7])
    assert_same(dt.mgrid[0:2, 0:3], np.mgrid[0:2, 0:3])
    assert [t.shape for t in dt.ogrid[0:2, 0:3]] == [(2, 1), (1, 3)]
    assert dt.s_[1:3] == slice(1, 3) and dt.newaxis is None
    assert dt.bool_ is dt.bool and dt.intp is dt.int64 and dt.double is dt.float64
    assert issubclass(dt.Tensor, dt.ndarray) and isinstance(dt.arange(2), dt.ndarray)
    assert not isinstance(np.arange(2), dt.ndarray) and not issubclass(np.ndarray, dt.ndarray)
    assert dt.floating is np.floating and dt.testing.assert_equal.__wrapped__ is np.testing.assert_equal
    assert dt.issubdtype(dt.float32, dt.floating) and dt.issubdtype(dt.arange(2).dtype, dt.integer)
    assert not dt.issubdtype(dt.int8, dt.floating)
    dt.testing.assert_allclose(dt.arange(3.0), [0, 1, 2])
    with pytest.raises(AttributeError, match="module 'devtensor' has no attribute 'no_such'"):
        dt.no_such


@pytest.mark.skipif(not CUDA_DEVICES, reason="needs a (emulated) CUDA device")
def test_device_tensors_are_refused():
    t = dt.ones(3, device=CUDA_DEVICES[0])
    with pytest.raises(TypeError) as info:
        dt.asmatrix(t)
    assert str(info.value) == (f"devtensor has no asmatrix for tensors on {CUDA_DEVICES[0]}: "
                               f"move them to the host first (t.cpu(), or t.numpy(force=True)) "
                               f"to use NumPy's")
    assert dt.asmatrix(t.cpu()).shape == (1, 3)


def test_ndarray_is_numpys_constructor():
    """devtensor.ndarray(shape, dtype, buffer, offset, strides, order): an
    uninitialised tensor (on the default device), or a CPU tensor over a
    buffer's memory, with NumPy's checks and errors."""
    t = dt.ndarray((2, 3))
    assert (t.shape, t.dtype, t.device) == ((2, 3), dt.float64, dt.device("cpu"))
    assert dt.ndarray(shape=(2, 2), dtype=np.int32, order="F").strides == np.ndarray((2, 2), np.int32, order="F").strides
    assert dt.ndarray(4, dt.int8).shape == (4,)
    buf = bytearray(16)
    shared = dt.ndarray((2,), dt.float64, buffer=buf)
    shared[1] = 2.5
    assert np.frombuffer(buf)[1] == 2.5
    assert not dt.ndarray((2,), np.int8, buffer=b"ab").flags.writeable
    assert dt.ndarray((2,), np.int16, buffer=bytes(range(8)), offset=2, strides=(4,)).tolist() == \
        np.ndarray((2,), np.int16, buffer=bytes(range(8)), offset=2, strides=(4,)).tolist()
    for args, kwargs in [(((3,), np.float64), dict(buffer=b"ab")), (((2,), np.int8), dict(buffer=b"abc", offset=2))]:
        same_error(lambda: np.ndarray(*args, **kwargs), lambda: dt.ndarray(*args, **kwargs))
    for shape, err in [((-1,), ValueError), (("a",), TypeError)]:  # devtensor's factories' words
        with pytest.raises(err):
            np.ndarray(shape)
        with pytest.raises(err):
            dt.ndarray(shape)
    with pytest.raises(TypeError, match="bfloat16"):
        dt.ndarray((2,), dt.bfloat16, buffer=bytearray(4))


def test_plain_arguments_and_kept_names():
    """Note [Plain arguments of NumPy's names]: calls without tensors or
    containers go straight to NumPy (our dtypes as NumPy's); the names are
    module attributes once found."""
    f = dt.binary_repr
    assert vars(dt)["binary_repr"] is f and dt.binary_repr is f
    assert dt.binary_repr(5, width=8) == "00000101"
    assert dt.can_cast(dt.int32, dt.float64) and not dt.can_cast(dt.float64, dt.int8)
    # an array NumPy makes without tensors lands on the default device
    for dev in ["cpu"] + CUDA_DEVICES:
        with dt.device(dev):
            r = dt.fromstring("1 2 3", sep=" ")  # NumPy's (a wrapped name)
            assert isinstance(r, dt.Tensor) and r.device == dt.device(dev) and r.tolist() == [1, 2, 3]
    with pytest.raises(TypeError):
        dt.issubdtype(dt.float32)  # NumPy's own errors


def test_other_ufuncs_run_on_cpu_views(device):
    """Note [Other ufuncs on tensors]: np.frompyfunc's ufuncs (and other
    libraries') on CPU tensors are NumPy's on views; on a device, TypeError."""
    f = np.frompyfunc(lambda a, b: a * 10 + b, 2, 1)
    two = np.frompyfunc(lambda a: (a, -a), 1, 2)
    scale = np.frompyfunc(lambda a: a * 2.5, 1, 1)
    t = dt.arange(3, device=device)
    if device != "cpu":
        with pytest.raises(TypeError, match=rf"no ufunc <lambda> \(vectorized\) for tensors on {device}: move"):
            f(t, 2)
        with pytest.raises(TypeError, match=r"\.reduce for tensors on"):
            f.reduce(t)
        return
    r = f(t, 2)
    want = f(np.arange(3), 2)
    assert type(r) is np.ndarray and r.dtype == object and r.tolist() == want.tolist()
    a, b = two(t.astype(float))
    assert a.tolist() == [0.0, 1.0, 2.0] and b.tolist() == [-0.0, -1.0, -2.0]
    assert f.reduce(t) == f.reduce(np.arange(3)) == 12
    o = dt.zeros(3, dtype=dt.float64)
    r = scale(dt.arange(3.0), out=o, casting="unsafe")
    assert r is o and o.tolist() == [0.0, 2.5, 5.0]
    with pytest.raises(TypeError, match="Cannot cast ufunc"):  # NumPy's own error
        scale(dt.arange(3.0), out=dt.zeros(3))
    as_int = np.frompyfunc(int, 1, 1)
    assert dt.asarray(as_int(dt.asarray([1.5, 2.5])).astype(np.int64)).tolist() == [1, 2]
