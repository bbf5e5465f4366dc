"""Binary arithmetic and comparisons: NumPy broadcasting, NumPy 2 promotion (NEP 50),
values against NumPy, device rules."""
import operator
import warnings

import numpy as np
import pytest

import devtensor as dt
from helpers import (CUDA_DEVICES, NUMPY_DTYPE_NAMES, given, hnp, requires_cuda,
                     requires_devices, same_error, st, stable_repr, to_np)

ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}
CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
       ">": operator.gt, ">=": operator.ge}
ALL_OPS = {**ARITH, **CMP}


def np_ref(op, a, b):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return op(a, b)


def check(got, expected, device):
    expected = np.asarray(expected)
    assert isinstance(got, dt.Tensor)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape
    assert got.device == dt.device(device)
    g = to_np(got)
    if expected.dtype.kind in "biu":
        np.testing.assert_array_equal(g, expected, strict=True)
    elif expected.dtype.kind == "c":
        np.testing.assert_allclose(g, expected, rtol=1e-5 if expected.dtype == np.complex64
                                   else 1e-13, atol=0, equal_nan=True)
    else:
        # IEEE + - * / are correctly rounded: results are exact (nan == nan)
        np.testing.assert_array_equal(g, expected, strict=True)


# ------------------------------------------------------------------ hypothesis: tensor op tensor

FAST_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
               "uint64", "float16", "float32", "float64", "complex64", "complex128"]


def elements_for(dtype):
    d = np.dtype(dtype)
    if d.kind == "f":
        return hnp.from_dtype(d, allow_nan=True, allow_infinity=True, allow_subnormal=True)
    if d.kind == "c":
        # moderate magnitudes: complex * and / formulas may legitimately differ near overflow
        part = st.floats(-1e6, 1e6, width=32 if d.itemsize == 8 else 64)
        return st.builds(complex, part, part)
    return hnp.from_dtype(d)


@st.composite
def operand_pair(draw, same_dtype=False):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4,
                                                    max_side=4))
    da = draw(st.sampled_from(FAST_DTYPES))
    db = da if same_dtype else draw(st.sampled_from(FAST_DTYPES))
    a = draw(hnp.arrays(da, shapes.input_shapes[0], elements=elements_for(da)))
    b = draw(hnp.arrays(db, shapes.input_shapes[1], elements=elements_for(db)))
    return a, b


def _run_pair(sym, a, b, device):
    op = ALL_OPS[sym]
    try:
        expected = np_ref(op, a, b)
    except TypeError as e:  # e.g. bool - bool
        with pytest.raises(TypeError):
            op(dt.asarray(a, device=device), dt.asarray(b, device=device))
        return e
    got = op(dt.asarray(a, device=device), dt.asarray(b, device=device))
    check(got, expected, device)


@given(pair=operand_pair(same_dtype=True), sym=st.sampled_from(list(ALL_OPS)))
def test_same_dtype_vs_numpy(pair, sym, device):
    _run_pair(sym, *pair, device)


@given(pair=operand_pair(), sym=st.sampled_from(["+", "*", "==", "<"]))
def test_mixed_dtype_vs_numpy(pair, sym, device):
    _run_pair(sym, *pair, device)


@given(pair=operand_pair(), sym=st.sampled_from(["-", "/", "!=", ">="]))
def test_mixed_dtype_vs_numpy_cpu(pair, sym):
    _run_pair(sym, *pair, "cpu")


@pytest.mark.parametrize("da", NUMPY_DTYPE_NAMES)
@pytest.mark.parametrize("db", NUMPY_DTYPE_NAMES)
def test_promotion_table(da, db):
    a = np.ones(2, dtype=da)
    b = np.ones(2, dtype=db)
    got = dt.asarray(a) * dt.asarray(b)
    assert got.dtype == np.result_type(a, b)
    assert (dt.asarray(a) == dt.asarray(b)).dtype == dt.bool


# ------------------------------------------------------------------ Python scalars (NEP 50)

SCALARS = [0, 1, -1, 7, 2.5, -0.5, True, False, 1.5 + 2j, 1e10, 300, -300, 2 ** 63, 1e300]


@pytest.mark.parametrize("dtype", NUMPY_DTYPE_NAMES)
@pytest.mark.parametrize("scalar", SCALARS, ids=stable_repr)
@pytest.mark.parametrize("sym", list(ALL_OPS))
def test_scalar_ops_vs_numpy(dtype, scalar, sym):
    op = ALL_OPS[sym]
    a = np.array([0, 1, 3, 100, 127], dtype=dtype) if dtype != "bool" else \
        np.array([True, False, True])
    t = dt.asarray(a)
    for left, right, tl, tr in ((a, scalar, t, scalar), (scalar, a, scalar, t)):
        try:
            expected = np_ref(op, left, right)
        except (TypeError, OverflowError) as e:
            if isinstance(e, OverflowError) and sym in CMP and dtype == "bool":
                # NumPy quirk: bool array == 2**63 overflows converting to int64; the exact
                # answer (comparing the values) is accepted as well as NumPy's error
                try:
                    got = op(tl, tr)
                except OverflowError:
                    continue
                exact = np.array([op(x, y) for x, y in np.broadcast(np.asarray(left, object),
                                                                      np.asarray(right, object))])
                check(got, exact, "cpu")
                continue
            with pytest.raises(type(e)):
                op(tl, tr)
            continue
        check(op(tl, tr), expected, "cpu")


@pytest.mark.parametrize("sym", list(ALL_OPS))
def test_scalar_ops_on_device(sym, device):
    op = ALL_OPS[sym]
    a = np.array([[1.5, -2.0], [0.0, 4.0]], dtype=np.float32)
    t = dt.asarray(a, device=device)
    for s in (2, 0.5, True):
        check(op(t, s), np_ref(op, a, s), device)
        check(op(s, t), np_ref(op, s, a), device)


def test_nep50_examples():
    i8 = dt.tensor([1, 2], dtype=dt.int8)
    assert (i8 + 1).dtype == dt.int8
    assert (1 + i8).dtype == dt.int8
    assert (i8 + 1.5).dtype == dt.float64
    assert (i8 * True).dtype == dt.int8
    assert (i8 + 1j).dtype == dt.complex128
    f32 = dt.tensor([1.0], dtype=dt.float32)
    assert (f32 + 1.0).dtype == dt.float32
    assert (f32 + 1).dtype == dt.float32
    assert (f32 + 1j).dtype == dt.complex64
    assert (dt.tensor([True]) + 1).dtype == dt.int64
    assert (dt.tensor([True]) + 1.5).dtype == dt.float64
    u8 = dt.tensor([200], dtype=dt.uint8)
    assert (u8 + 100).tolist() == [44]  # wraps like NumPy
    assert (dt.tensor([1, 2]) / 2).dtype == dt.float64
    assert (dt.tensor([1, 2], dtype=dt.int8) / dt.tensor([2], dtype=dt.int8)).dtype == dt.float64
    assert (dt.tensor([1, 2], dtype=dt.int16) / 2).tolist() == [0.5, 1.0]


@pytest.mark.parametrize("dtype,value", [("int8", 300), ("int8", -129), ("uint8", -1),
                                         ("uint8", 256), ("int16", 2 ** 15), ("uint64", -1),
                                         ("int32", 2 ** 40)])
def test_out_of_bounds_python_int(dtype, value):
    t = dt.tensor([1, 2], dtype=dtype)
    with pytest.raises(OverflowError) as ei:
        t + value
    assert str(value) in str(ei.value) and dtype in str(ei.value)
    with pytest.raises(OverflowError):
        value * t


def test_int64_plus_huge_python_int():
    with pytest.raises(OverflowError):
        dt.tensor([1]) + 2 ** 63
    with pytest.raises(OverflowError):
        dt.tensor([1]) + 2 ** 64


def test_int_true_division():
    a = np.array([1, 2, -3, 0], dtype=np.int32)
    b = np.array([2, 0, 2, 0], dtype=np.int32)
    check(dt.asarray(a) / dt.asarray(b), np_ref(operator.truediv, a, b), "cpu")
    check(dt.asarray(a) / 0, np_ref(operator.truediv, a, 0), "cpu")


def test_float_division_by_zero():
    a = np.array([1.0, -1.0, 0.0])
    check(dt.asarray(a) / 0.0, np_ref(operator.truediv, a, 0.0), "cpu")


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("den", [complex(-0.0, 0.0), complex(0.0, -0.0), complex(-0.0, -0.0),
                                 complex(0.0, 0.0)], ids=stable_repr)
def test_complex_division_by_signed_zero(dtype, den):
    # NumPy divides by |0| here: (1+1j) / (-0+0j) == inf+infj
    a = np.array([1 + 1j, 1 - 2j, -3 + 0j, 0j], dtype=dtype)
    b = np.full(4, den, dtype=dtype)
    check(dt.asarray(a) / dt.asarray(b), np_ref(operator.truediv, a, b), "cpu")


def test_complex_divided_by_negative_zero_real():
    a = np.array([1 + 1j], dtype=np.complex64)
    b = np.array([-0.0], dtype=np.float32)
    check(dt.asarray(a) / dt.asarray(b), np_ref(operator.truediv, a, b), "cpu")


def test_int64_uint64_mixed_exact_comparisons():
    a = np.array([2 ** 63 - 1, -1, 0, 2 ** 53 + 1], dtype=np.int64)
    b = np.array([2 ** 63, 2 ** 64 - 1, 0, 2 ** 53], dtype=np.uint64)
    for sym, op in CMP.items():
        check(op(dt.asarray(a), dt.asarray(b)), op(a, b), "cpu")
        check(op(dt.asarray(b), dt.asarray(a)), op(b, a), "cpu")
    check(dt.asarray(a) + dt.asarray(b), a + b, "cpu")  # float64, like NumPy


def test_large_int64_vs_python_int_comparisons():
    a = np.array([2 ** 63 - 1, 2 ** 53 + 1, -(2 ** 63)], dtype=np.int64)
    for s in (2 ** 63 - 1, 2 ** 53, 2 ** 63, -(2 ** 63) - 1, 2 ** 53 + 1):
        for sym, op in CMP.items():
            check(op(dt.asarray(a), s), np_ref(op, a, s), "cpu")


def test_bool_arithmetic():
    a = np.array([True, True, False, False])
    b = np.array([True, False, True, False])
    ta, tb = dt.asarray(a), dt.asarray(b)
    check(ta + tb, a + b, "cpu")
    check(ta * tb, a * b, "cpu")
    check(ta / tb, np_ref(operator.truediv, a, b), "cpu")
    with pytest.raises(TypeError, match="boolean subtract"):
        ta - tb
    with pytest.raises(TypeError):
        ta - True
    with pytest.raises(TypeError):
        True - ta


# ------------------------------------------------------------------ broadcasting

def test_broadcast_error_message():
    with pytest.raises(ValueError) as ei:
        dt.ones((2, 3)) + dt.ones(4)
    assert str(ei.value).strip() == "operands could not be broadcast together with shapes (2,3) (4,)"
    with pytest.raises(ValueError) as ei:
        dt.ones((5, 1, 2)) < dt.ones((3, 3))
    assert str(ei.value).strip() == \
        "operands could not be broadcast together with shapes (5,1,2) (3,3)"


@pytest.mark.parametrize("sa,sb", [((2, 3), (3,)), ((4, 1), (1, 5)), ((), (2, 2)), ((0,), (1,)),
                                   ((2, 0, 3), (1, 3)), ((1,), ()), ((3, 1, 1), (2, 1))])
def test_broadcast_shapes(sa, sb, device):
    a = np.arange(int(np.prod(sa))).reshape(sa).astype(np.float64)
    b = np.arange(int(np.prod(sb))).reshape(sb).astype(np.float64) + 1
    check(dt.asarray(a, device=device) - dt.asarray(b, device=device), a - b, device)
    check(dt.asarray(b, device=device) - dt.asarray(a, device=device), b - a, device)


def test_non_contiguous_operands(device):
    a = np.arange(24.0).reshape(4, 6)[::-1, ::2]
    b = np.arange(12.0).reshape(3, 4).T
    check(dt.asarray(a, device=device) * dt.asarray(b, device=device), a * b, device)


def test_results_are_new_tensors(device):
    x = dt.ones(3, device=device)
    y = x + 0
    assert y is not x
    assert x.tolist() == [1.0, 1.0, 1.0]


def test_bfloat16_ops():
    a = dt.tensor([1.0, 2.0, 3.0], dtype=dt.bfloat16)
    b = dt.tensor([0.5, 0.25, 8.0], dtype=dt.bfloat16)
    s = a + b
    assert s.dtype == dt.bfloat16
    assert s.astype(dt.float32).tolist() == [1.5, 2.25, 11.0]
    assert (a * 2).dtype == dt.bfloat16
    assert (a * 2.5).dtype == dt.bfloat16
    assert (a + dt.tensor([1.0], dtype=dt.float32)).dtype == dt.float32
    assert (a + dt.tensor([1.0], dtype=dt.float64)).dtype == dt.float64
    assert (a + dt.tensor([1.0], dtype=dt.float16)).dtype == dt.float32
    assert (a == b).dtype == dt.bool
    assert (a < b).tolist() == [False, False, True]
    # rounding: 1 + 2**-9 is not representable in bfloat16 -> round to nearest even (1.0)
    one = dt.tensor([1.0], dtype=dt.bfloat16)
    assert (one + 2.0 ** -9).astype(dt.float64).tolist() == [1.0]
    assert (one + 2.0 ** -7).astype(dt.float64).tolist() == [1.0 + 2.0 ** -7]


@given(a=hnp.arrays(np.float32, hnp.array_shapes(max_dims=2, max_side=5),
                    elements=st.floats(-1000, 1000, width=32)),
       sym=st.sampled_from(["+", "-", "*"]))
def test_bfloat16_close_to_float32(a, sym):
    op = ARITH[sym]
    t = dt.asarray(a).astype(dt.bfloat16)
    ref = t.astype(dt.float32)
    got = op(t, t).astype(dt.float32)
    exp = op(to_np(ref), to_np(ref))
    np.testing.assert_allclose(to_np(got), exp, rtol=2 ** -8, atol=1e-30)


# ------------------------------------------------------------------ NumPy operands

@pytest.mark.parametrize("sym", list(ALL_OPS))
def test_with_numpy_array_operands(sym):
    op = ALL_OPS[sym]
    a = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int32)
    b = np.array([2.5, 0.5, -1.0])
    t = dt.asarray(a)
    r1 = op(t, b)
    r2 = op(b, t)
    assert isinstance(r1, dt.Tensor), type(r1)
    assert isinstance(r2, dt.Tensor), type(r2)
    check(r1, np_ref(op, a, b), "cpu")
    check(r2, np_ref(op, b, a), "cpu")


def test_with_numpy_scalars():
    t = dt.tensor([1, 2], dtype=dt.int8)
    # NumPy scalars are not weak: they promote like 0-d arrays
    assert (t + np.int16(1)).dtype == dt.int16
    assert (t + np.float32(1)).dtype == dt.float32
    r = np.int16(1) + t
    assert isinstance(r, dt.Tensor) and r.dtype == dt.int16


def test_cuda_tensor_with_numpy_array(device):
    if device == "cpu":
        pytest.skip("cpu")
    t = dt.ones(3, device=device)
    a = np.ones(3)
    for f in (lambda: t + a, lambda: a + t):
        with pytest.raises((RuntimeError, TypeError)) as ei:
            f()
        msg = str(ei.value)
        assert device in msg or "cuda" in msg, msg
        assert "asarray" in msg or ".to(" in msg or ".cpu()" in msg or ".cuda(" in msg, msg


# ------------------------------------------------------------------ device rules

SAME_DEVICE_MSG = ("Expected all tensors to be on the same device, but found at least two "
                   "devices, {} and {}!")


@requires_cuda
@pytest.mark.parametrize("sym", list(ALL_OPS))
def test_cross_device_error_cpu(sym):
    op = ALL_OPS[sym]
    X = dt.ones(2, 3, device="cuda:0")
    Y = dt.ones(2, 3)
    with pytest.raises(RuntimeError) as ei:
        op(X, Y)
    assert str(ei.value) == SAME_DEVICE_MSG.format("cuda:0", "cpu")
    with pytest.raises(RuntimeError) as ei:
        op(Y, X)
    assert str(ei.value) == SAME_DEVICE_MSG.format("cpu", "cuda:0")


@requires_devices(2)
def test_cross_device_error_two_gpus():
    X = dt.ones(2, 3, device="cuda:0")
    Y = dt.ones(2, 3, device="cuda:1")
    with pytest.raises(RuntimeError) as ei:
        X + Y
    assert str(ei.value) == SAME_DEVICE_MSG.format("cuda:0", "cuda:1")
    with pytest.raises(RuntimeError) as ei:
        Y * X
    assert str(ei.value) == SAME_DEVICE_MSG.format("cuda:1", "cuda:0")


@requires_cuda
def test_cross_device_error_checked_before_broadcast():
    X = dt.ones(2, 3, device="cuda:0")
    Y = dt.ones(4)
    with pytest.raises(RuntimeError, match="same device"):
        X + Y


@requires_cuda
def test_scalar_takes_tensor_device():
    X = dt.ones(2, device=CUDA_DEVICES[-1] if CUDA_DEVICES else "cuda:0")
    assert (X + 1).device == X.device
    assert (2.5 * X).device == X.device
    assert (X < 3).device == X.device


@pytest.mark.parametrize("bad", ["a", None, object(), [1, "a"]], ids=stable_repr)
def test_unsupported_operand(bad):
    t = dt.ones(2)
    with pytest.raises(TypeError):
        t + bad
    with pytest.raises(TypeError):
        bad * t
    assert (t + 1).tolist() == [2.0, 2.0]


def test_zero_d_cpu_tensors_go_with_tensors_on_any_device(device):
    """Note [0-d CPU tensors as scalars]: np.sqrt(2) with `import devtensor as
    np` is a 0-d CPU tensor; beside a device tensor it acts as a scalar of
    its (strong) dtype, as in PyTorch, in ufuncs, where, clip and setitem."""
    x = dt.ones(3, dtype=dt.float32, device=device)
    for s in (dt.sqrt(dt.asarray(252.0)), dt.asarray(2, dtype=dt.int8), dt.asarray(2.0, dtype=dt.float32),
              dt.asarray(1 + 2j, dtype=dt.complex64), dt.asarray(True)):
        want = np.ones(3, np.float32) * s.numpy()
        for got in (x * s, s * x, dt.multiply(x, s)):
            assert got.device == x.device and got.dtype == dt.dtype(want.dtype.name)
            np.testing.assert_array_equal(got.cpu().numpy(), want)
    got = dt.where(x > 0, dt.exp(dt.asarray(1.0)), x)
    assert got.device == x.device and got.dtype == dt.float64
    assert dt.clip(x, dt.asarray(1.5), 3).device == x.device
    x[0] = dt.sqrt(dt.asarray(16.0))
    x[1:] = dt.asarray(7, dtype=dt.int64)
    assert x.tolist() == [4.0, 7.0, 7.0] and x.dtype == dt.float32
    o = dt.empty((), device=device)
    assert dt.add(dt.asarray(1.0), dt.asarray(2.0), out=o) is o and o.item() == 3.0
    if device != "cpu":  # a 1-element CPU tensor that is not 0-d is still an error
        with pytest.raises(RuntimeError, match="same device"):
            x + dt.ones(1)
        h = dt.ones(1)
        h[0] = dt.asarray(5.0, device=device)  # assignment is copy_ (Note [Values from another device])
        assert h.device == dt.device("cpu") and h.tolist() == [5.0]


def test_functions_of_several_operands_follow_the_tensors_device(device):
    """devtensor/_operands.py: data (lists) goes to the tensors' device in
    every function of several operands, 0-d CPU tensors go along, and a
    tensor on another device is PyTorch's error, never moved silently."""
    x = dt.arange(5.0, device=device)
    for r in (dt.digitize(x, [0, 2]), dt.searchsorted([0, 2, 4], x), dt.isin(x, [1, 2]),
              dt.interp(x, [0, 4], [0, 1]), dt.linalg.solve([[2.0, 0.0], [0.0, 2.0]], x[:2]),
              dt.linalg.lstsq([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], x[:3])[0], dt.linalg.multi_dot([[[1.0]], x[None, :1]]),
              dt.polyval([1.0, 2.0], x), dt.convolve([1.0, 1.0], x), dt.searchsorted(x, dt.asarray(2.5))):
        assert r.device == x.device
    assert dt.digitize(x, [0, 2]).tolist() == [1, 1, 2, 2, 2]
    if device != "cpu":
        cpu = dt.asarray([0.0, 2.0])
        for f in (lambda: dt.digitize(x, cpu), lambda: dt.searchsorted(cpu, x), lambda: dt.polyval(cpu, x),
                  lambda: dt.linalg.solve(dt.eye(2), x[:2])):
            with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
                f()


def test_numpy_scalars_are_strong_and_go_to_any_device(device):
    """NumPy scalars keep their dtype (NEP 50: strong) and, unlike NumPy arrays,
    combine with tensors on any device (passed by value, as in PyTorch)."""
    x = dt.ones(3, dtype=dt.float32, device=device)
    for s, expected in ((np.float32(2), np.float32), (np.float64(2), np.float64),
                        (np.int16(2), np.float32), (np.complex64(2), np.complex64)):
        got = x * s
        assert got.device == x.device and got.dtype == np.result_type(np.float32, expected)
        np.testing.assert_array_equal(got.cpu().numpy(), np.ones(3, np.float32) * s)
    i8 = dt.ones(2, dtype=dt.int8, device=device)
    assert (i8 + np.int16(3)).dtype == dt.int16


def test_zero_d_arrays_go_by_value_to_any_device(device):
    """A 0-d NumPy array combines with a tensor on any device, as a NumPy
    scalar does (np.float64(1.5) < t hands NumPy's ufunc a 0-d array), with
    its strong dtype; a 1-d array beside a device tensor is still refused."""
    x = dt.asarray([1.0, 2.0], device=device).astype(dt.float32)
    for op in (operator.lt, operator.ge, operator.eq, operator.add, operator.mul):
        for s in (np.float64(1.5), np.array(1.5), np.array(2, dtype=np.int8)):
            got = op(s, x)
            want = op(s, np.array([1.0, 2.0], dtype=np.float32))
            assert got.device == x.device and got.dtype == want.dtype, (op, s)
            np.testing.assert_array_equal(got.cpu().numpy(), want)
    if device != "cpu":
        with pytest.raises(RuntimeError, match="found a NumPy array"):
            np.ones(2) < x


def test_numpy_arrays_alone_go_to_the_default_device(device):
    """dt.add(array, array) with no tensor: every array goes to the default
    device (before, only the first did, and a CUDA default refused the
    second); NumPy's values."""
    a, b = np.arange(4.0), np.ones(4)
    with dt.device(device):
        for name in ("add", "hypot", "maximum", "arctan2"):
            got = getattr(dt, name)(a, b)
            assert got.device == dt.device(device)
            # hypot and arctan2 are libmvec's on the CPU: within 4 ulp of NumPy's (README)
            np.testing.assert_allclose(got.cpu().numpy(), getattr(np, name)(a, b), rtol=1e-15, atol=0)
        got = dt.where(a > 1, a, 0)
        assert got.device == dt.device(device) and got.cpu().numpy().tolist() == [0, 0, 2, 3]
        assert dt.add(a, [1, 2, 3, 4]).device == dt.device(device)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128", "int64"])
@pytest.mark.parametrize("exponent", [2, -1, 0.5, 2.0])
def test_fast_scalar_powers_are_numpys(device, dtype, exponent):
    """Note [Fast scalar powers]: ** 2, ** -1, ** 2.0 and ** 0.5 of float and
    complex tensors are square, reciprocal and sqrt, as NumPy's; in place too."""
    vals = np.array([-0.0, 0.0, -np.inf, np.inf, np.nan, -2.5, 3.0, 1e30, 1e-30, 7.0])
    if dtype == "int64":
        if not isinstance(exponent, int) or exponent < 0:
            pytest.skip("integer powers take the integer loop")
        vals = np.arange(-4, 6)
    a = vals.astype(dtype)
    with np.errstate(all="ignore"):
        want = a ** exponent
        got = dt.asarray(a, device=device) ** exponent
        inplace = dt.asarray(a, device=device)
        if np.result_type(a, exponent) == a.dtype:
            inplace **= exponent
            np.testing.assert_array_equal(inplace.cpu().numpy(), want)
    assert got.dtype == dt.dtype(str(want.dtype))
    np.testing.assert_array_equal(got.cpu().numpy(), want)


def test_bool_powers_are_numpys(device):
    """A bool tensor ** 2 is NumPy's square (int8); other exponents are power."""
    b = np.array([True, False])
    t = dt.asarray(b, device=device)
    for e in (2, 3, 0, 2.0, 0.5, True):
        got, want = t ** e, b ** e
        assert got.dtype == dt.dtype(str(want.dtype)) and to_np(got).tolist() == want.tolist(), e
    same_error(lambda: np.power(b, -1), lambda: t ** -1)
    c = t.copy()
    with pytest.raises(TypeError, match="Cannot cast ufunc 'square' output from dtype\\('int8'\\)"):
        c **= 2


def test_bool_tensors_against_python_ints(device):
    """Note [Bools against 0 and 1]: 0 and 1 compare in the bool loop, other
    ints in NumPy's int64; every comparison and logical op gives NumPy's
    answer, the scalar on either side."""
    import operator as o
    b = np.array([True, False, True, False])
    t = dt.asarray(b, device=device)
    for op in (o.eq, o.ne, o.lt, o.le, o.gt, o.ge, dt.logical_and, dt.logical_or, dt.logical_xor):
        for v in (0, 1, 2, -1, True, False):
            for got, want in ((op(t, v), op(b, v)), (op(v, t), op(v, b))):
                assert got.dtype == dt.bool and got.device == t.device
                np.testing.assert_array_equal(got.cpu().numpy(), want)
