"""Semantics of the elementwise functions around their values, NumPy 2 as the oracle:
out= (casting, shapes, devices, aliasing), dtype=, casting=, in-place and reflected
operators, device rules, 0-d and empty tensors, CUDA devices against the CPU,
the __array_ufunc__ protocol, and astype's casting modes."""
import contextlib
import operator
import warnings

import numpy as np
import pytest

import devtensor as dt
from helpers import ALL_DEVICES, CUDA_DEVICES, NUMPY_DTYPE_NAMES, assert_same, requires_cuda, requires_devices, \
    same_error, to_np
from test_ufunc_values import BINARY, UNARY, check, np_call, values_for, dt_func, np_func

CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]


def T(a, device="cpu"):
    return dt.asarray(np.array(a, copy=True), device=device)


@contextlib.contextmanager
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def small_values(dtype, n=6):
    """Values every dtype holds and every cast keeps well defined (no NaN, no negatives for
    unsigned targets, no overflow)."""
    d = np.dtype(dtype)
    if d.kind == "b":
        return np.array([True, False, True, True, False, True][:n])
    return np.array([0, 1, 2, 3, 7, 100][:n]).astype(d)


# ============================================================================ out=

@pytest.mark.parametrize("fname", ["add", "multiply", "maximum", "less", "bitwise_and",
                                   "arctan2", "sqrt", "negative", "isnan", "floor"])
def test_out_same_dtype_returns_out(fname, device):
    nin = 2 if fname in BINARY else 1
    x = small_values("int32") if fname == "bitwise_and" else np.linspace(0.5, 3, 6)
    args = [x] * nin
    expected = np_call(np_func(fname), *args)
    out = dt.empty(expected.shape, dtype=expected.dtype, device=device)
    res = dt_func(fname)(*[T(a, device) for a in args], out=out)
    assert res is out
    check(out, expected, fname)


@pytest.mark.parametrize("fname", ["add", "sqrt"])
def test_out_as_a_one_tuple(fname, device):
    """NumPy's functions take out=(array,) as well as out=array."""
    nin = 2 if fname in BINARY else 1
    x = np.linspace(0.5, 3, 6)
    args = [x] * nin
    expected = np_call(np_func(fname), *args)
    out2 = dt.empty(expected.shape, dtype=expected.dtype, device=device)
    res2 = dt_func(fname)(*[T(a, device) for a in args], out=(out2,))
    assert res2 is out2
    check(out2, expected, fname)


@pytest.mark.parametrize("casting", ["same_kind", "unsafe", "safe", "no"])
@pytest.mark.parametrize("fname", ["add", "sqrt", "less", "divide"])
def test_out_dtype_casting_matrix(fname, casting):
    """For every (input dtype, out dtype) pair: NumPy's cast of the result into out, or
    its TypeError."""
    failures = []
    for din in NUMPY_DTYPE_NAMES:
        for dout in NUMPY_DTYPE_NAMES:
            # no 0: 0/0 is NaN, whose cast to an integer is undefined
            x = small_values(din)[1:] if din != "bool" else np.ones(5, bool)
            args = [x, x] if fname in BINARY else [x]
            o_np = np.zeros(x.shape, dtype=dout)
            with np.errstate(all="ignore"), quiet():
                try:
                    np_func(fname)(*args, out=o_np, casting=casting)
                    err = None
                except (TypeError, ValueError) as e:
                    err = e
            o = dt.zeros(x.shape, dtype=dout)
            try:
                r = dt_func(fname)(*[T(a) for a in args], out=o, casting=casting)
            except Exception as e:  # noqa: BLE001
                if err is None or not isinstance(e, TypeError if isinstance(err, TypeError)
                                                 else ValueError):
                    failures.append(f"{fname}({din}, out={dout}, casting={casting}): raised "
                                    f"{type(e).__name__}: {e}; NumPy: {err!r}")
                continue
            if err is not None:
                failures.append(f"{fname}({din}, out={dout}, casting={casting}): no error; "
                                f"NumPy raises {type(err).__name__}: {err}")
                continue
            if r is not o:
                failures.append(f"{fname}({din}, out={dout}): did not return out")
            if not np.array_equal(to_np(o), o_np, equal_nan=True):
                failures.append(f"{fname}({din}, out={dout}): {to_np(o)} != {o_np}")
    assert not failures, f"{len(failures)} differ:\n" + "\n".join(failures[:30])


def test_out_cast_error_message():
    o = dt.zeros(3, dtype="int64")
    with pytest.raises(TypeError, match=r"Cannot cast ufunc 'add' output from "
                                        r"dtype\('float64'\) to dtype\('int64'\) with casting "
                                        r"rule 'same_kind'"):
        dt.add(T([1.0, 2, 3]), 1.0, out=o)


@pytest.mark.parametrize("out_shape", [(3,), (2, 1), (1, 3), (3, 2), (2, 3, 1), ()])
def test_out_wrong_shape(out_shape, device):
    """ValueError.  NumPy says 'non-broadcastable output operand with shape ... doesn't match
    the broadcast shape ...' when out broadcasts to the inputs' shape but is smaller, and
    'operands could not be broadcast together ...' when the shapes are incompatible; either
    text names the broadcast failure."""
    a = T(np.ones((2, 3)), device)
    o = dt.zeros(out_shape, device=device)
    with pytest.raises(ValueError, match="non-broadcastable output operand|could not be "
                                         "broadcast"):
        np.add(np.ones((2, 3)), 1, out=np.zeros(out_shape))
    with pytest.raises(ValueError, match="non-broadcastable output operand|could not be "
                                         "broadcast"):
        dt.add(a, 1, out=o)
    with pytest.raises(ValueError) as np_err:
        np.add(np.ones((2, 3)), 1, out=np.zeros(out_shape))
    if "non-broadcastable" in str(np_err.value):  # then the text is NumPy's, word for word
        with pytest.raises(ValueError) as dt_err:
            dt.add(a, 1, out=o)
        assert str(dt_err.value) == str(np_err.value)


def test_out_larger_than_inputs_broadcasts(device):
    """NumPy broadcasts the inputs to out's shape when out is bigger."""
    o_np = np.zeros((2, 3))
    np.add(np.arange(3.0), 1, out=o_np)
    o = dt.zeros((2, 3), device=device)
    dt.add(T(np.arange(3.0), device), 1, out=o)
    check(o, o_np)


@requires_cuda
def test_out_on_another_device():
    a = T(np.ones(3), "cpu")
    o = dt.zeros(3, device=CUDA_DEVICES[0])
    with pytest.raises(RuntimeError):
        dt.add(a, a, out=o)
    a0 = T(np.ones(3), CUDA_DEVICES[0])
    with pytest.raises(RuntimeError):
        dt.add(a0, a0, out=dt.zeros(3))
    with pytest.raises(RuntimeError):
        dt.sin(a0, out=dt.zeros(3))


@requires_devices(2)
def test_out_on_the_other_cuda_device():
    a0 = T(np.ones(3), "cuda:0")
    with pytest.raises(RuntimeError):
        dt.add(a0, a0, out=dt.zeros(3, device="cuda:1"))


def test_out_not_a_tensor():
    with pytest.raises(TypeError):
        dt.add(T([1.0]), 1, out=np.zeros(1))
    with pytest.raises(TypeError):
        dt.add(T([1.0]), 1, out=[0.0])


# ---------------------------------------------------------------------------- aliasing

def view(t, shape, strides_elems, offset):
    return t._as_strided(shape, tuple(s * t.itemsize for s in strides_elems), offset)


@pytest.mark.parametrize("dtype", ["int32", "float64", "complex128"])
def test_out_is_an_input(dtype, device):
    x = np.arange(1, 8).astype(dtype)
    y = (np.arange(7) * 3).astype(dtype)
    tx, ty = T(x, device), T(y, device)
    r = dt.add(tx, ty, out=tx)
    assert r is tx
    check(tx, x + y, "add")
    r = dt.multiply(ty, tx, out=tx)
    check(tx, y * (x + y), "multiply")
    r = dt.negative(ty, out=ty)
    check(ty, -y, "negative")


@pytest.mark.parametrize("case", ["shift_right", "shift_left", "reversed", "every_other",
                                  "both_inputs"])
def test_out_partially_overlaps_input(case, device):
    """NumPy detects overlap between out and the inputs and answers as if the inputs
    had been copied first."""
    n = 10
    x = np.arange(1.0, n + 1)
    tx = T(x, device)
    if case == "shift_right":      # out = x[1:], input x[:-1]
        np.add(x[:-1], 1, out=x[1:])
        dt.add(view(tx, (n - 1,), (1,), 0), 1, out=view(tx, (n - 1,), (1,), 1))
    elif case == "shift_left":     # out = x[:-1], input x[1:]
        np.multiply(x[1:], 2, out=x[:-1])
        dt.multiply(view(tx, (n - 1,), (1,), 1), 2, out=view(tx, (n - 1,), (1,), 0))
    elif case == "reversed":       # out = x[::-1], input x
        np.subtract(x, 0.5, out=x[::-1])
        dt.subtract(view(tx, (n,), (1,), 0), 0.5, out=view(tx, (n,), (-1,), n - 1))
    elif case == "every_other":    # out = x[::2], inputs x[:5] and x[5:]
        np.add(x[:5], x[5:], out=x[::2])
        dt.add(view(tx, (5,), (1,), 0), view(tx, (5,), (1,), 5), out=view(tx, (5,), (2,), 0))
    else:                          # out = x[2:], inputs x[:-2] and x[1:-1]
        np.add(x[:-2], x[1:-1], out=x[2:])
        dt.add(view(tx, (n - 2,), (1,), 0), view(tx, (n - 2,), (1,), 1),
               out=view(tx, (n - 2,), (1,), 2))
    check(tx, x)


def test_out_overlap_2d_transpose(device):
    x = np.arange(16.0).reshape(4, 4)
    tx = T(x, device)
    np.add(x, x.T, out=x)
    dt.add(tx, tx.T, out=tx)
    check(tx, x)


def test_inplace_operator_with_overlapping_view(device):
    x = np.arange(8)
    tx = T(x, device)
    xv = x[1:]
    xv += x[:-1]
    tv = view(tx, (7,), (1,), 1)
    tv += view(tx, (7,), (1,), 0)
    check(tx, x)


# ============================================================================ dtype=, casting=

@pytest.mark.parametrize("fname,din,dtype", [
    ("add", "int8", "float32"), ("add", "int8", "int64"), ("multiply", "uint8", "uint16"),
    ("add", "float64", "int32"), ("add", "float64", "float32"), ("sqrt", "int8", "float64"),
    ("sqrt", "float64", "float32"), ("negative", "int16", "float16"), ("add", "bool", "int8"),
    ("add", "float32", "complex64"), ("divide", "int32", "float32"), ("exp", "float32",
                                                                     "float64"),
    ("subtract", "bool", "bool"), ("add", "int64", "bool"),
])
@pytest.mark.parametrize("casting", ["same_kind", "unsafe", "safe"])
def test_dtype_keyword(fname, din, dtype, casting):
    x = small_values(din)
    args = [x, x] if fname in BINARY else [x]
    expected = np_call(np_func(fname), *args, dtype=dtype, casting=casting)
    if isinstance(expected, Exception):
        with pytest.raises(type(expected) if not isinstance(expected, TypeError) else TypeError):
            dt_func(fname)(*[T(a) for a in args], dtype=dtype, casting=casting)
        return
    got = dt_func(fname)(*[T(a) for a in args], dtype=dtype, casting=casting)
    check(got, expected, fname)


@pytest.mark.parametrize("casting", CASTINGS)
def test_casting_modes_for_input_promotion(casting):
    """add(int8, int16, casting=...) needs int8 -> int16: fine unless 'no'/'equiv'."""
    failures = []
    for da in NUMPY_DTYPE_NAMES:
        for db in NUMPY_DTYPE_NAMES:
            a, b = small_values(da), small_values(db)
            expected = np_call(np.add, a, b, casting=casting)
            try:
                got = dt.add(T(a), T(b), casting=casting)
            except Exception as e:  # noqa: BLE001
                if not isinstance(expected, Exception) or not isinstance(e, type(expected).__mro__[
                        [c.__module__ for c in type(expected).__mro__].index("builtins")]):
                    failures.append(f"add({da}, {db}, casting={casting}): {type(e).__name__}: "
                                    f"{e}; NumPy: {expected!r}"[:250])
                continue
            if isinstance(expected, Exception):
                failures.append(f"add({da}, {db}, casting={casting}): no error; NumPy: "
                                f"{expected!r}"[:250])
            elif got.dtype != expected.dtype or not np.array_equal(to_np(got), expected):
                failures.append(f"add({da}, {db}, casting={casting}): {got.dtype} vs "
                                f"{expected.dtype}")
    assert not failures, f"{len(failures)} differ:\n" + "\n".join(failures[:30])


@pytest.mark.parametrize("order", ["K", "A", "C", "F", "f", None])
def test_order_keyword(order, device):
    """NumPy's order= lays a new result out (and its 'A' follows the inputs),
    directly and through NumPy's ufunc; subok= takes a bool."""
    a = np.arange(6.0).reshape(2, 3)
    for x, t in ((a.T, T(a, device).T), (a, T(a, device))):
        want = np.add(x, 1, order=order)
        for got in (dt.add(t, 1, order=order), np.add(t, 1, order=order), dt.exp(t, order=order, subok=False)):
            assert got.flags.c_contiguous == want.flags.c_contiguous
            assert got.flags.f_contiguous == want.flags.f_contiguous
        assert_same(dt.add(t, 1, order=order), want, device)
    for call in (lambda m, x: m.add(x, 1, order="X"), lambda m, x: m.add(x, 1, order=1),
                 lambda m, x: m.exp(x, subok=2)):
        same_error(lambda: call(np, a), lambda: call(dt, T(a, device)))


@pytest.mark.parametrize("bad", ["bogus", "Safe", "", None, 3])
def test_bad_casting_names(bad):
    a = T([1.0, 2.0])
    with pytest.raises((ValueError, TypeError)):
        np.add(np.array([1.0]), 1, casting=bad)
    with pytest.raises(ValueError if isinstance(bad, str) else (ValueError, TypeError)):
        dt.add(a, 1, casting=bad)
    with pytest.raises(ValueError if isinstance(bad, str) else (ValueError, TypeError)):
        dt.sqrt(a, casting=bad)


@pytest.mark.parametrize("bad", ["notadtype", "float128", object])
def test_bad_dtype_keyword(bad):
    with pytest.raises(TypeError):
        dt.add(T([1.0]), 1, dtype=bad)


# ============================================================================ operators

INPLACE = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
    "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow,
    "&=": operator.iand, "|=": operator.ior, "^=": operator.ixor,
    "<<=": operator.ilshift, ">>=": operator.irshift,
}


def _np_inplace(op, a, b):
    a = a.copy()
    with np.errstate(all="ignore"), quiet():
        try:
            r = op(a, b)
        except (TypeError, ValueError, OverflowError) as e:
            return e
    assert r is a
    return a


def _base_exc(e):
    for c in type(e).__mro__:
        if c.__module__ == "builtins":
            return c
    return type(e)


@pytest.mark.parametrize("sym", list(INPLACE))
def test_inplace_operators_all_dtype_pairs(sym):
    """x op= y for every ordered dtype pair, with NumPy's same_kind rule on the output."""
    op = INPLACE[sym]
    failures = []
    for da in NUMPY_DTYPE_NAMES:
        for db in NUMPY_DTYPE_NAMES:
            a = small_values(da)
            b = small_values(db)[::-1].copy()
            if sym == "**=":
                b = np.array([0, 1, 2, 1, 0, 3]).astype(db)
            if sym in ("<<=", ">>="):
                b = np.array([0, 1, 2, 3, 1, 0]).astype(db)
            if sym in ("//=", "%=", "/="):
                b = np.where(b == 0, 1, b).astype(db) if db != "bool" else np.ones(6, bool)
            expected = _np_inplace(op, a, b)
            t = T(a)
            ident = t
            try:
                r = op(t, T(b))
            except Exception as e:  # noqa: BLE001
                if not isinstance(expected, Exception) or not isinstance(e, _base_exc(expected)):
                    failures.append(f"{da} {sym} {db}: {type(e).__name__}: {e}; NumPy: "
                                    f"{expected!r}"[:250])
                elif not np.array_equal(to_np(t), a):
                    failures.append(f"{da} {sym} {db}: raised but modified the tensor")
                continue
            if isinstance(expected, Exception):
                failures.append(f"{da} {sym} {db}: no error; NumPy: {expected!r}"[:250])
                continue
            if r is not ident:
                failures.append(f"{da} {sym} {db}: result is a new object")
            elif r.dtype != expected.dtype:
                failures.append(f"{da} {sym} {db}: dtype changed to {r.dtype}")
            else:
                g = to_np(r)
                ok = (np.allclose(g, expected, rtol=1e-3, equal_nan=True)
                      if expected.dtype.kind in "fc" else np.array_equal(g, expected))
                if not ok:
                    failures.append(f"{da} {sym} {db}: {g.tolist()} != {expected.tolist()}")
    assert not failures, f"{len(failures)} dtype pairs differ:\n" + "\n".join(failures[:40])


@pytest.mark.parametrize("scalar", [1, -1, 1.5, 300, True, 2j, -129])
@pytest.mark.parametrize("sym", ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "<<="])
def test_inplace_operators_python_scalars(sym, scalar):
    op = INPLACE[sym]
    failures = []
    for da in NUMPY_DTYPE_NAMES:
        a = small_values(da)
        expected = _np_inplace(op, a, scalar)
        t = T(a)
        try:
            r = op(t, scalar)
        except Exception as e:  # noqa: BLE001
            if not isinstance(expected, Exception) or not isinstance(e, _base_exc(expected)):
                failures.append(f"{da} {sym} {scalar!r}: {type(e).__name__}: {e}; NumPy: "
                                f"{expected!r}"[:250])
            continue
        if isinstance(expected, Exception):
            failures.append(f"{da} {sym} {scalar!r}: no error; NumPy: {expected!r}"[:250])
            continue
        if r is not t or r.dtype != expected.dtype or not np.allclose(
                to_np(r), expected, equal_nan=True):
            failures.append(f"{da} {sym} {scalar!r}: {r.dtype} {to_np(r).tolist()} != "
                            f"{expected.tolist()}")
    assert not failures, f"{len(failures)} differ:\n" + "\n".join(failures[:40])


def test_inplace_int_plus_float_message():
    t = T(np.arange(3))
    with pytest.raises(TypeError, match="Cannot cast ufunc"):
        t += T(np.ones(3))
    with pytest.raises(TypeError, match="Cannot cast ufunc"):
        t += 1.5
    assert t.tolist() == [0, 1, 2]


def test_inplace_cannot_grow_shape(device):
    t = T(np.ones(3), device)
    with pytest.raises(ValueError, match="non-broadcastable output operand"):
        t += T(np.ones((2, 3)), device)
    u = T(np.ones((2, 3)), device)
    u += T(np.arange(3.0), device)  # the right-hand side broadcasts
    check(u, np.ones((2, 3)) + np.arange(3.0))


def test_inplace_writes_into_shared_memory():
    a = np.arange(5.0)
    t = dt.asarray(a)  # shares a's memory on the CPU
    t += 1
    t *= 2
    np.testing.assert_array_equal(a, (np.arange(5.0) + 1) * 2)


REFLECTED = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "&": operator.and_,
    "|": operator.or_, "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift,
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "==": operator.eq, "!=": operator.ne,
}


@pytest.mark.parametrize("scalar", [3, -2, 0.5, True, 1 + 1j, 1000])
@pytest.mark.parametrize("sym", list(REFLECTED))
def test_operators_with_python_scalars_both_sides(sym, scalar, device):
    op = REFLECTED[sym]
    failures = []
    for da in NUMPY_DTYPE_NAMES:
        x = small_values(da)[1:]  # no zero: keeps // and % and ** defined everywhere
        for left in (True, False):
            args = (x, scalar) if left else (scalar, x)
            dargs = (T(x, device), scalar) if left else (scalar, T(x, device))
            expected = np_call(op, *args)
            try:
                got = op(*dargs)
            except Exception as e:  # noqa: BLE001
                if not isinstance(expected, Exception) or not isinstance(e, _base_exc(expected)):
                    failures.append(f"{args[0]!r:.30} {sym} {args[1]!r:.30} ({da}): "
                                    f"{type(e).__name__}: {e}; NumPy {expected!r}"[:250])
                continue
            if isinstance(expected, Exception):
                failures.append(f"{da} {sym} {scalar!r} left={left}: no error; NumPy "
                                f"{expected!r}"[:250])
                continue
            try:
                check(got, expected, "add" if sym in "+-" else "")
                assert got.device == dt.device(device)
            except AssertionError as e:
                failures.append(f"{da} {sym} {scalar!r} left={left}: "
                                f"{str(e).strip().splitlines()[0][:200]}")
    assert not failures, f"{len(failures)} differ:\n" + "\n".join(failures[:40])


@pytest.mark.parametrize("sym", list(REFLECTED))
def test_operators_with_numpy_arrays_both_sides(sym):
    """CPU tensors mix freely with NumPy arrays: the result is a tensor either way."""
    op = REFLECTED[sym]
    a = np.array([1, 2, 3], dtype=np.int32)
    b = np.array([[2.0], [1.0]], dtype=np.float32) if sym not in ("&", "|", "^", "<<", ">>") \
        else np.array([[2], [1]], dtype=np.int16)
    for x, y in ((T(a), b), (a, T(b)), (b, T(a)), (T(b), a)):
        xa = x if isinstance(x, np.ndarray) else to_np(x)
        ya = y if isinstance(y, np.ndarray) else to_np(y)
        expected = np_call(op, xa, ya)
        got = op(x, y)
        assert isinstance(got, dt.Tensor), (sym, type(got))
        check(got, expected, "")


@pytest.mark.parametrize("dtype", NUMPY_DTYPE_NAMES)
def test_unary_operators(dtype, device):
    x = values_for(dtype)
    for op, f, fname in ((operator.neg, np.negative, "negative"),
                         (operator.pos, np.positive, "positive"),
                         (operator.invert, np.invert, "invert"), (abs, np.absolute, "abs")):
        expected = np_call(f, x)
        if isinstance(expected, Exception):
            with pytest.raises(TypeError):
                op(T(x, device))
            continue
        check(op(T(x, device)), expected, fname, complex_in=x.dtype.kind == "c")


# ============================================================================ devices

@requires_cuda
@pytest.mark.parametrize("fname", ["add", "where", "maximum", "less", "atan2"])
def test_mixed_devices_raise(fname):
    c = CUDA_DEVICES[0]
    a, b = T(np.ones(3), "cpu"), T(np.ones(3), c)
    args = [a, b] if fname != "where" else [T(np.ones(3, bool)), a, b]
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        dt_func(fname)(*args)
    with pytest.raises(RuntimeError, match="same device"):
        dt_func(fname)(*args[::-1])


@requires_cuda
def test_mixed_devices_operators():
    c = CUDA_DEVICES[0]
    a, b = T(np.ones(3), "cpu"), T(np.ones(3), c)
    with pytest.raises(RuntimeError, match=f"Expected all tensors to be on the same device, but "
                                           f"found at least two devices, {c} and cpu!"):
        b + a
    for op in (operator.add, operator.mul, operator.lt, operator.pow, operator.eq):
        with pytest.raises(RuntimeError):
            op(a, b)
    with pytest.raises(RuntimeError):
        a += b
    with pytest.raises(RuntimeError):
        b -= a


@requires_devices(2)
def test_two_cuda_devices_raise():
    a, b = T(np.ones(3), "cuda:0"), T(np.ones(3), "cuda:1")
    with pytest.raises(RuntimeError, match="same device"):
        a + b
    with pytest.raises(RuntimeError, match="same device"):
        dt.hypot(b, a)


@requires_cuda
def test_numpy_array_with_cuda_tensor_says_how_to_move():
    c = CUDA_DEVICES[0]
    t = T(np.ones(3), c)
    arr = np.ones(3)
    for call in (lambda: t + arr, lambda: arr + t, lambda: dt.add(t, arr),
                 lambda: dt.add(arr, t), lambda: np.add(arr, t), lambda: np.add(t, arr),
                 lambda: dt.where(arr > 0, t, 0.0), lambda: operator.iadd(t, arr)):
        with pytest.raises(RuntimeError, match=r"\.cpu\(\)|\.to\(|asarray|device="):
            call()


@requires_cuda
def test_python_scalars_follow_the_tensor():
    c = CUDA_DEVICES[0]
    t = T(np.arange(3.0), c)
    for r in (t + 1, 2 * t, 1 - t, t ** 2, 2 ** t, dt.maximum(t, 1.5), dt.where(t > 1, t, 0),
              dt.where(T(np.array([True, False, True]), c), 1, 2), dt.clip(t, 0.5, 1.5)):
        assert r.device == dt.device(c)


@requires_cuda
def test_zero_d_cpu_tensors_go_with_device_tensors_larger_ones_do_not():
    """PyTorch's rule (Note [0-d CPU tensors as scalars]): a 0-d CPU tensor is a
    scalar beside a CUDA tensor (with `import devtensor as np`, np.sqrt(2)
    is one); a CPU tensor of one element but one dimension is an error."""
    c = CUDA_DEVICES[0]
    r = T(np.ones(3), c) + T(np.float64(2.0), "cpu")
    assert r.device == dt.device(c) and r.tolist() == [3.0, 3.0, 3.0]
    with pytest.raises(RuntimeError, match="same device"):
        T(np.ones(3), c) + T(np.ones(1), "cpu")


# ============================================================================ 0-d and empty

SHAPES = [(), (0,), (2, 0, 3), (1, 1)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("fname", UNARY + ["round", "around"])
def test_zero_d_and_empty_unary(fname, shape, device):
    failures = []
    for dtype in NUMPY_DTYPE_NAMES:
        vals = values_for(dtype, fname)
        x = np.resize(vals[1:2], shape).astype(dtype) if vals.size > 1 else np.zeros(shape, dtype)
        if fname == "reciprocal" and x.dtype.kind in "iu":
            x = np.ones(shape, dtype)
        expected = np_call(np.round if fname == "around" else np_func(fname), x)
        try:
            if isinstance(expected, Exception):
                with pytest.raises(TypeError):
                    dt_func(fname)(T(x, device))
                continue
            got = dt_func(fname)(T(x, device))
            check(got, expected, fname, context=f"{fname}({dtype}{shape})")
            assert got.device == dt.device(device)
        except AssertionError as e:
            failures.append(f"{fname}({dtype}, shape={shape}): "
                            f"{str(e).strip().splitlines()[0][:200]}")
        except Exception as e:  # noqa: BLE001
            failures.append(f"{fname}({dtype}, shape={shape}): {type(e).__name__}: {e}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("shapes", [((), ()), ((), (3,)), ((0,), ()), ((0,), (1,)),
                                    ((2, 0), (1, 1)), ((0, 3), (2, 1, 3))], ids=str)
@pytest.mark.parametrize("fname", BINARY)
def test_zero_d_and_empty_binary(fname, shapes, device):
    sa, sb = shapes
    for dtype in ("bool", "int32", "uint8", "float32", "complex128"):
        a = np.ones(sa, dtype)
        b = np.ones(sb, dtype)
        expected = np_call(np_func(fname), a, b)
        if isinstance(expected, Exception):
            with pytest.raises(TypeError):
                dt_func(fname)(T(a, device), T(b, device))
            continue
        got = dt_func(fname)(T(a, device), T(b, device))
        check(got, expected, fname, context=f"{fname}({dtype}, {sa}, {sb})")
        assert got.device == dt.device(device)


def test_zero_d_results_are_tensors():
    r = dt.add(T(np.float32(1)), 2)
    assert isinstance(r, dt.Tensor) and r.shape == () and r.dtype == np.float32
    r = dt.sin(T(np.array(1.0)))
    assert isinstance(r, dt.Tensor) and r.shape == ()
    r = dt.where(T(np.array(True)), 1, 2.0)
    assert isinstance(r, dt.Tensor) and r.shape == () and r.item() == 1.0


def test_functions_accept_plain_python_and_numpy_inputs():
    check(dt.add([1, 2], 3), np.add([1, 2], 3))
    check(dt.sqrt(np.array([4.0, 9.0])), np.sqrt(np.array([4.0, 9.0])))
    check(dt.where(np.array([True, False]), np.array([1, 2]), 3),
          np.where(np.array([True, False]), np.array([1, 2]), 3))


def test_where_accepts_lists_like_numpy():
    check(dt.where([True, False], [1, 2], [3, 4]), np.where([True, False], [1, 2], [3, 4]))


# ============================================================================ cuda == cpu

@requires_cuda
@pytest.mark.parametrize("fname", UNARY + BINARY + ["where"])
def test_cuda_devices_agree_with_cpu(fname):
    """The CUDA kernels (on a GPU, or emulated on the CPU) against the CPU loops:
    bit for bit only where the operation is correctly rounded or exact, else
    within the value tests' tolerances (check()); refusals are the same."""
    failures = []
    rng = np.random.default_rng(7)
    for dtype in NUMPY_DTYPE_NAMES + ["bfloat16"]:
        src = "float32" if dtype == "bfloat16" else dtype
        v = values_for(src, fname)
        nin = 3 if fname == "where" else (2 if fname in BINARY else 1)
        arrays = [v[rng.integers(0, len(v), (5, 7))] for _ in range(nin)]
        if fname == "where":
            arrays[0] = arrays[0].astype(bool)
        for dev in CUDA_DEVICES:
            def run(device):
                ts = [dt.asarray(a, device=device) for a in arrays]
                if dtype == "bfloat16":
                    ts = [t if t.dtype == dt.bool else t.astype(dt.bfloat16) for t in ts]
                try:
                    r = dt_func(fname)(*ts)
                except Exception as e:  # noqa: BLE001
                    return type(e)
                assert r.device == dt.device(device)
                return r.astype(dt.float32) if r.dtype == dt.bfloat16 else r
            a, b = run("cpu"), run(dev)
            if isinstance(a, type) or isinstance(b, type):
                same = a == b
            else:
                try:
                    check(b, to_np(a), fname, complex_in=arrays[-1].dtype.kind == "c",
                          context=f"{fname}({dtype}) on {dev}")
                    same = True
                except AssertionError as e:
                    failures.append(str(e))
                    continue
            if not same:
                failures.append(f"{fname}({dtype}) on {dev} differs from cpu")
    assert not failures, "\n".join(failures)


# ============================================================================ __array_ufunc__

@pytest.mark.parametrize("ufunc", [np.sin, np.exp, np.sqrt, np.negative, np.isnan, np.floor,
                                   np.conjugate, np.logical_not])
def test_numpy_unary_ufunc_stays_on_device(ufunc, device):
    x = np.linspace(0.1, 2, 5)
    t = T(x, device)
    r = ufunc(t)
    assert isinstance(r, dt.Tensor) and r.device == dt.device(device)
    check(r, np_call(ufunc, x), "")


@pytest.mark.parametrize("ufunc", [np.add, np.subtract, np.multiply, np.true_divide,
                                   np.power, np.arctan2, np.maximum, np.less, np.hypot,
                                   np.copysign, np.logaddexp, np.floor_divide])
def test_numpy_binary_ufunc_stays_on_device(ufunc, device):
    x, y = np.linspace(0.1, 2, 5), np.linspace(3, -1, 5)
    tx, ty = T(x, device), T(y, device)
    for args, nargs in (((tx, ty), (x, y)), ((tx, 2.0), (x, 2.0)), ((3, ty), (3, y))):
        r = ufunc(*args)
        assert isinstance(r, dt.Tensor) and r.device == dt.device(device)
        check(r, np_call(ufunc, *nargs), "")


def test_numpy_ufunc_with_out_and_kwargs(device):
    x = np.arange(5.0)
    t = T(x, device)
    r = np.add(t, 1.0, out=t)
    assert r is t
    check(t, x + 1)
    r = np.multiply(t, 2, out=(t,))
    assert r is t
    check(t, (x + 1) * 2)
    r = np.add(T(np.arange(3, dtype=np.int8), device), 1, dtype=np.float32)
    check(r, np.add(np.arange(3, dtype=np.int8), 1, dtype=np.float32))
    with pytest.raises(TypeError):
        np.add(T(np.arange(3), device), 1.5, out=T(np.arange(3), device))
    o = T(np.zeros(3), device)
    np.sqrt(T(np.arange(3), device), out=o)
    check(o, np.sqrt(np.arange(3)))


def test_numpy_ufunc_cpu_tensor_and_ndarray():
    r = np.add(np.arange(3.0), T(np.ones(3)))
    assert isinstance(r, dt.Tensor)
    check(r, np.arange(3.0) + 1)
    r = np.arange(3.0) * T(np.ones(3))
    assert isinstance(r, dt.Tensor)


# (np.add.reduce, accumulate, outer and at are devtensor's: tests/test_ufunc_methods.py)
@pytest.mark.parametrize("call", [
    lambda t: np.isnat(t), lambda t: np.ldexp.reduce(t),
], ids=["isnat", "ldexp.reduce"])
def test_unsupported_numpy_ufuncs_raise_typeerror(call, device):
    t = T(np.arange(1, 4), device)
    with pytest.raises(TypeError):
        call(t)
    # the tensor is intact and the interpreter healthy
    assert t.tolist() == [1, 2, 3]


# ============================================================================ astype

@pytest.mark.parametrize("casting", CASTINGS)
def test_astype_casting_modes_match_numpy_can_cast(casting):
    failures = []
    for da in NUMPY_DTYPE_NAMES:
        for db in NUMPY_DTYPE_NAMES:
            x = small_values(da)
            allowed = np.can_cast(da, db, casting)
            t = T(x)
            try:
                r = t.astype(db, casting=casting)
            except TypeError:
                if allowed:
                    failures.append(f"astype({da} -> {db}, {casting}) raised; NumPy allows")
                continue
            except Exception as e:  # noqa: BLE001
                failures.append(f"astype({da} -> {db}, {casting}): {type(e).__name__}: {e}")
                continue
            if not allowed:
                failures.append(f"astype({da} -> {db}, {casting}) allowed; NumPy forbids")
                continue
            with quiet():
                expected = x.astype(db)
            if r.dtype != expected.dtype or not np.array_equal(to_np(r), expected):
                failures.append(f"astype({da} -> {db}): {to_np(r)} != {expected}")
            if dt.can_cast(da, db, casting) != allowed:
                failures.append(f"dt.can_cast({da}, {db}, {casting}) != NumPy's")
    assert not failures, f"{len(failures)} differ:\n" + "\n".join(failures[:40])


def test_astype_message_and_default_and_copy():
    t = T(np.array([1.5, 2.5]))
    with pytest.raises(TypeError, match=r"Cannot cast array data from dtype\('float64'\) to "
                                        r"dtype\('int32'\) according to the rule 'safe'"):
        t.astype("int32", casting="safe")
    check(t.astype("int32"), np.array([1.5, 2.5]).astype("int32"))  # default 'unsafe'
    assert t.astype("float64", copy=False) is t
    c = t.astype("float64")
    assert c is not t
    with pytest.raises(ValueError):
        t.astype("float64", casting="bogus")


def test_astype_bfloat16_casting():
    f32 = T(np.array([1.0, 2.5], np.float32))
    assert f32.astype(dt.bfloat16, casting="same_kind").dtype == dt.bfloat16
    with pytest.raises(TypeError):
        f32.astype(dt.bfloat16, casting="safe")
    b = f32.astype(dt.bfloat16)
    assert b.astype(dt.float32, casting="safe").dtype == dt.float32
    assert b.astype(dt.float64, casting="safe").dtype == dt.float64
    with pytest.raises(TypeError):
        b.astype(dt.int32, casting="same_kind")
    with pytest.raises(TypeError):
        b.astype(dt.float16, casting="safe")  # bfloat16's range exceeds float16's
    with pytest.raises(TypeError):
        T(np.ones(2, np.float16)).astype(dt.bfloat16, casting="safe")  # precision


@pytest.mark.parametrize("device", ALL_DEVICES)
def test_astype_on_devices(device):
    x = np.array([0, 1, 2, 200], dtype=np.uint8)
    t = T(x, device)
    for db in NUMPY_DTYPE_NAMES:
        r = t.astype(db)
        assert r.device == dt.device(device)
        check(r, x.astype(db))


def close(got, want, device):
    """got (a tensor on device) against NumPy's want: its dtype, and values to
    a few ulps (arctan2 differs from NumPy's by one at some points)."""
    assert got.device == dt.device(device) and got.dtype == want.dtype
    np.testing.assert_allclose(to_np(got), want, rtol=1e-15)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "sqrt", "negative", "less", "arctan2"])
def test_where_keyword_matches_numpy(device, name):
    """NumPy's where= on a ufunc call: out keeps its values where the mask
    is False (a broadcast mask, a list, False itself), through the ufunc
    and through NumPy's protocol; without out a UserWarning."""
    import warnings
    f, g = getattr(dt, name), getattr(np, name)
    a = np.linspace(0.5, 3.0, 12).reshape(3, 4)
    b = np.linspace(2.0, -1.0, 4)
    args = (a,) if g.nin == 1 else (a, b)
    targs = tuple(dt.asarray(x, device=device) for x in args)
    for mask in [a > 1.5, np.array([True, False, True, False]), [[True], [False], [True]], False]:
        want = np.full((3, 4), 7, dtype=g(*args).dtype)
        g(*args, where=mask, out=want)
        tmask = dt.asarray(mask, device=device) if isinstance(mask, np.ndarray) else mask
        out = dt.full((3, 4), 7, dtype=want.dtype, device=device)
        assert f(*targs, where=tmask, out=out) is out
        close(out, want, device)
        out2 = dt.full((3, 4), 7, dtype=want.dtype, device=device)
        assert f(*targs, where=tmask, out=(out2,)) is out2
        close(out2, want, device)
    if device == "cpu":
        out = dt.full((3, 4), 7, dtype=want.dtype)
        assert g(*targs, where=a > 1.5, out=out) is out  # NumPy's ufunc on tensors
        want = np.full((3, 4), 7, dtype=want.dtype)
        close(out, g(*args, where=a > 1.5, out=want), "cpu")
    with pytest.warns(UserWarning, match="'where' used without 'out'"):
        got = f(*targs, where=dt.asarray(a > 1.5, device=device))
    assert got.shape == (3, 4) and got.device == targs[0].device
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(TypeError, match=r"Cannot cast array data from dtype\('float64'\) to dtype\('bool'\)"):
            f(*targs, where=targs[0], out=dt.zeros((3, 4), dtype=want.dtype, device=device))
        with pytest.raises(ValueError, match="could not be broadcast"):
            f(*targs, where=dt.ones(3, dtype=dt.bool, device=device), out=dt.zeros((3, 4), dtype=want.dtype,
                                                                               device=device))
    if g.nin == 2:  # a 0-d CPU tensor among a device's operands, as in arithmetic: the mask goes to out's device
        out = dt.full((3, 4), 7, dtype=want.dtype, device=device)
        f(dt.asarray(b[0]), targs[0], where=dt.asarray(a > 1.5, device=device), out=out)
        want = np.full((3, 4), 7, dtype=want.dtype)
        close(out, g(b[0], a, where=a > 1.5, out=want), device)


def _read_only(t):
    t.flags.writeable = False
    return t


def test_two_output_ufuncs_write_both_outputs_or_neither(device):
    """Note [Both outputs or neither]: every refusal NumPy makes of out=
    comes before either output is written (the first one was written before
    the second was checked); NumPy's exception types and words."""
    x = T(np.array([1.0, -2.5, 3.0]), device)
    other = "cuda:1" if device == "cpu" and dt.cuda.device_count() > 1 else "cpu"
    refusals = [
        (lambda o: dt.modf(x, o, dt.zeros(2, device=device)), ValueError,
         r"operands could not be broadcast together with shapes \(3,\) \(3,\) \(2,\)"),
        (lambda o: dt.modf(x, out=(o, _read_only(dt.zeros(3, device=device)))), ValueError, "output array is read-only"),
        (lambda o: dt.frexp(x, o, "float16"), TypeError, "return arrays must be of ArrayType"),
        (lambda o: dt.modf(x, out=(o, dt.zeros(3, dtype=dt.int64, device=device))), TypeError,
         r"Cannot cast ufunc 'modf' output 1 from dtype\('float64'\) to dtype\('int64'\)"),
        (lambda o: dt.divmod(x, 2.0, out=(o, dt.zeros((2, 3), device=device))), ValueError,
         r"non-broadcastable output operand with shape \(3,\) doesn't match the broadcast shape \(2, 3\)"),
        (lambda o: dt.modf(x, out=o), TypeError, "'out' must be a tuple of arrays"),
        (lambda o: dt.divmod(x, 2.0, out=(o,)), ValueError, "exactly one entry per ufunc output"),
    ]
    if other != device:
        refusals.append((lambda o: dt.divmod(x, 2.0, out=(o, dt.zeros(3, device=other))), RuntimeError,
                         "Expected all tensors to be on the same device"))
    for call, kind, words in refusals:
        o = dt.zeros(3, device=device)
        with pytest.raises(kind, match=words):
            call(o)
        assert to_np(o).tolist() == [0.0, 0.0, 0.0]
    frac, whole = dt.zeros((2, 3), device=device), dt.zeros((2, 3), device=device)
    assert dt.modf(x, out=(frac, whole))[0] is frac  # outputs larger than the input: broadcast into
    assert to_np(whole).tolist() == [[1.0, -2.0, 3.0]] * 2
    m, e = dt.frexp(x, out=(None, dt.zeros(3, dtype=dt.float32, device=device)))
    assert e.dtype == dt.float32 and to_np(e).tolist() == [1.0, 2.0, 2.0] and to_np(m).tolist() == [0.5, -0.625, 0.75]


def test_two_output_ufuncs_and_float_power(device):
    """divmod, modf and float_power as devtensor functions of its ufuncs, on
    every device and through NumPy's ufuncs: NumPy's values, signs of zero
    and dtypes."""
    a = np.array([-2.0, 1.5, np.inf, -np.inf, np.nan, -0.5, 7.0, -0.0])
    b = np.array([2.0, -0.75, 3.0, 2.0, 1.0, 0.25, -2.0, 5.0])
    x, y = T(a, device), T(b, device)
    with np.errstate(all="ignore"):
        for got, want in [(dt.divmod(x, y), np.divmod(a, b)), (dt.modf(x), np.modf(a)),
                          (dt.divmod(T(np.arange(-5, 5), device), 3), np.divmod(np.arange(-5, 5), 3)),
                          (dt.modf(T(np.arange(3, dtype=np.int8), device)), np.modf(np.arange(3, dtype=np.int8)))]:
            assert isinstance(got, tuple) and len(got) == 2
            for g, w in zip(got, want):
                assert g.dtype == w.dtype and g.device == x.device
                np.testing.assert_array_equal(to_np(g), w)
                np.testing.assert_array_equal(np.signbit(to_np(g)), np.signbit(w))
        for args in [(np.arange(4), 0.5), (np.arange(4, dtype=np.float32), 2), (np.array([-1.0]), 0.5j)]:
            got, want = dt.float_power(T(args[0], device), args[1]), np.float_power(*args)
            assert got.dtype == want.dtype
            np.testing.assert_allclose(to_np(got), want, rtol=1e-15)
        if device == "cpu":
            q, r = np.divmod(x, y)  # NumPy's ufunc on tensors: devtensor's
            assert isinstance(q, dt.Tensor) and isinstance(r, dt.Tensor)
            assert isinstance(np.float_power(x, 2), dt.Tensor)


SCALARS = [1, 2.5, True, 1j, np.float32(2), np.int8(3), np.float16(1.5), np.uint8(200), np.complex64(1j),
           np.int64(4)]


@pytest.mark.parametrize("name", ["add", "maximum", "multiply", "true_divide", "power", "arctan2"])
def test_scalar_only_calls_follow_nep50(name):
    """Scalars only: a NumPy scalar stays strong and a Python number weak
    (maximum(1.0, float32(2)) is float32), as NumPy's results; a 0-d CPU
    tensor comes back."""
    import itertools
    import warnings
    for a, b in itertools.product(SCALARS, repeat=2):
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:
                want = np.asarray(getattr(np, name)(a, b))
            except TypeError:
                with pytest.raises(TypeError):
                    getattr(dt, name)(a, b)
                continue
            got = getattr(dt, name)(a, b)
        assert isinstance(got, dt.Tensor) and got.ndim == 0 and got.device == dt.device("cpu")
        assert np.dtype(str(got.dtype)) == want.dtype, (name, a, b)
        # NumPy's complex64 power rounds in complex64 (1j ** uint8(200): 1 + 6e-6j there, 1 + 2e-15j here, Python's)
        rtol = 1e-3 if want.dtype == np.float16 else 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-15
        np.testing.assert_allclose(to_np(got), want, rtol=rtol, atol=rtol)
    for a in SCALARS:
        want = np.asarray(np.sqrt(a))
        got = dt.sqrt(a)
        assert np.dtype(str(got.dtype)) == want.dtype
        np.testing.assert_allclose(to_np(got), want, rtol=1e-3 if want.dtype == np.float16 else 1e-6)


def test_scalar_only_calls_in_c_match_the_python_path():
    """dt.sqrt(2.0) and dt.maximum(1.0, 2) are computed in the ufunc
    object's C call (Note [ufunc objects]); what it declines -- ints beyond
    int64, int subclasses, another default device -- goes to the Python
    function with the same results."""
    import enum

    class Small(enum.IntEnum):
        TWO = 2
    for a, b in [(2.0, 3), (True, False), (1j, 2.0), (2**63 - 1, 1), (Small.TWO, 0.5), (0.5, Small.TWO)]:
        want = np.asarray(np.add(a, b))
        got = dt.add(a, b)
        assert got.ndim == 0 and np.dtype(str(got.dtype)) == want.dtype and to_np(got) == want, (a, b)
    assert dt.negative(Small.TWO).tolist() == -2 and dt.negative(Small.TWO).dtype == dt.int64
    with pytest.raises(TypeError, match="Python integer 18446744073709551616 is out of bounds"):
        dt.add(2**64, 1)
    with pytest.raises(TypeError, match="Python integer 18446744073709551616 is out of bounds"):
        dt.sqrt(2**64)
    if CUDA_DEVICES:
        dt.set_default_device(CUDA_DEVICES[0])
        try:
            r = dt.sqrt(4.0)
            assert r.device == dt.device(CUDA_DEVICES[0]) and r.tolist() == 2.0
            assert dt.maximum(1.0, 2).device == dt.device(CUDA_DEVICES[0])
        finally:
            dt.set_default_device("cpu")


def test_power_with_a_scalar_exponent_is_numpys(device):
    """np.power(x, 0.5) with a scalar exponent is NumPy's sqrt (nan at -inf,
    -0.0 at -0.0, where pow gives inf and 0.0), as x ** 0.5 is (Note [Fast
    scalar powers]); 2.0 and -1 square and invert exactly; float16 and
    complex bases keep pow (power(-1+0j, 0.5) is 6e-17+1j; z ** 0.5 is 1j),
    a bool base power's int64."""
    a = np.array([-np.inf, -0.0, 0.0, 4.0, np.nan, -1.0, 1e300, 5e-324])
    for dtype in ("float64", "float32", "float16"):
        x = dt.asarray(a.astype(dtype), device=device)
        with np.errstate(all="ignore"):
            for e in (0.5, 2.0, 2, -1):
                got, want = dt.power(x, e), np.power(a.astype(dtype), e)
                assert got.dtype == want.dtype
                np.testing.assert_array_equal(to_np(got), want)
                np.testing.assert_array_equal(np.signbit(to_np(got).real), np.signbit(want.real))
    b = np.array([True, False])
    assert_same(dt.power(dt.asarray(b, device=device), 2), np.power(b, 2), device=device)
    z = np.array([-1 + 0j, 4 + 0j])
    np.testing.assert_allclose(to_np(dt.power(dt.asarray(z, device=device), 0.5)), np.power(z, 0.5), rtol=1e-15)
    assert to_np(dt.power(dt.asarray(z, device=device), 0.5))[0].real != 0  # cpow's 6e-17, not sqrt's 0
    np.testing.assert_array_equal(to_np(dt.asarray(z, device=device) ** 0.5), z ** 0.5)
