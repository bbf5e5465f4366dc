"""Creation that NumPy programs call first, against NumPy: array (copy, ndmin),
a positional dtype in the factories (and the varargs shape beside it), full
with arrays, identity, copy, fromiter, frombuffer, logspace, geomspace and the
constants; values, dtypes, shapes, devices and NumPy's errors."""
import array as pyarray
import math

import numpy as np
import pytest

import devtensor as dt
from helpers import NUMPY_DTYPE_NAMES, assert_same, given, hnp, same_error, settings, st, stable_repr, to_np


# ------------------------------------------------------------------ constants

def test_constants_are_numpys():
    for name in ("e", "pi", "euler_gamma", "inf"):
        value = getattr(dt, name)
        assert type(value) is float and value == getattr(np, name), name
    assert type(dt.nan) is float and math.isnan(dt.nan)
    assert dt.newaxis is None and np.newaxis is None


def test_newaxis_indexes(device):
    t = dt.arange(3, device=device)
    assert t[dt.newaxis, :].shape == (1, 3) and t[:, dt.newaxis].shape == (3, 1)


# ------------------------------------------------------------------ positional dtype

@pytest.mark.parametrize("fname", ["zeros", "ones", "empty"])
@pytest.mark.parametrize("args", [((2, 3), np.complex64), ((2, 3), "float32"), (3, "int16"),
                                  (3, np.int64), ((2,), float), ((), bool), ((2, 2), None),
                                  ((2, 3), "uint8", "C")], ids=repr)
def test_positional_dtype(fname, args, device):
    t = getattr(dt, fname)(*args, device=device)
    want = getattr(np, fname)(*args)
    assert t.dtype == want.dtype and t.shape == want.shape and t.device == dt.device(device)
    if fname != "empty":
        assert_same(t, want)


@pytest.mark.parametrize("fname", ["zeros", "ones", "empty"])
@pytest.mark.parametrize("shape", [(2, 3), (4,), (1, 2, 3), (np.int64(2), 3), (0, 5)], ids=repr)
def test_varargs_shape_still_works(fname, shape, device):
    t = getattr(dt, fname)(*shape, device=device)
    assert t.shape == tuple(int(n) for n in shape) and t.dtype == dt.float64


def test_varargs_versus_positional_dtype():
    # an integer is a dimension, a dtype-like second argument is the dtype
    assert dt.ones(2, 3).shape == (2, 3)
    assert dt.ones(2, np.int32).shape == (2,) and dt.ones(2, np.int32).dtype == dt.int32
    assert dt.ones(2, np.int32(3)).shape == (2, 3)  # a NumPy integer is a dimension
    assert dt.ones(2, dt.int8).dtype == dt.int8
    assert dt.zeros(3, "float32", dtype=None).dtype == dt.float32
    with pytest.raises(TypeError, match="given by name"):
        dt.zeros((2,), "float32", dtype="int32")
    same_error(lambda: np.zeros((2,), 3), lambda: dt.zeros((2,), 3))
    same_error(lambda: np.zeros(2, "foo"), lambda: dt.zeros(2, "foo"))
    with pytest.raises(TypeError):
        dt.ones(2, True)  # a bool is neither a dimension nor a dtype
    with pytest.raises(TypeError):
        dt.ones(2, 3.0)


@pytest.mark.parametrize("fname", ["zeros", "ones", "empty"])
def test_order(fname, device):
    for order in ("C", "F"):
        t = getattr(dt, fname)((2, 3, 4), order=order, device=device)
        assert t.strides == getattr(np, fname)((2, 3, 4), order=order).strides
    t = getattr(dt, fname)((2, 3), "int32", "F", device=device)
    assert t.dtype == dt.int32 and t.strides == (4, 8)
    same_error(lambda: getattr(np, fname)(3, order="A"), lambda: getattr(dt, fname)(3, order="A"))
    same_error(lambda: getattr(np, fname)(3, order="X"), lambda: getattr(dt, fname)(3, order="X"))


def test_zeros_fortran_values(device):
    t = dt.zeros((3, 2), order="F", device=device)
    t[1, 0] = 5
    assert_same(t, np.array([[0, 0], [5, 0], [0, 0]], dtype=float))


# ------------------------------------------------------------------ full

@pytest.mark.parametrize("args", [((2, 3), 7), (3, 2.5), ((2,), True), ((2, 2), 1j),
                                  ((2, 3), 7, np.float32), ((2, 3), 7.9, "int16"),
                                  ((2, 3), [1, 2, 3]), ((3, 2), [[1], [2], [3]]),
                                  ((2, 3), np.arange(3.0)), ((2,), np.float32(1.5)),
                                  ((), 4)], ids=repr)
def test_full_matches_numpy(args, device):
    assert_same(dt.full(*args, device=device), np.full(*args), device=device)


def test_full_with_a_tensor_stays_on_its_device(device):
    v = dt.arange(3, dtype=dt.int32, device=device)
    t = dt.full((2, 3), v)
    assert_same(t, np.full((2, 3), np.arange(3, dtype=np.int32)), device=device)
    assert_same(dt.full(4, v[1]), np.full(4, 1, dtype=np.int32), device=device)


def test_full_errors():
    same_error(lambda: np.full(3, [1, 2]), lambda: dt.full(3, [1, 2]))
    with pytest.raises(ValueError, match="negative"):
        dt.full(-1, 1.0)


def test_full_fortran(device):
    t = dt.full((2, 3), 1.5, order="F", device=device)
    assert t.strides == (8, 16)
    assert_same(t, np.full((2, 3), 1.5))


# ------------------------------------------------------------------ array

@pytest.mark.parametrize("data", [[1, 2, 3], [[1.5, 2], [3, 4]], 5, [True, False], [1j, 2],
                                  np.arange(6).reshape(2, 3), (1, 2.5), []], ids=repr)
@pytest.mark.parametrize("ndmin", [0, 1, 3])
def test_array_matches_numpy(data, ndmin, device):
    assert_same(dt.array(data, ndmin=ndmin, device=device), np.array(data, ndmin=ndmin),
                device=device)


@pytest.mark.parametrize("dtype", NUMPY_DTYPE_NAMES)
def test_array_dtype(dtype, device):
    data = [[0, 1], [2, 3]]
    assert_same(dt.array(data, dtype, device=device), np.array(data, dtype))


def test_array_copies_tensors(device):
    t = dt.arange(4, device=device)
    a = dt.array(t)
    assert a.device == t.device and not dt.shares_memory(a, t)
    a[0] = 9
    assert t[0].item() == 0
    assert dt.array(t, copy=None) is t
    assert dt.array(t, copy=False) is t
    b = dt.array(t, copy=False, ndmin=2)
    assert b.shape == (1, 4) and dt.shares_memory(b, t)
    assert dt.array(t, dtype=dt.float32).dtype == dt.float32


def test_array_copies_numpy_arrays():
    a = np.arange(3)
    t = dt.array(a)
    t[0] = 5
    assert a[0] == 0
    assert dt.shares_memory(dt.array(a, copy=False), dt.from_numpy(a))


def test_array_copy_false_errors(device):
    msg = "Unable to avoid copy while creating an array as requested."
    with pytest.raises(ValueError, match=msg):
        dt.array([1, 2], copy=False)
    with pytest.raises(ValueError, match=msg):
        dt.array(dt.arange(3, device=device), dtype=dt.float64, copy=False)
    with pytest.raises(ValueError, match=msg):
        dt.array(np.arange(3), dtype=float, copy=False)
    with pytest.raises(ValueError, match=msg):
        dt.array(dt.ones((2, 3), device=device), order="F", copy=False)


def test_array_order_and_ndmin_errors(device):
    t = dt.array(dt.ones((2, 3), device=device), order="F")
    assert t.strides == (8, 16) and t.device == dt.device(device)
    same_error(lambda: np.array([1], ndmin=65), lambda: dt.array([1], ndmin=65))
    assert dt.array([1], ndmin=-1).shape == np.array([1], ndmin=-1).shape
    same_error(lambda: np.array([1], order="X"), lambda: dt.array([1], order="X"))


@given(data=hnp.arrays(st.sampled_from([np.int8, np.uint16, np.float32, np.float64,
                                        np.complex64, np.bool_]),
                       hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4)),
       ndmin=st.integers(0, 6))
@settings(max_examples=40)
def test_array_property(data, ndmin):
    for device in ("cpu",) + tuple(f"cuda:{i}" for i in range(min(dt.cuda.device_count(), 1))
                                   if dt.cuda.is_available()):
        assert_same(dt.array(data, ndmin=ndmin, device=device), np.array(data, ndmin=ndmin))


# ------------------------------------------------------------------ identity, copy

@pytest.mark.parametrize("args", [(3,), (0,), (4, int), (2, "complex64"), (3, bool)], ids=repr)
def test_identity(args, device):
    assert_same(dt.identity(*args, device=device), np.identity(*args), device=device)


def test_copy(device):
    t = dt.arange(6, device=device).reshape(2, 3).T
    c = dt.copy(t)
    assert_same(c, np.arange(6).reshape(2, 3).T, device=device)
    assert not dt.shares_memory(c, t)
    f = dt.copy(dt.ones((2, 3), device=device), order="F")
    assert f.strides == (8, 16) and f.device == dt.device(device)
    assert_same(dt.copy([1.5, 2]), np.copy([1.5, 2]))
    same_error(lambda: np.copy(np.ones(2), order="X"), lambda: dt.copy(dt.ones(2), order="X"))


# ------------------------------------------------------------------ fromiter, frombuffer

@pytest.mark.parametrize("dtype", ["int32", "float64", "float32", "complex128", "bool"])
def test_fromiter(dtype, device):
    assert_same(dt.fromiter(iter(range(5)), dtype, device=device),
                np.fromiter(iter(range(5)), dtype), device=device)
    assert_same(dt.fromiter((x * 0.5 for x in range(10)), dtype, count=3, device=device),
                np.fromiter((x * 0.5 for x in range(10)), dtype, count=3))


def test_fromiter_bfloat16(device):
    t = dt.fromiter([1.5, 2, 3], "bfloat16", device=device)
    assert t.dtype == dt.bfloat16 and t.device == dt.device(device)
    assert t.astype(dt.float32).tolist() == [1.5, 2.0, 3.0]


def test_fromiter_errors():
    same_error(lambda: np.fromiter(range(3), int, 5), lambda: dt.fromiter(range(3), int, 5))
    same_error(lambda: np.fromiter(range(3), "foo"), lambda: dt.fromiter(range(3), "foo"))


@pytest.mark.parametrize("args", [(b"abcdefgh",), (b"abcdefgh", np.int16),
                                  (b"abcdefgh", np.uint8, 3, 2), (b"abcdefgh", np.int32, -1, 4),
                                  (b"", np.int16), (bytearray(b"\x01\x00\x02\x00"), "uint16")],
                         ids=repr)
def test_frombuffer(args, device):
    assert_same(dt.frombuffer(*args, device=device), np.frombuffer(*args), device=device)


def test_frombuffer_shares_memory_on_cpu():
    buf = bytearray(8)
    t = dt.frombuffer(buf, np.int16)
    buf[0] = 7
    assert t[0].item() == 7
    ro = dt.frombuffer(b"abcd", np.uint8)
    assert not ro.flags.writeable
    a = pyarray.array("d", [1.0, 2.0])
    assert dt.frombuffer(a).tolist() == [1.0, 2.0]


def test_frombuffer_bfloat16_reads_bits(device):
    bits = np.array([0x3FC0, 0x4040], dtype=np.uint16)  # 1.5 and 3.0 in bfloat16
    t = dt.frombuffer(bits.tobytes(), "bfloat16", device=device)
    assert t.astype(dt.float32).tolist() == [1.5, 3.0]


@pytest.mark.parametrize("args", [(b"abc", np.int16), (b"abcd", np.int16, -1, 5),
                                  (b"abcd", np.int16, 3), (b"abcd", np.int16, -1, -1)], ids=repr)
def test_frombuffer_errors(args):
    same_error(lambda: np.frombuffer(*args), lambda: dt.frombuffer(*args))


# ------------------------------------------------------------------ logspace, geomspace

@pytest.mark.parametrize("args,kw", [((0, 3, 4), {}), ((0, 3, 4), {"dtype": int}),
                                     ((0, 3), {}), ((0, 3, 4), {"base": 2}),
                                     ((1, -1, 5), {"endpoint": False}), ((0, 1, 0), {}),
                                     ((0, 1, 1), {}), ((0, 2, 3), {"dtype": np.float32}),
                                     ((np.float32(1), np.float32(2), 3), {}),
                                     ((2, 3, 4), {"base": 0.5, "dtype": "int16"})], ids=repr)
def test_logspace(args, kw, device):
    want = np.logspace(*args, **kw)
    got = dt.logspace(*args, **kw, device=device)
    exact = want.dtype.kind in "iu"
    assert_same(got, want, device=device, exact=exact, rtol=1e-6 if want.dtype == np.float32
                else 1e-14)


@pytest.mark.parametrize("args,kw", [((1, 1000, 4), {}), ((1, 1000, 4), {"dtype": int}),
                                     ((-1, -1000, 4), {}), ((1, 1000, 4), {"endpoint": False}),
                                     ((1000, 1, 5), {}), ((2, 2, 3), {}), ((1, 2, 0), {}),
                                     ((1, 256, 9), {"dtype": np.float32}),
                                     ((np.float32(1), np.float32(100), 3), {}),
                                     ((0.5, 8, 5), {"dtype": "uint8"})], ids=repr)
def test_geomspace(args, kw, device):
    want = np.geomspace(*args, **kw)
    got = dt.geomspace(*args, **kw, device=device)
    exact = want.dtype.kind in "iu"
    assert_same(got, want, device=device, exact=exact, rtol=1e-6 if want.dtype == np.float32
                else 1e-14)
    if want.size and not exact:  # NumPy's endpoints are exact
        g = to_np(got)
        assert g[0] == want[0] and (g[-1] == want[-1] or not kw.get("endpoint", True))


@given(start=st.floats(-5, 5), stop=st.floats(-5, 5), num=st.integers(0, 20),
       endpoint=st.booleans(), base=st.sampled_from([10.0, 2, 0.5, math.e]))
@settings(max_examples=40)
def test_logspace_property(start, stop, num, endpoint, base):
    want = np.logspace(start, stop, num, endpoint, base)
    assert_same(dt.logspace(start, stop, num, endpoint, base), want, exact=False, rtol=1e-12)


@given(start=st.floats(1e-3, 1e3) | st.floats(-1e3, -1e-3), ratio=st.floats(1e-3, 1e3),
       num=st.integers(0, 20), endpoint=st.booleans())
@settings(max_examples=40)
def test_geomspace_property(start, ratio, num, endpoint):
    stop = start * ratio
    want = np.geomspace(start, stop, num, endpoint)
    assert_same(dt.geomspace(start, stop, num, endpoint), want, exact=False, rtol=1e-12)


def test_spaces_errors():
    same_error(lambda: np.geomspace(0, 10, 3), lambda: dt.geomspace(0, 10, 3))
    same_error(lambda: np.geomspace(1, 10, -1), lambda: dt.geomspace(1, 10, -1))
    same_error(lambda: np.logspace(1, 10, -1), lambda: dt.logspace(1, 10, -1))
    with pytest.raises(np.exceptions.AxisError):
        dt.logspace(0, 1, 3, axis=1)
    same_error(lambda: np.geomspace(np.array([1.0, 0.0]), 2.0), lambda: dt.geomspace(dt.asarray([1.0, 0.0]), 2.0))
    same_error(lambda: np.logspace(np.zeros(2), 1.0, 3, axis=2), lambda: dt.logspace(dt.zeros(2), 1.0, 3, axis=2))


@pytest.mark.parametrize("name,args,kw", [
    ("geomspace", (np.array([1.0, 10.0]), 1000.0, 3), {}),
    ("geomspace", (np.array([1, 10], np.float32), np.float32(1000), 3), {}),
    ("geomspace", (np.array([-1.0, 10.0]), np.array([[-100.0], [1000.0]]), 4), dict(axis=1)),
    ("geomspace", (np.array([1 + 1j, 2]), 100, 3), {}),
    ("geomspace", (np.array([1.0, 10.0]), 1000.0, 4), dict(endpoint=False, dtype=np.int64)),
    ("geomspace", (np.array([1.0, 10.0]), 1000.0, 4), dict(axis=-1)),
    ("geomspace", ([1.0, 2.0], 8.0, 3), {}),
    ("logspace", (np.array([0.0, 1.0]), 2.0, 3), {}),
    ("logspace", (0.0, 2.0, 3), dict(base=np.array([2.0, 10.0]), axis=1)),
    ("logspace", (np.array([0.0, 1.0]), np.array([[2.0], [3.0]]), 3), dict(axis=-1, dtype=np.float32)),
    ("logspace", (np.array([0.0, 1.0], np.float32), 2.0, 3), {}),
    ("logspace", (1j, 2.0, 3), {}),
    ("logspace", ([0, 1], 2, 3), {}),
], ids=stable_repr)
def test_spaces_of_array_bounds(name, args, kw, device):
    """Array and complex bounds (and bases) broadcast, as NumPy's; the
    sequence is made on the bounds' device."""
    with np.errstate(invalid="ignore"):  # log10 of a negative ratio: NaN, as NumPy's
        want = getattr(np, name)(*args, **kw)
        on_device = {k: dt.asarray(v, device=device) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
        got = getattr(dt, name)(*(dt.asarray(a, device=device) if isinstance(a, np.ndarray) else a for a in args),
                                **on_device, device=device)
    assert_same(got, want, device=device, exact=want.dtype.kind in "iu",
                rtol=1e-6 if want.dtype in (np.float32, np.complex64) else 1e-13)


def test_geomspace_opposite_signs_is_nan_as_numpy():
    with np.errstate(invalid="ignore"):
        want = np.geomspace(-1, 1000, 4)
        got = dt.geomspace(-1, 1000, 4)
    assert_same(got, want, exact=False)


def test_linspace_integer_dtype_floors_on_device(device):
    assert_same(dt.linspace(-3, 10, 7, dtype=int, device=device),
                np.linspace(-3, 10, 7, dtype=int), device=device)


@pytest.mark.parametrize("args, kw", [
    ((0, 1, 5), dict(retstep=True)), (([0, 1], [1, 3], 4), {}), (([0, 1], [1, 3], 4), dict(axis=1)),
    (([0, 1], [1, 3], 4), dict(axis=-1, retstep=True)), ((0, 1 + 2j, 3), {}), ((0, 10, 4), dict(dtype="int64")),
    ((np.float32(0), np.float32(1), 3), {}), ((np.array([[0.0], [2.0]]), 5, 3), dict(endpoint=False)),
    ((0, 1, 1), dict(retstep=True)), ((2.0, 2.0, 3), dict(retstep=True)), (([1, 1], [1, 2], 3), {}),
])
def test_linspace_arrays_axis_retstep(args, kw, device):
    """NumPy's linspace of array and complex bounds, along any axis, with
    retstep, on the device of the bounds or device=."""
    want = np.linspace(*args, **kw)
    targs = tuple(dt.asarray(a, device=device) if isinstance(a, (list, np.ndarray)) else a for a in args)
    got = dt.linspace(*targs, device=device, **kw)
    if kw.get("retstep"):
        (got, step), (want, wstep) = got, want
        np.testing.assert_allclose(to_np(step) if isinstance(step, dt.Tensor) else step, wstep, rtol=1e-15)
        if not isinstance(wstep, np.ndarray):  # a scalar step: NumPy's type (np.float64, or float nan)
            assert type(step) is type(wstep), (type(step), type(wstep))
    assert_same(got, want, device=device, exact=False, rtol=1e-15)


def test_triangle_indices(device):
    for n, k, m in [(4, 0, None), (4, 1, 6), (3, -1, 2), (0, 0, None), (5, 9, None)]:
        for name in ("tril_indices", "triu_indices"):
            got, want = getattr(dt, name)(n, k, m, device=device), getattr(np, name)(n, k, m)
            for g, w in zip(got, want):
                assert_same(g, w, device=device)
    a = np.arange(12.0).reshape(3, 4)
    t = dt.asarray(a, device=device)
    for name in ("tril_indices_from", "triu_indices_from"):
        for k in (0, 1, -2):
            got, want = getattr(dt, name)(t, k), getattr(np, name)(a, k)
            for g, w in zip(got, want):
                assert_same(g, w, device=device)
        assert_same(t[getattr(dt, name)(t)], a[getattr(np, name)(a)], device=device)
        with pytest.raises(ValueError, match="input array must be 2-d"):
            getattr(dt, name)(dt.ones(3, device=device))
