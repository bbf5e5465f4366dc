"""devtensor.cuda beyond device counting: the current device, `with device`,
memory statistics, out-of-memory errors, pinned memory, streams and events,
and the device table.  Runs on the emulated devices in CI (the real CUDA
backend, its caching allocator, streams and events, executed on the CPU
with a memory budget per device, csrc/emu) and on real GPUs in
tools/gpu_check.sh."""
import gc
import textwrap
import threading

import numpy as np
import pytest

import devtensor as dt
from helpers import cuda_count, no_cuda_reason, requires_devices, requires_emulation, run_python

pytestmark = pytest.mark.skipif(cuda_count() == 0, reason=no_cuda_reason())


def test_current_device_and_set_device():
    assert dt.cuda.current_device() == 0
    if dt.cuda.device_count() > 1:
        dt.cuda.set_device(1)
        try:
            assert dt.cuda.current_device() == 1
            assert dt.ones(2, device="cuda").device == dt.device("cuda:1")
        finally:
            dt.cuda.set_device(0)
    with pytest.raises(RuntimeError, match=r"cuda:\d+.*out of range"):
        dt.cuda.set_device(dt.cuda.device_count())
    dt.cuda.set_device(-1)  # PyTorch's no-op
    assert dt.cuda.current_device() == 0


@requires_devices(2)
def test_cuda_device_context_manager_restores():
    with dt.cuda.device(1):
        assert dt.cuda.current_device() == 1
        assert dt.zeros(3, device="cuda").device.index == 1
    assert dt.cuda.current_device() == 0


@requires_devices(2)
def test_with_device_sets_factory_default():
    with dt.device("cuda:1"):
        for t in (dt.ones(2), dt.zeros(2), dt.arange(3), dt.rand(2), dt.tensor([1, 2]),
                  dt.full((2,), 7), dt.eye(2), dt.linspace(0, 1, 3)):
            assert t.device == dt.device("cuda:1"), t
        with dt.device("cpu"):
            assert dt.ones(1).device == dt.device("cpu")
        assert dt.ones(1).device == dt.device("cuda:1")
    assert dt.ones(1).device == dt.device("cpu")


@requires_devices(2)
def test_set_default_device_is_per_thread_and_under_with_blocks():
    try:
        dt.set_default_device("cuda:1")
        assert dt.get_default_device() == dt.device("cuda:1")
        for t in (dt.ones(2), dt.arange(3), dt.asarray([1, 2]), dt.array(np.ones(2)),
                  dt.random.default_rng(0).random(2), dt.linspace(0, 1, 3)):
            assert t.device == dt.device("cuda:1"), t
        assert dt.zeros(1, device="cpu").device == dt.device("cpu")  # explicit wins
        with dt.device("cuda:0"):
            assert dt.ones(1).device == dt.device("cuda:0")
            dt.set_default_device("cpu")  # the base changes; the open block still rules
            assert dt.ones(1).device == dt.device("cuda:0")
            dt.set_default_device("cuda:1")
        assert dt.ones(1).device == dt.device("cuda:1")
        seen = []
        worker = threading.Thread(target=lambda: seen.append((dt.get_default_device(), dt.ones(1).device)))
        worker.start()
        worker.join()
        assert seen == [(dt.device("cpu"), dt.device("cpu"))]  # another thread keeps its own
        dt.set_default_device("cuda")  # the current CUDA device, as PyTorch's get_default_device
        with dt.cuda.device(1):
            assert dt.get_default_device() == dt.device("cuda:1")
            assert dt.ones(1).device == dt.device("cuda:1")
        assert dt.get_default_device() == dt.device("cuda:0")
        dt.set_default_device(f"cuda:{dt.cuda.device_count()}")  # checked where it is used
        with pytest.raises(RuntimeError, match="out of range"):
            dt.ones(1)
    finally:
        dt.set_default_device(None)
    assert dt.get_default_device() == dt.device("cpu") and dt.ones(1).device == dt.device("cpu")



@requires_devices(2)
def test_tensor_and_as_tensor_of_a_tensor_under_a_default_device():
    """Note [tensor() under a default device]: PyTorch's set_default_device
    applies to tensor(t) and as_tensor(t); with none set they keep t's
    device; asarray and array (NumPy's) always keep it."""
    x, c = dt.zeros(2), dt.ones(2, device="cuda:0")
    assert dt.tensor(x).device == dt.device("cpu") and dt.as_tensor(x) is x
    assert dt.tensor(c).device == dt.device("cuda:0") and dt.as_tensor(c) is c
    try:
        dt.set_default_device("cuda:1")
        for made in (dt.tensor(x), dt.as_tensor(x), dt.tensor(c), dt.as_tensor(c)):
            assert made.device == dt.device("cuda:1")
        assert dt.tensor(x).tolist() == [0.0, 0.0] and dt.tensor(x, device="cpu").device == dt.device("cpu")
        assert dt.asarray(x) is x and dt.array(x).device == dt.device("cpu")
        with dt.device("cuda:0"):
            assert dt.tensor(x).device == dt.device("cuda:0") and dt.as_tensor(c) is c
    finally:
        dt.set_default_device(None)


@requires_devices(2)
def test_stream_context_makes_the_streams_device_current():
    """PyTorch's torch.cuda.stream(s): s's device is the current device while
    the block is open ('cuda' means it, current_stream() is s); restored
    after, also on an exception."""
    s = dt.cuda.Stream(device="cuda:1")
    assert dt.cuda.current_device() == 0
    with dt.cuda.stream(s):
        x = dt.ones(2, device="cuda")
        assert x.device == dt.device("cuda:1") and dt.cuda.current_device() == 1
        assert dt.cuda.current_stream() == s
    assert dt.cuda.current_device() == 0 and dt.cuda.current_stream(1) != s
    with pytest.raises(ZeroDivisionError):
        with dt.cuda.stream(s):
            1 / 0
    assert dt.cuda.current_device() == 0 and dt.cuda.current_stream(1) != s
    with dt.cuda.stream(None):
        assert dt.cuda.current_device() == 0


@requires_devices(2)
def test_an_event_binds_to_the_device_of_its_first_record():
    """Note [Events bind at their first record] (PyTorch's lazy events): an
    Event made on cuda:0 records on a cuda:1 stream and is then a cuda:1
    event; record() with no stream uses the current device's current stream;
    after its first record, or with device= given, another device is the
    backend's error."""
    s1 = dt.cuda.Stream(device="cuda:1")
    ev = dt.cuda.Event(enable_timing=True)
    ev.record(s1)
    assert ev.device == dt.device("cuda:1")
    ev.synchronize()
    assert ev.query()
    with pytest.raises(RuntimeError, match="cuda:0"):
        ev.record(dt.cuda.Stream(device="cuda:0"))
    with dt.cuda.stream(s1):
        start, end = dt.cuda.Event(enable_timing=True), dt.cuda.Event(enable_timing=True)
        start.record()
        x = dt.ones(1000, device="cuda") * 2
        end.record()
    end.synchronize()
    assert start.device == end.device == x.device == dt.device("cuda:1")
    assert start.elapsed_time(end) >= 0.0
    pinned = dt.cuda.Event(device="cuda:0")
    with pytest.raises(RuntimeError, match="cuda:1"):
        pinned.record(s1)


def test_device_properties():
    p = dt.cuda.get_device_properties(0)
    assert p.name == dt.cuda.get_device_name(0) and p.total_memory > 0
    assert p.multi_processor_count >= 1
    assert dt.cuda.get_device_capability(0) == (p.major, p.minor)
    free, total = dt.cuda.mem_get_info(0)
    assert 0 <= free <= total == p.total_memory
    with pytest.raises(RuntimeError, match="out of range"):
        dt.cuda.get_device_properties(99)
    with pytest.raises(ValueError, match="CUDA device"):
        dt.cuda.get_device_properties("cpu")


def test_memory_statistics_follow_tensors():
    gc.collect()
    dt.cuda.synchronize(0)
    base = dt.cuda.memory_allocated(0)
    dt.cuda.reset_peak_memory_stats(0)
    t = dt.empty(1 << 20, dtype=dt.uint8, device="cuda:0")
    assert dt.cuda.memory_allocated(0) >= base + (1 << 20)
    assert dt.cuda.max_memory_allocated(0) >= base + (1 << 20)
    assert dt.cuda.memory_reserved(0) >= dt.cuda.memory_allocated(0)
    del t
    gc.collect()
    assert dt.cuda.memory_allocated(0) == base
    assert dt.cuda.max_memory_allocated(0) >= base + (1 << 20)
    dt.cuda.reset_peak_memory_stats(0)
    assert dt.cuda.max_memory_allocated(0) == base
    dt.cuda.empty_cache()
    assert "cuda:0" in dt.cuda.memory_summary(0)
    stats = dt.cuda.memory_stats(0)  # PyTorch's keys beside ours
    assert stats["allocated_bytes.all.current"] == stats["allocated_bytes"] == dt.cuda.memory_allocated(0)
    assert stats["allocated_bytes.all.peak"] == dt.cuda.max_memory_allocated(0)
    assert stats["reserved_bytes.all.current"] == dt.cuda.memory_reserved(0)
    assert stats["reserved_bytes.all.peak"] == dt.cuda.max_memory_reserved(0)


def test_out_of_memory_is_a_memoryerror_and_the_process_goes_on():
    total = dt.cuda.get_device_properties(0).total_memory
    with pytest.raises(dt.cuda.OutOfMemoryError) as info:
        dt.empty(total * 2, dtype=dt.uint8, device="cuda:0")
    assert isinstance(info.value, MemoryError)
    msg = str(info.value)
    assert "cuda:0" in msg and str(total * 2) in msg and "free" in msg
    x = dt.ones(3, device="cuda:0") + 1  # still works
    assert x.tolist() == [2.0, 2.0, 2.0]


@requires_emulation
def test_a_request_that_fits_the_device_is_not_refused_for_its_pools_segment():
    """Note [A segment of its own] in cuda_alloc.c: on an (emulated) 8 MiB
    device with 6 MiB free, 1.1 MiB requests (whose shared segment is 20
    MiB) are served until the memory itself runs out, and a sort of 2**17
    floats, whose scratch buffers are such requests, works."""
    code = textwrap.dedent("""
        import devtensor as dt
        x = dt.random.default_rng(0).random(1 << 17, device="cuda:0").astype(dt.float32)
        s = dt.sort(x)
        print(bool((s[1:] >= s[:-1]).all()), dt.sort(x[:100]).shape)
        del s
        held = []
        try:
            while True:
                held.append(dt.empty(1100000, dtype=dt.uint8, device="cuda:0"))
        except dt.cuda.OutOfMemoryError:
            pass
        print(len(held), (dt.ones(3, device="cuda:0") + 1).tolist())
    """)
    p = run_python(code, {"DEVTENSOR_EMULATE_CUDA": "1", "DEVTENSOR_EMULATE_CUDA_MEMORY": "8M",
                          "DEVTENSOR_CUDA_NO_CACHE": "0"})
    assert p.returncode == 0, p.stderr
    sorted_ok, shape, count, after = p.stdout.split(maxsplit=3)
    assert (sorted_ok, shape) == ("True", "(100,)")
    assert int(count) >= 5  # 7.5 MiB free after x: six 2 MiB segments would not fit, five do
    assert after.strip() == "[2.0, 2.0, 2.0]"


@requires_emulation
def test_a_sort_without_memory_for_its_scratch_raises_and_loses_nothing():
    """CUB's radix sort (emulated) and our own passes: the scratch buffers do
    not fit a 2 MiB device; sort, argsort, unique and the in-place sort
    raise OutOfMemoryError, the data are unchanged, nothing leaks, and the
    device works afterwards."""
    code = textwrap.dedent("""
        import devtensor as dt
        x = dt.random.default_rng(0).random(1 << 17, device="cuda:0").astype(dt.float32)
        before, held = x.cpu(), dt.cuda.memory_allocated(0)
        for f in (lambda: dt.sort(x), lambda: dt.argsort(x), lambda: dt.unique(x), lambda: x.sort()):
            try:
                f()
                print("no-error")
            except dt.cuda.OutOfMemoryError:
                print("oom")
        print(bool((x.cpu() == before).all()), dt.cuda.memory_allocated(0) == held,
              (dt.ones(3, device="cuda:0") + 1).tolist() == [2.0] * 3)
    """)
    for own in ("0", "1"):
        p = run_python(code, {"DEVTENSOR_EMULATE_CUDA": "1", "DEVTENSOR_EMULATE_CUDA_MEMORY": "2M",
                              "DEVTENSOR_CUDA_OWN_SORT": own})
        assert p.returncode == 0, p.stderr
        assert p.stdout.split() == ["oom"] * 4 + ["True"] * 3, (own, p.stdout)


def test_out_of_memory_runs_the_garbage_collector_first():
    """Unreachable cycles holding device memory are collected before OOM is raised."""
    free, _ = dt.cuda.mem_get_info(0)
    if free > (64 << 30):
        pytest.skip("device too large to fill quickly")
    chunk = free // 2 + 1

    class Holder:
        pass

    h = Holder()
    h.self = h
    h.t = dt.empty(chunk, dtype=dt.uint8, device="cuda:0")
    del h  # now only a cycle holds the tensor
    t = dt.empty(chunk, dtype=dt.uint8, device="cuda:0")  # fits only after gc
    assert t.size == chunk


def test_pin_memory_and_non_blocking_round_trip():
    a = np.arange(1000, dtype=np.float32)
    p = dt.asarray(a).pin_memory()
    assert p.is_pinned() and p.device == dt.device("cpu") and p.pin_memory() is p
    assert not dt.asarray(a).is_pinned()
    g = p.to("cuda:0", non_blocking=True)
    back = g.to("cpu", non_blocking=True)
    dt.cuda.synchronize(0)
    np.testing.assert_array_equal(back.numpy(), a)
    with pytest.raises(RuntimeError, match="only cpu tensors"):
        g.pin_memory()


def test_factories_take_pin_memory():
    """PyTorch's pin_memory= of empty, zeros, ones and full: page-locked CPU tensors."""
    for t in (dt.empty((2, 3), pin_memory=True), dt.zeros(4, dtype=dt.int32, pin_memory=True),
              dt.ones(2, 2, pin_memory=True), dt.full(3, 2.5, pin_memory=True),
              dt.full((2,), dt.asarray([1.0, 2.0]), pin_memory=True)):
        assert t.is_pinned() and t.device == dt.device("cpu")
    assert dt.zeros(4, pin_memory=True).tolist() == [0.0] * 4 and dt.ones(2, 2, pin_memory=True).tolist() == [[1, 1]] * 2
    assert not dt.zeros(3, pin_memory=False).is_pinned()
    with pytest.raises(RuntimeError, match=r"zeros\(pin_memory=True\): only CPU tensors can be pinned"):
        dt.zeros(3, device="cuda:0", pin_memory=True)


def test_streams_and_events():
    s = dt.cuda.Stream(device=0)
    assert s.device == dt.device("cuda:0") and s.query()
    assert dt.cuda.current_stream(0) == dt.cuda.default_stream(0)
    start, end = dt.cuda.Event(enable_timing=True), dt.cuda.Event(enable_timing=True)
    with dt.cuda.stream(s):
        assert dt.cuda.current_stream(0) == s
        start.record()
        x = dt.ones(10000, device="cuda:0") * 3
        end.record()
    assert dt.cuda.current_stream(0) == dt.cuda.default_stream(0)
    end.synchronize()
    assert end.query() and start.elapsed_time(end) >= 0
    dt.cuda.current_stream(0).wait_stream(s)
    assert float((x == 3).astype(dt.float64).tolist()[-1]) == 1.0
    s.synchronize()
    e = dt.cuda.Event()
    e.record(s)
    s.wait_event(e)
    with pytest.raises(RuntimeError, match="enable_timing"):
        e.elapsed_time(end)


@requires_devices(2)
def test_stream_of_another_device_is_refused():
    s1 = dt.cuda.Stream(device=1)
    with pytest.raises(RuntimeError, match="cuda:1"):
        dt.cuda.Event(device=0).record(s1)


@requires_devices(2)
def test_peer_access_and_copies_between_devices():
    assert dt.cuda.can_device_access_peer(0, 1) in (True, False)
    a = np.random.default_rng(0).standard_normal((64, 33))
    x = dt.asarray(a, device="cuda:0")
    y = x.to("cuda:1")
    assert y.device.index == 1
    np.testing.assert_array_equal(y.cpu().numpy(), a)
    np.testing.assert_array_equal(x.T.to("cuda:1").cpu().numpy(), a.T)  # strided source


def test_smi_prints_a_row_per_device(capsys):
    dt.cuda.smi()
    out = capsys.readouterr().out
    for i in range(dt.cuda.device_count()):
        assert f"\n{i:>3}  " in "\n" + out.split("\n", 1)[1]


def test_smi_utilisation_from_nvml_or_a_dash(capsys):
    dt.cuda.smi()
    header = capsys.readouterr().out.splitlines()[0]
    assert header.rstrip().endswith("util")
    u = dt.cuda._Utilization.percent(0)
    assert u is None or 0 <= u <= 100  # None where NVML is absent (CI) or devices reordered


@requires_devices(1)
def test_record_stream():
    s = dt.cuda.Stream(0)
    x = dt.ones(1000, device="cuda:0")
    s.wait_stream(dt.cuda.current_stream(0))  # x is filled on the current stream
    with s:
        y = x * 2                       # work on s reading x
    x.record_stream(s)                  # x's block is not reused until s is done
    x.record_stream(dt.cuda.default_stream(0))
    del x
    s.synchronize()
    assert y.tolist()[:2] == [2.0, 2.0]
    dt.from_dlpack(dt.ones(2, device="cpu")).to("cuda:0").record_stream(s)
    with pytest.raises(RuntimeError, match="record_stream expects a CUDA tensor"):
        dt.ones(2).record_stream(s)
    with pytest.raises(TypeError, match="devtensor.cuda.Stream"):
        dt.ones(2, device="cuda:0").record_stream(0)


@requires_devices(2)
def test_record_stream_of_another_device_is_refused():
    with pytest.raises(RuntimeError, match="the stream is on cuda:1, the tensor on cuda:0"):
        dt.ones(2, device="cuda:0").record_stream(dt.cuda.Stream(1))
