"""reduce, accumulate, reduceat, outer and at of devtensor's ufuncs (Note [ufunc
methods]), called directly and through NumPy's ufuncs (__array_ufunc__), against
NumPy on every device."""
import re

import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, same_error, to_np

BINARY_FLOAT = ["add", "multiply", "maximum", "minimum", "subtract", "divide", "power",
                "arctan2", "hypot", "logaddexp", "copysign"]
BINARY_INT = ["add", "multiply", "maximum", "minimum", "subtract", "bitwise_and", "bitwise_or",
              "bitwise_xor", "left_shift"]
BINARY_BOOL = ["logical_and", "logical_or", "logical_xor", "equal", "not_equal"]


def data(kind, shape=(3, 4), seed=0):
    rng = np.random.default_rng(seed)
    if kind == "float":
        return rng.uniform(0.5, 2.0, shape)
    if kind == "int":
        return rng.integers(1, 5, shape).astype(np.int32)
    return rng.random(shape) > 0.4


def close(got, want, device):
    want = np.asarray(want)
    exact = want.dtype.kind in "biu"
    assert_same(got, want, device, exact=exact, rtol=1e-12, atol=1e-12)


CASES = ([("float", n) for n in BINARY_FLOAT] + [("int", n) for n in BINARY_INT] +
         [("bool", n) for n in BINARY_BOOL])


@pytest.mark.parametrize("kind,name", CASES, ids=[f"{k}-{n}" for k, n in CASES])
@pytest.mark.parametrize("axis", [0, 1, -1, None, (0, 1)])
def test_reduce(device, kind, name, axis):
    a = data(kind)
    t = dt.asarray(a, device=device)
    f, g = getattr(dt, name), getattr(np, name)
    try:
        want = g.reduce(a, axis=axis)
    except ValueError:
        same_error(lambda: g.reduce(a, axis=axis), lambda: f.reduce(t, axis=axis))
        return
    if type(axis) is int:
        want = _numpy_reduce(g, a, axis)
    close(f.reduce(t, axis=axis), want, device)
    close(g.reduce(t, axis=axis), want, device)  # NumPy's ufunc, devtensor's method
    close(f.reduce(t, axis=axis, keepdims=True), np.expand_dims(want, axis if axis is not None
                                                                else (0, 1)), device)


def _numpy_reduce(g, a, axis):
    """NumPy's g.reduce(a, axis), or its definition where NumPy's loop is wrong:
    NumPy 2.4.6 (the releases this suite ran with before were right) reduces contiguous float64 rows with power and arctan2 to
    g(first, last), skipping the elements between (np.power.reduce([2., 3.,
    2.]) is 4.0, not 64.0); the left fold of g's elementwise calls is the
    documented result (and NumPy's on other layouts)."""
    want = g.reduce(a, axis=axis)
    rows = np.moveaxis(a, axis, 0)
    fold = rows[0]
    for row in rows[1:]:
        fold = g(fold, row)
    if not np.allclose(want, fold, rtol=1e-12, atol=1e-12, equal_nan=True):
        assert g.__name__ in ("power", "arctan2") and np.lib.NumpyVersion(np.__version__) >= "2.4.6", \
            (g.__name__, np.__version__, want, fold)  # a NumPy result we have not seen wrong
        return fold
    return want


def test_numpy_reduce_oracle():
    """The oracle above: NumPy's reduce where it is right, the left fold where it is not."""
    x = np.array([2.0, 3.0, 2.0])
    assert _numpy_reduce(np.power, x, 0) == 64.0
    assert _numpy_reduce(np.subtract, np.array([10.0, 3.0, 2.0, 1.0]), 0) == 4.0


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "subtract", "bitwise_or"])
def test_reduce_keywords(device, name):
    a = data("int")
    t = dt.asarray(a, device=device)
    f, g = getattr(dt, name), getattr(np, name)
    close(f.reduce(t, axis=0, initial=3), g.reduce(a, axis=0, initial=3), device)
    close(f.reduce(t, axis=1, dtype="int64"), g.reduce(a, axis=1, dtype="int64"), device)
    mask = np.array([[True, False, True, True]] * 3)
    if g.identity is not None or name == "maximum":
        close(f.reduce(t, axis=0, where=mask, initial=1), g.reduce(a, axis=0, where=mask,
                                                                    initial=1), device)
    out = dt.empty(4, dtype=dt.int32, device=device) if name != "add" else \
        dt.empty(4, dtype=dt.int64, device=device)
    r = f.reduce(t, axis=0, out=out, dtype=out.dtype)
    assert r is out
    close(out, g.reduce(a, axis=0, dtype=np.dtype(str(out.dtype))), device)


def test_reduce_empty_and_errors(device):
    e = dt.ones((0, 3), device=device)
    close(dt.add.reduce(e), np.add.reduce(np.ones((0, 3))), device)
    close(dt.bitwise_and.reduce(dt.ones((0, 2), dtype=dt.int32, device=device)),
          np.bitwise_and.reduce(np.ones((0, 2), np.int32)), device)
    for call in (lambda m, x: m.subtract.reduce(x),
                 lambda m, x: m.subtract.reduce(x, axis=None),
                 lambda m, x: m.subtract.reduce(x, where=x > 0),
                 lambda m, x: m.exp.reduce(x),
                 lambda m, x: m.exp.accumulate(x),
                 lambda m, x: m.exp.outer(x, x),
                 lambda m, x: m.add.reduce(x, axis=2)):
        same_error(lambda: call(np, np.ones((0, 3))), lambda: call(dt, e))


@pytest.mark.parametrize("kind,name", CASES, ids=[f"{k}-{n}" for k, n in CASES])
@pytest.mark.parametrize("axis", [0, 1])
def test_accumulate(device, kind, name, axis):
    a = data(kind, (5, 6), seed=1)
    t = dt.asarray(a, device=device)
    f, g = getattr(dt, name), getattr(np, name)
    want = g.accumulate(a, axis=axis)
    close(f.accumulate(t, axis=axis), want, device)
    close(g.accumulate(t, axis=axis), want, device)


def test_accumulate_lengths_and_dtype(device):
    for n in range(0, 10):
        a = np.arange(1, n + 1, dtype=np.int64) % 4
        t = dt.asarray(a, device=device)
        close(dt.maximum.accumulate(t), np.maximum.accumulate(a), device)
        close(dt.subtract.accumulate(t), np.subtract.accumulate(a), device)
        close(dt.bitwise_xor.accumulate(t), np.bitwise_xor.accumulate(a), device)
    a = np.arange(1, 6, dtype=np.int8)
    close(dt.multiply.accumulate(dt.asarray(a, device=device), dtype="int64"),
          np.multiply.accumulate(a, dtype=np.int64), device)
    with pytest.raises(TypeError, match="cannot accumulate on a scalar"):
        dt.add.accumulate(dt.asarray(1.0, device=device))


def same_bits(got, want, device):
    """got (a tensor) is want (a NumPy array) to the bit: dtype, shape, device,
    and which NaN and which zero sits where."""
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape and got.device == dt.device(device)
    g, want = np.ascontiguousarray(to_np(got)), np.ascontiguousarray(want)
    if want.dtype.kind == "c":
        g, want = g.view(g.real.dtype), want.view(want.real.dtype)
    assert g.view(np.uint8).tobytes() == want.view(np.uint8).tobytes(), (g, want)


_TIES = [-2.0, -1.0, -0.0, 0.0, 1.0, np.nan]


def _ties(dtype, shape, seed):
    """values with many ties, signed zeros and (floats) NaNs of several kinds"""
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) > 0.6
    if dtype[0] in "iu":
        return rng.integers(0, 4, shape).astype(dtype)
    re = rng.choice(_TIES, shape)
    return (re + 1j * rng.choice(_TIES, shape) if dtype[0] == "c" else re).astype(dtype)


def _first_of_ties(name, x, axis):
    """name.accumulate(x, axis) folded in order with devtensor's maximum and
    minimum, which keep the first of equal values (-0.0 then 0.0 stays
    -0.0) and the first NaN.  NumPy's float32 and float64 loops keep the
    second of equal values (its float16 and complex loops the first): the
    README says so; its other bits are NumPy's."""
    if x.dtype.kind != "f":
        return getattr(np, name).accumulate(x, axis=axis)
    y = np.moveaxis(x, axis, 0).copy()
    for i in range(1, y.shape[0]):
        a, b = y[i - 1], y[i]
        keep = (a >= b if name == "maximum" else a <= b) | np.isnan(a)
        y[i] = np.where(keep, a, b)
    return np.moveaxis(y, 0, axis)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float16", "float32", "float64",
                                   "complex64", "complex128"])
def test_extreme_scans(device, dtype):
    """minimum/maximum.accumulate are the backend's MIN and MAX scans: the
    in-order fold of devtensor's minimum and maximum to the bit (the first
    NaN, the first of -0.0 and 0.0) on every layout and axis, directly and
    through NumPy's ufuncs; NumPy's result but for the sign of tied zeros."""
    a = _ties(dtype, (4, 5, 33), 2)
    base = dt.asarray(a, device=device)
    for x, t in ((a, base), (a[:, ::-1, 1::2], base[:, ::-1, 1::2]), (a.transpose(2, 0, 1), base.permute(2, 0, 1))):
        for name in ("maximum", "minimum"):
            for axis in (0, 1, 2, -1):
                want = _first_of_ties(name, x, axis)
                got = getattr(dt, name).accumulate(t, axis=axis)
                same_bits(got, want, device)
                same_bits(getattr(np, name).accumulate(t, axis=axis), want, device)
                np.testing.assert_array_equal(to_np(got), getattr(np, name).accumulate(x, axis=axis), strict=True)
    if dtype == "float32":  # bfloat16 holds these values exactly
        b = base.astype("bfloat16")
        same_bits(dt.maximum.accumulate(b, axis=2).astype("float32"), _first_of_ties("maximum", a, 2), device)
        assert dt.minimum.accumulate(b).dtype == dt.bfloat16


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_long_extreme_scans(device, dtype):
    """Rows longer than a CUDA chunk (4096) and, on the CPU with two threads,
    cut in parts (Note [Scans on the CPU]): a part's or chunk's total keeps
    the first of a tie and the first NaN, so every later element shows it.
    Positions 5 and 257 fall to threads 5 and 1 of a chunk's 256."""
    n = (1 << 17) + 13 if device == "cpu" else 3 * 4096 + 7
    early, late = (-0.0, 0.0) if dtype[0] == "f" else (complex(np.nan, 1), complex(1, np.nan))
    a = np.full(n, -1.0, dtype=dtype)
    a[5], a[257], a[n // 2] = early, late, late
    b = np.full(n, 1.0, dtype=dtype)
    b[5], b[257], b[n // 2] = (late, early, early) if dtype[0] == "c" else (0.0, -0.0, -0.0)
    before = dt.get_num_threads()
    try:
        for threads in ((1, 2) if device == "cpu" else (before,)):
            dt.set_num_threads(threads)
            same_bits(dt.maximum.accumulate(dt.asarray(a, device=device)), _first_of_ties("maximum", a, 0), device)
            same_bits(dt.minimum.accumulate(dt.asarray(b, device=device)), _first_of_ties("minimum", b, 0), device)
            rows = np.stack([a, b, a[::-1]])
            same_bits(dt.maximum.accumulate(dt.asarray(rows, device=device), axis=1),
                      _first_of_ties("maximum", rows, 1), device)
    finally:
        dt.set_num_threads(before)


def test_extreme_scan_arguments(device):
    """dtype= casts first, out= receives the result, an empty axis gives an
    empty result, and a scalar still refuses, as NumPy."""
    a = np.array([[3, 1, 4], [1, 5, 9]], np.int16)
    t = dt.asarray(a, device=device)
    same_bits(dt.maximum.accumulate(t, dtype="float64"), np.maximum.accumulate(a, dtype=np.float64), device)
    out = dt.zeros((2, 3), dtype=dt.int16, device=device)
    assert dt.minimum.accumulate(t, axis=1, out=out) is out
    same_bits(out, np.minimum.accumulate(a, axis=1), device)
    e = np.zeros((0, 3))
    same_bits(dt.maximum.accumulate(dt.asarray(e, device=device)), np.maximum.accumulate(e), device)
    same_bits(dt.maximum.accumulate(dt.asarray(e, device=device), axis=1), np.maximum.accumulate(e, axis=1),
              device)
    for call in (lambda m, x: m.maximum.accumulate(x[0, 0]),
                 lambda m, x: m.maximum.accumulate(x, axis=2),
                 lambda m, x: m.minimum.accumulate(x, axis=None)):
        same_error(lambda: call(np, a), lambda: call(dt, t))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "bitwise_or"])
def test_reduceat(device, name):
    a = np.arange(1, 17, dtype=np.int64).reshape(2, 8)
    t = dt.asarray(a, device=device)
    for idx in ([0, 4, 1, 5], [0, 3], [7], [2, 2, 6]):
        f, g = getattr(dt, name), getattr(np, name)
        close(f.reduceat(t, idx, axis=1), g.reduceat(a, idx, axis=1), device)
        close(g.reduceat(t, idx, axis=1), g.reduceat(a, idx, axis=1), device)
    same_error(lambda: np.add.reduceat(a, [9], axis=1), lambda: dt.add.reduceat(t, [9], axis=1))
    # NumPy's refusals of the indices: an array of floats (a list of them is read), 2-d, 0-d
    for idx in (np.array([0.0, 4.0]), np.array([[0, 1]]), np.array([0, 4], np.uint64), 3):
        dt_idx = dt.asarray(idx, device=device) if isinstance(idx, np.ndarray) else idx
        with pytest.raises(Exception) as want:
            np.add.reduceat(a, idx, axis=1)
        with pytest.raises(want.type):
            dt.add.reduceat(t, dt_idx, axis=1)
    close(dt.add.reduceat(t, [0.0, 4.5], axis=1), np.add.reduceat(a, [0.0, 4.5], axis=1), device)


@pytest.mark.parametrize("name", ["add", "multiply", "less", "maximum", "arctan2", "power"])
def test_outer(device, name):
    a, b = np.arange(1.0, 4.0), np.arange(1.0, 7.0).reshape(2, 3)
    f, g = getattr(dt, name), getattr(np, name)
    got = f.outer(dt.asarray(a, device=device), dt.asarray(b, device=device))
    close(got, g.outer(a, b), device)
    assert got.shape == (3, 2, 3)
    close(g.outer(dt.asarray(a, device=device), b), g.outer(a, b), device)


AT_CASES = [
    ("add", "int64", [0, 0, 2, 2, 2], [1, 2, 3, 4, 5]),
    ("add", "float64", [0, 0, 2, 2, 2], [0.1, 0.2, 0.3, 0.4, 0.5]),
    ("add", "int8", [1] * 300, 1),  # wraps as NumPy's sequential adds do
    ("subtract", "float64", [1, 1, 1], [1.0, 2.0, 3.0]),
    ("multiply", "int64", [3, 3, 0], [2, 3, 4]),
    ("maximum", "float64", [2, 2, 2], [5.0, -1.0, 7.0]),
    ("divide", "float64", [0, 0], [2.0, 4.0]),
    ("power", "int64", [1, 1], [2, 3]),
]


@pytest.mark.parametrize("name,dtype,idx,vals", AT_CASES, ids=[f"{c[0]}-{c[1]}" for c in AT_CASES])
def test_at_is_unbuffered(device, name, dtype, idx, vals):
    a = np.arange(1, 5).astype(dtype)
    t = dt.asarray(a.copy(), device=device)
    getattr(np, name).at(a, idx, vals)
    assert getattr(dt, name).at(t, idx, vals) is None
    close(t, a, device)
    u = dt.asarray(np.arange(1, 5).astype(dtype), device=device)
    getattr(np, name).at(u, dt.asarray(idx, device=device), vals)  # NumPy's ufunc, a tensor
    close(u, a, device)


def test_at_with_other_indices(device):
    a = np.zeros((3, 4))
    t = dt.zeros((3, 4), device=device)
    for index, vals in [((0, [1, 1, 3]), [1.0, 2.0, 3.0]), (np.s_[:, 1], 5.0),
                        ((np.array([0, 0, 2]), np.array([1, 1, 3])), 1.0),
                        (np.array([True, False, True]), 2.0)]:
        np.add.at(a, index, vals)
        dt.add.at(t, index, vals)
        close(t, a, device)
    strided = dt.zeros((4, 6), device=device)[:, ::2]  # not contiguous: written back in place
    dt.add.at(strided, ([0, 0], [1, 1]), 1.0)
    assert to_np(strided)[0, 1] == 2.0
    v = np.arange(5.0)
    w = dt.arange(5.0, device=device)
    np.negative.at(v, [0, 0, 1])
    dt.negative.at(w, [0, 0, 1])
    close(w, v, device)


def test_at_errors(device):
    t = dt.zeros(3, dtype=dt.int64, device=device)
    same_error(lambda: np.add.at(np.zeros(3, np.int64), [5], 1), lambda: dt.add.at(t, [5], 1))
    assert to_np(t).tolist() == [0, 0, 0]
    a = np.zeros(3, np.int64)
    np.add.at(a, [0, 0], 1.5)  # NumPy's at() casts unsafely: 1.5 -> 1, twice
    dt.add.at(t, [0, 0], 1.5)
    close(t, a, device)
    t[...] = 0
    same_error(lambda: np.add.at(np.zeros(3), [0]), lambda: dt.add.at(t, [0]))
    same_error(lambda: np.negative.at(np.zeros(3), [0], 1), lambda: dt.negative.at(t, [0], 1))
    ro = dt.asarray(np.zeros(3), device=device)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        dt.add.at(ro, [0], 1.0)
    with pytest.raises(TypeError, match="must be a devtensor.Tensor"):
        dt.add.at(np.zeros(3), [0], 1.0)


def test_attributes():
    for name in ["add", "multiply", "maximum", "logical_and", "bitwise_and", "subtract", "exp"]:
        f, g = getattr(dt, name), getattr(np, name)
        assert f.identity == g.identity
        assert f.ntypes == len(f.types) > 0 and set(f.types) <= set(g.types)
    assert dt.add.reduce.__self__ is dt.add


def test_at_histogram_and_views(device):
    # a histogram-like add.at (NumPy's own on the CPU: Note [at() on the CPU];
    # the rounds elsewhere), exact against NumPy, and a write through a view
    rng = np.random.default_rng(3)
    bins = rng.integers(0, 10, 5000)
    for dtype, vals in (("int64", 1), ("float64", rng.random(5000)), ("int32", rng.integers(-3, 3, 5000))):
        h = np.zeros(10, dtype)
        t = dt.zeros(10, dtype=dtype, device=device)
        np.add.at(h, bins, vals)
        dt.add.at(t, dt.asarray(bins, device=device), vals if np.ndim(vals) == 0 else dt.asarray(vals, device=device))
        close(t, h, device)
    base = dt.zeros((3, 4), device=device)
    dt.add.at(base[1], dt.asarray([0, 0, 3], device=device), 2.0)  # a view: base changes
    assert to_np(base).tolist() == [[0] * 4, [4.0, 0, 0, 2.0], [0] * 4]
    before = to_np(base).copy()
    same_error(lambda: np.add.at(np.zeros(4), [0, -5], 1.0), lambda: dt.add.at(base[1], [0, -5], 1.0))
    np.testing.assert_array_equal(to_np(base), before)  # checked before any write


def test_at_bfloat16_and_foreign_values():
    # bfloat16 has no NumPy dtype: the rounds; indices and values on the CPU
    # as lists, arrays or tensors all take NumPy's path
    t = dt.zeros(4, dtype=dt.bfloat16)
    dt.add.at(t, [0, 0, 3], dt.asarray([1.0, 2.0, 0.5]).astype(dt.bfloat16))
    assert to_np(t.astype(dt.float32)).tolist() == [3.0, 0.0, 0.0, 0.5]
    a = np.zeros(4)
    u = dt.zeros(4)
    for idx, vals in (([1, 1], np.array([1.0, 2.0])), (np.array([2]), [5.0]), (dt.asarray([3, 3]), dt.asarray(1.5))):
        np.add.at(a, np.asarray(idx), np.asarray(vals))
        dt.add.at(u, idx, vals)
    np.testing.assert_array_equal(to_np(u), a)


COMBINED = [("add", "float64"), ("add", "complex128"), ("subtract", "float32"), ("multiply", "float64"),
            ("maximum", "float64"), ("minimum", "int16"), ("minimum", "float32"),
            ("logical_or", "bool"), ("logical_and", "bool"), ("logical_xor", "bool"), ("bitwise_xor", "int32"),
            ("bitwise_and", "uint8"), ("bitwise_or", "int64")]


@pytest.mark.parametrize("name,dtype", COMBINED, ids=[f"{n}-{d}" for n, d in COMBINED])
def test_at_combines_repeated_targets(device, name, dtype):
    """Note [Combined at()]: each target's values reduced and applied once,
    against NumPy's one-by-one application: heavy repetition (2000 indices
    into 7 targets, one target never hit), NaN among float values, through
    the padded and the by-length paths of Note [Segments by length]."""
    rng = np.random.default_rng(abs(hash((name, dtype))) % 2**32)
    for n_idx, skew in ((2000, False), (300, True)):
        idx = rng.integers(0, 6, n_idx)
        if skew:  # one long run and many short ones: grouped by length
            idx = np.concatenate([np.zeros(250, np.int64), np.arange(1, 6).repeat(np.arange(1, 6))])
            rng.shuffle(idx)
        if dtype == "bool":
            vals = rng.random(idx.size) < (0.02 if name == "logical_or" else 0.98)
        elif np.dtype(dtype).kind in "iu":
            vals = rng.integers(0, 100, idx.size).astype(dtype)
        elif name == "multiply":
            vals = 1 + rng.standard_normal(idx.size) * 1e-3
        else:
            vals = rng.standard_normal(idx.size).astype(dtype)
            if np.dtype(dtype).kind == "c":
                vals = vals + 1j * rng.standard_normal(idx.size)
            vals[rng.random(idx.size) < 0.01] = np.nan if name != "add" else vals[0]
        a = (np.arange(7) % 3 == 1) if dtype == "bool" else (np.arange(7) + 1).astype(dtype)
        t = dt.asarray(a.copy(), device=device)
        with np.errstate(invalid="ignore"):  # NaN in maximum: NumPy's warning (also on the CPU device)
            getattr(np, name).at(a, idx, vals)
            getattr(dt, name).at(t, dt.asarray(idx, device=device), dt.asarray(vals, device=device))
        if a.dtype.kind in "biu":
            close(t, a, device)
        else:  # a reduction's rounding, not NumPy's one-by-one (Note [Combined at()])
            assert_same(t, a, device, exact=False, rtol=1e-5 if dtype == "float32" else 1e-12, atol=1e-5)


def test_at_that_casts_applies_one_by_one(device):
    # values of a wider dtype than the array cast at every application in
    # NumPy (1.5 -> 1, twice): such at() takes the rounds, not one combined
    # application
    for name, dtype, vals in (("add", "int64", [1.5, 1.5, 2.5]), ("subtract", "float32", [1e-8] * 3),
                              ("multiply", "int8", [1.9, 1.9, 1.9])):
        a = np.ones(3, dtype)
        t = dt.asarray(a.copy(), device=device)
        getattr(np, name).at(a, [1, 1, 1], vals)
        getattr(dt, name).at(t, dt.asarray([1, 1, 1], device=device), dt.asarray(vals, device=device))
        close(t, a, device)


@pytest.mark.parametrize("name", ["add", "subtract", "maximum", "multiply", "logical_xor", "divide"])
def test_reduceat_many_segments(device, name):
    """Note [Segments by length]: many segments at once (padded, or grouped
    by length when one is far longer, and always for divide, which has no
    right identity here), indices that go back, repeat and end the axis,
    along either axis of a 2-d tensor; NumPy's results (on the CPU NumPy's
    own reduceat, on a view).  (Not arctan2: NumPy's own arctan2.reduce of
    a contiguous row is not the left fold its strided reduce gives.)"""
    rng = np.random.default_rng(len(name))
    a = rng.standard_normal((300, 3)) if name != "logical_xor" else rng.random((300, 3)) < 0.5
    if name == "multiply":
        a = 1 + a * 1e-2
    t = dt.asarray(a, device=device)
    for idx in (np.sort(rng.integers(0, 300, 40)), np.array([0, 290, 3, 3, 299, 5]), np.array([0, 1, 2, 3]),
                np.arange(0, 300, 7), np.r_[0, 250:300]):
        f, g = getattr(dt, name), getattr(np, name)
        assert_same(f.reduceat(t, idx, axis=0), g.reduceat(a, idx, axis=0), device, exact=False, rtol=1e-12,
                    atol=1e-12)
        assert_same(f.reduceat(t.T, idx, axis=1), g.reduceat(a.T, idx, axis=1), device, exact=False,
                    rtol=1e-12, atol=1e-12)
    same_error(lambda: np.add.reduceat(a, [0, 300]), lambda: dt.add.reduceat(t, [0, 300]))
    same_error(lambda: np.add.reduceat(a, [-1]), lambda: dt.add.reduceat(t, [-1]))


@pytest.mark.parametrize("dtype,value", [("int8", 300), ("float32", 1.0), ("int8", 1.5), ("uint8", -1),
                                         ("int16", True), ("complex64", 1j), ("uint64", 2**64 - 1),
                                         ("float16", 0.1)])
def test_at_with_a_python_scalar(device, dtype, value):
    # a scalar that NumPy's weak-scalar rule gives the array's dtype is cast
    # once (the combined path); others (an int out of range, a float into
    # ints) keep NumPy's per-application cast
    a = np.zeros(3, dtype)
    t = dt.zeros(3, dtype=getattr(dt, dtype), device=device)
    np.add.at(a, [0, 0, 1, 0], value)
    dt.add.at(t, dt.asarray([0, 0, 1, 0], device=device), value)
    if dtype == "float16":  # 0.1 three times, summed wide then added: one float16 ulp from NumPy's
        assert_same(t, a, device, exact=False, rtol=1e-3, atol=0)
    else:
        close(t, a, device)


# (call, arrays): call(m, *arrays) with m numpy or devtensor and the arrays
# NumPy's or tensors on the device under test
LOOP_CASES = [
    ("subtract where initial", lambda m, a, w: m.subtract.reduce(a, where=w, initial=100),
     (np.array([10, 1, 2]), np.array([True, False, True]))),
    ("bitwise_xor where initial", lambda m, a, w: m.bitwise_xor.reduce(a, where=w, initial=8),
     (np.array([1, 2, 4]), np.array([True, False, True]))),
    ("bitwise_or uint16 where", lambda m, a, w: m.bitwise_or.reduce(a, where=w, initial=8),
     (np.array([1, 2, 4], np.uint16), np.array([True, False, True]))),
    ("fmod where initial", lambda m, a, w: m.fmod.reduce(a, where=w, initial=100.0),
     (np.array([10.0, 3.0, 4.0]), np.array([True, False, True]))),
    ("hypot all masked", lambda m, a, w: m.hypot.reduce(a, where=w, initial=-1.0),
     (np.array([3.0]), np.array([False]))),
    ("hypot rows where", lambda m, a, w: m.hypot.reduce(a, axis=1, where=w),
     (np.array([[3.0, -4.0], [-5.0, 12.0]]), np.array([[True, False], [True, True]]))),
    ("less where bool", lambda m, a, w: m.less.reduce(a, where=w, initial=False),
     (np.array([True, False, True]), np.array([True, False, True]))),
    ("hypot from the identity", lambda m, a: m.hypot.reduce(a), (np.array([-3.0]),)),
    ("gcd from the identity", lambda m, a: m.gcd.reduce(a), (np.array([-4, -6]),)),
    ("divide bools", lambda m, a: m.divide.reduce(a, initial=2), (np.array([True, True]),)),
    ("floor_divide bools", lambda m, a: m.floor_divide.reduce(a, initial=3), (np.array([True, True]),)),
    ("power bools", lambda m, a: m.power.reduce(a, initial=2), (np.array([True, True]),)),
    ("left_shift bools", lambda m, a: m.left_shift.reduce(a, initial=3), (np.array([True, True]),)),
    ("copysign bools", lambda m, a: m.copysign.reduce(a, initial=-2), (np.array([True, False]),)),
    ("logical_xor floats", lambda m, a: m.logical_xor.reduce(a, initial=5), (np.array([1.0, 0.0, 2.0]),)),
    ("bitwise_and empty uint8", lambda m, a: m.bitwise_and.reduce(a), (np.array([], np.uint8),)),
    ("bitwise_and empty axis", lambda m, a: m.bitwise_and.reduce(a, axis=0), (np.zeros((0, 3), np.uint8),)),
    ("bitwise_and uint64 masked", lambda m, a, w: m.bitwise_and.reduce(a, where=w),
     (np.array([3, 5], np.uint64), np.array([False, False]))),
    ("initial None", lambda m, a: m.subtract.reduce(a, initial=None), (np.array([1, 2]),)),
    ("divide accumulate", lambda m, a: m.divide.accumulate(a), (np.array([1, 2, 4]),)),
    ("divide accumulate bools", lambda m, a: m.divide.accumulate(a), (np.array([True, True]),)),
    ("divide reduceat", lambda m, a: m.divide.reduceat(a, [0, 4]), (np.arange(1, 6),)),
    ("divide reduceat 3", lambda m, a: m.divide.reduceat(a, [0, 2, 4]), (np.arange(1, 6),)),
    ("hypot reduceat single", lambda m, a: m.hypot.reduceat(a, [0, 2]), (np.array([-3.0, 4.0, -5.0]),)),
    ("hypot reduceat lengths", lambda m, a: m.hypot.reduceat(a, [0, 1, 3, 4]), (np.array([-3.0, 4.0, -5.0, 6.0, -2.0]),)),
    ("divide dtype float32", lambda m, a: m.divide.reduce(a, dtype=m.float32), (np.array([True, True]),)),
    ("subtract int8 dtype int64", lambda m, a: m.subtract.reduce(a, dtype=m.int64, initial=1000), (np.array([1, 2], np.int8),)),
    ("float_power reduce", lambda m, a: m.float_power.reduce(a, axis=1), (np.array([[2, 3, 2], [1, 5, 2]]),)),
    ("float_power accumulate", lambda m, a: m.float_power.accumulate(a), (np.array([2.0, 3.0, 0.5]),)),
    ("float_power reduceat", lambda m, a: m.float_power.reduceat(a, [0, 2]), (np.array([2.0, 3.0, 0.5]),)),
]
LOOP_ERRORS = [
    ("subtract int8 initial 1000", lambda m, a: m.subtract.reduce(a, initial=1000), (np.array([1, 2], np.int8),)),
    ("less of floats", lambda m, a: m.less.reduce(a), (np.array([1.0, 2.0, 3.0]),)),
    ("subtract where without initial", lambda m, a, w: m.subtract.reduce(a, where=w),
     (np.array([10, 1, 2]), np.array([True, False, True]))),
    ("greater accumulate floats", lambda m, a: m.greater.accumulate(a), (np.array([1.0, 2.0, 0.5]),)),
    ("equal reduceat ints", lambda m, a: m.equal.reduceat(a, [0, 2]), (np.array([1, 1, 2]),)),
    ("subtract at bools", lambda m, a: m.subtract.at(a, [0], True), (np.array([True, False]),)),
    ("complex initial", lambda m, a: m.hypot.reduce(a, initial=1j), (np.array([3.0, 4.0]),)),
    ("bitwise_and dtype float64", lambda m, a: m.bitwise_and.reduce(a, dtype=m.float64), (np.array([1, 3]),)),
    ("equal axis None", lambda m, a: m.equal.reduce(a, axis=None), (np.ones((2, 2), np.int64),)),
    ("divmod reduce", lambda m, a: m.divmod.reduce(a), (np.array([1, 2]),)),
    ("divmod at", lambda m, a: m.divmod.at(a, [0], 1), (np.array([1, 2]),)),
    ("spacing reduce", lambda m, a: m.spacing.reduce(a), (np.array([1.0]),)),
    ("add at not broadcastable", lambda m, a: m.add.at(a, [0, 1], [1.0, 2.0, 3.0]), (np.zeros(3),)),
]


@pytest.mark.parametrize("name,call,arrays", LOOP_CASES, ids=[c[0] for c in LOOP_CASES])
def test_reductions_in_the_loop_dtype(device, name, call, arrays):
    """Note [The loop of a reduction]: NumPy's loop dtype for the input (divide
    of bools in float64), initial and the identity as values of it, where=
    skipping elements whatever initial is, the fold from the identity (reduce)
    or from each segment's first element (reduceat), on every device."""
    want = call(np, *arrays)
    got = call(dt, *[dt.asarray(x, device=device) for x in arrays])
    assert_same(got, want, device, exact=np.asarray(want).dtype.kind != "f", rtol=1e-15)


@pytest.mark.parametrize("name,call,arrays", LOOP_ERRORS, ids=[c[0] for c in LOOP_ERRORS])
def test_reduction_loop_errors(device, name, call, arrays):
    """NumPy's errors where the reduction has no loop or initial no value of
    it, on every device; at() refuses before it writes anything."""
    tensors = [dt.asarray(x, device=device) for x in arrays]
    with pytest.raises(Exception) as want:
        call(np, *arrays)
    if re.match(_NO_LOOP_WORDS, str(want.value)):  # NumPy's words here change with its dispatch cache
        with pytest.raises(TypeError, match=_NO_LOOP_WORDS):
            call(dt, *tensors)
    else:
        same_error(lambda: call(np, *arrays), lambda: call(dt, *tensors))
    np.testing.assert_array_equal(to_np(tensors[0]), arrays[0])


# NumPy says one or the other for a ufunc without the loop, by what it ran
# before (np.equal.reduce of ints: the first until np.equal has compared
# bools with ints in the process, the second after)
_NO_LOOP_WORDS = (r"No loop matching the specified signature and casting was found for ufunc|"
                  r"ufunc '\w+' did not contain a loop with signature matching types")


def test_function_ufuncs_at(device):
    """float_power, ldexp and spacing (FunctionUfunc) have at(), unbuffered."""
    for call in (lambda m, a: m.float_power.at(a, [0, 0, 2], 2.0), lambda m, a: m.ldexp.at(a, [0, 0], 3),
                 lambda m, a: m.spacing.at(a, [1])):
        a = np.array([1.5, 2.0, -3.0])
        t = dt.asarray(a, device=device)
        call(np, a)
        call(dt, t)
        assert_same(t, a, device)
