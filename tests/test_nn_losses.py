"""nn's margin, embedding and likelihood losses and bilinear, pdist,
gumbel_softmax, local_response_norm, Softmax2d (nn/_loss_functions.py
and their modules), on every device, against NumPy computations of
PyTorch's documented formulas."""
import math

import numpy as np
import pytest

import devtensor as dt
import devtensor.nn as nn
import devtensor.nn.functional as F
from helpers import to_np

RNG = np.random.default_rng(31)


def close(t, expected, device, rtol=1e-12, atol=1e-12):
    assert isinstance(t, dt.Tensor) and t.device == dt.device(device)
    np.testing.assert_allclose(to_np(t), expected, rtol=rtol, atol=atol)


def reduced(loss, reduction):
    return {"mean": loss.mean(), "sum": loss.sum(), "none": loss}[reduction]


def on(device, *arrays):
    return [dt.asarray(a, device=device) for a in arrays]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_margin_and_embedding_losses(device, reduction):
    x1, x2 = RNG.standard_normal(7), RNG.standard_normal(7)
    y = np.where(RNG.random(7) > 0.5, 1.0, -1.0)
    X1, X2, Y = on(device, x1, x2, y)
    close(F.margin_ranking_loss(X1, X2, Y, 0.3, reduction=reduction),
          reduced(np.maximum(0, -y * (x1 - x2) + 0.3), reduction), device)
    close(nn.MarginRankingLoss(0.3, reduction)(X1, X2, Y), reduced(np.maximum(0, -y * (x1 - x2) + 0.3), reduction),
          device)
    close(nn.HingeEmbeddingLoss(0.5, reduction)(X1, Y), reduced(np.where(y == 1, x1, np.maximum(0, 0.5 - x1)),
                                                                  reduction), device)
    close(nn.SoftMarginLoss(reduction)(X1, Y), reduced(np.log1p(np.exp(-y * x1)), reduction), device)
    a, b = RNG.standard_normal((7, 4)), RNG.standard_normal((7, 4))
    A, B = on(device, a, b)
    cos = (a * b).sum(1) / np.sqrt(((a * a).sum(1) + 1e-12) * ((b * b).sum(1) + 1e-12))
    close(nn.CosineEmbeddingLoss(0.1, reduction)(A, B, Y),
          reduced(np.where(y == 1, 1 - cos, np.maximum(0, cos - 0.1)), reduction), device)
    n = RNG.standard_normal((7, 4))
    N_ = dt.asarray(n, device=device)
    d = lambda u, v: np.linalg.norm(u - v + 1e-6, axis=-1)  # noqa: E731  (pairwise_distance's eps)
    close(nn.TripletMarginLoss(margin=2.0, reduction=reduction)(A, B, N_),
          reduced(np.maximum(0, 2.0 + d(a, b) - d(a, n)), reduction), device)
    close(F.triplet_margin_loss(A, B, N_, swap=True, p=1, reduction=reduction),
          reduced(np.maximum(0, 1.0 + np.abs(a - b + 1e-6).sum(-1) - np.minimum(
              np.abs(a - n + 1e-6).sum(-1), np.abs(b - n + 1e-6).sum(-1))), reduction), device)


def test_likelihood_losses(device):
    x, t = RNG.standard_normal((5, 3)), RNG.poisson(2.0, (5, 3)).astype(float)
    X, T = on(device, x, t)
    close(nn.PoissonNLLLoss()(X, T), (np.exp(x) - t * x).mean(), device)
    rates = np.abs(x) + 0.1
    stirling = np.where(t > 1, t * np.log(np.where(t > 0, t, 1)) - t + 0.5 * np.log(2 * np.pi * np.where(t > 0, t, 1)),
                        0)
    close(F.poisson_nll_loss(dt.asarray(rates, device=device), T, log_input=False, full=True, reduction="none"),
          rates - t * np.log(rates + 1e-8) + stirling, device)
    mu, var = RNG.standard_normal((5, 3)), RNG.random((5, 3)) + 0.5
    M, V = on(device, mu, var)
    expected = 0.5 * (np.log(var) + (mu - t) ** 2 / var)
    close(nn.GaussianNLLLoss()(M, T, V), expected.mean(), device)
    close(F.gaussian_nll_loss(M, T, V, full=True, reduction="sum"), (expected + 0.5 * np.log(2 * np.pi)).sum(),
          device)
    one = var[:, :1]  # one variance per sample: its last dim 1, or dropped
    homo = 0.5 * (np.log(one) + (mu - t) ** 2 / one)
    close(F.gaussian_nll_loss(M, T, dt.asarray(one, device=device), reduction="none"), homo, device)
    close(F.gaussian_nll_loss(M, T, dt.asarray(one[:, 0], device=device), reduction="none"), homo, device)
    tiny = F.gaussian_nll_loss(M, T, dt.zeros((5, 3), device=device), reduction="none")  # clamped to eps
    close(tiny, 0.5 * (np.log(1e-6) + (mu - t) ** 2 / 1e-6), device, rtol=1e-10)
    with pytest.raises(ValueError, match="var has negative entry"):
        F.gaussian_nll_loss(M, T, -V)
    with pytest.raises(ValueError, match="var is of incorrect size"):
        F.gaussian_nll_loss(M, T, dt.ones((5, 2), device=device))


def test_multi_label_and_multi_class_margins(device):
    x = RNG.standard_normal((4, 5))
    labels = (RNG.random((4, 5)) > 0.5).astype(float)
    w = RNG.random(5)
    X, L, W = on(device, x, labels, w)
    logsig = lambda v: -np.logaddexp(0, -v)  # noqa: E731
    per = -(labels * logsig(x) + (1 - labels) * logsig(-x)) * w
    close(nn.MultiLabelSoftMarginLoss(weight=W)(X, L), per.mean(1).mean(), device)
    y = np.array([0, 3, 4, 1])
    Y = dt.asarray(y, device=device)
    for p in (1, 2):
        gaps = np.maximum(0, 0.7 - x[np.arange(4), y][:, None] + x) ** p * w[y][:, None]
        gaps[np.arange(4), y] = 0
        close(nn.MultiMarginLoss(p=p, margin=0.7, weight=W, reduction="none")(X, Y), gaps.sum(1) / 5, device)
    close(F.multi_margin_loss(X[0], Y[0]), np.maximum(0, 1 - x[0, 0] + x[0, 1:]).sum() / 5, device)
    with pytest.raises(ValueError, match="only p == 1 and p == 2 supported"):
        nn.MultiMarginLoss(p=3)
    with pytest.raises(IndexError, match="target out of range for 5 classes"):
        F.multi_margin_loss(X, dt.asarray([0, 5, 0, 0], device=device))


def test_bilinear(device):
    dt.manual_seed(0)
    m = nn.Bilinear(3, 4, 2, dtype=dt.float64).to(device)
    assert list(m.state_dict()) == ["weight", "bias"] and m.weight.shape == (2, 3, 4)
    assert repr(m) == "Bilinear(in1_features=3, in2_features=4, out_features=2, bias=True)"
    assert float(abs(m.weight).max()) <= 1 / math.sqrt(3)
    x1, x2 = RNG.standard_normal((5, 3)), RNG.standard_normal((5, 4))
    w, b = to_np(m.weight), to_np(m.bias)
    close(m(*on(device, x1, x2)), np.einsum("ni,kij,nj->nk", x1, w, x2) + b, device)
    with pytest.raises(RuntimeError, match="bilinear: expected weight"):
        F.bilinear(*on(device, x2, x2), m.weight)


def test_pdist_gumbel_softmax_lrn_and_softmax2d(device):
    x = RNG.standard_normal((5, 3))
    i, j = np.triu_indices(5, 1)
    close(F.pdist(dt.asarray(x, device=device)), np.linalg.norm(x[i] - x[j], axis=1), device)
    close(F.pdist(dt.asarray(x, device=device), p=1), np.abs(x[i] - x[j]).sum(1), device)
    with pytest.raises(RuntimeError, match="pdist only supports 2D tensors"):
        F.pdist(dt.ones(3, device=device))
    dt.manual_seed(5)
    logits = dt.asarray(np.log([[0.7, 0.2, 0.1]] * 3000), device=device)
    soft = F.gumbel_softmax(logits, tau=0.5)
    close(soft.sum(-1), np.ones(3000), device, rtol=1e-12)
    hard = F.gumbel_softmax(logits, hard=True)
    assert set(to_np(hard).sum(1).tolist()) == {1.0} and set(np.unique(to_np(hard)).tolist()) == {0.0, 1.0}
    assert abs(to_np(hard).mean(0)[0] - 0.7) < 0.05  # Gumbel-max draws the categorical distribution
    a = RNG.standard_normal((2, 6, 3, 2))
    padded = np.pad(a * a, ((0, 0), (2, 1), (0, 0), (0, 0)))
    window = sum(padded[:, s:s + 6] for s in range(4))
    close(nn.LocalResponseNorm(4, alpha=0.1, beta=0.6, k=2.0)(dt.asarray(a, device=device)),
          a / (2.0 + 0.1 / 4 * window) ** 0.6, device)
    e = np.exp(a - a.max(1, keepdims=True))
    close(nn.Softmax2d()(dt.asarray(a, device=device)), e / e.sum(1, keepdims=True), device)
    with pytest.raises(ValueError, match="Softmax2d: expected input to be 3D or 4D, got 2D instead"):
        nn.Softmax2d()(dt.ones((2, 2), device=device))


def test_loss_and_layer_function_refusals():
    one, two = dt.ones(3), dt.ones((3, 2))
    with pytest.raises(RuntimeError, match="margin_ranking_loss : All input tensors should have same dimension"):
        F.margin_ranking_loss(one, two, one)
    with pytest.raises(RuntimeError, match="expected input1 and input2 of the same 1-D or 2-D shape"):
        F.cosine_embedding_loss(two, dt.ones((3, 3)), one)
    with pytest.raises(RuntimeError, match="1D target tensor expected, 2D target tensor given"):
        F.cosine_embedding_loss(two, two, two)
    with pytest.raises(RuntimeError, match="anchor, positive, and negative tensors are expected to have the same "
                                           "number of dimensions"):
        F.triplet_margin_loss(two, two, one)
    with pytest.raises(ValueError, match="expected margin to be greater than 0, got 0"):
        nn.TripletMarginLoss(margin=0)
    with pytest.raises(RuntimeError, match="pdist only supports non-negative p values"):
        F.pdist(two, p=-1)
    with pytest.raises(RuntimeError, match="bilinear: input1 and input2 must have the same leading dims"):
        F.bilinear(dt.ones((3, 2)), dt.ones((4, 2)), dt.ones((1, 2, 2)))
    with pytest.raises(ValueError, match="Expected 3D or higher dimensionality input \\(got 2 dimensions\\)"):
        F.local_response_norm(two, 2)
    with pytest.raises(ValueError, match="is not a valid value for reduction"):
        nn.SoftMarginLoss(reduction="avg")
