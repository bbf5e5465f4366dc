"""Products (devtensor/_products.py) against NumPy on every device: matmul
and the @ and @= operators, dot, vdot, inner, outer, tensordot, vecdot,
matrix_transpose, kron, diagonal, trace and cross, and PyTorch's mm, bmm and
mv, over dtypes, shapes (1-D, 0-d, batch broadcasting, empty, k == 0) and
layouts (transposed, strided, negative strides); their errors; the Tensor
methods.
Small-integer data make every product exact in every dtype, so values are
compared exactly; results must stay on the operands' device."""
import warnings

import numpy as np
import pytest

import devtensor as dt
from helpers import CUDA_DEVICES, assert_same, given, settings, st, to_np

DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64",
          "complex64", "complex128"]
LAYOUTS = ["contiguous", "transposed", "strided", "reversed"]


def make(shape, dtype="float64", seed=0):
    """Small integers (exact products in every dtype), wrapping for uint8."""
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    a = rng.integers(-3, 4, size=shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.integers(-3, 4, size=shape)
    return a.astype(dtype)


def on(a, device):
    """A tensor on device with a's values (a copy: on the cpu, asarray would
    share a's memory, and in-place tests would change the oracle too)."""
    return dt.asarray(np.array(a), device=device)


def laid_out(a, layout, device):
    """(NumPy array, tensor on device) equal to a, both seen in `layout`:
    the same view of a bigger or permuted base."""
    if layout == "transposed" and a.ndim >= 2:
        base, view = np.ascontiguousarray(np.swapaxes(a, -1, -2)), (lambda x: x.swapaxes(-1, -2))
    elif layout == "strided" and a.ndim:
        base = np.zeros(a.shape[:-1] + (2 * a.shape[-1],), a.dtype)
        base[..., ::2] = a
        view = (lambda x: x[..., ::2])
    elif layout == "reversed" and a.ndim:
        base, view = np.ascontiguousarray(a[::-1, ..., ::-1]), (lambda x: x[::-1, ..., ::-1])
    else:
        base, view = a, (lambda x: x)
    return view(base), view(on(base, device))


def same_error(dt_call, np_call, exact=True):
    """dt_call raises NumPy's exception (a TypeError where NumPy raises its
    subclass UFuncTypeError, as devtensor's ufuncs do), with its message."""
    with pytest.raises(Exception) as want:
        np_call()
    kind = TypeError if issubclass(want.type, TypeError) else want.type
    with pytest.raises(kind) as got:
        dt_call()
    if exact:
        assert str(got.value) == str(want.value)


# ---- matmul ----

MATMUL_SHAPES = [((3, 4), (4, 5)), ((4,), (4,)), ((2, 3, 4), (4,)), ((4,), (2, 4, 3)),
                 ((2, 1, 3, 4), (5, 4, 2)), ((3, 0), (0, 2)), ((0, 3), (3, 2)), ((2, 3), (3, 0)),
                 ((1, 4), (4, 1)), ((0, 2, 3), (3, 4))]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=str)
def test_matmul_values(device, dtype, shapes):
    a, b = make(shapes[0], dtype), make(shapes[1], dtype, 1)
    ta, tb = on(a, device), on(b, device)
    want = np.matmul(a, b)
    assert_same(dt.matmul(ta, tb), want, device)
    assert_same(ta @ tb, want, device)
    assert_same(ta, a, device)  # inputs untouched
    assert_same(tb, b, device)


@pytest.mark.parametrize("la", LAYOUTS)
@pytest.mark.parametrize("lb", LAYOUTS)
@pytest.mark.parametrize("dtype", ["int32", "float32", "complex128"])
def test_matmul_layouts(device, la, lb, dtype):
    na, ta = laid_out(make((2, 3, 4), dtype), la, device)
    nb, tb = laid_out(make((4, 5), dtype, 1), lb, device)
    assert_same(ta @ tb, na @ nb, device)
    assert_same(dt.matmul(tb.swapaxes(-1, -2), ta.swapaxes(-1, -2)),
                np.matmul(nb.swapaxes(-1, -2), na.swapaxes(-1, -2)), device)


def test_matmul_mixed_dtypes_and_dtype_arg(device):
    a, b = make((2, 3), "int8"), make((3, 2), "float32", 1)
    ta, tb = on(a, device), on(b, device)
    assert_same(ta @ tb, a @ b, device)
    assert_same(dt.matmul(ta, on(make((3, 2), "uint8"), device)),
                np.matmul(a, make((3, 2), "uint8")), device)
    for dtype, casting in [("float64", "same_kind"), ("float16", "same_kind"),
                           ("int64", "unsafe"), ("int8", "unsafe")]:
        assert_same(dt.matmul(ta, tb, dtype=dtype, casting=casting),
                    np.matmul(a, b, dtype=dtype, casting=casting), device)


def test_matmul_out(device):
    a, b = make((2, 3)), make((3, 4), seed=1)
    ta, tb = on(a, device), on(b, device)
    out = dt.zeros((2, 4), dtype="complex128", device=device)
    assert dt.matmul(ta, tb, out=out) is out
    assert_same(out, np.matmul(a, b).astype(complex), device)
    out = dt.zeros((2, 4), device=device)
    assert dt.matmul(ta, tb, out=(out,)) is out
    assert_same(out, a @ b, device)
    x = on(make((3, 3)), device)  # out= an operand
    assert_same(dt.matmul(x, x, out=x), make((3, 3)) @ make((3, 3)), device)


def test_matmul_out_written_in_place(device):
    """out= of the result's shape is written by the product itself
    (csrc/core/matmul.c's dt_matmul_into): contiguous, strided (a
    transposed view), another dtype, overlapping an operand, batched small
    products; a read-only out raises and keeps its values."""
    a, b = make((5, 16, 16)), make((5, 16, 16), seed=1)
    ta, tb = on(a, device), on(b, device)
    out = dt.zeros((5, 16, 16), device=device)
    assert dt.matmul(ta, tb, out=out) is out
    assert_same(out, a @ b, device)
    base = dt.zeros((5, 16, 16), device=device)
    view = base.swapaxes(-1, -2)  # not C-contiguous
    assert dt.matmul(ta, tb, out=view) is view
    assert_same(base, (a @ b).swapaxes(-1, -2), device)
    out32 = dt.zeros((5, 16, 16), dtype="float32", device=device)
    dt.matmul(ta, tb, out=out32, casting="same_kind")
    assert_same(out32, np.matmul(a, b, out=np.zeros((5, 16, 16), np.float32), casting="same_kind"), device)
    tb2 = on(b, device)
    dt.matmul(ta, tb2, out=tb2)  # out is the right operand
    assert_same(tb2, a @ b, device)
    whole = on(np.concatenate([a, b]), device)  # out overlaps the left operand, shifted by one problem
    dt.matmul(whole[:5], whole[5:], out=whole[1:6])
    want = np.concatenate([a, b])
    want[1:6] = a @ b
    assert_same(whole, want, device)
    v1, m2 = make((16,)), make((16, 3), seed=2)
    out1 = dt.zeros((3,), device=device)
    assert dt.matmul(on(v1, device), on(m2, device), out=out1) is out1
    assert_same(out1, v1 @ m2, device)
    ro = dt.asarray(np.zeros((5, 16, 16)), device=device)
    ro.flags.writeable = False
    ref = np.zeros((5, 16, 16))
    ref.flags.writeable = False
    same_error(lambda: dt.matmul(ta, tb, out=ro), lambda: np.matmul(a, b, out=ref))
    assert_same(ro, np.zeros((5, 16, 16)), device)


def test_matmul_with_lists_and_numpy(device):
    a = make((2, 3), "int8")
    t = on(a, device)
    for other in ([1, 2, 3], np.arange(3, dtype=np.int8), np.ones((3, 2), np.float32),
                  [[1.5], [2], [3]]):
        assert_same(t @ other, a @ np.asarray(other), device)
    for other in ([1, 2], np.ones((4, 2), np.int16)):
        assert_same(other @ t, np.asarray(other) @ a, device)
    assert_same(dt.matmul([[1, 2]], t), np.matmul([[1, 2]], a), device)
    assert_same(dt.matmul([[1, 2]], [[3], [4]]), np.matmul([[1, 2]], [[3], [4]]), None)
    assert_same(np.matmul(np.ones((3, 3), np.int8), t.T), np.ones((3, 3), np.int8) @ a.T,
                device)  # NumPy's matmul ufunc hands tensors to devtensor
    with pytest.raises(TypeError):
        t @ "ab"


def test_imatmul(device):
    a, b = make((2, 3)), make((3, 3), "int32", 1)
    t = on(a, device)
    ref = t
    t @= on(b, device)
    assert t is ref
    assert_same(t, a @ b, device)
    t @= [[1, 0, 0], [0, 2, 0], [0, 0, 1]]
    assert_same(t, a @ b @ np.diag([1, 2, 1]), device)
    v = on(make(3), device)  # 1-D @= 2-D keeps the shape
    v @= on(b.astype(float), device)
    assert_same(v, make(3) @ b.astype(float), device)
    s = on(make((2, 2), "int8"), device)
    s @= on(make((2, 2), "int64"), device)  # same_kind: int64 into int8
    assert_same(s, np.matmul(make((2, 2), "int8"), make((2, 2), "int64")).astype(np.int8),
                device)


def _imatmul_np(a, b):
    a @= b


def _imatmul_dt(t, u):
    t @= u


@pytest.mark.parametrize("xshape,xd,yshape,yd", [
    ((2, 3), "float64", (3, 4), "float64"), ((2, 2), "int64", (2, 2), "float64"),
    ((2, 2), "float32", (2, 2), "complex64"), ((), "float64", (3,), "float64"),
])
def test_imatmul_errors(device, xshape, xd, yshape, yd):
    x, y = make(xshape, xd), make(yshape, yd)
    same_error(lambda: _imatmul_dt(on(x, device), on(y, device)),
               lambda: _imatmul_np(x.copy(), y))


def test_matmul_errors(device):
    a2, a1 = make((2, 3)), make(3)
    t2, t1, t0 = on(a2, device), on(a1, device), on(np.float64(2), device)
    same_error(lambda: dt.matmul(t0, t2), lambda: np.matmul(np.float64(2), a2))
    same_error(lambda: dt.matmul(t2, t0), lambda: np.matmul(a2, np.float64(2)))
    same_error(lambda: t2 @ 2, lambda: a2 @ 2)
    same_error(lambda: dt.matmul(t2, t2), lambda: np.matmul(a2, a2))
    same_error(lambda: dt.matmul(t1, on(make(4), device)), lambda: np.matmul(a1, make(4)))
    b1, b2 = make((2, 2, 3)), make((3, 3, 2))
    same_error(lambda: dt.matmul(on(b1, device), on(b2, device)), lambda: np.matmul(b1, b2))
    same_error(lambda: dt.matmul(t2, t2.T, out=[1]), lambda: np.matmul(a2, a2.T, out=[1]))
    out2 = (dt.empty((2, 2), device=device),) * 2
    same_error(lambda: dt.matmul(t2, t2.T, out=out2),
               lambda: np.matmul(a2, a2.T, out=(np.empty((2, 2)),) * 2))
    same_error(lambda: dt.matmul(t2, t2.T, out=dt.empty((2, 2), dtype="int32", device=device)),
               lambda: np.matmul(a2, a2.T, out=np.empty((2, 2), np.int32)))
    same_error(lambda: dt.matmul(t2, t2.T, dtype="bool"),
               lambda: np.matmul(a2, a2.T, dtype="bool"), exact=False)


def test_matmul_dtype_cast_error_names_the_input(device):
    a, b = make((2, 2)), make((2, 2), "int32")
    same_error(lambda: dt.matmul(on(a, device), on(b, device), dtype="int32"),
               lambda: np.matmul(a, b, dtype="int32"))
    same_error(lambda: dt.matmul(on(b, device), on(a, device), dtype="int32"),
               lambda: np.matmul(b, a, dtype="int32"))


def test_matmul_checks_casting(device):
    a = make((2, 2))
    same_error(lambda: dt.matmul(on(a, device), on(a, device), casting="foo"),
               lambda: np.matmul(a, a, casting="foo"))


def test_matmul_out_with_loop_axes(device):
    a = make((2, 2))
    out = dt.zeros((3, 2, 2), device=device)
    dt.matmul(on(a, device), on(a, device), out=out)
    assert_same(out, np.matmul(a, a, out=np.zeros((3, 2, 2))), device)


@pytest.mark.parametrize("shapes,axes", [
    (((4, 2, 3), (3, 5)), [(-2, -1), (-2, -1), (-2, -1)]),
    (((2, 3, 4), (3, 5)), [(0, 1), (0, 1), (0, 1)]),
    (((4, 2, 3), (5, 3)), [(1, 2), (1, 0), (2, 0)]),
    (((3,), (3, 5)), [(0,), (0, 1), (0,)]),
    (((3,), (3, 5)), [0, (0, 1), 0]),
    (((3, 6), (3,)), [(1, 0), 0, 0]),
    (((3,), (3,)), [0, 0, ()]),
], ids=repr)
def test_matmul_axes(device, shapes, axes):
    """NumPy's gufunc axes=: each operand's core axes named, the result's
    placed; with out= too."""
    a, b = make(shapes[0]), make(shapes[1], seed=1)
    want = np.matmul(a, b, axes=axes)
    assert_same(dt.matmul(on(a, device), on(b, device), axes=axes), want, device, exact=False)
    out = dt.zeros(want.shape, device=device)
    assert dt.matmul(on(a, device), on(b, device), axes=axes, out=out) is out
    assert_same(out, want, device, exact=False)


@pytest.mark.parametrize("axes", [[(0, 1), (0, 1)], [(0, 1)] * 4, [(0, 5), (0, 1), (0, 1)], [(0, 0), (0, 1), (0, 1)],
                                  [(0,), (0, 1), (0, 1)], "x", [0, 0]], ids=repr)
def test_matmul_axes_errors(device, axes):
    a, b = make((4, 2, 3)), make((3, 5))
    if axes == [0, 0]:
        a, b = make(3), make(3)
    same_error(lambda: dt.matmul(on(a, device), on(b, device), axes=axes), lambda: np.matmul(a, b, axes=axes))
    same_error(lambda: dt.matmul(on(a, device), on(b, device), axis=0), lambda: np.matmul(a, b, axis=0))


def test_matmul_out_shape_errors(device):
    a, c = make((2, 3)), make((3, 2))
    for shape in [(2, 3), (3, 2)]:
        same_error(lambda: dt.matmul(on(a, device), on(c, device),
                                     out=dt.empty(shape, device=device)),
                   lambda: np.matmul(a, c, out=np.empty(shape)))


def test_imatmul_1d_error(device):
    x, y = make((2, 3)), make(3)
    same_error(lambda: _imatmul_dt(on(x, device), on(y, device)),
               lambda: _imatmul_np(x.copy(), y))


# out= as NumPy's gufunc machinery checks and fills it: loop axes added or
# broadcast, an out= of fewer axes dropping n or m, and each of its errors
MATMUL_OUT_CASES = [
    ((2, 3), (3, 2), (2, 2)), ((2, 3), (3, 2), (1, 2, 2)), ((2, 3), (3, 2), ()),
    ((2, 3), (3, 2), (2,)), ((2, 3), (3, 2), (2, 1)), ((2, 3), (3, 2), (5,)),
    ((1, 3), (3, 2), (2,)), ((2, 3), (3,), (2, 2)), ((2, 3), (3,), (3,)), ((3,), (3,), (4,)),
    ((3,), (3, 2), (1, 2)), ((2, 2, 3), (3, 2), (3, 2, 2)), ((2, 2, 3), (3, 2), (1, 2, 2)),
    ((2, 2, 3), (3, 2), (2, 2)), ((2, 1, 2, 3), (4, 3, 2), (3, 2, 4, 2, 2)),
    ((2, 1, 2, 3), (4, 3, 2), (2, 3, 2, 2)), ((2, 1, 2, 3), (4, 3, 2), (2, 1, 2, 2)),
    ((2, 3, 2, 3), (3, 2), (1, 2, 2)), ((2, 2, 3), (3,), (3, 2)), ((3,), (2, 3, 2), (3, 2)),
    ((0, 2, 3), (3, 2), (1, 2, 2)), ((2, 3), (3, 2), (0, 2, 2)), ((), (3,), (3,)),
    ((2, 3), (4, 2), (2, 2)),
]


@pytest.mark.parametrize("sa,sb,so", MATMUL_OUT_CASES, ids=str)
def test_matmul_out_shapes(device, sa, sb, so):
    a, b = make(sa), make(sb, seed=1)
    try:
        want = np.matmul(a, b, out=np.zeros(so))
    except ValueError:
        same_error(lambda: dt.matmul(on(a, device), on(b, device),
                                     out=dt.zeros(so, device=device)),
                   lambda: np.matmul(a, b, out=np.zeros(so)))
        return
    out = dt.zeros(so, device=device)
    assert dt.matmul(on(a, device), on(b, device), out=out) is out
    assert_same(out, want, device)


@pytest.mark.parametrize("xshape,yshape", [((2, 3), (1, 3, 3)), ((2, 3), (1, 1, 3, 3)),
                                           ((3,), (1, 3, 3)), ((2, 2, 3), (2, 3, 3)),
                                           ((2, 3), (2, 3, 3)), ((1, 2, 3), (2, 3, 3)),
                                           ((3,), (3,)), ((3,), ()), ((2, 3), (3, 0)),
                                           ((2, 2, 3), (3, 3, 3))], ids=str)
def test_imatmul_broadcast(device, xshape, yshape):
    x, y = make(xshape), make(yshape, seed=1)
    want = x.copy()
    try:
        _imatmul_np(want, y)
    except ValueError:
        same_error(lambda: _imatmul_dt(on(x, device), on(y, device)),
                   lambda: _imatmul_np(x.copy(), y))
        return
    t = on(x, device)
    _imatmul_dt(t, on(y, device))
    assert_same(t, want, device)


def test_matmul_casting_rules(device):
    a8, a64 = make((2, 2), "int8"), make((2, 2), "int64", 1)
    f32 = make((2, 2), "float32")
    for kw in [{"casting": "no"}, {"casting": "equiv"}, {"casting": "safe", "dtype": "int8"},
               {"casting": None}, {"casting": 1}]:
        same_error(lambda: dt.matmul(on(a8, device), on(a64, device), **kw),
                   lambda: np.matmul(a8, a64, **kw))
    same_error(lambda: dt.matmul(on(f32, device), on(f32, device), casting="no",
                                 out=dt.zeros((2, 2), device=device)),
               lambda: np.matmul(f32, f32, casting="no", out=np.zeros((2, 2))))
    assert_same(dt.matmul(on(f32, device), on(f32, device), casting="no"),
                np.matmul(f32, f32, casting="no"), device)


# ---- dot, vdot, inner, outer ----

DOT_SHAPES = [((), ()), ((), (2, 3)), ((3,), ()), ((4,), (4,)), ((2, 4), (4,)), ((4,), (4, 3)),
              ((2, 4), (4, 3)), ((2, 3, 4), (4,)), ((4,), (2, 4, 3)), ((2, 3, 4), (4, 2)),
              ((3, 4), (2, 4, 5)), ((2, 2, 3), (3, 1, 3, 2)), ((0, 3), (3, 2)), ((2, 0), (0, 3)),
              ((2, 0, 3), (4, 3, 0))]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes", DOT_SHAPES, ids=str)
def test_dot(device, dtype, shapes):
    a, b = make(shapes[0], dtype), make(shapes[1], dtype, 1)
    assert_same(dt.dot(on(a, device), on(b, device)), np.dot(a, b), device)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_dot_layouts_and_method(device, layout):
    na, ta = laid_out(make((2, 3, 4), "float32"), layout, device)
    nb, tb = laid_out(make((3, 4, 2), "int64", 1), layout, device)
    assert_same(dt.dot(ta, tb), np.dot(na, nb), device)
    assert_same(ta.dot(tb), na.dot(nb), device)
    assert_same(dt.dot(ta, [1, 2, 3, 4]), np.dot(na, [1, 2, 3, 4]), device)


def test_dot_promotion(device):
    a = make(3, "int8")
    for other in (2, np.int64(2), make(3, "int8"), make(3, "float16"), [1, 2, 3]):
        assert_same(dt.dot(on(a, device), other), np.dot(a, other), device)


def test_dot_out(device):
    a, b = make((2, 3)), make((3, 2), seed=1)
    ta, tb = on(a, device), on(b, device)
    out = dt.empty((2, 2), device=device)
    assert dt.dot(ta, tb, out=out) is out
    assert_same(out, np.dot(a, b), device)
    out = dt.empty((2, 3), device=device)
    assert ta.dot(2, out=out) is out
    assert_same(out, np.dot(a, 2), device)
    wrong = [  # dtype, shape, ndim, not C-contiguous (strided, transposed)
        (np.empty((2, 2), np.float32), dt.empty((2, 2), dtype="float32", device=device)),
        (np.empty((2, 3)), dt.empty((2, 3), device=device)),
        (np.empty((2, 2, 1)), dt.empty((2, 2, 1), device=device)),
        (np.empty((2, 4))[:, ::2], dt.empty((2, 4), device=device)[:, ::2]),
        (np.empty((2, 2)).T, dt.empty((2, 2), device=device).T),
    ]
    for o, t in wrong:
        same_error(lambda: dt.dot(ta, tb, out=t), lambda: np.dot(a, b, out=o))
    same_error(lambda: dt.dot(ta, tb, out=[1]), lambda: np.dot(a, b, out=[1]))
    same_error(lambda: dt.dot(ta, 2, out=dt.empty((2, 3), dtype="float32", device=device)),
               lambda: np.dot(a, 2, out=np.empty((2, 3), np.float32)))


@pytest.mark.parametrize("shapes", [((2, 3), (4, 5)), ((3,), (4,)), ((2, 3, 4), (5, 6)),
                                    ((2, 3), (4,)), ((4,), (2, 3))], ids=str)
def test_dot_errors(device, shapes):
    a, b = make(shapes[0]), make(shapes[1])
    same_error(lambda: dt.dot(on(a, device), on(b, device)), lambda: np.dot(a, b))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes", [((3,), (3,)), ((2, 3), (3, 2)), ((), ()), ((0,), (0,)),
                                    ((2, 2), (4,))], ids=str)
def test_vdot(device, dtype, shapes):
    a, b = make(shapes[0], dtype), make(shapes[1], dtype, 1)
    assert_same(dt.vdot(on(a, device), on(b, device)), np.vdot(a, b), device)


def test_vdot_conjugates_and_errors(device):
    a, b = make((2, 3), "complex64"), make(6, "float32", 1)
    na, ta = laid_out(a, "reversed", device)
    assert_same(dt.vdot(ta, on(b, device)), np.vdot(na, b), device)
    assert_same(dt.vdot(on(b, device), ta), np.vdot(b, na), device)
    for x, y in [(make(3), make(4)), (make((2, 3)), make(5))]:
        same_error(lambda: dt.vdot(on(x, device), on(y, device)), lambda: np.vdot(x, y))


INNER_SHAPES = [((), (2, 3)), ((3,), ()), ((3,), (3,)), ((2, 3), (3,)), ((3,), (4, 3)),
                ((2, 3), (4, 3)), ((2, 4, 3), (5, 3)), ((2, 3), (2, 4, 3)), ((0, 3), (2, 3)),
                ((2, 0), (3, 0))]


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "float16", "float64",
                                   "complex64"])
@pytest.mark.parametrize("shapes", INNER_SHAPES, ids=str)
def test_inner(device, dtype, shapes):
    a, b = make(shapes[0], dtype), make(shapes[1], dtype, 1)
    assert_same(dt.inner(on(a, device), on(b, device)), np.inner(a, b), device)


@pytest.mark.parametrize("shapes", [((2, 3), (4, 5)), ((3,), (4,)), ((2, 3), (4, 6, 5)),
                                    ((3,), (4, 6, 5)), ((2, 7, 3), (4,))], ids=str)
def test_inner_errors(device, shapes):
    a, b = make(shapes[0]), make(shapes[1])
    same_error(lambda: dt.inner(on(a, device), on(b, device)), lambda: np.inner(a, b))


@pytest.mark.parametrize("dtype", DTYPES)
def test_outer(device, dtype):
    a, b = make((2, 3), dtype), make(4, dtype, 1)
    assert_same(dt.outer(on(a, device), on(b, device)), np.outer(a, b), device)
    assert_same(dt.outer(on(b, device), 3), np.outer(b, 3), device)
    assert_same(dt.outer(on(make(0, dtype), device), on(b, device)), np.outer(make(0, dtype), b),
                device)


def test_outer_out(device):
    a, b = make(3, "int32"), make(2, "int32", 1)
    out = dt.zeros((3, 2), dtype="float64", device=device)
    assert dt.outer(on(a, device), on(b, device), out=out) is out
    assert_same(out, np.outer(a, b, out=np.zeros((3, 2))), device)
    same_error(lambda: dt.outer(on(a, device), on(b, device), out=dt.zeros((3, 3), device=device)),
               lambda: np.outer(a, b, out=np.zeros((3, 3))), exact=False)


# ---- tensordot ----

TENSORDOT_CASES = [
    ((3, 4), (4, 5), 1), ((2, 3, 4), (3, 4, 5), 2), ((2, 3), (4, 5), 0), ((2, 3), (3, 2), -1),
    ((3, 4, 5), (4, 3, 2), ([1, 0], [0, 1])), ((3, 4), (5, 3), ([0], [1])),
    ((3, 4), (4, 2), (1, 0)),
    ((2, 3, 4), (4, 3, 2), ([-1, -2], [0, 1])), ((), (2,), 0), ((0, 3), (3, 2), 1),
    ((2, 0), (0, 3), 1), ((2, 3), (2, 3), 2),
]


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int32", "float16", "float32",
                                   "complex128"])
@pytest.mark.parametrize("case", TENSORDOT_CASES, ids=str)
def test_tensordot(device, dtype, case):
    sa, sb, axes = case
    a, b = make(sa, dtype), make(sb, dtype, 1)
    assert_same(dt.tensordot(on(a, device), on(b, device), axes), np.tensordot(a, b, axes),
                device)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_tensordot_layouts(device, layout):
    na, ta = laid_out(make((3, 4, 5), "float64"), layout, device)
    nb, tb = laid_out(make((4, 3, 2), "float64", 1), layout, device)
    assert_same(dt.tensordot(ta, tb, ([1, 0], [0, 1])), np.tensordot(na, nb, ([1, 0], [0, 1])),
                device)
    assert_same(dt.tensordot(ta, tb, 0), np.tensordot(na, nb, 0), device)


@pytest.mark.parametrize("axes", [2, 1, ([0], [1, 2]), ([0], [5]), ((1,), (0,), (1,)), 3,
                                  (1.0, 0), ((1, 1), (0, 0)), ((0, 1), (1, 1)), 1.5], ids=str)
def test_tensordot_errors(device, axes):
    a, b = make((2, 3)), make((4, 5))
    same_error(lambda: dt.tensordot(on(a, device), on(b, device), axes),
               lambda: np.tensordot(a, b, axes))


# ---- vecdot, matrix_transpose ----

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes,axis", [(((3,), (3,)), -1), (((2, 3), (3,)), -1),
                                         (((4, 1, 3), (2, 3)), -1), (((3, 2), (3, 2)), 0),
                                         (((2, 0), (2, 0)), -1), (((0, 3), (1, 3)), 1)], ids=str)
def test_vecdot(device, dtype, shapes, axis):
    a, b = make(shapes[0], dtype), make(shapes[1], dtype, 1)
    assert_same(dt.vecdot(on(a, device), on(b, device), axis=axis), np.vecdot(a, b, axis=axis),
                device)


def test_vecdot_conj_dtype_out(device):
    a, b = make((2, 3), "complex128"), make((2, 3), "complex64", 1)
    na, ta = laid_out(a, "reversed", device)
    assert_same(dt.vecdot(ta, on(b, device)), np.vecdot(na, b), device)
    x = make((2, 3), "int8")
    assert_same(dt.vecdot(on(x, device), on(x, device), dtype="float32"),
                np.vecdot(x, x, dtype="float32"), device)
    assert_same(dt.vecdot(on(x, device), [1, 2, 3]), np.vecdot(x, [1, 2, 3]), device)
    out = dt.zeros(2, dtype="float64", device=device)
    assert dt.vecdot(on(x, device), on(x, device), out=out) is out
    assert_same(out, np.vecdot(x, x, out=np.zeros(2)), device)
    out = dt.zeros((3, 2), device=device)  # out= adds a loop axis, as NumPy's
    dt.vecdot(on(x, device), on(x, device), out=out)
    assert_same(out, np.vecdot(x, x, out=np.zeros((3, 2))), device)


def test_vecdot_errors(device):
    def pair(sa, sb):
        return make(sa), make(sb)
    for (a, b), kw in [(pair((2, 3), (4, 3)), {}), (pair((2, 3), (2, 4)), {}),
                       (pair((2, 3), (3, 2)), {"axis": 0}), (pair((2, 3), (3, 2)), {"axis": 2}),
                       (pair((3,), ()), {}), (pair((), (3,)), {}),
                       (pair((3,), (3,)), {"dtype": "int32"})]:
        same_error(lambda: dt.vecdot(on(a, device), on(b, device), **kw),
                   lambda: np.vecdot(a, b, **kw))
    a = make(3)
    same_error(lambda: dt.vecdot(on(a, device), on(a, device),
                                 out=dt.zeros((), dtype="int32", device=device)),
               lambda: np.vecdot(a, a, out=np.zeros((), np.int32)))


@pytest.mark.parametrize("shape", [(2, 3), (4, 2, 3), (0, 3), (2, 1, 0, 5)])
def test_matrix_transpose(device, shape):
    a = make(shape, "int32")
    t = on(a, device)
    assert_same(dt.matrix_transpose(t), np.matrix_transpose(a), device)
    assert_same(t.mT, a.mT, device)
    assert t.mT._same_storage(t)  # a view


def test_matrix_transpose_errors(device):
    for a in (make(3), np.float64(1)):
        same_error(lambda: dt.matrix_transpose(on(a, device)), lambda: np.matrix_transpose(a))
        same_error(lambda: on(a, device).mT, lambda: np.asarray(a).mT)
    p = dt.nn.Parameter(on(make((2, 3)), device))  # a subclass's mT is a plain view
    assert type(p.mT) is dt.Tensor and p.mT._same_storage(p) and p.mT.shape == (3, 2)


# ---- kron, trace, cross ----

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes", [((2, 3), (3, 2)), ((2,), (3, 2)), ((2, 1, 2), (3,)),
                                    ((), (3,)), ((), ()), ((2, 0), (3, 2))], ids=str)
def test_kron(device, dtype, shapes):
    a, b = make(shapes[0], dtype), make(shapes[1], dtype, 1)
    assert_same(dt.kron(on(a, device), on(b, device)), np.kron(a, b), device)


def test_kron_layouts_and_promotion(device):
    na, ta = laid_out(make((2, 3), "int8"), "reversed", device)
    nb, tb = laid_out(make((3, 2), "float32", 1), "transposed", device)
    assert_same(dt.kron(ta, tb), np.kron(na, nb), device)
    assert_same(dt.kron(2, ta), np.kron(2, na), device)


@pytest.mark.parametrize("dtype", DTYPES)
def test_trace_dtypes(device, dtype):
    a = make((3, 4), dtype)
    assert_same(dt.trace(on(a, device)), np.trace(a), device)


@pytest.mark.parametrize("args", [(0,), (1,), (-1,), (5,), (-4,), (1, 1, 2), (0, 2, 0),
                                  (-1, -1, 0)], ids=str)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_trace_offsets_axes(device, args, layout):
    na, ta = laid_out(make((3, 4, 5), "int64"), layout, device)
    assert_same(dt.trace(ta, *args), np.trace(na, *args), device)
    assert_same(ta.trace(*args), na.trace(*args), device)


def test_trace_dtype_out(device):
    a = make((3, 3), "int32")
    t = on(a, device)
    assert_same(dt.trace(t, dtype="int8"), np.trace(a, dtype="int8"), device)
    assert_same(dt.trace(t, dtype="float32"), np.trace(a, dtype="float32"), device)
    out = dt.zeros((), dtype="float64", device=device)
    assert dt.trace(t, out=out) is out
    assert_same(out, np.trace(a, out=np.zeros(())), device)
    assert_same(dt.trace(on(make((0, 3)), device)), np.trace(make((0, 3))), device)


@pytest.mark.parametrize("args", [(0,), (1,), (-1,), (5,), (-4,), (1, 1, 2), (0, 2, 0),
                                  (-1, -1, 0), (True,)], ids=str)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_diagonal(device, args, layout):
    na, ta = laid_out(make((3, 4, 5), "complex64"), layout, device)
    for got, want in [(dt.diagonal(ta, *args), np.diagonal(na, *args)),
                      (ta.diagonal(*args), na.diagonal(*args))]:
        assert_same(got, want, device)
        assert got._same_storage(ta)  # a view,
        assert got.flags.writeable is want.flags.writeable is False  # read-only, as NumPy 2's


def test_diagonal_writeable_when_asked(device):
    a = make((3, 3), "int32")
    t = on(a, device)
    d = dt.diagonal(t, 1)
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        d[0] = 9
    d.flags.writeable = True  # as NumPy allows
    d[0] = 9
    a[0, 1] = 9
    assert_same(t, a, device)
    assert_same(dt.diagonal([[1, 2], [3, 4]]), np.diagonal([[1, 2], [3, 4]]))


def test_diagonal_errors(device):
    a = make((3, 3))
    t = on(a, device)
    for x, kw in [(make(3), {}), (np.float64(1), {}), (a, {"axis1": 1, "axis2": 1}),
                  (a, {"axis1": 2}), (a, {"axis2": -3}), (a, {"offset": 1.0})]:
        same_error(lambda: dt.diagonal(on(x, device), **kw), lambda: np.diagonal(x, **kw))
    same_error(lambda: t.diagonal(0, 0, 0), lambda: a.diagonal(0, 0, 0))


def test_trace_errors(device):
    a2 = make((3, 3))
    t2 = on(a2, device)
    same_error(lambda: dt.trace(on(make(3), device)), lambda: np.trace(make(3)))
    for kw in [{"axis1": 1, "axis2": 1}, {"axis1": 2}, {"axis2": -3}, {"offset": 1.0}]:
        same_error(lambda: dt.trace(t2, **kw), lambda: np.trace(a2, **kw))
    same_error(lambda: dt.trace(t2, out=dt.empty(2, device=device)),
               lambda: np.trace(a2, out=np.empty(2)), exact=False)


# NumPy 2.5 refuses 2-element vectors, 2.0 to 2.4 deprecate them; devtensor
# follows the NumPy installed
NUMPY_REFUSES_2D_CROSS = np.lib.NumpyVersion(np.__version__) >= "2.5.0"
CROSS_SHAPES = [((3,), (3,)), ((2, 3), (3,)), ((4, 1, 3), (2, 3)), ((2,), (2,)), ((2, 2), (3,)),
                ((3,), (2,)), ((5, 2), (5, 2)), ((0, 3), (3,))]


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float16", "float32", "complex64"])
@pytest.mark.parametrize("shapes", CROSS_SHAPES, ids=str)
def test_cross(device, dtype, shapes):
    a, b = make(shapes[0], dtype), make(shapes[1], dtype, 1)
    if 2 in (a.shape[-1], b.shape[-1]) and NUMPY_REFUSES_2D_CROSS:  # as NumPy 2.5
        same_error(lambda: dt.cross(on(a, device), on(b, device)), lambda: np.cross(a, b))
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        want = np.cross(a, b)
    if 2 in (a.shape[-1], b.shape[-1]):
        with pytest.warns(DeprecationWarning, match="Arrays of 2-dimensional vectors are "
                          "deprecated. Use arrays of 3-dimensional vectors instead."):
            got = dt.cross(on(a, device), on(b, device))
    else:
        got = dt.cross(on(a, device), on(b, device))
    assert_same(got, want, device)


@pytest.mark.parametrize("sa,sb,kw", [
    ((3, 4), (4, 3), {"axisa": 0}), ((4, 3), (3, 4), {"axisb": 0, "axisc": 0}),
    ((3, 4), (3, 4), {"axis": 0}), ((3, 4), (2, 4, 3), {"axisa": 0, "axisb": -1, "axisc": 1}),
], ids=str)
def test_cross_axes(device, sa, sb, kw):
    na, ta = laid_out(make(sa, "int32"), "reversed", device)
    b = make(sb, "float64", 1)
    assert_same(dt.cross(ta, on(b, device), **kw), np.cross(na, b, **kw), device)


def test_cross_errors(device):
    def check(a, b, **kw):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            same_error(lambda: dt.cross(on(a, device), on(b, device), **kw),
                       lambda: np.cross(a, b, **kw))
    check(make(3), np.float64(2))
    check(make(4), make(3))
    check(make((2, 3)), make((3, 3)))
    check(make(3), make(3), axisa=1)
    check(make(3), make(3), axisc=1)
    for shapes in [((3,), (3,)), ((2,), (2,)), ((2,), (3,)), ((3,), (2,))]:
        check(make(shapes[0], "bool"), make(shapes[1], "bool"))
    if NUMPY_REFUSES_2D_CROSS:
        check(make(2), make(2), axisc=5)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert_same(dt.cross(on(make(2), device), on(make(2), device), axisc=5),
                    np.cross(make(2), make(2), axisc=5), device)


# ---- PyTorch's mm, bmm, mv ----

@pytest.mark.parametrize("dtype", DTYPES)
def test_mm_bmm_mv(device, dtype):
    a, b, c = make((2, 3), dtype), make((3, 4), dtype, 1), make((5, 2, 3), dtype, 2)
    d, v = make((5, 3, 4), dtype, 3), make(3, dtype, 4)
    ta, tb, tc, td, tv = (on(x, device) for x in (a, b, c, d, v))
    assert_same(dt.mm(ta, tb), a @ b, device)
    assert_same(ta.mm(tb), a @ b, device)
    assert_same(dt.bmm(tc, td), c @ d, device)
    assert_same(tc.bmm(td), c @ d, device)
    assert_same(dt.mv(ta, tv), a @ v, device)
    assert_same(ta.mv(tv), a @ v, device)
    assert_same(ta.matmul(tv), a @ v, device)


def test_mm_bmm_mv_layouts_and_empty(device):
    na, ta = laid_out(make((3, 4)), "transposed", device)
    nb, tb = laid_out(make((4, 2), seed=1), "reversed", device)
    assert_same(dt.mm(ta, tb), na @ nb, device)
    assert_same(dt.mm(on(make((2, 0)), device), on(make((0, 3)), device)), np.zeros((2, 3)),
                device)
    nc, tc = laid_out(make((2, 3, 4)), "strided", device)
    assert_same(dt.bmm(tc, tc.swapaxes(1, 2)), nc @ nc.swapaxes(1, 2), device)
    assert_same(dt.mv(ta, on(make(4), device)[::-1]), na @ make(4)[::-1], device)


def torch_error(call, kind, message):
    with pytest.raises(kind) as got:
        call()
    assert str(got.value) == message


def test_mm_bmm_mv_errors(device):
    m23, m45 = on(make((2, 3)), device), on(make((4, 5)), device)
    v3, b234 = on(make(3), device), on(make((2, 3, 4)), device)
    f32 = on(make((3, 2), "float32"), device)
    torch_error(lambda: dt.mm(v3, m23), RuntimeError, "self must be a matrix")
    torch_error(lambda: dt.mm(m23, v3), RuntimeError, "mat2 must be a matrix")
    torch_error(lambda: dt.mm(m23, m45), RuntimeError,
                "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)")
    torch_error(lambda: dt.mm(m23, on(make((3, 2), "int32"), device)), RuntimeError,
                "expected m1 and m2 to have the same dtype, but got: double != int")
    got = dt.mm(m23, f32)  # two float dtypes promote (Note [PyTorch's dtype names])
    assert got.dtype == dt.float64
    np.testing.assert_allclose(to_np(got), to_np(m23) @ to_np(f32).astype(np.float64), rtol=1e-12)
    got = dt.bmm(b234.astype(dt.float32), on(make((2, 4, 2)), device))
    assert got.dtype == dt.float64 and got.shape == (2, 3, 2)
    assert dt.mv(m23.astype(dt.complex64), on(make(3, "float32"), device)).dtype == dt.complex64
    torch_error(lambda: dt.mm(m23, [[1], [2], [3]]), TypeError,
                "mm(): argument 'mat2' (position 2) must be Tensor, not list")
    torch_error(lambda: dt.bmm(m23, b234), RuntimeError, "batch1 must be a 3D tensor")
    torch_error(lambda: dt.bmm(b234, m23), RuntimeError, "batch2 must be a 3D tensor")
    torch_error(lambda: dt.bmm(b234, on(make((3, 4, 2)), device)), RuntimeError,
                "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but "
                "got: [3, 4].")
    torch_error(lambda: dt.bmm(b234, on(make((2, 4, 2), "int64"), device)), RuntimeError,
                "expected scalar type Double but found Long")
    torch_error(lambda: dt.mv(m23, m23), RuntimeError,
                "vector + matrix @ vector expected, got 1, 2, 2")
    torch_error(lambda: dt.mv(m23, on(make(4), device)), RuntimeError,
                "size mismatch, got input (2), mat (2x3), vec (4)")
    torch_error(lambda: dt.mv(m23, on(make(3, "int64"), device)), RuntimeError,
                "addmv input tensors must have the same dtype, but got Long, Double, and Long")


# ---- devices ----

@pytest.mark.parametrize("fn", ["matmul", "dot", "vdot", "inner", "outer", "tensordot",
                                "vecdot", "kron", "cross", "mm", "mv", "einsum"])
def test_cross_device(fn):
    if not CUDA_DEVICES:
        pytest.skip("needs a CUDA device (real or emulated)")
    a, b = dt.ones((3, 3), device=CUDA_DEVICES[0]), dt.ones((3, 3))
    if fn == "mv":
        b = dt.ones(3)
    args = ("ij,jk", a, b) if fn == "einsum" else (a, b)
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device, "
                       "but found at least two devices, cuda:0 and cpu!"):
        getattr(dt, fn)(*args)


# ---- properties ----

@settings(max_examples=25, deadline=None)
@given(batch_a=st.lists(st.sampled_from([1, 2, 3]), max_size=2),
       batch_b=st.lists(st.sampled_from([1, 2, 3]), max_size=2),
       m=st.integers(0, 3), k=st.integers(0, 3), n=st.integers(0, 3),
       vec_a=st.booleans(), vec_b=st.booleans())
def test_matmul_property(device, batch_a, batch_b, m, k, n, vec_a, vec_b):
    sa = (k,) if vec_a else tuple(batch_a) + (m, k)
    sb = (k,) if vec_b else tuple(batch_b) + (k, n)
    a, b = make(sa, "int64"), make(sb, "float32", 1)
    ta, tb = on(a, device), on(b, device)
    assert_same(dt.dot(ta, tb), np.dot(a, b), device)
    try:
        want = np.matmul(a, b)
    except ValueError:
        same_error(lambda: dt.matmul(ta, tb), lambda: np.matmul(a, b))
        return
    assert_same(dt.matmul(ta, tb), want, device)


@pytest.mark.parametrize("path, words", [
    ("/nonexistent/libscipy_openblas64_.so", "OpenBLAS could not be loaded from "
                                             "/nonexistent/libscipy_openblas64_.so"),
    ("libc.so.6", "OpenBLAS has no scipy_cblas_sgemm64_"),
])
def test_openblas_that_cannot_be_loaded(path, words):
    # Note [Libraries opened on first use]: loading is tried once, its reason
    # kept; what needs no BLAS keeps working.  A fresh process: the library
    # is opened once per process.
    import subprocess
    import sys
    code = f"""
import devtensor as dt
dt._C._set_blas_library({path!r})
a = dt.ones((64, 64))  # past the small products our own loop does
for _ in range(2):
    try:
        a @ a
    except RuntimeError as e:
        print(e)
    else:
        print("no error")
print((a + 1).sum().item())
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 3 and lines[0] == lines[1], lines
    assert lines[0].startswith(words), lines
    assert lines[2] == str(2.0 * 64 * 64)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_small_products_sum_in_order(dtype):
    """The CPU's own loop for products up to 16 x 16 x 16 (Note [Small products]):
    every shape, through the vector columns (two 32-byte vectors, one, then a
    16-byte one at a time, rows four at a time) and the scalar ones, bit-identical to the sum over k in order with
    products and sums rounded apart; a strided b takes the scalar loop alone."""
    rng = np.random.default_rng(1)
    for m in range(1, 17):
        for n in range(1, 17):
            for k in (1, 3, 16):
                if m * n * k > 16 ** 3:
                    continue
                a = rng.standard_normal((2, m, k)).astype(dtype)
                b = rng.standard_normal((2, k, n)).astype(dtype)
                want = np.zeros((2, m, n), dtype)
                for p in range(k):
                    want = want + a[:, :, p:p + 1] * b[:, p:p + 1, :]
                got = dt.asarray(a) @ dt.asarray(b)
                np.testing.assert_array_equal(got.numpy(), want, err_msg=f"{m}x{k} @ {k}x{n}")
                strided = dt.asarray(np.ascontiguousarray(b.transpose(0, 2, 1))).mT
                np.testing.assert_array_equal((dt.asarray(a) @ strided).numpy(), want)


def test_vecdot_keepdims(device):
    a = np.arange(6.0).reshape(2, 3)
    t = dt.asarray(a, device=device)
    for axis in (-1, 0):
        exp = np.vecdot(a, a + 1, axis=axis, keepdims=True)
        assert_same(dt.vecdot(t, t + 1, axis=axis, keepdims=True), exp)
