"""devtensor.device: construction, attributes, repr/str, equality, hashing, errors,
and devtensor.cuda device management (on emulated devices in CI)."""
import os

import pytest

import devtensor as dt
from helpers import ALL_DEVICES, EMULATED, cuda_count, requires_cuda, requires_devices


def test_cpu_device():
    d = dt.device("cpu")
    assert isinstance(d, dt.device)
    assert d.type == "cpu"
    assert d.index is None
    assert repr(d) == "device(type='cpu')"
    assert str(d) == "cpu"


def test_cuda_without_index():
    d = dt.device("cuda")
    assert d.type == "cuda"
    assert d.index is None
    assert repr(d) == "device(type='cuda')"
    assert str(d) == "cuda"


@pytest.mark.parametrize("make", [
    lambda: dt.device("cuda:1"),
    lambda: dt.device("cuda", 1),
    lambda: dt.device(1),
    lambda: dt.device(dt.device("cuda:1")),
], ids=["str", "type+index", "int", "device"])
def test_cuda_one_spellings(make):
    d = make()
    assert d.type == "cuda"
    assert d.index == 1
    assert isinstance(d.index, int)
    assert repr(d) == "device(type='cuda', index=1)"
    assert str(d) == "cuda:1"
    assert d == dt.device("cuda:1")


def test_device_zero():
    d = dt.device(0)
    assert d == dt.device("cuda:0")
    assert repr(d) == "device(type='cuda', index=0)"
    assert str(d) == "cuda:0"


def test_copy_of_cpu_device():
    assert dt.device(dt.device("cpu")) == dt.device("cpu")


def test_cuda_10_constructs_without_hardware():
    d = dt.device("cuda:10")
    assert d.index == 10
    assert str(d) == "cuda:10"


def test_equality_and_hash():
    a, b = dt.device("cuda:1"), dt.device("cuda", 1)
    assert a == b and not (a != b)
    assert hash(a) == hash(b)
    assert dt.device("cuda:0") != dt.device("cuda:1")
    assert dt.device("cpu") != dt.device("cuda:0")
    # PyTorch: torch.device('cuda') != torch.device('cuda:0') (index None vs 0)
    assert dt.device("cuda") != dt.device("cuda:0")
    assert dt.device("cpu") == dt.device("cpu")
    assert hash(dt.device("cpu")) == hash(dt.device("cpu"))


def test_not_equal_to_strings_like_pytorch():
    assert (dt.device("cpu") == "cpu") is False
    assert dt.device("cuda:1") != "cuda:1"
    assert dt.device("cpu") != None  # noqa: E711


def test_dict_key_and_set():
    table = {dt.device("cpu"): "c", dt.device("cuda:0"): "g0", dt.device("cuda", 1): "g1"}
    assert table[dt.device("cuda:1")] == "g1"
    assert table[dt.device(0)] == "g0"
    assert table[dt.device("cpu")] == "c"
    assert len({dt.device("cuda:1"), dt.device(1), dt.device("cuda", 1)}) == 1


def test_device_attributes_read_only():
    d = dt.device("cuda:1")
    with pytest.raises((AttributeError, TypeError)):
        d.index = 2
    assert d.index == 1


MALFORMED = ["gpu", "cuda:", "cuda:x", "cuda:-1", "cpu:1", "", "cuda:1:2", "cuda:1.5", "cuda 1",
             "cuda:+1", ":0"]


@pytest.mark.parametrize("s", MALFORMED)
def test_malformed_strings(s):
    with pytest.raises(RuntimeError) as ei:
        dt.device(s)
    msg = str(ei.value)
    assert (repr(s) in msg) or (f'"{s}"' in msg), msg   # quotes the string
    rest = msg.replace(repr(s), "").replace(f'"{s}"', "")
    assert "cpu" in rest and "cuda:" in rest, msg        # lists accepted forms


@pytest.mark.parametrize("s", ["gpu", "cuda:x", "cuda:-1"])
def test_malformed_strings_in_device_arguments(s):
    with pytest.raises(RuntimeError):
        dt.ones(2, device=s)
    with pytest.raises(RuntimeError):
        dt.ones(2).to(s)
    dt.ones(2)  # still fine


def test_negative_int():
    with pytest.raises((RuntimeError, ValueError)):
        dt.device(-1)
    with pytest.raises((RuntimeError, ValueError)):
        dt.device("cuda", -1)


@pytest.mark.parametrize("bad", [1.5, None, [], b"cpu", object(), (0,)])
def test_wrong_types(bad):
    with pytest.raises(TypeError):
        dt.device(bad)


def test_index_with_explicit_index_string():
    # PyTorch: device('cuda:1', 1) is an error (index given twice)
    with pytest.raises((RuntimeError, ValueError, TypeError)):
        dt.device("cuda:1", 1)
    with pytest.raises((RuntimeError, ValueError, TypeError)):
        dt.device("cpu", 1)


@pytest.mark.parametrize("bad", ["cuda:99999999999999999999", 2 ** 70])
def test_huge_index(bad):
    with pytest.raises((RuntimeError, ValueError, OverflowError)):
        dt.device(bad)


def test_tensor_device(device):
    x = dt.ones(3, device=device)
    assert isinstance(x.device, dt.device)
    assert x.device == dt.device(device)
    if device == "cpu":
        assert x.device.index is None
    else:
        assert x.device.index == int(device.split(":")[1])


def test_device_argument_spellings(device):
    d = dt.device(device)
    for spec in (device, d):
        assert dt.zeros(2, device=spec).device == d


def test_default_device_is_cpu():
    assert dt.tensor([1, 2, 3]).device == dt.device("cpu")
    assert repr(dt.tensor([1, 2, 3]).device) == "device(type='cpu')"


def test_set_default_device_validates_and_resets():
    try:
        for bad, err in (("tpu", RuntimeError), (1.5, TypeError), ("cpu:0", RuntimeError)):
            with pytest.raises(err):
                dt.set_default_device(bad)
            assert dt.get_default_device() == dt.device("cpu")
        dt.set_default_device(dt.device("cpu"))
        assert dt.get_default_device() == dt.device("cpu") and dt.ones(1).device == dt.device("cpu")
        dt.set_default_device("cuda:7")  # a device that need not exist until a factory uses it
        assert dt.get_default_device() == dt.device("cuda:7")
        with dt.device("cpu"):
            assert dt.zeros(2).device == dt.device("cpu")
    finally:
        dt.set_default_device(None)
    assert dt.get_default_device() == dt.device("cpu") and dt.tensor([1]).device == dt.device("cpu")


# ---------------------------------------------------------------- devtensor.cuda

def test_cuda_module_api():
    for name in ("is_available", "device_count", "current_device", "set_device", "why_unavailable"):
        assert callable(getattr(dt.cuda, name))
    for name in ("try_gpu", "try_all_gpus", "num_gpus"):
        assert callable(getattr(dt, name))
    assert isinstance(dt.cuda.is_available(), bool)
    assert isinstance(dt.cuda.device_count(), int)
    assert dt.num_gpus() == dt.cuda.device_count()


@pytest.mark.skipif(not EMULATED or os.environ.get("DEVTENSOR_EMULATE_CUDA") != "2",
                    reason="needs DEVTENSOR_EMULATE_CUDA=2")
def test_emulated_two_devices():
    assert dt.cuda.is_available() is True and dt.cuda.is_emulated() is True
    assert dt.cuda.device_count() == 2
    for i in range(2):
        assert "emulated" in dt.cuda.get_device_name(i).lower()
    assert dt.num_gpus() == 2
    assert dt.try_all_gpus() == [dt.device("cuda:0"), dt.device("cuda:1")]
    assert dt.try_gpu() == dt.device("cuda:0")
    assert dt.try_gpu(1) == dt.device("cuda:1")
    assert dt.try_gpu(2) == dt.device("cpu")


@requires_cuda
def test_current_device_default_zero():
    assert dt.cuda.current_device() == 0


@requires_devices(2)
def test_set_device_changes_current():
    try:
        dt.cuda.set_device(1)
        assert dt.cuda.current_device() == 1
        x = dt.ones(2, device="cuda")
        assert x.device == dt.device("cuda:1")
        assert dt.ones(2).cuda().device == dt.device("cuda:1")
        assert dt.ones(2, device=dt.device("cuda")).device == dt.device("cuda:1")
    finally:
        dt.cuda.set_device(0)
    assert dt.cuda.current_device() == 0
    assert dt.ones(2, device="cuda").device == dt.device("cuda:0")


@requires_cuda
def test_set_device_out_of_range():
    n = cuda_count()
    with pytest.raises(RuntimeError) as ei:
        dt.cuda.set_device(n)
    assert str(n) in str(ei.value)
    assert dt.cuda.current_device() == 0


@requires_cuda
def test_bare_cuda_resolves_to_current_device():
    x = dt.ones(2, device="cuda")
    assert x.device == dt.device("cuda:0")
    assert x.device.index == 0
    assert str(x.device) == "cuda:0"
    y = dt.ones(2).to("cuda")
    assert y.device == dt.device("cuda:0")


@requires_cuda
@pytest.mark.parametrize("how", ["to", "cuda", "factory", "asarray"])
def test_index_past_count(how):
    n = cuda_count()
    name = f"cuda:{n}"
    x = dt.ones(2)
    with pytest.raises(RuntimeError) as ei:
        if how == "to":
            x.to(name)
        elif how == "cuda":
            x.cuda(n)
        elif how == "factory":
            dt.ones(2, device=name)
        else:
            dt.asarray([1, 2], device=name)
    msg = str(ei.value)
    assert name in msg, msg
    assert str(n) in msg.replace(name, ""), msg  # the device count
    assert x.device == dt.device("cpu")


@requires_cuda
def test_cuda_10_errors_on_use_not_construction():
    d = dt.device("cuda:10")
    with pytest.raises(RuntimeError, match="cuda:10"):
        dt.ones(2).to(d)


def test_devices_under_test_are_known():
    for d in ALL_DEVICES:
        dt.device(d)
