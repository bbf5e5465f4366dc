"""Lazy modules (Note [Lazy modules] in nn/lazy.py): LazyConv*d,
LazyConvTranspose*d, LazyBatchNorm*d, LazyInstanceNorm*d (LazyLinear's own
tests are in test_nn.py): the size read from the first input, the result
equal to the eager module's with the same parameters, the class it becomes,
moves before the first call, state dicts, and inputs refused before
anything changes."""
import copy
import io
import pickle

import numpy as np
import pytest

import devtensor as dt
from devtensor import nn
from helpers import to_np

CONVS = [(nn.LazyConv1d, nn.Conv1d, 1), (nn.LazyConv2d, nn.Conv2d, 2), (nn.LazyConv3d, nn.Conv3d, 3),
         (nn.LazyConvTranspose1d, nn.ConvTranspose1d, 1), (nn.LazyConvTranspose2d, nn.ConvTranspose2d, 2),
         (nn.LazyConvTranspose3d, nn.ConvTranspose3d, 3)]
NORMS = [(nn.LazyBatchNorm1d, nn.BatchNorm1d, (5, 4, 3)), (nn.LazyBatchNorm2d, nn.BatchNorm2d, (5, 4, 3, 2)),
         (nn.LazyBatchNorm3d, nn.BatchNorm3d, (3, 4, 2, 3, 2)), (nn.LazyInstanceNorm1d, nn.InstanceNorm1d, (5, 4, 6)),
         (nn.LazyInstanceNorm2d, nn.InstanceNorm2d, (2, 4, 3, 5)),
         (nn.LazyInstanceNorm3d, nn.InstanceNorm3d, (2, 4, 3, 2, 3))]


@pytest.mark.parametrize("lazy_cls, eager_cls, n", CONVS, ids=lambda v: getattr(v, "__name__", str(v)))
def test_lazy_convolutions_become_the_eager_module(lazy_cls, eager_cls, n, device):
    rng = np.random.default_rng(n)
    m = lazy_cls(6, 3, stride=2, padding=1, groups=2, bias=True, dtype=dt.float64)
    assert repr(m).startswith(f"{lazy_cls.__name__}(0, 6, kernel_size=({'3, ' * (n - 1)}3")
    assert isinstance(m.weight, nn.UninitializedParameter) and m.has_uninitialized_params()
    m.to(device)
    x = dt.asarray(rng.standard_normal((2, 4) + (5,) * n), device=device)
    y = m(x)
    assert type(m) is eager_cls and m.in_channels == 4 and not hasattr(m, "cls_to_become")
    want_w = (4, 3) if m._transposed else (6, 2)
    assert m.weight.shape == want_w + (3,) * n and m.bias.shape == (6,)
    assert m.weight.device == dt.device(device) and m.weight.dtype == dt.float64
    assert type(m.weight) is nn.Parameter and m.weight.requires_grad
    # initialised as the eager module: U(-b, b), b = 1/sqrt(fan_in), fan_in = weight.shape[1] * prod(kernel)
    bound = 1 / np.sqrt(m.weight.shape[1] * 3 ** n)
    w = to_np(m.weight)
    assert np.abs(w).max() <= bound and np.abs(w).max() > bound / 2 and np.abs(to_np(m.bias)).max() <= bound
    eager = eager_cls(4, 6, 3, stride=2, padding=1, groups=2, dtype=dt.float64).to(device)
    eager.load_state_dict(m.state_dict())
    np.testing.assert_array_equal(to_np(y), to_np(eager(x)))
    assert repr(m) == repr(eager)
    # an unbatched input gives in_channels from its dim 0
    u = lazy_cls(2, 1)
    assert u(dt.ones((3,) + (4,) * n, device=device)).shape[0] == 2 and u.in_channels == 3


@pytest.mark.parametrize("lazy_cls, eager_cls, n", CONVS[:3], ids=lambda v: getattr(v, "__name__", str(v)))
def test_lazy_convolution_refuses_inputs_and_stays_lazy(lazy_cls, eager_cls, n, device):
    m = lazy_cls(4, 3, groups=2)
    with pytest.raises(ValueError,
                       match=r"in_channels \(3, from the input's dim 1\) must be divisible by groups \(2\)"):
        m(dt.ones((1, 3) + (5,) * n, device=device))
    with pytest.raises(RuntimeError, match=rf"Expected {n + 1}D \(unbatched\) or {n + 2}D \(batched\) input"):
        m(dt.ones((5,) * (n + 3), device=device))
    with pytest.raises(TypeError, match="input must be a devtensor.Tensor, got list"):
        m([1.0, 2.0])
    assert type(m) is lazy_cls and m.has_uninitialized_params() and m.in_channels == 0


def test_lazy_modules_in_a_sequential_network(device):
    """D2L's later chapters build their CNNs from lazy layers."""
    net = nn.Sequential(nn.LazyConv2d(6, kernel_size=5, padding=2), nn.LazyBatchNorm2d(), nn.Sigmoid(),
                        nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(), nn.LazyLinear(10))
    net.to(device)
    x = dt.asarray(np.random.default_rng(0).standard_normal((2, 1, 28, 28)), device=device).float()
    y = net(x)
    assert y.shape == (2, 10) and y.device == dt.device(device)
    assert [type(m) for m in net] == [nn.Conv2d, nn.BatchNorm2d, nn.Sigmoid, nn.AvgPool2d, nn.Flatten, nn.Linear]
    assert net[1].num_features == 6 and net[5].in_features == 6 * 14 * 14
    assert net[1].running_mean.device == dt.device(device)


@pytest.mark.parametrize("lazy_cls, eager_cls, shape", NORMS, ids=lambda v: getattr(v, "__name__", str(v)))
def test_lazy_norms_become_the_eager_module(lazy_cls, eager_cls, shape, device):
    affine = lazy_cls.__name__.startswith("LazyBatch") or None  # the eager defaults, and affine instance norm
    kwargs = {} if affine else {"affine": True, "track_running_stats": True}
    m = lazy_cls(momentum=0.2, **kwargs)
    assert repr(m).startswith(f"{lazy_cls.__name__}(0, eps=1e-05, momentum=0.2, affine=True, track_running_stats=True")
    assert isinstance(m.running_mean, nn.UninitializedBuffer) and str(m.running_mean) == "<UninitializedBuffer>"
    m.to(device, dt.float64)  # moved and cast before the first call
    assert m.running_mean.device == dt.device(device) and m.running_mean.dtype == dt.float64
    assert isinstance(m.running_mean, nn.UninitializedBuffer)
    x = dt.asarray(np.random.default_rng(1).standard_normal(shape), device=device)
    y = m(x)
    assert type(m) is eager_cls and m.num_features == 4
    assert type(m.running_mean) is dt.Tensor and m.running_mean.shape == (4,)
    assert m.running_mean.dtype == dt.float64 and m.weight.device == dt.device(device)
    eager = eager_cls(4, momentum=0.2, **kwargs).to(device, dt.float64)
    np.testing.assert_allclose(to_np(y), to_np(eager(x)), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(to_np(m.running_mean), to_np(eager.running_mean), rtol=1e-12)
    np.testing.assert_array_equal(to_np(m.weight), np.ones(4))
    assert int(m.num_batches_tracked) == (1 if affine else 0)  # PyTorch's instance norms count nothing


def test_lazy_norm_refuses_inputs_and_stays_lazy(device):
    m = nn.LazyBatchNorm2d()
    with pytest.raises(ValueError, match=r"expected 4D input \(got 3D input\)"):
        m(dt.ones((2, 3, 4), device=device))
    assert type(m) is nn.LazyBatchNorm2d and m.has_uninitialized_params()
    i = nn.LazyInstanceNorm2d(affine=True)
    with pytest.raises(ValueError, match=r"expected 3D or 4D input \(got 2D input\)"):
        i(dt.ones((2, 3), device=device))
    i(dt.ones((3, 4, 4), device=device))  # unbatched: the channels are dim 0
    assert type(i) is nn.InstanceNorm2d and i.num_features == 3 and i.weight.shape == (3,)


def test_lazy_norm_without_parameters_or_statistics(device):
    """Nothing to materialise: the first call still sets num_features and
    the class, as PyTorch's."""
    m = nn.LazyInstanceNorm1d()
    assert not m.has_uninitialized_params()
    x = dt.asarray(np.random.default_rng(2).standard_normal((2, 3, 5)), device=device)
    y = m(x)
    assert type(m) is nn.InstanceNorm1d and m.num_features == 3
    np.testing.assert_allclose(to_np(y), to_np(nn.InstanceNorm1d(3)(x)), rtol=1e-6, atol=1e-6)


def test_lazy_state_dicts(device):
    conv, norm = nn.Conv2d(4, 6, 3, groups=2).to(device), nn.BatchNorm2d(6).to(device)
    norm(dt.asarray(np.random.default_rng(3).standard_normal((2, 6, 3, 3)), device=device).float())
    lazy = nn.Sequential(nn.LazyConv2d(6, 3, groups=2), nn.LazyBatchNorm2d())
    lazy.load_state_dict({**{f"0.{k}": v for k, v in conv.state_dict().items()},
                          **{f"1.{k}": v for k, v in norm.state_dict().items()}})
    assert type(lazy[0]) is nn.Conv2d and lazy[0].in_channels == 4  # weight (6, 2, 3, 3) with groups=2
    assert type(lazy[1]) is nn.BatchNorm2d and lazy[1].num_features == 6
    for key, value in norm.state_dict().items():
        np.testing.assert_array_equal(to_np(lazy[1].state_dict()[key]), to_np(value))
    assert lazy[1].running_mean.device == dt.device("cpu")  # copied onto the module's own device
    # shapes checked against the template before anything is materialised
    m = nn.LazyConv2d(6, 3, groups=2)
    with pytest.raises(RuntimeError, match=r"size mismatch for weight: copying a param with shape \(6, 2, 2, 3\) "
                                           r"from checkpoint, LazyConv2d needs shape "
                                           r"\(6, in_channels // groups, 3, 3\)"):
        m.load_state_dict({"weight": dt.ones((6, 2, 2, 3)), "bias": dt.ones(6)})
    assert type(m) is nn.LazyConv2d and m.has_uninitialized_params()
    b = nn.LazyBatchNorm1d()
    with pytest.raises(RuntimeError, match=r"size mismatch for running_var: .* \(3, 1\) .* needs shape "
                                           r"\(num_features,\)"):
        b.load_state_dict({"weight": dt.ones(3), "bias": dt.ones(3), "running_mean": dt.ones(3),
                           "running_var": dt.ones((3, 1)), "num_batches_tracked": dt.asarray(0)})
    assert type(b) is nn.LazyBatchNorm1d and b.has_uninitialized_params()
    b.load_state_dict({"weight": dt.ones(3), "bias": dt.ones(3), "running_mean": dt.ones(3),
                       "running_var": dt.ones(3), "num_batches_tracked": dt.asarray(0)}, assign=True)
    assert type(b) is nn.BatchNorm1d and b.num_features == 3


def test_uninitialized_tensors_are_not_saved_or_pickled_but_copy():
    m = nn.LazyBatchNorm1d()
    with pytest.raises(RuntimeError, match="'weight' is an uninitialised parameter or buffer of a lazy module"):
        dt.save(m.state_dict(), io.BytesIO())
    with pytest.raises(RuntimeError, match="cannot pickle an uninitialised buffer"):
        pickle.dumps(m.running_mean)
    c = copy.deepcopy(m)
    assert isinstance(c.weight, nn.UninitializedParameter) and isinstance(c.running_var, nn.UninitializedBuffer)
    c(dt.ones((2, 3)))
    assert type(c) is nn.BatchNorm1d and type(m) is nn.LazyBatchNorm1d
