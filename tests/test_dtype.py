"""dtypes: names, NumPy equivalence, attributes, hashing, unknown names."""
import numpy as np
import pytest

import devtensor as dt
from helpers import ALL_DTYPE_NAMES, NUMPY_DTYPE_NAMES


@pytest.mark.parametrize("name", ALL_DTYPE_NAMES)
def test_dtype_objects_exist(name):
    d = getattr(dt, name)
    assert isinstance(d, dt.dtype)
    assert d.name == name
    assert str(d) == name
    assert repr(d) == f"devtensor.{name}"
    assert d == name
    assert d == getattr(dt, name)
    hash(d)
    assert {d: 1}[getattr(dt, name)] == 1


@pytest.mark.parametrize("name", NUMPY_DTYPE_NAMES)
def test_dtype_matches_numpy(name):
    d = getattr(dt, name)
    nd = np.dtype(name)
    assert d == nd
    assert d == nd.type  # e.g. dt.float32 == np.float32
    assert d.itemsize == nd.itemsize
    assert d.kind == nd.kind


def test_bfloat16_attributes():
    assert dt.bfloat16.itemsize == 2
    assert dt.bfloat16 == "bfloat16"
    assert dt.bfloat16 != dt.float16
    assert dt.bfloat16 != np.float16
    assert dt.bfloat16 != dt.float32


def test_tensor_dtype_compares_three_ways():
    x = dt.ones(2, dtype=dt.float32)
    assert x.dtype == np.float32
    assert x.dtype == "float32"
    assert x.dtype == np.dtype("float32")
    assert x.dtype == dt.float32
    assert np.float32 == x.dtype or x.dtype == np.float32


@pytest.mark.parametrize("a,b", [("float32", "float64"), ("int32", "uint32"), ("int8", "bool"),
                                 ("complex64", "float32"), ("int64", "float64")])
def test_dtype_inequality(a, b):
    assert getattr(dt, a) != getattr(dt, b)
    assert getattr(dt, a) != np.dtype(b)
    assert getattr(dt, a) != b
    assert not (getattr(dt, a) == b)


def test_dtype_compare_with_unknown_string_is_false_not_error():
    # NumPy: np.dtype('float32') == 'xyz' -> False
    assert (dt.float32 == "xyz") is False
    assert dt.float32 != "xyz"


def test_dtypes_distinct_hashable_set():
    ds = {getattr(dt, n) for n in ALL_DTYPE_NAMES}
    assert len(ds) == len(ALL_DTYPE_NAMES)



def test_numpy_and_pytorch_alias_names_are_devtensor_dtypes():
    """NumPy 2's and PyTorch's other names of a dtype are that dtype itself
    (dt.long was NumPy's int64 scalar class, which hashes apart); float,
    int and cfloat meant other widths in NumPy 1 and PyTorch: refused, saying so."""
    for name, dtype in [("long", dt.int64), ("int_", dt.int64), ("ulong", dt.uint64), ("uint", dt.uint64),
                        ("double", dt.float64), ("half", dt.float16), ("short", dt.int16), ("intp", dt.int64),
                        ("cdouble", dt.complex128), ("single", dt.float32)]:
        alias = getattr(dt, name)
        assert alias is dtype and hash(alias) == hash(dtype), name
        assert {dtype: 1}.get(alias) == 1
        assert alias == getattr(np, name)  # the same width as NumPy's on Linux
    for name, torch, numpy1 in [("float", "float32", "float64"), ("int", "int32", "int64"),
                                ("cfloat", "complex64", "complex128")]:
        with pytest.raises(AttributeError, match=f"PyTorch's {name} is {torch} and NumPy 1's was {numpy1}"):
            getattr(dt, name)


@pytest.mark.parametrize("spec", ["float32", np.float32, np.dtype("float32"), dt.float32])
def test_dtype_spellings_accepted(spec):
    assert dt.zeros(2, dtype=spec).dtype == dt.float32
    assert dt.tensor([1, 2], dtype=spec).dtype == dt.float32
    assert dt.ones(2).astype(spec).dtype == dt.float32


def test_python_types_as_dtype():
    # NumPy: float -> float64, int -> int64, bool -> bool, complex -> complex128
    assert dt.zeros(1, dtype=float).dtype == dt.float64
    assert dt.zeros(1, dtype=int).dtype == dt.int64
    assert dt.zeros(1, dtype=bool).dtype == dt.bool
    assert dt.zeros(1, dtype=complex).dtype == dt.complex128


@pytest.mark.parametrize("bad", ["xyz", "float31", "int128"])
def test_unknown_dtype_string(bad):
    with pytest.raises(TypeError, match=f"data type '{bad}' not understood"):
        dt.zeros(2, dtype=bad)
    with pytest.raises(TypeError, match=f"data type '{bad}' not understood"):
        dt.tensor([1], dtype=bad)
    with pytest.raises(TypeError, match=f"data type '{bad}' not understood"):
        dt.ones(2).astype(bad)


@pytest.mark.parametrize("bad", [object, np.dtype("U3"), np.dtype("datetime64[s]"), 123, 1.5,
                                 [("a", "f4")]])
def test_unsupported_dtype_objects(bad):
    with pytest.raises(TypeError):
        dt.zeros(2, dtype=bad)


def test_numpy_dtype_protocol():
    """Note [np.dtype of a devtensor dtype]."""
    for d in (dt.bool, dt.int8, dt.uint64, dt.float16, dt.float32, dt.complex128):
        assert np.dtype(d) == np.dtype(d.name)
        assert d.type is np.dtype(d.name).type and d.char == np.dtype(d.name).char
        assert d.fields is None and d.hasobject is False
    assert np.zeros(2, dtype=dt.int16).dtype == np.int16
    with pytest.raises(TypeError, match="Cannot interpret"):
        np.dtype(dt.bfloat16)
    assert not hasattr(dt.bfloat16, "type")


@pytest.mark.parametrize("name", NUMPY_DTYPE_NAMES)
def test_numpy_dtype_attributes(name):
    """What code written for np.dtype reads (x.dtype.str == '<f4', byteorder,
    descr, ...) is NumPy's own; a plain dtype has no sub-array."""
    d, want = dt.dtype(name), np.dtype(name)
    for attr in ("str", "descr", "byteorder", "alignment", "isnative", "isbuiltin", "num", "subdtype",
                 "names", "metadata", "ndim", "shape", "kind", "itemsize", "char", "type"):
        assert getattr(d, attr) == getattr(want, attr), attr
    assert d.base is d


def test_bfloat16_has_no_numpy_attributes():
    for attr in ("str", "descr", "byteorder", "num"):
        with pytest.raises(AttributeError, match="no NumPy dtype"):
            getattr(dt.bfloat16, attr)
    assert dt.bfloat16.ndim == 0 and dt.bfloat16.shape == () and dt.bfloat16.base is dt.bfloat16


@pytest.mark.parametrize("name", NUMPY_DTYPE_NAMES)
def test_calling_a_dtype_is_numpys_cast(name, device):
    """Note [Calling a dtype]: np.float32(x) code -- NumPy's scalar of a
    number or string, a tensor of a list, a tensor cast on its device."""
    d, nd = getattr(dt, name), getattr(np, name)
    for value in ([1, 0, 2], 1, 0, True, 2.5, -1.5, 1 + 2j, 300, -1, 2 ** 70, float("nan")):
        try:
            want = nd(value)
        except Exception as e:  # noqa: BLE001  (NumPy's error, from the C path too)
            with pytest.raises(type(e)):
                d(value)
            continue
        got = d(value)
        if isinstance(value, list):
            assert isinstance(got, dt.Tensor) and got.dtype == d
            np.testing.assert_array_equal(got.numpy(), want)
        else:
            assert type(got) is type(want) and (got == want or (got != got and want != want)), value
    assert type(d()) is type(nd()) and d() == nd()
    t = dt.arange(3, device=device)
    got = d(t)
    assert got.device == t.device and got.dtype == d
    np.testing.assert_array_equal(got.cpu().numpy(), nd(np.arange(3)))


def test_calling_a_dtype_errors():
    with pytest.raises(ValueError, match="invalid literal"):
        dt.int8("x")
    with pytest.raises(TypeError, match="NumPy has no bfloat16 scalar"):
        dt.bfloat16(1.0)
    assert dt.bfloat16(dt.arange(2)).dtype == dt.bfloat16


def test_dtypes_answer_isinstance_as_numpys_scalar_types():
    """Note [dtypes as NumPy's scalar types]: with `import devtensor as np`,
    isinstance(v, np.float64) and friends are NumPy's checks."""
    import numpy as np
    cases = [(np.float64(1.5), "float64", True), (np.float64(1.5), "float32", False), (1.5, "float64", False),
             (np.int64(3), "int64", True), (np.bool_(True), "bool", True), (True, "bool", False),
             (np.complex64(1j), "complex64", True), (dt.ones(2), "float64", False)]
    for value, name, want in cases:
        assert isinstance(value, getattr(dt, name)) is want, (value, name)
        assert isinstance(value, np.dtype(name).type) is want
    assert isinstance(np.int32(1), (dt.int64, dt.int32))
    assert not isinstance(np.float32(1), dt.bfloat16)
    assert issubclass(np.float64, dt.float64) and not issubclass(np.float32, dt.float64)
    assert [d.__name__ for d in (dt.float32, dt.bool, dt.bfloat16)] == ["float32", "bool", "bfloat16"]


def test_issubdtype_is_numpys_with_bfloat16_a_floating_type():
    names = ["bool", "int8", "uint16", "int64", "float16", "float32", "float64", "complex64"]
    abstract = [np.generic, np.number, np.integer, np.signedinteger, np.unsignedinteger, np.inexact,
                np.floating, np.complexfloating, float, int, "f8", "i4"]
    for a in names:
        for b in names + abstract:
            want = np.issubdtype(np.dtype(a), b if not isinstance(b, str) or b not in names else np.dtype(b))
            got = dt.issubdtype(getattr(dt, a), getattr(dt, b) if isinstance(b, str) and b in names else b)
            assert got == want, (a, b)
        assert dt.issubdtype(dt.ones(2, dtype=getattr(dt, a)).dtype, np.dtype(a).type)
        assert not dt.issubdtype(getattr(dt, a), dt.bfloat16)
        assert not dt.issubdtype(dt.bfloat16, getattr(dt, a))
    for base in (np.generic, np.number, np.inexact, np.floating, dt.floating):
        assert dt.issubdtype(dt.bfloat16, base)
    for other in (np.integer, np.complexfloating, np.bool_, float):
        assert not dt.issubdtype(dt.bfloat16, other)
    assert dt.issubdtype(dt.bfloat16, "bfloat16") and dt.issubdtype("bfloat16", dt.bfloat16)
    assert dt.issubdtype(arg1=dt.int8, arg2=np.integer)  # NumPy's parameter names
    with pytest.raises(TypeError):
        dt.issubdtype(dt.float32)
