"""Operators on 0-d tensors (Note [The 0-d fast path] in
csrc/python/scalar_ops.c): the fast path must give exactly what the general
elementwise path gives for the same operands as 1-element tensors (dtype,
value, errors), and NumPy's result on 0-d arrays; and iteration in C (Note
[Iterating in C] in csrc/python/tensor_iter.c)."""
import gc
import math
import operator
import weakref

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import devtensor as dt
from devtensor import nn

BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
          operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne]
INPLACE = [operator.iadd, operator.isub, operator.imul, operator.itruediv, operator.ifloordiv, operator.imod]
UNARY = [operator.neg, operator.pos, abs, lambda x: x ** 2, lambda x: x ** -1, lambda x: x ** 0.5,
         lambda x: x ** 2.0, lambda x: x ** 3]

FLOATS = [0.0, -0.0, 1.5, -2.25, 3.0, 1e308, float("inf"), -float("inf"), float("nan")]
INTS = [0, 1, -1, 7, -7, 2**62, 2**63 - 1, -2**63]

# (name, make): a 0-d operand from a value, and the same value as a 1-element
# tensor for the general path (None: a Python number, used as is)
KINDS = {
    "f64": (lambda v: dt.asarray(float(v)), lambda v: dt.asarray([float(v)]), FLOATS + [3.0, -7.0]),
    "i64": (lambda v: dt.asarray(int(v), dtype=dt.int64), lambda v: dt.asarray([int(v)], dtype=dt.int64), INTS),
    "float": (float, None, FLOATS),
    "int": (int, None, INTS + [2**64, -2**70]),
    "f32": (lambda v: dt.asarray(float(v), dtype=dt.float32), lambda v: dt.asarray([float(v)], dtype=dt.float32),
            [0.0, 1.5, -2.0, float("nan")]),
    "bool": (lambda v: dt.asarray(bool(v)), lambda v: dt.asarray([bool(v)]), [0, 1]),
    "np.float64": (np.float64, None, [0.0, 2.5]),
}
PAIRS = [(a, b) for a in KINDS for b in KINDS if "f64" in (a, b) or "i64" in (a, b)]


def outcome(f):
    try:
        r = f()
    except Exception as e:  # the type is compared, the message checked below where it matters
        return ("raises", type(e))
    return ("value", r)


def same(fast, general):
    """fast (a 0-d tensor, or an exception) is general's (a 1-element tensor)."""
    if fast[0] == "raises" or general[0] == "raises":
        assert fast == general
        return
    f, g = fast[1], general[1]
    assert f.shape == () and g.shape == (1,) and f.dtype == g.dtype
    fv, gv = f.item(), g[0].item()
    if isinstance(gv, float) and math.isnan(gv):
        assert math.isnan(fv)
    else:
        assert fv == gv and math.copysign(1, fv) == math.copysign(1, gv) if isinstance(gv, float) else fv == gv


def operands(kind, v):
    make, make_general, _ = KINDS[kind]
    return make(v), (make_general(v) if make_general else make(v))


@pytest.mark.parametrize("op", BINARY, ids=lambda f: f.__name__)
@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_binary_matches_the_general_path(op, pair):
    ka, kb = pair
    for va in KINDS[ka][2]:
        for vb in KINDS[kb][2]:
            (a, ga), (b, gb) = operands(ka, va), operands(kb, vb)
            if ka not in ("f64", "i64", "f32", "bool") and kb not in ("f64", "i64", "f32", "bool"):
                continue
            same(outcome(lambda: op(a, b)), outcome(lambda: op(ga, gb)))


@pytest.mark.parametrize("op", INPLACE, ids=lambda f: f.__name__)
@pytest.mark.parametrize("kb", list(KINDS))
@pytest.mark.parametrize("ka", ["f64", "i64"])
def test_inplace_matches_the_general_path_and_writes_into_x(op, ka, kb):
    for va in KINDS[ka][2]:
        for vb in KINDS[kb][2]:
            a, ga = operands(ka, va)
            b, gb = operands(kb, vb)
            keep = a
            fast, general = outcome(lambda: op(a, b)), outcome(lambda: op(ga, gb))
            same(fast, general)
            if fast[0] == "value":
                assert fast[1] is keep
            else:  # nothing written
                assert keep.tolist() == operands(ka, va)[0].tolist() or math.isnan(va)


@pytest.mark.parametrize("op", UNARY)
@pytest.mark.parametrize("kind", ["f64", "i64", "f32", "bool"])
def test_unary_matches_the_general_path(op, kind):
    for v in KINDS[kind][2]:
        a, ga = operands(kind, v)
        same(outcome(lambda: op(a)), outcome(lambda: op(ga)))


def test_results_match_numpy_0d_arrays():
    for x in FLOATS:
        for y in [2.0, -0.5, 3, 0.0]:
            for op in (operator.add, operator.mul, operator.truediv, operator.lt, operator.eq):
                got, want = op(dt.asarray(x), y), op(np.asarray(x), y)
                assert got.dtype == want.dtype
                np.testing.assert_array_equal(np.asarray(got), want)
    for x in INTS:
        for y in [3, -3, 2.5, 7]:
            for op in (operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
                       operator.ge):
                with np.errstate(all="ignore"):
                    want = op(np.asarray(x, dtype=np.int64), y)
                got = op(dt.asarray(x, dtype=dt.int64), y)
                assert got.dtype == want.dtype
                np.testing.assert_array_equal(np.asarray(got), want)


def test_errors_are_the_general_paths():
    i = dt.asarray(3, dtype=dt.int64)
    with pytest.raises(OverflowError, match="out of bounds for int64"):
        i + 2**63
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output"):
        i += 1.5
    with pytest.raises(ValueError, match="read-only"):
        r = dt.broadcast_to(dt.asarray(1.0), ())
        r += 1.0
    assert i.item() == 3
    assert (dt.asarray(5, dtype=dt.int64) // 0).item() == 0  # NumPy's integer floor_divide by zero
    assert (dt.asarray(-2**63, dtype=dt.int64) // -1).item() == -2**63


def test_results_are_new_tensors_owning_their_memory():
    x = dt.asarray(2.0)
    r = x * 1.0
    assert r is not x and r.base is None and r.flags.owndata and r.flags.writeable
    r += 1.0
    assert x.item() == 2.0 and r.item() == 3.0
    e = dt.arange(3.0)[1]
    s = e + 0
    s += 5
    assert e.item() == 1.0


def test_inplace_through_a_0d_view_writes_the_tensor():
    t = dt.arange(4.0)
    v = t[2, ...]
    v += 10.0
    v *= 2
    assert t.tolist() == [0.0, 1.0, 24.0, 3.0]


def test_device_scalars_take_the_general_path(device):
    x = dt.asarray(2.5, device=device)
    r = x * 2 + 1
    assert r.device == x.device and r.item() == 6.0
    assert (-x).item() == -2.5 and bool(x > 1)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.floats(allow_nan=True), st.integers(-2**63, 2**63 - 1)),
       st.one_of(st.floats(allow_nan=True), st.integers(-2**63, 2**63 - 1)),
       st.sampled_from(BINARY), st.booleans(), st.booleans())
def test_property_fast_equals_general(x, y, op, x_tensor, y_tensor):
    def make(v, as_tensor):
        if not as_tensor:
            return v, v
        d = dt.float64 if isinstance(v, float) else dt.int64
        return dt.asarray(v, dtype=d), dt.asarray([v], dtype=d)
    (a, ga), (b, gb) = make(x, x_tensor or not y_tensor), make(y, y_tensor)
    same(outcome(lambda: op(a, b)), outcome(lambda: op(ga, gb)))


def test_element_assignment_from_a_0d_tensor():
    t = dt.arange(5.0)
    t[0] = t[4]
    t[1] = dt.asarray(7, dtype=dt.int64)  # another dtype: cast, as NumPy's
    t[2] = t[2, ...]
    assert t.tolist() == [4.0, 7.0, 2.0, 3.0, 4.0]
    i = dt.arange(3)
    i[0] = dt.asarray(2.9)
    assert i.tolist() == [2, 1, 2]
    ro = dt.broadcast_to(dt.asarray(1.0), (3,))
    with pytest.raises(ValueError, match="read-only"):
        ro[0] = t[0]


# ---- iteration ----

def test_iteration_gives_element_copies_and_row_views(device):
    t = dt.arange(6.0, device=device)
    items = list(t)
    assert [x.item() for x in items] == list(range(6)) and all(x.shape == () for x in items)
    items[0] += 100
    assert t[0].item() == 0.0  # copies
    m = t.reshape(2, 3)
    rows = list(m)
    assert [r.tolist() for r in rows] == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert all(r.base is t for r in rows)  # views
    assert [x.item() for x in reversed(t)] == list(range(5, -1, -1))
    assert [x.item() for x in t[::-2]] == [5.0, 3.0, 1.0]


def test_iteration_errors_and_exhaustion():
    with pytest.raises(TypeError, match="iteration over a 0-d array"):
        iter(dt.asarray(1.0))
    it = iter(dt.arange(2.0))
    assert it.__length_hint__() == 2 and iter(it) is it
    next(it)
    assert it.__length_hint__() == 1
    next(it)
    for _ in range(2):
        with pytest.raises(StopIteration):
            next(it)
    assert it.__length_hint__() == 0
    assert list(dt.zeros((0, 3))) == []


def test_iteration_follows_replaced_data():
    p = nn.Parameter(dt.arange(5.0))
    seen = []
    for x in p:
        seen.append(x.item())
        if len(seen) == 2:
            p.data = dt.arange(3.0)
    assert seen == [0.0, 1.0, 2.0]


def test_an_iterator_held_by_its_tensor_is_collected():
    p = nn.Parameter(dt.arange(3.0))
    p.it = iter(p)
    ref = weakref.ref(p)
    del p
    gc.collect()
    assert ref() is None
