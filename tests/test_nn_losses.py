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


# ---- multilabel_margin_loss, triplet_margin_with_distance_loss ----
def _multilabel_reference(x, y):
    """Explicit loops over each sample's listed targets and other classes."""
    x, y = np.atleast_2d(x), np.atleast_2d(y)
    out = []
    for xs, ys in zip(x, y):
        listed = []
        for v in ys:
            if v < 0:
                break
            listed.append(v)
        total = sum(max(0.0, 1 - (xs[j] - xs[i])) for j in listed for i in range(len(xs)) if i not in listed)
        out.append(total / len(xs))
    return np.array(out)


def test_multilabel_margin_loss(device):
    x = RNG.standard_normal((5, 6))
    y = np.array([[3, 0, -1, 1, 1, 1], [5, 4, 3, 2, 1, 0], [-1, 2, 2, 2, 2, 2], [2, 2, -5, 0, 0, 0],
                  [0, 1, 2, -1, 9, 9]])  # a repeated target, all classes, none, a later -5, junk after -1
    want = _multilabel_reference(x, y)
    t, yt = dt.asarray(x, device=device), dt.asarray(y, device=device)
    close(F.multilabel_margin_loss(t, yt, reduction="none"), want, device)
    close(F.multilabel_margin_loss(t, yt), want.mean(), device)
    close(nn.MultiLabelMarginLoss(reduction="sum")(t, yt), want.sum(), device)
    close(F.multilabel_margin_loss(t[0], yt[0], reduction="none"), want[0], device)
    # PyTorch's documented example: 0.85
    close(F.multilabel_margin_loss(dt.asarray([[0.1, 0.2, 0.4, 0.8]], device=device),
                                   dt.asarray([[3, 0, -1, 1]], device=device)), 0.85, device)
    f32 = F.multilabel_margin_loss(t.float(), yt, reduction="none")
    assert f32.dtype == dt.float32
    with pytest.raises(IndexError, match="multilabel_margin_loss: target out of range for 6 classes"):
        F.multilabel_margin_loss(t, dt.asarray([[6, -1, 0, 0, 0, 0]] * 5, device=device))
    with pytest.raises(RuntimeError, match="expected a 1-D or 2-D input and a target of its shape"):
        F.multilabel_margin_loss(t, yt[:, :3])
    with pytest.raises(TypeError, match="target must hold integer class indices, got float64"):
        F.multilabel_margin_loss(t, t)


def test_triplet_margin_with_distance_loss(device):
    a, p, n = (dt.asarray(RNG.standard_normal((7, 4)), device=device) for _ in range(3))
    default = F.triplet_margin_with_distance_loss(a, p, n)
    np.testing.assert_allclose(to_np(default), to_np(F.triplet_margin_loss(a, p, n)), rtol=1e-12)

    def cosine(x1, x2):
        return 1.0 - F.cosine_similarity(x1, x2)
    an, pn, nn_ = to_np(a), to_np(p), to_np(n)

    def cos_np(u, v):
        return 1 - (u * v).sum(1) / np.maximum(np.linalg.norm(u, axis=1) * np.linalg.norm(v, axis=1), 1e-8)
    far = np.minimum(cos_np(an, nn_), cos_np(pn, nn_))
    want = np.maximum(0.5 + cos_np(an, pn) - far, 0)
    m = nn.TripletMarginWithDistanceLoss(distance_function=cosine, margin=0.5, swap=True, reduction="none")
    assert repr(m) == "TripletMarginWithDistanceLoss()"
    close(m(a, p, n), want, device, rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError, match="expected margin to be greater than 0, got 0 instead"):
        nn.TripletMarginWithDistanceLoss(margin=0)
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        F.triplet_margin_with_distance_loss(a, p, n[0])


# ---- ctc_loss ----
def _ctc_brute_force(lp, steps, target, blank):
    """-log of the summed probability of every path of `steps` frames that
    collapses (repeats merged, blanks dropped) to target."""
    import itertools
    total = 0.0
    for path in itertools.product(range(lp.shape[1]), repeat=steps):
        collapsed, prev = [], None
        for c in path:
            if c != prev and c != blank:
                collapsed.append(c)
            prev = c
        if collapsed == list(target):
            total += math.exp(sum(lp[t, c] for t, c in enumerate(path)))
    return -math.log(total) if total > 0 else math.inf


def test_ctc_loss_against_every_path(device):
    frames, batch, classes = 5, 5, 4
    x = RNG.standard_normal((frames, batch, classes))
    lp = x - np.log(np.exp(x).sum(-1, keepdims=True))
    targets = np.array([[1, 2, 0], [3, 3, 9], [1, 9, 9], [2, 1, 2], [9, 9, 9]])  # 9: padding, never read
    target_lengths, input_lengths = [2, 2, 1, 3, 0], [5, 4, 3, 2, 5]  # sample 3: too short, infinite
    want = np.array([_ctc_brute_force(lp[:, n], input_lengths[n], targets[n, :target_lengths[n]], 0)
                     for n in range(batch)])
    assert np.isinf(want[3]) and np.isfinite(want[[0, 1, 2, 4]]).all()
    t = dt.asarray(lp, device=device)
    got = F.ctc_loss(t, dt.asarray(targets, device=device), input_lengths, target_lengths, reduction="none")
    close(got, want, device, rtol=1e-10)
    close(F.ctc_loss(t, dt.asarray(targets, device=device), dt.asarray(input_lengths, device=device),
                     dt.asarray(target_lengths, device=device), reduction="sum", zero_infinity=True),
          want[np.isfinite(want)].sum(), device, rtol=1e-10)
    finite = np.where(np.isinf(want), 0, want)
    close(nn.CTCLoss(zero_infinity=True)(t, dt.asarray(targets, device=device), input_lengths, target_lengths),
          np.mean(finite / np.maximum(target_lengths, 1)), device, rtol=1e-10)
    # the concatenated form of the targets
    flat = dt.asarray([1, 2, 3, 3, 1, 2, 1, 2], device=device)
    close(F.ctc_loss(t, flat, input_lengths, target_lengths, reduction="none"), want, device, rtol=1e-10)
    # another blank, float32, and one unbatched sample
    other = F.ctc_loss(t.float(), dt.asarray(targets % 3, device=device), input_lengths, target_lengths,
                       blank=3, reduction="none")
    want3 = [_ctc_brute_force(lp[:, n], input_lengths[n], (targets % 3)[n, :target_lengths[n]], 3)
             for n in range(batch)]
    assert other.dtype == dt.float32
    np.testing.assert_allclose(to_np(other), want3, rtol=1e-5)
    close(F.ctc_loss(t[:, 0], dt.asarray([1, 2], device=device), 5, 2, reduction="none"), want[0], device,
          rtol=1e-10)


def test_ctc_loss_takes_cpu_targets_beside_device_log_probs(device):
    """PyTorch copies CPU targets (cuDNN's int32 form) to the log_probs' device."""
    x = RNG.standard_normal((5, 2, 3))
    lp = x - np.log(np.exp(x).sum(-1, keepdims=True))
    targets = np.array([1, 2, 1])
    got = F.ctc_loss(dt.asarray(lp, device=device), dt.asarray(targets, dtype=dt.int32), [5, 5], [2, 1],
                     reduction="none")
    assert got.device == dt.device(device)
    want = [_ctc_brute_force(lp[:, 0], 5, [1, 2], 0), _ctc_brute_force(lp[:, 1], 5, [1], 0)]
    np.testing.assert_allclose(to_np(got), want, rtol=1e-10)


def test_ctc_loss_long_sequences_stay_finite(device):
    """Log-space recursion: 400 frames of near-uniform probabilities."""
    frames, classes = 400, 30
    lp = np.full((frames, 2, classes), -np.log(classes))
    targets = RNG.integers(1, classes, (2, 50))
    got = to_np(F.ctc_loss(dt.asarray(lp, device=device), dt.asarray(targets, device=device), [400, 300], [50, 50],
                           reduction="none"))
    # every path has probability classes^-T: the loss is T log C - log(number of valid paths) > 0, finite
    assert np.isfinite(got).all() and (got > 0).all() and (got < [400 * np.log(classes), 300 * np.log(classes)]).all()


def test_ctc_loss_errors(device):
    lp = dt.zeros((4, 2, 3), device=device)
    tg = dt.asarray([[1, 2], [1, 1]], device=device)
    with pytest.raises(RuntimeError, match="blank must be in label range"):
        F.ctc_loss(lp, tg, [4, 4], [2, 2], blank=3)
    with pytest.raises(RuntimeError, match="input_lengths must be of size batch_size"):
        F.ctc_loss(lp, tg, [4], [2, 2])
    with pytest.raises(RuntimeError, match="target_lengths must be of size batch_size"):
        F.ctc_loss(lp, tg, [4, 4], [2, 2, 2])
    with pytest.raises(RuntimeError, match="Expected input_lengths to have value at most 4, but got value 5"):
        F.ctc_loss(lp, tg, [5, 4], [2, 2])
    with pytest.raises(RuntimeError, match="Expected tensor to have size at least 3 at dimension 1, but got size 2"):
        F.ctc_loss(lp, tg, [4, 4], [3, 2])
    with pytest.raises(IndexError, match=r"a target lies outside the label range \[0, 3\)"):
        F.ctc_loss(lp, dt.asarray([[1, 3], [1, 1]], device=device), [4, 4], [2, 2])
    with pytest.raises(RuntimeError, match="must not be negative"):
        F.ctc_loss(lp, tg, [4, -1], [2, 2])
    with pytest.raises(RuntimeError, match="the target lengths add up to 5, more than the 4 concatenated targets"):
        F.ctc_loss(lp, tg.reshape(-1), [4, 4], [2, 3])
    with pytest.raises(RuntimeError, match="targets must hold integer class indices, got float64"):
        F.ctc_loss(lp, tg.double(), [4, 4], [2, 2])
    with pytest.raises(RuntimeError, match="log_probs must be"):
        F.ctc_loss(lp[0, 0], tg, [4, 4], [2, 2])
    with pytest.raises(ValueError, match="is not a valid value for reduction"):
        nn.CTCLoss(reduction="avg")


# ---- AdaptiveLogSoftmaxWithLoss ----
def _log_softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def test_adaptive_log_softmax_against_numpy(device):
    m = nn.AdaptiveLogSoftmaxWithLoss(8, 20, [5, 12], div_value=2.0, head_bias=True, dtype=dt.float64).to(device)
    assert [tuple(p.shape) for p in m.parameters()] == [(7, 8), (7,), (4, 8), (7, 4), (2, 8), (8, 2)]
    assert m.cutoffs == [5, 12, 20] and m.shortlist_size == 5 and m.head_size == 7
    x = RNG.standard_normal((7, 8))
    y = np.array([0, 4, 5, 11, 12, 19, 7])
    w = {k: to_np(v) for k, v in m.state_dict().items()}
    head = _log_softmax(x @ w["head.weight"].T + w["head.bias"])
    full = [head[:, :5]]
    for i in range(2):
        tail = _log_softmax(x @ w[f"tail.{i}.0.weight"].T @ w[f"tail.{i}.1.weight"].T)
        full.append(tail + head[:, 5 + i:6 + i])
    full = np.concatenate(full, axis=1)
    out, loss = m(dt.asarray(x, device=device), dt.asarray(y, device=device))
    close(out, full[np.arange(7), y], device)
    close(loss, -full[np.arange(7), y].mean(), device)
    close(m.log_prob(dt.asarray(x, device=device)), full, device)
    np.testing.assert_array_equal(to_np(m.predict(dt.asarray(x, device=device))), full.argmax(axis=1))
    single = m(dt.asarray(x[3], device=device), dt.asarray(y[3], device=device))
    assert single.output.shape == () and math.isclose(float(single.output), full[3, y[3]], rel_tol=1e-12)
    with pytest.raises(RuntimeError, match=r"Target values should be in \[0, 19\], but values in range \[0, 20\]"):
        m(dt.asarray(x, device=device), dt.asarray([0, 1, 2, 3, 4, 5, 20], device=device))
    with pytest.raises(RuntimeError, match="Input and target should have the same size in the batch dimension"):
        m(dt.asarray(x, device=device), dt.asarray(y[:3], device=device))
    with pytest.raises(RuntimeError, match="Input should be 1D or 2D with 8 features"):
        m.log_prob(dt.ones((2, 3), device=device))
    for bad in ([5, 5], [12, 5], [0, 5], [5, 20]):
        with pytest.raises(ValueError, match="cutoffs should be a sequence of unique, positive integers"):
            nn.AdaptiveLogSoftmaxWithLoss(8, 20, bad)
