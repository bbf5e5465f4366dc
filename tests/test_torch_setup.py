"""PyTorch's setup, configuration and small utility names (devtensor/
_torch_setup.py, backends.cudnn, cuda.amp, nn.utils, and the method and
function aliases added beside them), on every device."""
import builtins
import itertools

import numpy as np
import pytest

import devtensor as dt
import devtensor.nn as nn
import devtensor.nn.functional as F
from helpers import to_np


def test_generator_objects():
    g = dt.Generator().manual_seed(42)
    assert isinstance(g, dt.random.Generator) and g.initial_seed() == 42 and "cpu" in repr(g)
    a = dt.randperm(8, generator=g).tolist()
    assert sorted(a) == list(range(8)) and dt.randperm(8, generator=dt.Generator().manual_seed(42)).tolist() == a
    s = g.seed()
    assert g.initial_seed() == s and dt.multinomial(dt.ones(4), 2, generator=g).shape == (2,)
    dt.manual_seed(123)
    assert dt.initial_seed() == 123


def test_setup_switches():
    assert dt.Size([2, 3]) == (2, 3) == dt.zeros((2, 3)).shape and dt.Size([2, 3]).numel() == 6
    dt.use_deterministic_algorithms(True)
    assert dt.are_deterministic_algorithms_enabled()
    dt.use_deterministic_algorithms(False)
    before = dt.backends.cuda.matmul.allow_tf32
    try:
        dt.set_float32_matmul_precision("high")
        assert dt.get_float32_matmul_precision() == "high" and dt.backends.cudnn.allow_tf32
        dt.set_float32_matmul_precision("highest")
        assert not dt.backends.cuda.matmul.allow_tf32
        with pytest.raises(RuntimeError, match="Invalid precision"):
            dt.set_float32_matmul_precision("low")
    finally:
        dt.backends.cuda.matmul.allow_tf32 = before
    dt.backends.cudnn.benchmark = True
    dt.backends.cudnn.deterministic = True
    assert dt.backends.cudnn.benchmark and not dt.backends.cudnn.is_available()
    dt.backends.cudnn.benchmark = False
    with dt.autocast("cuda", dtype=dt.float16), dt.cuda.amp.autocast():
        assert (dt.ones(2, dtype=dt.float32) @ dt.ones(2, dtype=dt.float32)).dtype == dt.float32  # unchanged

    @dt.autocast("cpu")
    def f(x):
        return x + 1
    assert f(1) == 2
    net = nn.Linear(2, 2)
    assert dt.compile(net) is net and dt.compile()(f) is f
    assert dt.cuda.is_bf16_supported() == dt.cuda.is_available()
    ns = {}
    exec("from devtensor import *", ns)
    assert "compile" not in ns and "t" not in ns and builtins.compile  # star imports keep Python's compile


def test_function_and_method_aliases(device):
    a = np.arange(6.0).reshape(2, 3) - 2
    x = dt.asarray(a, device=device)
    assert dt.add(x, x, alpha=2).tolist() == (a + 2 * a).tolist() and dt.subtract(x, 1, alpha=3).tolist() == \
        (a - 3).tolist()
    with pytest.raises(RuntimeError, match="alpha must not be a floating point number"):
        dt.add(dt.arange(3, device=device), 1, alpha=0.5)
    assert dt.softmax(x, 1, dtype=dt.float32).dtype == dt.float32 and x.log_softmax(0, dtype=dt.float32).dtype == \
        dt.float32
    assert dt.neg(x).tolist() == (-a).tolist()
    assert float(dt.norm(x)) == pytest.approx(np.linalg.norm(a)) and dt.norm(x, dim=1).shape == (2,)
    assert float(dt.dist(x, x + 1)) == pytest.approx(np.sqrt(6)) and float(dt.dist(x, 0, p=1)) == np.abs(a).sum()
    assert x.select(1, 2).tolist() == a[:, 2].tolist() and x.reshape_as(dt.zeros((3, 2))).shape == (3, 2)
    assert x.diag().tolist() == np.diag(a).tolist() and x[0].diag().shape == (3, 3)
    z = dt.zeros((3, 3), device=device)
    assert z.fill_diagonal_(4) is z and to_np(z).tolist() == np.diag([4.0] * 3).tolist()
    e = dt.zeros(500, device=device).exponential_(2.0)
    assert float(e.min()) > 0 and 0.35 < float(e.mean()) < 0.65
    assert x.type() == ("devtensor.cuda.DoubleTensor" if device != "cpu" else "devtensor.DoubleTensor")
    assert x.type(dt.float32).dtype == dt.float32
    c = dt.cross(dt.eye(3, device=device), dt.eye(3, device=device)[[1, 2, 0]], dim=1)
    assert to_np(c).tolist() == np.cross(np.eye(3), np.eye(3)[[1, 2, 0]]).tolist()
    r = dt.linalg.lstsq(dt.eye(2, device=device), dt.ones(2, device=device))
    assert r.solution.tolist() == [1.0, 1.0] and r._fields == ("solution", "residuals", "rank", "singular_values")


def test_nn_utils():
    seqs = [dt.ones(2), dt.full((3,), 2.0), dt.zeros(1)]
    p = nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1)
    assert p.tolist() == [[1, 1, -1], [2, 2, 2], [0, -1, -1]]
    assert nn.utils.rnn.pad_sequence(seqs).shape == (3, 3)
    assert nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_side="left").tolist()[0] == [0, 1, 1]
    with pytest.raises(RuntimeError, match="must match except in the first dimension"):
        nn.utils.rnn.pad_sequence([dt.ones((2, 2)), dt.ones((2, 3))])
    net = nn.Linear(3, 2)
    assert float(nn.utils.clip_grad_norm_(net.parameters(), 1.0)) == 0.0  # no autograd: no gradients to clip
    nn.utils.clip_grad_value_(net.parameters(), 0.1)
    v = nn.utils.parameters_to_vector(net.parameters())
    assert v.shape == (8,)
    nn.utils.vector_to_parameters(dt.arange(8.0).astype(dt.float32), net.parameters())
    assert net.bias.tolist() == [6.0, 7.0]


def test_new_layers(device):
    x = dt.asarray([[-2.0, 3.0], [1.0, -1.0]], device=device).astype(dt.float32)
    assert nn.PReLU().to(device)(x).tolist() == [[-0.5, 3.0], [1.0, -0.25]]
    pr = nn.PReLU(2, init=0.1).to(device)
    assert list(pr.state_dict()) == ["weight"] and np.allclose(to_np(pr(x)), [[-0.2, 3.0], [1.0, -0.1]])
    with pytest.raises(RuntimeError, match="Mismatch of parameter numbers and input channel size"):
        F.prelu(x, dt.ones(3, device=device))
    a = np.arange(32.0).reshape(1, 8, 2, 2)
    t = dt.asarray(a, device=device)
    y = F.pixel_shuffle(t, 2)
    want = a.reshape(1, 2, 2, 2, 2, 2).transpose(0, 1, 4, 2, 5, 3).reshape(1, 2, 4, 4)
    assert to_np(y).tolist() == want.tolist() and to_np(nn.PixelUnshuffle(2)(y)).tolist() == a.tolist()
    img = np.arange(2 * 4 * 5.0).reshape(1, 2, 4, 5)
    cols = to_np(F.unfold(dt.asarray(img, device=device), (2, 3), padding=1, stride=(1, 2)))
    padded = np.pad(img, ((0, 0), (0, 0), (1, 1), (1, 1)))
    want = np.stack([padded[0, :, i:i + 2, j:j + 3].reshape(-1) for i, j in
                     itertools.product(range(5), range(0, 5, 2))], axis=1)
    assert cols.shape == (1, 12, 15) and cols[0].tolist() == want.tolist()
    d = nn.Dropout2d(0.5)(dt.ones((4, 6, 3, 3), device=device))
    per_channel = to_np(d).reshape(24, 9)
    assert all(len(set(row)) == 1 and row[0] in (0.0, 2.0) for row in per_channel.tolist())
    assert nn.Dropout2d(0.5).eval()(dt.ones((1, 2, 2, 2))).tolist() == dt.ones((1, 2, 2, 2)).tolist()
    with pytest.raises(RuntimeError, match="Expected 3D or 4D input"):
        F.dropout2d(dt.ones(3), 0.5)
    v = np.arange(64.0).reshape(1, 1, 4, 4, 4)
    pooled = nn.AdaptiveAvgPool3d(2)(dt.asarray(v, device=device))
    assert to_np(pooled).ravel().tolist() == v.reshape(2, 2, 2, 2, 2, 2).mean(axis=(1, 3, 5)).ravel().tolist()
    w = dt.empty(4000)
    nn.init.trunc_normal_(w, std=0.5, a=-0.5, b=0.6)
    assert float(w.min()) >= -0.5 and float(w.max()) <= 0.6 and 0.2 < float(w.std()) < 0.4
    with pytest.raises(ValueError, match="a < b"):
        nn.init.trunc_normal_(w, a=1, b=0)
