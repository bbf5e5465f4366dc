"""Python lists and tuples beside tensors are operands as in NumPy
(Note [Sequences as operands] in csrc/python/number.c): np.asarray(seq), a
strong operand with NumPy's dtypes, copied to the tensor's device."""
import operator

import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same

COMPARISONS = [operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge]
ARITHMETIC = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
              operator.mod, operator.pow]


def test_the_issue_examples():
    assert (dt.zeros(3) == [0, 0, 1]).tolist() == [True, True, False]
    assert (dt.zeros(3) != [0, 0, 1]).tolist() == [False, False, True]
    assert (dt.zeros(3) + [1, 2, 3]).tolist() == [1.0, 2.0, 3.0]


@pytest.mark.parametrize("op", COMPARISONS + ARITHMETIC, ids=lambda f: f.__name__)
@pytest.mark.parametrize("seq", [[1, 2, 3], (1.5, -2.0, 3.0), [True, False, True], [[1], [2]],
                                 [3]], ids=repr)
@pytest.mark.parametrize("dtype", ["float32", "int16", "bool"])
def test_operators_with_sequences_match_numpy(device, op, seq, dtype):
    a = np.array([2, 0, 3], dtype=dtype)
    t = dt.asarray(a, device=device)
    for left, right, np_left, np_right in ((t, seq, a, seq), (seq, t, seq, a)):
        try:
            with np.errstate(all="ignore"):
                expected = op(np_left, np_right)
        except Exception as e:  # NumPy refuses: so do we, with the same type
            with pytest.raises(type(e)):
                op(left, right)
            continue
        with np.errstate(all="ignore"):
            got = op(left, right)
        assert_same(got, expected, device=device, exact=False, rtol=1e-6)


def test_sequence_dtype_is_strong_like_numpy(device):
    t = dt.zeros(3, dtype=dt.float32, device=device)
    assert (t + [1, 2, 3]).dtype == dt.float64          # int64 list: float64, as NumPy
    assert (t + 1).dtype == dt.float32                  # a Python scalar stays weak
    i8 = dt.zeros(3, dtype=dt.int8, device=device)
    assert (i8 + [1, 2, 300]).tolist() == [1, 2, 300]   # the list is int64
    assert (i8 + [1, 2, 300]).dtype == dt.int64


def test_in_place_with_sequences(device):
    t = dt.zeros(3, device=device)
    t += [1, 2, 3]
    t *= (2, 2, 2)
    assert t.tolist() == [2.0, 4.0, 6.0]
    i = dt.zeros(3, dtype=dt.int32, device=device)
    with pytest.raises(TypeError, match="same_kind"):
        i += [0.5, 1, 2]


def test_functions_take_sequences(device):
    t = dt.arange(3.0, device=device)
    assert_same(dt.maximum(t, [2, 0, 5]), np.maximum(np.arange(3.0), [2, 0, 5]), device=device)
    assert_same(dt.where(t > 0, t, [9, 9, 9]), np.where(np.arange(3.0) > 0, np.arange(3.0),
                                                         [9, 9, 9]), device=device)


def test_bad_sequences():
    t = dt.zeros(3)
    with pytest.raises(ValueError, match="could not be broadcast"):
        t + [1, 2]
    with pytest.raises(ValueError, match="inhomogeneous"):
        t + [1, [2]]
    with pytest.raises(TypeError):
        t + ["a", "b", "c"]  # not numbers: not an operand (NotImplemented, then TypeError)
    assert (t == ["a", "b", "c"]) is False  # Python's fallback, as for any foreign object


def test_non_native_byte_order_operands(device):
    if device != "cpu":
        pytest.skip("NumPy arrays beside device tensors are refused (they are strong operands)")
    t = dt.ones(3)
    for dtype in (">f8", ">i4", "<f4", ">c16"):
        b = np.array([1.5], dtype)
        assert_same(t + b, np.ones(3) + b)
        assert_same(b * t, b * np.ones(3))


def test_a_0d_integer_repeats_a_sequence_as_numpys_scalars_do(device):
    """Note [A 0-d integer times a sequence]: a[0] and a.max() of an integer
    tensor stand in for NumPy's integer scalars, which repeat lists and
    tuples; other 0-d dtypes and other shapes multiply elementwise."""
    a = dt.asarray([2, 3], device=device)
    n = np.asarray([2, 3])
    for got, want in (([0] * a[0], [0] * n[0]), ((1,) * a.max(), (1,) * n.max()),
                      (a[1] * ["x"], n[1] * ["x"]), ([] * a[0], [] * n[0]),
                      ([1, 2] * dt.asarray(0, dtype=dt.uint8, device=device), [1, 2] * np.uint8(0))):
        assert type(got) is type(want) and got == want
    lst = [7]
    lst *= a[0]
    assert lst == [7, 7]
    assert_same(a * [1, 2], n * [1, 2])  # one axis: elementwise
    assert_same(dt.asarray(2.5, device=device) * [1, 2], np.asarray(2.5) * [1, 2])
    assert_same(dt.asarray(True, device=device) * [1, 2], np.asarray(True) * [1, 2])
    with pytest.raises(ValueError, match="non-broadcastable output"):
        t = dt.asarray(3, device=device)
        t *= [2]
