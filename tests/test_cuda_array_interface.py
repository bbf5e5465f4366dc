"""The CUDA Array Interface (version 3).

Export (Tensor.__cuda_array_interface__): absent for CPU tensors and on
emulated devices; its contents, and a zero-copy round trip through CuPy when
one is importable, only on a real GPU.

Import (dt.asarray / dt.tensor of an object that has the interface, Note
[Foreign device memory] in csrc/python/cuda_array_interface.c): on every CUDA
device, emulated or real, through Exporter, an object that describes a
devtensor tensor's memory as another library would; on a real GPU also from
CuPy and PyTorch when they are importable."""
import gc
import sys
import threading

import numpy as np
import pytest

import devtensor as dt
from helpers import CUDA_DEVICES, EMULATED, HAS_REAL_GPU, requires_devices, to_np


def test_absent_for_cpu_tensors():
    t = dt.ones(3)
    assert not hasattr(t, "__cuda_array_interface__")
    with pytest.raises(AttributeError, match="only for CUDA tensors; this one is on cpu"):
        t.__cuda_array_interface__


@pytest.mark.skipif(not (CUDA_DEVICES and EMULATED), reason="needs an emulated CUDA device")
def test_absent_on_emulated_devices():
    t = dt.ones(3, device=CUDA_DEVICES[0])
    assert not hasattr(t, "__cuda_array_interface__")


@pytest.mark.skipif(not HAS_REAL_GPU, reason="needs a real GPU")
def test_interface_on_a_gpu():
    t = dt.arange(12.0, device="cuda:0").reshape(3, 4)
    cai = t.__cuda_array_interface__
    assert cai["shape"] == (3, 4) and cai["typestr"] == "<f8" and cai["version"] == 3
    assert cai["data"] == (t.data_ptr(), False) and cai["strides"] is None
    assert cai["stream"] is None
    view = t[:, ::2]
    assert view.__cuda_array_interface__["strides"] == (32, 16)
    with pytest.raises(TypeError, match="no bfloat16"):
        t.astype(dt.bfloat16).__cuda_array_interface__
    cupy = pytest.importorskip("cupy")
    c = cupy.asarray(view)  # zero-copy through the interface
    assert c.data.ptr == view.data_ptr()
    np.testing.assert_array_equal(cupy.asnumpy(c), to_np(view))


# ---- import ----------------------------------------------------------------

class Exporter:
    """Another library's CUDA array as the interface describes it: the memory
    of a devtensor tensor (kept here, as a library keeps its buffer)."""

    def __init__(self, t, **changes):
        self.base = t
        cai = {"shape": tuple(t.shape), "typestr": t.dtype.numpy_dtype.str,
               "data": (t.data_ptr(), False), "version": 3,
               "strides": tuple(t.strides), "stream": None}
        cai.update(changes)
        self.__cuda_array_interface__ = cai


needs_cuda = pytest.mark.skipif(not CUDA_DEVICES, reason="needs a CUDA device")
IMPORT_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float16", "float32", "float64", "complex64", "complex128"]


@needs_cuda
@pytest.mark.parametrize("device", CUDA_DEVICES)
@pytest.mark.parametrize("dtype", IMPORT_DTYPES)
def test_import_shares_memory(device, dtype):
    expected = (np.arange(12) % 5).reshape(3, 4).astype(dtype)
    t = dt.asarray(expected, device=device)
    x = dt.asarray(Exporter(t))
    assert x.device == t.device and x.dtype == t.dtype and x.shape == (3, 4)
    assert x.data_ptr() == t.data_ptr() and x.strides == t.strides
    np.testing.assert_array_equal(to_np(x), expected)
    x[1, 2] = 1
    assert to_np(t)[1, 2] == 1  # one memory
    t[0, 0] = 0
    assert to_np(x)[0, 0] == 0
    y = dt.tensor(Exporter(t))  # tensor() copies
    assert y.data_ptr() != t.data_ptr() and y.device == t.device
    np.testing.assert_array_equal(to_np(y), to_np(t))


@needs_cuda
@pytest.mark.parametrize("device", CUDA_DEVICES)
@pytest.mark.parametrize("view", ["strided", "reversed", "transposed", "offset", "zero-d",
                                  "broadcast", "implicit strides"])
def test_import_views(device, view):
    base = dt.arange(24.0, device=device).reshape(4, 6)
    changes = {}
    t = {"strided": lambda: base[:, ::2], "reversed": lambda: base[::-1, ::-3],
         "transposed": lambda: base.T, "offset": lambda: base[1:, 2:],
         "zero-d": lambda: base[2, 3], "broadcast": lambda: dt.broadcast_to(base[1], (5, 6)),
         "implicit strides": lambda: base}[view]()
    if view == "implicit strides":
        changes["strides"] = None  # C-contiguous
    x = dt.asarray(Exporter(t, **changes))
    assert x.data_ptr() == t.data_ptr() and x.shape == t.shape and x.strides == t.strides
    np.testing.assert_array_equal(to_np(x), to_np(t))
    np.testing.assert_array_equal(to_np(x * 2 + 1), to_np(t) * 2 + 1)


@requires_devices(2)
def test_import_takes_the_memory_device():
    t = dt.arange(6, device="cuda:1")
    with dt.cuda.device(0):
        x = dt.asarray(Exporter(t))
    assert x.device == dt.device("cuda:1")
    np.testing.assert_array_equal(to_np(x), np.arange(6))


@needs_cuda
def test_import_read_only():
    t = dt.arange(4.0, device=CUDA_DEVICES[0])
    x = dt.asarray(Exporter(t, data=(t.data_ptr(), True)))
    assert not x.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        x[0] = 1
    np.testing.assert_array_equal(to_np(x + 1), np.arange(4.0) + 1)
    assert to_np(t)[0] == 0


@needs_cuda
def test_import_keeps_the_exporter_alive():
    e = Exporter(dt.arange(1000.0, device=CUDA_DEVICES[0]))
    before = sys.getrefcount(e)
    x = dt.asarray(e)
    assert sys.getrefcount(e) == before + 1
    view = x[10:20]
    del x
    assert sys.getrefcount(e) == before + 1  # the view holds the storage
    del e  # only the tensor holds the memory now (ASan sees any use after free)
    gc.collect()
    dt.cuda.empty_cache()
    assert to_np(view).tolist() == list(np.arange(10.0, 20.0))
    assert to_np(view.sum()) == sum(range(10, 20))


@needs_cuda
def test_import_with_dtype_device_and_copy():
    t = dt.arange(6, dtype=dt.int32, device=CUDA_DEVICES[0])
    e = Exporter(t)
    assert dt.asarray(e, copy=False).data_ptr() == t.data_ptr()
    c = dt.asarray(e, copy=True)
    assert c.data_ptr() != t.data_ptr() and c.device == t.device
    f = dt.asarray(e, dtype=dt.float64)
    assert f.dtype == dt.float64 and f.device == t.device
    np.testing.assert_array_equal(to_np(f), np.arange(6.0))
    with pytest.raises(ValueError, match="copy"):
        dt.asarray(e, dtype=dt.float64, copy=False)
    h = dt.asarray(e, device="cpu")
    assert h.device == dt.device("cpu")
    np.testing.assert_array_equal(h.numpy(), np.arange(6))


@needs_cuda
@pytest.mark.parametrize("address", [0, 64])
def test_import_empty(address):
    e = Exporter(dt.ones(3, device=CUDA_DEVICES[0]), shape=(0, 3), data=(address, False),
                 strides=None)
    with dt.cuda.device(CUDA_DEVICES[-1]):
        x = dt.asarray(e)
    assert x.shape == (0, 3) and x.device == dt.device(CUDA_DEVICES[-1])


@needs_cuda
def test_stream_handles():
    dev = CUDA_DEVICES[0]
    assert dt.cuda.default_stream(dev).cuda_stream == 0
    s1, s2 = dt.cuda.Stream(dev), dt.cuda.Stream(dev)
    assert s1.cuda_stream not in (0, s2.cuda_stream)
    assert s1.cuda_stream == s1.cuda_stream


@needs_cuda
@pytest.mark.parametrize("stream", [None, 1, 2, "producer"])
def test_import_waits_for_the_producer_stream(stream):
    """The producer writes on its own stream and exports at once with that
    stream; the consumer reads on another non-blocking stream: without the
    wait the read would race the write."""
    dev = CUDA_DEVICES[0]
    producer, consumer = dt.cuda.Stream(dev), dt.cuda.Stream(dev)
    n = 1 << 20
    src = dt.arange(n, dtype=dt.float64, device=dev)
    dt.cuda.synchronize(dev)
    for _ in range(8):
        with dt.cuda.stream(producer):
            out = dt.zeros(n, dtype=dt.float64, device=dev)
            dt.multiply(dt.sqrt(src * src + 1.0), 2.0, out=out)  # the last of four kernels
        if stream == "producer":
            handle = producer.cuda_stream
        else:
            handle = stream
            producer.synchronize()  # None, 1 and 2 promise no pending work of another stream
        with dt.cuda.stream(consumer):
            x = dt.asarray(Exporter(out, stream=handle))
            total = float(x.sum())
        expected = float(np.sum(2.0 * np.sqrt(np.arange(n, dtype=np.float64) ** 2 + 1.0)))
        assert total == pytest.approx(expected, rel=1e-12)


BAD_INTERFACES = [
    ({"mask": "x"}, "masked arrays are not supported"),
    ({"stream": 0}, "stream 0 is disallowed"),
    ({"stream": True}, "stream must be an int"),
    ({"stream": -3}, "is not a stream handle"),
    ({"typestr": ">f8"}, "devtensor has no dtype for typestr '>f8'"),
    ({"typestr": "|O"}, "devtensor has no dtype"),
    ({"typestr": "|V8"}, "devtensor has no dtype"),
    ({"typestr": "<U2"}, "devtensor has no dtype"),
    ({"typestr": "spam"}, "devtensor has no dtype for typestr 'spam'"),
    ({"typestr": None}, "devtensor has no dtype for typestr None"),  # np.dtype(None) is float64
    ({"typestr": "<f16"}, "devtensor has no dtype for typestr '<f16'"),
    ({"version": "x"}, "version 'x' is not one of 0 to 3"),
    ({"version": 99}, "version 99 is not one of 0 to 3"),
    ({"data": 5}, "data must be a tuple"),
    ({"shape": (-1,)}, "negative"),
    ({"shape": (2, 2)}, "2 strides for 1 dimensions|1 strides for 2 dimensions"),
    ({"shape": (1,) * 65, "strides": None}, "maximum supported dimension"),
    ({"strides": (8, 8)}, "strides for 1 dimensions"),
    ({"strides": (2**62,), "shape": (4,)}, "64-bit"),
]


@needs_cuda
@pytest.mark.parametrize("changes, message", BAD_INTERFACES)
def test_bad_interfaces_raise(changes, message):
    t = dt.arange(4.0, device=CUDA_DEVICES[0])
    e = Exporter(t, **changes)
    before = sys.getrefcount(e)
    with pytest.raises((BufferError, ValueError, TypeError, OverflowError), match=message):
        dt.asarray(e)
    assert sys.getrefcount(e) == before


@needs_cuda
def test_missing_keys_and_not_a_dict():
    t = dt.arange(4.0, device=CUDA_DEVICES[0])
    for key in ("shape", "typestr", "data"):
        e = Exporter(t)
        del e.__cuda_array_interface__[key]
        with pytest.raises(BufferError, match=f"has no '{key}'"):
            dt.asarray(e)
    e = Exporter(t)
    e.__cuda_array_interface__ = [1, 2]
    with pytest.raises(BufferError, match="must be a dict"):
        dt.asarray(e)


@needs_cuda
def test_memory_that_is_not_a_devices_is_refused():
    dev = CUDA_DEVICES[0]
    t = dt.arange(4.0, device=dev)
    host = dt.arange(4.0)
    e = Exporter(t, data=(host.data_ptr(), False))  # a CPU tensor's address
    with pytest.raises(BufferError, match="host memory|not memory CUDA knows"):
        dt.asarray(e)
    with pytest.raises(BufferError, match="not a multiple of the itemsize 8"):
        dt.asarray(Exporter(t, data=(t.data_ptr() + 4, False)))
    with pytest.raises(BufferError, match="stride 12 of axis 0 is not a multiple"):
        dt.asarray(Exporter(t, strides=(12,), shape=(2,)))
    with pytest.raises(BufferError, match="wraps around"):
        dt.asarray(Exporter(t, strides=(-(2**62),), shape=(2,)))


@pytest.mark.skipif(not (CUDA_DEVICES and EMULATED), reason="a real GPU cannot check a stream handle")
def test_unknown_producer_stream_is_refused():
    """An emulated device knows its streams: a handle that names none fails the
    import with CUDA's error, and nothing is left half-done."""
    t = dt.arange(4.0, device=CUDA_DEVICES[0])
    e = Exporter(t, stream=0x12345)
    before = sys.getrefcount(e)
    with pytest.raises(RuntimeError, match="cudaEventRecord.*(invalid resource handle|handle)"):
        dt.asarray(e)
    assert sys.getrefcount(e) == before
    assert float(dt.asarray(Exporter(t)).sum()) == 6.0  # the device is still usable


@pytest.mark.skipif(not (CUDA_DEVICES and EMULATED), reason="an emulated device knows its allocations")
def test_memory_past_an_allocation_is_refused():
    t = dt.arange(4.0, device=CUDA_DEVICES[0])
    with pytest.raises(BufferError, match="not memory CUDA knows|is host memory"):
        dt.asarray(Exporter(t, shape=(1 << 31,), strides=None))  # past any segment


@needs_cuda
def test_foreign_cuda_dlpack_only_object():
    """An object with only DLPack (a JAX GPU array) goes through from_dlpack:
    on emulated devices that refuses CUDA capsules, saying why."""
    t = dt.arange(3.0, device=CUDA_DEVICES[0])

    class OnlyDLPack:
        def __dlpack__(self, **kw):
            return t.__dlpack__(**kw)

        def __dlpack_device__(self):
            return t.__dlpack_device__()

    if EMULATED:
        with pytest.raises(BufferError, match="emulated CUDA devices"):
            dt.asarray(OnlyDLPack())
    else:
        x = dt.asarray(OnlyDLPack())
        assert x.data_ptr() == t.data_ptr()


def test_import_threads():
    """Imports from several threads at once (the exporter's release takes the GIL)."""
    if not CUDA_DEVICES:
        pytest.skip("needs a CUDA device")
    t = dt.arange(256.0, device=CUDA_DEVICES[0])
    errors = []

    def work():
        try:
            for _ in range(50):
                x = dt.asarray(Exporter(t))
                assert float(x[5]) == 5.0
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors


@pytest.mark.skipif(not HAS_REAL_GPU, reason="needs a real GPU")
def test_import_from_cupy_and_torch():
    cupy = pytest.importorskip("cupy")
    a = cupy.arange(12, dtype=cupy.float32).reshape(3, 4)[:, 1:]
    s = cupy.cuda.Stream(non_blocking=True)
    with s:
        a *= 2  # pending on s: the import must wait for it
        x = dt.asarray(a)
    assert x.data_ptr() == a.data.ptr and x.device == dt.device(f"cuda:{a.device.id}")
    np.testing.assert_array_equal(to_np(x), cupy.asnumpy(a))
    torch = pytest.importorskip("torch")
    tt = torch.arange(6, device="cuda:0", dtype=torch.float64)
    y = dt.asarray(tt)
    assert y.data_ptr() == tt.data_ptr()
    y[0] = 7
    assert tt[0].item() == 7


@needs_cuda
def test_release_waits_for_queued_work():
    """The exporter's memory goes back to its owner only once the device is
    done with it (Note [Releasing another library's device memory]).  Here
    the owner is a devtensor tensor, whose block the caching allocator gives
    out again at once on the default stream, while the reader is still
    queued on a non-blocking stream."""
    dev = CUDA_DEVICES[0]
    n = 1 << 20
    s = dt.cuda.Stream(dev)
    a = np.arange(n, dtype=np.float64)
    expected = float(np.sum(((a * a + a) * 0.5 + a) * 0.25 + a))
    for _ in range(8):
        base = dt.arange(n, dtype=dt.float64, device=dev)
        dt.cuda.synchronize(dev)
        with dt.cuda.stream(s):
            x = dt.asarray(Exporter(base))
            y = ((x * x + x) * 0.5 + x) * 0.25 + x  # six kernels queued on s, four read x
        del x, base  # the exporter lets base go: its block is free
        dt.full(n, -1.0, dtype=dt.float64, device=dev)  # the default stream may take the block
        s.synchronize()
        assert float(y.sum()) == pytest.approx(expected, rel=1e-12)


class _Stop(Exception):
    pass


@needs_cuda
def test_from_dlpack_asks_for_devtensors_current_stream():
    """A CUDA producer orders its work before the consumer's stream: devtensor's
    current stream of that device, 1 (the legacy stream) for the default one."""
    dev = CUDA_DEVICES[0]
    index = dt.device(dev).index
    seen = []

    class Producer:
        def __dlpack_device__(self):
            return (2, index)

        def __dlpack__(self, stream=None, **kw):
            seen.append(stream)
            raise _Stop

    with pytest.raises(_Stop):
        dt.from_dlpack(Producer())
    s = dt.cuda.Stream(dev)
    with dt.cuda.stream(s), pytest.raises(_Stop):
        dt.asarray(Producer())  # a CUDA object without the interface: DLPack
    assert seen == [1, s.cuda_stream] and s.cuda_stream not in (0, 1)


@needs_cuda
def test_interface_falls_back_to_dlpack():
    """What the interface cannot describe (PyTorch's bfloat16 is "<V2"; older
    PyTorch raises KeyError for some dtypes) goes through DLPack when the
    object has it; without DLPack the interface's error stands."""
    t = dt.arange(4.0, device=CUDA_DEVICES[0])
    index = t.device.index

    class Both(Exporter):
        def __dlpack_device__(self):
            return (2, index)

        def __dlpack__(self, stream=None, **kw):
            raise _Stop

    with pytest.raises(_Stop):
        dt.asarray(Both(t, typestr="<V2"))
    with pytest.raises(BufferError, match="devtensor has no dtype"):
        dt.asarray(Exporter(t, typestr="<V2"))

    class Broken:
        @property
        def __cuda_array_interface__(self):
            raise KeyError("bfloat16")

    class BrokenBoth(Broken):
        __dlpack_device__ = Both.__dlpack_device__
        __dlpack__ = Both.__dlpack__

    with pytest.raises(KeyError):
        dt.asarray(Broken())
    with pytest.raises(_Stop):
        dt.asarray(BrokenBoth())
