"""Hostile input: each case raises a clear Python exception and the interpreter keeps
working (checked after every test by an autouse fixture)."""
import numpy as np
import pytest

import devtensor as dt
from helpers import run_python, sanity, stable_repr


@pytest.fixture(autouse=True)
def _still_alive():
    yield
    sanity()


FACTORIES = [dt.zeros, dt.ones, dt.empty, lambda *s, **k: dt.full(s[0] if len(s) == 1 else s, 1.0, **k)]
FNAMES = ["zeros", "ones", "empty", "full"]


@pytest.mark.parametrize("f", FACTORIES, ids=FNAMES)
@pytest.mark.parametrize("shape", [(-1,), ((2, -3),), ((-1, 0),), (((0, -5)),)], ids=stable_repr)
def test_negative_shape(f, shape):
    with pytest.raises(ValueError, match="negative"):
        f(*shape)


@pytest.mark.parametrize("f", FACTORIES, ids=FNAMES)
@pytest.mark.parametrize("shape", [(2.5,), ((2, 3.0),), ("3",), ((2, None),), ([[2]],),
                                   (np.float64(2),), ((2, "a"),), (object(),)], ids=stable_repr)
def test_non_integer_shape(f, shape):
    with pytest.raises(TypeError):
        f(*shape)


def test_varargs_non_integer():
    with pytest.raises(TypeError):
        dt.ones(2, 3.0)
    with pytest.raises(TypeError):
        dt.zeros(2, "3")


@pytest.mark.parametrize("shape", [(2 ** 62, 8), (2 ** 40, 2 ** 40), (2 ** 61,), (2 ** 32, 2 ** 32),
                                   (2 ** 21,) * 3, (3, 2 ** 62)], ids=stable_repr)
def test_size_overflow(shape):
    """A size past 64 bits: a ValueError, as NumPy's "array is too big", and
    an OverflowError (Note [Sizes past 64 bits] in csrc/python/errors.c)."""
    with pytest.raises(ValueError, match="too big"):
        dt.empty(*shape)
    with pytest.raises(ValueError):  # NumPy's type for the same call
        np.empty(shape, dtype=np.complex128)
    with pytest.raises(OverflowError, match="too big"):
        dt.empty(*shape)
    with pytest.raises(OverflowError, match="too big"):
        dt.zeros(shape, dtype=dt.complex128)
    with pytest.raises(OverflowError, match="too big"):
        dt.full(shape, 1, dtype=dt.complex128)


@pytest.mark.parametrize("shape", [(2 ** 63,), (2 ** 64,), (-(2 ** 63) - 1,), (2 ** 100, 1)],
                         ids=stable_repr)
def test_dimension_not_int64(shape):
    with pytest.raises(OverflowError):
        dt.empty(shape)
    with pytest.raises(ValueError, match="does not fit in 64 bits"):  # NumPy's type
        dt.zeros(shape)


@pytest.mark.parametrize("shape", [(0, 2 ** 62, 2 ** 62), (2 ** 62, 0, 2 ** 62)], ids=stable_repr)
def test_overflow_with_zero_dim_does_not_crash(shape, device):
    try:
        t = dt.empty(shape, device=device)
    except (OverflowError, ValueError):
        return
    assert t.size == 0 and t.nbytes == 0 and t.shape == shape
    repr(t)
    if shape[0] == 0:
        assert t.tolist() == []
    u = t + 1
    assert u.shape == shape
    assert t.T.shape == shape[::-1]
    assert t.astype(dt.int8).size == 0
    assert t.to("cpu").shape == shape
    assert (t == t).dtype == dt.bool


@pytest.mark.parametrize("shape", [(2 ** 50,), (2 ** 45, 2 ** 5)], ids=stable_repr)
def test_huge_but_representable_allocation(shape, device):
    # 8 PiB: fits in 64 bits, cannot be allocated -> MemoryError (or a subclass), no crash
    with pytest.raises(MemoryError):
        dt.zeros(shape, dtype=dt.float64, device=device)
    with pytest.raises(MemoryError):
        dt.empty(shape, dtype=dt.float64, device=device)
    with pytest.raises(MemoryError):
        dt.ones(2, device=device).to(device, dtype=dt.float64) + dt.empty(shape, device=device)


def test_too_many_dimensions():
    assert dt.zeros((1,) * 64).ndim == 64
    with pytest.raises(ValueError):
        dt.zeros((1,) * 65)
    with pytest.raises(ValueError):
        dt.ones(*(1,) * 65)
    with pytest.raises(ValueError):
        dt.empty((1,) * 1000)


def test_too_many_dimensions_nested_list():
    data = 1.0
    for _ in range(65):
        data = [data]
    with pytest.raises(ValueError):
        dt.tensor(data)
    inner = 1.0
    for _ in range(64):
        inner = [inner]
    assert dt.tensor(inner).ndim == 64


DEEP = r'''
import devtensor as dt
lst = []
lst.append(lst)
try:
    dt.tensor(lst)
except (ValueError, RecursionError, TypeError) as e:
    print("recursive:", type(e).__name__)
data = 0
for _ in range(100_000):
    data = [data]
try:
    dt.tensor(data)
except (ValueError, RecursionError) as e:
    print("deep:", type(e).__name__)
try:
    dt.asarray(data)
except (ValueError, RecursionError) as e:
    print("deep asarray:", type(e).__name__)
print((dt.ones(2) + 1).tolist())
'''


def test_recursive_and_very_deep_lists():
    # in a subprocess: a C stack overflow would kill the test process
    p = run_python(DEEP, remove=())
    assert p.returncode == 0, (p.returncode, p.stderr[-2000:])
    lines = p.stdout.splitlines()
    assert lines[0].startswith("recursive: "), p.stdout
    assert lines[1].startswith("deep: "), p.stdout
    assert lines[2].startswith("deep asarray: "), p.stdout
    assert lines[3] == "[2.0, 2.0]"


@pytest.mark.parametrize("data", [
    [[1, 2], [3]],
    [1, [2]],
    [[1], 2],
    [[[1, 2]], [[3]]],
    [[1, 2], []],
], ids=stable_repr)
def test_ragged(data):
    with pytest.raises(ValueError):
        dt.tensor(data)
    with pytest.raises(ValueError):
        dt.asarray(data)


@pytest.mark.parametrize("data", [
    ["a"], [object()], [1, "2"], "abc", None, [None], {"a": 1}, {1, 2}, [[1], [object()]],
    np.array(["a", "b"]), np.array([object()], dtype=object), np.array(["2020-01-01"],
                                                                        dtype="datetime64[D]"),
    np.zeros(2, dtype=[("a", "f4")]), [b"x"],
], ids=lambda d: type(d).__name__ + ":" + repr(d)[:20])
def test_non_numbers(data):
    with pytest.raises(TypeError):
        dt.tensor(data)
    with pytest.raises(TypeError):
        dt.asarray(data)


def test_python_int_too_large():
    with pytest.raises((OverflowError, TypeError)):
        dt.tensor([2 ** 64])
    with pytest.raises((OverflowError, TypeError)):
        dt.tensor([-(2 ** 63) - 1])
    with pytest.raises((OverflowError, TypeError)):
        dt.tensor(2 ** 100)


def test_unknown_dtype_everywhere():
    for call in (lambda: dt.zeros(2, dtype="xyz"), lambda: dt.ones(2, dtype="xyz"),
                 lambda: dt.empty(2, dtype="xyz"), lambda: dt.full(2, 1, dtype="xyz"),
                 lambda: dt.tensor([1], dtype="xyz"), lambda: dt.asarray([1], dtype="xyz"),
                 lambda: dt.arange(3, dtype="xyz"), lambda: dt.eye(2, dtype="xyz"),
                 lambda: dt.ones(2).astype("xyz"), lambda: dt.zeros_like(dt.ones(2), dtype="xyz")):
        with pytest.raises(TypeError, match="data type 'xyz' not understood"):
            call()


@pytest.mark.parametrize("dev", ["gpu", "cuda:x", "cuda:-1", "cpu:1", "", "cuda:1:2", "tpu"])
def test_bad_device_strings_everywhere(dev):
    for call in (lambda: dt.zeros(2, device=dev), lambda: dt.tensor([1], device=dev),
                 lambda: dt.asarray([1], device=dev), lambda: dt.arange(3, device=dev),
                 lambda: dt.rand(2, device=dev), lambda: dt.ones(2).to(device=dev),
                 lambda: dt.ones(2).to_device(dev)):
        with pytest.raises(RuntimeError):
            call()


@pytest.mark.parametrize("dev", ["gpu", "cuda:x", "cuda:-1", "cpu:1", "cuda:1:2", "cuda:"])
def test_bad_device_strings_positional_to(dev):
    # device-like strings given positionally to to(): the device error (RuntimeError)
    with pytest.raises(RuntimeError) as ei:
        dt.ones(2).to(dev)
    assert repr(dev) in str(ei.value) or f'"{dev}"' in str(ei.value)


@pytest.mark.parametrize("s", ["", "tpu", "float31"])
def test_unknown_string_positional_to(s):
    # neither a dtype nor a device: TypeError or RuntimeError, naming the string
    with pytest.raises((TypeError, RuntimeError)) as ei:
        dt.ones(2).to(s)
    assert repr(s) in str(ei.value) or f'"{s}"' in str(ei.value)


@pytest.mark.parametrize("dev", [1.5, object(), [0]], ids=stable_repr)
def test_bad_device_types(dev):
    with pytest.raises(TypeError):
        dt.zeros(2, device=dev)
    with pytest.raises(TypeError):
        dt.ones(2).to(device=dev)


def test_to_contradictory():
    x = dt.ones(2)
    for call in (lambda: x.to("cpu", "cpu"), lambda: x.to("cpu", device="cpu"),
                 lambda: x.to(dt.float32, dtype=dt.float32), lambda: x.to(1.5),
                 lambda: x.to(copy=True, foo=1), lambda: x.to(dt.ones(1), dt.ones(1)),
                 lambda: x.to(dtype=dt.device("cpu"))):
        with pytest.raises(TypeError):
            call()


def test_errors_in_binary_ops_leave_operands_intact():
    a = dt.ones((2, 3))
    b = dt.ones(4)
    for _ in range(3):
        with pytest.raises(ValueError):
            a + b
    assert a.tolist() == [[1.0] * 3] * 2 and b.tolist() == [1.0] * 4


def test_int_item_of_empty():
    with pytest.raises(ValueError):
        dt.zeros(0).item()
    with pytest.raises((TypeError, ValueError)):
        int(dt.zeros(0))


def test_keyword_errors():
    with pytest.raises(TypeError):
        dt.zeros(2, dtyp=dt.float32)
    with pytest.raises(TypeError):
        dt.tensor([1], devic="cpu")
    with pytest.raises(TypeError):
        dt.tensor()


def test_too_big_results_raise_numpys_type():
    """Functions whose result would be too big raise a ValueError, as NumPy."""
    for call in (lambda xp: xp.arange(2 ** 62), lambda xp: xp.eye(2 ** 33), lambda xp: xp.zeros((2 ** 40, 2 ** 40)),
                 lambda xp: xp.repeat(xp.arange(3), 2 ** 61)):
        with pytest.raises(ValueError):
            call(np)
        with pytest.raises(ValueError):
            call(dt)


def test_wrong_kinds_of_argument_are_clear_errors():
    """Found by a fuzzer: internal AttributeErrors and IndexErrors leaked
    where NumPy (or PyTorch) raises a TypeError that names the problem."""
    from helpers import same_error
    a, t = np.ones(3), dt.ones(3)
    same_error(lambda: np.sin(a, "abc", where=a > 0), lambda: dt.sin(t, "abc", where=t > 0))
    same_error(lambda: np.cumulative_sum(a, out=[0, 0, 0]), lambda: dt.cumulative_sum(t, out=[0, 0, 0]))
    same_error(lambda: np.cumulative_prod(a, out="x"), lambda: dt.cumulative_prod(t, out="x"))
    assert dt.cumulative_sum(t, out=(dt.zeros(3),)).tolist() == [1.0, 2.0, 3.0]  # the ufunc form of out
    same_error(lambda: np.polyint(2), lambda: dt.polyint(2))
    same_error(lambda: np.polyder(3), lambda: dt.polyder(3))
    same_error(lambda: np.polyval(1j, np.asarray(2)), lambda: dt.polyval(1j, dt.asarray(2)))
    for call, words in [(lambda: t.expand_as(3), "expand_as\\(\\): argument 'other' .* must be Tensor, not int"),
                        (lambda: t.view_as((3,)), "must be Tensor, not tuple"),
                        (lambda: t.type_as([1]), "must be Tensor, not list"),
                        (lambda: dt.randperm(3, generator="x"), "generator must be a devtensor.random.Generator")]:
        with pytest.raises(TypeError, match=words):
            call()


BOOL_BYTE_OPS = {
    "invert": lambda t, g, x: ~t, "eq": lambda t, g, x: t == True, "and": lambda t, g, x: t & g,  # noqa: E712
    "logical_not": lambda t, g, x: dt.logical_not(t), "sum": lambda t, g, x: t.sum(),
    "all_axis": lambda t, g, x: t.reshape(2, 3).all(axis=1), "count_nonzero": lambda t, g, x: dt.count_nonzero(t),
    "astype": lambda t, g, x: t.astype(dt.int32), "cumsum": lambda t, g, x: dt.cumsum(t),
    "unique": lambda t, g, x: dt.unique(t), "isin": lambda t, g, x: dt.isin(t, [True]),
    "argsort": lambda t, g, x: dt.argsort(t, stable=True), "sort": lambda t, g, x: dt.sort(t, descending=True),
    "packbits": lambda t, g, x: dt.packbits(t), "nonzero": lambda t, g, x: dt.nonzero(t)[0],
    "where": lambda t, g, x: dt.where(t, x, -1.0), "mask": lambda t, g, x: x[t],
    "mean_where": lambda t, g, x: dt.mean(x, where=t), "matmul": lambda t, g, x: t.reshape(2, 3) @ g.reshape(3, 2),
    "argmax": lambda t, g, x: dt.argmax(t), "mul": lambda t, g, x: t * 2, "diff": lambda t, g, x: dt.diff(t),
    "histogram": lambda t, g, x: dt.histogram(t.astype(dt.float64), 2)[0], "tolist": lambda t, g, x: t.tolist(),
}


@pytest.mark.parametrize("name", sorted(BOOL_BYTE_OPS))
def test_bool_bytes_other_than_0_and_1_read_as_true(device, name):
    """Note [Bool bytes]: a bool tensor over bytes 2, 255, 3 (a view of
    integer memory, a hostile file) reads them as True, as NumPy does, on
    every device: no undefined behaviour (UBSan in CI), the results of the
    same bools stored as 0 and 1."""
    raw = np.array([2, 255, 1, 0, 0, 3], dtype=np.uint8)
    b = dt.asarray(raw, device=device).view(dt.bool)
    g = dt.asarray(raw != 0, device=device)
    x = dt.arange(6.0, device=device)
    f = BOOL_BYTE_OPS[name]
    got, want = f(b, g, x), f(g, g, x)
    if isinstance(got, dt.Tensor):
        assert got.dtype == want.dtype and got.shape == want.shape
        got, want = got.cpu().numpy(), want.cpu().numpy()
    np.testing.assert_array_equal(got, want)


def test_packbits_of_bool_bytes(device):
    """Eight bools a row (no padding): packbits reads a != 0, not the bytes."""
    raw = np.array([0, 2, 1, 255, 0, 4, 1, 2], dtype=np.uint8)
    b = dt.asarray(raw, device=device).view(dt.bool)
    for order in ("big", "little"):
        assert dt.packbits(b, bitorder=order).tolist() == np.packbits(raw != 0, bitorder=order).tolist()


def test_bool_bytes_of_a_hostile_safetensors_file(tmp_path):
    import json
    import struct
    header = json.dumps({"x": {"dtype": "BOOL", "shape": [4], "data_offsets": [0, 4]}}).encode()
    path = tmp_path / "bool.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header + b"\x02\xff\x01\x00")
    b = dt.load(path)["x"]
    assert b.tolist() == [True, True, True, False] and (~b).tolist() == [False, False, False, True]
    assert int(b.sum()) == 3 and b.astype(dt.int64).tolist() == [1, 1, 1, 0]


def test_wrong_argument_types_are_type_errors():
    """Not AttributeErrors from deep inside: PyTorch's functions given a list,
    NumPy's quantiles given a non-tensor out=, DLPack's malformed max_version."""
    for name, call in [("chunk", lambda: dt.chunk([1, 2], 2)), ("gather", lambda: dt.gather([1.0], 0, [0])),
                       ("topk", lambda: dt.topk([1.0], 1)), ("masked_fill", lambda: dt.masked_fill([1.0], [True], 0)),
                       ("narrow", lambda: dt.narrow([1], 0, 0, 1)), ("unbind", lambda: dt.unbind([1])),
                       ("kthvalue", lambda: dt.kthvalue([1.0], 1)), ("index_select", lambda: dt.index_select([1.0], 0, [0])),
                       ("masked_select", lambda: dt.masked_select([1.0], [True]))]:
        with pytest.raises(TypeError, match=rf"{name}\(\): argument 'input' \(position 1\) must be Tensor, not list"):
            call()
    for f in (dt.median, lambda a, out: dt.quantile(a, 0.5, out=out), lambda a, out: dt.percentile(a, 50, out=out)):
        with pytest.raises(TypeError, match="return arrays must be of ArrayType"):
            f(dt.ones(3), out=5)
    with pytest.raises(TypeError, match=r"max_version must be None or a \(major, minor\) tuple"):
        dt.ones(2).__dlpack__(max_version=())
