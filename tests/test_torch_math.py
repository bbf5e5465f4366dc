"""PyTorch's numerical and shaping functions NumPy has no name for
(devtensor/_torch_math.py, _torch_shapes.py, the index_* family of
_torch_selection.py), on every device, against NumPy computations of
PyTorch's documented formulas."""
import itertools

import numpy as np
import pytest

import devtensor as dt
from helpers import to_np

RNG = np.random.default_rng(5)
X = RNG.standard_normal((3, 4))


def close(t, expected, device, rtol=1e-12, atol=1e-12):
    assert isinstance(t, dt.Tensor) and t.device == dt.device(device)
    np.testing.assert_allclose(to_np(t), expected, rtol=rtol, atol=atol)


def test_std_mean_and_var_mean_divide_by_n_minus_correction(device):
    x = dt.asarray(X, device=device)
    s, m = dt.std_mean(x)
    close(s, X.std(ddof=1), device)
    close(m, X.mean(), device)
    v, m = dt.var_mean(x, 1)
    close(v, X.var(axis=1, ddof=1), device)
    close(m, X.mean(axis=1), device)
    v, m = dt.var_mean(x, dim=(0, 1), correction=0, keepdim=True)
    close(v, X.var(keepdims=True), device)
    assert m.shape == (1, 1)
    close(dt.std_mean(x, False)[0], X.std(), device)  # the old (input, unbiased) form
    close(dt.var_mean(x, [0], False, True)[0], X.var(axis=0, keepdims=True), device)


def test_std_mean_refuses_integers_and_both_corrections():
    with pytest.raises(RuntimeError, match="floating point or complex dtype. Got: int64"):
        dt.std_mean(dt.arange(4))
    with pytest.raises(RuntimeError, match="cannot specify both unbiased and correction"):
        dt.var_mean(dt.ones(3), unbiased=True, correction=0)
    with pytest.raises(TypeError, match="argument 'input'"):
        dt.var_mean([1.0, 2.0])


def test_aminmax(device):
    x = dt.asarray(X, device=device)
    r = dt.aminmax(x)
    assert type(r).__name__ == "aminmax" and r._fields == ("min", "max")
    close(r.min, X.min(), device)
    close(r.max, X.max(), device)
    r = x.aminmax(dim=1, keepdim=True)
    close(r.max, X.max(axis=1, keepdims=True), device)
    nan = dt.asarray([1.0, float("nan"), 3.0], device=device)
    assert np.isnan(to_np(dt.aminmax(nan).min)) and np.isnan(to_np(dt.aminmax(nan).max))
    with pytest.raises(RuntimeError, match="empty dimension"):
        dt.aminmax(dt.zeros(0, device=device))
    with pytest.raises(RuntimeError, match="Expected reduction dim 1 to have non-zero size"):
        dt.aminmax(dt.zeros((2, 0), device=device), dim=1)


def test_histc(device):
    x = dt.asarray([1.0, 2.0, 1.0, 7.0, -1.0], device=device)
    close(dt.histc(x, bins=4, min=0, max=3), [0.0, 2.0, 1.0, 0.0], device)  # 7 and -1 ignored
    h = dt.histc(x, bins=4)  # the data's own range, [-1, 7]
    close(h, np.histogram(to_np(x), 4, range=(-1, 7))[0], device)
    assert h.dtype == dt.float64 and dt.histc(x.astype(dt.float32)).dtype == dt.float32
    assert dt.histc(dt.asarray([2, 2], device=device), bins=2).dtype == dt.float32
    close(dt.histc(dt.asarray([2.0, 2.0], device=device), bins=2), [0.0, 2.0], device)  # range [1, 3]
    with pytest.raises(RuntimeError, match="bins must be > 0"):
        dt.histc(x, bins=0)
    with pytest.raises(RuntimeError, match="max must be larger than min"):
        dt.histc(x, min=3, max=1)
    with pytest.raises(RuntimeError, match="not finite"):
        dt.histc(dt.asarray([1.0, float("nan")], device=device))


def test_bucketize_and_searchsorted_keywords(device):
    b = dt.asarray([1, 3, 5, 7, 9], device=device)
    v = dt.asarray([[3, 6, 9], [0, 10, 1]], device=device)
    close(dt.bucketize(v, b), np.searchsorted(to_np(b), to_np(v), "left"), device)
    close(dt.bucketize(v, b, right=True), np.searchsorted(to_np(b), to_np(v), "right"), device)
    assert dt.bucketize(v, b, out_int32=True).dtype == dt.int32
    assert int(dt.bucketize(4, b)) == 2
    assert dt.searchsorted(b, v, right=True).tolist() == [[2, 3, 5], [0, 5, 1]]
    assert dt.searchsorted(b, v, out_int32=True).dtype == dt.int32
    with pytest.raises(RuntimeError, match="can't be set to opposites"):
        dt.searchsorted(b, v, side="right", right=False)
    with pytest.raises(RuntimeError, match="boundaries tensor must be 1 dimension, but got dim\\(2\\)"):
        dt.bucketize(v, v)


def test_fused_products(device):
    a, b, c = RNG.standard_normal((2, 3)), RNG.standard_normal((3, 4)), RNG.standard_normal((2, 4))
    A, B, C = (dt.asarray(m, device=device) for m in (a, b, c))
    close(dt.addmm(C, A, B), c + a @ b, device)
    close(dt.addmm(C, A, B, beta=0.5, alpha=2), 0.5 * c + 2 * (a @ b), device)
    close(C.addmm(A, B, beta=2), 2 * c + a @ b, device)
    nan = dt.full((2, 4), float("nan"), device=device)
    close(dt.addmm(nan, A, B, beta=0), a @ b, device)  # beta=0 ignores input, NaN too
    close(dt.addmm(dt.asarray(c[0], device=device), A, B), c[0] + a @ b, device)  # input broadcasts
    b1, b2 = RNG.standard_normal((5, 2, 3)), RNG.standard_normal((5, 3, 4))
    B1, B2 = dt.asarray(b1, device=device), dt.asarray(b2, device=device)
    close(dt.addbmm(C, B1, B2), c + (b1 @ b2).sum(0), device)
    close(dt.baddbmm(dt.asarray(b1 @ b2, device=device), B1, B2, alpha=-1), np.zeros((5, 2, 4)), device)
    v = RNG.standard_normal(3)
    close(dt.addmv(dt.zeros(2, device=device), A, dt.asarray(v, device=device), alpha=3), 3 * (a @ v), device)
    close(dt.addr(C, dt.asarray(c[:, 0], device=device), dt.asarray(c[0], device=device)),
          c + np.outer(c[:, 0], c[0]), device)
    t = C.copy()
    assert t.addmm_(A, B) is t
    close(t, c + a @ b, device)


def test_fused_products_refuse_bad_shapes(device):
    m = dt.ones((2, 3), device=device)
    with pytest.raises(RuntimeError, match="mat1 must be a matrix, got 1-D tensor"):
        dt.addmm(m, dt.ones(3, device=device), m)
    with pytest.raises(RuntimeError, match="expanded size"):
        dt.addmm(dt.ones((3, 3), device=device), m, dt.ones((3, 3), device=device))
    with pytest.raises(RuntimeError, match="batch2"):
        dt.addbmm(m, dt.ones((2, 2, 3), device=device), dt.ones((3, 3, 3), device=device))
    with pytest.raises(RuntimeError, match="must not be a floating point number"):
        dt.addmm(dt.ones((2, 2), dtype=dt.int64, device=device), dt.ones((2, 2), dtype=dt.int64, device=device),
                 dt.ones((2, 2), dtype=dt.int64, device=device), alpha=0.5)


def test_pointwise_forms(device):
    x = dt.asarray([0.2, 0.5, 0.9], device=device)
    e = dt.asarray([1.0, 2.0, 3.0], device=device)
    close(dt.lerp(x, e, 0.25), [0.4, 0.875, 1.425], device)
    close(dt.addcmul(x, e, e, value=0.5), to_np(x) + 0.5 * to_np(e) ** 2, device)
    close(dt.addcdiv(x, e, e), to_np(x) + 1, device)
    close(dt.logit(x), np.log([0.2 / 0.8, 1.0, 0.9 / 0.1]), device)
    close(dt.logit(dt.asarray([0.0, 1.0], device=device), eps=0.25), [np.log(1 / 3), np.log(3)], device)
    close(dt.frac(dt.asarray([-1.5, 2.25], device=device)), [-0.5, 0.25], device)
    close(dt.clamp_min(e, 2), [2.0, 2.0, 3.0], device)
    close(dt.clamp_max(e, 2), [1.0, 2.0, 2.0], device)
    assert dt.logit(dt.asarray([1, 0], device=device)).dtype == dt.float32


def test_xlogy(device):
    x = dt.asarray([0.0, 0.0, 1.0, 2.0, float("nan")], device=device)
    y = dt.asarray([0.0, float("nan"), 2.0, float("inf"), 1.0], device=device)
    r = to_np(dt.xlogy(x, y))
    assert r[0] == 0 and np.isnan(r[1]) and r[2] == np.log(2.0) and r[3] == np.inf and np.isnan(r[4])
    assert dt.xlogy(dt.asarray([0, 3], device=device), 3).dtype == dt.float32
    close(dt.xlogy(2.0, dt.asarray([1.0, np.e], device=device)), [0.0, 2.0], device)
    with pytest.raises(TypeError, match="expected a tensor"):
        dt.xlogy(1.0, 2.0)


@pytest.mark.parametrize("p", [0, 1, 2, 3.5, float("inf")])
def test_cdist(device, p):
    a, b = RNG.standard_normal((2, 6, 3)), RNG.standard_normal((2, 5, 3))
    a[0, 0] = b[0, 0]  # one distance of exactly zero
    diff = np.abs(a[:, :, None] - b[:, None])
    expected = {0: (diff != 0).sum(-1), float("inf"): diff.max(-1)}.get(p)
    if expected is None:
        expected = (diff ** p).sum(-1) ** (1 / p)
    r = dt.cdist(dt.asarray(a, device=device), dt.asarray(b, device=device), p=p)
    close(r, expected, device, rtol=1e-12, atol=1e-15)
    if p == 2:
        assert float(r[0, 0, 0]) == 0.0
        big_a, big_b = RNG.standard_normal((30, 3)), RNG.standard_normal((4, 3))  # the matrix-product form
        r = dt.cdist(dt.asarray(big_a, device=device), dt.asarray(big_b, device=device))
        close(r, np.sqrt(((big_a[:, None] - big_b[None]) ** 2).sum(-1)), device, rtol=1e-10, atol=1e-12)


def test_cdist_refusals():
    m = dt.ones((2, 3))
    with pytest.raises(RuntimeError, match="same number of columns. X1: 3 X2: 2"):
        dt.cdist(m, dt.ones((2, 2)))
    with pytest.raises(RuntimeError, match="floating-point dtypes, X1 got: int64"):
        dt.cdist(dt.ones((2, 3), dtype=dt.int64), m)
    with pytest.raises(RuntimeError, match="non-negative p"):
        dt.cdist(m, m, p=-1)
    with pytest.raises(RuntimeError, match="at least 2D"):
        dt.cdist(dt.ones(3), m)
    with pytest.raises(RuntimeError, match="not a valid value for compute_mode"):
        dt.cdist(m, m, compute_mode="fast")


def test_multinomial_without_replacement(device):
    w = dt.asarray([[0.0, 1.0, 3.0, 0.0], [1.0, 1.0, 0.0, 0.0]], device=device)
    dt.manual_seed(3)
    for _ in range(20):
        s = dt.multinomial(w, 2)
        assert s.shape == (2, 2) and s.dtype == dt.int64 and s.device == dt.device(device)
        rows = to_np(s).tolist()
        assert sorted(rows[0]) == [1, 2] and sorted(rows[1]) == [0, 1]  # distinct, never weight 0
    first = [int(dt.multinomial(w[0], 1)[0]) for _ in range(400)]
    assert 0.65 < first.count(2) / 400 < 0.85  # P = 3/4


def test_multinomial_with_replacement(device):
    w = dt.asarray([0.0, 1.0, 3.0, 0.0, 0.0], device=device)
    dt.manual_seed(4)
    s = to_np(w.multinomial(4000, replacement=True))
    counts = np.bincount(s, minlength=5)
    assert counts[0] == counts[3] == counts[4] == 0
    assert abs(counts[2] / 4000 - 0.75) < 0.03
    g = dt.random.default_rng(1)
    a = dt.multinomial(w, 5, True, generator=g)
    b = dt.multinomial(w, 5, True, generator=dt.random.default_rng(1))
    assert a.tolist() == b.tolist()


def test_multinomial_refusals():
    with pytest.raises(RuntimeError, match="cannot sample n_sample > prob_dist.size\\(-1\\)"):
        dt.multinomial(dt.ones(3), 4)
    with pytest.raises(RuntimeError, match="not enough non-negative category"):
        dt.multinomial(dt.asarray([1.0, 0.0, 0.0]), 2)
    with pytest.raises(RuntimeError, match="element < 0"):
        dt.multinomial(dt.asarray([1.0, -1.0]), 1)
    with pytest.raises(RuntimeError, match="sum of probabilities <= 0"):
        dt.multinomial(dt.zeros(3), 1, True)
    with pytest.raises(RuntimeError, match="prob_dist must be 1 or 2 dim"):
        dt.multinomial(dt.ones((2, 2, 2)), 1)
    with pytest.raises(RuntimeError, match="floating-point dtypes for input, got: int64"):
        dt.multinomial(dt.ones(3, dtype=dt.int64), 1)
    with pytest.raises(RuntimeError, match="n_sample <= 0"):
        dt.multinomial(dt.ones(3), 0)


def test_tensor_split_and_broadcast_tensors(device):
    x = dt.arange(7, device=device)
    assert [p.tolist() for p in dt.tensor_split(x, 3)] == [[0, 1, 2], [3, 4], [5, 6]]
    assert [p.tolist() for p in dt.tensor_split(x, [1, 5, 9])] == [[0], [1, 2, 3, 4], [5, 6], []]
    assert [p.tolist() for p in x.tensor_split(dt.asarray([2]))] == [[0, 1], [2, 3, 4, 5, 6]]
    assert [p.shape for p in dt.tensor_split(dt.ones((2, 5), device=device), dt.asarray(2), dim=1)] == \
        [(2, 3), (2, 2)]
    parts = dt.tensor_split(x, 2)
    assert isinstance(parts, tuple) and dt.shares_memory(parts[1], x)
    with pytest.raises(RuntimeError, match="number of sections must be larger than 0, got 0"):
        dt.tensor_split(x, 0)
    with pytest.raises(RuntimeError, match="at least a 1-dimensional"):
        dt.tensor_split(dt.asarray(1), 1)
    a, b = dt.broadcast_tensors(dt.ones((2, 1), device=device), dt.arange(3, device=device))
    assert a.shape == b.shape == (2, 3) and b.tolist() == [[0, 1, 2]] * 2


def test_cartesian_prod_and_combinations(device):
    a, b = dt.asarray([1, 2], device=device), dt.asarray([3, 4, 5], device=device)
    assert dt.cartesian_prod(a, b).tolist() == [list(p) for p in itertools.product([1, 2], [3, 4, 5])]
    assert dt.cartesian_prod(a) is a
    c = dt.asarray([1, 2, 3, 4], device=device)
    assert dt.combinations(c, 3).tolist() == [list(p) for p in itertools.combinations([1, 2, 3, 4], 3)]
    r = dt.combinations(c, 2, with_replacement=True)
    assert r.device == dt.device(device) and r.tolist() == \
        [list(p) for p in itertools.combinations_with_replacement([1, 2, 3, 4], 2)]
    assert dt.combinations(c, 0).shape == (0,) and dt.combinations(c, 5).shape == (0, 5)
    with pytest.raises(RuntimeError, match="Expect a 1D vector, but got shape \\[2, 2\\]"):
        dt.cartesian_prod(dt.ones((2, 2)))


def test_block_diag_and_diag_embed(device):
    r = dt.block_diag(dt.ones((2, 2), device=device), dt.asarray([5, 6], device=device),
                      dt.asarray(7.0, device=device))
    expected = np.zeros((4, 5))
    expected[:2, :2] = 1
    expected[2, 2:4] = [5, 6]
    expected[3, 4] = 7
    close(r, expected, device)
    assert r.dtype == dt.float64 and dt.block_diag().shape == (1, 0)
    with pytest.raises(RuntimeError, match="Input 0 has 3 dimensions"):
        dt.block_diag(dt.ones((1, 1, 1)))
    x = RNG.standard_normal((2, 3))
    e = dt.diag_embed(dt.asarray(x, device=device))
    close(e, np.stack([np.diag(r) for r in x]), device)
    e = dt.diag_embed(dt.asarray(x, device=device), offset=-1, dim1=0, dim2=2)
    assert e.shape == (4, 2, 4)
    close(dt.moveaxis(e, 1, 0), np.stack([np.diag(r, -1) for r in x]), device)
    with pytest.raises(RuntimeError, match="diagonal dimensions cannot be identical"):
        dt.diag_embed(dt.ones(2), dim1=1, dim2=-1)


def test_unfold_h_mh_and_counts(device):
    x = dt.arange(7, device=device)
    u = x.unfold(0, 3, 2)
    assert u.tolist() == [[0, 1, 2], [2, 3, 4], [4, 5, 6]] and dt.shares_memory(u, x)
    m = dt.asarray(X, device=device)
    assert to_np(m.unfold(1, 2, 1)).tolist() == \
        np.lib.stride_tricks.sliding_window_view(X, 2, axis=1).tolist()
    with pytest.raises(RuntimeError, match="maximum size for tensor at dimension 0 is 7 but size is 8"):
        x.unfold(0, 8, 1)
    with pytest.raises(RuntimeError, match="step is 0 but must be > 0"):
        x.unfold(0, 2, 0)
    z = dt.asarray(X + 1j * X[::-1], device=device)
    close(z.H, (X + 1j * X[::-1]).conj().T, device)
    close(dt.stack([z, z]).mH, np.stack([(X + 1j * X[::-1]).conj().T] * 2), device)
    assert m.H.shape == (4, 3)
    with pytest.raises(RuntimeError, match="tensor.H is only supported on matrices"):
        x.H
    with pytest.raises(RuntimeError, match="tensor.mH is only supported on matrices or batches"):
        x.mH
    assert m.ndimension() == 2 and m.nelement() == 12


def test_index_add_copy_fill(device):
    z = dt.zeros((3, 2), device=device)
    idx = dt.asarray([0, 0, 2], device=device)
    assert z.index_add_(0, idx, dt.ones((3, 2), device=device), alpha=2) is z
    assert z.tolist() == [[4.0, 4.0], [0.0, 0.0], [2.0, 2.0]]  # the repeat at 0 adds twice
    assert dt.index_fill(z, 1, dt.asarray([1], device=device), -1).tolist() == [[4, -1], [0, -1], [2, -1]]
    r = dt.index_copy(z, 0, dt.asarray([1], device=device), dt.full((1, 2), 9.0, device=device))
    assert r.tolist() == [[4, 4], [9, 9], [2, 2]] and z.tolist()[1] == [0, 0]
    assert dt.index_add(dt.zeros(3, device=device), 0, dt.asarray([1], device=device),
                        dt.asarray([5.0], device=device)).tolist() == [0, 5, 0]
    s = dt.asarray(0.0, device=device)
    s.index_fill_(0, dt.asarray([0], device=device), 3)
    assert float(s) == 3.0
    with pytest.raises(RuntimeError, match="source tensor shape \\[2, 2\\] must match"):
        z.index_add_(0, idx, dt.ones((2, 2), device=device))
    with pytest.raises(IndexError, match="Index is supposed to be a vector"):
        z.index_fill_(0, dt.zeros((1, 1), dtype=dt.int64, device=device), 1)
    with pytest.raises(TypeError, match="Expected an integer index tensor"):
        z.index_fill_(0, dt.zeros(1, device=device), 1)
    with pytest.raises(RuntimeError, match="0-dimensional value tensor"):
        z.index_fill_(0, idx, dt.ones(2, device=device))


def test_functional_scatter_and_repeat_interleave(device):
    z = dt.zeros((2, 3), device=device)
    i = dt.asarray([[0, 1, 0]], device=device)
    src = dt.asarray([[1.0, 2.0, 3.0]], device=device)
    assert dt.scatter(z, 0, i, src).tolist() == [[1, 0, 3], [0, 2, 0]] and float(z.sum()) == 0
    assert dt.scatter_add(z, 1, dt.asarray([[0, 0, 2]], device=device), src).tolist() == [[3, 0, 3], [0, 0, 0]]
    assert dt.repeat_interleave(dt.asarray([1, 0, 2], device=device)).tolist() == [0, 2, 2]
    assert dt.repeat_interleave(dt.asarray([[1, 2]], device=device), 2, dim=1).tolist() == [[1, 1, 2, 2]]
    assert dt.unflatten(dt.arange(6, device=device), 0, (2, -1)).shape == (2, 3)


def test_nonzero_as_tuple(device):
    t = dt.asarray([[0, 1], [2, 0]], device=device)
    assert dt.nonzero(t, as_tuple=False).tolist() == [[0, 1], [1, 0]]
    assert t.nonzero(as_tuple=False).tolist() == [[0, 1], [1, 0]]
    assert [a.tolist() for a in t.nonzero()] == [[0, 1], [1, 0]]  # NumPy's default: a tuple


def test_in_place_forms(device):
    t = dt.asarray([1.0, 2.0, 3.0], device=device)
    assert t.pow_(2) is t and t.tolist() == [1, 4, 9]
    t.lerp_(dt.zeros(3, device=device), 0.5)
    t.addcdiv_(t, dt.full(3, 2.0, device=device), value=2)
    t.clamp_max_(8)
    t.clamp_min_(2)
    assert t.tolist() == [2.0, 4.0, 8.0]
    i = dt.arange(3, device=device)
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type int64"):
        i.pow_(0.5)
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        t.addcmul_(dt.ones((2, 3), device=device), dt.ones(3, device=device))
    assert t.tolist() == [2.0, 4.0, 8.0]  # nothing written


def test_median_with_dim_is_pytorchs(device):
    x = dt.asarray([[1.0, 5.0, 3.0, 2.0], [4.0, float("nan"), 0.0, 1.0]], device=device)
    r = dt.median(x, dim=1)
    assert type(r).__name__ == "median" and to_np(r.values)[0] == 2.0 and int(r.indices[0]) == 3  # lower middle
    assert np.isnan(to_np(r.values)[1]) and int(r.indices[1]) == 1  # NaN wins, at its place
    r = dt.nanmedian(x, dim=1, keepdim=True)
    assert r.values.shape == (2, 1) and to_np(r.values).ravel().tolist() == [2.0, 1.0]
    assert int(r.indices[1, 0]) == 3
    assert float(x[:1].median()) == 2.0 and float(dt.median(x[:1])) == 2.5  # method PyTorch's, function NumPy's
    v = dt.asarray([3, 1, 2, 2], device=device)
    assert v.median(0).values.tolist() == 2 and v.median(0).indices.tolist() in (2, 3)
    assert float(dt.asarray([float("nan")] * 3, device=device).nanmedian()) != 0  # NaN: nothing to take
    with pytest.raises(IndexError, match="Expected reduction dim 1 to have non-zero size"):
        dt.median(dt.zeros((2, 0), device=device), dim=1)


def test_mode(device):
    x = dt.asarray([[1.0, 5, 3, 3, 9, 1], [2, 2, 7, 7, 7, 0]], device=device)
    r = dt.mode(x)
    assert r.values.tolist() == [1.0, 7.0] and r.indices.tolist() == [5, 4]
    r = x.mode(0, keepdim=True)
    assert r.values.tolist() == [[1, 2, 3, 3, 7, 0]] and r.indices.tolist() == [[0, 1, 0, 0, 1, 1]]
    big = RNG.integers(0, 5, (7, 50))
    r = dt.mode(dt.asarray(big, device=device), 1)
    for row, value, index in zip(big, to_np(r.values), to_np(r.indices)):
        counts = np.bincount(row, minlength=5)
        assert value == np.argmax(counts) and row[index] == value and index == np.flatnonzero(row == value)[-1]


def test_pytorch_keywords_on_numpy_names(device):
    a = RNG.standard_normal((3, 5))
    x = dt.asarray(a, device=device)
    close(dt.quantile(x, 0.3, dim=1, keepdim=True), np.quantile(a, 0.3, axis=1, keepdims=True), device)
    close(x.quantile(0.3, dim=0, interpolation="lower"), np.quantile(a, 0.3, axis=0, method="lower"), device)
    close(x.nanquantile(dt.asarray([0.1, 0.9], device=device)), np.quantile(a, [0.1, 0.9]), device)
    close(dt.linalg.vector_norm(x, dim=1, keepdim=True), np.linalg.norm(a, axis=1, keepdims=True), device)
    close(dt.linalg.vector_norm(x, ord=1, dim=(0, 1)), np.abs(a).sum(), device)
    close(dt.linalg.norm(x, dim=0), np.linalg.norm(a, axis=0), device)
    close(dt.linalg.matrix_norm(x[None], dim=(1, 2), keepdim=True), np.linalg.norm(a, keepdims=True)[None], device)
    assert dt.unique(dt.asarray([[1, 2], [1, 2], [0, 1]], device=device), dim=0).tolist() == [[0, 1], [1, 2]]
    vals, counts = dt.asarray([3, 1, 3], device=device).unique(return_counts=True)
    assert vals.tolist() == [1, 3] and counts.tolist() == [1, 2]
    close(dt.diff(x, dim=0, prepend=None), np.diff(a, axis=0), device)
    close(dt.trapezoid(x, dim=0), np.trapezoid(a, axis=0), device)
    assert [p.shape for p in dt.split(x, [1, 4], dim=1)] == [(3, 1), (3, 4)]  # sizes, PyTorch's meaning
    assert [p.shape for p in dt.split(x, 2, dim=1)] == [(3, 2), (3, 2), (3, 1)]
    close(dt.tensordot(x, x, dims=([1], [1])), a @ a.T, device)
    close(x.diagonal(dim1=1, dim2=0), np.diagonal(a, 0, 1, 0), device)
    close(dt.fft.fft(x, dim=0), np.fft.fft(a, axis=0), device, rtol=1e-12, atol=1e-12)
    close(dt.fft.rfftn(x, dim=(0, 1)), np.fft.rfftn(a, axes=(0, 1)), device, rtol=1e-12, atol=1e-12)
    with pytest.raises(TypeError, match="got both axis and dim"):
        dt.quantile(x, 0.5, axis=0, dim=1)


def test_pytorch_top_level_aliases(device):
    a = RNG.standard_normal((3, 4))
    x = dt.asarray(a, device=device)
    c = dt.clone(x)
    assert not dt.shares_memory(c, x) and c.tolist() == x.tolist()
    assert dt.t(x).shape == (4, 3) and dt.swapdims(x, 0, 1).shape == (4, 3) and x.swapdims(1, 0).shape == (4, 3)
    assert x.moveaxis(0, -1).shape == (4, 3)
    z = dt.asarray([3 + 4j, 0, -2j], device=device)
    close(dt.sgn(z), [0.6 + 0.8j, 0, -1j], device)
    close(dt.sgn(x), np.sign(a), device)
    i = dt.asarray([[0], [3], [1]], device=device)
    close(dt.take_along_dim(x, i, dim=1), np.take_along_axis(a, to_np(i), 1), device)
    close(dt.take_along_dim(x, dt.asarray([0, 11], device=device)), a.ravel()[[0, 11]], device)
    close(dt.msort(x), np.sort(a, axis=0), device)
    assert dt.is_nonzero(dt.asarray([2], device=device)) and not dt.is_nonzero(dt.asarray(0.0, device=device))
    with pytest.raises(RuntimeError, match="more than one value is ambiguous"):
        dt.is_nonzero(x)
    assert dt.is_same_size(x, x) and not dt.is_same_size(x, x.T)
    close(dt.logcumsumexp(dt.asarray([-1000.0, 0.0, 1.0], device=device), 0),
          [-1000.0, np.logaddexp(-1000, 0), np.logaddexp(0, 1)], device)
    close(x.logcumsumexp(1), np.logaddexp.accumulate(a, axis=1), device)
    assert x.floor_divide(2).tolist() == np.floor_divide(a, 2).tolist()
    assert x.true_divide(2).tolist() == (a / 2).tolist()
    assert dt.arange(3, device=device).bitwise_not().tolist() == [-1, -2, -3]
    assert x.equal(x.clone()) is True and x.equal(x[:2]) is False


def test_pytorch_linear_algebra_names(device):
    m = RNG.standard_normal((3, 3))
    spd = m @ m.T + 3 * np.eye(3)
    A = dt.asarray(spd, device=device)
    close(dt.det(A), np.linalg.det(spd), device, rtol=1e-10)
    close(A.inverse(), np.linalg.inv(spd), device, rtol=1e-10, atol=1e-12)
    close(dt.logdet(A), np.log(np.linalg.det(spd)), device, rtol=1e-10)
    neg = dt.asarray(np.diag([-1.0, 2.0]), device=device)
    assert np.isnan(to_np(dt.logdet(neg))) and np.isneginf(to_np(dt.logdet(dt.zeros((2, 2), device=device))))
    L = np.linalg.cholesky(spd)
    close(dt.cholesky(A), L, device, rtol=1e-10, atol=1e-12)
    close(dt.cholesky(A, upper=True), L.T, device, rtol=1e-10, atol=1e-12)
    close(dt.pinverse(A), np.linalg.pinv(spd), device, rtol=1e-9, atol=1e-12)
    r = RNG.standard_normal((4, 2))
    U, S, V = dt.svd(dt.asarray(r, device=device))
    assert U.shape == (4, 2) and V.shape == (2, 2)
    close(U @ (S[:, None] * V.T), r, device, rtol=1e-10, atol=1e-12)  # V, not V^H
    U, S, V = dt.svd(dt.asarray(r, device=device), some=False)
    assert U.shape == (4, 4)
    assert float(dt.abs(dt.svd(dt.asarray(r, device=device), compute_uv=False).U).max()) == 0


def test_pytorch_random_forms(device):
    dt.manual_seed(2)
    n = dt.normal(2.0, 3.0, (4000,))
    assert n.dtype == dt.float64 == dt.randn(2).dtype and dt.normal(0.0, 1.0, (2,), dtype=dt.float32).dtype == dt.float32
    assert abs(float(n.mean()) - 2) < 0.2 and abs(float(n.std()) - 3) < 0.2
    m = dt.normal(dt.zeros(3, device=device), dt.asarray([1.0, 0.0, 2.0], device=device))
    assert m.device == dt.device(device) and float(m[1]) == 0.0
    b = dt.bernoulli(dt.asarray([0.0, 1.0] * 50, device=device))
    assert b.tolist() == [0.0, 1.0] * 50 and b.device == dt.device(device)
    assert 300 < int(dt.bernoulli(dt.zeros(1000, device=device), p=0.4).sum()) < 500
    p = dt.poisson(dt.full((2000,), 4.0, device=device))
    assert p.dtype == dt.float64 and abs(float(p.mean()) - 4) < 0.3
    r = dt.randint_like(dt.zeros((50,), dtype=dt.int32, device=device), 3, 6)
    assert r.dtype == dt.int32 and int(r.min()) >= 3 and int(r.max()) <= 5
    with pytest.raises(RuntimeError, match="normal expects std >= 0.0"):
        dt.normal(0.0, -1.0, (2,))
    with pytest.raises(RuntimeError, match="Expected p_in >= 0 && p_in <= 1"):
        dt.bernoulli(dt.asarray([1.5], device=device))
    with pytest.raises(RuntimeError, match="expected rate to be non-negative"):
        dt.poisson(dt.asarray([-1.0], device=device))


def test_meshgrid_and_triangle_indices_in_pytorchs_forms(device):
    a, b = dt.arange(2, device=device), dt.arange(3, device=device)
    x, y = dt.meshgrid([a, b])  # PyTorch's form: one list, 'ij' by default
    assert x.shape == (2, 3) and x.tolist() == [[0, 0, 0], [1, 1, 1]]
    assert dt.meshgrid((a, b), indexing="xy")[0].shape == (3, 2)
    assert dt.meshgrid(a, b)[0].shape == (3, 2)  # NumPy's form keeps NumPy's 'xy'
    r = dt.triu_indices(3, 3, offset=1, device=device)
    assert r.tolist() == [[0, 0, 1], [1, 2, 2]] and r.device == dt.device(device) and r.dtype == dt.int64
    assert dt.tril_indices(3, 4, offset=-1, dtype=dt.int32).tolist() == [[1, 2, 2], [0, 0, 1]]
    assert dt.tril_indices(3, 4, offset=-1, dtype=dt.int32).dtype == dt.int32
    assert [t.tolist() for t in dt.triu_indices(3, 1)] == [list(v) for v in np.triu_indices(3, 1)]  # NumPy's


def test_unique_consecutive(device):
    v = [1, 1, 2, 2, 3, 1, 1, 2]
    x = dt.asarray(v, device=device)
    assert dt.unique_consecutive(x).tolist() == [1, 2, 3, 1, 2]
    out, inverse, counts = dt.unique_consecutive(x, return_inverse=True, return_counts=True)
    assert inverse.tolist() == [0, 0, 1, 1, 2, 3, 3, 4] and counts.tolist() == [2, 2, 1, 2, 1]
    assert out.device == dt.device(device) and to_np(out)[to_np(inverse)].tolist() == v
    m = dt.asarray([[1, 1], [1, 1], [2, 3], [1, 1]], device=device)
    rows, counts = m.unique_consecutive(return_counts=True, dim=0)
    assert rows.tolist() == [[1, 1], [2, 3], [1, 1]] and counts.tolist() == [2, 1, 1]
    assert dt.unique_consecutive(m.T, dim=1).tolist() == [[1, 2, 1], [1, 3, 1]]
    nan = to_np(dt.unique_consecutive(dt.asarray([np.nan, np.nan, 1.0], device=device)))
    assert np.isnan(nan[:2]).all() and nan.shape == (3,)  # NaN never equals NaN
    empty = dt.unique_consecutive(dt.asarray([], dtype=dt.int64, device=device), return_counts=True)
    assert empty[0].shape == (0,) and empty[1].shape == (0,)
    grid = dt.asarray([[1, 1], [2, 2]], device=device)
    assert dt.unique_consecutive(grid, return_inverse=True)[1].tolist() == [[0, 0], [1, 1]]


def test_more_refusals():
    """The remaining argument errors of the PyTorch functions: type and words."""
    v = dt.arange(5.0)
    with pytest.raises(TypeError, match="argument 'boundaries' must be Tensor, not list"):
        dt.bucketize(v, [1.0, 2.0])
    with pytest.raises(RuntimeError, match="complex input is not supported"):
        dt.histc(dt.asarray([1j]))
    with pytest.raises(RuntimeError, match="tensor_indices_or_sections to be a zero-dimensional or one-dimensional"):
        dt.tensor_split(v, dt.asarray([1.5]))
    with pytest.raises(RuntimeError, match="Expect a non-negative number, but got -1"):
        dt.combinations(v, -1)
    with pytest.raises(RuntimeError, match="torch.block_diag: Input tensors must have 2 or fewer dimensions"):
        dt.block_diag(dt.ones(2), dt.ones((1, 1, 1)))
    with pytest.raises(RuntimeError, match="size is -1 but must be >= 0"):
        v.unfold(0, -1, 1)
    with pytest.raises(TypeError, match="argument 'source' must be Tensor, not list"):
        v.index_add_(0, dt.asarray([0]), [1.0])
    with pytest.raises(IndexError, match="mode\\(\\): Expected reduction dim 0 to have non-zero size"):
        dt.mode(dt.zeros(0))
    with pytest.raises(TypeError, match="out= is not supported there"):
        dt.median(v, dim=0, out=dt.zeros(()))
    with pytest.raises(TypeError, match="takes one dimension"):
        dt.median(v.reshape(1, 5), dim=(0, 1))
    with pytest.raises(RuntimeError, match="size is only taken with a number for mean and for std"):
        dt.normal(dt.zeros(2), 1.0, (2,))
    with pytest.raises(TypeError, match="needs size"):
        dt.normal(0.0, 1.0)
    with pytest.raises(RuntimeError, match="bernoulli expects a floating-point probability tensor, got int64"):
        dt.bernoulli(dt.arange(2))
    with pytest.raises(RuntimeError, match="bernoulli_ expects p to be in \\[0, 1\\], but got p=2"):
        dt.bernoulli(v, p=2)
    with pytest.raises(TypeError, match="generator must be a devtensor.random.Generator, not int"):
        dt.poisson(v, generator=3)
    with pytest.raises(RuntimeError, match="is_nonzero|with no values is ambiguous"):
        dt.is_nonzero(dt.zeros(0))
    with pytest.raises(RuntimeError, match="mat1 must be a matrix, got 1-D tensor|vec must be a vector"):
        dt.addmv(dt.zeros(2), dt.ones((2, 2)), dt.ones((2, 2)))
    with pytest.raises(TypeError, match="tril_indices/triu_indices take \\(row, col\\) with offset="):
        dt.tril_indices(3, 3, 2, offset=1)
    with pytest.raises(RuntimeError, match="repeats must be a 0-dim or 1-dim tensor of integers"):
        dt.repeat_interleave(dt.ones(3))
    with pytest.raises(RuntimeError, match="output_size 5 does not match"):
        dt.repeat_interleave(dt.arange(3), 2, output_size=5)
    with pytest.raises(RuntimeError, match="Invalid precision 'low'"):
        dt.set_float32_matmul_precision("low")


def test_generator_states_and_fork_rng():
    dt.manual_seed(3)
    state = dt.get_rng_state()
    assert state.dtype == dt.uint8 and state.shape == (16,) and state.device == dt.device("cpu")
    a = dt.rand(3)
    dt.set_rng_state(state)
    assert dt.rand(3).tolist() == a.tolist()
    g = dt.Generator().manual_seed(1)
    mark = g.get_state()
    x = dt.randn(4, generator=g)
    assert g.set_state(mark) is g and dt.randn(4, generator=g).tolist() == x.tolist()
    dt.default_generator.manual_seed(5)
    c = dt.rand(2)
    dt.manual_seed(5)
    assert dt.rand(2).tolist() == c.tolist() and dt.default_generator.initial_seed() == 5 == dt.initial_seed()
    dt.manual_seed(0)
    before = dt.rand(2)
    dt.manual_seed(0)
    with dt.random.fork_rng():
        dt.rand(7)
    assert dt.rand(2).tolist() == before.tolist()  # the block's draws did not advance the stream
    with pytest.raises(TypeError, match="16-element uint8 tensor"):
        g.set_state(dt.zeros(3))
    assert dt.renorm(dt.ones((2, 3)) * 3, 2, 0, 1.0).tolist() == (dt.ones((2, 3)) * 3).renorm(2, 0, 1.0).tolist()


def test_default_dtype_is_float64_and_says_so():
    assert dt.get_default_dtype() == dt.float64 == dt.randn(2).dtype == dt.tensor([1.0]).dtype
    dt.set_default_dtype(dt.float64)  # the default already: accepted
    with pytest.raises(NotImplementedError, match="default float dtype is float64 \\(NumPy's\\) and cannot be "
                                                  "changed; pass dtype=float32"):
        dt.set_default_dtype(dt.float32)
    assert dt.zeros(1).dtype == dt.float64
