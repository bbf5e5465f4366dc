"""devtensor.testing (Note [Test assertions on tensors]): numpy.testing's assertions given tensors on every
device, also inside lists, tuples and dicts, pass and fail as NumPy's given the same data as NumPy arrays,
with NumPy's messages; the rest of numpy.testing is NumPy's as it is."""
import operator

import numpy as np
import numpy.testing as npt
import pytest

import devtensor as dt
import devtensor.testing as dtt


class Kw(dict):
    """Keyword arguments, last among a case's arguments."""


def maker(device):
    """make(values, dtype) for each side: a tensor on device, and the NumPy array it is compared as."""
    def tensor(values, dtype=None):
        t = dt.asarray(values, device=device)
        return t if dtype is None else t.astype(getattr(dt, dtype))

    def array(values, dtype=None):
        return np.asarray(values, dtype=np.float32 if dtype == "bfloat16" else dtype)
    return tensor, array


# (function, arguments given make, what NumPy does with them: "pass" or "fail")
CASES = [
    ("assert_equal", lambda m: (m([0, 1, 2]), [0, 1, 2]), "pass"),
    ("assert_equal", lambda m: (m([0, 1, 2]), m([0, 1, 2])), "pass"),
    ("assert_equal", lambda m: (m([0, 1, 2]), [0, 1, 3]), "fail"),
    ("assert_equal", lambda m: (m(3), 3), "pass"),
    ("assert_equal", lambda m: (m(3), m(4)), "fail"),
    ("assert_equal", lambda m: (m([np.nan, 1.0]), [np.nan, 1.0]), "pass"),
    ("assert_equal", lambda m: (m([1.5, 2.0], "bfloat16"), [1.5, 2.0]), "pass"),
    ("assert_equal", lambda m: (m([1.5, 2.0], "bfloat16"), [1.5, 2.5]), "fail"),
    ("assert_equal", lambda m: (m([1 + 2j, 3j]), [1 + 2j, 3j]), "pass"),
    ("assert_equal", lambda m: ({"a": m([0, 1]), "b": [m(2.0), (m([3]),)]}, {"a": [0, 1], "b": [2.0, ([3],)]}),
     "pass"),
    ("assert_equal", lambda m: ({"a": m([0, 1]), "b": [m(2.0), (m([3]),)]}, {"a": [0, 1], "b": [2.0, ([4],)]}),
     "fail"),
    ("assert_equal", lambda m: ([m([0, 1]), m(2)], (m([0, 1]), m(2))), "pass"),
    ("assert_almost_equal", lambda m: (m([0.0, 1.0, 2.0]), m([0.0, 1.0, 2.0])), "pass"),
    ("assert_almost_equal", lambda m: (m([0.0, 1.0, 2.0]), [0.0, 1.0, 2.0 + 1e-9]), "pass"),
    ("assert_almost_equal", lambda m: (m([0.0, 1.0, 2.0]), [0.0, 1.0, 2.001]), "fail"),
    ("assert_almost_equal", lambda m: (m(1.0), 1.001, 2), "pass"),
    ("assert_almost_equal", lambda m: ([m(1.0), m(2.0, "float32")], (1.0, 2.1)), "fail"),
    ("assert_approx_equal", lambda m: (m(3.0), 3.0000001), "pass"),
    ("assert_approx_equal", lambda m: (m(3.0, "bfloat16"), 3.1, 3), "fail"),
    ("assert_array_equal", lambda m: (m([[1, 2], [3, 4]]), [[1, 2], [3, 4]]), "pass"),
    ("assert_array_equal", lambda m: (m([[1, 2], [3, 4]]), m([[1, 2], [3, 5]])), "fail"),
    ("assert_array_equal", lambda m: (m([1, 2], "int32"), m([1, 2], "int64"), Kw(strict=True)), "fail"),
    ("assert_array_equal", lambda m: (m([1, 2], "int32"), m([1, 2], "int32"), Kw(strict=True)), "pass"),
    ("assert_array_equal", lambda m: (m([True, False]), [True, False]), "pass"),
    ("assert_array_almost_equal", lambda m: (m([1.0, 2.0], "float32"), [1.0000001, 2.0]), "pass"),
    ("assert_array_almost_equal", lambda m: (m([1.0, 2.0]), [1.1, 2.0]), "fail"),
    ("assert_array_almost_equal", lambda m: (m([1 + 1j]), m([1 + 1.5j])), "fail"),
    ("assert_array_less", lambda m: (m([1, 2, 3]), m([2, 3, 4])), "pass"),
    ("assert_array_less", lambda m: (m([1, 2, 3]), m([1, 2, 3])), "fail"),
    ("assert_allclose", lambda m: (m([1.0, 2.0]), [1.0, 2.0 + 1e-8]), "pass"),
    ("assert_allclose", lambda m: (m([1.0, 2.0], "bfloat16"), [1.0, 2.001], 1e-2), "pass"),
    ("assert_allclose", lambda m: (m([1.0, 2.0], "float32"), m([1.0, 2.1], "float32")), "fail"),
    ("assert_allclose", lambda m: (m(np.nan), np.nan), "pass"),
    ("assert_allclose", lambda m: (Kw(actual=[m(1.0), m(2.0)], desired=(m(1.0), 2.5), rtol=0.1),), "fail"),
    ("assert_array_almost_equal_nulp", lambda m: (m([1.0, 2.0]), m([1.0, 2.0])), "pass"),
    ("assert_array_almost_equal_nulp", lambda m: (m([1.0, 2.0]), m([1.0, 2.1])), "fail"),
    ("assert_array_max_ulp", lambda m: (m([1.0, 2.0], "float32"), m([1.0, 2.0], "float32")), "pass"),
    ("assert_array_max_ulp", lambda m: (m([1.0, 2.0], "float32"), m([1.0, 2.5], "float32")), "fail"),
    ("assert_array_compare", lambda m: (operator.__eq__, m([1, 2]), m([1, 2])), "pass"),
    ("assert_array_compare", lambda m: (operator.__eq__, m([1, 2]), m([1, 3])), "fail"),
    ("assert_", lambda m: (m(True),), "pass"),
    ("assert_", lambda m: (m([1]) == 2, "not two"), "fail"),
    ("assert_string_equal", lambda m: ("a\nb\n", "a\nb\n"), "pass"),
    ("assert_string_equal", lambda m: ("a\nb\n", "a\nc\n"), "fail"),
    ("build_err_msg", lambda m: ([m([1, 2]), m([1.5, 2.0])], "message", "Header:", True, ("A", "D")), "pass"),
    ("print_assert_equal", lambda m: ("test", [m(3)], [3]), "pass"),
    ("print_assert_equal", lambda m: ("test", [m(3)], [4]), "fail"),
]


def outcome(fn, args):
    kwargs = args[-1] if args and isinstance(args[-1], Kw) else {}
    try:
        return "pass", fn(*args[:len(args) - bool(kwargs)], **kwargs)
    except AssertionError as e:
        return "fail", str(e)


@pytest.mark.parametrize("name,args,expected", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_like_numpys_on_arrays(device, name, args, expected):
    """devtensor.testing's function given tensors does what NumPy's does given the same data as arrays."""
    tensor, array = maker(device)
    ours, numpys = outcome(getattr(dtt, name), args(tensor)), outcome(getattr(npt, name), args(array))
    assert numpys[0] == expected
    assert ours[0] == numpys[0], ours
    npt.assert_equal(ours[1], numpys[1])  # the message on a failure, the result otherwise


def test_what_numpys_own_got_wrong(device):
    """What NumPy's numpy.testing did with tensors: "truth value ... ambiguous", or failing equal values."""
    x = dt.arange(3, device=device)
    dtt.assert_equal(x, [0, 1, 2])
    dtt.assert_equal(x, x)
    dtt.assert_almost_equal(x * 1.0, x * 1.0)
    dtt.assert_equal(x.sum(), 3)
    dtt.assert_array_equal(x.sum(), 3)
    with pytest.raises(AssertionError, match="Arrays are not equal"):
        dtt.assert_equal(x.sum(), 4)
    with pytest.raises(AssertionError, match="Mismatched elements: 1 / 3"):
        dtt.assert_equal(x, [0, 1, 3])


def test_bfloat16_is_compared_as_float32(device):
    b = dt.asarray([0.1, 1.0], device=device).astype(dt.bfloat16)
    as_float32 = b.astype(dt.float32).cpu().numpy()
    assert as_float32[0] != np.float32(0.1)  # 0.1 rounded to bfloat16
    dtt.assert_array_equal(b, as_float32, strict=True)
    dtt.assert_allclose(b, [0.1, 1.0], rtol=1e-2)
    with pytest.raises(AssertionError, match="Arrays are not equal"):
        dtt.assert_array_equal(b, np.float32([0.1, 1.0]))


def test_device_data_is_read_explicitly(device):
    """An assertion reads device data to the host on purpose: allowed under transfer_guard("disallow")."""
    x = dt.arange(3.0, device=device)
    with dt.transfer_guard("disallow"):
        dtt.assert_equal({"x": [x]}, {"x": [[0, 1, 2]]})
        dtt.assert_allclose(x, x)
        with pytest.raises(AssertionError):
            dtt.assert_array_less(x, x)


def test_callables_get_their_arguments_untouched(device):
    """assert_raises(exc, f, *args) and the like call f with the tensors themselves."""
    x = dt.arange(3, device=device)

    def f(t):
        assert isinstance(t, dt.Tensor) and t.device == dt.device(device)
        raise ZeroDivisionError

    dtt.assert_raises(ZeroDivisionError, f, x)
    with dtt.assert_raises(ZeroDivisionError):
        f(x)
    assert dtt.assert_no_warnings(lambda t: t, x) is x


def test_names():
    import devtensor as np_
    from devtensor.testing import assert_equal, assert_raises, suppress_warnings
    assert np_.testing is dtt and assert_equal is dtt.assert_equal
    assert dtt.__all__ == npt.__all__
    for name in npt.__all__:  # every name of numpy.testing is here
        assert getattr(dtt, name) is not None
    assert assert_raises is npt.assert_raises and suppress_warnings is npt.suppress_warnings
    assert dtt.TestCase is npt.TestCase and dtt.overrides is npt.overrides and dtt.IS_PYPY is npt.IS_PYPY
    assert set(npt.__all__) <= set(dir(dtt))
    assert assert_equal.__module__ == "devtensor.testing" and assert_equal.__name__ == "assert_equal"
    assert assert_equal.__wrapped__ is npt.assert_equal and "Test assertions on tensors" in assert_equal.__doc__
    with pytest.raises(AttributeError, match="module 'devtensor.testing' has no attribute 'no_such'"):
        dtt.no_such
    with pytest.raises(AttributeError):
        dtt.__path__  # a module of its own, not numpy.testing's package
