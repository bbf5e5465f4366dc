"""Elementwise results in their inputs' memory order, NumPy's order='K'
(Note [Results in the inputs' order] in csrc/core/elementwise.c), and loops
over the output's axes in memory order (Note [Loop axes in memory order]):
NumPy's strides and values, on every device."""
import itertools

import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, to_np

A = np.arange(24.0).reshape(2, 3, 4)
M = np.arange(12.0).reshape(3, 4)
F = np.asfortranarray(M)
SQ = np.arange(9.0).reshape(3, 3)


def T(a, device):
    """a's values in a's memory layout (positive strides) as a tensor on device:
    the axes in memory order made contiguous there, then put back."""
    order = np.argsort([-s for s in a.strides], kind="stable")
    t = dt.asarray(np.ascontiguousarray(a.transpose(order)), device=device).transpose(tuple(np.argsort(order)))
    assert t.shape == a.shape and t.strides == a.strides
    return t


def live_strides(x):
    """Strides of the axes longer than one (the others' are arbitrary)."""
    return tuple(s for s, n in zip(x.strides, x.shape) if n > 1)


CASES = {
    "f + c": lambda x, y: x + y, "c + f": lambda x, y: y + x, "f + 1": lambda x, y: x + 1,
    "f + f": lambda x, y: x + x, "-f": lambda x, y: -x, "f * f.T.T": lambda x, y: x * x.T.T,
    "f + row": lambda x, y: x + y[0], "row + f": lambda x, y: y[0] + x, "f + col": lambda x, y: x + y[:, :1],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_two_dimensional_results_take_numpys_order(device, name):
    f = CASES[name]
    want = f(F, M)
    got = f(T(F, device), T(M, device))
    assert_same(got, want, device)
    assert live_strides(got) == live_strides(want), name


def test_functions_and_casts_keep_the_order(device):
    x = T(F, device)
    for want, got in ((np.exp(F), dt.exp(x)), (np.sqrt(F), dt.sqrt(x)), (F.astype(np.int32) + 1.5,
                                                                      x.astype(dt.int32) + 1.5),
                      (np.where(F > 3, F, 0.0), dt.where(x > 3, x, 0.0)), (F > 3, x > 3)):
        assert_same(got, want, device, exact=False)
        assert live_strides(got) == live_strides(want)


@pytest.mark.parametrize("axes", list(itertools.permutations(range(3))))
def test_every_permutation_of_three_axes(device, axes):
    a = A.transpose(axes)
    for want, got in ((a + 1, T(a, device) + 1), (a * a, T(a, device) * T(a, device)),
                      (a[::-1, :, ::2] + 1, T(a, device)[::-1, :, ::2] + 1)):
        assert_same(got, want, device)
        assert live_strides(got) == live_strides(want), axes


def test_disagreeing_orders_give_c_order(device):
    x = T(SQ, device)
    for got, want in ((x * x.T, SQ * SQ.T), (x.T * x, SQ.T * SQ)):
        assert_same(got, want, device)
        assert got.flags.c_contiguous and want.flags.c_contiguous


def test_out_in_any_order_gets_numpys_values(device):
    for layout in (lambda s: s, lambda s: s.T, lambda s: s[::-1, ::2]):
        want = layout(np.zeros((8, 6)))
        out = layout(dt.zeros((8, 6), device=device))
        src = np.arange(want.size, dtype=np.float64).reshape(want.shape)
        np.add(src, 1.0, out=want)
        dt.add(T(src, device), 1.0, out=out)
        assert_same(out, want, device)
        np.multiply(np.asfortranarray(src), want, out=want)  # F-ordered input and a strided out
        dt.multiply(T(np.asfortranarray(src), device), out, out=out)
        assert_same(out, want, device)


def test_overlapping_in_place_ops_on_transposed_views(device):
    for op in (lambda x: x.__iadd__(x.T), lambda x: x.__imul__(x[::-1].T)):
        want = SQ.copy(order="F")
        got = T(want, device)
        op(want)
        op(got)
        assert_same(got, want, device)


@pytest.mark.parametrize("order", ["K", "C", "F"])
def test_array_copies_keep_the_layout_as_numpys(device, order):
    """np.array(a) and np.asarray(a, copy=True) copy in a's memory order
    (order='K', NumPy's default), 'C' and 'F' as asked."""
    sources = [(F, lambda x: x), (F, lambda x: x[:, ::2]), (M, lambda x: x.T),
               (A, lambda x: x.transpose(2, 0, 1)), (A, lambda x: x[::-1])]
    for base, view in sources:
        src, t = view(base), view(T(base, device))
        want = np.array(src, order=order)
        made = [dt.array(t, order=order)] + ([dt.asarray(t, copy=True)] if order == "K" else [])
        if device == "cpu" and order == "K":
            made.append(dt.array(src))  # from the ndarray
        for got in made:
            assert_same(got, want, device)
            assert live_strides(got) == live_strides(want), (order, src.strides)
    assert not np.shares_memory(np.asarray(dt.array(F)), F)  # a copy of an ndarray's memory



LIKE_CALLS = {
    "empty_like": lambda m, x, **k: m.empty_like(x, **k),
    "zeros_like": lambda m, x, **k: m.zeros_like(x, **k),
    "ones_like": lambda m, x, **k: m.ones_like(x, **k),
    "full_like": lambda m, x, **k: m.full_like(x, 2.5, **k),
    "full_like of a row": lambda m, x, **k: m.full_like(x, list(range(np.empty(k.get("shape", x.shape)).shape[-1])),
                                                     **k),
    "astype": lambda m, x, **k: x.astype(m.float32, **k),
}


@pytest.mark.parametrize("name", list(LIKE_CALLS))
def test_like_functions_and_astype_keep_the_memory_order(device, name):
    """order='K' (the default; None too for *_like) lays the result out in the
    prototype's memory order, its axes by decreasing |stride| (a strided
    transpose included, which is neither C nor Fortran), also with a shape
    of as many axes; 'A' is Fortran for a Fortran-contiguous prototype:
    NumPy's strides, exactly."""
    sources = [(M, lambda x: x[:, ::2].T), (A, lambda x: x[:, :, ::2].transpose(2, 0, 1)),
               (np.ones((3, 1, 4)), lambda x: x[:, :, ::2].transpose(1, 2, 0)), (M, lambda x: x[::-1, ::2]),
               (M, lambda x: x.T[::2]), (M, lambda x: x.T), (A, lambda x: x.transpose(1, 0, 2)), (M, lambda x: x),
               (np.ones((0, 3)), lambda x: x.T)]
    call = LIKE_CALLS[name]
    for base, view in sources:
        src, t = view(base), view(T(base, device))
        for kw in [{}, dict(order="K"), dict(order="A"), dict(order="C"), dict(order="F")] + (
                [dict(order=None), dict(shape=src.shape[::-1]), dict(shape=src.size)] if "like" in name else []):
            want, got = call(np, src, **kw), call(dt, t, **kw)
            assert got.strides == want.strides and got.device == t.device, (src.strides, kw)
            if name != "empty_like":
                assert_same(got, want, device)

def test_moves_keep_a_dense_layout(device):
    """Note [Moves keep a dense layout] (csrc/core/tensor.c): .to(), .cuda()
    and .cpu() keep the strides of a tensor dense in some order of its axes,
    as PyTorch's preserve_format, casts on the way and on the tensor's own
    device too; others are C-ordered.  Values always survive the trip."""
    x = dt.arange(24.0, device=device).reshape(2, 3, 4)
    dense = [x, x.transpose(2, 0, 1), x.transpose(1, 2, 0), x[0].T, x.reshape(2, 1, 12).transpose(2, 1, 0)]
    packed = [x[:, ::2], x[::-1], x[..., 1]]
    for t in dense + packed:
        want = to_np(t)
        for dtype in (None, dt.float32, dt.int16):
            y = t.to("cpu", dtype=dtype) if dtype is not None else t.to("cpu")
            np.testing.assert_array_equal(to_np(y), want.astype(y.dtype.numpy_dtype))
            if any(t is d for d in dense) and y is not t:
                ratio = y.itemsize / t.itemsize
                assert live_strides(y) == tuple(int(s * ratio) for s in live_strides(t))
            elif y is not t:  # packed (t.to(its device) is t)
                assert y.flags.c_contiguous
        for y in (t.to(dt.float32), t.to(copy=True), t.to(t.device, dt.int32)):  # on t's own device
            np.testing.assert_array_equal(to_np(y), want.astype(y.dtype.numpy_dtype))
            assert y is not t and y.device == t.device
            if any(t is d for d in dense):
                ratio = y.itemsize / t.itemsize
                assert live_strides(y) == tuple(int(s * ratio) for s in live_strides(t))
            else:
                assert y.flags.c_contiguous


def test_sorts_of_cpu_tensors_keep_numpys_order():
    # np.sort copies in order='K' and sorts in place: a Fortran input sorts
    # into a Fortran result along any axis (Note [Sorting through the
    # backend] in devtensor/_sorting.py: a CPU values sort is NumPy's)
    x = T(F, "cpu")
    for axis in (0, 1, -1):
        want = np.sort(F, axis=axis)
        got = dt.sort(x, axis=axis)
        assert_same(got, want, "cpu")
        assert live_strides(got) == live_strides(want), axis


ORDER_CALLS = {
    "reshape": lambda m, x, o: x.reshape((4, 3), order=o),
    "flatten": lambda m, x, o: x.flatten(o),
    "ravel": lambda m, x, o: m.ravel(x, o),
    "copy": lambda m, x, o: m.copy(x, order=o),
    "method copy": lambda m, x, o: x.copy(o),
    "astype": lambda m, x, o: x.astype(m.float32, order=o),
    "asarray": lambda m, x, o: m.asarray(x, order=o),
    "array": lambda m, x, o: m.array(x, order=o),
    "zeros_like": lambda m, x, o: m.zeros_like(x, order=o),
    "einsum": lambda m, x, o: m.einsum("ij->ji", x, order=o),
}


@pytest.mark.parametrize("name", sorted(ORDER_CALLS))
@pytest.mark.parametrize("order", ["c", "f", "a", "k"])
def test_order_letters_in_either_case(device, name, order):
    """NumPy takes order='f' as 'F' (it refused lowercase letters)."""
    call = ORDER_CALLS[name]
    if name == "reshape" and order == "k":
        with pytest.raises(ValueError, match="not permitted for reshaping"):
            call(dt, T(F, device), order)
        return
    want, got = call(np, F, order), call(dt, T(F, device), order)
    assert_same(got, want, device)
    assert live_strides(got) == live_strides(want)
    for creation in (dt.zeros, dt.ones, dt.empty):
        if order in "cf":
            assert creation((2, 3), order=order, device=device).strides == np.zeros((2, 3), order=order).strides
    with pytest.raises(ValueError, match=r"order must be one of 'C', 'F', 'A', or 'K' \(got 'Fortran'\)"):
        call(dt, T(F, device), "Fortran")


@pytest.mark.parametrize("inner", [1, 2, 3, 8, 9])
def test_short_last_axes_under_long_ones(device, inner):
    """A last axis of a few elements under a long one changes places in
    the CPU loops (Note [Short inner axes] in csrc/cpu/cpu_run.c): values,
    broadcasting, zero strides (repeat), casts, in-place ops and out= are
    NumPy's, whatever the order."""
    rng = np.random.default_rng(inner)
    n = 3000 if device == "cpu" else 300
    a = rng.standard_normal((n, inner))
    b = rng.standard_normal((1, inner))
    x, y = dt.asarray(a, device=device), dt.asarray(b, device=device)
    assert_same(x * y + 1.5, a * b + 1.5, device)
    assert_same(x[::-2] - x[1::2], a[::-2] - a[1::2], device)
    assert_same(dt.repeat(x[:, 0], inner), np.repeat(a[:, 0], inner), device)
    assert_same(dt.broadcast_to(x[:, :1], (n, inner)).copy(), np.broadcast_to(a[:, :1], (n, inner)).copy(), device)
    assert_same(x.astype(dt.float32), a.astype(np.float32), device)
    z = x.copy()
    z += z
    assert_same(z, a + a, device)
    o = dt.empty((inner, n), device=device).T
    dt.multiply(x, 2.0, out=o)
    assert_same(o, a * 2.0, device)
    m = np.arange(2 * n * inner, dtype=np.int32).reshape(2, n, inner)
    assert_same(dt.asarray(m, device=device) % 7, m % 7, device)
