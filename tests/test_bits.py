"""devtensor._bits against NumPy on every device: ldexp, frexp, spacing,
bitwise_count, packbits and unpackbits -- values bit for bit, dtypes,
shapes, NumPy's errors, and NumPy's ufuncs applied to tensors."""
import warnings

import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, same_error

FLOATS = ["float16", "float32", "float64"]


def T(a, device):
    return dt.asarray(np.asarray(a), device=device)


def specials(dtype):
    """Zeros, infinities, NaN, the extremes, subnormals, neighbours of powers
    of two (where an exponent computed from log2 rounds the wrong way) and
    random values over the whole range, all of dtype."""
    fi = np.finfo(dtype)
    rng = np.random.default_rng(0)
    with np.errstate(all="ignore"):
        powers = np.ldexp(np.ones(80), np.arange(-40, 40)).astype(dtype)
        neighbours = np.concatenate([np.nextafter(powers, np.zeros_like(powers)), powers,
                                     np.nextafter(powers, np.full_like(powers, np.inf))])
        scattered = (rng.standard_normal(300) * 10.0 ** rng.integers(-40, 40, 300)).astype(dtype)
    edge = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, fi.max, -fi.max, fi.tiny, -fi.tiny,
                     fi.smallest_subnormal, -fi.smallest_subnormal, 1.0, -1.0, 0.75, -3.0], dtype=dtype)
    return np.concatenate([edge, neighbours, scattered])


@pytest.mark.parametrize("dtype", FLOATS)
def test_frexp_matches_numpy_bit_for_bit(device, dtype):
    a = specials(dtype)
    m, e = dt.frexp(T(a, device))
    want_m, want_e = np.frexp(a)
    assert_same(m, want_m, device)
    assert_same(e, want_e, device)


@pytest.mark.parametrize("dtype", FLOATS)
def test_frexp_never_warns(device, dtype):
    """frexp raises no floating-point flag, so devtensor gives no warning
    and no FloatingPointError even where NumPy's errstate says raise (the
    CPU path calls NumPy's loop without its own errstate)."""
    a = specials(dtype)
    with warnings.catch_warnings(), np.errstate(all="raise"):
        warnings.simplefilter("error")
        m, e = dt.frexp(T(a, device))
    assert_same(m, np.frexp(a)[0], device)


def test_ldexp_never_warns_and_leaves_numpys_error_state(device):
    """Overflow and underflow give inf and 0 without a warning or a
    FloatingPointError (devtensor never warns), and NumPy's own error state
    is what it was afterwards (Note [NumPy's loops without NumPy's
    warnings]), even when the loop raises."""
    a = np.array([1e300, -1e300, 1e-300, 1.0])
    with warnings.catch_warnings(), np.errstate(all="raise"):
        warnings.simplefilter("error")
        before = np.geterr()
        got = dt.ldexp(T(a, device), 2000)
        assert np.geterr() == before
        with pytest.raises(TypeError):
            dt.ldexp(T(a, device), 1.5)
        assert np.geterr() == before
        with pytest.raises(FloatingPointError):  # NumPy's own calls still raise
            np.ldexp(a, 2000)
    with np.errstate(all="ignore"):
        assert_same(got, np.ldexp(a, 2000), device)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "uint16", "int32", "int64", "uint64"])
def test_frexp_of_integers_is_numpys_float_dtype(device, dtype):
    a = np.array([0, 1, 2, 3, 7, 100], dtype=np.int64).astype(dtype)
    m, e = dt.frexp(T(a, device))
    want_m, want_e = np.frexp(a)
    assert_same(m, want_m, device)
    assert_same(e, want_e, device)


def test_frexp_out_and_errors(device):
    a = np.array([3.0, 0.25])
    om, oe = dt.empty(2, device=device), dt.empty(2, dtype=dt.int32, device=device)
    r = dt.frexp(T(a, device), out=(om, oe))
    assert r[0] is om and r[1] is oe
    assert_same(om, np.frexp(a)[0])
    assert_same(oe, np.frexp(a)[1])
    same_error(lambda: np.frexp(np.array([1j])), lambda: dt.frexp(T([1j], device)))


@pytest.mark.parametrize("dtype", FLOATS)
def test_ldexp_matches_numpy_bit_for_bit(device, dtype):
    a = specials(dtype)
    n = np.array([0, 1, -1, 7, -30, 150, -150, 1100, -1100, 2200, -2200, 3, 2 ** 31 - 1, -2 ** 31])
    with np.errstate(all="ignore"):
        want = np.ldexp(a[:, None], n)
    assert_same(dt.ldexp(T(a[:, None], device), T(n, device)), want, device)
    for p in (5, -3, -2 ** 31):
        with np.errstate(all="ignore"):
            assert_same(dt.ldexp(T(a, device), p), np.ldexp(a, p), device)


@pytest.mark.parametrize("xdtype,ndtype", [("int8", "int64"), ("uint16", "int8"), ("int32", "uint32"),
                                           ("float32", "bool"), ("float16", "int16"), ("bool", "int32")])
def test_ldexp_dtypes(device, xdtype, ndtype):
    x = np.array([1, 3, 0, 5], dtype=np.int64).astype(xdtype)
    n = np.array([2, 0, 1, 1]).astype(ndtype)
    assert_same(dt.ldexp(T(x, device), T(n, device)), np.ldexp(x, n), device)


def test_ldexp_python_operands_and_errors(device):
    t = T([1.5, -2.0], device)
    assert_same(dt.ldexp(t, 3), np.ldexp(np.array([1.5, -2.0]), 3))
    assert_same(dt.ldexp(1.0, T(np.array([3], dtype=np.int8), device)), np.ldexp(1.0, np.array([3], np.int8)))
    assert_same(dt.ldexp(t.astype(dt.float32), T([1], device)),
                np.ldexp(np.array([1.5, -2.0], np.float32), np.array([1])))
    for bad in (T([1.0], device), T(np.array([1], np.uint64), device), T([1j], device)):
        same_error(lambda: np.ldexp(np.array([1.5]), np.asarray(bad.cpu())), lambda: dt.ldexp(t, bad))
    same_error(lambda: np.ldexp(np.array([1j]), 1), lambda: dt.ldexp(T([1j], device), 1))
    same_error(lambda: np.ldexp(np.array([1.5]), 2 ** 40), lambda: dt.ldexp(t, 2 ** 40))
    o = dt.empty(2, device=device)
    assert dt.ldexp(t, 1, out=o) is o
    assert o.tolist() == [3.0, -4.0]


@pytest.mark.parametrize("dtype", FLOATS)
def test_spacing_matches_numpy_bit_for_bit(device, dtype):
    a = specials(dtype)
    with np.errstate(all="ignore"):
        want = np.spacing(a)
    assert_same(dt.spacing(T(a, device)), want, device)


def test_spacing_of_integers_and_bfloat16(device):
    for dtype in ("int8", "int32", "uint16", "bool"):
        a = np.array([0, 1, 3]).astype(dtype)
        assert_same(dt.spacing(T(a, device)), np.spacing(a), device)
    # bfloat16 (NumPy has none): the ulp away from zero, with x's sign
    b = dt.asarray([1.0, -2.0, 0.0], dtype=dt.bfloat16, device=device)
    assert dt.spacing(b).astype(dt.float32).tolist() == [2.0 ** -7, -(2.0 ** -6), 2.0 ** -133]
    same_error(lambda: np.spacing(np.array([1j])), lambda: dt.spacing(T([1j], device)))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"])
def test_bitwise_count_every_integer_dtype(device, dtype):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(3)
    a = np.concatenate([np.array([0, 1, info.max, info.min, info.min + 1 if info.min else 2, 5], dtype=dtype),
                        rng.integers(info.min, info.max, 200, dtype=dtype, endpoint=True)])
    assert_same(dt.bitwise_count(T(a, device)), np.bitwise_count(a), device)


def test_bitwise_count_bool_and_errors(device):
    a = np.array([True, False])
    assert_same(dt.bitwise_count(T(a, device)), np.bitwise_count(a), device)
    same_error(lambda: np.bitwise_count(np.array([1.0])), lambda: dt.bitwise_count(T([1.0], device)))


def test_bitwise_count_is_a_ufunc(device):
    """bitwise_count is a core op (uint8 out): where=, out=, dtype=uint8, a
    strided operand, at() and NumPy's ufunc on a tensor, NumPy's refusals."""
    a = np.array([[7, -3, 255], [0, -128, 1023]], dtype=np.int16)
    w = np.array([True, False, True])
    t = T(a, device)
    out, want = T(np.zeros((2, 3), np.uint8), device), np.zeros((2, 3), np.uint8)
    np.bitwise_count(a, where=w, out=want)
    assert dt.bitwise_count(t, where=T(w, device), out=out) is out
    assert_same(out, want, device)
    assert_same(np.bitwise_count(t[:, ::-2]), np.bitwise_count(a[:, ::-2]), device)
    assert_same(dt.bitwise_count(t, dtype=np.uint8), np.bitwise_count(a, dtype=np.uint8), device)
    u = T(a, device)
    np.bitwise_count.at(u, ([0, 1], [0, 2]))  # (NumPy 2.4's own at() counts 2 bits in 7 here)
    b = a.copy()
    b[0, 0], b[1, 2] = 3, 10
    assert_same(u, b, device)
    for call in (lambda m, x: m.bitwise_count(x, dtype=m.int16), lambda m, x: m.bitwise_count.reduce(x),
                 lambda m, x: m.bitwise_count(x.astype(m.float32))):
        same_error(lambda: call(np, a), lambda: call(dt, t))


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits(device, axis, bitorder):
    rng = np.random.default_rng(4)
    for a in (rng.integers(0, 2, (3, 13)).astype(bool), rng.integers(-2, 3, (3, 16)).astype(np.int16),
              np.zeros((2, 0), dtype=np.uint8)):
        assert_same(dt.packbits(T(a, device), axis=axis, bitorder=bitorder),
                    np.packbits(a, axis=axis, bitorder=bitorder), device)


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("bitorder", ["big", "little"])
@pytest.mark.parametrize("count", [None, 0, 3, -3, 40, -40])
def test_unpackbits(device, axis, bitorder, count):
    a = np.random.default_rng(5).integers(0, 256, (3, 5)).astype(np.uint8)
    if axis == 0 and count == -40:  # more than the 24 bits there are: NumPy's ValueError
        same_error(lambda: np.unpackbits(a, axis=axis, count=count, bitorder=bitorder),
                   lambda: dt.unpackbits(T(a, device), axis=axis, count=count, bitorder=bitorder))
        return
    assert_same(dt.unpackbits(T(a, device), axis=axis, count=count, bitorder=bitorder),
                np.unpackbits(a, axis=axis, count=count, bitorder=bitorder), device)


def test_packbits_round_trip_and_errors(device):
    a = np.array([1, 0, 1, 1, 0, 0, 0, 1, 1], dtype=np.uint8)
    packed = dt.packbits(T(a, device))
    assert_same(dt.unpackbits(packed, count=9), a, device)
    assert_same(dt.packbits(T(np.array(True), device)), np.packbits(np.array(True)))
    assert_same(dt.unpackbits(T(np.array(np.uint8(5)), device), axis=0), np.unpackbits(np.array(np.uint8(5)), axis=0))
    u = np.arange(6, dtype=np.uint8).reshape(2, 3)
    for np_call, dt_call in [
        (lambda: np.packbits(np.ones(3)), lambda: dt.packbits(T(np.ones(3), device))),
        (lambda: np.unpackbits(np.ones(3, np.int8)), lambda: dt.unpackbits(T(np.ones(3, np.int8), device))),
        (lambda: np.packbits(u, axis=2), lambda: dt.packbits(T(u, device), axis=2)),
        (lambda: np.packbits(u, bitorder="mid"), lambda: dt.packbits(T(u, device), bitorder="mid")),
        (lambda: np.unpackbits(u, count=-49), lambda: dt.unpackbits(T(u, device), count=-49)),
    ]:
        same_error(np_call, dt_call)


def test_numpys_ufuncs_reach_them(device):
    t = T([8.0, 0.375], device)
    m, e = np.frexp(t)
    assert isinstance(m, dt.Tensor) and m.device == dt.device(device)
    assert m.tolist() == [0.5, 0.75] and e.tolist() == [4, -1]
    assert np.ldexp(t, 2).tolist() == [32.0, 1.5]
    assert np.spacing(t).device == dt.device(device)
    assert np.bitwise_count(T([7, -8], device)).tolist() == [3, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_same(np.packbits(T([1, 1], device)), np.array([192], dtype=np.uint8), device)


def test_function_ufuncs_have_numpys_attributes_and_outer(device):
    """ldexp, frexp, spacing, divmod, modf and float_power are functions of the
    core ufuncs with NumPy's nin, nout, nargs and identity, and outer for two
    inputs (also through NumPy's ufunc methods); bitwise_count is a core
    ufunc with NumPy's attributes."""
    for name in ("ldexp", "frexp", "spacing", "bitwise_count", "divmod", "modf", "float_power"):
        ours, numpys = getattr(dt, name), getattr(np, name)
        assert (ours.nin, ours.nout, ours.nargs, ours.identity, ours.__name__) == \
            (numpys.nin, numpys.nout, numpys.nargs, numpys.identity, numpys.__name__)
        assert hasattr(ours, "outer") == (numpys.nin == 2) or isinstance(ours, dt._C.ufunc)
    a, n = np.array([0.5, 1.5, -2.0]), np.array([1, -3])
    for got in (dt.ldexp.outer(T(a, device), T(n, device)), np.ldexp.outer(T(a, device), T(n, device))):
        assert_same(got, np.ldexp.outer(a, n), device)
    assert_same(dt.float_power.outer(T(a, device), T(n, device)), np.float_power.outer(a, n), device)
    q, r = dt.divmod.outer(T(a, device), T([2.0, 0.5], device))
    wq, wr = np.divmod.outer(a, [2.0, 0.5])
    assert_same(q, wq, device)
    assert_same(r, wr, device)
