"""PyTorch's Tensor methods that NumPy's ndarray lacks (Note [PyTorch's
methods] in devtensor/_torch_methods.py), on every device: their values,
dtypes, devices, identity (casts to the same dtype return the tensor, the
in-place family returns it) and errors."""
import warnings

import numpy as np
import pytest

import devtensor as dt
from devtensor import nn
from helpers import CUDA_DEVICES, requires_devices, to_np


def test_counting_and_properties(device):
    t = dt.arange(6.0, device=device).reshape(2, 3)
    assert (t.dim(), t.numel(), t.element_size()) == (2, 6, 8)
    assert t.stride() == (3, 1) and t.T.stride() == (1, 3) and t.T.stride(0) == 1
    assert t[:, ::-2].stride() == (3, -2)
    assert t.get_device() == (-1 if device == "cpu" else dt.device(device).index)
    assert t.is_floating_point() and not t.is_complex() and not t.long().is_floating_point()
    net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1)).to(device)
    assert sum(p.numel() for p in net.parameters()) == 4 * 3 + 3 + 3 * 1 + 1  # the usual count


@pytest.mark.parametrize("name,dtype", [("float", "float32"), ("double", "float64"), ("half", "float16"),
                                        ("bfloat16", "bfloat16"), ("long", "int64"), ("int", "int32"),
                                        ("short", "int16"), ("char", "int8"), ("byte", "uint8"),
                                        ("bool", "bool")])
def test_casts(name, dtype, device):
    t = dt.asarray([0.0, 1.5, -2.0], device=device)
    r = getattr(t, name)()
    assert r.dtype == dt.dtype(dtype) and r.device == t.device
    np.testing.assert_array_equal(to_np(r.astype(dt.float64)), to_np(t.astype(dtype).astype(dt.float64)))
    assert getattr(r, name)() is r  # already of that dtype: the tensor itself, as PyTorch's
    assert t.type_as(r).dtype == r.dtype


@pytest.mark.skipif(not dt.cuda.is_available(), reason="needs (emulated) CUDA devices")
def test_type_as_takes_the_kind_of_device():
    """PyTorch's self.type(other.type()): other's dtype and kind of device,
    the current CUDA device for a CPU tensor (the type names no index)."""
    x = dt.ones(2)
    last = f"cuda:{dt.cuda.device_count() - 1}"
    c = dt.ones(2, device=last, dtype=dt.float32)
    assert (x.type_as(c).device, x.type_as(c).dtype) == (dt.device("cuda:0"), dt.float32)
    with dt.cuda.device(last):
        assert x.type_as(c).device == dt.device(last)
    assert c.type_as(x).device == dt.device("cpu") and c.type_as(x).dtype == dt.float64
    assert c.type_as(dt.ones(1, device="cuda:0", dtype=dt.float32)) is c


def test_copies_and_factories(device):
    t = dt.arange(6.0, device=device).reshape(2, 3)
    c = t.clone()
    c[0, 0] = 9
    assert to_np(t)[0, 0] == 0 and c.device == t.device
    ct = t.T.clone()  # PyTorch's preserve_format: a transposed tensor's clone keeps its strides
    assert ct.strides == t.T.strides and not ct._same_storage(t) and ct.tolist() == t.T.tolist()
    d = t.detach()
    assert d._same_storage(t) and d is not t and d.shape == t.shape
    # Note [preserve_format]: PyTorch's strides (torch 2.x, measured), stride 0 kept in C order
    x = dt.arange(12.0, device=device).reshape(3, 4)
    for view, want in [(x[:1].expand(3, 4), (4, 1)), (x[:, :1].expand(3, 4), (4, 1)), (x[:, ::2].T, (1, 2)),
                       (x.reshape(3, 4, 1).expand(3, 4, 2).transpose(2, 0, 1), (12, 4, 1)),
                       (dt.ones((2, 1, 3), device=device).expand(2, 4, 3).transpose(1, 0, 2), (6, 3, 1)),
                       (dt.ones((2, 3, 4), device=device)[:, ::2].transpose(2, 0, 1), (1, 8, 4)), (x[::-1], (4, 1))]:
        c = view.clone()
        assert c.stride() == want and c.tolist() == view.tolist(), (view.stride(), c.stride())
    assert x[:1].expand(3, 4).clone().view(-1).shape == (12,)
    for made, shape, value in [(t.new_zeros(2, 2), (2, 2), 0), (t.new_ones((3,)), (3,), 1),
                               (t.new_full((2,), 7), (2,), 7), (t.new_empty(4), (4,), None)]:
        assert (made.shape, made.dtype, made.device) == (shape, t.dtype, t.device)
        if value is not None:
            assert (to_np(made) == value).all()
    n = t.new_tensor([1, 2])
    assert (n.dtype, n.device, n.tolist()) == (t.dtype, t.device, [1.0, 2.0])
    assert t.new_zeros(2, dtype=dt.int8, device="cpu").device == dt.device("cpu")


def test_views_and_clamp(device):
    t = dt.arange(6.0, device=device).reshape(2, 3)
    assert t.t().shape == (3, 2) and t.t()._same_storage(t) and t[0].t().shape == (3,)
    with pytest.raises(RuntimeError, match="<= 2 dimensions"):
        dt.ones((2, 2, 2), device=device).t()
    e = t[0].expand(4, -1)
    assert e.shape == (4, 3) and e._same_storage(t) and to_np(e).tolist() == [[0.0, 1.0, 2.0]] * 4
    assert t[:, :1].expand(2, 5).shape == (2, 5) and t[0].expand_as(t).shape == (2, 3)
    with pytest.raises(RuntimeError, match="number of sizes"):
        t.expand(3)
    assert t.view_as(dt.zeros(3, 2)).shape == (3, 2)
    assert to_np(t.clamp(min=2)).tolist() == [[2, 2, 2], [3, 4, 5]]
    assert to_np(t.clamp(max=1)).tolist() == [[0, 1, 1], [1, 1, 1]]
    assert to_np(t.clamp(1, 4)).tolist() == [[1, 1, 2], [3, 4, 4]]


def test_random_fills_return_the_tensor(device):
    t = dt.empty(100000, dtype=dt.float32, device=device)
    assert t.normal_(2.0, 3.0) is t and t.dtype == dt.float32 and t.device == dt.device(device)
    assert abs(float(t.mean()) - 2.0) < 0.05 and abs(float(t.std()) - 3.0) < 0.05
    assert t.uniform_(-1, 3) is t and float(t.min()) >= -1 and float(t.max()) < 3
    assert abs(float(t.mean()) - 1.0) < 0.05
    # PyTorch's keyword names ('from' is reserved); as NumPy's uniform (and
    # PyTorch's), from + (to - from) * u may round up to `to` in float32
    t.uniform_(**{"from": 5, "to": 6})
    assert float(t.min()) >= 5 and float(t.max()) <= 6 and abs(float(t.mean()) - 5.5) < 0.05
    t.uniform_(to=0.5)
    assert float(t.min()) >= 0 and float(t.max()) <= 0.5
    with pytest.raises(TypeError):
        t.uniform_(0, 1, 2)
    with pytest.raises(TypeError):
        t.uniform_(0, low=1)
    with pytest.raises(TypeError):
        dt.zeros(3, dtype=dt.int64, device=device).normal_()


def test_in_place_family_returns_the_tensor(device):
    t = dt.zeros(3, device=device)
    assert t.fill_(2) is t and to_np(t).tolist() == [2.0] * 3
    assert t.fill_(dt.asarray(3.0)) is t and to_np(t).tolist() == [3.0] * 3  # a 0-d tensor, from the cpu
    with pytest.raises(RuntimeError, match="fill_ only supports 0-dimension value tensor but got tensor with 1"):
        t.fill_(dt.ones(3, device=device))  # PyTorch's refusal: fill_ does not broadcast
    with pytest.raises(TypeError, match="expects a number or a 0-d tensor, got list"):
        t.fill_([1.0])
    assert to_np(t).tolist() == [3.0] * 3 and t.fill_(2.0) is t
    assert t.add_(1, alpha=3) is t and to_np(t).tolist() == [5.0] * 3
    assert t.sub_(dt.ones(3, device=device)).mul_(2).div_(4) is t and to_np(t).tolist() == [2.0] * 3
    assert t.clamp_(max=1.5) is t and to_np(t).tolist() == [1.5] * 3
    assert t.zero_() is t and to_np(t).tolist() == [0.0] * 3
    assert t.copy_(dt.arange(3.0)) is t and to_np(t).tolist() == [0.0, 1.0, 2.0]  # from the cpu
    for other in CUDA_DEVICES:
        assert t.copy_(dt.full(3, 4.0, device=other)) is t and to_np(t).tolist() == [4.0] * 3
    i = dt.zeros(2, dtype=dt.int32, device=device)
    with pytest.raises(TypeError):  # NumPy's same_kind rule for in-place ufuncs
        i.div_(2)
    ro = dt.zeros(2, device=device)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        ro.zero_()


def test_arithmetic_comparisons_and_functions_as_methods(device):
    """PyTorch's method forms of what NumPy has as functions and operators;
    the expected values are PyTorch 2.15's, measured."""
    t = dt.asarray([[7, -7, 6], [-6, 5, -5]], device=device)
    assert t.div(4, rounding_mode="trunc").tolist() == [[1, -1, 1], [-1, 1, -1]]
    assert t.div(-4, rounding_mode="trunc").tolist() == [[-1, 1, -1], [1, -1, 1]]
    assert t.div(4, rounding_mode="floor").tolist() == [[1, -2, 1], [-2, 1, -2]]
    assert t.double().div(4, rounding_mode="trunc").tolist() == [[1.0, -1.0, 1.0], [-1.0, 1.0, -1.0]]
    assert t.div(4).tolist() == [[1.75, -1.75, 1.5], [-1.5, 1.25, -1.25]]
    assert t.div(4, rounding_mode="trunc").dtype == dt.int64
    z = t.clone()
    assert z.div_(4, rounding_mode="trunc") is z and z.tolist() == [[1, -1, 1], [-1, 1, -1]]
    with pytest.raises(RuntimeError, match="rounding_mode to be one of None, 'trunc', or 'floor'"):
        t.div(2, rounding_mode="round")
    half = dt.asarray([1000.0], dtype=dt.float16, device=device)  # alpha * other in the result's dtype
    assert dt.zeros(1, dtype=dt.float32, device=device).add(half, alpha=100).tolist() == [100000.0]
    assert dt.arange(3, device=device).add(dt.ones(3, device=device), alpha=0.5).tolist() == [0.5, 1.5, 2.5]
    with pytest.raises(RuntimeError, match="For integral input tensors, argument alpha must not be a floating"):
        dt.arange(3, device=device).add(1, alpha=0.5)
    assert t.flip(0, 1).tolist() == t.flip((0, 1)).tolist() == [[-5, 5, -6], [6, -7, 7]]
    assert t.amax(dim=[]).item() == 7
    assert t.add(2, alpha=3).tolist() == [[13, -1, 12], [0, 11, 1]]
    assert t.sub(t, alpha=2).tolist() == [[-7, 7, -6], [6, -5, 5]]
    assert t.mul(2).tolist() == [[14, -14, 12], [-12, 10, -10]]
    assert t.eq(5).tolist() == [[False] * 3, [False, True, False]] and t.ge(0).tolist() == [[True, False, True],
                                                                                          [False, True, False]]
    assert (t.ne(5) == ~t.eq(5)).all() and (t.lt(0) == ~t.ge(0)).all() and (t.le(5) == ~t.gt(5)).all()
    x = dt.arange(24.0, device=device).reshape(2, 3, 4)
    assert x.norm().item() == pytest.approx(65.757128891)
    assert x.norm(dim=1).tolist()[0] == pytest.approx([8.94427191, 10.344080433, 11.832159566, 13.37908816])
    assert x.norm(p=1, dim=(1, 2)).tolist() == [66.0, 210.0] and x.norm(p=float("inf")).item() == 23.0
    assert x.norm(p=3, dim=-1, keepdim=True).shape == (2, 3, 1)
    assert x[0].norm(p="nuc").item() == pytest.approx(24.364638499)
    with pytest.raises(RuntimeError, match="dim must be a 2-tuple"):
        x.norm(p="nuc")
    assert x.amax(dim=(0, 2)).tolist() == [15.0, 19.0, 23.0] and x.amin(1, keepdim=True).shape == (2, 1, 4)
    assert x.amax().item() == 23.0
    assert t.flip(0).tolist() == [[-6, 5, -5], [7, -7, 6]] and t.roll(1, 1).tolist() == [[6, 7, -7], [-5, -6, 5]]
    assert t.roll(1).tolist() == [[-5, 7, -7], [6, -6, 5]]
    assert dt.ones((3, 3), device=device).tril(-1).tolist() == [[0, 0, 0], [1, 0, 0], [1, 1, 0]]
    assert t.triu(1).tolist() == [[0, -7, 6], [0, 0, -5]]
    with pytest.raises(RuntimeError, match="tril: input tensor must have at least 2 dimensions"):
        dt.ones(3, device=device).tril()
    assert t.repeat_interleave(2, dim=1).tolist() == [[7, 7, -7, -7, 6, 6], [-6, -6, 5, 5, -5, -5]]
    assert x[0].softmax(1).tolist()[0] == pytest.approx([0.032058603, 0.087144319, 0.236882818, 0.64391426])
    assert x[0].log_softmax(0).tolist()[0] == pytest.approx([-8.018479303] * 4)
    assert x[0].sub(3).relu().tolist()[0] == [0, 0, 0, 0] and x[0].sigmoid().tolist()[0][1] == pytest.approx(
        0.731058579)
    y = x.clone()
    assert y.neg_().abs_().sqrt_() is y and to_np(y).ravel()[:3] == pytest.approx([0.0, 1.0, 1.414213562])
    for name in ("exp_", "log_", "floor_", "ceil_", "trunc_", "reciprocal_", "square_", "sign_", "sin_", "cos_",
                 "tanh_"):
        u = dt.asarray([0.5, 2.0], device=device)
        assert getattr(u, name)() is u
        np.testing.assert_allclose(to_np(u), getattr(np, name[:-1])(
            np.array([0.5, 2.0])), rtol=1e-15)


def test_selection_functions(device):
    """Note [PyTorch's selection functions]: PyTorch 2.15's values, measured."""
    t = dt.asarray([[1, 2, 3], [4, 5, 6]], device=device)
    idx = dt.asarray([[0, 0], [1, 0]], device=device)
    assert t.gather(1, idx).tolist() == [[1, 1], [5, 4]] and dt.gather(t, 1, idx).device == t.device
    assert t.gather(0, dt.asarray([[1, 0, 1]], device=device)).tolist() == [[4, 2, 6]]  # shorter index: no broadcast
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 1 with size 3"):
        t.gather(1, dt.asarray([[0, 3]], device=device))
    with pytest.raises(RuntimeError, match="Index tensor must have the same number of dimensions"):
        t.gather(1, dt.asarray([0], device=device))
    with pytest.raises(RuntimeError, match=r"expected index \[3, 1\] to be smaller than self \[2, 3\]"):
        t.gather(1, dt.zeros((3, 1), dtype=dt.int64, device=device))
    with pytest.raises(TypeError, match="Expected an integer index tensor, got float64"):
        t.gather(1, dt.zeros((1, 1), device=device))
    assert t.index_select(1, dt.asarray(2, device=device)).tolist() == [[3], [6]]
    assert dt.index_select(t, 0, dt.asarray([1, 1, 0], device=device)).tolist() == [[4, 5, 6], [4, 5, 6], [1, 2, 3]]
    z = dt.zeros((2, 3), device=device)
    assert z.scatter(1, dt.asarray([[0, 1], [2, 2]], device=device), dt.ones((2, 2), device=device) * 5).tolist() == [
        [5, 5, 0], [0, 0, 5]]
    assert z.scatter_add(1, dt.asarray([[0, 0], [2, 2]], device=device), dt.ones((2, 2), device=device)).tolist() == [
        [2, 0, 0], [0, 0, 2]]  # repeats add up
    assert z.scatter(1, dt.asarray([[1]], device=device), 7.0).tolist() == [[0, 7, 0], [0, 0, 0]]
    assert z.tolist() == [[0] * 3] * 2  # scatter and scatter_add copy
    assert z.scatter_(0, dt.asarray([[1, 0]], device=device), value=3.0) is z and z.tolist() == [[0, 3, 0], [3, 0, 0]]
    m = dt.asarray([True, False, True], device=device)
    assert t.masked_fill(m, 2.7).tolist() == [[2, 2, 2], [2, 5, 2]] and t.tolist()[0] == [1, 2, 3]
    assert t.masked_select(m).tolist() == [1, 3, 4, 6]
    u = t.clone()
    assert u.masked_fill_(u > 4, dt.asarray(0)) is u and u.tolist() == [[1, 2, 3], [4, 0, 0]]
    with pytest.raises(RuntimeError, match="only supports boolean masks, but got mask with dtype int64"):
        t.masked_fill(dt.asarray([1, 0, 1], device=device), 0)
    with pytest.raises(RuntimeError, match="only supports a 0-dimensional value tensor"):
        t.masked_fill(m, dt.asarray([1, 2, 3], device=device))
    x = dt.asarray([1.0, np.nan, 3.0, 2.0], device=device)
    top = dt.topk(x, 2)
    assert type(top).__name__ == "topk" and np.isnan(top.values[0].item()) and top.values[1].item() == 3.0
    assert top.indices.tolist() == [1, 2] and x.topk(2, largest=False).indices.tolist() == [0, 3]
    assert dt.asarray([[3, 1], [2, 2]], device=device).topk(1, dim=0).values.tolist() == [[3, 2]]
    assert dt.topk(dt.arange(5.0, device=device), 0).indices.dtype == dt.int64
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        x.topk(5)
    kth = x.kthvalue(4)
    assert type(kth).__name__ == "kthvalue" and np.isnan(kth.values.item()) and kth.indices.item() == 1
    assert x.kthvalue(2).values.item() == 2.0 and x.kthvalue(2, keepdim=True).values.shape == (1,)
    a = dt.arange(5, device=device)
    assert a.narrow(0, -2, 2).tolist() == [3, 4] and a.narrow(0, 1, 2)._same_storage(a)
    with pytest.raises(RuntimeError, match=r"start \(3\) \+ length \(3\) exceeds dimension size \(5\)"):
        a.narrow(0, 3, 3)
    assert [c.tolist() for c in a.chunk(3)] == [[0, 1], [2, 3], [4]]
    assert [c.tolist() for c in dt.arange(6, device=device).chunk(4)] == [[0, 1], [2, 3], [4, 5]]  # fewer pieces
    assert len(dt.chunk(dt.zeros(0, device=device), 3)) == 3
    s = dt.arange(6.0, device=device).reshape(2, 3)
    assert [p.tolist() for p in s.split(2, 1)] == [[[0, 1], [3, 4]], [[2], [5]]]
    assert [p.tolist() for p in dt.arange(6, device=device).split([1, 5])] == [[0], [1, 2, 3, 4, 5]]
    with pytest.raises(RuntimeError, match="split_sizes to sum exactly to 6"):
        dt.arange(6, device=device).split([1, 4])
    assert [u.tolist() for u in t.unbind(1)] == [[1, 4], [2, 5], [3, 6]] and t.movedim(0, 1).shape == (3, 2)
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"):
        t.unbind(2)
    # found in review: start == size, 0-d inputs, a negative split size, broadcasting, 0-d index_select
    with pytest.raises(RuntimeError, match=r"start \(3\) \+ length \(1\) exceeds dimension size \(3\)"):
        dt.arange(3.0, device=device).narrow(0, 3, 1)
    assert dt.arange(3.0, device=device).narrow(0, 3, 0).shape == (0,)
    scalar = dt.asarray(5.0, device=device)
    for call, words in [(lambda: scalar.chunk(2), "chunk expects at least a 1-dimensional tensor"),
                        (lambda: scalar.split(1), "split expects at least a 1-dimensional tensor"),
                        (lambda: scalar.unbind(), r"unbind\(\): cannot be applied to a 0-dim tensor"),
                        (lambda: scalar.narrow(0, 0, 1), r"narrow\(\) cannot be applied to a 0-dim tensor"),
                        (lambda: dt.zeros((0, 3), device=device).split(-1), "split_size be non-negative")]:
        with pytest.raises(RuntimeError, match=words):
            call()
    assert scalar.index_select(0, dt.asarray([0], device=device)).shape == ()
    wide = dt.arange(3.0, device=device).masked_fill(dt.ones((2, 3), dtype=dt.bool, device=device), 7.0)
    assert wide.tolist() == [[7.0] * 3] * 2  # self broadcast with the mask, as PyTorch's out-of-place form


def test_negative_indices_refused_as_pytorch_refuses_them(device):
    """gather, index_select, the scatters, index_add_, index_copy_ and
    embedding refuse a negative index with PyTorch's error and write
    nothing; index_fill_, take_along_dim and indexing count from the end,
    as PyTorch's (Note [Negative indices in PyTorch's functions])."""
    F = dt.nn.functional
    x = dt.arange(6.0, device=device).reshape(2, 3)
    neg = dt.asarray([[-1], [0]], device=device)
    row = dt.asarray([-1], device=device)
    ones = dt.ones((2, 1), device=device)
    runtime = [lambda: x.gather(1, neg), lambda: dt.gather(x, 1, neg), lambda: x.index_select(1, row),
               lambda: x.scatter(1, neg, 1.0), lambda: x.scatter_add(1, neg, ones),
               lambda: x.scatter_reduce(1, neg, ones, "amax"), lambda: x.index_add(1, row, ones),
               lambda: dt.scatter(x, 1, neg, ones), lambda: dt.index_add(x, 1, row, ones)]
    for call in runtime:
        with pytest.raises(RuntimeError, match="index -1 is out of bounds for dimension 1 with size 3"):
            call()
    with pytest.raises(IndexError, match=r"index_copy_\(\): index -1 is out of bounds for dimension 1 with size 3"):
        x.index_copy(1, row, ones)
    for call in (lambda: F.embedding(row, x), lambda: dt.nn.Embedding(3, 2).to(device)(row),
                 lambda: F.embedding_bag(dt.asarray([[1, -2]], device=device), x)):
        with pytest.raises(IndexError, match="index out of range in self"):
            call()
    y = x.clone()
    with pytest.raises(RuntimeError):
        y.scatter_(1, dt.asarray([[2], [-3]], device=device), 9.0)
    assert y.tolist() == x.tolist()  # nothing written before the refusal
    with pytest.raises(RuntimeError):
        y.index_add_(0, dt.asarray([0, -1], device=device), dt.ones((2, 3), device=device))
    assert y.tolist() == x.tolist()
    # the forms that count from the end, as PyTorch's
    assert x.index_fill(1, row, 5.0).tolist() == [[0.0, 1.0, 5.0], [3.0, 4.0, 5.0]]
    assert dt.take_along_dim(x, neg, 1).tolist() == [[2.0], [3.0]]
    assert x[row].tolist() == [[3.0, 4.0, 5.0]]
    assert x.gather(1, dt.asarray([[2], [0]], device=device)).tolist() == [[2.0], [3.0]]
    assert x.gather(1, dt.zeros((2, 0), dtype=dt.int64, device=device)).shape == (2, 0)
    assert x.gather(1, dt.asarray([[2], [0]], dtype=dt.uint8, device=device)).tolist() == [[2.0], [3.0]]


@pytest.mark.parametrize("shape, dim, k", [((300000,), 0, 5), ((700, 100), 0, 3), ((100, 700), 1, 30),
                                           ((2000, 3), 0, 7), ((40, 30), 1, 0), ((7,), 0, 7),
                                           ((70000,), 0, 20000), ((3, 1), 0, 2), ((700, 100), 0, 1),
                                           ((100, 70), 1, 1), ((200, 60), 1, 4)])
def test_topk_against_a_stable_sort(device, shape, dim, k):
    """topk's values are the first k of a sort (NaN the largest), whether it
    sorts (small tensors, devices) or partitions first (big CPU tensors)."""
    if device != "cpu" and np.prod(shape) > 100000:
        pytest.skip("the sort path is the small CPU one; the emulation is slow at this size")
    rng = np.random.default_rng(len(shape) * 1000 + k)
    a = np.round(rng.standard_normal(shape), 2)
    a.flat[::97] = np.nan
    key = np.where(np.isnan(a), np.inf, a)
    for largest in (True, False):
        values, indices = dt.asarray(a, device=device).topk(k, dim=dim, largest=largest)
        s = -np.sort(-key, axis=dim) if largest else np.sort(key, axis=dim)
        want = np.take(s, np.arange(k), axis=dim)
        want[np.isposinf(want)] = np.nan
        np.testing.assert_array_equal(to_np(values), want)
        np.testing.assert_array_equal(np.take_along_axis(a, to_np(indices), axis=dim), want)
    masked = dt.asarray(a, device=device).masked_fill(dt.asarray(np.isnan(a), device=device), -1)
    np.testing.assert_array_equal(to_np(masked), np.where(np.isnan(a), -1, a))
    if k:  # integers (k = 1 takes argmin for the smallest, where floats sort)
        ints = (a * 100).astype(np.int64) if not np.isnan(a).any() else np.nan_to_num(a * 100).astype(np.int64)
        for largest in (True, False):
            values, indices = dt.asarray(ints, device=device).topk(k, dim=dim, largest=largest)
            s = -np.sort(-ints, axis=dim) if largest else np.sort(ints, axis=dim)
            np.testing.assert_array_equal(to_np(values), np.take(s, np.arange(k), axis=dim))
            np.testing.assert_array_equal(np.take_along_axis(ints, to_np(indices), axis=dim), to_np(values))


def _torch_running_extreme(a, dim, largest):
    """PyTorch's cummax/cummin, element by element: x replaces the running
    value when it is NaN, or when the running value is not NaN and x >= it
    (<= for cummin), so the later of equal values and the last NaN win."""
    x = np.moveaxis(a, dim, 0)
    values, indices = x.copy(), np.zeros(x.shape, np.int64)
    for i in range(1, x.shape[0]):
        prev = values[i - 1]
        take = np.isnan(x[i]) | (~np.isnan(prev) & (x[i] >= prev if largest else x[i] <= prev)) \
            if x.dtype.kind == "f" else (x[i] >= prev if largest else x[i] <= prev)
        values[i] = np.where(take, x[i], prev)
        indices[i] = np.where(take, i, indices[i - 1])
    return np.moveaxis(values, 0, dim), np.moveaxis(indices, 0, dim)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "uint8", "bool"])
def test_cummax_and_cummin(device, dtype):
    """PyTorch's cummax and cummin (Note [Running extremes and their
    positions]): values and indices of its element-by-element rule, to the
    bit (which of -0.0 and 0.0), along every dim, as functions and methods."""
    rng = np.random.default_rng(6)
    a = rng.choice([-1.0, -0.0, 0.0, 2.0, 3.0, np.nan] if dtype[0] == "f" else [0, 1, 2, 3], (4, 6, 5))
    a = a.astype(dtype)
    t = dt.asarray(a, device=device)
    for dim in (0, 1, 2, -1):
        for largest, f in ((True, dt.cummax), (False, dt.cummin)):
            want_v, want_i = _torch_running_extreme(a, dim, largest)
            got = f(t, dim) if dim != 1 else getattr(t, f.__name__)(dim=dim)
            assert type(got).__name__ == f.__name__ and got.values.dtype == t.dtype
            assert got.values.device == t.device and got.indices.dtype == dt.int64
            np.testing.assert_array_equal(to_np(got.indices), want_i)
            assert to_np(got.values).tobytes() == want_v.tobytes()
    z = dt.cummax(dt.asarray(2.5, device=device), 0)
    assert z.values.shape == z.indices.shape == () and z.values.item() == 2.5 and z.indices.item() == 0
    e = dt.cummin(dt.zeros((2, 0), device=device), 1)
    assert e.values.shape == e.indices.shape == (2, 0)
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-3, 2\], but got 3\)"):
        dt.cummax(t, 3)
    with pytest.raises(TypeError, match="cummin\\(\\): argument 'input' \\(position 1\\) must be Tensor, not list"):
        dt.cummin([1, 2], 0)
    with pytest.raises(RuntimeError, match="cummax does not support complex tensors"):
        dt.cummax(dt.asarray([1j], device=device), 0)
    with pytest.raises(TypeError):
        t.cummax()  # dim is required, as PyTorch's


def test_selection_refusals(device):
    """The selection family's remaining refusals, with their types and words."""
    t = dt.arange(6.0, device=device).reshape(2, 3)
    idx = dt.asarray([[0, 1]], device=device)
    cases = [
        (lambda: t.index_select(0, dt.zeros((2, 2), dtype=dt.int64, device=device)), IndexError,
         "Index is supposed to be a vector"),
        (lambda: dt.asarray(5.0, device=device).index_select(0, dt.asarray([0, 0], device=device)), IndexError,
         "Index to scalar can have only 1 value, got 2"),
        (lambda: t.kthvalue(4), RuntimeError, "selected number k out of range for dimension 1"),
        (lambda: t.scatter_(1, idx), TypeError, "takes src or value=, one of them"),
        (lambda: t.scatter(1, idx, dt.ones((1, 1), device=device)), RuntimeError,
         r"Expected index \[1, 2\] to be smaller than src \[1, 1\]"),
        (lambda: t.scatter(1, idx, "a"), TypeError, "src must be a tensor or a number, got str"),
        (lambda: t.chunk(0), RuntimeError, "chunk expects `chunks` to be greater than 0, got: 0"),
        (lambda: t.split(0), RuntimeError, "split_size can only be 0 if dimension size is 0"),
        (lambda: t.narrow(1, -4, 1), IndexError, r"start out of range \(expected to be in range of \[-3, 3\], but got -4\)"),
        (lambda: t.masked_select(dt.asarray([1, 0, 1], device=device)), RuntimeError,
         "masked_select only supports boolean masks"),
    ]
    if device != "cpu":  # a mask on another device, in place or not
        host_mask = dt.asarray([True, False, True])
        cases += [(lambda: t.masked_fill(host_mask, 0), RuntimeError, "Expected all tensors to be on the same device"),
                  (lambda: t.masked_fill_(host_mask, 0), RuntimeError, "Expected all tensors to be on the same device")]
        # index and src on another device: PyTorch's error, naming both devices (t[idx] takes CPU indices)
        host_idx, host_src = dt.asarray([[0, 1]]), dt.ones((1, 2))
        same = f"Expected all tensors to be on the same device, but found at least two devices, {device} and cpu!"
        cases += [(lambda: t.gather(1, host_idx), RuntimeError, same),
                  (lambda: t.index_select(0, dt.asarray([0])), RuntimeError, same),
                  (lambda: t.scatter_(1, host_idx, 1.0), RuntimeError, same),
                  (lambda: t.scatter_add_(1, idx, host_src), RuntimeError, same),
                  (lambda: t.scatter_(1, idx, host_src), RuntimeError, same)]
    for call, kind, words in cases:
        with pytest.raises(kind, match=words):
            call()
    assert t.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]  # nothing written by a refused scatter_


UNARY_METHODS = {"abs": np.abs, "neg": np.negative, "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1,
                 "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p, "sqrt": np.sqrt,
                 "square": np.square, "reciprocal": np.reciprocal, "sign": np.sign, "floor": np.floor,
                 "ceil": np.ceil, "trunc": np.trunc, "sin": np.sin, "cos": np.cos, "tan": np.tan,
                 "tanh": np.tanh, "sinh": np.sinh, "cosh": np.cosh, "asin": np.arcsin, "acos": np.arccos,
                 "atan": np.arctan, "isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite,
                 "logical_not": np.logical_not, "rsqrt": lambda a: 1 / np.sqrt(a),
                 "frac": lambda a: a - np.trunc(a)}
BINARY_METHODS = {"maximum": np.maximum, "minimum": np.minimum, "fmod": np.fmod, "remainder": np.remainder,
                  "atan2": np.arctan2, "hypot": np.hypot, "pow": np.power, "logical_and": np.logical_and,
                  "logical_or": np.logical_or, "logical_xor": np.logical_xor}


@pytest.mark.parametrize("name", sorted(UNARY_METHODS) + sorted(BINARY_METHODS))
def test_method_forms_of_elementwise_functions(device, name):
    """x.exp(), x.pow(2), x.atan2(y), ...: PyTorch's method forms, NumPy's
    function's values (within the vector math's few ulp), on x's device."""
    a = np.array([[0.25, -1.5, 3.0], [0.5, 2.0, -0.75], [np.nan, np.inf, 0.0]])
    b = np.array([[2.0, 0.5, -1.0], [1.5, -2.0, 0.25], [1.0, 2.0, 3.0]])
    x, y = dt.asarray(a, device=device), dt.asarray(b, device=device)
    with np.errstate(all="ignore"):
        want = UNARY_METHODS[name](a) if name in UNARY_METHODS else BINARY_METHODS[name](a, b)
    got = getattr(x, name)() if name in UNARY_METHODS else getattr(x, name)(y)
    assert got.device == dt.device(device) and got.dtype == dt.dtype(want.dtype.name)
    np.testing.assert_allclose(to_np(got), want, rtol=1e-15, atol=0)


def test_torch_method_forms_and_functions(device):
    a = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])
    x = dt.asarray(a, device=device)
    np.testing.assert_array_equal(to_np(x.where(x > 0, 0.0)), np.where(a > 0, a, 0.0))
    np.testing.assert_array_equal(to_np(x.clamp_min(0)), np.maximum(a, 0))
    np.testing.assert_array_equal(to_np(x.clamp_max(0)), np.minimum(a, 0))
    np.testing.assert_array_equal(to_np(x.lerp(dt.zeros_like(x), 1.0)), np.zeros_like(a))  # exact at weight 1
    np.testing.assert_allclose(to_np(x.lerp(2 * x, 0.25)), 1.25 * a, rtol=1e-15)
    np.testing.assert_array_equal(to_np(x.addcmul(x, x, value=2)), a + 2 * a * a)
    np.testing.assert_array_equal(to_np(x.addcdiv(x, x + 10)), a + a / (a + 10))
    assert bool(x.isclose(x + 1e-9).all()) and x.allclose(x) and not x.allclose(x + 1)
    np.testing.assert_array_equal(to_np(x.nansum(1)), a.sum(1))
    np.testing.assert_array_equal(to_np(x.nanmean(dim=0, keepdim=True)), a.mean(0, keepdims=True))
    m = a.max(1, keepdims=True)
    np.testing.assert_allclose(to_np(x.logsumexp(1)), (np.log(np.exp(a - m).sum(1, keepdims=True)) + m)[:, 0],
                               rtol=1e-15)
    assert to_np(dt.logsumexp(dt.full((2, 2), -np.inf, device=device), 1)).tolist() == [-np.inf, -np.inf]
    assert dt.asarray([1, 2, 3], device=device).logsumexp(0).dtype == dt.float32  # PyTorch's: ints give float32
    assert x.tile(2, 1).shape == (4, 3) and x.tile((1, 2)).shape == (2, 6)
    assert x.unflatten(1, (3, 1)).shape == (2, 3, 1) and x.unflatten(-1, (-1, 3)).shape == (2, 1, 3)
    np.testing.assert_array_equal(to_np(dt.clamp(x, 0)), np.clip(a, 0, None))
    np.testing.assert_allclose(to_np(dt.sigmoid(x)), 1 / (1 + np.exp(-a)), rtol=1e-15)
    np.testing.assert_array_equal(to_np(dt.relu(x)), np.maximum(a, 0))
    np.testing.assert_allclose(to_np(dt.softmax(x, 1).sum(1)), [1.0, 1.0], rtol=1e-15)
    np.testing.assert_allclose(to_np(dt.log_softmax(x, 1)), to_np(x.log_softmax(1)), rtol=0)
    assert dt.unsqueeze(x, 0).shape == (1, 2, 3) and dt.flatten(x).shape == (6,) and dt.permute(x, (1, 0)).shape == (3, 2)
    np.testing.assert_array_equal(to_np(dt.div(x, 4, rounding_mode="trunc")), np.trunc(a / 4))
    np.testing.assert_array_equal(to_np(dt.mul(x, 2)), 2 * a)
    np.testing.assert_array_equal(to_np(dt.sub(x, 1, alpha=2)), a - 2)
    np.testing.assert_allclose(to_np(dt.rsqrt(dt.abs(x))), 1 / np.sqrt(np.abs(a)), rtol=1e-15)
    for name, op in (("eq", np.equal), ("ne", np.not_equal), ("gt", np.greater), ("ge", np.greater_equal),
                     ("lt", np.less), ("le", np.less_equal)):
        np.testing.assert_array_equal(to_np(getattr(dt, name)(x, 1.0)), op(a, 1.0))
    for like in (dt.rand_like, dt.randn_like):
        r = like(x.astype(dt.float32))
        assert r.shape == x.shape and r.dtype == dt.float32 and r.device == x.device
    for name in ("clamp", "sigmoid", "softmax", "unsqueeze", "eq", "rand_like"):  # PyTorch's TypeError
        args = {"softmax": (0,), "unsqueeze": (0,), "eq": (1.0,)}.get(name, ())
        with pytest.raises(TypeError, match=rf"{name}\(\): argument 'input' \(position 1\) must be Tensor, not list"):
            getattr(dt, name)([1.0], *args)


def test_in_place_methods_on_an_element_copy_warn(device):
    """t[i, j] is a copy of the element (NumPy's rule, Note [An element is a
    copy]), so PyTorch's v[0].zero_() cannot change v: PyTorch's in-place
    methods say so; views (t[i, ...], rows) and other 0-d results do not."""
    v = dt.ones(3, dtype=dt.float32, device=device)
    for call in (lambda: v[0].zero_(), lambda: v[1].add_(1), lambda: v[2].clamp_(max=0), lambda: v[0].exp_(),
                 lambda: v[0].fill_(2), lambda: v[0].copy_(dt.asarray(7.0)), lambda: v[1].mul_(3)):
        with pytest.warns(UserWarning, match=r"on t\[i, j\], which is a copy of one element"):
            call()
    assert to_np(v).tolist() == [1.0, 1.0, 1.0]
    m = dt.ones((2, 2), device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m[1, 1, ...].mul_(3)  # NumPy's 0-d view: written
        m[0].add_(1)  # a row: a view
        s = m.sum()
        s.add_(1)  # a reduction's own result
        x = m[0, 0]
        x += 1  # NumPy code: rebinding a scalar, no warning
    assert to_np(m).tolist() == [[2.0, 2.0], [1.0, 3.0]] and float(s) == 9.0


def reference_scatter_reduce(base, dim, index, src, reduce, include_self):
    """PyTorch's scatter_reduce from its definition, one element at a time."""
    out = base.copy()
    values = {}
    for pos in np.ndindex(*index.shape):
        target = pos[:dim] + (index[pos],) + pos[dim + 1:]
        values.setdefault(target, [base[target]] if include_self else []).append(src[pos])
    for target, vs in values.items():
        vs = np.array(vs, dtype=base.dtype)
        if reduce == "mean":
            out[target] = vs.sum() / len(vs) if base.dtype.kind == "f" else vs.sum() // len(vs)
        else:
            out[target] = {"sum": np.sum, "prod": np.prod, "amax": np.max, "amin": np.min}[reduce](vs)
    return out


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("dtype", ["float64", "int64"])
def test_scatter_reduce_against_its_definition(device, reduce, include_self, dtype):
    rng = np.random.default_rng(5)
    base = rng.integers(-5, 6, (4, 5)).astype(dtype)
    src = rng.integers(-5, 6, (3, 5)).astype(dtype)
    index = rng.integers(0, 4, (3, 4))  # repeats; src wider than index, and index narrower than base
    expected = reference_scatter_reduce(base, 0, index, src, reduce, include_self)
    t = dt.tensor(base, device=device)  # a copy: asarray would share base's memory on the CPU
    got = t.scatter_reduce(0, dt.asarray(index, device=device), dt.asarray(src, device=device), reduce,
                           include_self=include_self)
    assert got.dtype == t.dtype and got.device == t.device
    np.testing.assert_allclose(to_np(got), expected, rtol=1e-12)
    assert to_np(t).tolist() == base.tolist()  # the out-of-place form copies
    same = t.scatter_reduce_(0, dt.asarray(index, device=device), dt.asarray(src, device=device), reduce,
                             include_self=include_self)
    assert same is t and np.allclose(to_np(t), expected)
    along = dt.scatter_reduce(dt.asarray(base.T, device=device), 1, dt.asarray(index.T, device=device),
                              dt.asarray(src.T, device=device), reduce, include_self=include_self)
    np.testing.assert_allclose(to_np(along), expected.T, rtol=1e-12)


def test_scatter_reduce_keyword_and_masked_scatter(device):
    z = dt.zeros((2, 3), device=device)
    idx = dt.asarray([[0, 0], [2, 1]], device=device)
    assert z.scatter(1, idx, dt.ones((2, 2), device=device) * 2, reduce="add").tolist() == [[4, 0, 0], [0, 2, 2]]
    assert (z + 3).scatter(1, idx, 2.0, reduce="multiply").tolist() == [[12, 3, 3], [3, 6, 6]]
    nan = dt.asarray([1.0, 2.0], device=device).scatter_reduce(0, dt.asarray([0, 0, 1], device=device),
                                                                 dt.asarray([np.nan, 5.0, 0.0], device=device),
                                                                 "amax")
    assert np.isnan(to_np(nan)[0]) and to_np(nan)[1] == 2  # NaN propagates, as PyTorch's
    x = dt.zeros((2, 3), device=device)
    mask = dt.asarray([[True, False, True], [False, True, False]], device=device)
    source = dt.arange(10.0, device=device)
    assert x.masked_scatter(mask, source).tolist() == [[0, 0, 1], [0, 2, 0]] and not x.any()
    assert dt.masked_scatter(x, mask[0], source).tolist() == [[0, 0, 1], [2, 0, 3]]  # the mask broadcasts
    assert x.masked_scatter_(mask, source) is x and x.tolist() == [[0, 0, 1], [0, 2, 0]]
    with pytest.raises(RuntimeError, match="expected source to have at least as many elements as the mask's "
                                           r"True values \(3\), got 2"):
        x.masked_scatter(mask, source[:2])
    with pytest.raises(RuntimeError, match="expected self and source to have same dtypes"):
        x.masked_scatter(mask, source.long())
    with pytest.raises(RuntimeError, match="reduce argument must be either sum, prod, mean, amax or amin, got max"):
        x.scatter_reduce(0, idx, x, "max")
    with pytest.raises(RuntimeError, match="reduce argument must be either add or multiply, got sum"):
        x.scatter(1, idx, 1.0, reduce="sum")
    with pytest.raises(TypeError, match="argument 'src' must be Tensor, not float"):
        x.scatter_reduce(0, idx, 1.0, "sum")


def test_masked_fill_refuses_floats_an_integer_tensor_cannot_hold(device):
    m = dt.asarray([True, False, True], device=device)
    for value, error in ((float("nan"), ValueError), (float("inf"), OverflowError), (np.float64(-np.inf), OverflowError)):
        t = dt.arange(3, device=device)
        with pytest.raises(error):
            t.masked_fill(m, value)
        with pytest.raises(error):
            t.masked_fill_(m, value)
        assert t.tolist() == [0, 1, 2]  # nothing written
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        dt.arange(3, dtype=dt.int8, device=device).masked_fill(m, 3.9e9)
    assert dt.arange(3, dtype=dt.int8, device=device).masked_fill(m, 2.5).tolist() == [2, 1, 2]  # truncates
    assert dt.arange(3.0, device=device).masked_fill(m, float("nan")).isnan().tolist() == [True, False, True]
    assert dt.zeros(3, dtype=dt.bool, device=device).masked_fill(m, float("nan")).tolist() == [True, False, True]


def test_type_takes_tensor_type_names(device):
    x = dt.ones(2, dtype=dt.float32, device=device)
    assert x.type(x.type()) is x
    assert x.type("torch.LongTensor").dtype == dt.int64 and x.type("torch.LongTensor").device == dt.device("cpu")
    half = x.type("devtensor.HalfTensor")
    assert half.dtype == dt.float16 and half.device.type == "cpu"
    for bad in ("torch.FooTensor", "numpy.FloatTensor", "torch.cpu.FloatTensor"):
        with pytest.raises(ValueError, match=f"invalid type: '{bad}'"):
            x.type(bad)


@requires_devices(1)
def test_type_name_moves_to_cuda():
    x = dt.ones(2, dtype=dt.float32)
    moved = x.type("devtensor.cuda.DoubleTensor")
    assert moved.device == dt.device("cuda:0") and moved.dtype == dt.float64
    on = dt.ones(2, device="cuda:1") if len(CUDA_DEVICES) > 1 else dt.ones(2, device="cuda:0")
    assert on.type("torch.cuda.FloatTensor").device == on.device  # a CUDA tensor stays on its device


def test_data_is_a_view_and_only_parameters_replace_it(device):
    t = dt.arange(6.0, device=device).reshape(2, 3)
    d = t.data
    assert type(d) is dt.Tensor and d.shape == t.shape and d.device == t.device
    d[0, 0] = 9
    assert float(t[0, 0]) == 9
    with pytest.raises(TypeError, match="only the data of a Tensor subclass such as devtensor.nn.Parameter"):
        t.data = dt.ones(4, device=device)
    p = nn.Parameter(dt.ones(2, device=device))
    p.data = dt.zeros(3, device=device)
    assert p.shape == (3,) and not p.any()


def test_random_fills(device):
    dt.manual_seed(4)
    ints = dt.zeros(4000, dtype=dt.int64, device=device).random_(3)
    assert sorted(set(ints.tolist())) == [0, 1, 2]
    floats = dt.zeros(4000, device=device).random_(5, 7)
    assert sorted(set(floats.tolist())) == [5.0, 6.0]
    assert int(dt.zeros(1000, dtype=dt.uint8, device=device).random_().max()) > 200
    assert float(dt.zeros(1000, dtype=dt.float32, device=device).random_().max()) > 2 ** 23
    g = dt.Generator().manual_seed(1)
    a = dt.zeros(5, dtype=dt.int64, device=device).random_(0, 100, generator=g)
    g.manual_seed(1)
    assert a.tolist() == dt.zeros(5, dtype=dt.int64, device=device).random_(0, 100, generator=g).tolist()
    with pytest.raises(RuntimeError, match="random_ expects 'from' to be less than 'to'"):
        dt.zeros(2, device=device).random_(3, 3)
    b = dt.zeros(4000, device=device).bernoulli_(0.25)
    assert set(b.tolist()) == {0.0, 1.0} and 0.2 < float(b.mean()) < 0.3
    assert dt.zeros(3, dtype=dt.int64, device=device).bernoulli_(1.0).tolist() == [1, 1, 1]


def test_generator_keyword_on_factories_and_fills(device):
    g = dt.Generator().manual_seed(7)
    draws = [dt.rand(2, 3, generator=g, device=device), dt.randn((4,), generator=g, device=device),
             dt.randint(10, (5,), generator=g, device=device), dt.randint(3, 6, (5,), generator=g, device=device),
             dt.empty(3, device=device).normal_(generator=g), dt.empty(3, device=device).uniform_(2, 3, generator=g)]
    g.manual_seed(7)
    again = [dt.rand(2, 3, generator=g, device=device), dt.randn(4, generator=g, device=device),
             dt.randint(10, (5,), generator=g, device=device), dt.randint(3, 6, (5,), generator=g, device=device),
             dt.empty(3, device=device).normal_(generator=g), dt.empty(3, device=device).uniform_(2, 3, generator=g)]
    for a, b in zip(draws, again):
        assert a.device == dt.device(device) and a.tolist() == b.tolist()
    assert dt.rand(2, generator=g, dtype=dt.float16).dtype == dt.float16
    assert set(draws[3].tolist()) <= {3, 4, 5} and 2 <= float(draws[5].min()) and float(draws[5].max()) < 3
    with pytest.raises(TypeError, match="generator must be a devtensor.random.Generator"):
        dt.randn(2, generator=3)
    with pytest.raises(TypeError, match="generator must be a devtensor.random.Generator"):
        nn.init.normal_(dt.empty(2), generator="seed")


def test_pytorch_methods_over_numpy_functions(device):
    t = dt.asarray([[np.nan, np.inf, 1.0], [-np.inf, 2.0, 3.0]], device=device)
    assert t.nan_to_num(posinf=9.0, neginf=-9.0).tolist() == [[0, 9, 1], [-9, 2, 3]]
    assert t.clone().nan_to_num_(nan=1.0).isfinite().all()
    x = dt.asarray([1.0, 4.0, 9.0, 16.0], device=device)
    assert x.diff().tolist() == [3, 5, 7] and x.diff(n=2, prepend=dt.zeros(1, device=device)).tolist() == [2, 2, 2]
    assert x.outer(x[:2]).shape == (4, 2)
    a, b = dt.ones((2, 3), device=device), dt.arange(6.0, device=device).reshape(2, 3)
    assert a.cross(b).tolist() == np.cross(np.ones((2, 3)), np.arange(6.0).reshape(2, 3)).tolist()
    tall = np.arange(6.0).reshape(3, 2)
    assert a.T.cross(dt.asarray(tall, device=device)).tolist() == np.cross(np.ones((3, 2)), tall, axis=0).tolist()
    with pytest.raises(RuntimeError, match="no dimension of size 3"):
        dt.ones(2, device=device).cross(dt.ones(2, device=device))
    rows = np.arange(1.0, 4.0)[:, None] * np.ones((3, 4))  # row norms 2, 4, 6
    r = dt.asarray(rows, device=device).renorm(2, 0, 3.0)
    np.testing.assert_allclose(np.linalg.norm(to_np(r), axis=1), [2, 3, 3], rtol=1e-6)
    assert dt.asarray(rows, device=device).renorm_(1, 1, 100.0).tolist() == rows.tolist()
    z = dt.zeros(5, device=device)
    assert z.index_put_((dt.asarray([0, 0, 2], device=device),), dt.asarray(1.0, device=device),
                        accumulate=True) is z and z.tolist() == [2, 0, 1, 0, 0]
    assert z.index_put((dt.asarray([4], device=device),), dt.asarray([7.0], device=device)).tolist()[4] == 7
    assert z.put_(dt.asarray([1, 1, -1], device=device), dt.asarray([5.0, 6.0, 7.0], device=device),
                  accumulate=True).tolist() == [2, 11, 1, 0, 7]
    grid = dt.zeros((2, 2), device=device).put_(dt.asarray([3, 0], device=device), dt.asarray([1.0, 2.0], device=device))
    assert grid.tolist() == [[2, 0], [0, 1]]
    with pytest.raises(IndexError, match="put_\\(\\): index out of range for a tensor of 4 elements"):
        grid.put_(dt.asarray([4], device=device), dt.asarray([1.0], device=device))
    squares = dt.arange(4.0).apply_(lambda v: v * v)
    assert squares.tolist() == [0, 1, 4, 9]
    if device != "cpu":
        with pytest.raises(TypeError, match="apply_ is only implemented on CPU tensors"):
            dt.zeros(2, device=device).apply_(abs)


def test_round_eleven_method_checks(device):
    with pytest.raises(RuntimeError, match="random_: \\[0, 100000\\) is out of bounds for float16"):
        dt.empty(4, dtype=dt.float16, device=device).random_(100000)
    assert int(dt.zeros(200, dtype=dt.int8, device=device).random_(100, None).min()) >= 100  # from 100 to the max
    for call, words in ((lambda: dt.ones((2, 3), device=device).renorm(0, 0, 1.0), "non-positive norm"),
                        (lambda: dt.ones((2, 3), device=device).renorm(2, 0, -1.0), "expected maxnorm to be >= 0"),
                        (lambda: dt.asarray([3, 4], device=device).renorm(2, 0, 1), "floating point or complex")):
        with pytest.raises(RuntimeError, match=words):
            call()
    with pytest.raises(ValueError, match="invalid type: 'torch.float32'"):
        dt.ones(2, device=device).type("torch.float32")
    assert dt.ones(2, device=device).type("float32").dtype == dt.float32


@requires_devices(1)
def test_index_put_and_put_take_values_on_the_tensors_device():
    z = dt.zeros(4, device="cuda:0")
    z.index_put_((dt.asarray([0, 1]),), dt.asarray(2.0))  # CPU indices and a 0-d CPU value are fine
    z.index_put_((dt.asarray([0, 0]),), dt.asarray([1.0, 1.0], device="cuda:0"), accumulate=True)
    assert z.tolist() == [4, 2, 0, 0]
    same = "Expected all tensors to be on the same device"
    with pytest.raises(RuntimeError, match=same):
        z.index_put_((dt.asarray([0]),), dt.asarray([5.0]))
    with pytest.raises(RuntimeError, match=same):
        z.put_(dt.asarray([0]), dt.asarray([1.0], device="cuda:0"))
    with pytest.raises(RuntimeError, match=same):
        z.put_(dt.asarray([0], device="cuda:0"), dt.asarray([1.0]))
    assert z.tolist() == [4, 2, 0, 0]
    g = dt.Generator(device="cuda:0")  # the draws go to the default device, not the generator's
    assert dt.rand(3, generator=g).device == dt.device("cpu") == dt.randint(5, (2,), generator=g).device
    assert dt.randn(2, generator=g, device="cuda:0").device == dt.device("cuda:0")
