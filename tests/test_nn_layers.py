"""nn's activations beyond the basic ones, the regression and divergence
losses, normalisation, embedding, pad, distances and attention
(nn/functional.py, nn/_layer_functions.py and their modules), on every
device, against NumPy computations of PyTorch's documented formulas."""
import math

import numpy as np
import pytest

import devtensor as dt
import devtensor.nn as nn
import devtensor.nn.functional as F
from helpers import to_np

RNG = np.random.default_rng(11)
V = np.array([-30.0, -3.0, -1.0, -0.25, 0.0, 0.25, 1.0, 3.0, 30.0])
SELU = (1.6732632423543772848170429916717, 1.0507009873554804934193349852946)

ACTIVATIONS = {
    "elu": (lambda x: np.where(x > 0, x, np.expm1(x)), {}),
    "selu": (lambda x: SELU[1] * np.where(x > 0, x, SELU[0] * np.expm1(x)), {}),
    "celu": (lambda x: np.where(x > 0, x, 2 * np.expm1(x / 2)), {"alpha": 2.0}),
    "hardtanh": (lambda x: np.clip(x, -2, 0.5), {"min_val": -2, "max_val": 0.5}),
    "relu6": (lambda x: np.clip(x, 0, 6), {}),
    "hardsigmoid": (lambda x: np.clip(x + 3, 0, 6) / 6, {}),
    "hardswish": (lambda x: x * np.clip(x + 3, 0, 6) / 6, {}),
    "logsigmoid": (lambda x: -np.logaddexp(0, -x), {}),
    "mish": (lambda x: x * np.tanh(np.logaddexp(0, x)), {}),
    "softsign": (lambda x: x / (1 + np.abs(x)), {}),
    "tanhshrink": (lambda x: x - np.tanh(x), {}),
    "hardshrink": (lambda x: np.where(np.abs(x) > 1, x, 0), {"lambd": 1.0}),
    "softshrink": (lambda x: np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0)), {}),
    "threshold": (lambda x: np.where(x > 0.25, x, -7), {"threshold": 0.25, "value": -7}),
}


def close(t, expected, device, rtol=1e-12, atol=1e-12):
    assert isinstance(t, dt.Tensor) and t.device == dt.device(device)
    np.testing.assert_allclose(to_np(t), expected, rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activations(device, name):
    formula, kwargs = ACTIVATIONS[name]
    x = dt.asarray(V, device=device)
    close(getattr(F, name)(x, **kwargs), formula(V), device, rtol=1e-13, atol=1e-15)
    r32 = getattr(F, name)(x.astype(dt.float32), **kwargs)
    assert r32.dtype == dt.float32
    close(r32, formula(V.astype(np.float32).astype(np.float64)), device, rtol=2e-6, atol=2e-6)
    module = getattr(nn, {"elu": "ELU", "selu": "SELU", "celu": "CELU", "hardtanh": "Hardtanh", "relu6": "ReLU6",
                          "hardsigmoid": "Hardsigmoid", "hardswish": "Hardswish", "logsigmoid": "LogSigmoid",
                          "mish": "Mish", "softsign": "Softsign", "tanhshrink": "Tanhshrink",
                          "hardshrink": "Hardshrink", "softshrink": "Softshrink", "threshold": "Threshold"}[name])
    close(module(**kwargs)(x), formula(V), device, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("name", ["elu", "selu", "celu", "hardtanh", "relu6", "hardsigmoid", "hardswish", "mish"])
def test_in_place_activations(device, name):
    x = dt.asarray(V.copy(), device=device)  # a CPU tensor would view V itself
    assert getattr(F, name)(x, inplace=True) is x
    close(x, ACTIVATIONS[name][0](V) if name not in ("celu", "hardtanh") else
          {"celu": lambda v: np.where(v > 0, v, np.expm1(v)), "hardtanh": lambda v: np.clip(v, -1, 1)}[name](V),
          device, rtol=1e-13, atol=1e-15)


def test_softmin_glu_and_module_settings(device):
    x = dt.asarray(RNG.standard_normal((2, 6)), device=device)
    e = np.exp(-to_np(x))
    close(F.softmin(x, dim=1), e / e.sum(1, keepdims=True), device)
    close(nn.Softmin(0)(x), np.exp(-to_np(x)) / np.exp(-to_np(x)).sum(0), device)
    a, b = to_np(x)[:, :3], to_np(x)[:, 3:]
    close(F.glu(x), a / (1 + np.exp(-b)), device)
    close(nn.GLU(0)(x), to_np(x)[:1] / (1 + np.exp(-to_np(x)[1:])), device)
    with pytest.raises(RuntimeError, match="Halving dimension must be even, but dimension 1 is size 3"):
        F.glu(dt.ones((2, 3), device=device))
    assert repr(nn.Hardtanh(-2, 2)) == "Hardtanh(min_val=-2, max_val=2)"
    assert repr(nn.ELU(inplace=True)) == "ELU(alpha=1.0, inplace=True)"
    with pytest.raises(TypeError, match="missing required argument 'threshold'"):
        nn.Threshold()
    with pytest.raises(TypeError, match="unexpected keyword argument 'beta'"):
        nn.ELU(beta=1)
    with pytest.raises(ValueError, match="min_val cannot be greater than max_val"):
        F.hardtanh(x, 1, -1)


def test_regression_losses(device):
    a, b = RNG.standard_normal(20) * 2, RNG.standard_normal(20)
    x, y = dt.asarray(a, device=device), dt.asarray(b, device=device)
    d = np.abs(a - b)
    huber = np.where(d < 0.7, 0.5 * d * d, 0.7 * (d - 0.35))
    close(F.huber_loss(x, y, delta=0.7), huber.mean(), device)
    close(nn.HuberLoss(reduction="sum", delta=0.7)(x, y), huber.sum(), device)
    smooth = np.where(d < 0.5, 0.5 * d * d / 0.5, d - 0.25)
    close(F.smooth_l1_loss(x, y, beta=0.5, reduction="none"), smooth, device)
    close(nn.SmoothL1Loss(beta=0.0)(x, y), d.mean(), device)
    with pytest.raises(RuntimeError, match="non-positive values for delta"):
        F.huber_loss(x, y, delta=0)
    with pytest.warns(UserWarning, match="different to the input size"):
        F.huber_loss(x, y[:1])


def test_kl_div_and_binary_cross_entropy(device):
    p = RNG.random((4, 5))
    p /= p.sum(1, keepdims=True)
    q = RNG.random((4, 5))
    q /= q.sum(1, keepdims=True)
    p[0, 0] = 0.0  # a zero target contributes 0
    logq = np.log(q)
    lq, tp = dt.asarray(logq, device=device), dt.asarray(p, device=device)
    pointwise = np.where(p > 0, p * (np.log(np.where(p > 0, p, 1)) - logq), 0)
    close(F.kl_div(lq, tp, reduction="batchmean"), pointwise.sum() / 4, device)
    close(F.kl_div(lq, tp, reduction="sum"), pointwise.sum(), device)
    close(nn.KLDivLoss(reduction="none", log_target=True)(lq, dt.asarray(np.log(q[::-1]), device=device)),
          q[::-1] * (np.log(q[::-1]) - logq), device)
    with pytest.warns(UserWarning, match="'batchmean' divides only by the batch size"):
        F.kl_div(lq, tp)
    probs = np.array([0.0, 0.2, 0.5, 1.0])
    target = np.array([0.0, 1.0, 0.3, 0.0])
    with np.errstate(divide="ignore"):
        expected = -(target * np.maximum(np.log(probs), -100) + (1 - target) * np.maximum(np.log(1 - probs), -100))
    close(F.binary_cross_entropy(dt.asarray(probs, device=device), dt.asarray(target, device=device),
                                 reduction="none"), expected, device, rtol=1e-12, atol=1e-12)
    assert float(F.binary_cross_entropy(dt.asarray([1.0], device=device), dt.asarray([0.0], device=device))) == 100
    w = dt.asarray([1.0, 2.0, 0.0, 1.0], device=device)
    close(nn.BCELoss(weight=w, reduction="sum")(dt.asarray(probs, device=device), dt.asarray(target, device=device)),
          (expected * to_np(w)).sum(), device)
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(dt.asarray([1.5], device=device), dt.asarray([1.0], device=device))
    with pytest.raises(ValueError, match="is deprecated. Please ensure they have the same size"):
        F.binary_cross_entropy(dt.asarray([0.5, 0.5], device=device), dt.asarray([1.0], device=device))


def _norm(x, axes, eps):
    m = x.mean(axis=axes, keepdims=True)
    return (x - m) / np.sqrt(x.var(axis=axes, keepdims=True) + eps)


def test_layer_norm_and_rms_norm(device):
    a = RNG.standard_normal((2, 3, 4)) * 3 + 1
    w, b = RNG.standard_normal(4), RNG.standard_normal(4)
    x = dt.asarray(a, device=device)
    close(F.layer_norm(x, (4,), dt.asarray(w, device=device), dt.asarray(b, device=device)),
          _norm(a, -1, 1e-5) * w + b, device)
    close(F.layer_norm(x, [3, 4], eps=0.1), _norm(a, (1, 2), 0.1), device)
    close(F.rms_norm(x, 4), a / np.sqrt((a * a).mean(-1, keepdims=True) + np.finfo(np.float64).eps), device)
    m = nn.LayerNorm(4).to(device)
    assert list(m.state_dict()) == ["weight", "bias"] and m.weight.tolist() == [1, 1, 1, 1]
    close(m(x), _norm(a, -1, 1e-5), device)
    assert nn.RMSNorm([3, 4], eps=1e-6).weight.shape == (3, 4)
    h = x.astype(dt.float16)
    r = F.layer_norm(h, (4,))
    assert r.dtype == dt.float16
    close(r.astype(dt.float64), _norm(a.astype(np.float16).astype(np.float64), -1, 1e-5), device, rtol=2e-3, atol=2e-3)
    with pytest.raises(RuntimeError, match="expected input with shape \\[\\*, 5\\], but got input of size\\[2, 3, 4\\]"):
        F.layer_norm(x, 5)
    with pytest.raises(RuntimeError, match="Expected weight to be of same shape as normalized_shape"):
        F.layer_norm(x, 4, dt.ones(3, device=device))


def test_group_norm(device):
    a = RNG.standard_normal((2, 6, 5))
    x = dt.asarray(a, device=device)
    w, b = RNG.standard_normal(6), RNG.standard_normal(6)
    expected = _norm(a.reshape(2, 3, 10), 2, 1e-5).reshape(2, 6, 5) * w[:, None] + b[:, None]
    close(F.group_norm(x, 3, dt.asarray(w, device=device), dt.asarray(b, device=device)), expected, device)
    g = nn.GroupNorm(2, 6).to(device)
    close(g(x), _norm(a.reshape(2, 2, 15), 2, 1e-5).reshape(2, 6, 5), device)
    with pytest.raises(RuntimeError, match="divisible by num_groups, but got input of shape \\[2, 6, 5\\] and "
                                           "num_groups=4"):
        F.group_norm(x, 4)
    with pytest.raises(ValueError, match="num_channels must be divisible by num_groups"):
        nn.GroupNorm(4, 6)


def test_batch_norm_training_and_eval(device):
    a = RNG.standard_normal((4, 3, 5)) * 2 + 1
    x = dt.asarray(a, device=device)
    bn = nn.BatchNorm1d(3, dtype=dt.float64).to(device)
    close(bn(x), _norm(a, (0, 2), 1e-5), device)
    mean, var = a.mean(axis=(0, 2)), a.var(axis=(0, 2), ddof=1)
    close(bn.running_mean, 0.1 * mean, device)
    close(bn.running_var, 0.9 + 0.1 * var, device)
    assert int(bn.num_batches_tracked) == 1
    assert list(bn.state_dict()) == ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    bn.eval()
    close(bn(x), (a - 0.1 * mean[:, None]) / np.sqrt(0.9 + 0.1 * var[:, None] + 1e-5), device)
    cumulative = nn.BatchNorm2d(3, momentum=None).to(device).double()
    b1, b2 = RNG.standard_normal((2, 3, 2, 2)), RNG.standard_normal((2, 3, 2, 2))
    cumulative(dt.asarray(b1, device=device))
    cumulative(dt.asarray(b2, device=device))
    close(cumulative.running_mean, (b1.mean(axis=(0, 2, 3)) + b2.mean(axis=(0, 2, 3))) / 2, device)
    untracked = nn.BatchNorm1d(3, track_running_stats=False, affine=False).eval()
    close(untracked(dt.asarray(a)), _norm(a, (0, 2), 1e-5), "cpu")
    with pytest.raises(ValueError, match="expected 4D input \\(got 3D input\\)"):
        nn.BatchNorm2d(3)(dt.ones((2, 3, 4)))
    with pytest.raises(ValueError, match="Expected more than 1 value per channel when training"):
        nn.BatchNorm1d(3)(dt.ones((1, 3)))


def test_instance_norm(device):
    a = RNG.standard_normal((4, 3, 5, 2)) * 2 + 1
    x = dt.asarray(a, device=device)
    close(F.instance_norm(x), _norm(a, (2, 3), 1e-5), device)
    w, b = RNG.standard_normal(3), RNG.standard_normal(3)
    close(F.instance_norm(x, weight=dt.asarray(w, device=device), bias=dt.asarray(b, device=device), eps=0.1),
          _norm(a, (2, 3), 0.1) * w[:, None, None] + b[:, None, None], device)
    m = nn.InstanceNorm2d(3, affine=True, track_running_stats=True, dtype=dt.float64).to(device)
    assert repr(m) == "InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)"
    close(m(x), _norm(a, (2, 3), 1e-5), device)
    # the running statistics average the instances' mean and unbiased variance over the batch
    mean, var = a.mean(axis=(2, 3)).mean(0), a.var(axis=(2, 3), ddof=1).mean(0)
    close(m.running_mean, 0.1 * mean, device)
    close(m.running_var, 0.9 + 0.1 * var, device)
    m.eval()
    close(m(x), (a - 0.1 * mean[:, None, None]) / np.sqrt(0.9 + 0.1 * var[:, None, None] + 1e-5), device)
    plain = nn.InstanceNorm1d(3)
    assert list(plain.state_dict()) == [] and plain.weight is None
    close(plain.to(device)(dt.asarray(a[0, :, :, 0], device=device)), _norm(a[:1, :, :, 0], (2,), 1e-5)[0],
          device)  # (C, L): one unbatched sample
    with pytest.raises(ValueError, match="expected 2D or 3D input \\(got 4D input\\)"):
        plain(x)
    with pytest.raises(ValueError, match=r"expected input's size at dim=1 to match num_features \(4\), but got: 3"):
        nn.InstanceNorm2d(4, affine=True).to(device)(x)
    frozen = nn.InstanceNorm1d(3, momentum=None, track_running_stats=True).to(device)
    frozen(x[:, :, :, 0])
    assert not frozen.running_mean.any() and frozen.running_var.tolist() == [1, 1, 1]  # momentum None: 0, as PyTorch's
    with pytest.raises(ValueError, match="Expected more than 1 spatial element when training"):
        F.instance_norm(dt.ones((2, 3, 1)))
    with pytest.raises(RuntimeError, match=r"instance_norm: expected weight of shape \[3\], got \[2\]"):
        F.instance_norm(dt.ones((2, 3, 4)), weight=dt.ones(2))


def test_embedding(device):
    w = RNG.standard_normal((6, 3))
    W = dt.asarray(w, device=device)
    idx = dt.asarray([[0, 5], [2, 2]], device=device)
    close(F.embedding(idx, W), w[[[0, 5], [2, 2]]], device)
    e = nn.Embedding.from_pretrained(W, padding_idx=1)
    assert e.weight.requires_grad is False and dt.shares_memory(e.weight, W)
    close(e(idx), w[[[0, 5], [2, 2]]], device)
    m = nn.Embedding(10, 4, padding_idx=-1).to(device)
    assert m.padding_idx == 9 and to_np(m.weight)[9].tolist() == [0.0] * 4 and repr(m) == \
        "Embedding(10, 4, padding_idx=9)"
    W2 = dt.asarray(w * 10, device=device)
    F.embedding(dt.asarray([1], device=device), W2, max_norm=1.0)
    norms = np.linalg.norm(to_np(W2), axis=1)
    assert abs(norms[1] - 1) < 1e-6 and np.allclose(to_np(W2)[0], w[0] * 10)  # only looked-up rows rescaled
    with pytest.raises(RuntimeError, match="'indices' to have one of the following scalar types: Long, Int"):
        F.embedding(dt.ones(2, device=device), W)
    with pytest.raises(IndexError):
        F.embedding(dt.asarray([6], device=device), W)


def test_pad(device):
    a = np.arange(10.0).reshape(2, 5)
    x = dt.asarray(a, device=device)
    close(F.pad(x, (1, 2)), np.pad(a, ((0, 0), (1, 2))), device)
    close(F.pad(x, (1, 0, 0, 1), value=-1), np.pad(a, ((0, 1), (1, 0)), constant_values=-1), device)
    close(F.pad(x, (-1, 2)), np.pad(a[:, 1:], ((0, 0), (0, 2))), device)
    close(F.pad(x, (2, 1), mode="reflect"), np.pad(a, ((0, 0), (2, 1)), "reflect"), device)
    close(F.pad(x, (2, 1, 1, 1), mode="replicate"), np.pad(a, ((1, 1), (2, 1)), "edge"), device)
    close(F.pad(x, (3, 1), mode="circular"), np.pad(a, ((0, 0), (3, 1)), "wrap"), device)
    with pytest.raises(RuntimeError, match="Padding length must be divisible by 2"):
        F.pad(x, (1,))
    with pytest.raises(RuntimeError, match="Padding size should be less than the corresponding input dimension"):
        F.pad(x, (5, 0), mode="reflect")
    with pytest.raises(RuntimeError, match="doesn't take in value argument"):
        F.pad(x, (1, 1), mode="reflect", value=0)
    with pytest.raises(NotImplementedError, match="Unrecognised padding mode"):
        F.pad(x, (1, 1), mode="symmetric")
    with pytest.raises(RuntimeError, match="resulted in a negative output size"):
        F.pad(x, (-3, -3))


def test_distances(device):
    a, b = RNG.standard_normal((4, 3)), RNG.standard_normal((4, 3))
    x, y = dt.asarray(a, device=device), dt.asarray(b, device=device)
    cos = (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    close(F.cosine_similarity(x, y), cos, device)
    close(nn.CosineSimilarity(dim=0)(x, y), (a * b).sum(0) / (np.linalg.norm(a, axis=0) * np.linalg.norm(b, axis=0)),
          device)
    close(F.cosine_similarity(x, dt.zeros(3, device=device)), np.zeros(4), device)  # eps keeps it finite
    close(F.pairwise_distance(x, y), np.linalg.norm(a - b + 1e-6, axis=1), device)
    close(nn.PairwiseDistance(p=1, keepdim=True)(x, y), np.abs(a - b + 1e-6).sum(1, keepdims=True), device)


def test_scaled_dot_product_attention(device):
    q, k, v = RNG.standard_normal((2, 3, 4, 8)), RNG.standard_normal((2, 3, 5, 8)), RNG.standard_normal((2, 3, 5, 6))
    Q, K, Vt = (dt.asarray(t, device=device) for t in (q, k, v))

    def reference(scores):
        w = np.exp(scores - scores.max(-1, keepdims=True))
        return (w / w.sum(-1, keepdims=True)) @ v

    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(8)
    close(F.scaled_dot_product_attention(Q, K, Vt), reference(s), device)
    close(F.scaled_dot_product_attention(Q, K, Vt, scale=0.5), reference(q @ np.swapaxes(k, -1, -2) * 0.5), device)
    causal = np.tril(np.ones((4, 5), bool))
    close(F.scaled_dot_product_attention(Q, K, Vt, is_causal=True), reference(np.where(causal, s, -np.inf)), device)
    mask = RNG.random((4, 5)) > 0.3
    mask[:, 0] = True
    close(F.scaled_dot_product_attention(Q, K, Vt, attn_mask=dt.asarray(mask, device=device)),
          reference(np.where(mask, s, -np.inf)), device)
    bias = RNG.standard_normal((4, 5))
    close(F.scaled_dot_product_attention(Q, K, Vt, attn_mask=dt.asarray(bias, device=device)), reference(s + bias),
          device)
    k1, v1 = k[:, :1], v[:, :1]
    close(F.scaled_dot_product_attention(Q, dt.asarray(k1, device=device), dt.asarray(v1, device=device),
                                         enable_gqa=True),
          F.scaled_dot_product_attention(Q, dt.asarray(np.repeat(k1, 3, 1), device=device),
                                         dt.asarray(np.repeat(v1, 3, 1), device=device)).cpu().numpy(), device)
    with pytest.raises(RuntimeError, match="Explicit attn_mask should not be set when is_causal=True"):
        F.scaled_dot_product_attention(Q, K, Vt, attn_mask=dt.asarray(mask, device=device), is_causal=True)


def test_containers():
    d = nn.ModuleDict({"a": nn.Linear(2, 3), "b": nn.ReLU()})
    d["c"] = nn.Tanh()
    assert list(d) == ["a", "b", "c"] and "b" in d and len(d) == 3
    assert [k for k, _ in d.named_parameters()] == ["a.weight", "a.bias"]
    assert isinstance(d.pop("b"), nn.ReLU) and list(d.keys()) == ["a", "c"]
    pl = nn.ParameterList([dt.ones(2), nn.Parameter(dt.zeros(3))])
    pl.append(dt.ones(1))
    assert [k for k, _ in pl.named_parameters()] == ["0", "1", "2"]
    assert all(isinstance(p, nn.Parameter) for p in pl) and pl[-1].shape == (1,)
    pd = nn.ParameterDict({"w": dt.ones(2)})
    pd["b"] = dt.zeros(1)
    assert list(pd.state_dict()) == ["w", "b"] and isinstance(pd["b"], nn.Parameter)
    with pytest.raises(TypeError, match="cannot assign 'list' object to a parameter"):
        pd["x"] = [1.0]
    net = nn.Sequential(nn.Linear(4, 4), nn.Unflatten(1, (2, 2)))
    assert net(dt.ones((3, 4))).shape == (3, 2, 2)


def _mha_reference(m, q, k, v, attn_mask=None, key_padding_mask=None):
    """PyTorch's multi-head attention, batch-first, from m's parameters, in NumPy."""
    E, H = m.embed_dim, m.num_heads
    d = E // H
    w, b = to_np(m.in_proj_weight), to_np(m.in_proj_bias)
    proj = [x @ w[i * E:(i + 1) * E].T + b[i * E:(i + 1) * E] for i, x in enumerate((q, k, v))]
    N, L, S = q.shape[0], q.shape[1], k.shape[1]
    Q, K, Vv = (p.reshape(N, -1, H, d).transpose(0, 2, 1, 3) for p in proj)
    s = Q @ K.transpose(0, 1, 3, 2) / math.sqrt(d)
    if attn_mask is not None:
        s = s + np.where(attn_mask, -np.inf, 0) if attn_mask.dtype == bool else s + attn_mask
    if key_padding_mask is not None:
        s = s + np.where(key_padding_mask, -np.inf, 0)[:, None, None, :]
    e = np.exp(s - s.max(-1, keepdims=True))
    a = e / e.sum(-1, keepdims=True)
    out = (a @ Vv).transpose(0, 2, 1, 3).reshape(N, L, E)
    return out @ to_np(m.out_proj.weight).T + to_np(m.out_proj.bias), a


def test_multihead_attention(device):
    m = nn.MultiheadAttention(8, 2, batch_first=True, dtype=dt.float64).to(device)
    m.in_proj_bias[...] = dt.asarray(RNG.standard_normal(24), device=device)
    assert list(m.state_dict()) == ["in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"]
    q, k = RNG.standard_normal((3, 4, 8)), RNG.standard_normal((3, 5, 8))
    Q, K = dt.asarray(q, device=device), dt.asarray(k, device=device)
    out, w = m(Q, K, K)
    ref, a = _mha_reference(m, q, k, k)
    close(out, ref, device)
    close(w, a.mean(1), device)
    mask = RNG.random((4, 5)) > 0.5
    mask[:, 0] = False
    pad = np.zeros((3, 5), bool)
    pad[1, 3:] = True
    out, w = m(Q, K, K, key_padding_mask=dt.asarray(pad, device=device), attn_mask=dt.asarray(mask, device=device),
               average_attn_weights=False)
    ref, a = _mha_reference(m, q, k, k, mask, pad)
    close(out, ref, device)
    close(w, a, device)
    seq_first = nn.MultiheadAttention(8, 2, dtype=dt.float64).to(device)
    seq_first.load_state_dict(m.state_dict())
    out2, none = seq_first(Q.swapaxes(0, 1), K.swapaxes(0, 1), K.swapaxes(0, 1), need_weights=False)
    assert none is None
    close(out2.swapaxes(0, 1), _mha_reference(m, q, k, k)[0], device)
    close(m(Q[0], K[0], K[0])[0], _mha_reference(m, q[:1], k[:1], k[:1])[0][0], device)  # unbatched
    with pytest.raises(RuntimeError, match="Need attn_mask if specifying the is_causal hint"):
        m(Q, K, K, is_causal=True)
    with pytest.raises(RuntimeError, match="The shape of the 2D attn_mask is \\(4, 4\\), but should be \\(4, 5\\)"):
        m(Q, K, K, attn_mask=dt.zeros((4, 4), dtype=dt.bool, device=device))
    with pytest.raises(AssertionError, match="embed_dim must be divisible by num_heads"):
        nn.MultiheadAttention(8, 3)
    kv = nn.MultiheadAttention(8, 2, kdim=3, vdim=5)
    assert kv.in_proj_weight is None and kv.k_proj_weight.shape == (8, 3)
    out, _ = kv(dt.ones((4, 2, 8), dtype=dt.float32), dt.ones((6, 2, 3), dtype=dt.float32),
                dt.ones((6, 2, 5), dtype=dt.float32))
    assert out.shape == (4, 2, 8)
    with pytest.raises(AssertionError, match="must have the same batch size and sequence length of key"):
        kv(dt.ones((4, 2, 8), dtype=dt.float32), dt.ones((6, 3, 3), dtype=dt.float32),
           dt.ones((6, 2, 5), dtype=dt.float32))


def _layer_norm_ref(x, w, b, eps=1e-5):
    return _norm(x, -1, eps) * w + b


@pytest.mark.parametrize("norm_first", [False, True])
def test_transformer_encoder_layer(device, norm_first):
    layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True, norm_first=norm_first,
                                       activation="gelu", dtype=dt.float64).to(device).eval()
    keys = list(layer.state_dict())
    assert keys[:4] == ["self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight",
                        "self_attn.out_proj.bias"] and "linear1.weight" in keys and "norm2.bias" in keys
    x = RNG.standard_normal((2, 5, 8))
    p = {k: to_np(v) for k, v in layer.state_dict().items()}
    n1 = lambda v: _layer_norm_ref(v, p["norm1.weight"], p["norm1.bias"])  # noqa: E731
    n2 = lambda v: _layer_norm_ref(v, p["norm2.weight"], p["norm2.bias"])  # noqa: E731

    def ff(v):
        h = v @ p["linear1.weight"].T + p["linear1.bias"]
        h = h * 0.5 * np.vectorize(math.erfc)(-h / math.sqrt(2))
        return h @ p["linear2.weight"].T + p["linear2.bias"]

    def sa(v):
        return _mha_reference(layer.self_attn, v, v, v)[0]

    if norm_first:
        h = x + sa(n1(x))
        expected = h + ff(n2(h))
    else:
        h = n1(x + sa(x))
        expected = n2(h + ff(h))
    close(layer(dt.asarray(x, device=device)), expected, device, rtol=1e-11, atol=1e-12)
    enc = nn.TransformerEncoder(layer, num_layers=2, norm=nn.LayerNorm(8, dtype=dt.float64)).to(device)
    assert "layers.1.linear2.weight" in enc.state_dict() and "norm.weight" in enc.state_dict()
    assert enc.layers[0] is not layer and enc.layers[0].linear1.weight is not layer.linear1.weight
    out = enc(dt.asarray(x, device=device), src_key_padding_mask=dt.asarray(np.eye(2, 5, dtype=bool), device=device))
    assert out.shape == (2, 5, 8) and out.device == dt.device(device)
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
        nn.TransformerEncoderLayer(8, 2, activation="tanh")


@pytest.mark.parametrize("norm_first", [False, True])
def test_transformer_decoder_layer_and_transformer(device, norm_first):
    layer = nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True, norm_first=norm_first,
                                       dtype=dt.float64).to(device).eval()
    keys = list(layer.state_dict())
    assert keys[4:6] == ["multihead_attn.in_proj_weight", "multihead_attn.in_proj_bias"] and keys[-2:] == [
        "norm3.weight", "norm3.bias"]
    tgt, memory = RNG.standard_normal((2, 4, 8)), RNG.standard_normal((2, 6, 8))
    p = {k: to_np(v) for k, v in layer.state_dict().items()}
    norms = [lambda v, i=i: _layer_norm_ref(v, p[f"norm{i}.weight"], p[f"norm{i}.bias"]) for i in (1, 2, 3)]
    causal = np.triu(np.ones((4, 4), bool), 1)

    def ff(v):
        h = np.maximum(v @ p["linear1.weight"].T + p["linear1.bias"], 0)
        return h @ p["linear2.weight"].T + p["linear2.bias"]

    def sa(v):
        return _mha_reference(layer.self_attn, v, v, v, causal)[0]

    def ca(v):
        return _mha_reference(layer.multihead_attn, v, memory, memory)[0]

    if norm_first:
        h = tgt + sa(norms[0](tgt))
        h = h + ca(norms[1](h))
        expected = h + ff(norms[2](h))
    else:
        h = norms[0](tgt + sa(tgt))
        h = norms[1](h + ca(h))
        expected = norms[2](h + ff(h))
    mask = nn.Transformer.generate_square_subsequent_mask(4, device=device, dtype=dt.float64)
    assert to_np(mask).tolist() == np.where(causal, -np.inf, 0).tolist()
    got = layer(dt.asarray(tgt, device=device), dt.asarray(memory, device=device), tgt_mask=mask, tgt_is_causal=True)
    close(got, expected, device, rtol=1e-11, atol=1e-12)
    dec = nn.TransformerDecoder(layer, 2).to(device)
    assert "layers.1.multihead_attn.out_proj.bias" in dec.state_dict()
    # the full model: the encoder's memory feeds every decoder layer
    model = nn.Transformer(8, 2, 1, 2, 16, dropout=0.0, batch_first=True, norm_first=norm_first,
                           dtype=dt.float64).to(device).eval()
    assert len(model.state_dict()) == 12 + 2 + 2 * 18 + 2
    src = dt.asarray(RNG.standard_normal((2, 5, 8)), device=device)
    out = model(src, dt.asarray(tgt, device=device), tgt_mask=mask)
    by_parts = model.decoder(dt.asarray(tgt, device=device), model.encoder(src), tgt_mask=mask)
    close(out, to_np(by_parts), device, rtol=0, atol=0)
    weights = [to_np(v) for k, v in model.state_dict().items() if v.ndim > 1]
    assert all(np.abs(w).max() <= math.sqrt(6 / sum(w.shape)) for w in weights)  # xavier_uniform_
    with pytest.raises(RuntimeError, match="the batch number of src and tgt must be equal"):
        model(src, dt.asarray(tgt[:1], device=device))
    with pytest.raises(RuntimeError, match="the feature number of src and tgt must be equal to d_model"):
        model(src, dt.ones((2, 4, 6), dtype=dt.float64, device=device))


@pytest.mark.parametrize("name", ["sigmoid", "silu", "softplus", "gelu_tanh", "elu", "selu", "celu", "mish",
                                  "logsigmoid", "hardswish", "softsign", "tanhshrink"])
def test_half_precision_activations_compute_in_float32(device, name):
    """Note [Half precision computes in float32]: the float16 result is the
    float32 computation rounded once (sigmoid(-12) was 0 from exp(12)'s
    float16 overflow; tanh-GELU erred by 2000 ulp)."""
    v = np.array([-16.0, -12.0, -4.0, -3.0, -0.5, 0.0, 0.75, 3.0, 9.0])
    fn = (lambda t: F.gelu(t, approximate="tanh")) if name == "gelu_tanh" else getattr(F, name)
    for dtype in (dt.float16, dt.bfloat16):
        t = dt.asarray(v, device=device).astype(dtype)
        got = fn(t)
        assert got.dtype == dtype
        want = fn(t.astype(dt.float32)).astype(dtype)
        assert to_np(got.astype(dt.float32)).tolist() == to_np(want.astype(dt.float32)).tolist()
    assert float(F.sigmoid(dt.asarray(-12.0, device=device).astype(dt.float16))) > 6e-6


def test_more_layer_refusals():
    x = dt.ones((2, 3, 4))
    with pytest.raises(RuntimeError, match="'weight' must be 2-D"):
        F.embedding(dt.asarray([0]), dt.ones(3))
    with pytest.raises(RuntimeError, match="Negative padding is only supported in constant mode"):
        F.pad(x, (-1, 1), mode="replicate")
    with pytest.raises(RuntimeError, match="Padding value causes wrapping around more than once"):
        F.pad(x, (5, 0), mode="circular")
    with pytest.raises(RuntimeError, match="Padding length should be less than or equal to two times"):
        F.pad(dt.ones(3), (1, 1, 1, 1))
    with pytest.raises(RuntimeError, match="running_mean and running_var must be defined in evaluation mode"):
        F.batch_norm(x, None, None)
    with pytest.raises(ValueError, match="expected 2D or 3D input \\(got 1D input\\)"):
        F.batch_norm(dt.ones(3), None, None, training=True)
    with pytest.raises(RuntimeError, match="batch_norm: expected weight of shape \\[3\\], got \\[4\\]"):
        F.batch_norm(x, dt.zeros(3), dt.ones(3), weight=dt.ones(4))
    with pytest.raises(RuntimeError, match="Expected at least 2 dimensions for input tensor but received 1"):
        F.group_norm(dt.ones(4), 2)
    with pytest.raises(RuntimeError, match="Expected bias to be of same shape as normalized_shape"):
        F.layer_norm(x, 4, bias=dt.ones(3))
    with pytest.raises(RuntimeError, match="query must have at least 2 dimensions"):
        F.scaled_dot_product_attention(dt.ones(3), x, x)
    with pytest.raises(RuntimeError, match="query's last dim 4 differs from key's 3"):
        F.scaled_dot_product_attention(x, dt.ones((2, 3, 3)), x)
    with pytest.raises(RuntimeError, match="must divide the number of heads in query"):
        F.scaled_dot_product_attention(dt.ones((1, 3, 2, 4)), dt.ones((1, 2, 2, 4)), dt.ones((1, 2, 2, 4)),
                                       enable_gqa=True)
    with pytest.raises(TypeError, match="attn_mask must be a devtensor.Tensor, not list"):
        F.scaled_dot_product_attention(x, x, x, attn_mask=[[True]])
    with pytest.raises(RuntimeError, match="lambda must be greater or equal to 0"):
        F.softshrink(x, -1)
    with pytest.raises(RuntimeError, match="alpha cannot be 0 for CELU"):
        F.celu(x, 0)
    with pytest.raises(RuntimeError, match="glu does not support scalars"):
        F.glu(dt.asarray(1.0))
    with pytest.raises(RuntimeError, match="smooth_l1_loss does not support negative values for beta"):
        F.smooth_l1_loss(x, x, beta=-1)
    with pytest.raises(ValueError, match="sum is not a valid value for reduction|bad is not a valid value"):
        F.kl_div(x, x, reduction="bad")
    m = nn.MultiheadAttention(4, 2, batch_first=True)
    with pytest.raises(AssertionError, match="was expecting embedding dimension of 4, but got 3"):
        m(dt.ones((1, 2, 3), dtype=dt.float32), dt.ones((1, 2, 3), dtype=dt.float32),
          dt.ones((1, 2, 3), dtype=dt.float32))
    with pytest.raises(RuntimeError, match="The shape of the 3D attn_mask is"):
        q = dt.ones((1, 2, 4), dtype=dt.float32)
        m(q, q, q, attn_mask=dt.zeros((3, 2, 2), dtype=dt.bool))
    with pytest.raises(ValueError, match="embed_dim and num_heads must be greater than 0"):
        nn.MultiheadAttention(0, 2)
    with pytest.raises(AssertionError, match="Padding_idx must be within num_embeddings"):
        nn.Embedding(3, 2, padding_idx=5)
    with pytest.raises(AssertionError, match="Embeddings parameter is expected to be 2-dimensional"):
        nn.Embedding.from_pretrained(dt.ones(3))


# ---- alpha dropout, rrelu, lp pooling, the upsampling aliases ----
def test_alpha_dropout_keeps_mean_and_variance(device):
    x = dt.asarray(RNG.standard_normal(200_000), device=device)
    assert F.alpha_dropout(x, 0.3) is x and F.alpha_dropout(x, 0.0, training=True) is x  # eval: the input
    y = F.alpha_dropout(x, 0.3, training=True)
    a = ((1 - 0.3) * (1 + 0.3 * 1.7580993408473766 ** 2)) ** -0.5
    b = a * 1.7580993408473766 * 0.3
    xs, ys = to_np(x), to_np(y)
    kept = np.isclose(ys, a * xs + b, rtol=1e-12, atol=1e-12)
    dropped = np.isclose(ys, a * -1.7580993408473766 + b, rtol=1e-12)
    assert (kept | dropped).all() and abs(dropped.mean() - 0.3) < 0.01
    assert abs(ys.mean()) < 0.02 and abs(ys.std() - 1) < 0.02  # SELU's fixed point kept
    np.testing.assert_array_equal(to_np(F.alpha_dropout(x, 1.0, training=True)), np.zeros(200_000))
    f = F.feature_alpha_dropout(dt.asarray(RNG.standard_normal((400, 50, 6)), device=device), 0.5, training=True)
    per_channel = to_np(f).reshape(400 * 50, 6)
    a2 = (0.5 * (1 + 0.5 * 1.7580993408473766 ** 2)) ** -0.5
    dropped = np.isclose(per_channel, a2 * -1.7580993408473766 + a2 * 1.7580993408473766 * 0.5, rtol=1e-12)
    assert set(dropped.sum(axis=1)) == {0, 6} and abs(dropped[:, 0].mean() - 0.5) < 0.02  # whole channels
    m = nn.AlphaDropout(0.2)
    assert repr(m) == "AlphaDropout(p=0.2, inplace=False)" and repr(nn.FeatureAlphaDropout()) == \
        "FeatureAlphaDropout(p=0.5, inplace=False)"
    assert m.eval()(x) is x
    z = x.copy()
    assert F.alpha_dropout(z, 0.5, training=True, inplace=True) is z and not np.array_equal(to_np(z), xs)
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"):
        F.alpha_dropout(x, 1.5, training=True)
    with pytest.raises(TypeError, match="alpha_dropout\\(\\) needs a floating point input, got int64"):
        F.alpha_dropout(dt.arange(4, device=device), 0.5, training=True)
    with pytest.raises(RuntimeError, match="Expected an input of at least 2 dimensions"):
        F.feature_alpha_dropout(x, 0.5, training=True)


def test_rrelu(device):
    x = dt.asarray(np.r_[-RNG.uniform(0.5, 2, 50_000), RNG.uniform(0, 2, 10), np.nan], device=device)
    xs = to_np(x)
    np.testing.assert_array_equal(to_np(F.rrelu(x)), np.where(xs >= 0, xs, xs * (1 / 8 + 1 / 3) / 2))
    y = to_np(F.rrelu(x, 0.1, 0.3, training=True))
    slopes = y[:50_000] / xs[:50_000]
    assert slopes.min() >= 0.1 and slopes.max() < 0.3 and len(np.unique(slopes)) > 40_000  # one draw an element
    assert abs(slopes.mean() - 0.2) < 0.005
    np.testing.assert_array_equal(y[50_000:-1], xs[50_000:-1])
    assert np.isnan(y[-1])
    m = nn.RReLU(0.1, 0.3)
    assert repr(m) == "RReLU(lower=0.1, upper=0.3)"
    assert repr(nn.RReLU()) == "RReLU(lower=0.125, upper=0.3333333333333333)"
    np.testing.assert_array_equal(to_np(m.eval()(x)), np.where(xs >= 0, xs, xs * 0.2))
    h = dt.asarray([-2.0, 1.0], dtype=dt.float16, device=device)
    assert F.rrelu_(h) is h and to_np(h).tolist() == [np.float16(-2 * (1 / 8 + 1 / 3) / 2), 1.0]
    with pytest.raises(ValueError, match="lower bound 0.5 should be less than or equal to upper bound 0.1"):
        F.rrelu(x, 0.5, 0.1)
    with pytest.raises(TypeError, match="rrelu\\(\\) needs a floating point input, got int64"):
        F.rrelu(dt.arange(3, device=device))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_lp_pool(n, device):
    x = RNG.standard_normal((2, 3) + (7,) * n)
    t = dt.asarray(x, device=device)
    for p, kernel, stride in ((2.0, 2, None), (3.0, 3, 2), (1.0, 2, 1)):
        got = getattr(F, f"lp_pool{n}d")(t, p, kernel, stride)
        # the reference: every window's (sum x^p)^(1/p) by explicit loops (NaN for a negative sum, as PyTorch's)
        s = stride or kernel
        out = (7 - kernel) // s + 1
        want = np.empty((2, 3) + (out,) * n)
        for pos in np.ndindex(*(out,) * n):
            window = x[(slice(None), slice(None)) + tuple(slice(i * s, i * s + kernel) for i in pos)]
            total = (window ** p).reshape(2, 3, -1).sum(axis=-1)
            with np.errstate(invalid="ignore"):
                want[(slice(None), slice(None)) + pos] = total ** (1 / p)
        got_np = to_np(got)
        finite = ~np.isnan(want)
        np.testing.assert_allclose(got_np[finite], want[finite], rtol=1e-10, atol=1e-12)
        assert np.isnan(got_np[~finite]).all()
    m = getattr(nn, f"LPPool{n}d")(2, 3, stride=2)
    assert repr(m) == f"LPPool{n}d(norm_type=2, kernel_size=3, stride=2, ceil_mode=False)"
    np.testing.assert_allclose(to_np(m(t)), to_np(getattr(F, f"lp_pool{n}d")(t, 2.0, 3, 2)))
    with pytest.raises(RuntimeError, match=f'"lp_pool{n}d" not implemented for \'int64\''):
        getattr(F, f"lp_pool{n}d")(dt.ones((1, 1) + (4,) * n, dtype=dt.int64, device=device), 2, 2)


def test_upsampling_aliases(device):
    x = dt.asarray(RNG.standard_normal((1, 2, 3, 4)), device=device)
    with pytest.warns(UserWarning, match="`nn.functional.upsample_bilinear` is deprecated"):
        got = F.upsample_bilinear(x, scale_factor=2)
    np.testing.assert_array_equal(to_np(got), to_np(F.interpolate(x, scale_factor=2, mode="bilinear",
                                                                  align_corners=True)))
    with pytest.warns(UserWarning, match="`nn.functional.upsample_nearest` is deprecated"):
        np.testing.assert_array_equal(to_np(F.upsample_nearest(x, size=(6, 8))),
                                      to_np(F.interpolate(x, size=(6, 8))))
    with pytest.warns(UserWarning, match="`nn.functional.upsample` is deprecated"):
        np.testing.assert_array_equal(to_np(F.upsample(x, size=5, mode="bicubic")),
                                      to_np(F.interpolate(x, size=5, mode="bicubic")))
    b = nn.UpsamplingBilinear2d(scale_factor=2)
    assert repr(b) == "UpsamplingBilinear2d(scale_factor=2.0, mode='bilinear')"
    np.testing.assert_array_equal(to_np(b(x)), to_np(got))
    assert repr(nn.UpsamplingNearest2d(size=4)) == "UpsamplingNearest2d(size=4, mode='nearest')"
    np.testing.assert_array_equal(to_np(nn.UpsamplingNearest2d(scale_factor=2)(x)), to_np(dt.repeat(
        dt.repeat(x, 2, axis=2), 2, axis=3)))


# ---- embedding_bag ----
def _bags_reference(weight, flat, starts, end, mode, padding_idx=None, psw=None):
    out = []
    bounds = list(starts) + [end]
    for b in range(len(starts)):
        rows = [weight[flat[i]] * (1 if psw is None else psw[i]) for i in range(bounds[b], bounds[b + 1])
                if flat[i] != padding_idx]
        if not rows:
            out.append(np.zeros(weight.shape[1]))
        elif mode == "sum":
            out.append(np.sum(rows, axis=0))
        elif mode == "mean":
            out.append(np.mean(rows, axis=0))
        else:
            out.append(np.max(rows, axis=0))
    return np.array(out)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag(mode, device):
    w = RNG.standard_normal((10, 3))
    flat = np.array([1, 2, 4, 5, 4, 3, 2, 9, 0, 0, 7])
    starts = [0, 4, 4, 8]  # an empty bag
    wt, it = dt.asarray(w, device=device), dt.asarray(flat, device=device)
    got = F.embedding_bag(it, wt, dt.asarray(starts, device=device), mode=mode)
    np.testing.assert_allclose(to_np(got), _bags_reference(w, flat, starts, 11, mode), rtol=1e-12)
    # padding_idx left out (of the mean's count too), include_last_offset ending before the input does
    got = F.embedding_bag(it, wt, dt.asarray(starts + [10], device=device), mode=mode, padding_idx=-1,
                          include_last_offset=True)
    np.testing.assert_allclose(to_np(got), _bags_reference(w, flat, starts, 10, mode, padding_idx=9), rtol=1e-12)
    rows = dt.asarray(flat[:10].reshape(2, 5), device=device)  # 2-D: a bag a row
    np.testing.assert_allclose(to_np(F.embedding_bag(rows, wt, mode=mode)),
                               _bags_reference(w, flat[:10], [0, 5], 10, mode), rtol=1e-12)
    if mode == "sum":
        psw = RNG.uniform(0.5, 2, 11)
        np.testing.assert_allclose(
            to_np(F.embedding_bag(it, wt, dt.asarray(starts, device=device), mode="sum",
                                  per_sample_weights=dt.asarray(psw, device=device))),
            _bags_reference(w, flat, starts, 11, "sum", psw=psw), rtol=1e-12)
    m = nn.EmbeddingBag.from_pretrained(wt.float(), mode=mode)
    assert repr(m) == f"EmbeddingBag(10, 3, mode='{mode}')" and m.weight.requires_grad is False
    assert m(rows).dtype == dt.float32 and m(rows).device == dt.device(device)
    fresh = nn.EmbeddingBag(5, 2, mode=mode, padding_idx=0).to(device)
    assert fresh.weight.shape == (5, 2) and (to_np(fresh.weight)[0] == 0).all()


def test_embedding_bag_errors(device):
    w = dt.ones((5, 2), device=device)
    i = dt.asarray([0, 1, 2], device=device)
    with pytest.raises(ValueError, match="offsets has to be a 1D Tensor but got None"):
        F.embedding_bag(i, w)
    with pytest.raises(ValueError, match="if input is 2D, then offsets has to be None"):
        F.embedding_bag(i.reshape(1, 3), w, dt.asarray([0], device=device))
    with pytest.raises(RuntimeError, match="offsets\\[0\\] has to be 0.*However, got 1"):
        F.embedding_bag(i, w, dt.asarray([1], device=device))
    with pytest.raises(RuntimeError, match="offsets\\[-1\\] can not be greater than input's length 3, but got 4"):
        F.embedding_bag(i, w, dt.asarray([0, 4], device=device))
    with pytest.raises(RuntimeError, match="offsets must be non-decreasing"):
        F.embedding_bag(i, w, dt.asarray([0, 2, 1], device=device))
    with pytest.raises(ValueError, match="mode has to be one of sum, mean or max"):
        F.embedding_bag(i, w, dt.asarray([0], device=device), mode="min")
    with pytest.raises(NotImplementedError, match="per_sample_weights is only supported for mode='sum'"):
        F.embedding_bag(i, w, dt.asarray([0], device=device), per_sample_weights=dt.ones(3, device=device))
    with pytest.raises(ValueError, match="must have the same shape as the input"):
        F.embedding_bag(i, w, dt.asarray([0], device=device), mode="sum", per_sample_weights=dt.ones(2, device=device))
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 5"):
        F.embedding_bag(dt.asarray([0, 7], device=device), w, dt.asarray([0], device=device))
    with pytest.raises(RuntimeError, match=r"per_sample_weights \(float32\) must have weight's dtype \(float64\)"):
        F.embedding_bag(i, w, dt.asarray([0], device=device), mode="sum",
                        per_sample_weights=dt.ones(3, dtype=dt.float32, device=device))
    with pytest.raises(RuntimeError, match="'indices' to have one of the following scalar types: Long, Int"):
        F.embedding_bag(dt.ones(3, device=device), w, dt.asarray([0], device=device))
    with pytest.raises(ValueError, match="padding_idx must be within the number of embeddings"):
        F.embedding_bag(i, w, dt.asarray([0], device=device), padding_idx=5)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_empty_bags_at_the_end(mode, device):
    """Bags starting at the input's end (one reduceat row appended), an empty
    input, rows of length 0: zeros, as PyTorch's."""
    w = RNG.standard_normal((4, 3))
    wt = dt.asarray(w, device=device)
    got = F.embedding_bag(dt.asarray([1, 2], device=device), wt, dt.asarray([0, 2, 2], device=device), mode=mode)
    np.testing.assert_allclose(to_np(got), _bags_reference(w, [1, 2], [0, 2, 2], 2, mode), rtol=1e-12)
    got = F.embedding_bag(dt.asarray([1, 2, 3], device=device), wt, dt.asarray([0, 1, 2, 2], device=device),
                          mode=mode, include_last_offset=True)
    np.testing.assert_allclose(to_np(got), _bags_reference(w, [1, 2, 3], [0, 1, 2], 2, mode), rtol=1e-12)
    empty = F.embedding_bag(dt.asarray([], dtype=dt.int64, device=device), wt, dt.asarray([0, 0], device=device),
                            mode=mode)
    assert to_np(empty).tolist() == [[0.0] * 3] * 2
    assert to_np(F.embedding_bag(dt.zeros((2, 0), dtype=dt.int64, device=device), wt, mode=mode)).tolist() == \
        [[0.0] * 3] * 2
    assert F.embedding_bag(dt.asarray([1], device=device), wt, dt.asarray([], dtype=dt.int64, device=device),
                           mode=mode).shape == (0, 3)


def test_regression_losses_and_cat_raise_pytorchs_shape_errors(device):
    """PyTorch's warning, then its RuntimeError (not NumPy's ValueError) for
    shapes that do not broadcast; torch.cat's own words."""
    for loss in (F.mse_loss, F.l1_loss, F.huber_loss, F.smooth_l1_loss):
        with pytest.warns(UserWarning, match=r"Using a target size \(\(4,\)\) that is different to the input size"):
            with pytest.raises(RuntimeError, match=r"The size of tensor a \(3\) must match the size of tensor b "
                                                   r"\(4\) at non-singleton dimension 1"):
                loss(dt.ones((2, 3), device=device), dt.ones(4, device=device))
        with pytest.warns(UserWarning, match="that is different to the input size"):
            assert loss(dt.ones((2, 3), device=device), dt.ones((2, 1), device=device)).shape == ()
    with pytest.raises(RuntimeError, match="Sizes of tensors must match except in dimension 1. Expected size 2 but "
                                           "got size 3 for tensor number 1 in the list."):
        dt.cat((dt.ones((2, 3), device=device), dt.ones((3, 3), device=device)), dim=1)
    with pytest.raises(RuntimeError, match="Tensors must have same number of dimensions: got 2 and 3"):
        dt.cat([dt.ones((2, 3), device=device), dt.ones((2, 3, 1), device=device)])
    assert dt.cat([dt.ones((2, 3), device=device), dt.ones((2, 1), device=device)], dim=-1).shape == (2, 4)
    legacy = dt.cat([dt.zeros(0, dtype=dt.float32, device=device), dt.ones((2, 3), dtype=dt.float32, device=device)])
    assert legacy.shape == (2, 3) and legacy.dtype == dt.float32  # PyTorch skips 1-d empty tensors
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"):
        dt.cat([dt.ones((2, 3), device=device)], dim=2)


def test_remaining_error_paths_of_the_new_functions(device):
    """The error paths of embedding_bag, ctc_loss, fractional pooling and the
    adaptive softmax not met elsewhere: type and message."""
    w = dt.ones((5, 2), device=device)
    i = dt.asarray([0, 1, 2], device=device)
    with pytest.raises(ValueError, match="offsets has to be a 1D Tensor$"):
        F.embedding_bag(i, w, dt.zeros((1, 1), dtype=dt.int64, device=device))
    with pytest.raises(RuntimeError, match="offsets must hold integers, got float64"):
        F.embedding_bag(i, w, dt.zeros(1, device=device))
    with pytest.raises(RuntimeError, match="include_last_offset: number of offsets should be at least 1"):
        F.embedding_bag(i, w, dt.zeros(0, dtype=dt.int64, device=device), include_last_offset=True)
    with pytest.raises(ValueError, match="input has to be 1D or 2D Tensor, but got Tensor of dimension 3"):
        F.embedding_bag(dt.zeros((1, 1, 1), dtype=dt.int64, device=device), w)
    lp = dt.zeros((4, 2, 3), device=device)
    with pytest.raises(RuntimeError, match="ctc_loss: targets hold 3 sequences for a batch of 2"):
        F.ctc_loss(lp, dt.ones((3, 2), dtype=dt.int64, device=device), [4, 4], [1, 1])
    with pytest.raises(RuntimeError, match=r"unbatched log_probs take 1-D targets, got \[1, 2\]"):
        F.ctc_loss(lp[:, 0], dt.ones((1, 2), dtype=dt.int64, device=device), 4, 2)
    with pytest.raises(RuntimeError, match=r"targets must be 1-D \(concatenated\) or 2-D \(padded\)"):
        F.ctc_loss(lp, dt.ones((2, 2, 1), dtype=dt.int64, device=device), [4, 4], [1, 1])
    with pytest.raises(RuntimeError, match="ctc_loss: input_lengths must hold integers, got float64"):
        F.ctc_loss(lp, dt.ones((2, 2), dtype=dt.int64, device=device), dt.ones(2, device=device), [1, 1])
    with pytest.raises(ValueError, match="only one of output_size and output_ratio may be specified"):
        nn.FractionalMaxPool2d(2, output_size=3, output_ratio=0.5)
    m = nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2]).to(device)
    with pytest.raises(TypeError, match="forward: target must be a tensor of integer class indices"):
        m(dt.ones((2, 4), dtype=dt.float32, device=device), dt.ones(2, device=device))
    with pytest.raises(TypeError, match="forward: input must be a devtensor.Tensor, got list"):
        m([[1.0] * 4], dt.asarray([0], device=device))


def test_lp_pool_of_infinite_norm_and_attention_to_masked_rows(device):
    """lp_pool with norm_type inf is the window's largest |x| (-inf: minus
    the smallest), 0 is PyTorch's ValueError; scaled_dot_product_attention
    gives zeros for a query row whose every key is masked (PyTorch's safe
    softmax), where MultiheadAttention's NaN stays."""
    F = dt.nn.functional
    x = np.array([[[-3.0, 1.0, 2.0, -0.5, 4.0]]])
    t = dt.asarray(x, device=device)
    windows = np.abs(x[..., :4]).reshape(1, 1, 2, 2)
    assert F.lp_pool1d(t, float("inf"), 2).tolist() == windows.max(-1).tolist()
    assert F.lp_pool1d(t, -float("inf"), 2).tolist() == windows.min(-1).tolist()
    m = np.abs(np.arange(-8.0, 8.0)).reshape(1, 1, 4, 4)
    assert F.lp_pool2d(dt.asarray(m, device=device), float("inf"), 2).tolist() == \
        m.reshape(1, 1, 2, 2, 2, 2).max(axis=(3, 5)).tolist()
    with pytest.raises(ValueError, match="norm_type must be a non-zero value, but got 0"):
        F.lp_pool1d(t, 0, 2)
    q = dt.ones((1, 1, 2, 3), device=device)
    for mask in (dt.asarray([[True, True], [False, False]], device=device),
                 dt.asarray([[0.0, 0.0], [-np.inf, -np.inf]], device=device)):
        out = F.scaled_dot_product_attention(q, q, q, attn_mask=mask)
        assert out[0, 0].tolist() == [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]
    half = F.scaled_dot_product_attention(q, q, q, attn_mask=dt.asarray([[True, False], [False, True]], device=device))
    assert half[0, 0].tolist() == [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]


@pytest.mark.parametrize("bias_kv, zero_attn", [(True, False), (False, True), (True, True)])
def test_multihead_attention_extra_keys(device, bias_kv, zero_attn):
    """add_bias_kv appends the learned key and value bias_k/bias_v (state-
    dict keys after in_proj_bias, xavier-normal), add_zero_attn a zero one,
    each never masked; against a NumPy computation from the module's own
    parameters, with both masks (checked against PyTorch 2.15 when added)."""
    rng = np.random.default_rng(3)
    m = nn.MultiheadAttention(8, 2, add_bias_kv=bias_kv, add_zero_attn=zero_attn, batch_first=True,
                              dtype=dt.float64).to(device)
    keys = list(m.state_dict())
    assert keys[:2] == ["in_proj_weight", "in_proj_bias"] and keys[-2:] == ["out_proj.weight", "out_proj.bias"]
    assert ("bias_k" in keys and m.bias_k.shape == (1, 1, 8)) == bias_kv and m.add_zero_attn == zero_attn
    N, L, S, H, d = 2, 3, 4, 2, 4
    q, k, v = rng.standard_normal((N, L, 8)), rng.standard_normal((N, S, 8)), rng.standard_normal((N, S, 8))
    am = rng.random((L, S)) < 0.3
    kpm = rng.random((N, S)) < 0.3
    am[:, 0] = kpm[:, 0] = False
    out, w = m(*(dt.asarray(x, device=device) for x in (q, k, v)), attn_mask=dt.asarray(am, device=device),
               key_padding_mask=dt.asarray(kpm, device=device))
    W, b = to_np(m.in_proj_weight), to_np(m.in_proj_bias)
    qp, kp, vp = q @ W[:8].T + b[:8], k @ W[8:16].T + b[8:16], v @ W[16:].T + b[16:]
    extra = []
    if bias_kv:
        kp = np.concatenate([kp, np.broadcast_to(to_np(m.bias_k), (N, 1, 8))], axis=1)
        vp = np.concatenate([vp, np.broadcast_to(to_np(m.bias_v), (N, 1, 8))], axis=1)
        extra.append(0)
    if zero_attn:
        kp, vp = (np.concatenate([x, np.zeros((N, 1, 8))], axis=1) for x in (kp, vp))
        extra.append(0)
    mask = np.where(np.concatenate([am, np.zeros((L, len(extra)), bool)], 1)[None, None], -np.inf, 0.0) + \
        np.where(np.concatenate([kpm, np.zeros((N, len(extra)), bool)], 1)[:, None, None, :], -np.inf, 0.0)
    heads = lambda x: x.reshape(N, -1, H, d).transpose(0, 2, 1, 3)  # noqa: E731
    scores = heads(qp) @ heads(kp).transpose(0, 1, 3, 2) / math.sqrt(d) + mask
    p = np.exp(scores - scores.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    o = (p @ heads(vp)).transpose(0, 2, 1, 3).reshape(N, L, 8) @ to_np(m.out_proj.weight).T + to_np(m.out_proj.bias)
    np.testing.assert_allclose(to_np(out), o, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(to_np(w), p.mean(1), rtol=1e-12, atol=1e-12)
