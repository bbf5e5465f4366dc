"""NumPy's rules for storing Python and NumPy scalars (Note [Storing a float in an
integer] in csrc/python/number.c) on every setitem path, fill and full: the
same exception type and message as NumPy, or NumPy's value; nothing written
when it raises."""
import warnings

import numpy as np
import pytest

import devtensor as dt
from helpers import to_np

INF, NAN = float("inf"), float("nan")

# (dtype, value): a table beyond the issue's examples
CASES = [(d, v) for d in ("int8", "int32", "uint8", "uint64", "int64")
         for v in (NAN, INF, -INF, 2.7, -2.7, -0.5, -1.5, 255.9, 3e9, 1.8e19, 9.3e18, -1, 300,
                   2**64, 1j, 1 + 0j, True, np.float64(NAN), np.float32(INF), np.float64(2.5),
                   np.int64(-1), np.complex128(1j))]
CASES += [(d, v) for d in ("float16", "float32", "float64", "bool", "complex64")
          for v in (NAN, INF, 1e300, 1j, 2 + 3j, -1, 2**70, 10**400, True, np.complex128(1j))]


def numpy_store(dtype, value, how):
    """NumPy's outcome: ('ok', array) or ('raise', exception)."""
    a = np.zeros(3, dtype=dtype)
    if isinstance(value, np.floating) and a.dtype.kind in "iu":
        # NumPy stores a NumPy float scalar by int() into a signed element through
        # basic indexing, but casts it unsafely into an unsigned one (NaN gives 0
        # or 2**63, -1.5 gives 255) and through advanced indexing; devtensor applies
        # int()'s rule on every path, as for Python floats
        value = float(value)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if how == "basic":
                a[1] = value
            elif how == "slice":
                a[:2] = value
            elif how == "advanced":
                a[[0, 1]] = value
            elif how in ("fill", "full"):
                # np.full casts unsafely (inf into int8 is garbage, with a
                # RuntimeWarning); the issue asks full to follow setitem's rules,
                # which are ndarray.fill's
                a.fill(value)
    except Exception as e:
        return "raise", e
    return "ok", a


def dt_store(t, value, how):
    """Store value into the zeros t as `how` says (full: a new tensor); returns it."""
    if how == "full":
        return dt.full(3, value, dtype=t.dtype, device=t.device)
    if how == "basic":
        t[1] = value
    elif how == "slice":
        t[:2] = value
    elif how == "advanced":
        t[[0, 1]] = value
    else:
        t[...] = value
    return t


@pytest.mark.parametrize("how", ["basic", "slice", "advanced", "fill", "full"])
@pytest.mark.parametrize("dtype,value", CASES, ids=[f"{d}-{v!r}" for d, v in CASES])
def test_scalar_store_matches_numpy(device, how, dtype, value):
    if how == "advanced" and device != "cpu":
        pytest.skip("advanced indexing on devices is issue 9")
    kind, expected = numpy_store(dtype, value, how)
    if kind == "raise":
        t = dt.zeros(3, dtype=dtype, device=device)
        with pytest.raises(type(expected)) as info:
            dt_store(t, value, how)
        if type(expected) is not OverflowError or "out of bounds" in str(expected):
            assert str(info.value) == str(expected) or _same_meaning(info.value, expected)
        assert to_np(t).tolist() == [0, 0, 0]  # nothing written
        return
    got = dt_store(dt.zeros(3, dtype=dtype, device=device), value, how)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(to_np(got), expected.astype(dtype))


def _same_meaning(got, expected):
    """NumPy words some messages after the C type (C long); ours name the dtype."""
    return type(got) is type(expected) and ("out of bounds" in str(got) or
                                            "too large" in str(got))


def test_the_issue_examples():
    t = dt.zeros(3, dtype=dt.int32)
    with pytest.raises(ValueError, match="cannot convert float NaN to integer"):
        t[[0, 1]] = float("nan")
    with pytest.raises(OverflowError, match="Python integer -1 out of bounds for uint8"):
        dt.zeros(3, dtype=dt.uint8)[0] = -1
    with pytest.raises(OverflowError, match="cannot convert float infinity to integer"):
        t[0] = float("inf")
    with pytest.raises(TypeError, match="not 'complex'"):
        dt.zeros(3)[0] = 1j
    assert t.tolist() == [0, 0, 0]


def test_arrays_cast_unsafely_as_numpy(device):
    t = dt.zeros(3, dtype=dt.int32, device=device)
    t[:] = dt.tensor([1.9, -1.9, 2.5], device=device)
    assert t.tolist() == [1, -1, 2]
    u = dt.zeros(2, dtype=dt.uint8, device=device)
    u[...] = np.int64(-1)  # a NumPy integer casts (NumPy: 255)
    assert u.tolist() == [255, 255]
