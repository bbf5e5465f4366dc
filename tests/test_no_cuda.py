"""Behaviour with no CUDA at all, in a fresh interpreter without emulated devices.

On this CI machine there is no GPU driver; on a GPU machine CUDA_VISIBLE_DEVICES=''
hides every device, which must read as "no device"."""
import json

import pytest

from helpers import requires_emulation, run_python

NO_CUDA_ENV = {"CUDA_VISIBLE_DEVICES": ""}

SCRIPT = r'''
import json, sys
import devtensor as dt
out = {}
def rec(name, f):
    try:
        r = f()
        out[name] = {"ok": True, "value": r}
    except BaseException as e:
        out[name] = {"ok": False, "type": type(e).__name__, "msg": str(e),
                     "mro": [c.__name__ for c in type(e).__mro__]}
rec("is_available", lambda: dt.cuda.is_available())
rec("device_count", lambda: dt.cuda.device_count())
rec("why", lambda: dt.cuda.why_unavailable())
rec("num_gpus", lambda: dt.num_gpus())
rec("try_gpu", lambda: repr(dt.try_gpu()))
rec("try_gpu1", lambda: repr(dt.try_gpu(1)))
rec("try_gpu_is_cpu", lambda: dt.try_gpu() == dt.device("cpu"))
rec("try_all_gpus", lambda: dt.try_all_gpus() == [dt.device("cpu")])
rec("try_all_gpus_repr", lambda: repr(dt.try_all_gpus()))
rec("dot_cuda", lambda: repr(dt.ones(2).cuda()))
rec("dot_cuda1", lambda: repr(dt.ones(2).cuda(1)))
rec("to_cuda", lambda: repr(dt.ones(2).to("cuda")))
rec("to_cuda0", lambda: repr(dt.ones(2).to(dt.device("cuda:0"))))
rec("factory_cuda", lambda: repr(dt.ones(2, device="cuda")))
rec("asarray_cuda", lambda: repr(dt.asarray([1, 2], device="cuda:0")))
rec("rand_cuda", lambda: repr(dt.rand(2, device="cuda")))
rec("device_cuda10", lambda: repr(dt.device("cuda:10")))
class Foreign:  # another library's CUDA array (CUDA Array Interface)
    __cuda_array_interface__ = {"shape": (2,), "typestr": "<f4", "data": (1 << 30, False),
                                "version": 3, "strides": None, "stream": None}
rec("asarray_foreign_cuda", lambda: repr(dt.asarray(Foreign())))
rec("cpu_tensor", lambda: dt.tensor([1, 2, 3]).device == dt.device("cpu"))
rec("cpu_math", lambda: (dt.ones(2, 3) + dt.ones(3)).tolist())
rec("cpu_to_cpu_is", lambda: (lambda x: x.to("cpu") is x and x.cpu() is x)(dt.ones(2)))
rec("cpu_repr", lambda: repr(dt.ones(2)))
rec("memory_counters", lambda: [dt.cuda.memory_allocated(), dt.cuda.max_memory_allocated(0),
                                dt.cuda.memory_reserved("cuda:0"), dt.cuda.max_memory_reserved(),
                                dt.cuda.memory_stats(), dt.cuda.empty_cache()])
json.dump(out, sys.stdout)
'''


@pytest.fixture(scope="module")
def results():
    p = run_python(SCRIPT, env_update=NO_CUDA_ENV)
    assert p.returncode == 0, p.stderr
    assert p.stderr == "", p.stderr
    return json.loads(p.stdout)


def _ok(results, name):
    r = results[name]
    assert r["ok"], r
    return r["value"]


def test_import_is_silent():
    p = run_python("import devtensor", env_update=NO_CUDA_ENV)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "" and p.stderr == ""
    p = run_python("import devtensor as dt; dt.cuda.is_available(); dt.cuda.device_count(); "
                   "dt.num_gpus(); dt.try_gpu(); dt.try_all_gpus()", env_update=NO_CUDA_ENV)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "" and p.stderr == ""


def test_no_cuda_queries(results):
    assert _ok(results, "is_available") is False
    assert _ok(results, "device_count") == 0
    assert _ok(results, "num_gpus") == 0
    assert _ok(results, "try_gpu") == "device(type='cpu')"
    assert _ok(results, "try_gpu1") == "device(type='cpu')"
    assert _ok(results, "try_gpu_is_cpu") is True
    assert _ok(results, "try_all_gpus") is True
    assert _ok(results, "try_all_gpus_repr") == "[device(type='cpu')]"


def test_why_unavailable(results):
    why = _ok(results, "why")
    assert isinstance(why, str) and why
    low = why.lower()
    assert ("without cuda" in low or "driver" in low or "no cuda device" in low
            or "no device" in low or "no gpu" in low), why


@pytest.mark.parametrize("name", ["dot_cuda", "dot_cuda1", "to_cuda", "to_cuda0", "factory_cuda",
                                  "asarray_cuda", "rand_cuda"])
def test_cuda_requests_raise_with_reason(results, name):
    r = results[name]
    assert not r["ok"], r
    assert r["type"] == "RuntimeError" or "RuntimeError" in r["mro"], r
    why = _ok(results, "why")
    assert why in r["msg"], (why, r["msg"])


def test_foreign_cuda_memory_says_cuda_is_missing(results):
    r = results["asarray_foreign_cuda"]
    assert not r["ok"] and r["type"] == "BufferError", r
    assert "CUDA is not available" in r["msg"] and _ok(results, "why") in r["msg"], r


def test_cpu_keeps_working(results):
    assert _ok(results, "device_cuda10") == "device(type='cuda', index=10)"
    assert _ok(results, "cpu_tensor") is True
    assert _ok(results, "cpu_math") == [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]
    assert _ok(results, "cpu_to_cpu_is") is True
    assert _ok(results, "cpu_repr") == "tensor([1., 1.])"


def test_memory_counters_read_zero(results):
    """PyTorch's answers without CUDA: 0 bytes and no statistics, so a training
    loop that logs memory runs on a laptop."""
    assert _ok(results, "memory_counters") == [0, 0, 0, 0, {}, None]


def test_emulate_zero_devices():
    # DEVTENSOR_EMULATE_CUDA=0 must mean "no device", not a crash
    p = run_python("import devtensor as dt; print(dt.cuda.is_available(), dt.cuda.device_count())",
                   env_update={"DEVTENSOR_EMULATE_CUDA": "0", **NO_CUDA_ENV})
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["False", "0"]


@requires_emulation
@pytest.mark.parametrize("var,value", [
    ("DEVTENSOR_EMULATE_CUDA", "abc"), ("DEVTENSOR_EMULATE_CUDA", "-3"),
    ("DEVTENSOR_EMULATE_CUDA", "many"), ("DEVTENSOR_EMULATE_CUDA", "9"),
    ("DEVTENSOR_EMULATE_CUDA_MEMORY", "-5"), ("DEVTENSOR_EMULATE_CUDA_MEMORY", "0"),
    ("DEVTENSOR_EMULATE_CUDA_MEMORY", "abc"), ("DEVTENSOR_EMULATE_CUDA_MEMORY", "12x"),
    ("DEVTENSOR_EMULATE_CUDA_MEMORY", "+"),
])
def test_bad_emulation_setting_means_no_device_and_says_why(var, value):
    # import works, the cpu works, CUDA is unavailable and the reason names the setting
    p = run_python("import devtensor as dt; print((dt.ones(2) + 1).tolist(), dt.cuda.device_count()); "
                   "print(dt.cuda.why_unavailable())",
                   env_update={"DEVTENSOR_EMULATE_CUDA": "1", var: value})
    assert p.returncode == 0, p.stderr
    works, why = p.stdout.strip().splitlines()
    assert works == "[2.0, 2.0] 0"
    assert f"{var}='{value}'" in why, why


def test_python_m_devtensor_without_gpu():
    p = run_python("import runpy; runpy.run_module('devtensor', run_name='__main__')",
                   env_update=NO_CUDA_ENV)
    assert p.returncode == 0, p.stderr[-3000:]
    assert "cpu" in p.stdout


@requires_emulation
def test_python_m_devtensor_with_emulated_devices():
    p = run_python("import runpy; runpy.run_module('devtensor', run_name='__main__')",
                   env_update={"DEVTENSOR_EMULATE_CUDA": "2"})
    assert p.returncode == 0, p.stderr[-3000:]
    assert "cuda:1" in p.stdout
    assert "emulated cuda devices" in p.stdout.lower()  # it says so where it shows itself
