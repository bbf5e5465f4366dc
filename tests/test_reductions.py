"""Reductions (devtensor._reductions, csrc/core/reduce.c, the CPU and CUDA
kernels) against NumPy on every device: values, dtypes, shapes and errors,
over dtypes x axes x keepdims x layouts (strided, negative strides,
broadcast, empty, 0-d), and summation accuracy against math.fsum."""
import itertools
import math
import re
import warnings
import zlib

import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, given, run_python, settings, st, to_np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
          "float32", "float64", "complex64", "complex128"]
OPS = ["sum", "prod", "min", "max", "argmin", "argmax", "any", "all"]


def values(rng, shape, dtype, specials=False):
    n = int(np.prod(shape))
    kind = np.dtype(dtype).kind
    if kind == "b":
        a = rng.random(n) < 0.5
    elif kind in "iu":
        info = np.iinfo(dtype)
        a = rng.integers(max(info.min, -100), min(info.max, 100), n, endpoint=True).astype(dtype)
    else:
        a = (rng.standard_normal(n) * 3).astype(dtype)
        if kind == "c":
            a = a + 1j * (rng.standard_normal(n) * 3).astype(dtype)
        if kind == "f":
            a = np.round(a, 1)  # ties between elements, for argmin/argmax's first position
        if specials and n:
            pick = rng.random(n)
            a[pick < 0.1] = np.nan
            a[(pick > 0.9) & (pick < 0.95)] = np.inf
    return a.reshape(shape)


def layouts(a, layout):
    """The NumPy array a seen in `layout` (the same values, other strides)."""
    if layout == "transposed":
        return a.T
    if layout == "reversed":
        return a[::-1] if a.ndim else a
    if layout == "strided":
        big = np.repeat(a[..., None], 2, axis=-1) if a.ndim else a
        return big[..., 0] if a.ndim else a
    return a


def make(a, layout, device):
    """A tensor on device with a's values in `layout`, and the NumPy array it equals."""
    if layout == "broadcast" and a.ndim:
        base = a[:1]
        t = dt.broadcast_to(dt.asarray(np.ascontiguousarray(base), device=device), a.shape)
        return t, np.broadcast_to(base, a.shape)
    if layout == "transposed":
        t = dt.asarray(np.array(a.T, order="C"), device=device).T
        return t, a
    if layout == "reversed" and a.ndim:
        t = dt.asarray(np.ascontiguousarray(a[::-1]), device=device)[::-1]
        return t, a
    if layout == "strided" and a.ndim:
        big = np.repeat(a[..., None], 2, axis=-1)
        return dt.asarray(big, device=device)[..., 0], a
    return dt.asarray(np.array(a, order="C"), device=device), a


def exact_sum(a, axis, keepdims):
    """(the sum in float64, the sum of |a| in float64) of a real float array a:
    what a float16/float32 sum is measured against (None for other dtypes)."""
    if a.dtype not in (np.float16, np.float32):  # float64: NumPy's own sums, to 1e-12
        return None
    wide = a.astype(np.float64)
    return np.sum(wide, axis=axis, keepdims=keepdims), np.sum(np.abs(wide), axis=axis, keepdims=keepdims)


def same_result(got, expected, op, dtype, exact=None):
    """got (a tensor) equals NumPy's expected (an array or scalar) for op. A
    float16/float32 sum is measured against exact (from exact_sum): NumPy's own
    float16 column adds can be further from the true sum than ours, and two
    correct orders differ by up to tol * sum|x| (cancellation), not tol * |sum|."""
    expected = np.asarray(expected)
    kind = np.dtype(dtype).kind
    inexact = op in ("sum", "prod") and kind in "fc"
    if op in ("sum", "prod") and kind == "f" and dtype != "float64":
        tol = {"float16": 2e-3, "float32": 2e-5}[dtype]
    elif op in ("sum", "prod") and dtype == "complex64":
        tol = 2e-5
    else:
        tol = 1e-12
    if inexact:
        assert got.dtype == expected.dtype and got.shape == expected.shape
        g = to_np(got)
        if op == "prod" and kind == "c":
            # a complex product that overflows is inf or NaN by the order of its
            # multiplications: overflowed in both, compared where finite
            over = ~np.isfinite(expected)
            assert np.array_equal(over, ~np.isfinite(g))
            g, expected = np.where(over, 0, g), np.where(over, 0, expected)
        if kind == "c":
            # NumPy's assert_allclose refuses complex infinities even where they are
            # equal (inf-3.8j against inf-3.8j): the non-finite results part by part
            bad = ~np.isfinite(expected)
            for part in (np.real, np.imag):
                np.testing.assert_allclose(part(g)[bad], part(expected)[bad], rtol=tol, atol=tol, equal_nan=True)
            g, expected = np.where(bad, 0, g), np.where(bad, 0, expected)
        # complex results are compared as complex numbers: a part that cancels
        # (50.3 of |z| = 12000) carries the error of the whole
        if exact is not None and kind == "f" and op == "sum":
            # a float16 column [-2.3, 2.1, -0.4, ...]: exactly -0.6, -0.5981 from
            # float32 adds, -0.6016 from NumPy's float16 adds
            np.testing.assert_array_equal(np.isfinite(g), np.isfinite(expected))
            fin = np.isfinite(expected)
            np.testing.assert_array_equal(g[~fin], expected[~fin])
            total, scale = (np.asarray(x)[fin] for x in exact)
            err = np.abs(g[fin].astype(np.float64) - total)
            # float32 accumulation, rounded once to the result's dtype: one unit in
            # its last place, plus float32's own rounding over up to 625 terms
            ulp = np.abs(np.spacing(total.astype(dtype))).astype(np.float64)
            assert np.all(err <= ulp + 1e-6 * scale), (g, expected, total)
        else:
            np.testing.assert_allclose(g, expected, rtol=tol, atol=tol, equal_nan=True)
    else:
        assert_same(got, expected)


def numpy_call(op, a, axis, keepdims):
    f = getattr(np, op)
    if op in ("argmin", "argmax"):
        return f(a, axis=axis, keepdims=keepdims)
    return f(a, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_every_op_and_dtype(device, op, dtype):
    rng = np.random.default_rng(zlib.crc32(f"{op} {dtype}".encode()))  # not hash(): salted per run
    a = values(rng, (5, 7), dtype, specials=not (op == "prod" and dtype.startswith("complex")))
    t = dt.asarray(a, device=device)
    for axis in ([None, 0, 1, -1] if op in ("argmin", "argmax") else [None, 0, 1, (0, 1), (), (-1,)]):
        for keepdims in (False, True):
            same_result(getattr(dt, op)(t, axis=axis, keepdims=keepdims),
                        numpy_call(op, a, axis, keepdims), op, dtype, exact_sum(a, axis, keepdims))
    assert getattr(t, op)().device == t.device


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_reductions_match_numpy(device, data):
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    op = data.draw(st.sampled_from(OPS), label="op")
    shape = tuple(data.draw(st.lists(st.integers(0, 5), max_size=4), label="shape"))
    layout = data.draw(st.sampled_from(["contiguous", "transposed", "reversed", "strided", "broadcast"]),
                       label="layout")
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    # complex products through inf are NaN or inf by the order of the multiplications
    specials = data.draw(st.booleans(), label="specials") and not (op == "prod" and dtype.startswith("complex"))
    a = values(rng, shape, dtype, specials=specials)
    t, a = make(a, layout, device)
    nd = len(shape)
    if op in ("argmin", "argmax"):
        axis = data.draw(st.sampled_from([None] + list(range(-nd, nd))), label="axis")
    else:
        axis = data.draw(st.one_of(st.none(), st.sampled_from(list(range(-nd, nd)) or [None]),
                                   st.sets(st.integers(0, nd - 1) if nd else st.nothing(),
                                           max_size=nd).map(tuple)), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    try:
        expected = numpy_call(op, a, axis, keepdims)
    except ValueError as e:
        with pytest.raises(ValueError, match=str(e).split(" which")[0]):
            getattr(dt, op)(t, axis=axis, keepdims=keepdims)
        return
    got = getattr(dt, op)(t, axis=axis, keepdims=keepdims)
    if op == "prod" and dtype == "float16":
        # float16 products accumulate in float (Note [Accumulating wide]): where the factors' magnitudes overflow
        # it mid-way, the result is inf, or NaN with a zero factor, by the order of the multiplications (NumPy's
        # too); there it is checked to be one of those, and compared elsewhere
        with np.errstate(over="ignore"):
            wide = np.prod(np.where(a == 0, 1, np.abs(a.astype(np.float64))), axis=axis, keepdims=keepdims)
        over = np.asarray(wide > np.finfo(np.float32).max)
        g = to_np(got)
        assert np.all(~np.isfinite(g[over]) | (g[over] == 0))
        got, expected = dt.where(dt.asarray(over, device=device), 0, got), np.where(over, 0, expected)
    same_result(got, expected, op, dtype, exact_sum(a, axis, keepdims))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_summation_is_at_least_as_accurate_as_numpys(device, dtype):
    """Against math.fsum of the same (rounded) values: error no larger than
    NumPy's pairwise summation's, plus one unit in the last place."""
    rng = np.random.default_rng(7)
    n = 40000 if device == "cpu" else 12000
    a = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)).astype(dtype)
    if dtype == "float16":
        a = (rng.random(n) * 2).astype(dtype)  # float16 overflows past 65504
    exact = math.fsum(a.astype(np.float64))
    got = float(dt.sum(dt.asarray(a, device=device)))
    ulp = abs(float(np.spacing(np.array(exact, dtype=dtype))))
    assert abs(got - exact) <= abs(float(np.sum(a)) - exact) + ulp
    # an outer-axis (column) sum of the same values
    m = a[: n // 100 * 100].reshape(-1, 100)
    cols = to_np(dt.sum(dt.asarray(m, device=device), axis=0)).astype(np.float64)
    exact_cols = np.array([math.fsum(c) for c in m.T.astype(np.float64)])
    np_err = np.abs(np.sum(m, axis=0).astype(np.float64) - exact_cols)
    ulps = np.abs(np.spacing(np.abs(exact_cols).astype(dtype)).astype(np.float64))
    # column by column either may be luckier; the worst column is what counts
    assert np.max(np.abs(cols - exact_cols) / ulps) <= np.max(np_err / ulps) + 2


@pytest.mark.parametrize("axis", [0, 1, 2, (0, 2), None])
def test_short_float16_sums_with_cancellation(device, axis):
    """A case hypothesis found (seed 1971764502): a float16 column sum whose
    terms cancel. devtensor's float32 accumulation lands 0.0024 from the exact
    sum, NumPy's float16 adds 0.0039: element by element, no worse than NumPy's
    plus half a unit in the last place."""
    a = values(np.random.default_rng(1_971_764_502), (4, 4, 2), "float16")
    exact = np.sum(a.astype(np.float64), axis=axis)
    got = to_np(dt.sum(dt.asarray(a, device=device), axis=axis)).astype(np.float64)
    np_err = np.abs(np.sum(a, axis=axis).astype(np.float64) - exact)
    half_ulp = np.abs(np.spacing(exact.astype(np.float16)).astype(np.float64)) / 2
    assert np.all(np.abs(got - exact) <= np_err + half_ulp)


@pytest.mark.parametrize("shape, axis", [((300000,), None), ((700, 600), 0), ((700, 600), 1), ((3, 100000), 1),
                                         ((60, 70, 80), (0, 2)), ((2, 300, 400), 1)])
def test_big_reductions_on_the_cpu(shape, axis):
    """The CPU's threaded, split and OUTER paths (Note [Two reduction loops])."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal(shape).astype(np.float32)
    before = dt.get_num_threads()
    try:
        for threads in (1, 2):
            dt.set_num_threads(threads)
            t = dt.asarray(a)
            np.testing.assert_allclose(to_np(dt.sum(t, axis)), np.sum(a, axis, dtype=np.float64), rtol=1e-5,
                                       atol=1e-3)
            assert_same(dt.max(t, axis), np.max(a, axis))
            if not isinstance(axis, tuple):
                assert_same(dt.argmin(t, axis), np.argmin(a, axis))
            assert_same(dt.all(t > -10, axis), np.all(a > -10, axis))
    finally:
        dt.set_num_threads(before)


def test_float64_sums_are_numpys_bit_for_bit_on_the_cpu():
    """Note [float64 sums are NumPy's]: the CPU adds float64 in NumPy's
    pairwise order, whatever the length, layout, axes or thread count, so
    sums and means equal NumPy's exactly (np.sum([0.1] * 10) is 1.0)."""
    rng = np.random.default_rng(8)
    assert float(dt.sum(dt.asarray([0.1] * 10))) == np.sum([0.1] * 10) == 1.0
    assert float(dt.asarray([0.1] * 8).sum()) == np.sum([0.1] * 8)
    lengths = list(range(0, 300)) + [511, 1024, 1031, 8192, 65535, 65536, 65537, 131081, 400009, 10 ** 6 + 3]
    base = np.arange(12.0).reshape(3, 4)
    layouts = [rng.standard_normal((100, 50)), np.asfortranarray(rng.standard_normal((70, 90))),
               rng.standard_normal((100, 50))[:, ::2], rng.standard_normal((60, 40))[::-1],
               rng.standard_normal((60, 40))[::-2, ::-3], rng.standard_normal((20, 30, 40)),
               rng.standard_normal((20, 30, 40)).transpose(2, 0, 1), rng.standard_normal(30001)[::3],
               rng.standard_normal(30001)[::-1], base[:, :0]]
    before = dt.get_num_threads()
    try:
        for threads in (1, 2):
            dt.set_num_threads(threads)
            for n in lengths:
                a = rng.standard_normal(n) * 10.0 ** rng.integers(-5, 5)
                t = dt.asarray(a)
                assert float(dt.sum(t)) == np.sum(a) and float(t.mean() if n else 0) == (a.mean() if n else 0), n
            for a in layouts:
                t = dt.asarray(a)
                axes = [None] + list(range(a.ndim)) + ([(0, 2), (1, 2), (0, 1)] if a.ndim == 3 else [])
                for axis in axes:
                    if axis is None and a.ndim > 1 and min(a.strides) < 0:
                        continue  # NumPy flips these and reads them in 8192-element chunks: not matched
                    got, want = to_np(dt.sum(t, axis=axis)), np.sum(a, axis=axis)
                    assert got.shape == want.shape and got.tobytes() == want.tobytes(), (a.shape, a.strides, axis)
                    assert to_np(dt.mean(t, axis=axis)).tobytes() == np.mean(a, axis=axis).tobytes()
    finally:
        dt.set_num_threads(before)


def test_split_device_reductions(device):
    """One output of many elements: the CUDA kernels' parts (Note [Reduction kernels])."""
    rng = np.random.default_rng(4)
    a = rng.standard_normal(3 * 256 * 16 + 5)
    a[5000] = a.max() + 1
    t = dt.asarray(a, device=device)
    np.testing.assert_allclose(float(dt.sum(t)), math.fsum(a), rtol=1e-13)
    assert int(dt.argmax(t)) == 5000
    a[7000] = np.nan
    a[9000] = np.nan
    assert int(dt.argmax(dt.asarray(a, device=device))) == 7000
    assert int(dt.argmin(dt.asarray(a, device=device))) == 7000


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "float16", "float32", "complex64", "bool"])
def test_mean_var_std(device, dtype):
    rng = np.random.default_rng(5)
    a = values(rng, (4, 6), dtype)
    t = dt.asarray(a, device=device)
    for axis in (None, 0, 1, (0, 1)):
        for keepdims in (False, True):
            for name in ("mean", "var", "std"):
                kw = {} if name == "mean" else {"ddof": 1}
                exp = getattr(np, name)(a, axis=axis, keepdims=keepdims, **kw)
                got = getattr(dt, name)(t, axis=axis, keepdims=keepdims, **kw)
                assert got.dtype == np.asarray(exp).dtype and got.shape == np.shape(exp)
                rtol = 2e-3 if dtype in ("float16",) else 1e-5 if dtype in ("float32", "complex64") else 1e-12
                scale = float(np.max(np.abs(a.astype(np.complex128)))) or 1.0  # float rounding of NumPy's
                np.testing.assert_allclose(to_np(got), exp, rtol=rtol, atol=rtol * scale)
    assert_same(dt.var(t.astype("float64"), correction=1), np.var(a.astype("float64"), ddof=1), exact=False)
    # ddof past the count: NumPy's inf and NaN, with its warning
    with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0 for slice"):
        assert math.isinf(float(dt.var(dt.asarray([1.0, 2.0], device=device), ddof=3)))
    with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0 for slice"):
        assert math.isnan(float(dt.std(dt.asarray([1.0], device=device), ddof=1)))


def test_ptp_count_nonzero_and_methods(device):
    a = np.array([[0, 3, -2], [5, 0, 1]])
    t = dt.asarray(a, device=device)
    assert_same(dt.ptp(t, axis=1), np.ptp(a, axis=1))
    assert_same(dt.count_nonzero(t, axis=0), np.count_nonzero(a, axis=0))
    assert int(dt.count_nonzero(t)) == np.count_nonzero(a)
    for name in ("sum", "prod", "min", "max", "argmin", "argmax", "any", "all", "mean", "var", "std"):
        assert_same(getattr(t, name)(axis=0), getattr(a, name)(axis=0), exact=name not in ("mean", "var", "std"))
    for name in ("amax", "amin"):  # NumPy's other names of max and min
        assert_same(getattr(dt, name)(t, 0, keepdims=True), getattr(np, name)(a, 0, keepdims=True))
        assert_same(getattr(dt, name)(t), getattr(np, name)(a))


@pytest.mark.parametrize("dtype", DTYPES + ["bfloat16"])
def test_count_nonzero_over_dtypes_axes_and_layouts(device, dtype):
    """count_nonzero is a cast to bool and a sum (Note [count_nonzero as a
    cast and a sum]): NaN counts, -0.0 does not, a complex counts when
    either part is non-zero; int64 results of NumPy's shape for every axis
    form, keepdims, strided and broadcast inputs; bad axes raise NumPy's
    errors."""
    rng = np.random.default_rng(7)
    if dtype == "bfloat16":
        a = np.array([[0.0, -0.0, 1.5], [np.nan, 0.0, -2.0]], dtype=np.float32)
    else:
        a = values(rng, (3, 4), dtype, specials=True)
        if a.dtype.kind != "b":
            a.reshape(-1)[::3] = 0
        if a.dtype.kind == "f":
            a.reshape(-1)[1] = -0.0
        if a.dtype.kind == "c":
            a.reshape(-1)[1] = complex(0.0, -2.0)
            a.reshape(-1)[2] = complex(-0.0, -0.0)
    for layout in ("contiguous", "transposed", "reversed", "strided", "broadcast"):
        t, e = make(a, layout, device)
        if dtype == "bfloat16":
            t = t.astype(dt.bfloat16)
        for axis in (None, 0, -1, (0, 1), (1,), ()):
            for keepdims in (False, True):
                r = dt.count_nonzero(t, axis=axis, keepdims=keepdims)
                assert r.device == t.device
                assert_same(r, np.asarray(np.count_nonzero(e, axis=axis, keepdims=keepdims), dtype=np.int64))
    t = dt.asarray(a, device=device)
    with pytest.raises(np.exceptions.AxisError, match="axis 2 is out of bounds for array of dimension 2"):
        dt.count_nonzero(t, axis=2)
    with pytest.raises(ValueError, match="duplicate value in 'axis'"):
        dt.count_nonzero(t, axis=(0, -2))
    assert_same(dt.count_nonzero(dt.zeros((0, 3), device=device), axis=0), np.zeros(3, np.int64))
    assert int(dt.count_nonzero(a.tolist())) == np.count_nonzero(a)  # not a tensor: the Python path


def test_dtype_out_initial_where(device):
    a = np.arange(-6, 6, dtype=np.int8).reshape(3, 4)
    t = dt.asarray(a, device=device)
    assert_same(dt.sum(t, dtype="int8"), np.sum(a, dtype="int8"))
    assert_same(dt.sum(t, axis=0, dtype="float32"), np.sum(a, axis=0, dtype="float32"))
    assert_same(dt.prod(t + 7, dtype="uint8"), np.prod(a + 7, dtype="uint8"))
    assert_same(dt.sum(t, axis=1, initial=10), np.sum(a, axis=1, initial=10))
    assert_same(dt.max(t, axis=0, initial=4), np.max(a, axis=0, initial=4))
    mask = a % 3 == 0
    assert_same(dt.sum(t, axis=1, where=mask), np.sum(a, axis=1, where=mask))
    assert_same(dt.max(t, axis=1, where=mask, initial=-100), np.max(a, axis=1, where=mask, initial=-100))
    assert_same(dt.max(dt.asarray(np.zeros((0, 3)), device=device), axis=0, initial=1.5),
                np.max(np.zeros((0, 3)), axis=0, initial=1.5))
    assert_same(dt.mean(dt.asarray(a.astype("float64"), device=device), axis=1, where=mask),
                np.mean(a.astype("float64"), axis=1, where=mask), exact=False)
    with warnings.catch_warnings():  # columns with fewer than ddof + 1 elements: NaN, as NumPy warns
        warnings.simplefilter("ignore", RuntimeWarning)
        for name in ("var", "std"):
            for axis in (None, 0, 1):
                for ddof in (0, 1):
                    assert_same(getattr(dt, name)(t, axis=axis, where=mask, ddof=ddof),
                                getattr(np, name)(a, axis=axis, where=mask, ddof=ddof), exact=False)
    out = dt.zeros(4, dtype="float64", device=device)
    assert dt.sum(t, axis=0, out=out) is out
    assert_same(out, np.sum(a, axis=0).astype("float64"))
    assert t.sum(axis=0, out=(out,)) is out


def test_empty_and_zero_d(device):
    for shape, axis in [((0,), None), ((0, 3), 0), ((3, 0), 1), ((3, 0), 0), ((), None), ((0, 0), 0)]:
        a = np.ones(shape, dtype=np.float32)
        t = dt.asarray(a, device=device)
        for op in ("sum", "prod", "any", "all", "mean"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # test_empty_slice_warnings checks them
                exp = getattr(np, op)(a, axis=axis)
                got = getattr(dt, op)(t, axis=axis)
            assert_same(got, exp, exact=False)
        for op in ("min", "max", "argmin", "argmax"):
            try:
                exp = getattr(np, op)(a, axis=axis)
            except ValueError as e:
                with pytest.raises(ValueError, match=str(e)):
                    getattr(dt, op)(t, axis=axis)
            else:
                assert_same(getattr(dt, op)(t, axis=axis), exp)


def test_bad_arguments(device):
    t = dt.ones((2, 3), device=device)
    with pytest.raises(np.exceptions.AxisError, match="axis 2 is out of bounds for array of dimension 2"):
        dt.sum(t, axis=2)
    with pytest.raises(ValueError, match="duplicate value in 'axis'"):
        dt.sum(t, axis=(0, 0))
    with pytest.raises(TypeError):
        dt.sum(t, axis=1.5)
    with pytest.raises(ValueError, match="wrong number of dimensions"):
        dt.sum(t, axis=0, out=dt.empty((3, 1), device=device))
    with pytest.raises(ValueError, match="non-reduction dimension"):
        dt.sum(t, axis=0, out=dt.empty((2,), device=device))
    with pytest.raises(ValueError, match="to use a where mask one has to specify 'initial'"):
        dt.max(t, where=dt.asarray(np.ones((2, 3), bool), device=device))
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        dt.argmax(dt.ones((0,), device=device))
    with pytest.raises(ValueError, match="correction"):
        dt.var(t, ddof=1, correction=1)
    with pytest.raises(ValueError):
        dt._C._reduce(0, t, (0, 0), dt.empty((3,), device=device))
    with pytest.raises(ValueError):
        dt._C._reduce(0, t, (0,), t[0])  # overlaps the input
    with pytest.raises(TypeError):
        dt._C._reduce(2, t, (0,), dt.empty((3,), dtype="int64", device=device))


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_split_reduction(device, dtype):
    """Every op of every dtype over one output of many elements, which a
    CUDA device cuts in parts and folds with k_reduce_finish (so each of
    those kernels runs in CI's emulation too)."""
    rng = np.random.default_rng(11)
    a = values(rng, (2 * 256 * 16 + 3,), dtype)
    t = dt.asarray(a, device=device)
    for op in OPS:
        if op == "prod" and a.dtype.kind in "fc":  # a float product of 8000 elements over- or underflows
            near_one = (1 + a / 1000).astype(dtype)  # in an order-dependent way
            same_result(dt.prod(dt.asarray(near_one, device=device)), np.prod(near_one), op, dtype)
            continue
        same_result(getattr(dt, op)(t), getattr(np, op)(a), op, dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int16"])
def test_long_runs_with_nans_ties_and_offsets(device, dtype):
    """The vector folds of long contiguous runs (Note [AVX2 extremes] and
    Note [Explicit vectors for float extremes] on the CPU): NaN anywhere,
    ties between blocks, odd lengths and unaligned starts, against NumPy."""
    rng = np.random.default_rng(9)
    n = 70001 if device == "cpu" else 9001
    base = np.round(rng.standard_normal(n) * 4).astype(dtype)  # many ties
    cases = [base, base[1:], base[3:-5]]
    if base.dtype.kind == "f":
        for where in (0, 17, n // 2, n - 1):
            c = base.copy()
            c[where] = np.nan
            cases.append(c)
        c = base.copy()
        c[[5, 4000]] = np.inf
        c[[100, 60000 % n]] = -np.inf
        cases.append(c)
    for c in cases:
        t = dt.asarray(c, device=device)
        for op in ("max", "min", "argmax", "argmin"):
            assert_same(getattr(dt, op)(t), getattr(np, op)(c))
    raw = np.zeros(n + 1, dtype=dtype)  # a misaligned view
    shifted = raw.view(np.uint8)[1:1 + n * raw.itemsize].view(dtype) if raw.itemsize > 1 else raw[1:]
    shifted[...] = base
    t = dt.asarray(shifted, device="cpu").to(device)
    assert_same(dt.argmax(t), np.argmax(base))


SIMD_EXTREMES_CODE = """
import json
import numpy as np
import devtensor as dt
rng = np.random.default_rng(9)
bad = []
for dtype in ("float32", "float64"):
    for n in (70001, 64, 95, 2048 * 3 + 1):
        base = np.round(rng.standard_normal(n) * 4).astype(dtype)
        cases = [base, base[1:], base[3:-5], -np.abs(base)]
        for where in (0, 17, n // 2, n - 1):
            c = base.copy()
            c[where] = np.nan
            cases.append(c)
        c = base.copy()
        c[[5, n // 3]] = np.inf
        c[[1, n - 2]] = -np.inf
        cases.append(c)
        for i, c in enumerate(cases):
            t = dt.asarray(c)
            for op in ("max", "min", "argmax", "argmin"):
                got, want = getattr(dt, op)(t).numpy(), getattr(np, op)(c)
                if not np.array_equal(got, want, equal_nan=True) or got.dtype != np.asarray(want).dtype:
                    bad.append((dtype, n, i, op, repr(got), repr(want)))
print(json.dumps(bad))
"""


@pytest.mark.parametrize("avx512", ["0", "1"])
def test_simd_extremes_on_each_vector_width(avx512):
    """The CPU's float32/float64 extremes with AVX-512 and, on the same CPU,
    with the AVX2 loops (DEVTENSOR_CPU_AVX512=0; Note [AVX-512 extremes]):
    NaN anywhere, infinities, ties, odd lengths and offsets, against NumPy,
    in a child process because the choice is read once."""
    p = run_python(SIMD_EXTREMES_CODE, {"DEVTENSOR_CPU_AVX512": avx512, "DEVTENSOR_NUM_THREADS": "1"})
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "[]"


NAN_FUNCS = ["nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd", "nanargmax", "nanargmin"]


@pytest.mark.parametrize("name", NAN_FUNCS)
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex128", "int32", "bool"])
def test_nan_functions(device, name, dtype):
    """NumPy's nanfunctions, all-NaN slices included (NaN with its warning,
    or ValueError for nanargmax/nanargmin), and without NaN (nanmax's plain
    max: Note [nanmax is fmax.reduce]), against NumPy."""
    rng = np.random.default_rng(12)
    a = values(rng, (4, 5), dtype)
    clean = a.copy()
    if a.dtype.kind in "fc":
        a[rng.random((4, 5)) < 0.3] = np.nan
        a[1] = np.nan  # an all-NaN row
    for a, axis in itertools.product((a, clean), (None, 0, 1)):
        t = dt.asarray(a, device=device)
        for keepdims in ((False, True) if name not in ("nanargmax", "nanargmin") else (False,)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                try:
                    exp = getattr(np, name)(a, axis=axis, keepdims=keepdims)
                except ValueError as e:
                    with pytest.raises(ValueError, match=str(e)):
                        getattr(dt, name)(t, axis=axis, keepdims=keepdims)
                    continue
                got = getattr(dt, name)(t, axis=axis, keepdims=keepdims)
            exp = np.asarray(exp)
            assert got.dtype == exp.dtype and got.shape == exp.shape, (got.dtype, exp.dtype, got.shape, exp.shape)
            rtol = {"float16": 3e-3, "float32": 1e-5}.get(dtype, 1e-12)
            np.testing.assert_allclose(to_np(got), exp, rtol=rtol, atol=rtol, equal_nan=True)


def test_nan_warnings(device):
    t = dt.asarray(np.array([[np.nan, np.nan], [1.0, 2.0]]), device=device)
    with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
        dt.nanmax(t, axis=1)
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        dt.nanmean(t, axis=1)
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        dt.nanargmin(t, axis=1)


def test_average(device):
    a = np.arange(12.0).reshape(3, 4)
    t = dt.asarray(a, device=device)
    w1, w2 = np.array([1.0, 0.5, 2.0]), np.arange(1.0, 13.0).reshape(3, 4)
    assert_same(dt.average(t), np.average(a))
    assert_same(dt.average(t, axis=0, weights=dt.asarray(w1, device=device)), np.average(a, axis=0, weights=w1),
                exact=False)
    assert_same(dt.average(t, weights=dt.asarray(w2, device=device)), np.average(a, weights=w2), exact=False)
    avg, scl = dt.average(t, axis=1, weights=dt.asarray(w2, device=device), returned=True)
    eavg, escl = np.average(a, axis=1, weights=w2, returned=True)
    assert_same(avg, eavg, exact=False)
    assert_same(scl, escl)
    assert_same(dt.average(dt.asarray(np.arange(6).reshape(2, 3), device=device), axis=1, keepdims=True),
                np.average(np.arange(6).reshape(2, 3), axis=1, keepdims=True))
    with pytest.raises(TypeError, match="Axis must be specified"):
        dt.average(t, weights=dt.asarray(w1, device=device))
    with pytest.raises(ValueError, match="Shape of weights must be consistent with shape of a along specified axis"):
        dt.average(t, axis=1, weights=dt.asarray(w1, device=device))
    with pytest.raises(ZeroDivisionError, match="Weights sum to zero"):
        dt.average(t, axis=0, weights=dt.asarray(np.array([1.0, -1.0, 0.0]), device=device))


SCAN_DTYPES = ["bool", "int8", "int32", "int64", "uint16", "uint64", "float16", "float32", "float64", "complex64"]


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_scans_match_numpy(device, data):
    dtype = data.draw(st.sampled_from(SCAN_DTYPES), label="dtype")
    name = data.draw(st.sampled_from(["cumsum", "cumprod", "nancumsum", "nancumprod"]), label="op")
    shape = tuple(data.draw(st.lists(st.integers(0, 6), max_size=3), label="shape"))
    layout = data.draw(st.sampled_from(["contiguous", "transposed", "reversed", "strided", "broadcast"]),
                       label="layout")
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    a = values(rng, shape, dtype)
    if name.startswith("nan") and a.dtype.kind in "fc" and a.size:
        a[rng.random(shape) < 0.3] = np.nan
    if name.endswith("prod") and a.dtype.kind in "fc":
        a = (a / 4).astype(dtype)  # keep float16 products in range
    t, a = make(a, layout, device)
    axis = data.draw(st.sampled_from([None] + list(range(-len(shape), len(shape)))), label="axis")
    exp = getattr(np, name)(a, axis=axis)
    got = getattr(dt, name)(t, axis=axis)
    assert got.dtype == exp.dtype and got.shape == exp.shape, (got.dtype, exp.dtype, got.shape, exp.shape)
    if a.dtype.kind in "fc":
        # the accumulator is wide (Note [Accumulating wide]): each result is
        # the exact running value rounded once, where NumPy's float16 and
        # float32 scans round at every step
        wide_a = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
        exact = getattr(np, name)(wide_a, axis=axis)
        scale = getattr(np, name.replace("prod", "sum"))(np.abs(wide_a), axis=axis) if "sum" in name else \
            np.abs(exact)
        eps = np.finfo(dtype).eps
        # float64 and complex128 accumulate in their own precision: a device
        # scan's tree order rounds up to once per element of the row
        ulps = 2 if np.finfo(dtype).bits < 64 else max(2, a.size if axis is None else a.shape[axis])
        g = to_np(got).astype(exact.dtype)
        tiny = np.finfo(dtype).smallest_subnormal  # subnormal results round absolutely
        bad = ~(np.abs(g - exact) <= ulps * eps * np.nan_to_num(scale, nan=0, posinf=0) + tiny)
        bad &= ~(np.isnan(g) & np.isnan(exact)) & ~(g == exact)
        assert not bad.any(), (g[bad], exact[bad])
    else:
        assert_same(got, exp)


def test_scan_argument_forms(device):
    """The per-call path (_C._scan_fast) and the Python one agree on every
    axis form, as functions, methods and ufunc.accumulate, and NumPy's
    errors come from Python for the forms the fast path leaves alone."""
    a = np.arange(1, 13, dtype=np.int16).reshape(3, 4)
    t = dt.asarray(a, device=device)
    for axis in (0, 1, -1, -2, np.int64(1), None):
        for got, want in ((dt.cumsum(t, axis), np.cumsum(a, axis)), (t.cumprod(axis), a.cumprod(axis)),
                          (dt.cumprod(t, axis=axis), np.cumprod(a, axis=axis))):
            assert_same(got, want)
        if axis is not None:
            assert_same(dt.add.accumulate(t, axis), np.add.accumulate(a, axis))
            assert_same(dt.multiply.accumulate(t, axis=axis), np.multiply.accumulate(a, axis=axis))
    assert_same(dt.cumsum(dt.asarray(np.float32(2.5), device=device)), np.cumsum(np.float32(2.5)))
    assert_same(dt.cumsum(t[0], None), np.cumsum(a[0], None))
    for bad in (2, -3, True, 1.0):
        with pytest.raises(Exception) as want:
            np.cumsum(a, bad)
        with pytest.raises(type(want.value)) as got:
            dt.cumsum(t, bad)
        assert str(got.value) == str(want.value)
    with pytest.raises(np.exceptions.AxisError, match="axis 2 is out of bounds for array of dimension 2"):
        dt.add.accumulate(t, 2)
    with pytest.raises(TypeError, match="cannot accumulate on a scalar"):
        dt.add.accumulate(dt.asarray(1.0, device=device))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_plain_variances_equal_the_general_path(device, dtype):
    """Note [Plain variances]: var and std over everything or the first axis
    without other arguments give the general path's values bit for bit (the
    general path is taken by asking for keepdims), and NumPy's within
    rounding, for every layout; the cases the fast path declines (n <= ddof,
    a float ddof) are the general path's."""
    rng = np.random.default_rng(3)
    a = (rng.standard_normal((6, 5)) * 1e3 + 7).astype(dtype)
    base = dt.asarray(a, device=device)
    tol = 300 * np.finfo(dtype).eps
    for t in (base, base.T, base[::-1], base[::2], base[:1], base[0]):
        x = to_np(t)
        for axis in (None, 0, -x.ndim):
            for ddof in (0, 1, 2):
                if (x.size if axis is None else x.shape[axis]) <= ddof:
                    continue  # the general path's (warns): below
                fast = dt.var(t, axis=axis, ddof=ddof)
                general = dt.var(t, axis=axis, ddof=ddof, keepdims=True).reshape(fast.shape)
                want = np.var(x, axis=axis, ddof=ddof)
                assert fast.dtype == want.dtype and fast.shape == want.shape and fast.device == t.device
                assert to_np(fast).tobytes() == to_np(general).tobytes(), (x.shape, axis, ddof)
                np.testing.assert_allclose(to_np(fast), want, rtol=tol)
                np.testing.assert_allclose(to_np(t.std(axis=axis, ddof=ddof)), np.sqrt(want), rtol=tol)
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        r = dt.var(base[:1], axis=0, ddof=1)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_same(r, np.var(a[:1], axis=0, ddof=1))
    np.testing.assert_allclose(to_np(dt.var(base, ddof=1.5)), np.var(a, ddof=1.5), rtol=tol)


def test_long_scans(device):
    """Long rows: the CPU's parts (1 and 2 threads) and the CUDA chunk kernels."""
    rng = np.random.default_rng(13)
    n = 200003 if device == "cpu" else 3 * 256 * 16 + 7
    a = rng.standard_normal(n)
    ints = rng.integers(-5, 5, (2, n // 2)).astype(np.int32)
    before = dt.get_num_threads()
    try:
        for threads in ((1, 2) if device == "cpu" else (before,)):
            dt.set_num_threads(threads)
            np.testing.assert_allclose(to_np(dt.cumsum(dt.asarray(a, device=device))), np.cumsum(a), rtol=1e-10,
                                       atol=1e-9)
            assert_same(dt.cumsum(dt.asarray(ints, device=device), axis=1), np.cumsum(ints, axis=1))
            assert_same(dt.cumprod(dt.asarray(np.ones(n, np.int8), device=device)), np.cumprod(np.ones(n, np.int8)))
    finally:
        dt.set_num_threads(before)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [7, 300, 257 * 3, 2 * 256 * 16 + 5])
def test_cumsum_of_non_negative_values_never_goes_down(device, dtype, n):
    """Note [Compensated float scans] (cuda_reduce.cu): a running sum of
    non-negative values never decreases and a 0 element leaves it as it was,
    on every device, across tiles and chunks (a probability's CDF, an Otsu
    threshold's empty bins); on CUDA devices each value is the exact prefix
    sum rounded once."""
    from fractions import Fraction
    rng = np.random.default_rng(n)
    p = rng.random(n)
    p[::3] = 0
    p[n // 2:n // 2 + 40] = 0
    p = (p / p.sum()).astype(dtype)
    c = to_np(dt.cumsum(dt.asarray(p, device=device)))
    assert (np.diff(c) >= 0).all()
    zero = np.flatnonzero(p[1:] == 0) + 1
    assert (c[zero] == c[zero - 1]).all()
    if device != "cpu" and n <= 1000:
        exact, want = Fraction(0), []
        for v in p.astype(np.float64):
            exact += Fraction(float(v))
            want.append(float(exact))  # rounded once, to float64
        np.testing.assert_array_equal(c, np.array(want).astype(dtype))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128", "int8", "uint64"])
def test_split_scans_of_long_rows(dtype):
    """Note [Scans on the CPU] and Note [A part's total in independent
    chains]: a long row cut in parts across two threads (integers; float
    and complex rows are not cut) keeps -0.0 and an infinite first factor,
    and equals one thread's scan and NumPy's exactly."""
    n = (1 << 17) + 13
    before = dt.get_num_threads()
    try:
        dt.set_num_threads(2)
        if dtype[0] in "fc":
            zeros = dt.asarray(np.full(n, -0.0, dtype=dtype))
            assert np.signbit(to_np(dt.cumsum(zeros)).real).all()
        if dtype.startswith("complex"):
            ones = np.ones(n, dtype=dtype)
            ones[0] = np.inf
            with np.errstate(invalid="ignore"):
                assert_same(dt.cumprod(dt.asarray(ones)), np.cumprod(ones))
        rng = np.random.default_rng(3)
        a = (rng.standard_normal(n) * 3).astype(dtype) if dtype[0] in "fc" else \
            rng.integers(0, 100, n).astype(dtype)
        two = to_np(dt.cumsum(dt.asarray(a)))
        dt.set_num_threads(1)
        one = to_np(dt.cumsum(dt.asarray(a)))
        np.testing.assert_array_equal(two, one)
        if dtype[0] in "iu" or dtype in ("float64", "complex128"):
            np.testing.assert_array_equal(two, np.cumsum(a))
        if dtype == "float64":  # a running sum of non-negative values, cut or not, never goes down
            p = np.abs(a)
            p[::3] = 0
            c = to_np(dt.cumsum(dt.asarray(p)))
            dt.set_num_threads(2)
            assert np.array_equal(to_np(dt.cumsum(dt.asarray(p))), c) and (np.diff(c) >= 0).all()
    finally:
        dt.set_num_threads(before)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
def test_scans_start_at_the_first_element(device, dtype):
    """Note [A scan starts at its first element] (cpu_scan.c, cuda_reduce.cu):
    -0.0 stays -0.0 and an infinite complex first element is not turned into
    inf+nanj by a product with the identity, as in NumPy's accumulate."""
    zeros = np.full(5, -0.0, dtype=dtype)
    for f in ("cumsum", "nancumsum", "cumulative_sum"):
        got = to_np(getattr(dt, f)(dt.asarray(zeros, device=device)))
        assert np.signbit(got.real).all(), f
    got = to_np(dt.cumsum(dt.asarray(np.array([-0.0, 1.0, -1.0], dtype=dtype), device=device)))
    assert np.signbit(got.real[0]) and not np.signbit(got.real[2])
    if dtype.startswith("complex"):
        inf = np.inf
        with np.errstate(invalid="ignore"):
            for a in ([inf + 0j], [2, inf + 0j], [inf + 0j, 2], [inf + 0j, 1, 2]):
                a = np.array(a, dtype=dtype)
                assert_same(dt.cumprod(dt.asarray(a, device=device)), np.cumprod(a), device=device)
        rows = np.array([[inf + 0j, 1], [-0.0 - 0.0j, 3]], dtype=dtype)
        with np.errstate(invalid="ignore"):
            for axis in (0, 1):
                assert_same(dt.cumprod(dt.asarray(rows, device=device), axis=axis), np.cumprod(rows, axis=axis),
                            device=device)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_running_values_are_kept_wide(device, dtype):
    """README: float16/float32 sums, products and scans keep a wide running
    value and round each result once: a result overflows or underflows only
    where the exact running value does (NumPy, rounding each step, differs)."""
    big = float(np.finfo(dtype).max) * 0.9
    cases = [("cumprod", [300, 300, 1 / 300, 1 / 300]), ("cumsum", [big, big, -big]),
             ("cumprod", [1e-30, 1e-30, 1e30, 1e30] if dtype == "float32" else [1e-4, 1e-4, 1e4, 1e4])]
    for name, values in cases:
        a = np.array(values, dtype=dtype)
        exact = getattr(np, name)(a.astype(np.float64))
        with np.errstate(over="ignore"):
            want = exact.astype(dtype)
        assert_same(getattr(dt, name)(dt.asarray(a, device=device)), want, device=device)
        total = "sum" if name == "cumsum" else "prod"
        with np.errstate(over="ignore"):
            assert_same(getattr(dt, total)(dt.asarray(a, device=device)), want[-1], device=device)


def test_cumulative_and_diff(device):
    a = np.arange(1, 13).reshape(3, 4)
    t = dt.asarray(a, device=device)
    for n in (3, 4, 5, 9, 2 ** 63 - 1):  # past the length: NumPy's empty result, at once (NumPy loops n times)
        for x in (a, a.astype(bool), a.astype(np.uint8)):
            if n < 10:
                assert_same(dt.diff(dt.asarray(x, device=device), n), np.diff(x, n))
            else:
                got = dt.diff(dt.asarray(x, device=device), n)
                assert got.shape == (3, 0) and got.dtype == np.diff(x, 9).dtype
    for include in (False, True):
        assert_same(dt.cumulative_sum(t, axis=1, include_initial=include),
                    np.cumulative_sum(a, axis=1, include_initial=include))
        assert_same(dt.cumulative_prod(t, axis=0, include_initial=include),
                    np.cumulative_prod(a, axis=0, include_initial=include))
    assert_same(dt.cumulative_sum(dt.asarray(np.arange(5), device=device)), np.cumulative_sum(np.arange(5)))
    with pytest.raises(ValueError, match="more than one dimension ``axis`` argument is required"):
        dt.cumulative_sum(t)
    assert_same(t.cumsum(axis=0), a.cumsum(axis=0))
    assert_same(t.cumprod(), a.cumprod())
    assert_same(dt.cumsum(t, dtype="float32"), np.cumsum(a, dtype="float32"))
    out = dt.empty((3, 4), dtype="int64", device=device)
    assert dt.cumsum(t, axis=1, out=out) is out
    assert_same(out, np.cumsum(a, axis=1))
    with pytest.raises(ValueError, match=re.escape("provided out is the wrong size for the accumulation.")):
        dt.cumsum(t, out=dt.empty((3, 4), dtype="int64", device=device))
    with pytest.raises(np.exceptions.AxisError):
        dt.cumsum(t, axis=2)
    for n, axis, kw in [(1, -1, {}), (2, 0, {}), (1, 1, {"prepend": 0, "append": [[9], [9], [9]]}), (0, 0, {})]:
        np_kw = {k: np.asarray(v) for k, v in kw.items()}
        assert_same(dt.diff(t, n, axis, **kw), np.diff(a, n, axis, **np_kw))
    b = np.array([True, False, False, True])
    assert_same(dt.diff(dt.asarray(b, device=device)), np.diff(b))
    with pytest.raises(ValueError, match="order must be non-negative"):
        dt.diff(t, -1)
    with pytest.raises(ValueError, match="at least one dimensional"):
        dt.diff(dt.asarray(np.array(1.0), device=device))


def wide(t):
    """A tensor's values as complex128 NumPy (bfloat16 through float32)."""
    if t.dtype == dt.bfloat16:
        t = t.astype(dt.float32)
    return to_np(t).astype(np.complex128)


@pytest.mark.parametrize("dtype", DTYPES + ["bfloat16"])
def test_every_kernel_runs(device, dtype):
    """Every reduction and scan kernel of every dtype, bfloat16 included
    (NumPy has none: the device is compared with the cpu, the cpu with
    float32 NumPy), so CI's emulation runs each of them."""
    rng = np.random.default_rng(14)
    small = values(rng, (5, 7), "float32" if dtype == "bfloat16" else dtype)
    long = values(rng, (2 * 256 * 16 + 3,), "float32" if dtype == "bfloat16" else dtype)
    # wide: an outer reduction the CUDA kernels cut in parts (k_reduce_outer_finish)
    wide_ = values(rng, (300, 1000), "float32" if dtype == "bfloat16" else dtype)
    if wide_.dtype.kind in "fc":  # small integers: NumPy's float16 and float32 sums down an axis round
        wide_ = (np.round(wide_.real) % 7 + (1j * (np.round(wide_.imag) % 5) if wide_.dtype.kind == "c" else 0)
                 ).astype(wide_.dtype)  # at every row, so only exact sums compare
    if dtype == "bfloat16":
        small, long, wide_ = (np.round(v, 0) for v in (small, long, wide_))  # exact in bfloat16
    long_prod = (1 + long / 1000).astype(long.dtype) if long.dtype.kind in "fc" else long
    wide_prod = wide_ if wide_.dtype.kind not in "fc" else \
        np.where(np.arange(300)[:, None] % 50 == 0, 2, 1).repeat(1000, 1).astype(wide_.dtype)  # exact
    cases = [(small, None), (small, 0), (small, 1), (long, None), (wide_, 0)]
    for a, axis in cases:
        for op in OPS:
            arr = {id(long): long_prod, id(wide_): wide_prod}.get(id(a), a) if op == "prod" else a
            t = dt.asarray(arr).astype(dtype).to(device)
            got = getattr(dt, op)(t, axis=axis)
            ref = getattr(dt, op)(t.cpu(), axis=axis)
            assert got.dtype == ref.dtype and got.shape == ref.shape
            np.testing.assert_allclose(wide(got), wide(ref), rtol=1e-2 if dtype == "bfloat16" else 1e-6)
            if dtype != "bfloat16":
                same_result(got, getattr(np, op)(arr, axis=axis), op, dtype)
    for name in ("cumsum", "cumprod"):
        for a, axis in [(small, 1), (long if name == "cumsum" else long_prod, None)]:
            arr = a if name == "cumsum" or a.dtype.kind not in "fc" else (a / 4 + 1).astype(a.dtype) / 2
            if name == "cumsum" and a is long and a.dtype.kind in "fc" and dtype in ("float16", "bfloat16"):
                arr = (a / 64).astype(a.dtype)
            t = dt.asarray(arr).astype(dtype).to(device)
            got, ref = getattr(dt, name)(t, axis=axis), getattr(dt, name)(t.cpu(), axis=axis)
            assert got.dtype == ref.dtype and got.shape == ref.shape
            tol = {"float16": 2e-2, "bfloat16": 5e-2}.get(dtype, 1e-5)
            np.testing.assert_allclose(wide(got), wide(ref), rtol=tol, atol=tol)
    for name in ("maximum", "minimum"):  # the MIN and MAX scans, exact (long: the CUDA chunk kernels)
        for a, axis in [(small, 1), (long, 0)]:
            t = dt.asarray(a).astype(dtype).to(device)
            got, ref = getattr(dt, name).accumulate(t, axis=axis), getattr(dt, name).accumulate(t.cpu(), axis=axis)
            assert got.dtype == ref.dtype and wide(got).tobytes() == wide(ref).tobytes()
            if dtype != "bfloat16":
                assert_same(got.cpu(), getattr(np, name).accumulate(a, axis=axis))


def test_more_bad_arguments(device):
    t = dt.asarray(np.arange(6.0).reshape(2, 3), device=device)
    with pytest.raises(ValueError, match="Shape of weights must be consistent with shape of a along specified axis"):
        dt.average(t, axis=1, weights=dt.ones((3, 1), device=device))
    with pytest.raises(ValueError, match="ddof and correction can't be provided simultaneously"):
        dt.nanvar(t, ddof=1, correction=1)
    with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0 for slice"):
        dt.nanvar(t, axis=0, ddof=2)
    with pytest.raises(TypeError, match="output must be a devtensor tensor"):
        dt.sum(t, axis=0, out=np.empty(3))
    with pytest.raises(ValueError, match="The 'out' tuple must have exactly one entry"):
        dt.sum(t, axis=0, out=(dt.empty(3, device=device), dt.empty(3, device=device)))
    with pytest.raises(TypeError, match="output must be a devtensor tensor"):
        dt.cumsum(t, out=np.empty(6))
    with pytest.raises(ValueError, match="only sum, prod, min and max scan, not argmin"):
        dt._C._scan(dt._C.REDUCE_OPS.index("argmin"), t, 0, dt.empty((2, 3), device=device))
    with pytest.raises(TypeError, match="scan: maximum does not give float32 from float64"):
        dt._C._scan(dt._C.REDUCE_OPS.index("max"), t, 0, dt.empty((2, 3), dtype=dt.float32, device=device))
    with pytest.raises(ValueError, match="scan: the output overlaps the input"):
        dt._C._scan(0, t, 0, t)
    with pytest.raises(ValueError, match="reduce: the output overlaps the input"):
        dt._C._reduce(0, t, (0,), t[0])
    with pytest.raises(TypeError, match="reduce: minimum does not give int64 from float64"):
        dt._C._reduce(2, t, (0,), dt.empty((3,), dtype="int64", device=device))


def same_error(np_call, dt_call):
    """dt_call raises what np_call raises: the same type and message."""
    with pytest.raises(Exception) as np_err:
        np_call()
    with pytest.raises(type(np_err.value), match=re.escape(str(np_err.value))):
        dt_call()


def test_nanmax_nanmin_initial(device):
    """Note [nanmax is fmax.reduce]: a slice with no valid element gives
    initial (no warning); a NaN initial is skipped, as fmax skips it."""
    a = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    an = np.array([[np.nan, np.nan], [1.0, np.nan]])
    t, tn = dt.asarray(a, device=device), dt.asarray(an, device=device)
    empty = np.zeros((0, 3))
    row_mask = np.array([[True], [False]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # none of these warns, in NumPy or here
        for name in ("nanmax", "nanmin"):
            np_f, dt_f = getattr(np, name), getattr(dt, name)
            assert_same(dt_f(t, axis=1, where=dt.asarray(row_mask, device=device), initial=1.0),
                        np_f(a, axis=1, where=row_mask, initial=1.0))
            assert_same(dt_f(tn, axis=1, initial=5.0), np_f(an, axis=1, initial=5.0))
            assert_same(dt_f(tn, axis=0, keepdims=True, initial=-5.0), np_f(an, axis=0, keepdims=True, initial=-5.0))
            assert_same(dt_f(dt.asarray(empty, device=device), axis=0, initial=1.0), np_f(empty, axis=0, initial=1.0))
            assert_same(dt_f(t, initial=np.nan), np_f(a, initial=np.nan))
            assert_same(dt_f(t, axis=0, initial=np.nan), np_f(a, axis=0, initial=np.nan))
            x = np.array([[1, 7], [4, 2]], np.int32)
            assert_same(dt_f(dt.asarray(x, device=device), axis=1, initial=3), np_f(x, axis=1, initial=3))
    with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):  # a NaN initial is no value
        got = dt.nanmax(tn, axis=1, initial=np.nan)
    assert_same(got, np.array([np.nan, 1.0]))
    with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
        got = dt.nanmin(dt.asarray(empty, device=device), axis=0, initial=np.nan)
    assert_same(got, np.full(3, np.nan))
    for name in ("nanmax", "nanmin"):  # no initial: fmax's and fmin's errors
        same_error(lambda: getattr(np, name)(empty), lambda: getattr(dt, name)(dt.asarray(empty, device=device)))
        same_error(lambda: getattr(np, name)(np.zeros((0, 0)), axis=0),
                   lambda: getattr(dt, name)(dt.zeros((0, 0), device=device), axis=0))
        same_error(lambda: getattr(np, name)(a, where=a > 2),
                   lambda: getattr(dt, name)(t, where=dt.asarray(a > 2, device=device)))


ZERO_D_FUNCS = ["sum", "prod", "min", "max", "any", "all", "ptp", "count_nonzero", "nansum", "nanprod", "nanmin",
                "nanmax", "argmin", "argmax", "nanargmin", "nanargmax", "cumsum", "cumprod", "nancumsum",
                "nancumprod", "mean", "var", "std", "nanmean", "nanvar", "nanstd", "average"]


@pytest.mark.parametrize("name", ZERO_D_FUNCS)
def test_zero_d_axis(device, name):
    """Note [Axis 0 of a 0-d tensor]: NumPy's results and AxisErrors for
    axis 0, -1, 1 and (0,) of a 0-d array."""
    for a in (np.array(2.5), np.array(np.nan), np.array(3, np.int16)):
        t = dt.asarray(a, device=device)
        for axis in (0, -1, 1, -2, (0,)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                try:
                    exp = getattr(np, name)(a, axis=axis)
                except Exception as e:
                    with pytest.raises(type(e), match=re.escape(str(e))):
                        getattr(dt, name)(t, axis=axis)
                    continue
                got = getattr(dt, name)(t, axis=axis)
            assert_same(got, exp, exact=False)


def test_zero_d_cumulative(device):
    s = np.array(2.5)
    t = dt.asarray(s, device=device)
    for f in ("cumulative_sum", "cumulative_prod"):
        for include in (False, True):
            assert_same(getattr(dt, f)(t, include_initial=include), getattr(np, f)(s, include_initial=include))
        assert_same(getattr(dt, f)(t, axis=-1), getattr(np, f)(s, axis=-1))
        same_error(lambda: getattr(np, f)(s, axis=1), lambda: getattr(dt, f)(t, axis=1))
    assert_same(dt.argmax(t, axis=0, keepdims=True), np.argmax(s, axis=0, keepdims=True))


def test_initial_cast_to_result_dtype(device):
    """NumPy casts initial to the result dtype first: int(2.5) for int64."""
    x = np.array([[1, 2, 3], [-4, 5, 6]], np.int16)
    t = dt.asarray(x, device=device)
    for initial in (2.5, -2.5, True, 7):
        assert_same(dt.sum(t, axis=0, initial=initial), np.sum(x, axis=0, initial=initial))
        assert_same(dt.prod(t, axis=1, initial=initial), np.prod(x, axis=1, initial=initial))
        assert_same(dt.max(t, axis=1, initial=initial), np.max(x, axis=1, initial=initial))
        assert_same(dt.sum(t, dtype="int8", initial=initial), np.sum(x, dtype="int8", initial=initial))
    assert_same(dt.min(dt.zeros((0, 2), dtype="int8", device=device), axis=0, initial=-1.5),
                np.min(np.zeros((0, 2), np.int8), axis=0, initial=-1.5))
    same_error(lambda: np.sum(x, dtype="int8", initial=300.5), lambda: dt.sum(t, dtype="int8", initial=300.5))


def test_average_weights_along_axes(device):
    """NumPy 2.4's average: weights of a's shape along axis (a tuple too, in
    its order), NumPy's errors otherwise."""
    rng = np.random.default_rng(15)
    a = rng.standard_normal((2, 3, 4))
    t = dt.asarray(a, device=device)
    for axis, wshape in [((0, 1), (2, 3)), ((1, 0), (3, 2)), ((2, 0), (4, 2)), (-1, (4,)), ((0, 2, 1), (2, 4, 3))]:
        w = rng.random(wshape) + 0.5
        for returned in (False, True):
            exp = np.average(a, axis=axis, weights=w, returned=returned)
            got = dt.average(t, axis=axis, weights=dt.asarray(w, device=device), returned=returned)
            for g, e in zip(got, exp) if returned else [(got, exp)]:
                assert_same(g, e, exact=False, rtol=1e-12)
    assert_same(dt.average(dt.asarray(a[0], device=device), axis=True), np.average(a[0], axis=True), exact=False)
    bad = [(0, np.ones(3)), (1, np.ones((3, 1))), ((0, 1), np.ones(6)), ((0, 1), np.ones((3, 2))), (0, np.ones(()))]
    for axis, w in bad + [(3, None), ((0, -3), None), ((1, 1), np.ones((3, 3))), (0.5, None)]:
        same_error(lambda: np.average(a, axis=axis, weights=w),
                   lambda: dt.average(t, axis=axis, weights=None if w is None else dt.asarray(w, device=device)))
    same_error(lambda: np.average(np.zeros((0, 3)), axis=1),  # NumPy's ZeroDivisionError
               lambda: dt.average(dt.zeros((0, 3), device=device), axis=1))


def test_var_std_complex_dtype(device):
    """A dtype= is var's and std's result dtype, complex included."""
    rng = np.random.default_rng(16)
    c = (rng.standard_normal(5) + 1j * rng.standard_normal(5)).astype(np.complex64)
    for src in (c, c.real.copy(), np.arange(5, dtype=np.int32)):
        t = dt.asarray(src, device=device)
        for name in ("var", "std"):
            for dtype in ("complex128", "complex64"):
                assert_same(getattr(dt, name)(t, dtype=dtype), getattr(np, name)(src, dtype=dtype), exact=False,
                            rtol=1e-5)
            assert_same(getattr(dt, name)(t, ddof=1), getattr(np, name)(src, ddof=1), exact=False, rtol=1e-5)


def test_empty_slice_warnings(device):
    """NumPy's RuntimeWarnings before a division by a count of 0 or by
    n - ddof <= 0 (Note [Warnings of empty slices])."""
    e = dt.zeros((0, 3), device=device)
    a = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    t = dt.asarray(a, device=device)
    mask = np.array([[True, False, False], [False, False, False]])
    for axis in (None, 0):
        for f in (dt.mean, dt.average, lambda e, axis: e.mean(axis=axis)):
            with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
                f(e, axis=axis)
        for f in (dt.var, dt.std):
            with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0 for slice") as record:
                f(e, axis=axis)
            assert not [w for w in record if "Mean of empty slice" in str(w.message)]  # as NumPy: one warning
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        got = dt.mean(t, axis=1, where=dt.asarray(mask, device=device))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_same(got, np.mean(a, axis=1, where=mask))
    for kw in ({"axis": 0, "ddof": 2}, {"ddof": 6}, {"axis": 1, "ddof": 1, "where": mask}):
        for name in ("var", "std"):
            dkw = dict(kw, where=dt.asarray(kw["where"], device=device)) if "where" in kw else kw
            with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0 for slice"):
                got = getattr(dt, name)(t, **dkw)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                assert_same(got, getattr(np, name)(a, **kw), exact=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning where no slice is empty
        dt.mean(dt.zeros((0, 3), device=device), axis=1)
        dt.var(t, axis=0, ddof=1)
        dt.mean(t)
        t.mean(axis=0)


def test_rejected_inputs(device):
    """What NumPy refuses: a bool axis, argmax into a float out, a non-bool
    where= array, an integer dtype or out for nanmean of inexact input."""
    a = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    t = dt.asarray(a, device=device)
    for name in ("sum", "prod", "max", "any", "all", "ptp", "count_nonzero", "nansum", "nanmin", "mean", "var",
                 "std", "nanmean", "nanvar", "argmax", "nanargmax", "cumsum", "nancumsum"):
        for axis in (True, (False,)):
            same_error(lambda: getattr(np, name)(a, axis=axis), lambda: getattr(dt, name)(t, axis=axis))
        assert_same(getattr(dt, name)(t, axis=1), getattr(np, name)(a, axis=1), exact=False)
    same_error(lambda: np.cumulative_sum(a, axis=True), lambda: dt.cumulative_sum(t, axis=True))
    for name in ("argmax", "argmin", "nanargmax", "nanargmin"):
        for out_dtype in ("float64", "float32", "uint64"):
            same_error(lambda: getattr(np, name)(a, axis=1, out=np.zeros(2, out_dtype)),
                       lambda: getattr(dt, name)(t, axis=1, out=dt.zeros(2, dtype=out_dtype, device=device)))
        for out_dtype in ("int32", "bool"):
            out = dt.zeros(2, dtype=out_dtype, device=device)
            assert getattr(dt, name)(t, axis=1, out=out) is out
            assert_same(out, getattr(np, name)(a, axis=1).astype(out_dtype))
    for w in (np.array([1, 0, 1]), np.array([1.0, 0.0, 1.0])):
        for name, kw in [("sum", {}), ("max", {"initial": 0}), ("any", {}), ("mean", {}), ("var", {}),
                         ("nanmean", {}), ("nanvar", {}), ("nansum", {}), ("nanmax", {"initial": 0})]:
            same_error(lambda: getattr(np, name)(a, where=w, **kw),
                       lambda: getattr(dt, name)(t, where=dt.asarray(w, device=device), **kw))
    for w in ([1, 0, 1], 1):  # a list or Python scalar is cast as NumPy casts it
        assert_same(dt.sum(t, where=w), np.sum(a, where=w))
        assert_same(dt.mean(t, axis=1, where=w), np.mean(a, axis=1, where=w))
    for name in ("nanmean", "nanvar", "nanstd"):
        for dtype in ("int8", "bool"):
            same_error(lambda: getattr(np, name)(a, dtype=dtype), lambda: getattr(dt, name)(t, dtype=dtype))
        same_error(lambda: getattr(np, name)(a, axis=0, out=np.zeros(3, np.int64)),
                   lambda: getattr(dt, name)(t, axis=0, out=dt.zeros(3, dtype="int64", device=device)))
    x = np.arange(6).reshape(2, 3)  # integer input takes an integer dtype
    assert_same(dt.nanmean(dt.asarray(x, device=device), axis=0, dtype="int32"), np.nanmean(x, axis=0, dtype="int32"))


def test_scan_out_errors(device):
    a = np.arange(12.0).reshape(3, 4)
    t = dt.asarray(a, device=device)
    same_error(lambda: np.cumsum(a, out=np.zeros((3, 4))), lambda: dt.cumsum(t, out=dt.zeros((3, 4), device=device)))
    same_error(lambda: np.cumprod(a, axis=0, out=np.zeros((4, 3))),
               lambda: dt.cumprod(t, axis=0, out=dt.zeros((4, 3), device=device)))
    same_error(lambda: np.cumulative_sum(a, axis=0, out=np.zeros((4, 3))),
               lambda: dt.cumulative_sum(t, axis=0, out=dt.zeros((4, 3), device=device)))
    same_error(lambda: np.cumsum(a[0], out=np.zeros(3)), lambda: dt.cumsum(t[0], out=dt.zeros(3, device=device)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [15, 16, 255, 256, 257, 4096 + 7, 100_003])
def test_vector_and_strided_sum_leaves_agree_bit_for_bit(device, dtype, n):
    """Note [AVX2 sum leaves]: on the CPU the contiguous leaf (vectors on
    CPUs with AVX2) sums in the sixteen-lane order of the strided leaf,
    exactly; everywhere both are within pairwise summation's bound."""
    vals = np.random.default_rng(n).standard_normal(n).astype(dtype) * 1e3
    spaced = np.zeros(2 * n, dtype)
    spaced[::2] = vals
    contiguous = dt.asarray(vals, device=device).sum()
    strided = dt.asarray(spaced, device=device)[::2].sum()
    if device == "cpu":  # the CPU's leaves; devices have kernels of their own
        assert contiguous.item() == strided.item()
    exact = math.fsum(vals.astype(np.float64))
    assert abs(contiguous.item() - exact) <= 4 * np.finfo(dtype).eps * np.abs(vals).sum()


def test_plain_reductions_keep_dims(device):
    """Note [Plain reductions in C] with keepdims=True: NumPy's shapes,
    strides and values for every axis form; a keepdims that is not a bool
    is left to Python (NumPy accepts any truth value)."""
    from devtensor import _C
    a = np.random.default_rng(4).random((3, 4, 2))
    t = dt.asarray(a, device=device)
    for axis in (None, 0, 1, -1, (0, 2), (2, 0, 1)):
        for name in ("sum", "prod", "max", "min", "any", "all", "mean"):
            got, want = getattr(t, name)(axis=axis, keepdims=True), getattr(a, name)(axis=axis, keepdims=True)
            assert got.shape == want.shape and got.strides == want.strides and got.device == t.device
            np.testing.assert_allclose(to_np(got), want, rtol=1e-14)
            fn = getattr(dt, name)(t, axis=axis, keepdims=True)
            assert fn.shape == want.shape
    assert _C._reduce_fast(_C.REDUCE_OPS.index("sum"), t, 0, 1) is None
    assert t.sum(axis=0, keepdims=1).shape == (1, 4, 2)
    with pytest.raises(np.exceptions.AxisError):
        t.sum(axis=3, keepdims=True)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float16", "bfloat16", "float32", "float64",
                                   "complex64", "complex128"])
def test_count_nonzero_by_bits_matches_a_cast_to_bool(device, dtype):
    """count_nonzero of a few contiguous CPU elements reads their bits (NaN
    and subnormals count, -0.0 does not, a complex when either part does);
    every device and path agrees with NumPy (bfloat16 with its float32)."""
    import warnings
    vals = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1e-320, -1e-45, 5.0, 0.0, -2.0])
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        ref = vals.astype("float32" if dtype == "bfloat16" else dtype)
        if dtype.startswith("complex"):
            ref = ref + (np.array([0, 1, 0, 0, 0, 0, -0.0, 0, np.nan, 0]) * 1j).astype(dtype)
    t = dt.asarray(ref, device=device).astype(dtype)
    if dtype == "bfloat16":
        ref = t.astype(dt.float32).cpu().numpy()
    for x, r in [(t, ref), (t.reshape(2, 5), ref.reshape(2, 5)), (t[::2], ref[::2])]:
        got = dt.count_nonzero(x)
        assert got.dtype == dt.int64 and got.shape == () and int(got) == np.count_nonzero(r), (x, r)
        kept = dt.count_nonzero(x, keepdims=True)
        assert kept.shape == (1,) * x.ndim and int(kept.reshape(())) == np.count_nonzero(r)
    assert_same(dt.count_nonzero(t.reshape(2, 5), axis=1), np.count_nonzero(ref.reshape(2, 5), axis=1), device=device)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "bool"])
def test_few_outputs_of_many_elements(device, dtype):
    """Few outputs along an inner or an outer axis: the CUDA kernels cut the
    reduced elements in parts and fold them per output (k_reduce_finish,
    k_reduce_outer_finish; Note [Reduction kernels]), with ties and NaN in
    later parts."""
    rng = np.random.default_rng(21)
    for shape, axis in (((3, 2 * 256 * 16 + 11), 1), ((300, 1000), 0), ((2, 150, 1000), (0, 1))):
        a = np.round(values(rng, shape, dtype) / 3).astype(dtype) if dtype != "bool" else values(rng, shape, dtype)
        if a.dtype.kind == "f":
            flat = a.reshape(-1)
            flat[[7, flat.size - 2]] = np.nan
        t = dt.asarray(a, device=device)
        for op in OPS:
            if (op == "prod" and a.dtype.kind == "f") or (op.startswith("arg") and isinstance(axis, tuple)):
                continue
            same_result(getattr(dt, op)(t, axis=axis), getattr(np, op)(a, axis=axis), op, dtype)


def test_many_parts_and_chunks(device):
    """More parts and scan chunks than a block has threads (each thread of
    k_reduce_finish and k_scan_starts then folds a run of them)."""
    n = 257 * 256 * 16 + 5
    a = np.random.default_rng(22).standard_normal(n)
    a[n - 3] = 100.0
    t = dt.asarray(a, device=device)
    np.testing.assert_allclose(float(dt.sum(t)), math.fsum(a), rtol=1e-12)
    assert int(dt.argmax(t)) == n - 3 and int(dt.argmin(t)) == int(np.argmin(a))
    np.testing.assert_allclose(to_np(dt.cumsum(t)), np.cumsum(a), rtol=1e-9, atol=1e-9)
    zeros = dt.full(n, -0.0, device=device)
    assert np.signbit(to_np(dt.cumsum(zeros))).all()  # NumPy's accumulate starts at the first element
    assert not np.signbit(float(dt.sum(zeros)))  # and its sum at +0.0


METHOD_CALLS = [  # (args, kwargs) of t.<method>(...) for every reduction method
    ((), {}), ((0,), {}), ((), {"axis": 1}), ((-1,), {}), ((), {"axis": None}),
    ((), {"keepdims": True}), ((1,), {"keepdims": True}), ((), {"axis": (0, 1)}), ((), {"keepdims": 1}),
    ((0,), {"axis": 0}), ((), {"axis": 2}), ((), {"axis": (0, 0)}), ((), {"axis": 1.0}), ((), {"foo": 1}),
    ((), {"where": np.array([[True, False, True]] * 2)}), ((None, None), {}),
]


@pytest.mark.parametrize("name", ["sum", "prod", "min", "max", "argmin", "argmax", "any", "all"])
def test_reduction_methods_take_numpys_arguments(device, name):
    """Note [Reduction methods in C]: the plain forms in C, every other one
    (positional out, where=, keepdims=1, bad axes, unknown keywords) through
    the Python function: NumPy's values, and NumPy's exception types."""
    a = np.array([[1.0, 5.0, 2.0], [4.0, 0.5, 6.0]])
    t = dt.asarray(a, device=device)
    for args, kwargs in METHOD_CALLS:
        if "where" in kwargs and name in ("argmin", "argmax"):
            continue
        if "where" in kwargs and name in ("min", "max"):
            kwargs = dict(kwargs, initial=0.0)
        np_kwargs = kwargs
        dt_kwargs = {k: (dt.asarray(v, device=device) if isinstance(v, np.ndarray) else v)
                     for k, v in kwargs.items()}
        try:
            want = getattr(a, name)(*args, **np_kwargs)
        except Exception as e:
            with pytest.raises(type(e)):
                getattr(t, name)(*args, **dt_kwargs)
            continue
        got = getattr(t, name)(*args, **dt_kwargs)
        assert_same(got, np.asarray(want), device)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8"])
def test_sums_of_bytes(device, dtype):
    """Sums of bool, int8 and uint8 (count_nonzero of a bool tensor is one):
    on the CPU, contiguous runs go 64 bytes at a time (Note [Byte sums]);
    lengths around that block, their tails, strided and row runs, and bool
    bytes other than 0 and 1 (a view of raw bytes: any non-zero byte is
    true) agree with NumPy."""
    rng = np.random.default_rng(5)
    for n in (0, 1, 63, 64, 65, 127, 128, 1000, 100_003):
        raw = rng.integers(0, 256, n, dtype=np.uint8)
        a = (raw > 127) if dtype == "bool" else raw.view(dtype)
        t = dt.asarray(a, device=device)
        got = dt.sum(t)
        assert got.dtype == (dt.uint64 if dtype == "uint8" else dt.int64) and int(got) == int(a.sum()), n
        assert int(dt.count_nonzero(t)) == np.count_nonzero(a)
        assert int(dt.sum(t[1::3])) == int(a[1::3].sum())
        if n % 1000 == 0 and n:
            assert_same(dt.sum(t.reshape(-1, 100), axis=1), a.reshape(-1, 100).sum(axis=1), device=device)
    raw = np.frombuffer(bytes([0, 2, 255, 1, 0, 128] * 50), dtype=np.bool_)  # NumPy counts these bytes too
    t = dt.asarray(raw, device=device)
    assert int(dt.count_nonzero(t)) == np.count_nonzero(raw) == 200
    assert int(dt.sum(t)) == 200
    big = np.full(3 * 10**6, 255, dtype=np.uint8)  # 64-bit lanes: no overflow of a byte or a 16-bit count
    assert int(dt.sum(dt.asarray(big, device=device))) == 255 * 3 * 10**6
    assert int(dt.sum(dt.asarray(big.view(np.int8), device=device))) == -3 * 10**6
