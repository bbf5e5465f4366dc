"""Movement between devices and dtypes with PyTorch semantics: to(), cpu(), cuda(),
to_device(); identity returns; copies leave the source untouched."""
import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, requires_cuda, requires_devices, to_np


def _src(device, dtype="float64"):
    a = np.arange(6).reshape(2, 3).astype(dtype)
    return a, dt.asarray(a.copy(), device=device)


def test_to_same_device_returns_self(device):
    _, x = _src(device)
    assert x.to(device) is x
    assert x.to(dt.device(device)) is x
    assert x.to(device=device) is x
    assert x.to(dtype=dt.float64) is x
    assert x.to(dt.float64) is x
    assert x.to(device, dt.float64) is x
    assert x.to(device=device, dtype="float64") is x
    assert x.to(x) is x
    assert x.to() is x
    assert x.to(device, non_blocking=True) is x


def test_to_copy_true_returns_new(device):
    a, x = _src(device)
    y = x.to(device, copy=True)
    assert y is not x
    assert_same(y, a, device=device)
    z = x.to(copy=True)
    assert z is not x and z.device == x.device


def test_to_device_pairs(device_pair):
    src, dst = device_pair
    a, x = _src(src)
    y = x.to(dst)
    if src == dst:
        assert y is x
        return
    assert y is not x
    assert_same(y, a, device=dst)
    assert_same(x, a, device=src)  # source untouched


def test_moves_are_copies(device_pair):
    src, dst = device_pair
    if src == dst:
        pytest.skip("identity")
    base = np.arange(4.0)
    x = dt.asarray(base, device=src)
    y = x.to(dst)
    z = y.to("cpu") if dst != "cpu" else y
    # mutate the CPU-visible side and check the other one did not change
    if src == "cpu":
        base[0] = 100.0
        assert to_np(y)[0] == 0.0
    if dst == "cpu":
        z.numpy()[1] = -1.0
        assert to_np(x)[1] == 1.0


def test_to_dtype(device):
    a, x = _src(device)
    y = x.to(dt.float32)
    assert y is not x
    assert_same(y, a.astype(np.float32), device=device)
    assert_same(x, a, device=device)
    assert x.to("int32").dtype == dt.int32
    assert x.to(np.int16).dtype == dt.int16
    assert x.to(dtype=dt.complex64).dtype == dt.complex64


def test_to_device_and_dtype(device_pair):
    src, dst = device_pair
    a, x = _src(src)
    y = x.to(dst, dt.int32)
    assert y is not x
    assert_same(y, a.astype(np.int32), device=dst)
    y2 = x.to(device=dst, dtype=dt.int32)
    assert_same(y2, a.astype(np.int32), device=dst)


def test_to_other_tensor(device_pair):
    src, dst = device_pair
    a, x = _src(src)
    other = dt.zeros(1, dtype=dt.float32, device=dst)
    y = x.to(other)
    assert y.device == other.device and y.dtype == dt.float32
    assert_same(y, a.astype(np.float32), device=dst)
    same = dt.zeros(7, dtype=dt.float64, device=src)
    assert x.to(same) is x


def test_to_float_to_int_truncates(device):
    x = dt.tensor([1.9, -1.9, 0.5], device=device)
    assert x.to(dt.int64).tolist() == [1, -1, 0]
    c = dt.tensor([2.5 + 3j], device=device)
    assert c.to(dt.float32).tolist() == [2.5]


def test_cpu(device):
    a, x = _src(device)
    y = x.cpu()
    if device == "cpu":
        assert y is x
    else:
        assert y is not x
        assert_same(y, a, device="cpu")
        assert x.device == dt.device(device)


@requires_cuda
@pytest.mark.parametrize("spec", [None, 0, "cuda:0", "cuda", "DEVICE0"])
def test_cuda_spellings_device0(spec):
    a, x = _src("cpu")
    if spec is None:
        y = x.cuda()
    elif spec == "DEVICE0":
        y = x.cuda(dt.device("cuda:0"))
    else:
        y = x.cuda(spec)
    assert_same(y, a, device="cuda:0")
    assert x.device == dt.device("cpu")
    if spec is None:
        again = y.cuda()
    elif spec == "DEVICE0":
        again = y.cuda(dt.device("cuda:0"))
    else:
        again = y.cuda(spec)
    assert again is y


@requires_devices(2)
@pytest.mark.parametrize("spec", [1, "cuda:1", dt.device("cuda", 1)], ids=repr)
def test_cuda_one(spec):
    a, x = _src("cpu")
    z = x.cuda(spec)
    assert_same(z, a, device="cuda:1")
    assert z.cuda(1) is z
    assert z.cuda(spec) is z
    assert z.to("cuda:1") is z


@requires_devices(2)
def test_copies_between_cuda_devices():
    a = np.arange(10, dtype=np.float32)
    x0 = dt.asarray(a, device="cuda:0")
    x1 = x0.to("cuda:1")
    assert x1 is not x0
    assert_same(x1, a, device="cuda:1")
    back = x1.cuda(0)
    assert back is not x0 and back is not x1
    assert_same(back, a, device="cuda:0")
    assert_same(x0, a, device="cuda:0")


@requires_cuda
def test_cuda_non_blocking(device):
    a, x = _src(device)
    y = x.cuda(0, non_blocking=True)
    assert_same(y, a, device="cuda:0")
    z = x.to("cuda:0", non_blocking=True)
    assert_same(z, a, device="cuda:0")


@requires_cuda
@pytest.mark.parametrize("bad", ["cpu", -1])
def test_cuda_bad_device(bad):
    with pytest.raises((RuntimeError, ValueError)):
        dt.ones(2).cuda(bad)


def test_cuda_bad_type():
    with pytest.raises(TypeError):
        dt.ones(2).cuda(1.5)


def test_to_device_array_api(device_pair):
    src, dst = device_pair
    a, x = _src(src)
    y = x.to_device(dst)
    if src == dst:
        assert y is x
    else:
        assert_same(y, a, device=dst)
    y2 = x.to_device(dt.device(dst), stream=None)
    assert_same(y2, a, device=dst)


def test_to_device_is_positional_only():
    x = dt.ones(2)
    with pytest.raises(TypeError):
        x.to_device(device="cpu")
    with pytest.raises(TypeError):
        x.to_device()


# ------------------------------------------------------------------ contradictory to() args

@pytest.mark.parametrize("args,kw", [
    (("cpu", "cpu"), {}),
    (("cpu",), dict(device="cpu")),
    ((dt.float32,), dict(dtype=dt.float64)),
    ((dt.float32, dt.float64), {}),
    ((3.5,), {}),
    (([1],), {}),
    ((dt.ones(1), dt.ones(1)), {}),
    (("cpu", dt.float32, dt.float64), {}),
    ((), dict(devic="cpu")),
    ((), dict(foo=1)),
    (("cpu", dt.float32, True, False, 7), {}),
], ids=repr)
def test_to_contradictory_args(args, kw):
    x = dt.ones(2)
    with pytest.raises(TypeError):
        x.to(*args, **kw)
    assert x.device == dt.device("cpu") and x.tolist() == [1.0, 1.0]


def test_to_tensor_plus_device_is_error():
    x = dt.ones(2)
    with pytest.raises(TypeError):
        x.to(dt.ones(1), device="cpu")


def test_to_unknown_dtype_string():
    with pytest.raises((TypeError, RuntimeError)):
        dt.ones(2).to("xyz")


# ------------------------------------------------------------------ real GPU only

@pytest.mark.gpu
def test_real_gpu_is_not_emulated():
    name = dt.cuda.get_device_name(0)
    assert isinstance(name, str) and name
    assert "emulated" not in name.lower() and not dt.cuda.is_emulated()


@pytest.mark.gpu
def test_real_gpu_large_roundtrip():
    rng = np.random.default_rng(0)
    a = rng.standard_normal(8 * 1024 * 1024).astype(np.float32)  # 32 MiB
    x = dt.asarray(a, device="cuda:0")
    assert x.device == dt.device("cuda:0")
    y = (x * 2.0).cpu().numpy()
    np.testing.assert_array_equal(y, a * np.float32(2.0), strict=True)
    np.testing.assert_array_equal(x.get(), a, strict=True)
    t = dt.asarray(a[::-3], device="cuda:0")  # non-contiguous host source
    np.testing.assert_array_equal(t.get(), a[::-3], strict=True)


def test_cuda_arguments_like_pytorchs(device):
    x = dt.ones(2, device=device)
    with pytest.raises(TypeError, match=r"cuda\(\) takes at most 2 arguments \(3 given\)"):
        x.cuda(0, False, 1)
    if device != "cpu":
        assert x.cuda(x.device) is x and x.cuda(x.device.index) is x and x.cuda(str(x.device)) is x
