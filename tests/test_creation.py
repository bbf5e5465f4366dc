"""Creation: tensor(), asarray(), zeros/ones/empty/full (+ _like), arange, linspace, eye,
attributes and Python protocols, compared with NumPy."""
import array
import operator
import re

import warnings

import numpy as np
import pytest

import devtensor as dt
from helpers import ALL_DTYPE_NAMES, CUDA_DEVICES, NUMPY_DTYPE_NAMES, assert_same, requires_devices, to_np


# ------------------------------------------------------------------ tensor()

@pytest.mark.parametrize("data", [
    [1, 2, 3],
    [[1, 2], [3, 4]],
    [1, 2.5],
    [True, False],
    [True, 2],
    [1 + 2j, 3],
    [],
    [[]],
    [[[1.5]], [[2.5]]],
    5,
    2.5,
    True,
    1j,
    (1, 2, 3),
    ((1, 2), [3, 4]),
    [2 ** 63],
    [-(2 ** 63), 2 ** 63 - 1],
], ids=repr)
def test_tensor_from_python_matches_numpy(data, device):
    expected = np.array(data)
    t = dt.tensor(data, device=device)
    assert_same(t, expected, device=device)
    assert t.ndim == expected.ndim


def test_tensor_default_dtypes():
    assert dt.tensor([1, 2]).dtype == dt.int64
    assert dt.tensor([1.0]).dtype == dt.float64
    assert dt.tensor([True]).dtype == dt.bool
    assert dt.tensor([1j]).dtype == dt.complex128
    assert dt.tensor(3).shape == ()


@pytest.mark.parametrize("dtype", NUMPY_DTYPE_NAMES)
def test_tensor_with_dtype(dtype, device):
    data = [[0, 1, 2], [3, 4, 5]]
    t = dt.tensor(data, dtype=dtype, device=device)
    assert_same(t, np.array(data, dtype=dtype), device=device)


def test_tensor_float_to_int_truncates():
    assert_same(dt.tensor([1.7, -2.5], dtype=dt.int32), np.array([1.7, -2.5], dtype=np.int32))


def test_tensor_out_of_range_python_int_for_dtype():
    with pytest.raises(OverflowError):  # NumPy 2: Python integer 300 out of bounds for int8
        np.array([300], dtype=np.int8)
    with pytest.raises(OverflowError):
        dt.tensor([300], dtype=dt.int8)


def test_tensor_bfloat16():
    t = dt.tensor([1.0, 2.0, 0.5, -3.0], dtype=dt.bfloat16)
    assert t.dtype == dt.bfloat16
    assert t.itemsize == 2
    assert t.astype(dt.float32).tolist() == [1.0, 2.0, 0.5, -3.0]
    # 1 + 2**-9 is not representable in bfloat16 (8 significand bits): rounds to 1
    assert dt.tensor([1 + 2 ** -9], dtype=dt.bfloat16).astype(dt.float64).tolist() == [1.0]


def test_tensor_from_numpy_copies():
    a = np.arange(6.0).reshape(2, 3)
    t = dt.tensor(a)
    a[0, 0] = 100
    assert t.tolist()[0][0] == 0.0
    n = t.numpy()
    n[0, 1] = -1
    assert a[0, 1] == 1.0


@pytest.mark.parametrize("make", [
    lambda: np.arange(12.0).reshape(3, 4)[:, ::2],
    lambda: np.arange(12).reshape(3, 4)[::-1],
    lambda: np.arange(12).reshape(3, 4)[::-2, ::-3],
    lambda: np.arange(24, dtype=np.float32).reshape(2, 3, 4).transpose(2, 0, 1),
    lambda: np.array(7),
    lambda: np.array(2.5, dtype=np.float32),
    lambda: np.zeros((0, 3)),
    lambda: np.zeros((3, 0, 2), dtype=np.int16),
    lambda: np.broadcast_to(np.arange(3), (4, 3)),
    lambda: np.array([1, 2, 3], dtype=">i4"),
    lambda: np.frombuffer(b"\x00" + np.arange(4.0).tobytes(), dtype=np.float64, offset=1),
    lambda: np.array([1 + 2j, 3 - 4j], dtype=np.complex64),
    lambda: np.array([True, False, True])[::2],
], ids=["cols", "rev", "negstep", "transpose", "0d", "0d32", "empty", "empty3",
        "broadcast", "bigendian", "unaligned", "complex64", "bool"])
def test_tensor_and_asarray_from_numpy_layouts(make, device):
    a = make()
    for f in (dt.tensor, dt.asarray):
        t = f(a, device=device)
        assert_same(t, a.astype(a.dtype.newbyteorder("=")), device=device)
        assert t.tolist() == a.tolist()


@pytest.mark.parametrize("buf,expected", [
    (bytearray(b"\x01\x02\xff"), np.array([1, 2, 255], dtype=np.uint8)),
    (memoryview(b"ab"), np.array([97, 98], dtype=np.uint8)),
    (array.array("f", [1.5, 2.5]), np.array([1.5, 2.5], dtype=np.float32)),
    (array.array("q", [-1, 5]), np.array([-1, 5], dtype=np.int64)),
    (memoryview(np.arange(6, dtype=np.int16).reshape(2, 3)), np.arange(6, dtype=np.int16).reshape(2, 3)),
], ids=["bytearray", "memoryview", "array-f", "array-q", "memoryview2d"])
def test_from_buffers(buf, expected):
    np.testing.assert_array_equal(np.asarray(buf), expected, strict=True)
    assert_same(dt.asarray(buf), expected)
    assert_same(dt.tensor(buf), expected)


def test_from_bytes():
    # bytes are read through the buffer protocol as uint8 (like memoryview(b)), not as NumPy's S2
    assert_same(dt.asarray(b"\x01\x02"), np.array([1, 2], dtype=np.uint8))
    assert_same(dt.tensor(b"ab"), np.array([97, 98], dtype=np.uint8))
    assert_same(dt.asarray(b""), np.array([], dtype=np.uint8))


def test_asarray_bytearray_zero_copy():
    ba = bytearray(b"\x01\x02\x03")
    t = dt.asarray(ba)
    t.numpy()[0] = 9
    assert ba[0] == 9


def test_tensor_from_tensor_copies(device):
    t = dt.tensor([1.0, 2.0], device=device)
    u = dt.tensor(t)
    assert u is not t
    assert u.tolist() == [1.0, 2.0]
    assert u.dtype == dt.float64
    v = dt.tensor(t, dtype=dt.float32, device="cpu")
    assert v.dtype == dt.float32 and v.device == dt.device("cpu")


# ------------------------------------------------------------------ asarray()

def test_asarray_zero_copy_from_numpy():
    a = np.arange(6.0).reshape(2, 3)
    t = dt.asarray(a)
    assert t.device == dt.device("cpu")
    n = t.numpy()
    assert np.shares_memory(n, a)
    n[1, 2] = 42.0
    assert a[1, 2] == 42.0
    a[0, 0] = -7.0
    assert t.tolist()[0][0] == -7.0


@pytest.mark.parametrize("kw", [dict(), dict(copy=None), dict(copy=False), dict(dtype=np.float64),
                                dict(dtype="float64", copy=False), dict(device="cpu")])
def test_asarray_zero_copy_variants(kw):
    a = np.arange(4.0)
    t = dt.asarray(a, **kw)
    t.numpy()[0] = 11.0
    assert a[0] == 11.0


def test_asarray_noncontiguous_zero_copy():
    a = np.arange(12.0).reshape(3, 4)[::-1, ::2]
    t = dt.asarray(a)
    assert t.strides == a.strides
    t.numpy()[0, 0] = 100.0
    assert a[0, 0] == 100.0


def test_asarray_copy_true_copies():
    a = np.arange(4.0)
    t = dt.asarray(a, copy=True)
    t.numpy()[0] = 11.0
    assert a[0] == 0.0


def test_asarray_dtype_change_copies():
    a = np.arange(4.0)
    t = dt.asarray(a, dtype=dt.float32)
    assert t.dtype == dt.float32
    t.numpy()[0] = 11.0
    assert a[0] == 0.0


@pytest.mark.parametrize("kw", [dict(dtype=dt.float32), dict(dtype="int64")])
def test_asarray_copy_false_when_copy_needed(kw):
    a = np.arange(4.0)
    with pytest.raises(ValueError):
        dt.asarray(a, copy=False, **kw)


def test_asarray_copy_false_list():
    # NumPy 2: np.asarray([1, 2], copy=False) raises ValueError (a copy is needed)
    with pytest.raises(ValueError):
        dt.asarray([1, 2], copy=False)


def test_asarray_copy_false_shares_buffers():
    """copy=False shares a buffer-protocol object's memory, as NumPy does,
    and refuses one that needs a cast."""
    import array
    b = bytearray(4)
    t = dt.asarray(b, copy=False)
    t[0] = 5
    assert b[0] == 5 and t.dtype == dt.uint8
    ints = array.array("i", [1, 2, 3])
    dt.asarray(memoryview(ints), copy=False)[1] = 7
    assert ints.tolist() == [1, 7, 3]
    with pytest.raises(ValueError, match="bytearray of another dtype than float32 cannot be shared"):
        dt.asarray(b, dtype=dt.float32, copy=False)
    with pytest.raises(ValueError, match="a int cannot be shared without a copy"):
        dt.asarray(3, copy=False)


def test_asarray_copy_false_of_a_list_of_tensors(device):
    """A list of tensors is stacked (a copy): copy=False refuses it on every
    device; with device= naming their device it is stacked there."""
    g = dt.asarray([1.0, 2.0], device=device)
    for obj in ([g[0], g[1]], (g,)):
        with pytest.raises(ValueError, match="cannot be shared without a copy"):
            dt.asarray(obj, copy=False)
    with dt.transfer_guard("disallow"):  # stays on the device
        t = dt.asarray([g[0], g[1]], device=device)
    assert t.device == dt.device(device) and t.tolist() == [1.0, 2.0]


def test_asarray_copy_false_to_other_device(device):
    if device == "cpu":
        pytest.skip("same device")
    with pytest.raises(ValueError):
        dt.asarray(np.arange(3.0), device=device, copy=False)


def test_asarray_to_device(device):
    a = np.arange(5, dtype=np.int32)
    t = dt.asarray(a, device=device)
    assert_same(t, a, device=device)
    a[0] = 99  # a device tensor (or a cpu view) - only cpu shares memory
    if device != "cpu":
        assert to_np(t)[0] == 0


def test_asarray_readonly_numpy_not_writable_through_view():
    a = np.arange(4.0)
    a.flags.writeable = False
    t = dt.asarray(a)
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0]
    n = t.numpy()
    assert not (np.shares_memory(n, a) and n.flags.writeable)


def test_asarray_python_data():
    assert_same(dt.asarray([[1, 2], [3, 4]]), np.asarray([[1, 2], [3, 4]]))
    assert_same(dt.asarray(3.5), np.asarray(3.5))
    assert_same(dt.asarray([1, 2], dtype=dt.uint8), np.asarray([1, 2], dtype=np.uint8))


# ------------------------------------------------------------------ factories

SHAPE_FORMS = [
    ((2, 3), (2, 3)),
    (([2, 3],), (2, 3)),
    ((2, 3, 1), (2, 3, 1)),
    ((5,), (5,)),
    (((),), ()),
    ((0,), (0,)),
    (((2, 0, 3),), (2, 0, 3)),
    (((np.int64(2), np.int32(3)),), (2, 3)),
    ((np.int64(4),), (4,)),
]


@pytest.mark.parametrize("args,shape", SHAPE_FORMS, ids=repr)
@pytest.mark.parametrize("fname", ["zeros", "ones", "empty"])
def test_factory_shapes(fname, args, shape, device):
    t = getattr(dt, fname)(*args, device=device)
    assert t.shape == shape
    assert isinstance(t.shape, tuple)
    assert all(type(s) is int for s in t.shape)
    assert t.dtype == dt.float64
    assert t.device == dt.device(device)
    if fname != "empty":
        assert_same(t, getattr(np, fname)(shape), device=device)


FACTORY_CALLS = [  # (args, kwargs): the forms answered in C and the ones sent to _creation
    ((3,), {}), ((2, 3), {}), (((2, 3),), {}), (([2, 3],), {}), (((),), {}), ((0,), {}),
    ((2, dt.float32), {}), (((2, 2), dt.int8), {}), ((3,), {"dtype": dt.complex64}), ((3,), {"dtype": None}),
    ((2, 3), {"dtype": dt.bool}), ((3,), {"dtype": "float32"}), ((3,), {"dtype": np.int16}),
    ((3,), {"dtype": float}), ((3, None, "F"), {}), (((2, 3),), {"order": "F"}), ((), {"shape": (2,)}),
    ((np.int64(3),), {}), (((np.int32(2), 3),), {}), ((2, 3), {"device": "cpu"}), ((True,), {}),
    ((2.0,), {}), ((-1,), {}), (((2, "a"),), {}), ((2, dt.float32), {"dtype": dt.float32}),
    ((2,), {"order": "K"}), ((2,), {"color": 1}), ((2 ** 62, 2 ** 62), {}), ((2 ** 70,), {}),
    ((2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7), {}),
]


@pytest.mark.parametrize("fname", ["zeros", "ones", "empty"])
@pytest.mark.parametrize("args,kwargs", FACTORY_CALLS, ids=repr)
def test_factories_in_c_match_the_python_layer(fname, args, kwargs, device):
    """Note [Factories in C]: every form gives what _creation's general
    function gives (result or exception), on every device."""
    from devtensor import _creation
    fast, general = getattr(dt, fname), getattr(_creation, f"_{fname}_general")
    kwargs = dict(kwargs, device=kwargs.get("device", device))
    try:
        want = general(*args, **kwargs)
    except Exception as e:  # noqa: BLE001  (the same exception, whatever it is)
        with pytest.raises(type(e)) as got:
            fast(*args, **kwargs)
        assert str(got.value) == str(e)
        return
    t = fast(*args, **kwargs)
    assert (t.shape, t.dtype, t.device, t.strides) == (want.shape, want.dtype, want.device, want.strides)
    if fname != "empty":
        assert to_np(t).tolist() == to_np(want).tolist()


ARANGE_CALLS = [
    ((5,), {}), ((0,), {}), ((-3,), {}), ((2, 9), {}), ((9, 2), {}), ((9, 2, -2), {}), ((0, 10, 3), {}),
    ((0, -10, -3), {}), ((5, 5), {}), ((3, 1, 1), {}), ((0, 10 ** 18, 10 ** 17), {}),
    ((-2 ** 63, 2 ** 63 - 1, 2 ** 62), {}), ((2 ** 63 - 3, 2 ** 63 - 1), {}), ((0, 2 ** 64), {}),
    ((0, -2 ** 63, -1), {}), ((1, -2 ** 63 + 1, -1), {}), ((-1, 2 ** 63 - 1), {}),  # lengths of 2**63
    ((1, 5), {"dtype": dt.int64}), ((4,), {"dtype": dt.int32}), ((4,), {"dtype": "float32"}), ((4,), {"dtype": None}),
    ((0, 1, 0.25), {}), ((1.0, 3), {}), ((0, 5, 0), {}), ((True, 3), {}), ((np.int64(4),), {}), (("a",), {}),
    ((3,), {"step": 2}), ((), {}), ((1, 2, 3, 4), {}), ((4,), {"device": "cpu"}), ((4,), {"color": 1}),
    ((), {"stop": 5}), ((5,), {"stop": 10}), ((2,), {"step": 2}), ((), {"start": 2, "stop": 5}),
    ((), {"step": -2, "stop": -7}), ((1, 2, 3), {"step": 4}), ((5,), {"start": 1}), ((), {"start": 5}),
    ((), {"stop": 2 ** 70}), ((), {"stop": 5.0}), ((), {"stop": 5, "dtype": dt.int64}),
    ((), {"stop": True}), ((), {"stop": 5, "stop2": 1}),
    # floats (Note [arange in C]): NumPy's length in doubles and delta (start + step) - start
    ((10.0,), {}), ((0.1, 1.0, 0.1), {}), ((1.0, 0.0, -0.3), {}), ((-0.0, 3.0), {}), ((0.0, 3.0), {}),
    ((-0.0, 1.0, 2.0), {}), ((0.5, 5, 1.5), {"dtype": dt.int32}), ((0.0, 1.0, 1e-320), {}),
    ((0.0, 1e-300, 1e300), {}), ((0.0, -1e-300, 1e300), {}), ((0.0, float("inf")), {}),
    ((0.0, 1.0, float("inf")), {}), ((float("nan"),), {}), ((0.0, 1.0, 0.0), {}), ((1e300, 1e301, 1e-300), {}),
    ((0, 1e19), {}), ((2, 7.5), {"dtype": dt.float64}), ((2, 7.5), {"dtype": dt.float32}),
    ((), {"start": 0.5, "stop": 3}), ((1.5,), {"step": 0.5, "stop": 4.0}), ((2 ** 70, 2.0 ** 70 + 1e6, 1e5), {}),
    ((3.0,), {"dtype": dt.int64}), ((1e18, 1e18 + 4096.0, 512.0), {}),
]


@pytest.mark.parametrize("args,kwargs", ARANGE_CALLS, ids=repr)
def test_arange_in_c_matches_the_python_layer(args, kwargs, device):
    """Note [arange in C]: every form gives what _creation's general function
    gives (values, dtype, device, or the same exception)."""
    from devtensor import _creation
    kwargs = dict(kwargs, device=kwargs.get("device", device))
    try:
        want = _creation._arange_general(*args, **kwargs)
    except Exception as e:  # noqa: BLE001  (the same exception, whatever it is)
        with pytest.raises(type(e)) as got:
            dt.arange(*args, **kwargs)
        assert str(got.value) == str(e)
        return
    t = dt.arange(*args, **kwargs)
    assert (t.shape, t.dtype, t.device) == (want.shape, want.dtype, want.device)
    assert to_np(t).tobytes() == to_np(want).tobytes()  # bit for bit: -0.0 too
    if all(type(a) is int for a in args) and list(kwargs) == ["device"] and abs(args[-1]) < 2 ** 40:
        assert to_np(t).tolist() == np.arange(*args).tolist()


def test_float_arange_is_numpys_bit_for_bit():
    """Float bounds (the C path of Note [arange in C]) against NumPy itself."""
    rng = np.random.default_rng(7)
    for _ in range(300):
        start, span = rng.normal(0, 10.0 ** rng.integers(-3, 6), 2)
        step = (span if rng.random() < 0.5 else -span) / rng.integers(1, 400)
        args = (float(start), float(start + span), float(step))
        if rng.random() < 0.3:
            args = (int(start), float(start + span)) if rng.random() < 0.5 else (float(abs(span)),)
        try:
            want = np.arange(*args)
        except Exception as e:  # noqa: BLE001
            with pytest.raises(type(e)):
                dt.arange(*args)
            continue
        got = dt.arange(*args)
        assert got.dtype == dt.float64 and got.numpy().tobytes() == want.tobytes(), args


def test_factories_without_a_shape():
    for f in (dt.zeros, dt.ones, dt.empty):
        with pytest.raises(TypeError, match=rf"^{f.__name__}\(\) missing required argument 'shape' \(pos 1\)"):
            f()
        with pytest.raises(TypeError, match="missing"):
            f(dtype=dt.float32)


@pytest.mark.parametrize("dtype", ALL_DTYPE_NAMES)
def test_factory_dtypes(dtype, device):
    for f, v in ((dt.zeros, 0), (dt.ones, 1)):
        t = f(2, 3, dtype=dtype, device=device)
        assert t.dtype == getattr(dt, dtype)
        assert t.device == dt.device(device)
        ref = t.astype(dt.float64) if dtype == "bfloat16" else t
        assert ref.tolist() == [[v] * 3] * 2
    e = dt.empty((4,), dtype=dtype, device=device)
    assert e.dtype == getattr(dt, dtype) and e.shape == (4,)


@pytest.mark.parametrize("fill", [3, 3.5, True, 1 + 2j, -7])
def test_full_infers_dtype_like_numpy(fill, device):
    assert_same(dt.full((2, 3), fill, device=device), np.full((2, 3), fill), device=device)


FULL_CALLS = [
    ((3, 2.0), {}), ((3, 5), {}), ((3, -2 ** 63), {}), ((3, 2 ** 63 - 1), {}), ((3, True), {}), ((3, 1j), {}),
    (((2, 2), 7), {"dtype": "float32"}), ((3, 5), {"dtype": "int8"}), ((3, 2.5), {"dtype": "int32"}),
    ((3, True), {"dtype": "float64"}), ((3, 1j), {"dtype": "complex64"}), (((), 1.5), {}), (((2, 0), 1), {}),
    ((3, np.float32(1)), {}), ((np.int64(2), 1.0), {}), (((2, 3), 1.0), {"order": "F"}), (([2, 3], 4), {}),
]


@pytest.mark.parametrize("args,kwargs", FULL_CALLS, ids=repr)
def test_full_forms_match_numpy(args, kwargs, device):
    """full's per-call path (Python scalars, int or tuple shapes, a dtype
    object) and its general one give NumPy's dtype, shape and values."""
    want = np.full(*args, **kwargs)
    got = dt.full(*args, **{k: getattr(dt, v) if k == "dtype" else v for k, v in kwargs.items()}, device=device)
    assert_same(got, want, device=device)
    assert got.device == dt.device(device)
    for bad in ((3, 300), (-1, 1.0)):
        with pytest.raises(Exception) as e:
            np.full(*bad, dtype=np.int8)
        with pytest.raises(type(e.value)):
            dt.full(*bad, dtype=dt.int8, device=device)


def test_full_varargs_and_dtype(device):
    assert_same(dt.full((2,), 7, dtype=dt.float32, device=device), np.full((2,), 7, np.float32))
    assert_same(dt.full([3], 2.9, dtype="int16", device=device), np.full([3], 2.9, np.int16))
    assert_same(dt.full((), 1.5, device=device), np.full((), 1.5))


@pytest.mark.parametrize("fname", ["zeros_like", "ones_like", "empty_like"])
def test_like_keeps_device_and_dtype(fname, device):
    x = dt.ones((2, 3), dtype=dt.int16, device=device)
    y = getattr(dt, fname)(x)
    assert y.shape == (2, 3) and y.dtype == dt.int16 and y.device == x.device
    assert y is not x
    z = getattr(dt, fname)(x, dtype=dt.float32)
    assert z.dtype == dt.float32 and z.device == x.device
    w = getattr(dt, fname)(x, device="cpu")
    assert w.device == dt.device("cpu") and w.dtype == dt.int16
    if fname != "empty_like":
        assert_same(y, getattr(np, fname)(np.ones((2, 3), np.int16)))


def test_full_like(device):
    x = dt.ones((2, 2), dtype=dt.int32, device=device)
    y = dt.full_like(x, 7.9)  # NumPy: cast to int32 -> 7
    assert_same(y, np.full_like(np.ones((2, 2), np.int32), 7.9), device=device)
    z = dt.full_like(x, 2.5, dtype=dt.float64)
    assert_same(z, np.full((2, 2), 2.5), device=device)
    u = dt.full_like(x, 1, device="cpu")
    assert u.device == dt.device("cpu")


def test_like_accepts_numpy_array():
    a = np.ones((2, 3), dtype=np.float32)
    y = dt.zeros_like(a)
    assert isinstance(y, dt.Tensor)
    assert_same(y, np.zeros_like(a))


def test_empty_like_source_unchanged(device):
    x = dt.ones(3, device=device)
    dt.empty_like(x)
    assert x.tolist() == [1.0, 1.0, 1.0]


ARANGE_CASES = [
    (5,), (0,), (-3,), (5.0,), (2, 10), (10, 2), (0, 10, 3), (10, 0, -3), (-3, 3),
    (0, 1, 0.1), (1, 0, -0.25), (0.5, 4), (0, 5, 2.5), (1, 2, 0.3), (-1.5, 1.5, 0.5),
    (0, 10 ** 12, 10 ** 11), (3, 4), (3, 3),
]


@pytest.mark.parametrize("args", ARANGE_CASES, ids=repr)
def test_arange_matches_numpy(args, device):
    expected = np.arange(*args)
    t = dt.arange(*args, device=device)
    assert t.dtype == expected.dtype
    assert t.shape == expected.shape
    assert t.device == dt.device(device)
    np.testing.assert_allclose(to_np(t), expected, rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("dtype", ["int32", "float32", "uint8", "int16"])
def test_arange_dtype(dtype, device):
    expected = np.arange(1, 9, 2, dtype=dtype)
    assert_same(dt.arange(1, 9, 2, dtype=dtype, device=device), expected)


@pytest.mark.parametrize("args,kw", [
    ((2**63, 2**63 + 2), {}), ((2**63, 2**63 + 2), dict(dtype="uint64")), ((2**64 - 3, 2**64 - 1), dict(dtype="uint64")),
    ((2**63 + 5, 2**63, -2), dict(dtype="uint64")), ((0, 2**64 - 1, 2**63), dict(dtype="uint64")),
    ((2**63 - 1, 2**63 + 1), dict(dtype="uint64")), ((-1, 2**63 + 1, 2**62), {}), ((3, 300, 7), dict(dtype="int8")),
    ((-1, 3), dict(dtype="uint64")), ((-5, 5), dict(dtype="uint8")), ((2**63, 2**63 + 2), dict(dtype="int64")),
    ((2**64, 2**64 + 2), dict(dtype="uint64")), ((0, 1e20, 1e19), dict(dtype="int64")), ((127, 130), dict(dtype="int8")),
    ((127, 128), dict(dtype="int8")), ((0.0, 600.0, 300.0), dict(dtype="uint8")), ((126.5, 130), dict(dtype="int8")),
    ((-1.5, 3), dict(dtype="uint8")), ((5, 0, -3), dict(dtype="uint8")), ((-2**63, 2**63 - 1, 2**64 - 2), dict(dtype="int64")),
    ((1e19, 1.1e19, 1e18), dict(dtype="uint64"))], ids=repr)
def test_arange_at_the_edges_of_64_bits(args, kw, device):
    """Starts past int64 (uint64's top half; float64 with no dtype, as NumPy's
    int64-with-uint64 promotion), NumPy's exact length, and NumPy's refusals
    of a first or second value outside the dtype (the later ones wrap, as
    NumPy's; they had wrapped silently from the first)."""
    try:
        want = np.arange(*args, **kw)
    except OverflowError as e:
        with pytest.raises(OverflowError, match=re.escape(str(e))):
            dt.arange(*args, **kw, device=device)
        return
    got = dt.arange(*args, **kw, device=device)
    assert got.dtype == want.dtype and got.tolist() == want.tolist()


def test_arange_beyond_64_bits_is_refused():
    with pytest.raises(TypeError, match="beyond 64 bits needs NumPy's object dtype"):
        dt.arange(2**64, 2**64 + 2)


def test_arange_keyword_step():
    assert_same(dt.arange(0, 10, step=4), np.arange(0, 10, step=4))


@pytest.mark.parametrize("kwargs", [dict(stop=5), dict(start=2, stop=5), dict(step=2, stop=7),
                                    dict(stop=2.5, step=0.5), dict(start=1, stop=9, step=3, dtype="float32")],
                         ids=repr)
def test_arange_keyword_bounds(kwargs, device):
    assert_same(dt.arange(**kwargs, device=device), np.arange(**kwargs))


@pytest.mark.parametrize("kwargs", [dict(start=5), {}, dict(step=2)], ids=repr)
def test_arange_needs_a_stop(kwargs):
    with pytest.raises(TypeError, match="requires stop"):
        dt.arange(**kwargs)
    with pytest.raises(TypeError, match="requires stop"):
        np.arange(**kwargs)


@pytest.mark.parametrize("args", [(0, 5, 0), (1, 2, 0.0)])
def test_arange_step_zero(args):
    with pytest.raises((ZeroDivisionError, ValueError)):
        dt.arange(*args)


@pytest.mark.parametrize("args,kw", [
    ((0, 1), {}), ((0, 1, 5), {}), ((0, 1, 5), dict(endpoint=False)), ((1, 0, 4), {}),
    ((2, 3, 1), {}), ((2, 3, 0), {}), ((0, 10), dict(num=11)), ((-5, 5, 7), {}),
    ((0, 1, 3), dict(endpoint=False)), ((1, 1, 4), {}),
], ids=repr)
def test_linspace(args, kw, device):
    expected = np.linspace(*args, **kw)
    t = dt.linspace(*args, **kw, device=device)
    assert t.dtype == expected.dtype and t.shape == expected.shape
    assert t.device == dt.device(device)
    np.testing.assert_allclose(to_np(t), expected, rtol=1e-14, atol=1e-15)
    if expected.size and kw.get("endpoint", True):
        assert to_np(t)[-1] == expected[-1]  # the endpoint is exact
    if expected.size:
        assert to_np(t)[0] == expected[0]


def test_linspace_dtype():
    assert_same(dt.linspace(0, 10, 6, dtype=dt.int32), np.linspace(0, 10, 6, dtype=np.int32))
    assert dt.linspace(0, 1, 3, dtype=dt.float32).dtype == dt.float32


def test_linspace_negative_num():
    with pytest.raises(ValueError):
        dt.linspace(0, 1, -1)


@pytest.mark.parametrize("args,kw", [
    ((3,), {}), ((0,), {}), ((1,), {}), ((2, 4), {}), ((4, 2), {}), ((3,), dict(k=1)),
    ((3,), dict(k=-2)), ((3, 5), dict(k=3)), ((3,), dict(k=5)), ((4, 3), dict(k=-1)),
], ids=repr)
def test_eye(args, kw, device):
    assert_same(dt.eye(*args, **kw, device=device), np.eye(*args, **kw), device=device)


def test_eye_m_keyword():
    assert_same(dt.eye(4, m=3, k=-1), np.eye(4, 3, k=-1))
    assert_same(dt.eye(2, m=None), np.eye(2))


def test_eye_dtype():
    assert_same(dt.eye(3, dtype=dt.int32), np.eye(3, dtype=np.int32))
    assert_same(dt.eye(2, dtype=bool), np.eye(2, dtype=bool))


# ------------------------------------------------------------------ attributes

@pytest.mark.parametrize("dtype", NUMPY_DTYPE_NAMES)
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3), (2, 3, 4), (1, 0, 5)], ids=repr)
def test_attributes_like_numpy(dtype, shape, device):
    a = np.zeros(shape, dtype=dtype)
    t = dt.zeros(shape, dtype=dtype, device=device)
    assert t.shape == a.shape and isinstance(t.shape, tuple)
    assert t.ndim == a.ndim
    assert t.size == a.size
    assert t.itemsize == a.itemsize
    assert t.nbytes == a.nbytes
    assert t.strides == a.strides and isinstance(t.strides, tuple)  # incl. NumPy 2's 0 strides
    assert t.dtype == a.dtype


def test_bfloat16_attributes():
    t = dt.zeros((3, 4), dtype=dt.bfloat16)
    assert t.itemsize == 2 and t.nbytes == 24 and t.strides == (8, 2)


def test_T_is_reversed_view():
    a = np.arange(24.0).reshape(2, 3, 4)
    t = dt.asarray(a)
    tt = t.T
    assert tt.shape == (4, 3, 2)
    assert tt.strides == a.T.strides
    assert_same(tt, a.T)
    n = tt.numpy()
    assert np.shares_memory(n, a)
    n[3, 2, 1] = -1.0
    assert a[1, 2, 3] == -1.0


def test_T_on_device(device):
    a = np.arange(6).reshape(2, 3)
    t = dt.asarray(a, device=device)
    assert_same(t.T, a.T, device=device)
    assert_same(dt.zeros(3, device=device).T, np.zeros(3))
    assert dt.zeros((), device=device).T.shape == ()


# ------------------------------------------------------------------ protocols

@pytest.mark.parametrize("value,dtype,pytype", [
    (3, "int64", int), (3, "uint8", int), (2.5, "float64", float), (2.5, "float32", float),
    (0.5, "float16", float), (True, "bool", bool), (1 + 2j, "complex128", complex),
    (1 - 2j, "complex64", complex), (2.0, "bfloat16", float),
])
def test_item(value, dtype, pytype, device):
    t = dt.tensor([value], dtype=dtype, device=device)
    v = t.item()
    assert type(v) is pytype
    assert v == value
    assert type(dt.tensor(value, dtype=dtype, device=device).item()) is pytype


def test_item_many_elements():
    with pytest.raises(ValueError, match="size 1"):
        dt.ones(2).item()


@pytest.mark.parametrize("dtype", NUMPY_DTYPE_NAMES)
def test_tolist_like_numpy(dtype, device):
    a = np.arange(12).reshape(3, 4).astype(dtype)
    t = dt.asarray(a, device=device)
    lst = t.tolist()
    assert lst == a.tolist()
    assert type(lst[0][0]) is type(a.tolist()[0][0])
    assert dt.tensor(5, dtype=dtype).tolist() == np.array(5, dtype=dtype).tolist()


def test_len(device):
    assert len(dt.zeros((3, 4), device=device)) == 3
    assert len(dt.zeros(0, device=device)) == 0
    with pytest.raises(TypeError, match="len\\(\\) of unsized object"):
        len(dt.zeros((), device=device))


def test_bool(device):
    assert bool(dt.tensor([1], device=device)) is True
    assert bool(dt.tensor([0.0], device=device)) is False
    assert bool(dt.tensor(2.0, device=device)) is True
    assert bool(dt.tensor([[False]], device=device)) is False
    assert bool(dt.tensor(1j, device=device)) is True
    with pytest.raises(ValueError, match=r"^The truth value of an array with more than one "
                                         r"element is ambiguous"):
        bool(dt.ones(2, device=device))


def test_bool_empty_like_numpy():
    with pytest.raises(ValueError):
        bool(np.zeros(0))
    with pytest.raises(ValueError):
        bool(dt.zeros(0))


def test_int_float(device):
    assert int(dt.tensor(2.7, device=device)) == 2
    assert float(dt.tensor(3, device=device)) == 3.0
    assert type(float(dt.tensor(3, device=device))) is float
    assert type(int(dt.tensor(3.0, device=device))) is int
    assert int(dt.tensor(2 ** 62, device=device)) == 2 ** 62
    assert int(dt.tensor(2 ** 64 - 1, dtype=dt.uint64, device=device)) == 2 ** 64 - 1
    with pytest.raises(TypeError):
        int(dt.ones(2, device=device))
    with pytest.raises(TypeError):
        float(dt.ones(3, device=device))


def test_index(device):
    t = dt.tensor(2, device=device)
    assert operator.index(t) == 2
    assert [10, 20, 30][t] == 30
    with pytest.raises(TypeError):
        operator.index(dt.tensor(2.0, device=device))
    with pytest.raises(TypeError):
        operator.index(dt.tensor([1, 2], device=device))
    with pytest.raises(TypeError):
        [1, 2][dt.tensor(0.0)]


def test_copy_is_independent(device):
    a = np.arange(4.0)
    t = dt.asarray(a, device=device)
    c = t.copy()
    assert c is not t
    assert_same(c, a, device=device)
    if device == "cpu":
        assert not np.shares_memory(c.numpy(), t.numpy())
        c.numpy()[0] = 5
        assert t.tolist()[0] == 0.0


@pytest.mark.parametrize("src", NUMPY_DTYPE_NAMES)
@pytest.mark.parametrize("dst", NUMPY_DTYPE_NAMES)
def test_astype_matches_numpy(src, dst):
    if np.dtype(src).kind == "c":
        a = np.array([0, 1.5 + 2j, -2.25 - 1j, 100.75 + 0.5j]).astype(src)
    elif np.dtype(src).kind == "f":
        a = np.array([0, 1.5, -2.75, 100.25, 3.999], dtype=src)
    elif np.dtype(src).kind == "b":
        a = np.array([True, False, True])
    else:
        a = np.array([0, 1, 7, 100, 127], dtype=src)
    if np.dtype(dst).kind == "u" and np.dtype(src).kind in "fc":
        a = abs(a)  # float->unsigned of negatives is undefined in C
    with np.errstate(all="ignore"), _nowarn():
        expected = a.astype(dst)
    t = dt.asarray(a)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = t.astype(dst)
        t.T.astype(dst, order="F")  # astype_general's path
    complex_dropped = a.dtype.kind == "c" and np.dtype(dst).kind != "c"
    kinds = [w.category for w in caught]
    assert kinds == ([np.exceptions.ComplexWarning] * 2 if complex_dropped else []), kinds  # NumPy's warning
    assert r is not t
    assert_same(r, expected)


class _nowarn:
    def __enter__(self):
        import warnings
        self._w = warnings.catch_warnings()
        self._w.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        return self._w.__exit__(*exc)


def test_astype_in_c_takes_every_dtype_spelling(device):
    """astype(dtype) answers dt.float32, float, 'f4', np.float32 and
    np.dtype('f4') in C as astype_general would (values, dtype, layout),
    and what is not a dtype gets astype_general's error."""
    from devtensor import _tensor
    sources = [dt.arange(6.0, device=device).reshape(2, 3), dt.arange(6, device=device).reshape(2, 3).T,
               dt.asarray([True, False], device=device), dt.asarray(2.5, device=device)]
    for t in sources:
        for d in (dt.float32, float, int, bool, complex, "f4", "int16", np.float32, np.dtype("u1"), dt.bfloat16,
                  "bfloat16"):
            got, want = t.astype(d), _tensor.astype_general(t, d)
            assert (got.dtype, got.shape, got.strides, got.device) == (want.dtype, want.shape, want.strides,
                                                                       want.device), (t, d)
            assert to_np(got.astype(dt.float64)).tolist() == to_np(want.astype(dt.float64)).tolist()
    for bad in ("no such dtype", object, "U3", None):
        try:
            want = _tensor.astype_general(sources[0], bad)
        except Exception as e:  # noqa: BLE001
            with pytest.raises(type(e)):
                sources[0].astype(bad)
        else:
            assert sources[0].astype(bad).dtype == want.dtype


def test_astype_same_dtype_is_new_tensor(device):
    t = dt.ones(3, device=device)
    r = t.astype(dt.float64)
    assert r is not t
    assert r.device == t.device
    assert r.tolist() == t.tolist()


def test_astype_keeps_device(device):
    t = dt.tensor([1.7, -1.7, 2.5], device=device)
    r = t.astype(dt.int32)
    assert r.device == t.device
    assert r.tolist() == [1, -1, 2]
    c = dt.tensor([1.5 + 9j], device=device).astype(dt.float64)
    assert c.tolist() == [1.5]


def test_astype_bfloat16_roundtrip(device):
    t = dt.tensor([1.0, 1.5, -256.0, 0.0078125], device=device)
    assert t.astype(dt.bfloat16).astype(dt.float64).tolist() == [1.0, 1.5, -256.0, 0.0078125]


# ---- Note [Conversions in C]: the direct paths keep every rule

def test_asarray_and_tensor_direct_paths_follow_the_default_device():
    a = np.arange(4.0)
    for dev in ["cpu"] + CUDA_DEVICES:
        with dt.device(dev):
            assert dt.asarray(a).device == dt.device(dev)
            assert dt.tensor([1.0, 2.0]).device == dt.device(dev)
            assert dt.tensor(3).device == dt.device(dev)


def test_asarray_of_a_tensor_already_right_is_the_tensor(device):
    """Note [Conversions in C]: the C path answers
    the keyword forms too, and every other form still copies or refuses."""
    t = dt.arange(6.0, device=device).reshape(2, 3)
    assert dt.asarray(t, dtype=t.dtype, device=t.device) is t
    assert dt.asarray(t, dtype=None, device=None, copy=None) is t
    assert dt.asarray(t, copy=False, device=dt.device(device)) is t
    assert dt.asarray(t, dtype="float64", device=device) is t  # the general path agrees
    for kwargs in (dict(copy=True), dict(dtype=dt.float32), dict(dtype=t.dtype, copy=True),
                   dict(device="cpu" if device != "cpu" else (CUDA_DEVICES or ["cpu"])[0])):
        u = dt.asarray(t, **kwargs)
        assert u is not t or (kwargs.get("device") == device), kwargs
        assert to_np(u).tolist() == to_np(t).tolist()
    with pytest.raises(ValueError, match="copy"):
        dt.asarray(t, dtype=dt.float32, copy=False)
    with pytest.raises(TypeError):
        dt.asarray(t, colour=1)


def _conversion_sources(device):
    """The sources Note [Conversions in C] answers, and some it hands on."""
    f = np.arange(6.0).reshape(2, 3)
    ro = np.arange(4, dtype=np.int32)
    ro.flags.writeable = False
    t = dt.arange(6.0, device=device).reshape(2, 3)
    return [f, f.T, f[:, ::2], ro, np.array([1 + 2j, 3j]), np.arange(3, dtype=np.uint8),
            np.arange(3).astype(">i8"), np.ma.masked_array([1.0, 2.0]), np.float32(2.5), np.int8(-3),
            [1, 2, 3], [[1.5, 2], [3, 4]], (True, False), [], 3.0, 7, True, 1j, 2 ** 63, 2 ** 70,
            [1, "a"], [[1], [2, 3]], t, t.T, dt.asarray([1, 2], device=device), dt.asarray(True, device=device)]


def _outcome(fn, obj, kwargs):
    """What a conversion gives: its type and message when it raises, else the
    result's dtype, shape, strides, device, values, flags and sharing."""
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            r = fn(obj, **kwargs)
        except Exception as e:  # the error must be the general function's
            return ("raises", type(e), str(e))
    host = to_np(r.astype(dt.float32) if r.dtype == dt.bfloat16 else r)
    shares = r is obj if isinstance(obj, dt.Tensor) else (
        isinstance(obj, np.ndarray) and r.device.type == "cpu" and r.dtype != dt.bfloat16 and np.shares_memory(np.asarray(r), obj))
    return (r.dtype, r.shape, r.strides, r.device, host.tolist(), r.flags.writeable, shares,
            sorted(str(w.category) for w in caught))


@pytest.mark.parametrize("name", ["asarray", "array", "tensor"])
def test_conversions_in_c_answer_as_the_general_functions(name, device):
    """Note [Conversions in C]: every call the C path answers gives what the
    general Python function gives (values, dtype, layout, sharing, flags,
    warnings, errors), for each kind of source, dtype spelling and copy."""
    from devtensor import _creation
    general = getattr(_creation, f"_{name}_general")
    fast = getattr(dt, name)
    dtypes = [None, dt.float32, dt.float64, dt.int64, dt.bool, dt.complex64, dt.bfloat16, float, int,
              complex, "float32", np.float64, np.dtype(np.int16), "no such dtype"]
    copies = [{}] if name == "tensor" else [{}, {"copy": None}, {"copy": True}, {"copy": False}]
    checked = 0
    for obj in _conversion_sources(device):
        for dtype in dtypes:
            for copy in copies:
                for kwargs in ({"dtype": dtype, **copy}, {"dtype": dtype, "device": None, **copy},
                               {"dtype": dtype, "device": device, **copy},
                               {"dtype": dtype, "device": dt.device("cpu"), **copy}):
                    want = _outcome(general, obj, kwargs)
                    assert _outcome(fast, obj, kwargs) == want, (name, obj, kwargs)
                    checked += 1
                if dtype is not None and not copy:  # the dtype by position
                    assert _outcome(lambda o, **k: fast(o, dtype), obj, {}) == \
                        _outcome(lambda o, **k: general(o, dtype), obj, {}), (name, obj, dtype)
    assert checked >= 1400
    for bad in ("cuda:99", "gpu", 3.5):  # devices that are not: the general function's errors
        assert _outcome(fast, [1.0], {"device": bad}) == _outcome(general, [1.0], {"device": bad})
        assert _outcome(fast, np.ones(2), {"device": bad})[0] == "raises"


def test_conversions_in_c_follow_the_default_device():
    """A device default other than the CPU: NumPy and Python data go there
    (the general path), tensors stay where they are."""
    for dev in CUDA_DEVICES:
        with dt.device(dev):
            assert dt.asarray(np.arange(3.0), dtype=dt.float32).device == dt.device(dev)
            assert dt.array([1, 2], dtype=float).device == dt.device(dev)
            t = dt.arange(3.0)  # on dev
            assert dt.asarray(t, dtype=float) is t
            c = dt.arange(3.0, device="cpu")
            assert dt.asarray(c, dtype=dt.float32).device == dt.device("cpu")


def test_asarray_of_an_array_shares_and_tensor_of_data_owns():
    a = np.arange(4.0)
    t = dt.asarray(a)
    a[0] = 9.0
    assert t.tolist()[0] == 9.0 and dt.asarray(t) is t
    lst = [1.0, 2.0]
    u = dt.tensor(lst)
    lst[0] = 5.0
    assert u.tolist() == [1.0, 2.0] and u.flags.writeable
    ro = np.arange(3)
    ro.flags.writeable = False
    assert not dt.asarray(ro).flags.writeable
    sub = np.arange(6).view(np.ndarray)[::2]  # a strided view: shared with its strides
    assert dt.asarray(sub).strides == sub.strides


@pytest.mark.parametrize("data, exc, words", [
    ([1, "a"], TypeError, "not numbers"), ([[1, 2], [3]], ValueError, "inhomogeneous shape"),
    ([2 ** 70], TypeError, "Python integer 1180591620717411303424 is out of bounds for int64 and uint64"), ([None], TypeError, "not numbers"),
])
def test_tensor_direct_path_errors(data, exc, words):
    with pytest.raises(exc, match=words):
        dt.tensor(data)


def test_array_of_python_data_and_missing_arguments():
    # array(list or tuple) alone is answered in C (py_array in
    # csrc/python/conversion.c): NumPy's values and dtypes, a copy
    for data in ([1, 2, 3], [[1.5, 2], [3, 4]], (True, False), [1 + 2j, 3], [], [[]], ([1, 2], [3, 4]),
                 [2**63 - 1, -1], [[1, 2.5], (3, 4)]):
        want = np.array(data)
        got = dt.array(data)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.numpy(), want)
    with pytest.raises(ValueError):
        dt.array([[1], [2, 3]])
    for f in ("array", "asarray", "tensor"):
        with pytest.raises(TypeError, match=rf"^{f}\(\) missing 1 required positional argument"):
            getattr(dt, f)()


def test_python_data_holding_device_tensors_lands_on_their_device(device):
    """Note [Tensors inside Python data]: np.asarray([x.sum(), x.max()]) and
    np.array([t1, t2]) build on the tensors' device (no trip through the
    host, so the transfer guard stays quiet), with NumPy's dtypes."""
    import numpy as np
    a = np.arange(4.0, dtype=np.float32)
    x = dt.asarray(a, device=device)
    cases = [
        (lambda m, v: m.asarray([v.sum(), v.max()]), None),
        (lambda m, v: m.array([v.sum(), 1.0]), None),
        (lambda m, v: m.asarray([v, v]), None),
        (lambda m, v: m.asarray((v[:2], [7, 8])), None),
        (lambda m, v: m.array([[v[0], 2], [3, v[1]]], dtype=m.int32), None),
        (lambda m, v: m.mean(m.asarray([v.sum(), v.max()])), None),
        (lambda m, v: m.array([v.sum(), True]), None),
    ]
    with dt.transfer_guard("disallow"):
        results = [(f(dt, x), f(np, a)) for f, _ in cases]
    for got, want in results:
        assert got.device == x.device
        assert got.dtype == dt.dtype(np.asarray(want).dtype.name), (got.dtype, np.asarray(want).dtype)
        np.testing.assert_array_equal(got.cpu().numpy(), want)
    assert dt.asarray([x.sum(), 1.0], device="cpu").device == dt.device("cpu")
    with pytest.raises(ValueError, match="(different shapes|inhomogeneous)"):
        dt.asarray([x, x[:2]])


@pytest.mark.skipif(len(CUDA_DEVICES) < 2, reason="needs two (emulated) CUDA devices")
def test_python_data_holding_tensors_of_two_devices_is_an_error():
    a, b = dt.ones(2, device=CUDA_DEVICES[0]), dt.ones(2, device=CUDA_DEVICES[1])
    for data in ([a, b], [[a.sum()], [b.sum()]], (a[0], 1.0, b[0])):
        with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
            dt.asarray(data)
        with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
            dt.array(data)


def test_zero_d_integer_tensors_are_sizes(device):
    """NumPy takes 0-d integer arrays as sizes: np.zeros(x.argmax()),
    np.arange(x.argmax()), np.ones((2, n))."""
    x = dt.arange(6.0, device=device)
    n = x.argmax()
    assert dt.zeros(n).shape == (5,) and dt.empty(n, device=device).shape == (5,)
    assert dt.ones((2, n)).shape == (2, 5) and dt.full(n, 1.0).shape == (5,)
    assert dt.arange(n).tolist() == [0, 1, 2, 3, 4] and dt.arange(1, n, dt.asarray(2)).tolist() == [1, 3]
    assert dt.arange(dt.asarray(2.5)).tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(TypeError):
        dt.zeros(dt.asarray(2.0))  # a float is no size, as in NumPy
    # and where NumPy code passes an element of an integer array as a shape
    k = dt.asarray([2, 3], device=device)
    v = dt.asarray([0.5, 1.5, 3.0], device=device)
    assert dt.resize(v, k[0]).tolist() == [0.5, 1.5] and dt.resize(v, (k[0], k[1])).shape == (2, 3)
    assert [int(i) for i in dt.unravel_index(2, k[1])] == [2] and int(dt.ravel_multi_index((1,), k[1])) == 1
    mvn = dt.random.default_rng(0).multivariate_normal([0, 0], [[1, 0], [0, 1]], size=k[0], device=device)
    assert mvn.shape == (2, 2)


def test_bfloat16_from_scalars_keeps_their_shape(device):
    import numpy as np
    for data in (3.0, np.float32(3), np.array(2.5), [[1.0, 2.0]], np.ones((2, 3)).T):
        t = dt.asarray(data, dtype=dt.bfloat16, device=device)
        assert t.shape == np.shape(data) and t.dtype == dt.bfloat16 and t.device == dt.device(device)
    assert dt.array(3.0, dtype=dt.bfloat16).shape == ()


def test_numpys_like_and_order_keywords(device):
    """NumPy's like= (NEP 35) puts a creation on the tensor's device; the
    *_like functions take NumPy's order= and subok= (positions included),
    eye its order=."""
    import numpy as np
    t = dt.ones((2, 3), device=device)
    for r in (dt.zeros(3, like=t), dt.ones((2,), like=t), dt.empty(2, like=t), dt.full(2, 7.0, like=t),
              dt.arange(4, like=t), dt.asarray([1, 2], like=t), dt.array([1, 2], like=t), dt.eye(2, like=t),
              dt.identity(2, like=t), dt.fromiter(range(3), dt.int64, like=t)):
        assert r.device == t.device
    assert dt.zeros(3, like=np.ones(2)).device == dt.device("cpu")
    assert dt.zeros(3, like=t, device="cpu").device == dt.device("cpu")
    f = dt.ones((2, 3), device=device).copy(order="F")
    for fn in (dt.zeros_like, dt.ones_like, dt.empty_like):
        assert fn(f).flags.f_contiguous and fn(f, order="C").flags.c_contiguous
        assert fn(t, dt.float32, "F", True).flags.f_contiguous and fn(t, subok=False).device == t.device
    assert dt.full_like(t, 2.0, order="F").flags.f_contiguous
    assert dt.eye(3, order="F").flags.f_contiguous and dt.eye(3).flags.c_contiguous
    with pytest.raises(ValueError, match="order must be one of"):
        dt.zeros_like(t, order="X")



def test_argument_errors_name_the_public_function():
    """The C factories' and methods' Python halves answer unknown keywords
    with the public name, not theirs (_zeros_general, astype_general)."""
    t = dt.ones(3)
    calls = [("zeros", lambda: dt.zeros(3, foo=1)), ("empty", lambda: dt.empty(3, foo=1)),
             ("ones", lambda: dt.ones(3, foo=1)), ("asarray", lambda: dt.asarray([1], foo=1)),
             ("array", lambda: dt.array([1], foo=1)), ("tensor", lambda: dt.tensor([1], foo=1)),
             ("arange", lambda: dt.arange(3, foo=1)), ("astype", lambda: t.astype("float32", foo=1)),
             ("cuda", lambda: t.cuda(foo=1)), ("reshape", lambda: t.reshape(3, foo=1))]
    for name, call in calls:
        with pytest.raises(TypeError, match=rf"^{name}\(\) got an unexpected keyword argument 'foo'$"):
            call()


@requires_devices(2)
def test_range_factories_take_the_device_of_0d_tensor_bounds():
    """arange, linspace, logspace and geomspace given 0-d tensors make their
    values on those tensors' device; a 0-d CPU tensor goes with a device
    one (as in operations); two devices are PyTorch's error."""
    g = dt.asarray([0.5, 2.0, 3.5], device="cuda:0")
    c = dt.arange(3.0)
    assert dt.arange(g.min(), g.max(), 0.5).device == dt.device("cuda:0")
    np.testing.assert_array_equal(to_np(dt.arange(g.min(), g.max(), 0.5)), np.arange(0.5, 3.5, 0.5))
    assert dt.arange(g[2]).device == dt.device("cuda:0") and dt.arange(c[1], 5).device == dt.device("cpu")
    assert dt.arange(g[0], 3, device="cpu").device == dt.device("cpu")  # device= wins
    for make in (lambda a, b: dt.linspace(a, b, 3), lambda a, b: dt.logspace(a, b, 3),
                 lambda a, b: dt.geomspace(a, b, 3), lambda a, b: dt.arange(a, b)):
        assert make(c[1], g[2]).device == dt.device("cuda:0")  # the CPU scalar goes with cuda:0
        with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
            make(g[0], dt.asarray(3.0, device="cuda:1"))
    np.testing.assert_allclose(to_np(dt.geomspace(c[1], g[2], 3)), np.geomspace(1.0, 3.5, 3), rtol=1e-15)
    dt.set_default_device("cuda:0")
    try:  # 0-d CPU bounds count as numbers: the default device; CPU arrays keep theirs
        assert dt.arange(dt.asarray(5, device="cpu")).device == dt.device("cuda:0")
        assert dt.linspace(dt.asarray(0.0, device="cpu"), 1, 3).device == dt.device("cuda:0")
        assert dt.linspace(dt.zeros(2, device="cpu"), 1, 3).device == dt.device("cpu")
    finally:
        dt.set_default_device("cpu")
