"""sort, argsort, partition, argpartition and lexsort (devtensor._sorting,
csrc/core/sort.c, the CPU and CUDA radix sorts) against NumPy on every
device: every dtype with NaN, signed zeros and complex NaN classes, stable
ties, descending, axes, layouts (strided, negative strides, broadcast,
empty, 0-d), long rows that split across threads, and errors."""
import zlib

import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, given, requires_emulation, run_python, same_error, settings, st, to_np
from test_reductions import layouts, make  # noqa: F401  (shared layout helpers)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
          "float32", "float64", "complex64", "complex128"]


def sample(rng, shape, dtype):
    """Values with many ties, and for floats NaN, +-0.0 and +-inf; for
    complex all four of NumPy's NaN classes."""
    n = int(np.prod(shape))
    kind = np.dtype(dtype).kind
    if kind == "b":
        return (rng.random(n) < 0.5).reshape(shape)
    if kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -1000), min(info.max, 1000), n, endpoint=True).astype(dtype).reshape(shape)
    a = np.round(rng.standard_normal(n) * 3).astype(dtype)
    if kind == "c":
        a = a + 1j * np.round(rng.standard_normal(n)).astype(dtype)
    pick = rng.random(n)
    a[pick < 0.08] = np.nan
    a[(pick > 0.08) & (pick < 0.14)] = -0.0
    a[(pick > 0.14) & (pick < 0.17)] = np.inf
    a[(pick > 0.17) & (pick < 0.2)] = -np.inf
    if kind == "c":
        a[(pick > 0.2) & (pick < 0.26)] = complex(1.0, np.nan)
        a[(pick > 0.26) & (pick < 0.3)] = complex(np.nan, 2.0)
        a[(pick > 0.3) & (pick < 0.33)] = complex(-1.0, np.nan)
    return a.reshape(shape)


def descending_sort(a, axis):
    """The stable sort of the reversed order (the array API's descending)."""
    return np.flip(np.sort(np.flip(a, axis), axis=axis, kind="stable"), axis)


def descending_argsort(a, axis):
    n = a.shape[axis]
    return n - 1 - np.flip(np.argsort(np.flip(a, axis), axis=axis, kind="stable"), axis)


def same_sorted(got, expected):
    """Sorted values equal, NaN equal to NaN, and -0.0 equal to 0.0 (a values
    sort may order equal zeros either way)."""
    assert got.dtype == expected.dtype and got.shape == expected.shape, (got.dtype, got.shape, expected.shape)
    np.testing.assert_array_equal(to_np(got), expected)


@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_and_argsort_every_dtype(device, dtype):
    rng = np.random.default_rng(zlib.crc32(str(dtype).encode()))  # not hash(): salted per run
    a = sample(rng, (6, 40), dtype)
    t = dt.asarray(a, device=device)
    for axis in (-1, 0, None):
        same_sorted(dt.sort(t, axis=axis), np.sort(a, axis=axis))
        same_sorted(dt.sort(t, axis=axis, stable=True), np.sort(a, axis=axis, kind="stable"))
        assert_same(dt.argsort(t, axis=axis, kind="stable"), np.argsort(a, axis=axis, kind="stable"))
        flat = a.reshape(-1) if axis is None else a
        ax = -1 if axis is None else axis
        same_sorted(dt.sort(t, axis=axis, descending=True), descending_sort(flat, ax))
        assert_same(dt.argsort(t, axis=axis, descending=True, stable=True), descending_argsort(flat, ax))
    got = dt.argsort(t)  # NumPy's default kind need not be stable: check it sorts
    np.testing.assert_array_equal(np.take_along_axis(a, to_np(got), -1), np.sort(a, axis=-1))
    assert dt.sort(t).device == t.device


def test_sort_bfloat16(device):
    a = np.array([3.0, -1, np.nan, 0.0, -0.0, 2, -np.inf, 2, np.inf, -1], np.float32)
    t = dt.asarray(a, device=device).astype("bfloat16")
    got = dt.sort(t)
    assert got.dtype == dt.bfloat16
    np.testing.assert_array_equal(to_np(got.astype("float32")), np.sort(a))
    assert_same(dt.argsort(t, stable=True), np.argsort(a, kind="stable"))
    assert_same(dt.argsort(t, stable=True, descending=True), descending_argsort(a, 0))
    assert_same(dt.argsort(dt.asarray(a, device=device).astype("bfloat16").reshape(2, 5), axis=0, stable=True),
                np.argsort(a.reshape(2, 5), axis=0, kind="stable"))


@pytest.mark.parametrize("dtype", ["float32", "int64", "complex128", "int8"])
def test_long_rows_split_across_threads(device, dtype):
    # one row of 2^17 (the CPU splits rows of 2^16 and more into chunks, one per thread)
    rng = np.random.default_rng(7)
    a = sample(rng, (1 << 17,), dtype)
    t = dt.asarray(a, device=device)
    same_sorted(dt.sort(t, stable=True), np.sort(a, kind="stable"))
    assert_same(dt.argsort(t, stable=True), np.argsort(a, kind="stable"))
    assert_same(dt.argsort(t, stable=True, descending=True), descending_argsort(a, 0))


@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "uint16", "float32", "int32", "float64", "uint64"])
def test_rows_either_side_of_the_small_row_sort(device, dtype):
    """The CPU merge-sorts rows of up to 12 elements per key bit and radix-
    sorts longer ones (Note [Small rows] in csrc/cpu/cpu_sort.c): lengths
    around the insertion runs (16) and the limit of each key width, many
    ties, stable and descending, values and positions; one row and many."""
    bits = 8 * np.dtype(dtype).itemsize
    rng = np.random.default_rng(zlib.crc32(dtype.encode()))
    for n in (1, 2, 15, 16, 17, 33, 12 * bits, 12 * bits + 1, 12 * bits + 40):
        for rows in (1, 3):
            a = sample(rng, (rows, n), dtype)
            t = dt.asarray(a, device=device)
            same_sorted(dt.sort(t, stable=True), np.sort(a, kind="stable"))
            same_sorted(dt.sort(t), np.sort(a))
            assert_same(dt.argsort(t, stable=True), np.argsort(a, kind="stable"))
            assert_same(dt.argsort(t, descending=True, stable=True), descending_argsort(a, -1))
            same_sorted(dt.sort(t, descending=True), descending_sort(a, -1))


def test_sort_argument_forms_on_and_off_the_per_call_path(device):
    """_C._sort_fast takes the plain calls (a tensor, an int axis, stable
    None or a bool, descending a bool); every other form goes to
    devtensor._sorting and gives the same results."""
    rng = np.random.default_rng(11)
    a = sample(rng, (3, 20), "float32")
    t = dt.asarray(a, device=device)
    for axis in (-1, 1, np.int64(1), 0, -2, None):
        same_sorted(dt.sort(t, axis=axis), np.sort(a, axis=axis))
        assert_same(dt.argsort(t, axis=axis, stable=True), np.argsort(a, axis=axis, kind="stable"))
    for stable in (None, False, True, 0, 1):
        same_sorted(dt.sort(t, stable=stable), np.sort(a))
    for descending in (False, True, 0, np.True_):
        same_sorted(dt.sort(t, descending=descending), descending_sort(a, -1) if descending else np.sort(a))
    same_sorted(dt.sort(t, kind="mergesort"), np.sort(a, kind="stable"))
    assert_same(dt.argsort(a), np.argsort(a, kind="stable"))  # an ndarray: the Python path, on the CPU
    same_sorted(dt.sort(a.tolist()), np.sort(np.array(a.tolist())))
    same_sorted(dt.sort(t.T, axis=0), np.sort(a.T, axis=0))  # a strided tensor's last axis
    with pytest.raises(np.exceptions.AxisError):
        dt.sort(t, axis=2)
    b = sample(rng, (3, 6, 5), "float64")
    tb, b = dt.asarray(b, device=device)[:, ::2], b[:, ::2]
    for axis in (0, 1, -2, 2):  # another axis moved last and back: a C-ordered result
        for r, want in ((dt.sort(tb, axis=axis), np.sort(b, axis=axis)),
                        (dt.argsort(tb, axis=axis), np.argsort(b, axis=axis, kind="stable")),
                        (dt.argsort(tb, axis=axis, descending=True, stable=True),
                         descending_argsort(b, axis))):
            assert_same(r, want)
            assert r.flags.c_contiguous


def test_many_rows(device):
    rng = np.random.default_rng(8)
    a = sample(rng, (300, 17), "float64")
    t = dt.asarray(a, device=device)
    assert_same(dt.argsort(t, stable=True), np.argsort(a, kind="stable"))
    assert_same(dt.argsort(t, axis=0, stable=True), np.argsort(a, axis=0, kind="stable"))


def test_sort_keeps_extreme_values(device):
    for dtype in ("int64", "uint64", "int32", "uint8", "int8", "int16", "uint16", "uint32"):
        info = np.iinfo(dtype)
        a = np.array([info.max, info.min, 0, info.max - 1, info.min + 1, 1], dtype)
        t = dt.asarray(a, device=device)
        assert_same(dt.sort(t, stable=True), np.sort(a))
        assert_same(dt.sort(t, descending=True), np.sort(a)[::-1])


@pytest.mark.parametrize("n", [2000, (1 << 17) + 5])  # one chunk, and a row split across threads
def test_argsort_integer_ranges_and_pieces(device, n):
    """The CPU argsort packs 32-bit key pieces beside 32-bit positions and
    reduces integer keys to their range (Note [Packed pairs] in
    csrc/cpu/cpu_sort.c): every element equal, ranges just inside and just
    outside 2^8 and 2^32, ranges across zero, the full range of each width,
    floats whose two halves both differ, complex parts; stable, and
    descending."""
    rng = np.random.default_rng(n)
    cases = []
    for dtype in ("int64", "uint64", "int32", "uint32", "int16", "int8"):
        info = np.iinfo(dtype)
        cases.append(np.full(n, info.min, dtype))
        cases.append(np.full(n, info.max, dtype))
        cases.append(rng.integers(info.min, info.max, n, endpoint=True, dtype=dtype))
        cases.append(np.where(rng.random(n) < 0.5, info.min, info.max).astype(dtype))
        for span in (1, 255, 256):
            lo = max(info.min, -(span // 2)) if info.min < 0 else 0
            cases.append(rng.integers(lo, min(info.max, lo + span), n, endpoint=True).astype(dtype))
    for span in (2**32 - 1, 2**32, 2**40):
        for lo in (-(2**62), -span // 2, 7):
            cases.append(rng.integers(lo, lo + span, n, endpoint=True, dtype="int64"))
    cases.append(np.array([2**63 - 1, -(2**63)] * (n // 2), "int64"))
    cases.append(rng.standard_normal(n))
    cases.append(rng.standard_normal(n).astype("float32"))
    cases.append((rng.integers(-3, 3, n) + 1j * rng.standard_normal(n)).astype("complex128"))
    for a in cases:
        t = dt.asarray(a, device=device)
        assert_same(dt.argsort(t, stable=True), np.argsort(a, kind="stable"))
        assert_same(dt.argsort(t, stable=True, descending=True), descending_argsort(a, 0))
        same_sorted(dt.sort(t, stable=True), np.sort(a, kind="stable"))


@pytest.mark.parametrize("n", [2000, (1 << 17) + 5])  # one chunk, and a row split across threads
def test_values_sort_words_and_counting(device, n):
    """A CPU values sort moves keys reduced to their range in 32-bit words
    where they fit (Note [Narrow values sorts] in csrc/cpu/cpu_sort.c),
    after a sample of the row says the range may be narrow; 1-byte dtypes
    are counted (Note [Counting sort of bytes]), the default kind included
    (the core's sort, not NumPy's, from 256 elements), and long float16
    rows take the radix sort by default.  Ranges around 2^16, 2^24 and
    2^32, narrow rows widened by a few extreme elements the sample misses,
    two values, one value, every value; ascending, stable and descending."""
    rng = np.random.default_rng(n + 1)
    cases = []
    for dtype in ("int64", "uint64", "int32", "uint32", "int16", "uint16"):
        info = np.iinfo(dtype)
        for span in (255, 65535, 65536, 2**24 - 1, 2**24, 2**32 - 1, 2**32):
            lo = max(info.min, -(span // 2)) if info.min < 0 else 0
            cases.append(rng.integers(lo, min(info.max, lo + span), n, endpoint=True).astype(dtype))
        narrow = rng.integers(0, 1000, n).astype(dtype)
        for extreme in (info.min, info.max):
            widened = narrow.copy()
            widened[rng.integers(0, n, 3)] = extreme  # 3 of n: a 64-element sample most likely misses them
            cases.append(widened)
    for dtype in ("bool", "int8", "uint8"):
        cases.append(rng.integers(0, 2, n).astype(dtype))
        if dtype != "bool":
            info = np.iinfo(dtype)
            cases.append(rng.integers(info.min, info.max, n, endpoint=True, dtype=dtype))
            cases.append(np.full(n, info.min, dtype))
            cases.append(rng.integers(-3, 3, n).astype(dtype))
    halves = rng.standard_normal(n).astype("float16")
    cases.append(halves)
    with_specials = halves.copy()
    with_specials[:6] = [np.nan, -0.0, 0.0, np.inf, -np.inf, np.nan]
    cases.append(with_specials)
    for a in cases:
        t = dt.asarray(a, device=device)
        same_sorted(dt.sort(t), np.sort(a))
        same_sorted(dt.sort(t, stable=True), np.sort(a, kind="stable"))
        same_sorted(dt.sort(t, descending=True), descending_sort(a, 0))
        rows = a[: n - n % 4].reshape(4, -1)
        same_sorted(dt.sort(dt.asarray(rows, device=device)), np.sort(rows))


WIDE_PAIRS_CODE = """
import json
import numpy as np
import devtensor as dt
rng = np.random.default_rng(5)
cases = [rng.integers(-2**62, 2**62, 3000), rng.standard_normal((4, 2000)), rng.integers(-3, 3, (1 << 17) + 1),
         rng.standard_normal(1 << 17).astype(np.float32), (rng.integers(-2, 2, 5000) + 1j * rng.standard_normal(5000)),
         np.array([np.nan, -0.0, 0.0, -np.inf, 1.0] * 400)]
bad = []
for i, a in enumerate(cases):
    t = dt.asarray(a)
    if not np.array_equal(dt.argsort(t, stable=True).numpy(), np.argsort(a, axis=-1, kind="stable")):
        bad.append((i, "argsort"))
    if not np.array_equal(dt.sort(t, stable=True).numpy(), np.sort(a, axis=-1, kind="stable"), equal_nan=True):
        bad.append((i, "sort"))
print(json.dumps(bad))
"""


def test_argsort_with_wide_pairs():
    """DEVTENSOR_CPU_WIDE_PAIRS=1: the CPU argsort's way for rows of more
    than 2^32 elements (64-bit keys and positions in arrays of their own),
    on rows short enough to test, one chunk and split across threads."""
    for threads in ("1", "2"):
        p = run_python(WIDE_PAIRS_CODE, {"DEVTENSOR_CPU_WIDE_PAIRS": "1", "DEVTENSOR_NUM_THREADS": threads})
        assert p.returncode == 0, p.stderr
        assert p.stdout.strip() == "[]"


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_sort_matches_numpy(device, data):
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    shape = tuple(data.draw(st.lists(st.integers(0, 6), min_size=1, max_size=3), label="shape"))
    layout = data.draw(st.sampled_from(["contiguous", "transposed", "reversed", "strided", "broadcast"]),
                       label="layout")
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    t, a = make(sample(rng, shape, dtype), layout, device)
    axis = data.draw(st.sampled_from([None] + list(range(-len(shape), len(shape)))), label="axis")
    descending = data.draw(st.booleans(), label="descending")
    flat, ax = (a.reshape(-1), -1) if axis is None else (a, axis)
    if descending:
        same_sorted(dt.sort(t, axis=axis, descending=True), descending_sort(flat, ax))
        assert_same(dt.argsort(t, axis=axis, descending=True, stable=True), descending_argsort(flat, ax))
    else:
        same_sorted(dt.sort(t, axis=axis, kind="stable"), np.sort(a, axis=axis, kind="stable"))
        assert_same(dt.argsort(t, axis=axis, stable=True), np.argsort(a, axis=axis, kind="stable"))


def test_sort_method_sorts_in_place(device):
    a = np.array([[3, 1, 2], [0, -5, 4]], np.int32)
    t = dt.asarray(a, device=device)
    view = t[1]
    assert t.sort(axis=1) is None
    assert_same(t, np.sort(a, axis=1))
    assert_same(view, np.sort(a, axis=1)[1])
    assert_same(t.argsort(axis=0, stable=True), np.argsort(np.sort(a, axis=1), axis=0, kind="stable"))


def test_partition_and_argpartition(device):
    rng = np.random.default_rng(3)
    a = sample(rng, (5, 30), "float64")
    t = dt.asarray(a, device=device)
    for kth in (0, 7, -1, [3, 20], 29):
        for axis in (-1, None):
            got = to_np(dt.partition(t, kth, axis=axis))
            flat = a.reshape(-1) if axis is None else a
            want = np.sort(flat, axis=-1)
            for k in np.atleast_1d(kth) % flat.shape[-1]:
                np.testing.assert_array_equal(got[..., k], want[..., k])
                # a partition: the k smallest before position k, the rest after
                np.testing.assert_array_equal(np.sort(got[..., :k], axis=-1), want[..., :k])
                np.testing.assert_array_equal(np.sort(got[..., k + 1:], axis=-1), want[..., k + 1:])
            idx = to_np(dt.argpartition(t, kth, axis=axis))
            np.testing.assert_array_equal(np.take_along_axis(flat, idx, -1)[..., np.atleast_1d(kth)],
                                          want[..., np.atleast_1d(kth)])
    p = dt.asarray(a, device=device)
    assert p.partition(3) is None
    np.testing.assert_array_equal(to_np(p)[:, 3], np.sort(a, axis=-1)[:, 3])
    part = np.take_along_axis(a, to_np(t.argpartition(2, axis=0)), 0)
    want = np.sort(a, axis=0)  # a partition: the 2 smallest first (NaN sorts last), in any order
    np.testing.assert_array_equal(part[2], want[2])
    np.testing.assert_array_equal(np.sort(part[:2], axis=0), want[:2])
    np.testing.assert_array_equal(np.sort(part[3:], axis=0), want[3:])


def test_partition_on_the_cpu_is_numpys():
    """On the CPU partition and argpartition are NumPy's own (introselect,
    O(n)), on views: NumPy's very result, kth lists and tensors, every axis."""
    rng = np.random.default_rng(12)
    a = rng.standard_normal((6, 300))
    a[2, 5] = np.nan
    t = dt.asarray(a)
    for kth, axis in [(17, -1), ([0, 5, -1], 1), (3, 0), (dt.asarray([1, 2]), 0), (250, None)]:
        ks = kth.numpy() if isinstance(kth, dt.Tensor) else kth
        assert_same(dt.partition(t, kth, axis=axis), np.partition(a, ks, axis=axis))
        assert_same(dt.argpartition(t, kth, axis=axis), np.argpartition(a, ks, axis=axis))
    top = dt.argpartition(dt.asarray(a[0]), -10)[-10:]
    np.testing.assert_array_equal(np.sort(a[0][to_np(top)]), np.sort(a[0])[-10:])


def test_partition_orders_around_kth(device):
    rng = np.random.default_rng(4)
    a = rng.integers(0, 50, 200)
    got = to_np(dt.partition(dt.asarray(a, device=device), 77))
    assert (got[:77] <= got[77]).all() and (got[78:] >= got[77]).all()
    assert got[77] == np.partition(a, 77)[77]


def test_lexsort(device):
    rng = np.random.default_rng(5)
    keys = [rng.integers(0, 3, 50), rng.integers(0, 4, 50), rng.standard_normal(50).round()]
    tk = [dt.asarray(k, device=device) for k in keys]
    assert_same(dt.lexsort(tk), np.lexsort(keys))
    assert_same(dt.lexsort(tuple(tk[:2])), np.lexsort(tuple(keys[:2])))
    m = np.stack([keys[0], keys[1]])
    assert_same(dt.lexsort(dt.asarray(m, device=device)), np.lexsort(m))
    two = [k.reshape(5, 10) for k in keys[:2]]
    assert_same(dt.lexsort([dt.asarray(k, device=device) for k in two], axis=0), np.lexsort(two, axis=0))
    assert_same(dt.lexsort([dt.asarray(k, device=device) for k in two]), np.lexsort(two))


def test_sort_empty_and_zero_d(device):
    for shape in [(0,), (3, 0), (0, 4)]:
        a = np.zeros(shape, np.float32)
        t = dt.asarray(a, device=device)
        for axis in (-1, 0, None):
            assert_same(dt.sort(t, axis=axis), np.sort(a, axis=axis))
            assert_same(dt.argsort(t, axis=axis), np.argsort(a, axis=axis))
    z = np.array(3.5)
    assert_same(dt.sort(dt.asarray(z, device=device), axis=None), np.sort(z, axis=None))
    assert_same(dt.argsort(dt.asarray(z, device=device), axis=None), np.argsort(z, axis=None))


def test_sort_errors(device):
    a = np.array([3, 1, 2])
    t = dt.asarray(a, device=device)
    same_error(lambda: np.sort(a, kind="bogus"), lambda: dt.sort(t, kind="bogus"))
    same_error(lambda: np.sort(a, kind="stable", stable=True), lambda: dt.sort(t, kind="stable", stable=True))
    same_error(lambda: np.sort(a, axis=1), lambda: dt.sort(t, axis=1))
    same_error(lambda: np.argsort(a, axis=-2), lambda: dt.argsort(t, axis=-2))
    same_error(lambda: np.sort(np.array(1.0)), lambda: dt.sort(dt.asarray(1.0, device=device)))
    same_error(lambda: np.sort(a, order="x"), lambda: dt.sort(t, order="x"))
    same_error(lambda: np.partition(a, 3), lambda: dt.partition(t, 3))
    same_error(lambda: np.partition(a, -4), lambda: dt.partition(t, -4))
    same_error(lambda: np.argpartition(a, [0, 5]), lambda: dt.argpartition(t, [0, 5]))
    with pytest.raises(TypeError):
        dt.partition(t, 1.5)
    same_error(lambda: np.lexsort([]), lambda: dt.lexsort([]))
    same_error(lambda: np.lexsort([a, a[:2]]), lambda: dt.lexsort([t, t[:2]]))
    with pytest.raises(TypeError):
        dt._C._sort(t, False, False, None)
    with pytest.raises(TypeError):  # the output's dtype
        dt._C._sort(t, False, True, dt.empty((3,), dtype="int32", device=device))
    with pytest.raises(ValueError):  # the output's shape
        dt._C._sort(t, False, False, dt.empty((4,), dtype=t.dtype, device=device))
    with pytest.raises(ValueError):  # the output overlaps the input
        dt._C._sort(t, False, False, t)
    assert_same(t, a)


def test_partition_kth_and_zero_d(device):
    a = np.array([3, 1, 2])
    t = dt.asarray(a, device=device)
    for kth in (True, [False], np.array([0, 1], bool)):
        same_error(lambda: np.partition(a, kth), lambda: dt.partition(t, kth))
        same_error(lambda: np.argpartition(a, kth), lambda: dt.argpartition(t, kth))
    # NumPy's argpartition and argsort take a 0-d array as 1-d; partition and sort do not
    z = np.array(5.0)
    tz = dt.asarray(z, device=device)
    for kth, axis in [(0, -1), (-1, 0), ([0, 0], -1), (0, None)]:
        assert_same(dt.argpartition(tz, kth, axis=axis), np.argpartition(z, kth, axis=axis))
    assert_same(tz.argpartition(0), z.argpartition(0))
    assert_same(dt.argsort(tz), np.argsort(z))
    assert_same(dt.argsort(tz, axis=0), np.argsort(z, axis=0))
    same_error(lambda: np.argpartition(z, 1), lambda: dt.argpartition(tz, 1))
    same_error(lambda: np.argpartition(z, 0, axis=3), lambda: dt.argpartition(tz, 0, axis=3))
    same_error(lambda: np.argsort(z, axis=2), lambda: dt.argsort(tz, axis=2))
    same_error(lambda: np.partition(z, 0), lambda: dt.partition(tz, 0))
    # the in-place methods need an integer axis
    m = np.ones((2, 2))
    tm = dt.asarray(m, device=device)
    same_error(lambda: m.sort(axis=None), lambda: tm.sort(axis=None))
    same_error(lambda: m.partition(0, axis=None), lambda: tm.partition(0, axis=None))
    assert_same(tm.argsort(axis=None), m.argsort(axis=None))
    # an empty array takes any integer kth (nothing to place); a non-empty one still checks
    for shape, kth, axis in [((0, 3), 5, 0), ((2, 0), 5, 0), ((2, 0), 5, 1), ((0,), [0, 3], -1), ((2, 3), 5, 1)]:
        e = np.zeros(shape)
        te = dt.asarray(e, device=device)
        for np_f, dt_f in ((np.partition, dt.partition), (np.argpartition, dt.argpartition)):
            if e.size == 0:
                assert_same(dt_f(te, kth, axis=axis), np_f(e, kth, axis=axis))
            else:
                same_error(lambda: np_f(e, kth, axis=axis), lambda: dt_f(te, kth, axis=axis))


def test_lexsort_scalar_keys(device):
    # a 1-d key array is a sequence of 0-d keys: NumPy sorts the one position there is
    k = np.array([3.0, 2, 1])
    tk = dt.asarray(k, device=device)
    for axis in (-1, 0):
        got = dt.lexsort(tk, axis=axis)
        assert_same(got, np.lexsort(k, axis=axis))
        assert got.device == tk.device
    assert_same(dt.lexsort([dt.asarray(3.0, device=device), dt.asarray(2.0, device=device)]),
                np.lexsort([np.array(3.0), np.array(2.0)]))
    for axis in (1, -2, None):
        same_error(lambda: np.lexsort(k, axis=axis), lambda: dt.lexsort(tk, axis=axis))


def test_digitize_monotonic_bins(device):
    # Note [Monotonic bins]: compared (not subtracted) in float64, NaN as NumPy finds it
    x = np.array([-128, -120, -1, 0, 1, 2, 3, 120, 127], np.int64)
    tx = dt.asarray(x, device=device)
    info = np.iinfo(np.int64)
    for bins in [np.array([3, 2, 0], np.uint8), np.array([-100, 100], np.int8), np.array([100, -100], np.int8),
                 np.array([0, 255], np.uint8), np.array([info.min, 0, info.max]), np.array([info.max, 0, info.min]),
                 np.array([1, 1, 1], np.int16), np.array([False, True]), np.array([0, np.nan]),
                 np.array([np.nan, np.nan]), np.array([1.0, 1, 0]), np.array([0.0, 1, np.nan])]:
        tb = dt.asarray(bins, device=device)
        for right in (False, True):
            assert_same(dt.digitize(tx, tb, right=right), np.digitize(x, bins, right=right))
    for bins in [np.array([0, 2, 1], np.uint8), np.array([127, -128, 0], np.int8), np.array([0.0, np.nan, 1, 2]),
                 np.array([np.nan, 1, 2])]:
        same_error(lambda: np.digitize(x, bins), lambda: dt.digitize(tx, dt.asarray(bins, device=device)))
    same_error(lambda: np.digitize(x, [1 + 0j, 2]), lambda: dt.digitize(tx, dt.asarray([1 + 0j, 2], device=device)))


def test_searchsorted_sorter_out_of_range(device):
    a = np.array([30, 10, 20])
    t = dt.asarray(a, device=device)
    for sorter in ([1, 5, 0], [1, -1, 2], [1, 2, 3]):
        with pytest.raises(ValueError, match="^Sorter index out of range.$"):
            dt.searchsorted(t, dt.asarray([15, 25], device=device), sorter=dt.asarray(sorter, device=device))
    sorter = dt.asarray(np.array([1, 2, 0], np.uint8), device=device)
    assert_same(dt.searchsorted(t, dt.asarray([15, 25], device=device), sorter=sorter),
                np.searchsorted(a, [15, 25], sorter=np.array([1, 2, 0], np.uint8)))


def test_sort_keeps_element_bits_and_zero_order(device):
    # a stable values sort keeps -0.0 where it was among equal zeros, and
    # every NaN's own bits (sign and payload), as NumPy's stable sort does
    a = np.array([0.0, -0.0, 1.0, -0.0, 0.0, -2.0])
    got = to_np(dt.sort(dt.asarray(a, device=device), stable=True))
    want = np.sort(a, kind="stable")
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    bits = np.array([1.0, np.nan, -np.nan, 0.0, np.nan]).view(np.uint64)
    bits[1] |= 5
    n = bits.view(np.float64)
    for dtype in ("float64", "float32", "float16"):
        x = n.astype(dtype) if dtype != "float64" else n
        got = to_np(dt.sort(dt.asarray(x, device=device), stable=True))
        want = np.sort(x, kind="stable")
        np.testing.assert_array_equal(got.view(f"u{got.itemsize}"), want.view(f"u{want.itemsize}"))
        got = to_np(dt.sort(dt.asarray(x, device=device), descending=True))
        np.testing.assert_array_equal(got.view(f"u{got.itemsize}"), descending_sort(x, 0).view(f"u{x.itemsize}"))


def test_sort_of_misaligned_memory():
    buf = np.zeros(8 * 5 + 1, np.uint8)
    m = np.frombuffer(buf.data, dtype=np.float64, count=5, offset=1)
    m[...] = [3.0, -1.0, 2.0, 0.5, -7.0]
    t = dt.asarray(m)
    assert_same(dt.sort(t, stable=True), np.sort(m))
    assert_same(dt.argsort(t, stable=True), np.argsort(m, kind="stable"))


@pytest.fixture
def threads():
    """Set devtensor's CPU threads for a test, restored afterwards."""
    before = dt.get_num_threads()
    yield dt.set_num_threads
    dt.set_num_threads(before)


def numpy_sort(a, axis=-1):
    """NumPy's sort; a float16 array through float32 (exact, the same order,
    NaN last): NumPy 2.4.6's float16 sort leaves arrays of 40000 elements or
    more out of order on this project's AVX-512 machines."""
    if a.dtype == np.float16:
        return np.sort(a.astype(np.float32), axis=axis).astype(np.float16)
    return np.sort(a, axis=axis)


@pytest.mark.parametrize("count", [2, 3, 5])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "uint32", "int64", "uint64", "float16",
                                   "float32", "float64", "complex64"])
def test_default_sort_across_threads(threads, count, dtype):
    # NumPy's sort of runs (or of rows) on `count` threads, runs merged
    # (Note [Sorting runs with NumPy's sort]): NaN last, every value kept
    threads(count)
    rng = np.random.default_rng(count)
    for shape, layout in [(((1 << 17) + 3,), "contiguous"), ((3, 40000), "contiguous"),
                          ((70001, 2), "transposed"), ((1 << 17,), "reversed")]:
        t, a = make(sample(rng, shape, dtype), layout, "cpu")
        same_sorted(dt.sort(t), numpy_sort(a))
        same_sorted(dt.sort(t, axis=0), numpy_sort(a, axis=0))
    a = np.sort(rng.integers(-5, 5, 1 << 17)).astype(dtype)  # sorted, and in reverse
    same_sorted(dt.sort(dt.asarray(a)), numpy_sort(a))
    same_sorted(dt.sort(dt.asarray(a[::-1].copy())), numpy_sort(a))


def test_default_sort_keeps_nan_count_and_zeros(threads):
    threads(2)
    a = np.zeros(1 << 17)
    a[::3] = -0.0
    a[5::7] = np.nan
    a[1::11] = -np.inf
    got = to_np(dt.sort(dt.asarray(a)))
    np.testing.assert_array_equal(got, np.sort(a))
    assert np.isnan(got).sum() == np.isnan(a).sum() and (got == 0).sum() == (a == 0).sum()


def test_sort_numpy_runs_small_and_odd_shapes(threads):
    # the C entry point itself: fewer elements than threads, empty rows,
    # dtypes it does not merge, and arguments it refuses
    threads(5)
    for a in (np.array([2.0, np.nan, 1.0]), np.array([3], np.int8), np.zeros((4, 0)), np.array([[2, 1], [0, -1]]),
              np.arange(200.0)[::-1].copy()):
        out = np.empty_like(a)
        assert dt._C._sort_numpy_runs(a, out)
        np.testing.assert_array_equal(out, np.sort(a))
    out = np.empty(3, np.complex128)
    assert not dt._C._sort_numpy_runs(np.ones(3, np.complex128), out)
    for src, dst in ((np.ones(4), np.ones(3)), (np.ones(4), np.ones(4, np.float32)), (np.ones(8)[::2], np.ones(4)),
                     (np.ones(4), np.ones(4)[::-1]), (np.ones(()), np.ones(()))):
        with pytest.raises(ValueError, match="C-contiguous"):
            dt._C._sort_numpy_runs(src, dst)
    frozen = np.ones(4)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        dt._C._sort_numpy_runs(np.ones(4), frozen)
    base = np.arange(10.0)
    for src, dst in ((base, base), (base[:6], base[4:])):
        with pytest.raises(ValueError, match="overlap"):
            dt._C._sort_numpy_runs(src, dst)
    np.testing.assert_array_equal(base, np.arange(10.0))
    for args in (([1.0], np.ones(1)), (np.ones(1),), (np.ones(1), np.ones(1), None)):
        with pytest.raises(TypeError):
            dt._C._sort_numpy_runs(*args)


# ---- both CUDA sorts: CUB's (the emulation's reference in CI) and our own radix passes ----

BOTH_SORTS_CODE = """
import json
import numpy as np
import devtensor as dt
rng = np.random.default_rng(3)
cases = [rng.standard_normal(5000).astype(np.float32), rng.integers(-2**62, 2**62, (7, 300)),
         rng.integers(0, 4, 2000).astype(np.uint8), np.array([np.nan, -0.0, 0.0, np.inf, -1.0, np.nan] * 50),
         (rng.standard_normal(400) + 1j * rng.integers(0, 3, 400)).astype(np.complex64),
         rng.standard_normal((3, 0)), rng.integers(0, 2, 9).astype(bool)]
bad = []
for i, a in enumerate(cases):
    t = dt.asarray(a, device="cuda:0")
    for descending in (False, True):
        want = np.argsort(-a if descending and a.dtype.kind in "fi" else a, axis=-1, kind="stable")
        got = dt.argsort(t, stable=True, descending=descending).cpu().numpy()
        if not descending or (a.dtype.kind in "fi" and not np.isnan(a).any()):  # (descending: NaN first)
            if not np.array_equal(got, want):
                bad.append((i, descending, "argsort"))
        values = dt.sort(t, descending=descending).cpu().numpy()
        if not np.array_equal(values, np.take_along_axis(a, got, -1), equal_nan=True):
            bad.append((i, descending, "sort"))
print(json.dumps(bad))
"""


@requires_emulation
@pytest.mark.parametrize("own", ["0", "1"])
def test_cuda_sort_with_cub_and_with_own_passes(own):
    """Note [CUB's radix sort]: the sort through CUB's DeviceRadixSort (the
    emulation's reference of it) and through devtensor's own radix passes
    (DEVTENSOR_CUDA_OWN_SORT=1) give NumPy's stable order: several words
    (int64, complex), rows, NaN and signed zeros, bool and uint8, descending
    (checked against NumPy's stable argsort of the negated values)."""
    p = run_python(BOTH_SORTS_CODE, {"DEVTENSOR_EMULATE_CUDA": "1", "DEVTENSOR_CUDA_OWN_SORT": own})
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "[]"
