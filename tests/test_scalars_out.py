"""Tensors as Python scalars: item(), int(), float(), complex(), bool() and
operator.index(), on every device and dtype, against NumPy's results and
errors (Note [Python scalars from tensors] in csrc/python/scalar_out.c)."""
import operator

import numpy as np
import pytest

import devtensor as dt
from helpers import NUMPY_DTYPE_NAMES

SPECIAL = {"f": [0.0, -0.0, 1.5, -2.75, np.inf, -np.inf, np.nan, 1e-45, 6e4],
           "c": [1 + 2j, -0.0 - 1j, complex(np.inf, np.nan)],
           "i": [0, 1, -1], "u": [0, 1], "b": [False, True]}


def _values(dtype):
    d = np.dtype(dtype)
    vals = list(SPECIAL[d.kind])
    if d.kind in "iu":
        info = np.iinfo(d)
        vals += [info.min, info.max]
    with np.errstate(all="ignore"):
        return np.array(vals).astype(d)


def _same(got, want):
    assert type(got) is type(want), (got, want)
    if isinstance(want, float) and np.isnan(want):
        assert np.isnan(got)
    elif isinstance(want, complex):
        assert np.array_equal(np.array(got), np.array(want), equal_nan=True), (got, want)
    else:
        assert got == want and (not isinstance(want, float) or np.copysign(1, got) == np.copysign(1, want))


def _outcome(f, x):
    try:
        return f(x), None
    except Exception as e:  # noqa: BLE001  (compared with devtensor's below)
        return None, e


@pytest.mark.parametrize("dtype", NUMPY_DTYPE_NAMES)
@pytest.mark.parametrize("shape", [(), (1,), (1, 1, 1)])
def test_one_element_matches_numpy(device, dtype, shape):
    for v in _values(dtype):
        a = np.full(shape, v)
        t = dt.asarray(a, device=device)
        _same(t.item(), a.item())
        for conv in (int, float, complex, bool, operator.index):
            want, np_err = _outcome(conv, a.item())  # Python's conversion of the element
            if conv is operator.index and np.dtype(dtype).kind not in "iu":
                want, np_err = None, TypeError()
            got, err = _outcome(conv, t)
            if np_err is not None:
                assert type(err) is type(np_err), (conv, v, err, np_err)
            else:
                assert err is None, (conv, v, err)
                _same(got, want)


def test_bfloat16_item_is_a_float(device):
    t = dt.asarray([1.5, -0.0], device=device).astype(dt.bfloat16)
    assert t[0].item() == 1.5 and type(t[0].item()) is float
    assert np.copysign(1, float(t[1])) == -1


@pytest.mark.parametrize("shape", [(0,), (2,), (2, 3), (0, 1)])
def test_not_one_element(device, shape):
    t, a = dt.zeros(shape, device=device), np.zeros(shape)
    with pytest.raises(ValueError) as np_err:
        a.item()
    with pytest.raises(ValueError) as err:
        t.item()
    assert str(err.value) == str(np_err.value)
    with pytest.raises(ValueError) as np_err:
        bool(a)
    with pytest.raises(ValueError) as err:
        bool(t)
    assert str(err.value) == str(np_err.value)
    for conv, kind in ((int, "int"), (float, "float"), (complex, "complex")):
        with pytest.raises(TypeError, match=f"only single-element tensors can be converted to Python {kind}s "
                                            rf"\(this one has {t.size} elements\)"):
            conv(t)
    with pytest.raises(TypeError, match="only integer tensors of a single element"):
        operator.index(dt.zeros(shape, dtype=dt.int64, device=device))


def test_index_in_python_sequences(device):
    i = dt.asarray(2, device=device)
    assert [10, 11, 12][i] == 12 and range(5)[i] == 2 and "abc"[i] == "c"
    with pytest.raises(TypeError):
        [1, 2][dt.asarray(1.0, device=device)]


@pytest.mark.parametrize("dtype", ["bool", "int32", "uint64", "float16", "float64", "complex64"])
def test_item_at_an_index_matches_numpy(device, dtype):
    """NumPy's item(*args): a flat index in C order (of any strides), one
    index per axis, or a tuple of them; NumPy's errors, and a transfer of
    the one element from a device."""
    a = np.arange(24).reshape(2, 3, 4).astype(dtype)
    t = dt.asarray(a, device=device)
    views = [(t, a), (t.transpose(2, 0, 1), a.transpose(2, 0, 1)), (t[:, ::-2, 1:], a[:, ::-2, 1:])]
    for tv, av in views:
        for args in [(0,), (5,), (-1,), (np.int64(7),), (1, 1, 1), ((1, 0, -1),), ((3,),)]:
            try:
                want = av.item(*args)
            except IndexError:
                continue  # a flat index past a view's size
            got = tv.item(*args)
            assert type(got) is type(want) and got == want, (args, got, want)
    one = dt.asarray(np.arange(3.0), device=device)
    assert one.item(2) == 2.0 and dt.asarray(7, device=device).item(0) == 7
    assert dt.asarray(7, device=device).item(()) == 7
    for args, exc, msg in [((24,), IndexError, "index 24 is out of bounds for size 24"),
                           ((1, 3, 0), IndexError, "index 3 is out of bounds for axis 1 with size 3"),
                           ((1, 2), ValueError, "incorrect number of indices for array"),
                           ((1.5,), TypeError, "'float' object cannot be interpreted as an integer")]:
        with pytest.raises(exc, match=msg):
            t.item(*args)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        one.item(3)
    with pytest.raises(ValueError, match="can only convert an array of size 1"):
        t.item()


def test_round_trunc_and_divmod_builtins(device):
    """round(), math.trunc() and divmod() as on NumPy's scalars (0-d
    results) and arrays: round and trunc refuse tensors of more dimensions,
    as ndarray has no __round__ or __trunc__."""
    import math
    s = dt.asarray(np.array([1.26, 2.5]), device=device).sum()
    want = np.array([1.26, 2.5]).sum()
    assert round(s) == round(want) and type(round(s)) is int
    r = round(s, 1)
    assert isinstance(r, dt.Tensor) and r.device == s.device and float(r) == float(round(want, 1))
    assert round(dt.asarray(2.5, device=device)) == 2 and math.trunc(dt.asarray(-2.7, device=device)) == -2
    for f in (round, math.trunc):
        with pytest.raises(TypeError, match="doesn't define"):
            f(dt.asarray([1.5], device=device))
    x = dt.asarray(np.array([7, -8]), device=device)
    for got, want in [(divmod(x, 3), divmod(np.array([7, -8]), 3)), (divmod(7, x), divmod(7, np.array([7, -8])))]:
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.cpu().numpy(), w)
