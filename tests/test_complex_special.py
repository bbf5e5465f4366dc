"""Complex functions at special values: C99 Annex G, with NumPy (glibc) as the oracle.

Every function runs over a table of all pairs of special parts (signed zeros,
subnormals, 1e-8, +-1, +-2, pi/2, values where exp overflows, the largest
finite magnitudes, infinities, NaN) for complex64 and complex128, on every
test device.  Per part: NaN where NumPy has NaN, infinities and zeros equal
with their sign, finite values within a few ulps.

Deliberate differences, left out below (see csrc/core/complex_math.h):
* complex64 transcendental functions compute in double and round once;
  where NumPy's float32 routines (glibc's ctanf, ctanhf) are a few ulps off
  we accept the correctly rounded value (NumPy's complex128 result rounded).
* csqrtf rounds twice in the float32 subnormal range (sqrt(0.5 + 1e-45j)
  has imaginary part 0 in NumPy, 1e-45 here).
* square is not in the table: NumPy's complex square and multiply use fused
  multiply-adds on CPUs with FMA only, so their last bits and overflow
  (NaN or -inf) depend on the machine.
* expm1 with an infinite or NaN real part is the array API standard's
  cexp(z) - 1 (Note [expm1 at infinite and NaN real parts]), where NumPy's
  formula gives NaN for inf * 0: the oracle there is NumPy's exp(z) - 1;
  and expm1(-0 + 0i) is the standard's +0 + 0i (NumPy's -0 + 0i).
"""
import math

import numpy as np
import pytest

import devtensor as dt
from helpers import to_np

FUNCS = ["sqrt", "exp", "expm1", "log", "log1p", "log2", "log10",
         "sin", "cos", "tan", "arcsin", "arccos", "arctan",
         "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh",
         "sign", "reciprocal"]
ULPS = {"complex128": 4, "complex64": 2}


def parts(dtype):
    if np.dtype(dtype) == np.complex128:
        big, small, tiny, ov = 1e300, 1e-300, 5e-324, 800.0
    else:
        big, small, tiny, ov = 1e38, 1e-38, 1e-45, 100.0
    return [0.0, -0.0, tiny, small, 1e-8, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 3.0,
            math.pi / 2, -math.pi / 2, math.pi, 20.0, -30.0, ov, -ov, big, -big,
            math.inf, -math.inf, math.nan]


def special_table(dtype):
    p = parts(dtype)
    return np.array([complex(r, i) for r in p for i in p], dtype=dtype)


def _ordered(a):
    """Floats as integers in the order of their values (adjacent floats differ by 1)."""
    a = np.asarray(a)
    i = a.view(np.int64 if a.dtype == np.float64 else np.int32).astype(np.int64)
    mask = np.int64(0x7FFFFFFFFFFFFFFF if a.dtype == np.float64 else 0x7FFFFFFF)
    return np.where(i < 0, -(i & mask), i)


def part_mismatch(g, e, ulps):
    """Boolean mask: g differs from e (real arrays) beyond `ulps`, or in a special value."""
    gn, en = np.isnan(g), np.isnan(e)
    special = np.isinf(e) | (e == 0)
    with np.errstate(invalid="ignore", over="ignore"):
        dist = np.abs(_ordered(g) - _ordered(e))
    exact = (g == e) & (np.signbit(g) == np.signbit(e))
    bad = np.where(en, ~gn, np.where(special, ~exact, gn | (dist > ulps)))
    return bad


def mismatch(got, expected, ulps):
    return part_mismatch(got.real, expected.real, ulps) | part_mismatch(got.imag, expected.imag, ulps)


def numpy_of(fname, x):
    with np.errstate(all="ignore"):
        if fname == "expm1":  # the standard's values where the real part is not finite, and at 0
            at_zero = np.zeros_like(x)  # +0 and the imaginary zero's sign
            at_zero.imag = x.imag
            zero = (x.real == 0) & (x.imag == 0)
            return np.where(zero, at_zero, np.where(np.isfinite(x.real), np.expm1(x),
                                                    np.exp(x) - 1)).astype(x.dtype)
        return getattr(np, fname)(x)


def run(fname, x, device):
    return to_np(getattr(dt, fname)(dt.asarray(np.array(x, copy=True), device=device)))


def describe(fname, x, got, expected, bad):
    rows = [f"{fname}({x[i]!r}) = {got[i]!r}, NumPy {expected[i]!r}" for i in np.flatnonzero(bad)[:10]]
    return f"{int(bad.sum())} of {len(x)} differ:\n" + "\n".join(rows)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("fname", FUNCS)
def test_special_value_table(fname, dtype, device):
    x = special_table(dtype)
    expected = numpy_of(fname, x)
    got = run(fname, x, device)
    assert got.dtype == expected.dtype
    bad = mismatch(got, expected, ULPS[dtype])
    if dtype == "complex64":
        if fname == "sqrt":  # csqrtf's double rounding in the subnormal range
            bad &= ~(np.abs(x.imag) < np.finfo(np.float32).tiny)
        # NumPy's float32 routine a few ulps off: accept the correctly rounded value
        with np.errstate(all="ignore"):
            rounded = numpy_of(fname, x.astype(np.complex128)).astype(np.complex64)
        finite = np.isfinite(expected) & np.isfinite(got)
        bad &= ~(finite & ~mismatch(got, rounded, 1))
    assert not bad.any(), describe(fname, x, got, expected, bad)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("fname", FUNCS)
def test_branch_cuts_and_unit_circle(fname, dtype, device):
    """Near the unit circle, the cuts on the axes and across magnitudes."""
    rng = np.random.default_rng(7)
    z = [np.exp(1j * rng.uniform(0, 2 * np.pi, 100)),
         rng.uniform(-3, 3, 100) + 1j * rng.choice([1e-20, -1e-20, 0.0, -0.0], 100),
         rng.choice([1e-20, -1e-20, 0.0, -0.0], 100) + 1j * rng.uniform(-3, 3, 100),
         rng.choice([1, -1], 100) * (1 + 10 ** rng.uniform(-15, -1, 100)) + 1j * 10 ** rng.uniform(-30, -1, 100),
         10 ** rng.uniform(-30, 30, 100) * np.exp(1j * rng.uniform(-np.pi, np.pi, 100))]
    x = np.concatenate(z).astype(dtype)
    expected = numpy_of(fname, x)
    got = run(fname, x, device)
    bad = mismatch(got, expected, ULPS[dtype])
    if dtype == "complex64":
        with np.errstate(all="ignore"):
            rounded = numpy_of(fname, x.astype(np.complex128)).astype(np.complex64)
        bad &= mismatch(got, rounded, 1)
    assert not bad.any(), describe(fname, x, got, expected, bad)


def test_table_catches_a_wrong_sign():
    """The comparison is strict: a flipped zero, an extra ulp budget or NaN-for-inf fail."""
    e = np.array([complex(1, 0), complex(math.inf, 0), complex(1.0, 2.0)])
    assert mismatch(np.array([complex(1, -0.0)]), e[:1], 4).all()
    assert mismatch(np.array([complex(math.nan, 0)]), e[1:2], 4).all()
    assert mismatch(np.array([complex(1.0, 2.0 + 5 * np.spacing(2.0))]), e[2:], 4).all()
    assert not mismatch(np.array([complex(1.0, np.nextafter(2.0, 3))]), e[2:], 4).any()


# ----------------------------------------------------------------------------- the examples

def one(fname, z, dtype, device):
    return complex(run(fname, np.array([z], dtype=dtype), device)[0])


def same(a, b):
    for p, q in ((a.real, b.real), (a.imag, b.imag)):
        if math.isnan(q):
            assert math.isnan(p), (a, b)
        else:
            assert p == pytest.approx(q, rel=1e-6) and math.copysign(1, p) == math.copysign(1, q), (a, b)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_cosh_inf_is_inf_plus_0j(dtype, device):
    got = one("cosh", complex(math.inf, 0.0), dtype, device)
    same(got, complex(math.inf, 0.0))
    same(complex(np.cosh(np.array([complex(math.inf, 0.0)], dtype))[0]), got)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_arccos_of_2_on_the_cut_has_negative_imaginary_part(dtype, device):
    got = one("arccos", complex(2.0, 0.0), dtype, device)
    same(got, complex(0.0, -1.3169578969248166))
    same(complex(np.arccos(np.array([2 + 0j], dtype))[0]), got)


@pytest.mark.parametrize("fname, expected", [
    ("arcsin", complex(0.7853981633974483, 691.8152486690535)),
    ("arccos", complex(0.7853981633974483, -691.8152486690535)),
    ("arcsinh", complex(691.8152486690535, 0.7853981633974483)),
])
def test_inverse_functions_do_not_overflow(fname, expected, device):
    z = complex(1e300, 1e300)
    got = one(fname, z, "complex128", device)
    same(got, expected)
    same(complex(getattr(np, fname)(np.array([z]))[0]), got)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_sign_of_imaginary_infinity_is_1j(dtype, device):
    z = complex(0.0, math.inf)
    got = one("sign", z, dtype, device)
    same(got, complex(0.0, 1.0))
    same(complex(np.sign(np.array([z], dtype))[0]), got)
    same(one("sign", complex(0.0, -math.inf), dtype, device), complex(0.0, -1.0))


def _correctly_rounded_hypot(x, y):
    """sqrt(x^2 + y^2) rounded once to 53 bits, from exact integers (a
    subnormal or float32 result rounds once more: off by an ulp at worst)."""
    from fractions import Fraction
    n = Fraction(x) ** 2 + Fraction(y) ** 2
    if n == 0:
        return 0.0
    k = (106 - n.numerator.bit_length() + n.denominator.bit_length()) // 2  # then exactly:
    while n * Fraction(4) ** k < 2 ** 106:  # 4^k n in [2^106, 2^108)
        k += 1
    while n * Fraction(4) ** k >= 2 ** 108:
        k -= 1
    m = n * Fraction(4) ** k
    r = math.isqrt(m.numerator // m.denominator)  # floor of the root, 54 bits
    q, odd = divmod(r, 2)
    if odd:  # the root lies at or above q + 1/2: up, or to even on a tie
        q += 1 if r * r != m or q % 2 else 0
    return math.ldexp(q, 1 - k)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_absolute(dtype, device):
    """|z| (Note [abs of complex128] in ops_math.h): NumPy's values at the
    special parts (inf beats NaN, signless zeros), within an ulp of the
    correctly rounded value across the exponent range, correctly rounded for
    all but a handful, and the same bits on every device."""
    x = special_table(dtype)
    with np.errstate(all="ignore"):
        expected = np.abs(x)
    got = run("absolute", x, device)
    assert got.dtype == expected.dtype
    bad = part_mismatch(got, expected, 1)
    assert not bad.any(), describe("absolute", x, got, expected, bad)

    rng = np.random.default_rng(3)
    lo, hi = (-1074, 1023) if dtype == "complex128" else (-149, 127)
    e = rng.integers(lo, hi, 2000)
    re = np.ldexp(rng.uniform(-2, 2, 2000), e)
    im = np.where(rng.random(2000) < 0.5, re * rng.uniform(-1.01, 1.01, 2000),
                  np.ldexp(rng.uniform(-2, 2, 2000), np.clip(e + rng.integers(-60, 60, 2000), lo, hi)))
    z = (re + 1j * im).astype(dtype)
    z = z[np.isfinite(z)]
    got = run("absolute", z, device)
    real = np.float64 if dtype == "complex128" else np.float32
    want = np.array([_correctly_rounded_hypot(float(v.real), float(v.imag)) for v in z]).astype(real)
    dist = np.abs(_ordered(got) - _ordered(want))
    assert dist.max() <= 1, z[np.argmax(dist)]
    assert (dist > 0).sum() <= len(z) // 200, (dist > 0).sum()
    if device != "cpu":
        np.testing.assert_array_equal(got, run("absolute", z, "cpu"))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_products_do_not_depend_on_where_an_element_sits(dtype, device):
    """Complex multiply, square and |z| give an element the same bits in a
    vector loop's body, its tail, a strided view and alone (Note [Complex
    products without fma] in scalar.h: GCC fused the vector body's products
    on AVX-512), and the plain (ac - bd, ad + bc) with each product rounded."""
    rng = np.random.default_rng(11)
    n = 1003
    a = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
    b = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
    ta, tb = dt.asarray(a, device=device), dt.asarray(b, device=device)
    real = a.real.dtype.type
    plain = np.array([complex(real(x.real * y.real) - real(x.imag * y.imag),
                              real(x.real * y.imag) + real(x.imag * y.real)) for x, y in zip(a, b)], dtype)
    whole = to_np(ta * tb)
    np.testing.assert_array_equal(whole, plain)
    np.testing.assert_array_equal(to_np(ta[::2] * tb[::2]), whole[::2])
    np.testing.assert_array_equal(to_np(ta[5:6] * tb[5:6]), whole[5:6])
    for name in ("square", "absolute"):
        f = getattr(dt, name)
        full = to_np(f(ta))
        np.testing.assert_array_equal(to_np(f(ta[::3])), full[::3])
        np.testing.assert_array_equal(to_np(f(ta[n - 3:])), full[n - 3:])
