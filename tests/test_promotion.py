"""Type promotion and dtype introspection against NumPy 2 (NEP 50) as the oracle.

result_type, promote_types, can_cast, finfo, iinfo, isdtype: every NumPy-representable dtype,
every pair, every casting mode, weak Python scalars, bfloat16's own rules, and error types.
Loops collect every mismatch into one assertion, so a failure lists all of them.
"""
import itertools

import numpy as np
import pytest

import devtensor as dt
from helpers import ALL_DTYPE_NAMES, NUMPY_DTYPE_NAMES

CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]
WEAK_SCALARS = [True, 1, 1.0, 1j]
KIND_NAMES = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
              "complex floating", "numeric"]
INFO_FIELDS = ["bits", "eps", "epsneg", "max", "min", "tiny", "smallest_normal",
               "smallest_subnormal", "resolution", "precision", "iexp", "machep", "maxexp",
               "minexp", "negep", "nexp", "nmant"]
FLOAT_NAMES = [n for n in NUMPY_DTYPE_NAMES if np.dtype(n).kind in "fc"]
INT_NAMES = [n for n in NUMPY_DTYPE_NAMES if np.dtype(n).kind in "iu"]


def as_dt(spec):
    """A devtensor dtype for a name; Python scalars unchanged."""
    return getattr(dt, spec) if isinstance(spec, str) else spec


def as_np(spec):
    """A NumPy dtype for a name; Python scalars unchanged."""
    return np.dtype(spec) if isinstance(spec, str) else spec


def check_result_types(combos):
    """Mismatches of dt.result_type with np.result_type over argument tuples."""
    return [(c, dt.result_type(*map(as_dt, c)), np.result_type(*map(as_np, c)))
            for c in combos if dt.result_type(*map(as_dt, c)) != np.result_type(*map(as_np, c))]


def bf16_of(np_dtype):
    """NumPy's float16 result with float16 read as bfloat16 (bfloat16's 'like float16' rule)."""
    return dt.bfloat16 if np_dtype == np.float16 else dt.dtype(np_dtype)


# ---------------------------------------------------------------- promote_types / result_type

@pytest.mark.parametrize("a", NUMPY_DTYPE_NAMES)
def test_promote_types_every_pair(a):
    bad = [(a, b) for b in NUMPY_DTYPE_NAMES
           if dt.promote_types(getattr(dt, a), getattr(dt, b)) != np.promote_types(a, b)]
    assert not bad


@pytest.mark.parametrize("a", NUMPY_DTYPE_NAMES)
def test_result_type_every_pair(a):
    assert not check_result_types((a, b) for b in NUMPY_DTYPE_NAMES)


def test_result_type_every_triple():
    # NumPy's result_type is not a left fold: (int8, uint8, float16) -> float16, while
    # promote_types(promote_types(int8, uint8), float16) is float32.
    assert not check_result_types(itertools.product(NUMPY_DTYPE_NAMES, repeat=3))
    assert dt.result_type(dt.int8, dt.uint8, dt.float16) == dt.float16


def test_result_type_longer_sequences():
    rng = np.random.default_rng(0)
    pool = NUMPY_DTYPE_NAMES + WEAK_SCALARS
    combos = [tuple(pool[i] for i in rng.integers(len(pool), size=rng.integers(4, 8)))
              for _ in range(2000)]
    assert not check_result_types(combos)


@pytest.mark.parametrize("a", NUMPY_DTYPE_NAMES)
def test_result_type_weak_scalars(a):
    # Every strong dtype with every ordered choice of one or two weak scalars, in any position.
    weak = [w for k in (1, 2) for w in itertools.permutations(WEAK_SCALARS, k)]
    combos = [c for w in weak for c in ((a, *w), (*w, a))]
    combos += [(a, b, w) for b in NUMPY_DTYPE_NAMES for w in WEAK_SCALARS]
    assert not check_result_types(combos)


def test_result_type_weak_scalars_only_matter_by_kind():
    assert dt.result_type(dt.int8, 1) == dt.int8
    assert dt.result_type(dt.int8, 1000) == dt.int8  # NEP 50: no value-based promotion
    assert dt.result_type(dt.int8, 1.0) == dt.float64
    assert dt.result_type(dt.float32, 1.0) == dt.float32
    assert dt.result_type(dt.float32, 1j) == dt.complex64
    assert dt.result_type(dt.bool, 1) == dt.int64


def test_result_type_all_weak_uses_numpy_defaults():
    combos = [c for k in (1, 2, 3) for c in itertools.product(WEAK_SCALARS, repeat=k)]
    assert not check_result_types(combos)
    assert dt.result_type(1, 2.0) == dt.float64


@pytest.mark.parametrize("arg", [
    dt.ones(2, dtype=dt.int16), np.ones(2, np.int16), np.int16(1), np.array(1, np.int16),
    "int16", np.int16, np.dtype("int16"), dt.int16,
], ids=["tensor", "ndarray", "np-scalar", "0d-array", "name", "np-type", "np-dtype", "dtype"])
def test_result_type_argument_forms_are_strong(arg):
    # Tensors, arrays (0-d included), NumPy scalars and dtype-likes are all strong.
    assert dt.result_type(arg, dt.int8) == dt.int16
    assert dt.result_type(arg, 1) == dt.int16
    assert dt.result_type(arg, 1.0) == np.result_type(np.int16, 1.0)
    assert isinstance(dt.result_type(arg), dt.dtype)


def test_result_type_python_types_are_strong():
    assert dt.result_type(float, dt.float32) == dt.float64
    assert dt.result_type(int, dt.int8) == dt.int64


def test_result_type_errors():
    with pytest.raises(ValueError, match="at least one array or dtype is required"):
        dt.result_type()
    with pytest.raises(TypeError):
        dt.result_type(dt.int8, "not-a-dtype")
    with pytest.raises(TypeError):
        dt.result_type(object())
    with pytest.raises(TypeError):
        dt.promote_types(dt.int8, "not-a-dtype")


def test_promote_types_accepts_dtype_likes():
    assert dt.promote_types("int8", np.uint8) == dt.int16
    assert dt.promote_types(np.dtype("float32"), float) == dt.float64
    assert isinstance(dt.promote_types("int8", "int8"), dt.dtype)


# ---------------------------------------------------------------- bfloat16

@pytest.mark.parametrize("other", NUMPY_DTYPE_NAMES)
def test_bfloat16_promotes_like_float16(other):
    # bfloat16 with int8/uint8/bool -> bfloat16, with float16 -> float32, else float16's rule.
    expected = dt.float32 if other == "float16" else bf16_of(np.promote_types("float16", other))
    o = getattr(dt, other)
    assert dt.promote_types(dt.bfloat16, o) == expected
    assert dt.promote_types(o, dt.bfloat16) == expected
    assert dt.result_type(dt.bfloat16, o) == expected


def test_bfloat16_explicit_rules():
    assert dt.promote_types(dt.bfloat16, dt.int8) == dt.bfloat16
    assert dt.promote_types(dt.bfloat16, dt.uint8) == dt.bfloat16
    assert dt.promote_types(dt.bfloat16, dt.float16) == dt.float32
    assert dt.promote_types(dt.bfloat16, dt.bfloat16) == dt.bfloat16
    assert dt.result_type(dt.bfloat16, dt.float16, dt.int8) == dt.float32


@pytest.mark.parametrize("scalar", WEAK_SCALARS)
def test_bfloat16_with_weak_scalars_like_float16(scalar):
    assert dt.result_type(dt.bfloat16, scalar) == bf16_of(np.result_type(np.float16, scalar))


def test_bfloat16_can_cast():
    assert dt.can_cast(dt.bfloat16, dt.float32)
    assert dt.can_cast(dt.int8, dt.bfloat16)
    assert not dt.can_cast(dt.int16, dt.bfloat16)
    assert not dt.can_cast(dt.float16, dt.bfloat16)
    assert not dt.can_cast(dt.bfloat16, dt.float16)
    assert dt.can_cast(dt.bfloat16, dt.float16, "same_kind")
    assert not dt.can_cast(dt.bfloat16, dt.int8, "same_kind")
    assert dt.can_cast(dt.bfloat16, dt.bfloat16, "no")


def test_every_dtype_casts_safely_to_its_promotions():
    dtypes = [getattr(dt, n) for n in ALL_DTYPE_NAMES]
    bad = [(a, b) for a in dtypes for b in dtypes
           if not dt.can_cast(a, dt.promote_types(a, b), "safe")]
    assert not bad


# ---------------------------------------------------------------- can_cast

@pytest.mark.parametrize("a", NUMPY_DTYPE_NAMES)
def test_can_cast_every_pair_and_mode(a):
    x = dt.zeros(1, dtype=getattr(dt, a))
    bad = [(a, b, c) for b in NUMPY_DTYPE_NAMES for c in CASTINGS
           if not (dt.can_cast(getattr(dt, a), getattr(dt, b), c)
                   == dt.can_cast(x, b, casting=c) == np.can_cast(a, b, c))]
    assert not bad


def test_can_cast_default_is_safe():
    assert dt.can_cast(dt.int8, dt.int16)
    assert not dt.can_cast(dt.int16, dt.int8)
    assert dt.can_cast(np.ones(2, np.float32), "float64")


def test_can_cast_errors():
    with pytest.raises(ValueError, match="casting must be one of"):
        dt.can_cast(dt.int8, dt.int16, "sometimes")
    for scalar in WEAK_SCALARS:
        with pytest.raises(TypeError, match="NEP 50"):
            dt.can_cast(scalar, dt.int8)
        with pytest.raises(TypeError):
            np.can_cast(scalar, np.int8)
    with pytest.raises(TypeError):
        dt.can_cast(dt.int8, "not-a-dtype")


# ---------------------------------------------------------------- finfo / iinfo

@pytest.mark.parametrize("name", FLOAT_NAMES)
def test_finfo_matches_numpy(name):
    info, ref = dt.finfo(getattr(dt, name)), np.finfo(name)
    bad = [f for f in INFO_FIELDS if getattr(info, f) != getattr(ref, f)]
    assert not bad
    assert isinstance(info.dtype, dt.dtype) and info.dtype == ref.dtype  # complex -> real
    assert repr(info) == repr(ref)
    assert dt.finfo(dt.ones(1, dtype=getattr(dt, name))) is info
    assert dt.finfo(name) is info


def test_finfo_accepts_python_scalars_and_types():
    assert dt.finfo(1.0).dtype == dt.float64
    assert dt.finfo(float).dtype == dt.float64
    assert dt.finfo(complex).dtype == dt.float64
    assert dt.finfo(np.float32(1)).dtype == dt.float32


def test_finfo_bfloat16():
    # bfloat16 is the top half of a float32: NumPy's float32 bit patterns are the oracle.
    def bits(pattern):
        return float(np.uint32(pattern).view(np.float32))
    info = dt.finfo(dt.bfloat16)
    assert info.dtype == dt.bfloat16 and info.bits == 16
    assert info.eps == bits(0x3F810000) - 1.0 == 2.0 ** -7
    assert info.max == bits(0x7F7F0000) == (2 - 2 ** -7) * 2.0 ** 127
    assert info.min == -info.max
    assert info.smallest_normal == info.tiny == bits(0x00800000) == 2.0 ** -126
    assert info.smallest_subnormal == bits(0x00010000)
    assert info.resolution == 0.01 and info.precision == 2
    assert info.nmant == 7 and info.nexp == 8


@pytest.mark.parametrize("name", ["bool"] + INT_NAMES)
def test_finfo_rejects_non_inexact(name):
    with pytest.raises(ValueError) as ours:
        dt.finfo(getattr(dt, name))
    with pytest.raises(ValueError) as numpys:
        np.finfo(name)
    assert str(ours.value) == str(numpys.value)


@pytest.mark.parametrize("name", INT_NAMES)
def test_iinfo_matches_numpy(name):
    info, ref = dt.iinfo(getattr(dt, name)), np.iinfo(name)
    assert (info.bits, info.min, info.max, info.kind) == (ref.bits, ref.min, ref.max, ref.kind)
    assert isinstance(info.dtype, dt.dtype) and info.dtype == ref.dtype
    assert repr(info) == repr(ref)
    assert dt.iinfo(dt.zeros(1, dtype=getattr(dt, name))).max == ref.max


def test_iinfo_accepts_python_int():
    assert dt.iinfo(1).dtype == dt.int64 and dt.iinfo(int).max == np.iinfo(int).max


@pytest.mark.parametrize("name", ["bool"] + FLOAT_NAMES)
def test_iinfo_rejects_non_integer(name):
    with pytest.raises(ValueError) as ours:
        dt.iinfo(getattr(dt, name))
    with pytest.raises(ValueError) as numpys:
        np.iinfo(name)
    assert str(ours.value) == str(numpys.value)
    with pytest.raises(ValueError, match="Invalid integer data type 'f'"):
        dt.iinfo(dt.bfloat16)


# ---------------------------------------------------------------- isdtype

def test_isdtype_matches_numpy_for_every_dtype_and_kind():
    kinds = KIND_NAMES + NUMPY_DTYPE_NAMES + list(itertools.combinations(KIND_NAMES, 2))
    bad = [(a, k) for a in NUMPY_DTYPE_NAMES for k in kinds
           if dt.isdtype(getattr(dt, a), as_kind(k, as_dt))
           != np.isdtype(np.dtype(a), as_kind(k, as_np))]
    assert not bad


def as_kind(kind, convert):
    """A kind name stays a name; a dtype name becomes a dtype; tuples convert elementwise."""
    if isinstance(kind, tuple):
        return tuple(as_kind(k, convert) for k in kind)
    return kind if kind in KIND_NAMES else convert(kind)


def test_isdtype_bfloat16():
    assert dt.isdtype(dt.bfloat16, "real floating")
    assert dt.isdtype(dt.bfloat16, "numeric")
    assert dt.isdtype(dt.bfloat16, (dt.float16, dt.bfloat16))
    assert not dt.isdtype(dt.bfloat16, dt.float16)
    assert not dt.isdtype(dt.bfloat16, ("integral", "complex floating", "bool"))


def test_isdtype_accepts_numpy_dtypes():
    assert dt.isdtype(np.dtype("int8"), "signed integer") and dt.isdtype(np.int8, dt.int8)
    assert dt.isdtype(dt.float32, np.float32) and not dt.isdtype(dt.float32, ())


@pytest.mark.parametrize("dtype,kind,error", [
    ("float32", "not a kind", ValueError),
    ("float32", ("bool", "not a kind"), ValueError),
    ("bool", ("bool", "not a kind"), ValueError),  # every kind is validated
    ("float32", 3, TypeError),
    ("float32", ("bool", 3), TypeError),
    ("float32", float, TypeError),
    ("float32", (("bool",),), TypeError),
])
def test_isdtype_bad_kind_like_numpy(dtype, kind, error):
    with pytest.raises(error):
        dt.isdtype(getattr(dt, dtype), kind)
    with pytest.raises(error):
        np.isdtype(np.dtype(dtype), kind)


@pytest.mark.parametrize("dtype", ["float32", dt.ones(2), np.ones(2), 1.0, None])
def test_isdtype_bad_dtype_like_numpy(dtype):
    # A name, a tensor or an array is not a dtype, for np.isdtype either.
    with pytest.raises(TypeError, match="dtype argument must be"):
        dt.isdtype(dtype, "bool")
    with pytest.raises(TypeError):
        np.isdtype(np.ones(2) if isinstance(dtype, dt.Tensor) else dtype, "bool")


def test_exported():
    for name in ["result_type", "promote_types", "can_cast", "finfo", "iinfo", "isdtype"]:
        assert name in dt.__all__ and callable(getattr(dt, name))
