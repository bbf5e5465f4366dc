"""einsum and einsum_path (devtensor/_einsum.py) against NumPy on every
device: explicit and implicit outputs, '...' broadcasting, repeated
subscripts, sums over one operand's subscripts, the sublist form, dtypes,
dtype=/out=/casting=/order=, every optimize mode, layouts, and NumPy's
errors; that a single-operand result without a sum is NumPy's view; that a
matrix product costs one matmul and no copy.  Small-integer data make every
result exact in every dtype."""
import numpy as np
import pytest

import devtensor as dt
from devtensor import _C
from helpers import ALL_DEVICES, assert_same, given, settings, st, to_np

DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64",
          "complex64", "complex128"]


def make(shape, dtype="float64", seed=0):
    """Small integers (exact results in every dtype), wrapping for uint8."""
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    a = rng.integers(-3, 4, size=shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.integers(-3, 4, size=shape)
    return a.astype(dtype)


def on(a, device):
    """A tensor copy of a on device (asarray would share a's memory on the cpu)."""
    return dt.asarray(np.array(a), device=device)


def check(subscripts, shapes, device, dtype="float64", **kw):
    arrays = [make(s, dtype, i) for i, s in enumerate(shapes)]
    want = np.einsum(subscripts, *arrays, **kw)
    got = dt.einsum(subscripts, *[on(a, device) for a in arrays], **kw)
    assert_same(got, want, device)
    return got


# (subscripts, operand shapes): every kind of term einsum has
CASES = [
    # matrix products, batched, transposed operands
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("ij,jk", [(2, 3), (3, 4)]), ("ij,kj->ik", [(2, 3), (4, 3)]),
    ("ji,jk->ki", [(3, 2), (3, 4)]), ("bij,bjk->bik", [(5, 2, 3), (5, 3, 4)]),
    ("bij,jk->bik", [(5, 2, 3), (3, 4)]), ("ijk,jil->kl", [(2, 3, 4), (3, 2, 5)]),
    ("ij,j->i", [(2, 3), (3,)]), ("i,ij->j", [(2,), (2, 3)]), ("ijk,k->ij", [(2, 3, 4), (4,)]),
    # elementwise, outer and inner products, sums
    ("ij,ij->ij", [(2, 3), (2, 3)]), ("ij,ij->", [(2, 3), (2, 3)]), ("i,i", [(4,), (4,)]),
    ("i,j", [(2,), (3,)]), ("i,j->ji", [(2,), (3,)]), ("ij->", [(2, 3)]), ("ij->ji", [(2, 3)]),
    ("ij->j", [(2, 3)]), ("ij,jk->", [(2, 3), (3, 4)]),
    # repeated subscripts: traces and diagonals
    ("ii", [(3, 3)]), ("ii->i", [(3, 3)]), ("iij->ji", [(3, 3, 2)]), ("iii->i", [(2, 2, 2)]),
    ("ii,ij->j", [(3, 3), (3, 2)]), ("i...i", [(3, 2, 3)]),
    # three and more operands
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]), ("ij,jk,ik->", [(2, 3), (3, 4), (2, 4)]),
    ("ab,bc,cd,de->ae", [(2, 3), (3, 2), (2, 4), (4, 2)]),
    ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    # '...' broadcasting, implicit outputs (capitals first)
    ("...ij,...jk", [(5, 2, 3), (4, 1, 3, 4)]), ("...ij,...jk->...ik", [(2, 3), (4, 3, 4)]),
    ("i...->...", [(3, 2, 4)]), ("...i,...i->...", [(2, 3), (3,)]),
    ("ij...,jk...->ik...", [(2, 3, 5), (3, 4, 1)]), ("...", [(2, 3)]), ("ij->i...", [(2, 3)]),
    ("iJ", [(2, 3)]), ("Ba,aB", [(2, 3), (3, 2)]),
    # length-1 axes broadcast, 0-d, empty, k == 0
    ("ij,jk", [(2, 1), (3, 4)]), ("ij,ij->ij", [(1, 3), (2, 3)]), ("", [()]), ("->", [()]),
    ("i,", [(3,), ()]), (",ij", [(), (2, 2)]), ("ab->a", [(2, 0)]), ("ij,jk", [(2, 0), (0, 3)]),
    ("ij,jk->ik", [(0, 3), (3, 2)]), ("i,i", [(0,), (0,)]), ("i,i", [(1,), (0,)]),
]


@pytest.mark.parametrize("optimize", [False, True])
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def test_einsum_values(device, case, optimize):
    check(case[0], case[1], device, optimize=optimize)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("subscripts,shapes", [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("bij,bkj->bik", [(2, 2, 3), (2, 4, 3)]),
    ("ij->", [(2, 3)]), ("ii->i", [(3, 3)]), ("i,j->ij", [(2,), (3,)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
])
def test_einsum_dtypes(device, dtype, subscripts, shapes):
    check(subscripts, shapes, device, dtype)


def test_einsum_promotion(device):
    a, b = make((2, 3), "int8"), make((3, 4), "float32", 1)
    for x, y in [(a, b), (a, make((3, 4), "uint8")), (a, make((3, 4), "complex64"))]:
        assert_same(dt.einsum("ij,jk", on(x, device), on(y, device)), np.einsum("ij,jk", x, y),
                    device)
    assert_same(dt.einsum("ij,", on(a, device), 2), np.einsum("ij,", a, 2), device)
    assert_same(dt.einsum("ij,j", on(a, device), [1, 2, 3]), np.einsum("ij,j", a, [1, 2, 3]),
                device)


@pytest.mark.parametrize("layout", ["transposed", "strided", "reversed"])
def test_einsum_layouts(device, layout):
    view = {"transposed": lambda x: x.T, "strided": lambda x: x[::2, 1::2],
            "reversed": lambda x: x[::-1, ::-1]}[layout]
    a, b = make((6, 6), "float32"), make((6, 6), "complex64", 1)
    ta, tb = on(a, device), on(b, device)
    for s in ("ij,jk->ik", "ij,kj->ki", "ji,jk", "ij,ij->j", "ii,ij->j"):
        assert_same(dt.einsum(s, view(ta), view(tb)), np.einsum(s, view(a), view(b)), device)
    for s in ("ii->i", "ij->", "ij->ji", "ij->j"):
        assert_same(dt.einsum(s, view(ta)), np.einsum(s, view(a)), device)


@pytest.mark.parametrize("optimize", [False, True, "greedy", "optimal", ("greedy", 10)],
                         ids=str)
def test_einsum_optimize_modes(device, optimize):
    shapes = [(2, 3), (3, 4), (4, 5), (5, 2)]
    check("ab,bc,cd,da->", shapes, device, optimize=optimize)
    check("ab,bc,cd,de->ae", shapes[:3] + [(5, 3)], device, optimize=optimize)


def test_einsum_explicit_paths(device):
    shapes = [(2, 3), (3, 4), (4, 2)]
    for path in (["einsum_path", (0, 1), (0, 1)], ["einsum_path", (1, 2), (0, 1)],
                 ["einsum_path", (0, 2), (0, 1)], ["einsum_path", (0, 1, 2)]):
        check("ij,jk,kl->il", shapes, device, optimize=path)
    path, report = np.einsum_path("ij,jk,kl->il", *[make(s) for s in shapes])
    check("ij,jk,kl->il", shapes, device, optimize=path)


def test_einsum_sublists(device):
    a, b = make((2, 3)), make((3, 4), seed=1)
    ta, tb = on(a, device), on(b, device)
    for args in [([0, 1], [1, 2], [0, 2]), ([0, 1], [1, 2]), ((0, 1), np.array([1, 2]), [2]),
                 ([Ellipsis, 1], [1, 2], [Ellipsis, 2]), ([30, 0], [0, 1])]:
        want = np.einsum(a, args[0], b, args[1], *args[2:])
        got = dt.einsum(ta, args[0], tb, args[1], *args[2:])
        assert_same(got, want, device)
    assert_same(dt.einsum(ta, [27, 1]), np.einsum(a, [27, 1]), device)
    assert_same(dt.einsum(ta, [0, 1], tb, [1, 2], [0, 2], optimize=True),
                np.einsum(a, [0, 1], b, [1, 2], [0, 2], optimize=True), device)


def test_einsum_dtype_out_casting_order(device):
    a, b = make((2, 3), "int32"), make((3, 4), "int32", 1)
    ta, tb = on(a, device), on(b, device)
    assert_same(dt.einsum("ij,jk", ta, tb, dtype="float64"), np.einsum("ij,jk", a, b,
                dtype="float64"), device)
    assert_same(dt.einsum("ij->i", ta, dtype="int8", casting="unsafe"),
                np.einsum("ij->i", a, dtype="int8", casting="unsafe"), device)
    out = dt.zeros((2, 4), dtype="float64", device=device)
    assert dt.einsum("ij,jk", ta, tb, out=out) is out
    assert_same(out, np.einsum("ij,jk", a, b, out=np.zeros((2, 4))), device)
    out = dt.zeros(3, dtype="float32", device=device)
    assert dt.einsum("ij->j", ta, out=out, casting="same_kind") is out
    assert_same(out, np.einsum("ij->j", a, out=np.zeros(3, np.float32), casting="same_kind"),
                device)
    c = dt.einsum("ij,jk->ki", ta, tb, order="C")
    assert c.is_contiguous()
    f = dt.einsum("ij,jk->ik", ta, tb, order="F")
    assert f.T.is_contiguous()
    assert_same(f, np.einsum("ij,jk->ik", a, b), device)


def test_einsum_views(device):
    a = make((3, 3))
    t = on(a, device)
    d = dt.einsum("ii->i", t)
    assert d._same_storage(t)  # NumPy's view of the diagonal, writeable
    d[0] = 7
    assert t[0, 0].item() == 7
    a[0, 0] = 7
    assert dt.einsum("ij->ji", t)._same_storage(t)
    assert dt.einsum("ij", t, optimize=True)._same_storage(t)
    # NumPy returns its view here, ignoring dtype= (Note [einsum's errors])
    r = dt.einsum("ij->ji", t, dtype="float32", casting="same_kind")
    assert not r._same_storage(t)
    assert_same(r, a.T.astype(np.float32), device)
    assert not dt.einsum("ii", t)._same_storage(t)


def test_einsum_one_matmul_no_copy(device, monkeypatch):
    """A matrix product (batched or not, transposed operands too) is one
    matmul of views: nothing copied, nothing summed apart."""
    calls = {"matmul": 0, "copy": 0, "sum": 0}

    def counting(name, fn):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return fn(*args, **kwargs)
        return wrapper
    monkeypatch.setattr(_C, "_matmul", counting("matmul", _C._matmul))
    monkeypatch.setattr(dt.Tensor, "copy", counting("copy", dt.Tensor.copy))
    monkeypatch.setattr(dt._einsum, "_sum", counting("sum", dt._einsum._sum))
    a, b, c = make((5, 2, 3)), make((5, 3, 4), seed=1), make((4, 3), seed=2)
    for s, ops in [("ij,jk->ik", (a[0], b[0])), ("bij,bjk->bik", (a, b)),
                   ("ij,kj->ik", (a[0], c)), ("bij,jk->bik", (a, b[0])), ("bji,bjk->bik", (b, b))]:
        tensors = [on(x, device) for x in ops]
        calls.update(matmul=0, copy=0, sum=0)
        assert_same(dt.einsum(s, *tensors), np.einsum(s, *ops), device)
        assert calls == {"matmul": 1, "copy": 0, "sum": 0}, (s, calls)


# ---- errors ----

A, B = make((2, 3)), make((3, 4))
# NumPy's C einsum's errors (optimize=False), word for word
C_ERRORS = [
    ("ij,jk->ik", [A]), ("ij", [A, B]), ("i$,jk", [A, B]), ("ij,jk->i$", [A, B]),
    ("ijk", [A]), ("i", [A]), ("ij->k", [A]), ("ij->ii", [A]), ("ii", [A]), ("i.j", [A]),
    ("i..j", [A]), (".....", [A]), ("...i...", [A]), ("...i->", [A]), ("ij->->", [A]),
    ("i-j", [A]), ("i-j", [make(3)]), ("i>j", [make(3)]), ("", [A]), ("ij->i.", [A]),
    ("ij,jk->ik,", [A, B]), ("ij,jk->ik", [A, make(3)]), ("i", [np.float64(2)]),
    ("ii->i", [make((1, 3))]), ("ij...,jk...->ik", [make((2, 3, 1)), make((3, 4, 1))]),
    ("ij", []),
]


def same_error(dt_call, np_call, exact=True):
    with pytest.raises(Exception) as want:
        np_call()
    with pytest.raises(want.type) as got:
        dt_call()
    if exact:
        assert str(got.value) == str(want.value)


@pytest.mark.parametrize("case", C_ERRORS, ids=lambda c: f"{c[0]}-{[np.shape(a) for a in c[1]]}")
def test_einsum_subscript_errors(device, case):
    s, ops = case
    same_error(lambda: dt.einsum(s, *[on(a, device) for a in ops]), lambda: np.einsum(s, *ops))


# NumPy's optimize path's errors (raised by numpy.einsum_path)
PY_ERRORS = [("ij,jk->ik", [A]), ("i$,jk", [A, B]), ("ijk", [A]), ("ij->k", [A]),
             ("ij->ii", [A]), ("i.j", [A]), ("ij->->", [A]), ("ij,ik", [A, B]),
             ("i,i", [make(3), make(4)]), ("...,...", [make(3), make(4)])]


@pytest.mark.parametrize("case", PY_ERRORS, ids=lambda c: f"{c[0]}-{[np.shape(a) for a in c[1]]}")
def test_einsum_optimize_errors(device, case):
    s, ops = case
    same_error(lambda: dt.einsum(s, *[on(a, device) for a in ops], optimize=True),
               lambda: np.einsum(s, *ops, optimize=True))


def test_einsum_size_errors(device):
    """Sizes that do not match: NumPy's ValueError (the words of its optimize
    path, Note [einsum's errors])."""
    for s, ops in [("ij,jk->ik", [A, A]), ("ij,ik", [A, B]), ("i,i", [make(3), make(4)]),
                   ("i...j,...j", [A, make(5)]), ("...,...", [make(3), make(4)]),
                   ("...ij,...jk", [make((5, 2, 3)), make((4, 3, 4))])]:
        same_error(lambda: dt.einsum(s, *[on(a, device) for a in ops]),
                   lambda: np.einsum(s, *ops), exact=False)
    with pytest.raises(ValueError, match=r"Size of label 'j' for operand 1 \(3\) does not "
                       r"match previous terms \(2\)\."):
        dt.einsum("ij,jk->ik", on(A, device), on(A, device))


def test_einsum_sublist_errors(device):
    t = on(A, device)
    for args in [([0, 52],), ([0, -1],), ([0, 1.0],), ([0, "a"],), ([True, 0],),
                 ([Ellipsis, 0, Ellipsis],), ([0, 1], [0, 0]), ([0, 1], [2]),
                 ([0, 1], [Ellipsis, Ellipsis])]:
        same_error(lambda: dt.einsum(t, *args), lambda: np.einsum(A, *args))
    same_error(lambda: dt.einsum(t, [0, 1], t), lambda: np.einsum(A, [0, 1], A))
    same_error(lambda: dt.einsum(t), lambda: np.einsum(A))
    same_error(lambda: dt.einsum(), lambda: np.einsum())
    # an operand without its sublist reached NumPy's einsum_path, whose
    # dispatch called devtensor's again (RecursionError)
    with pytest.raises((TypeError, ValueError)):
        dt.einsum_path(t)
    assert dt.einsum_path(t, [0, 1], [0])[0] == np.einsum_path(A, [0, 1], [0])[0]


def test_einsum_argument_errors(device):
    t = on(A, device)
    for kw in [{"order": "X"}, {"casting": "X"}, {"dtype": "foo"}, {"dtype": "int32"},
               {"dtype": "float32", "optimize": True}]:
        same_error(lambda: dt.einsum("ij->i", t, **kw), lambda: np.einsum("ij->i", A, **kw))
    same_error(lambda: dt.einsum("ij", t, foo=1), lambda: np.einsum("ij", A, foo=1),
               exact=False)
    for out in [dt.empty((2, 3), dtype="float32", device=device), dt.empty((2, 3), device=device)]:
        same_error(lambda: dt.einsum("ij->", t, out=out),
                   lambda: np.einsum("ij->", A, out=np.empty(out.shape, out.dtype.name)))
    same_error(lambda: dt.einsum("ij", t, out=dt.empty((2, 3), dtype="float32", device=device)),
               lambda: np.einsum("ij", A, out=np.empty((2, 3), np.float32)))
    same_error(lambda: dt.einsum("ij->i", t, out=[0, 0]), lambda: np.einsum("ij->i", A, out=[0, 0]))
    same_error(lambda: dt.einsum("ij->i", t, out=dt.empty(3, device=device)),
               lambda: np.einsum("ij->i", A, out=np.empty(3)), exact=False)
    same_error(lambda: dt.einsum("ij,jk,kl", t, on(B, device), on(make((4, 2)), device),
                                 optimize=["einsum_path", (0, 3)]),
               lambda: np.einsum("ij,jk,kl", A, B, make((4, 2)), optimize=["einsum_path", (0, 3)]))
    same_error(lambda: dt.einsum("ij,jk,kl", t, on(B, device), on(make((4, 2)), device),
                                 optimize=["einsum_path", (0, 1)]),
               lambda: np.einsum("ij,jk,kl", A, B, make((4, 2)), optimize=["einsum_path", (0, 1)]))
    same_error(lambda: dt.einsum("ij,jk,kl", t, on(B, device), on(make((4, 2)), device),
                                 optimize="foo"),
               lambda: np.einsum("ij,jk,kl", A, B, make((4, 2)), optimize="foo"))


# ---- einsum_path ----

@pytest.mark.parametrize("optimize", ["greedy", "optimal", True, ("greedy", 1)], ids=str)
def test_einsum_path(device, optimize):
    shapes = [(2, 3), (3, 40), (40, 5), (5, 6)]
    arrays = [make(s) for s in shapes]
    want = np.einsum_path("ab,bc,cd,de->ae", *arrays, optimize=optimize)
    got = dt.einsum_path("ab,bc,cd,de->ae", *[on(a, device) for a in arrays], optimize=optimize)
    assert got == want
    got = dt.einsum_path(on(arrays[0], device), [0, 1], on(arrays[1], device), [1, 2], [0, 2],
                         optimize=optimize)
    assert got == np.einsum_path(arrays[0], [0, 1], arrays[1], [1, 2], [0, 2], optimize=optimize)


# ---- properties ----

@st.composite
def contractions(draw):
    """Random two-operand subscripts over labels a-d (repeats allowed), with
    sizes; an explicit output of some of the labels, or an implicit one."""
    sizes = draw(st.fixed_dictionaries({c: st.integers(1, 3) for c in "abcd"}))
    terms = [draw(st.lists(st.sampled_from("abcd"), max_size=3)) for _ in range(2)]
    used = sorted(set(terms[0]) | set(terms[1]))
    if draw(st.booleans()):
        out = draw(st.permutations(used))[:draw(st.integers(0, len(used)))]
        subscripts = ",".join("".join(t) for t in terms) + "->" + "".join(out)
    else:
        subscripts = ",".join("".join(t) for t in terms)
    return subscripts, [tuple(sizes[c] for c in t) for t in terms]


@settings(max_examples=40, deadline=None)
@given(case=contractions(), optimize=st.booleans())
def test_einsum_property(device, case, optimize):
    check(case[0], case[1], device, "int64", optimize=optimize)


def test_two_operand_calls_take_the_remembered_plan(device):
    # Note [einsum's per-call path]: the plan is made once per subscripts,
    # shapes and dtypes, and serves views, other dtypes and every optimize
    from devtensor import _einsum
    rng = np.random.default_rng(5)
    a, b = rng.random((3, 4, 5)), rng.random((3, 5, 2))
    x, y = dt.asarray(a, device=device), dt.asarray(b, device=device)
    _einsum._pair_plan.cache_clear()
    for optimize in (False, True, "greedy"):
        assert_same(dt.einsum("bij,bjk->bik", x, y, optimize=optimize),
                    np.einsum("bij,bjk->bik", a, b), exact=False, rtol=1e-12)
    info = _einsum._pair_plan.cache_info()
    assert info.misses == 1 and info.hits == 2
    # transposed and strided views, the output permuted, int32 with float32
    at = rng.random((5, 4))
    xt = dt.asarray(at, device=device)
    for spec, p, q, xp, yq in (("ji,jk->ki", at, b[0], xt, y[0]),
                               ("ij,kj->ki", a[1][:, ::2], b[2].T[:, :3], x[1][:, ::2], y[2].T[:, :3])):
        assert_same(dt.einsum(spec, xp, yq), np.einsum(spec, p, q), exact=False, rtol=1e-12)
    i32, f32 = (rng.random((4, 4)) * 10).astype(np.int32), rng.random((4, 4)).astype(np.float32)
    r = dt.einsum("ij,jk", dt.asarray(i32, device=device), dt.asarray(f32, device=device))
    assert r.dtype == dt.float64
    assert_same(r, np.einsum("ij,jk", i32, f32), exact=False, rtol=1e-6)


@pytest.mark.parametrize("spec, sa, sb", [
    ("ii,ij->j", (3, 3), (3, 4)),       # a diagonal
    ("...ij,jk->...ik", (2, 1, 3, 4), (4, 5)),  # '...'
    ("ij,jk->ik", (1, 4), (4, 5)),      # sizes that match
    ("bij,bjk->bik", (1, 3, 4), (2, 4, 5)),  # a broadcast batch label
    ("i,j->ij", (3,), (4,)),            # an outer product
    ("ij,jk->i", (3, 4), (4, 5)),       # a label summed out of one operand
    ("ij,jk", (3, 4), (4, 5)),          # implicit output
])
def test_calls_the_plan_does_not_cover_match_numpy(device, spec, sa, sb):
    rng = np.random.default_rng(6)
    a, b = rng.random(sa), rng.random(sb)
    assert_same(dt.einsum(spec, dt.asarray(a, device=device), dt.asarray(b, device=device)),
                np.einsum(spec, a, b), exact=False, rtol=1e-12)


def test_errors_of_two_operand_calls_are_the_general_path_s():
    x, y = dt.ones((3, 4)), dt.ones((5, 6))
    with pytest.raises(ValueError, match="Size of label 'j' for operand 1 \\(4\\) does not match"):
        dt.einsum("ij,jk->ik", x, y)
    with pytest.raises(ValueError, match="too many subscripts for operand 0"):
        dt.einsum("ijk,jk->ik", x, y)
    with pytest.raises(ValueError, match="output subscript 'z'"):
        dt.einsum("ij,jk->iz", x, dt.ones((4, 6)))


def test_two_operands_on_two_devices_are_refused():
    if len(ALL_DEVICES) < 2:
        pytest.skip("needs a second device")
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        dt.einsum("ij,jk->ik", dt.ones((3, 4)), dt.ones((4, 6), device=ALL_DEVICES[1]))


ONE_OPERAND = {"ii": (3, 3), "ii->i": (3, 3), "ij->ji": (4, 3), "ij->": (4, 3), "ij->j": (4, 3),
               "...i->...": (2, 3, 4), "ji": (4, 3), "iij->ji": (3, 3, 2), "i...->...": (2, 3, 4),
               "ijk->kij": (2, 3, 4)}


@pytest.mark.parametrize("spec", sorted(ONE_OPERAND))
@pytest.mark.parametrize("dtype", ["int8", "bool", "float32", "complex128"])
def test_one_operand_calls_take_the_remembered_plan(device, spec, dtype):
    # Note [einsum's per-call path]: one tensor's diagonal view, a sum in its
    # dtype (int8 wraps, as NumPy's), a permutation
    a = make(ONE_OPERAND[spec], dtype, 3)
    if dtype == "int8":
        a = (a * 60).astype(np.int8)
    assert_same(dt.einsum(spec, on(a, device)), np.einsum(spec, a), device)


def test_one_operand_views_and_errors(device):
    a = make((3, 3), "float64")
    x = on(a, device)
    d = dt.einsum("ii->i", x)
    d[0] = 9.0  # a view, writeable, as NumPy's
    assert float(x[0, 0]) == 9.0
    t = dt.einsum("ij->ji", x)
    assert t._same_storage(x)
    for spec, where in (("ii", "operand 0"), ("ii->i", "single operand")):  # NumPy's words
        with pytest.raises(ValueError, match=f"dimensions in {where} for collapsing index 'i'"):
            dt.einsum(spec, on(make((2, 3)), device))
    with pytest.raises(ValueError, match="too many subscripts"):
        dt.einsum("ijk", x)


def test_einsum_takes_pytorchs_operand_list(device):
    """PyTorch's einsum(subscripts, [a, b]) is einsum(subscripts, a, b)."""
    rng = np.random.default_rng(5)
    a, b = rng.random((2, 3)), rng.random((3, 4))
    x, y = dt.asarray(a, device=device), dt.asarray(b, device=device)
    np.testing.assert_allclose(to_np(dt.einsum("ij,jk->ik", [x, y])), np.einsum("ij,jk->ik", a, b), rtol=1e-12)
    np.testing.assert_allclose(to_np(dt.einsum("ij->j", (x,))), a.sum(0), rtol=1e-12)
