"""The listings of D2L's "GPUs" section (seeds/DIGEST.md) that need no neural network,
written with devtensor: with two (emulated) devices, one device, and no CUDA at all."""
import json

import pytest

import devtensor as dt
from helpers import cuda_count, requires_devices, requires_emulation, run_python


# The book's own helpers, spelled with devtensor
def cpu():
    return dt.device("cpu")


def gpu(i=0):
    return dt.device(f"cuda:{i}")


def num_gpus():
    return dt.cuda.device_count()


def try_gpu(i=0):
    if num_gpus() >= i + 1:
        return gpu(i)
    return cpu()


def try_all_gpus():
    return [gpu(i) for i in range(num_gpus())]


def test_book_helpers_agree_with_devtensor():
    assert dt.num_gpus() == num_gpus()
    for i in range(4):
        assert dt.try_gpu(i) == try_gpu(i)
    assert dt.try_gpu() == try_gpu()
    expected = try_all_gpus() or [cpu()]
    assert dt.try_all_gpus() == expected


def test_devices_listing():
    assert repr(dt.device("cpu")) == "device(type='cpu')"
    assert repr(dt.device("cuda")) == "device(type='cuda')"
    assert repr(dt.device("cuda:1")) == "device(type='cuda', index=1)"
    dt.device("cuda:10")  # does not check the hardware


def test_tensor_device_listing():
    x = dt.tensor([1, 2, 3])
    assert x.device == dt.device("cpu")
    assert repr(x.device) == "device(type='cpu')"


@requires_devices(2)
def test_listing_two_gpus():
    X = dt.ones(2, 3, device=dt.try_gpu())
    assert X.device == dt.device("cuda:0")
    assert repr(X) == "tensor([[1., 1., 1.],\n        [1., 1., 1.]], device='cuda:0')"
    Y = dt.rand(2, 3, device=dt.try_gpu(1))
    assert Y.device == dt.device("cuda:1")
    assert repr(Y).endswith("device='cuda:1')")
    with pytest.raises(RuntimeError) as ei:
        X + Y
    assert str(ei.value) == ("Expected all tensors to be on the same device, but found at "
                             "least two devices, cuda:0 and cuda:1!")
    Z = X.cuda(1)
    assert Z is not X
    assert repr(Z) == "tensor([[1., 1., 1.],\n        [1., 1., 1.]], device='cuda:1')"
    assert X.device == dt.device("cuda:0")
    S = Y + Z
    assert S.device == dt.device("cuda:1")
    assert S.cpu().tolist() == [[v + 1.0 for v in row] for row in Y.cpu().tolist()]
    assert Z.cuda(1) is Z


def test_listing_one_gpu():
    # The D2L listing when only one GPU (or none) exists: try_gpu(1) falls back to the CPU
    if cuda_count() != 1:
        pytest.skip("exactly one CUDA device needed")
    X = dt.ones(2, 3, device=dt.try_gpu())
    Y = dt.rand(2, 3, device=dt.try_gpu(1))
    assert X.device == dt.device("cuda:0") and Y.device == dt.device("cpu")
    with pytest.raises(RuntimeError, match="cuda:0 and cpu"):
        X + Y
    with pytest.raises(RuntimeError, match="cuda:1"):
        X.cuda(1)
    Z = Y.cuda(0)
    assert (X + Z).device == dt.device("cuda:0")
    assert Z.cuda(0) is Z


@requires_devices(1)
def test_move_then_compute_on_gpu():
    X = dt.ones(2, 3, device=dt.try_gpu())
    Y = dt.rand(2, 3)
    with pytest.raises(RuntimeError, match=r"cuda:0 and cpu!$"):
        X + Y
    Z = Y.cuda(0)
    assert (X + Z).device == dt.device("cuda:0")
    assert Z.cuda(0) is Z
    X2 = X.to(dt.device("cpu"))
    assert X2 is not X and X2.device == dt.device("cpu")


NO_CUDA_LISTING = r'''
import json, sys
import devtensor as dt
out = {}
out["try_gpu"] = repr(dt.try_gpu())
out["try_all_gpus"] = repr(dt.try_all_gpus())
x = dt.tensor([1, 2, 3]); out["x.device"] = repr(x.device)
X = dt.ones(2, 3, device=dt.try_gpu()); out["X"] = repr(X)
Y = dt.rand(2, 3, device=dt.try_gpu(1)); out["Y.device"] = repr(Y.device)
try:
    out["X+Y"] = repr((X + Y).device)
except RuntimeError as e:
    out["X+Y"] = "RuntimeError: " + str(e)
try:
    Z = X.cuda(1)
    out["Z"] = "no error"
except RuntimeError as e:
    out["Z"] = "RuntimeError: " + str(e)
out["cpu_is"] = X.to(dt.try_gpu()) is X
json.dump(out, sys.stdout)
'''


def test_listing_without_cuda():
    p = run_python(NO_CUDA_LISTING, env_update={"CUDA_VISIBLE_DEVICES": ""})
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["try_gpu"] == "device(type='cpu')"
    assert out["try_all_gpus"] == "[device(type='cpu')]"
    assert out["x.device"] == "device(type='cpu')"
    assert out["X"] == "tensor([[1., 1., 1.],\n        [1., 1., 1.]])"
    assert out["Y.device"] == "device(type='cpu')"
    assert out["X+Y"] == "device(type='cpu')"
    assert out["Z"].startswith("RuntimeError: ")
    assert out["cpu_is"] is True


@requires_emulation
def test_listing_with_two_emulated_devices_subprocess():
    code = NO_CUDA_LISTING.replace("Z = X.cuda(1)", "Z = X.cuda(1); out['Zis'] = Z.cuda(1) is Z; "
                                   "out['Zdev'] = repr(Z.device)")
    p = run_python(code, env_update={"DEVTENSOR_EMULATE_CUDA": "2"})
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["try_gpu"] == "device(type='cuda', index=0)"
    assert out["try_all_gpus"] == "[device(type='cuda', index=0), device(type='cuda', index=1)]"
    assert out["X"] == "tensor([[1., 1., 1.],\n        [1., 1., 1.]], device='cuda:0')"
    assert out["Y.device"] == "device(type='cuda', index=1)"
    assert out["X+Y"] == ("RuntimeError: Expected all tensors to be on the same device, but found "
                          "at least two devices, cuda:0 and cuda:1!")
    assert out["Zis"] is True
    assert out["Zdev"] == "device(type='cuda', index=1)"
